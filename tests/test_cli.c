/* SPDX-License-Identifier: GPL-2.0-only */
/* The mmemu command line ($MMEMU): determinism, formats, exit status and messages. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <pty.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "tests/cli.h"

/* The text is one JSON object (libjansson parses it whole). */
static bool json_valid(const char *s)
{
	json_error_t e;
	json_t *j = json_loads(s, 0, &e);
	bool ok = json_is_object(j);

	json_decref(j);
	return ok;
}

START_TEST(test_json_deterministic)
{
	const char *args[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32", NULL };
	struct cli_out a = cli_run(args), b = cli_run(args);

	ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
	ck_assert_msg(b.status == 0, "status %d: %s", b.status, b.err);
	ck_assert(json_valid(a.out));
	ck_assert_ptr_nonnull(strstr(a.out, "\"schema_version\": 2"));
	ck_assert_ptr_nonnull(strstr(a.out, "\"host_seconds\""));
	ck_assert_ptr_nonnull(strstr(a.out, "\"policy\": \"classic\""));
	ck_assert_ptr_nonnull(strstr(a.out, "\"workingset_refault_file\""));
	cli_strip_host_seconds(a.out);
	cli_strip_host_seconds(b.out);
	ck_assert_msg(strcmp(a.out, b.out) == 0, "two runs with the same seed differ");
	cli_out_free(&a);
	cli_out_free(&b);
}
END_TEST

/*
 * The release a run emulates is in its result: JSON's "kernel", the text
 * header, and the saved file (mmemu report prints it again); a policy the
 * named release did not have ends with status 2 naming the key.
 */
START_TEST(test_kernel_recorded)
{
	char *pb = cli_temp_file(".pb");
	const char *json[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/64",
			       "--policy", "classic", "--set", "machine.kernel=6.6", NULL };
	const char *dflt[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/64",
			       "--policy", "classic", NULL };
	const char *saved[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy", "classic",
				"--set", "machine.kernel=6.1", "--out", pb, NULL };
	const char *report[] = { "report", pb, NULL };
	const char *refused[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy",
				  "mglru-budget", "--set", "machine.kernel=6.1", NULL };
	struct cli_out o = cli_run(json);

	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, "\"kernel\": \"6.6\""), "no kernel 6.6 in: %.300s", o.out);
	cli_out_free(&o);
	o = cli_run(dflt);
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, "\"kernel\": \"7.2\""), "no kernel 7.2 in: %.300s", o.out);
	cli_out_free(&o);
	o = cli_run(saved);
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, ", kernel 6.1 ("), "text header: %.200s", o.out);
	cli_out_free(&o);
	o = cli_run(report);
	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_msg(strstr(o.out, ", kernel 6.1 ("), "saved file's header: %.200s", o.out);
	cli_out_free(&o);
	o = cli_run(refused);
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "kernel") && strstr(o.err, "mglru-budget"), "%s", o.err);
	cli_out_free(&o);
	cli_remove_temp(pb);
}
END_TEST

START_TEST(test_other_seed_differs)
{
	const char *args1[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32",
				"--policy", "classic", NULL };
	const char *args2[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32",
				"--policy", "classic", "--seed", "2", NULL };
	struct cli_out a = cli_run(args1), b = cli_run(args2);

	ck_assert_msg(a.status == 0, "%s", a.err);
	ck_assert_msg(b.status == 0, "%s", b.err);
	ck_assert_ptr_nonnull(strstr(b.out, "\"seed\": 2"));
	cli_strip_host_seconds(a.out);
	cli_strip_host_seconds(b.out);
	ck_assert_str_ne(a.out, b.out);
	cli_out_free(&a);
	cli_out_free(&b);
}
END_TEST

START_TEST(test_json_reports_scale_used)
{
	const char *args[] = { "run", cli_quickstart(), "--format", "json", "--scale", "1/32",
			       "--policy", "classic", NULL };
	struct cli_out a = cli_run(args);

	ck_assert_msg(a.status == 0, "%s", a.err);
	/* the sizes were divided by 32; the report must say so */
	ck_assert_msg(strstr(a.out, "\"scale\": 0.03125"), "scale line: %.80s", a.out);
	cli_out_free(&a);
}
END_TEST

