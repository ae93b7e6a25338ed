/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Result writers: text (the cover-letter table of tools/table.h), JSON and
 * CSV. Each is a view of an mmemu.Invocation (scenarios/result.proto), the
 * message `mmemu run --out` saves and `mmemu report` reads, so both print
 * the same bytes, and each walks every group every run holds.
 *
 * JSON (schema_version 2), one object:
 *   {"schema_version": 2, "mmemu_version", "scenario", "scenario_path",
 *    "scale", "runs": [{"policy", "options", "seed", "kernel", "sim_seconds",
 *    "host_seconds", "vmstat": {...}, "nodes": [{...}, ...],
 *    "memcgs": {NAME: {..., "memory.stat": {...}, "memory.events": {...},
 *               "memory.pressure": {...}, "lru_gen": {...} (MGLRU policies)}},
 *    "workloads": {NAME: {...}}, "devices": {NAME: {...}},
 *    any other group by its name ("swap": {...}),
 *    "lru_gen_samples": [...], "lru_gen_dump": "..."}]}
 * Group "node.N" is nodes[N]; "memcg.X.memory.stat" is memcgs.X["memory.stat"].
 *
 * CSV: scenario,scale,policy,options,seed,group,key,value; one row per value
 * and two per run for group "run" (sim_seconds, host_seconds).
 */
#ifndef MMEMU_TOOLS_OUTPUT_H
#define MMEMU_TOOLS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "scenarios/result.h"
#include "tools/resultset.h"

#define OUTPUT_JSON_SCHEMA 2

struct output_opts {
	const char *format;	/* "text", "json" or "csv" */
	bool all;		/* text: every row, also those that do not change */
	bool headline;		/* text summary: the headline rows only */
	const char *const *col_names;	/* text summary: a name per column (NULL: its options) */
	const char *col_label;	/* ... and what the names are */
};

/* "text", "json" or "csv" */
bool output_format_known(const char *format);

/*
 * The invocation's runs (at least one) in o->format; text and CSV end with
 * any lru_gen dumps. 0, or -1 with the reason in err (a saved sample that
 * is not JSON, text that is not UTF-8, no memory).
 */
int output_write(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv, char *err,
		 size_t errlen);

/* ---- pieces the summaries over seeds share ---- */

/* A column of a table: the runs it stands for. */
struct output_column {
	const char *label;	/* "classic", "mglru-budget memcg.app.max=300M" */
	const size_t *runs;	/* indexes into the invocation's runs */
	size_t nr_runs;
};

/*
 * The lines above a table: each memcg limit, effective and as written when
 * the scale is not 1 ("memcg app: memory.max 37.5M (300M at scale 1/8)"),
 * and every workload an OOM kill ended, by column.
 */
void output_notes(FILE *f, const struct resultset *rs, const struct output_column *cols,
		  int nr_cols);

/* A value as JSON: an integer, a real, or null when not finite. */
json_t *output_json_number(double v, bool is_int);
/* A string as JSON; NULL (and a reason in err) when it is not UTF-8. */
json_t *output_json_string(const char *s, char *err, size_t errlen);
/* Dumps j and a newline to f; 0 or -1. */
int output_json_dump(FILE *f, const json_t *j);
/* One CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
void output_csv_field(FILE *f, const char *s);

#endif
