/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every knob under its kernel name reaches the model and changes what it
 * decides or computes (issue 18.4): small scenarios run with and without
 * the knob, each compared on the figure the knob moves. Parsing and bad
 * values are in test_scenario.c.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

/* Runs text (with sets) under policy at scale 1, seed 1; the result in *r. */
static void run(const char *text, const char *const *sets, int nr, const char *policy,
		struct run_result *r)
{
	char err[1024] = "", *out = NULL, *path = harness_write_temp(text);
	int rc = harness_run_scenario(path, sets, nr, 1.0, 1, policy, false, &out, err,
				      sizeof(err));

	unlink(path);
	free(path);
	ck_assert_msg(rc == 0, "run failed: %s\n%s", err, text);
	ck_assert_int_eq(harness_parse_result(out, r), 0);
	free(out);
}

static double value(const struct run_result *r, const char *group, const char *key)
{
	double v = harness_value(r, group, key);

	ck_assert_msg(!isnan(v), "no %s %s in the result", group, key);
	return v;
}

static double pgscan(const struct run_result *r)
{
	return value(r, "vmstat", "pgscan_anon") + value(r, "vmstat", "pgscan_file");
}

static double pgsteal(const struct run_result *r)
{
	return value(r, "vmstat", "pgsteal_anon") + value(r, "vmstat", "pgsteal_file");
}

/* ---- sysctls and the watermarks ---- */

#define ONE_NODE "[machine]\nnodes = 1\nnode_memory = 256M\nnode_cpus = 2\n"
#define DEVICE "[device.d0]\ntype = nvme\n"
/* mmap reads of a 64M file through a 32M memcg */
#define MMAP_READER "[memcg.app]\nmemory.max = 32M\n" \
	"[workload.w]\ntype = file-zipf\nmemcg = app\ndevice = d0\nsize = 64M\n" \
	"access = mmap\nzipf_theta = 0.5\nops = 60000\n"

START_TEST(test_min_free_kbytes_and_watermark_scale_factor)
{
	static const char *const sets[] = { "vm.min_free_kbytes=8192",
					    "vm.watermark_scale_factor=100" };
	struct run_result def, set;
	double managed;

	run(ONE_NODE DEVICE MMAP_READER, NULL, 0, "classic", &def);
	run(ONE_NODE DEVICE MMAP_READER, sets, 2, "classic", &set);
	managed = value(&def, "node.0", "managed_pages");
	/* computed: int_sqrt(262144 KB * 16) = 2048 KB = 512 pages */
	ck_assert_double_eq(value(&def, "node.0", "min"), 512);
	/* the gap: max(min / 4, managed * 10 / 10000) = 128 */
	ck_assert_double_eq(value(&def, "node.0", "low") - 512, fmax(128, floor(managed * 10 / 10000)));
	/* written: 8192 KB = 2048 pages; the gap managed * 100 / 10000 */
	ck_assert_double_eq(value(&set, "node.0", "min"), 2048);
	ck_assert_double_eq(value(&set, "node.0", "low") - 2048, floor(managed * 100 / 10000));
	ck_assert_double_eq(value(&set, "node.0", "high") - 2048, 2 * floor(managed * 100 / 10000));
	result_free(&def);
	result_free(&set);
}
END_TEST

/*
 * An anon heap over memory.max with zram: memcg reclaim at swappiness 0
 * takes file pages only (get_scan_count()'s SCAN_FILE, MGLRU's file type),
 * so nothing is swapped; at 200 it swaps. vm.swappiness, and the memcg's
 * own memory.swappiness (cgroup v1's file).
 */
#define ZRAM_ONLY "[machine]\nnodes = 1\nnode_memory = 512M\nnode_cpus = 2\n" \
	"[swap]\ntype = zram\ndisksize = 256M\ncomp_algorithm = %s\n" \
	"[memcg.app]\nmemory.max = 32M\n" \
	"[workload.heap]\ntype = anon\nmemcg = app\nsize = 48M\nzipf_theta = 0.6\n" \
	"write_ratio = 0.3\nops = 150000\nprefault = yes\n"

static char *zram_only(const char *comp)
{
	char *t = malloc(1024);

	ck_assert_ptr_nonnull(t);
	snprintf(t, 1024, ZRAM_ONLY, comp);
	return t;
}

