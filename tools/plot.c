/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu plot: time series of saved results, drawn by gnuplot.
 *
 * Each mmemu.Run holds its samples as JSON object strings (scenarios/run.c
 * writes them): "stats" rows (cumulative counters, memory.current per memcg,
 * operations per workload), "gens" rows (MGLRU: pages per generation of one
 * lruvec) and "lists" rows (classic: the four LRU lists of one lruvec).
 * libjansson reads them into series; the plot is a gnuplot script with the
 * data inline (datablocks), run in a temporary directory, its image read
 * back from gnuplot's standard output and written to -o with every write
 * checked. The image format follows the -o extension: .svg or .png
 * (pngcairo when the gnuplot has it, else libgd's png).
 *
 *   memory      memory.current of each memcg (MiB), one line per policy x memcg
 *   throughput  ops/s of each workload (one panel each), one line per policy
 *   refaults    workingset refaults/s, file and anon panels, one line per policy
 *   gens        one panel per lruvec (memcg, node) and policy: MGLRU
 *               generations stacked oldest at the bottom, each band one seq;
 *               for classic the four lists stacked
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "models/policy/mglru.h"
#include "scenarios/result.h"
#include "scenarios/scenario.h"
#include "tools/help.h"
#include "tools/plot.h"
#include "tools/sink.h"

/* ---- the sample rows, read with libjansson ---- */

/*
 * Every value plot reads from a file is checked before it is used: a
 * result that is not a sane run (a time going back, a counter going down,
 * a negative or fractional page count, generations that are not
 * consecutive or move back, a node the machine cannot have) is an error
 * naming the sample, never drawn, indexed or allocated for.
 */

/* The largest integer a double holds exactly: counts and seqs stay below it. */
#define EXACT_MAX 9007199254740992.0	/* 2^53 */

/*
 * A lruvec's generations become columns of one datablock, one row per
 * sample: at most this many numbers (estimate: a gnuplot script of about
 * 50 MB, far more than a readable plot; a real run has a few hundred
 * generations over a few hundred samples).
 */
#define PLOT_MAX_CELLS (1 << 22)

/* The number at o[key]; false when missing, not a number or not finite. */
static bool jnum(const json_t *o, const char *key, double *x)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_number(v))
		return false;
	*x = json_number_value(v);
	return isfinite(*x);
}

/* A count at o[key]: a whole number in [0, 2^53]. */
static bool jcount(const json_t *o, const char *key, double *x)
{
	return jnum(o, key, x) && *x >= 0 && *x <= EXACT_MAX && *x == floor(*x);
}

__attribute__((format(printf, 2, 3)))
static int bad(char *why, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, 256, fmt, ap);
	va_end(ap);
	return -1;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, "mmemu: plot: out of memory\n");
		exit(2);
	}
	return d;
}

/* ---- the series of one run ---- */

struct series {
	char *name;		/* memcg, workload or refault type */
	double *t, *v;
	int n, cap;
};

struct seriesset {
	struct series *s;
	int n, cap;
};

/* One sample of one lruvec: pages per generation from seq0 on (gens), or the four lists. */
struct lvrow {
	double t;
	long long seq0;
	int n;
	double *v;
};

struct lvec {
	char *memcg;
	int node;
	bool gens;		/* MGLRU generations, else classic lists */
	struct lvrow *rows;
	int n, cap;
};

struct prun {
	char *label;		/* the policy, with options and a number if needed */
	struct seriesset mem;	/* memory.current (bytes) per memcg */
	struct seriesset ops;	/* cumulative operations per workload */
	struct seriesset refault; /* "file", "anon": cumulative workingset refaults */
	int nr_stats;
	double last_stats_t;	/* the time of the last "stats" row */
	struct lvec *lv;
	int nlv, caplv;
};

static const char *const list_names[4] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file",
};

static void *grow(void *p, int *cap, int n, size_t size)
{
	void *q;

	if (n < *cap)
		return p;
	q = realloc(p, (size_t)(*cap ? 2 * *cap : 16) * size);
	if (q)
		*cap = *cap ? 2 * *cap : 16;
	return q;
}

static struct series *series_get(struct seriesset *ss, const char *name)
{
	struct series *s;

	for (int i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i].name, name))
			return &ss->s[i];
	s = grow(ss->s, &ss->cap, ss->n, sizeof(*s));
	if (!s)
		return NULL;
	ss->s = s;
	s = &ss->s[ss->n++];
	memset(s, 0, sizeof(*s));
	s->name = xstrdup(name);
	return s;
}

static int series_add(struct seriesset *ss, const char *name, double t, double v)
{
	struct series *s = series_get(ss, name);
	double *tt, *vv;
	int cap;

	if (!s)
		return -1;
	cap = s->cap;
	tt = grow(s->t, &cap, s->n, sizeof(*tt));
	if (!tt)
		return -1;
	s->t = tt;
	cap = s->cap;
	vv = grow(s->v, &cap, s->n, sizeof(*vv));
	if (!vv)
		return -1;
	s->v = vv;
	s->cap = cap;
	s->t[s->n] = t;
	s->v[s->n++] = v;
	return 0;
}

