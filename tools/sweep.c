/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu sweep SCENARIO --policy a,b --set key=v1,v2 [--set ...] --seeds 1..5
 *
 * The cross product of policies x each --set key's values x seeds, every run
 * a child process of this same binary (`mmemu run ... --out -`, started by
 * the runner of tools/runner.h) whose stdout is a saved result file; -j N
 * at a time (default: online CPUs).
 * Runs go out largest first by a cost estimate (run_cost()), so unequal
 * runs balance over the slots. A child that fails, prints something that is
 * not a result or outlives --timeout is reported on stderr with its
 * parameters and the others go on; the sweep then exits 1. The runs merge
 * in a fixed order (policy, then the --set values with the first --set
 * varying slowest, then seed), never the order they went out or finished
 * in, so the same arguments give the same file apart from host_seconds.
 * The summary (tools/summary.c) groups runs that differ only in seed.
 *
 * With --mpi the same plan, runner and collection (tools/sweep_run.h) run
 * over MPI ranks: rank 0 hands the runs out and collects them
 * (tools/sweep_mpi.c), and prints and saves them with the code below.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "models/policy.h"
#include "models/policy/loader.h"
#include "scenarios/scenario.h"
#include "scenarios/workload.h"
#include "tools/child.h"
#include "tools/args.h"
#include "tools/scenario_dirs.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/sink.h"
#include "tools/summary.h"
#include "tools/sweep.h"
#include "tools/sweep_run.h"

#define SWEEP_MAX_POLICIES 16
#define SWEEP_MAX_SETS 64
#define SWEEP_MAX_RUNS 100000
#define SWEEP_MAX_JOBS 256

/* ---- the sweep ---- */

/* the command that runs the sweep: "sweep", or "ablate" (sweep_main()) */
static const char *sweep_cmd = "sweep";

static int die(const char *msg)
{
	fprintf(stderr, "mmemu: %s: %s\n", sweep_cmd, msg);
	return 2;
}

void sweep_progress(struct sweep *sw)
{
	double elapsed = runner_elapsed_s(&sw->rn);
	char eta[32] = "?";

	if (!sw->rn.tty)
		return;
	if (sw->done)
		runner_fmt_eta(eta, sizeof(eta), elapsed * (double)(sw->total - sw->done) / sw->done);
	fprintf(stderr, "\r[sweep] done %zu/%zu, running %zu, failed %zu, ~%s left\033[K",
		sw->done, sw->total, sw->rn.running + sw->remote, sw->failed, eta);
	fflush(stderr);
}

static void on_progress_timer(struct runner *r)
{
	sweep_progress(r->ctx);
}

void sweep_report(struct sweep *sw, const char *fmt, ...)
{
	va_list ap;

	if (sw->rn.tty)
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "mmemu: sweep: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void oom(void)
{
	fprintf(stderr, "mmemu: out of memory\n");
	exit(2);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom();
	return d;
}

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int rc;

	va_start(ap, fmt);
	rc = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (rc < 0)
		oom();
	return s;
}

/* The child's saved file as a packed mmemu.Run (*msg NULL), else *msg says why not. */
static uint8_t *job_result(const struct runner_exit *e, size_t *len, char **msg)
{
	char why[256];
	Mmemu__Invocation *inv = result_file_parse(e->out, e->out_len, why, sizeof(why));
	uint8_t *packed;

	if (inv && inv->n_runs != 1) {
		snprintf(why, sizeof(why), "%zu runs instead of 1", inv->n_runs);
		mmemu__invocation__free_unpacked(inv, NULL);
		inv = NULL;
	}
	if (!inv) {
		*msg = xprintf("run %s failed: bad output: %s", e->label, why);
		return NULL;
	}
	*len = mmemu__run__get_packed_size(inv->runs[0]);
	packed = malloc(*len ? *len : 1);
	if (!packed)
		oom();
	mmemu__run__pack(inv->runs[0], packed);
	mmemu__invocation__free_unpacked(inv, NULL);
	return packed;
}

