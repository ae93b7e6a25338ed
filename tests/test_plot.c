/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * $MMEMU plot: each kind of plot of a saved quickstart run renders to a
 * non-empty SVG and PNG; every kind of plot of quickstart and chrome-node
 * renders to a PNG of bounded size (a grid of panels, the top memcgs by
 * pressure and "others"); --memcg and --node choose panels; a bad --what,
 * --memcg, --node, output extension or input file exits 2, and so does a
 * missing gnuplot. --from and --to keep a window of time (bad ones exit 2);
 * --what pgscan-rate draws pgscan and pgsteal per second; the generations
 * have tools/palette.c's colours in plot and in the page of mmemu view.
 */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "scenarios/result.h"
#include "tests/cli.h"
#include "tools/palette.h"

static char *temp_dir(void)
{
	const char *dir = getenv("TMPDIR");
	char *path;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert_int_gt(asprintf(&path, "%s/mmemu-test-plot-XXXXXX", dir), 0);
	ck_assert_ptr_nonnull(mkdtemp(path));
	return path;
}

static char *path_in(const char *dir, const char *name)
{
	char *p;

	ck_assert_int_gt(asprintf(&p, "%s/%s", dir, name), 0);
	return p;
}

/* The quickstart under every policy at scale 1/32, saved in dir/r.pb. */
static char *saved_run(const char *dir)
{
	char *pb = path_in(dir, "r.pb");
	const char *args[] = { "run", cli_quickstart(), "--policy", "classic,mglru-old,mglru-budget",
			       "--scale", "1/32", "--out", pb, NULL };
	struct cli_out r = cli_run(args);

	ck_assert_msg(r.status == 0, "run: status %d: %s", r.status, r.err);
	cli_out_free(&r);
	return pb;
}

/* The first bytes of path (up to n), and its size. */
static long head(const char *path, unsigned char *buf, size_t n)
{
	FILE *f = fopen(path, "rb");
	long size;

	ck_assert_msg(f != NULL, "%s was not written", path);
	memset(buf, 0, n);
	ck_assert_int_ge(fread(buf, 1, n, f), 0);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	size = ftell(f);
	fclose(f);
	return size;
}

static void check_svg(const char *path)
{
	unsigned char buf[4096];
	long size = head(path, buf, sizeof(buf) - 1);

	ck_assert_msg(size > 1000, "%s: %ld bytes", path, size);
	ck_assert_msg(!memcmp(buf, "<?xml", 5) || strstr((char *)buf, "<svg"),
		      "%s is not SVG: %.80s", path, buf);
	ck_assert_ptr_nonnull(strstr((char *)buf, "<svg"));
}

static void check_png(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char buf[32];
	long size = head(path, buf, sizeof(buf));

	ck_assert_msg(size > 1000, "%s: %ld bytes", path, size);
	ck_assert_msg(!memcmp(buf, sig, 8), "%s has no PNG signature", path);
	/* the IHDR chunk first, with a width and height */
	ck_assert(!memcmp(buf + 12, "IHDR", 4));
	ck_assert(buf[16] | buf[17] | buf[18] | buf[19]);
	ck_assert(buf[20] | buf[21] | buf[22] | buf[23]);
}

static void check_kind(const char *what)
{
	char *dir = temp_dir(), *pb = saved_run(dir);

	for (int png = 0; png < 2; png++) {
		char name[64], *img;
		struct cli_out o;

		snprintf(name, sizeof(name), "%s.%s", what, png ? "png" : "svg");
		img = path_in(dir, name);
		{
			const char *args[] = { "plot", pb, "--what", what, "-o", img, NULL };

			o = cli_run(args);
		}
		ck_assert_msg(o.status == 0, "plot --what %s -o %s: status %d: %s", what, name,
			      o.status, o.err);
		/* it says which file it wrote */
		{
			char said[4200];

			snprintf(said, sizeof(said), "plot: wrote %s\n", img);
			ck_assert_str_eq(o.out, said);
		}
		if (png)
			check_png(img);
		else
			check_svg(img);
		cli_out_free(&o);
		unlink(img);
		free(img);
	}
	unlink(pb);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}

START_TEST(test_plot_gens)
{
	check_kind("gens");
}
END_TEST

START_TEST(test_plot_memory)
{
	check_kind("memory");
}
END_TEST

START_TEST(test_plot_throughput)
{
	check_kind("throughput");
}
END_TEST

START_TEST(test_plot_refaults)
{
	check_kind("refaults");
}
END_TEST

START_TEST(test_plot_pressure)
{
	check_kind("pressure");
}
END_TEST

/* The gens plot has a panel per lruvec and policy, titled by memcg, node and policy. */
START_TEST(test_plot_gens_panels)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *svg = path_in(dir, "g.svg");
	const char *args[] = { "plot", pb, "--what", "gens", "-o", svg, NULL };
	struct cli_out o = cli_run(args);
	FILE *f;
	char *text = NULL;
	size_t cap = 0;
	ssize_t len;

	ck_assert_msg(o.status == 0, "%s", o.err);
	f = fopen(svg, "r");
	ck_assert_ptr_nonnull(f);
	len = getdelim(&text, &cap, '\0', f);
	fclose(f);
	ck_assert_int_gt(len, 0);
	ck_assert_ptr_nonnull(strstr(text, "memcg /app node 0 \xe2\x80\x94 mglru-budget"));
	ck_assert_ptr_nonnull(strstr(text, "memcg /app node 1 \xe2\x80\x94 classic"));
	ck_assert_ptr_nonnull(strstr(text, "inactive_file"));
	ck_assert_ptr_nonnull(strstr(text, "time (s)"));
	ck_assert_ptr_nonnull(strstr(text, "pages"));
	free(text);
	cli_out_free(&o);
	unlink(svg);
	unlink(pb);
	free(svg);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