START_TEST(test_text_and_csv)
{
	const char *text_args[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", "classic",
				    NULL };
	const char *csv_args[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", "classic",
				   "--format", "csv", NULL };
	struct cli_out t = cli_run(text_args), c = cli_run(csv_args);

	ck_assert_msg(t.status == 0, "%s", t.err);
	ck_assert_ptr_nonnull(strstr(t.out, "quickstart"));
	ck_assert_ptr_nonnull(strstr(t.out, "pgscan"));
	ck_assert_ptr_nonnull(strstr(t.out, "classic"));
	ck_assert_msg(c.status == 0, "%s", c.err);
	ck_assert_msg(!strncmp(c.out, "scenario,scale,policy,options,seed,group,key,value\n", 51),
		      "%.80s", c.out);
	ck_assert_ptr_nonnull(strstr(c.out, ",classic,,1,vmstat,pgpgin,"));
	cli_out_free(&t);
	cli_out_free(&c);
}
END_TEST

START_TEST(test_bad_set_value_exit_2)
{
	const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", "--set",
			       "memcg.app.max=banana", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "max") && strstr(o.err, "banana"), "stderr: %s", o.err);
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);
}
END_TEST

/* The kernel's names: a bad value, a retired key and a typo each exit 2, named. */
START_TEST(test_bad_kernel_knob_exit_2)
{
	static const struct {
		const char *set, *want, *also;
	} cases[] = {
		{ "vm.page-cluster=99", "vm.page-cluster", "99" },
		{ "memcg.app.memory.oom.group=2", "memory.oom.group", "'2'" },
		{ "mglru.enabled=0x0003", "enabled", "non-leaf" },
		{ "mglru.min_ttl=1000", "min_ttl", "min_ttl_ms" },
		{ "vm.swapiness=1", "vm.swapiness", "did you mean 'vm.swappiness'" },
		{ "debugfs.fault_around_bytes=8M", "fault_around_bytes", "2M" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", "--set",
				       cases[i].set, NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 2, "--set %s: status %d", cases[i].set, o.status);
		ck_assert_msg(strstr(o.err, cases[i].want) && strstr(o.err, cases[i].also) &&
			      strstr(o.err, "quickstart.ini"), "--set %s: stderr: %s", cases[i].set,
			      o.err);
		ck_assert_str_eq(o.out, "");
		cli_out_free(&o);
	}
}
END_TEST

START_TEST(test_unknown_policy_exit_2)
{
	const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", "classic,lru-k",
			       NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "lru-k"), "stderr: %s", o.err);
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);
}
END_TEST

START_TEST(test_missing_scenario_exit_2)
{
	const char *args[] = { "run", "/nonexistent/nothing.ini", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "/nonexistent/nothing.ini"), "stderr: %s", o.err);
	cli_out_free(&o);
}
END_TEST

/*
 * plot and view parse from the option table (tools/options.c) with getopt's
 * messages as before: the first line of stderr, then the usage, status 2.
 */