/* A run's child has ended: its outcome goes to ops->outcome. */
static void job_exit(struct runner *r, const struct runner_exit *e)
{
	struct sweep *sw = r->ctx;
	size_t len = 0;
	uint8_t *packed = NULL;
	char *msg = NULL;

	if (r->interrupted) {
		/* reported once, at the end */
	} else if (e->timed_out) {
		msg = xprintf("run %s timed out after %gs", e->label, r->timeout_s);
	} else if (e->term_signal) {
		msg = xprintf("run %s failed: killed by %s (%s)%s%s", e->label,
			      child_signal_name(e->term_signal), strsignal(e->term_signal),
			      e->wrote_err ? ": " : "", e->err_line);
	} else if (e->exit_status) {
		msg = xprintf("run %s failed (exit status %lld)%s%s", e->label,
			      (long long)e->exit_status, *e->err_line ? ": " : "", e->err_line);
	} else {
		packed = job_result(e, &len, &msg);
	}
	if (packed)
		sw->ops->outcome(sw, e->index, true, packed, len);
	else
		sw->ops->outcome(sw, e->index, false, (const uint8_t *)msg, msg ? strlen(msg) : 0);
	free(packed);
	free(msg);
	if (sw->ops->more)
		sw->ops->more(sw);
	sweep_progress(sw);
}

/* The combination of --set values run index uses: one value index per axis. */
static void run_values(const struct sweep *sw, size_t index, size_t *vals)
{
	size_t combo = index / sw->nr_seeds % sw->nr_combos;

	for (size_t a = sw->nr_axes; a-- > 0;) {
		vals[a] = combo % sw->axes[a].nr;
		combo /= sw->axes[a].nr;
	}
}

/*
 * The "section.key=value" words run index sets (malloc'ed, into sets, at
 * most SWEEP_MAX_SETS): its axes' values, or its variant's list.
 */
static size_t run_sets(const struct sweep *sw, size_t index, char **sets)
{
	size_t vals[SWEEP_MAX_SETS], n = 0;

	if (sw->variants) {
		const char *const *v = sw->variants[index / sw->nr_seeds % sw->nr_combos];

		for (; v[n] && n < SWEEP_MAX_SETS; n++)
			sets[n] = xstrdup(v[n]);
		return n;
	}
	run_values(sw, index, vals);
	for (size_t a = 0; a < sw->nr_axes; a++)
		sets[n++] = xprintf("%s=%s", sw->axes[a].key, sw->axes[a].vals[vals[a]]);
	return n;
}

char *sweep_run_params(const struct sweep *sw, size_t index)
{
	size_t seed_i = index % sw->nr_seeds;
	size_t pol = index / sw->nr_seeds / sw->nr_combos;
	char *sets[SWEEP_MAX_SETS], *params, *more;
	size_t nr = run_sets(sw, index, sets);

	params = xprintf("policy=%s seed=%llu", sw->policies[pol],
			 (unsigned long long)sw->seeds[seed_i]);
	for (size_t a = 0; a < nr; a++) {
		more = xprintf("%s %s", params, sets[a]);
		free(params);
		free(sets[a]);
		params = more;
	}
	return params;
}

char **sweep_run_args(const struct sweep *sw, size_t index)
{
	size_t seed_i = index % sw->nr_seeds;
	size_t pol = index / sw->nr_seeds / sw->nr_combos;
	char *sets[SWEEP_MAX_SETS];
	size_t n = 0, nr = run_sets(sw, index, sets);
	char **args = calloc(16 + 2 * nr, sizeof(*args));

	if (!args)
		oom();
	args[n++] = xstrdup("run");
	args[n++] = xstrdup(sw->scenario);
	args[n++] = xstrdup("--policy");
	args[n++] = xstrdup(sw->policies[pol]);
	args[n++] = xstrdup("--seed");
	args[n++] = xprintf("%llu", (unsigned long long)sw->seeds[seed_i]);
	if (sw->scale_arg) {
		args[n++] = xstrdup("--scale");
		args[n++] = xstrdup(sw->scale_arg);
	}
	for (size_t a = 0; a < nr; a++) {
		args[n++] = xstrdup("--set");
		args[n++] = sets[a];
	}
	args[n++] = xstrdup("--out");
	args[n++] = xstrdup("-");
	args[n] = NULL;
	return args;
}

/*
 * A run's cost estimate, to hand the largest out first so that unequal runs
 * balance over the slots: the pages its workloads ask for, each operation's
 * pages plus each region once (a prefault, a scan's pass). It orders the
 * dispatch only (the output is merged in the fixed order whatever it says);
 * runs of equal estimate go out in the merge order.
 */
