/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * $MMEMU sweep: a 2 policies x 3 values x 2 seeds sweep of quickstart with
 * -j 2 saves 12 runs in the documented order (policy, then --set values,
 * then seed); `report --summary` prints the same means and 95% intervals
 * the sweep did; children with a bad --set value fail, named by their
 * parameters, while the others finish (exit 1); a run past --timeout is
 * killed and reported; two identical sweeps agree apart from host_seconds;
 * started as one of several MPI ranks without --mpi it refuses (exit 2), as
 * does --mpi in a build without MPI.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "tests/cli.h"

static int count_lines(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* Removes every line containing needle (CSV host_seconds rows). */
static void drop_lines(char *s, const char *needle)
{
	char *src = s, *dst = s;

	while (*src) {
		char *nl = strchr(src, '\n');
		size_t len = nl ? (size_t)(nl - src) + 1 : strlen(src);
		char save = src[len];

		src[len] = '\0';
		if (!strstr(src, needle)) {
			memmove(dst, src, len);
			dst += len;
		}
		src[len] = save;
		src += len;
	}
	*dst = '\0';
}

static const char *const policies[] = { "classic", "mglru-budget" };
static const char *const maxes[] = { "300M", "400M", "500M" };

START_TEST(test_sweep_2x3x2)
{
	char *pb = cli_temp_file(".pb");
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic,mglru-budget",
				     "--set", "memcg.app.max=300M,400M,500M", "--seeds", "1..2",
				     "--scale", "1/64", "-j", "2", "--out", pb, NULL };
	const char *json_args[] = { "report", pb, "--format", "json", NULL };
	const char *text_args[] = { "report", pb, NULL };
	const char *sum_args[] = { "report", "--summary", pb, NULL };
	const char *csv_args[] = { "report", "--summary", pb, "--format", "csv", NULL };
	struct cli_out s = cli_run(sweep_args), j, t, m, c;
	const char *p;
	int nr_rows = 0, nr_wide = 0;
	static const char csv_head[] =
		"scenario,scale,policy,options,n,group,key,mean,stddev,ci_half,ci_low,ci_high,"
		"change,p_welch\n";

	ck_assert_msg(s.status == 0, "sweep: status %d: %s", s.status, s.err);
	ck_assert_str_eq(s.err, "");	/* no progress line: stderr is not a terminal */

	/* 12 runs: policy, then the --set value, then the seed */
	j = cli_run(json_args);
	ck_assert_msg(j.status == 0, "report: %s", j.err);
	ck_assert_int_eq(count_lines(j.out, "\"policy\": "), 12);
	p = j.out;
	for (int pi = 0; pi < 2; pi++)
		for (int vi = 0; vi < 3; vi++)
			for (int seed = 1; seed <= 2; seed++) {
				char want[160];

				snprintf(want, sizeof(want),
					 "\"policy\": \"%s\",\n  \"options\": \"memcg.app.max=%s\",\n"
					 "  \"seed\": %d,",
					 policies[pi], maxes[vi], seed);
				p = strstr(p, want);
				ck_assert_msg(p, "run %s not found in order", want);
				p++;
			}
	t = cli_run(text_args);
	ck_assert_msg(t.status == 0, "report: %s", t.err);
	ck_assert_ptr_nonnull(strstr(t.out, "mglru-budget"));

	/* report --summary prints what the sweep printed */
	m = cli_run(sum_args);
	ck_assert_msg(m.status == 0, "report --summary: %s", m.err);
	ck_assert_str_eq(m.out, s.out);
	ck_assert_ptr_nonnull(strstr(m.out, "12 runs in 6 groups"));
	ck_assert_ptr_nonnull(strstr(m.out, "\n  classic memcg.app.max=300M: seeds 1,2\n"));
	ck_assert_ptr_nonnull(strstr(m.out, "\n  mglru-budget memcg.app.max=500M: seeds 1,2\n"));
	ck_assert_ptr_nonnull(strstr(m.out, "\nworkload.reader\n  throughput_ops_s "));
	ck_assert_ptr_nonnull(strstr(m.out, "\n  pgscan_file "));
	/* the columns: policy, then the --set value, then the seeds per column */
	ck_assert_ptr_nonnull(strstr(m.out, "\npolicy "));
	ck_assert_ptr_nonnull(strstr(m.out, "\nmemcg.app.max "));

	/* every mean inside its interval; seeds that differ give a real interval */
	c = cli_run(csv_args);
	ck_assert_msg(c.status == 0, "report --summary --format csv: %s", c.err);
	ck_assert_msg(!strncmp(c.out, csv_head, strlen(csv_head)), "%.200s", c.out);
	for (char *line = strchr(c.out, '\n') + 1, *nl; *line; line = nl + 1) {
		char *f[14];
		double mean, half, lo, hi;
		int n = 0;

		nl = strchr(line, '\n');
		ck_assert_ptr_nonnull(nl);
		*nl = '\0';
		/* no field here is quoted; empty fields (NaN) stay empty */
		for (char *p = line; n < 14; n++) {
			f[n] = p;
			p = strchr(p, ',');
			if (!p) {
				n++;
				break;
			}
			*p++ = '\0';
		}
		ck_assert_msg(n == 14, "line: %s", line);
		ck_assert_str_eq(f[0], "quickstart");
		ck_assert_str_eq(f[4], "2");
		if (!*f[9])	/* no interval: the same value in both seeds is no interval either */
			continue;
		mean = strtod(f[7], NULL);
		half = strtod(f[9], NULL);
		lo = strtod(f[10], NULL);
		hi = strtod(f[11], NULL);
		ck_assert_msg(lo <= mean && mean <= hi, "%s: %g not in [%g, %g]", f[6], mean, lo, hi);
		ck_assert_msg(half >= 0, "%s", f[6]);
		if (!strcmp(f[5], "workload.reader") && !strcmp(f[6], "throughput_ops_s")) {
			ck_assert_msg(half > 0, "%s: seeds 1 and 2 give the same throughput", f[3]);
			nr_wide++;
		}
		nr_rows++;
	}
	ck_assert_int_eq(nr_wide, 6);
	ck_assert_int_gt(nr_rows, 6 * 7);
	cli_out_free(&s);
	cli_out_free(&j);
	cli_out_free(&t);
	cli_out_free(&m);
	cli_out_free(&c);
	cli_remove_temp(pb);
}
END_TEST

