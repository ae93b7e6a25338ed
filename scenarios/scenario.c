/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario parsing: libinih reads the file (through a line-counting reader,
 * so every key keeps its line), --set overrides are merged, then a key
 * table per section kind checks and converts each value, scaled as the
 * key says. A [workload.*] section takes the keys of every workload
 * (scn_workload_keys) and those its type declares (workload_ops.keys, into
 * cfg->params); its type is read first, wherever its line is. The
 * checks across sections end with each workload type's own check().
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "models/mm.h"
#include "scenarios/scenario.h"
#include "scenarios/workload.h"
#include "storage/blockdev.h"
#include "storage/zram.h"

#define SIZE_MAX_VALUE UINT64_MAX

/* ---- value parsing ---- */

int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	double v, mult = 1;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1024.0; end++; break;
	case 'M': mult = 1024.0 * 1024; end++; break;
	case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (mult > 1 && toupper((unsigned char)*end) == 'I' && toupper((unsigned char)end[1]) == 'B')
		end += 2;
	else if (mult > 1 && toupper((unsigned char)*end) == 'B')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	v *= mult;
	if (v >= 1.8e19)
		return -1;
	*bytes = (uint64_t)llround(v);
	return 0;
}

int parse_time_ns(const char *s, uint64_t *ns)
{
	char *end;
	double v, mult = 1e9;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	if (!strncmp(end, "ns", 2)) { mult = 1; end += 2; }
	else if (!strncmp(end, "us", 2)) { mult = 1e3; end += 2; }
	else if (!strncmp(end, "ms", 2)) { mult = 1e6; end += 2; }
	else if (*end == 's') { mult = 1e9; end++; }
	else if (*end == 'm' && end[1] != 's') { mult = 60e9; end++; }
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	v *= mult;
	if (v >= 1.8e19)
		return -1;
	*ns = (uint64_t)llround(v);
	return 0;
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* ---- key tables ---- */

#define K(k, t, sc, st, f, lo, hi, w) SCN_KEY(k, t, sc, st, f, lo, hi, w, NULL)
#define U KEY_UNSCALED
#define S KEY_SCALED
#define SP KEY_SCALED_PAGES

static const struct key_desc machine_keys[] = {
	K("nodes", KT_INT, U, struct scn_machine, nodes, 1, SCN_MAX_NODES, "a node count"),
	K("node_memory", KT_SIZE, SP, struct scn_machine, node_memory, 0, 0, "a size"),
	K("node_cpus", KT_INT, U, struct scn_machine, node_cpus, 1, 4096, "a core count"),
	K("swappiness", KT_INT, U, struct scn_machine, swappiness, 0, 200, "a swappiness (0-200)"),
	K("watermark_scale_factor", KT_INT, U, struct scn_machine, watermark_scale_factor, 1, 3000,
	  "a factor (1-3000)"),
	K("duration", KT_TIME, U, struct scn_machine, duration_ns, 0, 0, "a duration"),
	K("policy", KT_STRING, U, struct scn_machine, policy, 0, 0, "a policy list"),
	K("scale", KT_SCALE, U, struct scn_machine, scale, 0, 0, "a scale (0 < F <= 1, or 1/N)"),
	{ 0 }
};

static const struct key_desc mglru_keys[] = {
	K("fallback", KT_FALLBACK, U, struct scn_mglru, fallback, 0, 0, "scanned0 or explicit"),
	K("exhaust_detect", KT_TRISTATE, U, struct scn_mglru, exhaust_detect, 0, 0, "0 or 1"),
	K("retry_once", KT_TRISTATE, U, struct scn_mglru, retry_once, 0, 0, "0 or 1"),
	K("fallback_gate", KT_TRISTATE, U, struct scn_mglru, fallback_gate, 0, 0, "0 or 1"),
	K("min_ttl", KT_TIME, KEY_PERIOD, struct scn_mglru, min_ttl_ns, 0, 0, "a duration"),
	{ 0 }
};

/* their kernel defaults: machine_defaults() */
static const struct key_desc sysctl_keys[] = {
	K("vm.dirty_ratio", KT_INT, U, struct scn_sysctl, dirty_ratio, 0, 100, "a percentage"),
	K("vm.dirty_background_ratio", KT_INT, U, struct scn_sysctl, dirty_background_ratio, 0,
	  100, "a percentage"),
	K("vm.dirty_bytes", KT_SIZE, S, struct scn_sysctl, dirty_bytes, 0, 0, "a size"),
	K("vm.dirty_background_bytes", KT_SIZE, S, struct scn_sysctl, dirty_background_bytes, 0,
	  0, "a size"),
	/* centiseconds, periods of the run: they shrink with --scale (run.c) */
	K("vm.dirty_expire_centisecs", KT_INT, U, struct scn_sysctl, dirty_expire_cs, 0,
	  2000000000, "centiseconds"),
	K("vm.dirty_writeback_centisecs", KT_INT, U, struct scn_sysctl, dirty_writeback_cs, 0,
	  2000000000, "centiseconds"),
	{ 0 }
};

static const struct key_desc memcg_opts_keys[] = {
	K("reclaim_batch", KT_RECLAIM_BATCH, U, struct scn_memcg_opts, reclaim_batch, 0, 0,
	  "full, swap_cluster_max or decay4"),
	{ 0 }
};

static const struct key_desc swap_keys[] = {
	K("type", KT_STRING, U, struct scn_swap, type, 0, 0, "a swap type (none, zram, block)"),
	K("size", KT_SIZE, SP, struct scn_swap, size, 0, 0, "a size"),
	K("device", KT_STRING, U, struct scn_swap, device, 0, 0, "a device name"),
	K("compressor", KT_STRING, U, struct scn_swap, compressor, 0, 0, "lz4, lzo or zstd"),
	{ 0 }
};

static const struct key_desc node_keys[] = {
	K("memory", KT_SIZE, SP, struct scn_node, memory, 0, 0, "a size"),
	K("cpus", KT_INT, U, struct scn_node, cpus, 1, 4096, "a core count"),
	{ 0 }
};

static const struct key_desc device_keys[] = {
	K("type", KT_STRING, U, struct scn_device, type, 0, 0, "a device type"),
	K("read_latency", KT_TIME, U, struct scn_device, read_lat_ns, 0, 0, "a duration"),
	K("write_latency", KT_TIME, U, struct scn_device, write_lat_ns, 0, 0, "a duration"),
	K("read_bandwidth", KT_SIZE, U, struct scn_device, read_bw, 0, 0, "a size per second"),
	K("write_bandwidth", KT_SIZE, U, struct scn_device, write_bw, 0, 0, "a size per second"),
	K("channels", KT_INT, U, struct scn_device, channels, 1, 256, "a channel count (1-256)"),
	K("delay_read", KT_TIME, U, struct scn_device, delay_read_ns, 0, 0, "a duration"),
	K("delay_write", KT_TIME, U, struct scn_device, delay_write_ns, 0, 0, "a duration"),
	{ 0 }
};

static const struct key_desc memcg_keys[] = {
	K("parent", KT_STRING, U, struct scn_memcg, parent, 0, 0, "a memcg name"),
	K("max", KT_LIMIT, S, struct scn_memcg, max, 0, 0, "a size"),
	K("high", KT_LIMIT, S, struct scn_memcg, high, 0, 0, "a size"),
	K("low", KT_LIMIT, S, struct scn_memcg, low, 0, 0, "a size"),
	K("min", KT_LIMIT, S, struct scn_memcg, min, 0, 0, "a size"),
	K("swap_max", KT_LIMIT, S, struct scn_memcg, swap_max, 0, 0, "a size"),
	K("swappiness", KT_INT, U, struct scn_memcg, swappiness, 0, 200, "a swappiness (0-200)"),
	{ 0 }
};

/* The keys of every workload type; a type's own are in its wl_*.c (cfg->params). */
#define W struct scn_workload
const struct key_desc scn_workload_keys[] = {
	SCN_KEY("type", KT_WORKLOAD_TYPE, U, W, type, 0, 0, "a workload type",
		"the generator, one of the types below (unset: the first)"),
	SCN_KEY("memcg", KT_STRING, U, W, memcg, 0, 0, "a memcg name",
		"the [memcg.*] its tasks run in (unset: the root)"),
	SCN_KEY("node", KT_INT, U, W, node, 0, SCN_MAX_NODES - 1, "a node id",
		"the NUMA node its tasks run and allocate on"),
	SCN_KEY("threads", KT_INT, U, W, threads, 1, 1024, "a thread count (1-1024)",
		"its threads, jobs or job slots (default 1)"),
	SCN_KEY("size", KT_SIZE, SP, W, size, 0, 0, "a size", "bytes of its file or anonymous region"),
	SCN_KEY("device", KT_STRING, U, W, device, 0, 0, "a device name",
		"the [device.*] its files live on"),
	SCN_KEY("ops", KT_COUNT, S, W, ops, 0, 0, "a count", "operations in all, over its threads"),
	SCN_KEY("start", KT_TIME, U, W, start_ns, 0, 0, "a duration", "when it starts"),
	SCN_KEY("think", KT_TIME, U, W, think_ns, 0, 0, "a duration", "user CPU per operation"),
	{ 0 }
};
#undef W

/* ---- raw entries ---- */

struct entry {
	char section[64];
	char key[64];
	char value[256];
	int line;		/* 0 = from --set */
	const char *set;	/* the --set text */
};

struct parse_ctx {
	struct entry *e;
	int nr, cap;
	const char *text;	/* stream for the reader */
	int line;		/* lines read so far */
	bool overflow;		/* a field did not fit */
};

static char *ini_string_reader(char *str, int num, void *stream)
{
	struct parse_ctx *ctx = stream;
	int i = 0;

	if (!*ctx->text)
		return NULL;
	while (i < num - 1 && *ctx->text) {
		char c = *ctx->text++;

		str[i++] = c;
		if (c == '\n')
			break;
	}
	str[i] = '\0';
	ctx->line++;
	return str;
}

static int add_entry(struct parse_ctx *ctx, const char *section, const char *key,
		     const char *value, int line, const char *set)
{
	struct entry *e;

	if (strlen(section) >= sizeof(e->section) || strlen(key) >= sizeof(e->key) ||
	    strlen(value) >= sizeof(e->value)) {
		ctx->overflow = true;
		return 0;
	}
	/* a later value of the same key replaces the earlier one */
	for (int i = 0; i < ctx->nr; i++) {
		e = &ctx->e[i];
		if (!strcmp(e->section, section) && !strcmp(e->key, key)) {
			snprintf(e->value, sizeof(e->value), "%s", value);
			e->line = line;
			e->set = set;
			return 1;
		}
	}
	if (ctx->nr == ctx->cap) {
		int cap = ctx->cap ? 2 * ctx->cap : 64;
		struct entry *n = realloc(ctx->e, (size_t)cap * sizeof(*n));

		if (!n)
			return 0;
		ctx->e = n;
		ctx->cap = cap;
	}
	e = &ctx->e[ctx->nr++];
	memset(e, 0, sizeof(*e));
	snprintf(e->section, sizeof(e->section), "%s", section);
	snprintf(e->key, sizeof(e->key), "%s", key);
	snprintf(e->value, sizeof(e->value), "%s", value);
	e->line = line;
	e->set = set;
	return 1;
}

static int scenario_ini_handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *ctx = user;

	return add_entry(ctx, section, name, value, ctx->line, NULL);
}

