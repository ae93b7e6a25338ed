/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The time series a run saves ($MMEMU run --format json: lru_gen_samples):
 * the last row is the run's end and agrees with the printed results (per
 * memcg memory.stat pgscan, pgsteal, refaults, memory.events oom_kill), an
 * OOM kill is a row of kind "oom" when it happens, and the generation rows
 * at the end are the final --dump lru_gen, ages included.
 */
#include <check.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "harness.h"
#include "tests/cli.h"

/* Runs `run SCENARIO --scale SCALE --policy P --format json --dump lru_gen`, parsed. */
static json_t *run_json(const char *scenario, const char *scale, const char *policies)
{
	char path[512];
	const char *args[] = { "run", path, "--scale", scale, "--policy", policies, "--format",
			       "json", "--dump", "lru_gen", NULL };
	struct cli_out o;
	json_error_t e;
	json_t *j;

	snprintf(path, sizeof(path), "%s", harness_src_path(scenario));
	o = cli_run(args);
	ck_assert_msg(o.status == 0, "run %s: status %d: %s", scenario, o.status, o.err);
	j = json_loads(o.out, 0, &e);
	ck_assert_msg(json_is_object(j), "run %s: not JSON: %s", scenario, e.text);
	cli_out_free(&o);
	return j;
}

static uint64_t u64(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	ck_assert_msg(json_is_number(v), "no number '%s'", key);
	return (uint64_t)llround(json_number_value(v));
}

static uint64_t u64_at(const json_t *a, size_t i)
{
	ck_assert_msg(json_is_integer(json_array_get(a, i)), "no integer at [%zu]", i);
	return (uint64_t)json_integer_value(json_array_get(a, i));
}

/* The last row of a kind, or NULL. */
static const json_t *last_row(const json_t *samples, const char *kind)
{
	const json_t *last = NULL, *s;
	size_t i;

	json_array_foreach(samples, i, s)
		if (!strcmp(json_string_value(json_object_get(s, "kind")), kind))
			last = s;
	return last;
}

/* Is memcg a (a sample's "/x") in the subtree of m, by the row's memcg_parent? */
static bool in_subtree(const json_t *stats, const char *a, const char *m)
{
	const json_t *parent = json_object_get(stats, "memcg_parent");

	for (int n = 0; a && n < 1000; n++) {
		if (!strcmp(a, m))
			return true;
		a = json_string_value(json_object_get(parent, a));
	}
	return false;
}

/*
 * One run: its last stats row is at its end and equals its memcgs' printed
 * counters; its oom rows are what memory.events oom_kill counts. Returns
 * the run's pgscan over its memcgs and its OOM kills, so that a caller can
 * tell the checks compared something.
 */
static void check_run(const json_t *run, uint64_t *pgscan, uint64_t *ooms)
{
	const json_t *samples = json_object_get(run, "lru_gen_samples");
	const json_t *stats = last_row(samples, "stats"), *memcgs = json_object_get(run, "memcgs");
	const char *policy = json_string_value(json_object_get(run, "policy"));
	static const char *const stat_keys[] = { "pgscan", "pgsteal", "workingset_refault_anon",
						 "workingset_refault_file" };
	const char *name;
	const json_t *g;

	ck_assert_msg(stats, "%s: no stats row", policy);
	ck_assert_msg(fabs(json_number_value(json_object_get(stats, "t")) -
			   json_number_value(json_object_get(run, "sim_seconds"))) < 1e-6,
		      "%s: the last stats row is not at the end", policy);
	json_object_foreach((json_t *)memcgs, name, g) {
		char path[256];
		const json_t *ms, *me, *s;
		uint64_t nr_oom = 0;
		size_t i;

		snprintf(path, sizeof(path), "/%s", name);
		ms = json_object_get(json_object_get(stats, "memory_stat"), path);
		me = json_object_get(json_object_get(stats, "memory_events"), path);
		ck_assert_msg(ms && me, "%s: memcg %s has no per-memcg series", policy, path);
		for (size_t k = 0; k < sizeof(stat_keys) / sizeof(stat_keys[0]); k++)
			ck_assert_msg(u64(ms, stat_keys[k]) ==
				      u64(json_object_get(g, "memory.stat"), stat_keys[k]),
				      "%s: memcg %s: %s %" PRIu64 " in the last row, %" PRIu64
				      " in memory.stat", policy, path, stat_keys[k], u64(ms, stat_keys[k]),
				      u64(json_object_get(g, "memory.stat"), stat_keys[k]));
		ck_assert_uint_eq(u64(me, "oom_kill"), u64(json_object_get(g, "memory.events"),
							   "oom_kill"));
		json_array_foreach(samples, i, s) {
			if (strcmp(json_string_value(json_object_get(s, "kind")), "oom"))
				continue;
			ck_assert_str_eq(json_string_value(json_object_get(s, "constraint")),
					 "CONSTRAINT_MEMCG");
			ck_assert_ptr_nonnull(json_string_value(json_object_get(s, "task")));
			if (in_subtree(stats, json_string_value(json_object_get(s, "task_memcg")),
				       path))
				nr_oom++;
		}
		ck_assert_msg(nr_oom == u64(me, "oom_kill"), "%s: memcg %s: %" PRIu64
			      " oom rows, memory.events oom_kill %" PRIu64, policy, path, nr_oom,
			      u64(me, "oom_kill"));
		/* the root memcg's children: count each page once */
		if (!strcmp(json_string_value(json_object_get(json_object_get(stats, "memcg_parent"),
							      path)), "/")) {
			*pgscan += u64(ms, "pgscan");
			*ooms += nr_oom;
		}
	}
}

