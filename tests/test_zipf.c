/* SPDX-License-Identifier: GPL-2.0-only */
/* Zipfian keys: the rank samplers, YCSB's scrambling, the permutation. */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "scenarios/zipf.h"

/* YCSB's ZETAN is zeta(10^10, 0.99); Euler-Maclaurin must agree with it. */
START_TEST(test_zeta_large)
{
	ck_assert_double_eq_tol(zipf_zeta(ZIPF_YCSB_ITEMS, 0.99), ZIPF_YCSB_ZETAN, 1e-9);
	/* s = 1: the harmonic number, ln n + Euler's gamma + 1/2n */
	ck_assert_double_eq_tol(zipf_zeta(ZIPF_YCSB_ITEMS, 1.0),
				log(1e10) + 0.57721566490153286 + 0.5e-10, 1e-9);
	/* the exact sum below the switch */
	ck_assert_double_eq_tol(zipf_zeta(3, 1.0), 1 + 0.5 + 1.0 / 3, 1e-15);
}
END_TEST

/* YCSB's first loaded key (insertorder=hashed) is user6284781860667377211. */
START_TEST(test_fnvhash64)
{
	ck_assert_uint_eq(zipf_fnvhash64(0), 6284781860667377211ULL);
	ck_assert_uint_eq(zipf_fnvhash64(1), 8517097267634966620ULL);
	ck_assert_uint_eq(zipf_fnvhash64(12345), 1792800413050876852ULL);
}
END_TEST

/*
 * ScrambledZipfianGenerator draws ranks over 10^10 items, not over the
 * keys: with 2*10^7 keys at theta 0.99, 1 - zeta(2e7)/ZETAN of the draws
 * (29%) have a rank past the key count. Ranks over the keys would give 0.
 */
START_TEST(test_ycsb_ranks_past_keys)
{
	const uint64_t n = 20000000;
	struct zipf z;
	struct rng r;
	unsigned past = 0, draws = 200000;
	double want = 1 - zipf_zeta(n, 0.99) / ZIPF_YCSB_ZETAN;

	zipf_init(&z, n, 0.99, ZIPF_YCSB);
	ck_assert_uint_eq(z.items, ZIPF_YCSB_ITEMS);
	rng_seed(&r, 1, "zipf");
	for (unsigned i = 0; i < draws; i++)
		past += zipf_rank(&z, &r) >= n;
	ck_assert_double_gt(want, 0.28);
	ck_assert_double_lt(want, 0.30);
	ck_assert_double_eq_tol((double)past / draws, want, 0.01);
	/* and every key is one of the n */
	for (unsigned i = 0; i < 1000; i++)
		ck_assert_uint_lt(zipf_next(&z, &r), n);
}
END_TEST

/* The most popular YCSB key is fnvhash64(0) mod n, drawn 1/ZETAN of the time. */
START_TEST(test_ycsb_top_key)
{
	const uint64_t n = 1000003;
	struct zipf z;
	struct rng r;
	unsigned top = 0, draws = 200000;

	zipf_init(&z, n, 0.99, ZIPF_YCSB);
	rng_seed(&r, 2, "zipf");
	for (unsigned i = 0; i < draws; i++)
		top += zipf_next(&z, &r) == zipf_fnvhash64(0) % n;
	ck_assert_double_eq_tol((double)top / draws, 1 / ZIPF_YCSB_ZETAN, 0.003);
}
END_TEST

/* scramble = permutation: a bijection of [0, n) for any n. */
START_TEST(test_permutation_bijective)
{
	static const uint64_t sizes[] = { 1, 2, 3, 5, 1000, 4096, 4097, 65537 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		uint64_t n = sizes[k];
		unsigned char *seen = calloc(n, 1);
		struct zipf z;

		ck_assert_ptr_nonnull(seen);
		zipf_init(&z, n, 0.99, ZIPF_PERMUTATION);
		for (uint64_t rank = 0; rank < n; rank++) {
			uint64_t key = zipf_key_of(&z, rank);

			ck_assert_uint_lt(key, n);
			ck_assert_uint_eq(seen[key], 0);
			seen[key] = 1;
		}
		free(seen);
	}
}
END_TEST

/* scramble = hash is not: about 1 - 1/e of the keys are anyone's image. */
START_TEST(test_hash_misses_keys)
{
	const uint64_t n = 100000;
	unsigned char *seen = calloc(n, 1);
	uint64_t hit = 0;
	struct zipf z;

	ck_assert_ptr_nonnull(seen);
	zipf_init(&z, n, 0.99, ZIPF_HASH);
	for (uint64_t rank = 0; rank < n; rank++) {
		uint64_t key = zipf_key_of(&z, rank);

		hit += !seen[key];
		seen[key] = 1;
	}
	ck_assert_double_eq_tol((double)hit / n, 1 - exp(-1), 0.01);
	free(seen);
}
END_TEST

/* s >= 1 (rejection-inversion): the frequencies of the first ranks are
 * 1/(k^s zeta(n, s)). */
static void check_pmf(double s, unsigned ranks)
{
	const uint64_t n = 50;
	unsigned count[50] = { 0 }, draws = 400000;
	struct zipf z;
	struct rng r;
	double zeta = zipf_zeta(n, s);

	zipf_init(&z, n, s, ZIPF_ORDER);
	rng_seed(&r, 3, "zipf");
	for (unsigned i = 0; i < draws; i++) {
		uint64_t k = zipf_next(&z, &r);

		ck_assert_uint_lt(k, n);
		count[k]++;
	}
	for (unsigned k = 0; k < ranks; k++) {
		double p = 1 / (pow(k + 1, s) * zeta);
		double sd = sqrt(p * (1 - p) / draws);

		ck_assert_double_eq_tol((double)count[k] / draws, p, 5 * sd);
	}
}

START_TEST(test_rejection_inversion)
{
	check_pmf(1.0, 5);
	check_pmf(1.2, 5);
	check_pmf(2.0, 5);
}
END_TEST

/* Gray's method for s < 1: exact for the first two ranks, a continuous
 * approximation past them (as YCSB's ZipfianGenerator is). */
START_TEST(test_gray)
{
	check_pmf(0.5, 2);
	check_pmf(0.99, 2);
}
END_TEST

/* zipf_grow: YCSB's ZipfianGenerator asked for more items. */
START_TEST(test_grow)
{
	struct zipf a, b;

	zipf_init(&a, 1000, 0.99, ZIPF_ORDER);
	zipf_init(&b, 1500, 0.99, ZIPF_ORDER);
	zipf_grow(&a, 1500);
	ck_assert_uint_eq(a.n, 1500);
	ck_assert_double_eq_tol(a.zetan, b.zetan, 1e-9);
	ck_assert_double_eq_tol(a.eta, b.eta, 1e-9);
}
END_TEST

static Suite *zipf_suite(void)
{
	Suite *s = suite_create("zipf");
	TCase *tc = tcase_create("zipf");

	/* sampling hundreds of thousands of draws: slow under sanitizers */
	tcase_set_timeout(tc, 120);

	tcase_add_test(tc, test_zeta_large);
	tcase_add_test(tc, test_fnvhash64);
	tcase_add_test(tc, test_ycsb_ranks_past_keys);
	tcase_add_test(tc, test_ycsb_top_key);
	tcase_add_test(tc, test_permutation_bijective);
	tcase_add_test(tc, test_hash_misses_keys);
	tcase_add_test(tc, test_rejection_inversion);
	tcase_add_test(tc, test_gray);
	tcase_add_test(tc, test_grow);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(zipf_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