static uint64_t run_cost(const struct scenario *s)
{
	uint64_t pages = 0;

	for (int i = 0; i < s->nr_workloads; i++) {
		const struct scn_workload *w = &s->workload[i];

		pages += w->ops * workload_pages_per_op(w) + w->size / 4096;
	}
	return pages;
}

struct plan_entry {
	uint64_t cost;
	size_t index;
};

static int plan_cmp(const void *pa, const void *pb)
{
	const struct plan_entry *a = pa, *b = pb;

	if (a->cost != b->cost)
		return a->cost > b->cost ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

int sweep_plan_order(struct sweep *sw, double scale, char *bad, size_t badlen)
{
	uint64_t *cost = calloc(sw->nr_combos, sizeof(*cost));
	struct plan_entry *e = calloc(sw->total, sizeof(*e));
	struct scenario *s = malloc(sizeof(*s));
	char err[512];

	sw->order = calloc(sw->total, sizeof(*sw->order));
	if (!cost || !e || !s || !sw->order) {
		free(cost);
		free(e);
		free(s);
		return -1;
	}
	/*
	 * each combination of --set values as its runs load it: one that does not
	 * load is bad input, said before any run starts (its file, line and key)
	 */
	for (size_t c = 0; c < sw->nr_combos; c++) {
		char *sets[SWEEP_MAX_SETS];
		size_t nr = run_sets(sw, c * sw->nr_seeds, sets);

		if (scenario_load(s, sw->scenario, (const char *const *)sets, (int)nr,
				  scale, err, sizeof(err))) {
			snprintf(bad, badlen, "%s", err);
			c = sw->nr_combos;
		} else {
			cost[c] = run_cost(s);
		}
		scenario_free(s);
		for (size_t a = 0; a < nr; a++)
			free(sets[a]);
		if (*bad) {
			free(cost);
			free(e);
			free(s);
			return 1;
		}
	}
	for (size_t i = 0; i < sw->total; i++) {
		e[i].cost = cost[i / sw->nr_seeds % sw->nr_combos];
		e[i].index = i;
	}
	qsort(e, sw->total, sizeof(*e), plan_cmp);
	for (size_t i = 0; i < sw->total; i++)
		sw->order[i] = e[i].index;
	free(cost);
	free(e);
	free(s);
	return 0;
}

bool sweep_next_run(struct sweep *sw, size_t *index)
{
	if (sw->rn.interrupted || sw->next >= sw->total)
		return false;
	*index = sw->order[sw->next++];
	return true;
}

/* A run that cannot start fails with msg (freed); nothing at all when interrupted. */
static void job_fail_unstarted(struct sweep *sw, size_t index, char *msg)
{
	sw->ops->outcome(sw, index, false, (const uint8_t *)msg,
			 sw->rn.interrupted ? 0 : strlen(msg));
	free(msg);
}

void sweep_job_start(struct sweep *sw, size_t index, char **args, char *params)
{
	int rc = runner_spawn(&sw->rn, index, args, params);
	char *msg;

	if (!rc)
		return;
	/* more runs than slots would be the dispatcher's mistake: fail the run, by name */
	if (rc == UV_EBUSY)
		msg = xprintf("run %s failed: no free slot", params);
	else
		msg = xprintf("run %s failed: cannot start '%s': %s", params, sw->rn.exe,
			      uv_strerror(rc));
	for (char **a = args; *a; a++)
		free(*a);
	free(args);
	free(params);
	job_fail_unstarted(sw, index, msg);
}

void sweep_job_start_planned(struct sweep *sw, size_t index)
{
	sweep_job_start(sw, index, sweep_run_args(sw, index), sweep_run_params(sw, index));
}

void sweep_collect(struct sweep *sw, size_t index, bool ok, const uint8_t *data, size_t len)
{
	Mmemu__Run *run = NULL;

	if (ok) {
		run = mmemu__run__unpack(NULL, len, data);
		if (!run) {
			char *params = sweep_run_params(sw, index);

			sweep_report(sw, "run %s failed: its result does not unpack", params);
			free(params);
		}
	} else if (len) {
		sweep_report(sw, "%.*s", (int)len, (const char *)data);
	}
	sw->results[index] = run;
	sw->done++;
	sw->failed += !run;
}

/* A local sweep: every run a child of this process, -j at a time. */
static void local_more(struct sweep *sw)
{
	size_t index;

	while (sw->rn.running < sw->rn.jobs && sweep_next_run(sw, &index))
		sweep_job_start_planned(sw, index);
}

static const struct sweep_ops local_ops = {
	.outcome = sweep_collect,
	.more = local_more,
};

void sweep_kill_children(struct sweep *sw)
{
	runner_kill_all(&sw->rn);
}

/* "section.key=v1,v2,v3" as an axis; empty values are kept (sweep_plan_order() rejects them). */
static int parse_axis(const char *arg, struct axis *ax)
{
	char *eq, *p;

	ax->key = xstrdup(arg);
	eq = strchr(ax->key, '=');
	if (!eq || eq == ax->key) {
		free(ax->key);
		return -1;
	}
	*eq = '\0';
	ax->nr = 1;
	for (p = eq + 1; *p; p++)
		ax->nr += *p == ',';
	ax->vals = calloc(ax->nr, sizeof(*ax->vals));
	if (!ax->vals) {
		free(ax->key);
		return -1;
	}
	ax->nr = 0;
	for (p = eq + 1;;) {
		char *comma = strchr(p, ',');

		ax->vals[ax->nr++] = p;
		if (!comma)
			break;
		*comma = '\0';
		p = comma + 1;
	}
	return 0;
}

/* How many MPI ranks the launcher says this process is one of (1: none). */
static long launched_ranks(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_SIZE", "PMI_SIZE" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(*vars); i++) {
		const char *v = getenv(vars[i]);
		long n = v ? strtol(v, NULL, 10) : 0;

		if (n > 1)
			return n;
	}
	return 1;
}

