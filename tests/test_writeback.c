/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Dirty page cache and writeback: dirty accounting, the flusher cleaning
 * everything when woken by reclaim (data versions reach the device),
 * reclaim_throttle(WRITEBACK) woken early by completions or timing out,
 * balance_dirty_pages() judging a memcg by its last rstat flush, and the
 * dd throttling reproducer of the 2026 MGLRU series.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/memory.h"
#include "models/vmscan.h"
#include "models/workingset.h"
#include "models/writeback.h"
#include "tests/harness.h"

#define NR_PAGES 256

struct wb_case {
	struct blockdev dev;
	struct address_space *f;
	struct task *t;
	uint64_t dirty_before, dirty_after, writeback_after;
	int bad_version;
	bool done;
};

/*
 * A file's disk versions and mapcounts are lazy arrays: a read of a block
 * never stored to is 0 whatever its memory holds (it is not read), a store
 * zeroes its own block only, and a store of 0 to such a block stores nothing.
 */
START_TEST(test_lazy_array_reads_only_blocks_stored_to)
{
	const uint64_t per_block = (1ULL << LAZY_BLOCK_SHIFT) / sizeof(uint32_t);
	const uint64_t nr = 3 * per_block + 5;	/* the last block partial */
	struct lazy_array la = { 0 }, mc = { 0 };

	ck_assert_int_eq(lazy_array_init(&la, nr, sizeof(uint32_t)), 0);
	memset(la.base, 0xab, la.bytes);	/* what an unstored block may hold */
	for (uint64_t i = 0; i < nr; i++)
		ck_assert_uint_eq(lazy_u32(&la, i), 0);
	lazy_u32_set(&la, per_block + 1, 0);
	ck_assert(!lazy_array_stored(&la, (per_block + 1) * sizeof(uint32_t)));
	lazy_u32_set(&la, per_block + 1, 7);
	ck_assert(lazy_array_stored(&la, per_block * sizeof(uint32_t)));
	ck_assert(!lazy_array_stored(&la, (per_block - 1) * sizeof(uint32_t)));
	ck_assert(!lazy_array_stored(&la, 2 * per_block * sizeof(uint32_t)));
	for (uint64_t i = per_block; i < 2 * per_block; i++)
		ck_assert_uint_eq(lazy_u32(&la, i), i == per_block + 1 ? 7 : 0);
	ck_assert_uint_eq(((uint32_t *)la.base)[per_block - 1], 0xababababu);
	lazy_u32_set(&la, nr - 1, 9);
	ck_assert_uint_eq(lazy_u32(&la, nr - 1), 9);
	ck_assert_uint_eq(lazy_u32(&la, nr - 2), 0);
	lazy_array_free(&la);

	ck_assert_int_eq(lazy_array_init(&mc, 10, sizeof(uint16_t)), 0);
	memset(mc.base, 0xab, mc.bytes);
	ck_assert_uint_eq(lazy_u16(&mc, 3), 0);
	(*lazy_u16_ptr(&mc, 3))++;
	ck_assert_uint_eq(lazy_u16(&mc, 3), 1);
	ck_assert_uint_eq(lazy_u16(&mc, 4), 0);
	lazy_u16_set(&mc, 3, 0);
	ck_assert_uint_eq(lazy_u16(&mc, 3), 0);
	lazy_array_free(&mc);
}
END_TEST

static uint64_t dirty_pages(void)
{
	uint64_t n = 0;
	int nid;

	for_each_node(nid)
		n += node_page_state(NODE_DATA(nid), NR_FILE_DIRTY);
	return n;
}

static void write_then_flush(struct actor *a, void *arg)
{
	struct wb_case *c = arg;

	for (uint64_t i = 0; i < NR_PAGES; i++)
		ck_assert_int_ge(filemap_write(a, c->t, c->f, i), 0);
	c->dirty_before = dirty_pages();
	/* reclaim's kick: every flusher writes everything */
	wakeup_flusher_threads();
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	c->dirty_after = dirty_pages();
	c->writeback_after = node_page_state(NODE_DATA(0), NR_WRITEBACK) +
			     node_page_state(NODE_DATA(1), NR_WRITEBACK);
	for (uint64_t i = 0; i < NR_PAGES; i++) {
		struct folio *folio = folio_of((uint32_t)c->f->slots[i]);

		if (folio->version != file_disk_version(c->f, i) || folio_test_dirty(folio))
			c->bad_version++;
	}
	c->done = true;
}

