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

int cmd_sweep(int argc, char **argv);

/*
 * The pid of the process an exec'ed mmemu must not outlive (sweep sets it
 * for its runs, tools/reproduce for its own): mmemu then asks for SIGKILL
 * when that parent dies, and exits at once if it has died already.
 */
#define MMEMU_PARENT_PID_ENV "MMEMU_PARENT_PID"

#endif