START_TEST(test_plot_bad_input_exit_2)
{
	char *dir = temp_dir(), *out = path_in(dir, "x.svg");
	const char *bad_what[] = { "plot", cli_quickstart(), "--what", "pie", "-o", out, NULL };
	const char *not_pb[] = { "plot", cli_quickstart(), "--what", "gens", "-o", out, NULL };
	const char *missing[] = { "plot", "/nonexistent/r.pb", "-o", out, NULL };
	const char *bad_ext[] = { "plot", cli_quickstart(), "-o", "x.pdf", NULL };
	const char *no_file[] = { "plot", NULL };
	struct cli_out w = cli_run(bad_what), n = cli_run(not_pb), m = cli_run(missing), e = cli_run(bad_ext),
		   z = cli_run(no_file);

	ck_assert_int_eq(w.status, 2);
	ck_assert_msg(strstr(w.err, "pie"), "stderr: %s", w.err);
	ck_assert_int_eq(n.status, 2);
	ck_assert_msg(strstr(n.err, cli_quickstart()) && strstr(n.err, "not an mmemu result file"),
		      "stderr: %s", n.err);
	ck_assert_int_eq(m.status, 2);
	ck_assert_msg(strstr(m.err, "/nonexistent/r.pb"), "stderr: %s", m.err);
	ck_assert_int_eq(e.status, 2);
	ck_assert_msg(strstr(e.err, "x.pdf"), "stderr: %s", e.err);
	ck_assert_int_eq(z.status, 2);
	ck_assert_int_ne(access(out, F_OK), 0);
	cli_out_free(&w);
	cli_out_free(&n);
	cli_out_free(&m);
	cli_out_free(&e);
	cli_out_free(&z);
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/*
 * Files of another scenario or scale on one set of axes are refused unless
 * --force, as report and view refuse them; nothing is drawn.
 */
START_TEST(test_plot_refuses_mixing)
{
	char *dir = temp_dir(), *a = saved_run(dir), *b = path_in(dir, "b.pb"),
	     *out = path_in(dir, "m.svg");
	const char *run_b[] = { "run", cli_quickstart(), "--policy", "classic", "--scale", "1/64",
				"--out", b, NULL };
	const char *ab[] = { "plot", a, b, "-o", out, NULL };
	const char *ab_force[] = { "plot", a, b, "-o", out, "--force", NULL };
	struct cli_out rb = cli_run(run_b), x, z;

	ck_assert_msg(rb.status == 0, "%s", rb.err);
	x = cli_run(ab);
	ck_assert_int_eq(x.status, 2);
	ck_assert_msg(strstr(x.err, "mmemu: plot: ") && strstr(x.err, b) &&
		      strstr(x.err, "another scale") && strstr(x.err, "--force"), "stderr: %s", x.err);
	ck_assert_str_eq(x.out, "");
	ck_assert_int_ne(access(out, F_OK), 0);
	z = cli_run(ab_force);
	ck_assert_msg(z.status == 0, "%s", z.err);
	check_svg(out);
	cli_out_free(&rb);
	cli_out_free(&x);
	cli_out_free(&z);
	unlink(out);
	unlink(a);
	unlink(b);
	free(out);
	free(a);
	free(b);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* A script that cannot be written says why (ENOSPC on /dev/full). */
START_TEST(test_plot_script_unwritable_says_why)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *out = path_in(dir, "s.svg");
	const char *args[] = { "plot", pb, "-o", out, "--script", "/dev/full", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "--script '/dev/full': cannot write it: No space left on device"),
		      "stderr: %s", o.err);
	ck_assert_int_ne(access(out, F_OK), 0);
	cli_out_free(&o);
	unlink(pb);
	free(pb);
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* Without gnuplot on PATH: status 2 and how to install it. */
START_TEST(test_plot_no_gnuplot_exit_2)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *out = path_in(dir, "g.svg");
	const char *args[] = { "plot", pb, "-o", out, NULL };
	struct cli_out o;

	ck_assert_int_eq(setenv("PATH", dir, 1), 0);
	o = cli_run(args);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "gnuplot not found (apt-get install gnuplot-nox)"),
		      "stderr: %s", o.err);
	ck_assert_int_ne(access(out, F_OK), 0);
	cli_out_free(&o);
	unlink(pb);
	free(pb);
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* ---- crafted files: every value checked before use (issue 13.1) ---- */

/* ---- rows as JSON, saved as the typed rows a run writes ---- */

static uint64_t u64_of(const json_t *o, const char *key)
{
	return (uint64_t)json_integer_value(json_object_get(o, key));
}

/* "/app" -> "app": a memcg's name in a row */
static char *memcg_name(const char *path)
{
	char *n = strdup(path[0] == '/' ? path + 1 : path);

	ck_assert_ptr_nonnull(n);
	return n;
}

/* The memcg of a stats row named path, added (zeroed) when the row has none yet. */
static Mmemu__MemcgSample *memcg_of(Mmemu__StatsRow *st, const char *path)
{
	char *name = memcg_name(path);
	Mmemu__MemcgSample *m;

	for (size_t i = 0; i < st->n_memcgs; i++)
		if (!strcmp(st->memcgs[i]->name, name)) {
			free(name);
			return st->memcgs[i];
		}
	m = calloc(1, sizeof(*m));
	st->memcgs = realloc(st->memcgs, (st->n_memcgs + 1) * sizeof(*st->memcgs));
	ck_assert_ptr_nonnull(m);
	ck_assert_ptr_nonnull(st->memcgs);
	mmemu__memcg_sample__init(m);
	m->name = name;
	m->parent = strdup("");
	st->memcgs[st->n_memcgs++] = m;
	return m;
}

