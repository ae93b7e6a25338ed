/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "tools/summary.h"
#include "tools/table.h"

/* ---- statistics ---- */

double summary_t95(double df)
{
	return gsl_cdf_tdist_Pinv(0.975, df);
}

double summary_welch_p(double m0, double v0, unsigned n0, double m1, double v1, unsigned n1)
{
	double a, b, se, t, df;

	if (n0 < 2 || n1 < 2)
		return 1;
	a = v0 / n0;
	b = v1 / n1;
	se = sqrt(a + b);
	if (se == 0)
		return m0 == m1 ? 1 : 0;
	t = (m1 - m0) / se;
	/* Welch-Satterthwaite degrees of freedom */
	df = (a + b) * (a + b) / (a * a / (n0 - 1) + b * b / (n1 - 1));
	return 2 * gsl_cdf_tdist_Q(fabs(t), df);
}

struct stat {
	unsigned n;
	double mean, var;	/* var: sample variance, NaN when n < 2 */
	bool is_int;		/* every value an integer count */
	double p;		/* Welch's p against its base column (1 for a base column) */
};

struct column {
	const char *policy;
	char *options;		/* its runs' --set words, "a=1 b=2" (malloc'ed) */
	size_t *runs;
	size_t nr;
	struct stat *st;	/* [slot], sim_seconds at [nr_slots] */
};

struct summary {
	const Mmemu__Invocation *inv;
	struct resultset rs;
	struct column *col;
	int nr_cols;
	int *base;	/* [col]: the first column of its --set values, which it is compared with */
};

static void stat_of(struct stat *st, const double *x, unsigned n, bool is_int)
{
	double sum = 0, ss = 0;

	st->n = n;
	st->is_int = is_int;
	for (unsigned i = 0; i < n; i++)
		sum += x[i];
	st->mean = n ? sum / n : NAN;
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - st->mean) * (x[i] - st->mean);
	st->var = n > 1 ? ss / (n - 1) : NAN;
}

static void summary_free(struct summary *s)
{
	for (int c = 0; c < s->nr_cols; c++) {
		free(s->col[c].runs);
		free(s->col[c].options);
		free(s->col[c].st);
	}
	free(s->col);
	free(s->base);
	resultset_free(&s->rs);
}

static int summary_build(struct summary *s, const Mmemu__Invocation *inv)
{
	const size_t nr_runs = inv->n_runs;
	double *x = calloc(nr_runs + 1, sizeof(*x));
	int rc = -ENOMEM;

	memset(s, 0, sizeof(*s));
	s->inv = inv;
	s->col = calloc(nr_runs + 1, sizeof(*s->col));
	if (!x || !s->col || resultset_build(&s->rs, inv))
		goto out;
	for (size_t i = 0; i < nr_runs; i++) {
		const Mmemu__Run *r = inv->runs[i];
		char *options = result_options_text(r);
		int c;

		if (!options)
			goto out;
		for (c = 0; c < s->nr_cols; c++)
			if (!strcmp(s->col[c].policy, r->policy) && !strcmp(s->col[c].options, options))
				break;
		if (c < s->nr_cols) {
			free(options);
		} else {
			s->col[c].policy = r->policy;
			s->col[c].options = options;
			s->nr_cols++;
			s->col[c].runs = calloc(nr_runs, sizeof(*s->col[c].runs));
			if (!s->col[c].runs)
				goto out;
		}
		s->col[c].runs[s->col[c].nr++] = i;
	}
	for (int c = 0; c < s->nr_cols; c++) {
		struct column *col = &s->col[c];

		col->st = calloc((size_t)s->rs.nr_slots + 1, sizeof(*col->st));
		if (!col->st)
			goto out;
		for (int slot = 0; slot <= s->rs.nr_slots; slot++) {
			bool is_int = true;
			unsigned n = 0;

			for (size_t i = 0; i < col->nr; i++) {
				const Mmemu__Value *v;

				if (slot == s->rs.nr_slots) {	/* sim_seconds */
					x[n++] = inv->runs[col->runs[i]]->sim_seconds;
					is_int = false;
					continue;
				}
				v = resultset_value(&s->rs, col->runs[i], slot);
				if (v) {
					x[n++] = v->value;
					is_int &= v->is_int;
				}
			}
			stat_of(&col->st[slot], x, n, is_int);
		}
	}
	/*
	 * a sweep's policies compared within each set of --set values: a column
	 * against the first of its values, never against another limit
	 */
	s->base = calloc((size_t)s->nr_cols + 1, sizeof(*s->base));
	if (!s->base)
		goto out;
	for (int c = 0; c < s->nr_cols; c++)
		for (s->base[c] = 0; strcmp(s->col[s->base[c]].options, s->col[c].options);
		     s->base[c]++)
			;
	/*
	 * no two columns of the same values (one policy, or ablate's columns,
	 * one --set each): nothing to compare within, every column against
	 * the first as before
	 */
	{
		bool peers = false;

		for (int c = 0; c < s->nr_cols; c++)
			peers |= s->base[c] != c;
		for (int c = 0; !peers && c < s->nr_cols; c++)
			s->base[c] = 0;
	}
	for (int c = 0; c < s->nr_cols; c++)
		for (int slot = 0; slot <= s->rs.nr_slots; slot++) {
			const struct stat *a = &s->col[s->base[c]].st[slot];
			struct stat *b = &s->col[c].st[slot];

			b->p = s->base[c] != c
				       ? summary_welch_p(a->mean, a->var, a->n, b->mean, b->var, b->n)
				       : 1;
		}
	rc = 0;
out:
	free(x);
	if (rc)
		summary_free(s);
	return rc;
}

