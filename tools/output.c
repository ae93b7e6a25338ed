/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Result writers: the cover-letter table (tools/table.c), JSON through
 * libjansson, and CSV (one value per row). They read the mmemu.Invocation
 * message only, whether it came from the runs' pipes or from a saved file,
 * and each walks every group of every run.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/output.h"
#include "tools/table.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- the notes above a table ---- */

static const char *const limit_keys[] = {
	"memory.max", "memory.high", "memory.low", "memory.min", "memory.swap.max",
};

/* "37.5M" or "max" (0: no limit, for the limits that have none) */
static void fmt_limit(char *buf, size_t len, const char *key, double v)
{
	if (v == 0 && value_class_of("memcg.x", key) == VC_LIMIT)
		snprintf(buf, len, "max");
	else
		fmt_bytes(buf, len, v);
}

/* One line per memcg with a limit: its distinct values over the columns. */
static void notes_limits(FILE *f, const struct resultset *rs, const struct output_column *cols,
			 int nr_cols)
{
	double scale = rs->inv->scale;
	char sc[32];

	fmt_scale(sc, sizeof(sc), scale);
	for (int g = 0; g < rs->nr_groups; g++) {
		const char *name = rs->groups[g].name;
		bool header = false;

		if (!group_is_kind(name, "memcg"))
			continue;
		for (size_t k = 0; k < sizeof(limit_keys) / sizeof(limit_keys[0]); k++) {
			int slot = resultset_find(rs, name, limit_keys[k]);
			double seen[64];
			int nr_seen = 0;
			bool any = false;

			if (slot < 0)
				continue;
			for (int c = 0; c < nr_cols; c++)
				for (size_t i = 0; i < cols[c].nr_runs; i++) {
					const Mmemu__Value *v = resultset_value(rs, cols[c].runs[i], slot);
					bool dup = false;

					if (!v)
						continue;
					any |= v->value != 0;
					for (int s = 0; s < nr_seen; s++)
						dup |= seen[s] == v->value;
					if (!dup && nr_seen < 64)
						seen[nr_seen++] = v->value;
				}
			if (!any)
				continue;
			if (header)
				fprintf(f, ", %s", limit_keys[k]);
			else
				fprintf(f, "memcg %s: %s", name + 6, limit_keys[k]);
			header = true;
			for (int s = 0; s < nr_seen; s++) {
				char buf[32];

				fmt_limit(buf, sizeof(buf), limit_keys[k], seen[s]);
				fprintf(f, "%s%s", s ? ", " : " ", buf);
			}
			if (scale != 1) {
				fprintf(f, " (");
				for (int s = 0; s < nr_seen; s++) {
					char buf[32];

					fmt_limit(buf, sizeof(buf), limit_keys[k], seen[s] / scale);
					fprintf(f, "%s%s", s ? ", " : "", buf);
				}
				fprintf(f, " at scale %s)", sc);
			}
		}
		if (header)
			fputc('\n', f);
	}
}

/* Every workload an OOM kill ended, per column. */
static void notes_oom(FILE *f, const struct resultset *rs, const struct output_column *cols,
		      int nr_cols)
{
	for (int g = 0; g < rs->nr_groups; g++) {
		const char *name = rs->groups[g].name;
		int killed = resultset_find(rs, name, "oom_killed");
		int when = resultset_find(rs, name, "oom_kill_s");

		if (!group_is_kind(name, "workload") || killed < 0)
			continue;
		for (int c = 0; c < nr_cols; c++) {
			size_t nr = 0;
			double at = 0;

			for (size_t i = 0; i < cols[c].nr_runs; i++) {
				const Mmemu__Value *v = resultset_value(rs, cols[c].runs[i], killed);
				const Mmemu__Value *t = resultset_value(rs, cols[c].runs[i], when);

				if (v && v->value > 0) {
					nr++;
					at = t ? t->value : 0;
				}
			}
			if (!nr)
				continue;
			if (cols[c].nr_runs == 1)
				fprintf(f, "OOM: workload %s was killed under %s, at %.3g s simulated\n",
					name + 9, cols[c].label, at);
			else
				fprintf(f, "OOM: workload %s was killed in %zu of %zu runs under %s\n",
					name + 9, nr, cols[c].nr_runs, cols[c].label);
		}
	}
}

void output_notes(FILE *f, const struct resultset *rs, const struct output_column *cols,
		  int nr_cols)
{
	notes_limits(f, rs, cols, nr_cols);
	notes_oom(f, rs, cols, nr_cols);
}

/* ---- text ---- */