static void stats_from(Mmemu__StatsRow *st, json_t *o)
{
	json_t *v;
	const char *k;

	mmemu__stats_row__init(st);
	st->workingset_refault_anon = u64_of(o, "workingset_refault_anon");
	st->workingset_refault_file = u64_of(o, "workingset_refault_file");
	json_object_foreach(json_object_get(o, "memory_current"), k, v)
		memcg_of(st, k)->memory_current = (uint64_t)json_integer_value(v);
	json_object_foreach(json_object_get(o, "memcg_parent"), k, v) {
		Mmemu__MemcgSample *m = memcg_of(st, k);

		m->has_parent = true;
		free(m->parent);
		m->parent = memcg_name(json_string_value(v));
	}
	json_object_foreach(json_object_get(o, "memory_pressure"), k, v) {
		Mmemu__MemcgSample *m = memcg_of(st, k);

		m->some_avg10 = json_number_value(json_object_get(v, "some_avg10"));
		m->full_avg10 = json_number_value(json_object_get(v, "full_avg10"));
	}
	json_object_foreach(json_object_get(o, "ops"), k, v) {
		Mmemu__WorkloadOps *w = calloc(1, sizeof(*w));

		st->ops = realloc(st->ops, (st->n_ops + 1) * sizeof(*st->ops));
		ck_assert_ptr_nonnull(w);
		ck_assert_ptr_nonnull(st->ops);
		mmemu__workload_ops__init(w);
		w->name = strdup(k);
		w->ops = (uint64_t)json_integer_value(v);
		st->ops[st->n_ops++] = w;
	}
}

/* A gens row; max_seq and min_seq, when it has none, those of its generations. */
static void lruvec_from(Mmemu__LruvecRow *lv, const json_t *o)
{
	const json_t *gens = json_object_get(o, "gens"), *min = json_object_get(o, "min_seq");
	Mmemu__Generations *g = calloc(1, sizeof(*g));
	size_t n = json_array_size(gens);

	ck_assert_ptr_nonnull(g);
	mmemu__lruvec_row__init(lv);
	mmemu__generations__init(g);
	lv->kind = strdup(json_string_value(json_object_get(o, "kind")));
	lv->memcg = memcg_name(json_string_value(json_object_get(o, "memcg")));
	lv->node = (int32_t)json_integer_value(json_object_get(o, "node"));
	lv->gens = g;
	g->gens = calloc(n + 1, sizeof(*g->gens));
	ck_assert_ptr_nonnull(g->gens);
	for (size_t i = 0; i < n; i++) {
		const json_t *e = json_array_get(gens, i);
		Mmemu__Generation *x = calloc(1, sizeof(*x));

		ck_assert_ptr_nonnull(x);
		mmemu__generation__init(x);
		x->seq = u64_of(e, "seq");
		x->age_ms = u64_of(e, "age_ms");
		x->anon = json_integer_value(json_object_get(e, "anon"));
		x->file = json_integer_value(json_object_get(e, "file"));
		g->gens[g->n_gens++] = x;
	}
	g->max_seq = json_object_get(o, "max_seq") ? u64_of(o, "max_seq") :
		     n ? g->gens[n - 1]->seq : 0;
	g->min_seq_anon = min ? (uint64_t)json_integer_value(json_array_get(min, 0)) :
		     n ? g->gens[0]->seq : 0;
	g->min_seq_file = min ? (uint64_t)json_integer_value(json_array_get(min, 1)) :
		     n ? g->gens[0]->seq : 0;
}

/* A row as JSON text (the crafted rows below) as the typed message a run saves. */
static Mmemu__Sample *sample_of(const char *text)
{
	json_t *o = json_loads(text, 0, NULL);
	Mmemu__Sample *s = calloc(1, sizeof(*s));

	ck_assert_msg(o != NULL, "not JSON: %s", text);
	ck_assert_ptr_nonnull(s);
	mmemu__sample__init(s);
	s->t_ns = (uint64_t)llround(json_number_value(json_object_get(o, "t")) * 1e9);
	if (!strcmp(json_string_value(json_object_get(o, "kind")), "stats")) {
		s->row_case = MMEMU__SAMPLE__ROW_STATS;
		s->stats = calloc(1, sizeof(*s->stats));
		ck_assert_ptr_nonnull(s->stats);
		stats_from(s->stats, o);
	} else {
		s->row_case = MMEMU__SAMPLE__ROW_LRUVEC;
		s->lruvec = calloc(1, sizeof(*s->lruvec));
		ck_assert_ptr_nonnull(s->lruvec);
		lruvec_from(s->lruvec, o);
	}
	json_decref(o);
	return s;
}

