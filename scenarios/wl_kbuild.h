/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbuild: `make -jN` of a kernel tree. N job slots; each job is a new
 * compiler process (a task in the workload's memcg) that maps the compiler,
 * reads its source file and the headers it includes, grows an anonymous
 * heap while it burns user CPU, writes its object file and exits.
 */
#ifndef MMEMU_SCENARIOS_WL_KBUILD_H
#define MMEMU_SCENARIOS_WL_KBUILD_H

#include "scenarios/workload.h"

/* Sets up the tree, the compiler and make's actor. 0 or -errno. */
int kbuild_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		 uint64_t bdev_start);
/* jobs_completed, jobs_failed, user_s, sys_s */
void kbuild_report(const struct workload *w, struct result_group *g);
/* Pages the build takes on its device: compiler, tree and objects (file mode). */
uint64_t kbuild_device_pages(const struct scn_workload *cfg);

#endif