/* The last value of the series name in ss, or -1 when it has none. */
static double series_last(const struct seriesset *ss, const char *name)
{
	for (int i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i].name, name))
			return ss->s[i].n ? ss->s[i].v[ss->s[i].n - 1] : -1;
	return -1;
}

static void seriesset_free(struct seriesset *ss)
{
	for (int i = 0; i < ss->n; i++) {
		free(ss->s[i].name);
		free(ss->s[i].t);
		free(ss->s[i].v);
	}
	free(ss->s);
}

static void prun_free(struct prun *r)
{
	free(r->label);
	seriesset_free(&r->mem);
	seriesset_free(&r->ops);
	seriesset_free(&r->refault);
	for (int i = 0; i < r->nlv; i++) {
		for (int k = 0; k < r->lv[i].n; k++)
			free(r->lv[i].rows[k].v);
		free(r->lv[i].rows);
		free(r->lv[i].memcg);
	}
	free(r->lv);
}

static struct lvec *lvec_get(struct prun *r, const char *memcg, int node, bool gens)
{
	struct lvec *lv;

	for (int i = 0; i < r->nlv; i++)
		if (!strcmp(r->lv[i].memcg, memcg) && r->lv[i].node == node && r->lv[i].gens == gens)
			return &r->lv[i];
	lv = grow(r->lv, &r->caplv, r->nlv, sizeof(*lv));
	if (!lv)
		return NULL;
	r->lv = lv;
	lv = &r->lv[r->nlv++];
	memset(lv, 0, sizeof(*lv));
	lv->memcg = xstrdup(memcg);
	lv->node = node;
	lv->gens = gens;
	return lv;
}

/* Whether ss has a series of that name. */
static bool series_has(const struct seriesset *ss, const char *name)
{
	for (int i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i].name, name))
			return true;
	return false;
}

/*
 * Every value of the object o (name -> count) into ss at time t; a
 * cumulative counter (ops) must not go down from its last value. A run has
 * at most max names in all (memcgs, workloads): more is not a run, and
 * would make every lookup longer.
 */
static int add_map(struct seriesset *ss, const json_t *o, const char *what, int max, double t,
		   bool cumulative, char *why)
{
	const char *key;
	json_t *v;

	if (!json_is_object(o))
		return bad(why, "no %s object", what);
	json_object_foreach((json_t *)o, key, v) {
		double x = json_is_number(v) ? json_number_value(v) : -1;

		if (ss->n >= max && !series_has(ss, key))
			return bad(why, "%s: more than %d names in a run, more than the model has",
				   what, max);
		if (!(x >= 0 && x <= EXACT_MAX * 4096) || x != floor(x))
			return bad(why, "%s of '%.60s' is not a count", what, key);
		if (cumulative && x < series_last(ss, key))
			return bad(why, "%s of '%.60s' went down (%.0f after %.0f): not a counter",
				   what, key, x, series_last(ss, key));
		if (series_add(ss, key, t, x))
			return bad(why, "out of memory");
	}
	return 0;
}

/* The pages per generation of a "gens" row: consecutive seqs, at most MAX_NR_GENS. */
static int gens_of(const json_t *g, struct lvrow *row, char *why)
{
	size_t n = json_array_size(g);

	if (!json_is_array(g) || !n || n > MAX_NR_GENS)
		return bad(why, "gens is not an array of 1 to %d generations", MAX_NR_GENS);
	row->n = (int)n;
	row->v = calloc(n, sizeof(*row->v));
	if (!row->v)
		return bad(why, "out of memory");
	for (size_t i = 0; i < n; i++) {
		const json_t *gi = json_array_get(g, i);
		double seq, anon, file;

		if (!jcount(gi, "seq", &seq) || !jcount(gi, "anon", &anon) ||
		    !jcount(gi, "file", &file))
			return bad(why, "generation %zu: seq, anon and file are not counts", i + 1);
		if (!i)
			row->seq0 = (long long)seq;
		else if ((long long)seq != row->seq0 + (long long)i)
			return bad(why, "generation %zu: seq %.0f does not follow %lld", i + 1, seq,
				   row->seq0 + (long long)i - 1);
		row->v[i] = anon + file;
	}
	return 0;
}

