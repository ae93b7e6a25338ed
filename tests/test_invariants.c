/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whole runs through scenario_run() (each in a child process, small scale):
 * the model's invariants hold at the end, the counters show reclaim and
 * refaults, runs are deterministic, and an OOM-killing run ends cleanly.
 * The periodic check: state corrupted on purpose during a run (a lost
 * write, a page counter off by one, a stale swap slot) ends the run at the
 * first quiescent point after it, naming the simulated time and the object;
 * an honest run checked at every quiescent point passes (charges in flight
 * included). tests/test_checked.c runs every shipped scenario so checked.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/debug.h"
#include "models/memory.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/writeback.h"
#include "scenarios/result.h"

#define SCALE (1.0 / 32)

static const char *quickstart(void)
{
	static char path[4096];

	snprintf(path, sizeof(path), "%s", harness_src_path("scenarios/quickstart.ini"));
	return path;
}

/* Runs quickstart under `policy` and parses its result; the text is returned in *text. */
static void run_quickstart(const char *const *sets, int nr_sets, uint64_t seed, const char *policy,
			   struct run_result *r, char **text)
{
	char err[1024] = "";
	int rc = harness_run_scenario(quickstart(), sets, nr_sets, SCALE, seed, policy, true, text,
				      err, sizeof(err));

	ck_assert_msg(rc == 0, "run failed (status %d): %s", rc, err);
	ck_assert_msg(harness_parse_result(*text, r) == 0, "unreadable result:\n%.2000s", *text);
}

static double stat_of(const struct run_result *r, const char *key)
{
	double v = harness_value(r, "memcg.app.memory.stat", key);

	ck_assert_msg(!isnan(v), "memcg.app.memory.stat has no '%s'", key);
	return v;
}

static double vmstat(const struct run_result *r, const char *key)
{
	double v = harness_value(r, "vmstat", key);

	ck_assert_msg(!isnan(v), "vmstat has no '%s'", key);
	return v;
}

START_TEST(test_quickstart_classic_invariants_and_counters)
{
	struct run_result r;
	char *text;

	run_quickstart(NULL, 0, 1, "classic", &r, &text);
	ck_assert_str_eq(r.policy, "classic");
	ck_assert_uint_eq(r.seed, 1);
	ck_assert(r.sim_seconds > 0);
	ck_assert(stat_of(&r, "pgscan") > 0);
	ck_assert(stat_of(&r, "pgsteal") > 0);
	ck_assert(stat_of(&r, "pgsteal") <= stat_of(&r, "pgscan"));
	ck_assert(stat_of(&r, "workingset_refault_file") > 0);
	ck_assert(stat_of(&r, "workingset_activate_file") <= stat_of(&r, "workingset_refault_file"));
	ck_assert(vmstat(&r, "pgpgin") > 0);
	ck_assert(vmstat(&r, "oom_kill") == 0);
	ck_assert(harness_value(&r, "memcg.app.memory.events", "oom_kill") == 0);
	/* memory.max held: the peak is at most the limit */
	ck_assert(harness_value(&r, "memcg.app", "memory.peak") <=
		  harness_value(&r, "memcg.app", "memory.max"));
	ck_assert(harness_value(&r, "memcg.app", "memory.max") > 0);
	/* every workload finished its operations */
	ck_assert(harness_value(&r, "workload.reader", "ops") == 4000000.0 * SCALE);
	ck_assert(harness_value(&r, "workload.heap", "ops") == 4000000.0 * SCALE);
	ck_assert(harness_value(&r, "workload.mapper", "ops") == 2000000.0 * SCALE);
	ck_assert(harness_value(&r, "workload.reader", "major_faults") > 0);
	ck_assert(harness_value(&r, "device.nvme0", "reads") > 0);
	result_free(&r);
	free(text);
}
END_TEST

/* Every registered policy keeps the invariants on the default scenario. */
START_TEST(test_quickstart_every_policy_invariants)
{
	for (int i = 0; reclaim_policies[i]; i++) {
		struct run_result r;
		char *text;

		run_quickstart(NULL, 0, 1, reclaim_policies[i]->name, &r, &text);
		ck_assert_str_eq(r.policy, reclaim_policies[i]->name);
		ck_assert_msg(stat_of(&r, "pgsteal") > 0, "%s reclaimed nothing", r.policy);
		ck_assert_msg(vmstat(&r, "oom_kill") == 0, "%s OOM-killed", r.policy);
		result_free(&r);
		free(text);
	}
}
END_TEST

/* result_write() text without the host-dependent host_seconds field of the run line. */
static void strip_host_seconds(char *text)
{
	char *line = strstr(text, "run\t");
	int tabs = 0;

	ck_assert_ptr_nonnull(line);
	for (char *p = line; *p && *p != '\n'; p++) {
		if (*p == '\t' && ++tabs == 4) {
			char *end = strchr(p + 1, '\t');

			ck_assert_ptr_nonnull(end);
			memmove(p + 1, end, strlen(end) + 1);
			break;
		}
	}
}

