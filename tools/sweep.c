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

int sweep_main(int argc, char **argv, const struct sweep_variants *v)
{
	struct sweep sw;
	struct axis axes[SWEEP_MAX_SETS];
	char *policies[SWEEP_MAX_POLICIES], *policy_buf = NULL, *scenario_path = NULL;
	char err[512];
	const char *policy_arg = NULL, *out_path = NULL;
	bool policy_from_file = false;
	struct output_opts oo = { .format = "text" };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double scale = 0;
	struct scenario s;
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	bool jobs_given = false, loop_opened = false;
	unsigned jobs;
	double timeout_s = 600;
	int opt, rc = 0;

	memset(&sw, 0, sizeof(sw));
	memset(&s, 0, sizeof(s));
	sweep_cmd = v ? v->cmd : "sweep";
	if (v) {
		oo.headline = true;
		oo.col_label = v->label;
	}
	jobs = cpus > 0 ? (unsigned)(cpus < SWEEP_MAX_JOBS ? cpus : SWEEP_MAX_JOBS) : 1;
	sw.rank_timeout_s = 30;
	sw.axes = axes;
	optind = 1;
	while ((opt = cli_getopt(v ? CMD_ABLATE : CMD_SWEEP, argc, argv)) != -1) {
		char *end;

		switch (opt) {
		case OPT_POLICY:
			policy_arg = optarg;
			break;
		case OPT_SET:
			if (sw.nr_axes == SWEEP_MAX_SETS)
				{ rc = die("too many --set options"); goto out_args; }
			if (parse_axis(optarg, &axes[sw.nr_axes])) {
				snprintf(err, sizeof(err), "--set '%s': expected section.key=v1,v2,...",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			for (size_t a = 0; a < sw.nr_axes; a++)
				if (!strcmp(axes[a].key, axes[sw.nr_axes].key)) {
					snprintf(err, sizeof(err), "--set '%.200s': %s is swept by "
						 "another --set already", optarg, axes[a].key);
					free(axes[sw.nr_axes].key);
					free(axes[sw.nr_axes].vals);
					rc = die(err);
					goto out_args;
				}
			sw.nr_axes++;
			break;
		case OPT_SEEDS:
			free(sw.seeds);
			if (args_seeds(optarg, SWEEP_MAX_RUNS, &sw.seeds, &sw.nr_seeds)) {
				snprintf(err, sizeof(err),
					 "--seeds '%s': expected A..B or A,B,... (numbers, at most %d "
					 "seeds)", optarg, SWEEP_MAX_RUNS);
				{ rc = die(err); goto out_args; }
			}
			break;
		case OPT_SCALE:
			if (args_scale(optarg, &scale)) {
				snprintf(err, sizeof(err), "--scale '%s' is not in (0, 1] (or 1/N)",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			sw.scale_arg = optarg;
			break;
		case OPT_FORMAT:
			oo.format = optarg;
			if (!output_format_known(oo.format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			break;
		case OPT_ALL:
			oo.all = true;
			break;
		case OPT_OUT:
			out_path = optarg;
			if (!*out_path)
				{ rc = die("--out: no file named"); goto out_args; }
			break;
		case OPT_TIMEOUT:
			timeout_s = strtod(optarg, &end);
			if (*end || !(timeout_s > 0 && timeout_s < 1e7)) {
				snprintf(err, sizeof(err), "--timeout '%s': expected seconds (> 0)",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			break;
		case OPT_JOBS: {
			long j;

			if (args_long(optarg, 1, SWEEP_MAX_JOBS, &j))
				{ rc = die("-j wants 1 to 256"); goto out_args; }
			jobs = (unsigned)j;
			jobs_given = true;
			break;
		}
		case OPT_MPI:
			sw.mpi = true;
			break;
		case OPT_RANK_TIMEOUT:
			sw.rank_timeout_s = strtod(optarg, &end);
			if (*end || !(sw.rank_timeout_s >= 0.1 && sw.rank_timeout_s < 1e7)) {
				snprintf(err, sizeof(err),
					 "--rank-timeout '%s': expected seconds (>= 0.1)", optarg);
				{ rc = die(err); goto out_args; }
			}
			break;
		case OPT_HELP:
			help_command(stdout, sweep_cmd);
			goto out_args;
		default:
			help_command(stderr, sweep_cmd);
			rc = 2;
			goto out_args;
		}
	}
	if (optind + 1 != argc) {
		help_command(stderr, sweep_cmd);
		rc = 2;
		goto out_args;
	}
	sw.scenario = scenario_path = args_scenario(argv[optind], mmemu_scenario_dirs);
	if (!scenario_path) {
		rc = die("out of memory");
		goto out_args;
	}
	if (!sw.mpi && launched_ranks() > 1) {
		snprintf(err, sizeof(err),
			 "started as one of %ld MPI ranks without --mpi: each would run the whole "
			 "sweep (add --mpi)", launched_ranks());
		rc = die(err);
		goto out_args;
	}
#ifndef MMEMU_HAVE_MPI
	if (sw.mpi) {
		rc = die("--mpi: this mmemu was built without MPI (meson setup -Dmpi=enabled, "
			 "with libopenmpi-dev)");
		goto out_args;
	}
#endif
	if (sw.mpi && !jobs_given)
		jobs = 1;	/* a rank per core: the launcher placed them */

	if (runner_open(&sw.rn, jobs, timeout_s))
		{ rc = die("cannot start the event loop"); goto out_args; }
	loop_opened = true;
	sw.rn.ctx = &sw;
	sw.rn.on_exit = job_exit;
	sw.ops = &local_ops;
#ifdef MMEMU_HAVE_MPI
	if (sw.mpi) {
		rc = sweep_mpi_start(&sw);
		if (rc >= 0)
			goto out_args;	/* a rank other than 0 is done; or MPI did not start */
		rc = 0;
	}
#endif

	if (!sw.nr_seeds) {
		sw.seeds = calloc(1, sizeof(*sw.seeds));
		if (!sw.seeds)
			{ rc = die("out of memory"); goto out_args; }
		sw.seeds[0] = 1;
		sw.nr_seeds = 1;
	}
	/* every run reads the scenario again: a pipe or FIFO would give them nothing */
	{
		struct stat st;

		if (!stat(sw.scenario, &st) && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			snprintf(err, sizeof(err), "scenario '%s' is not a regular file (a pipe, FIFO "
				 "or device): each run reads it again; save it to a file first",
				 sw.scenario);
			rc = die(err);
			goto out_args;
		}
	}
	/* a plug-in's knobs are keys of the scenario: load it first */
	if (policy_arg && child_preload_policies(policy_arg, err, sizeof(err))) {
		rc = die(err);
		goto out_args;
	}
	/* the scenario as the runs see it before --set: its name, text and scale */
	if (scenario_load(&s, sw.scenario, NULL, 0, scale, err, sizeof(err))) {
		rc = die(err);
		goto out_scenario;
	}
	policy_from_file = !policy_arg && s.machine.policy;
	if (!policy_arg)
		policy_arg = s.machine.policy ? s.machine.policy : "classic";
	policy_buf = xstrdup(policy_arg);
	if (args_list_has_empty(policy_arg)) {
		snprintf(err, sizeof(err), "policy list '%.200s': an empty name", policy_arg);
		rc = die(err);
		goto out_scenario;
	}
	for (char *save, *p = strtok_r(policy_buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char msg[400];

		if (sw.nr_policies == SWEEP_MAX_POLICIES) {
			rc = die("too many policies");
			goto out_scenario;
		}
		if (!child_policy_get(p, msg, sizeof(msg))) {
			if (policy_from_file) {
				child_machine_policy_error(&s, NULL, 0, msg, err, sizeof(err));
			} else {
				snprintf(err, sizeof(err), "--policy: %s", msg);
			}
			rc = die(err);
			goto out_scenario;
		}
		if (scenario_check_policy(&s, p, err, sizeof(err))) {
			rc = die(err);
			goto out_scenario;
		}
		policies[sw.nr_policies++] = p;
	}
	if (!sw.nr_policies) {
		rc = die("--policy: no policy named");
		goto out_scenario;
	}
	sw.policies = policies;
	if (v && sw.nr_axes) {
		rc = die("--set: the combinations are the command's own");
		goto out_scenario;
	}
	sw.nr_combos = 1;
	for (size_t a = 0; a < sw.nr_axes; a++) {
		sw.nr_combos *= axes[a].nr;
		if (sw.nr_combos > SWEEP_MAX_RUNS)
			break;
	}
	if (sw.nr_combos > SWEEP_MAX_RUNS ||
	    sw.nr_policies * sw.nr_combos * sw.nr_seeds > SWEEP_MAX_RUNS) {
		rc = die("more than 100000 runs");
		goto out_scenario;
	}
	if (v) {
		sw.variants = v->sets;
		sw.nr_combos = v->nr;
		if (sw.nr_policies * sw.nr_combos * sw.nr_seeds > SWEEP_MAX_RUNS) {
			rc = die("more than 100000 runs");
			goto out_scenario;
		}
	}
	sw.total = sw.nr_policies * sw.nr_combos * sw.nr_seeds;

	sw.results = calloc(sw.total, sizeof(*sw.results));
	err[0] = '\0';
	if (!sw.results || sweep_plan_order(&sw, scale, err, sizeof(err))) {
		rc = die(*err ? err : "out of memory");
		goto out_free;
	}
	sw.rn.start_ns = uv_hrtime();
	runner_progress_every(&sw.rn, on_progress_timer);
#ifdef MMEMU_HAVE_MPI
	if (sw.mpi)
		sweep_mpi_run(&sw);
	else
#endif
	{
		sw.ops->more(&sw);
		sweep_progress(&sw);
		runner_run(&sw.rn);
	}
	if (sw.rn.tty)
		fprintf(stderr, "\r[sweep] done %zu/%zu, failed %zu, %.1fs\033[K\n", sw.done,
			sw.total, sw.failed, runner_elapsed_s(&sw.rn));
	if (sw.rn.interrupted) {
		fprintf(stderr, "mmemu: sweep: interrupted\n");
		rc = 130;
		goto out_free;
	}

	/* the runs in the fixed order; failed ones are left out */
	inv.runs = calloc(sw.total, sizeof(*inv.runs));
	if (!inv.runs) {
		rc = die("out of memory");
		goto out_free;
	}
	for (size_t i = 0; i < sw.total; i++)
		if (sw.results[i])
			inv.runs[inv.n_runs++] = sw.results[i];
	if (sw.failed)
		fprintf(stderr, "mmemu: sweep: %zu of %zu runs failed\n", sw.failed, sw.total);
	if (!inv.n_runs) {
		rc = 1;
		goto out_free;
	}
	inv.scenario_name = s.name;
	inv.scenario_path = s.path;
	inv.scenario_text = s.text ? s.text : (char *)protobuf_c_empty_string;
	inv.scale = s.machine.scale;
	inv.mmemu_version = (char *)help_version_string();
	{
		struct sink out;
		char why[512] = "";
		int wrc = 0;

		if (sink_open(&out)) {
			rc = die("out of memory");
			goto out_free;
		}
		/* column names only while every combination has its column */
		oo.col_names = v && v->names && inv.n_runs == sw.total ? v->names : NULL;
		if (summary_write(out.f, &oo, &inv, why, sizeof(why))) {
			sink_discard(&out);
			rc = die(why);
			goto out_free;
		}
		rc = sink_commit(&out, NULL, NULL);
		if (out_path) {
			if (sink_open(&out) || result_file_write(&inv, out.f)) {
				sink_discard(&out);
				rc = die("out of memory");
				goto out_free;
			}
			wrc = sink_commit(&out, out_path, "sweep: --out");
		}
		if (rc || wrc) {
			rc = rc ? rc : wrc;
			goto out_free;
		}
	}
	rc = sw.failed ? 1 : 0;
out_free:
	free(inv.runs);
	if (sw.results)
		for (size_t i = 0; i < sw.total; i++)
			if (sw.results[i])
				mmemu__run__free_unpacked(sw.results[i], NULL);
	free(sw.results);
	free(sw.order);
out_scenario:
	free(policy_buf);
	scenario_free(&s);
out_args:
#ifdef MMEMU_HAVE_MPI
	if (sw.m)
		sweep_mpi_finish(&sw);
#endif
	if (loop_opened)
		runner_close(&sw.rn);
	for (size_t a = 0; a < sw.nr_axes; a++) {
		free(axes[a].key);
		free(axes[a].vals);
	}
	free(sw.seeds);
	free(scenario_path);
	return rc;
}
