/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policies from shared objects (issue 14): the S3-FIFO example beside a
 * built-in policy, each loader refusal (exit 2, the path and the reason),
 * the result's record of the file, and check-policy passing the example
 * and failing its broken copy.
 */
#include <check.h>
#include <errno.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "tests/cli.h"
#include "models/policy.h"
#include "models/policy/loader.h"

#define SO(name) POLICY_DIR "/" name ".so"

static void assert_has(const char *hay, const char *needle)
{
	ck_assert_msg(hay && strstr(hay, needle), "'%s' not in:\n%s", needle, hay ? hay : "(null)");
}

START_TEST(test_sha256_vectors)
{
	/* FIPS 180-4 examples, and the empty string */
	static const struct { const char *in, *hex; } v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
	};
	char out[65];

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		sha256_hex(v[i].in, strlen(v[i].in), out);
		ck_assert_str_eq(out, v[i].hex);
	}
}
END_TEST

START_TEST(test_arg_is_file)
{
	ck_assert(reclaim_policy_arg_is_file("./x.so"));
	ck_assert(reclaim_policy_arg_is_file("x.so"));
	ck_assert(reclaim_policy_arg_is_file("dir/policy"));
	ck_assert(!reclaim_policy_arg_is_file("classic"));
	ck_assert(!reclaim_policy_arg_is_file("mglru-7.2"));
	ck_assert(!reclaim_policy_arg_is_file(".so"));
}
END_TEST

/* The example beside mglru-budget; the saved result names its file and hash. */
START_TEST(test_run_side_by_side)
{
	const char *args[] = { "run", cli_quickstart(), "--scale", "1/32", "--format", "json",
			       "--policy", "mglru-budget," SO("s3fifo"), NULL };
	const char *text[] = { "run", cli_quickstart(), "--scale", "1/32",
			       "--policy", "mglru-budget," SO("s3fifo"), NULL };
	struct cli_out o = cli_run(args), t;
	char *real = realpath(SO("s3fifo"), NULL), want[4200];

	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	assert_has(o.out, "\"policy\": \"mglru-budget\"");
	assert_has(o.out, "\"policy\": \"" SO("s3fifo") "\"");
	ck_assert_ptr_nonnull(real);
	snprintf(want, sizeof(want), "\"policy_file\": \"%s\"", real);
	assert_has(o.out, want);
	assert_has(o.out, "\"policy_sha256\": \"");
	/* the built-in run has no file */
	ck_assert_ptr_eq(strstr(o.out, "\"policy_file\""), strstr(o.out, want));
	/* S3-FIFO promotes to M (active) and sees refaults through its ghost */
	assert_has(o.out, "\"workingset_refault_file\"");
	t = cli_run(text);
	ck_assert_msg(t.status == 0, "status %d: %s", t.status, t.err);
	/* the column is headed by the policy's own name; the line under the table names the file */
	assert_has(o.out, "\"policy_name\": \"s3fifo\"");
	assert_has(t.out, "\npolicy                      mglru-budget   s3fifo  change\n");
	snprintf(want, sizeof(want), "policy s3fifo: %s (%s, sha256 ", SO("s3fifo"), real);
	assert_has(t.out, want);
	free(real);
	cli_out_free(&o);
	cli_out_free(&t);
}
END_TEST

static void assert_refused(const char *const *args, const char *path, const char *reason)
{
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 2, "status %d for %s: %s", o.status, path, o.err);
	assert_has(o.err, path);
	assert_has(o.err, reason);
	cli_out_free(&o);
}

