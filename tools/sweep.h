/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu sweep: the cross product of policies, --set values and seeds, each
 * run a child `mmemu run ... --out -` under libuv, merged into one
 * mmemu.Invocation in a deterministic order (policy, then set values, then
 * seed); and the summary over seeds (mean and 95% Student-t confidence
 * interval) that sweep and `report --summary` print.
 */
#ifndef MMEMU_TOOLS_SWEEP_H
#define MMEMU_TOOLS_SWEEP_H

#include <stdio.h>

#include "scenarios/result.h"

int cmd_sweep(int argc, char **argv);

/*
 * For each group of runs that differ only in seed (same policy and
 * options, in order of first appearance): n, mean and 95% confidence
 * interval of each workload's throughput_ops_s and lat_mean_us and of
 * vmstat pgscan_file, pgsteal_file, workingset_refault_file,
 * workingset_refault_anon and pswpout. format: text, json or csv.
 */
void sweep_summary_write(FILE *f, const char *format, const Mmemu__Invocation *inv);

/* The two-sided 95% Student t quantile for df degrees of freedom (df >= 1). */
double sweep_t95(unsigned df);

#endif