/* A "gens" or "lists" row. */
static int add_lruvec_row(struct prun *r, const json_t *o, double t, bool gens, char *why)
{
	const json_t *memcg = json_object_get(o, "memcg");
	struct lvrow row = { .t = t };
	struct lvec *lv;
	double node;

	if (!json_is_string(memcg))
		return bad(why, "no memcg");
	if (!jcount(o, "node", &node) || node >= SCN_MAX_NODES)
		return bad(why, "node is not a node (0 to %d)", SCN_MAX_NODES - 1);
	if (gens) {
		if (gens_of(json_object_get(o, "gens"), &row, why)) {
			free(row.v);
			return -1;
		}
	} else {
		row.n = 4;
		row.v = calloc(4, sizeof(*row.v));
		if (!row.v)
			return bad(why, "out of memory");
		for (int i = 0; i < 4; i++)
			if (!jcount(o, list_names[i], &row.v[i])) {
				free(row.v);
				return bad(why, "%s is not a count", list_names[i]);
			}
	}
	/* every (memcg, node), as generations or lists: no more in a run */
	if (r->nlv >= MAX_MEMCGS * SCN_MAX_NODES * 2) {
		bool known = false;

		for (int i = 0; i < r->nlv && !known; i++)
			known = !strcmp(r->lv[i].memcg, json_string_value(memcg)) &&
				r->lv[i].node == (int)node && r->lv[i].gens == gens;
		if (!known) {
			free(row.v);
			return bad(why, "more than %d lruvecs in a run, more than the model has",
				   MAX_MEMCGS * SCN_MAX_NODES * 2);
		}
	}
	lv = lvec_get(r, json_string_value(memcg), (int)node, gens);
	if (lv && lv->n) {
		const struct lvrow *last = &lv->rows[lv->n - 1];

		/* min_seq and max_seq never go back (mm/vmscan.c: they only move on) */
		if (t < last->t || (gens && (row.seq0 < last->seq0 ||
					     row.seq0 + row.n < last->seq0 + last->n))) {
			free(row.v);
			return bad(why, "memcg '%.60s' node %.0f: %s before its previous sample's",
				   json_string_value(memcg), node,
				   t < last->t ? "the time is" : "the generations are");
		}
	}
	if (lv) {
		struct lvrow *rows = grow(lv->rows, &lv->cap, lv->n, sizeof(*rows));

		if (rows) {
			lv->rows = rows;
			lv->rows[lv->n++] = row;
			return 0;
		}
	}
	free(row.v);
	return bad(why, "out of memory");
}

/* A "stats" row: refault counters, memory.current per memcg, operations per workload. */
static int add_stats_row(struct prun *r, const json_t *o, double t, char *why)
{
	static const char *const refaults[2][2] = {
		{ "workingset_refault_file", "file" }, { "workingset_refault_anon", "anon" },
	};

	if (r->nr_stats && t < r->last_stats_t)
		return bad(why, "time %g is before the previous sample's %g", t, r->last_stats_t);
	for (int i = 0; i < 2; i++) {
		double x;

		if (!jcount(o, refaults[i][0], &x))
			return bad(why, "%s is not a count", refaults[i][0]);
		if (x < series_last(&r->refault, refaults[i][1]))
			return bad(why, "%s went down (%.0f after %.0f): not a counter",
				   refaults[i][0], x, series_last(&r->refault, refaults[i][1]));
		if (series_add(&r->refault, refaults[i][1], t, x))
			return bad(why, "out of memory");
	}
	if (add_map(&r->mem, json_object_get(o, "memory_current"), "memory_current", MAX_MEMCGS, t,
		    false, why) ||
	    add_map(&r->ops, json_object_get(o, "ops"), "ops", SCN_MAX_WORKLOADS, t, true, why))
		return -1;
	r->nr_stats++;
	r->last_stats_t = t;
	return 0;
}

/* One sample row; rows of other kinds are skipped. 0, or -1 with why. */
static int add_sample(struct prun *r, const char *text, char *why)
{
	json_error_t jerr;
	json_t *o = json_loads(text, 0, &jerr);
	const char *kind;
	double t;
	int rc = -1;

	if (!json_is_object(o)) {
		bad(why, "not a JSON object");
		goto out;
	}
	kind = json_string_value(json_object_get(o, "kind"));
	if (!kind) {
		bad(why, "no kind");
		goto out;
	}
	if (!jnum(o, "t", &t) || t < 0 || t > 1e12) {
		bad(why, "t is not a time (seconds)");
		goto out;
	}
	if (!strcmp(kind, "stats"))
		rc = add_stats_row(r, o, t, why);
	else if (!strcmp(kind, "gens") || !strcmp(kind, "lists"))
		rc = add_lruvec_row(r, o, t, !strcmp(kind, "gens"), why);
	else
		rc = 0;
out:
	json_decref(o);
	return rc;
}

/* ---- the gnuplot script ---- */

/* A gnuplot single-quoted string ('' is a quote). */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* Policy colours (lines), generation colours (bands, by seq), list colours. */
static const char *const policy_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NR_POLICY_COLORS (int)(sizeof(policy_colors) / sizeof(policy_colors[0]))
static const char *const gen_colors[] = {
	"#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
};
#define NR_GEN_COLORS (int)(sizeof(gen_colors) / sizeof(gen_colors[0]))
static const char *const list_colors[4] = { "#f4a582", "#b2182b", "#92c5de", "#2166ac" };

enum what { W_GENS, W_MEMORY, W_THROUGHPUT, W_REFAULTS };
static const char *const what_names[] = { "gens", "memory", "throughput", "refaults" };

struct plot {
	struct prun *runs;
	int nr_runs;
	bool png;
	const char *out;	/* the image; named in the script only when to_file */
	bool to_file;		/* "set output": the --script copy, else gnuplot's stdout */
	const char *title;	/* scenario, scale */
	int nblock;		/* datablocks written */
	double ymax;		/* the largest y in them since it was last reset */
	bool note;		/* say on stderr what is left out (for one of the scripts) */
};

