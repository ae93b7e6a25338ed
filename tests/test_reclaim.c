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
#include "scenarios/wl_reclaim.h"

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
	ck_assert_uint_eq(((const struct reclaim_params *)s.workload[i].params)->amount, UINT64_MAX);
	ck_assert_str_eq(((const struct reclaim_params *)s.workload[i].params)->target, "root");
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

struct cell {
	double pages_per_s, over_mib, finished;
};

static struct cell run_cell(const char *policy, const char *batch)
{
	char set_batch[64], *out = NULL, err[512];
	const char *sets[] = { set_batch, "workload.reclaim.target=uid_0",
			       "workload.reclaim.amount=1G" };
	struct run_result r;
	struct cell c;
	int rc;

	snprintf(set_batch, sizeof(set_batch), "memcg.reclaim_batch=%s", batch);
	rc = harness_run_scenario(harness_src_path(SCN), sets, 3, 1.0 / 64, 1, policy, false, &out,
				  err, sizeof(err));
	ck_assert_msg(rc == 0, "run failed: %s", err);
	ck_assert_int_eq(harness_parse_result(out, &r), 0);
	c.pages_per_s = harness_value(&r, "workload.reclaim", "pages_per_s");
	c.over_mib = harness_value(&r, "workload.reclaim", "over_reclaim_mib");
	c.finished = harness_value(&r, "workload.reclaim", "finished");
	result_free(&r);
	free(out);
	return c;
}

/*
 * /uid_0, a 1G-like request (16M at 1/64): the shape of the published
 * table, on the policy it was measured with (MGLRU). The classic LRU
 * over-reclaims almost nothing here (see the scenario's notes).
 */
static void check_batches(const char *policy)
{
	struct cell full = run_cell(policy, "full");
	struct cell post = run_cell(policy, "swap_cluster_max");
	struct cell decay = run_cell(policy, "decay4");

	ck_assert(full.finished == 1 && post.finished == 1 && decay.finished == 1);
	/* a restart per 32 pages: the SWAP_CLUSTER_MAX batch is the slowest */
	ck_assert_msg(post.pages_per_s < full.pages_per_s && post.pages_per_s < decay.pages_per_s,
		      "%s pages/s: full %.0f post %.0f decay4 %.0f", policy, full.pages_per_s,
		      post.pages_per_s, decay.pages_per_s);
	/* one call for the whole request overshoots the most */
	ck_assert_msg(full.over_mib > post.over_mib && full.over_mib > decay.over_mib &&
		      full.over_mib > 0,
		      "%s over-reclaim MiB: full %.2f post %.2f decay4 %.2f", policy, full.over_mib,
		      post.over_mib, decay.over_mib);
}

START_TEST(test_batches_mglru_old)
{
	check_batches("mglru-old");
}
END_TEST

static Suite *reclaim_suite(void)
{
	Suite *s = suite_create("reclaim");
	TCase *tc = tcase_create("reclaim");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_reclaim_batch_knob_parses);
	tcase_add_test(tc, test_batches_mglru_old);
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
