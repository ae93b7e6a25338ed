/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mmemu command: run, report, sweep, plot, list, bench. Each run
 * executes in its own child process (the engine is once per process), two
 * at a time by default, and sends its results back through a pipe as an
 * mmemu.Run message; output order is the policy (then seed) order. `run
 * --out` saves the runs as one mmemu.Invocation, which `report` prints with
 * the same writers. What a command prints goes out through tools/sink.h:
 * a write that fails is an error, never a silent truncation.
 *
 * A simulation never outlives the process that started it: every run child
 * asks for SIGKILL when its parent dies (PR_SET_PDEATHSIG), whatever kills
 * the parent (SIGKILL included), and a child started with exec (by sweep or
 * tools/reproduce) finds its parent's pid in MMEMU_PARENT_PID.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "models/mm.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "scenarios/run.h"
#include "scenarios/workload.h"
#include "storage/blockdev.h"
#include "tools/child.h"
#include "tools/resultset.h"
#include "tools/runner.h"
#include "tools/args.h"
#include "tools/scenario_dirs.h"
#include "tools/bench.h"
#include "tools/check_policy.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/live.h"
#include "tools/live_http.h"
#include "tools/output.h"
#include "tools/plot.h"
#include "tools/view.h"
#include "tools/sink.h"
#include "tools/summary.h"
#include "tools/ablate.h"
#include "tools/fuzz.h"
#include "tools/sweep.h"

#define MAX_POLICIES 16
#define MAX_SETS 128
#define MAX_SEEDS 1000
/* --sample's default, and the period --live samples at when --sample 0 keeps none */
#define DEFAULT_SAMPLE_NS (100 * NSEC_PER_MSEC)

static int die(const char *msg)
{
	fprintf(stderr, "mmemu: %s\n", msg);
	return 2;
}

/* The command's synopsis on stderr, status 2. */
static int bad_usage(const char *cmd)
{
	help_command(stderr, cmd);
	return 2;
}

/* ---- list ---- */

/* One line per key: name, documentation, and what --scale does to it. */
static void list_keys(FILE *f, const struct key_desc *tab, const char *indent)
{
	for (const struct key_desc *k = tab; k && k->key; k++)
		if (k->type != KT_RETIRED)
			fprintf(f, "%s%-18s %s%s\n", indent, k->key, k->doc,
			k->scale == KEY_SCALED ? " [scaled]"
			: k->scale == KEY_SCALED_PAGES ? " [scaled, whole pages]"
			: k->scale == KEY_PERIOD ? " [a period: scaled]" : "");
}

static void list_policies(FILE *f, bool names)
{
	for (int i = 0; reclaim_policies[i]; i++)
		if (names)
			fprintf(f, "%s\n", reclaim_policies[i]->name);
		else {
			const char *releases;

			kernel_has_policy(&kernel_rules_table[KERNEL_DEFAULT], reclaim_policies[i]->name,
					  &releases);
			fprintf(f, "  %-14s %s [kernel %s]\n", reclaim_policies[i]->name,
				reclaim_policies[i]->desc, releases);
		}
}

/* The releases [machine] kernel takes, and the rules that differ between them. */
static void list_kernels(FILE *f, bool names)
{
	if (names) {
		for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
			fprintf(f, "%s\n", kernel_rules_table[v].name);
		return;
	}
	fprintf(f, "  [machine] kernel = ");
	for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
		fprintf(f, "%s%s", v ? " | " : "", kernel_rules_table[v].name);
	fprintf(f, " (default %s); rules, yes where a release has it:\n",
		kernel_rules_table[KERNEL_DEFAULT].name);
	fprintf(f, "    %-26s", "rule");
	for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
		fprintf(f, " %-4s", kernel_rules_table[v].name);
	fprintf(f, "  changed by\n");
	for (const struct kernel_rule_doc *d = kernel_rule_docs; d->key; d++) {
		fprintf(f, "    %-26s", d->key);
		for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
			fprintf(f, " %-4s", kernel_rule(&kernel_rules_table[v], d) ? "yes" : "-");
		fprintf(f, "  %s\n      %s\n", d->since, d->what);
	}
	fprintf(f, "    policies, by the releases that had them:\n");
	for (int i = 0; reclaim_policies[i]; i++) {
		const char *releases;

		kernel_has_policy(&kernel_rules_table[KERNEL_DEFAULT], reclaim_policies[i]->name,
				  &releases);
		fprintf(f, "      %-14s %s\n", reclaim_policies[i]->name, releases);
	}
}

