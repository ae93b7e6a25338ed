/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * $MMEMU batch PLAN (tools/batch.c): each run's result file holds what the
 * one `mmemu run ... --format json` prints (host seconds aside), one line
 * per run goes to stdout, a failed run does not stop the others (exit 1),
 * a result that cannot be written is a failed run, and a bad plan line
 * exits 2 naming the plan, the line and the word, before anything runs.
 * Killing the batch kills its runs: tests/test_orphans.c.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tests/cli.h"

#define NR_RUNS 3

/* The options of run i, as a plan line and as `mmemu run` takes them. */
static const char *const run_opts[NR_RUNS][8] = {
	{ "--policy", "classic", "--seed", "1", "--scale", "1/32", NULL },
	{ "--policy", "mglru-old", "--seed", "2", "--scale", "1/32", "--sample", "1000s" },
	{ "--policy", "mglru-budget", "--scale", "1/32", "--set", "vm.swappiness=100", NULL },
};

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	ck_assert_msg(f, "cannot open '%s'", path);
	if (getdelim(&buf, &len, '\0', f) < 0) {	/* an empty file */
		ck_assert(!ferror(f));
		free(buf);
		buf = strdup("");
	}
	fclose(f);
	return buf;
}

/* The plan's text: run i's result to out[i] (a quoted scenario for the last). */
static char *plan_text(char *const *out)
{
	char *text = calloc(1, 4096);
	size_t n = 0;

	ck_assert_ptr_nonnull(text);
	n += (size_t)snprintf(text + n, 4096 - n, "# three small runs\n\n");
	for (int i = 0; i < NR_RUNS; i++) {
		n += (size_t)snprintf(text + n, 4096 - n, i == 2 ? "%s \"%s\"" : "%s %s", out[i],
				      cli_quickstart());
		for (int k = 0; k < 8 && run_opts[i][k]; k++)
			n += (size_t)snprintf(text + n, 4096 - n, " %s", run_opts[i][k]);
		n += (size_t)snprintf(text + n, 4096 - n, "\n");
	}
	return text;
}

START_TEST(test_results_as_run)
{
	char *out[NR_RUNS], *text, *plan, *line;
	const char *args[] = { "batch", NULL, "-j", "2", NULL };
	struct cli_out b;
	bool seen[NR_RUNS] = { false };

	for (int i = 0; i < NR_RUNS; i++)
		out[i] = cli_temp_file(".json");
	text = plan_text(out);
	plan = harness_write_temp(text);
	args[1] = plan;
	b = cli_run(args);
	ck_assert_msg(b.status == 0, "batch: status %d: %s", b.status, b.err);
	/* a line per run, in the order they ended: index, ok, seconds, no error */
	line = b.out;
	for (int k = 0; k < NR_RUNS; k++) {
		unsigned idx;
		double secs;
		int n = 0;

		ck_assert_msg(sscanf(line, "%u\tok\t%lf\t\n%n", &idx, &secs, &n) == 2 && n,
			      "line %d of:\n%s", k, b.out);
		ck_assert_uint_lt(idx, NR_RUNS);
		ck_assert(!seen[idx]);
		seen[idx] = true;
		ck_assert(secs > 0);
		line += n;
	}
	ck_assert_str_eq(line, "");
	for (int i = 0; i < NR_RUNS; i++) {
		const char *run[16] = { "run", cli_quickstart() };
		int n = 2;
		struct cli_out r;
		char *got = read_file(out[i]);

		for (int k = 0; k < 8 && run_opts[i][k]; k++)
			run[n++] = run_opts[i][k];
		run[n++] = "--format";
		run[n++] = "json";
		run[n] = NULL;
		r = cli_run(run);
		ck_assert_msg(r.status == 0, "run %d: status %d: %s", i, r.status, r.err);
		cli_strip_host_seconds(r.out);
		cli_strip_host_seconds(got);
		ck_assert_msg(!strcmp(got, r.out), "run %d: batch's result differs from run's", i);
		free(got);
		cli_out_free(&r);
		cli_remove_temp(out[i]);
	}
	cli_out_free(&b);
	unlink(plan);
	free(plan);
	free(text);
}
END_TEST

/*
 * Runs that fail (a bad value; the scenario's three policies, not one; an
 * invariant broken; a crash), one whose result cannot be written: the
 * others still run; exit 1.
 */
START_TEST(test_failed_runs)
{
	char *good = cli_temp_file(".json"), *bad = cli_temp_file(".json"), text[2048], *plan;
	const char *args[] = { "batch", NULL, "-j", "2", NULL };
	struct cli_out b;

	snprintf(text, sizeof(text),
		 "%s %s --seed x\n"
		 "/nonexistent-dir/r.json %s --scale 1/64 --policy classic\n"
		 "%s %s --scale 1/64 --policy classic\n"
		 "%s.2 %s --scale 1/64\n"
		 "%s.3 %s --scale 1/64 --policy " POLICY_DIR "/s3fifo-broken.so\n"
		 "%s.4 %s --scale 1/64 --policy " POLICY_DIR "/s3fifo-crashes.so\n",
		 bad, cli_quickstart(), cli_quickstart(), good, cli_quickstart(), bad,
		 cli_quickstart(), bad, cli_quickstart(), bad, cli_quickstart());
	plan = harness_write_temp(text);
	args[1] = plan;
	cli_signals_as_signals();
	b = cli_run(args);
	ck_assert_msg(b.status == 1, "batch: status %d: %s", b.status, b.err);
	ck_assert_msg(strstr(b.out, "0\tfailed\t") &&
		      strstr(b.out, "\texit 2: --seed 'x' is not a number\n"), "%s", b.out);
	ck_assert_msg(strstr(b.out, "1\tfailed\t") &&
		      strstr(b.out, "\tcannot write result '/nonexistent-dir/r.json'\n"), "%s", b.out);
	ck_assert_msg(strstr(b.out, "2\tok\t"), "%s", b.out);
	ck_assert_msg(strstr(b.out, "3\tfailed\t") &&
		      strstr(b.out, "\texit 2: --cell: one policy (--policy P), one seed (--seed N), "
				    "no --live\n"), "%s", b.out);
	/* a run that breaks an invariant, one that crashes */
	ck_assert_msg(strstr(b.out, "4\tfailed\t") &&
		      strstr(b.out, "s3fifo-broken.so' failed: invariant broken at "), "%s", b.out);
	ck_assert_msg(strstr(b.out, "5\tkilled\t") && strstr(b.out, "\tkilled by SIGSEGV\n"), "%s",
		      b.out);
	ck_assert_msg(strstr(b.err, "result '/nonexistent-dir/r.json'"), "%s", b.err);
	free(read_file(good));
	cli_out_free(&b);
	cli_remove_temp(good);
	cli_remove_temp(bad);
	unlink(plan);
	free(plan);
}
END_TEST

