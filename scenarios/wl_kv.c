/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * file-zipf and anon: key-value accesses with YCSB-style zipfian keys
 * (scrambled, zipf_theta; 0 is uniform), each key a run of pages_per_op
 * pages, a share write_ratio of the operations writing.
 *  - file-zipf: a key-value read path over a file, through read()/write()
 *    or a shared mmap (access);
 *  - anon: an in-memory working set (an anonymous heap), optionally
 *    written once first (prefault, as malloc + memset would).
 */
#include <errno.h>
#include <stdlib.h>

#include "scenarios/wl_access.h"

/* A zipfian key; a write with probability write_ratio. */
static uint64_t zipf_key(struct access_gen *g, struct actor *a, uint64_t op, bool *write)
{
	uint64_t key = zipf_next(&g->zipf, &a->rng);

	(void)op;
	*write = g->p->write_ratio > 0 && rng_double(&a->rng) < g->p->write_ratio;
	return key;
}

static int kv_start(struct workload *w, bool anon, struct blockdev *bdev, uint64_t bdev_start)
{
	struct access_gen *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	return access_gen_start(g, w, w->cfg->params, anon, zipf_key, bdev, bdev_start);
}

static int file_zipf_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			   uint64_t bdev_start)
{
	(void)memcg;
	return kv_start(w, false, bdev, bdev_start);
}

static int anon_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		      uint64_t bdev_start)
{
	(void)memcg;
	return kv_start(w, true, bdev, bdev_start);
}

#define P struct access_params
static const struct key_desc file_zipf_keys[] = {
	SCN_CHOICE("access", P, access, access_kind_names, "an access kind (read, mmap)",
		   "read: read()/write() calls; mmap: loads and stores through a shared mapping"),
	SCN_KEY("zipf_theta", KT_DOUBLE, KEY_UNSCALED, P, zipf_theta, 0, 10,
		"a zipf theta in [0, 10]", "skew of the key popularity (0: uniform)"),
	SCN_CHOICE("scramble", P, scramble, zipf_scramble_hash_first, "hash, none, ycsb or permutation",
		   "ranks onto keys: hash (default), none, ycsb, permutation (README)"),
	SCN_KEY("pages_per_op", KT_INT, KEY_UNSCALED, P, pages_per_op, 1, 4096,
		"a page count (1-4096)", "consecutive pages one operation touches"),
	SCN_KEY("write_ratio", KT_DOUBLE, KEY_UNSCALED, P, write_ratio, 0, 1, "a ratio in [0, 1]",
		"share of the operations that write"),
	{ 0 }
};

static const struct key_desc anon_keys[] = {
	SCN_KEY("zipf_theta", KT_DOUBLE, KEY_UNSCALED, P, zipf_theta, 0, 10,
		"a zipf theta in [0, 10]", "skew of the page popularity (0: uniform)"),
	SCN_CHOICE("scramble", P, scramble, zipf_scramble_hash_first, "hash, none, ycsb or permutation",
		   "ranks onto keys: hash (default), none, ycsb, permutation (README)"),
	SCN_KEY("pages_per_op", KT_INT, KEY_UNSCALED, P, pages_per_op, 1, 4096,
		"a page count (1-4096)", "consecutive pages one operation touches"),
	SCN_KEY("write_ratio", KT_DOUBLE, KEY_UNSCALED, P, write_ratio, 0, 1, "a ratio in [0, 1]",
		"share of the operations that write"),
	SCN_KEY("prefault", KT_BOOL, KEY_UNSCALED, P, prefault, 0, 0, "a boolean",
		"write every page once before the operations start"),
	SCN_KEY("compress_ratio", KT_DOUBLE, KEY_UNSCALED, P, compress_ratio, 1, 100,
		"a ratio in [1, 100]", "how well its pages compress in zram (unset: the compressor's)"),
	{ 0 }
};
#undef P

const struct workload_ops file_zipf_ops = {
	.name = "file-zipf",
	.desc = "key-value reads and updates over a file, zipfian keys",
	.keys = file_zipf_keys,
	.params_size = sizeof(struct access_params),
	.params_init = access_params_init,
	.check = access_check,
	.pages_per_op = access_pages_per_op,
	.needs_device = workload_has_files,
	.start = file_zipf_start,
};

const struct workload_ops anon_ops = {
	.name = "anon",
	.desc = "an anonymous working set, zipfian or uniform page reads and writes",
	.keys = anon_keys,
	.params_size = sizeof(struct access_params),
	.params_init = access_params_init,
	.check = access_check,
	.pages_per_op = access_pages_per_op,
	.start = anon_start,
};
