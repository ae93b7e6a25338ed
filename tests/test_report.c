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

static const char *mmemu(void)
{
	const char *m = getenv("MMEMU");

#ifdef MMEMU_BIN
	if (!m || !*m)
		m = MMEMU_BIN;
#endif
	ck_assert_msg(m && *m, "MMEMU is not set (run through meson test)");
	return m;
}

static char qs[4096];

static const char *quickstart(void)
{
	snprintf(qs, sizeof(qs), "%s", harness_src_path("scenarios/quickstart.ini"));
	return qs;
}

struct out {
	int status;	/* exit status, -1 if it did not exit */
	char *out;	/* stdout */
	char *err;	/* stderr */
};

static struct out run(const char *const *args)
{
	const char *argv[32];
	struct out o;
	int n = 0;

	argv[n++] = mmemu();
	for (; *args; args++) {
		ck_assert_int_lt(n, 31);
		argv[n++] = *args;
	}
	argv[n] = NULL;
	o.status = harness_exec(argv, &o.out, &o.err);
	return o;
}

static void out_free(struct out *o)
{
	free(o->out);
	free(o->err);
}

/* A new empty temporary file "<dir>/mmemu-test-XXXXXX.pb"; the caller unlinks and frees it. */
static char *temp_pb(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert_int_gt(asprintf(&path, "%s/mmemu-test-XXXXXX.pb", dir), 0);
	fd = mkstemps(path, 3);
	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

static void remove_temp(char *path)
{
	unlink(path);
	free(path);
}

/* Deletes the value after every "host_seconds": (the only host-dependent field). */
static void strip_host_seconds(char *s)
{
	static const char key[] = "\"host_seconds\":";
	char *p = s;

	while ((p = strstr(p, key))) {
		char *v = p + sizeof(key) - 1, *end = v;

		while (*end && *end != ',' && *end != '}' && *end != '\n')
			end++;
		memmove(v, end, strlen(end) + 1);
		p = v;
	}
}

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
	char *pb = temp_pb();
	const char *run_args[] = { "run", quickstart(), "--policy", "classic,mglru-budget",
				   "--scale", "1/32", "--format", format, "--out", pb, NULL };
	const char *report_args[] = { "report", pb, "--format", format, NULL };
	struct out r = run(run_args), p;

	ck_assert_msg(r.status == 0, "run: status %d: %s", r.status, r.err);
	ck_assert_str_eq(without_asan_notice(r.err), "");
	p = run(report_args);
	ck_assert_msg(p.status == 0, "report: status %d: %s", p.status, p.err);
	ck_assert_str_eq(p.err, "");
	ck_assert_msg(strcmp(r.out, p.out) == 0, "%s: report differs from run:\n%.600s\n---\n%.600s",
		      format, r.out, p.out);
	out_free(&r);
	out_free(&p);
	remove_temp(pb);
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
	char *pb = temp_pb();
	const char *run_args[] = { "run", quickstart(), "--policy", "mglru-old", "--scale", "1/32",
				   "--dump", "lru_gen", "--out", pb, NULL };
	const char *report_args[] = { "report", pb, NULL };
	struct out r = run(run_args), p;

	ck_assert_msg(r.status == 0, "run: %s", r.err);
	ck_assert_ptr_nonnull(strstr(r.out, "# lru_gen, policy mglru-old"));
	p = run(report_args);
	ck_assert_msg(p.status == 0, "report: %s", p.err);
	ck_assert_str_eq(r.out, p.out);
	out_free(&r);
	out_free(&p);
	remove_temp(pb);
}
END_TEST

