/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * One result, every view ($MMEMU): for every shipped scenario at scale
 * 1/64 (200 ms of it), the set of (group, key) pairs of `report --all` (text), `--format
 * json` and `--format csv` of the same saved runs is the same, every line
 * of the text fits in 100 columns, and the memcgs a workload makes
 * (chrome-node's servers, app-launch's apps) are groups like the others.
 * Then the cover-letter table itself: labelled columns, the headline first,
 * unchanged rows left out unless --all, bucket percentiles marked, the
 * effective size of a scaled --set value, an OOM kill in the table and the
 * sweep summary, and the mean over seeds with Welch's '*'.
 */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "tests/cli.h"

/* ---- a set of "group\tkey" strings ---- */

struct pairs {
	char **p;
	size_t n, cap;
};

static void pairs_add(struct pairs *s, const char *group, const char *key)
{
	char *x;

	if (!strcmp(group, "run"))	/* sim_seconds, host_seconds: the run's, not a group */
		return;
	ck_assert_int_gt(asprintf(&x, "%s\t%s", group, key), 0);
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->p[i], x)) {
			free(x);
			return;
		}
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->p = realloc(s->p, s->cap * sizeof(*s->p));
		ck_assert_ptr_nonnull(s->p);
	}
	s->p[s->n++] = x;
}

static bool pairs_has(const struct pairs *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->p[i], x))
			return true;
	return false;
}

static void pairs_free(struct pairs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->p[i]);
	free(s->p);
}

/* a and b hold the same pairs; the first missing one named */
static void pairs_same(const struct pairs *a, const char *an, const struct pairs *b,
		       const char *bn, const char *scenario)
{
	for (size_t i = 0; i < a->n; i++)
		ck_assert_msg(pairs_has(b, a->p[i]), "%s: %s has '%s', %s has not", scenario, an,
			      a->p[i], bn);
	for (size_t i = 0; i < b->n; i++)
		ck_assert_msg(pairs_has(a, b->p[i]), "%s: %s has '%s', %s has not", scenario, bn,
			      b->p[i], an);
}

/* ---- the three views, read back ---- */

/* Text: a group's name on a line of its own, then its rows, indented, key first. */
static void text_pairs(const char *text, struct pairs *s, const char *scenario)
{
	char group[256] = "";

	for (const char *p = text, *nl; *p; p = nl + 1) {
		size_t n;

		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		n = (size_t)(nl - p);
		ck_assert_msg(n <= 100, "%s: a line of %zu columns: %.*s", scenario, n, (int)n, p);
		if (!n)
			continue;
		if (p[0] != ' ') {
			snprintf(group, sizeof(group), "%.*s", (int)n, p);
		} else if (n > 2 && p[1] == ' ' && p[2] != ' ') {
			char key[256];

			snprintf(key, sizeof(key), "%.*s", (int)strcspn(p + 2, " \n"), p + 2);
			pairs_add(s, group, key);
		}
	}
}

static void object_pairs(json_t *o, const char *group, struct pairs *s)
{
	const char *k;
	json_t *v;

	ck_assert_msg(json_is_object(o), "group %s is not an object", group);
	json_object_foreach(o, k, v) {
		ck_assert_msg(json_is_number(v), "%s.%s is not a number", group, k);
		pairs_add(s, group, k);
	}
}

