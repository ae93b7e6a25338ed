/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The cover-letter table: one column per run (or per group of runs over
 * seeds), the first the base, each other with its change beside it:
 *
 *   policy                         mglru-old  mglru-budget   change
 *   workload.reader
 *     throughput_ops_s                231896        232074    +0.1%
 *
 * The headline comes first (each workload's throughput and latency, then
 * pgpgin/pgpgout, workingset_refault_*, pgscan/pgsteal, OOM kills), then
 * every other (group, key) of the results; rows that do not change are
 * left out unless `all`. Values are rounded to what the model can claim;
 * percentiles read from histogram buckets are marked "~". Lines stay
 * within 100 columns: more columns than fit go to further blocks, each
 * repeating the base.
 */
#ifndef MMEMU_TOOLS_TABLE_H
#define MMEMU_TOOLS_TABLE_H

#include <stdbool.h>
#include <stdio.h>

#include "tools/resultset.h"

#define TABLE_WIDTH 100
#define TABLE_HEAD_LINES 3

struct table_cell {
	bool present;		/* the column has this (group, key) */
	double v;		/* value, or mean over seeds */
	bool is_int;		/* an integer count */
	bool significant;	/* stats: the change from the base is significant (Welch, 95%) */
	double sd;		/* stats: the sample standard deviation over seeds; NaN: none */
};

struct table {
	const struct resultset *rs;	/* the rows */
	int nr_cols;
	/* header lines: label ("policy", "--set", "seeds") and one text per column; NULL: none */
	const char *head_label[TABLE_HEAD_LINES];
	const char **head[TABLE_HEAD_LINES];
	/* the value of (col, slot) */
	struct table_cell (*cell)(void *ctx, int col, int slot);
	void *ctx;
	bool all;		/* every row, not only those that change */
	bool headline_only;	/* the headline rows, none of the rest */
	bool stats;		/* columns are means over seeds: changes carry '*', values their sd */
	/*
	 * [col]: the column col is compared with (its change is against it;
	 * base[c] == c: none), so that a sweep compares the policies within
	 * each set of --set values; NULL: every column against column 0
	 */
	const int *base;
};

/* Prints the table; the notes under it say what "~" and "*" mean. */
void table_print(FILE *f, const struct table *t);

/* ---- number formats shared with the notes above a table ---- */

/* Bytes in K/M/G/T (binary), at most 4 significant digits: "768M", "37.5M". */
void fmt_bytes(char *buf, size_t len, double bytes);
/* The scale as written: "1/8", or "0.3" when it is not 1/N. */
void fmt_scale(char *buf, size_t len, double scale);

#endif
