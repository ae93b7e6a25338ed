/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output that cannot be written is an error ($MMEMU): run, report, sweep,
 * list and --help onto /dev/full exit 1 naming standard output and
 * strerror; --out and plot -o onto a full device or past a file size limit
 * (RLIMIT_FSIZE with SIGXFSZ ignored: EFBIG, a full disk without root) exit
 * 1 with the path and the reason, and leave no partial file (a file that
 * was there is kept as it was).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"
#include "tests/cli.h"

static char *temp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert_int_gt(asprintf(&path, "%s/mmemu-test-write-XXXXXX", dir), 0);
	ck_assert_ptr_nonnull(mkdtemp(path));
	return path;
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	ck_assert_int_gt(asprintf(&p, "%s/%s", dir, name), 0);
	return p;
}

/* The number of entries in dir, . and .. aside. */
static int nr_entries(const char *dir)
{
	char cmd[4200];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	ck_assert_int_eq(fscanf(p, "%d", &n), 1);
	pclose(p);
	return n;
}

static void expect_stdout_full(const char *const *args)
{
	struct cli_out o = cli_run_to(args, "/dev/full", 0);

	ck_assert_msg(o.status == 1, "%s %s onto /dev/full: status %d: %s", args[0],
		      args[1] ? args[1] : "", o.status, o.err);
	ck_assert_msg(strstr(o.err, "cannot write standard output: No space left on device"),
		      "%s: stderr: %s", args[0], o.err);
	cli_out_free(&o);
}

START_TEST(test_stdout_full)
{
	char *dir = temp_dir(), *pb = path_in(dir, "r.pb");
	const char *run_args[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				   "--out", pb, NULL };
	const char *run_json[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				   "--format", "json", NULL };
	const char *report_args[] = { "report", pb, NULL };
	const char *summary_args[] = { "report", "--summary", pb, "--format", "csv", NULL };
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic", "--scale",
				     "1/64", "-j", "1", NULL };
	const char *list_args[] = { "list", NULL };
	const char *help_args[] = { "run", "--help", NULL };
	const char *version_args[] = { "--version", NULL };
	struct cli_out o = cli_run_to(run_args, "/dev/full", 0);

	/* the table could not be printed; the saved file is still written */
	ck_assert_int_eq(o.status, 1);
	ck_assert_msg(strstr(o.err, "No space left on device"), "stderr: %s", o.err);
	ck_assert_int_eq(access(pb, F_OK), 0);
	cli_out_free(&o);
	expect_stdout_full(run_json);
	expect_stdout_full(report_args);
	expect_stdout_full(summary_args);
	expect_stdout_full(sweep_args);
	expect_stdout_full(list_args);
	expect_stdout_full(help_args);
	expect_stdout_full(version_args);
	unlink(pb);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* --out onto a full device says so. */
START_TEST(test_out_full)
{
	const char *run_args[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				   "--out", "/dev/full", NULL };
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic", "--scale",
				     "1/64", "-j", "1", "--out", "/dev/full", NULL };
	struct cli_out r = cli_run(run_args), s = cli_run(sweep_args);

	ck_assert_int_eq(r.status, 1);
	ck_assert_msg(strstr(r.err, "--out '/dev/full': No space left on device"), "stderr: %s",
		      r.err);
	ck_assert_int_eq(s.status, 1);
	ck_assert_msg(strstr(s.err, "'/dev/full': No space left on device"), "stderr: %s", s.err);
	cli_out_free(&r);
	cli_out_free(&s);
}
END_TEST

