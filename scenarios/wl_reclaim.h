/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * proactive-reclaim: one write of `amount` (a size, or "full") to the
 * memory.reclaim file of `target` (a memcg, or "root") at time `start`,
 * as the benchmark of "mm: memcg: use larger batches for proactive
 * reclaim" (2024) does. Reports the pages reclaimed, the time the write
 * took, pages/s, the over-reclaim and whether the write returned before
 * the run's duration ran out.
 */
#ifndef MMEMU_SCENARIOS_WL_RECLAIM_H
#define MMEMU_SCENARIOS_WL_RECLAIM_H

#include "scenarios/workload.h"

/* Sets up the writer (its task and actor). 0 or -errno. */
int wl_reclaim_start(struct workload *w);
void wl_reclaim_report(const struct workload *w, struct result_group *g, uint64_t end_ns);

#endif
