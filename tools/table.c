/* SPDX-License-Identifier: GPL-2.0-only */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tools/table.h"

/* ---- the headline ---- */

/* A workload's throughput and latency, then whether it was OOM-killed, in this order. */
static const char *const workload_headline[] = {
	"throughput_ops_s", "tps", "qps", "iops", "bandwidth_mb_s", "pages_per_s",
	"requests_total", "jain_fairness", "reclaimed_pages", "reclaim_s", "over_reclaim_mib",
	"lat_mean_us", "lat_avg_ms", "lat_p50_us", "lat_p95_ms", "lat_p99_us", "lat_p99.9_us",
	"launch_mean_ms", "launch_p50_ms", "launch_p90_ms", "launch_p95_ms",
	"relaunch_mean_ms", "relaunch_p95_ms", "oom_killed",
};

/* Then the machine's: I/O, refaults, scanning and stealing, OOM kills. */
static const char *const vmstat_headline[] = {
	"pgpgin", "pgpgout", "workingset_refault_anon", "workingset_refault_file",
	"pgscan_kswapd", "pgscan_direct", "pgscan_anon", "pgscan_file",
	"pgsteal_kswapd", "pgsteal_direct", "pgsteal_anon", "pgsteal_file", "oom_kill",
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- number formats ---- */

void fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char units[] = "KMGTPE";
	double v = bytes;
	int u = -1;

	while (fabs(v) >= 1024 && u < (int)sizeof(units) - 2) {
		v /= 1024;
		u++;
	}
	if (u < 0) {
		snprintf(buf, len, "%.0f", bytes);
		return;
	}
	/* 4 significant digits, trailing zeros dropped: 768M, 37.5M, 767.8M */
	snprintf(buf, len, "%.*f", fabs(v) >= 1000 ? 0 : fabs(v) >= 100 ? 1 : fabs(v) >= 10 ? 2 : 3, v);
	if (strchr(buf, '.')) {
		char *e = buf + strlen(buf) - 1;

		while (*e == '0')
			*e-- = '\0';
		if (*e == '.')
			*e = '\0';
	}
	snprintf(buf + strlen(buf), len - strlen(buf), "%c", units[u]);
}

void fmt_scale(char *buf, size_t len, double scale)
{
	double n = 1 / scale;

	if (scale == 1)
		snprintf(buf, len, "1");
	else if (fabs(n - round(n)) < 1e-9 * n)
		snprintf(buf, len, "1/%.0f", round(n));
	else
		snprintf(buf, len, "%g", scale);
}

/* Four significant digits, never dropping integer digits. */
static void fmt_plain(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (v == 0)
		snprintf(buf, len, "0");
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else if (a >= 0.001)
		snprintf(buf, len, "%.*f", a >= 100 ? 1 : a >= 10 ? 2 : 3, v);
	else
		snprintf(buf, len, "%.3g", v);
}

/* Three significant digits: a bucket midpoint is no closer than that. */
static void fmt_bucket(char *buf, size_t len, double v)
{
	double a = fabs(v);

	if (v == 0) {
		snprintf(buf, len, "0");
	} else if (a >= 1000) {
		double p = pow(10, floor(log10(a)) - 2);

		snprintf(buf, len, "%.0f", round(v / p) * p);
	} else {
		snprintf(buf, len, "%.*f", a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3, v);
	}
}

static void fmt_cell(char *buf, size_t len, const struct table_cell *c, enum value_class vc)
{
	if (!c->present) {
		snprintf(buf, len, "-");
		return;
	}
	switch (vc) {
	case VC_LIMIT:
		if (c->v == 0) {
			snprintf(buf, len, "max");
			break;
		}
		/* fall through */
	case VC_BYTES:
		fmt_bytes(buf, len, c->v);
		break;
	case VC_BUCKET:
		fmt_bucket(buf, len, c->v);
		break;
	case VC_PLAIN:
		if (c->is_int)
			snprintf(buf, len, "%.0f", c->v);
		else
			fmt_plain(buf, len, c->v);
		break;
	}
}

