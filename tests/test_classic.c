/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The classic LRU on hand-built lruvecs: inactive_is_low, get_scan_count's
 * balancing modes and protection scaling, folio_mark_accessed, and the
 * reference rules of shrink_folio_list.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/policy/classic.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/workingset.h"

#define PAGES_PER_GB (1ULL << (30 - PAGE_SHIFT))
/* read_ahead_kb = 128: the read-around window of a fault */
#define RA_PAGES_TEST 32

static void boot(void)
{
	harness_boot(1, 65536, &classic_policy);
}

static void set_stat(struct lruvec *l, enum node_stat_item idx, int64_t v)
{
	mod_lruvec_state(l, idx, v - l->stat[idx]);
}

static void set_lru(struct lruvec *l, int64_t ia, int64_t aa, int64_t inf, int64_t af)
{
	set_stat(l, NR_INACTIVE_ANON, ia);
	set_stat(l, NR_ACTIVE_ANON, aa);
	set_stat(l, NR_INACTIVE_FILE, inf);
	set_stat(l, NR_ACTIVE_FILE, af);
}

/* ---- inactive_is_low ---- */

static bool file_low(struct lruvec *l, uint64_t inactive, uint64_t active)
{
	set_lru(l, 0, 0, (int64_t)inactive, (int64_t)active);
	return inactive_is_low(l, LRU_INACTIVE_FILE);
}

START_TEST(test_inactive_is_low_ratio)
{
	struct mem_cgroup *memcg;
	struct lruvec *l;

	boot();
	memcg = mem_cgroup_create(mm.root_mem_cgroup, "t");
	l = memcg->lruvec[0];
	/* below 1 GiB the ratio is 1 */
	ck_assert(!file_low(l, 100, 100));
	ck_assert(file_low(l, 100, 101));
	ck_assert(!file_low(l, 0, 0));
	/* 1 GiB: int_sqrt(10) = 3 */
	ck_assert(!file_low(l, PAGES_PER_GB / 4, 3 * PAGES_PER_GB / 4));
	ck_assert(file_low(l, PAGES_PER_GB / 4 - 1, 3 * PAGES_PER_GB / 4 + 1));
	/* the ratio steps at 1 GiB: 100000 inactive are low below it, not at it */
	ck_assert(file_low(l, 100000, PAGES_PER_GB - 100000 - 1));
	ck_assert(!file_low(l, 100000, PAGES_PER_GB - 100000));
	/* 3 GiB: int_sqrt(30) = 5 */
	ck_assert(!file_low(l, 3 * PAGES_PER_GB / 6, 15 * PAGES_PER_GB / 6));
	ck_assert(file_low(l, 3 * PAGES_PER_GB / 6 - 1, 15 * PAGES_PER_GB / 6 + 1));
	/* 10 GiB: int_sqrt(100) = 10, neither 9 nor 11 */
	ck_assert(file_low(l, 238312, 10 * PAGES_PER_GB - 238312));
	ck_assert(!file_low(l, 238313, 10 * PAGES_PER_GB - 238313));
	/* the anon pair is separate */
	set_lru(l, 1000, 0, 0, 5000);
	ck_assert(!inactive_is_low(l, LRU_INACTIVE_ANON));
	ck_assert(inactive_is_low(l, LRU_INACTIVE_FILE));
	set_lru(l, 1, 2, 0, 0);
	ck_assert(inactive_is_low(l, LRU_INACTIVE_ANON));
}
END_TEST

START_TEST(test_inactive_is_low_hierarchical)
{
	struct mem_cgroup *parent, *child;

	boot();
	parent = mem_cgroup_create(mm.root_mem_cgroup, "p");
	child = mem_cgroup_create(parent, "p/c");
	set_lru(parent->lruvec[0], 0, 0, 100, 50);
	set_lru(child->lruvec[0], 0, 0, 0, 100);
	/* the child alone is all active; the parent sees 100 inactive vs 150 active */
	ck_assert(inactive_is_low(child->lruvec[0], LRU_INACTIVE_FILE));
	ck_assert(inactive_is_low(parent->lruvec[0], LRU_INACTIVE_FILE));
	set_lru(parent->lruvec[0], 0, 0, 200, 50);
	ck_assert(!inactive_is_low(parent->lruvec[0], LRU_INACTIVE_FILE));
	ck_assert(!inactive_is_low(mm.root_mem_cgroup->lruvec[0], LRU_INACTIVE_FILE));
}
END_TEST

/* ---- get_scan_count ---- */

#define IA 4096
#define AA 4096
#define IF 8192
#define AF 8192

static struct mem_cgroup *scan_memcg(void)
{
	struct mem_cgroup *memcg;

	boot();
	memcg = mem_cgroup_create(mm.root_mem_cgroup, "scan");
	set_lru(memcg->lruvec[0], IA, AA, IF, AF);
	memcg->usage = IA + AA + IF + AF;
	return memcg;
}

static struct scan_control memcg_sc(struct mem_cgroup *memcg, int priority)
{
	return (struct scan_control){
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.target_mem_cgroup = memcg,
		.priority = priority,
		.may_writepage = true,
		.may_unmap = true,
		.may_swap = true,
		.swappiness = -1,
	};
}

static void expect_nr(const uint64_t *nr, uint64_t ia, uint64_t aa, uint64_t inf, uint64_t af)
{
	ck_assert_msg(nr[LRU_INACTIVE_ANON] == ia && nr[LRU_ACTIVE_ANON] == aa &&
		      nr[LRU_INACTIVE_FILE] == inf && nr[LRU_ACTIVE_FILE] == af,
		      "nr = {%llu, %llu, %llu, %llu}, expected {%llu, %llu, %llu, %llu}",
		      (unsigned long long)nr[0], (unsigned long long)nr[1],
		      (unsigned long long)nr[2], (unsigned long long)nr[3],
		      (unsigned long long)ia, (unsigned long long)aa,
		      (unsigned long long)inf, (unsigned long long)af);
}

START_TEST(test_scan_no_swap_file_only)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 2);
	uint64_t nr[NR_LRU_LISTS] = { 0 };

	ck_assert(!mm.swap_enabled);
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF >> 2, AF >> 2);
	/* even close to OOM */
	sc.priority = 0;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF, AF);
	/* swap present but not allowed by the caller */
	mm.swap_enabled = true;
	sc.may_swap = false;
	sc.priority = 2;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF >> 2, AF >> 2);
	/* a swap device, but memory.swap.max reached (here or above) */
	sc.may_swap = true;
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, 1024), 0);
	get_scan_count(memcg->lruvec[0], &sc, nr);
	ck_assert_uint_gt(nr[LRU_INACTIVE_ANON], 0);
	memcg->swap_max = 0;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF >> 2, AF >> 2);
	memcg->swap_max = UINT64_MAX;
	mm.root_mem_cgroup->swap_max = 0;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF >> 2, AF >> 2);
}
END_TEST

