/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Dirty page cache and writeback: dirty accounting, the flusher cleaning
 * everything when woken by reclaim (data versions reach the device),
 * reclaim_throttle(WRITEBACK) woken early by completions or timing out,
 * and balance_dirty_pages() throttling a writer in a small memcg.
 */
#include <check.h>
#include <stdlib.h>
#include <unistd.h>

#include "models/vmscan.h"
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

		if (folio->version != c->f->disk_version[i] || folio_test_dirty(folio))
			c->bad_version++;
	}
	c->done = true;
}

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
	/* a writer past the memcg's dirty limit sleeps in balance_dirty_pages */
	ck_assert(harness_value(&r, "workload.dd", "dirty_throttle_ms") > 0);
	ck_assert(harness_value(&r, "vmstat", "nr_written") > 0);
	result_free(&r);
	free(out);
	unlink(path);
	free(path);
}
END_TEST

static Suite *writeback_suite(void)
{
	Suite *s = suite_create("writeback");
	TCase *tc = tcase_create("writeback");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_flusher_cleans_and_versions_reach_the_device);
	tcase_add_test(tc, test_writeback_throttle_woken_by_completions);
	tcase_add_test(tc, test_writeback_throttle_too_few_completions_times_out);
	tcase_add_test(tc, test_dd_in_small_memcg_is_throttled_and_finishes);
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