struct text_ctx {
	const struct resultset *rs;
};

static struct table_cell text_cell(void *ctx, int col, int slot)
{
	const struct text_ctx *t = ctx;
	struct table_cell c = { 0 };
	const Mmemu__Value *v;

	if (slot < 0) {
		c.present = true;
		c.v = t->rs->inv->runs[col]->sim_seconds;
		return c;
	}
	v = resultset_value(t->rs, (size_t)col, slot);
	if (v) {
		c.present = true;
		c.v = v->value;
		c.is_int = v->is_int;
	}
	return c;
}

static bool all_same(const Mmemu__Invocation *inv, size_t off)
{
	for (size_t i = 1; i < inv->n_runs; i++)
		if (strcmp(*(char **)((char *)inv->runs[i] + off), *(char **)((char *)inv->runs[0] + off)))
			return false;
	return true;
}

static int output_text(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv,
		       char *err, size_t errlen)
{
	size_t nr = inv->n_runs;
	const char **policy = calloc(nr, sizeof(*policy));
	char **options = calloc(nr, sizeof(*options));
	const char **seeds = calloc(nr, sizeof(*seeds));
	char **labels = calloc(nr, sizeof(*labels)), (*seed_buf)[24] = calloc(nr, sizeof(*seed_buf));
	struct output_column *cols = calloc(nr, sizeof(*cols));
	size_t *idx = calloc(nr, sizeof(*idx));
	bool same_seed = true, any_options = false, same_options = true;
	struct resultset rs;
	struct text_ctx ctx = { &rs };
	struct table t = { 0 };
	char sc[32];
	int rc = -1;

	if (!policy || !options || !seeds || !labels || !seed_buf || !cols || !idx ||
	    resultset_build(&rs, inv)) {
		rc = fail(err, errlen, "out of memory");
		goto out_nors;
	}
	for (size_t i = 0; i < nr; i++) {
		const Mmemu__Run *r = inv->runs[i];

		policy[i] = resultset_policy_label(inv, i);
		options[i] = result_options_text(r);
		if (!options[i]) {
			rc = fail(err, errlen, "out of memory");
			goto out;
		}
		snprintf(seed_buf[i], sizeof(seed_buf[i]), "%llu", (unsigned long long)r->seed);
		seeds[i] = seed_buf[i];
		same_seed &= r->seed == inv->runs[0]->seed;
		any_options |= *options[i] != '\0';
		same_options &= !strcmp(options[i], options[0]);
		if (asprintf(&labels[i], "%s%s%s", policy[i], *options[i] ? " " : "", options[i]) < 0) {
			labels[i] = NULL;
			rc = fail(err, errlen, "out of memory");
			goto out;
		}
		idx[i] = i;
		cols[i] = (struct output_column){ .label = labels[i], .runs = &idx[i], .nr_runs = 1 };
	}
	fmt_scale(sc, sizeof(sc), inv->scale);
	fprintf(f, "scenario %s, scale %s", inv->scenario_name, sc);
	if (same_seed)
		fprintf(f, ", seed %llu", (unsigned long long)inv->runs[0]->seed);
	/* the release emulated (runs with different ones show it in their --set) */
	if (*inv->runs[0]->kernel && all_same(inv, offsetof(Mmemu__Run, kernel)))
		fprintf(f, ", kernel %s", inv->runs[0]->kernel);
	fprintf(f, " (mmemu %s)\n", *inv->mmemu_version ? inv->mmemu_version : "?");
	if (any_options && same_options)
		fprintf(f, "--set %s\n", options[0]);
	output_notes(f, &rs, cols, (int)nr);
	fputc('\n', f);

	t.rs = &rs;
	t.nr_cols = (int)nr;
	t.head_label[0] = "policy";
	t.head[0] = policy;
	if (any_options && !same_options) {
		t.head_label[1] = "--set";
		t.head[1] = (const char **)options;
	}
	if (!same_seed) {
		t.head_label[2] = "seed";
		t.head[2] = seeds;
	}
	t.cell = text_cell;
	t.ctx = &ctx;
	t.all = o->all;
	table_print(f, &t);
	/* a policy from a file: which file, exactly */
	for (size_t i = 0; i < nr; i++) {
		const Mmemu__Run *r = inv->runs[i];
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(inv->runs[k]->policy_file, r->policy_file);
		if (*r->policy_file && !seen)
			fprintf(f, "policy %s: %s (%s, sha256 %s)\n", resultset_policy_label(inv, i),
				r->policy, r->policy_file, r->policy_sha256);
	}
	/* counters a policy does not keep are "-", said once per policy */
	for (size_t i = 0; i < nr; i++) {
		const Mmemu__Run *r = inv->runs[i];
		bool seen = false;

		for (size_t k = 0; k < i && !seen; k++)
			seen = !strcmp(inv->runs[k]->policy, r->policy);
		if (!seen && result_workingset_dropped(r))
			fprintf(f, "policy %s: no workingset_eviction or workingset_refault op: its "
				   "workingset_* counters are not kept (-, not 0)\n",
				resultset_policy_label(inv, i));
	}
	rc = 0;
out:
	resultset_free(&rs);
out_nors:
	for (size_t i = 0; labels && i < nr; i++)
		free(labels[i]);
	for (size_t i = 0; options && i < nr; i++)
		free(options[i]);
	free(labels);
	free(policy);
	free(options);
	free(seeds);
	free(seed_buf);
	free(cols);
	free(idx);
	return rc;
}

