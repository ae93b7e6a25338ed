/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The help of every command, in one table: `mmemu --help` prints each
 * command's synopsis, `mmemu CMD --help` the command's own text, and
 * `mmemu --help-scdoc` all of it as scdoc(5) source, which meson turns
 * into mmemu(1).
 */
#ifndef MMEMU_TOOLS_HELP_H
#define MMEMU_TOOLS_HELP_H

#include <stdio.h>

/* The global text: synopses and one line per command. */
void help_global(FILE *f);
/* One command's text; 0, or -1 when there is no such command. */
int help_command(FILE *f, const char *cmd);
/* Everything as scdoc source, for the man page. */
void help_scdoc(FILE *f);
/* "mmemu 0.1.0" and the licence. */
/* "0.1.0, git <commit>[, dirty]": the version and the commit built (saved in results) */
const char *help_version_string(void);
void help_version(FILE *f);

#endif