/*
 * wb_check_start_all(): a reclaim wakeup writes as many pages as were dirty
 * when the flusher took it up (get_nr_dirty_pages()), then stops; pages
 * dirtied after that wait for kupdate or the background threshold. A
 * flusher that kept writing "until nothing is dirty" fails.
 */
struct snapshot_case {
	struct blockdev dev;
	struct address_space *f;
	struct task *t;
	uint64_t written, dirty_left;
};

/* two WB_MAX_INFLIGHT queues' worth, so the flush is still running when the
 * writer dirties the second part */
#define SNAP_FIRST 8192
#define SNAP_MORE 4096

static void snapshot_fn(struct actor *a, void *arg)
{
	struct snapshot_case *c = arg;

	for (uint64_t i = 0; i < SNAP_FIRST; i++)
		ck_assert_int_ge(filemap_write(a, c->t, c->f, i), 0);
	wakeup_flusher_threads();
	actor_sleep_ns(a, 1);
	for (uint64_t i = SNAP_FIRST; i < SNAP_FIRST + SNAP_MORE; i++)
		ck_assert_int_ge(filemap_write(a, c->t, c->f, i), 0);
	actor_sleep_ns(a, 2 * NSEC_PER_SEC);
	c->written = mm.vm_events[NR_WRITTEN];
	c->dirty_left = dirty_pages();
}

START_TEST(test_start_all_writes_a_snapshot)
{
	struct snapshot_case c = { 0 };

	harness_boot(1, 1 << 16, &classic_policy);
	/* no background writeback, no kupdate within the test */
	mm.vm_dirty_background_ratio = 90;
	mm.vm_dirty_ratio = 95;
	harness_nvme(&c.dev);
	/* a slow device (64 MB/s): the flusher waits on its full queue while
	 * the writer dirties the second part */
	c.dev.p.write_bw = 64ULL << 20;
	ck_assert_int_eq(wb_create(&c.dev), 0);
	c.f = file_create("f", SNAP_FIRST + SNAP_MORE, &c.dev, 0, false);
	c.t = task_create("writer", mm.root_mem_cgroup, 0);
	harness_run_actor(snapshot_fn, &c);
	ck_assert_uint_eq(c.written, SNAP_FIRST);
	ck_assert_uint_eq(c.dirty_left, SNAP_MORE);
}
END_TEST

/*
 * vm.dirty_bytes / vm.dirty_background_bytes replace the ratios; a
 * background threshold at or above the limit is halved (domain_dirty_limits()).
 */
struct limits_case {
	struct blockdev dev;
	struct address_space *f;
	struct task *t;
	uint64_t dirty_at_rest;
};

static void bg_bytes_fn(struct actor *a, void *arg)
{
	struct limits_case *c = arg;

	for (uint64_t i = 0; i < NR_PAGES; i++)
		ck_assert_int_ge(filemap_write(a, c->t, c->f, i), 0);
	/* the background flusher brings the dirty count under the threshold */
	actor_sleep_ns(a, 200 * NSEC_PER_MSEC);
	c->dirty_at_rest = dirty_pages();
}

START_TEST(test_dirty_background_bytes)
{
	struct limits_case c = { 0 };

	harness_boot(1, 1 << 16, &classic_policy);
	/* 64 pages of background threshold, far below 10% of 256 MiB */
	mm.vm_dirty_background_bytes = 64 * 4096;
	harness_nvme(&c.dev);
	ck_assert_int_eq(wb_create(&c.dev), 0);
	c.f = file_create("f", NR_PAGES, &c.dev, 0, false);
	c.t = task_create("writer", mm.root_mem_cgroup, 0);
	harness_run_actor(bg_bytes_fn, &c);
	ck_assert_uint_le(c.dirty_at_rest, 64);
	ck_assert_uint_gt(mm.vm_events[NR_WRITTEN], NR_PAGES - 64 - 1);
}
END_TEST

