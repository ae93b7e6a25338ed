/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Latency histogram: log-linear buckets (16 per power of two), constant
 * memory, no allocation on record, relative error under 6.25%.
 */
#ifndef MMEMU_CORE_HISTOGRAM_H
#define MMEMU_CORE_HISTOGRAM_H

#include <stdint.h>

#define HIST_SUB_BITS 4
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_NR_BUCKETS (64 * HIST_SUB)

struct histogram {
	uint64_t count;			/* values recorded */
	uint64_t sum;			/* their sum (ns) */
	uint64_t min, max;		/* extremes (ns) */
	uint64_t bucket[HIST_NR_BUCKETS];	/* log-linear counts */
};

void hist_init(struct histogram *h);
void hist_record(struct histogram *h, uint64_t v);
void hist_merge(struct histogram *dst, const struct histogram *src);
/* Value at quantile q in [0, 1] (bucket midpoint, clamped to min/max). */
uint64_t hist_quantile(const struct histogram *h, double q);
double hist_mean(const struct histogram *h);
/* Count of values in [lo, hi) (hi 0 = no upper bound), by bucket bounds. */
uint64_t hist_count_range(const struct histogram *h, uint64_t lo, uint64_t hi);

#endif