static void gp_header(FILE *f, const struct plot *p, int width, int height)
{
	fprintf(f, "# mmemu plot: %s\nset encoding utf8\n", p->title);
	if (p->png)
		fprintf(f,
			"if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %d,%d font 'sans,10' noenhanced background rgb 'white'\n"
			"} else {\n"
			"  set terminal png size %d,%d noenhanced background rgb 'white'\n"
			"}\n",
			width, height, width, height);
	else
		fprintf(f, "set terminal svg size %d,%d dynamic font 'sans,11' noenhanced "
			   "background rgb 'white'\n", width, height);
	if (p->to_file) {
		fprintf(f, "set output ");
		gp_str(f, p->out);
		fputc('\n', f);
	}
	fprintf(f, "set grid lc rgb '#dddddd'\nset border lc rgb '#555555'\n"
		   "set xlabel 'time (s)'\nset xrange [0:*]\nset autoscale xfixmax\nset yrange [0:*]\n"
		   "set key top left box opaque font ',9'\n");
}

static void gp_footer(FILE *f, bool multiplot)
{
	if (multiplot)
		fprintf(f, "unset multiplot\n");
	fprintf(f, "unset output\n");
}

/*
 * A datablock of (t, y) points of s; a rate (differences from t = 0 and a
 * zero count) when rate is set. Returns its number.
 */
static int gp_block(FILE *f, struct plot *p, const struct series *s, double scale, bool rate)
{
	double t0 = 0, v0 = 0;

	fprintf(f, "$d%d << EOD\n", p->nblock);
	for (int i = 0; i < s->n; i++) {
		double y;

		if (!rate) {
			y = s->v[i] * scale;
		} else if (s->t[i] > t0) {
			y = (s->v[i] - v0) / (s->t[i] - t0) * scale;
			t0 = s->t[i];
			v0 = s->v[i];
		} else {
			continue;
		}
		fprintf(f, "%.6f %.10g\n", s->t[i], y);
		if (y > p->ymax)
			p->ymax = y;
	}
	fprintf(f, "EOD\n");
	return p->nblock++;
}

static void gp_line(FILE *f, bool first, int block, int color, int dash, const char *title)
{
	fprintf(f, "%s $d%d using 1:2 with lines lw 2 lc rgb '%s' dt %d title ", first ? "plot" : ",",
		block, policy_colors[color % NR_POLICY_COLORS], dash % 5 + 1);
	gp_str(f, title);
	fprintf(f, " \\\n");
}

/* The names in set `which` of every run, first-seen order, into a malloc'ed *names. */
static int union_names(const struct plot *p, size_t off, const char ***names)
{
	int n = 0, cap = 0;

	*names = NULL;
	for (int r = 0; r < p->nr_runs; r++) {
		const struct seriesset *ss = (const void *)((const char *)&p->runs[r] + off);

		for (int i = 0; i < ss->n; i++) {
			const char **grown;
			int k;

			for (k = 0; k < n && strcmp((*names)[k], ss->s[i].name); k++)
				;
			if (k < n)
				continue;
			grown = grow(*names, &cap, n, sizeof(**names));
			if (!grown) {
				fprintf(stderr, "mmemu: plot: out of memory\n");
				exit(2);
			}
			*names = grown;
			(*names)[n++] = ss->s[i].name;
		}
	}
	return n;
}

/* A malloc'ed printf: the titles hold whole names. */
__attribute__((format(printf, 1, 2)))
static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fprintf(stderr, "mmemu: plot: out of memory\n");
		exit(2);
	}
	return s;
}

static const struct series *find_series(const struct seriesset *ss, const char *name)
{
	for (int i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i].name, name))
			return &ss->s[i];
	return NULL;
}

static void plot_memory(FILE *f, struct plot *p)
{
	const char **names;
	int n = union_names(p, offsetof(struct prun, mem), &names), lines = 0;
	bool first = true;

	for (int r = 0; r < p->nr_runs; r++)
		for (int m = 0; m < n; m++)
			lines += find_series(&p->runs[r].mem, names[m]) != NULL;
	/* tall enough for the key to name every line (gnuplot leaves out what does not fit) */
	gp_header(f, p, 1000, lines * 16 + 120 > 600 ? lines * 16 + 120 : 600);
	fprintf(f, "set title ");
	gp_str(f, "memory.current per memcg \xe2\x80\x94 ");
	fprintf(f, " . ");
	gp_str(f, p->title);
	fprintf(f, "\nset ylabel 'MiB'\nset key outside right top\n");
	/* the data first: a datablock cannot start inside a plot command */
	p->ymax = 0;
	for (int pass = 0, block = p->nblock; pass < 2; pass++) {
		if (pass)	/* all zero: a range gnuplot need not warn about */
			fprintf(f, "set yrange [0:%s]\n", p->ymax > 0 ? "*" : "1");
		for (int r = 0; r < p->nr_runs; r++)
			for (int m = 0; m < n; m++) {
				const struct series *s = find_series(&p->runs[r].mem, names[m]);
				char *title;

				if (!s)
					continue;
				if (!pass) {
					gp_block(f, p, s, 1.0 / (1 << 20), false);
					continue;
				}
				title = xasprintf("%s %s", p->runs[r].label, names[m]);
				gp_line(f, first, block++, r, m, title);
				free(title);
				first = false;
			}
	}
	fprintf(f, "\n");
	gp_footer(f, false);
	free(names);
}