int cmd_sweep(int argc, char **argv)
{
	return sweep_main(argc, argv, NULL);
}

/* What sweep_main() holds from its options to its output. */
struct sweep_cmd {
	struct sweep sw;
	const struct sweep_variants *v;		/* ablate's combinations, or NULL */
	struct axis axes[SWEEP_MAX_SETS];	/* --set's, sw.nr_axes of them */
	char *policies[SWEEP_MAX_POLICIES];
	char *policy_buf, *scenario_path;	/* malloc'ed */
	const char *policy_arg, *out_path;	/* --policy, --out */
	struct output_opts oo;			/* --format, --all */
	double scale;				/* --scale, 0: the scenario's */
	unsigned jobs;				/* -j */
	bool jobs_given;
	double timeout_s;			/* --timeout */
	bool loop_opened;			/* sw.rn is open */
	struct scenario s;			/* as the runs see it before --set */
};

/* --set KEY=V1,V2,... as one more axis: -1, or the exit status now. */
static int sweep_take_set(struct sweep_cmd *c, const char *arg)
{
	struct sweep *sw = &c->sw;
	char err[512];

	if (sw->nr_axes == SWEEP_MAX_SETS)
		return die("too many --set options");
	if (parse_axis(arg, &c->axes[sw->nr_axes])) {
		snprintf(err, sizeof(err), "--set '%s': expected section.key=v1,v2,...", arg);
		return die(err);
	}
	for (size_t a = 0; a < sw->nr_axes; a++)
		if (!strcmp(c->axes[a].key, c->axes[sw->nr_axes].key)) {
			snprintf(err, sizeof(err), "--set '%.200s': %s is swept by another --set "
				 "already", arg, c->axes[a].key);
			free(c->axes[sw->nr_axes].key);
			free(c->axes[sw->nr_axes].vals);
			return die(err);
		}
	sw->nr_axes++;
	return -1;
}