START_TEST(test_plot_view_bad_options)
{
	static const struct {
		const char *args[4];
		const char *first;	/* stderr's first line */
	} cases[] = {
		{ { "plot", "--f", "x.pb" },
		  "plot: option '--f' is ambiguous; possibilities: '--from' '--force'\n" },
		{ { "plot", "--bogus", "x.pb" }, "plot: unrecognized option '--bogus'\n" },
		{ { "plot", "x.pb", "-w" }, "plot: option requires an argument -- 'w'\n" },
		{ { "plot", "--force=1", "x.pb" },
		  "plot: option '--force' doesn't allow an argument\n" },
		{ { "view", "--o" }, "view: option '--output' requires an argument\n" },
		{ { "view", "-x", "a.pb" }, "view: invalid option -- 'x'\n" },
		{ { "view", "--out=a.html" }, "mmemu: view: no saved results given\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cli_out o = cli_run(cases[i].args);

		ck_assert_int_eq(o.status, 2);
		ck_assert_msg(!strncmp(o.err, cases[i].first, strlen(cases[i].first)) &&
			      strstr(o.err, "usage: mmemu "), "%s %s: stderr: %s",
			      cases[i].args[0], cases[i].args[1], o.err);
		ck_assert_str_eq(o.out, "");
		cli_out_free(&o);
	}
}
END_TEST

/* The first line git prints for args in the source tree, "" without git or a repository. */
static void git_line(const char *args, char *out, size_t len)
{
	char cmd[4200];
	FILE *p;

	snprintf(cmd, sizeof(cmd), "git -C '%s' %s 2>/dev/null", harness_srcdir(), args);
	out[0] = '\0';
	p = popen(cmd, "r");
	if (!p)
		return;
	if (!fgets(out, (int)len, p))
		out[0] = '\0';
	pclose(p);
	out[strcspn(out, "\n")] = '\0';
}

/*
 * A saved result names the commit mmemu was built from, and whether the tree
 * had uncommitted changes (meson's vcs_tag): mmemu_version is --version's.
 */
START_TEST(test_results_record_commit)
{
	const char *run[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy", "classic",
			      "--format", "json", NULL };
	const char *ver[] = { "--version", NULL };
	struct cli_out o = cli_run(run), v = cli_run(ver);
	char head[128], dirty[128], want[512];
	json_error_t e;
	json_t *j;
	const char *saved;

	ck_assert_msg(o.status == 0, "%s", o.err);
	j = json_loads(o.out, 0, &e);
	ck_assert_msg(j, "%s", e.text);
	saved = json_string_value(json_object_get(j, "mmemu_version"));
	ck_assert_ptr_nonnull(saved);
	snprintf(want, sizeof(want), "mmemu %s\n", saved);
	ck_assert_msg(!strncmp(v.out, want, strlen(want)), "--version '%s', saved '%s'", v.out, saved);
	git_line("rev-parse --short=12 HEAD", head, sizeof(head));
	if (head[0]) {	/* built from a git tree: its commit, dirty or not */
		git_line("status --porcelain --untracked-files=no", dirty, sizeof(dirty));
		snprintf(want, sizeof(want), ", git %s%s", head, dirty[0] ? ", dirty" : "");
		ck_assert_msg(strlen(saved) > strlen(want) &&
			      !strcmp(saved + strlen(saved) - strlen(want), want),
			      "saved '%s', expected it to end in '%s'", saved, want);
	} else {
		ck_assert_ptr_null(strstr(saved, "git"));
	}
	json_decref(j);
	cli_out_free(&o);
	cli_out_free(&v);
}
END_TEST

/* --seeds past the limit says the limit, in run and in sweep */
START_TEST(test_seeds_limit_stated)
{
	const char *run[] = { "run", cli_quickstart(), "--seeds", "1..1001", NULL };
	const char *sweep[] = { "sweep", cli_quickstart(), "--seeds", "1..100001", NULL };
	struct cli_out r = cli_run(run), w = cli_run(sweep);

	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--seeds '1..1001'") && strstr(r.err, "at most 1000 seeds"),
		      "%s", r.err);
	ck_assert_int_eq(w.status, 2);
	ck_assert_msg(strstr(w.err, "--seeds '1..100001'") && strstr(w.err, "at most 100000 seeds"),
		      "%s", w.err);
	cli_out_free(&r);
	cli_out_free(&w);
}
END_TEST

