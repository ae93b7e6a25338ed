/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zswap: the pool's decisions (storage/zswap.c: the limit and its accept
 * threshold, what compresses, the LRU order with and without the second
 * chance) and the kernel's (models/zswap.c over block swap: stores instead
 * of device writes, exclusive and non-exclusive loads, rejections by the
 * pool limit and by incompressible data as each release had them, the
 * shrink worker's and the shrinker's writeback, memory.zswap.max).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/kernel_version.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/zswap.h"
#include "storage/zswap.h"

/* ---- the pool alone ---- */

/* 1000 pages of RAM, 20%: 200 pool pages at most, stores resume at 180 */
static void pool_1000(struct zswap *z)
{
	ck_assert_int_eq(zswap_pool_init(z, ZRAM_LZ4, 1000, 4, 1000, 20, 90), 0);
	ck_assert_uint_eq(z->max_pages, 200);
	ck_assert_uint_eq(z->accept_thr_pages, 180);
}

START_TEST(test_pool_limit_hysteresis)
{
	struct zswap z;
	uint64_t slot = 0;

	pool_1000(&z);
	/* whole-page entries: one pool page each */
	while (zswap_total_pages(&z) < 199) {
		zswap_entry_add(&z, ++slot, 0, ZSWAP_PAGE_SIZE - 1);
		ck_assert(!zswap_check_limits(&z));
	}
	zswap_entry_add(&z, ++slot, 0, ZSWAP_PAGE_SIZE - 1);
	/* at the limit: refused, counted once per refusal */
	ck_assert(zswap_check_limits(&z));
	ck_assert_uint_eq(z.st.pool_limit_hit, 1);
	/* below the limit but above the threshold: still refused */
	while (zswap_total_pages(&z) > 181) {
		ck_assert(zswap_entry_free(&z, slot--));
		ck_assert_msg(zswap_check_limits(&z), "accepted at %llu pages, over 180",
			      (unsigned long long)zswap_total_pages(&z));
	}
	ck_assert_uint_eq(z.st.pool_limit_hit, 1);
	ck_assert(zswap_entry_free(&z, slot--));
	ck_assert_uint_eq(zswap_total_pages(&z), 180);
	ck_assert(!zswap_check_limits(&z));
	/* and accepts from there on up to the limit */
	zswap_entry_add(&z, ++slot, 0, ZSWAP_PAGE_SIZE - 1);
	ck_assert(!zswap_check_limits(&z));
	zswap_pool_exit(&z);
}
END_TEST

START_TEST(test_compressed_len)
{
	/* incompressible: over PAGE_SIZE, not storable compressed */
	ck_assert_uint_eq(zswap_compressed_len(1.0), 0);
	ck_assert_uint_eq(zswap_compressed_len(0.5), 0);
	ck_assert_uint_eq(zswap_compressed_len(2.0), 2048);
	ck_assert_uint_eq(zswap_compressed_len(1.0001), 4095);
	ck_assert_uint_eq(zswap_compressed_len(1e9), 1);
}
END_TEST

START_TEST(test_lru_second_chance)
{
	struct zswap z;

	pool_1000(&z);
	for (uint64_t s = 1; s <= 3; s++)
		zswap_entry_add(&z, s, 2, 1000);
	ck_assert_uint_eq(z.lrus[2].nr, 3);
	/* 6.12+: each fresh entry is passed over once, oldest first */
	for (int i = 0; i < 3; i++)
		ck_assert_uint_eq(zswap_lru_walk_one(&z, 2, true), 0);
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 2, true), 1);
	/* a non-exclusive load makes 2 the youngest */
	zswap_lru_rotate(&z, 2);
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 2, true), 3);
	/* 1, chosen first, was rotated to the young end then: 1 before 2 */
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 2, true), 1);
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 2, true), 2);
	ck_assert(zswap_entry_free(&z, 2));
	ck_assert(!zswap_entry_free(&z, 2));
	ck_assert_uint_eq(z.lrus[2].nr, 2);
	ck_assert_uint_eq(z.stored_pages, 2);
	ck_assert_uint_eq(z.total_bytes, 2000);
	zswap_pool_exit(&z);
}
END_TEST

