/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Input at the edges, through $MMEMU (issue 13): names and options of any
 * length kept whole from the file to the results, and bad scenarios and
 * traces ending with status 2 and a message naming the file, line and key,
 * before any simulation starts.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "tests/cli.h"

/* A string of n copies of c (malloc'ed). */
static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	ck_assert_ptr_nonnull(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static json_t *parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	ck_assert_msg(json_is_object(j), "not JSON: %s: %.200s", e.text, text);
	return j;
}

/*
 * Two devices, memcgs and workloads whose 47-character names differ in the
 * last one: the model cut device names at 31 characters and libinih
 * section names at 49, so they merged. Each keeps its own results.
 */
START_TEST(test_long_names_stay_apart)
{
	char *n = repeat('d', 46), ini[2048], *path;
	const char *args[] = { "run", NULL, "--policy", "classic", "--format", "json", NULL };
	struct cli_out o;
	json_t *j, *run;

	snprintf(ini, sizeof(ini),
		 "[machine]\nnodes = 1\nnode_memory = 64M\nduration = 20ms\n"
		 "[device.%s1]\ntype = nvme\n[device.%s2]\ntype = hdd\n"
		 "[memcg.%s1]\nmax = 32M\n[memcg.%s2]\nmax = 24M\n"
		 "[workload.%s1]\ntype = file-zipf\ndevice = %s1\nmemcg = %s1\nsize = 8M\n"
		 "threads = 2\nops = 1000\n"
		 "[workload.%s2]\ntype = file-zipf\ndevice = %s2\nmemcg = %s2\nsize = 8M\n"
		 "threads = 2\nops = 1000\n", n, n, n, n, n, n, n, n, n, n);
	path = harness_write_temp(ini);
	args[1] = path;
	o = cli_run(args);
	ck_assert_msg(o.status == 0, "%s", o.err);
	j = parse(o.out);
	run = json_array_get(json_object_get(j, "runs"), 0);
	for (int k = 1; k <= 2; k++) {
		char name[64], memcg[64];

		snprintf(name, sizeof(name), "%s%d", n, k);
		snprintf(memcg, sizeof(memcg), "/%s%d", n, k);
		ck_assert_msg(json_object_get(json_object_get(run, "devices"), name), "device %d", k);
		ck_assert_msg(json_object_get(json_object_get(run, "workloads"), name),
			      "workload %d", k);
		ck_assert_msg(json_object_get(json_object_get(run, "memcgs"), name) ||
			      json_object_get(json_object_get(run, "memcgs"), memcg), "memcg %d", k);
	}
	json_decref(j);
	cli_out_free(&o);
	unlink(path);
	free(path);
	free(n);
}
END_TEST

/* Two sweep values that differ after 255 characters stay two groups (the options were cut). */
START_TEST(test_sweep_long_options_two_groups)
{
	char *zeros = repeat('0', 280), *set, *path;
	const char *args[] = { "sweep", NULL, "--policy", "classic", "--set", NULL, "-j", "1",
			       "--format", "json", NULL };
	struct cli_out o;
	json_t *j, *groups;

	ck_assert_int_gt(asprintf(&set, "workload.w.ops=%s500,%s900", zeros, zeros), 0);
	path = harness_write_temp("[machine]\nnodes = 1\nnode_memory = 64M\nduration = 20ms\n"
				  "[workload.w]\ntype = anon\nsize = 8M\nops = 1000\n");
	args[1] = path;
	args[5] = set;
	o = cli_run(args);
	ck_assert_msg(o.status == 0, "%s", o.err);
	j = parse(o.out);
	groups = json_object_get(j, "groups");
	ck_assert_int_eq(json_array_size(groups), 2);
	ck_assert_str_ne(json_string_value(json_object_get(json_array_get(groups, 0), "options")),
			 json_string_value(json_object_get(json_array_get(groups, 1), "options")));
	json_decref(j);
	cli_out_free(&o);
	unlink(path);
	free(path);
	free(set);
	free(zeros);
}
END_TEST

