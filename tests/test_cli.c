/* SPDX-License-Identifier: GPL-2.0-only */
/* The mmemu command line ($MMEMU): determinism, formats, exit status and messages. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tests/cli.h"

/* Braces and brackets balance outside strings, and the text is one object. */
static bool json_balanced(const char *s)
{
	int depth = 0;
	bool in_str = false;

	while (*s == ' ' || *s == '\n')
		s++;
	if (*s != '{')
		return false;
	for (; *s; s++) {
		if (in_str) {
			if (*s == '\\' && s[1])
				s++;
			else if (*s == '"')
				in_str = false;
			continue;
		}
		if (*s == '"')
			in_str = true;
		else if (*s == '{' || *s == '[')
			depth++;
		else if (*s == '}' || *s == ']')
			depth--;
		if (depth < 0)
			return false;
	}
	return depth == 0 && !in_str;
}

START_TEST(test_json_deterministic)
{
	const char *args[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32", NULL };
	struct cli_out a = cli_run(args), b = cli_run(args);

	ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
	ck_assert_msg(b.status == 0, "status %d: %s", b.status, b.err);
	ck_assert(json_balanced(a.out));
	ck_assert_ptr_nonnull(strstr(a.out, "\"host_seconds\""));
	ck_assert_ptr_nonnull(strstr(a.out, "\"policy\": \"classic\""));
	ck_assert_ptr_nonnull(strstr(a.out, "\"workingset_refault_file\""));
	cli_strip_host_seconds(a.out);
	cli_strip_host_seconds(b.out);
	ck_assert_msg(strcmp(a.out, b.out) == 0, "two runs with the same seed differ");
	cli_out_free(&a);
	cli_out_free(&b);
}
END_TEST

START_TEST(test_other_seed_differs)
{
	const char *args1[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32",
				"--policy", "classic", NULL };
	const char *args2[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32",
				"--policy", "classic", "--seed", "2", NULL };
	struct cli_out a = cli_run(args1), b = cli_run(args2);

	ck_assert_msg(a.status == 0, "%s", a.err);
	ck_assert_msg(b.status == 0, "%s", b.err);
	ck_assert_ptr_nonnull(strstr(b.out, "\"seed\": 2"));
	cli_strip_host_seconds(a.out);
	cli_strip_host_seconds(b.out);
	ck_assert_str_ne(a.out, b.out);
	cli_out_free(&a);
	cli_out_free(&b);
}
END_TEST

START_TEST(test_json_reports_scale_used)
{
	const char *args[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32",
			       "--policy", "classic", NULL };
	struct cli_out a = cli_run(args);

	ck_assert_msg(a.status == 0, "%s", a.err);
	/* the sizes were divided by 32; the report must say so */
	ck_assert_msg(strstr(a.out, "\"scale\": 0.03125"), "scale line: %.80s", a.out);
	cli_out_free(&a);
}
END_TEST

START_TEST(test_text_and_csv)
{
	const char *text_args[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", "classic",
				    NULL };
	const char *csv_args[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", "classic",
				   "--format", "csv", NULL };
	struct cli_out t = cli_run(text_args), c = cli_run(csv_args);

	ck_assert_msg(t.status == 0, "%s", t.err);
	ck_assert_ptr_nonnull(strstr(t.out, "quickstart"));
	ck_assert_ptr_nonnull(strstr(t.out, "pgscan"));
	ck_assert_ptr_nonnull(strstr(t.out, "classic"));
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_msg(!strncmp(c.out, "scenario,scale,policy,seed,group,key,value\n", 43), "%.80s",
		      c.out);
	ck_assert_ptr_nonnull(strstr(c.out, ",classic,1,vmstat,pgpgin,"));
	cli_out_free(&t);
	cli_out_free(&c);
}
END_TEST

START_TEST(test_bad_set_value_exit_2)
{
	const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", "--set",
			       "memcg.app.max=banana", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "max") && strstr(o.err, "banana"), "stderr: %s", o.err);
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);
}
END_TEST

START_TEST(test_unknown_policy_exit_2)
{
	const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", "classic,lru-k",
			       NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "lru-k"), "stderr: %s", o.err);
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);
}
END_TEST

START_TEST(test_missing_scenario_exit_2)
{
	const char *args[] = { "run", "/nonexistent/nothing.ini", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "/nonexistent/nothing.ini"), "stderr: %s", o.err);
	cli_out_free(&o);
}
END_TEST

