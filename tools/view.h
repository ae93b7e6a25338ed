/* SPDX-License-Identifier: GPL-2.0-only */
/* mmemu view: saved runs as one self-contained HTML page (Chart.js embedded). */
#ifndef MMEMU_TOOLS_VIEW_H
#define MMEMU_TOOLS_VIEW_H

#include <stdio.h>

#include "scenarios/result.h"

int cmd_view(int argc, char **argv);

/*
 * The page for the runs of invs[0..n) to f: Chart.js, the glue (tools/view.js)
 * and the runs as JSON. 0, or -1 with why.
 */
int view_write(FILE *f, Mmemu__Invocation *const *invs, int n, char *why, size_t whylen);

#endif