/* The options that take a number: -1, or the exit status now. */
static int sweep_take_number(struct sweep_cmd *c, int opt)
{
	struct sweep *sw = &c->sw;
	char err[512], *end;
	long j;

	switch (opt) {
	case OPT_SEEDS:
		free(sw->seeds);
		sw->seeds = NULL;
		if (args_seeds(optarg, SWEEP_MAX_RUNS, &sw->seeds, &sw->nr_seeds)) {
			snprintf(err, sizeof(err), "--seeds '%s': expected A..B or A,B,... (numbers, "
				 "at most %d seeds)", optarg, SWEEP_MAX_RUNS);
			return die(err);
		}
		return -1;
	case OPT_SCALE:
		if (args_scale(optarg, &c->scale)) {
			snprintf(err, sizeof(err), "--scale '%s' is not in (0, 1] (or 1/N)", optarg);
			return die(err);
		}
		sw->scale_arg = optarg;
		return -1;
	case OPT_TIMEOUT:
		c->timeout_s = strtod(optarg, &end);
		if (*end || !(c->timeout_s > 0 && c->timeout_s < 1e7)) {
			snprintf(err, sizeof(err), "--timeout '%s': expected seconds (> 0)", optarg);
			return die(err);
		}
		return -1;
	case OPT_JOBS:
		if (args_long(optarg, 1, SWEEP_MAX_JOBS, &j))
			return die("-j wants 1 to 256");
		c->jobs = (unsigned)j;
		c->jobs_given = true;
		return -1;
	default:	/* OPT_RANK_TIMEOUT */
		sw->rank_timeout_s = strtod(optarg, &end);
		if (*end || !(sw->rank_timeout_s >= 0.1 && sw->rank_timeout_s < 1e7)) {
			snprintf(err, sizeof(err), "--rank-timeout '%s': expected seconds (>= 0.1)",
				 optarg);
			return die(err);
		}
		return -1;
	}
}

/* Takes option opt (its value in optarg): -1, or the exit status now. */
static int sweep_take_option(struct sweep_cmd *c, int opt)
{
	char err[512];

	switch (opt) {
	case OPT_SEEDS:
	case OPT_SCALE:
	case OPT_TIMEOUT:
	case OPT_JOBS:
	case OPT_RANK_TIMEOUT:
		return sweep_take_number(c, opt);
	case OPT_SET:
		return sweep_take_set(c, optarg);
	case OPT_POLICY:
		c->policy_arg = optarg;
		return -1;
	case OPT_FORMAT:
		c->oo.format = optarg;
		if (!output_format_known(c->oo.format)) {
			snprintf(err, sizeof(err), "--format '%s': expected text, json or csv", optarg);
			return die(err);
		}
		return -1;
	case OPT_ALL:
		c->oo.all = true;
		return -1;
	case OPT_OUT:
		c->out_path = optarg;
		return *optarg ? -1 : die("--out: no file named");
	case OPT_MPI:
		c->sw.mpi = true;
		return -1;
	case OPT_HELP:
		help_command(stdout, sweep_cmd);
		return 0;
	default:
		help_command(stderr, sweep_cmd);
		return 2;
	}
}

/* The options, the scenario's path and how the sweep is launched: -1, or the exit status. */
static int sweep_parse(struct sweep_cmd *c, int argc, char **argv)
{
	struct sweep *sw = &c->sw;
	char err[512];
	int opt, rc;

	optind = 1;
	while ((opt = cli_getopt(c->v ? CMD_ABLATE : CMD_SWEEP, argc, argv)) != -1)
		if ((rc = sweep_take_option(c, opt)) >= 0)
			return rc;
	if (optind + 1 != argc) {
		help_command(stderr, sweep_cmd);
		return 2;
	}
	sw->scenario = c->scenario_path = args_scenario(argv[optind], mmemu_scenario_dirs);
	if (!c->scenario_path)
		return die("out of memory");
	if (!sw->mpi && launched_ranks() > 1) {
		snprintf(err, sizeof(err), "started as one of %ld MPI ranks without --mpi: each "
			 "would run the whole sweep (add --mpi)", launched_ranks());
		return die(err);
	}
#ifndef MMEMU_HAVE_MPI
	if (sw->mpi)
		return die("--mpi: this mmemu was built without MPI (meson setup -Dmpi=enabled, "
			   "with libopenmpi-dev)");
#endif
	if (sw->mpi && !c->jobs_given)
		c->jobs = 1;	/* a rank per core: the launcher placed them */
	return -1;
}

/*
 * The runner, and under --mpi the ranks (a rank other than 0 runs what rank
 * 0 sends, then is done); the seeds; a scenario each run can read again:
 * -1, or the exit status.
 */