/* Past a file size limit: exit 1, EFBIG named, no partial file; a file that was there stays. */
START_TEST(test_out_file_too_large)
{
	char *dir = temp_dir(), *pb = path_in(dir, "r.pb"), *old = path_in(dir, "old.pb");
	const char *run_new[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				  "--out", pb, NULL };
	const char *run_old[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				  "--out", old, NULL };
	struct cli_out o;
	FILE *f = fopen(old, "w");
	char buf[64] = "";

	ck_assert_ptr_nonnull(f);
	fputs("what was there\n", f);
	ck_assert_int_eq(fclose(f), 0);

	o = cli_run_to(run_new, NULL, 4096);
	ck_assert_int_eq(o.status, 1);
	ck_assert_msg(strstr(o.err, pb) && strstr(o.err, strerror(EFBIG)), "stderr: %s", o.err);
	ck_assert_msg(access(pb, F_OK) != 0, "a partial %s is left", pb);
	cli_out_free(&o);

	o = cli_run_to(run_old, NULL, 4096);
	ck_assert_int_eq(o.status, 1);
	f = fopen(old, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	fclose(f);
	ck_assert_str_eq(buf, "what was there\n");
	cli_out_free(&o);
	/* no temporary file left beside them */
	ck_assert_int_eq(nr_entries(dir), 1);
	unlink(old);
	free(pb);
	free(old);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* Standard output redirected to a file past the limit: the JSON is not cut short silently. */
START_TEST(test_stdout_file_too_large)
{
	char *dir = temp_dir(), *json = path_in(dir, "r.json");
	const char *args[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
			       "--format", "json", NULL };
	struct cli_out o = cli_run_to(args, json, 8192);

	ck_assert_int_eq(o.status, 1);
	ck_assert_msg(strstr(o.err, "standard output") && strstr(o.err, strerror(EFBIG)),
		      "stderr: %s", o.err);
	cli_out_free(&o);
	unlink(json);
	free(json);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* plot -o onto a full device (through a symlink, as the name must end in .svg). */
START_TEST(test_plot_full)
{
	char *dir = temp_dir(), *pb = path_in(dir, "r.pb"), *svg = path_in(dir, "full.svg");
	char *big = path_in(dir, "big.svg");
	const char *run_args[] = { "run", cli_quickstart(), "--policy", "mglru-old", "--scale",
				   "1/64", "--out", pb, NULL };
	const char *plot_full[] = { "plot", pb, "-o", svg, NULL };
	const char *plot_big[] = { "plot", pb, "-o", big, NULL };
	struct cli_out r = cli_run(run_args), p;
	struct stat st;

	ck_assert_msg(r.status == 0, "%s", r.err);
	ck_assert_int_eq(symlink("/dev/full", svg), 0);
	p = cli_run(plot_full);
	ck_assert_int_eq(p.status, 1);
	ck_assert_msg(strstr(p.err, svg) && strstr(p.err, "No space left on device"), "stderr: %s",
		      p.err);
	ck_assert_ptr_null(strstr(p.out, "wrote"));
	cli_out_free(&p);
	/* past the limit (the script in $TMPDIR fits, the image does not): no partial SVG */
	p = cli_run(plot_big);
	ck_assert_msg(p.status == 0, "%s", p.err);
	ck_assert_int_eq(stat(big, &st), 0);
	ck_assert_int_eq(unlink(big), 0);
	cli_out_free(&p);
	p = cli_run_to(plot_big, NULL, (unsigned long)st.st_size - 1);
	ck_assert_msg(p.status == 1, "status %d: %s", p.status, p.err);
	ck_assert_msg(strstr(p.err, strerror(EFBIG)), "stderr: %s", p.err);
	ck_assert_msg(access(big, F_OK) != 0, "a partial %s is left", big);
	cli_out_free(&p);
	cli_out_free(&r);
	unlink(svg);
	unlink(pb);
	free(svg);
	free(big);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

static Suite *write_suite(void)
{
	Suite *s = suite_create("write");
	TCase *tc = tcase_create("full");

	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, test_stdout_full);
	tcase_add_test(tc, test_out_full);
	tcase_add_test(tc, test_out_file_too_large);
	tcase_add_test(tc, test_stdout_file_too_large);
	tcase_add_test(tc, test_plot_full);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(write_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