START_TEST(test_scan_memcg_swappiness_zero_file_only)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 0);
	uint64_t nr[NR_LRU_LISTS] = { 0 };

	mm.swap_enabled = true;
	memcg->swappiness = 0;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF, AF);
	/* memory.reclaim's swappiness= overrides the memcg's */
	sc.swappiness = 60;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, IA, AA, IF, AF);
}
END_TEST

START_TEST(test_scan_priority_zero_equal)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 0);
	uint64_t nr[NR_LRU_LISTS] = { 0 };

	mm.swap_enabled = true;
	/* the cost balance would say otherwise: SCAN_EQUAL ignores it */
	sc.anon_cost = 1000000;
	sc.file_cost = 1;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, IA, AA, IF, AF);
	/* ... unless swappiness disagrees with swapping: global reclaim, swappiness 0 */
	sc = memcg_sc(NULL, 0);
	sc.swappiness = 0;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF, AF);
}
END_TEST

START_TEST(test_scan_cache_trim_mode_file_only)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 3);
	uint64_t nr[NR_LRU_LISTS] = { 0 };

	mm.swap_enabled = true;
	sc.cache_trim_mode = true;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF >> 3, AF >> 3);
}
END_TEST

START_TEST(test_scan_file_is_tiny_anon_only)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 3);
	uint64_t nr[NR_LRU_LISTS] = { 0 };

	mm.swap_enabled = true;
	sc.target_mem_cgroup = NULL;
	sc.file_is_tiny = true;
	/* file_is_tiny wins over cache_trim_mode, as in the kernel */
	sc.cache_trim_mode = true;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, IA >> 3, AA >> 3, 0, 0);
}
END_TEST

/* SCAN_FRACT as written in mm/vmscan.c */
static void kernel_fract(uint64_t anon_cost, uint64_t file_cost, int swappiness, uint64_t fr[2])
{
	uint64_t total = anon_cost + file_cost;
	uint64_t a = total + anon_cost, f = total + file_cost;

	total = a + f;
	fr[0] = (uint64_t)swappiness * (total + 1) / (a + 1);
	fr[1] = (uint64_t)(200 - swappiness) * (total + 1) / (f + 1);
}

START_TEST(test_scan_fract_follows_swappiness)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 2);
	uint64_t nr[NR_LRU_LISTS] = { 0 }, fr[2];
	double anon_share, file_share;

	mm.swap_enabled = true;
	sc.anon_cost = 1000;
	sc.file_cost = 1000;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	/* equal costs: the split is swappiness : 200 - swappiness */
	anon_share = (double)nr[LRU_INACTIVE_ANON] / (IA >> 2);
	file_share = (double)nr[LRU_INACTIVE_FILE] / (IF >> 2);
	ck_assert_msg(anon_share > 0.29 && anon_share < 0.31, "anon share %f", anon_share);
	ck_assert_msg(file_share > 0.69 && file_share < 0.71, "file share %f", file_share);
	ck_assert_double_eq_tol(anon_share / file_share, 60.0 / 140.0, 0.01);
	/* and the exact integer arithmetic */
	kernel_fract(1000, 1000, 60, fr);
	expect_nr(nr, (IA >> 2) * fr[0] / (fr[0] + fr[1]), (AA >> 2) * fr[0] / (fr[0] + fr[1]),
		  (IF >> 2) * fr[1] / (fr[0] + fr[1]), (AF >> 2) * fr[1] / (fr[0] + fr[1]));

	/* swappiness 100: anon and file equally */
	memcg->swappiness = 100;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	ck_assert_double_eq_tol((double)nr[LRU_INACTIVE_ANON] / (IA >> 2),
				(double)nr[LRU_INACTIVE_FILE] / (IF >> 2), 0.01);
}
END_TEST

START_TEST(test_scan_fract_follows_cost)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, 2);
	uint64_t even[NR_LRU_LISTS] = { 0 }, nr[NR_LRU_LISTS] = { 0 }, fr[2];

	mm.swap_enabled = true;
	sc.anon_cost = sc.file_cost = 500;
	get_scan_count(memcg->lruvec[0], &sc, even);
	/* anon refaults cost a lot: scan anon less, file more */
	sc.anon_cost = 10000;
	sc.file_cost = 10;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	ck_assert_uint_lt(nr[LRU_INACTIVE_ANON], even[LRU_INACTIVE_ANON]);
	ck_assert_uint_gt(nr[LRU_INACTIVE_FILE], even[LRU_INACTIVE_FILE]);
	/* at least a third of the pressure is kept, before swappiness */
	ck_assert_uint_gt(nr[LRU_INACTIVE_ANON], 0);
	kernel_fract(10000, 10, 60, fr);
	ck_assert_uint_eq(nr[LRU_INACTIVE_ANON], (IA >> 2) * fr[0] / (fr[0] + fr[1]));
	ck_assert_uint_eq(nr[LRU_INACTIVE_FILE], (IF >> 2) * fr[1] / (fr[0] + fr[1]));
}
END_TEST

START_TEST(test_scan_memory_low_scaling)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(NULL, 0);
	uint64_t nr[NR_LRU_LISTS] = { 0 };
	uint64_t usage = memcg->usage;

	/* global reclaim (swap off: file only) of a memcg half protected by memory.low */
	memcg->emin = 0;
	memcg->elow = usage / 2;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF - IF * (usage / 2) / (usage + 1),
		  AF - AF * (usage / 2) / (usage + 1));
	ck_assert(sc.memcg_low_skipped);
	ck_assert_uint_gt(nr[LRU_INACTIVE_FILE], IF / 2 - 2);
	ck_assert_uint_lt(nr[LRU_INACTIVE_FILE], IF / 2 + 2);

	/* below low allowed (memcg_low_reclaim): only memory.min counts, here none */
	sc = memcg_sc(NULL, 0);
	sc.memcg_low_reclaim = true;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF, AF);
	ck_assert(!sc.memcg_low_skipped);

	/* fully protected by memory.min: SWAP_CLUSTER_MAX keeps reclaim moving */
	memcg->emin = usage;
	memcg->elow = usage;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, SWAP_CLUSTER_MAX, SWAP_CLUSTER_MAX);
	/* ... shifted by the priority like everything else */
	sc.priority = 2;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, SWAP_CLUSTER_MAX >> 2, SWAP_CLUSTER_MAX >> 2);

	/* the reclaim target itself is never protected */
	sc = memcg_sc(memcg, 0);
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, IF, AF);
}
END_TEST

START_TEST(test_scan_offline_memcg_scraped)
{
	struct mem_cgroup *memcg = scan_memcg();
	struct scan_control sc = memcg_sc(memcg, DEF_PRIORITY);
	uint64_t nr[NR_LRU_LISTS] = { 0 };

	set_lru(memcg->lruvec[0], 0, 0, 100, 10);
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, 0, 0);
	memcg->online = false;
	get_scan_count(memcg->lruvec[0], &sc, nr);
	expect_nr(nr, 0, 0, SWAP_CLUSTER_MAX, 10);
}
END_TEST

/* ---- folios for real: a file on an NVMe device, a task in a memcg ---- */

