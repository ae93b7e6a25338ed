/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The result writers of tools/ on hand-made results: command-line values
 * parsed whole, GSL's t quantile and Welch's test against published
 * figures, sizes and scales as written, the (group, key) walk over runs
 * that hold different groups, JSON that is valid and complete (a group the
 * writer has never heard of included), CSV quoting, and the table's
 * significance marks.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "tools/args.h"
#include "tools/output.h"
#include "tools/resultset.h"
#include "tools/summary.h"
#include "tools/table.h"

START_TEST(test_args_scale)
{
	static const struct {
		const char *s;
		double want;	/* 0: refused */
	} cases[] = {
		{ "1/8", 0.125 }, { "0.5", 0.5 }, { "1", 1 }, { "2/8", 0.25 }, { "1e-1", 0.1 },
		{ "1abc/2", 0 }, { "1/2x", 0 }, { "1/", 0 }, { "/2", 0 }, { "", 0 }, { "2", 0 },
		{ "1/0", 0 }, { "0", 0 }, { "-0.5", 0 }, { " 0.5", 0 }, { "nan", 0 }, { "inf", 0 },
		{ "0x1p-3", 0 }, { "1/8/2", 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double v = -1;
		int rc = args_scale(cases[i].s, &v);

		if (cases[i].want)
			ck_assert_msg(!rc && fabs(v - cases[i].want) < 1e-12, "'%s': %d %g", cases[i].s,
				      rc, v);
		else
			ck_assert_msg(rc, "'%s' accepted as %g", cases[i].s, v);
	}
}
END_TEST

/*
 * A bare scenario name is looked up in the source tree, then where meson
 * install put the scenarios (an installed mmemu whose source tree is gone,
 * issue 36 point 9); a path, or a file in the working directory, is taken as
 * given.
 */
START_TEST(test_args_scenario)
{
	char dir[] = "/tmp/mmemu-scnXXXXXX", a[64], b[64], f[80];
	const char *dirs[] = { a, b, NULL };
	char *p;
	FILE *fp;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(a, sizeof(a), "%s/gone", dir);		/* the source tree, deleted */
	snprintf(b, sizeof(b), "%s", dir);		/* the installed copies */
	snprintf(f, sizeof(f), "%s/ycsb-b.ini", dir);
	fp = fopen(f, "w");
	ck_assert_ptr_nonnull(fp);
	fclose(fp);
	p = args_scenario("ycsb-b", dirs);
	ck_assert_str_eq(p, f);
	free(p);
	p = args_scenario("ycsb-b.ini", dirs);
	ck_assert_str_eq(p, f);
	free(p);
	/* with the source tree there, it comes first */
	ck_assert_int_eq(mkdir(a, 0700), 0);
	snprintf(f, sizeof(f), "%s/ycsb-b.ini", a);
	fp = fopen(f, "w");
	ck_assert_ptr_nonnull(fp);
	fclose(fp);
	p = args_scenario("ycsb-b", dirs);
	ck_assert_str_eq(p, f);
	free(p);
	/* not found, or a path: as given, for the loader to name */
	p = args_scenario("nope", dirs);
	ck_assert_str_eq(p, "nope");
	free(p);
	p = args_scenario("x/ycsb-b.ini", dirs);
	ck_assert_str_eq(p, "x/ycsb-b.ini");
	free(p);
	unlink(f);
	rmdir(a);
	snprintf(f, sizeof(f), "%s/ycsb-b.ini", dir);
	unlink(f);
	rmdir(dir);
}
END_TEST

START_TEST(test_args_numbers)
{
	long j;
	uint64_t *seeds;
	size_t n;

	ck_assert_int_eq(args_long("2", 1, 64, &j), 0);
	ck_assert_int_eq(j, 2);
	ck_assert_int_ne(args_long("2x", 1, 64, &j), 0);
	ck_assert_int_ne(args_long("4294967298", 1, 64, &j), 0);
	ck_assert_int_ne(args_long("99999999999999999999999", 1, 64, &j), 0);
	ck_assert_int_ne(args_long("-1", 1, 64, &j), 0);
	ck_assert_int_ne(args_long("+2", 1, 64, &j), 0);
	ck_assert_int_ne(args_long("", 1, 64, &j), 0);
	ck_assert_int_eq(args_seeds("1..5", 100, &seeds, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(seeds[4], 5);
	free(seeds);
	ck_assert_int_eq(args_seeds("7,3", 100, &seeds, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(seeds[1], 3);
	free(seeds);
	ck_assert_int_ne(args_seeds("5..1", 100, &seeds, &n), 0);
	ck_assert_int_ne(args_seeds("1,,2", 100, &seeds, &n), 0);
	ck_assert_int_ne(args_seeds("1,", 100, &seeds, &n), 0);
	ck_assert_int_ne(args_seeds("1..1000", 100, &seeds, &n), 0);
	ck_assert_int_ne(args_seeds("x", 100, &seeds, &n), 0);
	/* seeds are decimal or 0x hex: "010" is ten, not octal eight */
	{
		uint64_t v;

		ck_assert_int_eq(args_u64("010", &v), 0);
		ck_assert_uint_eq(v, 10);
		ck_assert_int_eq(args_u64("0x10", &v), 0);
		ck_assert_uint_eq(v, 16);
		ck_assert_int_ne(args_u64("0x", &v), 0);
		ck_assert_int_ne(args_u64("0x-1", &v), 0);
		ck_assert_int_ne(args_u64("08x", &v), 0);
	}
}
END_TEST

/* t(0.975, df) as every statistics table has it; Welch's test on Wikipedia's example 1. */
START_TEST(test_statistics)
{
	static const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
				    21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	static const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
				    24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	double ma = 0, mb = 0, va = 0, vb = 0, p;

	ck_assert_double_eq_tol(summary_t95(1), 12.706, 1e-3);
	ck_assert_double_eq_tol(summary_t95(4), 2.776, 1e-3);
	ck_assert_double_eq_tol(summary_t95(30), 2.042, 1e-3);
	ck_assert_double_eq_tol(summary_t95(1e6), 1.960, 1e-3);
	for (int i = 0; i < 15; i++) {
		ma += a[i] / 15;
		mb += b[i] / 15;
	}
	for (int i = 0; i < 15; i++) {
		va += (a[i] - ma) * (a[i] - ma) / 14;
		vb += (b[i] - mb) * (b[i] - mb) / 14;
	}
	/* t = -2.46, df = 25.0, p = 0.021 */
	p = summary_welch_p(ma, va, 15, mb, vb, 15);
	ck_assert_double_eq_tol(p, 0.02138, 1e-4);
	ck_assert_double_eq_tol(summary_welch_p(mb, vb, 15, ma, va, 15), p, 1e-12);
	/* no spread: the same value is no change, another value is one */
	ck_assert_double_eq(summary_welch_p(5, 0, 3, 5, 0, 3), 1);
	ck_assert_double_eq(summary_welch_p(5, 0, 3, 6, 0, 3), 0);
	/* one run cannot be tested */
	ck_assert_double_eq(summary_welch_p(5, 1, 1, 9, 1, 3), 1);
}
END_TEST

START_TEST(test_formats)
{
	char buf[32];

	fmt_bytes(buf, sizeof(buf), 300.0 * (1 << 20) / 8);
	ck_assert_str_eq(buf, "37.5M");
	fmt_bytes(buf, sizeof(buf), 6.0 * (1 << 30));
	ck_assert_str_eq(buf, "6G");
	fmt_bytes(buf, sizeof(buf), 805126144);
	ck_assert_str_eq(buf, "767.8M");
	fmt_bytes(buf, sizeof(buf), 512);
	ck_assert_str_eq(buf, "512");
	fmt_scale(buf, sizeof(buf), 0.125);
	ck_assert_str_eq(buf, "1/8");
	fmt_scale(buf, sizeof(buf), 1);
	ck_assert_str_eq(buf, "1");
	fmt_scale(buf, sizeof(buf), 0.3);
	ck_assert_str_eq(buf, "0.3");
	ck_assert_int_eq(value_class_of("workload.reader", "lat_p99.9_us"), VC_BUCKET);
	ck_assert_int_eq(value_class_of("workload.launch", "launch_p95_ms"), VC_BUCKET);
	ck_assert_int_eq(value_class_of("workload.reader", "lat_mean_us"), VC_PLAIN);
	ck_assert_int_eq(value_class_of("memcg.app", "memory.max"), VC_LIMIT);
	ck_assert_int_eq(value_class_of("memcg.launch.0.memory.stat", "file"), VC_BYTES);
	ck_assert_int_eq(value_class_of("memcg.launch.0.memory.events", "max"), VC_PLAIN);
	ck_assert_int_eq(value_class_of("vmstat", "pgpgin"), VC_PLAIN);
}
END_TEST

/* ---- hand-made invocations ---- */

struct made {
	Mmemu__Invocation inv;
	Mmemu__Run run[4], *runs[4];
	Mmemu__Group grp[4][4], *grps[4][4];
	Mmemu__Value val[4][4][4], *vals[4][4][4];
	Mmemu__Option opt[4][4], *opts[4][4];
	char optbuf[4][128];
	Mmemu__Sample sample[2], *samples[2];
};

/* Run r holds groups names[0..] each with keys k0.. and values base + r. */
static void make_run(struct made *m, int r, const char *policy, const char *options,
		     const char *const *names, int nr_groups, double base)
{
	static const char *const keys[] = { "k0", "k1", "k2", "k3" };

	char *save = NULL;

	mmemu__run__init(&m->run[r]);
	m->run[r].policy = (char *)policy;
	/* the --set words as key/value pairs */
	snprintf(m->optbuf[r], sizeof(m->optbuf[r]), "%s", options);
	m->run[r].options = m->opts[r];
	for (char *w = strtok_r(m->optbuf[r], " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		Mmemu__Option *o = &m->opt[r][m->run[r].n_options];

		mmemu__option__init(o);
		o->key = w;
		o->value = strchr(w, '=') + 1;
		o->value[-1] = '\0';
		m->opts[r][m->run[r].n_options++] = o;
	}
	m->run[r].seed = (uint64_t)r + 1;
	m->run[r].dump = (char *)"";
	m->run[r].n_groups = (size_t)nr_groups;
	m->run[r].groups = m->grps[r];
	for (int g = 0; g < nr_groups; g++) {
		mmemu__group__init(&m->grp[r][g]);
		m->grp[r][g].name = (char *)names[g];
		m->grp[r][g].n_values = 4;
		m->grp[r][g].values = m->vals[r][g];
		m->grps[r][g] = &m->grp[r][g];
		for (int k = 0; k < 4; k++) {
			mmemu__value__init(&m->val[r][g][k]);
			m->val[r][g][k].key = (char *)keys[k];
			m->val[r][g][k].value = base + r + k;
			m->val[r][g][k].is_int = true;
			m->vals[r][g][k] = &m->val[r][g][k];
		}
	}
	m->runs[r] = &m->run[r];
}

static void make_inv(struct made *m, int nr_runs)
{
	mmemu__invocation__init(&m->inv);
	m->inv.scenario_name = (char *)"made";
	m->inv.scenario_path = (char *)"made.ini";
	m->inv.scenario_text = (char *)"";
	m->inv.scale = 0.125;
	m->inv.mmemu_version = (char *)"test";
	m->inv.n_runs = (size_t)nr_runs;
	m->inv.runs = m->runs;
}

static char *write_to_string(const struct output_opts *o, const Mmemu__Invocation *inv,
			     bool summary, int *rc)
{
	char *text = NULL, err[256] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	*rc = summary ? summary_write(f, o, inv, err, sizeof(err))
		      : output_write(f, o, inv, err, sizeof(err));
	ck_assert_int_eq(fclose(f), 0);
	if (*rc) {
		free(text);
		return strdup(err);
	}
	return text;
}

/* Runs with different groups: the walk holds the union, in first-appearance order. */
START_TEST(test_resultset_union)
{
	static const char *const g0[] = { "vmstat", "swap" };
	static const char *const g1[] = { "vmstat", "zzz.new" };
	struct made m;
	struct resultset rs;

	make_run(&m, 0, "a", "", g0, 2, 10);
	make_run(&m, 1, "b", "", g1, 2, 20);
	make_inv(&m, 2);
	ck_assert_int_eq(resultset_build(&rs, &m.inv), 0);
	ck_assert_int_eq(rs.nr_groups, 3);
	ck_assert_str_eq(rs.groups[0].name, "vmstat");
	ck_assert_str_eq(rs.groups[1].name, "swap");
	ck_assert_str_eq(rs.groups[2].name, "zzz.new");
	ck_assert_int_eq(rs.nr_slots, 12);
	ck_assert_ptr_null(resultset_value(&rs, 1, resultset_find(&rs, "swap", "k1")));
	ck_assert_double_eq(resultset_value(&rs, 1, resultset_find(&rs, "zzz.new", "k2"))->value, 23);
	ck_assert_double_eq(resultset_value(&rs, 0, resultset_find(&rs, "vmstat", "k3"))->value, 13);
	resultset_free(&rs);
}
END_TEST

/* Every group reaches the JSON, those it has never heard of under their own name. */
START_TEST(test_json_every_group)
{
	static const char *const g[] = { "vmstat", "node.1", "memcg.a.b.memory.stat", "swap" };
	struct output_opts o = { .format = "json" };
	struct made m;
	json_error_t e;
	json_t *root, *run;
	char *text;
	int rc;

	make_run(&m, 0, "classic", "memcg.a.max=1G", g, 4, 0);
	make_inv(&m, 1);
	text = write_to_string(&o, &m.inv, false, &rc);
	ck_assert_msg(rc == 0, "%s", text);
	root = json_loads(text, 0, &e);
	ck_assert_msg(root, "%s: %s", e.text, text);
	ck_assert_int_eq(json_integer_value(json_object_get(root, "schema_version")), 2);
	run = json_array_get(json_object_get(root, "runs"), 0);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(run, "vmstat"), "k3")), 3);
	ck_assert(json_is_null(json_array_get(json_object_get(run, "nodes"), 0)));
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_array_get(json_object_get(run, "nodes"), 1), "k1")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(json_object_get(
				 json_object_get(run, "memcgs"), "a.b"), "memory.stat"), "k2")), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(json_object_get(run, "swap"), "k0")), 0);
	json_decref(root);
	free(text);
}
END_TEST

