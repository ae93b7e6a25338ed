/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu run SCENARIO`: the scenario once per policy (and seed), a sweep
 * of one cell. Each run is a child on the runner (tools/runner.h: -j at a
 * time, two by default, dying with this process): `mmemu run PATH --policy
 * P --seed S ... --cell`, which gets the scenario text this process loaded
 * on its stdin (a FIFO is read once), runs it in its own process (the
 * engine is once per process) and writes its outcome on stdout: "K" and
 * the mmemu.Run, or "F <invariant kind> <why>". Under a terminal its share
 * done goes to a slot of a memfd (its fd 3); under --live its sample rows,
 * one line each, to a pipe (its fd 4) that the live server reads. Output
 * order is the policy (then seed) order, and so is the order failures are
 * said in. `run --out` saves the runs as one mmemu.Invocation, which
 * `report` prints with the same writers.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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
/* a run takes what it takes: the runner's timeout is a year */
#define RUN_TIMEOUT_S (365 * 86400.0)
/* a cell's fds past stdio: its progress slot's memfd, its sample rows' pipe */
#define CELL_PROGRESS_FD 3
#define CELL_LIVE_FD 4

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
	const char *scale_arg, *dump_every_arg, *sample_arg;	/* as given, for the cells */
	bool live_wait;			/* --live-wait */
	bool cell, cell_stdin, cell_live;	/* --cell, --cell-stdin, --cell-live */
	long cell_progress;		/* --cell-progress SLOT, or -1 */
	struct output_opts oo;		/* --format, --all */
	bool format_given;		/* --format: a --cell prints as run does (batch) */
	double scale;			/* --scale, 0: the scenario's */
};

/* ---- the cell: one run in this process, as a runner's child ---- */

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

/* Under --live: each sample row, one line, to the parent as it is made. */
static void child_sample(void *ctx, const char *row)
{
	FILE *f = ctx;

	fputs(row, f);
	fputc('\n', f);	/* the stream is line-buffered: the row goes now */
}

/* The cell's progress slot (--cell-progress) and sample rows (--cell-live) into o. */
static int cell_io(const struct run_args *a, struct run_opts *o, FILE **rows)
{
	if (a->cell_progress >= 0) {
		struct progress_slot *slot = mmap(NULL, (size_t)(a->cell_progress + 1) *
						  sizeof(*slot), PROT_READ | PROT_WRITE,
						  MAP_SHARED, CELL_PROGRESS_FD, 0);

		if (slot == MAP_FAILED)
			return cmd_die("--cell-progress: no slot to write");
		o->progress = child_progress;
		o->progress_ctx = &slot[a->cell_progress];
	}
	if (a->cell_live) {
		*rows = fdopen(CELL_LIVE_FD, "w");
		if (!*rows || setvbuf(*rows, NULL, _IOLBF, 0))
			return cmd_die("--cell-live: no pipe to write");
		o->on_sample = child_sample;
		o->on_sample_ctx = *rows;
		/* the live view samples even when the result keeps none */
		o->samples_unsaved = !o->sample_ns;
		if (!o->sample_ns)
			o->sample_ns = DEFAULT_SAMPLE_NS;
	}
	return 0;
}

/* r as a received mmemu.Run (the bytes run's parent gets), or NULL. */
static Mmemu__Run *cell_run_message(const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len), *in;
	Mmemu__Run *run = NULL;

	if (!m)
		return NULL;
	if (!result_send(r, m) && !fclose(m) && (in = fmemopen(buf, len, "r"))) {
		run = result_recv(in);
		fclose(in);
	} else if (m) {
		fclose(m);
	}
	free(buf);
	return run;
}

/*
 * run --cell --format F, as batch's child: the one run printed on stdout
 * (fd, this process's stdout before the run) as `run --format F` prints it,
 * from the same received message, its policy's unkept counters dropped.
 * The exit status.
 */
static int cell_print(const struct run_args *a, const struct scenario *s, const char *policy,
		      const struct run_result *r, int fd)
{
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	Mmemu__Run *run = cell_run_message(r);
	const struct reclaim_policy *rp;
	char err[512];
	int rc;

	if (!run)
		return cmd_die("out of memory");
	rp = reclaim_policy_get(policy, err, sizeof(err));	/* loaded already: found */
	if (rp)
		result_drop_unmaintained(run, rp);
	fflush(stdout);
	if (dup2(fd, STDOUT_FILENO) < 0) {
		mmemu__run__free_unpacked(run, NULL);
		return cmd_die("--cell: cannot keep standard output");
	}
	inv.scenario_name = s->name;
	inv.scenario_path = s->path;
	inv.scenario_text = s->text ? s->text : (char *)protobuf_c_empty_string;
	inv.scale = s->machine.scale;
	inv.mmemu_version = (char *)help_version_string();
	inv.n_runs = 1;
	inv.runs = &run;
	rc = cmd_print_invocation(&inv, &a->oo, false);
	mmemu__run__free_unpacked(run, NULL);
	return rc;
}

/*
 * run --cell (not shown in --help), as a runner's child (run, check-policy):
 * the one run of o in this process, and on stdout "K\n" and the result
 * (result_send()), or "F <enum mm_invariant_kind> <why>\n" when the run
 * failed; exit 0 either way, 1 when stdout could not be written. What a
 * plug-in prints goes to stderr; the sample rows' pipe is closed before the
 * outcome goes. With --format (batch's children): the run as `run --format`
 * prints it (cell_print()), or its failure on stderr and exit 1.
 */
static int run_cell(const struct run_args *a, const struct scenario *s, struct run_opts *o)
{
	int fd = dup(STDOUT_FILENO);
	FILE *out = fd < 0 ? NULL : fdopen(fd, "w"), *rows = NULL;
	struct run_result r;
	char err[640];
	int rc;

	if (!out)
		return cmd_die("--cell: cannot keep standard output");
	child_stdout_to_stderr();
	if (cell_io(a, o, &rows)) {
		fclose(out);
		return 2;
	}
	result_init(&r);
	rc = scenario_run(s, o, &r, err, sizeof(err));
	if (rows && fclose(rows) && !rc) {
		snprintf(err, sizeof(err), "--cell-live: the rows' pipe: %s", strerror(errno));
		rc = -1;
	}
	if (a->format_given) {
		/* one line: the last one of a child's stderr is what batch says of it */
		if (rc)
			fprintf(stderr, "mmemu: the run under '%s' failed: %s\n", o->policy, err);
		rc = rc ? 1 : cell_print(a, s, o->policy, &r, fd);
		result_free(&r);
		fclose(out);	/* nothing in it: what printed went to fd 1 */
		return rc;
	}
	if (rc)
		fprintf(out, "F %d %s\n", (int)mm_invariant_kind(), err);
	else if (fprintf(out, "K\n") < 0 || result_send(&r, out))
		rc = 1;
	result_free(&r);
	if (fclose(out))
		return 1;
	return rc > 0 ? 1 : 0;	/* a run that failed was said: "F" */
}

/* ---- the progress line ---- */

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

struct progress {
	bool tty;			/* stderr is a terminal: draw the line */
	double start;			/* host time the runs began */
	size_t total, done, started;	/* done: said, in order */
	struct progress_slot *slot;	/* [run], shared with the children (a memfd) */
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

/* run --cell: one policy, one seed, the options of a, here. */
static int run_one_cell(const struct run_args *a, const struct scenario *s, const char *policy,
			int nr_policies)
{
	char *options = join_sets(a->sets, a->nr_sets);
	struct run_opts o = {
		.policy = policy, .seed = a->seeds[0], .options = options,
		.check_invariants = true, .dump_lru_gen = a->dump,
		.dump_every_ns = a->dump_every, .sample_ns = a->sample,
	};
	int rc;

	if (!options)
		return cmd_die("out of memory");
	rc = nr_policies == 1 && a->nr_seeds == 1 && !a->live_arg
		     ? run_cell(a, s, &o)
		     : cmd_die("--cell: one policy (--policy P), one seed (--seed N), no --live");
	free(options);
	return rc;
}

/* ---- the options ---- */

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
		a->scale_arg = optarg;
		return -1;
	case OPT_DUMP_EVERY:
	case OPT_SAMPLE:
		if (parse_time_ns(optarg, opt == OPT_DUMP_EVERY ? &a->dump_every : &a->sample) ||
		    (opt == OPT_DUMP_EVERY && !a->dump_every)) {
			snprintf(err, sizeof(err), "--%s '%s' is not a duration",
				 opt == OPT_DUMP_EVERY ? "dump-every" : "sample", optarg);
			return cmd_die(err);
		}
		*(opt == OPT_DUMP_EVERY ? &a->dump_every_arg : &a->sample_arg) = optarg;
		return -1;
	case OPT_CELL_PROGRESS:
		if (args_long(optarg, 0, MAX_POLICIES * MAX_SEEDS, &a->cell_progress))
			return cmd_die("--cell-progress: not a slot");
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
	case OPT_CELL_PROGRESS:
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
		a->format_given = true;
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
	case OPT_CELL_STDIN:
	case OPT_CELL_LIVE:
		*(opt == OPT_CELL ? &a->cell : opt == OPT_CELL_STDIN ? &a->cell_stdin
								       : &a->cell_live) = true;
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

/* ---- the plan and its runs on the runner ---- */

/* The runs of one invocation: policy by policy, each under every seed. */
struct run_plan {
	const struct run_args *a;
	const struct scenario *s;
	char **policies;
	size_t nr_runs, nr_kept;	/* planned; kept (those before one that could not start) */
	Mmemu__Run **runs;		/* [run], as collected */
	const char **labels;		/* [run]: "policy" or "policy seed N" */
	char (*label_buf)[64];
	const char **run_policy;	/* [run] */
	uint64_t *run_seed;		/* [run] */
	bool *ended;			/* [run]: its child's end has come */
	char **why;			/* [run]: its "F" message, or NULL */
	int *signal;			/* [run]: what killed its child, or 0 */
	struct progress prog;
	int progress_fd;		/* the memfd of prog.slot, or -1 */
	struct runner rn;
	bool rn_open;
	int rc;				/* 1 once a run could not start */
	struct live *lv;		/* --live's server, or NULL */
};

static int run_plan_init(struct run_plan *p, int nr_policies)
{
	size_t n = p->nr_runs = p->nr_kept = (size_t)nr_policies * p->a->nr_seeds;
	size_t nr_seeds = p->a->nr_seeds;

	p->progress_fd = -1;
	p->runs = calloc(n, sizeof(*p->runs));
	p->labels = calloc(n, sizeof(*p->labels));
	p->label_buf = calloc(n, sizeof(*p->label_buf));
	p->run_policy = calloc(n, sizeof(*p->run_policy));
	p->run_seed = calloc(n, sizeof(*p->run_seed));
	p->ended = calloc(n, sizeof(*p->ended));
	p->why = calloc(n, sizeof(*p->why));
	p->signal = calloc(n, sizeof(*p->signal));
	if (!p->runs || !p->labels || !p->label_buf || !p->run_policy || !p->run_seed ||
	    !p->ended || !p->why || !p->signal)
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
	}
	return 0;
}

/* Under a terminal: the children's progress slots, in a memfd they map too. */
static int run_progress_init(struct run_plan *p)
{
	size_t len = p->nr_runs * sizeof(*p->prog.slot);

	p->prog.tty = isatty(STDERR_FILENO);
	if (!p->prog.tty)
		return 0;
	p->progress_fd = memfd_create("mmemu-progress", MFD_CLOEXEC);
	if (p->progress_fd < 0 || ftruncate(p->progress_fd, (off_t)len))
		return cmd_die("out of memory");
	p->prog.slot = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, p->progress_fd, 0);
	if (p->prog.slot == MAP_FAILED) {
		p->prog.slot = NULL;
		return cmd_die("out of memory");
	}
	for (size_t i = 0; i < p->nr_runs; i++)
		p->prog.slot[i].done = -1;
	return 0;
}

static void run_plan_free(struct run_plan *p)
{
	if (p->rn_open)
		runner_close(&p->rn);
	live_free(p->lv);
	for (size_t i = 0; p->runs && i < p->nr_runs; i++)
		if (p->runs[i])
			mmemu__run__free_unpacked(p->runs[i], NULL);
	for (size_t i = 0; p->why && i < p->nr_runs; i++)
		free(p->why[i]);
	if (p->prog.slot)
		munmap(p->prog.slot, p->nr_runs * sizeof(*p->prog.slot));
	if (p->progress_fd >= 0)
		close(p->progress_fd);
	free(p->runs);
	free(p->labels);
	free(p->label_buf);
	free(p->run_policy);
	free(p->run_seed);
	free(p->ended);
	free(p->why);
	free(p->signal);
}

/* A word of a cell's command line, or NULL when out of memory. */
static bool add_arg(char **args, size_t *n, const char *s)
{
	return (args[(*n)++] = strdup(s)) != NULL;
}

/* `mmemu run PATH --policy P --seed S [what the options say] --cell --cell-stdin ...` of run i. */
static char **cell_args(const struct run_plan *p, size_t i, bool live)
{
	const struct run_args *a = p->a;
	char **args = calloc(24 + 2 * (size_t)a->nr_sets, sizeof(*args)), num[32];
	size_t n = 0;
	bool ok;

	if (!args)
		return NULL;
	snprintf(num, sizeof(num), "%llu", (unsigned long long)p->run_seed[i]);
	ok = add_arg(args, &n, "run") && add_arg(args, &n, p->s->path) &&
	     add_arg(args, &n, "--policy") && add_arg(args, &n, p->run_policy[i]) &&
	     add_arg(args, &n, "--seed") && add_arg(args, &n, num);
	for (int k = 0; ok && k < a->nr_sets; k++)
		ok = add_arg(args, &n, "--set") && add_arg(args, &n, a->sets[k]);
	if (ok && a->scale_arg)
		ok = add_arg(args, &n, "--scale") && add_arg(args, &n, a->scale_arg);
	if (ok && a->dump)
		ok = add_arg(args, &n, "--dump") && add_arg(args, &n, "lru_gen");
	if (ok && a->dump_every_arg)
		ok = add_arg(args, &n, "--dump-every") && add_arg(args, &n, a->dump_every_arg);
	if (ok && a->sample_arg)
		ok = add_arg(args, &n, "--sample") && add_arg(args, &n, a->sample_arg);
	ok = ok && add_arg(args, &n, "--cell") && add_arg(args, &n, "--cell-stdin");
	if (ok && p->prog.slot) {
		snprintf(num, sizeof(num), "%zu", i);
		ok = add_arg(args, &n, "--cell-progress") && add_arg(args, &n, num);
	}
	if (ok && live)
		ok = add_arg(args, &n, "--cell-live");
	if (!ok) {
		for (size_t k = 0; k < n; k++)
			free(args[k]);
		free(args);
		return NULL;
	}
	return args;
}

/* Starts run i: 0, or -errno (nothing started, or -EIO: its rows have no reader). */
static int run_spawn(struct run_plan *p, size_t i)
{
	struct runner_io io = { .in = p->s->text ? p->s->text : "", .fds = { p->progress_fd, -1 } };
	char **args = cell_args(p, i, p->lv != NULL), *label = strdup(p->labels[i]);
	int rows[2] = { -1, -1 }, e = 0;

	io.in_len = strlen(io.in);
	if (!args || !label)
		e = -ENOMEM;
	else if (p->lv && pipe2(rows, O_CLOEXEC))
		e = -errno;
	io.fds[1] = rows[1];
	if (!e)
		e = runner_spawn_io(&p->rn, i, args, label, &io);
	if (rows[1] >= 0)
		close(rows[1]);
	if (e) {
		if (rows[0] >= 0)
			close(rows[0]);
		for (char **s = args; s && *s; s++)
			free(*s);
		free(args);
		free(label);
		return e;
	}
	return p->lv && live_add_stream(p->lv, i, rows[0]) ? -EIO : 0;
}

/*
 * Starts runs while -j allows. Short of descriptors or processes while
 * runs are out: later, when one has been said. Else a run that cannot
 * start is said, and the runs after it are not kept (p->rc 1).
 */
static void run_start_more(struct run_plan *p)
{
	struct progress *prog = &p->prog;

	while (prog->started < p->nr_kept && runner_can_spawn(&p->rn)) {
		size_t i = prog->started;
		int e = run_spawn(p, i);

		if (e && prog->started > prog->done &&
		    (e == -EMFILE || e == -ENFILE || e == -EAGAIN || e == -ENOMEM))
			return;
		if (e) {
			progress_clear(prog);
			fprintf(stderr, "mmemu: cannot start run %zu of %zu (%s): %s%s\n", i + 1,
				p->nr_runs, p->labels[i], strerror(-e),
				prog->started ? "; the runs started before it follow" : "");
			p->nr_kept = prog->started;
			p->rc = 1;
			return;
		}
		prog->started++;
	}
}

/* The "K" and result, or "F <kind> <why>", of run i's child (run_cell()) into p. */
static void run_read_outcome(struct run_plan *p, size_t i, const struct runner_exit *e)
{
	FILE *in = e->out_len ? fmemopen((void *)e->out, e->out_len, "r") : NULL;
	char line[800];
	int kind, n = 0;

	if (in && fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = 0;
		if (!strcmp(line, "K"))
			p->runs[i] = result_recv(in);
		else if (sscanf(line, "F %d %n", &kind, &n) == 1 && n)
			p->why[i] = strdup(line + n);
	}
	if (in)
		fclose(in);
}

static void run_exit(struct runner *r, const struct runner_exit *e)
{
	struct run_plan *p = r->ctx;

	p->ended[e->index] = true;
	p->signal[e->index] = e->term_signal;
	if (!e->term_signal && !e->exit_status && !e->timed_out)
		run_read_outcome(p, e->index, e);
	run_start_more(p);
}

static void run_progress_tick(struct runner *r)
{
	struct run_plan *p = r->ctx;

	progress_draw(&p->prog);
}

/* Under --live, while the server waits for a run's rows: the runner's turn, every 250 ms. */
static void run_pump(void *ctx)
{
	struct run_plan *p = ctx;

	uv_run(&p->rn.loop, UV_RUN_NOWAIT);
	run_start_more(p);
	progress_draw(&p->prog);
}

/* Run i's end, said in order: 0, or 1 when it failed. */
static int run_report(struct run_plan *p, size_t i)
{
	const struct reclaim_policy *rp;
	char err[512];

	if (p->signal[i]) {
		progress_clear(&p->prog);
		fprintf(stderr, "mmemu: the run under '%s' failed: killed by %s (%s)\n", p->labels[i],
			child_signal_name(p->signal[i]), strsignal(p->signal[i]));
		return 1;
	}
	if (!p->runs[i]) {
		progress_clear(&p->prog);
		if (p->why[i])
			fprintf(stderr, "mmemu: %s\n", p->why[i]);
		fprintf(stderr, "mmemu: the run under '%s' failed\n", p->labels[i]);
		return 1;
	}
	/* counters its policy does not keep: absent, not 0 (loaded already: found) */
	rp = reclaim_policy_get(p->run_policy[i], err, sizeof(err));
	if (rp)
		result_drop_unmaintained(p->runs[i], rp);
	return p->lv && live_run_done(p->lv, i, p->s->name, p->runs[i]) ? 1 : 0;
}

/* Every run on the runner, -j at a time, said in order: 0, or 1 when one failed. */
static int run_all(struct run_plan *p)
{
	struct progress *prog = &p->prog;
	int rc = 0;

	prog->start = now_s();
	prog->total = p->nr_runs;
	prog->label = p->labels;
	if (runner_open(&p->rn, (unsigned)p->a->jobs, RUN_TIMEOUT_S))
		return cmd_die("cannot start the event loop");
	p->rn_open = true;
	p->rn.ctx = p;
	p->rn.on_exit = run_exit;
	p->rn.inherit_stderr = true;	/* each run's messages, as it writes them */
	runner_progress_every(&p->rn, run_progress_tick);
	run_start_more(p);
	while (prog->done < p->nr_kept && prog->done < prog->started) {
		size_t i = prog->done;

		if (p->lv)
			live_wait(p->lv, i, run_pump, p);
		while (!p->ended[i]) {
			uv_run(&p->rn.loop, UV_RUN_ONCE);
			run_start_more(p);
		}
		if (p->rn.interrupted)
			break;
		rc |= run_report(p, i);
		prog->done++;
		run_start_more(p);
	}
	progress_clear(prog);
	return rc | p->rc;
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

/*
 * The runs of the scenario s under policies, with the options of a: the
 * exit status. Interrupted (SIGINT, SIGTERM, SIGHUP): every run killed,
 * then this process ends by that signal, as it always has.
 */
static int run_scenario(const struct run_args *a, const struct scenario *s, char **policies,
			int nr_policies)
{
	struct run_plan p = { .a = a, .s = s, .policies = policies };
	char err[512];
	int rc = run_plan_init(&p, nr_policies), sig;

	if (!rc)
		rc = run_progress_init(&p);
	if (!rc && a->live_arg) {
		p.lv = live_start(&a->live_addr, a->live_arg, s, p.run_policy, p.run_seed,
				  p.nr_runs, err, sizeof(err));
		if (!p.lv)
			rc = cmd_die(err);
		else if (a->live_wait)
			live_wait_page(p.lv);
	}
	if (!rc)
		rc = run_all(&p);
	if (p.rn_open && p.rn.interrupted) {
		sig = p.rn.interrupt_signal;
		run_plan_free(&p);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	if (p.rn_open) {
		runner_close(&p.rn);	/* every child gone before the output */
		p.rn_open = false;
	}
	if (!rc || p.nr_kept < p.nr_runs)
		rc = run_output(&p, rc);
	run_plan_free(&p);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .jobs = 2, .seed = 1, .sample = DEFAULT_SAMPLE_NS,
			      .cell_progress = -1, .oo = { .format = "text" } };
	char *policies[MAX_POLICIES], *policy_buf = NULL, *path, err[512];
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
	if (!path || scenario_load_stream(&s, path, a.cell_stdin ? stdin : NULL, a.sets,
					  a.nr_sets, a.scale, err, sizeof(err))) {
		if (path)
			scenario_free(&s);
		free(a.seeds);
		free(path);
		return cmd_die(path ? err : "out of memory");
	}
	free(path);
	rc = run_policies(&a, &s, &policy_buf, policies, &nr_policies);
	if (!rc && a.cell)
		rc = run_one_cell(&a, &s, policies[0], nr_policies);
	else if (!rc)
		rc = run_scenario(&a, &s, policies, nr_policies);
	free(policy_buf);
	free(a.seeds);
	scenario_free(&s);
	return rc;
}