struct fixture {
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct task *task;
	struct address_space *file;
	struct address_space *exec;
	struct address_space *anon;
};

static struct fixture fx;

static void fixture_boot(void)
{
	boot();
	memset(&fx, 0, sizeof(fx));
	harness_nvme(&fx.nvme);
	fx.memcg = mem_cgroup_create(mm.root_mem_cgroup, "app");
	ck_assert_ptr_nonnull(fx.memcg);
	fx.task = task_create("t", fx.memcg, 0);
	ck_assert_ptr_nonnull(fx.task);
	fx.file = file_create("data", 256, &fx.nvme, 0, false);
	fx.exec = file_create("lib", 256, &fx.nvme, 256, true);
	fx.anon = anon_region_create(fx.task, "heap", 64);
	ck_assert_ptr_nonnull(fx.file);
	ck_assert_ptr_nonnull(fx.exec);
	ck_assert_ptr_nonnull(fx.anon);
}

static struct folio *page_of(struct address_space *as, uint64_t index)
{
	uint64_t e = as->slots[index];

	ck_assert_msg(e && !xa_is_value(e), "page %llu of %s is not resident",
		      (unsigned long long)index, as->name);
	return folio_of((uint32_t)e);
}

static void assert_invariants(void)
{
	char err[512];

	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}

static void mark_accessed_fn(struct actor *a, void *arg)
{
	struct lruvec *l;
	struct folio *folio;
	uint32_t idx;
	uint64_t age, activate;

	(void)arg;
	idx = alloc_charge_folio(a, fx.task, fx.memcg);
	ck_assert_uint_ne(idx, 0);
	folio = folio_of(idx);
	folio->mapping = fx.file->id;
	folio->index = 7;
	fx.file->slots[7] = idx;
	fx.file->nr_resident++;
	l = folio_lruvec(folio);
	mod_lruvec_state(l, NR_FILE_PAGES, 1);
	mm.policy->folio_add(l, folio);
	ck_assert(folio_test_lru(folio));
	ck_assert_int_eq(folio->lru, LRU_INACTIVE_FILE);
	ck_assert_uint_eq(lruvec_lru_size(l, LRU_INACTIVE_FILE), 1);
	ck_assert(!folio_test_referenced(folio));
	ck_assert(!folio_test_active(folio));

	age = l->nonresident_age;
	activate = mm.vm_events[PGACTIVATE];
	/* first access: referenced, still inactive */
	mm.policy->folio_mark_accessed(folio);
	ck_assert(folio_test_referenced(folio));
	ck_assert(!folio_test_active(folio));
	ck_assert_int_eq(folio->lru, LRU_INACTIVE_FILE);
	ck_assert_uint_eq(mm.vm_events[PGACTIVATE], activate);
	/* second: active list, reference cleared, the workingset clock ticks */
	mm.policy->folio_mark_accessed(folio);
	ck_assert(folio_test_active(folio));
	ck_assert(!folio_test_referenced(folio));
	ck_assert(folio_test_lru(folio));
	ck_assert_int_eq(folio->lru, LRU_ACTIVE_FILE);
	ck_assert_uint_eq(lruvec_lru_size(l, LRU_INACTIVE_FILE), 0);
	ck_assert_uint_eq(lruvec_lru_size(l, LRU_ACTIVE_FILE), 1);
	ck_assert_uint_eq(mm.vm_events[PGACTIVATE], activate + 1);
	ck_assert_uint_eq(fx.memcg->events[PGACTIVATE], 1);
	ck_assert_uint_eq(l->nonresident_age, age + 1);
	/* third: active and referenced */
	mm.policy->folio_mark_accessed(folio);
	ck_assert(folio_test_active(folio));
	ck_assert(folio_test_referenced(folio));
	ck_assert_uint_eq(lruvec_lru_size(l, LRU_ACTIVE_FILE), 1);
	ck_assert_uint_eq(mm.vm_events[PGACTIVATE], activate + 1);
	assert_invariants();
}

START_TEST(test_mark_accessed_two_steps)
{
	fixture_boot();
	harness_run_actor(mark_accessed_fn, NULL);
}
END_TEST

static void mark_isolated_fn(struct actor *a, void *arg)
{
	struct folio *folio;
	struct lruvec *l;

	(void)arg;
	ck_assert_int_eq(filemap_read(a, fx.task, fx.file, 3), ACCESS_MAJOR);
	folio = page_of(fx.file, 3);
	ck_assert(folio_test_referenced(folio));
	l = folio_lruvec(folio);
	/* isolated by reclaim: activation is left to the putback */
	mm.policy->folio_del(l, folio);
	mm.policy->folio_mark_accessed(folio);
	ck_assert(folio_test_active(folio));
	ck_assert(!folio_test_lru(folio));
	ck_assert_uint_eq(lruvec_lru_size(l, LRU_ACTIVE_FILE), 0);
	mm.policy->folio_putback(l, folio);
	ck_assert_int_eq(folio->lru, LRU_ACTIVE_FILE);
	ck_assert_uint_eq(lruvec_lru_size(l, LRU_ACTIVE_FILE), 1);
	assert_invariants();
}

START_TEST(test_mark_accessed_isolated)
{
	fixture_boot();
	harness_run_actor(mark_isolated_fn, NULL);
}
END_TEST

/* ---- shrink_folio_list reference rules ---- */

static struct scan_control reclaim_sc(struct actor *a)
{
	struct scan_control sc = memcg_sc(fx.memcg, DEF_PRIORITY);

	sc.actor = a;
	return sc;
}

static void isolate(struct flist *list, struct folio *folio)
{
	struct lruvec *l = folio_lruvec(folio);

	ck_assert(folio_test_lru(folio));
	mm.policy->folio_del(l, folio);
	mod_lruvec_state(l, folio_is_file_lru(folio) ? NR_ISOLATED_FILE : NR_ISOLATED_ANON, 1);
	flist_add(list, folio_idx(folio));
}

/* What isolate() counted as NR_ISOLATED_*, taken back after shrink_folio_list. */
static void unisolate(enum node_stat_item item, int64_t nr)
{
	mod_lruvec_state(fx.memcg->lruvec[0], item, -nr);
}

/* move_folios_to_lru() for what shrink_folio_list left on the list */
static void putback(struct flist *list)
{
	uint32_t idx;

	while ((idx = flist_pop_tail(list))) {
		struct folio *folio = folio_of(idx);

		mm.policy->folio_putback(folio_lruvec(folio), folio);
	}
}

static bool on_list(const struct flist *list, const struct folio *folio)
{
	for (uint32_t idx = list->head; idx; idx = folio_of(idx)->lru_next)
		if (idx == folio_idx(folio))
			return true;
	return false;
}