/* The workload types of scenarios/ (its table), each with its own keys after those of every type. */
static void list_workloads(FILE *f, bool names)
{
	if (!names) {
		fprintf(f, "  keys of every type:\n");
		list_keys(f, scn_workload_keys, "    ");
	}
	for (int t = 0; workload_types[t]; t++) {
		if (names) {
			fprintf(f, "%s\n", workload_types[t]->name);
			continue;
		}
		fprintf(f, "  %-18s %s\n", workload_types[t]->name, workload_types[t]->desc);
		list_keys(f, workload_types[t]->keys, "    ");
	}
}

/*
 * The scenario sections other than [workload.*], each with its keys, those
 * of the policies' knobs last ([mglru]); names: --set's KEY.
 */
static void list_sections(FILE *f, bool names)
{
	struct scn_section_doc docs[32];
	int nr = scn_section_docs(docs, 32);

	for (const struct scn_section_doc *sd = docs; sd < docs + nr; sd++) {
		if (!names) {
			fprintf(f, "  [%s] %s\n", sd->name, sd->desc);
			list_keys(f, sd->keys, "    ");
			continue;
		}
		for (const struct key_desc *k = sd->keys; k->key; k++)
			if (k->type != KT_RETIRED)
				fprintf(f, "%s%s%s\n", sd->set, *sd->set ? "." : "", k->key);
	}
}

/* The device models of storage/ (its table of types). */
static void list_devices(FILE *f, bool names)
{
	for (int t = 0; t < NR_BDEV_TYPES; t++)
		fprintf(f, "%s%s\n", names ? "" : "  ", bdev_type_name((enum bdev_type)t));
}

static const struct {
	const char *name, *title;
	void (*print)(FILE *f, bool names);
} lists[] = {
	{ "policies", "policies", list_policies },
	{ "kernels", "kernel releases", list_kernels },
	{ "workloads", "workload types", list_workloads },
	{ "devices", "device types", list_devices },
	{ "sections", "scenario sections ([workload.*]: above)", list_sections },
};

static int cmd_list(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return help_command(stdout, "list"), 0;
	if (argc > 2)
		return bad_usage("list");
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (argc == 2 && strcmp(argv[1], lists[i].name))
			continue;
		if (argc == 1)
			printf("%s:\n", lists[i].title);
		lists[i].print(stdout, argc == 2);
		if (argc == 2)
			return 0;
	}
	if (argc == 2) {
		fprintf(stderr, "mmemu: list: unknown table '%s' (policies, kernels, workloads, devices or "
			"sections)\n",
			argv[1]);
		return 2;
	}
	return 0;
}

/*
 * SIGKILL when parent exits. The getppid() check closes the race with a
 * parent that died before prctl(): this process was reparented already.
 */
static void die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL)) {
		fprintf(stderr, "mmemu: cannot follow the parent process: %s\n", strerror(errno));
		_exit(1);
	}
	if (getppid() != parent) {
		fprintf(stderr, "mmemu: parent process %ld has exited\n", (long)parent);
		_exit(1);
	}
}

/* MMEMU_PARENT_PID (set by sweep and tools/reproduce): die with that parent. */
static int follow_parent_env(void)
{
	const char *v = getenv(MMEMU_PARENT_PID_ENV);
	char *end;
	long pid;

	if (!v)
		return 0;
	errno = 0;
	pid = strtol(v, &end, 10);
	if (errno || *v < '1' || *v > '9' || *end || (pid_t)pid != pid) {
		fprintf(stderr, "mmemu: %s '%s' is not a process id\n", MMEMU_PARENT_PID_ENV, v);
		return 2;
	}
	unsetenv(MMEMU_PARENT_PID_ENV);
	die_with_parent((pid_t)pid);
	return 0;
}

/* ---- run ---- */

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

		die_with_parent(parent);
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
		return die("--cell: cannot keep standard output");
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
		return die("out of memory");
	if (result_file_write(inv, out.f)) {
		sink_discard(&out);
		return die("out of memory");
	}
	rc = sink_commit(&out, path, "--out");
	return rc;
}