/* dir/c.pb: one mglru-budget run whose samples are rows (JSON, NULL-terminated). */
static char *crafted(const char *dir, const char *const *rows)
{
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	Mmemu__Run run = MMEMU__RUN__INIT, *runs[1] = { &run };
	char *pb = path_in(dir, "c.pb");
	Mmemu__Sample **samples;
	size_t n = 0;
	FILE *f;

	while (rows[n])
		n++;
	samples = calloc(n + 1, sizeof(*samples));
	ck_assert_ptr_nonnull(samples);
	for (size_t i = 0; i < n; i++)
		samples[i] = sample_of(rows[i]);
	inv.scenario_name = "crafted";
	inv.scale = 1;
	inv.n_runs = 1;
	inv.runs = runs;
	run.policy = "mglru-budget";
	run.n_samples = n;
	run.samples = samples;
	f = fopen(pb, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(result_file_write(&inv, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	for (size_t i = 0; i < n; i++)
		mmemu__sample__free_unpacked(samples[i], NULL);
	free(samples);
	return pb;
}

#define GENS(t, node, g) "{\"kind\": \"gens\", \"t\": " t ", \"memcg\": \"/app\", \"node\": " \
	node ", \"gens\": [" g "]}"
#define GEN(seq, anon) "{\"seq\": " seq ", \"anon\": " anon ", \"file\": 1}"
#define STATS(t, rf, mem, ops) "{\"kind\": \"stats\", \"t\": " t \
	", \"workingset_refault_anon\": 0, \"workingset_refault_file\": " rf \
	", \"memory_current\": {\"/app\": " mem "}, \"ops\": {\"w\": " ops "}}"

#define GENSQ(t, max, min, g) "{\"kind\": \"gens\", \"t\": " t ", \"memcg\": \"/app\", " \
	"\"node\": 0, \"max_seq\": " max ", \"min_seq\": " min ", \"gens\": [" g "]}"
#define STATSP(t, parents) "{\"kind\": \"stats\", \"t\": " t \
	", \"workingset_refault_anon\": 0, \"workingset_refault_file\": 0, " \
	"\"memory_current\": {\"/\": 8192, \"/app\": 4096, \"/b\": 4096}, \"ops\": {}, " \
	"\"memcg_parent\": " parents "}"

#define STATSPSI(t, psi) "{\"kind\": \"stats\", \"t\": " t \
	", \"workingset_refault_anon\": 0, \"workingset_refault_file\": 0, " \
	"\"memory_current\": {\"/\": 4096, \"/app\": 4096}, \"ops\": {}, " \
	"\"memory_pressure\": " psi "}"
#define PSI(some, full) "{\"some_avg10\": " some ", \"some_total\": 0, \"full_avg10\": " full \
	", \"full_total\": 0}"

START_TEST(test_plot_crafted_input_exit_2)
{
	/*
	 * Rows as JSON, saved typed (sample_of()): what a typed row cannot
	 * hold (a negative or fractional count, a time before 0, a row that is
	 * no object, a min_seq without its file half, an incomplete
	 * memory_pressure) no file holds any more, and is not among them.
	 */
	static const struct {
		const char *what;	/* --what */
		const char *rows[4];
		const char *says;	/* in the message */
	} bad[] = {
		/* a gap of 3e8 generations: it allocated for all of them and ran for minutes */
		{ "gens", { GENS("0.1", "0", GEN("0", "5")), GENS("0.2", "0", GEN("300000000", "5")) },
		  "more than a plot draws" },
		{ "gens", { GENS("0.1", "0", GEN("9223372036854775807", "5")) }, "not counts" },
		{ "gens", { GENS("0.1", "0", GEN("3", "5") ", " GEN("7", "5")) }, "does not follow" },
		{ "gens", { GENS("0.1", "0", GEN("1", "1") ", " GEN("2", "1") ", " GEN("3", "1") ", "
				GEN("4", "1") ", " GEN("5", "1")) }, "1 to 4 generations" },
		{ "gens", { GENS("0.1", "0", "") }, "1 to 4 generations" },
		{ "gens", { GENS("0.1", "0", GEN("1", "-5")) }, "not counts" },
		{ "gens", { GENS("0.1", "-1", GEN("1", "5")) }, "not a node" },
		{ "gens", { GENS("0.1", "8", GEN("1", "5")) }, "not a node" },
		{ "gens", { GENS("0.2", "0", GEN("1", "5")), GENS("0.1", "0", GEN("1", "5")) },
		  "the time is before" },
		{ "gens", { GENS("0.1", "0", GEN("4", "5")), GENS("0.2", "0", GEN("3", "5")) },
		  "generations are before" },
		{ "gens", { GENSQ("0.1", "5", "[0, 0]", GEN("0", "5")) }, "max_seq is not" },
		{ "gens", { GENSQ("0.1", "1", "[0, 2]", GEN("0", "5") ", " GEN("1", "5")) },
		  "min_seq is not" },
		{ "gens", { GENSQ("0.1", "1", "[1, 1]", GEN("0", "5") ", " GEN("1", "5")) },
		  "neither min_seq" },
		{ "gens", { GENSQ("0.1", "1", "[1, 0]", GEN("0", "5") ", " GEN("1", "5")),
			    GENSQ("0.2", "1", "[0, 0]", GEN("0", "5") ", " GEN("1", "5")) },
		  "generations are before" },
		{ "memory", { STATSP("0.1", "{\"/app\": \"/nope\"}") }, "memcg_parent of" },
		{ "memory", { STATSP("0.1", "{\"/app\": \"/app\"}") }, "memcg_parent of" },
		{ "memory", { STATSP("0.1", "{\"/app\": \"/\"}"),
			      STATSP("0.2", "{\"/app\": \"/b\"}") }, "changed" },
		{ "memory", { STATS("0.1", "5", "4096", "10"), STATS("0.05", "5", "4096", "10") },
		  "before the previous" },
		{ "refaults", { STATS("0.1", "5", "4096", "10"), STATS("0.2", "4", "4096", "10") },
		  "went down" },
		{ "throughput", { STATS("0.1", "5", "4096", "10"), STATS("0.2", "5", "4096", "9") },
		  "went down" },
		/* memory.pressure: percentages, full never above some */
		{ "pressure", { STATSPSI("0.1", "{\"/app\": " PSI("1.0", "2.0") "}") },
		  "memory_pressure of '/app'" },
		{ "pressure", { STATSPSI("0.1", "{\"/app\": " PSI("101", "0") "}") },
		  "memory_pressure of '/app'" },
	};
	char *dir = temp_dir(), *out = path_in(dir, "x.svg");

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *pb = crafted(dir, bad[i].rows);
		const char *args[] = { "plot", pb, "--what", bad[i].what, "-o", out, NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 2, "case %zu: status %d: %s", i, o.status, o.err);
		ck_assert_msg(strstr(o.err, pb) && strstr(o.err, bad[i].says),
			      "case %zu: '%s' does not say '%s'", i, o.err, bad[i].says);
		ck_assert_msg(access(out, F_OK) != 0, "case %zu: drew %s", i, out);
		cli_out_free(&o);
		unlink(pb);
		free(pb);
	}
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* Names of any length are drawn whole; past 8 memcgs, 8 panels and the others summed. */
START_TEST(test_plot_names_whole)
{
	char *dir = temp_dir(), *out = path_in(dir, "m.svg"), *pb, *rows[2] = { NULL, NULL };
	char *text = NULL, name[200];
	size_t cap = 0, len = 0;
	FILE *f = open_memstream(&rows[0], &len);
	const char *args[] = { "plot", NULL, "--what", "memory", "-o", out, NULL };
	struct cli_out o;

	ck_assert_ptr_nonnull(f);
	fprintf(f, "{\"kind\": \"stats\", \"t\": 0.1, \"workingset_refault_anon\": 0, "
		   "\"workingset_refault_file\": 0, \"ops\": {}, \"memory_current\": {");
	for (int i = 0; i < 70; i++)	/* 150-character names, alike for 147 */
		fprintf(f, "%s\"/%0150d\": %d", i ? ", " : "", i, 4096 * (i + 1));
	fprintf(f, "}}");
	ck_assert_int_eq(fclose(f), 0);
	pb = crafted(dir, (const char *const *)rows);
	args[1] = pb;
	o = cli_run(args);
	ck_assert_msg(o.status == 0, "%s", o.err);
	f = fopen(out, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_gt(getdelim(&text, &cap, '\0', f), 0);
	fclose(f);
	/* no pressure in the file: the first 8 get a panel, the other 62 are summed */
	for (int i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "/%0150d", i);
		ck_assert_msg(strstr(text, name), "memcg %d is not drawn", i);
	}
	snprintf(name, sizeof(name), "/%0150d", 8);
	ck_assert_msg(!strstr(text, name), "memcg 8 has a panel");
	ck_assert_ptr_nonnull(strstr(text, "others: 62 memcgs summed"));
	free(text);
	free(rows[0]);
	cli_out_free(&o);
	unlink(out);
	unlink(pb);
	free(pb);
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* More memcgs in one run than the model can make (1024) is not a run: status 2. */
START_TEST(test_plot_more_names_than_a_run)
{
	char *dir = temp_dir(), *out = path_in(dir, "m.svg"), *pb, *rows[2] = { NULL, NULL };
	size_t len = 0;
	FILE *f = open_memstream(&rows[0], &len);
	const char *args[] = { "plot", NULL, "--what", "memory", "-o", out, NULL };
	struct cli_out o;

	ck_assert_ptr_nonnull(f);
	fprintf(f, "{\"kind\": \"stats\", \"t\": 0.1, \"workingset_refault_anon\": 0, "
		   "\"workingset_refault_file\": 0, \"ops\": {}, \"memory_current\": {");
	for (int i = 0; i < 1100; i++)
		fprintf(f, "%s\"/m%d\": 4096", i ? ", " : "", i);
	fprintf(f, "}}");
	ck_assert_int_eq(fclose(f), 0);
	pb = crafted(dir, (const char *const *)rows);
	args[1] = pb;
	o = cli_run(args);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "more than 1024 names"), "%s", o.err);
	ck_assert_int_ne(access(out, F_OK), 0);
	free(rows[0]);
	cli_out_free(&o);
	unlink(pb);
	free(pb);
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* ---- images that stay readable (issue 18.7) ---- */

/*
 * Every image at most this big: a grid at most 4 panels wide whatever the
 * number of memcgs (the old gens plot of chrome-node was 35880 pixels wide
 * and Cairo refused it), at most 9 panels of memcgs and 8 of lruvecs per
 * policy.
 */
#define MAX_WIDTH 1800
#define MAX_HEIGHT 2000

/* chrome-node's 32 memcgs on 2 nodes, small: scale 1/4096 for 300 ms, saved in dir/c.pb. */
static char *saved_chrome(const char *dir)
{
	char *pb = path_in(dir, "chrome.pb"), *ini;
	const char *args[] = { "run", NULL, "--scale", "1/4096", "--set",
			       "machine.duration=300ms", "--out", pb, NULL };
	struct cli_out r;

	ini = strdup(harness_src_path("scenarios/chrome-node.ini"));
	args[1] = ini;
	r = cli_run(args);
	ck_assert_msg(r.status == 0, "run: status %d: %s", r.status, r.err);
	cli_out_free(&r);
	free(ini);
	return pb;
}

/* The width and height in a PNG's IHDR chunk. */
static void png_size(const char *path, unsigned *w, unsigned *h)
{
	unsigned char b[32];

	check_png(path);
	head(path, b, sizeof(b));
	*w = (unsigned)b[16] << 24 | (unsigned)b[17] << 16 | (unsigned)b[18] << 8 | b[19];
	*h = (unsigned)b[20] << 24 | (unsigned)b[21] << 16 | (unsigned)b[22] << 8 | b[23];
}

/* Every --what of pb to a PNG within MAX_WIDTH x MAX_HEIGHT; swap only when has_swap. */
static void check_bounded(const char *dir, const char *pb, const char *name, bool has_swap)
{
	static const char *const whats[] = { "gens", "memory", "throughput", "refaults", "swap",
						   "pressure", "pgscan-rate" };

	for (size_t i = 0; i < sizeof(whats) / sizeof(whats[0]); i++) {
		char file[64], *img;
		const char *args[] = { "plot", pb, "--what", whats[i], "-o", NULL, NULL };
		struct cli_out o;
		unsigned w, h;

		snprintf(file, sizeof(file), "%s-%s.png", name, whats[i]);
		img = path_in(dir, file);
		args[5] = img;
		o = cli_run(args);
		if (!has_swap && !strcmp(whats[i], "swap")) {
			/* no swap: said, not drawn empty */
			ck_assert_msg(o.status == 2 && strstr(o.err, "no swap"), "%s: %d %s", file,
				      o.status, o.err);
			ck_assert_int_ne(access(img, F_OK), 0);
		} else {
			ck_assert_msg(o.status == 0, "%s: status %d: %s", file, o.status, o.err);
			png_size(img, &w, &h);
			ck_assert_msg(w <= MAX_WIDTH && h <= MAX_HEIGHT, "%s is %u x %u", file, w, h);
			unlink(img);
		}
		cli_out_free(&o);
		free(img);
	}
}

START_TEST(test_plot_png_bounded)
{
	char *dir = temp_dir(), *q = saved_run(dir), *c = saved_chrome(dir);

	check_bounded(dir, c, "chrome-node", true);
	check_bounded(dir, q, "quickstart", false);
	unlink(q);
	unlink(c);
	free(q);
	free(c);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* The text of a file, malloc'ed. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t cap = 0;

	ck_assert_msg(f != NULL, "%s was not written", path);
	ck_assert_int_gt(getdelim(&text, &cap, '\0', f), 0);
	fclose(f);
	return text;
}

/* plot pb --what what [extra...] -o dir/x.svg --script dir/x.gp: the script's text. */
static char *script_of(const char *dir, const char *pb, const char *what, const char *opt,
		       const char *val)
{
	char *svg = path_in(dir, "x.svg"), *gp = path_in(dir, "x.gp"), *text, said[9000];
	const char *args[] = { "plot", pb, "--what", what, "-o", svg, "--script", gp, opt, val,
			       NULL };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 0, "--what %s %s %s: %d %s", what, opt ? opt : "",
		      val ? val : "", o.status, o.err);
	/* it says which files it wrote */
	snprintf(said, sizeof(said), "plot: wrote %s\nplot: wrote %s\n", gp, svg);
	ck_assert_str_eq(o.out, said);
	text = slurp(gp);
	cli_out_free(&o);
	unlink(svg);
	unlink(gp);
	free(svg);
	free(gp);
	return text;
}

/*
 * chrome-node: 8 memory panels and "others", the pressure named; gens
 * with anon below the line, marks of aging and eviction; zram in the
 * swap plot; --memcg and --node choose the panels.
 */
START_TEST(test_plot_chrome_panels)
{
	char *dir = temp_dir(), *pb = saved_chrome(dir), *t;
	int panels = 0;

	t = script_of(dir, pb, "memory", NULL, NULL);
	ck_assert_ptr_nonnull(strstr(t, "the 8 of 32 memcgs under the most reclaim pressure "
					"(pgscan + workingset_refault_anon + _file)"));
	ck_assert_ptr_nonnull(strstr(t, "others: 24 memcgs summed"));
	ck_assert_ptr_nonnull(strstr(t, "set multiplot layout 3,3"));
	free(t);

	t = script_of(dir, pb, "gens", NULL, NULL);
	for (const char *q = t; (q = strstr(q, "set title 'memcg /chrome-")); q++)
		panels++;
	/* each node's 32 memcgs summed, then 3 memcgs x 2 nodes, per policy */
	ck_assert_int_eq(panels, 2 * 6);
	ck_assert_ptr_nonnull(strstr(t, "set title 'all 32 memcgs, node 0 \xe2\x80\x94 mglru-old"));
	ck_assert_ptr_nonnull(strstr(t, "set title 'all 32 memcgs, node 1 \xe2\x80\x94 mglru-budget"));
	ck_assert_ptr_null(strstr(t, "set title 'others"));
	/* bands by age: at most MMEMU_SAMPLE_MAX_GENS of anon and of file in a panel, however fast it ages */
	for (const char *q = t; (q = strstr(q, "\nplot ")); q++) {
		int bands = 0;

		for (const char *e = strstr(q + 1, "\nplot "), *b = q;
		     (b = strstr(b + 1, "with filledcurves")) && (!e || b < e);)
			bands++;
		ck_assert_int_le(bands, 2 * MMEMU_SAMPLE_MAX_GENS);
	}
	ck_assert_ptr_null(strstr(t, "set label 'seq "));
	ck_assert_ptr_nonnull(strstr(t, "with points pt 9"));	/* aging */
	ck_assert_ptr_nonnull(strstr(t, "with points pt 11"));	/* eviction */
	ck_assert_ptr_nonnull(strstr(t, "set ytics ('"));
	free(t);

	t = script_of(dir, pb, "swap", NULL, NULL);
	ck_assert_ptr_nonnull(strstr(t, "zram: pool memory (mem_used_total)"));
	ck_assert_ptr_nonnull(strstr(t, "swap in use"));
	free(t);

	/* 33 memcgs with the machine's "/": the 8 of highest some avg10 */
	t = script_of(dir, pb, "pressure", NULL, NULL);
	ck_assert_msg(strstr(t, "the 8 memcgs of highest some avg10; 25 more not drawn"), "%.2000s", t);
	ck_assert_ptr_nonnull(strstr(t, "set multiplot layout 3,3"));
	free(t);

	t = script_of(dir, pb, "memory", "--memcg", "chrome-3,/chrome-7");
	ck_assert_ptr_nonnull(strstr(t, "set title '/chrome-3'"));
	ck_assert_ptr_nonnull(strstr(t, "set title '/chrome-7'"));
	ck_assert_ptr_null(strstr(t, "set title '/chrome-1'"));
	ck_assert_ptr_null(strstr(t, "others"));
	free(t);

	t = script_of(dir, pb, "gens", "--node", "1");
	ck_assert_ptr_null(strstr(t, " node 0 \xe2\x80\x94"));
	ck_assert_ptr_nonnull(strstr(t, " node 1 \xe2\x80\x94"));
	free(t);

	{
		static const struct {
			const char *what, *opt, *val, *says;
		} bad[] = {
			{ "memory", "--memcg", "chrome-3,nosuch", "--memcg 'nosuch': no memcg" },
			{ "gens", "--memcg", "chrome-3,chrome-3", "named twice" },
			{ "gens", "--node", "5", "--node 5: the runs have no lruvec" },
			{ "gens", "--node", "x", "--node 'x'" },
			{ "memory", "--node", "0", "not per node" },
			{ "throughput", "--memcg", "chrome-3", "not throughput" },
		};
		char *svg = path_in(dir, "bad.svg");

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			const char *args[] = { "plot", pb, "--what", bad[i].what, bad[i].opt, bad[i].val,
					       "-o", svg, NULL };
			struct cli_out o = cli_run(args);

			ck_assert_msg(o.status == 2 && strstr(o.err, bad[i].says),
				      "case %zu: %d '%s' does not say '%s'", i, o.status, o.err,
				      bad[i].says);
			ck_assert_int_ne(access(svg, F_OK), 0);
			cli_out_free(&o);
		}
		free(svg);
	}
	unlink(pb);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/*
 * --what pressure: a panel per memcg of the samples ("/" too), some
 * solid and full dashed in the run's colour, the samples' values.
 */
START_TEST(test_plot_pressure_values)
{
	static const char *const rows[] = {
		STATSPSI("0.1", "{\"/\": " PSI("0.25", "0.125") ", \"/app\": " PSI("1.5", "0.5") "}"),
		STATSPSI("0.2", "{\"/\": " PSI("0.5", "0.25") ", \"/app\": " PSI("3", "2") "}"),
		NULL };
	char *dir = temp_dir(), *pb = crafted(dir, rows), *t = script_of(dir, pb, "pressure", NULL,
									 NULL);

	ck_assert_ptr_nonnull(strstr(t, "set title '/'"));
	ck_assert_ptr_nonnull(strstr(t, "set title '/app'"));
	/* /app's some, then its full: the samples' avg10 */
	ck_assert_msg(strstr(t, "0.100000 1.5\n0.200000 3\nEOD\n$d3 << EOD\n0.100000 0.5\n"
				"0.200000 2\nEOD"), "%s", t);
	ck_assert_ptr_nonnull(strstr(t, "dt 1 title 'mglru-budget some'"));
	ck_assert_ptr_nonnull(strstr(t, "dt 2 title 'mglru-budget full'"));
	free(t);
	t = script_of(dir, pb, "pressure", "--memcg", "app");
	ck_assert_ptr_null(strstr(t, "set title '/'"));
	ck_assert_ptr_nonnull(strstr(t, "set title '/app'"));
	free(t);
	unlink(pb);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* --what gens --memcg of a memcg with no lruvec samples: status 2 and its name, nothing drawn. */
START_TEST(test_plot_memcg_without_lruvec_exit_2)
{
	static const char *const rows[] = { STATSP("0.1", "{\"/app\": \"/\", \"/b\": \"/\"}"),
					    GENS("0.1", "0", GEN("1", "5")), NULL };
	char *dir = temp_dir(), *pb = crafted(dir, rows), *out = path_in(dir, "g.svg");
	const char *args[] = { "plot", pb, "--what", "gens", "--memcg", "b", "-o", out, NULL };
	const char *ok[] = { "plot", pb, "--what", "gens", "--memcg", "app", "-o", out, NULL };
	struct cli_out o = cli_run(args), k;

	ck_assert_msg(o.status == 2 && strstr(o.err, "--memcg 'b': no lruvec samples"), "%d %s",
		      o.status, o.err);
	ck_assert_int_ne(access(out, F_OK), 0);
	k = cli_run(ok);
	ck_assert_msg(k.status == 0, "%s", k.err);
	unlink(out);
	cli_out_free(&o);
	cli_out_free(&k);
	unlink(pb);
	free(pb);
	free(out);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* quickstart: memory.max of /app (6G at scale 1/32: 192 MiB) is a dashed line. */
START_TEST(test_plot_memory_limits)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *t = script_of(dir, pb, "memory", NULL, NULL);

	ck_assert_msg(strstr(t, " 192 with lines lw 1.5 lc rgb '#1f77b4' dt 2"), "%s", t);
	ck_assert_ptr_nonnull(strstr(t, "title 'memory.max'"));
	/* the root's memory.current is the others' sum: not a panel of its own */
	ck_assert_ptr_null(strstr(t, "set title '/'"));
	ck_assert_ptr_nonnull(strstr(t, "set title '/app'"));
	free(t);
	unlink(pb);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* The pages (x) of sample key in the first n stats rows of run 0 of pb, and their times. */
static int stats_of(const char *pb, const char *key, double *t, double *x, int n)
{
	FILE *f = fopen(pb, "rb");
	char why[256];
	Mmemu__Invocation *inv;
	int k = 0;

	ck_assert_ptr_nonnull(f);
	inv = result_file_read(f, why, sizeof(why));
	fclose(f);
	ck_assert_msg(inv != NULL, "%s", why);
	for (size_t s = 0; s < inv->runs[0]->n_samples && k < n; s++) {
		char *text = result_sample_text(inv->runs[0]->samples[s]);
		json_t *o = json_loads(text, 0, NULL);

		free(text);

		ck_assert_ptr_nonnull(o);
		if (!strcmp(json_string_value(json_object_get(o, "kind")), "stats")) {
			t[k] = json_number_value(json_object_get(o, "t"));
			x[k++] = json_number_value(json_object_get(o, key));
		}
		json_decref(o);
	}
	mmemu__invocation__free_unpacked(inv, NULL);
	return k;
}

/*
 * pgscan-rate: the machine's pgscan and pgsteal per second, a panel each,
 * the difference of the samples' counters over their times.
 */
START_TEST(test_plot_pgscan_rate)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *t, want[128];
	const char *keys[] = { "pgscan", "pgsteal" };
	double ts[8], xs[8];

	t = script_of(dir, pb, "pgscan-rate", NULL, NULL);
	ck_assert_ptr_nonnull(strstr(t, "set title 'pgscan/s: pages reclaim scanned"));
	ck_assert_ptr_nonnull(strstr(t, "set title 'pgsteal/s: pages it reclaimed"));
	ck_assert_ptr_nonnull(strstr(t, "set ylabel 'pages/s'"));
	for (int k = 0; k < 2; k++) {
		int n = stats_of(pb, keys[k], ts, xs, 8);

		ck_assert_int_ge(n, 5);
		/* run 0's block of key: its rate at the 5th sample */
		snprintf(want, sizeof(want), "\n%.6f %.10g\n", ts[4], (xs[4] - xs[3]) / (ts[4] - ts[3]));
		ck_assert_msg(strstr(t, want), "%s: no%s in\n%.3000s", keys[k], want, t);
		ck_assert_msg(xs[4] > xs[3], "%s does not grow at %g s: a test of nothing", keys[k],
			      ts[4]);
	}
	free(t);
	unlink(pb);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/* plot pb --what what --from from --to to -o dir/x.svg --script dir/x.gp: the script's text. */
static char *window_script(const char *dir, const char *pb, const char *what, const char *from,
			   const char *to)
{
	char *svg = path_in(dir, "x.svg"), *gp = path_in(dir, "x.gp"), *text;
	const char *args[] = { "plot", pb, "--what", what, "-o", svg, "--script", gp,
			       "--from", from, "--to", to, NULL };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 0, "--what %s --from %s --to %s: %d %s", what, from, to,
		      o.status, o.err);
	text = slurp(gp);
	cli_out_free(&o);
	unlink(svg);
	unlink(gp);
	free(svg);
	free(gp);
	return text;
}

/*
 * --from and --to (run --sample's syntax) draw the samples of a window of
 * time only: the x axis is the window, no point outside it, rates start at
 * its first sample; bad values, an empty window and one past the runs' end
 * exit 2 with a message naming the option.
 */
START_TEST(test_plot_window)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *t, *svg = path_in(dir, "w.svg");
	static const char *const whats[] = { "refaults", "gens", "memory", "pgscan-rate",
						   "pressure" };
	static const struct {
		const char *from, *to, *says;
	} bad[] = {
		{ "x", NULL, "--from 'x': expected a time" },
		{ NULL, "2 s", "--to '2 s': expected a time" },
		{ "-1s", NULL, "--from '-1s'" },
		{ "", NULL, "--from '': expected a time" },
		{ "300ms", "0.3", "--from 300ms is not before --to 0.3" },
		{ "0.5s", "100ms", "--from 0.5s is not before --to 100ms" },
		{ "5s", NULL, "no samples from 5s to the end (the runs end at 0.605 s)" },
	};

	for (size_t w = 0; w < sizeof(whats) / sizeof(whats[0]); w++) {
		t = window_script(dir, pb, whats[w], "300ms", "0.5");
		ck_assert_msg(strstr(t, "\n0.400000 "), "%s: nothing at 0.4 s", whats[w]);
		ck_assert_msg(!strstr(t, "\n0.200000 ") && !strstr(t, "\n0.600000 ") &&
			      !strstr(t, "\n0.100000 "), "%s: a point outside 0.3 to 0.5 s", whats[w]);
		if (!strcmp(whats[w], "gens"))
			ck_assert_msg(strstr(t, "set xrange [0.300000:0.500000]"), "%.2000s", t);
		else
			ck_assert_msg(strstr(t, "set xrange [0.300000:*]") &&
				      strstr(t, "set xrange [:0.500000]"), "%s: %.2000s", whats[w], t);
		/* a rate's first point is the window's second sample, not a count over 0.3 s */
		if (!strcmp(whats[w], "refaults"))
			ck_assert_msg(!strstr(t, "\n0.300000 "), "%.2000s", t);
		free(t);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[12] = { "plot", pb, "-o", svg };
		int n = 4;
		struct cli_out o;

		if (bad[i].from) {
			args[n++] = "--from";
			args[n++] = bad[i].from;
		}
		if (bad[i].to) {
			args[n++] = "--to";
			args[n++] = bad[i].to;
		}
		o = cli_run(args);
		ck_assert_msg(o.status == 2 && strstr(o.err, "mmemu: plot: ") &&
			      strstr(o.err, bad[i].says), "--from %s --to %s: %d %s", bad[i].from,
			      bad[i].to, o.status, o.err);
		ck_assert_int_ne(access(svg, F_OK), 0);
		cli_out_free(&o);
	}
	unlink(pb);
	free(pb);
	free(svg);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

/*
 * One palette: the gens plot fills the bands and writes its legend with
 * tools/palette.c's colours, and the page of mmemu view carries the same
 * table, which tools/view.js colours its bands from.
 */
START_TEST(test_plot_view_one_palette)
{
	char *dir = temp_dir(), *pb = saved_run(dir), *html = path_in(dir, "v.html"), *t;
	char want[256];
	const char *view[] = { "view", pb, "-o", html, NULL };
	struct cli_out o;

	t = script_of(dir, pb, "gens", NULL, NULL);
	for (int k = 0; k < MMEMU_SAMPLE_MAX_GENS; k++) {
		snprintf(want, sizeof(want), k ? "max_seq-%d" : "max_seq", k);
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s' at screen",
			 k == 0 ? " (youngest)" : k == MMEMU_SAMPLE_MAX_GENS - 1 ? " (oldest)" : "");
		ck_assert_msg(strstr(t, want), "no legend of %s", want);
		ck_assert_msg(strstr(strstr(t, want), gen_colors[k]) ==
			      strstr(strstr(t, want), "tc rgb '") + 8, "%s is not %s", want, gen_colors[k]);
		snprintf(want, sizeof(want), "fc rgb '%s'", gen_colors[k]);
		/* the youngest generation may be empty in every panel; the others are filled */
		ck_assert_msg(k == 0 || strstr(t, want), "no band of max_seq-%d in %s", k, gen_colors[k]);
	}
	free(t);
	o = cli_run(view);
	ck_assert_msg(o.status == 0, "%s", o.err);
	cli_out_free(&o);
	t = slurp(html);
	snprintf(want, sizeof(want), "window.mmemuPalette = {\"gens\": [\"%s\", \"%s\", \"%s\", \"%s\"]};",
		 gen_colors[0], gen_colors[1], gen_colors[2], gen_colors[3]);
	ck_assert_msg(strstr(t, want), "the page has no %s", want);
	free(t);
	unlink(html);
	unlink(pb);
	free(html);
	free(pb);
	ck_assert_int_eq(rmdir(dir), 0);
	free(dir);
}
END_TEST

static Suite *plot_suite(void)
{
	Suite *s = suite_create("plot");
	TCase *tc = tcase_create("render");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_plot_gens);
	tcase_add_test(tc, test_plot_memory);
	tcase_add_test(tc, test_plot_throughput);
	tcase_add_test(tc, test_plot_refaults);
	tcase_add_test(tc, test_plot_pressure);
	tcase_add_test(tc, test_plot_pressure_values);
	tcase_add_test(tc, test_plot_gens_panels);
	tcase_add_test(tc, test_plot_memory_limits);
	tcase_add_test(tc, test_plot_pgscan_rate);
	tcase_add_test(tc, test_plot_window);
	tcase_add_test(tc, test_plot_view_one_palette);
	suite_add_tcase(s, tc);

	tc = tcase_create("readable");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_plot_png_bounded);
	tcase_add_test(tc, test_plot_chrome_panels);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_plot_bad_input_exit_2);
	tcase_add_test(tc, test_plot_no_gnuplot_exit_2);
	tcase_add_test(tc, test_plot_crafted_input_exit_2);
	tcase_add_test(tc, test_plot_names_whole);
	tcase_add_test(tc, test_plot_more_names_than_a_run);
	tcase_add_test(tc, test_plot_memcg_without_lruvec_exit_2);
	tcase_add_test(tc, test_plot_refuses_mixing);
	tcase_add_test(tc, test_plot_script_unwritable_says_why);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plot_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