START_TEST(test_bad_options_exit_2)
{
	static const char *const bad[][8] = {
		{ "run", NULL },
		{ "run", "--format", "xml", "X", NULL },
		{ "run", "--scale", "2", "X", NULL },
		{ "run", "--scale", "1/0", "X", NULL },
		{ "run", "--seed", "-1", "X", NULL },
		{ "run", "--seed", "lots", "X", NULL },
		{ "run", "--no-such-option", "X", NULL },
		/* the whole value or nothing (issue 13.6) */
		{ "run", "--scale", "1abc/2", "X", NULL },
		{ "run", "--scale", "1/2x", "X", NULL },
		{ "run", "--scale", "1/", "X", NULL },
		{ "run", "--scale", "nan", "X", NULL },
		{ "run", "--scale", " 0.5", "X", NULL },
		{ "run", "-j", "2x", "X", NULL },
		{ "run", "-j", "4294967298", "X", NULL },
		{ "run", "-j", "0", "X", NULL },
		{ "run", "--seeds", "3..1", "X", NULL },
		{ "run", "--seeds", "1,,2", "X", NULL },
		{ "run", "--seed", "1", "--seeds", "1..2", "X", NULL },
		{ "sweep", "--scale", "1abc/2", "X", NULL },
		{ "sweep", "-j", "2x", "X", NULL },
		{ "report", "--no-such-option", "X", NULL },
		{ "list", "nothing", NULL },
		{ "bench", "--format", "csv", NULL },
		{ "frobnicate", NULL },
		{ NULL },	/* no command at all */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[8];
		struct cli_out o;
		int n;

		for (n = 0; bad[i][n]; n++)
			args[n] = !strcmp(bad[i][n], "X") ? cli_quickstart() : bad[i][n];
		args[n] = NULL;
		o = cli_run(args);
		ck_assert_msg(o.status == 2, "case %zu (%s %s): status %d", i,
			      bad[i][0] ? bad[i][0] : "-", bad[i][0] && bad[i][1] ? bad[i][1] : "-",
			      o.status);
		ck_assert_msg(*o.err, "case %zu: nothing on stderr", i);
		cli_out_free(&o);
	}
}
END_TEST

/*
 * tools/reproduce on one experiment (A4, a few seconds): it runs the
 * policies, writes the report with the published claims and mmemu's
 * outcome per claim, and an unknown experiment exits with status 2.
 */
static char *read_all(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
	fclose(f);
	return buf;
}

