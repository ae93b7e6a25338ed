/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu run SCENARIO`: the scenario once per policy (and seed). Each run
 * executes in its own child process (the engine is once per process), two
 * at a time by default, and sends its results back through a pipe as an
 * mmemu.Run message; output order is the policy (then seed) order. `run
 * --out` saves the runs as one mmemu.Invocation, which `report` prints with
 * the same writers.
 *
 * A simulation never outlives the process that started it: every run child
 * asks for SIGKILL when its parent dies (PR_SET_PDEATHSIG), whatever kills
 * the parent (SIGKILL included).
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "models/mm.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "scenarios/run.h"
#include "tools/args.h"
#include "tools/child.h"
#include "tools/cmd.h"
#include "tools/help.h"
#include "tools/live.h"
#include "tools/live_http.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/resultset.h"
#include "tools/runner.h"
#include "tools/scenario_dirs.h"
#include "tools/sink.h"

#define MAX_POLICIES 16
#define MAX_SETS 128
#define MAX_SEEDS 1000
/* --sample's default, and the period --live samples at when --sample 0 keeps none */
#define DEFAULT_SAMPLE_NS (100 * NSEC_PER_MSEC)


/* What each run's process shares with the parent for the progress line. */
struct progress_slot {
	volatile double sim_seconds;	/* simulated time so far */
	volatile double done;		/* share done, -1 when unknown */
};

static void child_progress(void *ctx, double sim_seconds, double done)
{
	struct progress_slot *p = ctx;

	p->sim_seconds = sim_seconds;
	p->done = done;
}

struct child {
	pid_t pid;	/* the run's process */
	FILE *in;	/* the read end of its pipe */
};

/* In a run's child under --live: each sample row, one line, to the parent as it is made. */
static void child_sample(void *ctx, const char *row)
{
	FILE *f = ctx;

	fputs(row, f);
	fputc('\n', f);	/* the stream is line-buffered: the row goes now */
}

/*
 * Forks one run; the child writes its result (or a message) and exits.
 * With lv (--live), run i's sample rows go to lv through a second pipe
 * as the run makes them; the child closes it before it sends the result.
 */
static int spawn_run(const struct scenario *s, const struct run_opts *o, struct child *c,
		     struct live *lv, size_t i)
{
	pid_t parent = getpid();
	int fds[2], lfds[2] = { -1, -1 };

	if (pipe(fds))
		return -errno;
	if (lv && pipe(lfds)) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;

		close(fds[0]);
		close(fds[1]);
		if (lv) {
			close(lfds[0]);
			close(lfds[1]);
		}
		return -e;
	}
	if (c->pid == 0) {
		struct run_opts lo = *o;
		struct run_result r;
		char err[512];
		FILE *out, *rows = NULL;

		child_die_with_parent(parent);
		child_stdout_to_stderr();
		close(fds[0]);
		if (lv) {
			live_after_fork(lv);
			close(lfds[0]);
			rows = fdopen(lfds[1], "w");
			if (!rows || setvbuf(rows, NULL, _IOLBF, 0))
				_exit(1);
			lo.on_sample = child_sample;
			lo.on_sample_ctx = rows;
		}
		out = fdopen(fds[1], "w");
		result_init(&r);
		if (!out || scenario_run(s, &lo, &r, err, sizeof(err))) {
			fprintf(stderr, "mmemu: %s\n", err);
			_exit(1);
		}
		if ((rows && fclose(rows)) || result_send(&r, out) || fclose(out))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (lv) {
		close(lfds[1]);
		if (live_add_stream(lv, i, lfds[0]))
			return -EIO;
	}
	c->in = fdopen(fds[0], "r");
	return c->in ? 0 : -errno;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct progress {
	bool tty;			/* stderr is a terminal: draw the line */
	double start;			/* host time the runs began */
	size_t total, done, started;
	struct progress_slot *slot;	/* [run], shared with the children */
	const char *const *label;	/* [run] */
};

/* One line on stderr, redrawn: each running run's share, the whole, an ETA. */
static void progress_draw(const struct progress *p)
{
	double done = (double)p->done;
	bool known = true;
	char line[512], eta[32] = "?";
	size_t n;

	if (!p->tty)
		return;
	n = (size_t)snprintf(line, sizeof(line), "[run %zu/%zu]", p->done, p->total);
	for (size_t i = p->done; i < p->started && n < sizeof(line) - 64; i++) {
		double d = p->slot[i].done;

		if (d >= 0)
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %.0f%%", p->label[i],
					      100 * d);
		else
			n += (size_t)snprintf(line + n, sizeof(line) - n, " %s %.1fs simulated",
					      p->label[i], p->slot[i].sim_seconds);
		known &= d >= 0;
		done += d > 0 ? d : 0;
	}
	if (known && done > 0)
		runner_fmt_eta(eta, sizeof(eta),
			(now_s() - p->start) * ((double)p->total - done) / done);
	fprintf(stderr, "\r%s, %.0f%% done, ETA %s\033[K", line, 100 * done / (double)p->total, eta);
	fflush(stderr);
}

static void progress_clear(const struct progress *p)
{
	if (p->tty) {
		fprintf(stderr, "\r\033[K");
		fflush(stderr);
	}
}

static void progress_tick(void *ctx)
{
	progress_draw(ctx);
}

/*
 * Waits for the run's result, redrawing the progress line meanwhile; with
 * lv (--live), serving the page until the run's rows have ended.
 */
static int collect_run(struct child *c, Mmemu__Run **r, const char *label,
		       const struct progress *p, struct live *lv, size_t i)
{
	struct pollfd pfd = { .fd = fileno(c->in), .events = POLLIN };
	int status;

	if (lv)
		live_wait(lv, i, p->tty ? progress_tick : NULL, (void *)p);
	while (p->tty && poll(&pfd, 1, 250) == 0)
		progress_draw(p);
	*r = result_recv(c->in);
	fclose(c->in);
	waitpid(c->pid, &status, 0);
	if (WIFSIGNALED(status)) {
		progress_clear(p);
		fprintf(stderr, "mmemu: the run under '%s' failed: killed by %s (%s)\n", label,
			child_signal_name(WTERMSIG(status)), strsignal(WTERMSIG(status)));
		return -1;
	}
	if (!*r || !WIFEXITED(status) || WEXITSTATUS(status)) {
		progress_clear(p);
		fprintf(stderr, "mmemu: the run under '%s' failed\n", label);
		return -1;
	}
	return 0;
}

/*
 * run --cell (not shown in --help), as a runner's child (check-policy):
 * the one run of o in this process, and on stdout "K\n" and the result
 * (result_send()), or "F <enum mm_invariant_kind> <why>\n" when the run
 * failed; exit 0 either way, 1 when stdout could not be written. What a
 * plug-in prints goes to stderr.
 */
static int run_cell(const struct scenario *s, const struct run_opts *o)
{
	int fd = dup(STDOUT_FILENO);
	FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
	struct run_result r;
	char err[640];

	if (!out)
		return cmd_die("--cell: cannot keep standard output");
	child_stdout_to_stderr();
	result_init(&r);
	if (scenario_run(s, o, &r, err, sizeof(err))) {
		fprintf(out, "F %d %s\n", (int)mm_invariant_kind(), err);
		return fclose(out) ? 1 : 0;
	}
	fprintf(out, "K\n");
	if (result_send(&r, out)) {
		fclose(out);
		return 1;
	}
	return fclose(out) ? 1 : 0;
}

/* Saves inv to path ("-": standard output, for sweep); the sink's status. */
static int save_invocation(const Mmemu__Invocation *inv, const char *path)
{
	struct sink out;
	int rc;

	if (sink_open(&out))
		return cmd_die("out of memory");
	if (result_file_write(inv, out.f)) {
		sink_discard(&out);
		return cmd_die("out of memory");
	}
	rc = sink_commit(&out, path, "--out");
	return rc;
}

/* "a=1 b=2" from the --set options, in order. */
static char *join_sets(const char *const *sets, int nr)
{
	size_t len = 1;
	char *s;

	for (int i = 0; i < nr; i++)
		len += strlen(sets[i]) + 1;
	s = calloc(1, len);
	for (int i = 0; s && i < nr; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, sets[i]);
	}
	return s;
}

/* What run's options say. */
struct run_args {
	const char *sets[MAX_SETS];	/* --set, in order */
	int nr_sets;
	const char *policy_arg;		/* --policy, or NULL */
	const char *out_path;		/* --out, or NULL */
	const char *live_arg;		/* --live, or NULL */
	struct sockaddr_storage live_addr;
	long jobs;			/* -j */
	uint64_t seed, *seeds;		/* --seed; --seeds (malloc'ed) */
	size_t nr_seeds;
	bool seed_given;
	bool dump;			/* --dump lru_gen */
	uint64_t dump_every, sample;	/* --dump-every, --sample (ns) */
	bool live_wait, cell;		/* --live-wait, --cell */
	struct output_opts oo;		/* --format, --all */
	double scale;			/* --scale, 0: the scenario's */
};

/* The options that take a number or a duration: -1, or the exit status now. */
static int run_take_number(struct run_args *a, int opt)
{
	char err[512];

	switch (opt) {
	case OPT_SEED:
		if (args_u64(optarg, &a->seed)) {
			snprintf(err, sizeof(err), "--seed '%s' is not a number", optarg);
			return cmd_die(err);
		}
		a->seed_given = true;
		return -1;
	case OPT_SEEDS:
		free(a->seeds);
		a->seeds = NULL;
		if (args_seeds(optarg, MAX_SEEDS, &a->seeds, &a->nr_seeds)) {
			snprintf(err, sizeof(err),
				 "--seeds '%s': expected A..B or A,B,... (at most %d seeds)", optarg,
				 MAX_SEEDS);
			return cmd_die(err);
		}
		return -1;
	case OPT_SCALE:
		if (args_scale(optarg, &a->scale)) {
			snprintf(err, sizeof(err), "--scale '%s' is not in (0, 1] (or 1/N)", optarg);
			return cmd_die(err);
		}
		return -1;
	case OPT_DUMP_EVERY:
	case OPT_SAMPLE:
		if (parse_time_ns(optarg, opt == OPT_DUMP_EVERY ? &a->dump_every : &a->sample) ||
		    (opt == OPT_DUMP_EVERY && !a->dump_every)) {
			snprintf(err, sizeof(err), "--%s '%s' is not a duration",
				 opt == OPT_DUMP_EVERY ? "dump-every" : "sample", optarg);
			return cmd_die(err);
		}
		return -1;
	default:	/* OPT_JOBS */
		if (args_long(optarg, 1, 64, &a->jobs)) {
			snprintf(err, sizeof(err), "-j '%s': expected 1 to 64", optarg);
			return cmd_die(err);
		}
		return -1;
	}
}

/* Takes option opt (its value in optarg): -1, or the exit status now. */
static int run_take_option(struct run_args *a, int opt)
{
	char err[512], msg[600];

	switch (opt) {
	case OPT_SEED:
	case OPT_SEEDS:
	case OPT_SCALE:
	case OPT_DUMP_EVERY:
	case OPT_SAMPLE:
	case OPT_JOBS:
		return run_take_number(a, opt);
	case OPT_POLICY:
		a->policy_arg = optarg;
		return -1;
	case OPT_SET:
		if (a->nr_sets == MAX_SETS)
			return cmd_die("too many --set options");
		a->sets[a->nr_sets++] = optarg;
		return -1;
	case OPT_FORMAT:
		a->oo.format = optarg;
		if (!output_format_known(a->oo.format)) {
			snprintf(err, sizeof(err), "--format '%s': expected text, json or csv", optarg);
			return cmd_die(err);
		}
		return -1;
	case OPT_ALL:
		a->oo.all = true;
		return -1;
	case OPT_DUMP:
		if (strcmp(optarg, "lru_gen")) {
			snprintf(err, sizeof(err), "--dump '%s': only lru_gen is known", optarg);
			return cmd_die(err);
		}
		a->dump = true;
		return -1;
	case OPT_OUT:
		a->out_path = optarg;
		return *optarg ? -1 : cmd_die("--out: no file named");
	case OPT_LIVE:
		if (live_parse_addr(optarg, &a->live_addr, err, sizeof(err))) {
			snprintf(msg, sizeof(msg), "--live %s", err);
			return cmd_die(msg);
		}
		a->live_arg = optarg;
		return -1;
	case OPT_LIVE_WAIT:
		a->live_wait = true;
		return -1;
	case OPT_CELL:
		a->cell = true;
		return -1;
	case OPT_HELP:
		help_command(stdout, "run");
		return 0;
	default:
		return cmd_bad_usage("run");
	}
}

/* The options, their combinations and the seeds: -1, or the exit status now. */
static int run_parse(struct run_args *a, int argc, char **argv)
{
	int opt, rc;

	optind = 1;
	while ((opt = cli_getopt(CMD_RUN, argc, argv)) != -1)
		if ((rc = run_take_option(a, opt)) >= 0)
			return rc;
	if (optind + 1 != argc)
		return cmd_bad_usage("run");
	if (a->dump_every && !a->dump)
		return cmd_die("--dump-every needs --dump lru_gen");
	if (a->seeds && a->seed_given)
		return cmd_die("--seed and --seeds: give one of them");
	if (a->live_wait && !a->live_arg)
		return cmd_die("--live-wait needs --live [ADDR:]PORT");
	if (!a->seeds) {
		a->seeds = malloc(sizeof(*a->seeds));
		if (!a->seeds)
			return cmd_die("out of memory");
		a->seeds[0] = a->seed;
		a->nr_seeds = 1;
	}
	return -1;
}

/*
 * The policies of --policy, else the scenario's, else classic, each found
 * (a plug-in loaded) and checked against the scenario, into policies (their
 * names in buf, malloc'ed): 0, or the exit status.
 */
static int run_policies(const struct run_args *a, const struct scenario *s, char **buf,
			char **policies, int *nr)
{
	bool from_file = !a->policy_arg && s->machine.policy;
	const char *arg = a->policy_arg ? a->policy_arg
					: s->machine.policy ? s->machine.policy : "classic";
	char err[512];

	*buf = strdup(arg);
	if (!*buf)
		return cmd_die("out of memory");
	if (args_list_has_empty(arg)) {
		snprintf(err, sizeof(err), "policy list '%.200s': an empty name", arg);
		return cmd_die(err);
	}
	for (char *save, *p = strtok_r(*buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char msg[400];

		if (*nr == MAX_POLICIES)
			return cmd_die("too many policies");
		if (!child_policy_get(p, msg, sizeof(msg))) {
			if (from_file)
				child_machine_policy_error(s, a->sets, a->nr_sets, msg, err,
							   sizeof(err));
			else
				snprintf(err, sizeof(err), "--policy: %s", msg);
			return cmd_die(err);
		}
		if (scenario_check_policy(s, p, err, sizeof(err)))
			return cmd_die(err);
		policies[(*nr)++] = p;
	}
	return *nr ? 0 : cmd_die("--policy: no policy named");
}

/* The runs of one invocation: policy by policy, each under every seed. */
struct run_plan {
	const struct run_args *a;
	const struct scenario *s;
	char **policies;
	const char *options;		/* "a=1 b=2": the --set options */
	size_t nr_runs, nr_kept;	/* planned; kept (those before one that could not start) */
	Mmemu__Run **runs;		/* [run], as collected */
	struct child *children;		/* [run] */
	const char **labels;		/* [run]: "policy" or "policy seed N" */
	char (*label_buf)[64];
	const char **run_policy;	/* [run] */
	uint64_t *run_seed;		/* [run] */
	struct progress prog;
	struct live *lv;		/* --live's server, or NULL */
};

static int run_plan_init(struct run_plan *p, int nr_policies)
{
	size_t n = p->nr_runs = p->nr_kept = (size_t)nr_policies * p->a->nr_seeds;
	size_t nr_seeds = p->a->nr_seeds;

	p->runs = calloc(n, sizeof(*p->runs));
	p->children = calloc(n, sizeof(*p->children));
	p->labels = calloc(n, sizeof(*p->labels));
	p->label_buf = calloc(n, sizeof(*p->label_buf));
	p->run_policy = calloc(n, sizeof(*p->run_policy));
	p->run_seed = calloc(n, sizeof(*p->run_seed));
	p->prog.slot = mmap(NULL, n * sizeof(*p->prog.slot), PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->prog.slot == MAP_FAILED)
		p->prog.slot = NULL;
	if (!p->runs || !p->children || !p->labels || !p->label_buf || !p->run_policy ||
	    !p->run_seed || !p->prog.slot)
		return cmd_die("out of memory");
	for (size_t i = 0; i < n; i++) {
		if (nr_seeds > 1)
			snprintf(p->label_buf[i], sizeof(p->label_buf[i]), "%s seed %llu",
				 p->policies[i / nr_seeds],
				 (unsigned long long)p->a->seeds[i % nr_seeds]);
		else
			snprintf(p->label_buf[i], sizeof(p->label_buf[i]), "%s", p->policies[i]);
		p->labels[i] = p->label_buf[i];
		p->run_policy[i] = p->policies[i / nr_seeds];
		p->run_seed[i] = p->a->seeds[i % nr_seeds];
		p->prog.slot[i].done = -1;
	}
	return 0;
}

static void run_plan_free(struct run_plan *p)
{
	live_free(p->lv);
	for (size_t i = 0; p->runs && i < p->nr_runs; i++)
		if (p->runs[i])
			mmemu__run__free_unpacked(p->runs[i], NULL);
	if (p->prog.slot)
		munmap(p->prog.slot, p->nr_runs * sizeof(*p->prog.slot));
	free(p->runs);
	free(p->children);
	free(p->labels);
	free(p->label_buf);
	free(p->run_policy);
	free(p->run_seed);
}

/*
 * Starts runs while -j allows: 0; 1 when one could not start (said; the
 * runs before it are kept).
 */
static int run_start_more(struct run_plan *p)
{
	const struct run_args *a = p->a;
	struct progress *prog = &p->prog;

	while (prog->started < p->nr_kept && prog->started - prog->done < (size_t)a->jobs) {
		size_t i = prog->started;
		struct run_opts o = {
			.policy = p->policies[i / a->nr_seeds],
			.seed = a->seeds[i % a->nr_seeds],
			.options = p->options,
			.check_invariants = true,
			.dump_lru_gen = a->dump,
			.dump_every_ns = a->dump_every,
			/* the live view samples even when the result keeps none */
			.sample_ns = a->sample || !p->lv ? a->sample : DEFAULT_SAMPLE_NS,
			.samples_unsaved = p->lv && !a->sample,
			.progress = prog->tty ? child_progress : NULL,
			.progress_ctx = &prog->slot[i],
		};
		int e = spawn_run(p->s, &o, &p->children[i], p->lv, i);

		/* short of descriptors or processes: start it when a running one ends */
		if (e && prog->started > prog->done &&
		    (e == -EMFILE || e == -ENFILE || e == -EAGAIN || e == -ENOMEM))
			return 0;
		if (e) {
			progress_clear(prog);
			fprintf(stderr, "mmemu: cannot start run %zu of %zu (%s): %s%s\n", i + 1,
				p->nr_runs, p->labels[i], strerror(-e),
				prog->started ? "; the runs started before it follow" : "");
			p->nr_kept = prog->started;
			return 1;
		}
		prog->started++;
	}
	return 0;
}

/* Every run, -j at a time, collected in order: 0, or 1 when one failed. */
static int run_all(struct run_plan *p)
{
	struct progress *prog = &p->prog;
	char err[512];
	int rc = 0;

	prog->tty = isatty(STDERR_FILENO);
	prog->start = now_s();
	prog->total = p->nr_runs;
	prog->label = p->labels;
	while (prog->done < p->nr_kept) {
		if (run_start_more(p))
			rc = 1;
		if (prog->done == prog->started)	/* none running: one could not start */
			break;
		if (collect_run(&p->children[prog->done], &p->runs[prog->done],
				p->labels[prog->done], prog, p->lv, prog->done)) {
			rc = 1;
		} else {
			/* counters its policy does not keep: absent, not 0 (loaded already: found) */
			const struct reclaim_policy *rp =
				reclaim_policy_get(p->run_policy[prog->done], err, sizeof(err));

			if (rp)
				result_drop_unmaintained(p->runs[prog->done], rp);
			if (p->lv && live_run_done(p->lv, prog->done, p->s->name, p->runs[prog->done]))
				rc = 1;
		}
		prog->done++;
	}
	progress_clear(prog);
	return rc;
}

/*
 * Prints and saves the runs (rc: run_all()'s). A run that could not start
 * (nr_kept < nr_runs, rc 1): the runs before it are still printed and
 * saved, when each of them finished. The exit status.
 */
static int run_output(struct run_plan *p, int rc)
{
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	const struct run_args *a = p->a;
	bool partial = p->nr_kept < p->nr_runs && p->nr_kept;
	int prc = 0, wrc = 0;

	for (size_t i = 0; partial && i < p->nr_kept; i++)
		partial = p->runs[i] != NULL;
	if (rc && !partial)
		return rc;
	inv.scenario_name = p->s->name;
	inv.scenario_path = p->s->path;
	inv.scenario_text = p->s->text ? p->s->text : (char *)protobuf_c_empty_string;
	inv.scale = p->s->machine.scale;
	inv.mmemu_version = (char *)help_version_string();
	inv.n_runs = p->nr_kept;
	inv.runs = p->runs;
	if (!a->out_path || strcmp(a->out_path, "-"))
		prc = cmd_print_invocation(&inv, &a->oo, a->nr_seeds > 1);
	if (a->out_path)
		wrc = save_invocation(&inv, a->out_path);
	if (!rc)
		rc = prc ? prc : wrc;
	/* the final state, served until SIGINT or SIGTERM */
	if (!rc && p->lv)
		live_serve_final(p->lv);
	return rc;
}

/* The runs of the scenario s under policies, with the options of a: the exit status. */
static int run_scenario(const struct run_args *a, const struct scenario *s, char **policies,
			int nr_policies, const char *options)
{
	struct run_plan p = { .a = a, .s = s, .policies = policies, .options = options };
	char err[512];
	int rc = run_plan_init(&p, nr_policies);

	if (!rc && a->live_arg) {
		p.lv = live_start(&a->live_addr, a->live_arg, s, p.run_policy, p.run_seed,
				  p.nr_runs, err, sizeof(err));
		if (!p.lv)
			rc = cmd_die(err);
		else if (a->live_wait)
			live_wait_page(p.lv);
	}
	if (!rc)
		rc = run_output(&p, run_all(&p));
	run_plan_free(&p);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .jobs = 2, .seed = 1, .sample = DEFAULT_SAMPLE_NS,
			      .oo = { .format = "text" } };
	char *policies[MAX_POLICIES], *policy_buf = NULL, *options = NULL, *path, err[512];
	int nr_policies = 0, rc = run_parse(&a, argc, argv);
	struct scenario s;

	if (rc >= 0) {
		free(a.seeds);
		return rc;
	}
	/* a plug-in's knobs are keys of the scenario: load it first */
	if (a.policy_arg && child_preload_policies(a.policy_arg, err, sizeof(err))) {
		free(a.seeds);
		return cmd_die(err);
	}
	path = args_scenario(argv[optind], mmemu_scenario_dirs);
	if (!path || scenario_load(&s, path, a.sets, a.nr_sets, a.scale, err, sizeof(err))) {
		free(a.seeds);
		free(path);
		return cmd_die(path ? err : "out of memory");
	}
	free(path);
	options = join_sets(a.sets, a.nr_sets);
	rc = options ? run_policies(&a, &s, &policy_buf, policies, &nr_policies)
		     : cmd_die("out of memory");
	if (!rc && a.cell) {
		struct run_opts o = {
			.policy = policies[0], .seed = a.seeds[0], .options = options,
			.check_invariants = true, .dump_lru_gen = a.dump,
			.dump_every_ns = a.dump_every, .sample_ns = a.sample,
		};

		rc = nr_policies == 1 && a.nr_seeds == 1 && !a.live_arg
			     ? run_cell(&s, &o)
			     : cmd_die("--cell: one policy, one seed, no --live");
	} else if (!rc) {
		rc = run_scenario(&a, &s, policies, nr_policies, options);
	}
	free(policy_buf);
	free(options);
	free(a.seeds);
	scenario_free(&s);
	return rc;
}
