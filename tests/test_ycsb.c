/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ycsb: the WiredTiger-like store reads and writes whole leaf pages, and
 * its checkpoints write the dirty ones. Runs scenarios/ycsb-b.ini small.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/harness.h"

static void run(const char *const *sets, int nr_sets, struct run_result *r)
{
	char err[512];
	char *out = NULL;
	int rc;

	rc = harness_run_scenario(harness_src_path("scenarios/ycsb-b.ini"), sets, nr_sets,
				  1.0 / 256, 1, "mglru-budget", true, &out, err, sizeof(err));
	ck_assert_msg(rc == 0, "ycsb-b: %s", err);
	ck_assert_int_eq(harness_parse_result(out, r), 0);
	free(out);
}

static double value(const struct run_result *r, const char *group, const char *key)
{
	double v = harness_value(r, group, key);

	ck_assert_msg(!isnan(v), "no %s in [%s]", key, group);
	return v;
}

/* A store-cache miss reads the whole 24 KB leaf (6 pages), not one page. */
START_TEST(test_miss_reads_whole_leaf)
{
	/* no load phase: its streaming read of the file would count in pgpgin */
	static const char *const leaves[] = { "workload.ycsb.prefault=no" };
	static const char *const one_page[] = { "workload.ycsb.prefault=no",
						"workload.ycsb.page_size=4K" };
	struct run_result leaf, page;
	double kb_leaf, kb_page;

	run(leaves, 1, &leaf);
	run(one_page, 2, &page);
	kb_leaf = value(&leaf, "vmstat", "pgpgin") / value(&leaf, "workload.ycsb", "cache_misses");
	kb_page = value(&page, "vmstat", "pgpgin") / value(&page, "workload.ycsb", "cache_misses");
	/* misses that hit the page cache read nothing: at least half the leaf */
	ck_assert_msg(kb_leaf > 12 && kb_leaf > 2 * kb_page,
		      "KB read per miss: 24K leaves %.1f, 4K leaves %.1f", kb_leaf, kb_page);
	result_free(&leaf);
	result_free(&page);
}
END_TEST

/* Updated leaves are reconciled: written back when evicted, whole. */
START_TEST(test_dirty_leaves_written)
{
	static const char *const reads_only[] = { "workload.ycsb.write_ratio=0" };
	struct run_result mixed, ro;

	run(NULL, 0, &mixed);
	run(reads_only, 1, &ro);
	ck_assert(value(&mixed, "workload.ycsb", "leaves_reconciled") > 0);
	ck_assert(value(&mixed, "vmstat", "nr_dirtied") > 0);
	ck_assert(value(&ro, "workload.ycsb", "leaves_reconciled") == 0);
	ck_assert(isnan(harness_value(&ro, "vmstat", "nr_dirtied")) ||
		  value(&ro, "vmstat", "nr_dirtied") == 0);
	result_free(&mixed);
	result_free(&ro);
}
END_TEST

/* A checkpoint writes every dirty leaf, even those still cached. */
START_TEST(test_checkpoint_writes_dirty_leaves)
{
	static const char *const often[] = { "workload.ycsb.checkpoint=1s" };
	static const char *const never[] = { "workload.ycsb.checkpoint=0" };
	struct run_result ck, none;

	run(often, 1, &ck);
	run(never, 1, &none);
	ck_assert(value(&ck, "workload.ycsb", "checkpoints") > 0);
	ck_assert(value(&none, "workload.ycsb", "checkpoints") == 0);
	ck_assert_msg(value(&ck, "workload.ycsb", "leaves_reconciled") >
			      value(&none, "workload.ycsb", "leaves_reconciled"),
		      "reconciled: with checkpoints %.0f, without %.0f",
		      value(&ck, "workload.ycsb", "leaves_reconciled"),
		      value(&none, "workload.ycsb", "leaves_reconciled"));
	result_free(&ck);
	result_free(&none);
}
END_TEST