START_TEST(test_reproduce_writes_report)
{
	char script[512], results[] = "/tmp/mmemu-repro-XXXXXX", *report = cli_temp_file(".md");
	const char *argv_ok[] = { script, "--only", "A4", "--mmemu", cli_mmemu(), "--results",
				  results, "--out", report, NULL };
	const char *argv_bad[] = { script, "--only", "Z9", "--out", report, NULL };
	char *out = NULL, *err = NULL, *text;
	int rc;

	snprintf(script, sizeof(script), "%s/tools/reproduce", harness_srcdir());
	ck_assert_ptr_nonnull(mkdtemp(results));
	rc = harness_exec(argv_ok, &out, &err);
	ck_assert_msg(rc == 0, "reproduce exited %d: %s", rc, err);
	text = read_all(report);
	ck_assert_ptr_nonnull(strstr(text, "## A4. Throttling OOM"));
	ck_assert_ptr_nonnull(strstr(text, "| A4 | mglru-old OOM-kills the writer | event |"));
	ck_assert_ptr_nonnull(strstr(text, "mmemu run scenarios/dd-throttle.ini --policy mglru-old"));
	free(text);
	free(out);
	free(err);
	rc = harness_exec(argv_bad, &out, &err);
	ck_assert_int_eq(rc, 2);
	ck_assert_ptr_nonnull(strstr(err, "Z9"));
	free(out);
	free(err);
	/* --only without --out writes beside its results, never the tracked report */
	{
		char tracked[600], mine[600];
		const char *argv_default[] = { script, "--only", "A4", "--render-only", "--results",
					       results, NULL };
		const char *argv_tracked[] = { script, "--only", "A4", "--render-only", "--results",
					       results, "--out", tracked, NULL };
		struct stat before, after;

		snprintf(tracked, sizeof(tracked), "%s/scenarios/REPRODUCTION.md", harness_srcdir());
		snprintf(mine, sizeof(mine), "%s/REPRODUCTION.md", results);
		ck_assert_int_eq(stat(tracked, &before), 0);
		rc = harness_exec(argv_default, &out, &err);
		ck_assert_msg(rc == 0, "reproduce --only: %d: %s", rc, err);
		text = read_all(mine);
		ck_assert_ptr_nonnull(strstr(text, "## A4. Throttling OOM"));
		free(text);
		free(out);
		free(err);
		rc = harness_exec(argv_tracked, &out, &err);
		ck_assert_int_eq(rc, 2);
		ck_assert_msg(strstr(err, "would replace"), "stderr: %s", err);
		ck_assert_int_eq(stat(tracked, &after), 0);
		ck_assert(before.st_mtim.tv_sec == after.st_mtim.tv_sec &&
			  before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
		free(out);
		free(err);
		unlink(mine);
		snprintf(mine, sizeof(mine), "%s/commit", results);
		unlink(mine);
		snprintf(mine, sizeof(mine), "%s/plan", results);	/* its mmemu batch's */
		ck_assert_int_eq(unlink(mine), 0);
	}
	cli_remove_temp(report);
	/* one JSON per run: label, scale (dd-throttle's default is full), seed 1..3 */
	for (int i = 0; i < 9; i++) {
		static const char *const labels[] = { "classic", "before", "after" };
		char path[600];

		snprintf(path, sizeof(path), "%s/A4.%s.full.s%d.json", results, labels[i % 3],
			 i / 3 + 1);
		ck_assert_msg(unlink(path) == 0, "%s: %s", path, strerror(errno));
	}
	ck_assert_int_eq(rmdir(results), 0);
}
END_TEST

START_TEST(test_list)
{
	const char *args[] = { "list", NULL };
	const char *help[] = { "--help", NULL };
	struct cli_out o = cli_run(args), h = cli_run(help);

	ck_assert_int_eq(o.status, 0);
	ck_assert_ptr_nonnull(strstr(o.out, "classic"));
	for (int i = 0; reclaim_policies[i]; i++)
		ck_assert_msg(strstr(o.out, reclaim_policies[i]->name), "list misses %s",
			      reclaim_policies[i]->name);
	ck_assert_ptr_nonnull(strstr(o.out, "file-zipf"));
	/* every device model of storage/, hdd and ramdisk too */
	for (int t = 0; t < NR_BDEV_TYPES; t++) {
		char line[64];

		snprintf(line, sizeof(line), "  %s\n", bdev_type_name((enum bdev_type)t));
		ck_assert_msg(strstr(o.out, line), "list misses device type %s", line);
	}
	/* the sections with their keys under the kernel's names */
	ck_assert_ptr_nonnull(strstr(o.out, "  [memcg.NAME]"));
	ck_assert_ptr_nonnull(strstr(o.out, "    memory.oom.group "));
	ck_assert_ptr_nonnull(strstr(o.out, "    vm.page-cluster "));
	ck_assert_ptr_nonnull(strstr(o.out, "    min_ttl_ms "));
	ck_assert_int_eq(h.status, 0);
	ck_assert_ptr_nonnull(strstr(h.out, "usage"));
	cli_out_free(&o);
	cli_out_free(&h);
}
END_TEST

/* `mmemu list sections`: every knob as --set takes it, one per line. */
START_TEST(test_list_sections)
{
	const char *args[] = { "list", "sections", NULL };
	struct cli_out o = cli_run(args);

	ck_assert_int_eq(o.status, 0);
	ck_assert_ptr_nonnull(strstr(o.out, "\nmemcg.NAME.memory.max\n"));
	ck_assert_ptr_nonnull(strstr(o.out, "\nvm.swappiness\n"));
	ck_assert_ptr_nonnull(strstr(o.out, "\ndebugfs.fault_around_bytes\n"));
	ck_assert_ptr_nonnull(strstr(o.out, "\nswap.comp_algorithm\n"));
	ck_assert_ptr_nonnull(strstr(o.out, "\nmglru.enabled\n"));
	ck_assert_ptr_null(strstr(o.out, " "));
	cli_out_free(&o);
}
END_TEST

/* `mmemu list devices`: the table's names, one per line, nothing else. */
START_TEST(test_list_one_table)
{
	const char *args[] = { "list", "devices", NULL };
	struct cli_out o = cli_run(args);
	char want[256] = "";

	ck_assert_int_eq(o.status, 0);
	for (int t = 0; t < NR_BDEV_TYPES; t++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n",
			 bdev_type_name((enum bdev_type)t));
	ck_assert_str_eq(o.out, want);
	ck_assert_ptr_nonnull(strstr(o.out, "hdd\n"));
	ck_assert_ptr_nonnull(strstr(o.out, "ramdisk\n"));
	cli_out_free(&o);
}
END_TEST

/* --version; each command's own --help, exit 0, not the global text. */
START_TEST(test_version_and_help)
{
	static const char *const cmds[] = { "run", "report", "sweep", "plot", "list", "bench",
					    "ablate", "fuzz" };
	const char *version[] = { "--version", NULL };
	const char *global[] = { "--help", NULL };
	struct cli_out v = cli_run(version), g = cli_run(global);

	ck_assert_int_eq(v.status, 0);
	ck_assert_msg(!strncmp(v.out, "mmemu 0.", 8), "--version: %s", v.out);
	ck_assert_int_eq(g.status, 0);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		const char *args[] = { cmds[i], "--help", NULL };
		const char *help_args[] = { "help", cmds[i], NULL };
		struct cli_out o = cli_run(args), h = cli_run(help_args);
		char head[64];

		snprintf(head, sizeof(head), "usage: mmemu %s", cmds[i]);
		ck_assert_msg(o.status == 0, "%s --help: status %d", cmds[i], o.status);
		ck_assert_msg(!strncmp(o.out, head, strlen(head)), "%s --help: %.80s", cmds[i], o.out);
		ck_assert_str_ne(o.out, g.out);
		ck_assert_msg(strstr(g.out, head), "--help lacks %s", head);
		ck_assert_int_eq(h.status, 0);
		ck_assert_str_eq(h.out, o.out);
		cli_out_free(&o);
		cli_out_free(&h);
	}
	cli_out_free(&v);
	cli_out_free(&g);
}
END_TEST

