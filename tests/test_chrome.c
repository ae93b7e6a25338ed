/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chrome-node (SEEDS.md A.2) at a small scale: 64 servers in 32 memcgs
 * under global reclaim with zram share the machine fairly (Jain's index
 * over per-worker requests) under both MGLRU policies, nobody is OOM-killed,
 * and the memcg usage invariants hold at the end.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness.h"

static void run_chrome(const char *policy)
{
	static const char *const sets[] = { "machine.duration=200ms" };
	char *out = NULL, err[512];
	struct run_result r;
	double jain, total, lo, hi, ci_lo, ci_hi, share = 0;
	static const char *const shares[] = {
		"lat_share_0_1s", "lat_share_1_2s", "lat_share_2_4s", "lat_share_4_8s",
		"lat_share_8s_inf",
	};
	int rc;

	rc = harness_run_scenario(harness_src_path("scenarios/chrome-node.ini"), sets, 1,
				  1.0 / 1024, 1, policy, true, &out, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s: run failed: %s", policy, err);
	ck_assert_int_eq(harness_parse_result(out, &r), 0);
	jain = harness_value(&r, "workload.chrome", "jain_fairness");
	total = harness_value(&r, "workload.chrome", "requests_total");
	lo = harness_value(&r, "workload.chrome", "requests_min");
	hi = harness_value(&r, "workload.chrome", "requests_max");
	ci_lo = harness_value(&r, "workload.chrome", "requests_ci95_lo");
	ci_hi = harness_value(&r, "workload.chrome", "requests_ci95_hi");
	ck_assert_double_eq(harness_value(&r, "workload.chrome", "workers"), 64);
	ck_assert_double_eq(harness_value(&r, "workload.chrome", "oom_killed"), 0);
	ck_assert_msg(total > 0, "%s: no request completed", policy);
	ck_assert_msg(jain > 0.95 && jain <= 1.0, "%s: Jain's fairness %f", policy, jain);
	ck_assert(lo > 0 && lo <= hi);
	ck_assert(ci_lo <= total / 64 && total / 64 <= ci_hi);
	/* the buffers are larger than memory: requests swap in from zram */
	ck_assert(harness_value(&r, "workload.chrome", "major_faults") > 0);
	ck_assert(harness_value(&r, "vmstat", "pswpout") > 0);
	for (size_t i = 0; i < sizeof(shares) / sizeof(shares[0]); i++)
		share += harness_value(&r, "workload.chrome", shares[i]);
	ck_assert_msg(fabs(share - 100) < 1e-6, "%s: latency shares sum to %f", policy, share);
	result_free(&r);
	free(out);
}

START_TEST(test_chrome_node_fair_under_mglru_old)
{
	run_chrome("mglru-old");
}
END_TEST

START_TEST(test_chrome_node_fair_under_mglru_budget)
{
	run_chrome("mglru-budget");
}
END_TEST

/* The same numbers for the same seed: the generator draws from per-actor streams. */
START_TEST(test_chrome_node_is_deterministic)
{
	static const char *const sets[] = { "machine.duration=50ms" };
	char *a = NULL, *b = NULL, err[512];
	struct run_result ra, rb;
	const char *path = harness_src_path("scenarios/chrome-node.ini");

	ck_assert_int_eq(harness_run_scenario(path, sets, 1, 1.0 / 1024, 7, "mglru-budget", false,
					      &a, err, sizeof(err)), 0);
	ck_assert_int_eq(harness_run_scenario(path, sets, 1, 1.0 / 1024, 7, "mglru-budget", false,
					      &b, err, sizeof(err)), 0);
	ck_assert_int_eq(harness_parse_result(a, &ra), 0);
	ck_assert_int_eq(harness_parse_result(b, &rb), 0);
	ck_assert_double_eq(harness_value(&ra, "workload.chrome", "requests_total"),
			    harness_value(&rb, "workload.chrome", "requests_total"));
	ck_assert_double_eq(harness_value(&ra, "workload.chrome", "requests_stdev"),
			    harness_value(&rb, "workload.chrome", "requests_stdev"));
	result_free(&ra);
	result_free(&rb);
	free(a);
	free(b);
}
END_TEST

/* Bad input names the file, line and key. */
START_TEST(test_chrome_node_needs_a_duration_and_groups)
{
	static const char *const no_dur[] = { "machine.duration=0" };
	static const char *const no_chunk[] = { "workload.chrome.chunk=8G" };
	char *out = NULL, err[512];
	const char *path = harness_src_path("scenarios/chrome-node.ini");

	ck_assert_int_ne(harness_run_scenario(path, no_dur, 1, 1.0 / 1024, 1, "mglru-old", false,
					      &out, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "duration"), "%s", err);
	free(out);
	out = NULL;
	ck_assert_int_ne(harness_run_scenario(path, no_chunk, 1, 1.0 / 1024, 1, "mglru-old", false,
					      &out, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "chunk"), "%s", err);
	free(out);
}
END_TEST

static Suite *chrome_suite(void)
{
	Suite *s = suite_create("chrome");
	TCase *tc = tcase_create("chrome");

	tcase_set_timeout(tc, 100);
	tcase_add_test(tc, test_chrome_node_fair_under_mglru_old);
	tcase_add_test(tc, test_chrome_node_fair_under_mglru_budget);
	tcase_add_test(tc, test_chrome_node_is_deterministic);
	tcase_add_test(tc, test_chrome_node_needs_a_duration_and_groups);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(chrome_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