/* ---- interpretation ---- */

struct err_ctx {
	char *buf;
	size_t len;
	const char *file;
};

static void where(const struct err_ctx *ec, const struct entry *e, char *out, size_t len)
{
	if (e->set)
		snprintf(out, len, "scenario '%s' --set '%s'", ec->file, e->set);
	else
		snprintf(out, len, "scenario '%s' line %d", ec->file, e->line);
}

static int bad_value(const struct err_ctx *ec, const struct entry *e, const char *what)
{
	char w[320];

	where(ec, e, w, sizeof(w));
	snprintf(ec->buf, ec->len, "%s: [%s] %s: '%s' is not %s", w, e->section, e->key,
		 e->value, what);
	return -1;
}

static int parse_scale(const char *v, double *out)
{
	const char *slash = strchr(v, '/');
	double num, den;

	if (slash) {
		char a[64];

		if ((size_t)(slash - v) >= sizeof(a))
			return -1;
		memcpy(a, v, (size_t)(slash - v));
		a[slash - v] = '\0';
		if (parse_double(a, 1e-9, 1e9, &num) || parse_double(slash + 1, 1e-9, 1e9, &den))
			return -1;
		*out = num / den;
	} else if (parse_double(v, 1e-9, 1, out)) {
		return -1;
	}
	return *out > 0 && *out <= 1 ? 0 : -1;
}