/*
 * mem_cgroup_flush_stats(): a reader's flush happens only past
 * MEMCG_CHARGE_BATCH * nr_cpus pending updates; the periodic flush always.
 */
START_TEST(test_stats_flush_threshold)
{
	struct mem_cgroup *memcg;
	struct lruvec *l;
	uint64_t cpus = 0;
	int nid;

	harness_boot(1, 1 << 16, &classic_policy);
	for_each_node(nid)
		cpus += (uint64_t)mm.machine.node[nid].nr_cpus;
	memcg = mem_cgroup_create(mm.root_mem_cgroup, "m");
	l = memcg->lruvec[0];
	mem_cgroup_do_flush_stats(NULL);
	mod_lruvec_state(l, NR_FILE_DIRTY, (int64_t)(64 * cpus));
	mem_cgroup_flush_stats(memcg);
	ck_assert_uint_eq(memcg_page_state_flushed(memcg, NR_FILE_DIRTY), 0);
	mod_lruvec_state(l, NR_FILE_DIRTY, 1);
	mem_cgroup_flush_stats(memcg);
	ck_assert_uint_eq(memcg_page_state_flushed(memcg, NR_FILE_DIRTY), 64 * cpus + 1);
	/* updates count with their size, both ways, up the hierarchy */
	mod_lruvec_state(l, NR_FILE_DIRTY, -(int64_t)(64 * cpus + 1));
	/* the root saw all three changes: its pending count was not reset by m's flush */
	ck_assert_uint_eq(mm.root_mem_cgroup->stats_updates, 2 * (64 * cpus + 1));
	mem_cgroup_flush_stats(mm.root_mem_cgroup);
	ck_assert_uint_eq(memcg_page_state_flushed(memcg, NR_FILE_DIRTY), 0);
}
END_TEST

/*
 * A write is not an access and not a refault (mm/filemap.c): write_begin
 * looks the folio up without FGP_ACCESSED, and a folio created to be
 * overwritten drops the shadow entry without workingset_refault().
 */
struct write_case {
	struct blockdev dev;
	struct address_space *f;
	struct task *t;
};

static void write_not_access_fn(struct actor *a, void *arg)
{
	struct write_case *c = arg;
	struct lruvec *l = c->t->memcg->lruvec[0];
	struct folio *folio;

	ck_assert_int_eq(filemap_read(a, c->t, c->f, 0), ACCESS_MAJOR);
	folio = folio_of((uint32_t)c->f->slots[0]);
	folio_clear_referenced(folio);
	ck_assert_int_eq(filemap_write(a, c->t, c->f, 0), ACCESS_HIT);
	ck_assert(folio_test_dirty(folio));
	ck_assert_msg(!folio_test_referenced(folio), "a write marked the folio accessed");
	ck_assert(!folio_test_active(folio));
	/* page 1 was evicted a moment ago (a recent shadow of a workingset page) */
	c->f->slots[1] = pack_shadow(c->t->memcg->id, 0, l->nonresident_age, true);
	ck_assert_int_eq(filemap_write(a, c->t, c->f, 1), ACCESS_NEW);
	ck_assert_uint_eq(l->stat[WORKINGSET_REFAULT_FILE], 0);
	ck_assert_uint_eq(l->stat[WORKINGSET_RESTORE_FILE], 0);
	folio = folio_of((uint32_t)c->f->slots[1]);
	ck_assert(folio_test_dirty(folio));
	ck_assert(!folio_test_workingset(folio));
}

START_TEST(test_write_is_not_an_access_nor_a_refault)
{
	struct write_case c = { 0 };

	harness_boot(1, 1 << 16, &classic_policy);
	harness_nvme(&c.dev);
	ck_assert_int_eq(wb_create(&c.dev), 0);
	c.f = file_create("f", NR_PAGES, &c.dev, 0, false);
	c.t = task_create("writer", mem_cgroup_create(mm.root_mem_cgroup, "w"), 0);
	harness_run_actor(write_not_access_fn, &c);
}
END_TEST