/* JSON, by the layout tools/output.h documents. */
static void json_pairs(const char *text, struct pairs *s)
{
	static const char *const fields[] = { "policy", "options", "seed", "kernel", "sim_seconds",
					      "host_seconds", "lru_gen_samples", "lru_gen_dump" };
	json_error_t e;
	json_t *root = json_loads(text, 0, &e), *runs, *run;
	size_t i;

	ck_assert_msg(root, "not JSON: %s (line %d)", e.text, e.line);
	ck_assert_int_eq(json_integer_value(json_object_get(root, "schema_version")), 2);
	runs = json_object_get(root, "runs");
	ck_assert(json_is_array(runs) && json_array_size(runs) > 0);
	json_array_foreach(runs, i, run) {
		const char *k;
		json_t *v;

		json_object_foreach(run, k, v) {
			const char *name, *sub;
			json_t *o, *x;
			bool field = false;
			char group[512];
			size_t n;

			for (size_t f = 0; f < sizeof(fields) / sizeof(fields[0]); f++)
				field |= !strcmp(k, fields[f]);
			if (field)
				continue;
			if (!strcmp(k, "nodes")) {
				json_array_foreach(v, n, o) {
					if (json_is_null(o))
						continue;
					snprintf(group, sizeof(group), "node.%zu", n);
					object_pairs(o, group, s);
				}
			} else if (!strcmp(k, "memcgs")) {
				json_object_foreach(v, name, o) {
					snprintf(group, sizeof(group), "memcg.%s", name);
					json_object_foreach(o, sub, x) {
						char file[600];

						if (!json_is_object(x)) {
							pairs_add(s, group, sub);
							continue;
						}
						snprintf(file, sizeof(file), "%s.%s", group, sub);
						object_pairs(x, file, s);
					}
				}
			} else if (!strcmp(k, "workloads") || !strcmp(k, "devices")) {
				json_object_foreach(v, name, o) {
					snprintf(group, sizeof(group), "%s.%s",
						 !strcmp(k, "workloads") ? "workload" : "device", name);
					object_pairs(o, group, s);
				}
			} else {
				object_pairs(v, k, s);	/* vmstat, swap, ... */
			}
		}
	}
	json_decref(root);
}

/* One CSV field at *p (RFC 4180 quotes), into buf; *p moves past its comma. */
static void csv_field(const char **p, char *buf, size_t len)
{
	size_t n = 0;

	if (**p == '"') {
		for ((*p)++; **p; (*p)++) {
			if (**p == '"' && (*p)[1] == '"')
				(*p)++;
			else if (**p == '"')
				break;
			if (n + 1 < len)
				buf[n++] = **p;
		}
		ck_assert_int_eq(**p, '"');
		(*p)++;
	} else {
		for (; **p && **p != ',' && **p != '\n'; (*p)++)
			if (n + 1 < len)
				buf[n++] = **p;
	}
	buf[n] = '\0';
	if (**p == ',')
		(*p)++;
}

static void csv_pairs(const char *text, struct pairs *s)
{
	const char *p = strchr(text, '\n');

	ck_assert_msg(!strncmp(text, "scenario,scale,policy,options,seed,group,key,value\n", 51),
		      "%.80s", text);
	for (p++; *p; p++) {
		char f[8][512];

		for (int i = 0; i < 8; i++)
			csv_field(&p, f[i], sizeof(f[i]));
		ck_assert_int_eq(*p, '\n');
		pairs_add(s, f[5], f[6]);
	}
}

/* ---- every shipped scenario ---- */

static int count(const char *s, const char *needle)
{
	int n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(getdelim(&text, &cap, '\0', f), 0);
	fclose(f);
	return text;
}

