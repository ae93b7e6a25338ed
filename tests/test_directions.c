/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The published claims of SEEDS.md as directions, on the real scenario
 * files at a small scale: who wins, who is OOM-killed. One test case per
 * claim (run one with CK_RUN_CASE); tests/meson.build registers each as its
 * own test, and marks the claims the model does not reproduce yet as
 * expected failures, with the reason. A claim that starts to hold turns
 * its test into an unexpected pass, which fails the suite: then drop the
 * mark.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tests/harness.h"

/* Runs scenarios/<name>.ini under one policy at `scale`; the result in *r. */
static void run(const char *name, const char *policy, double scale, const char *const *sets,
		int nr_sets, struct run_result *r)
{
	char path[128], err[512];
	char *out = NULL;
	int rc;

	snprintf(path, sizeof(path), "scenarios/%s.ini", name);
	rc = harness_run_scenario(harness_src_path(path), sets, nr_sets, scale, 1, policy, true,
				  &out, err, sizeof(err));
	ck_assert_msg(rc == 0, "%s under %s: %s", name, policy, err);
	ck_assert_int_eq(harness_parse_result(out, r), 0);
	free(out);
}

static double value(const struct run_result *r, const char *group, const char *key)
{
	double v = harness_value(r, group, key);

	ck_assert_msg(!isnan(v), "no %s in [%s]", key, group);
	return v;
}

/*
 * A.1: YCSB-B, the budget loop: more throughput, fewer file refaults
 * (published +27.6 % and -43 %). A win must be clear of noise: at least
 * 2 % more throughput and 5 % fewer refaults.
 */
START_TEST(test_ycsb_b_budget_faster_fewer_refaults)
{
	struct run_result old, budget;

	run("ycsb-b", "mglru-old", 1.0 / 64, NULL, 0, &old);
	run("ycsb-b", "mglru-budget", 1.0 / 64, NULL, 0, &budget);
	ck_assert(value(&old, "vmstat", "workingset_refault_file") > 0);
	ck_assert_msg(value(&budget, "workload.ycsb", "throughput_ops_s") >
		      1.02 * value(&old, "workload.ycsb", "throughput_ops_s"),
		      "throughput: old %.0f, budget %.0f",
		      value(&old, "workload.ycsb", "throughput_ops_s"),
		      value(&budget, "workload.ycsb", "throughput_ops_s"));
	ck_assert_msg(value(&budget, "vmstat", "workingset_refault_file") <
		      0.95 * value(&old, "vmstat", "workingset_refault_file"),
		      "refault_file: old %.0f, budget %.0f",
		      value(&old, "vmstat", "workingset_refault_file"),
		      value(&budget, "vmstat", "workingset_refault_file"));
	result_free(&old);
	result_free(&budget);
}
END_TEST

/* A.3: the aging OOM. classic and budget finish every round; old is killed. */
START_TEST(test_file_anon_mix_old_ooms_others_finish)
{
	static const char *const policies[] = { "classic", "mglru-budget", "mglru-old" };
	struct run_result r[3];

	for (int i = 0; i < 3; i++)
		run("file-anon-mix", policies[i], 1.0 / 128, NULL, 0, &r[i]);
	for (int i = 0; i < 2; i++)
		ck_assert_msg(value(&r[i], "workload.workers", "rounds_completed") == 128,
			      "%s completed %.0f rounds", policies[i],
			      value(&r[i], "workload.workers", "rounds_completed"));
	ck_assert_msg(value(&r[2], "workload.workers", "oom_round") > 0 &&
		      value(&r[2], "workload.workers", "rounds_completed") < 128,
		      "mglru-old completed %.0f rounds without an OOM kill",
		      value(&r[2], "workload.workers", "rounds_completed"));
	for (int i = 0; i < 3; i++)
		result_free(&r[i]);
}
END_TEST

/* A.4: the throttling OOM. old OOM-kills dd; budget throttles and finishes. */
START_TEST(test_dd_throttle_old_ooms_budget_finishes)
{
	struct run_result old, budget;

	run("dd-throttle", "mglru-old", 1.0, NULL, 0, &old);
	run("dd-throttle", "mglru-budget", 1.0, NULL, 0, &budget);
	ck_assert_msg(value(&budget, "workload.dd", "oom_killed") == 0 &&
		      value(&budget, "workload.dd", "ops") == 192,
		      "mglru-budget: %.0f of 192 MB written", value(&budget, "workload.dd", "ops"));
	ck_assert_msg(value(&old, "workload.dd", "oom_killed") == 1,
		      "mglru-old wrote %.0f MB and was not OOM-killed",
		      value(&old, "workload.dd", "ops"));
	result_free(&old);
	result_free(&budget);
}
END_TEST

static Suite *directions_suite(void)
{
	Suite *s = suite_create("directions");
	struct { const char *name; const TTest *test; } cases[] = {
		{ "ycsb_b", test_ycsb_b_budget_faster_fewer_refaults },
		{ "file_anon_mix", test_file_anon_mix_old_ooms_others_finish },
		{ "dd_throttle", test_dd_throttle_old_ooms_budget_finishes },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		TCase *tc = tcase_create(cases[i].name);

		tcase_set_timeout(tc, 300);
		tcase_add_test(tc, cases[i].test);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(directions_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
