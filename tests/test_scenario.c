/* SPDX-License-Identifier: GPL-2.0-only */
/* scenarios/: value parsing, loading, --set, --scale, and messages for bad input. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "scenarios/scenario.h"
#include "scenarios/wl_access.h"
#include "scenarios/wl_psi_agent.h"
#include "scenarios/workload.h"

#define KiB 1024ULL
#define MiB (1024ULL * KiB)
#define GiB (1024ULL * MiB)

/* ---- parse_size / parse_time_ns ---- */

START_TEST(test_parse_size_accepts)
{
	static const struct {
		const char *s;
		uint64_t v;
	} ok[] = {
		{ "10G", 10 * GiB },
		{ "4.5G", 4 * GiB + 512 * MiB },
		{ "64M", 64 * MiB },
		{ "4096", 4096 },
		{ "1KiB", KiB },
		{ "1k", KiB },
		{ "2MB", 2 * MiB },
		{ "1T", 1024 * GiB },
		{ " 8G ", 8 * GiB },
		{ "0", 0 },
	};

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t v = 12345;

		ck_assert_msg(parse_size(ok[i].s, &v) == 0, "'%s' rejected", ok[i].s);
		ck_assert_msg(v == ok[i].v, "'%s' = %llu, expected %llu", ok[i].s,
			      (unsigned long long)v, (unsigned long long)ok[i].v);
	}
}
END_TEST

START_TEST(test_parse_size_rejects)
{
	static const char *const bad[] = {
		"banana", "-1", "10Q", "", " ", "G", "1.5.5G", "10 G B", "nan", "inf",
		"1e30", "-0", "5GiBs",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t v = 777;

		ck_assert_msg(parse_size(bad[i], &v) != 0, "'%s' accepted as %llu", bad[i],
			      (unsigned long long)v);
		/* a call that fails has no side effect */
		ck_assert_uint_eq(v, 777);
	}
}
END_TEST

START_TEST(test_parse_time)
{
	static const struct {
		const char *s;
		uint64_t ns;
	} ok[] = {
		{ "100us", 100000 },
		{ "1.5ms", 1500000 },
		{ "2s", 2000000000ULL },
		{ "30", 30000000000ULL },
		{ "5ns", 5 },
		{ "1m", 60000000000ULL },
		{ "0", 0 },
	};
	static const char *const bad[] = { "fast", "-1ms", "", "10 parsecs", "1h", "ms", "1.2.3s" };

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		uint64_t ns = 1;

		ck_assert_msg(parse_time_ns(ok[i].s, &ns) == 0, "'%s' rejected", ok[i].s);
		ck_assert_msg(ns == ok[i].ns, "'%s' = %llu ns, expected %llu", ok[i].s,
			      (unsigned long long)ns, (unsigned long long)ok[i].ns);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint64_t ns = 777;

		ck_assert_msg(parse_time_ns(bad[i], &ns) != 0, "'%s' accepted", bad[i]);
		ck_assert_uint_eq(ns, 777);
	}
}
END_TEST

/* ---- loading ---- */

static const struct scn_memcg *find_memcg(const struct scenario *s, const char *name)
{
	for (int i = 0; i < s->nr_memcgs; i++)
		if (!strcmp(s->memcg[i].name, name))
			return &s->memcg[i];
	return NULL;
}

static const struct scn_workload *find_workload(const struct scenario *s, const char *name)
{
	for (int i = 0; i < s->nr_workloads; i++)
		if (!strcmp(s->workload[i].name, name))
			return &s->workload[i];
	return NULL;
}

/* The keys of a file-zipf or anon section (wl_access.h). */
static const struct access_params *access_of(const struct scn_workload *w)
{
	return w->params;
}

static void load_quickstart(struct scenario *s, const char *const *sets, int nr, double scale)
{
	char err[512] = "";
	int rc = scenario_load(s, harness_src_path("scenarios/quickstart.ini"), sets, nr, scale,
			       err, sizeof(err));

	ck_assert_msg(rc == 0, "quickstart: %s", err);
}

START_TEST(test_quickstart_loads)
{
	struct scenario s;
	const struct scn_workload *reader, *heap;
	const struct scn_memcg *app;

	load_quickstart(&s, NULL, 0, 1.0);
	ck_assert_str_eq(s.name, "quickstart");
	ck_assert_int_eq(s.machine.nodes, 2);
	ck_assert_uint_eq(s.machine.node_memory, 16 * GiB);
	ck_assert_int_eq(s.machine.node_cpus, 8);
	ck_assert_int_eq(s.nr_devices, 1);
	ck_assert_str_eq(s.device[0].name, "nvme0");
	app = find_memcg(&s, "app");
	ck_assert_ptr_nonnull(app);
	ck_assert_uint_eq(app->max, 6 * GiB);
	ck_assert_uint_eq(app->high, UINT64_MAX);
	ck_assert_int_eq(s.nr_workloads, 3);
	reader = find_workload(&s, "reader");
	heap = find_workload(&s, "heap");
	ck_assert_ptr_nonnull(reader);
	ck_assert_ptr_nonnull(heap);
	ck_assert_str_eq(reader->type->name, "file-zipf");
	ck_assert_int_eq(access_of(reader)->access, ACC_READ);
	ck_assert_int_eq(reader->threads, 4);
	ck_assert_uint_eq(reader->size, 8 * GiB);
	ck_assert_uint_eq(reader->ops, 4000000);
	ck_assert_uint_eq(reader->think_ns, 2000);
	ck_assert_str_eq(reader->memcg, "app");
	ck_assert_str_eq(heap->type->name, "anon");
	ck_assert(access_of(heap)->prefault);
	ck_assert_double_eq_tol(access_of(heap)->write_ratio, 0.3, 1e-12);
	ck_assert_int_eq(access_of(find_workload(&s, "mapper"))->access, ACC_MMAP);
	scenario_free(&s);
}
END_TEST

START_TEST(test_set_overrides)
{
	static const char *const sets[] = {
		"memcg.app.max=2G", "memcg.app.low=1G", "machine.node_cpus=3",
		"workload.reader.threads=7",
	};
	struct scenario s;

	load_quickstart(&s, sets, 4, 1.0);
	ck_assert_uint_eq(find_memcg(&s, "app")->max, 2 * GiB);
	ck_assert_uint_eq(find_memcg(&s, "app")->low, 1 * GiB);
	ck_assert_int_eq(s.machine.node_cpus, 3);
	ck_assert_int_eq(find_workload(&s, "reader")->threads, 7);
	/* untouched keys keep the file's values */
	ck_assert_uint_eq(find_workload(&s, "reader")->size, 8 * GiB);
	scenario_free(&s);
}
END_TEST

START_TEST(test_scale_sizes_and_ops_only)
{
	struct scenario s;
	const struct scn_workload *reader;

	load_quickstart(&s, NULL, 0, 1.0 / 8);
	ck_assert_uint_eq(s.machine.node_memory, 2 * GiB);
	ck_assert_uint_eq(find_memcg(&s, "app")->max, 6 * GiB / 8);
	reader = find_workload(&s, "reader");
	ck_assert_uint_eq(reader->size, 1 * GiB);
	ck_assert_uint_eq(reader->ops, 500000);
	/* not scaled: counts of things that run, and times */
	ck_assert_int_eq(reader->threads, 4);
	ck_assert_uint_eq(reader->think_ns, 2000);
	ck_assert_int_eq(s.machine.node_cpus, 8);
	ck_assert_int_eq(s.machine.nodes, 2);
	ck_assert_double_eq_tol(access_of(reader)->zipf_theta, 0.99, 1e-12);
	scenario_free(&s);
}
END_TEST