START_TEST(test_run_deterministic)
{
	struct run_result r1, r2, r3;
	char *t1, *t2, *t3;

	run_quickstart(NULL, 0, 1, "classic", &r1, &t1);
	run_quickstart(NULL, 0, 1, "classic", &r2, &t2);
	run_quickstart(NULL, 0, 2, "classic", &r3, &t3);
	strip_host_seconds(t1);
	strip_host_seconds(t2);
	strip_host_seconds(t3);
	ck_assert_msg(strcmp(t1, t2) == 0, "same seed, different results");
	ck_assert_msg(strcmp(t1, t3) != 0, "seeds 1 and 2 gave the same results");
	ck_assert_uint_eq(r3.seed, 2);
	result_free(&r1);
	result_free(&r2);
	result_free(&r3);
	free(t1);
	free(t2);
	free(t3);
}
END_TEST

START_TEST(test_oom_run_completes_with_invariants)
{
	/* 300M at full scale: the 3G anonymous heap cannot fit */
	static const char *const sets[] = { "memcg.app.max=300M" };
	struct run_result r;
	char *text;

	run_quickstart(sets, 1, 1, "classic", &r, &text);
	ck_assert(harness_value(&r, "memcg.app.memory.events", "oom_kill") >= 1);
	ck_assert(vmstat(&r, "oom_kill") >= 1);
	ck_assert(harness_value(&r, "workload.heap", "oom_killed") == 1);
	ck_assert(harness_value(&r, "workload.heap", "oom_kill_s") > 0);
	ck_assert(harness_value(&r, "memcg.app", "memory.peak") <=
		  harness_value(&r, "memcg.app", "memory.max"));
	result_free(&r);
	free(text);
}
END_TEST

START_TEST(test_bad_policy_and_set_fail_cleanly)
{
	static const char *const bad_set[] = { "memcg.app.max=banana" };
	char err[1024] = "", *text;
	int rc;

	rc = harness_run_scenario(quickstart(), NULL, 0, SCALE, 1, "no-such-policy", true, &text,
				  err, sizeof(err));
	ck_assert_int_ne(rc, 0);
	ck_assert_msg(strstr(err, "no-such-policy"), "%s", err);
	free(text);
	rc = harness_run_scenario(quickstart(), bad_set, 1, SCALE, 1, "classic", true, &text, err,
				  sizeof(err));
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "banana"), "%s", err);
	free(text);
}
END_TEST

/*
 * Four reader threads share one file mapping and fault the same pages: a
 * thread that slept in the fault must not map (and count) the page again.
 */
START_TEST(test_shared_mapping_mapped_once)
{
	struct run_result r;
	char err[1024] = "", *text;
	int rc = harness_run_scenario(harness_src_path("scenarios/file-anon-mix.ini"), NULL, 0,
				      1.0 / 128, 1, "classic", true, &text, err, sizeof(err));

	ck_assert_msg(rc == 0, "run failed (status %d): %s", rc, err);
	ck_assert_msg(harness_parse_result(text, &r) == 0, "unreadable result:\n%.2000s", text);
	ck_assert_msg(vmstat(&r, "nr_mapped") <= vmstat(&r, "nr_file_pages"),
		      "nr_mapped %.0f > nr_file_pages %.0f", vmstat(&r, "nr_mapped"),
		      vmstat(&r, "nr_file_pages"));
	ck_assert_msg(vmstat(&r, "nr_mapped") > 0, "no page mapped at the end");
	result_free(&r);
	free(text);
}
END_TEST

/* ---- the periodic check, against deliberate corruption ---- */

#define CORRUPT_AT_NS (50 * NSEC_PER_MSEC)
#define NR_FILE_PAGES 64
#define HEAP_PAGES 1024

enum corruption {
	LOST_WRITE,		/* a dirty file folio turns clean, nothing written */
	USAGE_OFF,		/* memcg usage one page more than its folios */
	STALE_SLOT,		/* a swapped-out page's slot holds other data */
	NONE,			/* an honest run */
};

static struct {
	enum corruption what;
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct task *task;
	struct address_space *file, *heap;
	uint32_t folio;		/* the folio corrupted (LOST_WRITE) */
	uint64_t page;		/* the page corrupted (LOST_WRITE, STALE_SLOT) */
	uint64_t slot;		/* ... and its slot */
	bool reached_end;	/* the actor ran past the corruption to its end */
} pc;