START_TEST(test_lru_oldest_first)
{
	struct zswap z;

	pool_1000(&z);
	for (uint64_t s = 5; s >= 1; s--)
		zswap_entry_add(&z, s, 1, 1000);
	/* before 6.12 the oldest goes first, referenced or not */
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 1, false), 5);
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 1, false), 4);
	/* other lists are apart */
	ck_assert_uint_eq(zswap_lru_walk_one(&z, 0, false), 0);
	zswap_pool_exit(&z);
}
END_TEST

/* ---- the kernel's zswap over block swap ---- */

/*
 * The pool is charged to the memcg: memory.max must hold the resident
 * pages and the pool (1024 pages at lz4's 2.6 in 512 leave ~190 resident)
 */
#define HEAP_PAGES 1024
#define MEMCG_MAX 512
#define NODE_PAGES 16384

static struct {
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct task *task;
	struct address_space *heap;
} fx;

struct zs_setup {
	enum kernel_version kernel;
	unsigned int max_pool_percent;
	bool shrinker;
	double ratio;			/* the heap's compression ratio (0: lz4's) */
	uint64_t zswap_max;		/* memory.zswap.max, pages */
};

static void boot(const struct zs_setup *z)
{
	struct zswap_params p = {
		.compressor = ZRAM_LZ4,
		.max_pool_percent = z->max_pool_percent ? z->max_pool_percent : 20,
		.accept_thr_percent = 90,
		.shrinker_enabled = z->shrinker,
	};

	harness_boot(1, NODE_PAGES, &classic_policy);
	mm.kernel = &kernel_rules_table[z->kernel];
	memset(&fx, 0, sizeof(fx));
	harness_nvme(&fx.nvme);
	fx.memcg = mem_cgroup_create(mm.root_mem_cgroup, "app");
	ck_assert_ptr_nonnull(fx.memcg);
	fx.memcg->max = MEMCG_MAX;
	fx.memcg->zswap_max = z->zswap_max ? z->zswap_max : UINT64_MAX;
	fx.task = task_create("heap", fx.memcg, 0);
	ck_assert_ptr_nonnull(fx.task);
	fx.heap = anon_region_create(fx.task, "heap", HEAP_PAGES);
	ck_assert_ptr_nonnull(fx.heap);
	fx.heap->compress_ratio = z->ratio;
	ck_assert_int_eq(swap_init_block(&fx.nvme, 1 << 20, 4096), 0);
	ck_assert_int_eq(zswap_init(&p, 4096), 0);
}

static void assert_invariants(void)
{
	char err[512];

	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}

struct zs_result {
	uint64_t zswpout, pswpout, dev_writes, stored;	/* after the fill */
	uint64_t zswpin, pswpin, dev_reads, stored_after, zswpout_end;	/* after reading back */
	uint64_t zswpwb, written_back, pool_limit_hit, reject_poor, incompressible;
	uint64_t memcg_zswap_b, memcg_zswapped, charged, entries_bytes;
	int last_ret;
};

/* writes every page (the heap is 4x memory.max), waits, reads every page */
static void fill_read_fn(struct actor *a, void *arg)
{
	struct zs_result *r = arg;

	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		r->last_ret = anon_access(a, fx.task, fx.heap, i, true);
		ck_assert_int_ge(r->last_ret, 0);
	}
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	assert_invariants();
	r->zswpout = zswap.events[ZSWPOUT];
	r->pswpout = mm.vm_events[PSWPOUT];
	r->dev_writes = fx.nvme.st.nr_writes;
	r->stored = zswap.pool.stored_pages;
	r->memcg_zswap_b = fx.memcg->zswap_b;
	r->memcg_zswapped = fx.memcg->zswapped;
	r->charged = fx.memcg->zswap_charged;
	r->entries_bytes = zswap.pool.total_bytes;
	r->incompressible = zswap.pool.st.stored_incompressible_pages;
	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		r->last_ret = anon_access(a, fx.task, fx.heap, i, false);
		ck_assert_int_ge(r->last_ret, 0);
	}
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	assert_invariants();
	r->zswpin = zswap.events[ZSWPIN];
	r->pswpin = mm.vm_events[PSWPIN];
	r->dev_reads = fx.nvme.st.nr_reads;
	r->stored_after = zswap.pool.stored_pages;
	r->zswpout_end = zswap.events[ZSWPOUT];
	r->zswpwb = zswap.events[ZSWPWB];
	r->written_back = zswap.pool.st.written_back_pages;
	r->pool_limit_hit = zswap.pool.st.pool_limit_hit;
	r->reject_poor = zswap.pool.st.reject_compress_poor;
	ck_assert_uint_eq(fx.task->rss_anon + fx.task->nr_swapents, HEAP_PAGES);
}