/* A saved sample without a row makes the JSON output fail, never print invalid JSON. */
START_TEST(test_json_sample_without_row)
{
	static const char *const g[] = { "vmstat" };
	struct output_opts o = { .format = "json" };
	Mmemu__OomKill oom = MMEMU__OOM_KILL__INIT;
	struct made m;
	char *text;
	int rc;

	make_run(&m, 0, "classic", "", g, 1, 0);
	for (int i = 0; i < 2; i++) {
		mmemu__sample__init(&m.sample[i]);
		m.samples[i] = &m.sample[i];
	}
	m.sample[0].row_case = MMEMU__SAMPLE__ROW_OOM;
	m.sample[0].oom = &oom;
	m.run[0].samples = m.samples;
	m.run[0].n_samples = 2;
	make_inv(&m, 1);
	text = write_to_string(&o, &m.inv, false, &rc);
	ck_assert_int_ne(rc, 0);
	ck_assert_msg(strstr(text, "sample 2 has no row"), "%s", text);
	free(text);
}
END_TEST

/* Typed rows print as the JSON the run wrote as text before (schema 1's samples), byte for byte. */
START_TEST(test_sample_json_as_before)
{
	Mmemu__Sample s = MMEMU__SAMPLE__INIT;
	Mmemu__StatsRow st = MMEMU__STATS_ROW__INIT;
	Mmemu__MemcgSample mc[2], *mcp[2] = { &mc[0], &mc[1] };
	Mmemu__SwapSample swap = MMEMU__SWAP_SAMPLE__INIT;
	Mmemu__ZramSample zram = MMEMU__ZRAM_SAMPLE__INIT;
	Mmemu__WorkloadOps ops = MMEMU__WORKLOAD_OPS__INIT, *opsp[1] = { &ops };
	Mmemu__LruvecRow lv = MMEMU__LRUVEC_ROW__INIT;
	Mmemu__Generations gens = MMEMU__GENERATIONS__INIT;
	Mmemu__Generation gen[2], *genp[2] = { &gen[0], &gen[1] };
	Mmemu__ListSizes lists = MMEMU__LIST_SIZES__INIT;
	Mmemu__OomKill oom = MMEMU__OOM_KILL__INIT;
	uint64_t free_pages[2] = { 10, 20 };
	char *text;

	s.t_ns = 1500000000;
	s.row_case = MMEMU__SAMPLE__ROW_STATS;
	s.stats = &st;
	st.n_free_pages = 2;
	st.free_pages = free_pages;
	st.pgscan = 1;
	st.pgsteal = 2;
	st.workingset_refault_anon = 3;
	st.workingset_refault_file = 4;
	for (int i = 0; i < 2; i++) {
		mmemu__memcg_sample__init(&mc[i]);
		mc[i].memory_current = 4096 * (uint64_t)(i + 1);
		mc[i].pgscan = 5;
		mc[i].oom_kill = (uint64_t)i;
		mc[i].some_avg10 = 1.234;
		mc[i].full_total = 7;
	}
	mc[0].name = "";
	mc[1].name = "a\"b";
	mc[1].has_parent = true;
	mc[1].parent = "";
	st.n_memcgs = 2;
	st.memcgs = mcp;
	st.swap = &swap;
	swap.used = 8;
	swap.zram = &zram;
	zram.stored = 9;
	zram.pool = 3;
	ops.name = "w";
	ops.ops = 42;
	st.n_ops = 1;
	st.ops = opsp;
	text = result_sample_text(&s);
	ck_assert_str_eq(text, "{\"kind\": \"stats\", \"t\": 1.500000, \"free_pages\": [10, 20], "
		"\"pgscan\": 1, \"pgsteal\": 2, \"workingset_refault_anon\": 3, "
		"\"workingset_refault_file\": 4, \"memory_current\": {\"/\": 4096, \"/a\\\"b\": 8192}, "
		"\"memcg_parent\": {\"/a\\\"b\": \"/\"}, \"memory_stat\": {\"/\": {\"pgscan\": 5, "
		"\"pgsteal\": 0, \"workingset_refault_anon\": 0, \"workingset_refault_file\": 0}, "
		"\"/a\\\"b\": {\"pgscan\": 5, \"pgsteal\": 0, \"workingset_refault_anon\": 0, "
		"\"workingset_refault_file\": 0}}, \"memory_events\": {\"/\": {\"oom_kill\": 0}, "
		"\"/a\\\"b\": {\"oom_kill\": 1}}, \"memory_pressure\": {\"/\": {\"some_avg10\": 1.23, "
		"\"some_total\": 0, \"full_avg10\": 0.00, \"full_total\": 7}, \"/a\\\"b\": "
		"{\"some_avg10\": 1.23, \"some_total\": 0, \"full_avg10\": 0.00, \"full_total\": 7}}, "
		"\"swap_used\": 8, \"zram_stored\": 9, \"zram_pool\": 3, \"ops\": {\"w\": 42}}");
	free(text);

	s.row_case = MMEMU__SAMPLE__ROW_LRUVEC;
	s.lruvec = &lv;
	lv.kind = "gens";
	lv.memcg = "app";
	lv.node = 1;
	lv.gens = &gens;
	gens.max_seq = 5;
	gens.min_seq_anon = 4;
	gens.min_seq_file = 3;
	for (int i = 0; i < 2; i++) {
		mmemu__generation__init(&gen[i]);
		gen[i].seq = 4 + (uint64_t)i;
		gen[i].age_ms = 100 - 50 * (uint64_t)i;
		gen[i].anon = -1 + i;
		gen[i].file = 6;
	}
	gens.n_gens = 2;
	gens.gens = genp;
	text = result_sample_text(&s);
	ck_assert_str_eq(text, "{\"kind\": \"gens\", \"t\": 1.500000, \"memcg\": \"/app\", "
		"\"node\": 1, \"max_seq\": 5, \"min_seq\": [4, 3], \"gens\": [{\"seq\": 4, "
		"\"age_ms\": 100, \"anon\": -1, \"file\": 6}, {\"seq\": 5, \"age_ms\": 50, "
		"\"anon\": 0, \"file\": 6}]}");
	free(text);
	lv.kind = "lists";
	lv.gens = NULL;
	lv.lists = &lists;
	lists.inactive_anon = 1;
	lists.active_file = 4;
	text = result_sample_text(&s);
	ck_assert_str_eq(text, "{\"kind\": \"lists\", \"t\": 1.500000, \"memcg\": \"/app\", "
		"\"node\": 1, \"inactive_anon\": 1, \"active_anon\": 0, \"inactive_file\": 0, "
		"\"active_file\": 4}");
	free(text);

	s.row_case = MMEMU__SAMPLE__ROW_OOM;
	s.oom = &oom;
	oom.memcg_constraint = true;
	oom.oom_memcg = "app";
	oom.task_memcg = "app";
	oom.task = "w.0";
	oom.pid = 12;
	text = result_sample_text(&s);
	ck_assert_str_eq(text, "{\"kind\": \"oom\", \"t\": 1.500000, \"constraint\": "
		"\"CONSTRAINT_MEMCG\", \"oom_memcg\": \"/app\", \"task_memcg\": \"/app\", "
		"\"task\": \"w.0\", \"pid\": 12}");
	free(text);
}
END_TEST