START_TEST(test_load_errors_exit_2)
{
	static const struct { const char *so, *reason; } bad[] = {
		{ POLICY_DIR "/none.so", "No such file or directory" },
		{ SO("bad-no-symbol"), "no symbol 'mmemu_policy'" },
		{ SO("bad-abi"), "built against policy ABI 999, this mmemu has ABI 4" },
		/* a plug-in of ABI 1 (before policies had knobs) */
		{ SO("bad-abi1"), "built against policy ABI 1, this mmemu has ABI 4" },
		/* knobs the parser could not trust */
		{ SO("bad-knobs"), "[bad] x: not a key mmemu can read" },
		{ SO("bad-knobs-section"), "its knobs' section [mglru] is another policy's" },
		{ SO("bad-init"), "its lruvec_init failed" },
		{ SO("bad-no-op"), "no shrink_lruvec op" },
		/* crashes in the probe's child, named, not mmemu's SIGSEGV (exit 139) */
		{ SO("bad-crash"), "killed the process with SIGSEGV" },
		{ SO("bad-init-crash"), "killed the process with SIGSEGV" },
		/* a directory named .so: said so, not "Cannot allocate memory" */
		{ POLICY_DIR "/dir.so", "not a regular file (a directory)" },
	};

	ck_assert(!mkdir(POLICY_DIR "/dir.so", 0755) || errno == EEXIST);
	cli_signals_as_signals();

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *run[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy",
				      NULL, NULL };
		char list[512];

		snprintf(list, sizeof(list), "classic,%s", bad[i].so);
		run[5] = list;
		assert_refused(run, bad[i].so, bad[i].reason);
		{
			const char *sweep[] = { "sweep", cli_quickstart(), "--scale", "1/32",
						"--policy", list, NULL };
			const char *bench[] = { "bench", "--policy", bad[i].so, NULL };
			const char *check[] = { "check-policy", bad[i].so, NULL };

			assert_refused(sweep, bad[i].so, bad[i].reason);
			assert_refused(bench, bad[i].so, bad[i].reason);
			assert_refused(check, bad[i].so, bad[i].reason);
		}
	}
}
END_TEST

/*
 * A plug-in that prints on stdout (a constructor, lruvec_init, shrink_lruvec)
 * cannot corrupt what mmemu prints: run and sweep --format json stay JSON,
 * check-policy's table its own; what it printed goes to stderr.
 */
START_TEST(test_plugin_prints_stdout_stays_clean)
{
	const char *run[] = { "run", cli_quickstart(), "--scale", "1/32", "--format", "json",
			      "--policy", "classic," SO("s3fifo-noisy"), NULL };
	const char *sweep[] = { "sweep", cli_quickstart(), "--scale", "1/64", "--format", "json",
				"--policy", SO("s3fifo-noisy"), "--seeds", "1..2", "-j", "1", NULL };
	const char *check[] = { "check-policy", SO("s3fifo-noisy"), "--scale", "1/64",
				cli_quickstart(), NULL };
	const char *const *cmds[] = { run, sweep };

	for (size_t i = 0; i < 2; i++) {
		struct cli_out o = cli_run(cmds[i]);
		json_error_t e;
		json_t *j;

		ck_assert_msg(o.status == 0, "%s: status %d: %s", cmds[i][0], o.status, o.err);
		j = json_loads(o.out, 0, &e);
		ck_assert_msg(j, "%s --format json: not JSON (%s, line %d):\n%.300s", cmds[i][0],
			      e.text, e.line, o.out);
		json_decref(j);
		ck_assert_ptr_null(strstr(o.out, "noisy:"));
		assert_has(o.err, "noisy: loaded");
		if (!i)	/* (sweep keeps its runs' stderr, and shows it when one fails) */
			assert_has(o.err, "noisy: shrink_lruvec");
		cli_out_free(&o);
	}
	{
		struct cli_out o = cli_run(check);

		ck_assert_msg(o.status == 0, "check-policy: status %d:\n%s%s", o.status, o.out, o.err);
		ck_assert_ptr_null(strstr(o.out, "noisy:"));
		assert_has(o.out, "pass: 0 checks failed");
		cli_out_free(&o);
	}
}
END_TEST

/*
 * A policy's knobs are its key table (reclaim_policy.knobs): `mmemu list
 * sections` lists each key of [mglru] from the policy's table with its doc
 * line, as --set takes it, and not the retired min_ttl.
 */
START_TEST(test_policy_keys_listed_from_table)
{
	const char *list[] = { "list", NULL }, *names[] = { "list", "sections", NULL };
	const struct policy_knobs *k = mglru_budget_policy.knobs;
	struct cli_out o = cli_run(list), n = cli_run(names);
	int nr = 0;

	ck_assert_int_eq(o.status, 0);
	ck_assert_int_eq(n.status, 0);
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_eq(mglru_old_policy.knobs, k);	/* one section for every MGLRU variant */
	ck_assert_ptr_null(classic_policy.knobs);
	ck_assert_str_eq(k->section, "mglru");
	assert_has(o.out, "  [mglru] /sys/kernel/mm/lru_gen, and isolate_folios variants\n");
	for (const struct key_desc *d = k->keys; d->key; d++) {
		char line[256];

		snprintf(line, sizeof(line), "\nmglru.%s\n", d->key);
		if (d->type == KT_RETIRED) {
			ck_assert_ptr_null(strstr(n.out, line));
			continue;
		}
		assert_has(n.out, line);
		snprintf(line, sizeof(line), "    %-18s %s", d->key, d->doc);
		assert_has(o.out, line);
		nr++;
	}
	ck_assert_int_eq(nr, 11);
	assert_has(n.out, "\nmglru.walk\n");
	ck_assert_ptr_null(strstr(n.out, "\nmglru.min_ttl\n"));
	cli_out_free(&o);
	cli_out_free(&n);
}
END_TEST