START_TEST(test_swappiness)
{
	static const char *const zero[] = { "vm.swappiness=0" };
	static const char *const high[] = { "vm.swappiness=200" };
	static const char *const memcg_zero[] = { "memcg.app.memory.swappiness=0" };
	const char *policy = _i ? "mglru-budget" : "classic";
	char *text = zram_only("lz4");
	struct run_result z, h, mz;

	run(text, zero, 1, policy, &z);
	run(text, high, 1, policy, &h);
	run(text, memcg_zero, 1, policy, &mz);
	free(text);
	ck_assert_double_eq(value(&z, "vmstat", "pswpout"), 0);
	ck_assert_double_eq(value(&mz, "vmstat", "pswpout"), 0);
	ck_assert_msg(value(&h, "vmstat", "pswpout") > value(&z, "vmstat", "pswpout"),
		      "%s: pswpout %g at swappiness 200, %g at 0", policy,
		      value(&h, "vmstat", "pswpout"), value(&z, "vmstat", "pswpout"));
	/* memory.swappiness (cgroup v1's file) applies to the memcg's own reclaim */
	ck_assert_msg(value(&h, "vmstat", "pswpout") > value(&mz, "vmstat", "pswpout"),
		      "%s: memory.swappiness = 0 swapped %g", policy,
		      value(&mz, "vmstat", "pswpout"));
	result_free(&z);
	result_free(&h);
	result_free(&mz);
}
END_TEST

/*
 * pgpgin/pgpgout count every bio, zram's too (submit_bio() counts sectors,
 * /proc/vmstat prints KB): an anon-only run with zram reads and writes
 * nothing else, so pgpgin = 4 * pswpin and pgpgout = 4 * pswpout exactly.
 */
START_TEST(test_zram_pgpgin_disksize_comp_algorithm)
{
	char *lz4 = zram_only("lz4"), *zstd = zram_only("zstd");
	struct run_result a, b;

	run(lz4, NULL, 0, "classic", &a);
	run(zstd, NULL, 0, "classic", &b);
	ck_assert(value(&a, "vmstat", "pswpin") > 0);
	ck_assert_double_eq(value(&a, "vmstat", "pgpgin"), 4 * value(&a, "vmstat", "pswpin"));
	ck_assert_double_eq(value(&a, "vmstat", "pgpgout"), 4 * value(&a, "vmstat", "pswpout"));
	/* disksize: 256M of 4K slots */
	ck_assert_double_eq(value(&a, "swap", "slots"), 65536);
	/* comp_algorithm: zstd packs the same pages smaller than lz4 */
	ck_assert(value(&a, "swap", "zram_stored_pages") > 0);
	ck_assert_msg(value(&b, "swap", "zram_compr_data_size") / value(&b, "swap", "zram_stored_pages") <
		      value(&a, "swap", "zram_compr_data_size") / value(&a, "swap", "zram_stored_pages"),
		      "zstd did not compress better than lz4");
	result_free(&a);
	result_free(&b);
	free(lz4);
	free(zstd);
}
END_TEST

/* vm.page-cluster: block swap reads 2^N slots around a fault; 0 reads none ahead */
#define BLOCK_SWAP "[machine]\nnodes = 1\nnode_memory = 512M\nnode_cpus = 2\n" DEVICE \
	"[swap]\ntype = block\ndevice = d0\nsize = 256M\n" \
	"[memcg.app]\nmemory.max = 32M\n" \
	"[workload.heap]\ntype = anon\nmemcg = app\nsize = 48M\nzipf_theta = 0.6\n" \
	"write_ratio = 0.3\nops = 100000\nprefault = yes\n"

START_TEST(test_page_cluster)
{
	static const char *const off[] = { "vm.page-cluster=0" };
	struct run_result def, none;

	run(BLOCK_SWAP, NULL, 0, "classic", &def);
	run(BLOCK_SWAP, off, 1, "classic", &none);
	ck_assert(value(&def, "swap", "swap_ra") > 0);
	ck_assert_double_eq(value(&none, "swap", "swap_ra"), 0);
	ck_assert(value(&none, "vmstat", "pswpin") > 0);
	/* block swap-ins went through the block layer: pgpgin counts them */
	ck_assert(value(&none, "vmstat", "pgpgin") >= 4 * value(&none, "vmstat", "pswpin"));
	result_free(&def);
	result_free(&none);
}
END_TEST

/* debugfs fault_around_bytes: 4096 maps one page per fault, 64K maps cached neighbours too */
START_TEST(test_fault_around_bytes)
{
	static const char *const off[] = { "debugfs.fault_around_bytes=4096" };
	struct run_result def, none;

	run(ONE_NODE DEVICE MMAP_READER, NULL, 0, "classic", &def);
	run(ONE_NODE DEVICE MMAP_READER, off, 1, "classic", &none);
	ck_assert_msg(value(&def, "vmstat", "pgfault") < value(&none, "vmstat", "pgfault"),
		      "pgfault %g with fault-around, %g without", value(&def, "vmstat", "pgfault"),
		      value(&none, "vmstat", "pgfault"));
	result_free(&def);
	result_free(&none);
}
END_TEST