/* Two files, one policy each, print as one run of both policies would. */
START_TEST(test_report_concatenates_files)
{
	char *a = temp_pb(), *b = temp_pb();
	const char *run_a[] = { "run", quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", a, NULL };
	const char *run_b[] = { "run", quickstart(), "--policy", "mglru-budget", "--scale", "1/32",
				"--out", b, NULL };
	const char *run_both[] = { "run", quickstart(), "--policy", "classic,mglru-budget",
				   "--scale", "1/32", NULL };
	const char *run_both_json[] = { "run", quickstart(), "--policy", "classic,mglru-budget",
					"--scale", "1/32", "--format", "json", NULL };
	const char *report_ab[] = { "report", a, b, NULL };
	const char *report_ab_json[] = { "report", a, b, "--format", "json", NULL };
	struct out ra = run(run_a), rb = run(run_b), both, both_json, ab, ab_json;

	ck_assert_msg(ra.status == 0, "%s", ra.err);
	ck_assert_msg(rb.status == 0, "%s", rb.err);
	both = run(run_both);
	both_json = run(run_both_json);
	ab = run(report_ab);
	ab_json = run(report_ab_json);
	ck_assert_msg(ab.status == 0, "%s", ab.err);
	ck_assert_msg(ab_json.status == 0, "%s", ab_json.err);
	ck_assert_ptr_nonnull(strstr(ab.out, "classic"));
	ck_assert_ptr_nonnull(strstr(ab.out, "mglru-budget"));
	/* the text table has no host times: identical */
	ck_assert_str_eq(both.out, ab.out);
	strip_host_seconds(both_json.out);
	strip_host_seconds(ab_json.out);
	ck_assert_str_eq(both_json.out, ab_json.out);
	out_free(&ra);
	out_free(&rb);
	out_free(&both);
	out_free(&both_json);
	out_free(&ab);
	out_free(&ab_json);
	remove_temp(a);
	remove_temp(b);
}
END_TEST

/* Same scenario, seed and options: files of the same size (host_seconds is a fixed 8 bytes). */
START_TEST(test_saved_file_deterministic)
{
	char *a = temp_pb(), *b = temp_pb();
	const char *run_a[] = { "run", quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", a, NULL };
	const char *run_b[] = { "run", quickstart(), "--policy", "classic", "--scale", "1/32",
				"--out", b, NULL };
	struct out ra = run(run_a), rb = run(run_b);
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
	out_free(&ra);
	out_free(&rb);
	remove_temp(a);
	remove_temp(b);
}
END_TEST

/* Copies the first half of src into a new temporary file. */
static char *half_copy(const char *src)
{
	FILE *in = fopen(src, "rb"), *out;
	char *dst = temp_pb(), *buf;
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
	char *pb = temp_pb(), *half;
	const char *run_args[] = { "run", quickstart(), "--policy", "classic", "--scale", "1/32",
				   "--out", pb, NULL };
	struct out r = run(run_args), p;

	ck_assert_msg(r.status == 0, "%s", r.err);
	half = half_copy(pb);
	{
		const char *args[] = { "report", half, NULL };

		p = run(args);
	}
	ck_assert_int_eq(p.status, 2);
	ck_assert_msg(strstr(p.err, half) && strstr(p.err, "truncated"), "stderr: %s", p.err);
	ck_assert_str_eq(p.out, "");
	out_free(&p);
	/* a good file first does not hide a bad one after it */
	{
		const char *args[] = { "report", pb, half, NULL };

		p = run(args);
	}
	ck_assert_int_eq(p.status, 2);
	ck_assert_msg(strstr(p.err, half), "stderr: %s", p.err);
	ck_assert_str_eq(p.out, "");
	out_free(&p);
	out_free(&r);
	remove_temp(half);
	remove_temp(pb);
}
END_TEST

START_TEST(test_foreign_file_exit_2)
{
	char *empty = temp_pb();
	const char *foreign[] = { "report", quickstart(), NULL };
	const char *nothing[] = { "report", empty, NULL };
	const char *missing[] = { "report", "/nonexistent/results.pb", NULL };
	struct out f = run(foreign), e = run(nothing), m = run(missing);

	ck_assert_int_eq(f.status, 2);
	ck_assert_msg(strstr(f.err, quickstart()) && strstr(f.err, "not an mmemu result file"),
		      "stderr: %s", f.err);
	ck_assert_str_eq(f.out, "");
	ck_assert_int_eq(e.status, 2);
	ck_assert_msg(strstr(e.err, empty), "stderr: %s", e.err);
	ck_assert_int_eq(m.status, 2);
	ck_assert_msg(strstr(m.err, "/nonexistent/results.pb"), "stderr: %s", m.err);
	out_free(&f);
	out_free(&e);
	out_free(&m);
	remove_temp(empty);
}
END_TEST

START_TEST(test_bad_report_options_exit_2)
{
	const char *no_file[] = { "report", NULL };
	const char *bad_format[] = { "report", quickstart(), "--format", "xml", NULL };
	const char *bad_out[] = { "run", quickstart(), "--policy", "classic", "--scale", "1/32",
				  "--out", "/nonexistent/dir/r.pb", NULL };
	struct out n = run(no_file), b = run(bad_format), o = run(bad_out);

	ck_assert_int_eq(n.status, 2);
	ck_assert_int_eq(b.status, 2);
	ck_assert_msg(strstr(b.err, "xml"), "stderr: %s", b.err);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "/nonexistent/dir/r.pb"), "stderr: %s", o.err);
	out_free(&n);
	out_free(&b);
	out_free(&o);
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
