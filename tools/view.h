/* SPDX-License-Identifier: GPL-2.0-only */
/* mmemu view: saved runs as one self-contained HTML page (Chart.js embedded). */
#ifndef MMEMU_TOOLS_VIEW_H
#define MMEMU_TOOLS_VIEW_H

#include <stdio.h>

#include <jansson.h>

#include "scenarios/result.h"

/* How the page's JSON is written (mmemu view and run --live alike). */
#define VIEW_JSON_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9))

int cmd_view(int argc, char **argv);

/*
 * One run as the page reads it: scenario, policy, seed, sim_seconds, its
 * final lru_gen dump, its samples (each row parsed) and its memcgs' limits.
 * NULL with why.
 */
json_t *view_run_json(const char *scenario, const Mmemu__Run *run, char *why, size_t whylen);

/*
 * The page for doc ({"scenario", "scale", "runs": [...]}) to f: Chart.js,
 * the glue (tools/view.js), then extra_js (NULL: none). 0, or -1 with why.
 */
int view_write_page(FILE *f, const char *title, const json_t *doc, const char *extra_js,
		    char *why, size_t whylen);

/*
 * The page for the runs of invs[0..n) to f: Chart.js, the glue (tools/view.js)
 * and the runs as JSON. 0, or -1 with why.
 */
int view_write(FILE *f, Mmemu__Invocation *const *invs, int n, char *why, size_t whylen);

#endif