/*
 * A --set value that no run can load is bad input: the sweep says which (file,
 * key, value) before it starts any run, exits 2 and writes no --out file.
 */
START_TEST(test_sweep_bad_value_fails_alone)
{
	char *pb = cli_temp_file(".pb");
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic",
				     "--set", "memcg.app.max=300M,bogus", "--seeds", "1,2",
				     "--scale", "1/64", "-j", "2", "--out", pb, NULL };
	struct cli_out s;

	unlink(pb);	/* cli_temp_file() made it */
	s = cli_run(sweep_args);
	ck_assert_msg(s.status == 2, "sweep: status %d: %s", s.status, s.err);
	ck_assert_msg(strstr(s.err, "--set 'memcg.app.max=bogus': [memcg.app] max: 'bogus' is "
				    "not a size"), "stderr: %s", s.err);
	ck_assert_msg(!strstr(s.err, "failed"), "a run started: %s", s.err);
	ck_assert_msg(access(pb, F_OK) != 0, "--out written");
	cli_out_free(&s);
	cli_remove_temp(pb);
}
END_TEST

/* A run past --timeout is killed and reported with its parameters. */
START_TEST(test_sweep_timeout)
{
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic", "--scale",
				     "1/4", "--seeds", "3", "--timeout", "0.05", NULL };
	struct cli_out s = cli_run(sweep_args);

	ck_assert_msg(s.status == 1, "sweep: status %d: %s", s.status, s.err);
	ck_assert_msg(strstr(s.err, "run policy=classic seed=3 timed out"), "stderr: %s", s.err);
	ck_assert_str_eq(s.out, "");
	cli_out_free(&s);
}
END_TEST

/* The same arguments twice: the same runs, host_seconds aside. */
START_TEST(test_sweep_deterministic)
{
	char *a = cli_temp_file(".pb"), *b = cli_temp_file(".pb");
	const char *sweep_a[] = { "sweep", cli_quickstart(), "--policy", "classic,mglru-old",
				  "--set", "memcg.app.max=300M,500M", "--seeds", "1..2",
				  "--scale", "1/64", "-j", "2", "--out", a, NULL };
	const char *sweep_b[] = { "sweep", cli_quickstart(), "--policy", "classic,mglru-old",
				  "--set", "memcg.app.max=300M,500M", "--seeds", "1..2",
				  "--scale", "1/64", "-j", "2", "--out", b, NULL };
	const char *csv_a[] = { "report", "--format", "csv", a, NULL };
	const char *csv_b[] = { "report", "--format", "csv", b, NULL };
	struct cli_out sa = cli_run(sweep_a), sb = cli_run(sweep_b), ca, cb;

	ck_assert_msg(sa.status == 0, "%s", sa.err);
	ck_assert_msg(sb.status == 0, "%s", sb.err);
	ck_assert_str_eq(sa.out, sb.out);
	ca = cli_run(csv_a);
	cb = cli_run(csv_b);
	ck_assert_int_eq(ca.status, 0);
	ck_assert_int_eq(cb.status, 0);
	ck_assert_int_eq(count_lines(ca.out, ",run,sim_seconds,"), 8);
	drop_lines(ca.out, ",run,host_seconds,");
	drop_lines(cb.out, ",run,host_seconds,");
	ck_assert_int_eq(count_lines(ca.out, "host_seconds"), 0);
	ck_assert_str_eq(ca.out, cb.out);
	cli_out_free(&sa);
	cli_out_free(&sb);
	cli_out_free(&ca);
	cli_out_free(&cb);
	cli_remove_temp(a);
	cli_remove_temp(b);
}
END_TEST

