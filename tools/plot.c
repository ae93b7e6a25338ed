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
 *   swap        swap slots in use, zram's stored pages and pool memory
 *   pressure    memory.pressure some and full avg10 (percent) of each memcg
 *   pgscan-rate pgscan and pgsteal per second (the machine's)
 *   gens        one panel per lruvec (memcg, node) and policy: MGLRU
 *               generations stacked oldest next to the zero line, a band
 *               per age (max_seq, max_seq-1, ...) in the colours of mmemu
 *               view (tools/palette.c); for classic the four lists stacked.
 *               Past 8 lruvecs, each node's sum over every memcg first.
 *
 * --from and --to keep the samples in a window of simulated time; rates
 * then start at the first sample in it.
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

#include "models/mm.h"
#include "scenarios/result.h"
#include "scenarios/scenario.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/palette.h"
#include "tools/plot.h"
#include "tools/resultset.h"
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

/*
 * One sample of one lruvec: anon and file pages per generation from seq0
 * on (gens), or per list (classic: inactive, active).
 */
struct lvrow {
	double t;
	long long seq0;
	long long max_seq;	/* gens: the youngest generation's seq */
	long long min_seq[2];	/* gens: the oldest anon and file generation's seq */
	int n;			/* generations, or 2 lists of each type */
	double *anon, *file;	/* n each, one allocation at anon */
};

struct lvec {
	char *memcg;
	int node;
	bool gens;		/* MGLRU generations, else classic lists */
	struct lvrow *rows;
	int n, cap;
};

/* What a run says about one memcg besides its samples. */
struct mcinfo {
	char *name;		/* "/x", as in the samples */
	char *parent;		/* its parent's, from the samples; NULL when not said */
	double max, high;	/* memory.max and memory.high at the end (bytes, 0: none) */
	double pressure;	/* pgscan + workingset_refault_anon + _file at the end */
};

struct prun {
	char *label;		/* the policy, with options and a number if needed */
	struct seriesset mem;	/* memory.current (bytes) per memcg */
	struct seriesset swap;	/* "swap_used", "zram_stored", "zram_pool": pages */
	struct mcinfo *mc;	/* per memcg, first-seen order */
	int nmc, capmc;
	struct seriesset ops;	/* cumulative operations per workload */
	struct seriesset refault; /* "file", "anon": cumulative workingset refaults */
	struct seriesset psi_some, psi_full;	/* memory.pressure avg10 (percent) per memcg */
	struct seriesset scan;	/* "pgscan", "pgsteal": the machine's, cumulative */
	int nr_stats;
	double last_stats_t;	/* the time of the last "stats" row */
	double sim_seconds;	/* the run's length */
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
	seriesset_free(&r->swap);
	seriesset_free(&r->psi_some);
	seriesset_free(&r->psi_full);
	seriesset_free(&r->scan);
	for (int i = 0; i < r->nmc; i++) {
		free(r->mc[i].name);
		free(r->mc[i].parent);
	}
	free(r->mc);
	for (int i = 0; i < r->nlv; i++) {
		for (int k = 0; k < r->lv[i].n; k++)
			free(r->lv[i].rows[k].anon);
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


/* Room for n generations or lists of each type in row. */
static int row_alloc(struct lvrow *row, int n, char *why)
{
	row->n = n;
	row->anon = calloc(2 * (size_t)n, sizeof(*row->anon));
	if (!row->anon)
		return bad(why, "out of memory");
	row->file = row->anon + n;
	return 0;
}

/* A count of a saved row: a whole number a double holds exactly (seqs, pages). */
static bool is_count(double x)
{
	return x >= 0 && x <= EXACT_MAX;
}

/*
 * The pages per generation of a "gens" row: consecutive seqs, at most
 * MMEMU_SAMPLE_MAX_GENS; max_seq and min_seq agree with them (the oldest
 * generation is the lower min_seq, the youngest max_seq).
 */
static int gens_of(const Mmemu__Generations *g, struct lvrow *row, char *why)
{
	size_t n = g->n_gens;

	if (!n || n > MMEMU_SAMPLE_MAX_GENS)
		return bad(why, "gens is not an array of 1 to %d generations", MMEMU_SAMPLE_MAX_GENS);
	if (row_alloc(row, (int)n, why))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const Mmemu__Generation *gi = g->gens[i];

		if (!is_count((double)gi->seq) || !is_count((double)gi->anon) ||
		    !is_count((double)gi->file))
			return bad(why, "generation %zu: seq, anon and file are not counts", i + 1);
		row->anon[i] = (double)gi->anon;
		row->file[i] = (double)gi->file;
		if (!i)
			row->seq0 = (long long)gi->seq;
		else if ((long long)gi->seq != row->seq0 + (long long)i)
			return bad(why, "generation %zu: seq %llu does not follow %lld", i + 1,
				   (unsigned long long)gi->seq, row->seq0 + (long long)i - 1);
	}
	row->max_seq = row->seq0 + (long long)n - 1;
	if (g->max_seq != (uint64_t)row->max_seq)
		return bad(why, "max_seq is not the youngest generation's seq %lld", row->max_seq);
	if (g->min_seq_anon < (uint64_t)row->seq0 || g->min_seq_anon > (uint64_t)row->max_seq ||
	    g->min_seq_file < (uint64_t)row->seq0 || g->min_seq_file > (uint64_t)row->max_seq)
		return bad(why, "min_seq is not [anon, file] seqs of its generations");
	row->min_seq[0] = (long long)g->min_seq_anon;
	row->min_seq[1] = (long long)g->min_seq_file;
	if (row->min_seq[0] != row->seq0 && row->min_seq[1] != row->seq0)
		return bad(why, "the oldest generation %lld is neither min_seq", row->seq0);
	return 0;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* "/NAME": a memcg as the samples and the plot's titles name it (malloc'ed). */
static char *memcg_path(const char *name)
{
	return xasprintf("/%s", name);
}

/* A row of one lruvec: its generations ("gens") or its lists ("lists"). */
static int add_lruvec_row(struct prun *r, const Mmemu__LruvecRow *o, double t, char *why)
{
	bool gens = o->gens != NULL;
	struct lvrow row = { .t = t };
	struct lvec *lv;
	char *memcg;

	if (!o->gens == !o->lists)
		return bad(why, "neither generations nor lists");
	if (o->node < 0 || o->node >= SCN_MAX_NODES)
		return bad(why, "node is not a node (0 to %d)", SCN_MAX_NODES - 1);
	if (gens) {
		if (gens_of(o->gens, &row, why)) {
			free(row.anon);
			return -1;
		}
	} else {
		const uint64_t v[4] = { o->lists->inactive_anon, o->lists->active_anon,
					o->lists->inactive_file, o->lists->active_file };

		if (row_alloc(&row, 2, why))
			return -1;
		/* inactive first: the older list, as the oldest generation */
		for (int i = 0; i < 4; i++) {
			if (!is_count((double)v[i])) {
				free(row.anon);
				return bad(why, "%s is not a count", list_names[i]);
			}
			(i < 2 ? row.anon : row.file)[i % 2] = (double)v[i];
		}
	}
	memcg = memcg_path(o->memcg);
	/* every (memcg, node), as generations or lists: no more in a run */
	if (r->nlv >= MAX_MEMCGS * SCN_MAX_NODES * 2) {
		bool known = false;

		for (int i = 0; i < r->nlv && !known; i++)
			known = !strcmp(r->lv[i].memcg, memcg) && r->lv[i].node == o->node &&
				r->lv[i].gens == gens;
		if (!known) {
			free(row.anon);
			free(memcg);
			return bad(why, "more than %d lruvecs in a run, more than the model has",
				   MAX_MEMCGS * SCN_MAX_NODES * 2);
		}
	}
	lv = lvec_get(r, memcg, o->node, gens);
	if (lv && lv->n) {
		const struct lvrow *last = &lv->rows[lv->n - 1];

		/* min_seq and max_seq never go back (mm/vmscan.c: they only move on) */
		if (t < last->t || (gens && (row.seq0 < last->seq0 || row.max_seq < last->max_seq ||
					     row.min_seq[0] < last->min_seq[0] ||
					     row.min_seq[1] < last->min_seq[1]))) {
			bad(why, "memcg '%.60s' node %d: %s before its previous sample's", memcg,
			    o->node, t < last->t ? "the time is" : "the generations are");
			free(row.anon);
			free(memcg);
			return -1;
		}
	}
	free(memcg);
	if (lv) {
		struct lvrow *rows = grow(lv->rows, &lv->cap, lv->n, sizeof(*rows));

		if (rows) {
			lv->rows = rows;
			lv->rows[lv->n++] = row;
			return 0;
		}
	}
	free(row.anon);
	return bad(why, "out of memory");
}

/* The memcg info of name in r, made when new; NULL when out of memory or past MAX_MEMCGS. */
static struct mcinfo *mcinfo_get(struct prun *r, const char *name)
{
	struct mcinfo *mc;

	for (int i = 0; i < r->nmc; i++)
		if (!strcmp(r->mc[i].name, name))
			return &r->mc[i];
	if (r->nmc >= MAX_MEMCGS)
		return NULL;
	mc = grow(r->mc, &r->capmc, r->nmc, sizeof(*mc));
	if (!mc)
		return NULL;
	r->mc = mc;
	mc = &r->mc[r->nmc++];
	memset(mc, 0, sizeof(*mc));
	mc->name = xstrdup(name);
	return mc;
}

static const struct mcinfo *mcinfo_find(const struct prun *r, const char *name)
{
	for (int i = 0; i < r->nmc; i++)
		if (!strcmp(r->mc[i].name, name))
			return &r->mc[i];
	return NULL;
}

/*
 * A value of name into ss at time t: a count (bytes: up to 4096 pages'
 * worth); a cumulative counter (ops) must not go down from its last
 * value. A run has at most max names in all (memcgs, workloads): more is
 * not a run, and would make every lookup longer.
 */
static int add_named(struct seriesset *ss, const char *name, uint64_t v, const char *what,
		     int max, double t, bool cumulative, char *why)
{
	double x = (double)v;

	if (ss->n >= max && !series_has(ss, name))
		return bad(why, "%s: more than %d names in a run, more than the model has", what,
			   max);
	if (x > EXACT_MAX * 4096)
		return bad(why, "%s of '%.60s' is not a count", what, name);
	if (cumulative && x < series_last(ss, name))
		return bad(why, "%s of '%.60s' went down (%.0f after %.0f): not a counter", what,
			   name, x, series_last(ss, name));
	if (series_add(ss, name, t, x))
		return bad(why, "out of memory");
	return 0;
}

/* Whether the stats row names a memcg of that name ("" the root). */
static bool row_has_memcg(const Mmemu__StatsRow *o, const char *name)
{
	for (size_t i = 0; i < o->n_memcgs; i++)
		if (!strcmp(o->memcgs[i]->name, name))
			return true;
	return false;
}

/*
 * A memcg of a stats row: its memory.current, its parent (another memcg
 * of the row, never itself, the same in every row) and its memory.pressure
 * (avg10 in percent; full never more than some: test_state(), full
 * implies some).
 */
static int add_memcg(struct prun *r, const Mmemu__StatsRow *o, const Mmemu__MemcgSample *m,
		     double t, char *why)
{
	char *name = memcg_path(m->name), *parent = NULL;
	int rc = -1;

	if (add_named(&r->mem, name, m->memory_current, "memory_current", MAX_MEMCGS, t, false,
		      why))
		goto out;
	if (m->has_parent) {
		struct mcinfo *mc;

		parent = memcg_path(m->parent);
		if (!row_has_memcg(o, m->parent) || !strcmp(m->parent, m->name)) {
			bad(why, "memcg_parent of '%.60s' is not another memcg of the sample", name);
			goto out;
		}
		mc = mcinfo_get(r, name);
		if (!mc) {
			bad(why, "memcg_parent: more than %d memcgs", MAX_MEMCGS);
			goto out;
		}
		if (mc->parent && strcmp(mc->parent, parent)) {
			bad(why, "memcg_parent of '%.60s' changed from '%.60s' to '%.60s'", name,
			    mc->parent, parent);
			goto out;
		}
		if (!mc->parent)
			mc->parent = xstrdup(parent);
	}
	if (!(m->some_avg10 >= 0 && m->some_avg10 <= 100) ||
	    !(m->full_avg10 >= 0 && m->full_avg10 <= m->some_avg10)) {
		bad(why, "memory_pressure of '%.60s' has no some_avg10 and full_avg10 in percent "
			 "(full at most some)", name);
		goto out;
	}
	if (r->psi_some.n >= MAX_MEMCGS && !series_has(&r->psi_some, name)) {
		bad(why, "memory_pressure: more than %d memcgs", MAX_MEMCGS);
		goto out;
	}
	if (series_add(&r->psi_some, name, t, m->some_avg10) ||
	    series_add(&r->psi_full, name, t, m->full_avg10)) {
		bad(why, "out of memory");
		goto out;
	}
	rc = 0;
out:
	free(name);
	free(parent);
	return rc;
}

/* The swap counters of a stats row (pages in use, none when the run has no swap). */
static int add_swap(struct prun *r, const Mmemu__SwapSample *swap, double t, char *why)
{
	if (!swap)
		return 0;
	if (series_add(&r->swap, "swap_used", t, (double)swap->used) ||
	    (swap->zram && (series_add(&r->swap, "zram_stored", t, (double)swap->zram->stored) ||
			    series_add(&r->swap, "zram_pool", t, (double)swap->zram->pool))))
		return bad(why, "out of memory");
	return 0;
}

/* A counter of a stats row into ss as name: it never goes down. */
static int add_counter(struct seriesset *ss, const char *name, const char *key, uint64_t v,
		       double t, char *why)
{
	double x = (double)v;

	if (!is_count(x))
		return bad(why, "%s is not a count", key);
	if (x < series_last(ss, name))
		return bad(why, "%s went down (%.0f after %.0f): not a counter", key, x,
			   series_last(ss, name));
	if (series_add(ss, name, t, x))
		return bad(why, "out of memory");
	return 0;
}

/* A "stats" row: refault counters, memory.current per memcg, operations per workload. */
static int add_stats_row(struct prun *r, const Mmemu__StatsRow *o, double t, char *why)
{
	if (r->nr_stats && t < r->last_stats_t)
		return bad(why, "time %g is before the previous sample's %g", t, r->last_stats_t);
	if (add_counter(&r->refault, "file", "workingset_refault_file",
			o->workingset_refault_file, t, why) ||
	    add_counter(&r->refault, "anon", "workingset_refault_anon",
			o->workingset_refault_anon, t, why) ||
	    /* the machine's pgscan and pgsteal: kswapd and direct together, as sampled */
	    add_counter(&r->scan, "pgscan", "pgscan", o->pgscan, t, why) ||
	    add_counter(&r->scan, "pgsteal", "pgsteal", o->pgsteal, t, why))
		return -1;
	for (size_t i = 0; i < o->n_memcgs; i++)
		if (add_memcg(r, o, o->memcgs[i], t, why))
			return -1;
	for (size_t i = 0; i < o->n_ops; i++)
		if (add_named(&r->ops, o->ops[i]->name, o->ops[i]->ops, "ops", SCN_MAX_WORKLOADS, t,
			      true, why))
			return -1;
	if (add_swap(r, o->swap, t, why))
		return -1;
	r->nr_stats++;
	r->last_stats_t = t;
	return 0;
}

/*
 * A row's time in seconds as run --format json prints it (6 decimals), so
 * that a plot of the saved rows draws what one of the printed rows did.
 */
static double sample_seconds(uint64_t t_ns)
{
	char text[32];

	snprintf(text, sizeof(text), "%.6f", (double)t_ns / 1e9);
	return strtod(text, NULL);
}

/*
 * One sample row; OOM kills, rows of kinds this mmemu does not know, and
 * those outside the window [from, to] of simulated seconds, are skipped.
 * 0, or -1 with why.
 */
static int add_sample(struct prun *r, const Mmemu__Sample *s, double from, double to, char *why)
{
	double t = sample_seconds(s->t_ns);

	if (t > 1e12)
		return bad(why, "t is not a time (seconds)");
	if (t < from || t > to)
		return 0;
	if (s->row_case == MMEMU__SAMPLE__ROW_STATS)
		return add_stats_row(r, s->stats, t, why);
	if (s->row_case == MMEMU__SAMPLE__ROW_LRUVEC)
		return add_lruvec_row(r, s->lruvec, t, why);
	return 0;
}

/* ---- the gnuplot script ---- */

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

/* Policy colours (lines) and list colours; the generations' are tools/palette.c's. */
static const char *const policy_colors[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
};
#define NR_POLICY_COLORS (int)(sizeof(policy_colors) / sizeof(policy_colors[0]))
/* inactive_anon, active_anon, inactive_file, active_file (list_names order) */
static const char *const list_colors[4] = { "#f4a582", "#b2182b", "#92c5de", "#2166ac" };

enum what { W_GENS, W_MEMORY, W_THROUGHPUT, W_REFAULTS, W_SWAP, W_PRESSURE, W_PGSCAN, NR_WHAT };
static const char *const what_names[NR_WHAT] = {
	"gens", "memory", "throughput", "refaults", "swap", "pressure", "pgscan-rate",
};

/*
 * Small multiples: a grid of panels with shared axes, at most GRID_COLS
 * (gens: GENS_COLS) wide, so the image never grows wider with the number
 * of memcgs or lruvecs. Past PLOT_TOP memcgs, the ones under the most
 * reclaim pressure get a panel and the rest are summed into one "others"
 * panel (gens, past PLOT_TOP lruvecs per policy: each node's sum of every
 * memcg first, see plot_gens()). The sizes are estimates of what stays
 * readable: a 3 x 3 grid of 500 x 300 pixel panels, labels at 9 points.
 */
#define PLOT_TOP 8
#define GRID_COLS 3
#define GENS_COLS 4
#define PANEL_W 500
#define PANEL_H 300
#define GENS_PANEL_W 420
#define GENS_PANEL_H 270
/* room for the title's lines and, left of them, the generations' colours */
#define GENS_MIN_WIDTH 1100

struct plot {
	struct prun *runs;
	int nr_runs;
	bool png;
	const char *out;	/* the image; named in the script only when to_file */
	bool to_file;		/* "set output": the --script copy, else gnuplot's stdout */
	const char *title;	/* scenario, scale */
	int nblock;		/* datablocks written */
	double ymax;		/* the largest y in them since it was last reset */
	const char **sel;	/* --memcg: the memcgs asked for ("/x"), NULL for all */
	int nsel;
	int node;		/* --node, or -1 for every node */
	double from, to;	/* --from, --to: the window of simulated seconds drawn */
	int height;		/* the image's, in pixels */
	bool legend_done;	/* gens: the colours' legend is drawn (on the first panel) */
};

/* Room for the multiplot's title lines (estimate: about 120 characters at 10 points). */
#define MIN_WIDTH 900

static void gp_header(FILE *f, struct plot *p, int width, int height)
{
	if (width < MIN_WIDTH)
		width = MIN_WIDTH;
	p->height = height;	/* for labels placed in screen coordinates */
	fprintf(f, "# mmemu plot: %s\nset encoding utf8\n", p->title);
	if (p->png)
		fprintf(f,
			"if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
			"  set terminal pngcairo size %d,%d font 'sans,9' noenhanced background rgb 'white'\n"
			"} else {\n"
			"  set terminal png size %d,%d noenhanced background rgb 'white'\n"
			"}\n",
			width, height, width, height);
	else
		fprintf(f, "set terminal svg size %d,%d dynamic font 'sans,10' noenhanced "
			   "background rgb 'white'\n", width, height);
	if (p->to_file) {
		fprintf(f, "set output ");
		gp_str(f, p->out);
		fputc('\n', f);
	}
	fprintf(f, "set grid lc rgb '#dddddd'\nset border lc rgb '#555555'\n"
		   "set xlabel 'time (s)'\nset xrange [%.6f:*]\nset autoscale xfixmax\nset yrange [0:*]\n"
		   "set key top left box opaque font ',8' samplen 2\n", p->from);
	if (isfinite(p->to))
		fprintf(f, "set xrange [:%.6f]\n", p->to);
}

static void gp_footer(FILE *f)
{
	fprintf(f, "unset multiplot\nunset output\n");
}

/* rows x cols for n panels, at most maxcols wide */
static void grid(int n, int maxcols, int *rows, int *cols)
{
	*cols = n < 1 ? 1 : n < maxcols ? n : maxcols;
	*rows = n < 1 ? 1 : (n + *cols - 1) / *cols;
}

/* A gnuplot double-quoted string: a line break stays one. */
static void gp_dstr(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if (*s == '\n')
			fprintf(f, "\\n");
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* The multiplot of rows x cols panels, titled what (lines may break) and the scenario. */
static void gp_multiplot(FILE *f, const struct plot *p, int rows, int cols, const char *what)
{
	char *title = xasprintf("%s \xe2\x80\x94 %s", p->title, what);

	fprintf(f, "set multiplot layout %d,%d title ", rows, cols);
	gp_dstr(f, title);
	fprintf(f, " font ',10'\n");
	free(title);
}

/*
 * A datablock of (t, y) points of s; a rate (differences from t = 0 and a
 * zero count, or with --from from the first sample in the window) when
 * rate is set. Returns its number.
 */
static int gp_block(FILE *f, struct plot *p, const struct series *s, double scale, bool rate)
{
	double t0 = 0, v0 = 0;

	fprintf(f, "$d%d << EOD\n", p->nblock);
	for (int i = 0; i < s->n; i++) {
		double y;

		if (rate && !i && p->from > 0) {
			t0 = s->t[0];
			v0 = s->v[0];
			continue;
		} else if (!rate) {
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
	fprintf(f, "%s $d%d using 1:2 with lines lw 2 lc rgb '%s' dt %d ", first ? "plot" : ",",
		block, policy_colors[color % NR_POLICY_COLORS], dash % 5 + 1);
	if (title) {
		fprintf(f, "title ");
		gp_str(f, title);
	} else {
		fprintf(f, "notitle");
	}
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

static const struct series *find_series(const struct seriesset *ss, const char *name)
{
	for (int i = 0; i < ss->n; i++)
		if (!strcmp(ss->s[i].name, name))
			return &ss->s[i];
	return NULL;
}

/* The last value of s at or before t (0 before its first). */
static double value_at(const double *ts, const double *vs, int n, double t)
{
	int lo = 0, hi = n;	/* the first index with ts[i] > t */

	while (lo < hi) {
		int mid = (lo + hi) / 2;

		if (ts[mid] <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? vs[lo - 1] : 0;
}

/*
 * The y range over the largest value, so that a key of n lines at the top
 * of the first panel hides no line: about 7% of the panel a line (an
 * estimate at 300 pixels and 8 points).
 */
static double key_room(int n)
{
	return 1.05 + 0.07 * n;
}

/* ---- which memcgs get a panel ---- */

/*
 * Reclaim pressure on a memcg: pgscan + workingset_refault_anon +
 * workingset_refault_file of its memory.stat at the end of each run,
 * summed over the runs: the pages reclaim looked at in it and the pages
 * it had to read back.
 */
static double pressure_of(const struct plot *p, const char *name)
{
	double sum = 0;

	for (int r = 0; r < p->nr_runs; r++) {
		const struct mcinfo *mc = mcinfo_find(&p->runs[r], name);

		if (mc)
			sum += mc->pressure;
	}
	return sum;
}

#define PRESSURE_TEXT "reclaim pressure (pgscan + workingset_refault_anon + _file)"

struct ranked {
	const char *name;
	double pressure;
	int first;		/* first-seen order: ties keep it */
};

static int by_pressure(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if (x->pressure != y->pressure)
		return x->pressure > y->pressure ? -1 : 1;
	return x->first - y->first;
}

/* names[0..n) most pressure first, into a malloc'ed array. */
static struct ranked *rank_memcgs(const struct plot *p, const char *const *names, int n)
{
	struct ranked *rk = calloc((size_t)(n ? n : 1), sizeof(*rk));

	if (!rk) {
		fprintf(stderr, "mmemu: plot: out of memory\n");
		exit(2);
	}
	for (int i = 0; i < n; i++)
		rk[i] = (struct ranked){ names[i], pressure_of(p, names[i]), i };
	qsort(rk, (size_t)n, sizeof(*rk), by_pressure);
	return rk;
}

static bool is_selected(const struct plot *p, const char *name)
{
	if (!p->sel)
		return true;
	for (int i = 0; i < p->nsel; i++)
		if (!strcmp(p->sel[i], name))
			return true;
	return false;
}

/* Whether name is in names[0..n). */
static bool among(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

/*
 * Whether an ancestor of name (below the root) is among names[0..n) in run
 * r: then its pages are counted there already.
 */
static bool ancestor_among(const struct prun *r, const char *name, const char *const *names, int n)
{
	const struct mcinfo *mc = mcinfo_find(r, name);

	/* the parents were checked to be memcgs, not that they end at the root: at most nmc steps */
	for (int steps = 0; mc && mc->parent && steps < r->nmc; steps++) {
		if (strcmp(mc->parent, "/") && among(names, n, mc->parent))
			return true;
		mc = mcinfo_find(r, mc->parent);
	}
	return false;
}

/* ---- memory ---- */

/* Limit lines of one memcg in run r (MiB, 0: none). */
static void memcg_limits(const struct prun *r, const char *name, double *max, double *high)
{
	const struct mcinfo *mc = mcinfo_find(r, name);

	*max = mc ? mc->max / (1 << 20) : 0;
	*high = mc ? mc->high / (1 << 20) : 0;
}

/*
 * The others panel of the memory plot: per run, the memory.current of the
 * other memcgs summed (a nested memcg whose ancestor is among them counted
 * once, in the ancestor), on the times of the run's stats rows.
 */
static void memory_others(FILE *f, struct plot *p, const char *const *others, int n)
{
	int block = p->nblock;
	bool first = true;
	char *title;

	for (int r = 0; r < p->nr_runs; r++) {
		const struct prun *run = &p->runs[r];
		const struct series *clock = find_series(&run->refault, "file");

		fprintf(f, "$d%d << EOD\n", p->nblock++);
		for (int k = 0; clock && k < clock->n; k++) {
			double sum = 0;

			for (int i = 0; i < n; i++) {
				const struct series *s = find_series(&run->mem, others[i]);

				if (s && !ancestor_among(run, others[i], others, n))
					sum += value_at(s->t, s->v, s->n, clock->t[k]);
			}
			fprintf(f, "%.6f %.10g\n", clock->t[k], sum / (1 << 20));
		}
		fprintf(f, "EOD\n");
	}
	title = xasprintf("others: %d memcgs summed (own y scale)", n);
	fprintf(f, "set title ");
	gp_str(f, title);
	free(title);
	fprintf(f, "\nunset key\nset yrange [0:*]\n");
	for (int r = 0; r < p->nr_runs; r++, first = false)
		gp_line(f, first, block + r, r, 0, NULL);
	fprintf(f, "\n");
}

static void plot_memory(FILE *f, struct plot *p)
{
	const char **names, **shown = NULL, **others = NULL;
	int n = union_names(p, offsetof(struct prun, mem), &names), nshown = 0, nothers = 0;
	int rows, cols, cand = 0;
	int limits = 0;		/* bit 0: a memory.max, bit 1: a memory.high */
	double ymax = 0;
	char *what;

	shown = calloc((size_t)n + 1, sizeof(*shown));
	others = calloc((size_t)n + 1, sizeof(*others));
	if (!shown || !others) {
		fprintf(stderr, "mmemu: plot: out of memory\n");
		exit(2);
	}
	/* the root's memory.current is every memcg's: drawn only when asked for or alone */
	for (int i = 0; i < n; i++)
		if (p->sel ? is_selected(p, names[i]) : (strcmp(names[i], "/") || n == 1))
			names[cand++] = names[i];
	if (p->sel || cand <= PLOT_TOP + 1) {
		/* --memcg: in the order asked */
		for (int i = 0; i < (p->sel ? p->nsel : cand); i++)
			shown[nshown++] = p->sel ? p->sel[i] : names[i];
	} else {
		struct ranked *rk = rank_memcgs(p, names, cand);

		for (int i = 0; i < cand; i++) {
			if (i < PLOT_TOP)
				shown[nshown++] = rk[i].name;
			else
				others[nothers++] = rk[i].name;
		}
		free(rk);
	}
	grid(nshown + (nothers > 0), GRID_COLS, &rows, &cols);
	gp_header(f, p, cols * PANEL_W, 60 + rows * PANEL_H + (nothers ? 36 : 0));
	fprintf(f, "set ylabel 'MiB'\nset format y '%%.4g'\n");
	if (nothers)
		what = xasprintf("memory.current per memcg, one line per policy; dashed memory.max, "
				 "dotted memory.high\nthe %d of %d memcgs under the most "
				 PRESSURE_TEXT ",\nthe others summed", nshown, cand);
	else
		what = xasprintf("memory.current per memcg, one line per policy; dashed memory.max, "
				 "dotted memory.high");
	/* the shared y axis: the largest value or limit over the panels */
	for (int k = 0; k < nshown; k++)
		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *s = find_series(&p->runs[r].mem, shown[k]);
			double max, high;

			for (int i = 0; s && i < s->n; i++)
				if (s->v[i] / (1 << 20) > ymax)
					ymax = s->v[i] / (1 << 20);
			memcg_limits(&p->runs[r], shown[k], &max, &high);
			ymax = fmax(ymax, fmax(max, high));
			limits |= (max > 0) | (high > 0) << 1;
		}
	gp_multiplot(f, p, rows, cols, what);
	free(what);
	for (int k = 0; k < nshown; k++) {
		int block = p->nblock;
		bool first = true;

		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *s = find_series(&p->runs[r].mem, shown[k]);

			if (s)
				gp_block(f, p, s, 1.0 / (1 << 20), false);
		}
		fprintf(f, "set title ");
		gp_str(f, shown[k]);
		fprintf(f, "\nset yrange [0:%.10g]\n", ymax > 0 ? ymax * key_room(p->nr_runs + (limits & 1) + (limits >> 1)) : 1.0);
		if (k)
			fprintf(f, "unset key\n");
		else
			fprintf(f, "set key top left box opaque font ',8' samplen 2\n");
		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *s = find_series(&p->runs[r].mem, shown[k]);
			double max, high;

			if (s) {
				gp_line(f, first, block++, r, 0, k ? NULL : p->runs[r].label);
				first = false;
			}
			memcg_limits(&p->runs[r], shown[k], &max, &high);
			for (int l = 0; l < 2; l++)
				if ((l ? high : max) > 0) {
					fprintf(f, "%s %.10g with lines lw 1.5 lc rgb '%s' dt %d notitle \\\n",
						first ? "plot" : ",", l ? high : max,
						policy_colors[r % NR_POLICY_COLORS], l ? 3 : 2);
					first = false;
				}
		}
		for (int l = 0; !k && l < 2; l++)
			if (limits & (1 << l)) {
				fprintf(f, "%s NaN with lines lw 1.5 lc rgb '#555555' dt %d title '%s' \\\n",
					first ? "plot" : ",", l ? 3 : 2, l ? "memory.high" : "memory.max");
				first = false;
			}
		if (first)	/* a memcg asked for with no samples: an empty panel */
			fprintf(f, "plot NaN notitle");
		fprintf(f, "\n");
	}
	if (nothers)
		memory_others(f, p, others, nothers);
	gp_footer(f);
	free(names);
	free(shown);
	free(others);
}

/* ---- throughput, refaults, swap: one panel per name, one line per run ---- */

struct panels {
	size_t off;		/* the seriesset in struct prun */
	const char *what;	/* the plot's title */
	const char *panel_fmt;	/* a panel's title from its name */
	const char *(*title_of)(const char *name);	/* or this, when set */
	const char *ylabel;
	double scale;		/* y units per count */
	bool rate;		/* per second, else the value */
	bool shared_y;		/* one y range for every panel */
};

static void plot_panels(FILE *f, struct plot *p, const struct panels *pp)
{
	const char **names;
	int n = union_names(p, pp->off, &names), rows, cols;
	double ymax = 0;

	grid(n, GRID_COLS, &rows, &cols);
	gp_header(f, p, cols * PANEL_W, 60 + rows * PANEL_H);
	fprintf(f, "set ylabel ");
	gp_str(f, pp->ylabel);
	fprintf(f, "\n");
	gp_multiplot(f, p, rows, cols, pp->what);
	/* the data first, to know the shared range */
	for (int k = 0; k < n; k++)
		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *s = find_series(
				(const void *)((const char *)&p->runs[r] + pp->off), names[k]);

			if (!s)
				continue;
			p->ymax = 0;
			gp_block(f, p, s, pp->scale, pp->rate);
			ymax = fmax(ymax, p->ymax);
		}
	/* 450k, 1.8M rather than 4.5e+05 */
	fprintf(f, "set format y '%s'\n", ymax >= 1e4 ? "%.1s%c" : "%.4g");
	for (int k = 0, block = 0; k < n; k++) {
		char *title = pp->title_of ? xstrdup(pp->title_of(names[k])) :
			      xasprintf(pp->panel_fmt, names[k]);
		double panel_max = 0;
		bool first = true;

		fprintf(f, "set title ");
		gp_str(f, title);
		fprintf(f, "\n%s\n", k ? "unset key" : "set key top left box opaque font ',8' samplen 2");
		free(title);
		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *s = find_series(
				(const void *)((const char *)&p->runs[r] + pp->off), names[k]);

			for (int i = 0; s && i < s->n; i++)
				panel_max = fmax(panel_max, s->v[i]);
		}
		/* all zero: a range gnuplot need not warn about */
		if (pp->shared_y)
			fprintf(f, "set yrange [0:%.10g]\n",
				ymax > 0 ? ymax * key_room(p->nr_runs) : 1.0);
		else
			fprintf(f, "set yrange [0:%s]\nset offsets 0, 0, graph %.3g, 0\n",
				panel_max > 0 ? "*" : "1", k ? 0 : key_room(p->nr_runs) - 1);
		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *s = find_series(
				(const void *)((const char *)&p->runs[r] + pp->off), names[k]);

			if (!s)
				continue;
			gp_line(f, first, block++, r, 0, k ? NULL : p->runs[r].label);
			first = false;
		}
		fprintf(f, "\n");
	}
	gp_footer(f);
	free(names);
}

/* The swap panels' titles, by series name. */
static const char *swap_title(const char *name)
{
	static const char *const titles[][2] = {
		{ "swap_used", "swap in use (slots used)" },
		{ "zram_stored", "zram: pages stored (orig_data_size)" },
		{ "zram_pool", "zram: pool memory (mem_used_total)" },
	};

	for (size_t i = 0; i < sizeof(titles) / sizeof(titles[0]); i++)
		if (!strcmp(titles[i][0], name))
			return titles[i][1];
	return name;
}

static void plot_swap(FILE *f, struct plot *p)
{
	const struct panels pp = {
		.off = offsetof(struct prun, swap), .ylabel = "MiB", .scale = 4096.0 / (1 << 20),
		.what = "swap and zram use, one line per policy (shared y axis)",
		.title_of = swap_title, .shared_y = true,
	};

	plot_panels(f, p, &pp);
}

/* ---- pressure: memory.pressure some and full avg10 per memcg ---- */

/* The largest some avg10 of memcg name over the runs. */
static double peak_some(const struct plot *p, const char *name)
{
	double peak = 0;

	for (int r = 0; r < p->nr_runs; r++) {
		const struct series *s = find_series(&p->runs[r].psi_some, name);

		for (int i = 0; s && i < s->n; i++)
			peak = fmax(peak, s->v[i]);
	}
	return peak;
}

static int by_first(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return x->first - y->first;
}

/*
 * A panel per memcg ("/" the machine's /proc/pressure/memory), one colour
 * per run: some avg10 solid, full avg10 dashed, one y axis (percent of
 * time). Past PLOT_TOP memcgs the ones with the highest some avg10 get a
 * panel; the title says how many are left out (--memcg picks them).
 */
static void plot_pressure(FILE *f, struct plot *p)
{
	const char **names;
	int n = union_names(p, offsetof(struct prun, psi_some), &names), nsel = 0, rows, cols;
	struct ranked *rk = calloc((size_t)n + 1, sizeof(*rk));
	double ymax = 0;
	char *what;
	int block = 0;

	if (!rk) {
		fprintf(stderr, "mmemu: plot: out of memory\n");
		exit(2);
	}
	for (int i = 0; i < n; i++)
		if (is_selected(p, names[i]))
			rk[nsel++] = (struct ranked){ names[i], peak_some(p, names[i]), i };
	if (nsel > PLOT_TOP) {
		qsort(rk, (size_t)nsel, sizeof(*rk), by_pressure);
		what = xasprintf("memory.pressure some (solid), full (dashed) avg10\nthe %d memcgs "
				 "of highest some avg10; %d more not drawn (--memcg NAME draws them)",
				 PLOT_TOP, nsel - PLOT_TOP);
		nsel = PLOT_TOP;
		/* first-seen order within the shown ones: the grid reads as the tree */
		qsort(rk, (size_t)nsel, sizeof(*rk), by_first);
	} else {
		what = xasprintf("memory.pressure some (solid), full (dashed) avg10; / the machine's");
	}
	grid(nsel, GRID_COLS, &rows, &cols);
	gp_header(f, p, cols * PANEL_W, 80 + rows * PANEL_H);
	fprintf(f, "set ylabel '%% of time (avg10)'\n");
	gp_multiplot(f, p, rows, cols, what);
	free(what);
	for (int k = 0; k < nsel; k++)
		for (int r = 0; r < p->nr_runs; r++) {
			const struct series *some = find_series(&p->runs[r].psi_some, rk[k].name);
			const struct series *full = find_series(&p->runs[r].psi_full, rk[k].name);

			if (!some)
				continue;
			p->ymax = 0;
			gp_block(f, p, some, 1, false);
			gp_block(f, p, full, 1, false);
			ymax = fmax(ymax, p->ymax);
		}
	fprintf(f, "set format y '%%.3g'\nset yrange [0:%.10g]\n",
		ymax > 0 ? ymax * key_room(2 * p->nr_runs) : 1.0);
	for (int k = 0; k < nsel; k++) {
		bool first = true;

		fprintf(f, "set title ");
		gp_str(f, rk[k].name);
		fprintf(f, "\n%s\n", k ? "unset key" :
			"set key top left box opaque font ',8' samplen 2");
		for (int r = 0; r < p->nr_runs; r++) {
			char *some_t, *full_t;

			if (!find_series(&p->runs[r].psi_some, rk[k].name))
				continue;
			some_t = xasprintf("%s some", p->runs[r].label);
			full_t = xasprintf("%s full", p->runs[r].label);
			gp_line(f, first, block++, r, 0, k ? NULL : some_t);
			gp_line(f, false, block++, r, 1, k ? NULL : full_t);
			first = false;
			free(some_t);
			free(full_t);
		}
		fprintf(f, "\n");
	}
	gp_footer(f);
	free(rk);
	free(names);
}

/* ---- gens ---- */

static bool lvec_empty(const struct lvec *lv)
{
	for (int k = 0; k < lv->n; k++)
		for (int i = 0; i < lv->rows[k].n; i++)
			if (lv->rows[k].anon[i] != 0 || lv->rows[k].file[i] != 0)
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

/* A round step near span / 2: 1, 2 or 5 times a power of ten. */
static double nice_step(double span)
{
	double m = pow(10, floor(log10(span / 2))), x = span / 2 / m;

	return (x < 1.5 ? 1 : x < 3.5 ? 2 : x < 7.5 ? 5 : 10) * m;
}

/* The y tics of a mirrored panel (anon below zero, file above), labelled without sign. */
static void gp_mirror_ytics(FILE *f, double ylo, double yhi)
{
	double step = nice_step(fmax(-ylo, yhi));
	long long k0 = (long long)ceil(ylo / step), k1 = (long long)floor(yhi / step);

	fprintf(f, "set ytics (");
	for (long long k = k0; k <= k1; k++) {
		double y = fabs((double)k * step);

		if (y >= 1e6)
			fprintf(f, "%s'%gM' %.10g", k == k0 ? "" : ", ", y / 1e6, (double)k * step);
		else if (y >= 1e4)
			fprintf(f, "%s'%gk' %.10g", k == k0 ? "" : ", ", y / 1e3, (double)k * step);
		else
			fprintf(f, "%s'%g' %.10g", k == k0 ? "" : ", ", y, (double)k * step);
	}
	fprintf(f, ")\n");
}

/* Markers: where max_seq (aging) or a min_seq (eviction) moved on since the previous sample. */
static const struct {
	const char *style;
	int which;		/* -1: max_seq, else min_seq[which] */
	double at;		/* the y of the marks: a share of the top (file) or bottom (anon) */
} marks[] = {
	{ /* aging */ "pt 9 ps 0.9 lc rgb '#222222'", -1, 0.92 },
	{ /* a file generation evicted */ "pt 11 ps 0.9 lc rgb '#2166ac'", 1, 0.6 },
	{ /* an anon generation evicted */ "pt 11 ps 0.9 lc rgb '#b2182b'", 0, 0.93 },
};
#define NR_MARKS (int)(sizeof(marks) / sizeof(marks[0]))

static long long mark_seq(const struct lvrow *row, int which)
{
	return which < 0 ? row->max_seq : row->min_seq[which];
}

/*
 * Bands by age, not by seq: when aging outpaces the sampling (chrome-node
 * at 1/256 ages a memcg about 20 times between two 100 ms samples) a band
 * per seq is a sliver seen once, while max_seq, max_seq-1, ... exist at
 * every sample. Band b counts from the zero line: the oldest a lruvec can
 * have (max_seq - (MMEMU_SAMPLE_MAX_GENS - 1)) first; classic's inactive then active.
 */
static int nr_bands(bool gens)
{
	return gens ? MMEMU_SAMPLE_MAX_GENS : 2;
}

/* The pages of band b in a row of lv, anon (half 1) or file (half 0). */
static double band_pages(const struct lvec *lv, const struct lvrow *row, int b, int half)
{
	long long i = lv->gens ? row->max_seq - (MMEMU_SAMPLE_MAX_GENS - 1 - b) - row->seq0 : b;

	return i >= 0 && i < row->n ? (half ? row->anon : row->file)[i] : 0;
}

/* The fill colour of band b: the shared palette by distance from max_seq, or the list's. */
static const char *band_color(bool gens, int b, int half)
{
	if (gens)
		return gen_colors[MMEMU_SAMPLE_MAX_GENS - 1 - b];
	/* inactive, active; the test keeps -O3 from seeing a read past the table */
	return b < 2 ? list_colors[(half ? 0 : 2) + b] : "#000000";
}

/*
 * A panel's "unset label"; on the first panel of a plot of generations,
 * the colours' legend at the image's top left corner (a key inside a panel
 * hides its bands): the palette's colour of each age, as mmemu view's.
 */
static void panel_labels(FILE *f, struct plot *p)
{
	fprintf(f, "unset label\n");
	if (p->legend_done)
		return;
	p->legend_done = true;
	for (int k = 0; k < MMEMU_SAMPLE_MAX_GENS; k++) {
		char name[32];

		snprintf(name, sizeof(name), k ? "max_seq-%d" : "max_seq", k);
		fprintf(f, "set label %d '\xe2\x96\xa0 %s%s' at screen 0.008, screen %.4f left "
			   "font ',8' tc rgb '%s' front\n", 9000 + k, name,
			k == 0 ? " (youngest)" : k == MMEMU_SAMPLE_MAX_GENS - 1 ? " (oldest)" : "",
			1 - (14.0 + 13.0 * k) / p->height, gen_colors[k]);
	}
}

/* The datablock of a panel: t, 0, the top of each file band, the bottom of each anon band. */
static void band_row(FILE *f, double t, const double *file, const double *anon, int nb)
{
	fprintf(f, "%.6f 0", t);
	for (int half = 0; half < 2; half++) {
		double cum = 0;

		for (int b = 0; b < nb; b++) {
			cum += half ? anon[b] : file[b];
			fprintf(f, " %.10g", half ? -cum : cum);
		}
	}
	fprintf(f, "\n");
}

/* The plot command of the bands of datablock block that have pages (used[half][b]). */
static void plot_bands(FILE *f, int block, bool gens, bool used[2][MMEMU_SAMPLE_MAX_GENS])
{
	int nb = nr_bands(gens);

	fprintf(f, "plot");
	for (int half = 0; half < 2; half++)
		for (int b = 0; b < nb; b++) {
			int lower = b ? (half ? nb + 2 + b : 2 + b) : 2;

			if (!used[half][b])
				continue;
			fprintf(f, " $d%d using 1:%d:%d with filledcurves fs solid 0.85 border lc rgb "
				   "'white' fc rgb '%s' notitle, \\\n    ",
				block, lower, (half ? nb + 3 : 3) + b, band_color(gens, b, half));
		}
}

/*
 * One lruvec of one run: file pages above the zero line, anon below, each
 * as bands by age stacked oldest next to the line, on the shared ranges;
 * MGLRU's aging and evictions marked.
 */
static void gens_panel(FILE *f, struct plot *p, const struct prun *r, const struct lvec *lv,
		       double ylo, double yhi)
{
	int nb = nr_bands(lv->gens), block = p->nblock++, mblock[NR_MARKS];
	bool used[2][MMEMU_SAMPLE_MAX_GENS] = { { false } };
	char *title;

	fprintf(f, "$d%d << EOD\n", block);
	for (int k = 0; k < lv->n; k++) {
		double band[2][MMEMU_SAMPLE_MAX_GENS];

		for (int half = 0; half < 2; half++)
			for (int b = 0; b < nb; b++) {
				band[half][b] = band_pages(lv, &lv->rows[k], b, half);
				used[half][b] |= band[half][b] > 0;
			}
		band_row(f, lv->rows[k].t, band[0], band[1], nb);
	}
	fprintf(f, "EOD\n");
	for (int m = 0; m < NR_MARKS; m++) {
		int nr = 0;

		mblock[m] = -1;
		for (int k = 1; lv->gens && k < lv->n; k++) {
			if (mark_seq(&lv->rows[k], marks[m].which) == mark_seq(&lv->rows[k - 1],
									      marks[m].which))
				continue;
			if (!nr++) {
				mblock[m] = p->nblock++;
				fprintf(f, "$d%d << EOD\n", mblock[m]);
			}
			fprintf(f, "%.6f %.10g\n", lv->rows[k].t,
				marks[m].at * (marks[m].which ? yhi : ylo));
		}
		if (nr)
			fprintf(f, "EOD\n");
	}

	if (lv->gens && lv->n)
		title = xasprintf("memcg %s node %d \xe2\x80\x94 %s (max_seq %lld at %.3f s)",
				  lv->memcg, lv->node, r->label, lv->rows[lv->n - 1].max_seq,
				  lv->rows[lv->n - 1].t);
	else
		title = xasprintf("memcg %s node %d \xe2\x80\x94 %s", lv->memcg, lv->node, r->label);
	fprintf(f, "set title ");
	gp_str(f, title);
	free(title);
	fprintf(f, "\n");
	panel_labels(f, p);
	fprintf(f, "set yrange [%.10g:%.10g]\n", ylo, yhi);
	gp_mirror_ytics(f, ylo, yhi);
	fprintf(f, "unset key\nset title font ',8'\n");
	plot_bands(f, block, lv->gens, used);
	for (int m = 0; m < NR_MARKS; m++) {
		if (mblock[m] >= 0)
			fprintf(f, " $d%d using 1:2 with points %s notitle, \\\n    ", mblock[m],
				marks[m].style);
	}
	fprintf(f, " 0 with lines lw 1 lc rgb '#333333' notitle\n");
}

struct lkey {
	const char *memcg;	/* the lvec's */
	int node;
};

/*
 * The pages of each band summed over every lruvec of run r on node at time
 * t (each lruvec's last sample at or before t): file[b] and anon[b]. The
 * youngest of one memcg adds to the youngest of another: the machine's
 * generations by age, what the kernel's aging keeps in balance.
 */
static void all_at(const struct prun *r, int node, double t, double *file, double *anon)
{
	for (int b = 0; b < MMEMU_SAMPLE_MAX_GENS; b++)
		file[b] = anon[b] = 0;
	for (int i = 0; i < r->nlv; i++) {
		const struct lvec *lv = &r->lv[i];
		int k = lv->n;

		if (lv->node != node)
			continue;
		while (k > 0 && lv->rows[k - 1].t > t)
			k--;
		if (!k)
			continue;
		for (int b = 0; b < nr_bands(lv->gens); b++) {
			file[b] += band_pages(lv, &lv->rows[k - 1], b, 0);
			anon[b] += band_pages(lv, &lv->rows[k - 1], b, 1);
		}
	}
}

/* The times of run r's lruvec samples on node: those of its lruvec there with the most rows. */
static const struct lvec *node_clock(const struct prun *r, int node)
{
	const struct lvec *clock = NULL;

	for (int i = 0; i < r->nlv; i++)
		if (r->lv[i].node == node && (!clock || r->lv[i].n > clock->n))
			clock = &r->lv[i];
	return clock;
}

/* The extent of the all-memcgs panels of every run and of nodes[0..nn): *ylo, *yhi. */
static void all_range(const struct plot *p, const int *nodes, int nn, double *ylo, double *yhi)
{
	*ylo = *yhi = 0;
	for (int r = 0; r < p->nr_runs; r++)
		for (int n = 0; n < nn; n++) {
			const struct lvec *clock = node_clock(&p->runs[r], nodes[n]);

			for (int k = 0; clock && k < clock->n; k++) {
				double file[MMEMU_SAMPLE_MAX_GENS], anon[MMEMU_SAMPLE_MAX_GENS], fs = 0, as = 0;

				all_at(&p->runs[r], nodes[n], clock->rows[k].t, file, anon);
				for (int b = 0; b < MMEMU_SAMPLE_MAX_GENS; b++) {
					fs += file[b];
					as += anon[b];
				}
				*ylo = fmin(*ylo, -as);
				*yhi = fmax(*yhi, fs);
			}
		}
}

/* The panel of one run and node: every memcg's lruvec there summed, band by band. */
static void gens_all(FILE *f, struct plot *p, const struct prun *r, int node, int nmemcgs,
		     double ylo, double yhi)
{
	const struct lvec *clock = node_clock(r, node);
	bool gens = clock ? clock->gens : true, used[2][MMEMU_SAMPLE_MAX_GENS] = { { false } };
	int block = p->nblock++, nb = nr_bands(gens);
	char *title;

	fprintf(f, "$d%d << EOD\n", block);
	for (int k = 0; clock && k < clock->n; k++) {
		double file[MMEMU_SAMPLE_MAX_GENS], anon[MMEMU_SAMPLE_MAX_GENS];

		all_at(r, node, clock->rows[k].t, file, anon);
		for (int b = 0; b < nb; b++) {
			used[0][b] |= file[b] > 0;
			used[1][b] |= anon[b] > 0;
		}
		band_row(f, clock->rows[k].t, file, anon, nb);
	}
	fprintf(f, "EOD\n");
	title = xasprintf("all %d memcgs, node %d \xe2\x80\x94 %s (own y scale)", nmemcgs, node,
			  r->label);
	fprintf(f, "set title ");
	gp_str(f, title);
	free(title);
	fprintf(f, "\n");
	panel_labels(f, p);
	fprintf(f, "set title font ',8'\nset yrange [%.10g:%.10g]\n", ylo, yhi);
	gp_mirror_ytics(f, ylo, yhi);
	fprintf(f, "unset key\n");
	plot_bands(f, block, gens, used);
	fprintf(f, " 0 with lines lw 1 lc rgb '#333333' notitle\n");
}

/* Room for marks above and below, and for each half: at least 30% of the other's. */
static void band_room(double *ylo, double *yhi)
{
	double lo = *ylo, hi = *yhi;

	*ylo = fmin(lo * 1.12, -0.3 * hi);
	*yhi = fmax(hi * 1.12, -0.3 * lo);
	if (*ylo == 0 && *yhi == 0) {
		*ylo = -1;
		*yhi = 1;
	}
}

/* Whether n is among nodes[0..nn). */
static bool node_among(const int *nodes, int nn, int n)
{
	for (int i = 0; i < nn; i++)
		if (nodes[i] == n)
			return true;
	return false;
}

/*
 * Past PLOT_TOP lruvecs (chrome-node: 32 memcgs on 2 nodes), each run's
 * panels start with one per node summing every memcg by age: how the
 * machine's pages spread over the generations, whatever the number of
 * memcgs, which is what decides what reclaim finds to evict. Then the
 * lruvecs of the memcgs under the most reclaim pressure, whole memcgs,
 * with their aging and evictions. --memcg and --node choose others.
 */
static int plot_gens(FILE *f, struct plot *p)
{
	struct lkey *keys = NULL;
	const char **memcgs = NULL;
	int nodes[SCN_MAX_NODES], nn = 0;
	int nk = 0, cap = 0, nmemcgs = 0, capm = 0, nshown;
	int rows_per, rows = 0, cols, panels;
	double ylo = 0, yhi = 0, alo = 0, ahi = 0, tmax = 0;
	bool gens = false, lists = false, aggregate;
	char *what, *legend;

	/* the lruvecs (asked for, or with pages) in any run, first-seen order */
	for (int r = 0; r < p->nr_runs; r++)
		for (int i = 0; i < p->runs[r].nlv; i++) {
			const struct lvec *lv = &p->runs[r].lv[i];
			bool seen = false;

			for (int k = 0; k < nk && !seen; k++)
				seen = !strcmp(keys[k].memcg, lv->memcg) && keys[k].node == lv->node;
			if (seen || (p->node >= 0 && lv->node != p->node) || !is_selected(p, lv->memcg) ||
			    (!p->sel && lvec_empty(lv)))
				continue;
			keys = grow(keys, &cap, nk, sizeof(*keys));
			if (!keys)
				return -1;
			keys[nk++] = (struct lkey){ lv->memcg, lv->node };
			if (!among(memcgs, nmemcgs, lv->memcg)) {
				memcgs = grow(memcgs, &capm, nmemcgs, sizeof(*memcgs));
				if (!memcgs)
					return -1;
				memcgs[nmemcgs++] = lv->memcg;
			}
		}
	if (!nk && !p->sel)	/* every lruvec empty: the first one, so that the plot says so */
		for (int r = 0; r < p->nr_runs && !nk; r++)
			for (int i = 0; i < p->runs[r].nlv && !nk; i++)
				if (p->node < 0 || p->runs[r].lv[i].node == p->node) {
					keys = grow(keys, &cap, nk, sizeof(*keys));
					if (!keys)
						return -1;
					keys[nk++] = (struct lkey){ p->runs[r].lv[i].memcg,
								    p->runs[r].lv[i].node };
				}
	if (!nk)
		return -1;
	nshown = nk;
	aggregate = !p->sel && nk > PLOT_TOP;
	if (aggregate) {
		/* the nodes, ascending; then whole memcgs, most pressure first, in the panels left */
		struct ranked *rk = rank_memcgs(p, memcgs, nmemcgs);
		struct lkey *sorted = calloc((size_t)nk, sizeof(*sorted));
		int ns = 0;

		if (!sorted)
			return -1;
		for (int n = 0; n < SCN_MAX_NODES; n++)
			for (int k = 0; k < nk; k++)
				if (keys[k].node == n && !node_among(nodes, nn, n))
					nodes[nn++] = n;
		for (int m = 0; m < nmemcgs; m++) {
			int of = 0;

			for (int k = 0; k < nk; k++)
				of += !strcmp(keys[k].memcg, rk[m].name);
			if (m && ns + of > PLOT_TOP - nn)
				break;
			for (int k = 0; k < nk; k++)
				if (!strcmp(keys[k].memcg, rk[m].name))
					sorted[ns++] = keys[k];
		}
		memcpy(keys, sorted, (size_t)ns * sizeof(*keys));
		nshown = ns;
		free(sorted);
		free(rk);
		all_range(p, nodes, nn, &alo, &ahi);
		band_room(&alo, &ahi);
	}
	/* the shared axes of the lruvecs' panels */
	for (int r = 0; r < p->nr_runs; r++)
		for (int k = 0; k < nshown; k++) {
			const struct lvec *lv = find_lvec(&p->runs[r], keys[k].memcg, keys[k].node);

			for (int i = 0; lv && i < lv->n; i++) {
				double anon = 0, file = 0;

				for (int g = 0; g < lv->rows[i].n; g++) {
					anon += lv->rows[i].anon[g];
					file += lv->rows[i].file[g];
				}
				ylo = fmin(ylo, -anon);
				yhi = fmax(yhi, file);
				tmax = fmax(tmax, lv->rows[i].t);
			}
		}
	band_room(&ylo, &yhi);
	panels = nshown + nn;
	grid(panels, GENS_COLS, &rows_per, &cols);
	for (int r = 0; r < p->nr_runs; r++)
		rows += p->runs[r].nlv > 0 ? rows_per : 0;

	for (int r = 0; r < p->nr_runs; r++)
		for (int i = 0; i < p->runs[r].nlv; i++) {
			gens |= p->runs[r].lv[i].gens;
			lists |= !p->runs[r].lv[i].gens;
		}
	p->legend_done = !gens;	/* the generations' colours: drawn on the first panel */
	gp_header(f, p, 40 + cols * GENS_PANEL_W > GENS_MIN_WIDTH ? 40 + cols * GENS_PANEL_W :
		  GENS_MIN_WIDTH, 110 + rows * GENS_PANEL_H);
	fprintf(f, "set ylabel 'pages (anon below 0, file above)'\nset xrange [%.6f:%.6f]\n",
		p->from, tmax > p->from ? tmax : p->from + 1);
	/* the legend is the title's and the top left corner's: a key inside a panel hides its bands */
	legend = xasprintf("%s%s%s", gens ? "MGLRU: a band per generation by age, the oldest "
				 "(max_seq-3) next to the line, colours top left as in mmemu view\n"
				 "marks: black triangle up = aging (max_seq++); "
				 "triangle down = a generation evicted (min_seq++), blue file, red anon" :
				 "", gens && lists ? "\n" : "",
			   lists ? "classic: inactive_file (light blue) then active_file above, "
				   "inactive_anon (light red) then active_anon below" : "");
	if (aggregate)
		what = xasprintf("lruvec pages over time: file above the line, anon below\n%s\n"
				 "first each node's %d memcgs summed by age (own y scale), then the "
				 "%d lruvecs of the memcgs under the most\n" PRESSURE_TEXT
				 " (shared axes; --memcg, --node for others)", legend, nmemcgs,
				 nshown);
	else
		what = xasprintf("lruvec pages over time, shared axes: file above the line, anon "
				 "below\n%s", legend);
	free(legend);
	gp_multiplot(f, p, rows, cols, what);
	free(what);
	for (int r = 0; r < p->nr_runs; r++) {
		int drawn = 0;

		if (!p->runs[r].nlv)
			continue;
		for (int n = 0; n < nn; n++, drawn++)
			gens_all(f, p, &p->runs[r], nodes[n], nmemcgs, alo, ahi);
		for (int k = 0; k < nshown; k++, drawn++) {
			const struct lvec *lv = find_lvec(&p->runs[r], keys[k].memcg, keys[k].node);

			if (lv)
				gens_panel(f, p, &p->runs[r], lv, ylo, yhi);
			else
				fprintf(f, "set multiplot next\n");
		}
		/* each run starts a row */
		for (; drawn % cols; drawn++)
			fprintf(f, "set multiplot next\n");
	}
	gp_footer(f);
	free(keys);
	free(memcgs);
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

/* Whether s ends with suffix; then *len is the length before it. */
static bool has_suffix(const char *s, const char *suffix, size_t *len)
{
	size_t a = strlen(s), b = strlen(suffix);

	*len = a >= b ? a - b : 0;
	return a >= b && !strcmp(s + a - b, suffix);
}

/*
 * The memcg groups of a run (scenarios/run.c report_memcg): memory.max and
 * memory.high of "memcg.X", the pressure from "memcg.X.memory.stat". Each
 * value is a size or a count. 0, or -1 with why.
 */
static int add_groups(struct prun *r, const Mmemu__Run *run, char *why)
{
	static const char *const pressure_keys[] = {
		"pgscan", "workingset_refault_anon", "workingset_refault_file",
	};

	for (size_t g = 0; g < run->n_groups; g++) {
		const Mmemu__Group *grp = run->groups[g];
		bool stat;
		size_t len;
		struct mcinfo *mc;
		char *name;

		if (strncmp(grp->name, "memcg.", 6) || has_suffix(grp->name, ".memory.events", &len) ||
		    has_suffix(grp->name, ".memory.pressure", &len) ||
		    has_suffix(grp->name, ".lru_gen", &len))
			continue;
		stat = has_suffix(grp->name, ".memory.stat", &len);
		if (!stat)
			len = strlen(grp->name);
		name = xasprintf("/%.*s", (int)(len - 6), grp->name + 6);
		mc = mcinfo_get(r, name);
		free(name);
		if (!mc)
			return bad(why, "group '%.60s': more than %d memcgs", grp->name, MAX_MEMCGS);
		for (size_t v = 0; v < grp->n_values; v++) {
			const Mmemu__Value *val = grp->values[v];
			double x = val->value, *to = NULL;

			if (stat) {
				for (size_t k = 0; k < sizeof(pressure_keys) / sizeof(pressure_keys[0]); k++)
					if (!strcmp(val->key, pressure_keys[k]))
						to = &mc->pressure;
			} else if (!strcmp(val->key, "memory.max")) {
				to = &mc->max;
			} else if (!strcmp(val->key, "memory.high")) {
				to = &mc->high;
			}
			if (!to)
				continue;
			if (!(x >= 0 && x <= EXACT_MAX * 4096) || x != floor(x))
				return bad(why, "group '%.60s': %s %g is not a count", grp->name,
					   val->key, x);
			if (to == &mc->pressure)
				*to += x;
			else
				*to = x;
		}
	}
	return 0;
}

/*
 * Run number i of a saved file (path) into p: its samples (each checked),
 * then its groups. 0, or a message and 2 when it is not a
 * sane run.
 */
static int load_run(struct plot *p, const char *path, size_t i, const Mmemu__Run *run)
{
	struct prun *runs = realloc(p->runs, (size_t)(p->nr_runs + 1) * sizeof(*runs)), *r;
	char why[256], *options = result_options_text(run);

	if (!runs || !options) {
		free(options);
		return fail("%s", "out of memory");
	}
	p->runs = runs;
	r = &p->runs[p->nr_runs++];
	memset(r, 0, sizeof(*r));
	r->sim_seconds = run->sim_seconds;
	if (options[0])
		r->label = xasprintf("%s (%s)", run->policy, options);
	else
		r->label = xasprintf("%s", run->policy);
	free(options);
	for (size_t s = 0; s < run->n_samples; s++)
		if (add_sample(r, run->samples[s], p->from, p->to, why)) {
			char *text = result_sample_text(run->samples[s]);

			fprintf(stderr, "mmemu: plot: '%s': run %zu (%s): sample %zu: %s, not a "
					"run's sample: %.80s\n",
				path, i + 1, run->policy, s + 1, why, text ? text : "");
			free(text);
			return 2;
		}
	if (add_groups(r, run, why) || check_drawable(r, why)) {
		fprintf(stderr, "mmemu: plot: '%s': run %zu (%s): %s\n", path, i + 1, run->policy,
			why);
		return 2;
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
	if (!inv->n_runs) {
		fprintf(stderr, "mmemu: plot: '%s': holds no runs\n", path);
		return 2;
	}
	if (!*title && inv->scale > 0 && inv->scale < 1 && 1 / inv->scale == floor(1 / inv->scale))
		*title = xasprintf("%s, scale 1/%.0f", inv->scenario_name, 1 / inv->scale);
	else if (!*title)
		*title = xasprintf("%s, scale %g", inv->scenario_name, inv->scale);
	for (size_t i = 0; i < inv->n_runs; i++) {
		int rc = load_run(p, path, i, inv->runs[i]);

		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Reads a saved file's runs into p; a message and 2 when it is not one, or
 * when its runs may not stand beside the first file's (*first, kept; path
 * first_path) and force is not given.
 */
static int load_file(struct plot *p, const char *path, char **title, Mmemu__Invocation **first,
		     const char *first_path, bool force)
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
	if (*first && !force &&
	    result_same_experiment(*first, first_path, inv, path, "plot", why, sizeof(why))) {
		fprintf(stderr, "mmemu: %s\n", why);
		mmemu__invocation__free_unpacked(inv, NULL);
		return 2;
	}
	rc = load_invocation(p, path, inv, title);
	if (!*first)
		*first = inv;
	else
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
	errno = 0;
	if (fwrite(text, 1, len, f) != len || fflush(f))
		rc = errno ? -errno : -EIO;	/* ENOSPC on /dev/full, as the write said */
	if (fclose(f) && !rc)
		rc = errno ? -errno : -EIO;
	return rc;
}

/* The pgscan-rate panels' titles, by series name (/proc/vmstat's, summed). */
static const char *scan_title(const char *name)
{
	return !strcmp(name, "pgscan") ? "pgscan/s: pages reclaim scanned (pgscan_kswapd + pgscan_direct)" :
	       !strcmp(name, "pgsteal") ? "pgsteal/s: pages it reclaimed (pgsteal_kswapd + pgsteal_direct)" :
	       name;
}

/* The gnuplot script of the plot asked for, in a malloc'ed *text. 0 or -1. */
static int make_script(struct plot *p, enum what what, char **text, size_t *len)
{
	static const struct panels throughput = {
		.off = offsetof(struct prun, ops), .panel_fmt = "workload %s", .ylabel = "ops/s",
		.what = "throughput per workload, one line per policy (y axis per panel)",
		.scale = 1, .rate = true,
	}, refaults = {
		.off = offsetof(struct prun, refault), .panel_fmt = "workingset_refault_%s",
		.ylabel = "pages/s", .what = "workingset refaults, one line per policy (shared y axis)",
		.scale = 1, .rate = true, .shared_y = true,
	}, pgscan = {
		.off = offsetof(struct prun, scan), .title_of = scan_title, .ylabel = "pages/s",
		.what = "reclaim: pages scanned and reclaimed per second, one line per policy "
			"(shared y axis)\nkswapd and direct reclaim together: the samples do not "
			"split them (mmemu report has both at the end)",
		.scale = 1, .rate = true, .shared_y = true,
	};
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
		plot_panels(f, p, &throughput);
		break;
	case W_REFAULTS:
		plot_panels(f, p, &refaults);
		break;
	case W_SWAP:
		plot_swap(f, p);
		break;
	case W_PRESSURE:
		plot_pressure(f, p);
		break;
	case W_PGSCAN:
		plot_panels(f, p, &pgscan);
		break;
	case NR_WHAT:
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

/* Whether any run has a memcg of that name ("/x"). */
static bool memcg_known(const struct plot *p, const char *name)
{
	for (int r = 0; r < p->nr_runs; r++) {
		const struct prun *run = &p->runs[r];

		if (find_series(&run->mem, name) || mcinfo_find(run, name))
			return true;
		for (int i = 0; i < run->nlv; i++)
			if (!strcmp(run->lv[i].memcg, name))
				return true;
	}
	return false;
}

/* Whether any run has samples of a lruvec of memcg name (on --node, when given). */
static bool has_lruvec(const struct plot *p, const char *name)
{
	for (int r = 0; r < p->nr_runs; r++)
		for (int i = 0; i < p->runs[r].nlv; i++)
			if (!strcmp(p->runs[r].lv[i].memcg, name) &&
			    (p->node < 0 || p->runs[r].lv[i].node == p->node))
				return true;
	return false;
}

/*
 * --memcg NAME[,NAME] ("app" or "/app") into p->sel, each a memcg of the
 * runs, none twice; --node N a node with a lruvec in them. 0, or a message
 * and 2.
 */
static int select_panels(struct plot *p, enum what what, char *memcg_arg, const char *node_arg)
{
	if (memcg_arg && what != W_GENS && what != W_MEMORY && what != W_PRESSURE)
		return fail("--memcg chooses the panels of --what gens, memory and pressure, not %s",
			    what_names[what]);
	if (node_arg && what != W_GENS && what != W_MEMORY)
		return fail("--node chooses the panels of --what gens and memory, not %s",
			    what_names[what]);
	if (node_arg && what != W_GENS)
		return fail("--node %s: memory.current is per memcg, not per node (--node is for "
			    "--what gens)", node_arg);
	if (node_arg) {
		char *end;
		long n;
		bool have = false;

		errno = 0;
		n = strtol(node_arg, &end, 10);
		if (errno || end == node_arg || *end || n < 0 || n >= SCN_MAX_NODES)
			return fail("--node '%s': expected a node number, 0 to %d", node_arg,
				    SCN_MAX_NODES - 1);
		for (int r = 0; r < p->nr_runs; r++)
			for (int i = 0; i < p->runs[r].nlv; i++)
				have |= p->runs[r].lv[i].node == (int)n;
		if (!have)
			return fail("--node %ld: the runs have no lruvec on node %ld", n, n);
		p->node = (int)n;
	}
	for (char *save = NULL, *tok = memcg_arg ? strtok_r(memcg_arg, ",", &save) : NULL; tok;
	     tok = strtok_r(NULL, ",", &save)) {
		char *name = *tok == '/' ? xstrdup(tok) : xasprintf("/%s", tok);
		const char **grown;

		if (!memcg_known(p, name) || among(p->sel, p->nsel, name) ||
		    (what == W_GENS && !has_lruvec(p, name))) {
			int rc = fail("--memcg '%s': %s", tok, !memcg_known(p, name) ?
				      "no memcg of that name in the runs" :
				      among(p->sel, p->nsel, name) ? "named twice" :
				      p->node >= 0 ? "no lruvec samples of it on that node" :
				      "no lruvec samples of it");

			free(name);
			return rc;
		}
		grown = realloc(p->sel, (size_t)(p->nsel + 1) * sizeof(*p->sel));
		if (!grown) {
			free(name);
			return fail("%s", "out of memory");
		}
		p->sel = grown;
		p->sel[p->nsel++] = name;
	}
	if (memcg_arg && !p->nsel)
		return fail("--memcg '': expected memcg names, comma separated");
	return 0;
}

/*
 * --from and --to, in run --sample's syntax (100us, 1.5ms, 2s, 30), into
 * *from and *to (seconds; left as they are when not given). 0, or a
 * message and -1.
 */
static int parse_window(const char *from_arg, const char *to_arg, double *from, double *to)
{
	const char *args[2] = { from_arg, to_arg }, *names[2] = { "--from", "--to" };
	double *at[2] = { from, to };

	for (int i = 0; i < 2; i++) {
		uint64_t ns;

		if (!args[i])
			continue;
		if (parse_time_ns(args[i], &ns)) {
			fail("%s '%s': expected a time (100us, 1.5ms, 2s or 30 for seconds)",
			     names[i], args[i]);
			return -1;
		}
		*at[i] = (double)ns / 1e9;
	}
	if (*from >= *to) {
		fail("--from %s is not before --to %s", from_arg, to_arg);
		return -1;
	}
	return 0;
}

/* The last sample's time over the runs (seconds), for a window that missed them. */
static double runs_end(const struct plot *p)
{
	double end = 0;

	for (int r = 0; r < p->nr_runs; r++)
		end = fmax(end, p->runs[r].sim_seconds);
	return end;
}

/* plot's options, as given. */
struct plot_args {
	const char *what_arg;	/* --what, "gens" by default */
	const char *out;	/* -o, NULL: <what>.svg */
	const char *script_out;	/* --script, or NULL */
	const char *node_arg, *from_arg, *to_arg;	/* --node, --from, --to, or NULL */
	char *memcg_arg;	/* --memcg (a copy: select_panels() cuts it), or NULL */
	bool force;		/* --force */
};

/* Takes plot's options into a: -1, or the exit status now. */
static int plot_parse(struct plot_args *a, int argc, char **argv)
{
	int opt;

	optind = 1;
	while ((opt = cli_getopt(CMD_PLOT, argc, argv)) != -1) {
		switch (opt) {
		case OPT_WHAT:
			a->what_arg = optarg;
			break;
		case OPT_OUT:
			a->out = optarg;
			break;
		case OPT_SCRIPT:
			a->script_out = optarg;
			break;
		case OPT_MEMCG:
			free(a->memcg_arg);
			a->memcg_arg = xstrdup(optarg);
			break;
		case OPT_NODE:
			a->node_arg = optarg;
			break;
		case OPT_FROM:
			a->from_arg = optarg;
			break;
		case OPT_TO:
			a->to_arg = optarg;
			break;
		case OPT_FORCE:
			a->force = true;
			break;
		case OPT_HELP:
			help_command(stdout, "plot");
			return 0;
		default:
			help_command(stderr, "plot");
			return 2;
		}
	}
	return -1;
}

/*
 * What to draw, the window and the image from a (default_out: room for
 * "<what>.svg"), before a file is read: 0, or the exit status.
 */
static int plot_setup(struct plot *p, const struct plot_args *a, int files, enum what *what,
		      char *default_out, size_t len)
{
	int nw;

	for (nw = 0; nw < NR_WHAT && strcmp(a->what_arg, what_names[nw]); nw++)
		;
	if (nw == NR_WHAT)
		return fail("--what '%s': expected gens, memory, throughput, refaults, swap, pressure "
			    "or pgscan-rate", a->what_arg);
	if (parse_window(a->from_arg, a->to_arg, &p->from, &p->to))
		return 2;
	*what = (enum what)nw;
	if (!files) {
		help_command(stderr, "plot");
		return 2;
	}
	p->out = a->out;
	if (!p->out) {
		snprintf(default_out, len, "%s.svg", what_names[*what]);
		p->out = default_out;
	}
	if (ends_with(p->out, ".png"))
		p->png = true;
	else if (!ends_with(p->out, ".svg"))
		return fail("-o '%s': expected a .svg or .png file", p->out);
	return 0;
}

/* Whether the runs have samples of what (in the window): 0, or a message and 2. */
static int check_samples(const struct plot *p, enum what what, const struct plot_args *a)
{
	int have = 0;

	for (int r = 0; r < p->nr_runs; r++)
		have += what == W_GENS ? p->runs[r].nlv :
			what == W_SWAP ? p->runs[r].swap.n :
			what == W_PGSCAN ? p->runs[r].scan.n :
			what == W_PRESSURE ? p->runs[r].psi_some.n : p->runs[r].nr_stats;
	if (have)
		return 0;
	if (what == W_PRESSURE && p->runs[0].nr_stats)
		return fail("pressure: the runs' samples have no memory_pressure (saved before "
			    "mmemu modelled PSI)");
	if (what == W_SWAP)
		return fail("swap: the runs have no swap (their scenario has no [swap] section)");
	if (a->from_arg || a->to_arg)
		return fail("%s: no samples from %s to %s (the runs end at %.3f s)",
			    what_names[what], a->from_arg ? a->from_arg : "0",
			    a->to_arg ? a->to_arg : "the end", runs_end(p));
	return fail("%s: no samples of that kind in the runs (saved with --sample 0?)",
		    what_names[what]);
}

/* --script: the gnuplot script as it would write the image to a file. 0, or the exit status. */
static int write_script(struct plot *p, enum what what, const char *script_out)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	p->to_file = true;
	rc = make_script(p, what, &text, &len);
	p->to_file = false;
	if (rc) {
		free(text);
		return fail("%s", "out of memory");
	}
	rc = write_file(script_out, text, len);
	free(text);
	if (rc)
		return fail("--script '%s': cannot write it: %s", script_out, strerror(-rc));
	printf("plot: wrote %s\n", script_out);
	return 0;
}

/* Has gnuplot draw script text (len bytes) into p->out. 0, or the exit status. */
static int draw(const struct plot *p, const char *text, size_t len)
{
	const char *gnuplot = find_gnuplot(), *tmp = getenv("TMPDIR");
	char dir[4096], script[4200], *img = NULL;
	size_t img_len = 0;
	int rc, status;

	if (!gnuplot) {
		fprintf(stderr, "mmemu: plot: gnuplot not found (apt-get install gnuplot-nox)\n");
		return 2;
	}
	snprintf(dir, sizeof(dir), "%s/mmemu-plot-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return fail("cannot make a temporary directory: %s", strerror(errno));
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	if ((rc = write_file(script, text, len))) {
		rc = fail("cannot write '%s': %s", script, strerror(-rc));
		goto out;
	}
	status = run_gnuplot(gnuplot, script, &img, &img_len);
	if (status || !img_len) {
		fprintf(stderr, "mmemu: plot: gnuplot failed (status %d) to draw '%s'\n", status,
			p->out);
		rc = 1;
	} else {
		rc = sink_write_bytes(img, img_len, p->out, "plot: -o");
		if (!rc)
			printf("plot: wrote %s\n", p->out);
	}
	free(img);
out:
	unlink(script);
	rmdir(dir);
	return rc;
}

/* Reads the files, checks they have what to draw and picks the panels. 0, or the exit status. */
static int plot_load(struct plot *p, enum what what, struct plot_args *a, int argc, char **argv,
		     char **title)
{
	Mmemu__Invocation *first = NULL;
	int rc = 0;

	for (int i = optind; i < argc && !rc; i++)
		rc = load_file(p, argv[i], title, &first, argv[optind], a->force);
	if (first)
		mmemu__invocation__free_unpacked(first, NULL);
	if (rc)
		return rc;
	unique_labels(p);
	p->title = *title;
	if ((rc = check_samples(p, what, a)))
		return rc;
	return select_panels(p, what, a->memcg_arg, a->node_arg);
}

int cmd_plot(int argc, char **argv)
{
	struct plot_args a = { .what_arg = "gens" };
	struct plot p = { .node = -1, .to = INFINITY };
	char default_out[32], *title = NULL, *text = NULL;
	enum what what = W_GENS;
	size_t len = 0;
	int rc;

	if ((rc = plot_parse(&a, argc, argv)) >= 0)
		goto out;
	rc = plot_setup(&p, &a, argc - optind, &what, default_out, sizeof(default_out));
	if (!rc)
		rc = plot_load(&p, what, &a, argc, argv, &title);
	if (!rc && a.script_out)
		rc = write_script(&p, what, a.script_out);
	if (!rc && make_script(&p, what, &text, &len))
		rc = fail("%s", "out of memory");
	if (!rc)
		rc = draw(&p, text, len);
out:
	free(text);
	free(title);
	free(a.memcg_arg);
	for (int i = 0; i < p.nsel; i++)
		free((char *)p.sel[i]);
	free(p.sel);
	for (int r = 0; r < p.nr_runs; r++)
		prun_free(&p.runs[r]);
	free(p.runs);
	return rc;
}
