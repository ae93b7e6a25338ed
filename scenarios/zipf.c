/* SPDX-License-Identifier: GPL-2.0-only */
#include <math.h>

#include "scenarios/zipf.h"

static double zeta(uint64_t n, double theta)
{
	double sum = 0;

	for (uint64_t i = 1; i <= n; i++)
		sum += 1.0 / pow((double)i, theta);
	return sum;
}

void zipf_init(struct zipf *z, uint64_t n, double theta, bool scrambled)
{
	z->n = n ? n : 1;
	z->theta = theta;
	z->scrambled = scrambled;
	if (theta <= 0)
		return;
	z->alpha = 1.0 / (1.0 - theta);
	z->zetan = zeta(z->n, theta);
	z->half_pow_theta = pow(0.5, theta);
	z->eta = (1.0 - pow(2.0 / (double)z->n, 1.0 - theta)) /
		 (1.0 - zeta(2, theta) / z->zetan);
}

uint64_t zipf_next(const struct zipf *z, struct rng *r)
{
	uint64_t rank;

	if (z->theta <= 0)
		return rng_below(r, z->n);
	{
		double u = rng_double(r);
		double uz = u * z->zetan;

		if (uz < 1.0)
			rank = 0;
		else if (uz < 1.0 + z->half_pow_theta)
			rank = 1;
		else
			rank = (uint64_t)((double)z->n * pow(z->eta * u - z->eta + 1.0, z->alpha));
		if (rank >= z->n)
			rank = z->n - 1;
	}
	/* ScrambledZipfian: popular keys spread over the key space */
	return z->scrambled ? mix64(rank + 0x9e3779b97f4a7c15ULL) % z->n : rank;
}
