/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Conformance over every registered reclaim policy (reclaim_policies[]):
 * a small workload that keeps a memcg at its limit, then the model's
 * invariants, the MGLRU generation bookkeeping, and the memcg reclaim
 * counters. The MGLRU policies also run with each isolate_folios variant.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/memory.h"
#include "models/mm.h"
#include "models/policy.h"
#include "models/policy/mglru.h"
#include "models/vmscan.h"
#include "tests/harness.h"

#define NODE_PAGES 16384
#define LIMIT_A 512		/* memory.max of memcg "a" */
#define LIMIT_PARENT 1024	/* memory.max of the parent of "a" and "b" */

enum conf_opt {
	OPT_NONE,
	OPT_FALLBACK,
	OPT_EXHAUST_DETECT,
	OPT_RETRY_ONCE,
	OPT_FALLBACK_GATE,
	NR_OPTS
};

static const char *const opt_name[NR_OPTS] = {
	"default", "fallback", "exhaust_detect", "retry_once", "fallback_gate",
};

struct conf_case {
	const struct reclaim_policy *policy;
	enum conf_opt opt;
};

#define MAX_CASES 64
static struct conf_case cases[MAX_CASES];
static int nr_cases;

struct workload {
	struct blockdev bdev;
	struct mem_cgroup *parent, *a, *b;
	struct task *ta, *tb;
	struct address_space *mapped, *streamed, *shared, *heap;
	bool done;
};

static struct workload w;

static bool is_mglru(const struct reclaim_policy *p)
{
	return p == &mglru_old_policy || p == &mglru_budget_policy;
}

static void setup(const struct conf_case *c)
{
	memset(&w, 0, sizeof(w));
	harness_boot(1, NODE_PAGES, c->policy);
	harness_nvme(&w.bdev);
	switch (c->opt) {
	case OPT_FALLBACK:
		mglru_opts.fallback = 1;
		break;
	case OPT_EXHAUST_DETECT:
		mglru_opts.exhaust_detect = 1;
		break;
	case OPT_RETRY_ONCE:
		mglru_opts.retry_once = 1;
		break;
	case OPT_FALLBACK_GATE:
		mglru_opts.fallback_gate = 1;
		break;
	default:
		break;
	}
	w.parent = mem_cgroup_create(mm.root_mem_cgroup, "parent");
	ck_assert_ptr_nonnull(w.parent);
	w.parent->max = LIMIT_PARENT;
	w.a = mem_cgroup_create(w.parent, "parent/a");
	w.b = mem_cgroup_create(w.parent, "parent/b");
	ck_assert_ptr_nonnull(w.a);
	ck_assert_ptr_nonnull(w.b);
	w.a->max = LIMIT_A;
	w.ta = task_create("a", w.a, 0);
	w.tb = task_create("b", w.b, 0);
	ck_assert_ptr_nonnull(w.ta);
	ck_assert_ptr_nonnull(w.tb);
	w.mapped = file_create("mapped", 4096, &w.bdev, 0, false);
	w.streamed = file_create("streamed", 8192, &w.bdev, 4096, false);
	w.shared = file_create("shared", 2048, &w.bdev, 16384, false);
	w.heap = anon_region_create(w.ta, "heap", 256);
	ck_assert_ptr_nonnull(w.mapped);
	ck_assert_ptr_nonnull(w.streamed);
	ck_assert_ptr_nonnull(w.shared);
	ck_assert_ptr_nonnull(w.heap);
}

static void workload_fn(struct actor *act, void *arg)
{
	(void)arg;
	/* a small anon working set, written */
	for (uint64_t i = 0; i < 64; i++)
		ck_assert_int_ge(anon_access(act, w.ta, w.heap, i, true), 0);
	for (int round = 0; round < 3; round++) {
		/* scattered mmap faults (read-around) and a hot mapped set; reads
		 * only: dirty file pages are not written back by the model yet */
		for (uint64_t i = 0; i < 1024; i++) {
			ck_assert_int_ge(filemap_map_access(act, w.ta, w.mapped,
							    (i * 7 + (uint64_t)round) % 4096,
							    false), 0);
			if (i % 16 == 0)
				for (uint64_t h = 0; h < 32; h++)
					ck_assert_int_ge(filemap_map_access(act, w.ta, w.mapped,
									    h, false), 0);
		}
		/* a stream through read(), with a re-read hot head (tiers) */
		for (uint64_t i = 0; i < 2048; i++) {
			ck_assert_int_ge(filemap_read(act, w.ta, w.streamed,
						      (uint64_t)round * 2048 + i), 0);
			if (i % 64 == 0)
				for (uint64_t h = 0; h < 48; h++)
					ck_assert_int_ge(filemap_read(act, w.ta, w.streamed,
								      8000 + h), 0);
		}
		/* the sibling fills the parent: hierarchical reclaim */
		for (uint64_t i = 0; i < 1024; i++)
			ck_assert_int_ge(filemap_read(act, w.tb, w.shared,
						      (i * 3 + (uint64_t)round) % 2048), 0);
		for (uint64_t i = 0; i < 64; i++)
			ck_assert_int_ge(anon_access(act, w.ta, w.heap, i, false), 0);
	}
	w.done = true;
}

