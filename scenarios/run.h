/* SPDX-License-Identifier: GPL-2.0-only */
/* One emulation: a scenario under one policy and seed, to a run_result. */
#ifndef MMEMU_SCENARIOS_RUN_H
#define MMEMU_SCENARIOS_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "scenarios/result.h"
#include "scenarios/scenario.h"

struct run_opts {
	const char *policy;		/* policy name */
	uint64_t seed;			/* run seed */
	const char *options;		/* the --set text, for the record */
	bool check_invariants;		/* check the model's invariants during the run and at its end */
	uint64_t check_every;		/* quiescent points between checks (0: by the model's size) */
	bool dump_lru_gen;		/* --dump lru_gen: state at the end (and every dump_every_ns) */
	uint64_t dump_every_ns;		/* --dump-every T (0 = only at the end) */
	uint64_t sample_ns;		/* --sample T: time series period (0 = off) */
	bool samples_unsaved;		/* the rows go to on_sample only, not into the result */
	/*
	 * Called with each sample row (a JSON object, one line) as the sampler
	 * makes it, in the order the result keeps them (mmemu run --live streams
	 * them to its parent); NULL: none. It only reads: the run is the same
	 * with or without it.
	 */
	void (*on_sample)(void *ctx, const char *row);
	void *on_sample_ctx;
	/*
	 * Called every sampler period (simulated) with the simulated time and
	 * the share of the run done, from the scenario's duration or its
	 * workloads' operations (-1 when neither tells); NULL: none.
	 */
	void (*progress)(void *ctx, double sim_seconds, double done);
	void *progress_ctx;
};

/*
 * Runs the scenario in this process (the engine lives once per process).
 * Returns 0, or -1 with a message (an invariant broken is reported so).
 */
int scenario_run(const struct scenario *s, const struct run_opts *o,
		 struct run_result *r, char *err, size_t errlen);

#endif
