/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Zipfian ranks as in YCSB's ZipfianGenerator (Gray et al., "Quickly
 * generating billion-record synthetic databases", SIGMOD 1994), with the
 * optional scrambling of ScrambledZipfianGenerator (hashing the rank).
 */
#ifndef MMEMU_SCENARIOS_ZIPF_H
#define MMEMU_SCENARIOS_ZIPF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"

struct zipf {
	uint64_t n;		/* items */
	double theta;		/* skew; 0 = uniform */
	double alpha;		/* 1 / (1 - theta) */
	double zetan;		/* zeta(n, theta) */
	double eta;		/* Gray's eta */
	double half_pow_theta;	/* 0.5^theta */
	bool scrambled;		/* hash ranks over the key space */
};

void zipf_init(struct zipf *z, uint64_t n, double theta, bool scrambled);
/* A key in [0, n). */
uint64_t zipf_next(const struct zipf *z, struct rng *r);

#endif