/* ---- JSON ---- */

json_t *output_json_number(double v, bool is_int)
{
	if (!isfinite(v))
		return json_null();
	if (is_int && fabs(v) < 9.2e18)
		return json_integer((json_int_t)llround(v));
	return json_real(v);
}

json_t *output_json_string(const char *s, char *err, size_t errlen)
{
	json_t *j = json_string(s);

	if (!j)
		fail(err, errlen, "'%.60s' is not UTF-8 text", s);
	return j;
}

int output_json_dump(FILE *f, const json_t *j)
{
	if (json_dumpf(j, f, JSON_INDENT(2) | JSON_REAL_PRECISION(9)))
		return -1;
	fputc('\n', f);
	return 0;
}

/* Sets o[key] = v, refusing a key o has already (a group named like a field). */
static int set_new(json_t *o, const char *key, json_t *v, char *err, size_t errlen)
{
	if (!v)
		return -1;
	if (json_object_get(o, key)) {
		json_decref(v);
		return fail(err, errlen, "group '%s' is there twice", key);
	}
	return json_object_set_new(o, key, v) ? fail(err, errlen, "out of memory") : 0;
}

static json_t *group_object(const Mmemu__Group *g, char *err, size_t errlen)
{
	json_t *o = json_object();

	for (size_t k = 0; o && k < g->n_values; k++) {
		json_t *v = output_json_number(g->values[k]->value, g->values[k]->is_int);

		/* json_object_set_new() drops v when it fails (a key that is not UTF-8) */
		if (!v || json_object_set_new(o, g->values[k]->key, v)) {
			fail(err, errlen, "group '%.60s': key '%.60s' is not UTF-8 text", g->name,
			     g->values[k]->key);
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* The object at o[key], made when missing. */
static json_t *child(json_t *o, const char *key)
{
	json_t *c = json_object_get(o, key);

	if (!c) {
		c = json_object();
		if (c && json_object_set_new(o, key, c))
			c = NULL;
	}
	return c;
}

/* Puts group g (its values in vals) where the layout of output.h says. */
static int place_group(json_t *run, const Mmemu__Group *g, json_t *vals, char *err,
		       size_t errlen)
{
	static const char *const memcg_files[] = { "memory.stat", "memory.events", "memory.pressure",
						   "lru_gen" };
	static const struct {
		const char *prefix, *field;
	} kinds[] = {
		{ "workload.", "workloads" }, { "device.", "devices" },
	};
	const char *name = g->name;

	if (!strncmp(name, "node.", 5)) {
		json_t *nodes = json_object_get(run, "nodes");
		char *end;
		unsigned long n = strtoul(name + 5, &end, 10);

		if (name[5] >= '0' && name[5] <= '9' && !*end && n < 4096) {
			while (json_array_size(nodes) <= n)
				json_array_append_new(nodes, json_null());
			if (!json_is_null(json_array_get(nodes, n))) {
				json_decref(vals);
				return fail(err, errlen, "group '%s' is there twice", name);
			}
			return json_array_set_new(nodes, n, vals) ? fail(err, errlen, "out of memory") : 0;
		}
	}
	if (!strncmp(name, "memcg.", 6)) {
		json_t *memcgs = json_object_get(run, "memcgs"), *m;

		for (size_t i = 0; i < sizeof(memcg_files) / sizeof(memcg_files[0]); i++) {
			char *parent;
			size_t len;

			if (!group_is_kind(name, memcg_files[i]))
				continue;
			len = strlen(name) - strlen(memcg_files[i]) - 1 - 6;
			parent = strndup(name + 6, len);
			m = parent ? child(memcgs, parent) : NULL;
			free(parent);
			if (!m) {
				json_decref(vals);
				return fail(err, errlen, "out of memory");
			}
			return set_new(m, memcg_files[i], vals, err, errlen);
		}
		m = child(memcgs, name + 6);
		if (!m || json_object_update(m, vals)) {
			json_decref(vals);
			return fail(err, errlen, "out of memory");
		}
		json_decref(vals);
		return 0;
	}
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(name, kinds[i].prefix, strlen(kinds[i].prefix)))
			return set_new(json_object_get(run, kinds[i].field),
				       name + strlen(kinds[i].prefix), vals, err, errlen);
	/* "vmstat" (made first, so it leads), "swap", and any group to come */
	if (!strcmp(name, "vmstat")) {
		json_object_update(json_object_get(run, "vmstat"), vals);
		json_decref(vals);
		return 0;
	}
	return set_new(run, name, vals, err, errlen);
}

/* The length of a dumped object without its closing brace and the space around it. */
static size_t strip_close(const char *text)
{
	size_t len = strlen(text);

	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	if (len && text[len - 1] == '}')
		len--;
	while (len && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	return len;
}

/*
 * One run as an object; its samples (often most of the bytes) are written
 * one per line after it, each as result_sample_json() renders it.
 */
static int json_run(FILE *f, const Mmemu__Run *r, size_t index, char *err, size_t errlen)
{
	json_t *run = json_object();
	char *text = NULL, *options = result_options_text(r);
	int rc = -1;
	size_t len;

	if (!run || !options) {
		json_decref(run);
		free(options);
		return fail(err, errlen, "out of memory");
	}
	if (set_new(run, "policy", output_json_string(r->policy, err, errlen), err, errlen) ||
	    set_new(run, "options", output_json_string(options, err, errlen), err, errlen) ||
	    (*r->policy_file &&
	     (set_new(run, "policy_file", output_json_string(r->policy_file, err, errlen), err,
		      errlen) ||
	      set_new(run, "policy_sha256", output_json_string(r->policy_sha256, err, errlen), err,
		      errlen) ||
	      (*r->policy_name &&
	       set_new(run, "policy_name", output_json_string(r->policy_name, err, errlen), err,
		       errlen)))) ||
	    set_new(run, "seed", json_integer((json_int_t)r->seed), err, errlen) ||
	    (*r->kernel &&
	     set_new(run, "kernel", output_json_string(r->kernel, err, errlen), err, errlen)) ||
	    set_new(run, "sim_seconds", output_json_number(r->sim_seconds, false), err, errlen) ||
	    set_new(run, "host_seconds", output_json_number(r->host_seconds, false), err, errlen) ||
	    set_new(run, "vmstat", json_object(), err, errlen) ||
	    set_new(run, "nodes", json_array(), err, errlen) ||
	    set_new(run, "memcgs", json_object(), err, errlen) ||
	    set_new(run, "workloads", json_object(), err, errlen) ||
	    set_new(run, "devices", json_object(), err, errlen))
		goto out;
	for (size_t i = 0; i < r->n_groups; i++) {
		json_t *vals = group_object(r->groups[i], err, errlen);

		if (!vals || place_group(run, r->groups[i], vals, err, errlen))
			goto out;
	}
	if (*r->dump &&
	    set_new(run, "lru_gen_dump", output_json_string(r->dump, err, errlen), err, errlen))
		goto out;
	text = json_dumps(run, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	if (!text) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	/* the object without its closing brace, then the samples */
	len = strip_close(text);
	fprintf(f, "%.*s,\n  \"lru_gen_samples\": [", (int)len, text);
	for (size_t i = 0; i < r->n_samples; i++) {
		if (r->samples[i]->row_case == MMEMU__SAMPLE__ROW__NOT_SET) {
			fail(err, errlen, "run %zu (%s): sample %zu has no row", index + 1, r->policy,
			     i + 1);
			goto out;
		}
		fprintf(f, "%s\n    ", i ? "," : "");
		result_sample_json(r->samples[i], f);
	}
	fprintf(f, "]\n}");
	rc = 0;
out:
	free(text);
	free(options);
	json_decref(run);
	return rc;
}

static int output_json(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv,
		       char *err, size_t errlen)
{
	json_t *head = json_object();
	char *text;
	size_t len;
	int rc = -1;

	(void)o;
	if (!head)
		return fail(err, errlen, "out of memory");
	if (set_new(head, "schema_version", json_integer(OUTPUT_JSON_SCHEMA), err, errlen) ||
	    set_new(head, "mmemu_version", output_json_string(inv->mmemu_version, err, errlen), err,
		    errlen) ||
	    set_new(head, "scenario", output_json_string(inv->scenario_name, err, errlen), err,
		    errlen) ||
	    set_new(head, "scenario_path", output_json_string(inv->scenario_path, err, errlen), err,
		    errlen) ||
	    set_new(head, "scale", output_json_number(inv->scale, false), err, errlen))
		goto out;
	text = json_dumps(head, JSON_INDENT(2) | JSON_REAL_PRECISION(9));
	if (!text) {
		fail(err, errlen, "out of memory");
		goto out;
	}
	len = strip_close(text);
	fprintf(f, "%.*s,\n  \"runs\": [\n", (int)len, text);
	free(text);
	for (size_t i = 0; i < inv->n_runs; i++) {
		if (json_run(f, inv->runs[i], i, err, errlen))
			goto out;
		fprintf(f, "%s\n", i + 1 < inv->n_runs ? "," : "");
	}
	fprintf(f, "]\n}\n");
	rc = 0;
out:
	json_decref(head);
	return rc;
}

/* ---- CSV ---- */

void output_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_number(FILE *f, double v, bool is_int)
{
	if (!isfinite(v))
		return;	/* an empty field */
	if (is_int)
		fprintf(f, "%.0f", v);
	else
		fprintf(f, "%.9g", v);
}

static void csv_row(FILE *f, const Mmemu__Invocation *inv, const Mmemu__Run *r,
		    const char *options, const char *group, const char *key, double v, bool is_int)
{
	output_csv_field(f, inv->scenario_name);
	fprintf(f, ",%.9g,", inv->scale);
	output_csv_field(f, r->policy);
	fputc(',', f);
	output_csv_field(f, options);
	fprintf(f, ",%llu,", (unsigned long long)r->seed);
	output_csv_field(f, group);
	fputc(',', f);
	output_csv_field(f, key);
	fputc(',', f);
	csv_number(f, v, is_int);
	fputc('\n', f);
}

static int output_csv(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv,
		      char *err, size_t errlen)
{
	(void)o;
	fprintf(f, "scenario,scale,policy,options,seed,group,key,value\n");
	for (size_t i = 0; i < inv->n_runs; i++) {
		const Mmemu__Run *r = inv->runs[i];
		char *options = result_options_text(r);

		if (!options)
			return fail(err, errlen, "out of memory");
		csv_row(f, inv, r, options, "run", "sim_seconds", r->sim_seconds, false);
		csv_row(f, inv, r, options, "run", "host_seconds", r->host_seconds, false);
		for (size_t g = 0; g < r->n_groups; g++)
			for (size_t k = 0; k < r->groups[g]->n_values; k++)
				csv_row(f, inv, r, options, r->groups[g]->name,
					r->groups[g]->values[k]->key, r->groups[g]->values[k]->value,
					r->groups[g]->values[k]->is_int);
		free(options);
	}
	return 0;
}

/* ---- any format ---- */

/* The writers, by --format name. */
static const struct output_writer {
	const char *name;	/* --format */
	int (*write)(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv,
		     char *err, size_t errlen);
	bool dumps_after;	/* the lru_gen dumps follow (JSON has them in lru_gen_dump) */
} output_writers[] = {
	{ "text", output_text, true },
	{ "json", output_json, false },
	{ "csv", output_csv, true },
};

static const struct output_writer *output_writer_find(const char *format)
{
	for (size_t i = 0; i < sizeof(output_writers) / sizeof(output_writers[0]); i++)
		if (!strcmp(output_writers[i].name, format))
			return &output_writers[i];
	return NULL;
}

bool output_format_known(const char *format)
{
	return output_writer_find(format) != NULL;
}

int output_write(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv, char *err,
		 size_t errlen)
{
	const struct output_writer *w = output_writer_find(o->format);
	bool dump = false;

	if (!inv->n_runs)
		return fail(err, errlen, "no runs");
	if (!w)
		return fail(err, errlen, "no output format '%s'", o->format);
	if (w->write(f, o, inv, err, errlen))
		return -1;
	if (!w->dumps_after)
		return 0;
	/* --dump lru_gen gives every run a dump, at least its heading */
	for (size_t i = 0; i < inv->n_runs; i++)
		dump = dump || *inv->runs[i]->dump;
	if (dump)
		for (size_t i = 0; i < inv->n_runs; i++)
			fprintf(f, "\n# lru_gen, policy %s\n%s", inv->runs[i]->policy,
				inv->runs[i]->dump);
	return 0;
}