/*
 * advice = random on an mmap reader (MADV_RANDOM): since 6.3 its references
 * are ignored, so reclaim takes what it scans, FIFO, under both LRUs
 * (pgscan == pgsteal; a 6.12 kernel shows the same), where the normal
 * mapping's young PTEs keep folios (pgscan > pgsteal). _i: classic,
 * mglru-old, mglru-budget.
 */
START_TEST(test_advice_random_reclaims_fifo)
{
	static const char *const policies[] = { "classic", "mglru-old", "mglru-budget" };
	static const char *const random[] = { "workload.w.advice=random",
					      "debugfs.fault_around_bytes=4096" };
	static const char *const normal[] = { "debugfs.fault_around_bytes=4096" };
	struct run_result rnd, nrm;

	run(ONE_NODE DEVICE MMAP_READER, random, 2, policies[_i], &rnd);
	run(ONE_NODE DEVICE MMAP_READER, normal, 1, policies[_i], &nrm);
	ck_assert(pgsteal(&rnd) > 0);
	ck_assert_msg(pgscan(&rnd) == pgsteal(&rnd), "%s random: pgscan %g, pgsteal %g",
		      policies[_i], pgscan(&rnd), pgsteal(&rnd));
	ck_assert_msg(pgscan(&nrm) > pgsteal(&nrm), "%s normal: pgscan %g, pgsteal %g",
		      policies[_i], pgscan(&nrm), pgsteal(&nrm));
	/* VM_RAND_READ: no read-around, one page read per major fault */
	ck_assert_double_eq(value(&rnd, "vmstat", "pgpgin"),
			    4 * value(&rnd, "vmstat", "pgmajfault"));
	result_free(&rnd);
	result_free(&nrm);
}
END_TEST

/* fio's default advice is random (fadvise_hint=1): advice = normal is fadvise_hint=0 */
#define FIO "[memcg.fio]\nmemory.max = 32M\n" \
	"[workload.fio]\ntype = fio\nmemcg = fio\nthreads = 2\nsize = 32M\ndevice = d0\n" \
	"ops = 40000\n"

START_TEST(test_fio_default_advice)
{
	static const char *const normal[] = { "workload.fio.advice=normal" };
	struct run_result def, nrm;

	run(ONE_NODE DEVICE FIO, NULL, 0, "mglru-budget", &def);
	run(ONE_NODE DEVICE FIO, normal, 1, "mglru-budget", &nrm);
	ck_assert(pgsteal(&def) > 0);
	ck_assert_msg(pgscan(&def) == pgsteal(&def), "fio: pgscan %g, pgsteal %g", pgscan(&def),
		      pgsteal(&def));
	ck_assert(pgscan(&nrm) > pgsteal(&nrm));
	result_free(&def);
	result_free(&nrm);
}
END_TEST

/* ---- memcg files ---- */

/*
 * memory.oom.group = 1: the OOM killer takes every task of the memcg
 * (memory.events oom_group_kill), not only the biggest. Two anon workloads
 * that together overflow memory.max, no swap.
 */
#define OOM_PAIR "[machine]\nnodes = 1\nnode_memory = 256M\nnode_cpus = 2\n" \
	"[memcg.app]\nmemory.max = 32M\nmemory.oom.group = %d\n" \
	"[workload.big]\ntype = anon\nmemcg = app\nsize = 40M\nops = 200000\n" \
	"[workload.small]\ntype = anon\nmemcg = app\nsize = 4M\nops = 200000\nprefault = yes\n"

START_TEST(test_oom_group)
{
	char with_group[1024], without[1024];
	struct run_result g, n;

	snprintf(with_group, sizeof(with_group), OOM_PAIR, 1);
	snprintf(without, sizeof(without), OOM_PAIR, 0);
	run(without, NULL, 0, "classic", &n);
	run(with_group, NULL, 0, "classic", &g);
	ck_assert_double_eq(value(&n, "workload.big", "oom_killed"), 1);
	ck_assert_double_eq(value(&n, "workload.small", "oom_killed"), 0);
	ck_assert_double_eq(value(&n, "memcg.app.memory.events", "oom_group_kill"), 0);
	ck_assert_double_eq(value(&g, "workload.big", "oom_killed"), 1);
	ck_assert_double_eq(value(&g, "workload.small", "oom_killed"), 1);
	ck_assert_double_eq(value(&g, "memcg.app.memory.events", "oom_group_kill"), 1);
	ck_assert_double_eq(value(&g, "memcg.app.memory.events", "oom_kill"), 2);
	result_free(&g);
	result_free(&n);
}
END_TEST

