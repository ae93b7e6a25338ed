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

#include <stdint.h>

#include "scenarios/scenario.h"

/* The section's own keys (cfg->params). */
struct reclaim_params {
	char target[SCN_NAME_LEN];	/* the memcg whose memory.reclaim is written, or "root" */
	uint64_t amount;		/* bytes written (UINT64_MAX: full) */
};

#endif