static const struct stat *stat_at(const struct summary *s, int col, int slot)
{
	return &s->col[col].st[slot < 0 ? s->rs.nr_slots : slot];
}

static double ci_half(const struct stat *st)
{
	return st->n > 1 ? summary_t95(st->n - 1) * sqrt(st->var / st->n) : NAN;
}

/* ---- text ---- */

static struct table_cell summary_cell(void *ctx, int col, int slot)
{
	const struct summary *s = ctx;
	const struct stat *st = stat_at(s, col, slot);
	struct table_cell c = { 0 };

	if (!st->n)
		return c;
	c.present = true;
	c.v = st->mean;
	c.is_int = st->is_int && st->var == 0;	/* the same count in every run */
	c.significant = s->base[col] != col && st->p < 0.05;
	c.sd = st->n > 1 ? sqrt(st->var) : NAN;
	return c;
}

/*
 * One part of each "key=value" word of options, joined by a space, in order
 * (malloc'ed; NULL: out of memory): the keys ("a=1 b=2" -> "a b"), or the
 * values ("memcg.app.max=300M" -> "300M"). The parts are copied by length:
 * the result is never longer than options.
 */
static char *option_parts(const char *options, bool values)
{
	size_t len = strlen(options), n = 0;
	char *out = malloc(len + 1), *copy = strdup(options), *save;

	if (!out || !copy) {
		free(out);
		free(copy);
		return NULL;
	}
	for (char *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(t, '='), *part = values && eq ? eq + 1 : t;
		size_t plen = !values && eq ? (size_t)(eq - t) : strlen(part);

		if (n)
			out[n++] = ' ';
		memcpy(out + n, part, plen);
		n += plen;
	}
	out[n] = '\0';
	free(copy);
	return out;
}

/* The keys options set, in order ("a=1 b=2" -> "a b"), malloc'ed; NULL: out of memory. */
static char *option_keys(const char *options)
{
	return option_parts(options, false);
}

/*
 * The keys every column's options set, the same in the same order, when
 * they are at most 30 characters (malloc'ed); else NULL.
 */
static char *same_short_keys(const struct summary *s)
{
	char *first = s->nr_cols ? option_keys(s->col[0].options) : NULL;
	bool same = first && first[0] && strlen(first) <= 30;

	for (int c = 1; same && c < s->nr_cols; c++) {
		char *keys = option_keys(s->col[c].options);

		same = keys && !strcmp(keys, first);
		free(keys);
	}
	if (!same) {
		free(first);
		return NULL;
	}
	return first;
}

/* "300M" from "memcg.app.max=300M", values joined by a space. */
static char *option_values(const char *options)
{
	return option_parts(options, true);
}