/* Each bad scenario: status 2, nothing on stdout, the message naming file, line and key. */
START_TEST(test_bad_scenarios_exit_2)
{
	static const struct {
		const char *tail;	/* after the base text, from line 8 */
		const char *says[3];
	} bad[] = {
		{ "[workload.big]\ntype = anon\nsize = 100000T\nops = 5\n",
		  { "line 10", "size", "2^32 pages" } },
		{ "ops = 5\n", { "line 8", "ops", "line 7" } },
		{ "[workload.w]\nops = 5\n", { "line 8", "[workload.w]", "line 4" } },
		{ "[node.5]\ncpus = 2\n", { "line 8", "[node.5]", "no such node" } },
		{ "   2000\n", { "line 8", "not a section", NULL } },
		{ "[memcg.a] max = 1G\n", { "line 8", "[memcg.a]", "text after" } },
		{ "trace = /dev/zero\n", { "line 8", "trace", "not a regular file" } },
		/* a FIFO: refused, not opened and waited on forever */
		{ "trace = FIFO\n", { "line 8", "trace", "not a regular file (a FIFO)" } },
	};
	char *fifo = harness_write_temp("");
	static const char base[] = "[machine]\nnodes = 1\nnode_memory = 64M\n"	/* 1-3 */
				   "[workload.w]\ntype = anon\nsize = 8M\nops = 1000\n";	/* 4-7 */

	unlink(fifo);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[1024], *path;
		const char *args[] = { "run", NULL, "--policy", "classic", NULL };
		struct cli_out o;

		snprintf(text, sizeof(text), "%s%s", base, bad[i].tail);
		if (strstr(bad[i].tail, "trace"))	/* a trace workload: type on line 5 */
			snprintf(text, sizeof(text), "[machine]\nnodes = 1\nnode_memory = 64M\n"
				 "[workload.w]\ntype = trace\ntarget = anon\nsize = 8M\n%s",
				 strstr(bad[i].tail, "FIFO") ? "" : bad[i].tail);
		if (strstr(bad[i].tail, "FIFO"))
			snprintf(text + strlen(text), sizeof(text) - strlen(text), "trace = %s\n",
				 fifo);
		path = harness_write_temp(text);
		args[1] = path;
		o = cli_run(args);
		ck_assert_msg(o.status == 2, "case %zu: status %d: %s", i, o.status, o.err);
		ck_assert_msg(!o.out[0], "case %zu: printed %s", i, o.out);
		ck_assert_msg(strstr(o.err, path), "case %zu: %s", i, o.err);
		for (int k = 0; k < 3 && bad[i].says[k]; k++)
			ck_assert_msg(strstr(o.err, bad[i].says[k]), "case %zu: '%s' does not say '%s'",
				      i, o.err, bad[i].says[k]);
		cli_out_free(&o);
		unlink(path);
		free(path);
	}
	unlink(fifo);
	free(fifo);
}
END_TEST

/* A CSV trace with a negative object is refused at its line, through the scenario's key. */
START_TEST(test_bad_trace_exit_2)
{
	char *trace = harness_write_temp("1,5\n2,-5\n"), ini[1024], *path;
	const char *args[] = { "run", NULL, "--policy", "classic", NULL };
	struct cli_out o;

	snprintf(ini, sizeof(ini), "[machine]\nnodes = 1\nnode_memory = 64M\n[workload.w]\n"
		 "type = trace\ntarget = anon\nsize = 8M\ntrace_format = csv\ntrace = %s\n", trace);
	path = harness_write_temp(ini);
	args[1] = path;
	o = cli_run(args);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "line 9") && strstr(o.err, "trace") && strstr(o.err, "line 2") &&
		      strstr(o.err, "'-5'"), "%s", o.err);
	cli_out_free(&o);
	unlink(path);
	unlink(trace);
	free(path);
	free(trace);
}
END_TEST

/* Lists with an empty item and a key swept twice: status 2 before anything runs. */
START_TEST(test_bad_lists_exit_2)
{
	static const char *const cases[][8] = {
		{ "run", NULL, "--policy", "classic,,mglru-budget", NULL },
		{ "run", NULL, "--policy", ",classic", NULL },
		{ "sweep", NULL, "--policy", "classic,", NULL },
		{ "sweep", NULL, "--set", "workload.reader.ops=1,2", "--set", "workload.reader.ops=3",
		  NULL },
		/* a misspelt memcg would be a new, empty one, the limit set on nothing */
		{ "run", NULL, "--set", "memcg.ap.max=1G", NULL },
		{ "sweep", NULL, "--set", "workload.raeder.ops=1,2", NULL },
		/* a value no run can load is bad input before any run starts */
		{ "sweep", NULL, "--set", "memcg.app.max=1G,", NULL },
		{ "sweep", NULL, "--set", "memcg.app.max=1G,lots", NULL },
	};
	static const char *const says[] = { "an empty name", "an empty name", "an empty name",
					    "swept by another", "has no [memcg.ap]",
					    "has no [workload.raeder]", "[memcg.app] max: '' is not",
					    "[memcg.app] max: 'lots' is not" };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[8];
		struct cli_out o;

		memcpy(args, cases[i], sizeof(args));
		args[1] = cli_quickstart();
		o = cli_run(args);
		ck_assert_msg(o.status == 2, "case %zu: status %d", i, o.status);
		ck_assert_msg(strstr(o.err, says[i]), "case %zu: %s", i, o.err);
		cli_out_free(&o);
	}
}
END_TEST

static Suite *input_suite(void)
{
	Suite *s = suite_create("input");
	TCase *tc = tcase_create("input");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_long_names_stay_apart);
	tcase_add_test(tc, test_sweep_long_options_two_groups);
	tcase_add_test(tc, test_bad_scenarios_exit_2);
	tcase_add_test(tc, test_bad_trace_exit_2);
	tcase_add_test(tc, test_bad_lists_exit_2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(input_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