START_TEST(test_sweep_bad_options_exit_2)
{
	const char *bad_seeds[] = { "sweep", cli_quickstart(), "--seeds", "5..1", NULL };
	const char *bad_set[] = { "sweep", cli_quickstart(), "--set", "nokey", NULL };
	const char *bad_policy[] = { "sweep", cli_quickstart(), "--policy", "nope", NULL };
	const char *bad_jobs[] = { "sweep", cli_quickstart(), "-j", "0", NULL };
	const char *no_scenario[] = { "sweep", NULL };
	struct cli_out a = cli_run(bad_seeds), b = cli_run(bad_set), c = cli_run(bad_policy), d = cli_run(bad_jobs),
		   e = cli_run(no_scenario);

	ck_assert_int_eq(a.status, 2);
	ck_assert_msg(strstr(a.err, "5..1"), "stderr: %s", a.err);
	ck_assert_int_eq(b.status, 2);
	ck_assert_msg(strstr(b.err, "nokey"), "stderr: %s", b.err);
	ck_assert_int_eq(c.status, 2);
	ck_assert_msg(strstr(c.err, "nope"), "stderr: %s", c.err);
	ck_assert_int_eq(d.status, 2);
	ck_assert_int_eq(e.status, 2);
	cli_out_free(&a);
	cli_out_free(&b);
	cli_out_free(&c);
	cli_out_free(&d);
	cli_out_free(&e);
}
END_TEST

/* Started by mpirun or srun as one of several ranks, a sweep without --mpi refuses. */
START_TEST(test_sweep_ranks_without_mpi_exit_2)
{
	const char *args[] = { "sweep", cli_quickstart(), "--scale", "1/64", NULL };
	struct cli_out o;

	ck_assert_int_eq(setenv("OMPI_COMM_WORLD_SIZE", "4", 1), 0);
	o = cli_run(args);
	unsetenv("OMPI_COMM_WORLD_SIZE");
	ck_assert_msg(o.status == 2, "status %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.err, "one of 4 MPI ranks without --mpi"), "stderr: %s", o.err);
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);
}
END_TEST

#ifndef MMEMU_HAVE_MPI
/* Built without MPI (-Dmpi=disabled or no libopenmpi-dev), --mpi says so. */
START_TEST(test_sweep_mpi_not_built_exit_2)
{
	const char *args[] = { "sweep", cli_quickstart(), "--scale", "1/64", "--mpi", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 2, "status %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.err, "built without MPI"), "stderr: %s", o.err);
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);
}
END_TEST
#endif

/*
 * A sweep compares each policy with the first policy of the same --set
 * values, never across limits; the text puts the standard deviation beside
 * each mean.
 */
START_TEST(test_sweep_compares_within_values)
{
	const char *json[] = { "sweep", cli_quickstart(), "--policy", "classic,mglru-budget",
			       "--set", "memcg.app.max=300M,6G", "--seeds", "1..2", "--scale", "1/64",
			       "-j", "2", "--format", "json", NULL };
	const char *text[] = { "sweep", cli_quickstart(), "--policy", "classic,mglru-budget",
			       "--set", "memcg.app.max=300M,6G", "--seeds", "1..2", "--scale", "1/64",
			       "-j", "2", NULL };
	struct cli_out j = cli_run(json), t = cli_run(text);
	json_error_t e;
	json_t *doc, *groups;
	/* columns: classic 300M, classic 6G, mglru-budget 300M, mglru-budget 6G */
	static const int want[4] = { -1, -1, 0, 1 };

	ck_assert_msg(j.status == 0, "%s", j.err);
	doc = json_loads(j.out, 0, &e);
	ck_assert_msg(doc, "%s", e.text);
	groups = json_object_get(doc, "groups");
	ck_assert_int_eq(json_array_size(groups), 4);
	for (int c = 0; c < 4; c++) {
		json_t *m = json_array_get(json_object_get(json_array_get(groups, c), "metrics"), 0);
		json_t *with = json_object_get(m, "compared_with");

		if (want[c] < 0)
			ck_assert_msg(!with && !json_object_get(m, "change"), "column %d compared", c);
		else
			ck_assert_msg(with && json_integer_value(with) == want[c],
				      "column %d not compared with %d", c, want[c]);
	}
	json_decref(doc);
	ck_assert_msg(t.status == 0, "%s", t.err);
	ck_assert_msg(strstr(t.out, " ±") && strstr(t.out, "± the sample standard deviation over seeds"),
		      "%s", t.out);
	cli_out_free(&j);
	cli_out_free(&t);
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("sweep");

	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, test_sweep_2x3x2);
	tcase_add_test(tc, test_sweep_bad_value_fails_alone);
	tcase_add_test(tc, test_sweep_timeout);
	tcase_add_test(tc, test_sweep_compares_within_values);
	tcase_add_test(tc, test_sweep_deterministic);
	tcase_add_test(tc, test_sweep_bad_options_exit_2);
	tcase_add_test(tc, test_sweep_ranks_without_mpi_exit_2);
#ifndef MMEMU_HAVE_MPI
	tcase_add_test(tc, test_sweep_mpi_not_built_exit_2);
#endif
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sweep_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