/* mmemu(1), built from the same help text and key tables: every command, option and section. */
START_TEST(test_man_page)
{
	char path[4096], *text;
	const char *exe = cli_mmemu();

	snprintf(path, sizeof(path), "%.*s/mmemu.1", (int)(strrchr(exe, '/') - exe), exe);
	text = read_all(path);
	ck_assert_ptr_nonnull(strstr(text, ".TH \"mmemu\" \"1\""));
	ck_assert_ptr_nonnull(strstr(text, "mmemu run"));
	ck_assert_ptr_nonnull(strstr(text, "mmemu sweep"));
	ck_assert_ptr_nonnull(strstr(text, "--seeds"));
	ck_assert_ptr_nonnull(strstr(text, "--trace-format"));
	/* the sections' keys, from their tables: [mglru]'s from the MGLRU policies' knobs */
	ck_assert_ptr_nonnull(strstr(text, "SCENARIO SECTIONS"));
	ck_assert_ptr_nonnull(strstr(text, "[mglru]"));
	ck_assert_ptr_nonnull(strstr(text, "look_around\\fR\n.RS 4\nablation: eviction looks around"));
	ck_assert_ptr_nonnull(strstr(text, "lru_gen/min_ttl_ms: OOM-kill"));
	free(text);
}
END_TEST

/* The bash completion completes commands, options and policies from mmemu itself. */
START_TEST(test_bash_completion)
{
	char script[8192];
	const char *argv[] = { "/bin/bash", "-c", script, NULL };
	char *out = NULL, *err = NULL;
	int rc;

	snprintf(script, sizeof(script),
		 "source '%s/tools/mmemu.bash-completion' || exit 3\n"
		 "t() { COMP_WORDS=(\"$@\"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _mmemu;"
		 " echo \"${COMPREPLY[*]}\"; }\n"
		 "t '%s' ''\n"
		 "t '%s' run --po\n"
		 "t '%s' run --policy classic,mglru-b\n"
		 "t '%s' plot --what ''\n"
		 "t '%s' bench --trace-f\n"
		 "t '%s' run x.ini --set vm.page\n"
		 "t '%s' view x.pb --outp\n"
		 "t '%s' fuzz --shr\n",
		 harness_srcdir(), cli_mmemu(), cli_mmemu(), cli_mmemu(), cli_mmemu(), cli_mmemu(),
		 cli_mmemu(), cli_mmemu(), cli_mmemu());
	rc = harness_exec(argv, &out, &err);
	ck_assert_msg(rc == 0, "bash: %d: %s", rc, err);
	ck_assert_msg(strstr(out, "run report sweep ablate fuzz view plot list bench check-policy batch --help --version\n"), "%s", out);
	ck_assert_msg(strstr(out, "\n--policy\n"), "%s", out);
	ck_assert_msg(strstr(out, "\nclassic,mglru-budget\n"), "%s", out);
	ck_assert_msg(strstr(out, "\ngens memory throughput refaults swap pressure\n"), "%s", out);
	ck_assert_msg(strstr(out, "\n--trace-format\n"), "%s", out);
	ck_assert_msg(strstr(out, "\nvm.page-cluster=\n"), "%s", out);
	ck_assert_msg(strstr(out, "\n--output\n"), "%s", out);
	ck_assert_msg(strstr(out, "\n--shrink-time\n"), "%s", out);
	free(out);
	free(err);
}
END_TEST

