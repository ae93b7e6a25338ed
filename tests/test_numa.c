/* SPDX-License-Identifier: GPL-2.0-only */
/* numa/: watermarks (the kernel's integer formulas), allocation with fallback, platform. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "numa/numa.h"

#define GiB_PAGES (1ULL << (30 - PAGE_SHIFT))

/* int_sqrt() */
static uint64_t isqrt(uint64_t x)
{
	uint64_t r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/*
 * init_per_zone_wmark_min() + __setup_per_zone_wmarks(), written out again
 * from mm/page_alloc.c with one zone per node.
 */
static void expected_wmarks(const uint64_t *pages, int nr, unsigned int wsf,
			    uint64_t *min_free_kbytes, uint64_t wmark[][NR_WMARK])
{
	uint64_t total = 0, kb, pages_min;

	for (int i = 0; i < nr; i++)
		total += pages[i];
	kb = isqrt(total * 4 * 16);
	if (kb < 128)
		kb = 128;
	if (kb > 262144)
		kb = 262144;
	*min_free_kbytes = kb;
	pages_min = kb >> (PAGE_SHIFT - 10);
	for (int i = 0; i < nr; i++) {
		uint64_t min = pages_min * pages[i] / total;
		uint64_t tmp = pages[i] * wsf / 10000;

		if (tmp < min >> 2)
			tmp = min >> 2;
		wmark[i][WMARK_MIN] = min;
		wmark[i][WMARK_LOW] = min + tmp;
		wmark[i][WMARK_HIGH] = min + 2 * tmp;
	}
}

static void check_machine(int nr, const uint64_t *pages, unsigned int wsf)
{
	struct machine m;
	int cpus[MAX_NUMNODES];
	uint64_t kb, wm[MAX_NUMNODES][NR_WMARK];

	for (int i = 0; i < nr; i++)
		cpus[i] = 2;
	ck_assert_int_eq(machine_init(&m, nr, pages, cpus, wsf), 0);
	expected_wmarks(pages, nr, wsf, &kb, wm);
	ck_assert_uint_eq(m.min_free_kbytes, kb);
	for (int i = 0; i < nr; i++) {
		ck_assert_uint_eq(m.node[i].managed_pages, pages[i]);
		ck_assert_uint_eq(m.node[i].nr_free, pages[i]);
		for (int w = 0; w < NR_WMARK; w++)
			ck_assert_msg(m.node[i].wmark[w] == wm[i][w],
				      "node %d wmark %d: %llu, kernel formula %llu", i, w,
				      (unsigned long long)m.node[i].wmark[w],
				      (unsigned long long)wm[i][w]);
	}
}

START_TEST(test_wmarks_two_4g_nodes)
{
	uint64_t pages[2] = { 4 * GiB_PAGES, 4 * GiB_PAGES };
	struct machine m;
	int cpus[2] = { 8, 8 };

	check_machine(2, pages, 10);
	/* the numbers, worked out by hand: 8 GiB = 8388608 kB */
	ck_assert_int_eq(machine_init(&m, 2, pages, cpus, 10), 0);
	ck_assert_uint_eq(m.min_free_kbytes, 11585);	/* int_sqrt(8388608 * 16) */
	ck_assert_uint_eq(m.node[0].wmark[WMARK_MIN], 1448);	/* 2896 pages / 2 */
	ck_assert_uint_eq(m.node[0].wmark[WMARK_LOW], 1448 + 1048);	/* 1048576 * 10 / 10000 */
	ck_assert_uint_eq(m.node[0].wmark[WMARK_HIGH], 1448 + 2 * 1048);
	ck_assert_uint_eq(m.node[1].wmark[WMARK_LOW], m.node[0].wmark[WMARK_LOW]);
}
END_TEST

START_TEST(test_wmarks_tiny_and_clamped)
{
	uint64_t tiny = 4096;		/* 16 MiB: 512 kB, min/4 beats the scale factor */
	uint64_t tinier = 64;		/* 256 kB: sqrt gives 64 kB, clamped up to 128 */
	uint64_t huge = 1ULL << 31;	/* 8 TiB: clamped down to 256 MB */
	struct machine m;
	int cpus = 1;

	check_machine(1, &tiny, 10);
	ck_assert_int_eq(machine_init(&m, 1, &tiny, &cpus, 10), 0);
	ck_assert_uint_eq(m.min_free_kbytes, 512);
	ck_assert_uint_eq(m.node[0].wmark[WMARK_MIN], 128);
	ck_assert_uint_eq(m.node[0].wmark[WMARK_LOW], 160);
	ck_assert_uint_eq(m.node[0].wmark[WMARK_HIGH], 192);

	check_machine(1, &tinier, 10);
	ck_assert_int_eq(machine_init(&m, 1, &tinier, &cpus, 10), 0);
	ck_assert_uint_eq(m.min_free_kbytes, 128);
	ck_assert_uint_eq(m.node[0].wmark[WMARK_MIN], 32);

	check_machine(1, &huge, 10);
	ck_assert_int_eq(machine_init(&m, 1, &huge, &cpus, 10), 0);
	ck_assert_uint_eq(m.min_free_kbytes, 262144);
}
END_TEST

/*
 * A vm.min_free_kbytes write (user_min_free_kbytes) replaces the computed
 * value, larger or smaller, and the watermarks follow it, shared out by
 * node size; -1 (no write) keeps the computed one.
 */
START_TEST(test_wmarks_user_min_free_kbytes)
{
	uint64_t pages[2] = { 3 * GiB_PAGES, 1 * GiB_PAGES };
	int cpus[2] = { 1, 1 };
	struct machine m;

	ck_assert_int_eq(machine_init(&m, 2, pages, cpus, 10), 0);
	ck_assert_int_eq(m.user_min_free_kbytes, -1);
	ck_assert_uint_eq(m.min_free_kbytes, 8192);	/* int_sqrt(4194304 * 16) */
	m.user_min_free_kbytes = 65536;
	setup_per_zone_wmarks(&m);
	ck_assert_uint_eq(m.min_free_kbytes, 65536);
	ck_assert_uint_eq(m.node[0].wmark[WMARK_MIN], 16384 * 3 / 4);
	ck_assert_uint_eq(m.node[1].wmark[WMARK_MIN], 16384 / 4);
	m.user_min_free_kbytes = 64;	/* below the computed clamp: taken as written */
	setup_per_zone_wmarks(&m);
	ck_assert_uint_eq(m.min_free_kbytes, 64);
	ck_assert_uint_eq(m.node[0].wmark[WMARK_MIN] + m.node[1].wmark[WMARK_MIN], 16);
}
END_TEST

START_TEST(test_wmarks_proportional_and_scale_factor)
{
	uint64_t pages[2] = { 3 * GiB_PAGES, 1 * GiB_PAGES };
	uint64_t four[4] = { GiB_PAGES, 2 * GiB_PAGES, 3 * GiB_PAGES, 5 * GiB_PAGES };
	struct machine m;
	int cpus[2] = { 1, 1 };

	check_machine(2, pages, 10);
	check_machine(2, pages, 200);
	check_machine(4, four, 1);
	check_machine(4, four, 3000);
	ck_assert_int_eq(machine_init(&m, 2, pages, cpus, 10), 0);
	/* min in proportion to size */
	ck_assert_uint_ge(m.node[0].wmark[WMARK_MIN], 3 * m.node[1].wmark[WMARK_MIN]);
	ck_assert_uint_le(m.node[0].wmark[WMARK_MIN], 3 * m.node[1].wmark[WMARK_MIN] + 3);
	/* a larger scale factor widens the gaps */
	{
		struct machine w;

		ck_assert_int_eq(machine_init(&w, 2, pages, cpus, 100), 0);
		ck_assert_uint_eq(w.node[0].wmark[WMARK_MIN], m.node[0].wmark[WMARK_MIN]);
		ck_assert_uint_gt(w.node[0].wmark[WMARK_LOW], m.node[0].wmark[WMARK_LOW]);
		ck_assert_uint_gt(w.node[0].wmark[WMARK_HIGH], m.node[0].wmark[WMARK_HIGH]);
	}
}
END_TEST

START_TEST(test_machine_init_rejects)
{
	uint64_t pages[MAX_NUMNODES + 1] = { 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	int cpus[MAX_NUMNODES + 1] = { 1, 1, 1, 1, 1, 1, 1, 1, 1 };
	uint64_t zero[2] = { 100, 0 };
	int nocpu[2] = { 1, 0 };
	struct machine m;

	ck_assert_int_lt(machine_init(&m, 0, pages, cpus, 10), 0);
	ck_assert_int_lt(machine_init(&m, MAX_NUMNODES + 1, pages, cpus, 10), 0);
	ck_assert_int_lt(machine_init(&m, 2, zero, cpus, 10), 0);
	ck_assert_int_lt(machine_init(&m, 2, pages, nocpu, 10), 0);
	ck_assert_int_eq(machine_init(&m, MAX_NUMNODES, pages, cpus, 10), 0);
}
END_TEST

static int wakeups[MAX_NUMNODES];

static void count_wakeup(void *ctx, int nid)
{
	ck_assert_ptr_eq(ctx, &wakeups);
	wakeups[nid]++;
}

static void two_nodes(struct machine *m)
{
	uint64_t pages[2] = { 8192, 8192 };
	int cpus[2] = { 2, 2 };

	ck_assert_int_eq(machine_init(m, 2, pages, cpus, 10), 0);
}

START_TEST(test_alloc_prefers_local)
{
	struct machine m;

	two_nodes(&m);
	for (int i = 0; i < 100; i++)
		ck_assert_int_eq(numa_alloc_page(&m, 1, WMARK_LOW), 1);
	ck_assert_uint_eq(m.node[1].nr_free, 8192 - 100);
	ck_assert_uint_eq(m.node[0].nr_free, 8192);
	ck_assert_uint_eq(m.node[1].nr_alloc_local, 100);
	ck_assert_uint_eq(m.node[1].nr_alloc_foreign, 0);
	numa_free_page(&m, 1);
	ck_assert_uint_eq(m.node[1].nr_free, 8192 - 99);
}
END_TEST

START_TEST(test_alloc_falls_back_at_watermark)
{
	struct machine m;
	uint64_t low0;

	two_nodes(&m);
	low0 = m.node[0].wmark[WMARK_LOW];
	/* at the watermark is not above it: node 0 is skipped */
	m.node[0].nr_free = low0;
	ck_assert_int_eq(numa_alloc_page(&m, 0, WMARK_LOW), 1);
	ck_assert_uint_eq(m.node[0].nr_free, low0);
	ck_assert_uint_eq(m.node[1].nr_free, 8192 - 1);
	ck_assert_uint_eq(m.node[0].nr_alloc_foreign, 1);
	ck_assert_uint_eq(m.node[0].nr_alloc_local, 0);
	/* one page above it: local again */
	m.node[0].nr_free = low0 + 1;
	ck_assert_int_eq(numa_alloc_page(&m, 0, WMARK_LOW), 0);
	ck_assert_uint_eq(m.node[0].nr_free, low0);
	/* a lower mark still allows the local node */
	ck_assert_int_eq(numa_alloc_page(&m, 0, WMARK_MIN), 0);
	ck_assert_uint_eq(m.node[0].nr_free, low0 - 1);
}
END_TEST

START_TEST(test_alloc_fails_when_all_at_watermark)
{
	struct machine m;

	two_nodes(&m);
	for (int nid = 0; nid < 2; nid++)
		m.node[nid].nr_free = m.node[nid].wmark[WMARK_MIN];
	ck_assert_int_eq(numa_alloc_page(&m, 0, WMARK_MIN), -1);
	ck_assert_int_eq(numa_alloc_page(&m, 1, WMARK_LOW), -1);
	ck_assert_uint_eq(m.node[0].nr_free, m.node[0].wmark[WMARK_MIN]);
	ck_assert_uint_eq(m.node[1].nr_free, m.node[1].wmark[WMARK_MIN]);
	/* the nofail path ignores the watermarks, until nothing is left */
	ck_assert_int_eq(numa_alloc_page_nowmark(&m, 1), 1);
	m.node[0].nr_free = 0;
	m.node[1].nr_free = 0;
	ck_assert_int_eq(numa_alloc_page_nowmark(&m, 0), -1);
	numa_free_page(&m, 0);
	ck_assert_int_eq(numa_alloc_page_nowmark(&m, 1), 0);
}
END_TEST

START_TEST(test_reserve_pages)
{
	struct machine m;

	two_nodes(&m);
	ck_assert_int_eq(numa_reserve_page(&m, 1), 0);
	ck_assert_uint_eq(m.node[1].nr_free, 8192 - 1);
	ck_assert_uint_eq(m.node[1].nr_reserved, 1);
	ck_assert_uint_eq(m.node[0].nr_reserved, 0);
	numa_unreserve_page(&m, 1);
	ck_assert_uint_eq(m.node[1].nr_free, 8192);
	ck_assert_uint_eq(m.node[1].nr_reserved, 0);
	/* the last free page can be reserved (no watermark), then none */
	m.node[0].nr_free = 1;
	ck_assert_int_eq(numa_reserve_page(&m, 0), 0);
	ck_assert_int_eq(numa_reserve_page(&m, 0), -1);
	ck_assert_uint_eq(m.node[0].nr_free, 0);
	ck_assert_uint_eq(m.node[0].nr_reserved, 1);
}
END_TEST

START_TEST(test_wake_all_kswapds_below_low)
{
	struct machine m;

	two_nodes(&m);
	memset(wakeups, 0, sizeof(wakeups));
	m.wakeup_kswapd = count_wakeup;
	m.wakeup_ctx = &wakeups;
	numa_wake_all_kswapds(&m);
	ck_assert_int_eq(wakeups[0] + wakeups[1], 0);
	m.node[1].nr_free = m.node[1].wmark[WMARK_LOW];
	numa_wake_all_kswapds(&m);
	ck_assert_int_eq(wakeups[0], 0);
	ck_assert_int_eq(wakeups[1], 1);
}
END_TEST

START_TEST(test_access_cost_remote_penalty)
{
	ck_assert_uint_eq(numa_access_cost(0, 0, 100), 100);
	ck_assert_uint_eq(numa_access_cost(0, 1, 100), 100 + NUMA_REMOTE_PENALTY_PCT);
	ck_assert_uint_gt(numa_access_cost(1, 0, 90), numa_access_cost(1, 1, 90));
}
END_TEST

START_TEST(test_platform_xml)
{
	uint64_t pages[2] = { 1024, 1024 };
	int cpus[2] = { 3, 5 };
	struct machine m;
	char *xml;

	ck_assert_int_eq(machine_init(&m, 2, pages, cpus, 10), 0);
	xml = numa_platform_xml(&m);
	ck_assert_ptr_nonnull(xml);
	ck_assert_ptr_nonnull(strstr(xml, "<platform"));
	ck_assert_ptr_nonnull(strstr(xml, "id=\"node0\""));
	ck_assert_ptr_nonnull(strstr(xml, "id=\"node1\""));
	ck_assert_ptr_null(strstr(xml, "id=\"node2\""));
	ck_assert_ptr_nonnull(strstr(xml, "<host id=\"node0\" speed=\"1Gf\" core=\"3\"/>"));
	ck_assert_ptr_nonnull(strstr(xml, "<host id=\"node1\" speed=\"1Gf\" core=\"5\"/>"));
	ck_assert_ptr_nonnull(strstr(xml, "</platform>"));
	free(xml);
}
END_TEST

START_TEST(test_platform_xml_eight_big_nodes)
{
	uint64_t pages[MAX_NUMNODES];
	int cpus[MAX_NUMNODES];
	struct machine m;
	char *xml;

	for (int i = 0; i < MAX_NUMNODES; i++) {
		pages[i] = 1024;
		cpus[i] = 4096;
	}
	ck_assert_int_eq(machine_init(&m, MAX_NUMNODES, pages, cpus, 10), 0);
	xml = numa_platform_xml(&m);
	ck_assert_ptr_nonnull(xml);
	ck_assert_ptr_nonnull(strstr(xml, "<host id=\"node7\" speed=\"1Gf\" core=\"4096\"/>"));
	ck_assert_ptr_nonnull(strstr(xml, "</platform>\n"));
	free(xml);
}
END_TEST

static Suite *numa_suite(void)
{
	Suite *s = suite_create("numa");
	TCase *tc = tcase_create("watermarks");

	tcase_add_test(tc, test_wmarks_two_4g_nodes);
	tcase_add_test(tc, test_wmarks_tiny_and_clamped);
	tcase_add_test(tc, test_wmarks_proportional_and_scale_factor);
	tcase_add_test(tc, test_wmarks_user_min_free_kbytes);
	tcase_add_test(tc, test_machine_init_rejects);
	suite_add_tcase(s, tc);

	tc = tcase_create("alloc");
	tcase_add_test(tc, test_alloc_prefers_local);
	tcase_add_test(tc, test_alloc_falls_back_at_watermark);
	tcase_add_test(tc, test_alloc_fails_when_all_at_watermark);
	tcase_add_test(tc, test_reserve_pages);
	tcase_add_test(tc, test_wake_all_kswapds_below_low);
	tcase_add_test(tc, test_access_cost_remote_penalty);
	suite_add_tcase(s, tc);

	tc = tcase_create("platform");
	tcase_add_test(tc, test_platform_xml);
	tcase_add_test(tc, test_platform_xml_eight_big_nodes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(numa_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