START_TEST(test_scale_applies_to_set_values)
{
	static const char *const sets[] = { "memcg.app.max=2G" };
	struct scenario s;

	load_quickstart(&s, sets, 1, 1.0 / 8);
	/* sizes are written at full scale, on the command line too */
	ck_assert_uint_eq(find_memcg(&s, "app")->max, 2 * GiB / 8);
	scenario_free(&s);
}
END_TEST

START_TEST(test_scale_default_from_file)
{
	struct scenario s;

	/* quickstart says scale = 1/8 */
	load_quickstart(&s, NULL, 0, 0);
	ck_assert_double_eq_tol(s.machine.scale, 1.0 / 8, 1e-12);
	ck_assert_uint_eq(s.machine.node_memory, 2 * GiB);
	scenario_free(&s);
}
END_TEST

/* The scale a run used is the one recorded (results print s.machine.scale). */
START_TEST(test_scale_recorded)
{
	struct scenario s;

	load_quickstart(&s, NULL, 0, 1.0 / 32);
	ck_assert_uint_eq(s.machine.node_memory, 512 * MiB);
	ck_assert_msg(s.machine.scale > 1.0 / 32 - 1e-12 && s.machine.scale < 1.0 / 32 + 1e-12,
		      "sizes were scaled by 1/32 but s.machine.scale says %g", s.machine.scale);
	scenario_free(&s);
}
END_TEST

/* ---- bad input ---- */

static const char *const base_lines[] = {
	"[machine]",		/* 1 */
	"nodes = 1",		/* 2 */
	"node_memory = 64M",	/* 3 */
	"[device.d0]",		/* 4 */
	"type = nvme",		/* 5 */
	"[memcg.app]",		/* 6 */
	"max = 32M",		/* 7 */
	"[workload.w]",		/* 8 */
	"type = file-zipf",	/* 9 */
	"memcg = app",		/* 10 */
	"device = d0",		/* 11 */
	"size = 16M",		/* 12 */
	"ops = 1000",		/* 13 */
};
#define NR_BASE_LINES ((int)(sizeof(base_lines) / sizeof(base_lines[0])))

/*
 * The base file with line `at` (1-based) replaced by `replace` (NULL: kept)
 * and `insert` (NULL: nothing) put before line `at` (NR_BASE_LINES + 1: at the end).
 */
static char *variant(int at, const char *replace, const char *insert)
{
	size_t cap = 4096, len = 0;
	char *t = malloc(cap);

	ck_assert_ptr_nonnull(t);
	t[0] = '\0';
	for (int i = 1; i <= NR_BASE_LINES + 1; i++) {
		if (i == at && insert)
			len += (size_t)snprintf(t + len, cap - len, "%s\n", insert);
		if (i > NR_BASE_LINES)
			break;
		len += (size_t)snprintf(t + len, cap - len, "%s\n",
					i == at && replace ? replace : base_lines[i - 1]);
	}
	ck_assert_uint_lt(len, cap);
	return t;
}

static int load_text(const char *text, const char *const *sets, int nr, char **path,
		     char *err, size_t errlen)
{
	struct scenario s;
	int rc;

	*path = harness_write_temp(text);
	err[0] = '\0';
	rc = scenario_load(&s, *path, sets, nr, 1.0, err, errlen);
	scenario_free(&s);
	return rc;
}

/* Loads the text, expects failure with a message naming the file, `line` (if > 0) and `key`. */
static void expect_error(const char *text, int line, const char *key, const char *also)
{
	char err[1024], *path, want[32];

	int rc = load_text(text, NULL, 0, &path, err, sizeof(err));

	unlink(path);
	ck_assert_msg(rc != 0, "bad input accepted:\n%s", text);
	ck_assert_msg(strstr(err, path), "message does not name the file: %s", err);
	if (line > 0) {
		snprintf(want, sizeof(want), "line %d", line);
		ck_assert_msg(strstr(err, want), "message does not say '%s': %s", want, err);
	}
	ck_assert_msg(strstr(err, key), "message does not name '%s': %s", key, err);
	if (also)
		ck_assert_msg(strstr(err, also), "message does not mention '%s': %s", also, err);
	free(path);
}