static void expect_shadow(struct address_space *as, uint64_t index)
{
	uint64_t e = as->slots[index], eviction;
	unsigned short memcgid;
	bool ws;
	int nid;

	ck_assert_msg(xa_is_value(e), "page %llu of %s: slot %#llx is not a shadow",
		      (unsigned long long)index, as->name, (unsigned long long)e);
	unpack_shadow(e, &memcgid, &nid, &eviction, &ws);
	ck_assert_uint_eq(memcgid, fx.memcg->id);
	ck_assert_int_eq(nid, 0);
}

static void references_fn(struct actor *a, void *arg)
{
	struct folio *A, *B, *C, *D, *E, *F;
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	uint64_t usage, mapped, freed;

	(void)arg;
	/* one page per fault: fault-around off (debugfs fault_around_bytes = 4096) */
	mm.fault_around_pages = 1;
	/* page 0 faults in the read-around window 0..31 and maps; 1, 3, 4 map (minor) */
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, false), ACCESS_MAJOR);
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 1, false), ACCESS_MINOR);
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 3, false), ACCESS_MINOR);
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 4, true), ACCESS_MINOR);
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 4, true), ACCESS_HIT);
	A = page_of(fx.file, 0);
	B = page_of(fx.file, 1);
	C = page_of(fx.file, 2);
	D = page_of(fx.file, 3);
	E = page_of(fx.file, 4);
	F = page_of(fx.file, 5);
	for (int i = 0; i <= 5; i++)
		ck_assert(!folio_test_referenced(page_of(fx.file, (uint64_t)i)));
	ck_assert((*harness_file_pte(fx.task, fx.file, 0)) & PTE_YOUNG);
	ck_assert(!((*harness_file_pte(fx.task, fx.file, 2)) & PTE_PRESENT));

	/* A: young PTE + PG_referenced -> activate */
	folio_set_referenced(A);
	/* B: young PTE only -> keep, marked referenced */
	/* C: not mapped, PG_referenced -> reclaim (clean) */
	folio_set_referenced(C);
	/* D: mapped, not young -> unmap and free */
	(*harness_file_pte(fx.task, fx.file, 3)) &= (uint8_t)~PTE_YOUNG;
	/* E: mapped dirty, not young -> unmapped, dirty: left for writeback, activated */
	(*harness_file_pte(fx.task, fx.file, 4)) &= (uint8_t)~PTE_YOUNG;
	/* F: not mapped, no reference -> free */

	flist_init(&list);
	isolate(&list, A);
	isolate(&list, B);
	isolate(&list, C);
	isolate(&list, D);
	isolate(&list, E);
	isolate(&list, F);
	usage = fx.memcg->usage;
	mapped = memcg_page_state(fx.memcg, NR_FILE_MAPPED);
	ck_assert_uint_eq(mapped, 4);

	freed = shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false);
	unisolate(NR_ISOLATED_FILE, 6);
	ck_assert_uint_eq(freed, 3);
	ck_assert_uint_eq(sc.nr_scanned, 6);
	ck_assert_uint_eq(list.nr, 3);
	ck_assert_uint_eq(fx.memcg->usage, usage - 3);
	ck_assert_uint_eq(stat.nr_ref_keep, 1);
	ck_assert_uint_eq(stat.nr_activate[1], 2);
	ck_assert_uint_eq(stat.nr_activate[0], 0);
	/* E's dirty bit was in its PTE, not yet on the folio, when it was looked at */

	ck_assert(on_list(&list, A));
	ck_assert(folio_test_active(A));
	ck_assert(!((*harness_file_pte(fx.task, fx.file, 0)) & PTE_YOUNG));	/* the rmap walk cleared it */
	ck_assert((*harness_file_pte(fx.task, fx.file, 0)) & PTE_PRESENT);

	ck_assert(on_list(&list, B));
	ck_assert(!folio_test_active(B));
	ck_assert(folio_test_referenced(B));
	ck_assert(!((*harness_file_pte(fx.task, fx.file, 1)) & PTE_YOUNG));
	ck_assert((*harness_file_pte(fx.task, fx.file, 1)) & PTE_PRESENT);

	expect_shadow(fx.file, 2);
	expect_shadow(fx.file, 3);
	ck_assert_uint_eq((*harness_file_pte(fx.task, fx.file, 3)), 0);
	expect_shadow(fx.file, 5);

	ck_assert(on_list(&list, E));
	ck_assert(folio_test_active(E));
	ck_assert(folio_test_dirty(E));
	ck_assert(folio_test_reclaim(E));
	ck_assert_uint_eq((*harness_file_pte(fx.task, fx.file, 4)), 0);

	/* D and E were unmapped */
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), mapped - 2);
	ck_assert_uint_eq(fx.file->nr_resident, 32 - 3);

	putback(&list);
	ck_assert_int_eq(A->lru, LRU_ACTIVE_FILE);
	ck_assert_int_eq(B->lru, LRU_INACTIVE_FILE);
	ck_assert_int_eq(E->lru, LRU_ACTIVE_FILE);
	assert_invariants();
}

START_TEST(test_shrink_folio_list_references)
{
	fixture_boot();
	harness_run_actor(references_fn, NULL);
}
END_TEST

/*
 * Fault-around (fault_around_bytes 64 KiB): a read fault maps the cached
 * pages of its aligned 16-page window, young (x86); pages outside it and
 * pages not cached stay unmapped; a write fault maps only its page.
 */
static void fault_around_fn(struct actor *a, void *arg)
{
	(void)arg;
	/* page 40 reads in the read-around window 24..55 and maps only itself */
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 40, false), ACCESS_MAJOR);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), 1);
	/* page 33: one fault maps 32..47 */
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 33, false), ACCESS_MINOR);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), 16);
	for (uint64_t i = 32; i < 48; i++)
		ck_assert((*harness_file_pte(fx.task, fx.file, i)) & PTE_PRESENT && (*harness_file_pte(fx.task, fx.file, i)) & PTE_YOUNG);
	ck_assert(!((*harness_file_pte(fx.task, fx.file, 31)) & PTE_PRESENT));
	ck_assert(!((*harness_file_pte(fx.task, fx.file, 48)) & PTE_PRESENT));
	/* page 20 is not cached: window 16..31 maps 24..31, then 20 faults */
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 20, false), ACCESS_MAJOR);
	ck_assert((*harness_file_pte(fx.task, fx.file, 24)) & PTE_PRESENT);
	/* a write fault (do_shared_fault) maps just its page */
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 49, true), ACCESS_MINOR);
	ck_assert(!((*harness_file_pte(fx.task, fx.file, 50)) & PTE_PRESENT));
}

START_TEST(test_fault_around_maps_cached_window)
{
	fixture_boot();
	harness_run_actor(fault_around_fn, NULL);
}
END_TEST

static void ignore_references_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	struct folio *A;

	(void)arg;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, false), ACCESS_MAJOR);
	A = page_of(fx.file, 0);
	folio_set_referenced(A);
	flist_init(&list);
	isolate(&list, A);
	/* young and referenced, but reclaim_folio_list() does not look */
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, true), 1);
	unisolate(NR_ISOLATED_FILE, 1);
	ck_assert(flist_empty(&list));
	expect_shadow(fx.file, 0);
	assert_invariants();
}

