/* SPDX-License-Identifier: GPL-2.0-only */
/* Result writers: text (cover-letter table), JSON and CSV. */
#ifndef MMEMU_TOOLS_OUTPUT_H
#define MMEMU_TOOLS_OUTPUT_H

#include <stdio.h>

#include "scenarios/result.h"

void output_text(FILE *f, const char *scenario, double scale, const struct run_result *runs,
		 int nr);
void output_json(FILE *f, const char *scenario, double scale, const struct run_result *runs,
		 int nr);
void output_csv(FILE *f, const char *scenario, double scale, const struct run_result *runs,
		int nr);

#endif