START_TEST(test_csv_quoting)
{
	static const char *const g[] = { "vmstat" };
	struct output_opts o = { .format = "csv" };
	struct made m;
	char *text;
	int rc;

	make_run(&m, 0, "classic", "a.b=\"1,2\" c.d=3", g, 1, 0);
	make_inv(&m, 1);
	text = write_to_string(&o, &m.inv, false, &rc);
	ck_assert_int_eq(rc, 0);
	ck_assert_msg(strstr(text, "made,0.125,classic,\"a.b=\"\"1,2\"\" c.d=3\",1,vmstat,k0,0\n"),
		      "%s", text);
	free(text);
}
END_TEST

/* Three seeds each: a value that moves in every seed is marked, one that does not is not. */
/*
 * A summary that cannot be JSON (options that are not UTF-8, in the second
 * group) is refused with the reason; fuzz_result found it leaked the
 * group's seeds and metrics on that way out (LeakSanitizer).
 */
START_TEST(test_summary_json_not_utf8)
{
	static const char *const g[] = { "vmstat" };
	struct output_opts o = { .format = "json" };
	struct made m;
	char *text;
	int rc;

	make_run(&m, 0, "classic", "", g, 1, 0);
	make_run(&m, 1, "classic", "memcg.a.max=\xff", g, 1, 0);
	make_inv(&m, 2);
	text = write_to_string(&o, &m.inv, true, &rc);
	ck_assert_int_ne(rc, 0);
	ck_assert_msg(strstr(text, "UTF-8"), "%s", text);
	free(text);
}
END_TEST

