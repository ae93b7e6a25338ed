/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The commands of tools/cmd_*.c (one file per command; tools/mmemu.c holds
 * the table of every command) and what they share.
 */
#ifndef MMEMU_TOOLS_CMD_H
#define MMEMU_TOOLS_CMD_H

#include <stdbool.h>

#include "scenarios/result.h"
#include "tools/output.h"

int cmd_run(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_list(int argc, char **argv);

/* "mmemu: msg" on stderr; 2 (bad input). */
int cmd_die(const char *msg);
/* The command's synopsis on stderr; 2. */
int cmd_bad_usage(const char *cmd);
/*
 * inv in o's format on stdout (with summary, the summary over seeds), through
 * a sink: 0, 2 when the writer refuses it, 1 when stdout cannot be written.
 */
int cmd_print_invocation(const Mmemu__Invocation *inv, const struct output_opts *o, bool summary);

#endif
