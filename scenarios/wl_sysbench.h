/* SPDX-License-Identifier: GPL-2.0-only */
/* sysbench oltp_read_only against an InnoDB-like buffer pool in anon memory. */
#ifndef MMEMU_SCENARIOS_WL_SYSBENCH_H
#define MMEMU_SCENARIOS_WL_SYSBENCH_H

#include <stdint.h>

#include "scenarios/workload.h"

/* Bytes of buffer pool the tables take (clustered and secondary index pages). */
uint64_t wl_sysbench_data_bytes(const struct scn_workload *cfg);
/* Lays out the tables in the pool and creates the client threads. 0 or -errno. */
int wl_sysbench_start(struct workload *w);
/* Adds tps, queries and sysbench's latency figures to the workload's group. */
void wl_sysbench_report(const struct workload *w, struct result_group *g, double secs);

#endif
