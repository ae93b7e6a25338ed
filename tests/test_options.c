/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The option table of tools/options.c: no command takes a name twice, a
 * shown row names its option, each command's getopt_long parses the
 * options it takes (and only those) to their ids, and --help's option
 * lines are laid out as they always were (the term in a column of 18).
 */
#include <check.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/options.h"

static const char *const cmd_names[] = {
	"run", "report", "sweep", "ablate", "fuzz", "view", "plot", "list", "bench", "check-policy",
	"batch",
};

#define NR_CMDS (sizeof(cmd_names) / sizeof(cmd_names[0]))

START_TEST(test_one_row_per_name)
{
	for (size_t c = 0; c < NR_CMDS; c++) {
		unsigned bit = cli_cmd_bit(cmd_names[c]);

		ck_assert_msg(bit, "%s has no bit", cmd_names[c]);
		for (const struct cli_option *a = cli_options; a->name; a++)
			for (const struct cli_option *b = a + 1; b->name; b++)
				if ((a->commands & bit) && (b->commands & bit)) {
					ck_assert_msg(strcmp(a->name, b->name), "%s: --%s twice",
						      cmd_names[c], a->name);
					ck_assert_msg(!a->short_name || a->short_name != b->short_name,
						      "%s: -%c twice", cmd_names[c], a->short_name);
				}
	}
	ck_assert_uint_eq(cli_cmd_bit("nosuch"), 0);
}
END_TEST

START_TEST(test_shown_rows_name_their_option)
{
	for (const struct cli_option *o = cli_options; o->name; o++) {
		char want[64];

		ck_assert_msg(o->commands, "--%s: no command takes it", o->name);
		if (!o->term)
			continue;
		snprintf(want, sizeof(want), "--%s", o->name);
		ck_assert_msg(strstr(o->term, want) ||
			      (o->short_name && o->term[0] == '-' && o->term[1] == o->short_name),
			      "term '%s' does not name --%s", o->term, o->name);
		ck_assert_msg(o->help && *o->help, "--%s: shown without help", o->name);
	}
}
END_TEST

/* The ids cli_getopt() gives for argv, -1 last; '?' for a refused one. */
static void parse(unsigned cmd, const char *const *args, const int *want)
{
	char *argv[16];
	int argc = 0, i = 0, opt;

	for (; args[argc]; argc++)
		argv[argc] = (char *)args[argc];
	argv[argc] = NULL;
	opterr = 0;
	optind = 1;
	do {
		opt = cli_getopt(cmd, argc, argv);
		ck_assert_msg(opt == want[i], "%s: option %d is %d, not %d", args[0], i, opt, want[i]);
	} while (want[i++] != -1);
	opterr = 1;
}

START_TEST(test_getopt_ids)
{
	const char *run[] = { "run", "x.ini", "--seeds", "1..3", "-j", "4", "--jobs=3", "--all", NULL };
	const int run_ids[] = { OPT_SEEDS, OPT_JOBS, OPT_JOBS, OPT_ALL, -1 };
	const char *run_bad[] = { "run", "--summary", "x.ini", NULL };
	const int run_bad_ids[] = { '?', -1 };
	const char *report[] = { "report", "--summary", "-h", "a.pb", NULL };
	const int report_ids[] = { OPT_SUMMARY, OPT_HELP, -1 };
	/* sweep takes --seed as --seeds; ablate also takes --set, to refuse it by name */
	const char *sweep[] = { "sweep", "--seed", "2", "--mpi", "x.ini", NULL };
	const int sweep_ids[] = { OPT_SEEDS, OPT_MPI, -1 };
	const char *ablate[] = { "ablate", "--set", "a.b=1", "--timeout", "5", NULL };
	const int ablate_ids[] = { OPT_SET, OPT_TIMEOUT, -1 };
	const char *check[] = { "check-policy", "-j", "2", NULL };
	const int check_ids[] = { '?', -1 };
	const char *plot[] = { "plot", "-w", "swap", "-o", "a.svg", "--to", "2s", NULL };
	const int plot_ids[] = { OPT_WHAT, OPT_OUT, OPT_TO, -1 };

	parse(CMD_RUN, run, run_ids);
	parse(CMD_RUN, run_bad, run_bad_ids);
	parse(CMD_REPORT, report, report_ids);
	parse(CMD_SWEEP, sweep, sweep_ids);
	parse(CMD_ABLATE, ablate, ablate_ids);
	parse(CMD_CHECK_POLICY, check, check_ids);
	parse(CMD_PLOT, plot, plot_ids);
	/* back to a command parsed before: its own table again */
	parse(CMD_RUN, run, run_ids);
}
END_TEST

START_TEST(test_help_lines)
{
	static const char report[] =
		"\n"
		"  --format F        text (default), json or csv\n"
		"  --all             text: every row, also those that do not change\n"
		"  --summary         the mean over seeds of the runs that differ only in seed,\n"
		"                    with Welch's t-test against the first group and 95%\n"
		"                    Student-t confidence intervals (json, csv)\n"
		"  --force           put results of different scenarios or scales side by side\n";
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	cli_options_print(f, CMD_REPORT);
	fclose(f);
	ck_assert_str_eq(buf, report);
	free(buf);

	/* a term past the column: two blanks, then its help */
	f = open_memstream(&buf, &len);
	cli_options_print(f, CMD_RUN);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "\n  --live [ADDR:]PORT  serve the page of mmemu view"));
	ck_assert_ptr_nonnull(strstr(buf, "\n  -j N              runs in parallel, 1 to 64"));
	free(buf);

	ck_assert(!cli_options_shown(CMD_LIST));
	f = open_memstream(&buf, &len);
	cli_options_print(f, CMD_LIST);
	fclose(f);
	ck_assert_str_eq(buf, "");
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("table");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_one_row_per_name);
	tcase_add_test(tc, test_shown_rows_name_their_option);
	tcase_add_test(tc, test_getopt_ids);
	tcase_add_test(tc, test_help_lines);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