static const struct key_desc *find_key(const struct key_desc *tab, const char *key)
{
	for (const struct key_desc *k = tab; k && k->key; k++)
		if (!strcmp(k->key, key))
			return k;
	return NULL;
}

static int unknown_key(const struct entry *e, const struct err_ctx *ec)
{
	char w[320];

	where(ec, e, w, sizeof(w));
	snprintf(ec->buf, ec->len, "%s: [%s]: unknown key '%s'", w, e->section, e->key);
	return -1;
}

/* Sets the field of key k in obj from e's value, scaled as k says. */
static int set_key(void *obj, const struct key_desc *k, const struct entry *e, double scale,
		   const struct err_ctx *ec)
{
	char *p = (char *)obj + k->offset;

	if (k->scale == KEY_UNSCALED)
		scale = 1.0;
	switch (k->type) {
	case KT_INT_SIZE:
		if (parse_size(e->value, (uint64_t *)p) || !*(uint64_t *)p)
			return bad_value(ec, e, k->what);
		return 0;
	case KT_SIZE:
	case KT_LIMIT:
	case KT_AMOUNT:
	case KT_COUNT: {
		uint64_t v;

		if ((k->type == KT_LIMIT && !strcmp(e->value, "max")) ||
		    (k->type == KT_AMOUNT && !strcmp(e->value, "full"))) {
			*(uint64_t *)p = SIZE_MAX_VALUE;
			return 0;
		}
		if (k->type == KT_COUNT) {
			double d;

			if (parse_double(e->value, 0, 1e18, &d) || d != floor(d))
				return bad_value(ec, e, "a count");
			v = (uint64_t)d;
		} else if (parse_size(e->value, &v)) {
			return bad_value(ec, e, k->what);
		}
		*(uint64_t *)p = (uint64_t)llround((double)v * scale);
		/* sizes are whole pages after scaling */
		if (k->scale == KEY_SCALED_PAGES)
			*(uint64_t *)p &= ~4095ULL;
		return 0;
	}
	case KT_INT: {
		long v;

		if (parse_long(e->value, (long)k->lo, (long)k->hi, &v))
			return bad_value(ec, e, k->what);
		if (k->size == sizeof(int64_t))
			*(int64_t *)p = v;
		else
			*(int *)p = (int)v;
		return 0;
	}
	case KT_DOUBLE:
		if (parse_double(e->value, k->lo, k->hi, (double *)p))
			return bad_value(ec, e, k->what);
		return 0;
	case KT_SCALE:
		if (parse_scale(e->value, (double *)p))
			return bad_value(ec, e, k->what);
		return 0;
	case KT_TIME:
		if (parse_time_ns(e->value, (uint64_t *)p))
			return bad_value(ec, e, k->what);
		/* a period shrinks with the run it recurs in */
		if (k->scale == KEY_PERIOD)
			*(uint64_t *)p = (uint64_t)llround((double)*(uint64_t *)p * scale);
		return 0;
	case KT_STRING:
		if (strlen(e->value) >= k->size || !*e->value)
			return bad_value(ec, e, k->what);
		snprintf(p, k->size, "%s", e->value);
		return 0;
	case KT_BOOL:
		if (!strcmp(e->value, "1") || !strcmp(e->value, "yes") || !strcmp(e->value, "true"))
			*(bool *)p = true;
		else if (!strcmp(e->value, "0") || !strcmp(e->value, "no") ||
			 !strcmp(e->value, "false"))
			*(bool *)p = false;
		else
			return bad_value(ec, e, k->what);
		return 0;
	case KT_WORKLOAD_TYPE:
		/* resolved with the section (section_object): its keys depend on it */
		return 0;
	case KT_CHOICE:
		for (int i = 0; k->choices[i]; i++) {
			if (!strcmp(e->value, k->choices[i])) {
				*(int *)p = i;
				return 0;
			}
		}
		return bad_value(ec, e, k->what);
	case KT_FALLBACK:
		if (!strcmp(e->value, "scanned0"))
			*(int *)p = 0;
		else if (!strcmp(e->value, "explicit"))
			*(int *)p = 1;
		else
			return bad_value(ec, e, k->what);
		return 0;
	case KT_TRISTATE:
		if (!strcmp(e->value, "0"))
			*(int *)p = 0;
		else if (!strcmp(e->value, "1"))
			*(int *)p = 1;
		else
			return bad_value(ec, e, k->what);
		return 0;
	case KT_RECLAIM_BATCH:
		if (!strcmp(e->value, "full"))
			*(int *)p = RECLAIM_BATCH_FULL;
		else if (!strcmp(e->value, "swap_cluster_max"))
			*(int *)p = RECLAIM_BATCH_SWAP_CLUSTER_MAX;
		else if (!strcmp(e->value, "decay4"))
			*(int *)p = RECLAIM_BATCH_DECAY4;
		else
			return bad_value(ec, e, k->what);
		return 0;
	}
	return -1;
}