/* The change of c against base, "" when there is none to show. */
static void fmt_change(char *buf, size_t len, const struct table_cell *base,
		       const struct table_cell *c, enum value_class vc, bool stats)
{
	double pct;

	buf[0] = '\0';
	if (!base->present || !c->present)
		return;
	if (base->v == 0) {
		snprintf(buf, len, "%s", c->v == 0 ? "" : "new");
	} else {
		pct = (c->v - base->v) / fabs(base->v) * 100;
		if (vc == VC_BUCKET && pct != 0 && fabs(pct) < 200 * BUCKET_REL_ERROR)
			snprintf(buf, len, "~");	/* within a bucket's width */
		else if (pct == 0)
			snprintf(buf, len, "0.0%%");
		else if (fabs(pct) < 1000)
			snprintf(buf, len, "%+.1f%%", pct);
		else
			snprintf(buf, len, "%+.0f%%", pct);
	}
	/* a change within a bucket's width claims nothing, significant or not */
	if (stats && c->significant && buf[0] && strcmp(buf, "~"))
		snprintf(buf + strlen(buf), len - strlen(buf), "*");
}

/* ---- rows ---- */

struct row {
	int slot;		/* -1: sim_seconds */
	bool headline;
	bool shown;
	enum value_class vc;
	char **val;		/* [col] */
	char **chg;		/* [col]; chg[0] unused */
};

static struct table_cell cell(const struct table *t, int col, int slot)
{
	return t->cell(t->ctx, col, slot);
}

/* The characters of UTF-8 s (its bytes but continuation bytes) */
static int utf8_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The column col's change is against */
static int base_of(const struct table *t, int col)
{
	return t->base ? t->base[col] : 0;
}

static bool row_nonzero(const struct table *t, int slot)
{
	for (int c = 0; c < t->nr_cols; c++) {
		struct table_cell x = cell(t, c, slot);

		if (x.present && x.v != 0)
			return true;
	}
	return false;
}

static bool row_changes(const struct table *t, int slot)
{
	bool compared = false;

	for (int c = 1; c < t->nr_cols; c++) {
		struct table_cell x = cell(t, c, slot), base;

		if (base_of(t, c) == c)
			continue;
		compared = true;
		base = cell(t, base_of(t, c), slot);
		if (x.present != base.present || (x.present && x.v != base.v))
			return true;
	}
	return compared ? false : row_nonzero(t, slot);
}

/* The rows in print order: sim_seconds, the headline, the rest. */
static struct row *make_rows(const struct table *t, int *nr)
{
	const struct resultset *rs = t->rs;
	struct row *rows = calloc((size_t)rs->nr_slots + 2, sizeof(*rows));
	bool *taken = calloc((size_t)rs->nr_slots + 1, sizeof(*taken));
	int n = 0;

	if (!rows || !taken) {
		free(rows);
		free(taken);
		return NULL;
	}
	rows[n++] = (struct row){ .slot = -1, .headline = true };
	for (int g = 0; g < rs->nr_groups; g++) {
		if (!group_is_kind(rs->groups[g].name, "workload"))
			continue;
		for (size_t h = 0; h < ARRAY_SIZE(workload_headline); h++) {
			int slot = resultset_find(rs, rs->groups[g].name, workload_headline[h]);

			if (slot >= 0 && !taken[slot]) {
				taken[slot] = true;
				rows[n++] = (struct row){ .slot = slot, .headline = true };
			}
		}
	}
	for (size_t h = 0; h < ARRAY_SIZE(vmstat_headline); h++) {
		int slot = resultset_find(rs, "vmstat", vmstat_headline[h]);

		if (slot >= 0 && !taken[slot]) {
			taken[slot] = true;
			rows[n++] = (struct row){ .slot = slot, .headline = true };
		}
	}
	for (int g = 0; g < rs->nr_groups; g++)
		for (int k = 0; k < rs->groups[g].nr_slots; k++) {
			int slot = rs->groups[g].slots[k];

			if (!taken[slot])
				rows[n++] = (struct row){ .slot = slot };
		}
	free(taken);
	*nr = n;
	return rows;
}

