/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "models/policy.h"
#include "tools/resultset.h"

/* ---- a string -> index map (open addressing, FNV-1a) ---- */

struct strmap {
	const char **key;	/* NULL: empty bucket */
	int *idx;
	size_t cap;		/* a power of two */
	size_t nr;
};

static uint64_t fnv1a(const char *a, const char *b)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *a; a++)
		h = (h ^ (unsigned char)*a) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;	/* the separator */
	for (; b && *b; b++)
		h = (h ^ (unsigned char)*b) * 1099511628211ULL;
	return h;
}

/*
 * The bucket of (a, b) in m: where it is, or the empty bucket it would go
 * to. Keys are compared as pairs; b is NULL for group names.
 */
static size_t strmap_bucket(const struct strmap *m, const char *a, const char *b,
			    const struct rs_slot *slots, const struct rs_group *groups)
{
	size_t i = (size_t)fnv1a(a, b) & (m->cap - 1);

	for (;; i = (i + 1) & (m->cap - 1)) {
		if (!m->key[i])
			return i;
		if (b) {
			const struct rs_slot *s = &slots[m->idx[i]];

			if (!strcmp(s->key, b) && !strcmp(groups[s->group].name, a))
				return i;
		} else if (!strcmp(m->key[i], a)) {
			return i;
		}
	}
}

static int strmap_init(struct strmap *m, size_t want)
{
	m->cap = 64;
	while (m->cap < 2 * want)
		m->cap *= 2;
	m->nr = 0;
	m->key = calloc(m->cap, sizeof(*m->key));
	m->idx = calloc(m->cap, sizeof(*m->idx));
	return m->key && m->idx ? 0 : -ENOMEM;
}

static void strmap_free(struct strmap *m)
{
	free(m->key);
	free(m->idx);
}

/* ---- the walk ---- */

static int add_group(struct resultset *rs, const char *name, int *cap)
{
	if (rs->nr_groups == *cap) {
		int n = *cap ? 2 * *cap : 32;
		struct rs_group *g = realloc(rs->groups, (size_t)n * sizeof(*g));

		if (!g)
			return -ENOMEM;
		rs->groups = g;
		*cap = n;
	}
	memset(&rs->groups[rs->nr_groups], 0, sizeof(rs->groups[0]));
	rs->groups[rs->nr_groups].name = name;
	return rs->nr_groups++;
}