static int apply_key(void *obj, const struct key_desc *tab, const struct entry *e,
		     double scale, const struct err_ctx *ec)
{
	const struct key_desc *k = find_key(tab, e->key);

	return k ? set_key(obj, k, e, scale, ec) : unknown_key(e, ec);
}

/* Appends "a, b, c" (the keys of tab) to buf at *len. */
static void list_keys(char *buf, size_t cap, size_t *len, const struct key_desc *tab)
{
	for (const struct key_desc *k = tab; k && k->key && *len < cap; k++)
		*len += (size_t)snprintf(buf + *len, cap - *len, "%s%s", *len ? ", " : "", k->key);
}

/* A workload's key: one of every type's, else one of its type's (in cfg->params). */
static int apply_workload_key(struct scn_workload *w, const struct entry *e, double scale,
			      const struct err_ctx *ec)
{
	const struct key_desc *k = find_key(scn_workload_keys, e->key);
	char keys[1024], at[320];
	size_t len = 0;

	if (k)
		return set_key(w, k, e, scale, ec);
	k = find_key(w->type->keys, e->key);
	if (k)
		return set_key(w->params, k, e, scale, ec);
	list_keys(keys, sizeof(keys), &len, scn_workload_keys);
	list_keys(keys, sizeof(keys), &len, w->type->keys);
	where(ec, e, at, sizeof(at));
	snprintf(ec->buf, ec->len, "%s: [%s]: unknown key '%s'; a '%s' workload takes %s", at,
		 e->section, e->key, w->type->name, keys);
	return -1;
}

static bool valid_name(const char *n)
{
	if (!*n)
		return false;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '-' && *n != '_')
			return false;
	return true;
}

static void device_defaults(struct scn_device *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->type, sizeof(d->type), "nvme");
}