static const char *row_group(const struct table *t, const struct row *r)
{
	return r->slot < 0 ? "run" : t->rs->groups[t->rs->slots[r->slot].group].name;
}

static const char *row_key(const struct table *t, const struct row *r)
{
	return r->slot < 0 ? "sim_seconds" : t->rs->slots[r->slot].key;
}

static void free_rows(struct row *rows, int nr, int nr_cols)
{
	for (int i = 0; i < nr; i++) {
		for (int c = 0; c < nr_cols && rows[i].val; c++) {
			free(rows[i].val[c]);
			if (rows[i].chg)
				free(rows[i].chg[c]);
		}
		free(rows[i].val);
		free(rows[i].chg);
	}
	free(rows);
}

/* ---- layout ---- */

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

static void print_block(FILE *f, const struct table *t, struct row *rows, int nr, int lw,
			const int *vw, const int *cw, const int *cols, int ncols)
{
	const char *last_group = NULL;
	bool in_rest = false;

	/* header lines: label, then each column's text over its value */
	for (int h = 0; h < TABLE_HEAD_LINES; h++) {
		if (!t->head_label[h])
			continue;
		fprintf(f, "%-*s", lw, t->head_label[h]);
		for (int i = 0; i < ncols; i++) {
			int c = cols[i];

			fprintf(f, "%s%*s", c ? "  " : " ", vw[c], t->head[h][c] ? t->head[h][c] : "");
			if (c)
				fprintf(f, " %*s", cw[c], h == 0 ? "change" : "");
		}
		fputc('\n', f);
	}
	for (int i = 0; i < nr; i++) {
		const struct row *r = &rows[i];
		const char *group = row_group(t, r);

		if (!r->shown)
			continue;
		if (!r->headline && !in_rest) {
			in_rest = true;
			last_group = NULL;
			fputc('\n', f);
		}
		if (!last_group || strcmp(last_group, group)) {
			fprintf(f, "%s\n", group);
			last_group = group;
		}
		{
			const char *mark = r->vc == VC_BUCKET ? " ~" : "";
			int n = 2 + (int)(strlen(row_key(t, r)) + strlen(mark));

			fprintf(f, "  %s%s%*s", row_key(t, r), mark, n < lw ? lw - n : 0, "");
		}
		for (int k = 0; k < ncols; k++) {
			int c = cols[k];

			/* right aligned by characters: "±" is two bytes */
			fprintf(f, "%s%*s%s", c ? "  " : " ", vw[c] - utf8_width(r->val[c]), "",
				r->val[c]);
			if (c)
				fprintf(f, " %*s", cw[c], r->chg[c]);
		}
		fputc('\n', f);
	}
}

