/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Range operations (issue 38): a workload that touches pages in a row by
 * ranges (filemap_map_hit_range) must give what the page loop gives, every
 * counter of the run. Each scenario runs both ways (workload_range_ops set
 * in the parent, inherited by the forked run) and the results, host seconds
 * aside, must be the same text.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scenarios/result.h"
#include "scenarios/workload.h"

/* The run's result_write() text with host_seconds zeroed (the host's, not the model's). */
static char *run_text(const char *scenario, double scale, const char *policy, bool ranges)
{
	char err[1024], *out = NULL, *text = NULL;
	struct run_result r;
	size_t len = 0;
	FILE *f;
	int rc;

	workload_range_ops = ranges;
	rc = harness_run_scenario(harness_src_path(scenario), NULL, 0, scale, 1, policy, false,
				  &out, err, sizeof(err));
	workload_range_ops = true;
	ck_assert_msg(rc == 0, "%s %s (%s): %s", scenario, policy, ranges ? "ranges" : "page loop",
		      err);
	result_init(&r);
	ck_assert_int_eq(harness_parse_result(out, &r), 0);
	r.host_seconds = 0;
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(result_write(&r, f), 0);
	fclose(f);
	result_free(&r);
	free(out);
	return text;
}

static void same_both_ways(const char *scenario, double scale, const char *policy)
{
	char *loop = run_text(scenario, scale, policy, false);
	char *ranges = run_text(scenario, scale, policy, true);
	const char *a = loop, *b = ranges;
	int values = 0;

	for (const char *p = loop; (p = strstr(p, "\nv\t")); p++)
		values++;
	/* a result with its counters, not an empty one on both sides */
	ck_assert_msg(values > 50, "%s: only %d values", scenario, values);
	while (*a && *a == *b)
		a++, b++;
	if (*a || *b) {
		const char *line = a;

		while (line > loop && line[-1] != '\n')
			line--;
		ck_abort_msg("%s %s: ranges differ from the page loop at \"%.120s\"", scenario,
			     policy, line);
	}
	free(loop);
	free(ranges);
}

START_TEST(test_file_scan_classic)
{
	/* 96 reader processes scanning an 8G mapping: hits, faults, waits on reads */
	same_both_ways("scenarios/file-anon-mix.ini", 1.0 / 256, "classic");
}
END_TEST

START_TEST(test_file_scan_mglru)
{
	/* MGLRU's aging walks the young bits the ranges set */
	same_both_ways("scenarios/file-anon-mix.ini", 1.0 / 256, "mglru-budget");
}
END_TEST

START_TEST(test_file_scan_proactive)
{
	/* four file-scan workloads under memory.reclaim */
	same_both_ways("scenarios/proactive-reclaim.ini", 1.0 / 64, "classic");
}
END_TEST

static Suite *range_suite(void)
{
	Suite *s = suite_create("range");
	TCase *tc = tcase_create("range");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_file_scan_classic);
	tcase_add_test(tc, test_file_scan_mglru);
	tcase_add_test(tc, test_file_scan_proactive);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(range_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