static void memcg_defaults(struct scn_memcg *m)
{
	memset(m, 0, sizeof(*m));
	m->max = m->high = m->swap_max = SIZE_MAX_VALUE;
	m->swappiness = -1;
}

/*
 * A new [workload.NAME]: its type comes first, wherever its line is (INI
 * order is free), since the type says which keys the section takes and
 * sets their defaults. The last `type` counts, as for every key: a --set
 * (after the file's lines) overrides the file's. NULL with a message on
 * error.
 */
static struct scn_workload *workload_create(struct scenario *s, const struct parse_ctx *ctx,
					    const char *sec, const char *name,
					    const struct err_ctx *ec)
{
	struct scn_workload *w = &s->workload[s->nr_workloads];
	const struct entry *te = NULL;

	for (int i = 0; i < ctx->nr; i++)
		if (!strcmp(ctx->e[i].section, sec) && !strcmp(ctx->e[i].key, "type"))
			te = &ctx->e[i];
	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", name);
	w->threads = 1;
	w->type = te ? workload_type_find(te->value) : workload_types[0];
	if (!w->type) {
		char what[512] = "a workload type (";
		size_t len = strlen(what);

		for (int t = 0; workload_types[t] && len < sizeof(what); t++)
			len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%s", t ? ", " : "",
						workload_types[t]->name);
		if (len < sizeof(what))
			snprintf(what + len, sizeof(what) - len, ")");
		bad_value(ec, te, what);
		return NULL;
	}
	if (w->type->params_size && !(w->params = calloc(1, w->type->params_size))) {
		snprintf(ec->buf, ec->len, "scenario '%s': [%s]: out of memory", ec->file, sec);
		return NULL;
	}
	if (w->type->params_init)
		w->type->params_init(w);
	s->nr_workloads++;
	return w;
}

/*
 * Finds or creates the object for a section and its key table (NULL for a
 * workload: its keys are every type's and its type's, apply_workload_key);
 * NULL with a message on error.
 */
static void *section_object(struct scenario *s, const struct parse_ctx *ctx,
			    const struct entry *e, const struct key_desc **tab,
			    const struct err_ctx *ec)
{
	const char *sec = e->section, *dot = strchr(sec, '.');
	char kind[32], name[SCN_NAME_LEN], w[320];

	where(ec, e, w, sizeof(w));
	if (!strcmp(sec, "machine")) {
		*tab = machine_keys;
		return &s->machine;
	}
	if (!strcmp(sec, "mglru")) {
		*tab = mglru_keys;
		return &s->mglru;
	}
	if (!strcmp(sec, "swap")) {
		*tab = swap_keys;
		return &s->swap;
	}
	if (!strcmp(sec, "sysctl")) {
		*tab = sysctl_keys;
		return &s->sysctl;
	}
	if (!strcmp(sec, "memcg")) {
		*tab = memcg_opts_keys;
		return &s->memcg_opts;
	}
	if (!dot || (size_t)(dot - sec) >= sizeof(kind) || strlen(dot + 1) >= sizeof(name) ||
	    !valid_name(dot + 1)) {
		snprintf(ec->buf, ec->len, "%s: unknown section [%s]", w, sec);
		return NULL;
	}
	memcpy(kind, sec, (size_t)(dot - sec));
	kind[dot - sec] = '\0';
	snprintf(name, sizeof(name), "%s", dot + 1);

	if (!strcmp(kind, "node")) {
		long nid;

		if (parse_long(name, 0, SCN_MAX_NODES - 1, &nid)) {
			snprintf(ec->buf, ec->len, "%s: [%s]: node id '%s' is not in 0-%d", w,
				 sec, name, SCN_MAX_NODES - 1);
			return NULL;
		}
		*tab = node_keys;
		return &s->node[nid];
	}
#define FIND_OR_ADD(arr, nr, max, keys, init)                                          \
	do {                                                                           \
		for (int i = 0; i < s->nr; i++)                                        \
			if (!strcmp(s->arr[i].name, name)) {                           \
				*tab = keys;                                           \
				return &s->arr[i];                                     \
			}                                                              \
		if (s->nr == max) {                                                    \
			snprintf(ec->buf, ec->len, "%s: [%s]: more than %d %s sections", w, \
				 sec, max, kind);                                      \
			return NULL;                                                   \
		}                                                                      \
		init(&s->arr[s->nr]);                                                  \
		snprintf(s->arr[s->nr].name, sizeof(s->arr[s->nr].name), "%s", name);  \
		*tab = keys;                                                           \
		return &s->arr[s->nr++];                                               \
	} while (0)
	if (!strcmp(kind, "device"))
		FIND_OR_ADD(device, nr_devices, SCN_MAX_DEVICES, device_keys, device_defaults);
	if (!strcmp(kind, "memcg"))
		FIND_OR_ADD(memcg, nr_memcgs, SCN_MAX_MEMCGS, memcg_keys, memcg_defaults);
#undef FIND_OR_ADD
	if (!strcmp(kind, "workload")) {
		*tab = NULL;
		for (int i = 0; i < s->nr_workloads; i++)
			if (!strcmp(s->workload[i].name, name))
				return &s->workload[i];
		if (s->nr_workloads == SCN_MAX_WORKLOADS) {
			snprintf(ec->buf, ec->len, "%s: [%s]: more than %d %s sections", w, sec,
				 SCN_MAX_WORKLOADS, kind);
			return NULL;
		}
		return workload_create(s, ctx, sec, name, ec);
	}
	snprintf(ec->buf, ec->len, "%s: unknown section [%s]", w, sec);
	return NULL;
}