static void corrupt_then_go_on(struct actor *a, void *arg)
{
	(void)arg;
	for (uint64_t i = 0; i < HEAP_PAGES; i++)
		ck_assert_int_ge(anon_access(a, pc.task, pc.heap, i, true), 0);
	for (uint64_t i = 0; i < NR_FILE_PAGES; i++)
		ck_assert_int_ge(filemap_write(a, pc.task, pc.file, i), 0);
	actor_sleep_until_ns(a, CORRUPT_AT_NS);
	ck_assert_uint_eq(actor_now_ns(a), CORRUPT_AT_NS);	/* the writes took less */
	switch (pc.what) {
	case LOST_WRITE: {
		struct folio *folio;

		for (pc.page = 0; pc.page < NR_FILE_PAGES; pc.page++) {
			uint64_t entry = pc.file->slots[pc.page];

			if (entry && !xa_is_value(entry) && folio_test_dirty(folio_of((uint32_t)entry)))
				break;
		}
		ck_assert_uint_lt(pc.page, NR_FILE_PAGES);	/* a dirty page is cached */
		folio = folio_of(pc.folio = (uint32_t)pc.file->slots[pc.page]);
		folio_clear_dirty(folio);
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_DIRTY, -1);
		pc.file->nr_dirty--;
		break;
	}
	case USAGE_OFF:
		pc.memcg->usage++;
		pc.memcg->parent->usage++;
		break;
	case STALE_SLOT:
		for (pc.page = 0; pc.page < HEAP_PAGES; pc.page++) {
			uint64_t entry = pc.heap->slots[pc.page];

			if (xa_is_value(entry) && !mm.swap->cache[swp_slot(entry)])
				break;
		}
		ck_assert_uint_lt(pc.page, HEAP_PAGES);	/* something was swapped out */
		pc.slot = swp_slot(pc.heap->slots[pc.page]);
		mm.swap->slot_version[pc.slot] += 7;
		break;
	case NONE:
		break;
	}
	/* quiescent points after it: the first one ends the run */
	for (int i = 0; i < 100; i++)
		actor_sleep_ns(a, NSEC_PER_MSEC);
	pc.reached_end = true;
}

/* One memcg of 256 pages with zram swap; a task writing a file and a heap of 1024 pages. */
static void run_corrupted(enum corruption what, uint64_t every)
{
	memset(&pc, 0, sizeof(pc));
	pc.what = what;
	harness_boot(1, 65536, &classic_policy);
	harness_nvme(&pc.nvme);
	ck_assert_int_eq(wb_create(&pc.nvme), 0);
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, 4096), 0);
	pc.memcg = mem_cgroup_create(mm.root_mem_cgroup, "app");
	ck_assert_ptr_nonnull(pc.memcg);
	pc.memcg->max = 256;
	pc.task = task_create("writer", pc.memcg, 0);
	pc.file = file_create("data", NR_FILE_PAGES, &pc.nvme, 0, false);
	pc.heap = anon_region_create(pc.task, "heap", HEAP_PAGES);
	ck_assert_ptr_nonnull(pc.file);
	ck_assert_ptr_nonnull(pc.heap);
	for (int nid = 0; nid < mm.machine.nr_nodes; nid++)
		kswapd_run(nid);
	mm_check_invariants_periodic(every);
	harness_run_actor(corrupt_then_go_on, NULL);
}

static void assert_broken(const char *what)
{
	const char *msg = mm_invariants_broken();

	ck_assert_msg(msg, "no invariant broken: %s expected", what);
	ck_assert_msg(strstr(msg, "invariant broken at 0.050000 s simulated: "),
		      "not the time of the corruption: %s", msg);
	ck_assert_msg(strstr(msg, what), "'%s' expected in: %s", what, msg);
	ck_assert_msg(!pc.reached_end, "the run went on after: %s", msg);
	ck_assert_uint_gt(mm.nr_invariant_checks, 1);	/* checks ran before, and passed */
}

/*
 * The folio table hands folios out as one free list in index order would:
 * the last freed first, then the never used in index order; a table used up
 * gives 0 and the free count follows every get and put.
 */
START_TEST(test_folio_table_order)
{
	static const uint32_t want[] = { 3, 1, 4, 5, 0 };

	ck_assert_int_eq(folio_table_init(5), 0);
	ck_assert_uint_eq(folio_table.nr_free, 5);
	ck_assert_uint_eq(folio_table_get(), 1);
	ck_assert_uint_eq(folio_table_get(), 2);
	ck_assert_uint_eq(folio_table_get(), 3);
	folio_of(3)->index = 7;
	folio_table_put(1);
	folio_table_put(3);
	ck_assert_uint_eq(folio_table.nr_free, 4);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint32_t idx = folio_table_get();

		ck_assert_uint_eq(idx, want[i]);
		if (idx)
			ck_assert_uint_eq(folio_of(idx)->index, 0);	/* handed out clean */
	}
	ck_assert_uint_eq(folio_table.nr_free, 0);
	folio_table_put(2);
	ck_assert_uint_eq(folio_table.nr_free, 1);
	ck_assert_uint_eq(folio_table_get(), 2);
	folio_table_exit();
}
END_TEST