/* One panel per name (workload, or refault type), one line per run. */
static void plot_panels(FILE *f, struct plot *p, size_t off, const char *what,
			const char *panel_fmt, const char *ylabel)
{
	const char **names;
	int n = union_names(p, off, &names);

	gp_header(f, p, 1000, 120 + 300 * n);
	fprintf(f, "set format y '%%.0f'\nset ylabel ");
	gp_str(f, ylabel);
	fprintf(f, "\nset key outside right top\nset multiplot layout %d,1 title ", n);
	gp_str(f, what);
	fprintf(f, " . ' \xe2\x80\x94 ' . ");
	gp_str(f, p->title);
	fprintf(f, "\n");
	for (int k = 0; k < n; k++) {
		char *title = xasprintf(panel_fmt, names[k]);
		bool first = true;

		fprintf(f, "set title ");
		gp_str(f, title);
		fprintf(f, "\n");
		free(title);
		p->ymax = 0;
		for (int pass = 0, block = p->nblock; pass < 2; pass++) {
			if (pass)	/* all zero: a range gnuplot need not warn about */
				fprintf(f, "set yrange [0:%s]\n", p->ymax > 0 ? "*" : "1");
			for (int r = 0; r < p->nr_runs; r++) {
				const struct series *s = find_series(
					(const void *)((const char *)&p->runs[r] + off), names[k]);

				if (!s)
					continue;
				if (!pass)
					gp_block(f, p, s, 1, true);
				else
					gp_line(f, first, block++, r, 0, p->runs[r].label);
				first = !pass;
			}
		}
		fprintf(f, "\n");
	}
	gp_footer(f, true);
	free(names);
}

/* ---- gens ---- */

static bool lvec_empty(const struct lvec *lv)
{
	for (int k = 0; k < lv->n; k++)
		for (int i = 0; i < lv->rows[k].n; i++)
			if (lv->rows[k].v[i] != 0)
				return false;
	return true;
}

static const struct lvec *find_lvec(const struct prun *r, const char *memcg, int node)
{
	for (int i = 0; i < r->nlv; i++)
		if (!strcmp(r->lv[i].memcg, memcg) && r->lv[i].node == node)
			return &r->lv[i];
	return NULL;
}

/*
 * One lruvec of one run: bands stacked oldest at the bottom (generations
 * by seq, or the four lists), the total on top, and each wide enough
 * generation labelled with its seq where it is widest.
 */
