/* SPDX-License-Identifier: GPL-2.0-only */
#include <math.h>
#include <stddef.h>

#include "scenarios/zipf.h"

const char *const zipf_scramble_names[NR_ZIPF_SCRAMBLE] = {
	[ZIPF_ORDER] = "none",
	[ZIPF_HASH] = "hash",
	[ZIPF_YCSB] = "ycsb",
	[ZIPF_PERMUTATION] = "permutation",
};

const char *const zipf_scramble_hash_first[] = { "hash", "none", "ycsb", "permutation", NULL };
const enum zipf_scramble zipf_scramble_hash_first_of[] = {
	ZIPF_HASH, ZIPF_ORDER, ZIPF_YCSB, ZIPF_PERMUTATION,
};

/* Terms summed one by one; past this, Euler-Maclaurin. */
#define ZETA_EXACT_TERMS 100000000ULL
/* where Euler-Maclaurin takes over: the error after the f' term is below
 * f'''(M)/720 ~ 1e-13 here */
#define ZETA_EM_FROM 1000ULL

double zipf_zeta(uint64_t n, double theta)
{
	double sum = 0, m, nn;

	if (n <= ZETA_EXACT_TERMS) {
		for (uint64_t i = 1; i <= n; i++)
			sum += 1.0 / pow((double)i, theta);
		return sum;
	}
	/* sum_{i<M} f(i) + integral_M^N f + (f(M) + f(N))/2 + (f'(N) - f'(M))/12,
	 * f(x) = x^-theta */
	for (uint64_t i = 1; i < ZETA_EM_FROM; i++)
		sum += 1.0 / pow((double)i, theta);
	m = (double)ZETA_EM_FROM;
	nn = (double)n;
	if (fabs(theta - 1.0) < 1e-12)
		sum += log(nn / m);
	else
		sum += (pow(nn, 1.0 - theta) - pow(m, 1.0 - theta)) / (1.0 - theta);
	sum += (pow(m, -theta) + pow(nn, -theta)) / 2;
	sum += theta * (pow(m, -theta - 1) - pow(nn, -theta - 1)) / 12;
	return sum;
}

uint64_t zipf_fnvhash64(uint64_t v)
{
	/* YCSB Utils: FNV_OFFSET_BASIS_64, FNV_PRIME_64 */
	uint64_t h = 0xCBF29CE484222325ULL;

	for (int i = 0; i < 8; i++) {
		h ^= v & 0xff;
		v >>= 8;
		h *= 1099511628211ULL;
	}
	/* Math.abs() of the signed value (Long.MIN_VALUE stays 2^63) */
	return h >> 63 ? -h : h;
}

/* ---- Gray's method (YCSB's ZipfianGenerator), theta < 1 ---- */

static void gray_eta(struct zipf *z)
{
	z->eta = (1.0 - pow(2.0 / (double)z->items, 1.0 - z->theta)) /
		 (1.0 - z->zeta2 / z->zetan);
}

static uint64_t gray_rank(const struct zipf *z, struct rng *r)
{
	double u = rng_double(r);
	double uz = u * z->zetan;
	uint64_t rank;

	if (uz < 1.0)
		return 0;
	if (uz < 1.0 + z->half_pow_theta)
		return 1;
	rank = (uint64_t)((double)z->items * pow(z->eta * u - z->eta + 1.0, z->alpha));
	return rank < z->items ? rank : z->items - 1;
}

void zipf_grow(struct zipf *z, uint64_t items)
{
	if (z->theta <= 0 || z->theta >= 1) {
		z->n = z->items = items;
		return;
	}
	for (uint64_t i = z->items + 1; i <= items; i++)
		z->zetan += 1.0 / pow((double)i, z->theta);
	z->n = z->items = items;
	gray_eta(z);
}

/* ---- rejection-inversion, theta >= 1 ---- */

/* log1p(x)/x and expm1(x)/x, continuous at 0 */
static double log1p_over(double x)
{
	return fabs(x) > 1e-8 ? log1p(x) / x : 1.0 - x / 2 + x * x / 3;
}

static double expm1_over(double x)
{
	return fabs(x) > 1e-8 ? expm1(x) / x : 1.0 + x / 2 + x * x / 6;
}