/* bench --help exits 0; its trace format is --trace-format, --format is refused by name. */
START_TEST(test_bench_options)
{
	const char *help[] = { "bench", "--help", NULL };
	const char *old[] = { "bench", "--trace", "x", "--format", "csv", NULL };
	struct cli_out h = cli_run(help), o = cli_run(old);

	ck_assert_int_eq(h.status, 0);
	ck_assert_ptr_nonnull(strstr(h.out, "--trace-format"));
	ck_assert_int_eq(o.status, 2);
	ck_assert_msg(strstr(o.err, "--trace-format"), "stderr: %s", o.err);
	cli_out_free(&h);
	cli_out_free(&o);
}
END_TEST

/* A pipe or FIFO as the scenario is read to its end (run); sweep says why it cannot. */
START_TEST(test_fifo_scenario)
{
	char dir[] = "/tmp/mmemu-fifo-XXXXXX", fifo[64], *text = read_all(cli_quickstart());
	const char *run_args[] = { "run", fifo, "--scale", "1/64", "--policy", "classic", NULL };
	const char *sweep_args[] = { "sweep", fifo, "--scale", "1/64", NULL };
	const char *dir_args[] = { "run", dir, NULL };
	struct cli_out o, w, d;
	pid_t pid;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(fifo, sizeof(fifo), "%s/q.ini", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		FILE *f = fopen(fifo, "w");

		/* in pieces, as a pipe delivers them */
		for (size_t i = 0; f && i < strlen(text); i += 100) {
			fprintf(f, "%.100s", text + i);
			fflush(f);
			usleep(1000);
		}
		_exit(f && !fclose(f) ? 0 : 1);
	}
	o = cli_run(run_args);
	waitpid(pid, NULL, 0);
	ck_assert_msg(o.status == 0, "run of a FIFO: %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "scenario q, scale 1/64"));
	w = cli_run(sweep_args);
	ck_assert_int_eq(w.status, 2);
	ck_assert_msg(strstr(w.err, fifo) && strstr(w.err, "not a regular file"), "stderr: %s",
		      w.err);
	d = cli_run(dir_args);
	ck_assert_int_eq(d.status, 2);
	ck_assert_msg(strstr(d.err, "Is a directory"), "stderr: %s", d.err);
	unlink(fifo);
	rmdir(dir);
	free(text);
	cli_out_free(&o);
	cli_out_free(&w);
	cli_out_free(&d);
}
END_TEST

/*
 * On a terminal, run draws its progress (percent done, ETA) on stderr; the
 * table on stdout has none of it. (Off a terminal stderr stays empty: the
 * report round-trip tests check that.)
 */
START_TEST(test_progress_on_a_terminal)
{
	char *out_path = cli_temp_file(".txt"), *out, buf[4096];
	size_t len = 0, cap = 1 << 16;
	char *tty = malloc(cap);
	int master, status;
	pid_t pid;

	ck_assert_ptr_nonnull(tty);
	fflush(NULL);
	pid = forkpty(&master, NULL, NULL, NULL);
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = open(out_path, O_WRONLY | O_TRUNC);

		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execl(cli_mmemu(), "mmemu", "run", cli_quickstart(), "--scale", "1/16", "--policy",
		      "classic,mglru-budget", "-j", "1", (char *)NULL);
		_exit(127);
	}
	for (;;) {
		ssize_t n = read(master, buf, sizeof(buf));

		if (n <= 0)
			break;	/* EIO once the terminal's other end is closed */
		if (len + (size_t)n + 1 > cap) {
			tty = realloc(tty, cap *= 2);
			ck_assert_ptr_nonnull(tty);
		}
		memcpy(tty + len, buf, (size_t)n);
		len += (size_t)n;
	}
	tty[len] = '\0';
	close(master);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d: %s", status, tty);
	ck_assert_msg(strstr(tty, "[run ") && strstr(tty, "% done, ETA "), "terminal: %.500s", tty);
	ck_assert_msg(strstr(tty, "classic ") || strstr(tty, "mglru-budget "), "%.500s", tty);
	out = read_all(out_path);
	ck_assert_ptr_nonnull(strstr(out, "scenario quickstart, scale 1/16"));
	ck_assert_msg(!strchr(out, '\r') && !strstr(out, "ETA") && !strstr(out, "[run"),
		      "progress on stdout: %.300s", out);
	free(out);
	free(tty);
	cli_remove_temp(out_path);
}
END_TEST

