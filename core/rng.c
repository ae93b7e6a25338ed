/* SPDX-License-Identifier: GPL-2.0-only */
#include "core/rng.h"

uint64_t fnv1a64(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

void rng_seed(struct rng *r, uint64_t seed, const char *name)
{
	uint64_t x = seed ^ fnv1a64(name);

	for (int i = 0; i < 4; i++) {
		x += 0x9e3779b97f4a7c15ULL;
		r->s[i] = mix64(x);
	}
	if (!(r->s[0] | r->s[1] | r->s[2] | r->s[3]))
		r->s[0] = 1;
}