/* Bad lines: exit 2 naming the plan, the line and the word; nothing runs. */
START_TEST(test_bad_plan)
{
	static const struct {
		const char *line;	/* after "OUT SCENARIO" unless it starts with '!' */
		const char *word, *why;
	} cases[] = {
		{ "--bogus 3", "--bogus", "not an option of mmemu run" },
		{ "--format csv", "--format", "batch sets it" },
		{ "-j 2", "-j", "batch sets it" },
		{ "--out x.pb", "--out", "batch sets it" },
		{ "--seed", "--seed", "its value is missing" },
		{ "--seeds 1..3", "--seeds", "one seed per line (--seed N)" },
		{ "--policy classic,mglru-old", "classic,mglru-old", "one policy per line" },
		{ "other.ini", "other.ini", "a second scenario" },
		{ "!only-a-result.json", "only-a-result.json", "no scenario after the result file" },
		{ "!r.json --seed 2", "r.json", "no scenario among the run's arguments" },
		{ "!r.json \"unended", "\"unended", "a quote that does not end" },
	};
	char *out = cli_temp_file(".json");

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[1024], want[512], *plan;
		const char *args[] = { "batch", NULL, NULL };
		struct cli_out b;

		/* a good line first: the bad one is line 3, and nothing has run */
		if (cases[i].line[0] == '!')
			snprintf(text, sizeof(text), "%s %s\n\n%s\n", out, cli_quickstart(),
				 cases[i].line + 1);
		else
			snprintf(text, sizeof(text), "%s %s\n\nr.json %s %s\n", out,
				 cli_quickstart(), cli_quickstart(), cases[i].line);
		plan = harness_write_temp(text);
		args[1] = plan;
		b = cli_run(args);
		ck_assert_msg(b.status == 2, "case %zu: status %d", i, b.status);
		snprintf(want, sizeof(want), "mmemu: plan '%s' line 3: '%s': %s", plan,
			 cases[i].word, cases[i].why);
		ck_assert_msg(strstr(b.err, want), "case %zu: '%s' expected in: %s", i, want, b.err);
		ck_assert_str_eq(b.out, "");
		ck_assert_int_eq(access("r.json", F_OK), -1);
		cli_out_free(&b);
		unlink(plan);
		free(plan);
	}
	{
		char text[1024], want[512], *plan;
		const char *args[] = { "batch", NULL, NULL };
		struct cli_out b;

		snprintf(text, sizeof(text), "%s %s\n%s %s --seed 2\n", out, cli_quickstart(), out,
			 cli_quickstart());
		plan = harness_write_temp(text);
		args[1] = plan;
		b = cli_run(args);
		ck_assert_int_eq(b.status, 2);
		snprintf(want, sizeof(want), "line 2: '%s': also the result of line 1", out);
		ck_assert_msg(strstr(b.err, want), "'%s' expected in: %s", want, b.err);
		cli_out_free(&b);
		unlink(plan);
		free(plan);
	}
	{
		const char *args[] = { "batch", "/nonexistent-plan", NULL };
		struct cli_out b = cli_run(args);

		ck_assert_int_eq(b.status, 2);
		ck_assert_msg(strstr(b.err, "plan '/nonexistent-plan': "), "%s", b.err);
		cli_out_free(&b);
	}
	/* nothing ran: the good line's result is still the empty file */
	{
		char *text = read_file(out);

		ck_assert_str_eq(text, "");
		free(text);
	}
	cli_remove_temp(out);
}
END_TEST

/* Output that cannot be written: exit 1, said once. */
START_TEST(test_stdout_full)
{
	char *out = cli_temp_file(".json"), text[1024], *plan;
	const char *args[] = { "batch", NULL, NULL };
	struct cli_out b;

	snprintf(text, sizeof(text), "%s %s --scale 1/64\n", out, cli_quickstart());
	plan = harness_write_temp(text);
	args[1] = plan;
	b = cli_run_to(args, "/dev/full", 0);
	ck_assert_int_eq(b.status, 1);
	ck_assert_msg(strstr(b.err, "cannot write standard output: No space left on device"), "%s",
		      b.err);
	ck_assert_ptr_null(strstr(strstr(b.err, "standard output") + 1, "standard output"));
	cli_out_free(&b);
	cli_remove_temp(out);
	unlink(plan);
	free(plan);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("batch");
	TCase *tc = tcase_create("batch");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_results_as_run);
	tcase_add_test(tc, test_failed_runs);
	tcase_add_test(tc, test_bad_plan);
	tcase_add_test(tc, test_stdout_full);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
