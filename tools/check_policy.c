/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu check-policy POLICY [--scale F] [SCENARIO...]`: a policy (built in
 * or ./x.so) under the model's invariant checks on a few small scenarios,
 * each run twice in its own process, with pass/fail per check:
 *   every folio on exactly one list (the policy's own walk and PG_lru),
 *   counts match (list sizes, node, folio table, memcg usage),
 *   no folio lost across reclaim and refault (each found from its page,
 *   its data intact), checked at the engine's quiescent points and at the
 *   end; reclaim exercised (pages reclaimed, refaults, both printed); the
 *   two runs identical (deterministic).
 * Exit 0 when every check passes, 1 when one fails, 2 on bad usage or a
 * policy that does not load.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>

#include "models/mm.h"
#include "models/policy/loader.h"
#include "scenarios/result.h"
#include "scenarios/run.h"
#include "scenarios/scenario.h"
#include "tools/args.h"
#include "tools/child.h"
#include "tools/check_policy.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/resultset.h"
#include "tools/runner.h"
#include "tools/scenario_dirs.h"


/* file and mmap'd reads under a memcg limit; anon under swap; memory.reclaim */
static const char *const default_scenarios[] = {
	"quickstart.ini",
	"swap-zram.ini",
	"proactive-reclaim.ini",
};

/*
 * The host seconds a run may take by default: the scenarios at 1/32 take a
 * few seconds each (an estimate with a wide margin); a policy whose
 * shrink_lruvec loops, or that reports pages reclaimed without freeing
 * them, never ends and gets a verdict at this limit instead of none.
 */
#define CHECK_TIMEOUT_S 300.0

static double timeout_s = CHECK_TIMEOUT_S;

/* A run's outcome, as the child reports it. */
struct outcome {
	bool ok;			/* ran to the end, every invariant held */
	enum mm_invariant_kind kind;	/* what broke (when !ok and an invariant did) */
	char msg[900];			/* the run's error */
	Mmemu__Run *run;		/* its result (ok only) */
};

/* A run's child has ended: what it wrote, how it ended. */
struct cell_end {
	bool ended, timed_out, interrupted;
	int term_signal;
	int64_t exit_status;
	char *out;		/* its stdout (malloc'ed) */
	size_t len;
};

static void on_cell_exit(struct runner *r, const struct runner_exit *e)
{
	struct cell_end *end = r->ctx;

	end->ended = true;
	end->timed_out = e->timed_out;
	end->interrupted = r->interrupted;
	end->term_signal = e->term_signal;
	end->exit_status = e->exit_status;
	end->out = malloc(e->out_len + 1);
	if (end->out) {
		memcpy(end->out, e->out, e->out_len);
		end->len = e->out_len;
	}
}

/* The child's "K" and result, or "F <kind> <why>" (run --cell), into oc. */
static void read_cell(const struct cell_end *end, struct outcome *oc)
{
	FILE *in = end->len ? fmemopen(end->out, end->len, "r") : NULL;
	char line[800];
	int kind, n = 0;

	if (!in || !fgets(line, sizeof(line), in)) {
		snprintf(oc->msg, sizeof(oc->msg), "the run's process died without a word");
	} else if (line[0] == 'K') {
		oc->run = result_recv(in);
		oc->ok = oc->run != NULL;
		if (!oc->ok)
			snprintf(oc->msg, sizeof(oc->msg), "the run's result is unreadable");
	} else {
		line[strcspn(line, "\n")] = 0;
		if (sscanf(line, "F %d %n", &kind, &n) == 1 && n) {
			oc->kind = (enum mm_invariant_kind)kind;
			snprintf(oc->msg, sizeof(oc->msg), "%s", line + n);
		} else {
			snprintf(oc->msg, sizeof(oc->msg), "%s", line);
		}
	}
	if (in)
		fclose(in);
}

/* The child's arguments: `mmemu run PATH --policy P --seed 1 --scale F --sample 0 --cell`. */
static char **cell_args(const char *path, const char *policy, double scale)
{
	char **a = calloc(12, sizeof(*a));
	const char *fixed[] = { "run", path, "--policy", policy, "--seed", "1", "--scale", NULL,
				"--sample", "0", "--cell" };

	if (!a)
		return NULL;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++) {
		if (fixed[i])
			a[i] = strdup(fixed[i]);
		else if (asprintf(&a[i], "%.17g", scale) < 0)
			a[i] = NULL;
		if (!a[i]) {
			while (i--)
				free(a[i]);
			free(a);
			return NULL;
		}
	}
	return a;
}

/*
 * One run of the scenario at path under policy, with the invariants
 * checked, in a child on the runner (`mmemu run --cell`), killed past
 * timeout_s. 0 with its outcome in oc; -errno when it could not start;
 * -EINTR when interrupted.
 */
static int run_once(const char *path, const char *policy, double scale, struct outcome *oc)
{
	struct cell_end end = { 0 };
	struct runner r = { 0 };
	char **args = cell_args(path, policy, scale), *label = strdup(path);
	int rc;

	memset(oc, 0, sizeof(*oc));
	if (!args || !label || runner_open(&r, 1, timeout_s)) {
		for (char **a = args; a && *a; a++)
			free(*a);
		free(args);
		free(label);
		return -ENOMEM;
	}
	r.ctx = &end;
	r.on_exit = on_cell_exit;
	r.inherit_stderr = true;	/* a plug-in's noise, where it always went */
	rc = runner_spawn(&r, 0, args, label);
	if (rc) {
		for (char **a = args; *a; a++)
			free(*a);
		free(args);
		free(label);
	} else {
		runner_run(&r);
	}
	runner_close(&r);
	if (rc)
		return rc;
	if (end.interrupted) {
		free(end.out);
		return -EINTR;
	}
	if (end.timed_out) {
		free(end.out);
		snprintf(oc->msg, sizeof(oc->msg), "the run did not end within %g s of host "
			 "time (--timeout): a shrink_lruvec that never returns, or one that "
			 "reports pages reclaimed without freeing them?", timeout_s);
		return 0;
	}
	read_cell(&end, oc);
	free(end.out);
	if (end.term_signal || end.exit_status) {
		oc->ok = false;
		/* a signal is what happened, whatever was read before it */
		if (end.term_signal)
			snprintf(oc->msg, sizeof(oc->msg), "the run's process was killed by %s (%s)",
				 child_signal_name(end.term_signal), strsignal(end.term_signal));
		else if (!oc->msg[0] || oc->run)
			snprintf(oc->msg, sizeof(oc->msg), "the run's process exited %d",
				 (int)end.exit_status);
		if (oc->run)
			mmemu__run__free_unpacked(oc->run, NULL);
		oc->run = NULL;
	}
	return 0;
}

static double vmstat(const Mmemu__Run *r, const char *key)
{
	for (size_t i = 0; i < r->n_groups; i++) {
		if (strcmp(r->groups[i]->name, "vmstat"))
			continue;
		for (size_t k = 0; k < r->groups[i]->n_values; k++)
			if (!strcmp(r->groups[i]->values[k]->key, key))
				return r->groups[i]->values[k]->value;
	}
	return 0;
}

/* The two results, host time aside, packed byte for byte the same. */
static bool same_run(Mmemu__Run *a, Mmemu__Run *b)
{
	size_t la, lb;
	uint8_t *pa, *pb;
	bool same;

	a->host_seconds = b->host_seconds = 0;
	la = mmemu__run__get_packed_size(a);
	lb = mmemu__run__get_packed_size(b);
	if (la != lb)
		return false;
	pa = malloc(la + 1);
	pb = malloc(lb + 1);
	if (!pa || !pb) {
		free(pa);
		free(pb);
		return false;
	}
	mmemu__run__pack(a, pa);
	mmemu__run__pack(b, pb);
	same = !memcmp(pa, pb, la);
	free(pa);
	free(pb);
	return same;
}

static int nr_failed;

static void report(const char *check, bool pass, const char *detail)
{
	printf("  %-40s %s%s%s\n", check, pass ? "pass" : "FAIL", detail && *detail ? "  " : "",
	       detail ? detail : "");
	nr_failed += !pass;
}

static const struct {
	enum mm_invariant_kind kind;
	const char *check;
} invariant_checks[] = {
	{ MM_INV_LISTS, "every folio on exactly one list" },
	{ MM_INV_COUNTS, "counts match" },
	{ MM_INV_FOLIOS, "no folio lost across reclaim/refault" },
};

static int check_scenario(const char *path, const char *policy, double scale)
{
	struct outcome a, b;
	struct scenario s;
	char err[512], detail[160];
	int rc;

	printf("%s\n", path);
	if (scenario_load(&s, path, NULL, 0, scale, err, sizeof(err))) {
		fprintf(stderr, "mmemu: check-policy: %s\n", err);
		return -1;
	}
	/* the scenario as the runs load it: a bad one is said here, once */
	scenario_free(&s);
	if ((rc = run_once(path, policy, scale, &a)) ||
	    (a.ok && (rc = run_once(path, policy, scale, &b)))) {
		if (rc == -EINTR)
			fprintf(stderr, "mmemu: check-policy: interrupted\n");
		else
			fprintf(stderr, "mmemu: check-policy: %s\n", strerror(-rc));
		if (a.run)
			mmemu__run__free_unpacked(a.run, NULL);
		return rc == -EINTR ? -2 : -1;
	}
	for (size_t i = 0; i < sizeof(invariant_checks) / sizeof(invariant_checks[0]); i++) {
		if (a.ok)
			report(invariant_checks[i].check, true, NULL);
		else if (a.kind == invariant_checks[i].kind)
			report(invariant_checks[i].check, false, a.msg);
		else
			printf("  %-40s -     (not reached: the run stopped)\n",
			       invariant_checks[i].check);
	}
	if (!a.ok) {
		if (a.kind == MM_INV_NONE)
			report("runs to the end", false, a.msg);
		return 0;
	}
	snprintf(detail, sizeof(detail), "pgsteal %.0f, workingset_refault %.0f, oom_kill %.0f",
		 vmstat(a.run, "pgsteal_anon") + vmstat(a.run, "pgsteal_file"),
		 vmstat(a.run, "workingset_refault_anon") + vmstat(a.run, "workingset_refault_file"),
		 vmstat(a.run, "oom_kill"));
	report("reclaims", vmstat(a.run, "pgsteal_anon") + vmstat(a.run, "pgsteal_file") > 0,
	       detail);
	if (!b.ok)
		report("deterministic (two runs)", false, b.msg);
	else
		report("deterministic (two runs)", same_run(a.run, b.run), NULL);
	mmemu__run__free_unpacked(a.run, NULL);
	if (b.ok)
		mmemu__run__free_unpacked(b.run, NULL);
	return 0;
}

int cmd_check_policy(int argc, char **argv)
{
	const struct reclaim_policy *p;
	const struct policy_file *pf;
	double scale = 1.0 / 32;
	char err[512], *end;
	int opt;

	optind = 1;
	while ((opt = cli_getopt(CMD_CHECK_POLICY, argc, argv)) != -1) {
		switch (opt) {
		case OPT_SCALE:
			scale = strtod(optarg, &end);
			if (end != optarg && *end == '/') {
				double d = strtod(end + 1, &end);

				scale = d > 0 ? scale / d : 0;
			}
			if (*end || !(scale > 0 && scale <= 1)) {
				fprintf(stderr, "mmemu: check-policy: --scale '%s': expected 0 < F <= 1 "
					"or 1/N\n", optarg);
				return 2;
			}
			break;
		case OPT_TIMEOUT:
			timeout_s = strtod(optarg, &end);
			if (end == optarg || *end || !(timeout_s > 0 && timeout_s <= 86400)) {
				fprintf(stderr, "mmemu: check-policy: --timeout '%s': expected seconds, "
					"0 < S <= 86400\n", optarg);
				return 2;
			}
			break;
		case OPT_HELP:
			help_command(stdout, "check-policy");
			return 0;
		default:
			help_command(stderr, "check-policy");
			return 2;
		}
	}
	if (optind >= argc) {
		help_command(stderr, "check-policy");
		return 2;
	}
	p = child_policy_get(argv[optind], err, sizeof(err));
	printf("policy %s\n", argv[optind]);
	if (!p) {
		printf("  %-40s FAIL  %s\n", "loads", err);
		fprintf(stderr, "mmemu: check-policy: %s\n", err);
		return 2;
	}
	pf = reclaim_policy_file(argv[optind]);
	if (pf)
		snprintf(err, sizeof(err), "'%s', ABI %u, %s sha256 %s", p->name, (unsigned)p->abi,
			 pf->path, pf->sha256);
	else
		snprintf(err, sizeof(err), "'%s', built in", p->name);
	report("loads", true, err);
	/* not a failure: the counters are optional, but they must not read as a real 0 */
	if (!result_policy_keeps_workingset(p))
		printf("  %-40s warn  no workingset_eviction or workingset_refault op: workingset_* "
		       "(refaults, activations) are not kept; tables show them as -\n",
		       "workingset counters");
	{
		size_t nr_default = sizeof(default_scenarios) / sizeof(default_scenarios[0]);
		size_t nr = optind + 1 < argc ? (size_t)(argc - optind - 1) : nr_default;

		for (size_t i = 0; i < nr; i++) {
			const char *arg = optind + 1 < argc ? argv[optind + 1 + (int)i] :
							      default_scenarios[i];
			char *path = args_scenario(arg, mmemu_scenario_dirs);
			int bad = !path ? -1 : check_scenario(path, argv[optind], scale);

			free(path);
			if (bad)
				return bad == -2 ? 130 : 2;	/* -2: interrupted, as sweep says it */
		}
	}
	printf("%s: %d check%s failed\n", nr_failed ? "FAIL" : "pass", nr_failed,
	       nr_failed == 1 ? "" : "s");
	return nr_failed ? 1 : 0;
}
