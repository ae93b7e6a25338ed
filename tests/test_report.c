/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Saved results ($MMEMU run --out, $MMEMU report): a saved file prints byte
 * for byte as the run did, in every format; several files print side by
 * side; a truncated or foreign file exits 2 naming the file.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tests/cli.h"

/*
 * AddressSanitizer warns once per process that it cannot follow SimGrid's
 * stack switches (google/sanitizers#189); that block is not mmemu's output.
 */
static const char *without_asan_notice(char *err)
{
	char *w = strstr(err, "WARNING: ASan is ignoring requested __asan_handle_no_return");

	if (w) {
		char *start = w, *end = strstr(w, "=====\n");

		while (start > err && start[-1] != '\n')
			start--;
		end = end ? end + strspn(end, "=") + 1 : w + strlen(w);
		memmove(start, end, strlen(end) + 1);
	}
	return err;
}

/* `run --format F --out P` and `report P --format F` print the same bytes. */
static void check_round_trip(const char *format)
{
	char *pb = cli_temp_file(".pb");
	const char *run_args[] = { "run", cli_quickstart(), "--policy", "classic,mglru-budget",
				   "--scale", "1/32", "--format", format, "--out", pb, NULL };
	const char *report_args[] = { "report", pb, "--format", format, NULL };
	struct cli_out r = cli_run(run_args), p;

	ck_assert_msg(r.status == 0, "run: status %d: %s", r.status, r.err);
	ck_assert_str_eq(without_asan_notice(r.err), "");
	p = cli_run(report_args);
	ck_assert_msg(p.status == 0, "report: status %d: %s", p.status, p.err);
	ck_assert_str_eq(p.err, "");
	ck_assert_msg(strcmp(r.out, p.out) == 0, "%s: report differs from run:\n%.600s\n---\n%.600s",
		      format, r.out, p.out);
	cli_out_free(&r);
	cli_out_free(&p);
	cli_remove_temp(pb);
}

START_TEST(test_text_round_trip)
{
	check_round_trip("text");
}
END_TEST

START_TEST(test_json_round_trip)
{
	check_round_trip("json");
}
END_TEST

START_TEST(test_csv_round_trip)
{
	check_round_trip("csv");
}
END_TEST

