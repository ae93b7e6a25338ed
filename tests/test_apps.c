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

static Suite *apps_suite(void)
{
	Suite *s = suite_create("apps");
	TCase *tc = tcase_create("apps");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_fio_bandwidth_grows_with_the_memcg);
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
