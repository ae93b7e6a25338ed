/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Zipfian keys: a rank drawn with probability proportional to 1/(rank+1)^s,
 * then mapped onto the keys.
 *
 * Ranks: for s < 1, YCSB's ZipfianGenerator (Gray et al., "Quickly
 * generating billion-record synthetic databases", SIGMOD 1994); for s >= 1,
 * where Gray's method has no closed form, rejection-inversion sampling
 * (Hoermann and Derflinger, "Rejection-inversion to generate variates from
 * monotone discrete distributions", ACM TOMACS 6(3), 1996).
 *
 * Keys from ranks (enum zipf_scramble):
 * - ZIPF_ORDER: key = rank; the popular keys are the low ones.
 * - ZIPF_HASH: key = hash(rank) mod n over n ranks. A hash is not a
 *   bijection: about 1/e of the keys (37%) are never drawn and others are
 *   drawn for two ranks. mmemu's generators used this before `scramble`.
 * - ZIPF_YCSB: YCSB's ScrambledZipfianGenerator as it ships: ranks over
 *   10^10 items (ITEM_COUNT) whatever the key count, key = fnvhash64(rank)
 *   mod n. The ranks past n carry a large share of the mass and land
 *   almost uniformly (29% of draws at theta 0.99 and n = 2*10^7).
 * - ZIPF_PERMUTATION: ranks over n, key = a pseudo-random bijection of the
 *   rank (a Feistel network, cycle-walked onto [0, n)): every key has its
 *   own rank, the distribution is exactly Zipf over the keys.
 */
#ifndef MMEMU_SCENARIOS_ZIPF_H
#define MMEMU_SCENARIOS_ZIPF_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"

enum zipf_scramble {
	ZIPF_ORDER,
	ZIPF_HASH,
	ZIPF_YCSB,
	ZIPF_PERMUTATION,
	NR_ZIPF_SCRAMBLE
};

/* The names of enum zipf_scramble, for scenario keys and messages. */
extern const char *const zipf_scramble_names[NR_ZIPF_SCRAMBLE];
/* A `scramble` key whose default (index 0, unset) is the hash: its names,
 * NULL-terminated, and the mapping of each onto enum zipf_scramble. */
extern const char *const zipf_scramble_hash_first[];
extern const enum zipf_scramble zipf_scramble_hash_first_of[];

/* YCSB ScrambledZipfianGenerator: ITEM_COUNT, and ZETAN = zeta(ITEM_COUNT, 0.99) */
#define ZIPF_YCSB_ITEMS 10000000000ULL
#define ZIPF_YCSB_ZETAN 26.46902820178302
#define ZIPF_YCSB_THETA 0.99

struct zipf {
	uint64_t n;		/* keys */
	uint64_t items;		/* ranks (n, or ZIPF_YCSB_ITEMS) */
	double theta;		/* skew s; 0 = uniform */
	enum zipf_scramble scramble;
	/* Gray (theta < 1) */
	double alpha;		/* 1 / (1 - theta) */
	double zetan;		/* zeta(items, theta) */
	double eta;		/* Gray's eta */
	double half_pow_theta;	/* 0.5^theta */
	double zeta2;		/* zeta(2, theta) */
	/* rejection-inversion (theta >= 1) */
	double hx1, hn, ri_s;
	/* ZIPF_PERMUTATION: a Feistel network over 2 * half_bits bits */
	unsigned half_bits;
	uint64_t keys[4];
};

void zipf_init(struct zipf *z, uint64_t n, double theta, enum zipf_scramble scramble);
/* A rank in [0, z->items), before the mapping onto keys. */
uint64_t zipf_rank(const struct zipf *z, struct rng *r);
/* A key in [0, n). */
uint64_t zipf_next(const struct zipf *z, struct rng *r);
/* The key rank maps to. */
uint64_t zipf_key_of(const struct zipf *z, uint64_t rank);
/* zeta(n, theta) = sum of 1/i^theta for i = 1..n (exact up to 10^8 terms,
 * Euler-Maclaurin beyond). */
double zipf_zeta(uint64_t n, double theta);
/* YCSB's Utils.fnvhash64(): FNV-1a over the 8 bytes of v, sign dropped. */
uint64_t zipf_fnvhash64(uint64_t v);
/* After z->items changed (YCSB's ZipfianGenerator asked for more items,
 * Gray only): zetan grown term by term to the new count. */
void zipf_grow(struct zipf *z, uint64_t items);

#endif