static int summary_text(FILE *f, const struct output_opts *o, struct summary *s, char *err,
			size_t errlen)
{
	const int nc = s->nr_cols;
	const char **policy = calloc((size_t)nc, sizeof(*policy));
	const char **opts = calloc((size_t)nc, sizeof(*opts)), **ns = calloc((size_t)nc, sizeof(*ns));
	char **labels = calloc((size_t)nc, sizeof(*labels)), **vals = calloc((size_t)nc, sizeof(*vals));
	char (*nbuf)[16] = calloc((size_t)nc, sizeof(*nbuf)), sc[32], *keys = NULL;
	struct output_column *cols = calloc((size_t)nc, sizeof(*cols));
	bool any_options = false, short_opts;
	struct table t = { 0 };
	int rc = -1;

	if (!policy || !opts || !ns || !labels || !vals || !nbuf || !cols) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	keys = same_short_keys(s);
	short_opts = keys != NULL;
	for (int c = 0; c < nc; c++) {
		any_options |= *s->col[c].options != '\0';
		policy[c] = resultset_policy_label(s->inv, s->col[c].runs[0]);
		vals[c] = short_opts ? option_values(s->col[c].options) : NULL;
		opts[c] = vals[c] ? vals[c] : s->col[c].options;
		if (o->col_names)
			opts[c] = o->col_names[c];
		snprintf(nbuf[c], sizeof(nbuf[c]), "%zu", s->col[c].nr);
		ns[c] = nbuf[c];
		if (asprintf(&labels[c], "%s%s%s", policy[c], *s->col[c].options ? " " : "",
			     s->col[c].options) < 0) {
			labels[c] = NULL;
			snprintf(err, errlen, "out of memory");
			goto out;
		}
		cols[c] = (struct output_column){ .label = labels[c], .runs = s->col[c].runs,
						  .nr_runs = s->col[c].nr };
	}
	fmt_scale(sc, sizeof(sc), s->inv->scale);
	fprintf(f, "scenario %s, scale %s: %zu runs in %d groups; the mean over seeds, ± the "
		   "standard deviation (mmemu %s)\n",
		s->inv->scenario_name, sc, s->inv->n_runs, nc,
		*s->inv->mmemu_version ? s->inv->mmemu_version : "?");
	for (int c = 0; c < nc; c++) {
		fprintf(f, "  %s: seeds", labels[c]);
		for (size_t i = 0; i < s->col[c].nr; i++)
			fprintf(f, "%s%llu", i ? "," : " ",
				(unsigned long long)s->inv->runs[s->col[c].runs[i]]->seed);
		fputc('\n', f);
	}
	output_notes(f, &s->rs, cols, nc);
	fputc('\n', f);

	t.rs = &s->rs;
	t.nr_cols = nc;
	t.head_label[0] = "policy";
	t.head[0] = policy;
	if (o->col_names) {
		t.head_label[1] = o->col_label ? o->col_label : "--set";
		t.head[1] = opts;
	} else if (any_options) {
		t.head_label[1] = short_opts ? keys : "--set";
		t.head[1] = opts;
	}
	t.head_label[2] = "seeds";
	t.head[2] = ns;
	t.cell = summary_cell;
	t.ctx = s;
	t.all = o->all;
	t.headline_only = o->headline;
	t.stats = true;
	t.base = s->base;
	table_print(f, &t);
	rc = 0;
out:
	for (int c = 0; c < nc; c++) {
		if (labels)
			free(labels[c]);
		if (vals)
			free(vals[c]);
	}
	free(labels);
	free(vals);
	free(policy);
	free(opts);
	free(ns);
	free(nbuf);
	free(keys);
	free(cols);
	return rc;
}

/* ---- JSON and CSV ---- */

static bool is_utf8(const char *s)
{
	json_t *j = json_string(s);

	json_decref(j);
	return j != NULL;
}

static json_t *stat_json(const struct summary *s, int c, int slot, const char *group,
			 const char *key)
{
	const struct stat *st = stat_at(s, c, slot), *base = stat_at(s, s->base[c], slot);
	double half = ci_half(st);
	json_t *m = json_object();

	json_object_set_new(m, "group", json_string(group));
	json_object_set_new(m, "key", json_string(key));
	json_object_set_new(m, "n", json_integer(st->n));
	json_object_set_new(m, "mean", output_json_number(st->mean, false));
	json_object_set_new(m, "stddev", output_json_number(sqrt(st->var), false));
	json_object_set_new(m, "ci_half", output_json_number(half, false));
	json_object_set_new(m, "ci_low", output_json_number(st->mean - half, false));
	json_object_set_new(m, "ci_high", output_json_number(st->mean + half, false));
	if (s->base[c] != c) {
		double change = base->mean ? (st->mean - base->mean) / fabs(base->mean) : NAN;

		json_object_set_new(m, "compared_with", json_integer(s->base[c]));
		json_object_set_new(m, "change", output_json_number(change, false));
		json_object_set_new(m, "p_welch", output_json_number(st->p, false));
		json_object_set_new(m, "significant", json_boolean(st->p < 0.05));
	}
	return m;
}