/* The v2 files reach the memcg: the limits in force are reported under their names. */
START_TEST(test_memcg_files_reach_the_model)
{
	static const char *const sets[] = { "memcg.app.memory.high=30M", "memcg.app.memory.low=8M",
					    "memcg.app.memory.min=4M",
					    "memcg.app.memory.swap.max=16M" };
	struct run_result r;

	run(ONE_NODE DEVICE MMAP_READER, sets, 4, "classic", &r);
	ck_assert_double_eq(value(&r, "memcg.app", "memory.max"), 32 << 20);
	ck_assert_double_eq(value(&r, "memcg.app", "memory.high"), 30 << 20);
	ck_assert_double_eq(value(&r, "memcg.app", "memory.low"), 8 << 20);
	ck_assert_double_eq(value(&r, "memcg.app", "memory.min"), 4 << 20);
	ck_assert_double_eq(value(&r, "memcg.app", "memory.swap.max"), 16 << 20);
	/* memory.high below memory.max: the charge path reclaimed at high */
	ck_assert(value(&r, "memcg.app.memory.events", "high") > 0);
	result_free(&r);
}
END_TEST

/* ---- lru_gen ---- */

/*
 * lru_gen/enabled = 0x0005 (no page-table walk) changes MGLRU's reclaim of
 * an mmap reader; min_ttl_ms longer than the run makes kswapd's aging find
 * every generation too young and call the OOM killer (lru_gen_age_node()).
 */
#define GLOBAL_READER "[machine]\nnodes = 1\nnode_memory = 64M\nnode_cpus = 2\n" DEVICE \
	"[workload.w]\ntype = file-zipf\ndevice = d0\nsize = 96M\naccess = mmap\n" \
	"zipf_theta = 0\nops = 100000\n"

START_TEST(test_lru_gen_enabled)
{
	static const char *const nowalk[] = { "mglru.enabled=0x0005" };
	struct run_result def, nw;

	run(ONE_NODE DEVICE MMAP_READER, NULL, 0, "mglru-budget", &def);
	run(ONE_NODE DEVICE MMAP_READER, nowalk, 1, "mglru-budget", &nw);
	ck_assert_msg(pgscan(&def) != pgscan(&nw) || pgsteal(&def) != pgsteal(&nw),
		      "enabled = 0x0005 changed nothing (pgscan %g, pgsteal %g)", pgscan(&nw),
		      pgsteal(&nw));
	result_free(&def);
	result_free(&nw);
}
END_TEST

START_TEST(test_min_ttl_ms)
{
	static const char *const ttl[] = { "mglru.min_ttl_ms=3600000" };
	struct run_result def, t;

	run(GLOBAL_READER, NULL, 0, "mglru-budget", &def);
	run(GLOBAL_READER, ttl, 1, "mglru-budget", &t);
	ck_assert_double_eq(value(&def, "vmstat", "oom_kill"), 0);
	ck_assert(value(&def, "vmstat", "pgscan_kswapd") > 0);
	ck_assert_msg(value(&t, "vmstat", "oom_kill") > 0, "min_ttl_ms of an hour: no OOM kill");
	result_free(&def);
	result_free(&t);
}
END_TEST

static Suite *knobs_suite(void)
{
	Suite *s = suite_create("knobs");
	TCase *tc = tcase_create("sysctl");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_min_free_kbytes_and_watermark_scale_factor);
	tcase_add_loop_test(tc, test_swappiness, 0, 2);
	tcase_add_test(tc, test_zram_pgpgin_disksize_comp_algorithm);
	tcase_add_test(tc, test_page_cluster);
	tcase_add_test(tc, test_fault_around_bytes);
	suite_add_tcase(s, tc);

	tc = tcase_create("advice");
	tcase_set_timeout(tc, 300);
	tcase_add_loop_test(tc, test_advice_random_reclaims_fifo, 0, 3);
	tcase_add_test(tc, test_fio_default_advice);
	suite_add_tcase(s, tc);

	tc = tcase_create("memcg");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_oom_group);
	tcase_add_test(tc, test_memcg_files_reach_the_model);
	suite_add_tcase(s, tc);

	tc = tcase_create("lru_gen");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_lru_gen_enabled);
	tcase_add_test(tc, test_min_ttl_ms);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(knobs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