START_TEST(test_shrink_folio_list_ignore_references)
{
	fixture_boot();
	harness_run_actor(ignore_references_fn, NULL);
}
END_TEST

/*
 * advice = random (MADV_RANDOM, VM_RAND_READ): since 6.3 folio_referenced()
 * skips the mapping (vma_has_recency()), so a folio whose only PTE is young
 * and which reclaim saw once (PG_referenced) is reclaimed instead of
 * activated; its young bit is never looked at. _i: 0 normal, 1 random.
 */
static void advice_references_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	bool random = *(const bool *)arg;
	struct reclaim_stat stat;
	struct flist list;
	struct folio *A;
	uint64_t freed;

	fx.task->advice = random ? ADVICE_RANDOM : ADVICE_NORMAL;
	mm.fault_around_pages = 1;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, false), ACCESS_MAJOR);
	/* VM_RAND_READ: no read-around (do_sync_mmap_readahead()) */
	ck_assert_uint_eq(fx.file->nr_resident, random ? 1 : RA_PAGES_TEST);
	A = page_of(fx.file, 0);
	ck_assert((*harness_file_pte(fx.task, fx.file, 0)) & PTE_YOUNG);
	folio_set_referenced(A);
	flist_init(&list);
	isolate(&list, A);
	freed = shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false);
	unisolate(NR_ISOLATED_FILE, 1);
	if (random) {
		ck_assert_msg(freed == 1, "a random mapping's young folio was kept");
		ck_assert(flist_empty(&list));
		expect_shadow(fx.file, 0);
	} else {
		ck_assert_msg(freed == 0, "a normal mapping's young, referenced folio was reclaimed");
		ck_assert(folio_test_active(A));
		ck_assert(!((*harness_file_pte(fx.task, fx.file, 0)) & PTE_YOUNG));
		putback(&list);
	}
	assert_invariants();
}

START_TEST(test_advice_random_ignores_references)
{
	bool random = _i;

	fixture_boot();
	harness_run_actor(advice_references_fn, &random);
}
END_TEST

/*
 * advice and readahead: a fault of a random mapping reads its page alone,
 * of a sequential one ra_pages (doubled by POSIX_FADV_SEQUENTIAL: 64) from
 * the fault on, of a normal one 32 around it; read() of a random file reads
 * each page alone even in sequence (FMODE_RANDOM), of a sequential one
 * ramps up to 64.
 */
static void advice_readahead_fn(struct actor *a, void *arg)
{
	(void)arg;
	mm.fault_around_pages = 1;
	fx.task->advice = ADVICE_SEQUENTIAL;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 100, false), ACCESS_MAJOR);
	ck_assert_uint_eq(fx.file->nr_resident, 2 * RA_PAGES_TEST);
	ck_assert(!fx.file->slots[99]);
	ck_assert(fx.file->slots[100 + 2 * RA_PAGES_TEST - 1]);
	/* read() in sequence: 1, then windows 4, 8, 16, 32, 64 */
	for (uint64_t i = 0; i < 64; i++)
		ck_assert_int_ge(filemap_read(a, fx.task, fx.exec, i), 0);
	ck_assert_uint_eq(fx.exec->ra_size, 2 * RA_PAGES_TEST);
}

static void advice_random_readahead_fn(struct actor *a, void *arg)
{
	(void)arg;
	mm.fault_around_pages = 1;
	fx.task->advice = ADVICE_RANDOM;
	for (uint64_t i = 0; i < 8; i++)
		ck_assert_int_eq(filemap_read(a, fx.task, fx.exec, i), ACCESS_MAJOR);
	ck_assert_uint_eq(fx.exec->nr_resident, 8);
}

/*
 * The unmap at exit passes a young PTE on as a reference (zap_pte_range():
 * folio_mark_accessed()) only for a mapping with recency. _i: 0 normal,
 * 1 random.
 */
static void advice_zap_fn(struct actor *a, void *arg)
{
	bool random = *(const bool *)arg;
	struct task *t = task_create("exiting", fx.memcg, 0);
	struct folio *A;

	ck_assert_ptr_nonnull(t);
	t->advice = random ? ADVICE_RANDOM : ADVICE_NORMAL;
	mm.fault_around_pages = 1;
	ck_assert_int_eq(filemap_map_access(a, t, fx.file, 0, false), ACCESS_MAJOR);
	A = page_of(fx.file, 0);
	ck_assert(!folio_test_referenced(A));
	ck_assert((*harness_file_pte(t, fx.file, 0)) & PTE_YOUNG);
	task_exit(a, t);
	ck_assert_msg(folio_test_referenced(A) == !random, "%s mapping: PG_referenced %d at exit",
		      random ? "random" : "normal", folio_test_referenced(A));
	assert_invariants();
}

START_TEST(test_advice_zap)
{
	bool random = _i;

	fixture_boot();
	harness_run_actor(advice_zap_fn, &random);
}
END_TEST

/*
 * [machine] kernel: a young PTE of a MADV_RANDOM or MADV_SEQUENTIAL
 * mapping, met by folio_referenced() on a folio reclaim saw once
 * (PG_referenced, for the random one). 6.1 counts a random mapping's
 * reference (the folio is activated) but not a sequential one's; since 6.3
 * (vma_has_recency()) neither counts: both folios are reclaimed.
 * _i: enum kernel_version.
 */
static const bool random_ref_kept[NR_KERNEL_VERSIONS] = {
	[KERNEL_6_1] = true, [KERNEL_6_6] = false, [KERNEL_6_12] = false, [KERNEL_7_2] = false,
};

static void kernel_references_fn(struct actor *a, void *arg)
{
	int v = *(const int *)arg;
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	struct folio *R, *S;
	struct task *seq = task_create("sequential", fx.memcg, 0);
	uint64_t freed;

	ck_assert_ptr_nonnull(seq);
	mm.kernel = &kernel_rules_table[v];
	mm.fault_around_pages = 1;
	fx.task->advice = ADVICE_RANDOM;
	seq->advice = ADVICE_SEQUENTIAL;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, false), ACCESS_MAJOR);
	ck_assert_int_eq(filemap_map_access(a, seq, fx.exec, 0, false), ACCESS_MAJOR);
	R = page_of(fx.file, 0);
	S = page_of(fx.exec, 0);
	folio_set_referenced(R);
	flist_init(&list);
	isolate(&list, R);
	freed = shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false);
	unisolate(NR_ISOLATED_FILE, 1);
	ck_assert_msg(freed == !random_ref_kept[v], "kernel %s: random mapping's young folio %s",
		      mm.kernel->name, freed ? "reclaimed" : "kept");
	if (random_ref_kept[v]) {
		ck_assert(folio_test_active(R));
		putback(&list);
	}
	/* the sequential mapping: never a reference (a counted one would keep it) */
	fx.exec->exec = false;
	flist_init(&list);
	isolate(&list, S);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 1);
	unisolate(NR_ISOLATED_FILE, 1);
	assert_invariants();
}

