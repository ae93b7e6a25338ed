/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kbuild workload (scenarios/wl_kbuild.c) and task_exit(): a small
 * build completes, its sys time comes from the kernel-side charges and grows
 * when the memcg gets tighter, a build on tmpfs over zram swaps anon out,
 * exited compilers leave nothing behind, and bad keys are refused.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "scenarios/scenario.h"

/* A tiny build: 48 units, -j8, 2 MB heaps, 0.1 s of CPU each. */
static const char *const build_ini =
	"[machine]\n"
	"nodes = 2\n"
	"node_memory = 512M\n"
	"node_cpus = 4\n"
	"[device.build]\n"
	"type = nvme\n"
	"[swap]\n"
	"type = %s\n"
	"size = 256M\n"
	"[memcg.build]\n"
	"max = %s\n"
	"[workload.make]\n"
	"type = kbuild\n"
	"memcg = build\n"
	"threads = 8\n"
	"device = build\n"
	"src = %s\n"
	"jobs = 48\n"
	"size = 8M\n"
	"compiler = 1M\n"
	"heap = 2M\n"
	"heap_sigma = 0.5\n"
	"compile_time = 100ms\n"
	"compile_sigma = 0.5\n"
	"headers = 1M\n"
	"nr_headers = 64\n"
	"includes = 16\n"
	"zipf_theta = 0.9\n"
	"sources = 2M\n"
	"objects = 1M\n";

static void run_build(const char *swap, const char *max, const char *src, const char *policy,
		      struct run_result *r)
{
	char text[2048], err[512];
	char *path, *out = NULL;
	int rc;

	snprintf(text, sizeof(text), build_ini, swap, max, src);
	path = harness_write_temp(text);
	rc = harness_run_scenario(path, NULL, 0, 1.0, 1, policy, true, &out, err, sizeof(err));
	ck_assert_msg(rc == 0, "run failed: %s", err);
	ck_assert_int_eq(harness_parse_result(out, r), 0);
	free(out);
	unlink(path);
	free(path);
}

START_TEST(test_build_completes_and_tight_memcg_costs_sys)
{
	static const char *const policies[] = { "classic", "mglru-old", "mglru-budget" };
	const char *policy = policies[_i];
	struct run_result loose, tight;

	run_build("zram", "4G", "file", policy, &loose);
	run_build("zram", "10M", "file", policy, &tight);
	ck_assert_double_eq(harness_value(&loose, "workload.make", "jobs_completed"), 48);
	ck_assert_double_eq(harness_value(&tight, "workload.make", "jobs_completed"), 48);
	ck_assert(harness_value(&loose, "workload.make", "user_s") > 0);
	ck_assert(harness_value(&loose, "workload.make", "sys_s") > 0);
	/* reclaim in the compilers' faults is their sys time */
	ck_assert_msg(harness_value(&tight, "workload.make", "sys_s") >
		      harness_value(&loose, "workload.make", "sys_s"),
		      "%s: sys %.4f s under 10M, %.4f s under 4G", policy,
		      harness_value(&tight, "workload.make", "sys_s"),
		      harness_value(&loose, "workload.make", "sys_s"));
	ck_assert(harness_value(&tight, "vmstat", "pgscan_file") > 0);
	ck_assert(harness_value(&loose, "vmstat", "pgscan_file") +
		  harness_value(&loose, "vmstat", "pgscan_anon") == 0);
	/* the same units were built: the same compile CPU (access costs
	 * differ by where pages landed) */
	ck_assert(fabs(harness_value(&tight, "workload.make", "user_s") /
		       harness_value(&loose, "workload.make", "user_s") - 1) < 0.01);
	result_free(&loose);
	result_free(&tight);
}
END_TEST

START_TEST(test_tmpfs_build_on_zram_swaps_anon)
{
	struct run_result r;

	run_build("zram", "16M", "tmpfs", "mglru-budget", &r);
	ck_assert_double_eq(harness_value(&r, "workload.make", "jobs_completed"), 48);
	/* the tree is swap-backed: it and the heaps go to zram, never dropped */
	ck_assert(harness_value(&r, "vmstat", "pswpout") > 0);
	ck_assert(harness_value(&r, "vmstat", "pgsteal_anon") > 0);
	ck_assert(harness_value(&r, "swap", "zram_stored_pages") > 0);
	/* nothing of the tree is page cache: only cc1's text is */
	ck_assert(harness_value(&r, "memcg.build.memory.stat", "file") <= 1024 * 1024);
	result_free(&r);
}
END_TEST

/* ---- task_exit() ---- */

static struct {
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct address_space *text;
	int nr_tasks_before;
} fx;