/* H(x) = integral of h(t) = t^-s: (x^(1-s) - 1)/(1-s), log(x) at s = 1 */
static double ri_H(double s, double x)
{
	double lx = log(x);

	return expm1_over((1.0 - s) * lx) * lx;
}

static double ri_h(double s, double x)
{
	return exp(-s * log(x));
}

static double ri_Hinv(double s, double y)
{
	double t = y * (1.0 - s);

	if (t < -1.0)
		t = -1.0;
	return exp(log1p_over(t) * y);
}

static void ri_init(struct zipf *z)
{
	double s = z->theta;

	z->hx1 = ri_H(s, 1.5) - 1.0;
	z->hn = ri_H(s, (double)z->items + 0.5);
	z->ri_s = 2.0 - ri_Hinv(s, ri_H(s, 2.5) - ri_h(s, 2.0));
}

static uint64_t ri_rank(const struct zipf *z, struct rng *r)
{
	double s = z->theta;

	for (;;) {
		double u = z->hn + rng_double(r) * (z->hx1 - z->hn);
		double x = ri_Hinv(s, u);
		double kd = floor(x + 0.5);
		uint64_t k;

		if (kd < 1)
			kd = 1;
		else if (kd > (double)z->items)
			kd = (double)z->items;
		k = (uint64_t)kd;
		/* accept: inside the squeeze, or under h(k) */
		if (kd - x <= z->ri_s || u >= ri_H(s, kd + 0.5) - ri_h(s, kd))
			return k - 1;
	}
}

/* ---- ranks onto keys ---- */

static uint64_t feistel(const struct zipf *z, uint64_t x)
{
	unsigned b = z->half_bits;
	uint64_t mask = (1ULL << b) - 1, l = x >> b, r = x & mask;

	for (int i = 0; i < 4; i++) {
		uint64_t t = l ^ (mix64(r ^ z->keys[i]) & mask);

		l = r;
		r = t;
	}
	return l << b | r;
}

uint64_t zipf_key_of(const struct zipf *z, uint64_t rank)
{
	switch (z->scramble) {
	case ZIPF_HASH:
		return mix64(rank + 0x9e3779b97f4a7c15ULL) % z->n;
	case ZIPF_YCSB:
		return zipf_fnvhash64(rank) % z->n;
	case ZIPF_PERMUTATION:
		/* cycle-walk: the domain is under 4n, so ~2 rounds on average */
		do
			rank = feistel(z, rank);
		while (rank >= z->n);
		return rank;
	default:
		return rank;
	}
}

void zipf_init(struct zipf *z, uint64_t n, double theta, enum zipf_scramble scramble)
{
	*z = (struct zipf){ .n = n ? n : 1, .theta = theta, .scramble = scramble };
	z->items = scramble == ZIPF_YCSB ? ZIPF_YCSB_ITEMS : z->n;
	if (scramble == ZIPF_PERMUTATION) {
		while (z->half_bits < 32 && (1ULL << (2 * z->half_bits)) < z->n)
			z->half_bits++;
		for (int i = 0; i < 4; i++)
			z->keys[i] = mix64(z->n * 4 + (uint64_t)i);
	}
	if (theta <= 0)
		return;
	if (theta >= 1) {
		ri_init(z);
		return;
	}
	z->alpha = 1.0 / (1.0 - theta);
	z->half_pow_theta = pow(0.5, theta);
	z->zeta2 = zipf_zeta(2, theta);
	/* YCSB's precomputed ZETAN for its default constant */
	z->zetan = scramble == ZIPF_YCSB && theta == ZIPF_YCSB_THETA ? ZIPF_YCSB_ZETAN
								   : zipf_zeta(z->items, theta);
	gray_eta(z);
}

uint64_t zipf_rank(const struct zipf *z, struct rng *r)
{
	if (z->theta <= 0)
		return rng_below(r, z->items);
	return z->theta >= 1 ? ri_rank(z, r) : gray_rank(z, r);
}

uint64_t zipf_next(const struct zipf *z, struct rng *r)
{
	/* uniform keys need no mapping */
	if (z->theta <= 0)
		return rng_below(r, z->n);
	return zipf_key_of(z, zipf_rank(z, r));
}