START_TEST(test_kernel_advice_references)
{
	int v = _i;

	fixture_boot();
	harness_run_actor(kernel_references_fn, &v);
}
END_TEST

/*
 * [machine] kernel: the unmap at exit passes a random mapping's young PTE
 * on (folio_mark_accessed()) before 6.3 (zap_pte_range() skipped only
 * VM_SEQ_READ), not since. _i: enum kernel_version.
 */
static void kernel_zap_fn(struct actor *a, void *arg)
{
	int v = *(const int *)arg;
	struct task *t = task_create("exiting", fx.memcg, 0);
	struct folio *A;

	ck_assert_ptr_nonnull(t);
	mm.kernel = &kernel_rules_table[v];
	t->advice = ADVICE_RANDOM;
	mm.fault_around_pages = 1;
	ck_assert_int_eq(filemap_map_access(a, t, fx.file, 0, false), ACCESS_MAJOR);
	A = page_of(fx.file, 0);
	ck_assert(!folio_test_referenced(A));
	task_exit(a, t);
	ck_assert_msg(folio_test_referenced(A) == random_ref_kept[v],
		      "kernel %s: random mapping at exit: PG_referenced %d", mm.kernel->name,
		      folio_test_referenced(A));
	assert_invariants();
}

START_TEST(test_kernel_advice_zap)
{
	int v = _i;

	fixture_boot();
	harness_run_actor(kernel_zap_fn, &v);
}
END_TEST

START_TEST(test_advice_readahead)
{
	fixture_boot();
	harness_run_actor(_i ? advice_random_readahead_fn : advice_readahead_fn, NULL);
}
END_TEST

/*
 * A dirty file folio met by direct reclaim is left to the flusher: marked
 * PG_reclaim and activated, whatever its references said, as long as it is
 * not referenced by a PTE.
 */
static void dirty_referenced_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	struct folio *W;

	(void)arg;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, true), ACCESS_MAJOR);
	W = page_of(fx.file, 0);
	/* seen once by reclaim already (PG_referenced), the PTE not young since */
	folio_set_referenced(W);
	(*harness_file_pte(fx.task, fx.file, 0)) &= (uint8_t)~PTE_YOUNG;
	flist_init(&list);
	isolate(&list, W);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 0);
	unisolate(NR_ISOLATED_FILE, 1);
	ck_assert_uint_eq(list.nr, 1);
	ck_assert(folio_test_dirty(W));
	ck_assert_uint_eq((*harness_file_pte(fx.task, fx.file, 0)), 0);
	ck_assert_msg(folio_test_reclaim(W), "dirty file folio not marked PG_reclaim");
	ck_assert_msg(folio_test_active(W), "dirty file folio not activated");
	ck_assert_uint_eq(stat.nr_activate[1], 1);
	putback(&list);
	assert_invariants();
}

START_TEST(test_shrink_folio_list_dirty_referenced_file)
{
	fixture_boot();
	harness_run_actor(dirty_referenced_fn, NULL);
}
END_TEST

/*
 * Reclaim never writes a file folio (2025-26 kernels: aops->writepage and
 * PGDAT_DIRTY are gone). A dirty file folio met by kswapd with PG_reclaim
 * already set, whatever the node's flags say, is counted
 * nr_vmscan_immediate_reclaim, keeps PG_reclaim and is activated; no IO
 * starts. The old rule (kswapd writes it on a PGDAT_DIRTY node) fails here.
 */
static void kswapd_dirty_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	struct folio *W;
	uint64_t immediate = mm.vm_events[NR_VMSCAN_IMMEDIATE];
	uint64_t written = mm.vm_events[NR_VMSCAN_WRITE];

	(void)arg;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, true), ACCESS_MAJOR);
	W = page_of(fx.file, 0);
	(*harness_file_pte(fx.task, fx.file, 0)) &= (uint8_t)~PTE_YOUNG;
	folio_set_reclaim(W);
	sc.kswapd = true;
	sc.target_mem_cgroup = NULL;
	NODE_DATA(0)->flags = ~0UL;	/* every node flag, PGDAT_DIRTY's old bit included */
	flist_init(&list);
	isolate(&list, W);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 0);
	NODE_DATA(0)->flags = 0;
	unisolate(NR_ISOLATED_FILE, 1);
	ck_assert_uint_eq(list.nr, 1);
	ck_assert(folio_test_dirty(W));
	ck_assert_msg(!folio_test_writeback(W), "reclaim started writeback of a file folio");
	ck_assert_uint_eq(stat.nr_pageout, 0);
	ck_assert_uint_eq(mm.vm_events[NR_VMSCAN_WRITE], written);
	ck_assert_uint_eq(mm.vm_events[NR_VMSCAN_IMMEDIATE], immediate + 1);
	ck_assert(folio_test_reclaim(W));
	ck_assert(folio_test_active(W));
	ck_assert_uint_eq(stat.nr_unqueued_dirty, 1);
	putback(&list);
	assert_invariants();
}

START_TEST(test_kswapd_never_writes_file_folios)
{
	fixture_boot();
	harness_run_actor(kswapd_dirty_fn, NULL);
}
END_TEST

/*
 * shrink_node()'s tail: every dirty page seen already under writeback for
 * reclaim (nr.dirty == nr.congested) tags the target lruvec: memcg reclaim
 * LRUVEC_CGROUP_CONGESTED, kswapd LRUVEC_NODE_CONGESTED (cleared when the
 * node is balanced again), and direct reclaimers then throttle.
 */
static void congested_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct lruvec *root = mm.root_mem_cgroup->lruvec[0];
	struct lruvec *target = fx.memcg->lruvec[0];
	struct pglist_data *pgdat = NODE_DATA(0);
	uint64_t throttled;

	(void)arg;
	/* nothing on the LRUs: shrink_node() only acts on sc->nr */
	sc.nr_to_reclaim = 0;
	shrink_node(pgdat, &sc);
	ck_assert(!(target->flags & (1UL << LRUVEC_CGROUP_CONGESTED)));

	/* what a pass full of written-back-for-reclaim pages would have summed:
	 * shrink_node() zeroes sc->nr, so tag the flags the way its tail does */
	struct reclaim_stat stat = { .nr_dirty = 4, .nr_congested = 4 };

	memset(&sc.nr, 0, sizeof(sc.nr));
	handle_reclaim_writeback(4, pgdat, &sc, &stat);
	ck_assert_uint_eq(sc.nr.dirty, 4);
	ck_assert_uint_eq(sc.nr.congested, 4);
	ck_assert_uint_eq(sc.nr.taken, 4);
	/* a cgroup-reclaim lruvec tagged congested makes direct reclaim wait */
	target->flags |= 1UL << LRUVEC_CGROUP_CONGESTED;
	throttled = pgdat->throttle_ns[VMSCAN_THROTTLE_CONGESTED];
	shrink_node(pgdat, &sc);
	ck_assert_uint_gt(pgdat->throttle_ns[VMSCAN_THROTTLE_CONGESTED], throttled);
	target->flags = 0;
	/* the node flag (kswapd's) throttles global direct reclaim too */
	root->flags |= 1UL << LRUVEC_NODE_CONGESTED;
	sc.target_mem_cgroup = NULL;
	throttled = pgdat->throttle_ns[VMSCAN_THROTTLE_CONGESTED];
	shrink_node(pgdat, &sc);
	ck_assert_uint_gt(pgdat->throttle_ns[VMSCAN_THROTTLE_CONGESTED], throttled);
	root->flags = 0;
}