/*
 * mmemu ablate at a small scale: a column per mechanism removed and one with
 * all removed, each against the kernel's; removing them all changes some
 * headline row significantly. A policy without the mechanisms and --set
 * are refused with status 2.
 */
START_TEST(test_ablate)
{
	static const char *const names[] = { "none", "walk", "look_around", "bloom_filter",
					     "tiers", "memcg_lru", "all" };
	const char *args[] = { "ablate", cli_quickstart(), "--policy", "mglru-7.2", "--scale",
			       "1/64", "--seeds", "1..2", "-j", "2", NULL };
	const char *classic[] = { "ablate", cli_quickstart(), "--policy", "classic", NULL };
	const char *set[] = { "ablate", cli_quickstart(), "--policy", "mglru-old", "--set",
			      "mglru.walk=0", NULL };
	struct cli_out o = cli_run(args), c = cli_run(classic), t = cli_run(set);
	const char *removed;

	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	ck_assert_ptr_nonnull(strstr(o.out, "14 runs in 7 groups"));
	removed = strstr(o.out, "\nremoved ");
	ck_assert_ptr_nonnull(removed);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		ck_assert_msg(strstr(removed, names[i]), "no column for %s", names[i]);
	ck_assert_ptr_nonnull(strstr(o.out, "mglru-7.2 mglru.tiers=0: seeds 1,2"));
	ck_assert_msg(strstr(o.out, "%*"), "removing every mechanism changed nothing:\n%s", o.out);
	ck_assert_int_eq(c.status, 2);
	ck_assert_ptr_nonnull(strstr(c.err, "'classic'"));
	ck_assert_int_eq(t.status, 2);
	ck_assert_ptr_nonnull(strstr(t.err, "--set"));
	cli_out_free(&o);
	cli_out_free(&c);
	cli_out_free(&t);
}
END_TEST

static Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("run");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_seeds_limit_stated);
	tcase_add_test(tc, test_results_record_commit);
	tcase_add_test(tc, test_json_deterministic);
	tcase_add_test(tc, test_other_seed_differs);
	tcase_add_test(tc, test_kernel_recorded);
	tcase_add_test(tc, test_json_reports_scale_used);
	tcase_add_test(tc, test_text_and_csv);
	tcase_add_test(tc, test_ablate);
	suite_add_tcase(s, tc);

	tc = tcase_create("errors");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_bad_set_value_exit_2);
	tcase_add_test(tc, test_bad_kernel_knob_exit_2);
	tcase_add_test(tc, test_unknown_policy_exit_2);
	tcase_add_test(tc, test_missing_scenario_exit_2);
	tcase_add_test(tc, test_bad_options_exit_2);
	tcase_add_test(tc, test_plot_view_bad_options);
	tcase_add_test(tc, test_list);
	tcase_add_test(tc, test_list_one_table);
	tcase_add_test(tc, test_list_sections);
	tcase_add_test(tc, test_version_and_help);
	tcase_add_test(tc, test_man_page);
	tcase_add_test(tc, test_bash_completion);
	tcase_add_test(tc, test_bench_options);
	tcase_add_test(tc, test_fifo_scenario);
	tcase_add_test(tc, test_progress_on_a_terminal);
	suite_add_tcase(s, tc);

	/* three simulations of dd-throttle at its default scale */
	tc = tcase_create("reproduce");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_reproduce_writes_report);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cli_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