/*
 * The final generation rows, printed as print_state() prints a lruvec
 * (" node %5d", then " seq age_ms anon file" per generation), are in the
 * final --dump lru_gen.
 */
static void check_gens_are_the_dump(const json_t *run, int *nr_checked)
{
	const json_t *samples = json_object_get(run, "lru_gen_samples");
	const char *dump = json_string_value(json_object_get(run, "lru_gen_dump"));
	double end = json_number_value(json_object_get(run, "sim_seconds"));
	const json_t *s;
	size_t i;

	ck_assert_ptr_nonnull(dump);
	json_array_foreach(samples, i, s) {
		const json_t *gens = json_object_get(s, "gens"), *g, *min_seq;
		char block[4096];
		size_t len, j;

		if (!gens || fabs(json_number_value(json_object_get(s, "t")) - end) > 1e-6)
			continue;
		min_seq = json_object_get(s, "min_seq");
		len = (size_t)snprintf(block, sizeof(block), "\n node %5d\n",
				       (int)u64(s, "node"));
		json_array_foreach(gens, j, g) {
			uint64_t seq = u64(g, "seq");
			int64_t anon = (int64_t)json_integer_value(json_object_get(g, "anon"));
			int64_t file = (int64_t)json_integer_value(json_object_get(g, "file"));

			ck_assert_msg(json_object_get(g, "age_ms"), "a generation without age_ms");
			/* print_state()'s clamps: a type's pages below its min_seq print 0 */
			if (seq < u64_at(min_seq, 0) || anon < 0)
				anon = 0;
			if (seq < u64_at(min_seq, 1) || file < 0)
				file = 0;
			len += (size_t)snprintf(block + len, sizeof(block) - len,
						" %10" PRIu64 " %10" PRIu64 " %10" PRId64 " %10" PRId64 "\n",
						seq, u64(g, "age_ms"), anon, file);
			ck_assert_uint_lt(len, sizeof(block));
		}
		ck_assert_msg(strstr(dump, block), "final row not in the dump:\n%s\ndump:\n%s",
			      block, dump);
		(*nr_checked)++;
	}
}

/*
 * Runs the scenario and checks every run's samples against its results;
 * want_ooms: it must OOM-kill. Returns nothing: each check asserts.
 */
static void check_scenario(const char *path, const char *scale, const char *policies,
			   bool want_ooms)
{
	json_t *j = run_json(path, scale, policies);
	const json_t *run;
	uint64_t pgscan = 0, ooms = 0;
	int nr_gens = 0;
	size_t i;

	json_array_foreach(json_object_get(j, "runs"), i, run) {
		check_run(run, &pgscan, &ooms);
		check_gens_are_the_dump(run, &nr_gens);
	}
	ck_assert_msg(pgscan > 0 && (ooms > 0 || !want_ooms), "%s: nothing compared: pgscan %"
		      PRIu64 ", %" PRIu64 " OOM kills", path, pgscan, ooms);
	ck_assert_int_gt(nr_gens, 0);
	json_decref(j);
}

/* dd-throttle at 1/64: mglru-old and mglru-budget OOM-kill dd (memory.max, memcg OOM). */
START_TEST(test_last_row_is_the_result_and_oom_rows)
{
	check_scenario("scenarios/dd-throttle.ini", "1/64", "classic,mglru-old,mglru-budget", true);
}
END_TEST

/* proactive-reclaim at 1/64: a hierarchy (uid_N/uid_N-pid_M); memory.stat is hierarchical. */
START_TEST(test_hierarchy_matches_memory_stat)
{
	check_scenario("scenarios/proactive-reclaim.ini", "1/64", "mglru-budget", false);
}
END_TEST

/* --sample 0: no rows at all, OOM kills included. */
START_TEST(test_sample_0_no_rows)
{
	char path[512];
	const char *args[] = { "run", path, "--scale", "1/64", "--policy", "mglru-old",
			       "--format", "json", "--sample", "0", NULL };
	struct cli_out o;

	snprintf(path, sizeof(path), "%s", harness_src_path("scenarios/dd-throttle.ini"));
	o = cli_run(args);
	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_msg(strstr(o.out, "\"lru_gen_samples\": []") && strstr(o.out, "\"oom_kill\": 1"),
		      "%.2000s", o.out);
	cli_out_free(&o);
}
END_TEST

static Suite *samples_suite(void)
{
	Suite *s = suite_create("samples");
	TCase *tc = tcase_create("samples");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_last_row_is_the_result_and_oom_rows);
	tcase_add_test(tc, test_hierarchy_matches_memory_stat);
	tcase_add_test(tc, test_sample_0_no_rows);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(samples_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
