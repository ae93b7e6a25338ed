/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's time series and teaching dumps (--sample, --dump lru_gen
 * --dump-every): an actor that wakes every period of simulated time and
 * adds typed rows (mmemu.Sample, scenarios/result.proto) to the result,
 * and reports the run's progress. Only scenario_run() starts one.
 */
#ifndef MMEMU_SCENARIOS_SAMPLE_H
#define MMEMU_SCENARIOS_SAMPLE_H

#include <stdint.h>

#include "scenarios/result.h"
#include "scenarios/run.h"
#include "scenarios/workload.h"

struct sampler {
	const struct run_opts *o;	/* what to record */
	struct run_result *r;		/* where */
	uint64_t next_dump_ns;		/* next periodic dump */
	struct workload *wls;		/* the workloads, for their progress */
	int nr_wls;
	uint64_t duration_ns;		/* the scenario's end (0: when the workloads end) */
	uint64_t last_sample_ns;	/* when the last stats row was taken (UINT64_MAX: none) */
};

/*
 * Starts sampling the run into r as o asks (nothing when it asks for no
 * samples, progress or periodic dumps); sm lives until the run ends.
 */
void sampler_start(struct sampler *sm, const struct run_opts *o, struct run_result *r,
		   struct workload *wls, int nr_wls, uint64_t duration_ns);
/* The series end where the run does: a last row at end_ns, unless one was taken then. */
void sampler_finish(struct sampler *sm, uint64_t end_ns);
/* /sys/kernel/debug/lru_gen (or the policy's lists) of every lruvec, into r's dump. */
void dump_lruvecs(struct run_result *r, uint64_t now);

#endif
