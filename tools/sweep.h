/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu sweep: the cross product of policies, --set values and seeds, each
 * run a child `mmemu run ... --out -` under libuv (on this machine, or on
 * the ranks of an MPI job with --mpi), merged into one mmemu.Invocation in
 * a deterministic order (policy, then set values, then seed), printed as
 * the summary over seeds of tools/summary.h.
 */
#ifndef MMEMU_TOOLS_SWEEP_H
#define MMEMU_TOOLS_SWEEP_H

#include <stddef.h>

int cmd_sweep(int argc, char **argv);

/*
 * A sweep over a given list of combinations instead of the cross product
 * of --set values (mmemu ablate): each combination a NULL-terminated list
 * of "section.key=value", the first the base the others are compared to;
 * the text summary shows the headline rows only, one column per
 * combination under its name.
 */
struct sweep_variants {
	const char *cmd;			/* the command, for messages and help */
	const char *const *const *sets;		/* [nr] */
	const char *const *names;		/* [nr] column names */
	const char *label;			/* what the names are ("removed") */
	size_t nr;
};

/* mmemu sweep's options (--set excepted when v is given), over v or the --set axes. */
int sweep_main(int argc, char **argv, const struct sweep_variants *v);

/*
 * The pid of the process an exec'ed mmemu must not outlive (sweep sets it
 * for its runs, tools/reproduce for its mmemu batch): mmemu then asks for SIGKILL
 * when that parent dies, and exits at once if it has died already.
 */
#define MMEMU_PARENT_PID_ENV "MMEMU_PARENT_PID"

#endif
