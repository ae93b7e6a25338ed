/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mmemu command: the table of its commands, one file each (run:
 * tools/cmd_run.c, report: tools/cmd_report.c, list: tools/cmd_list.c,
 * sweep, plot, bench, check-policy, view, ablate, fuzz, batch), their options in
 * one table (tools/options.c) and their help (tools/help.c). What a command
 * prints goes out through tools/sink.h: a write that fails is an error,
 * never a silent truncation.
 *
 * A simulation never outlives the process that started it: a child started
 * with exec (by the runner, tools/runner.h, or tools/reproduce) finds its
 * parent's pid in MMEMU_PARENT_PID and asks for SIGKILL when that parent
 * dies (PR_SET_PDEATHSIG), whatever kills the parent (SIGKILL included).
 */
#include <stdio.h>
#include <string.h>

#include "tools/ablate.h"
#include "tools/batch.h"
#include "tools/bench.h"
#include "tools/check_policy.h"
#include "tools/child.h"
#include "tools/cmd.h"
#include "tools/fuzz.h"
#include "tools/help.h"
#include "tools/plot.h"
#include "tools/sink.h"
#include "tools/sweep.h"
#include "tools/view.h"

int cmd_die(const char *msg)
{
	fprintf(stderr, "mmemu: %s\n", msg);
	return 2;
}

int cmd_bad_usage(const char *cmd)
{
	help_command(stderr, cmd);
	return 2;
}

/* ---- the commands ---- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },	{ "report", cmd_report }, { "sweep", cmd_sweep },
	{ "plot", cmd_plot },	{ "list", cmd_list },	  { "bench", cmd_bench },
	{ "check-policy", cmd_check_policy }, { "view", cmd_view },
	{ "ablate", cmd_ablate },	{ "fuzz", cmd_fuzz },	  { "batch", cmd_batch },
};

int main(int argc, char **argv)
{
	int rc;

	if (child_follow_parent_env())
		return 2;
	if (argc < 2) {
		help_global(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && !help_command(stdout, argv[2]))
			return sink_close_stdout();
		help_global(stdout);
		return sink_close_stdout();
	}
	if (!strcmp(argv[1], "--help-scdoc")) {
		help_scdoc(stdout);
		return sink_close_stdout();
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		help_version(stdout);
		return sink_close_stdout();
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			rc = commands[i].fn(argc - 1, argv + 1);
			/* what the command printed with stdio (list, bench, help) */
			if (sink_close_stdout() && !rc)
				rc = 1;
			return rc;
		}
	fprintf(stderr, "mmemu: unknown command '%s'\n", argv[1]);
	help_global(stderr);
	return 2;
}
