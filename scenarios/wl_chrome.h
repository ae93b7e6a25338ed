/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chrome-node: Node.js-like servers, each its own task with an anonymous
 * buffer, spread over `groups` memcgs and the nodes, serving Chrome-like
 * clients (SEEDS.md A.2). Its state lives behind workload->priv.
 */
#ifndef MMEMU_SCENARIOS_WL_CHROME_H
#define MMEMU_SCENARIOS_WL_CHROME_H

#include "scenarios/workload.h"

/* Makes the memcgs, tasks, buffers and actors. 0 or -errno. */
int chrome_node_start(struct workload *w, struct mem_cgroup *parent);
/* Requests, per-worker spread and fairness, latency buckets. */
void chrome_node_report(const struct workload *w, struct result_group *g, uint64_t end_ns);

#endif