/* ycsb_workload: the core workloads' operation mix (YCSB workloads/workloada..f) */
static const struct {
	const char *set;
	double read, update, insert, scan, rmw;
} mixes[] = {
	{ "workload.ycsb.ycsb_workload=a", 0.50, 0.50, 0, 0, 0 },
	{ "workload.ycsb.ycsb_workload=b", 0.95, 0.05, 0, 0, 0 },
	{ "workload.ycsb.ycsb_workload=c", 1.00, 0, 0, 0, 0 },
	{ "workload.ycsb.ycsb_workload=d", 0.95, 0, 0.05, 0, 0 },
	{ "workload.ycsb.ycsb_workload=e", 0, 0, 0.05, 0.95, 0 },
	{ "workload.ycsb.ycsb_workload=f", 0.50, 0, 0, 0, 0.50 },
};

static void assert_share(const struct run_result *r, const char *key, double want, double ops)
{
	double got = value(r, "workload.ycsb", key) / ops;

	ck_assert_msg(fabs(got - want) < 0.02, "%s: %.3f of operations, want %.2f", key, got, want);
}

/*
 * The checkpoint clock starts with the run phase, not at boot: at 1/256
 * the load phase (prefault) takes ~0.08 s and the run ~0.12 s, so a 0.15 s
 * interval (38.4 s at full scale) fits no checkpoint in the run, while a
 * clock from boot would fit one.
 */
START_TEST(test_checkpoint_clock_from_run_phase)
{
	static const char *const long_iv[] = { "workload.ycsb.checkpoint=38.4s" };
	static const char *const short_iv[] = { "workload.ycsb.checkpoint=12.8s" };
	struct run_result l, sh;
	double load;

	run(long_iv, 1, &l);
	run(short_iv, 1, &sh);
	load = l.sim_seconds - value(&l, "workload.ycsb", "runtime_s");
	ck_assert_msg(load > 0.03 && value(&l, "workload.ycsb", "runtime_s") < 0.15 &&
		      l.sim_seconds > 0.15,
		      "the test's premise: load %.3f s, run %.3f s", load,
		      value(&l, "workload.ycsb", "runtime_s"));
	ck_assert_double_eq(value(&l, "workload.ycsb", "checkpoints"), 0);
	ck_assert_double_ge(value(&sh, "workload.ycsb", "checkpoints"), 1);
	result_free(&l);
	result_free(&sh);
}
END_TEST

/*
 * Copy-on-write: a reconciled leaf goes to a new extent, so the file's
 * high-water mark rises past the loaded leaves; and every operation looks
 * its key up in the _id index.
 */
START_TEST(test_cow_and_index)
{
	static const char *const no_index[] = { "workload.ycsb.index_size=0" };
	struct run_result r, ni;
	double loaded_leaves;

	run(NULL, 0, &r);
	run(no_index, 1, &ni);
	/* 24300M/256 of 1215-byte records, 20 to a 24K leaf */
	loaded_leaves = ceil(24300.0 * 1024 * 1024 / 256 / 1215 / 20);
	ck_assert_double_gt(value(&r, "workload.ycsb", "leaves_reconciled"), 0);
	ck_assert_double_gt(value(&r, "workload.ycsb", "extents_high"), loaded_leaves);
	ck_assert_double_eq(value(&r, "workload.ycsb", "extents_in_place"), 0);
	ck_assert_double_eq(value(&r, "workload.ycsb", "index_cache_hits") +
			    value(&r, "workload.ycsb", "index_cache_misses"),
			    value(&r, "workload.ycsb", "ops"));
	ck_assert(isnan(harness_value(&ni, "workload.ycsb", "index_cache_hits")));
	result_free(&r);
	result_free(&ni);
}
END_TEST

