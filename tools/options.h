/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every command-line option of every command, in one table (tools/options.c):
 * its name, whether it takes a value, the commands that take it and the
 * lines --help and mmemu(1) show for it. Each command's getopt_long table
 * is made from it (cli_getopt()), and so is the option list of its --help
 * (cli_options_print()) and of the man page (cli_options_scdoc()), so the
 * three cannot drift apart. A name may have a row per meaning (run's
 * --policy and bench's), never two for one command; a row without lines
 * is taken but not shown (an alias such as --jobs for -j).
 *
 * What a value means, and the message when it is bad, stays with the
 * command that reads it.
 */
#ifndef MMEMU_TOOLS_OPTIONS_H
#define MMEMU_TOOLS_OPTIONS_H

#include <stdbool.h>
#include <stdio.h>

/* The commands, as bits of struct cli_option.commands. */
enum cli_cmd {
	CMD_RUN = 1 << 0,
	CMD_REPORT = 1 << 1,
	CMD_SWEEP = 1 << 2,
	CMD_ABLATE = 1 << 3,
	CMD_FUZZ = 1 << 4,
	CMD_VIEW = 1 << 5,
	CMD_PLOT = 1 << 6,
	CMD_LIST = 1 << 7,
	CMD_BENCH = 1 << 8,
	CMD_CHECK_POLICY = 1 << 9,
	CMD_BATCH = 1 << 10,
};

/* What an option is: what cli_getopt() returns for it (past any char). */
enum cli_opt_id {
	OPT_HELP = 256,
	OPT_POLICY,
	OPT_SET,
	OPT_SEED,
	OPT_SEEDS,
	OPT_SCALE,
	OPT_FORMAT,
	OPT_ALL,
	OPT_JOBS,
	OPT_DUMP,
	OPT_DUMP_EVERY,
	OPT_SAMPLE,
	OPT_OUT,
	OPT_LIVE,
	OPT_LIVE_WAIT,
	OPT_SUMMARY,
	OPT_FORCE,
	OPT_TIMEOUT,
	OPT_MPI,
	OPT_RANK_TIMEOUT,
	OPT_TIME,
	OPT_RUNS,
	OPT_CASE_TIMEOUT,
	OPT_SHRINK_TIME,
	OPT_WHAT,
	OPT_MEMCG,
	OPT_NODE,
	OPT_FROM,
	OPT_TO,
	OPT_SCRIPT,
	OPT_TRACE,
	OPT_TRACE_FORMAT,
	OPT_TRACE_PARAMS,
	OPT_CACHE,
	OPT_NO_TIMING,
	OPT_NO_READAHEAD,
	OPT_CELL,
	OPT_CELL_STDIN,
	OPT_CELL_PROGRESS,
	OPT_CELL_LIVE,
};

struct cli_option {
	const char *name;	/* the long name, "policy" */
	char short_name;	/* 'j' for -j, or 0 */
	bool has_arg;		/* takes a value */
	enum cli_opt_id id;	/* what cli_getopt() returns */
	unsigned commands;	/* the commands that take it (CMD_* bits) */
	const char *term;	/* as --help shows it, "--policy a,b,..."; NULL: not shown */
	const char *help;	/* the help lines, '\n' between them */
};

/* The table, ended by a row without a name. */
extern const struct cli_option cli_options[];

/* The bit of a command's name ("check-policy"); 0 for none. */
unsigned cli_cmd_bit(const char *name);

/*
 * getopt_long() over the options cmd takes (its table made from cli_options):
 * the option's id, '?' for one cmd does not take or whose value is missing
 * (getopt's message printed), -1 at the end. Set optind = 1 before the first
 * call, as for getopt_long().
 */
int cli_getopt(unsigned cmd, int argc, char **argv);

/* Whether cmd has options --help shows. */
bool cli_options_shown(unsigned cmd);
/* A blank line and the option lines of cmd's --help ("  --seed N          run seed ..."). */
void cli_options_print(FILE *f, unsigned cmd);
/* The same as scdoc term lists, for mmemu(1). */
void cli_options_scdoc(FILE *f, unsigned cmd, void (*text)(FILE *f, const char *s, size_t n));

#endif