static void run(const struct zs_setup *z, struct zs_result *r)
{
	memset(r, 0, sizeof(*r));
	boot(z);
	harness_run_actor(fill_read_fn, r);
}

/* a pool large enough: every swap-out is a store, every swap-in a load */
START_TEST(test_store_load_exclusive)
{
	struct zs_setup z = { .kernel = KERNEL_7_2 };
	struct zs_result r;

	run(&z, &r);
	ck_assert_uint_ge(r.zswpout, HEAP_PAGES - MEMCG_MAX);
	ck_assert_uint_eq(r.pswpout, 0);
	ck_assert_uint_eq(r.dev_writes, 0);
	ck_assert_uint_gt(r.stored, 0);
	/* the pool is the memcg's: its bytes in memory.stat and in its usage */
	ck_assert_uint_eq(r.memcg_zswapped, r.stored);
	ck_assert_uint_eq(r.memcg_zswap_b, r.entries_bytes);
	ck_assert_uint_eq(r.charged, (r.entries_bytes + 4095) / 4096);
	ck_assert_uint_gt(r.zswpin, 0);
	ck_assert_uint_eq(r.pswpin, 0);
	ck_assert_uint_eq(r.dev_reads, 0);
	/* exclusive: every load freed its entry (nothing else freed one) */
	ck_assert_uint_eq(r.stored_after, r.zswpout_end - r.zswpin);
	ck_assert_uint_eq(r.zswpwb, 0);
	ck_assert_uint_eq(r.pool_limit_hit, 0);
}
END_TEST

START_TEST(test_load_non_exclusive_6_6)
{
	struct zs_setup z = { .kernel = KERNEL_6_6 };
	struct zs_result r;

	run(&z, &r);
	ck_assert_uint_gt(r.zswpin, 0);
	ck_assert_uint_eq(r.pswpin, 0);
	/* the entries stay after the loads, and the clean copies loaded are
	 * dropped by reclaim without a second store */
	ck_assert_uint_eq(r.stored_after, r.zswpout_end);
	ck_assert_uint_le(r.zswpout_end, HEAP_PAGES);
}
END_TEST

/* a pool limit of 1% of 16Ki pages (163 pages) against pages that barely compress */
START_TEST(test_pool_limit_rejects_to_device)
{
	struct zs_setup z = { .kernel = KERNEL_7_2, .max_pool_percent = 1, .ratio = 1.05 };
	struct zs_result r;

	run(&z, &r);
	ck_assert_uint_gt(r.pool_limit_hit, 0);
	/* refused stores went to the device */
	ck_assert_uint_gt(r.pswpout, 0);
	ck_assert_uint_gt(r.dev_writes, 0);
	/* the worker wrote the oldest entries back to the threshold */
	ck_assert_uint_gt(r.zswpwb, 0);
	ck_assert_uint_eq(r.zswpwb, r.written_back);
	ck_assert_uint_le(zswap_total_pages(&zswap.pool), zswap.pool.max_pages);
	/* and some swap-ins read the device */
	ck_assert_uint_gt(r.pswpin, 0);
}
END_TEST

START_TEST(test_incompressible_rejected_6_12)
{
	struct zs_setup z = { .kernel = KERNEL_6_12, .ratio = 1.0 };
	struct zs_result r;

	run(&z, &r);
	ck_assert_uint_eq(r.zswpout, 0);
	ck_assert_uint_gt(r.reject_poor, 0);
	ck_assert_uint_gt(r.pswpout, 0);
	ck_assert_uint_eq(r.stored, 0);
}
END_TEST

START_TEST(test_incompressible_as_is_7_2)
{
	/* whole pages charged to the memcg would fill it: a pool limit of 163 pages */
	struct zs_setup z = { .kernel = KERNEL_7_2, .ratio = 1.0, .max_pool_percent = 1 };
	struct zs_result r;

	run(&z, &r);
	ck_assert_uint_eq(r.reject_poor, 0);
	ck_assert_uint_gt(r.zswpout, 0);
	ck_assert_uint_gt(r.stored, 0);
	ck_assert_uint_eq(r.incompressible, r.stored);
	/* whole pages: as many pool pages as entries */
	ck_assert_uint_eq(r.entries_bytes, r.stored * 4096);
}
END_TEST