/*
 * [mglru] is read whatever the policy (as before the keys moved into the
 * policy): under classic a known key is taken (and read by nobody), an
 * unknown one refused with the file, the key and exit 2.
 */
START_TEST(test_mglru_keys_under_classic)
{
	const char *ok[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy", "classic",
			     "--set", "mglru.walk=0", "--format", "json", NULL };
	const char *bad[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy", "classic",
			      "--set", "mglru.walkk=0", NULL };
	const char *value[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy", "classic",
				"--set", "mglru.enabled=6", NULL };
	struct cli_out o = cli_run(ok), b = cli_run(bad), v = cli_run(value);

	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	assert_has(o.out, "\"pgscan_file\"");
	ck_assert_int_eq(b.status, 2);
	assert_has(b.err, "--set 'mglru.walkk=0': [mglru]: unknown key 'walkk' (did you mean "
		   "'walk'?)");
	ck_assert_int_eq(v.status, 2);
	assert_has(v.err, "[mglru] enabled: '6' turns MGLRU off (no 0x0001)");
	cli_out_free(&o);
	cli_out_free(&b);
	cli_out_free(&v);
}
END_TEST

/*
 * The example's own knob, [s3fifo] small_percent, declared by the plug-in
 * (ABI 2): read by mmemu's parser with its bounds, in a file or by --set,
 * and it reaches the policy (a larger S evicts differently).
 */
START_TEST(test_plugin_knobs)
{
	const char *def[] = { "run", cli_quickstart(), "--scale", "1/32", "--format", "json",
			      "--policy", SO("s3fifo"), NULL };
	const char *set[] = { "run", cli_quickstart(), "--scale", "1/32", "--format", "json",
			      "--policy", SO("s3fifo"), "--set", "s3fifo.small_percent=60", NULL };
	const char *bad[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy", SO("s3fifo"),
			      "--set", "s3fifo.small_percent=95", NULL };
	const char *unknown[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy",
				  SO("s3fifo"), "--set", "s3fifo.big_percent=5", NULL };
	struct cli_out d = cli_run(def), s = cli_run(set), b = cli_run(bad), u = cli_run(unknown);
	const char *dp, *sp;

	ck_assert_msg(d.status == 0, "status %d: %s", d.status, d.err);
	ck_assert_msg(s.status == 0, "status %d: %s", s.status, s.err);
	dp = strstr(d.out, "\"pgsteal_file\"");
	sp = strstr(s.out, "\"pgsteal_file\"");
	ck_assert_ptr_nonnull(dp);
	ck_assert_ptr_nonnull(sp);
	ck_assert_msg(strncmp(dp, sp, 40), "small_percent=60 changed nothing: %.40s", dp);
	ck_assert_int_eq(b.status, 2);
	assert_has(b.err, "--set 's3fifo.small_percent=95': [s3fifo] small_percent: '95' is not "
		   "a percentage (1-90)");
	ck_assert_int_eq(u.status, 2);
	assert_has(u.err, "[s3fifo]: unknown key 'big_percent'");
	cli_out_free(&d);
	cli_out_free(&s);
	cli_out_free(&b);
	cli_out_free(&u);
}
END_TEST

/* A run that dies of a signal is reported with the signal's name, by run, sweep and check-policy. */
START_TEST(test_run_killed_names_signal)
{
	const char *run[] = { "run", cli_quickstart(), "--scale", "1/64", "--policy",
			      SO("bad-shrink-crash"), NULL };
	const char *sweep[] = { "sweep", cli_quickstart(), "--scale", "1/64", "--policy",
				SO("bad-shrink-crash"), "-j", "1", NULL };
	const char *check[] = { "check-policy", SO("bad-shrink-crash"), "--scale", "1/64",
				cli_quickstart(), NULL };
	const char *const *cmds[] = { run, sweep, check };

	cli_signals_as_signals();
	for (size_t i = 0; i < 3; i++) {
		struct cli_out o = cli_run(cmds[i]);

		ck_assert_msg(o.status != 0, "%s: status 0", cmds[i][0]);
		ck_assert_msg(strstr(o.err, "killed by SIGSEGV (Segmentation fault)") ||
			      strstr(o.out, "killed by SIGSEGV (Segmentation fault)"),
			      "%s: status %d:\n%s%s", cmds[i][0], o.status, o.out, o.err);
		cli_out_free(&o);
	}
}
END_TEST