START_TEST(test_flusher_cleans_and_versions_reach_the_device)
{
	struct wb_case c = { 0 };

	harness_boot(2, 1 << 16, &classic_policy);
	harness_nvme(&c.dev);
	ck_assert_int_eq(wb_create(&c.dev), 0);
	c.f = file_create("f", NR_PAGES, &c.dev, 0, false);
	c.t = task_create("writer", mm.root_mem_cgroup, 0);
	harness_run_actor(write_then_flush, &c);
	ck_assert(c.done);
	/* each page written once: dirty, then written back with its version */
	ck_assert_uint_eq(c.dirty_before, NR_PAGES);
	ck_assert_uint_eq(c.dirty_after, 0);
	ck_assert_uint_eq(c.writeback_after, 0);
	ck_assert_int_eq(c.bad_version, 0);
	ck_assert_uint_eq(mm.vm_events[NR_DIRTIED], NR_PAGES);
	ck_assert_uint_eq(mm.vm_events[NR_WRITTEN], NR_PAGES);
	ck_assert_uint_ge(mm.vm_events[PGPGOUT], NR_PAGES * 4);
}
END_TEST

/*
 * write_cache_pages() tests a folio after it locks it, and a writer that
 * found a folio dirty and then submitted its previous bio (a context switch:
 * the engine wakes the device's completion timer) looks again: another
 * fsync() of the same file may have written the folio meanwhile. Written
 * twice, the second completion would end writeback of a clean folio
 * (NR_WRITEBACK below zero, and a folio reclaimed while a bio still names
 * it: found by mmemu fuzz as a SIGSEGV in wb_end_io).
 */
struct fsync_race_case {
	struct blockdev dev;
	struct address_space *f;
	struct task *t;
	int synced;
};

static void fsync_fn(struct actor *a, void *arg)
{
	struct fsync_race_case *c = arg;

	filemap_fdatawrite(a, c->f);
	c->synced++;
}

static void fsync_race_fn(struct actor *a, void *arg)
{
	struct fsync_race_case *c = arg;

	/* pages 0 and 2 dirty: a writer submits page 0's bio before page 2 */
	ck_assert_int_ge(filemap_write(a, c->t, c->f, 0), 0);
	ck_assert_int_ge(filemap_write(a, c->t, c->f, 2), 0);
	actor_create("fsync-a", 0, fsync_fn, c, false);
	actor_create("fsync-b", 0, fsync_fn, c, false);
	actor_sleep_ns(a, 100 * NSEC_PER_MSEC);
}

START_TEST(test_two_fsyncs_write_each_folio_once)
{
	struct fsync_race_case c = { 0 };

	harness_boot(1, 1 << 16, &classic_policy);
	mm.vm_dirty_background_ratio = 90;	/* no flusher in the way */
	mm.vm_dirty_ratio = 95;
	harness_nvme(&c.dev);
	ck_assert_int_eq(wb_create(&c.dev), 0);
	c.f = file_create("f", NR_PAGES, &c.dev, 0, false);
	c.t = task_create("writer", mm.root_mem_cgroup, 0);
	harness_run_actor(fsync_race_fn, &c);
	ck_assert_int_eq(c.synced, 2);
	ck_assert_uint_eq(c.f->nr_dirty, 0);
	ck_assert_uint_eq(mm.vm_events[NR_WRITTEN], 2);
	ck_assert_int_eq((int64_t)node_page_state(NODE_DATA(0), NR_WRITEBACK), 0);
}
END_TEST

struct throttle_case {
	uint64_t woke_at;	/* when the throttled reclaimer came back */
	uint64_t complete_at;	/* 0: nothing completes */
	uint64_t nr_completed;
};

static void throttled(struct actor *a, void *arg)
{
	struct throttle_case *c = arg;

	reclaim_throttle(NODE_DATA(0), VMSCAN_THROTTLE_WRITEBACK, a);
	c->woke_at = actor_now_ns(a);
}

static void completer(struct actor *a, void *arg)
{
	struct throttle_case *c = arg;

	actor_sleep_ns(a, c->complete_at);
	writeback_complete(NODE_DATA(0), c->nr_completed);
}