START_TEST(test_bad_options_exit_2)
{
	static const char *const bad[][6] = {
		{ "run", NULL },
		{ "run", "--format", "xml", "X", NULL },
		{ "run", "--scale", "2", "X", NULL },
		{ "run", "--scale", "1/0", "X", NULL },
		{ "run", "--seed", "-1", "X", NULL },
		{ "run", "--seed", "lots", "X", NULL },
		{ "run", "--no-such-option", "X", NULL },
		{ "frobnicate", NULL },
		{ NULL },	/* no command at all */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[6];
		struct cli_out o;
		int n;

		for (n = 0; bad[i][n]; n++)
			args[n] = !strcmp(bad[i][n], "X") ? cli_quickstart() : bad[i][n];
		args[n] = NULL;
		o = cli_run(args);
		ck_assert_msg(o.status == 2, "case %zu (%s %s): status %d", i,
			      bad[i][0] ? bad[i][0] : "-", bad[i][0] && bad[i][1] ? bad[i][1] : "-",
			      o.status);
		ck_assert_msg(*o.err, "case %zu: nothing on stderr", i);
		cli_out_free(&o);
	}
}
END_TEST

/*
 * tools/reproduce on one experiment (A4, a few seconds): it runs the
 * policies, writes the report with the published claims and mmemu's
 * outcome per claim, and an unknown experiment exits with status 2.
 */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	return buf;
}

START_TEST(test_reproduce_writes_report)
{
	char script[512], results[] = "/tmp/mmemu-repro-XXXXXX", *report = cli_temp_file(".md");
	const char *argv_ok[] = { script, "--only", "A4", "--mmemu", cli_mmemu(), "--results",
				  results, "--out", report, NULL };
	const char *argv_bad[] = { script, "--only", "Z9", "--out", report, NULL };
	char *out = NULL, *err = NULL, *text;
	int rc;

	snprintf(script, sizeof(script), "%s/tools/reproduce", harness_srcdir());
	ck_assert_ptr_nonnull(mkdtemp(results));
	rc = harness_exec(argv_ok, &out, &err);
	ck_assert_msg(rc == 0, "reproduce exited %d: %s", rc, err);
	text = read_all(report);
	ck_assert_ptr_nonnull(strstr(text, "## A4. Throttling OOM"));
	ck_assert_ptr_nonnull(strstr(text, "| A4 | mglru-old OOM-kills the writer | event |"));
	ck_assert_ptr_nonnull(strstr(text, "mmemu run scenarios/dd-throttle.ini --policy mglru-old"));
	free(text);
	free(out);
	free(err);
	rc = harness_exec(argv_bad, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_ptr_nonnull(strstr(err, "Z9"));
	free(out);
	free(err);
	cli_remove_temp(report);
	for (int i = 0; i < 3; i++) {
		static const char *const labels[] = { "classic", "before", "after" };
		char path[600];

		snprintf(path, sizeof(path), "%s/A4.%s.json", results, labels[i]);
		unlink(path);
	}
	rmdir(results);
}
END_TEST

START_TEST(test_list)
{
	const char *args[] = { "list", NULL };
	const char *help[] = { "--help", NULL };
	struct cli_out o = cli_run(args), h = cli_run(help);

	ck_assert_int_eq(o.status, 0);
	ck_assert_ptr_nonnull(strstr(o.out, "classic"));
	for (int i = 0; reclaim_policies[i]; i++)
		ck_assert_msg(strstr(o.out, reclaim_policies[i]->name), "list misses %s",
			      reclaim_policies[i]->name);
	ck_assert_ptr_nonnull(strstr(o.out, "file-zipf"));
	ck_assert_ptr_nonnull(strstr(o.out, "nvme"));
	ck_assert_int_eq(h.status, 0);
	ck_assert_ptr_nonnull(strstr(h.out, "usage"));
	cli_out_free(&o);
	cli_out_free(&h);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_json_deterministic);
	tcase_add_test(tc, test_other_seed_differs);
	tcase_add_test(tc, test_json_reports_scale_used);
	tcase_add_test(tc, test_text_and_csv);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_bad_set_value_exit_2);
	tcase_add_test(tc, test_unknown_policy_exit_2);
	tcase_add_test(tc, test_missing_scenario_exit_2);
	tcase_add_test(tc, test_bad_options_exit_2);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_reproduce_writes_report);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