static void gens_panel(FILE *f, struct plot *p, const struct prun *r, const struct lvec *lv)
{
	long long lo = 0, hi = -1;
	int nb, block = p->nblock++;
	double ymax = 0, tmax = 0;
	double *best_w, *best_t, *best_y;
	char *title;

	if (lv->gens) {
		for (int k = 0; k < lv->n; k++) {
			if (!k || lv->rows[k].seq0 < lo)
				lo = lv->rows[k].seq0;
			if (!k || lv->rows[k].seq0 + lv->rows[k].n - 1 > hi)
				hi = lv->rows[k].seq0 + lv->rows[k].n - 1;
		}
		nb = (int)(hi - lo + 1);
	} else {
		nb = 4;
	}
	if (nb < 0)
		nb = 0;
	best_w = calloc((size_t)nb + 1, sizeof(double));
	best_t = calloc((size_t)nb + 1, sizeof(double));
	best_y = calloc((size_t)nb + 1, sizeof(double));

	/* columns: t, 0, then the top of each band */
	fprintf(f, "$d%d << EOD\n", block);
	for (int k = 0; k < lv->n; k++) {
		const struct lvrow *row = &lv->rows[k];
		double cum = 0;

		fprintf(f, "%.6f 0", row->t);
		for (int b = 0; b < nb; b++) {
			long long i = lv->gens ? lo + b - row->seq0 : b;
			double w = i >= 0 && i < row->n ? row->v[i] : 0;

			if (best_w && w > best_w[b]) {
				best_w[b] = w;
				best_t[b] = row->t;
				best_y[b] = cum + w / 2;
			}
			cum += w;
			fprintf(f, " %.10g", cum);
		}
		if (cum > ymax)
			ymax = cum;
		if (row->t > tmax)
			tmax = row->t;
		fprintf(f, "\n");
	}
	fprintf(f, "EOD\n");

	title = xasprintf("memcg %s node %d \xe2\x80\x94 %s", lv->memcg, lv->node, r->label);
	fprintf(f, "set title ");
	gp_str(f, title);
	free(title);
	fprintf(f, "\nunset label\n");
	/*
	 * Labels near either end of the time axis are aligned to stay inside;
	 * one that would overlap a label already placed is left out.
	 */
	if (lv->gens && best_w)
		for (int b = 0, placed = 0; b < nb; b++) {
			bool clash = false;

			if (!(best_w[b] > 0 && best_w[b] >= 0.06 * ymax))
				continue;
			for (int q = 0; q < placed && !clash; q++)
				clash = fabs(best_t[q] - best_t[b]) < 0.08 * tmax &&
					fabs(best_y[q] - best_y[b]) < 0.06 * ymax;
			if (clash)
				continue;
			fprintf(f, "set label 'seq %lld' at %.6f,%.10g %s front font ',8'\n",
				lo + b, best_t[b], best_y[b],
				best_t[b] > 0.85 * tmax ? "right" :
				best_t[b] < 0.15 * tmax ? "left" : "center");
			/* the placed labels move to the front of the arrays */
			best_t[placed] = best_t[b];
			best_y[placed++] = best_y[b];
		}
	/* head room for the key (classic) */
	fprintf(f, "set yrange [0:%.10g]\n", ymax > 0 ? ymax * (lv->gens ? 1.05 : 1.3) : 1.0);
	if (lv->gens)
		fprintf(f, "unset key\n");
	else
		fprintf(f, "set key top left box opaque font ',8' maxrows 2\n");
	fprintf(f, "plot");
	for (int b = 0; b < nb; b++) {
		if (best_w && best_w[b] == 0 && lv->gens)
			continue;
		fprintf(f, " $d%d using 1:%d:%d with filledcurves fs solid 0.85 border lc rgb 'white' "
			   "fc rgb '%s' ",
			block, b + 2, b + 3,
			lv->gens ? gen_colors[(lo + b) % NR_GEN_COLORS] : list_colors[b]);
		if (lv->gens) {
			fprintf(f, "notitle");
		} else {
			fprintf(f, "title ");
			gp_str(f, list_names[b]);
		}
		fprintf(f, ", \\\n    ");
	}
	fprintf(f, " $d%d using 1:%d with lines lw 1 lc rgb '#333333' title 'total'\n", block,
		nb + 2);
	free(best_w);
	free(best_t);
	free(best_y);
}

/*
 * The gens plot has a column per lruvec: at most this many (a 36000-pixel
 * wide image); the others are named on stderr as left out, never dropped
 * without a word.
 */
#define PLOT_MAX_COLUMNS 64

struct lkey {
	const char *memcg;	/* the lvec's */
	int node;
};

static int plot_gens(FILE *f, struct plot *p)
{
	struct lkey *keys = NULL;
	int nk = 0, cap = 0, rows = 0, all = 0;

	/* the lruvecs with pages in any run, first-seen order */
	for (int r = 0; r < p->nr_runs; r++)
		for (int i = 0; i < p->runs[r].nlv; i++) {
			const struct lvec *lv = &p->runs[r].lv[i];
			bool seen = false;

			for (int k = 0; k < nk && !seen; k++)
				seen = !strcmp(keys[k].memcg, lv->memcg) && keys[k].node == lv->node;
			if (seen || lvec_empty(lv))
				continue;
			all++;
			if (nk == PLOT_MAX_COLUMNS)
				continue;
			keys = grow(keys, &cap, nk, sizeof(*keys));
			if (!keys)
				return -1;
			keys[nk++] = (struct lkey){ lv->memcg, lv->node };
		}
	if (all > nk && p->note)
		fprintf(stderr, "mmemu: plot: gens: %d lruvecs have pages; the first %d are drawn\n",
			all, nk);
	if (!nk) {
		for (int r = 0; r < p->nr_runs && !nk; r++)
			if (p->runs[r].nlv) {
				keys = grow(keys, &cap, nk, sizeof(*keys));
				if (!keys)
					return -1;
				keys[nk++] = (struct lkey){ p->runs[r].lv[0].memcg, p->runs[r].lv[0].node };
			}
		if (!nk)
			return -1;
	}
	for (int r = 0; r < p->nr_runs; r++)
		rows += p->runs[r].nlv > 0;

	gp_header(f, p, 40 + 560 * nk, 80 + 330 * rows);
	fprintf(f, "set format y '%%.0f'\nset ylabel 'pages'\nset multiplot layout %d,%d title ", rows, nk);
	gp_str(f, "lruvec sizes over time (anon + file pages): MGLRU generations stacked, "
		  "oldest at the bottom, labelled by seq; classic: its four lists \xe2\x80\x94 ");
	fprintf(f, " . ");
	gp_str(f, p->title);
	fprintf(f, "\n");
	for (int r = 0; r < p->nr_runs; r++) {
		if (!p->runs[r].nlv)
			continue;
		for (int k = 0; k < nk; k++) {
			const struct lvec *lv = find_lvec(&p->runs[r], keys[k].memcg, keys[k].node);

			if (lv)
				gens_panel(f, p, &p->runs[r], lv);
			else
				fprintf(f, "set multiplot next\n");
		}
	}
	gp_footer(f, true);
	free(keys);
	return 0;
}