START_TEST(test_congested_throttle)
{
	fixture_boot();
	harness_run_actor(congested_fn, NULL);
}
END_TEST

/*
 * handle_reclaim_writeback(): the flusher is woken when every folio taken
 * was dirty and unqueued, not otherwise.
 */
START_TEST(test_handle_reclaim_writeback_wakeup)
{
	struct scan_control sc = { 0 };
	struct reclaim_stat all = { .nr_dirty = 8, .nr_unqueued_dirty = 8 };
	struct reclaim_stat some = { .nr_dirty = 8, .nr_unqueued_dirty = 7 };
	uint64_t wakeups;

	fixture_boot();
	wakeups = mm.nr_flusher_wakeups;
	handle_reclaim_writeback(8, NODE_DATA(0), &sc, &some);
	ck_assert_uint_eq(mm.nr_flusher_wakeups, wakeups);
	handle_reclaim_writeback(8, NODE_DATA(0), &sc, &all);
	ck_assert_uint_eq(mm.nr_flusher_wakeups, wakeups + 1);
	ck_assert_uint_eq(sc.nr.dirty, 16);
	ck_assert_uint_eq(sc.nr.taken, 16);
	/* the counters mglru-old needs are not this helper's */
	ck_assert_uint_eq(sc.nr.unqueued_dirty, 0);
	ck_assert_uint_eq(sc.nr.file_taken, 0);
}
END_TEST

/*
 * Two processes map one file: each has its own PTE (struct vm_area), the
 * folio's mapcount is 2 but NR_FILE_MAPPED counts the page once; young PTEs
 * in both mappings are two references (folio_referenced() walks the rmap),
 * which activates at once; unmapping clears both PTEs and the page leaves
 * NR_FILE_MAPPED once. With one PTE shared by all mappers, both fail.
 */
static void two_mms_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct task *other = task_create("u", fx.memcg, 0);
	struct flist list;
	struct folio *A, *B;
	uint64_t mapped;

	(void)arg;
	ck_assert_ptr_nonnull(other);
	mm.fault_around_pages = 1;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, false), ACCESS_MAJOR);
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 1, false), ACCESS_MINOR);
	/* the other process finds the page cached but has no PTE yet: a minor fault */
	ck_assert_int_eq(filemap_map_access(a, other, fx.file, 0, false), ACCESS_MINOR);
	ck_assert_int_eq(filemap_map_access(a, other, fx.file, 0, false), ACCESS_HIT);
	A = page_of(fx.file, 0);
	B = page_of(fx.file, 1);
	ck_assert_uint_eq(folio_mapcount(A), 2);
	ck_assert_uint_eq(folio_mapcount(B), 1);
	mapped = memcg_page_state(fx.memcg, NR_FILE_MAPPED);
	ck_assert_uint_eq(mapped, 2);	/* pages 0 and 1, page 0 once for both mms */
	ck_assert_ptr_ne(harness_file_pte(fx.task, fx.file, 0), harness_file_pte(other, fx.file, 0));

	/* A young in both mms: activated on first sight; B young once: kept */
	flist_init(&list);
	isolate(&list, A);
	isolate(&list, B);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 0);
	unisolate(NR_ISOLATED_FILE, 2);
	ck_assert(folio_test_active(A));
	ck_assert(!folio_test_active(B));
	ck_assert(!(*harness_file_pte(fx.task, fx.file, 0) & PTE_YOUNG));
	ck_assert(!(*harness_file_pte(other, fx.file, 0) & PTE_YOUNG));
	putback(&list);

	/* not young anywhere now: A is unmapped from both mms and freed */
	folio_clear_referenced(A);
	flist_init(&list);
	isolate(&list, A);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 1);
	unisolate(NR_ISOLATED_FILE, 1);
	ck_assert_uint_eq(*harness_file_pte(fx.task, fx.file, 0), 0);
	ck_assert_uint_eq(*harness_file_pte(other, fx.file, 0), 0);
	ck_assert_uint_eq(lazy_u16(&fx.file->mapcount, 0), 0);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), mapped - 1);
	/* the other process exits: its PTEs go, the page stays mapped by the first */
	ck_assert_uint_eq(folio_mapcount(B), 1);
	task_exit(a, other);
	ck_assert_uint_eq(folio_mapcount(B), 1);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), mapped - 1);
	assert_invariants();
}

START_TEST(test_rmap_two_mms)
{
	fixture_boot();
	harness_run_actor(two_mms_fn, NULL);
}
END_TEST

/*
 * workingset_eviction(folio, target_memcg): the shadow names the lruvec of
 * the reclaim root (mm/workingset.c, "detect file thrashing at the reclaim
 * root"); global reclaim records the root memcg, limit reclaim its target.
 */
static void shadow_reclaim_root_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	unsigned short memcgid;
	uint64_t eviction;
	bool ws;
	int nid;

	(void)arg;
	ck_assert_int_eq(filemap_read(a, fx.task, fx.file, 5), ACCESS_MAJOR);
	ck_assert_int_eq(filemap_read(a, fx.task, fx.file, 9), ACCESS_MAJOR);
	/* limit reclaim of the memcg itself: its own id */
	flist_init(&list);
	isolate(&list, page_of(fx.file, 5));
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 1);
	unisolate(NR_ISOLATED_FILE, 1);
	unpack_shadow(fx.file->slots[5], &memcgid, &nid, &eviction, &ws);
	ck_assert_uint_eq(memcgid, fx.memcg->id);
	/* global reclaim: the root's */
	sc.target_mem_cgroup = NULL;
	isolate(&list, page_of(fx.file, 9));
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 1);
	unisolate(NR_ISOLATED_FILE, 1);
	unpack_shadow(fx.file->slots[9], &memcgid, &nid, &eviction, &ws);
	ck_assert_msg(memcgid == mm.root_mem_cgroup->id,
		      "global reclaim left a shadow for memcg %u, not the root (%u)", memcgid,
		      mm.root_mem_cgroup->id);
}

START_TEST(test_shadow_names_reclaim_root)
{
	fixture_boot();
	harness_run_actor(shadow_reclaim_root_fn, NULL);
}
END_TEST

