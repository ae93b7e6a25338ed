/* SPDX-License-Identifier: GPL-2.0-only */
/* App launches in sequence: each app its memcg, task, code file and heap. */
#ifndef MMEMU_SCENARIOS_WL_APPLAUNCH_H
#define MMEMU_SCENARIOS_WL_APPLAUNCH_H

#include "scenarios/workload.h"

/* Creates the apps under memcg and the launcher actor. 0 or -errno. */
int wl_applaunch_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		       uint64_t bdev_start);
/* Adds launch-time statistics (mean, P50, P90, P95) to the workload's group. */
void wl_applaunch_report(const struct workload *w, struct result_group *g);

#endif