START_TEST(test_zswap_max_zero)
{
	struct zs_setup z = { .kernel = KERNEL_7_2 };
	struct zs_result r;

	/* memory.zswap.max 0: cannot be below UINT64_MAX's "unset", so set it after boot */
	memset(&r, 0, sizeof(r));
	boot(&z);
	fx.memcg->zswap_max = 0;
	harness_run_actor(fill_read_fn, &r);
	ck_assert_uint_eq(r.zswpout, 0);
	ck_assert_uint_gt(r.pswpout, 0);
	ck_assert_uint_eq(r.memcg_zswap_b, 0);
}
END_TEST

/* memory.zswap.max of 16 pages: the memcg's pool stays about there */
START_TEST(test_zswap_max_limits)
{
	struct zs_setup z = { .kernel = KERNEL_7_2, .zswap_max = 16 };
	struct zs_result r;

	run(&z, &r);
	ck_assert_uint_gt(r.zswpout, 0);
	ck_assert_uint_gt(r.pswpout, 0);
	/* one store may cross the limit: the check is before it */
	ck_assert_uint_le(r.memcg_zswap_b, 17 * 4096);
}
END_TEST

struct shrink_result {
	uint64_t zswpwb_before, zswpwb_after, stored_before, stored_after;
};

/* fills, then asks memory.reclaim for more: the shrinker writes back under reclaim */
static void shrink_fn(struct actor *a, void *arg)
{
	struct shrink_result *r = arg;
	uint64_t got;

	for (uint64_t i = 0; i < HEAP_PAGES; i++)
		ck_assert_int_ge(anon_access(a, fx.task, fx.heap, i, true), 0);
	r->zswpwb_before = zswap.events[ZSWPWB];
	r->stored_before = zswap.pool.stored_pages;
	for (int k = 0; k < 8; k++)
		memory_reclaim(fx.memcg, 64, -1, a, &got);
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	r->zswpwb_after = zswap.events[ZSWPWB];
	r->stored_after = zswap.pool.stored_pages;
	assert_invariants();
}

START_TEST(test_shrinker_writes_back)
{
	struct zs_setup z = { .kernel = KERNEL_7_2, .shrinker = true };
	struct shrink_result r = { 0 };

	boot(&z);
	harness_run_actor(shrink_fn, &r);
	/* the pool never filled: only the shrinker writes back */
	ck_assert_uint_eq(zswap.pool.st.pool_limit_hit, 0);
	ck_assert_uint_gt(r.zswpwb_after, 0);
	ck_assert_uint_gt(mm.vm_events[PSWPOUT], 0);
}
END_TEST

START_TEST(test_shrinker_off_no_writeback)
{
	struct zs_setup z = { .kernel = KERNEL_7_2, .shrinker = false };
	struct shrink_result r = { 0 };

	boot(&z);
	harness_run_actor(shrink_fn, &r);
	ck_assert_uint_eq(r.zswpwb_after, 0);
	ck_assert_uint_eq(mm.vm_events[PSWPOUT], 0);
}
END_TEST

static Suite *zswap_suite(void)
{
	Suite *s = suite_create("zswap");
	TCase *tc = tcase_create("pool");

	tcase_add_test(tc, test_pool_limit_hysteresis);
	tcase_add_test(tc, test_compressed_len);
	tcase_add_test(tc, test_lru_second_chance);
	tcase_add_test(tc, test_lru_oldest_first);
	suite_add_tcase(s, tc);

	tc = tcase_create("kernel");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_store_load_exclusive);
	tcase_add_test(tc, test_load_non_exclusive_6_6);
	tcase_add_test(tc, test_pool_limit_rejects_to_device);
	tcase_add_test(tc, test_incompressible_rejected_6_12);
	tcase_add_test(tc, test_incompressible_as_is_7_2);
	tcase_add_test(tc, test_zswap_max_zero);
	tcase_add_test(tc, test_zswap_max_limits);
	tcase_add_test(tc, test_shrinker_writes_back);
	tcase_add_test(tc, test_shrinker_off_no_writeback);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(zswap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
