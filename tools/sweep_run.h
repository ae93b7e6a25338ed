/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Inside mmemu sweep (private to tools/sweep*.c): the plan (run i's command
 * line and parameters, and the order runs go out in: largest estimate
 * first), its runs on the runner (tools/runner.h: child processes under
 * libuv, -j at a time, each killed past --timeout) and the collection (each run's outcome into its
 * place in the fixed merge order). A local sweep and every rank of
 * an MPI one use these same pieces; only who hands out runs (struct
 * sweep_ops.more) and where a finished run's outcome goes (.outcome) differ,
 * so the saved file and the summary never depend on the layout.
 *
 * A run's outcome is bytes: a packed mmemu.Run when it succeeded, else the
 * message that names it ("run policy=P seed=S key=v failed: ..."), or no
 * bytes at all for a run cut short by an interrupt (counted, not reported).
 */
#ifndef MMEMU_TOOLS_SWEEP_RUN_H
#define MMEMU_TOOLS_SWEEP_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "scenarios/result.h"
#include "tools/runner.h"

struct sweep;
struct sweep_mpi;

struct sweep_ops {
	/* a run of this process ended: ok with a packed mmemu.Run, else a message */
	void (*outcome)(struct sweep *sw, size_t index, bool ok, const uint8_t *data,
			size_t len);
	/* a local slot came free: hand out more runs (NULL: runs only arrive) */
	void (*more)(struct sweep *sw);
};

struct axis {
	char *key;	/* "section.key" (malloc'ed, with the values after it) */
	char **vals;	/* its comma-separated values */
	size_t nr;
};

struct sweep {
	struct runner rn;		/* the children of this process (tools/runner.h) */
	const struct sweep_ops *ops;	/* local, MPI rank 0, or MPI worker */
	const char *scenario, *scale_arg;
	char **policies;
	size_t nr_policies;
	struct axis *axes;
	size_t nr_axes, nr_combos;
	/* mmemu ablate: the combinations as a list, each a NULL-terminated list of
	 * "section.key=value" (NULL: the cross product of the axes) */
	const char *const *const *variants;
	uint64_t *seeds;
	size_t nr_seeds;
	size_t total;		/* runs in the plan */
	size_t *order;		/* run indexes in the order they go out */
	size_t next;		/* runs of order handed out */
	size_t remote;		/* runs in flight on other ranks (MPI rank 0) */
	size_t done, failed;
	double rank_timeout_s;	/* --rank-timeout: a rank this long silent is lost */
	bool mpi;		/* --mpi */
	struct sweep_mpi *m;	/* the MPI state (tools/sweep_mpi.c) */
	Mmemu__Run **results;	/* by index, once collected */
};

/* "policy=P seed=S key=v ..." of run index (malloc'ed). */
char *sweep_run_params(const struct sweep *sw, size_t index);
/* The child's arguments after the binary, NULL-terminated (malloc'ed). */
char **sweep_run_args(const struct sweep *sw, size_t index);
/*
 * Computes sw->order: runs by their cost estimate, largest first, ties in index
 * order. A combination of --set values that does not load: 1, its message in bad.
 */
int sweep_plan_order(struct sweep *sw, double scale, char *bad, size_t badlen);
/* The next run to hand out; false when all are out. */
bool sweep_next_run(struct sweep *sw, size_t *index);

/*
 * Starts run index as a child on sw->rn: this binary with args (as
 * sweep_run_args() returns them; taken over) and params for messages
 * (taken over). Its outcome goes to sw->ops->outcome.
 */
void sweep_job_start(struct sweep *sw, size_t index, char **args, char *params);
/* Starts run index of the plan here. */
void sweep_job_start_planned(struct sweep *sw, size_t index);
/* Kills every child of this process (their outcomes still arrive). */
void sweep_kill_children(struct sweep *sw);

/* Files run index's outcome (ok: a packed mmemu.Run) in its place; reports a failure. */
void sweep_collect(struct sweep *sw, size_t index, bool ok, const uint8_t *data, size_t len);
/* A message about the sweep on stderr ("mmemu: sweep: ..."), above the progress line. */
void sweep_report(struct sweep *sw, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sweep_progress(struct sweep *sw);

#ifdef MMEMU_HAVE_MPI
/*
 * MPI_Init and the rank. On a rank other than 0, runs what rank 0 sends
 * until it says stop, finalizes and returns the rank's exit status; 2 when
 * MPI did not start; on rank 0, -1: cmd_sweep goes on to plan the sweep.
 */
int sweep_mpi_start(struct sweep *sw);
/* Rank 0: runs the plan over every rank (its own included) until each run is collected. */
void sweep_mpi_run(struct sweep *sw);
/* Rank 0: tells the other ranks to stop (if not yet) and finalizes MPI. */
void sweep_mpi_finish(struct sweep *sw);
#endif

#endif