static void machine_defaults(struct scenario *s)
{
	s->machine.nodes = 2;
	s->machine.node_memory = 8ULL << 30;
	s->machine.node_cpus = 4;
	s->machine.swappiness = 60;		/* vm.swappiness default */
	s->machine.watermark_scale_factor = 10;	/* vm.watermark_scale_factor default */
	s->machine.scale = 1.0;
	s->mglru = (struct scn_mglru){ -1, -1, -1, -1, 0 };
	s->memcg_opts.reclaim_batch = -1;
	/* Documentation/admin-guide/sysctl/vm.rst defaults */
	s->sysctl = (struct scn_sysctl){ .dirty_ratio = 20, .dirty_background_ratio = 10,
					 .dirty_expire_cs = 3000, .dirty_writeback_cs = 500 };
	snprintf(s->swap.type, sizeof(s->swap.type), "none");
	snprintf(s->swap.compressor, sizeof(s->swap.compressor), "lz4");
}

/* The entries of the scenario being validated, to name lines in messages. */
static const struct parse_ctx *validate_ctx;

static int fail_at(char *err, size_t errlen, const char *path, const char *sec,
		   const char *key, const char *msg)
{
	const struct entry *e = NULL;

	for (int i = 0; validate_ctx && i < validate_ctx->nr; i++)
		if (!strcmp(validate_ctx->e[i].section, sec) && !strcmp(validate_ctx->e[i].key, key))
			e = &validate_ctx->e[i];
	/* a missing key: name the section's first line */
	for (int i = 0; !e && validate_ctx && i < validate_ctx->nr; i++)
		if (!strcmp(validate_ctx->e[i].section, sec) && !validate_ctx->e[i].set)
			e = &validate_ctx->e[i];
	if (e && e->set)
		snprintf(err, errlen, "scenario '%s' --set '%s': [%s] %s: %s", path, e->set, sec,
			 key, msg);
	else if (e)
		snprintf(err, errlen, "scenario '%s' line %d: [%s] %s: %s", path, e->line, sec, key,
			 msg);
	else
		snprintf(err, errlen, "scenario '%s': [%s] %s: %s", path, sec, key, msg);
	return -1;
}

int scn_fail(const struct scn_check *ck, const char *section, const char *key, const char *msg)
{
	return fail_at(ck->err, ck->errlen, ck->s->path, section ? section : ck->section, key, msg);
}

/* A workload's checks: those of every type, then its type's. */
static int workload_validate(const struct scenario *s, struct scn_workload *w, char *err,
			     size_t errlen)
{
	const char *p = s->path;
	char sec[80];
	struct scn_check ck = { s, sec, err, errlen };
	int j;

	snprintf(sec, sizeof(sec), "workload.%s", w->name);
	if (!w->size)
		return fail_at(err, errlen, p, sec, "size", "a workload needs a size");
	if (w->node >= s->machine.nodes)
		return fail_at(err, errlen, p, sec, "node", "no such node on this machine");
	if (w->memcg[0]) {
		for (j = 0; j < s->nr_memcgs; j++)
			if (!strcmp(s->memcg[j].name, w->memcg))
				break;
		if (j == s->nr_memcgs)
			return fail_at(err, errlen, p, sec, "memcg", "no such memcg");
	}
	if (w->type->check && w->type->check(w, &ck))
		return -1;
	if (w->type->needs_device && w->type->needs_device(w)) {
		if (!w->device[0])
			return fail_at(err, errlen, p, sec, "device", "a file workload needs a device");
		for (j = 0; j < s->nr_devices; j++)
			if (!strcmp(s->device[j].name, w->device))
				break;
		if (j == s->nr_devices)
			return fail_at(err, errlen, p, sec, "device", "no such device");
	}
	if (!w->ops)
		return fail_at(err, errlen, p, sec, "ops", "a workload needs ops > 0");
	return 0;
}