static void throttle_scene(struct actor *a, void *arg)
{
	struct throttle_case *c = arg;

	actor_create("throttled", 0, throttled, c, false);
	if (c->complete_at)
		actor_create("completer", 0, completer, c, false);
	actor_sleep_ns(a, 1);
}

START_TEST(test_writeback_throttle_woken_by_completions)
{
	/* 33 pages written beat 32 per throttled task: woken at 10 ms, not 100 ms */
	struct throttle_case c = { 0, 10 * NSEC_PER_MSEC, SWAP_CLUSTER_MAX + 1 };

	harness_boot(1, 1 << 14, &classic_policy);
	harness_run_actor(throttle_scene, &c);
	ck_assert_uint_eq(c.woke_at, 10 * NSEC_PER_MSEC);
	ck_assert_uint_ge(NODE_DATA(0)->throttle_ns[VMSCAN_THROTTLE_WRITEBACK], 10 * NSEC_PER_MSEC);
}
END_TEST

START_TEST(test_writeback_throttle_too_few_completions_times_out)
{
	/* 32 pages are not more than 32 per throttled task: the full HZ/10 */
	struct throttle_case c = { 0, 10 * NSEC_PER_MSEC, SWAP_CLUSTER_MAX };

	harness_boot(1, 1 << 14, &classic_policy);
	harness_run_actor(throttle_scene, &c);
	ck_assert_uint_eq(c.woke_at, 100 * NSEC_PER_MSEC);
}
END_TEST

START_TEST(test_dd_in_small_memcg_is_throttled_and_finishes)
{
	static const char ini[] =
		"[machine]\nnodes = 1\nnode_memory = 1G\nnode_cpus = 2\n"
		"[device.slow]\ntype = nvme\ndelay_write = 200ms\n"
		"[memcg.dd]\nmax = 64M\n"
		"[workload.dd]\ntype = dd\nmemcg = dd\nsize = 96M\npages_per_op = 256\n"
		"device = slow\n";
	char *path = harness_write_temp(ini), *out = NULL, err[512];
	struct run_result r;
	int rc;

	rc = harness_run_scenario(path, NULL, 0, 1.0, 1, "classic", true, &out, err, sizeof(err));
	ck_assert_msg(rc == 0, "run failed: %s", err);
	ck_assert_int_eq(harness_parse_result(out, &r), 0);
	ck_assert_double_eq(harness_value(&r, "workload.dd", "oom_killed"), 0);
	ck_assert_double_eq(harness_value(&r, "workload.dd", "ops"), 96);
	/*
	 * Before the first rstat flush the memcg looks clean to
	 * balance_dirty_pages(): the writer fills it with dirty pages and
	 * memcg reclaim is what waits, on congestion, for the writeback.
	 */
	ck_assert(harness_value(&r, "node.0", "throttle_congested_ms") > 0);
	ck_assert(harness_value(&r, "vmstat", "nr_written") > 0);
	result_free(&r);
	free(out);
	unlink(path);
	free(path);
}
END_TEST

/* ---- the memcg dirty domain reads flushed statistics ---- */

struct flush_case {
	struct blockdev dev;
	struct address_space *f;
	struct task *t;
	uint64_t before_ns, after_ns;	/* balance_dirty_pages sleep before/after the flush */
	uint64_t dirty, flushed;	/* memcg dirty + writeback: live, and as flushed */
};

static void dirty_then_flush(struct actor *a, void *arg)
{
	struct flush_case *c = arg;

	/* half the memcg dirtied: far past 20% of its dirtyable memory */
	for (uint64_t i = 0; i < c->f->nr_pages; i++)
		ck_assert_int_ge(filemap_write(a, c->t, c->f, i), 0);
	c->before_ns = c->t->dirty_throttle_ns;
	/* flush_memcg_stats_dwork(): now the domain sees the dirty pages */
	mem_cgroup_do_flush_stats(NULL);
	c->dirty = memcg_page_state(c->t->memcg, NR_FILE_DIRTY) +
		   memcg_page_state(c->t->memcg, NR_WRITEBACK);
	c->flushed = memcg_page_state_flushed(c->t->memcg, NR_FILE_DIRTY) +
		     memcg_page_state_flushed(c->t->memcg, NR_WRITEBACK);
	/* the writer's next pages: within one ratelimit window (at most 32
	 * pages) it enters balance_dirty_pages() and pauses */
	for (int i = 0; i < 32 && !c->after_ns; i++)
		c->after_ns = balance_dirty_pages_ratelimited(a, c->t);
}