void table_print(FILE *f, const struct table *t)
{
	int nr = 0, lw = 0, *vw, *cw, *cols;
	struct row *rows = make_rows(t, &nr);
	bool hidden = false, bucket = false, spread = false, grouped = false;

	vw = calloc((size_t)t->nr_cols, sizeof(*vw));
	cw = calloc((size_t)t->nr_cols, sizeof(*cw));
	cols = calloc((size_t)t->nr_cols + 1, sizeof(*cols));
	if (!rows || !vw || !cw || !cols) {
		fprintf(f, "(out of memory)\n");
		goto out;
	}
	for (int h = 0; h < TABLE_HEAD_LINES; h++)
		if (t->head_label[h]) {
			lw = max_int(lw, (int)strlen(t->head_label[h]));
			for (int c = 0; c < t->nr_cols; c++)
				if (t->head[h][c])
					vw[c] = max_int(vw[c], (int)strlen(t->head[h][c]));
		}
	for (int c = 1; c < t->nr_cols; c++)
		cw[c] = (int)strlen("change");

	for (int i = 0; i < nr; i++) {
		struct row *r = &rows[i];
		struct table_cell base;

		r->vc = r->slot < 0 ? VC_PLAIN : value_class_of(row_group(t, r), row_key(t, r));
		if (t->headline_only && !r->headline)
			r->shown = false;
		else if (t->all || r->slot < 0)
			r->shown = true;
		else if (r->headline)
			r->shown = row_nonzero(t, r->slot);
		else
			r->shown = row_changes(t, r->slot);
		hidden |= !r->shown;
		if (!r->shown)
			continue;
		bucket |= r->vc == VC_BUCKET;
		lw = max_int(lw, 2 + (int)strlen(row_key(t, r)) + (r->vc == VC_BUCKET ? 2 : 0));
		r->val = calloc((size_t)t->nr_cols, sizeof(*r->val));
		r->chg = calloc((size_t)t->nr_cols, sizeof(*r->chg));
		if (!r->val || !r->chg) {
			fprintf(f, "(out of memory)\n");
			goto out;
		}
		for (int c = 0; c < t->nr_cols; c++) {
			struct table_cell x = cell(t, c, r->slot);
			char buf[64];

			fmt_cell(buf, sizeof(buf), &x, r->vc);
			/* the spread beside the mean, in the value's own unit (MMTests prints it too) */
			if (t->stats && x.present && !isnan(x.sd) && x.sd > 0 && r->vc != VC_LIMIT) {
				struct table_cell sd = { .present = true, .v = x.sd };
				char sbuf[32];

				fmt_cell(sbuf, sizeof(sbuf), &sd, r->vc);
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " ±%s", sbuf);
				spread = true;
			}
			r->val[c] = strdup(buf);
			base = cell(t, base_of(t, c), r->slot);
			if (base_of(t, c) == c)
				buf[0] = '\0';
			else
				fmt_change(buf, sizeof(buf), &base, &x, r->vc, t->stats);
			r->chg[c] = strdup(buf);
			if (!r->val[c] || !r->chg[c]) {
				fprintf(f, "(out of memory)\n");
				goto out;
			}
			vw[c] = max_int(vw[c], utf8_width(r->val[c]));
			if (c)
				cw[c] = max_int(cw[c], (int)strlen(r->chg[c]));
		}
	}
	lw += 1;

	/* the columns after the base, as many per block as fit in TABLE_WIDTH */
	for (int next = 1, block = 0; next < t->nr_cols || block == 0; block++) {
		int width = lw + 1 + vw[0], n = 0;

		cols[n++] = 0;
		while (next < t->nr_cols &&
		       (n == 1 || width + 2 + vw[next] + 1 + cw[next] <= TABLE_WIDTH)) {
			width += 2 + vw[next] + 1 + cw[next];
			cols[n++] = next++;
		}
		if (block)
			fputc('\n', f);
		print_block(f, t, rows, nr, lw, vw, cw, cols, n);
	}

	if (bucket || t->stats || hidden)
		fputc('\n', f);
	if (bucket)
		fprintf(f, "~ from histogram buckets: within %.1f%% of the true percentile; "
			   "a change under %.2f%% shows as ~\n",
			100 * BUCKET_REL_ERROR, 200 * BUCKET_REL_ERROR);
	for (int c = 0; t->base && c < t->nr_cols; c++)
		grouped |= t->base[c] != 0;
	if (spread)
		fprintf(f, "± the sample standard deviation over seeds\n");
	if (t->stats)
		fprintf(f, "* the difference from the %s is significant at 95%% "
			   "(Welch's t-test over seeds)\n",
			grouped ? "first column of the same --set values" : "first column");
	if (hidden && t->headline_only)
		fprintf(f, "the headline rows only (rows that are zero are left out)\n");
	else if (hidden)
		fprintf(f, "rows that %s are left out (--all prints every row)\n",
			t->nr_cols > 1 ? "do not change" : "are zero");
out:
	if (rows)
		free_rows(rows, nr, t->nr_cols);
	free(vw);
	free(cw);
	free(cols);
}