static int add_slot(struct resultset *rs, int group, const char *key, int *cap, int *gcap)
{
	struct rs_group *g = &rs->groups[group];

	if (rs->nr_slots == *cap) {
		int n = *cap ? 2 * *cap : 256;
		struct rs_slot *s = realloc(rs->slots, (size_t)n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		rs->slots = s;
		*cap = n;
	}
	if (g->nr_slots == gcap[group]) {
		int n = gcap[group] ? 2 * gcap[group] : 16;
		int *s = realloc(g->slots, (size_t)n * sizeof(*s));

		if (!s)
			return -ENOMEM;
		g->slots = s;
		gcap[group] = n;
	}
	rs->slots[rs->nr_slots] = (struct rs_slot){ .group = group, .key = key };
	g->slots[g->nr_slots++] = rs->nr_slots;
	return rs->nr_slots++;
}

int resultset_build(struct resultset *rs, const Mmemu__Invocation *inv)
{
	struct strmap groups = { 0 }, slots = { 0 };
	size_t nr_values = 0, nr_groups = 0;
	int gcap_groups = 0, scap = 0, *gcap = NULL, rc = -ENOMEM;

	memset(rs, 0, sizeof(*rs));
	rs->inv = inv;
	rs->nr_runs = inv->n_runs;
	for (size_t r = 0; r < inv->n_runs; r++) {
		nr_groups += inv->runs[r]->n_groups;
		for (size_t g = 0; g < inv->runs[r]->n_groups; g++)
			nr_values += inv->runs[r]->groups[g]->n_values;
	}
	/* the first run holds nearly all of them: size for one run's worth and grow */
	if (strmap_init(&groups, nr_groups) || strmap_init(&slots, nr_values))
		goto out;
	gcap = calloc(nr_groups + 1, sizeof(*gcap));
	if (!gcap)
		goto out;

	/* pass 1: the union of groups and keys, first appearance first */
	for (size_t r = 0; r < inv->n_runs; r++) {
		const Mmemu__Run *run = inv->runs[r];

		for (size_t gi = 0; gi < run->n_groups; gi++) {
			const Mmemu__Group *g = run->groups[gi];
			size_t b = strmap_bucket(&groups, g->name, NULL, NULL, NULL);
			int group;

			if (groups.key[b]) {
				group = groups.idx[b];
			} else {
				group = add_group(rs, g->name, &gcap_groups);
				if (group < 0)
					goto out;
				groups.key[b] = g->name;
				groups.idx[b] = group;
			}
			for (size_t k = 0; k < g->n_values; k++) {
				const char *key = g->values[k]->key;
				size_t sb = strmap_bucket(&slots, g->name, key, rs->slots, rs->groups);
				int slot;

				if (slots.key[sb])
					continue;
				slot = add_slot(rs, group, key, &scap, gcap);
				if (slot < 0)
					goto out;
				slots.key[sb] = key;
				slots.idx[sb] = slot;
			}
		}
	}
	/* pass 2: each run's values by slot */
	rs->val = calloc(inv->n_runs * (size_t)rs->nr_slots + 1, sizeof(*rs->val));
	if (!rs->val)
		goto out;
	for (size_t r = 0; r < inv->n_runs; r++) {
		const Mmemu__Run *run = inv->runs[r];

		for (size_t gi = 0; gi < run->n_groups; gi++) {
			const Mmemu__Group *g = run->groups[gi];

			for (size_t k = 0; k < g->n_values; k++) {
				size_t sb = strmap_bucket(&slots, g->name, g->values[k]->key, rs->slots,
							  rs->groups);

				rs->val[r * (size_t)rs->nr_slots + (size_t)slots.idx[sb]] = g->values[k];
			}
		}
	}
	rc = 0;
out:
	strmap_free(&groups);
	strmap_free(&slots);
	free(gcap);
	if (rc)
		resultset_free(rs);
	return rc;
}

void resultset_free(struct resultset *rs)
{
	for (int g = 0; g < rs->nr_groups; g++)
		free(rs->groups[g].slots);
	free(rs->groups);
	free(rs->slots);
	free(rs->val);
	memset(rs, 0, sizeof(*rs));
}

int resultset_find(const struct resultset *rs, const char *group, const char *key)
{
	for (int g = 0; g < rs->nr_groups; g++) {
		if (strcmp(rs->groups[g].name, group))
			continue;
		for (int k = 0; k < rs->groups[g].nr_slots; k++)
			if (!strcmp(rs->slots[rs->groups[g].slots[k]].key, key))
				return rs->groups[g].slots[k];
	}
	return -1;
}

/* ---- value classes ---- */

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

bool group_is_kind(const char *group, const char *kind)
{
	if (!strcmp(kind, "memory.stat") || !strcmp(kind, "memory.events") ||
	    !strcmp(kind, "memory.pressure") || !strcmp(kind, "lru_gen"))
		return !strncmp(group, "memcg.", 6) && ends_with(group, kind) &&
		       strlen(group) > 6 + strlen(kind) + 1 &&
		       group[strlen(group) - strlen(kind) - 1] == '.';
	if (!strcmp(kind, "memcg"))
		return !strncmp(group, "memcg.", 6) && !group_is_kind(group, "memory.stat") &&
		       !group_is_kind(group, "memory.events") &&
		       !group_is_kind(group, "memory.pressure") && !group_is_kind(group, "lru_gen");
	{
		size_t n = strlen(kind);

		return !strncmp(group, kind, n) && (group[n] == '.' || group[n] == '\0');
	}
}

/* Keys in bytes, by the kind of group they are in (the rest are counts, rates and times). */
static const struct {
	const char *kind;
	const char *key;
	enum value_class vc;
} byte_keys[] = {
	{ "memcg", "memory.current", VC_BYTES },
	{ "memcg", "memory.peak", VC_BYTES },
	{ "memcg", "memory.swap.current", VC_BYTES },
	{ "memcg", "memory.max", VC_LIMIT },
	{ "memcg", "memory.high", VC_LIMIT },
	{ "memcg", "memory.swap.max", VC_LIMIT },
	{ "memcg", "memory.low", VC_BYTES },
	{ "memcg", "memory.min", VC_BYTES },
	/* memory.stat prints sizes in bytes and events as counts */
	{ "memory.stat", "anon", VC_BYTES },
	{ "memory.stat", "file", VC_BYTES },
	{ "memory.stat", "file_mapped", VC_BYTES },
	{ "memory.stat", "file_dirty", VC_BYTES },
	{ "memory.stat", "file_writeback", VC_BYTES },
	{ "memory.stat", "shmem", VC_BYTES },
	{ "memory.stat", "inactive_anon", VC_BYTES },
	{ "memory.stat", "active_anon", VC_BYTES },
	{ "memory.stat", "inactive_file", VC_BYTES },
	{ "memory.stat", "active_file", VC_BYTES },
	{ "memory.stat", "unevictable", VC_BYTES },
	{ "device", "read_bytes", VC_BYTES },
	{ "device", "write_bytes", VC_BYTES },
	{ "swap", "zram_compr_data_size", VC_BYTES },
	{ "swap", "zram_mem_used_total", VC_BYTES },
};

/* A percentile key: "_p" and a digit (lat_p99_us, launch_p95_ms); all come from hist_quantile(). */
static bool is_percentile_key(const char *key)
{
	for (const char *p = strstr(key, "_p"); p; p = strstr(p + 1, "_p"))
		if (p[2] >= '0' && p[2] <= '9')
			return true;
	return false;
}

enum value_class value_class_of(const char *group, const char *key)
{
	for (size_t i = 0; i < sizeof(byte_keys) / sizeof(byte_keys[0]); i++)
		if (!strcmp(byte_keys[i].key, key) && group_is_kind(group, byte_keys[i].kind))
			return byte_keys[i].vc;
	if (group_is_kind(group, "workload") && is_percentile_key(key))
		return VC_BUCKET;
	return VC_PLAIN;
}

int result_same_experiment(const Mmemu__Invocation *a, const char *pa,
			   const Mmemu__Invocation *b, const char *pb, const char *cmd,
			   char *why, size_t len)
{
	const char *what = strcmp(a->scenario_name, b->scenario_name) ? "scenario"
			   : a->scale != b->scale			  ? "scale"
			   : strcmp(a->scenario_text, b->scenario_text)	  ? "scenario text"
									  : NULL;

	if (!what)
		return 0;
	snprintf(why, len,
		 "%s: '%s' holds scenario '%s' at scale %g, '%s' scenario '%s' at scale %g: "
		 "another %s (--force puts them side by side)",
		 cmd, pb, b->scenario_name, b->scale, pa, a->scenario_name, a->scale, what);
	return -1;
}

int result_check_samples(const Mmemu__Invocation *inv, const char *path, char *why, size_t len)
{
	for (size_t r = 0; r < inv->n_runs; r++)
		for (size_t i = 0; i < inv->runs[r]->n_samples; i++) {
			const Mmemu__Sample *s = inv->runs[r]->samples[i];

			if (s->row_case == MMEMU__SAMPLE__ROW__NOT_SET) {
				snprintf(why, len, "'%s': run %zu (%s): sample %zu has no row", path,
					 r + 1, inv->runs[r]->policy, i + 1);
				return -1;
			}
		}
	return 0;
}

bool result_policy_keeps_workingset(const struct reclaim_policy *p)
{
	return p->workingset_eviction && p->workingset_refault;
}

size_t result_drop_unmaintained(Mmemu__Run *r, const struct reclaim_policy *p)
{
	static const char prefix[] = "workingset_";
	size_t dropped = 0;

	if (result_policy_keeps_workingset(p))
		return 0;
	for (size_t g = 0; g < r->n_groups; g++) {
		Mmemu__Group *grp = r->groups[g];
		size_t n = 0;

		for (size_t v = 0; v < grp->n_values; v++) {
			if (!strncmp(grp->values[v]->key, prefix, sizeof(prefix) - 1)) {
				mmemu__value__free_unpacked(grp->values[v], NULL);
				dropped++;
			} else {
				grp->values[n++] = grp->values[v];
			}
		}
		grp->n_values = n;
	}
	return dropped;
}

bool result_workingset_dropped(const Mmemu__Run *r)
{
	for (size_t g = 0; g < r->n_groups; g++)
		if (!strcmp(r->groups[g]->name, "vmstat")) {
			for (size_t v = 0; v < r->groups[g]->n_values; v++)
				if (!strcmp(r->groups[g]->values[v]->key, "workingset_refault_file"))
					return false;
			return true;
		}
	return false;
}

/*
 * What a run's column is headed by: a policy from a file by its own name
 * (s3fifo, not ./build/x/s3fifo.so), unless another column of a different
 * file has that name too; the header line then names the file.
 */
const char *resultset_policy_label(const Mmemu__Invocation *inv, size_t i)
{
	const Mmemu__Run *r = inv->runs[i];

	if (!*r->policy_file || !*r->policy_name)
		return r->policy;
	for (size_t k = 0; k < inv->n_runs; k++)
		if (strcmp(inv->runs[k]->policy, r->policy) &&
		    (!strcmp(inv->runs[k]->policy, r->policy_name) ||
		     !strcmp(inv->runs[k]->policy_name, r->policy_name)))
			return r->policy;
	return r->policy_name;
}