static void check_scenario(const char *path, const char *name)
{
	char *pb = cli_temp_file(".pb"), *ini = read_file(path);
	/* 200 ms simulated are enough: the groups and keys do not depend on the run's length */
	const char *run_args[] = { "run", path, "--policy", "classic,mglru-budget", "--scale", "1/64",
				   "--sample", "0", "--set", "machine.duration=200ms", "--out", pb,
				   NULL };
	const char *text_args[] = { "report", pb, "--all", NULL };
	const char *short_args[] = { "report", pb, NULL };
	const char *json_args[] = { "report", pb, "--format", "json", NULL };
	const char *csv_args[] = { "report", pb, "--format", "csv", NULL };
	struct cli_out r = cli_run(run_args), t, sh, j, c;
	struct pairs ts = { 0 }, js = { 0 }, cs = { 0 }, unused = { 0 };
	int memcg_sections = count(ini, "\n[memcg."), memcg_groups = 0;

	ck_assert_msg(r.status == 0, "%s: run: %d: %s", name, r.status, r.err);
	t = cli_run(text_args);
	sh = cli_run(short_args);
	j = cli_run(json_args);
	c = cli_run(csv_args);
	ck_assert_msg(t.status == 0 && sh.status == 0 && j.status == 0 && c.status == 0,
		      "%s: report: %s%s%s", name, t.err, j.err, c.err);
	text_pairs(t.out, &ts, name);
	text_pairs(sh.out, &unused, name);	/* the short table fits in 100 columns too */
	json_pairs(j.out, &js);
	csv_pairs(c.out, &cs);
	ck_assert_msg(cs.n > 50, "%s: %zu pairs", name, cs.n);
	pairs_same(&ts, "text --all", &js, "json", name);
	pairs_same(&cs, "csv", &js, "json", name);
	/* generated memcgs are groups too: more memcg groups than [memcg.*] sections */
	for (size_t i = 0; i < cs.n; i++)
		memcg_groups += !strncmp(cs.p[i], "memcg.", 6) && strstr(cs.p[i], "\tmemory.current");
	if (!strcmp(name, "chrome-node") || !strcmp(name, "app-launch"))
		ck_assert_msg(memcg_groups > memcg_sections, "%s: %d memcg groups, %d sections", name,
			      memcg_groups, memcg_sections);
	else
		ck_assert_msg(memcg_groups == memcg_sections, "%s: %d memcg groups, %d sections",
			      name, memcg_groups, memcg_sections);
	pairs_free(&ts);
	pairs_free(&js);
	pairs_free(&cs);
	pairs_free(&unused);
	cli_out_free(&r);
	cli_out_free(&t);
	cli_out_free(&sh);
	cli_out_free(&j);
	cli_out_free(&c);
	free(ini);
	cli_remove_temp(pb);
}

START_TEST(test_every_scenario_every_view)
{
	char dir[4096];
	DIR *d;
	struct dirent *e;
	int nr = 0;

	snprintf(dir, sizeof(dir), "%s/scenarios", harness_srcdir());
	d = opendir(dir);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char path[8192], name[256];

		if (n < 5 || strcmp(e->d_name + n - 4, ".ini"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		snprintf(name, sizeof(name), "%.*s", (int)(n - 4), e->d_name);
		check_scenario(path, name);
		nr++;
	}
	closedir(d);
	ck_assert_int_ge(nr, 15);
}
END_TEST

/* The swap group (zram's counters) is in every view: it was missing from JSON. */
START_TEST(test_swap_group_in_json)
{
	const char *args[] = { "run", harness_src_path("scenarios/swap-zram.ini"), "--policy",
			       "classic", "--scale", "1/64", "--format", "json", NULL };
	struct cli_out o = cli_run(args);
	json_error_t e;
	json_t *root, *swap;

	ck_assert_msg(o.status == 0, "%s", o.err);
	root = json_loads(o.out, 0, &e);
	ck_assert_ptr_nonnull(root);
	swap = json_object_get(json_array_get(json_object_get(root, "runs"), 0), "swap");
	ck_assert(json_is_object(swap));
	ck_assert(json_is_integer(json_object_get(swap, "zram_stored_pages")));
	json_decref(root);
	cli_out_free(&o);
}
END_TEST

/* ---- the table ---- */

/* Where line (a whole line, or its start) is in text; -1 when it is not. */
static long line_at(const char *text, const char *start)
{
	size_t n = strlen(start);

	for (const char *p = text; p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, start, n))
			return p - text;
	return -1;
}