START_TEST(test_periodic_catches_lost_write)
{
	char want[128];

	run_corrupted(LOST_WRITE, 1);
	snprintf(want, sizeof(want),
		 "folio %u (file 'data' page %llu) is clean at version 1 but its backing store "
		 "has version 0", pc.folio, (unsigned long long)pc.page);
	assert_broken(want);
}
END_TEST

START_TEST(test_periodic_catches_usage_off)
{
	char want[128];

	run_corrupted(USAGE_OFF, 1);
	snprintf(want, sizeof(want), "memcg 'app': usage %llu (own %llu) != %llu folios",
		 (unsigned long long)pc.memcg->usage, (unsigned long long)pc.memcg->usage,
		 (unsigned long long)pc.memcg->usage - 1);
	assert_broken(want);
}
END_TEST

START_TEST(test_periodic_catches_stale_swap_slot)
{
	char want[160];

	run_corrupted(STALE_SLOT, 1);
	snprintf(want, sizeof(want),
		 "anon 'heap' page %llu is swapped out and its slot %llu holds version 7, but it "
		 "was last written at version 0", (unsigned long long)pc.page,
		 (unsigned long long)pc.slot);
	assert_broken(want);
}
END_TEST

/*
 * Local contracts (models/debug.h): freeing a folio still locked, or
 * adding a listed folio to the LRU again, is caught where it happens; the
 * first is kept with its place and time, the count goes on, and the
 * double add changes no list.
 */
START_TEST(test_contracts_caught_where_broken)
{
	struct mem_cgroup *memcg;
	struct lruvec *lruvec;
	uint32_t a, b;

	harness_boot(1, 65536, &classic_policy);
	memcg = mem_cgroup_create(mm.root_mem_cgroup, "app");
	lruvec = memcg->lruvec[0];
	ck_assert_ptr_null(mm_warned());
	a = alloc_folio_noreclaim(memcg, 0);
	b = alloc_folio_noreclaim(memcg, 0);
	ck_assert(a && b);
	folio_add_lru(folio_of(a), 0);
	ck_assert_ptr_null(mm_warned());
	ck_assert_uint_eq(lruvec_lru_size(lruvec, LRU_INACTIVE_FILE), 1);
	folio_add_lru(folio_of(a), 0);
	ck_assert_uint_eq(mm_nr_warnings(), 1);
	ck_assert_msg(strstr(mm_warned(), "contract broken at 0.000000 s simulated: page_alloc.c:") &&
		      strstr(mm_warned(), ": folio_test_lru(folio)"), "%s", mm_warned());
	ck_assert_uint_eq(lruvec_lru_size(lruvec, LRU_INACTIVE_FILE), 1);
	folio_set_locked(folio_of(b));
	__free_folio(folio_of(b));
	ck_assert_uint_eq(mm_nr_warnings(), 2);
	ck_assert_msg(strstr(mm_warned(), ": folio_test_lru(folio)"), "the first is kept: %s",
		      mm_warned());
}
END_TEST

/* The same run, honest: reclaim, swap-out and writeback in flight at every check. */
START_TEST(test_periodic_honest_run_passes)
{
	run_corrupted(NONE, 1);
	ck_assert_msg(!mm_invariants_broken(), "%s", mm_invariants_broken());
	ck_assert_msg(!mm_warned(), "%s", mm_warned());
	ck_assert(pc.reached_end);
	ck_assert_uint_eq(mm.nr_invariant_checks, engine_nr_quiescent());
	ck_assert_uint_gt(mm.nr_invariant_checks, 100);
	ck_assert_uint_gt(mm.vm_events[PSWPOUT], 0);
}
END_TEST

static Suite *invariants_suite(void)
{
	Suite *s = suite_create("invariants");
	TCase *tc = tcase_create("quickstart");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_quickstart_classic_invariants_and_counters);
	tcase_add_test(tc, test_quickstart_every_policy_invariants);
	tcase_add_test(tc, test_run_deterministic);
	tcase_add_test(tc, test_oom_run_completes_with_invariants);
	tcase_add_test(tc, test_bad_policy_and_set_fail_cleanly);
	tcase_add_test(tc, test_shared_mapping_mapped_once);
	suite_add_tcase(s, tc);

	tc = tcase_create("periodic");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_folio_table_order);
	tcase_add_test(tc, test_contracts_caught_where_broken);
	tcase_add_test(tc, test_periodic_catches_lost_write);
	tcase_add_test(tc, test_periodic_catches_usage_off);
	tcase_add_test(tc, test_periodic_catches_stale_swap_slot);
	tcase_add_test(tc, test_periodic_honest_run_passes);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(invariants_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
