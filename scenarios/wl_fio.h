/* SPDX-License-Identifier: GPL-2.0-only */
/* fio (ioengine=mmap) jobs: one file and one process per job. */
#ifndef MMEMU_SCENARIOS_WL_FIO_H
#define MMEMU_SCENARIOS_WL_FIO_H

#include "scenarios/workload.h"

/* Creates the jobs (w->cfg->threads), their files and actors. 0 or -errno. */
int wl_fio_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		 uint64_t bdev_start);
/* Adds bandwidth_mb_s (and passes) to the workload's group. */
void wl_fio_report(const struct workload *w, struct result_group *g, double secs);

#endif