START_TEST(test_mix)
{
	const char *const sets[] = { mixes[_i].set };
	struct run_result r;
	double ops;

	run(sets, 1, &r);
	ops = value(&r, "workload.ycsb", "ops");
	ck_assert(ops > 1000);
	assert_share(&r, "reads", mixes[_i].read, ops);
	assert_share(&r, "updates", mixes[_i].update, ops);
	assert_share(&r, "inserts", mixes[_i].insert, ops);
	assert_share(&r, "scans", mixes[_i].scan, ops);
	assert_share(&r, "rmw", mixes[_i].rmw, ops);
	/* the file had room for every insert */
	ck_assert(value(&r, "workload.ycsb", "inserts_refused") == 0);
	ck_assert(value(&r, "workload.ycsb", "records") >=
		  value(&r, "workload.ycsb", "inserts"));
	result_free(&r);
}
END_TEST

/* D's latest distribution: a record inserted during the run is read far
 * more often than a loaded one; the zipfian of B barely reads them. */
START_TEST(test_latest_reads_recent)
{
	static const char *const d[] = { "workload.ycsb.ycsb_workload=d" };
	struct run_result r;
	double reads, recent, inserts, loaded;

	run(d, 1, &r);
	reads = value(&r, "workload.ycsb", "reads");
	recent = value(&r, "workload.ycsb", "reads_inserted");
	inserts = value(&r, "workload.ycsb", "inserts");
	loaded = value(&r, "workload.ycsb", "records") - inserts;
	ck_assert(inserts > 0 && recent > 0);
	ck_assert_msg(recent / inserts > 10 * (reads - recent) / loaded,
		      "reads per record: inserted %.3f, loaded %.4f", recent / inserts,
		      (reads - recent) / loaded);
	result_free(&r);
}
END_TEST

/* E: scans start at a zipfian key and read 1..100 records (uniform). */
START_TEST(test_scan_length)
{
	static const char *const e[] = { "workload.ycsb.ycsb_workload=e" };
	struct run_result r;
	double per_scan;

	run(e, 1, &r);
	per_scan = value(&r, "workload.ycsb", "records_scanned") / value(&r, "workload.ycsb", "scans");
	ck_assert_msg(per_scan > 45 && per_scan < 56, "records per scan %.1f", per_scan);
	result_free(&r);
}
END_TEST

/* Without ycsb_workload the store runs reads plus write_ratio updates, and
 * reports no mix counters (the output is that of before the key existed). */
START_TEST(test_default_mix)
{
	struct run_result r;

	run(NULL, 0, &r);
	ck_assert(value(&r, "workload.ycsb", "ops") > 0);
	ck_assert(value(&r, "workload.ycsb", "leaves_reconciled") > 0);
	ck_assert(isnan(harness_value(&r, "workload.ycsb", "reads")));
	ck_assert(isnan(harness_value(&r, "workload.ycsb", "inserts")));
	result_free(&r);
}
END_TEST

/* An unknown letter, or the key on another workload type, is refused. */
START_TEST(test_bad_letter)
{
	static const char *const bad[] = { "workload.ycsb.ycsb_workload=g" };
	char err[512] = "";
	char *out = NULL;
	int rc;

	rc = harness_run_scenario(harness_src_path("scenarios/ycsb-b.ini"), bad, 1, 1.0 / 256, 1,
				  "mglru-budget", false, &out, err, sizeof(err));
	free(out);
	ck_assert_int_eq(rc, 2);
	ck_assert_msg(strstr(err, "ycsb_workload") && strstr(err, "ycsb-b.ini"), "%s", err);
}
END_TEST

static Suite *ycsb_suite(void)
{
	Suite *s = suite_create("ycsb");
	TCase *tc = tcase_create("ycsb");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_miss_reads_whole_leaf);
	tcase_add_test(tc, test_dirty_leaves_written);
	tcase_add_test(tc, test_checkpoint_writes_dirty_leaves);
	tcase_add_test(tc, test_checkpoint_clock_from_run_phase);
	tcase_add_test(tc, test_cow_and_index);
	tcase_add_loop_test(tc, test_mix, 0, (int)(sizeof(mixes) / sizeof(mixes[0])));
	tcase_add_test(tc, test_latest_reads_recent);
	tcase_add_test(tc, test_scan_length);
	tcase_add_test(tc, test_default_mix);
	tcase_add_test(tc, test_bad_letter);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ycsb_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
