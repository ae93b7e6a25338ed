/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Whole runs through scenario_run() (each in a child process, small scale):
 * the model's invariants hold at the end, the counters show reclaim and
 * refaults, runs are deterministic, and an OOM-killing run ends cleanly.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
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