START_TEST(test_summary_marks)
{
	static const char *const g[] = { "vmstat" };
	struct output_opts o = { .format = "text", .all = true };
	struct made m;
	char *text, *k0, *k1;
	int rc;

	/* policy a: runs 0, 1; policy b: runs 2, 3; values base + r + k */
	make_run(&m, 0, "a", "", g, 1, 100);
	make_run(&m, 1, "a", "", g, 1, 100);
	make_run(&m, 2, "b", "", g, 1, 100);
	make_run(&m, 3, "b", "", g, 1, 100);
	/* k0: 100, 101 against 102, 103 (spread as large as the change); k1: 200 against 400 */
	for (int r = 0; r < 4; r++)
		m.val[r][0][1].value = r < 2 ? 200 : 400;
	make_inv(&m, 4);
	text = write_to_string(&o, &m.inv, true, &rc);
	ck_assert_msg(rc == 0, "%s", text);
	k0 = strstr(text, "\n  k0 ");
	k1 = strstr(text, "\n  k1 ");
	ck_assert_ptr_nonnull(k0);
	ck_assert_ptr_nonnull(k1);
	ck_assert_msg(!memchr(k0 + 1, '*', (size_t)(strchr(k0 + 1, '\n') - k0 - 1)), "%s", text);
	ck_assert_msg(strstr(k1, "+100.0%*"), "%s", text);
	free(text);
}
END_TEST

static Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("parts");

	tcase_add_test(tc, test_args_scale);
	tcase_add_test(tc, test_args_numbers);
	tcase_add_test(tc, test_args_scenario);
	tcase_add_test(tc, test_statistics);
	tcase_add_test(tc, test_formats);
	suite_add_tcase(s, tc);
	tc = tcase_create("writers");
	tcase_add_test(tc, test_resultset_union);
	tcase_add_test(tc, test_json_every_group);
	tcase_add_test(tc, test_json_sample_without_row);
	tcase_add_test(tc, test_sample_json_as_before);
	tcase_add_test(tc, test_csv_quoting);
	tcase_add_test(tc, test_summary_marks);
	tcase_add_test(tc, test_summary_json_not_utf8);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(output_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