START_TEST(test_base_file_loads)
{
	char *text = variant(0, NULL, NULL), *path, err[1024];
	struct scenario s;

	path = harness_write_temp(text);
	ck_assert_msg(scenario_load(&s, path, NULL, 0, 1.0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(s.machine.nodes, 1);
	ck_assert_uint_eq(s.machine.node_memory, 64 * MiB);
	ck_assert_uint_eq(s.memcg[0].max, 32 * MiB);
	ck_assert_uint_eq(s.workload[0].size, 16 * MiB);
	ck_assert_int_eq(s.workload[0].threads, 1);	/* default */
	scenario_free(&s);
	/* scale 1/2 still fits the 16M node minimum */
	ck_assert_msg(scenario_load(&s, path, NULL, 0, 0.5, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(s.machine.node_memory, 32 * MiB);
	ck_assert_uint_eq(s.workload[0].ops, 500);
	scenario_free(&s);
	unlink(path);
	free(path);
	free(text);
}
END_TEST

/* [sysctl]: vm.* knobs under their kernel names, kernel defaults, --set vm.X=V. */
START_TEST(test_sysctl)
{
	char *t = variant(NR_BASE_LINES + 1, NULL, "[sysctl]\nvm.dirty_ratio = 5\n"
			  "vm.dirty_background_bytes = 32M");
	const char *sets[] = { "vm.dirty_expire_centisecs=100",
			       "sysctl.vm.dirty_writeback_centisecs=0" };
	char *path = harness_write_temp(t), err[1024];
	struct scenario s;

	ck_assert_msg(scenario_load(&s, path, NULL, 0, 1.0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(s.sysctl.dirty_ratio, 5);
	ck_assert_int_eq(s.sysctl.dirty_background_ratio, 10);	/* the default */
	ck_assert_uint_eq(s.sysctl.dirty_background_bytes, 32 * MiB);
	ck_assert_int_eq(s.sysctl.dirty_expire_cs, 3000);
	ck_assert_int_eq(s.sysctl.dirty_writeback_cs, 500);
	scenario_free(&s);
	ck_assert_msg(scenario_load(&s, path, sets, 2, 0.5, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(s.sysctl.dirty_expire_cs, 100);
	ck_assert_int_eq(s.sysctl.dirty_writeback_cs, 0);
	ck_assert_uint_eq(s.sysctl.dirty_background_bytes, 16 * MiB);	/* a size: scaled */
	scenario_free(&s);
	unlink(path);
	free(path);
	free(t);
	t = variant(NR_BASE_LINES + 1, NULL, "[sysctl]\nvm.dirty_ratio = 101");
	expect_error(t, NR_BASE_LINES + 2, "vm.dirty_ratio", NULL);
	free(t);
	t = variant(NR_BASE_LINES + 1, NULL, "[sysctl]\nvm.dirty_colour = 1");
	expect_error(t, NR_BASE_LINES + 2, "vm.dirty_colour", NULL);
	free(t);
}
END_TEST

/* ---- kernel names for every knob (issue 18.4) ---- */

/* Loads text that must load at scale 1 (or `scale`); the caller frees s. */
static void load_scaled(const char *text, const char *const *sets, int nr, double scale,
			struct scenario *s)
{
	char err[1024] = "", *path = harness_write_temp(text);
	int rc = scenario_load(s, path, sets, nr, scale, err, sizeof(err));

	unlink(path);
	free(path);
	ck_assert_msg(rc == 0, "rejected: %s\n%s", err, text);
}

/* The base file with lines appended at its end. */
static char *with(const char *lines)
{
	return variant(NR_BASE_LINES + 1, NULL, lines);
}

/* The message of a load of text (with sets) that must fail, in err. */
static void load_fails(const char *text, const char *const *sets, int nr, char *err, size_t len)
{
	char *path;

	ck_assert_msg(load_text(text, sets, nr, &path, err, len) != 0, "accepted:\n%s", text);
	ck_assert_msg(strstr(err, path), "message does not name the file: %s", err);
	unlink(path);
	free(path);
}

START_TEST(test_memcg_kernel_names)
{
	static const char *const sets[] = { "memcg.app.memory.max=48M", "memcg.app.high=40M" };
	char *t = variant(7, "memory.max = 32M", "memory.oom.group = 1\nmemory.swap.max = 0\n"
			  "memory.low = 4M\nmemory.min = 2M\nmemory.swappiness = 100\n"
			  "memory.high = max"), err[1024];
	struct scenario s;

	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_uint_eq(s.memcg[0].max, 32 * MiB);
	ck_assert_uint_eq(s.memcg[0].high, UINT64_MAX);
	ck_assert_uint_eq(s.memcg[0].low, 4 * MiB);
	ck_assert_uint_eq(s.memcg[0].min, 2 * MiB);
	ck_assert_uint_eq(s.memcg[0].swap_max, 0);
	ck_assert_int_eq(s.memcg[0].swappiness, 100);
	ck_assert(s.memcg[0].oom_group);
	scenario_free(&s);
	/* --set by either name overrides the file's (memory.high written, high set) */
	load_scaled(t, sets, 2, 0.5, &s);
	ck_assert_uint_eq(s.memcg[0].max, 24 * MiB);
	ck_assert_uint_eq(s.memcg[0].high, 20 * MiB);
	scenario_free(&s);
	free(t);
	/* the short name is the same knob: both in one file is a knob set twice */
	t = variant(8, NULL, "memory.max = 40M");
	expect_error(t, 8, "memory.max", "[memcg.app] max (line 7)");
	free(t);
	/* the default: no oom group */
	t = variant(0, NULL, NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert(!s.memcg[0].oom_group);
	scenario_free(&s);
	free(t);
	t = variant(8, NULL, "memory.oom.group = 2");
	expect_error(t, 8, "memory.oom.group", "'2'");
	free(t);
	/* the kernel's file takes 0 or 1, not yes */
	t = variant(8, NULL, "memory.oom.group = yes");
	expect_error(t, 8, "memory.oom.group", "'yes'");
	free(t);
	t = variant(8, NULL, "memory.swap.max = lots");
	expect_error(t, 8, "memory.swap.max", "lots");
	free(t);
	/* a --set of a bad value names it as written */
	{
		static const char *const bad[] = { "memcg.app.memory.min=x" };

		t = variant(0, NULL, NULL);
		load_fails(t, bad, 1, err, sizeof(err));
		ck_assert_msg(strstr(err, "memory.min") && strstr(err, "--set"), "%s", err);
		free(t);
	}
}
END_TEST

START_TEST(test_sysctl_vm_knobs)
{
	static const char *const sets[] = { "vm.page-cluster=0", "machine.swappiness=10" };
	char *t = with("[sysctl]\nvm.swappiness = 150\nvm.watermark_scale_factor = 200\n"
		       "vm.min_free_kbytes = 8192\nvm.page-cluster = 5");
	struct scenario s;

	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.sysctl.swappiness, 150);
	ck_assert_int_eq(s.sysctl.watermark_scale_factor, 200);
	ck_assert_uint_eq(s.sysctl.min_free_kbytes, 8192);
	ck_assert_int_eq(s.sysctl.page_cluster, 5);
	scenario_free(&s);
	/* kilobytes of memory shrink with the rest; --set by the old name too */
	load_scaled(t, sets, 2, 0.5, &s);
	ck_assert_uint_eq(s.sysctl.min_free_kbytes, 4096);
	ck_assert_int_eq(s.sysctl.page_cluster, 0);
	ck_assert_int_eq(s.sysctl.swappiness, 10);
	scenario_free(&s);
	free(t);
	/* the defaults: the kernel's (min_free_kbytes computed) */
	t = variant(0, NULL, NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.sysctl.swappiness, 60);
	ck_assert_int_eq(s.sysctl.watermark_scale_factor, 10);
	ck_assert_uint_eq(s.sysctl.min_free_kbytes, UINT64_MAX);
	ck_assert_int_eq(s.sysctl.page_cluster, 3);
	scenario_free(&s);
	free(t);
	/* [machine] swappiness is vm.swappiness */
	t = variant(3, NULL, "swappiness = 1");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.sysctl.swappiness, 1);
	scenario_free(&s);
	free(t);
	t = variant(3, NULL, "swappiness = 1\n[sysctl]\nvm.swappiness = 2\n[machine]");
	expect_error(t, 0, "vm.swappiness", "[machine] swappiness (line 3)");
	free(t);
	t = with("[sysctl]\nvm.page-cluster = 32");
	expect_error(t, NR_BASE_LINES + 2, "vm.page-cluster", "32");
	free(t);
	t = with("[sysctl]\nvm.watermark_scale_factor = 0");
	expect_error(t, NR_BASE_LINES + 2, "vm.watermark_scale_factor", NULL);
	free(t);
	t = with("[sysctl]\nvm.swappiness = 201");
	expect_error(t, NR_BASE_LINES + 2, "vm.swappiness", "201");
	free(t);
	/* 64M of memory: a 64M reserve leaves nothing */
	t = with("[sysctl]\nvm.min_free_kbytes = 65536");
	expect_error(t, NR_BASE_LINES + 2, "vm.min_free_kbytes", "whole memory");
	free(t);
	t = with("[sysctl]\nvm.min_free_kbytes = -5");
	expect_error(t, NR_BASE_LINES + 2, "vm.min_free_kbytes", NULL);
	free(t);
}
END_TEST

/*
 * [machine] kernel: the four releases by name, the newest when unset; any
 * other name is refused at its line; a policy the named release did not
 * have is refused naming the key's line (or its --set), one it had runs,
 * and with kernel unset every policy runs.
 */
START_TEST(test_machine_kernel)
{
	static const char *const names[NR_KERNEL_VERSIONS] = { "6.1", "6.6", "6.12", "7.2" };
	static const char *const bad[] = { "5.10", "6", "6.1.0", "7.20", "latest", "" };
	const char *sets[] = { "machine.kernel=6.12" };
	char line[64], err[512], *t;
	struct scenario s;

	t = with("");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_ptr_eq(scenario_kernel(&s), &kernel_rules_table[KERNEL_7_2]);
	ck_assert_int_eq(scenario_check_policy(&s, "mglru-old", err, sizeof(err)), 0);
	ck_assert_int_eq(scenario_check_policy(&s, "mglru-budget", err, sizeof(err)), 0);
	scenario_free(&s);
	free(t);
	for (int v = 0; v < NR_KERNEL_VERSIONS; v++) {
		snprintf(line, sizeof(line), "kernel = %s", names[v]);
		t = variant(2, NULL, line);
		load_scaled(t, NULL, 0, 1.0, &s);
		ck_assert_str_eq(scenario_kernel(&s)->name, names[v]);
		ck_assert_int_eq(scenario_check_policy(&s, "classic", err, sizeof(err)), 0);
		ck_assert_int_eq(scenario_check_policy(&s, "mglru-old", err, sizeof(err)),
				 v == KERNEL_7_2 ? -1 : 0);
		ck_assert_int_eq(scenario_check_policy(&s, "mglru-budget", err, sizeof(err)),
				 v == KERNEL_7_2 ? 0 : -1);
		ck_assert_msg(strstr(err, "line 2") && strstr(err, "kernel") &&
			      strstr(err, v == KERNEL_7_2 ? "mglru-old" : "mglru-budget"),
			      "refusal does not name line 2, the key and the policy: %s", err);
		scenario_free(&s);
		free(t);
	}
	t = with("");
	load_scaled(t, sets, 1, 1.0, &s);
	ck_assert_int_eq(scenario_check_policy(&s, "mglru-7.2", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "--set 'machine.kernel=6.12'"), "refusal: %s", err);
	scenario_free(&s);
	free(t);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "kernel = %s", bad[i]);
		t = variant(2, NULL, line);
		expect_error(t, 2, "kernel", NULL);
		free(t);
	}
}
END_TEST

/* The field of a policy's knob, found through its section's key table (as the parser does). */
static const void *knob(const struct scenario *s, const char *section, const char *key)
{
	for (int i = 0; i < s->nr_policy_sections; i++) {
		const struct scn_policy_section *ps = &s->policy_section[i];

		if (strcmp(ps->knobs->section, section))
			continue;
		for (const struct key_desc *k = ps->knobs->keys; k->key; k++)
			if (!strcmp(k->key, key))
				return (const char *)ps->values + k->offset;
	}
	ck_abort_msg("no [%s] %s", section, key);
	return NULL;
}

#define MGLRU_INT(s, key) (*(const int *)knob(s, "mglru", key))
#define MGLRU_U64(s, key) (*(const uint64_t *)knob(s, "mglru", key))
#define MGLRU_BOOL(s, key) (*(const bool *)knob(s, "mglru", key))

START_TEST(test_lru_gen_knobs)
{
	static const struct {
		const char *v;
		int caps;
	} ok[] = { { "y", 7 }, { "0x0007", 7 }, { "5", 5 }, { "0x5", 5 } };
	static const char *const bad[] = { "n", "0", "3", "0x0003", "6", "0x8", "0xf", "yes", "-1",
					   "" };
	char line[64], *t;
	struct scenario s;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(line, sizeof(line), "[mglru]\nenabled = %s", ok[i].v);
		t = with(line);
		load_scaled(t, NULL, 0, 1.0, &s);
		ck_assert_int_eq(MGLRU_INT(&s, "enabled"), ok[i].caps);
		scenario_free(&s);
		free(t);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(line, sizeof(line), "[mglru]\nenabled = %s", bad[i]);
		t = with(line);
		expect_error(t, NR_BASE_LINES + 2, "enabled", NULL);
		free(t);
	}
	t = with("[mglru]\nenabled = 3");
	expect_error(t, NR_BASE_LINES + 2, "enabled", "non-leaf");
	free(t);
	t = with("[mglru]\nenabled = 6");
	expect_error(t, NR_BASE_LINES + 2, "enabled", "classic");
	free(t);
	/* the default: every capability */
	t = variant(0, NULL, NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(MGLRU_INT(&s, "enabled"), 7);
	ck_assert_uint_eq(MGLRU_U64(&s, "min_ttl_ms"), 0);
	scenario_free(&s);
	free(t);
	/* min_ttl_ms is milliseconds: 1000 is 1 s; a period, scaled */
	t = with("[mglru]\nmin_ttl_ms = 1000");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_uint_eq(MGLRU_U64(&s, "min_ttl_ms"), 1000000000ULL);
	scenario_free(&s);
	load_scaled(t, NULL, 0, 0.5, &s);
	ck_assert_uint_eq(MGLRU_U64(&s, "min_ttl_ms"), 500000000ULL);
	scenario_free(&s);
	free(t);
	t = with("[mglru]\nmin_ttl_ms = 1s");
	expect_error(t, NR_BASE_LINES + 2, "min_ttl_ms", "milliseconds");
	free(t);
	/* min_ttl was seconds: refused, pointing at min_ttl_ms */
	t = with("[mglru]\nmin_ttl = 1000");
	expect_error(t, NR_BASE_LINES + 2, "min_ttl", "min_ttl_ms");
	free(t);
	/* the ablation switches: on by default, each off on its own */
	t = variant(0, NULL, NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert(MGLRU_BOOL(&s, "walk") && MGLRU_BOOL(&s, "look_around") && MGLRU_BOOL(&s, "bloom_filter") &&
		  MGLRU_BOOL(&s, "tiers") && MGLRU_BOOL(&s, "memcg_lru"));
	scenario_free(&s);
	free(t);
	t = with("[mglru]\nlook_around = 0\ntiers = no");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert(MGLRU_BOOL(&s, "walk") && !MGLRU_BOOL(&s, "look_around") && MGLRU_BOOL(&s, "bloom_filter") &&
		  !MGLRU_BOOL(&s, "tiers") && MGLRU_BOOL(&s, "memcg_lru"));
	ck_assert_int_eq(MGLRU_INT(&s, "enabled"), 7);
	scenario_free(&s);
	free(t);
	t = with("[mglru]\nwalk = 2");
	expect_error(t, NR_BASE_LINES + 2, "walk", "0 or 1");
	free(t);
}
END_TEST

START_TEST(test_debugfs_and_zram_names)
{
	static const char *const sets[] = { "debugfs.fault_around_bytes=4096",
					    "swap.comp_algorithm=lzo" };
	char *t = with("[debugfs]\nfault_around_bytes = 2M\n[swap]\ntype = zram\n"
		       "disksize = 8M\ncomp_algorithm = zstd");
	struct scenario s;

	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_uint_eq(s.debugfs.fault_around_bytes, 2 * MiB);
	ck_assert_uint_eq(s.swap.size, 8 * MiB);
	ck_assert_str_eq(s.swap.comp_algorithm, "zstd");
	scenario_free(&s);
	/* disksize is a size: scaled; fault_around_bytes is a window: not */
	load_scaled(t, sets, 2, 0.5, &s);
	ck_assert_uint_eq(s.debugfs.fault_around_bytes, 4096);
	ck_assert_uint_eq(s.swap.size, 4 * MiB);
	ck_assert_str_eq(s.swap.comp_algorithm, "lzo");
	scenario_free(&s);
	free(t);
	t = variant(0, NULL, NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_uint_eq(s.debugfs.fault_around_bytes, 65536);
	scenario_free(&s);
	free(t);
	/* compressor is comp_algorithm */
	t = with("[swap]\ntype = zram\nsize = 8M\ncompressor = lzo");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_str_eq(s.swap.comp_algorithm, "lzo");
	scenario_free(&s);
	free(t);
	t = with("[swap]\ntype = zram\nsize = 8M\ncompressor = lzo\ncomp_algorithm = lz4");
	expect_error(t, NR_BASE_LINES + 5, "comp_algorithm", "compressor");
	free(t);
	t = with("[swap]\ntype = zram\ndisksize = 8M\ncomp_algorithm = brotli");
	expect_error(t, NR_BASE_LINES + 4, "comp_algorithm", NULL);
	free(t);
	t = with("[swap]\ntype = zram\nsize = 8M\ndisksize = 8M");
	expect_error(t, NR_BASE_LINES + 4, "disksize", "twice");
	free(t);
	t = with("[swap]\ntype = block\ndevice = d0\ndisksize = 8M");
	expect_error(t, NR_BASE_LINES + 4, "disksize", "zram");
	free(t);
	/* chrome-node's 256G zram at its published size fits; 2^32 slots do not */
	t = with("[swap]\ntype = zram\ndisksize = 256G");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_uint_eq(s.swap.size, 256ULL << 30);
	scenario_free(&s);
	free(t);
	t = with("[swap]\ntype = zram\ndisksize = 16T");
	expect_error(t, NR_BASE_LINES + 3, "disksize", "16T");
	free(t);
	t = with("[debugfs]\nfault_around_bytes = 4M");
	expect_error(t, NR_BASE_LINES + 2, "fault_around_bytes", "2M");
	free(t);
	t = with("[debugfs]\nfault_around_bytes = wide");
	expect_error(t, NR_BASE_LINES + 2, "fault_around_bytes", "wide");
	free(t);
}
END_TEST

START_TEST(test_workload_advice)
{
	char *t = variant(13, NULL, "advice = random");
	struct scenario s;

	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.workload[0].advice, 1);
	scenario_free(&s);
	free(t);
	t = variant(13, NULL, "advice = sequential");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.workload[0].advice, 2);
	scenario_free(&s);
	free(t);
	/* unset: the type's, normal for file-zipf */
	t = variant(0, NULL, NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.workload[0].advice, 0);
	scenario_free(&s);
	free(t);
	/* fio's is random (fadvise_hint=1 on rw=randread) */
	t = variant(9, "type = fio", NULL);
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.workload[0].advice, 1);
	scenario_free(&s);
	free(t);
	t = variant(9, "type = fio", "advice = normal");
	load_scaled(t, NULL, 0, 1.0, &s);
	ck_assert_int_eq(s.workload[0].advice, 0);
	scenario_free(&s);
	free(t);
	t = variant(13, NULL, "advice = sideways");
	expect_error(t, 13, "advice", "sideways");
	free(t);
}
END_TEST

/* A typo gets the nearest known name, in a file or a --set; exit 2 stays the caller's. */
START_TEST(test_unknown_key_suggests)
{
	static const struct {
		const char *insert;	/* at the end of the base file */
		int line;
		const char *key, *hint;
	} cases[] = {
		{ "[memcg.app2]\nmemory.maxx = 1G", NR_BASE_LINES + 2, "memory.maxx",
		  "did you mean 'memory.max'" },
		{ "[sysctl]\nvm.swapiness = 1", NR_BASE_LINES + 2, "vm.swapiness",
		  "did you mean 'vm.swappiness'" },
		{ "[sysctl]\nvm.page_cluster = 1", NR_BASE_LINES + 2, "vm.page_cluster",
		  "did you mean 'vm.page-cluster'" },
		{ "[mglru]\nmin_ttl_msec = 5", NR_BASE_LINES + 2, "min_ttl_msec",
		  "did you mean 'min_ttl_ms'" },
		{ "[swap]\ndisk_size = 1G", NR_BASE_LINES + 2, "disk_size",
		  "did you mean 'disksize'" },
		{ "[workload.v]\ntype = file-zipf\nthread = 2", NR_BASE_LINES + 3, "thread",
		  "did you mean 'threads'" },
		{ "[workload.v]\ntype = fio\nadvise = random", NR_BASE_LINES + 3, "advise",
		  "did you mean 'advice'" },
		{ "[sysclt]\nvm.swappiness = 1", 0, "sysclt", "did you mean 'sysctl'" },

		{ "[memcgs.app]\nmemory.max = 1G", 0, "memcgs.app", "did you mean 'memcg.app'" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *t = with(cases[i].insert);

		expect_error(t, cases[i].line, cases[i].key, cases[i].hint);
		free(t);
	}
	/* an alias is a known name too: [machine] swappiness */
	{
		char *t = variant(3, NULL, "swapiness = 1");

		expect_error(t, 3, "swapiness", "did you mean 'swappiness'");
		free(t);
	}
	/* nothing near: no guess */
	{
		char *t = with("[sysctl]\nkernel.panic = 1"), err[1024];

		load_fails(t, NULL, 0, err, sizeof(err));
		ck_assert_msg(strstr(err, "kernel.panic") && !strstr(err, "did you mean"), "%s", err);
		free(t);
	}
	/* a --set of a misspelt memcg */
	{
		static const char *const sets[] = { "memcg.ap.memory.max=1G" };
		char *t = variant(0, NULL, NULL), err[1024];

		load_fails(t, sets, 1, err, sizeof(err));
		ck_assert_msg(strstr(err, "[memcg.ap]") && strstr(err, "did you mean 'memcg.app'"),
			      "%s", err);
		free(t);
	}
	/* a --set */
	{
		static const char *const sets[] = { "memcg.app.memory.hihg=1G" };
		char *t = variant(0, NULL, NULL), err[1024];

		load_fails(t, sets, 1, err, sizeof(err));
		ck_assert_msg(strstr(err, "--set") && strstr(err, "did you mean 'memory.high'"), "%s",
			      err);
		free(t);
	}
}
END_TEST

/* Every key of every section, the policies' too, has its line for `mmemu list sections`. */
START_TEST(test_sections_documented)
{
	struct scn_section_doc docs[32];
	int nr = 0, nr_docs = scn_section_docs(docs, 32);
	bool mglru = false;

	for (int i = 0; i < nr_docs; i++) {
		mglru |= !strcmp(docs[i].name, "mglru");
		for (const struct key_desc *k = docs[i].keys; k->key; k++, nr++)
			ck_assert_msg(k->type == KT_RETIRED || (k->doc && *k->doc),
				      "[%s] %s has no documentation", docs[i].name, k->key);
	}
	ck_assert(mglru);
	ck_assert_int_ge(nr, 40);
}
END_TEST

START_TEST(test_bad_unknown_key)
{
	char *t = variant(8, NULL, "colour = blue");

	expect_error(t, 8, "colour", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_unknown_section)
{
	char *t = variant(NR_BASE_LINES + 1, NULL, "[frobnicate.x]\nspeed = 3");
	char err[1024], *path;

	/* the key is on line 15 under the section header on line 14 */
	ck_assert_int_ne(load_text(t, NULL, 0, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, path), "%s", err);
	ck_assert_msg(strstr(err, "line 14") || strstr(err, "line 15"), "%s", err);
	ck_assert_msg(strstr(err, "frobnicate"), "%s", err);
	unlink(path);
	free(path);
	free(t);
}
END_TEST

START_TEST(test_bad_key_before_any_section)
{
	char *t = variant(1, NULL, "nodes = 2");

	expect_error(t, 1, "", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_size_banana)
{
	char *t = variant(7, "max = banana", NULL);

	expect_error(t, 7, "max", "banana");
	free(t);
}
END_TEST

START_TEST(test_bad_int)
{
	char *t = variant(13, NULL, "threads = many");

	expect_error(t, 13, "threads", "many");
	free(t);
	t = variant(2, "nodes = 9", NULL);
	expect_error(t, 2, "nodes", "9");
	free(t);
}
END_TEST

START_TEST(test_bad_memcg_parent_undeclared)
{
	char *t = variant(8, NULL, "[memcg.child]\nparent = ghost");

	/* parent = ghost is line 9 */
	expect_error(t, 9, "parent", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_workload_memcg_unknown)
{
	char *t = variant(10, "memcg = nosuch", NULL);

	expect_error(t, 10, "memcg", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_workload_device_unknown)
{
	char *t = variant(11, "device = nosuch", NULL);

	expect_error(t, 11, "device", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_workload_node_missing)
{
	char *t = variant(13, NULL, "node = 1");

	/* a one-node machine has no node 1 */
	expect_error(t, 0, "node", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_garbage_line)
{
	char *t = variant(4, NULL, "this is not ini");

	expect_error(t, 4, "", NULL);
	free(t);
}
END_TEST

START_TEST(test_bad_missing_file)
{
	struct scenario s;
	char err[1024] = "";
	const char *path = "/nonexistent-dir/no-such-scenario.ini";

	ck_assert_int_ne(scenario_load(&s, path, NULL, 0, 1.0, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, path), "%s", err);
	scenario_free(&s);
}
END_TEST

START_TEST(test_bad_set_value_names_key)
{
	static const char *const sets[] = { "memcg.app.max=banana" };
	char *t = variant(0, NULL, NULL), err[1024], *path;

	ck_assert_int_ne(load_text(t, sets, 1, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "max"), "%s", err);
	ck_assert_msg(strstr(err, "banana"), "%s", err);
	ck_assert_msg(strstr(err, "--set"), "%s", err);
	unlink(path);
	free(path);
	free(t);
}
END_TEST

START_TEST(test_bad_set_unknown_key_and_form)
{
	static const char *const unknown[] = { "memcg.app.colour=blue" };
	static const char *const malformed[] = { "nodot" };
	static const char *const nokey[] = { "memcg.app=1G" };
	char *t = variant(0, NULL, NULL), err[1024], *path;

	ck_assert_int_ne(load_text(t, unknown, 1, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "colour"), "%s", err);
	unlink(path);
	free(path);
	ck_assert_int_ne(load_text(t, malformed, 1, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "nodot"), "%s", err);
	unlink(path);
	free(path);
	ck_assert_int_ne(load_text(t, nokey, 1, &path, err, sizeof(err)), 0);
	unlink(path);
	free(path);
	free(t);
}
END_TEST

START_TEST(test_bad_limit_too_small_after_scale)
{
	char *t = variant(7, "max = 512K", NULL);

	expect_error(t, 0, "max", NULL);
	free(t);
}
END_TEST

/* ---- long lines, long names, repeated keys (issue 13.2, 13.6) ---- */

/* A string of n copies of c (malloc'ed). */
static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	ck_assert_ptr_nonnull(s);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* Loads text (and sets) that must load; the caller frees s and *path. */
static void load_ok(const char *text, const char *const *sets, int nr, struct scenario *s)
{
	char err[1024] = "", *path = harness_write_temp(text);
	int rc = scenario_load(s, path, sets, nr, 1.0, err, sizeof(err));

	unlink(path);
	free(path);
	ck_assert_msg(rc == 0, "rejected: %s\n%s", err, text);
}

START_TEST(test_long_comment_is_a_comment)
{
	/* libinih's 200-byte buffer used to parse the tail as a line: "max = 2M" */
	char *pad = repeat('x', 300), text[2048];
	struct scenario s;

	for (int hash = 0; hash < 2; hash++) {
		char *t = variant(8, NULL, NULL);

		snprintf(text, sizeof(text), "%s%c %s max = 2M\n", t, hash ? '#' : ';', pad);
		free(t);
		load_ok(text, NULL, 0, &s);
		ck_assert_uint_eq(find_memcg(&s, "app")->max, 32 * MiB);
		scenario_free(&s);
		/* a 302-character comment in the middle of a section */
		t = variant(8, NULL, pad);
		t[strstr(t, pad) - t] = hash ? '#' : ';';
		load_ok(t, NULL, 0, &s);
		ck_assert_int_eq(s.nr_workloads, 1);
		scenario_free(&s);
		free(t);
	}
	free(pad);
}
END_TEST

/*
 * A line libinih cannot hold (over 200 bytes: here a long inline comment)
 * means what the same line means short: the reader's split of key and value
 * follows ini.c's rules.
 */
START_TEST(test_long_line_means_the_short_one)
{
	static const char *const lines[] = {
		"max = 20M", "max=20M", "max : 20M", "max =   20M   ", "max = 20M ; a comment",
		"max = 20M;not a comment", "max = max", "max: =20M", "max = 20M=", "max = 20 M",
		"max ; = 20M", "= 20M", "max =", "max = ;", "max = x ; y ; z", "\tmax\t=\t20M\t",
	};
	char *pad = repeat('y', 400);

	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		char shortl[512], longl[1024], err_s[1024] = "", err_l[1024] = "", *ps, *pl;
		char *ts, *tl;
		struct scenario ss, sl;
		int rs, rl;

		snprintf(shortl, sizeof(shortl), "%s", lines[i]);
		snprintf(longl, sizeof(longl), "%s ;%s", lines[i], pad);
		ts = variant(7, shortl, NULL);
		tl = variant(7, longl, NULL);
		ps = harness_write_temp(ts);
		pl = harness_write_temp(tl);
		rs = scenario_load(&ss, ps, NULL, 0, 1.0, err_s, sizeof(err_s));
		rl = scenario_load(&sl, pl, NULL, 0, 1.0, err_l, sizeof(err_l));
		ck_assert_msg(rs == rl, "'%s': short %d (%s), long %d (%s)", lines[i], rs, err_s, rl,
			      err_l);
		if (!rs)
			ck_assert_uint_eq(find_memcg(&ss, "app")->max, find_memcg(&sl, "app")->max);
		else	/* the same message but for the file's name */
			ck_assert_str_eq(strstr(err_s, "' ") ? strstr(err_s, "' ") : err_s,
					 strstr(err_l, "' ") ? strstr(err_l, "' ") : err_l);
		scenario_free(&ss);
		scenario_free(&sl);
		unlink(ps);
		unlink(pl);
		free(ps);
		free(pl);
		free(ts);
		free(tl);
	}
	free(pad);
}
END_TEST

START_TEST(test_long_values_are_whole)
{
	/* a policy list of 40 names: 543 characters, in the file and from --set */
	char policy[1024] = "", line[1100], set[1100], *t;
	const char *sets[] = { set };
	struct scenario s;

	for (int i = 0; i < 40; i++)
		snprintf(policy + strlen(policy), sizeof(policy) - strlen(policy), "%s%s",
			 i ? "," : "", i % 2 ? "mglru-budget" : "classic");
	snprintf(line, sizeof(line), "policy = %s", policy);
	t = variant(2, NULL, line);
	load_ok(t, NULL, 0, &s);
	ck_assert_str_eq(s.machine.policy, policy);
	scenario_free(&s);
	free(t);
	snprintf(set, sizeof(set), "machine.policy=%s", policy);
	t = variant(0, NULL, NULL);
	load_ok(t, sets, 1, &s);
	ck_assert_str_eq(s.machine.policy, policy);
	scenario_free(&s);
	free(t);
}
END_TEST

START_TEST(test_long_names_kept_or_refused)
{
	/* 47 characters: kept whole; two that differ in the 50th: refused, never merged */
	char *n47 = repeat('m', 47), *n49 = repeat('m', 49), text[4096], err[1024], *path;
	struct scenario s;
	char *t = variant(8, NULL, NULL);

	snprintf(text, sizeof(text), "%s[memcg.%s]\nmax = 20M\n[memcg.%.46sn]\nmax = 24M\n", t,
		 n47, n47);
	load_ok(text, NULL, 0, &s);
	ck_assert_int_eq(s.nr_memcgs, 3);
	ck_assert_str_eq(s.memcg[1].name, n47);
	ck_assert_uint_eq(s.memcg[1].max, 20 * MiB);
	ck_assert_uint_eq(s.memcg[2].max, 24 * MiB);
	scenario_free(&s);
	snprintf(text, sizeof(text), "%s[memcg.%sa]\nmax = 20M\n[memcg.%sb]\nmax = 24M\n", t,
		 n49, n49);
	ck_assert_int_ne(load_text(text, NULL, 0, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "line 14") && strstr(err, "at most 47"), "%s", err);
	unlink(path);
	free(path);
	free(t);
	free(n47);
	free(n49);
}
END_TEST

START_TEST(test_repeated_keys_and_sections)
{
	static const char *const twice_ops[] = { "workload.w.ops=5", "workload.w.ops=6" };
	static const char *const once_ops[] = { "workload.w.ops=5" };
	char *t = variant(8, NULL, "max = 40M"), err[1024], *path;
	struct scenario s;

	/* max on lines 7 and 8 */
	expect_error(t, 8, "max", "line 7");
	free(t);
	t = variant(NR_BASE_LINES + 1, NULL, "[memcg.app]\nhigh = 30M");
	expect_error(t, 14, "[memcg.app]", "line 6");
	free(t);
	/* --set overrides the file's value once, not twice */
	t = variant(0, NULL, NULL);
	load_ok(t, once_ops, 1, &s);
	ck_assert_uint_eq(s.workload[0].ops, 5);
	scenario_free(&s);
	ck_assert_int_ne(load_text(t, twice_ops, 2, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "workload.w.ops=6") && strstr(err, "workload.w.ops=5"), "%s",
		      err);
	unlink(path);
	free(path);
	free(t);
}
END_TEST

START_TEST(test_node_section_beyond_the_machine)
{
	static const char *const set[] = { "node.3.cpus=2" };
	char *t = variant(4, NULL, "[node.5]\nmemory = 1G"), err[1024], *path;

	expect_error(t, 4, "[node.5]", "no such node");
	free(t);
	t = variant(4, NULL, "[node.5]");
	expect_error(t, 4, "[node.5]", "no such node");
	free(t);
	t = variant(0, NULL, NULL);
	ck_assert_int_ne(load_text(t, set, 1, &path, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "node.3.cpus=2") && strstr(err, "no such node"), "%s", err);
	unlink(path);
	free(path);
	free(t);
}
END_TEST

START_TEST(test_line_syntax_edges)
{
	struct scenario s;
	char *t;

	/* an indented line is no continuation of the value above */
	t = variant(8, NULL, "   32M");
	expect_error(t, 8, "not a section", NULL);
	free(t);
	/* an indented key is a key */
	t = variant(13, NULL, "\t threads = 2");
	load_ok(t, NULL, 0, &s);
	ck_assert_int_eq(s.workload[0].threads, 2);
	scenario_free(&s);
	free(t);
	t = variant(6, "[memcg.app] max = 1G", NULL);
	expect_error(t, 6, "text after the section header", NULL);
	free(t);
	t = variant(6, "[memcg.app] ; a comment", NULL);
	load_ok(t, NULL, 0, &s);
	scenario_free(&s);
	free(t);
	t = variant(6, "[memcg.app", NULL);
	expect_error(t, 6, "section header", NULL);
	free(t);
	t = variant(13, NULL, "think = 1us\x01");
	expect_error(t, 13, "control character", NULL);
	free(t);
	t = variant(6, "[memcg.a b]", NULL);
	expect_error(t, 6, "letters, digits", NULL);
	free(t);
	/* integers are decimal: 010 threads are ten, 0x10 is no integer */
	t = variant(13, NULL, "threads = 010");
	load_ok(t, NULL, 0, &s);
	ck_assert_int_eq(s.workload[0].threads, 10);
	scenario_free(&s);
	free(t);
	t = variant(13, NULL, "threads = 0x10");
	expect_error(t, 13, "threads", "0x10");
	free(t);
}
END_TEST

START_TEST(test_empty_section_declares)
{
	/* [memcg.idle] with no keys is a memcg all the same */
	char *t = variant(8, NULL, "[memcg.idle]"), *at = strstr(t, "memcg = app"), text[2048];
	struct scenario s;

	snprintf(text, sizeof(text), "%.*smemcg = idle%s", (int)(at - t), t,
		 at + strlen("memcg = app"));
	load_ok(text, NULL, 0, &s);
	ck_assert_int_eq(s.nr_memcgs, 2);
	ck_assert_str_eq(s.memcg[1].name, "idle");
	ck_assert_uint_eq(s.memcg[1].max, UINT64_MAX);
	ck_assert_str_eq(s.workload[0].memcg, "idle");
	scenario_free(&s);
	free(t);
}
END_TEST

START_TEST(test_sizes_beyond_the_model)
{
	char *t = variant(12, "size = 100000T", NULL), *u;

	expect_error(t, 12, "size", "2^32 pages");
	free(t);
	t = variant(3, "node_memory = 17T", NULL);
	expect_error(t, 3, "node_memory", "2^32 pages");
	free(t);
	/* eight nodes of 2^61 bytes: the sum in bytes wrapped to 0 and passed */
	t = variant(3, "node_memory = 2097152T", NULL);
	u = strstr(t, "nodes = 1");
	u[strlen("nodes = ")] = '8';
	expect_error(t, 3, "node_memory", "2^32 pages");
	free(t);
}
END_TEST

START_TEST(test_chrome_group_names_clash)
{
	static const char text[] =
		"[machine]\nnodes = 1\nnode_memory = 256M\nduration = 10ms\n"
		"[memcg.srv-3]\nmax = 16M\n"
		"[workload.srv]\ntype = chrome-node\ngroups = 4\nsize = 1M\nchunk = 64K\n";
	char *t = strdup(text);

	expect_error(t, 0, "groups", "srv-3");
	free(t);
}
END_TEST

/*
 * A file of 300000 keys is judged in one pass: each key was compared with
 * every earlier one (minutes at this size, hours at the 16 MiB limit).
 */
START_TEST(test_many_keys_one_pass)
{
	size_t cap = 300000 * 16 + 4096, len;
	char *t = variant(0, NULL, NULL), *text = malloc(cap);

	ck_assert_ptr_nonnull(text);
	len = (size_t)snprintf(text, cap, "%s", t);
	for (int i = 0; i < 300000; i++)
		len += (size_t)snprintf(text + len, cap - len, "k%d = 1\n", i);
	expect_error(text, 14, "k0", "unknown key");
	free(text);
	free(t);
}
END_TEST

/* psi-agent's min_size: senpai's 100M at full scale, scaled by --scale as a written one is */
START_TEST(test_psi_agent_min_size_scales)
{
	static const struct {
		const char *line;	/* min_size, or none */
		double scale;
		uint64_t want;
	} cases[] = {
		{ NULL, 1.0, 100 * MiB }, { NULL, 0.25, 25 * MiB },
		{ "min_size = 200M", 0.25, 50 * MiB }, { "min_size = 0", 0.25, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char sec[160], *t, *path, err[1024];
		struct scenario s;
		const struct psi_agent_params *p;

		snprintf(sec, sizeof(sec), "[workload.agent]\ntype = psi-agent\ntarget = app\n%s",
			 cases[i].line ? cases[i].line : "");
		t = variant(NR_BASE_LINES + 1, NULL, sec);
		path = harness_write_temp(t);
		ck_assert_msg(scenario_load(&s, path, NULL, 0, cases[i].scale, err, sizeof(err)) == 0,
			      "%s", err);
		p = s.workload[1].params;
		ck_assert_str_eq(s.workload[1].type->name, "psi-agent");
		ck_assert_msg(p->min_size == cases[i].want, "case %zu: min_size %llu, want %llu", i,
			      (unsigned long long)p->min_size, (unsigned long long)cases[i].want);
		scenario_free(&s);
		unlink(path);
		free(path);
		free(t);
	}
}
END_TEST

/* psi-agent's trigger: the kernel's limits, the value quoted, its file, line and key */
START_TEST(test_psi_agent_trigger_limits)
{
	static const struct {
		const char *value, *says;
	} bad[] = {
		{ "some 1 499999", "the window" },
		{ "full 1 10000001", "the window" },
		{ "some 0 1000000", "the threshold" },
		{ "some 1000001 1000000", "the threshold" },
		{ "sum 1 1000000", "expected" },
		{ "some 1 1000000 x", "expected" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char line[80], quoted[80], *t;

		snprintf(line, sizeof(line), "[workload.agent]\ntype = psi-agent\ntarget = app\n"
			 "trigger = %s", bad[i].value);
		snprintf(quoted, sizeof(quoted), "'%s': %s", bad[i].value, bad[i].says);
		t = variant(NR_BASE_LINES + 1, NULL, line);
		expect_error(t, NR_BASE_LINES + 4, "trigger", quoted);
		free(t);
	}
}
END_TEST

static Suite *scenario_suite(void)
{
	Suite *s = suite_create("scenario");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_parse_size_accepts);
	tcase_add_test(tc, test_parse_size_rejects);
	tcase_add_test(tc, test_parse_time);
	suite_add_tcase(s, tc);

	tc = tcase_create("load");
	tcase_add_test(tc, test_quickstart_loads);
	tcase_add_test(tc, test_set_overrides);
	tcase_add_test(tc, test_scale_sizes_and_ops_only);
	tcase_add_test(tc, test_scale_applies_to_set_values);
	tcase_add_test(tc, test_scale_default_from_file);
	tcase_add_test(tc, test_scale_recorded);
	tcase_add_test(tc, test_base_file_loads);
	suite_add_tcase(s, tc);

	tc = tcase_create("bad_input");
	tcase_add_test(tc, test_bad_unknown_key);
	tcase_add_test(tc, test_sysctl);
	tcase_add_test(tc, test_memcg_kernel_names);
	tcase_add_test(tc, test_sysctl_vm_knobs);
	tcase_add_test(tc, test_lru_gen_knobs);
	tcase_add_test(tc, test_machine_kernel);
	tcase_add_test(tc, test_debugfs_and_zram_names);
	tcase_add_test(tc, test_workload_advice);
	tcase_add_test(tc, test_unknown_key_suggests);
	tcase_add_test(tc, test_sections_documented);
	tcase_add_test(tc, test_bad_unknown_section);
	tcase_add_test(tc, test_bad_key_before_any_section);
	tcase_add_test(tc, test_bad_size_banana);
	tcase_add_test(tc, test_bad_int);
	tcase_add_test(tc, test_bad_memcg_parent_undeclared);
	tcase_add_test(tc, test_bad_workload_memcg_unknown);
	tcase_add_test(tc, test_bad_workload_device_unknown);
	tcase_add_test(tc, test_bad_workload_node_missing);
	tcase_add_test(tc, test_bad_garbage_line);
	tcase_add_test(tc, test_bad_missing_file);
	tcase_add_test(tc, test_bad_set_value_names_key);
	tcase_add_test(tc, test_bad_set_unknown_key_and_form);
	tcase_add_test(tc, test_bad_limit_too_small_after_scale);
	suite_add_tcase(s, tc);

	tc = tcase_create("robust");
	tcase_set_timeout(tc, 30);	/* a loaded host: the many-keys file is 4.6 MB */
	tcase_add_test(tc, test_long_comment_is_a_comment);
	tcase_add_test(tc, test_long_line_means_the_short_one);
	tcase_add_test(tc, test_long_values_are_whole);
	tcase_add_test(tc, test_long_names_kept_or_refused);
	tcase_add_test(tc, test_repeated_keys_and_sections);
	tcase_add_test(tc, test_node_section_beyond_the_machine);
	tcase_add_test(tc, test_line_syntax_edges);
	tcase_add_test(tc, test_empty_section_declares);
	tcase_add_test(tc, test_sizes_beyond_the_model);
	tcase_add_test(tc, test_chrome_group_names_clash);
	tcase_add_test(tc, test_many_keys_one_pass);
	tcase_add_test(tc, test_psi_agent_trigger_limits);
	tcase_add_test(tc, test_psi_agent_min_size_scales);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(scenario_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
