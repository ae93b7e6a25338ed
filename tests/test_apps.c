/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The application scenarios at small scale: fio mmap randread (fio-mmap.ini),
 * sysbench oltp_read_only over a swapped buffer pool (mysql-ro.ini) and app
 * cold launches (app-launch.ini). Each checks events and directions: the
 * generator runs, reports what it promises, and memory size moves it the
 * right way.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "tests/harness.h"

/* Runs a scenario from scenarios/ with the invariant check on; fills r. */
static void run(const char *ini, const char *const *sets, int nr_sets, double scale,
		const char *policy, struct run_result *r)
{
	char *out = NULL, err[512];
	int rc = harness_run_scenario(harness_src_path(ini), sets, nr_sets, scale, 1, policy, true,
				      &out, err, sizeof(err));

	ck_assert_msg(rc == 0, "%s under %s failed: %s", ini, policy, err);
	ck_assert_int_eq(harness_parse_result(out, r), 0);
	free(out);
}

/* ---- fio ---- */

START_TEST(test_fio_bandwidth_grows_with_the_memcg)
{
	/* 16 jobs x 12M files at 1/256: 192M against 40M, then against 400M */
	static const char *const big[] = { "memcg.fio.max=100G" };
	struct run_result small, large;
	double bw_small, bw_large;

	run("scenarios/fio-mmap.ini", NULL, 0, 1.0 / 256, "mglru-budget", &small);
	run("scenarios/fio-mmap.ini", big, 1, 1.0 / 256, "mglru-budget", &large);
	bw_small = harness_value(&small, "workload.fio", "bandwidth_mb_s");
	bw_large = harness_value(&large, "workload.fio", "bandwidth_mb_s");
	ck_assert(bw_small > 0);
	/* every IO is a 4 KiB block: ops = 16 jobs x blocks x 2 loops */
	ck_assert_double_eq(harness_value(&small, "workload.fio", "ops"), 16.0 * 3072 * 2);
	ck_assert_double_eq(harness_value(&small, "workload.fio", "loops"), 32);
	/* the small memcg reclaims and refaults; the large one holds every file */
	ck_assert(harness_value(&small, "vmstat", "pgsteal_file") > 0);
	ck_assert(harness_value(&small, "vmstat", "workingset_refault_file") > 0);
	ck_assert_double_eq(harness_value(&large, "vmstat", "pgsteal_file"), 0);
	/* the second loop hits the page cache: about half the IOs are hits */
	ck_assert(harness_value(&large, "workload.fio", "page_hits") > 16.0 * 3072 * 0.9);
	ck_assert_msg(bw_large > bw_small * 1.2, "bandwidth %.0f MB/s (10G) vs %.0f (100G)",
		      bw_small, bw_large);
	result_free(&small);
	result_free(&large);
}
END_TEST

/* ---- sysbench ---- */