/* The default format is text, and --dump lru_gen's text comes back too. */
START_TEST(test_dump_round_trip)
{
	char *pb = cli_temp_file(".pb");
	const char *run_args[] = { "run", cli_quickstart(), "--policy", "mglru-old", "--scale", "1/32",
				   "--dump", "lru_gen", "--out", pb, NULL };
	const char *report_args[] = { "report", pb, NULL };
	struct cli_out r = cli_run(run_args), p;

	ck_assert_msg(r.status == 0, "run: %s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "# lru_gen, policy mglru-old"));
	p = cli_run(report_args);
	ck_assert_msg(p.status == 0, "report: %s", p.err);
	ck_assert_str_eq(r.out, p.out);
	cli_out_free(&r);
	cli_out_free(&p);
	cli_remove_temp(pb);
}
END_TEST

/* Two files, one policy each, print as one run of both policies would. */
START_TEST(test_report_concatenates_files)
{
	char *a = cli_temp_file(".pb"), *b = cli_temp_file(".pb");
	const char *run_a[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", a, NULL };
	const char *run_b[] = { "run", cli_quickstart(), "--policy", "mglru-budget", "--scale", "1/32",
				"--out", b, NULL };
	const char *run_both[] = { "run", cli_quickstart(), "--policy", "classic,mglru-budget",
				   "--scale", "1/32", NULL };
	const char *run_both_json[] = { "run", cli_quickstart(), "--policy", "classic,mglru-budget",
					"--scale", "1/32", "--format", "json", NULL };
	const char *report_ab[] = { "report", a, b, NULL };
	const char *report_ab_json[] = { "report", a, b, "--format", "json", NULL };
	struct cli_out ra = cli_run(run_a), rb = cli_run(run_b), both, both_json, ab, ab_json;

	ck_assert_msg(ra.status == 0, "%s", ra.err);
	ck_assert_msg(rb.status == 0, "%s", rb.err);
	both = cli_run(run_both);
	both_json = cli_run(run_both_json);
	ab = cli_run(report_ab);
	ab_json = cli_run(report_ab_json);
	ck_assert_msg(ab.status == 0, "%s", ab.err);
	ck_assert_msg(ab_json.status == 0, "%s", ab_json.err);
	ck_assert_ptr_nonnull(strstr(ab.out, "classic"));
	ck_assert_ptr_nonnull(strstr(ab.out, "mglru-budget"));
	/* the text table has no host times: identical */
	ck_assert_str_eq(both.out, ab.out);
	cli_strip_host_seconds(both_json.out);
	cli_strip_host_seconds(ab_json.out);
	ck_assert_str_eq(both_json.out, ab_json.out);
	cli_out_free(&ra);
	cli_out_free(&rb);
	cli_out_free(&both);
	cli_out_free(&both_json);
	cli_out_free(&ab);
	cli_out_free(&ab_json);
	cli_remove_temp(a);
	cli_remove_temp(b);
}
END_TEST

/* Same scenario, seed and options: files of the same size (host_seconds is a fixed 8 bytes). */
START_TEST(test_saved_file_deterministic)
{
	char *a = cli_temp_file(".pb"), *b = cli_temp_file(".pb");
	const char *run_a[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", a, NULL };
	const char *run_b[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", b, NULL };
	struct cli_out ra = cli_run(run_a), rb = cli_run(run_b);
	FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
	int ca, cb, nr_diff = 0;

	ck_assert_msg(ra.status == 0, "%s", ra.err);
	ck_assert_msg(rb.status == 0, "%s", rb.err);
	ck_assert_ptr_nonnull(fa);
	ck_assert_ptr_nonnull(fb);
	do {
		ca = fgetc(fa);
		cb = fgetc(fb);
		nr_diff += ca != cb;
	} while (ca != EOF && cb != EOF);
	ck_assert_msg(ca == EOF && cb == EOF, "the files differ in size");
	ck_assert_msg(nr_diff <= 8, "%d bytes differ (host_seconds has 8)", nr_diff);
	fclose(fa);
	fclose(fb);
	cli_out_free(&ra);
	cli_out_free(&rb);
	cli_remove_temp(a);
	cli_remove_temp(b);
}
END_TEST

/* Copies the first half of src into a new temporary file. */
static char *half_copy(const char *src)
{
	FILE *in = fopen(src, "rb"), *out;
	char *dst = cli_temp_file(".pb"), *buf;
	long len;

	ck_assert_ptr_nonnull(in);
	ck_assert_int_eq(fseek(in, 0, SEEK_END), 0);
	len = ftell(in);
	ck_assert_int_gt(len, 16);
	rewind(in);
	buf = malloc((size_t)len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, in), (size_t)len);
	fclose(in);
	out = fopen(dst, "wb");
	ck_assert_ptr_nonnull(out);
	ck_assert_uint_eq(fwrite(buf, 1, (size_t)len / 2, out), (size_t)len / 2);
	ck_assert_int_eq(fclose(out), 0);
	free(buf);
	return dst;
}

START_TEST(test_truncated_file_exit_2)
{
	char *pb = cli_temp_file(".pb"), *half;
	const char *run_args[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				   "--out", pb, NULL };
	struct cli_out r = cli_run(run_args), p;

	ck_assert_msg(r.status == 0, "%s", r.err);
	half = half_copy(pb);
	{
		const char *args[] = { "report", half, NULL };

		p = cli_run(args);
	}
	ck_assert_int_eq(p.status, 2);
	ck_assert_msg(strstr(p.err, half) && strstr(p.err, "truncated"), "stderr: %s", p.err);
	ck_assert_str_eq(p.out, "");
	cli_out_free(&p);
	/* a good file first does not hide a bad one after it */
	{
		const char *args[] = { "report", pb, half, NULL };

		p = cli_run(args);
	}
	ck_assert_int_eq(p.status, 2);
	ck_assert_msg(strstr(p.err, half), "stderr: %s", p.err);
	ck_assert_str_eq(p.out, "");
	cli_out_free(&p);
	cli_out_free(&r);
	cli_remove_temp(half);
	cli_remove_temp(pb);
}
END_TEST

START_TEST(test_foreign_file_exit_2)
{
	char *empty = cli_temp_file(".pb");
	const char *foreign[] = { "report", cli_quickstart(), NULL };
	const char *nothing[] = { "report", empty, NULL };
	const char *missing[] = { "report", "/nonexistent/results.pb", NULL };
	struct cli_out f = cli_run(foreign), e = cli_run(nothing), m = cli_run(missing);

	ck_assert_int_eq(f.status, 2);
	ck_assert_msg(strstr(f.err, cli_quickstart()) && strstr(f.err, "not an mmemu result file"),
		      "stderr: %s", f.err);
	ck_assert_str_eq(f.out, "");
	ck_assert_int_eq(e.status, 2);
	ck_assert_msg(strstr(e.err, empty), "stderr: %s", e.err);
	ck_assert_int_eq(m.status, 2);
	ck_assert_msg(strstr(m.err, "/nonexistent/results.pb"), "stderr: %s", m.err);
	cli_out_free(&f);
	cli_out_free(&e);
	cli_out_free(&m);
	cli_remove_temp(empty);
}
END_TEST

START_TEST(test_bad_report_options_exit_2)
{
	const char *no_file[] = { "report", NULL };
	const char *bad_format[] = { "report", cli_quickstart(), "--format", "xml", NULL };
	const char *bad_out[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				  "--out", "/nonexistent/dir/r.pb", NULL };
	struct cli_out n = cli_run(no_file), b = cli_run(bad_format), o = cli_run(bad_out);

	ck_assert_int_eq(n.status, 2);
	ck_assert_int_eq(b.status, 2);
	ck_assert_msg(strstr(b.err, "xml"), "stderr: %s", b.err);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "/nonexistent/dir/r.pb"), "stderr: %s", o.err);
	cli_out_free(&n);
	cli_out_free(&b);
	cli_out_free(&o);
}
END_TEST

/* Files of another scale or scenario are refused side by side unless --force. */
START_TEST(test_report_refuses_mixing)
{
	char *a = cli_temp_file(".pb"), *b = cli_temp_file(".pb"), *c = cli_temp_file(".pb");
	const char *run_a[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", a, NULL };
	const char *run_b[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				"--out", b, NULL };
	const char *run_c[] = { "run", harness_src_path("scenarios/swap-zram.ini"), "--policy",
				"classic", "--scale", "1/64", "--out", c, NULL };
	const char *ab[] = { "report", a, b, NULL };
	const char *bc[] = { "report", b, c, NULL };
	const char *ab_force[] = { "report", a, b, "--force", NULL };
	struct cli_out ra = cli_run(run_a), rb = cli_run(run_b), rc = cli_run(run_c), x, y, z;

	ck_assert_msg(ra.status == 0 && rb.status == 0 && rc.status == 0, "%s%s%s", ra.err, rb.err,
		      rc.err);
	x = cli_run(ab);
	ck_assert_int_eq(x.status, 2);
	ck_assert_msg(strstr(x.err, b) && strstr(x.err, "another scale") && strstr(x.err, "--force"),
		      "stderr: %s", x.err);
	ck_assert_str_eq(x.out, "");
	y = cli_run(bc);
	ck_assert_int_eq(y.status, 2);
	ck_assert_msg(strstr(y.err, "swap-zram") && strstr(y.err, "another scenario"), "stderr: %s",
		      y.err);
	z = cli_run(ab_force);
	ck_assert_msg(z.status == 0, "%s", z.err);
	ck_assert_ptr_nonnull(strstr(z.out, "scenario quickstart, scale 1/32"));
	cli_out_free(&ra);
	cli_out_free(&rb);
	cli_out_free(&rc);
	cli_out_free(&x);
	cli_out_free(&y);
	cli_out_free(&z);
	cli_remove_temp(a);
	cli_remove_temp(b);
	cli_remove_temp(c);
}
END_TEST

/* view: one page per scenario and scale; mixing is refused unless --force, nothing written. */
START_TEST(test_view_refuses_mixing)
{
	char *a = cli_temp_file(".pb"), *b = cli_temp_file(".pb"), *h = cli_temp_file(".html");
	const char *run_a[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", a, NULL };
	const char *run_b[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				"--out", b, NULL };
	const char *one[] = { "view", a, "-o", h, NULL };
	const char *ab[] = { "view", a, b, "-o", h, NULL };
	const char *ab_force[] = { "view", a, b, "-o", h, "--force", NULL };
	struct cli_out ra = cli_run(run_a), rb = cli_run(run_b), x, y, z;
	FILE *f;
	char head[32] = "";

	ck_assert_msg(ra.status == 0 && rb.status == 0, "%s%s", ra.err, rb.err);
	x = cli_run(one);
	ck_assert_msg(x.status == 0, "%s", x.err);
	f = fopen(h, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(head, sizeof(head), f));
	fclose(f);
	ck_assert_str_eq(head, "<!DOCTYPE html>\n");
	remove(h);
	y = cli_run(ab);
	ck_assert_int_eq(y.status, 2);
	ck_assert_msg(strstr(y.err, b) && strstr(y.err, "another scale") && strstr(y.err, "--force"),
		      "stderr: %s", y.err);
	ck_assert_int_ne(access(h, F_OK), 0);
	z = cli_run(ab_force);
	ck_assert_msg(z.status == 0, "%s", z.err);
	ck_assert_int_eq(access(h, F_OK), 0);
	cli_out_free(&ra);
	cli_out_free(&rb);
	cli_out_free(&x);
	cli_out_free(&y);
	cli_out_free(&z);
	cli_remove_temp(a);
	cli_remove_temp(b);
	cli_remove_temp(h);
}
END_TEST

/*
 * A saved run whose sample holds no row (a kind of row this mmemu does not
 * know): report --format json exits 2, prints no broken JSON.
 */
START_TEST(test_report_json_always_valid)
{
	char *pb = cli_temp_file(".pb");
	const char *json_args[] = { "report", pb, "--format", "json", NULL };
	const char *text_args[] = { "report", pb, NULL };
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	Mmemu__Run run = MMEMU__RUN__INIT, *runs[1] = { &run };
	Mmemu__Sample sample[2] = { MMEMU__SAMPLE__INIT, MMEMU__SAMPLE__INIT };
	Mmemu__Sample *samples[] = { &sample[0], &sample[1] };
	Mmemu__StatsRow stats = MMEMU__STATS_ROW__INIT;
	struct cli_out j, t;
	FILE *f = fopen(pb, "wb");

	inv.scenario_name = (char *)"crafted";
	inv.scale = 1;
	inv.n_runs = 1;
	inv.runs = runs;
	run.policy = (char *)"classic";
	sample[0].row_case = MMEMU__SAMPLE__ROW_STATS;
	sample[0].stats = &stats;
	run.n_samples = 2;
	run.samples = samples;
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(result_file_write(&inv, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	j = cli_run(json_args);
	ck_assert_int_eq(j.status, 2);
	ck_assert_str_eq(j.out, "");
	ck_assert_msg(strstr(j.err, "sample 2 has no row"), "stderr: %s", j.err);
	ck_assert_msg(strstr(j.err, pb), "the message names the file: %s", j.err);
	/* the text table has no samples to trip on */
	t = cli_run(text_args);
	ck_assert_msg(t.status == 0, "%s", t.err);
	/* the view names the file too, and writes nothing */
	{
		char *h = cli_temp_file(".html");
		const char *view_args[] = { "view", pb, "-o", h, NULL };
		struct cli_out v;

		remove(h);
		v = cli_run(view_args);
		ck_assert_int_eq(v.status, 2);
		ck_assert_msg(strstr(v.err, pb) && strstr(v.err, "sample 2 has no row"),
			      "stderr: %s", v.err);
		ck_assert_int_ne(access(h, F_OK), 0);
		cli_out_free(&v);
		cli_remove_temp(h);
	}
	cli_out_free(&j);
	cli_out_free(&t);
	cli_remove_temp(pb);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("round trip");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_text_round_trip);
	tcase_add_test(tc, test_json_round_trip);
	tcase_add_test(tc, test_csv_round_trip);
	tcase_add_test(tc, test_dump_round_trip);
	tcase_add_test(tc, test_report_concatenates_files);
	tcase_add_test(tc, test_saved_file_deterministic);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_truncated_file_exit_2);
	tcase_add_test(tc, test_foreign_file_exit_2);
	tcase_add_test(tc, test_bad_report_options_exit_2);
	tcase_add_test(tc, test_report_refuses_mixing);
	tcase_add_test(tc, test_view_refuses_mixing);
	tcase_add_test(tc, test_report_json_always_valid);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(report_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