START_TEST(test_memcg_dirty_limit_from_flushed_stats)
{
	struct flush_case c = { 0 };
	struct mem_cgroup *memcg;

	harness_boot(1, 1 << 16, &classic_policy);
	harness_nvme(&c.dev);
	ck_assert_int_eq(wb_create(&c.dev), 0);
	memcg = mem_cgroup_create(mm.root_mem_cgroup, "m");
	memcg->max = 4096;
	c.f = file_create("f", 2048, &c.dev, 0, false);
	c.t = task_create("writer", memcg, 0);
	harness_run_actor(dirty_then_flush, &c);
	ck_assert_uint_eq(c.dirty, 2048);
	ck_assert_uint_eq(c.flushed, 2048);
	/* stale (never flushed) stats: the memcg looked clean, no pause */
	ck_assert_uint_eq(c.before_ns, 0);
	/* flushed: 2048 dirty of avail = 2048 file + 2048 headroom, limit 20% */
	ck_assert_uint_gt(c.after_ns, 0);
}
END_TEST

/* ---- SEEDS A.4: dd in a 128M memcg on a 1 s write delay ---- */

static void run_dd_throttle(const char *policy, struct run_result *r)
{
	char *out = NULL, err[512];
	const char *path = harness_src_path("scenarios/dd-throttle.ini");
	int rc;

	rc = harness_run_scenario(path, NULL, 0, 1.0, 1, policy, true, &out, err, sizeof(err));
	ck_assert_msg(rc == 0, "run failed: %s", err);
	ck_assert_int_eq(harness_parse_result(out, r), 0);
	free(out);
}

START_TEST(test_dd_throttle_old_ooms_budget_throttles)
{
	struct run_result old, budget;

	run_dd_throttle("mglru-old", &old);
	run_dd_throttle("mglru-budget", &budget);
	/* mglru-old bumps dirty/writeback folios in sort_folio: reclaim never
	 * sees them, never throttles, and the charge runs out of retries */
	ck_assert_double_eq(harness_value(&old, "workload.dd", "oom_killed"), 1);
	ck_assert(harness_value(&old, "workload.dd", "ops") < 192);
	ck_assert(!(harness_value(&old, "node.0", "throttle_congested_ms") > 0));
	/* mglru-budget reactivates them in shrink_folio_list, meets them again
	 * under writeback (congested) and waits for the device */
	ck_assert_double_eq(harness_value(&budget, "workload.dd", "oom_killed"), 0);
	ck_assert_double_eq(harness_value(&budget, "workload.dd", "ops"), 192);
	ck_assert(harness_value(&budget, "node.0", "throttle_congested_ms") > 0);
	ck_assert(harness_value(&budget, "vmstat", "nr_vmscan_immediate_reclaim") > 0);
	result_free(&old);
	result_free(&budget);
}
END_TEST

static Suite *writeback_suite(void)
{
	Suite *s = suite_create("writeback");
	TCase *tc = tcase_create("writeback");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_lazy_array_reads_only_blocks_stored_to);
	tcase_add_test(tc, test_flusher_cleans_and_versions_reach_the_device);
	tcase_add_test(tc, test_start_all_writes_a_snapshot);
	tcase_add_test(tc, test_write_is_not_an_access_nor_a_refault);
	tcase_add_test(tc, test_dirty_background_bytes);
	tcase_add_test(tc, test_two_fsyncs_write_each_folio_once);
	tcase_add_test(tc, test_stats_flush_threshold);
	tcase_add_test(tc, test_writeback_throttle_woken_by_completions);
	tcase_add_test(tc, test_writeback_throttle_too_few_completions_times_out);
	tcase_add_test(tc, test_dd_in_small_memcg_is_throttled_and_finishes);
	tcase_add_test(tc, test_memcg_dirty_limit_from_flushed_stats);
	tcase_add_test(tc, test_dd_throttle_old_ooms_budget_throttles);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(writeback_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
