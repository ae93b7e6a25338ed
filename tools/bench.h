/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MMEMU_TOOLS_BENCH_H
#define MMEMU_TOOLS_BENCH_H

/* `mmemu bench`: host speed of the hit path and of faults, memory per folio. */
int cmd_bench(int argc, char **argv);
/* `mmemu bench --trace FILE ...`: replay, one line per (policy, cache size). */
int bench_trace(int argc, char **argv);

#endif