START_TEST(test_sysbench_pool_over_memcg_swaps_in)
{
	/* 1/256: 48 tables x 7812 rows (about 86M of pages) against 8M, 160M,
	 * and the same 8M with uniform keys */
	static const char *const big[] = { "memcg.mysql.max=40G" };
	static const char *const uniform[] = { "workload.sysbench.rand_type=uniform" };
	struct run_result small, large, unif;
	double tps_small, tps_large;

	run("scenarios/mysql-ro.ini", NULL, 0, 1.0 / 256, "mglru-old", &small);
	run("scenarios/mysql-ro.ini", big, 1, 1.0 / 256, "mglru-old", &large);
	run("scenarios/mysql-ro.ini", uniform, 1, 1.0 / 256, "mglru-old", &unif);
	tps_small = harness_value(&small, "workload.sysbench", "tps");
	tps_large = harness_value(&large, "workload.sysbench", "tps");
	ck_assert(tps_small > 0);
	ck_assert_double_eq(harness_value(&small, "workload.sysbench", "ops"), 7813);
	/* 14 statements per transaction */
	ck_assert_double_eq(harness_value(&small, "workload.sysbench", "queries"), 7813.0 * 14);
	ck_assert_double_eq(harness_value(&small, "workload.sysbench", "oom_killed"), 0);
	/* the pool is mostly in zram: transactions fault it back */
	ck_assert(harness_value(&small, "vmstat", "pswpout") > 0);
	ck_assert(harness_value(&small, "vmstat", "pswpin") > 0);
	ck_assert(harness_value(&small, "workload.sysbench", "major_faults") > 0);
	/* a memcg that holds the pool never swaps, and is faster */
	ck_assert(!(harness_value(&large, "vmstat", "pswpin") > 0));
	ck_assert_msg(tps_large > tps_small, "tps %.0f (2G) vs %.0f (40G)", tps_small, tps_large);
	/* "special" keeps 3 draws in 4 on 1% of the rows: uniform keys swap in more */
	ck_assert(harness_value(&unif, "vmstat", "pswpin") >
		  1.5 * harness_value(&small, "vmstat", "pswpin"));
	result_free(&small);
	result_free(&large);
	result_free(&unif);
}
END_TEST

/* ---- app launches ---- */

START_TEST(test_app_cold_launches_slower_in_less_memory)
{
	/* 1/64, 12 apps launched twice each: 4G of phone against 16G */
	static const char *const small_sets[] = {
		"workload.launch.apps=12", "workload.launch.rounds=24", "workload.launch.run=2s",
		"machine.duration=60s", "machine.node_memory=4G",
	};
	static const char *const large_sets[] = {
		"workload.launch.apps=12", "workload.launch.rounds=24", "workload.launch.run=2s",
		"machine.duration=60s", "machine.node_memory=16G",
	};
	struct run_result small, large;
	double l_small, l_large;

	run("scenarios/app-launch.ini", small_sets, 5, 1.0 / 64, "mglru-budget", &small);
	run("scenarios/app-launch.ini", large_sets, 5, 1.0 / 64, "mglru-budget", &large);
	/* the first cycle is apart; the second cycle's 12 launches are measured */
	ck_assert_double_eq(harness_value(&small, "workload.launch", "first_launches"), 12);
	ck_assert_double_eq(harness_value(&small, "workload.launch", "launches"), 12);
	ck_assert_double_eq(harness_value(&large, "workload.launch", "launches"), 12);
	ck_assert(harness_value(&small, "workload.launch", "launch_p95_ms") >=
		  harness_value(&small, "workload.launch", "launch_p50_ms"));
	/* in 4G the other apps' pressure evicted the code: every launch read flash */
	ck_assert(harness_value(&small, "workload.launch", "launch_major_faults") > 0);
	ck_assert_double_eq(harness_value(&small, "workload.launch", "launches_code_cached"), 0);
	/* in 16G the code stayed cached; the launches are cold processes all the same */
	ck_assert_double_eq(harness_value(&large, "workload.launch", "launches_code_cached"), 12);
	ck_assert(harness_value(&small, "workload.launch", "launch_code_cached_pct") <
		  harness_value(&large, "workload.launch", "launch_code_cached_pct") / 2);
	l_small = harness_value(&small, "workload.launch", "launch_mean_ms");
	l_large = harness_value(&large, "workload.launch", "launch_mean_ms");
	ck_assert_msg(l_small > l_large, "launch %.2f ms (4G) vs %.2f ms (16G)", l_small, l_large);
	result_free(&small);
	result_free(&large);
}
END_TEST

static Suite *apps_suite(void)
{
	Suite *s = suite_create("apps");
	TCase *tc = tcase_create("apps");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fio_bandwidth_grows_with_the_memcg);
	tcase_add_test(tc, test_sysbench_pool_over_memcg_swaps_in);
	tcase_add_test(tc, test_app_cold_launches_slower_in_less_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(apps_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
