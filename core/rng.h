/* SPDX-License-Identifier: GPL-2.0-only */
/* Deterministic random streams: xoshiro256** seeded through splitmix64. */
#ifndef MMEMU_CORE_RNG_H
#define MMEMU_CORE_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s[4];	/* xoshiro256** state */
};

/* Seeds a stream from the run seed and a name (actor, workload, ...). */
void rng_seed(struct rng *r, uint64_t seed, const char *name);

static inline uint64_t rng_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t rng_next(struct rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rng_rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rng_rotl(s[3], 45);
	return result;
}

/* Uniform in [0, 1). */
static inline double rng_double(struct rng *r)
{
	return (double)(rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform in [0, n), n > 0 (Lemire's multiply-shift; bias < 2^-32 here). */
static inline uint64_t rng_below(struct rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

/* 64-bit FNV-1a of a string, for seeding and scrambling. */
uint64_t fnv1a64(const char *s);
/* 64-bit mix (splitmix64 finaliser), for scrambled keys. */
static inline uint64_t mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

#endif