/*
 * check-policy gives a verdict for a policy whose shrink_lruvec never
 * returns, or that reports pages reclaimed without freeing them: the run is
 * killed at --timeout and fails "runs to the end"; it never hangs.
 */
START_TEST(test_check_policy_timeout_verdict)
{
	static const char *const so[] = { SO("s3fifo-loops"), SO("s3fifo-lies") };

	for (size_t i = 0; i < 2; i++) {
		const char *args[] = { "check-policy", so[i], "--scale", "1/64", "--timeout", "5",
				       cli_quickstart(), NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 1, "%s: status %d:\n%s%s", so[i], o.status, o.out, o.err);
		ck_assert_msg(strstr(o.out, "FAIL: 1 check failed"), "%s:\n%s", so[i], o.out);
		ck_assert_msg(strstr(o.out, "runs to the end                          FAIL  the run did "
					    "not end within 5 s"), "%s:\n%s", so[i], o.out);
		cli_out_free(&o);
	}
	{
		const char *args[] = { "check-policy", "classic", "--timeout", "0", NULL };
		struct cli_out o = cli_run(args);

		ck_assert_int_eq(o.status, 2);
		assert_has(o.err, "--timeout '0'");
		cli_out_free(&o);
	}
}
END_TEST

/*
 * A plug-in without the optional workingset ops keeps no workingset_*
 * counter: the table shows "-" and no -100% against the built-in policy, a
 * note says why, JSON leaves them out, and check-policy warns (and passes).
 */
START_TEST(test_unkept_counters_not_zero)
{
	const char *text[] = { "run", cli_quickstart(), "--scale", "1/32", "--policy",
			       "mglru-budget," SO("s3fifo-noworkingset"), NULL };
	const char *json[] = { "run", cli_quickstart(), "--scale", "1/32", "--format", "json",
			       "--policy", "mglru-budget," SO("s3fifo-noworkingset"), NULL };
	const char *check[] = { "check-policy", SO("s3fifo-noworkingset"), "--scale", "1/64",
				cli_quickstart(), NULL };
	struct cli_out t = cli_run(text), j = cli_run(json), c = cli_run(check);
	const char *row;
	json_error_t e;
	json_t *doc, *runs;

	ck_assert_msg(t.status == 0, "%s", t.err);
	row = strstr(t.out, "  workingset_refault_file ");
	ck_assert_msg(row, "no workingset_refault_file row:\n%s", t.out);
	{
		char line[256];
		size_t n = strcspn(row, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, row);
		while (line[strlen(line) - 1] == ' ')
			line[strlen(line) - 1] = '\0';
		ck_assert_msg(line[strlen(line) - 1] == '-' && !strstr(line, "%"),
			      "the plug-in's cell is not '-' without a change: '%s'", line);
	}
	assert_has(t.out, "policy s3fifo-noworkingset: no workingset_eviction or "
		   "workingset_refault op: its workingset_* counters are not kept (-, not 0)");
	ck_assert_msg(j.status == 0, "%s", j.err);
	doc = json_loads(j.out, 0, &e);
	ck_assert_msg(doc, "%s", e.text);
	runs = json_object_get(doc, "runs");
	ck_assert_int_eq(json_array_size(runs), 2);
	/* (the samples, a time series as the run wrote it, still have their zeros) */
	ck_assert_ptr_nonnull(json_object_get(json_object_get(json_array_get(runs, 0), "vmstat"),
					      "workingset_refault_file"));
	ck_assert_ptr_nonnull(json_object_get(json_array_get(runs, 1), "vmstat"));
	ck_assert_ptr_null(json_object_get(json_object_get(json_array_get(runs, 1), "vmstat"),
					   "workingset_refault_file"));
	json_decref(doc);
	ck_assert_msg(c.status == 0, "check-policy: status %d:\n%s%s", c.status, c.out, c.err);
	assert_has(c.out, "workingset counters                      warn  no workingset_eviction");
	cli_out_free(&t);
	cli_out_free(&j);
	cli_out_free(&c);
}
END_TEST

