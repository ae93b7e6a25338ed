/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu bench --trace`: one cachesim-like line per (policy, cache size),
 * sizes absolute and as fractions of the working set, byte miss ratio,
 * --no-timing said in its output, and bad options and traces exit 2; object
 * names replaying as their numbers; a miss ratio below the compulsory one
 * said to be readahead's, and --no-readahead; an lcs trace sniffed.
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/cli.h"
#include "tests/harness.h"

/* 400 requests over 100 objects of 4 KiB and 10 objects of 12 KiB, cycling */
static char *make_csv(void)
{
	char *text = malloc(64 * 1024);
	size_t n = 0;

	ck_assert_ptr_nonnull(text);
	n += (size_t)snprintf(text + n, 64 * 1024 - n, "time,obj_id,size,op\n");
	for (int i = 0; i < 400; i++) {
		int obj = i % 110;

		n += (size_t)snprintf(text + n, 64 * 1024 - n, "%d,%d,%d,read\n", i, obj,
				      obj >= 100 ? 12288 : 4096);
	}
	{
		char *path = harness_write_temp(text);

		free(text);
		return path;
	}
}

static int count_lines(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

/* The miss ratio and byte miss ratio of the line for policy at size (as printed). */
static void ratios(const char *out, const char *policy, const char *size, double *mr, double *bmr)
{
	char what[128];
	const char *p;

	snprintf(what, sizeof(what), " %s cache size %8s, 400 req, miss ratio ", policy, size);
	p = strstr(out, what);
	ck_assert_msg(p != NULL, "no line '%s' in:\n%s", what, out);
	ck_assert_int_eq(sscanf(p + strlen(what), "%lf, byte miss ratio %lf", mr, bmr), 2);
}

START_TEST(test_policies_times_sizes)
{
	char *trace = make_csv();
	const char *args[] = { "bench", "--trace", trace, "--policy", "classic,mglru-budget",
			       "--cache", "128K,0.5,100%", NULL };
	static const char *const policies[] = { "classic", "mglru-budget" };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 0, "%s", o.err);
	/* working set: 100 + 10 * 3 pages */
	ck_assert_msg(strstr(o.out, "csv, 400 requests, 110 objects, working set 130 pages"), "%s",
		      o.out);
	ck_assert_int_eq(count_lines(o.out, " req, miss ratio "), 6);
	ck_assert_int_eq(count_lines(o.out, "byte miss ratio "), 6);
	ck_assert_ptr_null(strstr(o.out, "no timing"));
	for (int i = 0; i < 2; i++) {
		double mr[3], bmr[3];

		ratios(o.out, policies[i], "128KiB", &mr[0], &bmr[0]);
		ratios(o.out, policies[i], "260KiB", &mr[1], &bmr[1]);	/* 0.5: 65 pages */
		ratios(o.out, policies[i], "520KiB", &mr[2], &bmr[2]);	/* 100%: 130 pages */
		/* all of it cached: only first touches miss, at most one per object */
		ck_assert(mr[2] > 0 && mr[2] <= 110.0 / 400);
		ck_assert(mr[2] <= mr[1] && mr[1] <= mr[0]);
		for (int k = 0; k < 3; k++)
			ck_assert(bmr[k] > 0 && bmr[k] <= 1);
	}
	cli_out_free(&o);
	unlink(trace);
	free(trace);
}
END_TEST

START_TEST(test_no_timing_says_so)
{
	char *trace = make_csv();
	const char *args[] = { "bench", "--trace", trace, "--cache", "100%", "--no-timing", NULL };
	struct cli_out o = cli_run(args);
	double mr, bmr;

	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "no timing: miss ratio only"));
	ck_assert_msg(strstr(o.out, "(no timing)\n"), "%s", o.out);
	ratios(o.out, "classic", "520KiB", &mr, &bmr);
	ck_assert(mr > 0 && mr <= 110.0 / 400);
	cli_out_free(&o);
	unlink(trace);
	free(trace);
}
END_TEST

/* 20000 requests over 12000 objects, skewed, every third a write */
static char *make_write_csv(bool writes)
{
	size_t cap = 1 << 20, n = 0;
	char *text = malloc(cap), *path;
	uint64_t x = 1;

	ck_assert_ptr_nonnull(text);
	n += (size_t)snprintf(text + n, cap - n, "time,obj_id,size,op\n");
	for (int i = 0; i < 20000; i++) {
		double u;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		u = (double)(x >> 11) / 9007199254740992.0;
		n += (size_t)snprintf(text + n, cap - n, "%d,%d,4096,%s\n", i,
				      (int)(u * u * u * 12000), writes && i % 3 == 0 ? "write" : "read");
		ck_assert(n < cap);
	}
	path = harness_write_temp(text);
	free(text);
	return path;
}

/*
 * Writes through a cache far smaller than the trace: the flusher cleans the
 * dirty pages so reclaim can take them (without one, the replay's memcg
 * filled with dirty pages and was OOM-killed); untimed, the writes replay
 * as reads, said so, with the miss ratio of the same trace read only (the
 * untimed writer's dirty throttling spun: no time passed for writeback).
 */
START_TEST(test_writes_replay_timed_and_untimed)
{
	char *wr = make_write_csv(true), *rd = make_write_csv(false);
	double mr[3], bmr[3];

	for (int k = 0; k < 3; k++) {
		const char *args[] = { "bench", "--trace", k == 2 ? rd : wr, "--cache", "10%",
				       k ? "--no-timing" : NULL, NULL };
		struct cli_out o = cli_run(args);
		char *line;

		ck_assert_msg(o.status == 0, "case %d: %s%s", k, o.out, o.err);
		ck_assert_msg(!strstr(o.out, "writes replay as reads") == (k != 1), "case %d: %s", k,
			      o.out);
		/* the ratios at whatever size 10% is: the first line's */
		line = strstr(o.out, " req, miss ratio ");
		ck_assert_msg(line != NULL, "%s", o.out);
		ck_assert_int_eq(sscanf(line, " req, miss ratio %lf, byte miss ratio %lf", &mr[k],
					&bmr[k]), 2);
		cli_out_free(&o);
	}
	ck_assert(mr[0] > 0.1 && mr[0] < 1);
	ck_assert_msg(mr[1] == mr[2], "untimed with writes %.4f, read only %.4f", mr[1], mr[2]);
	unlink(wr);
	unlink(rd);
	free(wr);
	free(rd);
}
END_TEST

/* bench parses with getopt_long from the option table: --opt=value is the same run. */
START_TEST(test_option_equals_value)
{
	char *trace = make_csv(), *t;
	const char *args[] = { "bench", NULL, "--cache=100%", "--no-timing", NULL };
	struct cli_out o;
	double mr, bmr;

	ck_assert_int_ge(asprintf(&t, "--trace=%s", trace), 0);
	args[1] = t;
	o = cli_run(args);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_msg(strstr(o.out, "(no timing)\n"), "%s", o.out);
	ratios(o.out, "classic", "520KiB", &mr, &bmr);
	ck_assert(mr > 0 && mr <= 110.0 / 400);
	cli_out_free(&o);
	unlink(trace);
	free(trace);
	free(t);
}
END_TEST

START_TEST(test_bad_options_exit_2)
{
	char *trace = make_csv();
	static const struct {
		const char *opt, *val, *says;
	} bad[] = {
		{ "--cache", "lots", "--cache 'lots'" },
		{ "--cache", "-0.5", "--cache '-0.5'" },
		{ "--policy", "classic,lru", "unknown policy 'lru'" },
		{ "--trace-format", "parquet", "--trace-format 'parquet'" },
		{ "-t", "obj-id-col=2,colour=red", "'colour' is not known" },
		{ "--trace-format", "oracle", "first bytes are text: a csv or txt trace?" },
		{ "--colour", "red", "unknown option '--colour'" },
	};
	char *fifo = harness_write_temp("");

	/* bench --trace of a FIFO: refused at once, not waited on forever */
	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	{
		const char *args[] = { "bench", "--trace", fifo, "--cache", "1M", NULL };
		struct cli_out o = cli_run(args);

		ck_assert_int_eq(o.status, 2);
		ck_assert_msg(strstr(o.err, fifo) && strstr(o.err, "not a regular file (a FIFO)"),
			      "%s", o.err);
		cli_out_free(&o);
	}
	unlink(fifo);
	free(fifo);

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "bench", "--trace", trace, bad[i].opt, bad[i].val, NULL };
		struct cli_out o = cli_run(args);

		ck_assert_int_eq(o.status, 2);
		ck_assert_msg(strstr(o.err, bad[i].says), "'%s' does not say '%s'", o.err,
			      bad[i].says);
		cli_out_free(&o);
	}
	unlink(trace);
	free(trace);
}
END_TEST

/* A csv of object names replays as the same csv numbered in the order first seen. */
START_TEST(test_string_ids_same_miss_ratio)
{
	char *names = malloc(64 * 1024), *numbers = malloc(64 * 1024), *pn, *pu;
	size_t nn = 0, nu = 0;
	double mr[2], bmr[2];

	ck_assert_ptr_nonnull(names);
	ck_assert_ptr_nonnull(numbers);
	nn += (size_t)snprintf(names + nn, 64, "time,obj_id,size,op\n");
	nu += (size_t)snprintf(numbers + nu, 64, "time,obj_id,size,op\n");
	for (int i = 0; i < 400; i++) {
		int obj = (i * 37) % 110;	/* first seen: 0, 37, 74, 1, 38, ... */
		int first = obj % 37 * 3 + obj / 37;

		nn += (size_t)snprintf(names + nn, 64 * 1024 - nn, "%d,obj-%c%d,%d,read\n", i,
				       'a' + obj % 5, obj, obj >= 100 ? 12288 : 4096);
		nu += (size_t)snprintf(numbers + nu, 64 * 1024 - nu, "%d,%d,%d,read\n", i, first,
				       obj >= 100 ? 12288 : 4096);
	}
	pn = harness_write_temp(names);
	pu = harness_write_temp(numbers);
	for (int i = 0; i < 2; i++) {
		const char *args[] = { "bench", "--trace", i ? pu : pn, "--cache", "0.5",
				       "--no-timing", i ? NULL : "-t", "obj-id-is-num=0", NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 0, "%s", o.err);
		ck_assert_msg(strstr(o.out, "csv, 400 requests, 110 objects, working set 130 pages"),
			      "%s", o.out);
		ratios(o.out, "classic", "260KiB", &mr[i], &bmr[i]);
		cli_out_free(&o);
	}
	ck_assert(mr[0] > 0);
	ck_assert_double_eq(mr[0], mr[1]);
	ck_assert_double_eq(bmr[0], bmr[1]);
	unlink(pn);
	unlink(pu);
	free(pn);
	free(pu);
	free(names);
	free(numbers);
}
END_TEST

/*
 * A sequential trace read once: read-around brings pages in before they
 * are asked for, the miss ratio falls below the compulsory one (every
 * request a first one) and the output says why; --no-readahead gives the
 * compulsory one.
 */
START_TEST(test_no_readahead_compulsory)
{
	char *text = malloc(64 * 1024), *trace;
	size_t n = 0;
	double mr[2], bmr;

	ck_assert_ptr_nonnull(text);
	for (int i = 0; i < 400; i++)
		n += (size_t)snprintf(text + n, 64 * 1024 - n, "%d,%d,4096\n", i, i);
	trace = harness_write_temp(text);
	free(text);
	for (int nora = 0; nora < 2; nora++) {
		const char *args[] = { "bench", "--trace", trace, "--cache", "100%",
				       nora ? "--no-readahead" : "--no-timing", NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 0, "%s", o.err);
		ck_assert_msg(strstr(o.out, " 400 req, miss ratio "), "%s", o.out);
		sscanf(strstr(o.out, " 400 req, miss ratio ") + 21, "%lf, byte miss ratio %lf",
		       &mr[nora], &bmr);
		ck_assert_msg((strstr(o.out, "below the compulsory 1.0000 (400 objects / 400 "
					     "requests): readahead") != NULL) == !nora, "%s", o.out);
		ck_assert_msg((strstr(o.out, "--no-readahead compares the caches alone") != NULL) ==
			      !nora, "%s", o.out);
		ck_assert((strstr(o.out, "no readahead: the device's read_ahead_kb = 0") != NULL) ==
			  nora);
		cli_out_free(&o);
	}
	ck_assert_msg(mr[0] < 0.5, "miss ratio %f with readahead", mr[0]);
	ck_assert_double_eq(mr[1], 1.0);
	unlink(trace);
	free(trace);
}
END_TEST

/* An lcs trace is sniffed by its magic; a truncated one is refused with its record. */
START_TEST(test_lcs_sniffed_and_truncated)
{
	static unsigned char buf[8192 + 100 * 24];
	char *path = harness_write_temp("");
	FILE *f;

	for (int i = 0; i < 8; i++) {
		buf[i] = (unsigned char)(0x123456789abcdef0ULL >> (8 * i));
		buf[8184 + i] = buf[i];
	}
	buf[8] = 1;	/* version 1: oracleGeneral's records */
	for (int r = 0; r < 100; r++) {
		unsigned char *p = buf + 8192 + 24 * r;

		p[0] = (unsigned char)r;	/* time */
		p[4] = (unsigned char)(r % 10);	/* obj_id */
		p[13] = 0x10;			/* size 4096 */
		memset(p + 16, 0xff, 8);
	}
	for (int cut = 0; cut < 2; cut++) {
		const char *args[] = { "bench", "--trace", path, "--cache", "100%", "--no-timing",
				       NULL };
		struct cli_out o;

		f = fopen(path, "wb");
		ck_assert_ptr_nonnull(f);
		fwrite(buf, 1, sizeof(buf) - (size_t)cut * 7, f);
		fclose(f);
		o = cli_run(args);
		if (!cut) {
			ck_assert_msg(o.status == 0, "%s", o.err);
			ck_assert_msg(strstr(o.out, ": lcs v1, 100 requests, 10 objects"), "%s", o.out);
		} else {
			ck_assert_int_eq(o.status, 2);
			ck_assert_msg(strstr(o.err, path) && strstr(o.err, "record 100: truncated"),
				      "%s", o.err);
		}
		cli_out_free(&o);
	}
	unlink(path);
	free(path);
}
END_TEST

static Suite *bench_trace_suite(void)
{
	Suite *s = suite_create("bench_trace");
	TCase *tc = tcase_create("bench_trace");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_policies_times_sizes);
	tcase_add_test(tc, test_no_timing_says_so);
	tcase_add_test(tc, test_writes_replay_timed_and_untimed);
	tcase_add_test(tc, test_option_equals_value);
	tcase_add_test(tc, test_bad_options_exit_2);
	tcase_add_test(tc, test_string_ids_same_miss_ratio);
	tcase_add_test(tc, test_no_readahead_compulsory);
	tcase_add_test(tc, test_lcs_sniffed_and_truncated);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bench_trace_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