static int summary_json(FILE *f, struct summary *s, char *err, size_t errlen)
{
	json_t *root = json_object(), *groups = json_array(), *seeds = NULL, *metrics = NULL;
	int rc = -1;

	if (!root || !groups)
		goto out;
	json_object_set_new(root, "schema_version", json_integer(OUTPUT_JSON_SCHEMA));
	json_object_set_new(root, "mmemu_version", json_string(s->inv->mmemu_version));
	if (json_object_set_new(root, "scenario", output_json_string(s->inv->scenario_name, err,
								      errlen)))
		goto out;
	json_object_set_new(root, "scale", output_json_number(s->inv->scale, false));
	json_object_set_new(root, "runs", json_integer((json_int_t)s->inv->n_runs));
	json_object_set_new(root, "confidence", json_real(0.95));
	for (int c = 0; c < s->nr_cols; c++) {
		json_t *g = json_object();

		/* held here until g takes them: an error on the way must not leak them */
		seeds = json_array();
		metrics = json_array();
		json_array_append_new(groups, g);
		if (json_object_set_new(g, "policy", output_json_string(s->col[c].policy, err, errlen)) ||
		    json_object_set_new(g, "options",
					output_json_string(s->col[c].options, err, errlen)))
			goto out;
		json_object_set_new(g, "n", json_integer((json_int_t)s->col[c].nr));
		for (size_t i = 0; i < s->col[c].nr; i++)
			json_array_append_new(seeds, json_integer((json_int_t)s->inv->runs[s->col[c].runs[i]]->seed));
		json_object_set_new(g, "seeds", seeds);
		seeds = NULL;
		json_array_append_new(metrics, stat_json(s, c, -1, "run", "sim_seconds"));
		for (int slot = 0; slot < s->rs.nr_slots; slot++) {
			const char *group = s->rs.groups[s->rs.slots[slot].group].name;
			const char *key = s->rs.slots[slot].key;

			if (!stat_at(s, c, slot)->n)
				continue;
			if (!is_utf8(group) || !is_utf8(key)) {
				snprintf(err, errlen, "'%.60s' '%.60s' is not UTF-8 text", group, key);
				goto out;
			}
			json_array_append_new(metrics, stat_json(s, c, slot, group, key));
		}
		json_object_set_new(g, "metrics", metrics);
		metrics = NULL;
	}
	json_object_set_new(root, "groups", groups);
	groups = NULL;
	rc = output_json_dump(f, root);
	if (rc)
		snprintf(err, errlen, "out of memory");
out:
	if (rc && !err[0])
		snprintf(err, errlen, "out of memory");
	json_decref(seeds);
	json_decref(metrics);
	json_decref(groups);
	json_decref(root);
	return rc;
}

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isfinite(v))
		fprintf(f, "%.9g", v);
}

static void csv_stat(FILE *f, const struct summary *s, int c, int slot, const char *group,
		     const char *key)
{
	const struct stat *st = stat_at(s, c, slot), *base = stat_at(s, s->base[c], slot);
	double half = ci_half(st);
	bool compared = s->base[c] != c;

	output_csv_field(f, s->inv->scenario_name);
	fprintf(f, ",%.9g,", s->inv->scale);
	output_csv_field(f, s->col[c].policy);
	fputc(',', f);
	output_csv_field(f, s->col[c].options);
	fprintf(f, ",%u,", st->n);
	output_csv_field(f, group);
	fputc(',', f);
	output_csv_field(f, key);
	csv_num(f, st->mean);
	csv_num(f, sqrt(st->var));
	csv_num(f, half);
	csv_num(f, st->mean - half);
	csv_num(f, st->mean + half);
	csv_num(f, compared && base->mean ? (st->mean - base->mean) / fabs(base->mean) : NAN);
	csv_num(f, compared ? st->p : NAN);
	fputc('\n', f);
}

static int summary_csv(FILE *f, const struct summary *s)
{
	fprintf(f, "scenario,scale,policy,options,n,group,key,mean,stddev,ci_half,ci_low,ci_high,"
		   "change,p_welch\n");
	for (int c = 0; c < s->nr_cols; c++) {
		csv_stat(f, s, c, -1, "run", "sim_seconds");
		for (int slot = 0; slot < s->rs.nr_slots; slot++)
			if (stat_at(s, c, slot)->n)
				csv_stat(f, s, c, slot, s->rs.groups[s->rs.slots[slot].group].name,
					 s->rs.slots[slot].key);
	}
	return 0;
}

int summary_write(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv, char *err,
		  size_t errlen)
{
	struct summary s;
	int rc;

	err[0] = '\0';
	if (!inv->n_runs) {
		snprintf(err, errlen, "no runs");
		return -1;
	}
	if (summary_build(&s, inv)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (!strcmp(o->format, "json"))
		rc = summary_json(f, &s, err, errlen);
	else if (!strcmp(o->format, "csv"))
		rc = summary_csv(f, &s);
	else
		rc = summary_text(f, o, &s, err, errlen);
	summary_free(&s);
	return rc;
}