START_TEST(test_table_layout)
{
	const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", NULL };
	const char *all_args[] = { "run", cli_quickstart(), "--scale", "1/32", "--all", NULL };
	struct cli_out o = cli_run(args), a = cli_run(all_args);
	long tput, lat, pgpgin, refault, pgscan, pgsteal, rest;

	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_msg(a.status == 0, "%s", a.err);
	/* labelled columns: each policy's value, its change beside it */
	ck_assert_msg(line_at(o.out, "policy ") >= 0, "%.3000s", o.out);
	{
		const char *h = o.out + line_at(o.out, "policy ");

		ck_assert_msg(strstr(h, "classic") < strstr(h, "mglru-old") &&
			      strstr(h, "mglru-old") < strstr(h, "change") &&
			      strstr(h, "change") < strstr(h, "mglru-budget"), "%.200s", h);
	}
	/* the headline first: throughput and latency, I/O, refaults, scan and steal */
	tput = line_at(o.out, "  throughput_ops_s ");
	lat = line_at(o.out, "  lat_mean_us ");
	pgpgin = line_at(o.out, "  pgpgin ");
	refault = line_at(o.out, "  workingset_refault_file ");
	pgscan = line_at(o.out, "  pgscan_file ");
	pgsteal = line_at(o.out, "  pgsteal_file ");
	rest = line_at(o.out, "  nr_free_pages ");
	ck_assert_msg(tput >= 0 && tput < lat && lat < pgpgin && pgpgin < refault &&
		      refault < pgscan && pgscan < pgsteal && pgsteal < rest, "%.3000s", o.out);
	ck_assert_int_lt(line_at(o.out, "workload.reader"), tput);
	/* percentiles from buckets are marked, and the mark explained */
	ck_assert_int_ge(line_at(o.out, "  lat_p99_us ~ "), 0);
	ck_assert_int_ge(line_at(o.out, "~ from histogram buckets"), 0);
	/* ops is 500000 under every policy: left out, but there with --all */
	ck_assert_int_lt(line_at(o.out, "  ops "), 0);
	ck_assert_int_ge(line_at(o.out, "rows that do not change are left out"), 0);
	ck_assert_int_ge(line_at(a.out, "  ops "), 0);
	ck_assert_int_lt(line_at(a.out, "rows that do not change"), 0);
	/* the limit, effective and as written */
	ck_assert_int_ge(line_at(o.out, "memcg app: memory.max 192M (6G at scale 1/32)"), 0);
	cli_out_free(&o);
	cli_out_free(&a);
}
END_TEST

/*
 * The README's old sweep example: memory.max=300M at scale 1/8 is 37.5M,
 * and the heap is OOM-killed. The table says both, and shows the kill.
 */
START_TEST(test_scaled_set_and_oom)
{
	const char *args[] = { "run", cli_quickstart(), "--policy", "classic", "--set",
			       "memcg.app.max=300M", NULL };
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic", "--set",
				     "memcg.app.max=300M,6G", "--seeds", "1", "--scale", "1/32", NULL };
	struct cli_out o = cli_run(args), s;

	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_msg(line_at(o.out, "memcg app: memory.max 37.5M (300M at scale 1/8)") >= 0, "%s",
		      o.out);
	ck_assert_msg(line_at(o.out, "OOM: workload heap was killed under classic") >= 0, "%s",
		      o.out);
	ck_assert_msg(line_at(o.out, "  oom_killed ") >= 0 && line_at(o.out, "  oom_kill ") >= 0,
		      "%.3000s", o.out);
	cli_out_free(&o);
	s = cli_run(sweep_args);
	ck_assert_msg(s.status == 0, "%s", s.err);
	ck_assert_msg(line_at(s.out, "OOM: workload heap was killed under classic "
				     "memcg.app.max=300M") >= 0, "%.3000s", s.out);
	ck_assert_msg(!strstr(s.out, "runs under classic memcg.app.max=6G"), "%.3000s", s.out);
	ck_assert_msg(line_at(s.out, "  oom_killed ") >= 0, "%.3000s", s.out);
	ck_assert_msg(line_at(s.out, "memcg app: memory.max 9.375M, 192M (300M, 6G at scale 1/32)") >=
			      0, "%.3000s", s.out);
	cli_out_free(&s);
}
END_TEST

/*
 * Two limits of one memcg share its line, each with its value as written:
 * "memcg app: memory.max ..., memory.high ..." (the second used to print
 * as ", : memory.high").
 */