/* ---- the command ---- */

__attribute__((format(printf, 1, 2)))
static int fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "mmemu: plot: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	return 2;
}


/* The gnuplot on PATH, in a static buffer; NULL if none. */
static const char *find_gnuplot(void)
{
	static char path[4096];
	const char *dirs = getenv("PATH");

	if (!dirs)
		dirs = "/usr/local/bin:/usr/bin:/bin";
	while (*dirs) {
		size_t len = strcspn(dirs, ":");

		snprintf(path, sizeof(path), "%.*s/gnuplot", (int)(len ? len : 1), len ? dirs : ".");
		if (!access(path, X_OK))
			return path;
		dirs += len + (dirs[len] == ':');
	}
	return NULL;
}

/*
 * The generations of each lruvec become a datablock of (span of seqs) x
 * (samples) numbers: refused beyond PLOT_MAX_CELLS. 0, or -1 with why.
 */
static int check_drawable(const struct prun *r, char *why)
{
	for (int i = 0; i < r->nlv; i++) {
		const struct lvec *lv = &r->lv[i];
		long long lo, hi;

		if (!lv->gens || !lv->n)
			continue;
		/* min_seq and max_seq only move on: the first row has the lowest, the last the highest */
		lo = lv->rows[0].seq0;
		hi = lv->rows[lv->n - 1].seq0 + lv->rows[lv->n - 1].n - 1;
		if ((double)(hi - lo + 1) * lv->n > PLOT_MAX_CELLS)
			return bad(why, "memcg '%.60s' node %d: %lld generations over %d samples, more "
				   "than a plot draws (%d numbers)", lv->memcg, lv->node, hi - lo + 1,
				   lv->n, PLOT_MAX_CELLS);
	}
	return 0;
}

/*
 * The runs of a saved invocation into p (path names it in messages); the
 * title from the first. 0, or a message and 2 when it is not a sane run.
 */
static int load_invocation(struct plot *p, const char *path, const Mmemu__Invocation *inv,
			   char **title)
{
	char why[256];

	if (!inv->n_runs) {
		fprintf(stderr, "mmemu: plot: '%s': holds no runs\n", path);
		return 2;
	}
	if (!*title)
		*title = xasprintf("%s, scale %g", inv->scenario_name, inv->scale);
	for (size_t i = 0; i < inv->n_runs; i++) {
		const Mmemu__Run *run = inv->runs[i];
		struct prun *runs = realloc(p->runs, (size_t)(p->nr_runs + 1) * sizeof(*runs)), *r;

		if (!runs)
			return fail("%s", "out of memory");
		p->runs = runs;
		r = &p->runs[p->nr_runs++];
		memset(r, 0, sizeof(*r));
		if (run->options && run->options[0])
			r->label = xasprintf("%s (%s)", run->policy, run->options);
		else
			r->label = xasprintf("%s", run->policy);
		for (size_t s = 0; s < run->n_samples; s++)
			if (add_sample(r, run->samples[s], why)) {
				fprintf(stderr, "mmemu: plot: '%s': run %zu (%s): sample %zu: %s, not a "
						"run's sample: %.80s\n",
					path, i + 1, run->policy, s + 1, why, run->samples[s]);
				return 2;
			}
		if (check_drawable(r, why)) {
			fprintf(stderr, "mmemu: plot: '%s': run %zu (%s): %s\n", path, i + 1,
				run->policy, why);
			return 2;
		}
	}
	return 0;
}

/* Reads a saved file's runs into p; a message and 2 when it is not one. */
static int load_file(struct plot *p, const char *path, char **title)
{
	FILE *f = fopen(path, "rb");
	Mmemu__Invocation *inv;
	char why[256];
	int rc;

	if (!f) {
		fprintf(stderr, "mmemu: plot: cannot open '%s': %s\n", path, strerror(errno));
		return 2;
	}
	inv = result_file_read(f, why, sizeof(why));
	fclose(f);
	if (!inv) {
		fprintf(stderr, "mmemu: plot: '%s': %s\n", path, why);
		return 2;
	}
	rc = load_invocation(p, path, inv, title);
	mmemu__invocation__free_unpacked(inv, NULL);
	return rc;
}

/* Same labels get the run's number, so every line has its own name. */
static void unique_labels(struct plot *p)
{
	for (int r = 0; r < p->nr_runs; r++) {
		bool dup = false;

		for (int q = 0; q < p->nr_runs; q++)
			dup |= q != r && !strcmp(p->runs[q].label, p->runs[r].label);
		if (dup) {
			char *l = xasprintf("%s #%d", p->runs[r].label, r + 1);

			free(p->runs[r].label);
			p->runs[r].label = l;
		}
	}
}

static int write_file(const char *path, const char *text, size_t len)
{
	FILE *f = fopen(path, "w");
	int rc = 0;

	if (!f)
		return -errno;
	if (fwrite(text, 1, len, f) != len)
		rc = -EIO;
	if (fclose(f) && !rc)
		rc = -errno;
	return rc;
}

