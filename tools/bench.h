/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MMEMU_TOOLS_BENCH_H
#define MMEMU_TOOLS_BENCH_H

#include <stdint.h>

#include "core/engine.h"

struct blockdev;
struct reclaim_policy;

/* `mmemu bench`: host speed of the hit path and of faults, memory per folio. */
int cmd_bench(int argc, char **argv);
/* `mmemu bench --trace FILE ...`: replay, one line per (policy, cache size). */
int bench_trace(int argc, char **argv);
/* Host seconds on the monotonic clock. */
double bench_now_s(void);
/* CPU seconds of this process: a figure that the machine's other load does not count. */
double bench_cpu_s(void);
/*
 * One node of `pages` pages under `policy`, an NVMe device, and one actor
 * running fn(arg) with kswapd beside it, to the end. 0, or 1 if setup failed.
 */
int bench_boot(uint64_t pages, const struct reclaim_policy *policy, struct blockdev *dev,
	       actor_fn fn, void *arg);

#endif