static void anon_no_swap_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	struct folio *folio;
	uint64_t rss;

	(void)arg;
	ck_assert_int_eq(anon_access(a, fx.task, fx.anon, 0, true), ACCESS_NEW);
	folio = page_of(fx.anon, 0);
	ck_assert(folio_test_anon(folio));
	ck_assert_int_eq(folio->lru, LRU_INACTIVE_ANON);
	fx.anon->ptes[0] &= (uint8_t)~PTE_YOUNG;
	rss = fx.task->rss_anon;
	flist_init(&list);
	isolate(&list, folio);
	/* cold, but without swap an anon page cannot go: back to the active list */
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 0);
	unisolate(NR_ISOLATED_ANON, 1);
	ck_assert_uint_eq(list.nr, 1);
	ck_assert(folio_test_active(folio));
	ck_assert_uint_eq(stat.nr_activate[0], 1);
	ck_assert_uint_eq(fx.task->rss_anon, rss);
	ck_assert(fx.anon->ptes[0] & PTE_PRESENT);
	putback(&list);
	ck_assert_int_eq(folio->lru, LRU_ACTIVE_ANON);
	assert_invariants();
}

START_TEST(test_shrink_folio_list_anon_without_swap)
{
	fixture_boot();
	harness_run_actor(anon_no_swap_fn, NULL);
}
END_TEST

static void no_unmap_locked_fn(struct actor *a, void *arg)
{
	struct scan_control sc = reclaim_sc(a);
	struct reclaim_stat stat;
	struct flist list;
	struct folio *M, *L;

	(void)arg;
	ck_assert_int_eq(filemap_map_access(a, fx.task, fx.file, 0, false), ACCESS_MAJOR);
	M = page_of(fx.file, 0);
	L = page_of(fx.file, 9);
	(*harness_file_pte(fx.task, fx.file, 0)) &= (uint8_t)~PTE_YOUNG;
	folio_set_locked(L);
	sc.may_unmap = false;
	flist_init(&list);
	isolate(&list, M);
	isolate(&list, L);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 0);
	unisolate(NR_ISOLATED_FILE, 2);
	ck_assert_uint_eq(list.nr, 2);
	/* a locked folio is skipped before it counts as scanned */
	ck_assert_uint_eq(sc.nr_scanned, 1);
	ck_assert_uint_eq(stat.nr_unmap_fail, 1);
	ck_assert(!folio_test_active(M));
	ck_assert(!folio_test_active(L));
	ck_assert((*harness_file_pte(fx.task, fx.file, 0)) & PTE_PRESENT);
	folio_clear_locked(L);
	putback(&list);
	assert_invariants();
}

START_TEST(test_shrink_folio_list_no_unmap_and_locked)
{
	fixture_boot();
	harness_run_actor(no_unmap_locked_fn, NULL);
}
END_TEST

/* ---- the whole classic loop: exec text is kept longer than data ---- */

static void exec_rotation_fn(struct actor *a, void *arg)
{
	uint64_t got = 0, data_left = 0, exec_left = 0;

	(void)arg;
	/* map 64 pages of each, then make them all active */
	for (uint64_t i = 0; i < 64; i++) {
		ck_assert_int_ge(filemap_map_access(a, fx.task, fx.exec, i, false), 0);
		ck_assert_int_ge(filemap_map_access(a, fx.task, fx.file, i, false), 0);
	}
	for (uint64_t i = 0; i < 64; i++) {
		struct folio *e = page_of(fx.exec, i), *d = page_of(fx.file, i);

		for (int k = 0; k < 2; k++) {
			mm.policy->folio_mark_accessed(e);
			mm.policy->folio_mark_accessed(d);
		}
		ck_assert(folio_test_active(e) && folio_test_active(d));
	}
	ck_assert_uint_eq(fx.memcg->usage, 128);
	/* reclaim half, as a memcg limit would, a batch at a time */
	for (int tries = 0; got < 64 && tries < 8; tries++)
		got += try_to_free_mem_cgroup_pages(fx.memcg, 64 - got, true, -1, false, a);
	ck_assert_uint_ge(got, 64);
	for (uint64_t i = 0; i < 64; i++) {
		uint64_t e = fx.exec->slots[i], d = fx.file->slots[i];

		exec_left += e && !xa_is_value(e);
		data_left += d && !xa_is_value(d);
	}
	/* both were young once; a referenced exec page gets one more trip around */
	ck_assert_msg(exec_left > data_left && exec_left >= 16,
		      "exec pages left %llu, data pages left %llu",
		      (unsigned long long)exec_left, (unsigned long long)data_left);
	ck_assert_uint_gt(mm.vm_events[PGDEACTIVATE], 0);
	assert_invariants();
}

START_TEST(test_exec_pages_rotate)
{
	fixture_boot();
	harness_run_actor(exec_rotation_fn, NULL);
}
END_TEST

static Suite *classic_suite(void)
{
	Suite *s = suite_create("classic");
	TCase *tc = tcase_create("inactive_is_low");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_inactive_is_low_ratio);
	tcase_add_test(tc, test_inactive_is_low_hierarchical);
	suite_add_tcase(s, tc);

	tc = tcase_create("get_scan_count");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_scan_no_swap_file_only);
	tcase_add_test(tc, test_scan_memcg_swappiness_zero_file_only);
	tcase_add_test(tc, test_scan_priority_zero_equal);
	tcase_add_test(tc, test_scan_cache_trim_mode_file_only);
	tcase_add_test(tc, test_scan_file_is_tiny_anon_only);
	tcase_add_test(tc, test_scan_fract_follows_swappiness);
	tcase_add_test(tc, test_scan_fract_follows_cost);
	tcase_add_test(tc, test_scan_memory_low_scaling);
	tcase_add_test(tc, test_scan_offline_memcg_scraped);
	suite_add_tcase(s, tc);

	tc = tcase_create("mark_accessed");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_mark_accessed_two_steps);
	tcase_add_test(tc, test_mark_accessed_isolated);
	suite_add_tcase(s, tc);

	tc = tcase_create("shrink_folio_list");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_shrink_folio_list_references);
	tcase_add_loop_test(tc, test_advice_random_ignores_references, 0, 2);
	tcase_add_loop_test(tc, test_advice_readahead, 0, 2);
	tcase_add_loop_test(tc, test_advice_zap, 0, 2);
	tcase_add_loop_test(tc, test_kernel_advice_references, 0, NR_KERNEL_VERSIONS);
	tcase_add_loop_test(tc, test_kernel_advice_zap, 0, NR_KERNEL_VERSIONS);
	tcase_add_test(tc, test_fault_around_maps_cached_window);
	tcase_add_test(tc, test_shrink_folio_list_ignore_references);
	tcase_add_test(tc, test_shrink_folio_list_dirty_referenced_file);
	tcase_add_test(tc, test_kswapd_never_writes_file_folios);
	tcase_add_test(tc, test_rmap_two_mms);
	tcase_add_test(tc, test_congested_throttle);
	tcase_add_test(tc, test_handle_reclaim_writeback_wakeup);
	tcase_add_test(tc, test_shadow_names_reclaim_root);
	tcase_add_test(tc, test_shrink_folio_list_anon_without_swap);
	tcase_add_test(tc, test_shrink_folio_list_no_unmap_and_locked);
	tcase_add_test(tc, test_exec_pages_rotate);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(classic_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