START_TEST(test_two_limits_one_line)
{
	const char *args[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/32",
			       "--set", "memcg.app.high=3G", NULL };
	struct cli_out o = cli_run(args);
	const char *want = "memcg app: memory.max 192M (6G at scale 1/32), memory.high 96M "
			   "(3G at scale 1/32)\n";

	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_msg(strstr(o.out, want), "'%s' not in:\n%.2000s", want, o.out);
	cli_out_free(&o);
}
END_TEST

/*
 * run --seeds: the mean over seeds per policy; a limit twice as large
 * changes memory.max in every seed alike, which Welch's test marks.
 */
START_TEST(test_seeds_table)
{
	char *pb = cli_temp_file(".pb");
	const char *args[] = { "run", cli_quickstart(), "--policy", "classic,mglru-budget", "--seeds",
			       "1..3", "--scale", "1/64", "--out", pb, NULL };
	const char *json_args[] = { "report", pb, "--format", "json", NULL };
	const char *sum_args[] = { "report", pb, "--summary", NULL };
	struct cli_out o = cli_run(args), j, m;
	json_error_t e;
	json_t *root;

	ck_assert_msg(o.status == 0, "%s", o.err);
	ck_assert_msg(strstr(o.out, "6 runs in 2 groups"), "%.3000s", o.out);
	ck_assert_msg(line_at(o.out, "  classic: seeds 1,2,3") >= 0, "%.3000s", o.out);
	ck_assert_msg(line_at(o.out, "seeds ") >= 0, "%.3000s", o.out);
	/* classic and mglru-budget differ in pgscan_file in every seed alike: significant */
	{
		long at = line_at(o.out, "  pgscan_file ");

		ck_assert_int_ge(at, 0);
		ck_assert_msg(strchr(o.out + at, '*') && strchr(o.out + at, '*') <
			      strchr(o.out + at, '\n'), "%.100s", o.out + at);
	}
	ck_assert_int_ge(line_at(o.out, "* the difference from the first column is significant"), 0);
	/* all six runs are saved, and report --summary prints the same table */
	j = cli_run(json_args);
	root = json_loads(j.out, 0, &e);
	ck_assert_ptr_nonnull(root);
	ck_assert_int_eq(json_array_size(json_object_get(root, "runs")), 6);
	json_decref(root);
	m = cli_run(sum_args);
	ck_assert_str_eq(m.out, o.out);
	cli_out_free(&o);
	cli_out_free(&j);
	cli_out_free(&m);
	cli_remove_temp(pb);
}
END_TEST

/* The per-run CSV names the --set options, so sweep rows tell apart. */
START_TEST(test_csv_options)
{
	char *pb = cli_temp_file(".pb");
	const char *sweep_args[] = { "sweep", cli_quickstart(), "--policy", "classic", "--set",
				     "memcg.app.max=4G,6G", "--scale", "1/64", "-j", "2", "--out", pb,
				     NULL };
	const char *csv_args[] = { "report", pb, "--format", "csv", NULL };
	struct cli_out s = cli_run(sweep_args), c;

	ck_assert_msg(s.status == 0, "%s", s.err);
	c = cli_run(csv_args);
	ck_assert_int_eq(c.status, 0);
	ck_assert_ptr_nonnull(strstr(c.out, ",classic,memcg.app.max=4G,1,vmstat,pgpgin,"));
	ck_assert_ptr_nonnull(strstr(c.out, ",classic,memcg.app.max=6G,1,vmstat,pgpgin,"));
	cli_out_free(&s);
	cli_out_free(&c);
	cli_remove_temp(pb);
}
END_TEST

static Suite *parity_suite(void)
{
	Suite *s = suite_create("parity");
	TCase *tc = tcase_create("views");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_every_scenario_every_view);
	tcase_add_test(tc, test_swap_group_in_json);
	suite_add_tcase(s, tc);

	tc = tcase_create("table");
	tcase_set_timeout(tc, 90);
	tcase_add_test(tc, test_table_layout);
	tcase_add_test(tc, test_scaled_set_and_oom);
	tcase_add_test(tc, test_two_limits_one_line);
	tcase_add_test(tc, test_seeds_table);
	tcase_add_test(tc, test_csv_options);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(parity_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