static int sweep_start(struct sweep_cmd *c)
{
	struct sweep *sw = &c->sw;
	struct stat st;
	char err[512];

	if (runner_open(&sw->rn, c->jobs, c->timeout_s))
		return die("cannot start the event loop");
	c->loop_opened = true;
	sw->rn.ctx = sw;
	sw->rn.on_exit = job_exit;
	sw->ops = &local_ops;
#ifdef MMEMU_HAVE_MPI
	if (sw->mpi) {
		int rc = sweep_mpi_start(sw);

		if (rc >= 0)
			return rc;	/* a rank other than 0 is done; or MPI did not start */
	}
#endif
	if (!sw->nr_seeds) {
		sw->seeds = calloc(1, sizeof(*sw->seeds));
		if (!sw->seeds)
			return die("out of memory");
		sw->seeds[0] = 1;
		sw->nr_seeds = 1;
	}
	/* every run reads the scenario again: a pipe or FIFO would give them nothing */
	if (!stat(sw->scenario, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		snprintf(err, sizeof(err), "scenario '%s' is not a regular file (a pipe, FIFO or "
			 "device): each run reads it again; save it to a file first", sw->scenario);
		return die(err);
	}
	return -1;
}

/*
 * The scenario as the runs see it before --set (its name, text and scale)
 * and the policies of --policy, else the scenario's, else classic, each
 * found and checked: -1, or the exit status.
 */
static int sweep_policies(struct sweep_cmd *c)
{
	struct sweep *sw = &c->sw;
	bool from_file;
	char err[512];

	/* a plug-in's knobs are keys of the scenario: load it first */
	if (c->policy_arg && child_preload_policies(c->policy_arg, err, sizeof(err)))
		return die(err);
	if (scenario_load(&c->s, sw->scenario, NULL, 0, c->scale, err, sizeof(err)))
		return die(err);
	from_file = !c->policy_arg && c->s.machine.policy;
	if (!c->policy_arg)
		c->policy_arg = c->s.machine.policy ? c->s.machine.policy : "classic";
	c->policy_buf = xstrdup(c->policy_arg);
	if (args_list_has_empty(c->policy_arg)) {
		snprintf(err, sizeof(err), "policy list '%.200s': an empty name", c->policy_arg);
		return die(err);
	}
	for (char *save, *p = strtok_r(c->policy_buf, ",", &save); p;
	     p = strtok_r(NULL, ",", &save)) {
		char msg[400];

		if (sw->nr_policies == SWEEP_MAX_POLICIES)
			return die("too many policies");
		if (!child_policy_get(p, msg, sizeof(msg))) {
			if (from_file)
				child_machine_policy_error(&c->s, NULL, 0, msg, err, sizeof(err));
			else
				snprintf(err, sizeof(err), "--policy: %s", msg);
			return die(err);
		}
		if (scenario_check_policy(&c->s, p, err, sizeof(err)))
			return die(err);
		c->policies[sw->nr_policies++] = p;
	}
	if (!sw->nr_policies)
		return die("--policy: no policy named");
	sw->policies = c->policies;
	return -1;
}

/* The combinations (the --set axes', or ablate's) and the runs: -1, or the exit status. */
static int sweep_size(struct sweep_cmd *c)
{
	struct sweep *sw = &c->sw;

	if (c->v && sw->nr_axes)
		return die("--set: the combinations are the command's own");
	sw->nr_combos = 1;
	for (size_t a = 0; a < sw->nr_axes; a++) {
		sw->nr_combos *= c->axes[a].nr;
		if (sw->nr_combos > SWEEP_MAX_RUNS)
			break;
	}
	if (sw->nr_combos > SWEEP_MAX_RUNS ||
	    sw->nr_policies * sw->nr_combos * sw->nr_seeds > SWEEP_MAX_RUNS)
		return die("more than 100000 runs");
	if (c->v) {
		sw->variants = c->v->sets;
		sw->nr_combos = c->v->nr;
		if (sw->nr_policies * sw->nr_combos * sw->nr_seeds > SWEEP_MAX_RUNS)
			return die("more than 100000 runs");
	}
	sw->total = sw->nr_policies * sw->nr_combos * sw->nr_seeds;
	return -1;
}

/* Plans and runs every run, here or over the ranks: -1, or the exit status. */
static int sweep_go(struct sweep_cmd *c)
{
	struct sweep *sw = &c->sw;
	char err[512] = "";

	sw->results = calloc(sw->total, sizeof(*sw->results));
	if (!sw->results || sweep_plan_order(sw, c->scale, err, sizeof(err)))
		return die(*err ? err : "out of memory");
	sw->rn.start_ns = uv_hrtime();
	runner_progress_every(&sw->rn, on_progress_timer);
#ifdef MMEMU_HAVE_MPI
	if (sw->mpi)
		sweep_mpi_run(sw);
	else
#endif
	{
		sw->ops->more(sw);
		sweep_progress(sw);
		runner_run(&sw->rn);
	}
	if (sw->rn.tty)
		fprintf(stderr, "\r[sweep] done %zu/%zu, failed %zu, %.1fs\033[K\n", sw->done,
			sw->total, sw->failed, runner_elapsed_s(&sw->rn));
	if (sw->rn.interrupted) {
		fprintf(stderr, "mmemu: sweep: interrupted\n");
		return 130;
	}
	return -1;
}

/* The summary of inv on stdout and, with --out, inv saved: the exit status. */
static int sweep_write(struct sweep_cmd *c, const Mmemu__Invocation *inv)
{
	struct sink out;
	char why[512] = "";
	int rc, wrc = 0;

	if (sink_open(&out))
		return die("out of memory");
	/* column names only while every combination has its column */
	c->oo.col_names = c->v && c->v->names && inv->n_runs == c->sw.total ? c->v->names : NULL;
	if (summary_write(out.f, &c->oo, inv, why, sizeof(why))) {
		sink_discard(&out);
		return die(why);
	}
	rc = sink_commit(&out, NULL, NULL);
	if (c->out_path) {
		if (sink_open(&out) || result_file_write(inv, out.f)) {
			sink_discard(&out);
			return die("out of memory");
		}
		wrc = sink_commit(&out, c->out_path, "sweep: --out");
	}
	return rc ? rc : wrc;
}

/* The runs in the fixed order, failed ones left out, printed and saved: the exit status. */
static int sweep_output(struct sweep_cmd *c)
{
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	struct sweep *sw = &c->sw;
	int rc;

	inv.runs = calloc(sw->total, sizeof(*inv.runs));
	if (!inv.runs)
		return die("out of memory");
	for (size_t i = 0; i < sw->total; i++)
		if (sw->results[i])
			inv.runs[inv.n_runs++] = sw->results[i];
	if (sw->failed)
		fprintf(stderr, "mmemu: sweep: %zu of %zu runs failed\n", sw->failed, sw->total);
	if (!inv.n_runs) {
		free(inv.runs);
		return 1;
	}
	inv.scenario_name = c->s.name;
	inv.scenario_path = c->s.path;
	inv.scenario_text = c->s.text ? c->s.text : (char *)protobuf_c_empty_string;
	inv.scale = c->s.machine.scale;
	inv.mmemu_version = (char *)help_version_string();
	rc = sweep_write(c, &inv);
	free(inv.runs);
	return rc ? rc : sw->failed ? 1 : 0;
}

static void sweep_cmd_free(struct sweep_cmd *c)
{
	struct sweep *sw = &c->sw;

	if (sw->results)
		for (size_t i = 0; i < sw->total; i++)
			if (sw->results[i])
				mmemu__run__free_unpacked(sw->results[i], NULL);
	free(sw->results);
	free(sw->order);
	free(c->policy_buf);
	scenario_free(&c->s);
#ifdef MMEMU_HAVE_MPI
	if (sw->m)
		sweep_mpi_finish(sw);
#endif
	if (c->loop_opened)
		runner_close(&sw->rn);
	for (size_t a = 0; a < sw->nr_axes; a++) {
		free(c->axes[a].key);
		free(c->axes[a].vals);
	}
	free(sw->seeds);
	free(c->scenario_path);
}

int sweep_main(int argc, char **argv, const struct sweep_variants *v)
{
	struct sweep_cmd *c = calloc(1, sizeof(*c));
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int rc;

	if (!c)
		oom();
	sweep_cmd = v ? v->cmd : "sweep";
	c->v = v;
	c->oo.format = "text";
	if (v) {
		c->oo.headline = true;
		c->oo.col_label = v->label;
	}
	c->jobs = cpus > 0 ? (unsigned)(cpus < SWEEP_MAX_JOBS ? cpus : SWEEP_MAX_JOBS) : 1;
	c->timeout_s = 600;
	c->sw.rank_timeout_s = 30;
	c->sw.axes = c->axes;
	/* each step: -1 to go on, else the exit status */
	rc = sweep_parse(c, argc, argv);
	if (rc < 0)
		rc = sweep_start(c);
	if (rc < 0)
		rc = sweep_policies(c);
	if (rc < 0)
		rc = sweep_size(c);
	if (rc < 0)
		rc = sweep_go(c);
	if (rc < 0)
		rc = sweep_output(c);
	sweep_cmd_free(c);
	free(c);
	return rc;
}
