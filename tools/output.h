/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Result writers: text (cover-letter table), JSON and CSV. Each is a view of
 * an mmemu.Invocation (scenarios/result.proto), the message `mmemu run
 * --out` saves and `mmemu report` reads, so both print the same bytes.
 */
#ifndef MMEMU_TOOLS_OUTPUT_H
#define MMEMU_TOOLS_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "scenarios/result.h"

/* "text", "json" or "csv" */
bool output_format_known(const char *format);
/* The invocation's runs (at least one) in format; text and CSV end with any lru_gen dumps. */
void output_write(FILE *f, const char *format, const Mmemu__Invocation *inv);

void output_text(FILE *f, const Mmemu__Invocation *inv);
void output_json(FILE *f, const Mmemu__Invocation *inv);
void output_csv(FILE *f, const Mmemu__Invocation *inv);

#endif
