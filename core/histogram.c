/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>

#include "core/histogram.h"

void hist_init(struct histogram *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

static unsigned int hist_index(uint64_t v)
{
	unsigned int msb;

	if (v < HIST_SUB)
		return (unsigned int)v;
	msb = 63 - (unsigned int)__builtin_clzll(v);
	return (msb - HIST_SUB_BITS + 1) * HIST_SUB +
	       (unsigned int)((v >> (msb - HIST_SUB_BITS)) & (HIST_SUB - 1));
}

static uint64_t hist_lower(unsigned int idx)
{
	unsigned int major = idx / HIST_SUB, minor = idx % HIST_SUB;

	if (major == 0)
		return minor;
	return ((uint64_t)(HIST_SUB + minor)) << (major - 1);
}

void hist_record(struct histogram *h, uint64_t v)
{
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->bucket[hist_index(v)]++;
}

void hist_merge(struct histogram *dst, const struct histogram *src)
{
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	for (int i = 0; i < HIST_NR_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
}

uint64_t hist_quantile(const struct histogram *h, double q)
{
	uint64_t rank, seen = 0;

	if (!h->count)
		return 0;
	rank = (uint64_t)(q * (double)h->count);
	if (rank >= h->count)
		rank = h->count - 1;
	for (unsigned int i = 0; i < HIST_NR_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen > rank) {
			uint64_t lo = hist_lower(i), hi = hist_lower(i + 1);
			uint64_t mid = lo + (hi - lo) / 2;

			if (mid < h->min)
				mid = h->min;
			if (mid > h->max)
				mid = h->max;
			return mid;
		}
	}
	return h->max;
}

double hist_mean(const struct histogram *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0.0;
}

uint64_t hist_count_range(const struct histogram *h, uint64_t lo, uint64_t hi)
{
	uint64_t n = 0;

	for (unsigned int i = 0; i < HIST_NR_BUCKETS; i++) {
		uint64_t b = hist_lower(i);

		if (b >= lo && (!hi || b < hi))
			n += h->bucket[i];
	}
	return n;
}