static void exit_fn(struct actor *a, void *arg)
{
	struct task *t = task_create("cc1", fx.memcg, 0), *other;
	struct address_space *heap;
	uint64_t freed;

	(void)arg;
	ck_assert_ptr_nonnull(t);
	heap = anon_region_create(t, "heap", 256);
	ck_assert_ptr_nonnull(heap);
	for (uint64_t p = 0; p < 256; p++)
		ck_assert(anon_access(a, t, heap, p, true) >= 0);
	for (uint64_t p = 0; p < 16; p++)
		ck_assert(filemap_map_access(a, t, fx.text, p, false) >= 0);
	/* cc1's pages came in with read-around */
	ck_assert_uint_eq(fx.memcg->usage, 256 + fx.text->nr_resident);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), 16);

	/* another process maps the text: the PTEs stay */
	other = task_create("cc1", fx.memcg, 0);
	task_mmap_file(other, fx.text);
	ck_assert(filemap_map_access(a, other, fx.text, 0, false) >= 0);
	freed = task_exit(a, t);
	ck_assert_uint_eq(freed, 256);
	ck_assert_uint_eq(fx.memcg->usage, fx.text->nr_resident);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), 16);
	ck_assert_int_eq(mm.nr_tasks, fx.nr_tasks_before + 1);

	/* the last one out unmaps them; the page cache stays */
	task_exit(a, other);
	ck_assert_uint_eq(memcg_page_state(fx.memcg, NR_FILE_MAPPED), 0);
	ck_assert_uint_eq(fx.memcg->usage, fx.text->nr_resident);
	ck_assert_int_eq(mm.nr_tasks, fx.nr_tasks_before);
	/* pids are not reused */
	t = task_create("cc1", fx.memcg, 0);
	ck_assert_int_gt(t->id, 2);
	ck_assert(a->stime_ns > 0);
}

static void run_exit_test(const struct reclaim_policy *p)
{
	char err[512];

	harness_boot(1, 65536, p);
	memset(&fx, 0, sizeof(fx));
	harness_nvme(&fx.nvme);
	fx.memcg = mem_cgroup_create(mm.root_mem_cgroup, "build");
	ck_assert_ptr_nonnull(fx.memcg);
	fx.text = file_create("cc1", 64, &fx.nvme, 0, true);
	ck_assert_ptr_nonnull(fx.text);
	fx.nr_tasks_before = mm.nr_tasks;
	harness_run_actor(exit_fn, NULL);
	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}

START_TEST(test_task_exit_frees_heap_and_unmaps_last)
{
	static const struct reclaim_policy *const policies[] = {
		&classic_policy, &mglru_old_policy, &mglru_budget_policy,
	};

	run_exit_test(policies[_i]);
}
END_TEST

/*
 * A page-table walker holds the task (mmget): its exit releases the pid at
 * once, but the memory stays until the walker's task_put().
 */
static void exit_held_fn(struct actor *a, void *arg)
{
	struct task *t = task_create("cc1", fx.memcg, 0);
	struct address_space *heap;

	(void)arg;
	ck_assert_ptr_nonnull(t);
	heap = anon_region_create(t, "heap", 64);
	ck_assert_ptr_nonnull(heap);
	for (uint64_t p = 0; p < 64; p++)
		ck_assert(anon_access(a, t, heap, p, true) >= 0);
	task_get(t);
	ck_assert_uint_eq(task_exit(a, t), 0);
	ck_assert_int_eq(mm.nr_tasks, fx.nr_tasks_before);
	ck_assert(t->exited);
	/* still mapped and charged while held */
	ck_assert_ptr_nonnull(heap->ptes);
	ck_assert_uint_eq(fx.memcg->usage, 64);
	task_put(a, t);
	ck_assert_uint_eq(fx.memcg->usage, 0);
	ck_assert_ptr_null(heap->ptes);
}

START_TEST(test_task_exit_waits_for_walker)
{
	char err[512];

	harness_boot(1, 65536, &mglru_budget_policy);
	memset(&fx, 0, sizeof(fx));
	fx.memcg = mem_cgroup_create(mm.root_mem_cgroup, "build");
	ck_assert_ptr_nonnull(fx.memcg);
	fx.nr_tasks_before = mm.nr_tasks;
	harness_run_actor(exit_held_fn, NULL);
	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}
END_TEST

/* ---- scenario keys ---- */

static void expect_load_error(const char *sets, const char *needle)
{
	char text[2048], err[512];
	const char *const set[] = { sets };
	struct scenario s;
	char *path;
	int rc;

	snprintf(text, sizeof(text), build_ini, "zram", "64M", "file");
	path = harness_write_temp(text);
	rc = scenario_load(&s, path, set, 1, 1.0, err, sizeof(err));
	ck_assert_int_eq(rc, -1);
	ck_assert_msg(strstr(err, needle) != NULL, "message '%s' lacks '%s'", err, needle);
	scenario_free(&s);
	unlink(path);
	free(path);
}

START_TEST(test_bad_kbuild_keys_are_refused)
{
	expect_load_error("workload.make.src=nfs", "src");
	expect_load_error("workload.make.headers=64G", "size");
	expect_load_error("workload.make.jobs=0", "jobs");
	expect_load_error("workload.make.heap_sigma=9", "heap_sigma");
}
END_TEST

static Suite *kbuild_suite(void)
{
	Suite *s = suite_create("kbuild");
	TCase *tc = tcase_create("kbuild");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_build_completes_and_tight_memcg_costs_sys, 0, 3);
	tcase_add_test(tc, test_tmpfs_build_on_zram_swaps_anon);
	tcase_add_loop_test(tc, test_task_exit_frees_heap_and_unmaps_last, 0, 3);
	tcase_add_test(tc, test_task_exit_waits_for_walker);
	tcase_add_test(tc, test_bad_kbuild_keys_are_refused);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kbuild_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