/* Cross-section checks: names resolve, sizes fit, the machine is possible. */
static int scenario_validate(struct scenario *s, char *err, size_t errlen)
{
	const char *p = s->path;
	uint64_t total = 0;

	for (int n = 0; n < s->machine.nodes; n++) {
		uint64_t mem = s->node[n].memory ? s->node[n].memory : s->machine.node_memory;

		if (mem < (16ULL << 20))
			return fail_at(err, errlen, p, "machine", "node_memory",
				       "a node needs at least 16M after scaling");
		total += mem;
	}
	if (total / 4096 >= UINT32_MAX)
		return fail_at(err, errlen, p, "machine", "node_memory",
			       "more than 2^32 pages in all is not supported");
	for (int i = 0; i < s->nr_devices; i++) {
		enum bdev_type t;

		if (bdev_type_parse(s->device[i].type, &t)) {
			char sec[80];

			snprintf(sec, sizeof(sec), "device.%s", s->device[i].name);
			return fail_at(err, errlen, p, sec, "type",
				       "unknown device type (known: nvme, hdd, ramdisk)");
		}
	}
	if (strcmp(s->swap.type, "none")) {
		enum zram_comp c;

		if (strcmp(s->swap.type, "zram") && strcmp(s->swap.type, "block"))
			return fail_at(err, errlen, p, "swap", "type",
				       "unknown swap type (known: none, zram, block)");
		if (s->swap.size < 4096)
			return fail_at(err, errlen, p, "swap", "size", "a swap device needs a size");
		if (s->swap.size / 4096 >= (1ULL << 23))
			return fail_at(err, errlen, p, "swap", "size",
				       "more than 2^23 swap slots (32G) is not supported; use --scale");
		if (zram_comp_parse(s->swap.compressor, &c))
			return fail_at(err, errlen, p, "swap", "compressor",
				       "unknown compressor (known: lz4, lzo, zstd)");
		if (!strcmp(s->swap.type, "block")) {
			int j;

			for (j = 0; j < s->nr_devices; j++)
				if (!strcmp(s->device[j].name, s->swap.device))
					break;
			if (j == s->nr_devices)
				return fail_at(err, errlen, p, "swap", "device",
					       "block swap needs one of the [device.*] names");
		}
	}
	for (int i = 0; i < s->nr_memcgs; i++) {
		struct scn_memcg *m = &s->memcg[i];
		char sec[80];

		snprintf(sec, sizeof(sec), "memcg.%s", m->name);
		if (m->parent[0]) {
			int j;

			for (j = 0; j < i; j++)
				if (!strcmp(s->memcg[j].name, m->parent))
					break;
			if (j == i)
				return fail_at(err, errlen, p, sec, "parent",
					       "no memcg of that name is declared before it");
		}
		if (m->max != SIZE_MAX_VALUE && m->max < (1ULL << 20))
			return fail_at(err, errlen, p, sec, "max",
				       "memory.max below 1M after scaling cannot run anything");
	}
	if (!s->nr_workloads)
		return fail_at(err, errlen, p, "workload.*", "type", "no workload is declared");
	for (int i = 0; i < s->nr_workloads; i++)
		if (workload_validate(s, &s->workload[i], err, errlen))
			return -1;
	return 0;
}

/* Longer than any scenario: a device that never ends (/dev/zero, /dev/urandom) is refused. */
#define SCENARIO_MAX_BYTES (16 << 20)

/*
 * A scenario file's whole text, NUL-terminated, into a malloc'ed *text:
 * its length, or -errno (-EILSEQ: a NUL byte, binary data; -EFBIG: over
 * SCENARIO_MAX_BYTES).
 */
static long read_text(FILE *f, char **text)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	*text = NULL;
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		char *grown;

		if (memchr(buf + len, '\0', n)) {
			free(buf);
			return -EILSEQ;
		}
		len += n;
		if (len < cap - 1) {	/* a short read: the end, or an error */
			if (ferror(f)) {
				int e = errno ? errno : EIO;

				free(buf);
				return -e;
			}
			break;
		}
		if (cap > SCENARIO_MAX_BYTES) {
			free(buf);
			return -EFBIG;
		}
		grown = realloc(buf, cap *= 2);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (!buf)
		return -ENOMEM;
	buf[len] = '\0';
	*text = buf;
	return (long)len;
}

