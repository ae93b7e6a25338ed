/* SPDX-License-Identifier: GPL-2.0-only */
/* The end of a run: its counters into the result's groups (scenario_run() only). */
#ifndef MMEMU_SCENARIOS_REPORT_H
#define MMEMU_SCENARIOS_REPORT_H

#include <stdint.h>

#include "scenarios/result.h"
#include "scenarios/run.h"
#include "scenarios/workload.h"
#include "storage/blockdev.h"

/* Every group of r, after the run ended at end_ns, in the order the writers print them. */
void run_report(struct run_result *r, const struct scenario *s, const struct run_opts *o,
		struct workload *wls, const struct blockdev *devs, uint64_t end_ns);

#endif