/* machine.policy names no policy: the message names the file, line and key, not --policy. */
START_TEST(test_machine_policy_unknown_names_line)
{
	char *ini = cli_temp_file(".ini");
	FILE *f = fopen(ini, "w");
	const char *run[] = { "run", ini, "--scale", "1/64", NULL };
	const char *sweep[] = { "sweep", ini, "--scale", "1/64", NULL };
	const char *const *cmds[] = { run, sweep };

	ck_assert_ptr_nonnull(f);
	fputs("[machine]\nnodes = 1\nnode_memory = 1G\npolicy = classic,nosuch\n"
	      "[workload.w]\ntype = anon\nsize = 16M\nops = 100\n", f);
	ck_assert_int_eq(fclose(f), 0);
	for (size_t i = 0; i < 2; i++) {
		struct cli_out o = cli_run(cmds[i]);

		ck_assert_msg(o.status == 2, "%s: status %d: %s", cmds[i][0], o.status, o.err);
		assert_has(o.err, ini);
		assert_has(o.err, "line 4");
		assert_has(o.err, "[machine] policy");
		assert_has(o.err, "unknown policy 'nosuch'");
		ck_assert_ptr_null(strstr(o.err, "--policy"));
		cli_out_free(&o);
	}
	{
		const char *set[] = { "run", ini, "--scale", "1/64", "--set", "machine.policy=other",
				      NULL };
		struct cli_out o = cli_run(set);

		ck_assert_int_eq(o.status, 2);
		assert_has(o.err, "--set 'machine.policy=other': unknown policy 'other'");
		cli_out_free(&o);
	}
	cli_remove_temp(ini);
}
END_TEST

/* A file that is not a shared object: dlopen()'s reason. */
START_TEST(test_not_a_shared_object)
{
	char *path = cli_temp_file(".so");
	const char *run[] = { "run", cli_quickstart(), "--policy", path, NULL };
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("not an ELF file\n", f);
	fclose(f);
	assert_refused(run, path, "cannot load it");
	cli_remove_temp(path);
}
END_TEST

START_TEST(test_check_policy_passes_example)
{
	const char *args[] = { "check-policy", SO("s3fifo"), "--scale", "1/64", cli_quickstart(),
			       NULL };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 0, "status %d:\n%s%s", o.status, o.out, o.err);
	assert_has(o.out, "every folio on exactly one list          pass");
	assert_has(o.out, "counts match                             pass");
	assert_has(o.out, "no folio lost across reclaim/refault     pass");
	assert_has(o.out, "deterministic (two runs)                 pass");
	assert_has(o.out, "pass: 0 checks failed");
	ck_assert_ptr_null(strstr(o.out, "FAIL"));
	cli_out_free(&o);
}
END_TEST

START_TEST(test_check_policy_fails_broken_copy)
{
	const char *args[] = { "check-policy", SO("s3fifo-broken"), "--scale", "1/64",
			       cli_quickstart(), NULL };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 1, "status %d:\n%s%s", o.status, o.out, o.err);
	assert_has(o.out, "every folio on exactly one list          FAIL");
	assert_has(o.out, "FAIL: 1 check failed");
	cli_out_free(&o);
}
END_TEST

/* A built-in policy passes too: the suite is not the example's own. */
START_TEST(test_check_policy_builtin)
{
	const char *args[] = { "check-policy", "classic", "--scale", "1/64", cli_quickstart(),
			       NULL };
	struct cli_out o = cli_run(args);

	ck_assert_msg(o.status == 0, "status %d:\n%s%s", o.status, o.out, o.err);
	assert_has(o.out, "'classic', built in");
	cli_out_free(&o);
}
END_TEST

static Suite *policy_suite(void)
{
	Suite *s = suite_create("policy");
	TCase *tc = tcase_create("loader");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sha256_vectors);
	tcase_add_test(tc, test_arg_is_file);
	tcase_add_test(tc, test_load_errors_exit_2);
	tcase_add_test(tc, test_not_a_shared_object);
	suite_add_tcase(s, tc);

	tc = tcase_create("runs");
	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_run_side_by_side);
	tcase_add_test(tc, test_check_policy_passes_example);
	tcase_add_test(tc, test_check_policy_fails_broken_copy);
	tcase_add_test(tc, test_check_policy_builtin);
	tcase_add_test(tc, test_plugin_prints_stdout_stays_clean);
	tcase_add_test(tc, test_machine_policy_unknown_names_line);
	tcase_add_test(tc, test_run_killed_names_signal);
	tcase_add_test(tc, test_check_policy_timeout_verdict);
	tcase_add_test(tc, test_unkept_counters_not_zero);
	tcase_add_test(tc, test_policy_keys_listed_from_table);
	tcase_add_test(tc, test_mglru_keys_under_classic);
	tcase_add_test(tc, test_plugin_knobs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(policy_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