int scenario_load(struct scenario *s, const char *path, const char *const *sets,
		  int nr_sets, double scale, char *err, size_t errlen)
{
	struct parse_ctx ctx = { 0 };
	struct err_ctx ec = { err, errlen, path };
	const char *base;
	FILE *f;
	long len;
	int rc;

	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	base = strrchr(path, '/');
	snprintf(s->name, sizeof(s->name), "%s", base ? base + 1 : path);
	if (strlen(s->name) > 4 && !strcmp(s->name + strlen(s->name) - 4, ".ini"))
		s->name[strlen(s->name) - 4] = '\0';

	f = fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "scenario '%s': %s", path, strerror(errno));
		return -1;
	}
	/* read to the end, not to a size asked beforehand: a pipe or FIFO has none */
	len = read_text(f, &s->text);
	fclose(f);
	if (len == -EFBIG) {
		snprintf(err, errlen, "scenario '%s': longer than %d MiB, not a scenario", path,
			 SCENARIO_MAX_BYTES >> 20);
		return -1;
	}
	if (len < 0 && len != -EILSEQ) {
		snprintf(err, errlen, "scenario '%s': cannot read it: %s", path, strerror((int)-len));
		return -1;
	}
	if (len == -EILSEQ) {
		snprintf(err, errlen, "scenario '%s': binary data in a scenario file", path);
		return -1;
	}

	ctx.text = s->text;
	rc = ini_parse_stream(ini_string_reader, &ctx, scenario_ini_handler, &ctx);
	if (rc > 0) {
		snprintf(err, errlen, "scenario '%s' line %d: not a section, key = value or comment",
			 path, rc);
		free(ctx.e);
		return -1;
	}
	if (rc < 0 || ctx.overflow) {
		snprintf(err, errlen, "scenario '%s': a section, key or value is too long", path);
		free(ctx.e);
		return -1;
	}

	/* --set section.key=value: kind[.name].key */
	for (int i = 0; i < nr_sets; i++) {
		const char *eq = strchr(sets[i], '='), *dot1, *dot2;
		char sec[64], key[64];
		size_t sl;

		dot1 = strchr(sets[i], '.');
		if (!eq || !dot1 || dot1 > eq) {
			snprintf(err, errlen, "--set '%s': expected section.key=value", sets[i]);
			free(ctx.e);
			return -1;
		}
		/* a sysctl under its own name: vm.KEY=V, or sysctl.vm.KEY=V */
		if (!strncmp(sets[i], "vm.", 3) || !strncmp(sets[i], "sysctl.vm.", 10)) {
			const char *k = sets[i][0] == 's' ? sets[i] + 7 : sets[i];

			if ((size_t)(eq - k) >= sizeof(key)) {
				snprintf(err, errlen, "--set '%s': key too long", sets[i]);
				free(ctx.e);
				return -1;
			}
			memcpy(key, k, (size_t)(eq - k));
			key[eq - k] = '\0';
			add_entry(&ctx, "sysctl", key, eq + 1, 0, sets[i]);
			continue;
		}
		/* [memcg] has no name: memcg.KEY=V; [memcg.NAME]: memcg.NAME.KEY=V */
		if (!strncmp(sets[i], "machine.", 8) || !strncmp(sets[i], "mglru.", 6) ||
		    !strncmp(sets[i], "swap.", 5) ||
		    (!strncmp(sets[i], "memcg.", 6) &&
		     (!strchr(dot1 + 1, '.') || strchr(dot1 + 1, '.') > eq))) {
			dot2 = dot1;
		} else {
			dot2 = strchr(dot1 + 1, '.');
			if (!dot2 || dot2 > eq) {
				snprintf(err, errlen, "--set '%s': expected kind.name.key=value", sets[i]);
				free(ctx.e);
				return -1;
			}
		}
		sl = (size_t)(dot2 - sets[i]);
		if (sl >= sizeof(sec) || (size_t)(eq - dot2 - 1) >= sizeof(key) || eq == dot2 + 1) {
			snprintf(err, errlen, "--set '%s': section or key too long or empty", sets[i]);
			free(ctx.e);
			return -1;
		}
		memcpy(sec, sets[i], sl);
		sec[sl] = '\0';
		memcpy(key, dot2 + 1, (size_t)(eq - dot2 - 1));
		key[eq - dot2 - 1] = '\0';
		add_entry(&ctx, sec, key, eq + 1, 0, sets[i]);
	}

	/* The scale first: it applies to every size and count. */
	machine_defaults(s);
	for (int i = 0; i < ctx.nr; i++) {
		if (!strcmp(ctx.e[i].section, "machine") && !strcmp(ctx.e[i].key, "scale") &&
		    apply_key(&s->machine, machine_keys, &ctx.e[i], 1.0, &ec)) {
			free(ctx.e);
			return -1;
		}
	}
	if (scale <= 0)
		scale = s->machine.scale;
	s->machine.scale = scale;

	/* Sections in file order, so memcg parents precede children. */
	for (int i = 0; i < ctx.nr; i++) {
		const struct key_desc *tab;
		void *obj = section_object(s, &ctx, &ctx.e[i], &tab, &ec);

		if (!obj || (tab ? apply_key(obj, tab, &ctx.e[i], scale, &ec)
				 : apply_workload_key(obj, &ctx.e[i], scale, &ec))) {
			free(ctx.e);
			return -1;
		}
	}
	/* the scale in force is the one applied, --scale over the file's */
	s->machine.scale = scale;
	for (int i = 0; i < s->nr_workloads; i++)
		s->workload[i].scale = scale;
	validate_ctx = &ctx;
	rc = scenario_validate(s, err, errlen);
	validate_ctx = NULL;
	free(ctx.e);
	return rc;
}

void scenario_free(struct scenario *s)
{
	for (int i = 0; i < s->nr_workloads; i++) {
		struct scn_workload *w = &s->workload[i];

		if (w->params && w->type->params_free)
			w->type->params_free(w);
		free(w->params);
		w->params = NULL;
	}
	free(s->text);
	s->text = NULL;
}