/* The gnuplot script of the plot asked for, in a malloc'ed *text. 0 or -1. */
static int make_script(struct plot *p, enum what what, char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (!f)
		return -1;
	p->nblock = 0;
	switch (what) {
	case W_GENS:
		plot_gens(f, p);
		break;
	case W_MEMORY:
		plot_memory(f, p);
		break;
	case W_THROUGHPUT:
		plot_panels(f, p, offsetof(struct prun, ops), "throughput", "workload %s", "ops/s");
		break;
	case W_REFAULTS:
		plot_panels(f, p, offsetof(struct prun, refault), "workingset refaults",
			    "workingset_refault_%s", "pages/s");
		break;
	}
	return fclose(f) ? -1 : 0;
}

/*
 * Runs gnuplot on script with its standard output (the image) read into a
 * malloc'ed *img. Its exit status, or -1.
 */
static int run_gnuplot(const char *gnuplot, const char *script, char **img, size_t *len)
{
	size_t cap = 1 << 16;
	int status, fds[2];
	pid_t pid;

	*img = malloc(cap);
	*len = 0;
	if (!*img || pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(fds[0]);
		if (dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(127);
		execl(gnuplot, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	for (;;) {
		ssize_t n;

		if (*len == cap) {
			char *grown = realloc(*img, cap *= 2);

			if (!grown)
				break;
			*img = grown;
		}
		n = read(fds[0], *img + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		*len += (size_t)n;
	}
	close(fds[0]);
	if (waitpid(pid, &status, 0) < 0)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcasecmp(s + a - b, suffix);
}

int cmd_plot(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "what", required_argument, NULL, 'w' },
		{ "out", required_argument, NULL, 'o' },
		{ "script", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *what_arg = "gens", *out = NULL, *script_out = NULL, *gnuplot, *tmp;
	char default_out[32], *title = NULL, dir[4096], script[4200];
	struct plot p = { 0 };
	enum what what = W_GENS;
	char *text = NULL;
	size_t len = 0;
	int opt, rc = 0, nw;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "w:o:h", opts, NULL)) != -1) {
		switch (opt) {
		case 'w':
			what_arg = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 's':
			script_out = optarg;
			break;
		case 'h':
			help_command(stdout, "plot");
			return 0;
		default:
			help_command(stderr, "plot");
			return 2;
		}
	}
	for (nw = 0; nw < 4 && strcmp(what_arg, what_names[nw]); nw++)
		;
	if (nw == 4)
		return fail("--what '%s': expected gens, memory, throughput or refaults", what_arg);
	what = (enum what)nw;
	if (optind >= argc) {
		help_command(stderr, "plot");
		return 2;
	}
	if (!out) {
		snprintf(default_out, sizeof(default_out), "%s.svg", what_names[what]);
		out = default_out;
	}
	if (ends_with(out, ".png"))
		p.png = true;
	else if (!ends_with(out, ".svg"))
		return fail("-o '%s': expected a .svg or .png file", out);
	p.out = out;

	for (int i = optind; i < argc && !rc; i++)
		rc = load_file(&p, argv[i], &title);
	if (rc)
		goto out;
	unique_labels(&p);
	p.title = title;
	{
		int have = 0;

		for (int r = 0; r < p.nr_runs; r++)
			have += what == W_GENS ? p.runs[r].nlv : p.runs[r].nr_stats;
		if (!have) {
			rc = fail("%s: no samples of that kind in the runs (saved with --sample 0?)",
				  what_names[what]);
			goto out;
		}
	}

	if (script_out) {
		p.to_file = true;
		if (make_script(&p, what, &text, &len)) {
			rc = fail("%s", "out of memory");
			goto out;
		}
		if (write_file(script_out, text, len)) {
			rc = fail("--script '%s': cannot write it", script_out);
			goto out;
		}
		free(text);
		text = NULL;
		p.to_file = false;
	}
	p.note = true;
	if (make_script(&p, what, &text, &len)) {
		rc = fail("%s", "out of memory");
		goto out;
	}

	gnuplot = find_gnuplot();
	if (!gnuplot) {
		fprintf(stderr, "mmemu: plot: gnuplot not found (apt-get install gnuplot-nox)\n");
		rc = 2;
		goto out;
	}
	tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/mmemu-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		rc = fail("cannot make a temporary directory: %s", strerror(errno));
		goto out;
	}
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	if (write_file(script, text, len)) {
		rc = fail("cannot write '%s'", script);
	} else {
		char *img = NULL;
		size_t img_len = 0;
		int status = run_gnuplot(gnuplot, script, &img, &img_len);

		if (status || !img_len) {
			fprintf(stderr, "mmemu: plot: gnuplot failed (status %d) to draw '%s'\n",
				status, out);
			rc = 1;
		} else {
			rc = sink_write_bytes(img, img_len, out, "plot: -o");
			if (!rc)
				printf("plot: wrote %s\n", out);
		}
		free(img);
	}
	unlink(script);
	rmdir(dir);
out:
	free(text);
	free(title);
	for (int r = 0; r < p.nr_runs; r++)
		prun_free(&p.runs[r]);
	free(p.runs);
	return rc;
}