/* Gens per type in [MIN_NR_GENS, MAX_NR_GENS]; nr_pages agrees with the lists. */
static void check_lrugen(const struct lruvec *lruvec)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	const char *name = lruvec->memcg->name;

	for (int type = 0; type < ANON_AND_FILE; type++) {
		int nr_gens = get_nr_gens(lruvec, type);
		int64_t by_bits[MAX_NR_GENS] = { 0 };
		int64_t sum_pages = 0;
		uint64_t sum_listed = 0;

		ck_assert_msg(nr_gens >= MIN_NR_GENS && nr_gens <= MAX_NR_GENS,
			      "memcg '%s' type %d: %d gens", name, type, nr_gens);
		ck_assert_uint_le(lrugen->min_seq[type], lrugen->max_seq);
		for (int gen = 0; gen < MAX_NR_GENS; gen++) {
			const struct flist *l = &lrugen->folios[gen][type];
			uint64_t n = 0;

			for (uint32_t idx = l->head; idx; idx = folio_of(idx)->lru_next) {
				const struct folio *f = folio_of(idx);
				int fgen = folio_lru_gen(f);
				bool live = false;

				ck_assert_int_ge(fgen, 0);
				ck_assert_int_lt(fgen, MAX_NR_GENS);
				ck_assert(folio_test_lru(f));
				ck_assert_int_eq(folio_is_file_lru(f), type);
				for (uint64_t seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++)
					live |= lru_gen_from_seq(seq) == fgen;
				ck_assert_msg(live, "memcg '%s': folio in gen %d outside [%llu, %llu]",
					      name, fgen, (unsigned long long)lrugen->min_seq[type],
					      (unsigned long long)lrugen->max_seq);
				by_bits[fgen]++;
				n++;
				ck_assert_uint_le(n, l->nr);
			}
			ck_assert_uint_eq(n, l->nr);
			sum_listed += n;
			ck_assert_int_ge(lrugen->nr_pages[gen][type], 0);
			sum_pages += lrugen->nr_pages[gen][type];
		}
		ck_assert_msg(sum_pages == (int64_t)sum_listed,
			      "memcg '%s' type %d: nr_pages sum %lld, listed %llu", name, type,
			      (long long)sum_pages, (unsigned long long)sum_listed);
		for (int gen = 0; gen < MAX_NR_GENS; gen++)
			ck_assert_int_eq(by_bits[gen], lrugen->nr_pages[gen][type]);
		/* gens outside [min_seq, max_seq] hold nothing */
		for (int gen = 0; gen < MAX_NR_GENS; gen++) {
			bool live = false;

			for (uint64_t seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++)
				live |= lru_gen_from_seq(seq) == gen;
			if (!live)
				ck_assert_int_eq(lrugen->nr_pages[gen][type], 0);
		}
	}
}

START_TEST(test_conformance)
{
	const struct conf_case *c = &cases[_i];
	char err[512] = "";
	int nid;

	setup(c);
	harness_run_actor(workload_fn, NULL);
	ck_assert_msg(w.done, "%s/%s: the workload did not finish", c->policy->name,
		      opt_name[c->opt]);
	ck_assert_msg(!w.ta->oom_killed && !w.tb->oom_killed, "%s/%s: OOM kill",
		      c->policy->name, opt_name[c->opt]);
	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "%s/%s: %s",
		      c->policy->name, opt_name[c->opt], err);

	/* the limits held and reclaim ran in both places */
	ck_assert_uint_le(w.a->usage, LIMIT_A);
	ck_assert_uint_le(w.parent->usage, LIMIT_PARENT);
	ck_assert_uint_eq(w.parent->usage, w.a->usage + w.b->usage);
	ck_assert_msg(memcg_events(w.a, PGSTEAL_DIRECT) > 0, "%s/%s: a never reclaimed",
		      c->policy->name, opt_name[c->opt]);
	ck_assert_msg(memcg_events(w.b, PGSTEAL_DIRECT) > 0, "%s/%s: b never reclaimed",
		      c->policy->name, opt_name[c->opt]);

	for (int id = 1; id <= mm.nr_memcgs; id++) {
		struct mem_cgroup *memcg = mm.memcgs[id];

		/* MGLRU counts isolated folios as pgscan: stolen <= scanned */
		ck_assert_msg(memcg_events(memcg, PGSTEAL_DIRECT) <=
			      memcg_events(memcg, PGSCAN_DIRECT),
			      "%s/%s memcg '%s': pgsteal %llu > pgscan %llu", c->policy->name,
			      opt_name[c->opt], memcg->name,
			      (unsigned long long)memcg_events(memcg, PGSTEAL_DIRECT),
			      (unsigned long long)memcg_events(memcg, PGSCAN_DIRECT));
		ck_assert_uint_le(memcg_events(memcg, PGSTEAL_KSWAPD),
				  memcg_events(memcg, PGSCAN_KSWAPD));
		if (!is_mglru(c->policy))
			continue;
		for_each_node(nid)
			check_lrugen(memcg->lruvec[nid]);
	}
	/* the anon working set was never evicted (no swap) */
	ck_assert_uint_eq(w.heap->nr_resident, 64);
	ck_assert_uint_eq(w.ta->rss_anon, 64);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("conformance");
	TCase *tc = tcase_create("policies");
	SRunner *sr;
	int failed;

	for (int i = 0; reclaim_policies[i]; i++) {
		const struct reclaim_policy *p = reclaim_policies[i];

		for (int o = 0; o < (is_mglru(p) ? NR_OPTS : 1); o++) {
			if (nr_cases == MAX_CASES)
				break;
			cases[nr_cases].policy = p;
			cases[nr_cases].opt = (enum conf_opt)o;
			nr_cases++;
		}
	}
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_conformance, 0, nr_cases);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