/* The invocation in format (a summary over seeds when seeds > 1) to standard output. */
static int print_invocation(const Mmemu__Invocation *inv, const struct output_opts *o,
			    bool summary)
{
	struct sink out;
	char err[512] = "";
	int rc;

	if (sink_open(&out))
		return die("out of memory");
	rc = summary ? summary_write(out.f, o, inv, err, sizeof(err))
		     : output_write(out.f, o, inv, err, sizeof(err));
	if (rc) {
		sink_discard(&out);
		fprintf(stderr, "mmemu: %s\n", err);
		return 2;
	}
	return sink_commit(&out, NULL, NULL);
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

static int cmd_run(int argc, char **argv)
{
	const char *sets[MAX_SETS], *policy_arg = NULL, *out_path = NULL, *live_arg = NULL;
	bool policy_from_file = false;
	char *policies[MAX_POLICIES], *policy_buf = NULL, *options = NULL, *scenario_path, err[512];
	int nr_sets = 0, nr_policies = 0, opt, rc = 0;
	long jobs = 2;
	uint64_t seed = 1, *seeds = NULL, dump_every = 0, sample = DEFAULT_SAMPLE_NS;
	size_t nr_seeds = 0, nr_runs, nr_kept;
	bool partial;
	bool dump = false, seed_given = false, live_wait = false, cell = false;
	struct output_opts oo = { .format = "text" };
	double scale = 0;
	struct scenario s;
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	Mmemu__Run **runs = NULL;
	struct child *children = NULL;
	struct progress prog = { 0 };
	const char **labels = NULL, **run_policy = NULL;
	char (*label_buf)[64] = NULL;
	struct sockaddr_storage live_addr;
	struct live *lv = NULL;
	uint64_t *run_seed = NULL;

	optind = 1;
	while ((opt = cli_getopt(CMD_RUN, argc, argv)) != -1) {
		switch (opt) {
		case OPT_POLICY:
			policy_arg = optarg;
			break;
		case OPT_SET:
			if (nr_sets == MAX_SETS)
				return die("too many --set options");
			sets[nr_sets++] = optarg;
			break;
		case OPT_SEED:
			if (args_u64(optarg, &seed)) {
				snprintf(err, sizeof(err), "--seed '%s' is not a number", optarg);
				return die(err);
			}
			seed_given = true;
			break;
		case OPT_SEEDS:
			free(seeds);
			if (args_seeds(optarg, MAX_SEEDS, &seeds, &nr_seeds)) {
				snprintf(err, sizeof(err),
					 "--seeds '%s': expected A..B or A,B,... (at most %d seeds)",
					 optarg, MAX_SEEDS);
				return die(err);
			}
			break;
		case OPT_SCALE:
			if (args_scale(optarg, &scale)) {
				snprintf(err, sizeof(err), "--scale '%s' is not in (0, 1] (or 1/N)",
					 optarg);
				return die(err);
			}
			break;
		case OPT_FORMAT:
			oo.format = optarg;
			if (!output_format_known(oo.format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				return die(err);
			}
			break;
		case OPT_ALL:
			oo.all = true;
			break;
		case OPT_DUMP:
			if (strcmp(optarg, "lru_gen")) {
				snprintf(err, sizeof(err), "--dump '%s': only lru_gen is known", optarg);
				return die(err);
			}
			dump = true;
			break;
		case OPT_DUMP_EVERY:
		case OPT_SAMPLE:
			if (parse_time_ns(optarg, opt == OPT_DUMP_EVERY ? &dump_every : &sample) ||
			    (opt == OPT_DUMP_EVERY && !dump_every)) {
				snprintf(err, sizeof(err), "--%s '%s' is not a duration",
					 opt == OPT_DUMP_EVERY ? "dump-every" : "sample", optarg);
				return die(err);
			}
			break;
		case OPT_OUT:
			out_path = optarg;
			if (!*out_path)
				return die("--out: no file named");
			break;
		case OPT_LIVE:
			if (live_parse_addr(optarg, &live_addr, err, sizeof(err))) {
				char msg[600];

				snprintf(msg, sizeof(msg), "--live %s", err);
				free(seeds);
				return die(msg);
			}
			live_arg = optarg;
			break;
		case OPT_CELL:
			cell = true;
			break;
		case OPT_LIVE_WAIT:
			live_wait = true;
			break;
		case OPT_JOBS:
			if (args_long(optarg, 1, 64, &jobs)) {
				snprintf(err, sizeof(err), "-j '%s': expected 1 to 64", optarg);
				return die(err);
			}
			break;
		case OPT_HELP:
			help_command(stdout, "run");
			return 0;
		default:
			return bad_usage("run");
		}
	}
	if (optind + 1 != argc) {
		free(seeds);
		return bad_usage("run");
	}
	if (dump_every && !dump) {
		free(seeds);
		return die("--dump-every needs --dump lru_gen");
	}
	if (seeds && seed_given) {
		free(seeds);
		return die("--seed and --seeds: give one of them");
	}
	if (live_wait && !live_arg) {
		free(seeds);
		return die("--live-wait needs --live [ADDR:]PORT");
	}
	if (!seeds) {
		seeds = malloc(sizeof(*seeds));
		if (!seeds)
			return die("out of memory");
		seeds[0] = seed;
		nr_seeds = 1;
	}
	/* a plug-in's knobs are keys of the scenario: load it first */
	if (policy_arg && child_preload_policies(policy_arg, err, sizeof(err))) {
		free(seeds);
		return die(err);
	}
	scenario_path = args_scenario(argv[optind], mmemu_scenario_dirs);
	if (!scenario_path || scenario_load(&s, scenario_path, sets, nr_sets, scale, err,
					    sizeof(err))) {
		free(seeds);
		free(scenario_path);
		return die(scenario_path ? err : "out of memory");
	}
	free(scenario_path);
	options = join_sets(sets, nr_sets);
	policy_from_file = !policy_arg && s.machine.policy;
	if (!policy_arg)
		policy_arg = s.machine.policy ? s.machine.policy : "classic";
	policy_buf = strdup(policy_arg);
	if (!options || !policy_buf) {
		rc = die("out of memory");
		goto out;
	}
	if (args_list_has_empty(policy_arg)) {
		snprintf(err, sizeof(err), "policy list '%.200s': an empty name", policy_arg);
		rc = die(err);
		goto out;
	}
	for (char *save, *p = strtok_r(policy_buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char msg[400];

		if (nr_policies == MAX_POLICIES) {
			rc = die("too many policies");
			goto out;
		}
		if (!child_policy_get(p, msg, sizeof(msg))) {
			if (policy_from_file) {
				child_machine_policy_error(&s, sets, nr_sets, msg, err, sizeof(err));
			} else {
				snprintf(err, sizeof(err), "--policy: %s", msg);
			}
			rc = die(err);
			goto out;
		}
		if (scenario_check_policy(&s, p, err, sizeof(err))) {
			rc = die(err);
			goto out;
		}
		policies[nr_policies++] = p;
	}
	if (!nr_policies) {
		rc = die("--policy: no policy named");
		goto out;
	}

	if (cell) {
		struct run_opts o = {
			.policy = policies[0], .seed = seeds[0], .options = options,
			.check_invariants = true, .dump_lru_gen = dump, .dump_every_ns = dump_every,
			.sample_ns = sample,
		};

		rc = nr_policies == 1 && nr_seeds == 1 && !live_arg ? run_cell(&s, &o)
				: die("--cell: one policy, one seed, no --live");
		goto out;
	}
	/* policy by policy, each under every seed */
	nr_runs = nr_kept = (size_t)nr_policies * nr_seeds;
	runs = calloc(nr_runs, sizeof(*runs));
	children = calloc(nr_runs, sizeof(*children));
	labels = calloc(nr_runs, sizeof(*labels));
	label_buf = calloc(nr_runs, sizeof(*label_buf));
	run_policy = calloc(nr_runs, sizeof(*run_policy));
	run_seed = calloc(nr_runs, sizeof(*run_seed));
	prog.slot = mmap(NULL, nr_runs * sizeof(*prog.slot), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!runs || !children || !labels || !label_buf || !run_policy || !run_seed ||
	    prog.slot == MAP_FAILED) {
		if (prog.slot == MAP_FAILED)
			prog.slot = NULL;
		rc = die("out of memory");
		goto out;
	}
	for (size_t i = 0; i < nr_runs; i++) {
		if (nr_seeds > 1)
			snprintf(label_buf[i], sizeof(label_buf[i]), "%s seed %llu",
				 policies[i / nr_seeds], (unsigned long long)seeds[i % nr_seeds]);
		else
			snprintf(label_buf[i], sizeof(label_buf[i]), "%s", policies[i]);
		labels[i] = label_buf[i];
		run_policy[i] = policies[i / nr_seeds];
		run_seed[i] = seeds[i % nr_seeds];
		prog.slot[i].done = -1;
	}
	if (live_arg) {
		lv = live_start(&live_addr, live_arg, &s, run_policy, run_seed, nr_runs, err,
				sizeof(err));
		if (!lv) {
			rc = die(err);
			goto out;
		}
		if (live_wait)
			live_wait_page(lv);
	}
	prog.tty = isatty(STDERR_FILENO);
	prog.start = now_s();
	prog.total = nr_runs;
	prog.label = labels;
	while (prog.done < nr_kept) {
		while (prog.started < nr_kept && prog.started - prog.done < (size_t)jobs) {
			size_t i = prog.started;
			struct run_opts o = {
				.policy = policies[i / nr_seeds],
				.seed = seeds[i % nr_seeds],
				.options = options,
				.check_invariants = true,
				.dump_lru_gen = dump,
				.dump_every_ns = dump_every,
				/* the live view samples even when the result keeps none */
				.sample_ns = sample || !lv ? sample : DEFAULT_SAMPLE_NS,
				.samples_unsaved = lv && !sample,
				.progress = prog.tty ? child_progress : NULL,
				.progress_ctx = &prog.slot[i],
			};

			int e = spawn_run(&s, &o, &children[i], lv, i);

			/* short of descriptors or processes: start it when a running one ends */
			if (e && prog.started > prog.done &&
			    (e == -EMFILE || e == -ENFILE || e == -EAGAIN || e == -ENOMEM))
				break;
			if (e) {
				progress_clear(&prog);
				fprintf(stderr, "mmemu: cannot start run %zu of %zu (%s): %s%s\n", i + 1,
					nr_runs, labels[i], strerror(-e),
					prog.started ? "; the runs started before it follow" : "");
				nr_kept = prog.started;
				rc = 1;
				break;
			}
			prog.started++;
		}
		if (prog.done == prog.started)	/* none running: one could not start */
			break;
		if (collect_run(&children[prog.done], &runs[prog.done], labels[prog.done], &prog,
				lv, prog.done)) {
			rc = 1;
		} else {
			/* counters its policy does not keep: absent, not 0 (loaded already: found) */
			const struct reclaim_policy *rp =
				reclaim_policy_get(run_policy[prog.done], err, sizeof(err));

			if (rp)
				result_drop_unmaintained(runs[prog.done], rp);
			if (lv && live_run_done(lv, prog.done, s.name, runs[prog.done]))
				rc = 1;
		}
		prog.done++;
	}
	progress_clear(&prog);
	/*
	 * A run that could not start (nr_kept < nr_runs, rc 1): the runs before
	 * it are still printed and saved, when each of them finished.
	 */
	partial = nr_kept < nr_runs && nr_kept;
	for (size_t i = 0; partial && i < nr_kept; i++)
		partial = runs[i] != NULL;
	if (!rc || partial) {
		int prc = 0, wrc = 0;

		inv.scenario_name = s.name;
		inv.scenario_path = s.path;
		inv.scenario_text = s.text ? s.text : (char *)protobuf_c_empty_string;
		inv.scale = s.machine.scale;
		inv.mmemu_version = (char *)help_version_string();
		inv.n_runs = nr_kept;
		inv.runs = runs;
		if (!out_path || strcmp(out_path, "-"))
			prc = print_invocation(&inv, &oo, nr_seeds > 1);
		if (out_path)
			wrc = save_invocation(&inv, out_path);
		if (!rc)
			rc = prc ? prc : wrc;
		/* the final state, served until SIGINT or SIGTERM */
		if (!rc && lv)
			live_serve_final(lv);
	}
out:
	live_free(lv);
	for (size_t i = 0; runs && i < (size_t)nr_policies * nr_seeds; i++)
		if (runs[i])
			mmemu__run__free_unpacked(runs[i], NULL);
	if (prog.slot)
		munmap(prog.slot, (size_t)nr_policies * nr_seeds * sizeof(*prog.slot));
	free(runs);
	free(children);
	free(labels);
	free(label_buf);
	free(run_policy);
	free(run_seed);
	free(policy_buf);
	free(options);
	free(seeds);
	scenario_free(&s);
	return rc;
}

/* ---- report ---- */

/* Reads a saved invocation; a message naming the file when it is not one. */
static Mmemu__Invocation *load_invocation(const char *path)
{
	FILE *f = fopen(path, "rb");
	Mmemu__Invocation *inv;
	char why[256];

	if (!f) {
		fprintf(stderr, "mmemu: report: cannot open '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	inv = result_file_read(f, why, sizeof(why));
	fclose(f);
	if (inv && !inv->n_runs) {
		mmemu__invocation__free_unpacked(inv, NULL);
		inv = NULL;
		snprintf(why, sizeof(why), "holds no runs");
	}
	if (!inv)
		fprintf(stderr, "mmemu: report: '%s': %s\n", path, why);
	return inv;
}

static int cmd_report(int argc, char **argv)
{
	struct output_opts oo = { .format = "text" };
	Mmemu__Invocation **files, all = MMEMU__INVOCATION__INIT;
	char err[512];
	int nr_files, opt, rc = 0;
	bool summary = false, force = false;

	optind = 1;
	while ((opt = cli_getopt(CMD_REPORT, argc, argv)) != -1) {
		switch (opt) {
		case OPT_FORMAT:
			oo.format = optarg;
			if (!output_format_known(oo.format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				return die(err);
			}
			break;
		case OPT_SUMMARY:
			summary = true;
			break;
		case OPT_ALL:
			oo.all = true;
			break;
		case OPT_FORCE:
			force = true;
			break;
		case OPT_HELP:
			help_command(stdout, "report");
			return 0;
		default:
			return bad_usage("report");
		}
	}
	nr_files = argc - optind;
	if (nr_files < 1)
		return bad_usage("report");
	files = calloc((size_t)nr_files, sizeof(*files));
	if (!files)
		return die("out of memory");
	for (int i = 0; i < nr_files; i++) {
		Mmemu__Run **runs;

		files[i] = load_invocation(argv[optind + i]);
		if (!files[i]) {
			rc = 2;
			break;
		}
		/* JSON carries the samples: a bad one is named with its file */
		if (!strcmp(oo.format, "json") &&
		    result_check_samples(files[i], argv[optind + i], err, sizeof(err))) {
			fprintf(stderr, "mmemu: report: %s\n", err);
			rc = 2;
			break;
		}
		if (i && !force &&
		    result_same_experiment(files[0], argv[optind], files[i], argv[optind + i],
					   "report", err, sizeof(err))) {
			fprintf(stderr, "mmemu: %s\n", err);
			rc = 2;
			break;
		}
		runs = realloc(all.runs, (all.n_runs + files[i]->n_runs) * sizeof(*runs));
		if (!runs) {
			rc = die("out of memory");
			break;
		}
		memcpy(runs + all.n_runs, files[i]->runs, files[i]->n_runs * sizeof(*runs));
		all.runs = runs;
		all.n_runs += files[i]->n_runs;
	}
	/* the runs of every file side by side, under the first file's scenario and scale */
	if (!rc) {
		all.scenario_name = files[0]->scenario_name;
		all.scenario_path = files[0]->scenario_path;
		all.scenario_text = files[0]->scenario_text;
		all.scale = files[0]->scale;
		all.mmemu_version = files[0]->mmemu_version;
		rc = print_invocation(&all, &oo, summary);
	}
	free(all.runs);
	for (int i = 0; i < nr_files; i++)
		if (files[i])
			mmemu__invocation__free_unpacked(files[i], NULL);
	free(files);
	return rc;
}

/* ---- the commands ---- */

static const struct {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", cmd_run },	{ "report", cmd_report }, { "sweep", cmd_sweep },
	{ "plot", cmd_plot },	{ "list", cmd_list },	  { "bench", cmd_bench },
	{ "check-policy", cmd_check_policy }, { "view", cmd_view },
	{ "ablate", cmd_ablate },	{ "fuzz", cmd_fuzz },
};

int main(int argc, char **argv)
{
	int rc;

	if (follow_parent_env())
		return 2;
	if (argc < 2) {
		help_global(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && !help_command(stdout, argv[2]))
			return sink_close_stdout();
		help_global(stdout);
		return sink_close_stdout();
	}
	if (!strcmp(argv[1], "--help-scdoc")) {
		help_scdoc(stdout);
		return sink_close_stdout();
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		help_version(stdout);
		return sink_close_stdout();
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			rc = commands[i].fn(argc - 1, argv + 1);
			/* what the command printed with stdio (list, bench, help) */
			if (sink_close_stdout() && !rc)
				rc = 1;
			return rc;
		}
	fprintf(stderr, "mmemu: unknown command '%s'\n", argv[1]);
	help_global(stderr);
	return 2;
}
