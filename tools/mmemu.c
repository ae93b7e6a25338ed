/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The mmemu command: run, report, list, bench. Each run executes in its own
 * child process (the engine is once per process), two at a time by default,
 * and sends its results back through a pipe as an mmemu.Run message; output
 * order is the policy order. `run --out` saves the runs as one
 * mmemu.Invocation, which `report` prints with the same writers.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "models/policy.h"
#include "scenarios/run.h"
#include "tools/bench.h"
#include "tools/output.h"
#include "tools/sweep.h"
#include "tools/plot.h"

#define MAX_POLICIES 16
#define MAX_SETS 128

static void usage(FILE *f)
{
	fprintf(f,
		"usage: mmemu run SCENARIO [--policy a,b,...] [--set section.key=value]...\n"
		"                 [--seed N] [--scale F] [--format text|json|csv] [-j N]\n"
		"                 [--dump lru_gen [--dump-every T]] [--sample T] [--out FILE]\n"
		"       mmemu report FILE... [--format text|json|csv] [--summary]\n"
		"       mmemu sweep SCENARIO [--policy a,b] [--set key=v1,v2]... [--seeds 1..5]\n"
		"                   [-j N] [--timeout S] [--format F] [--out FILE]\n"
		"       mmemu plot FILE... [--what gens|memory|throughput|refaults] [-o OUT.svg|OUT.png]\n"
		"       mmemu list\n"
		"       mmemu bench [--policy NAME]\n"
		"       mmemu --help\n"
		"\n"
		"run     emulate SCENARIO once per policy and print the results side by side\n"
		"        --policy   comma-separated policies (default: the scenario's, else classic)\n"
		"        --set      override a scenario key, e.g. --set memcg.app.max=2G\n"
		"        --seed     run seed (default 1)\n"
		"        --scale    shrink sizes and counts (0 < F <= 1, or 1/N)\n"
		"        --format   text (default), json or csv\n"
		"        -j         runs in parallel (default 2)\n"
		"        --dump lru_gen   each lruvec as /sys/kernel/debug/lru_gen shows it, at\n"
		"                   the end and, with --dump-every T, every T simulated\n"
		"        --sample   period of the JSON time series of generation sizes (0.1s)\n"
		"        --out      also save every run of this invocation to FILE (protobuf)\n"
		"report  print results saved with run --out as run printed them; with more\n"
		"        files, their runs side by side (scenario and scale of the first);\n"
		"        --summary: mean and 95%% CI over seeds of runs differing only in seed\n"
		"sweep   every policy x --set value x seed, in parallel; mean and CI over seeds\n"
		"        (mmemu sweep --help)\n"
		"plot    draw saved samples with gnuplot: lruvec generations (gens, the default),\n"
		"        memory.current, ops/s or refaults/s over time; -o sets the file (.svg/.png)\n"
		"list    the registered policies and workload types\n"
		"bench   hit-path accesses, faults per host second, bytes per folio\n");
}

static int die(const char *msg)
{
	fprintf(stderr, "mmemu: %s\n", msg);
	return 2;
}

static int cmd_list(void)
{
	printf("policies:\n");
	for (int i = 0; reclaim_policies[i]; i++)
		printf("  %-14s %s\n", reclaim_policies[i]->name, reclaim_policies[i]->desc);
	printf("workload types:\n");
	for (int t = 0; t < NR_WL_TYPES; t++)
		printf("  %s\n", scn_workload_type_name((enum scn_workload_type)t));
	printf("device types:\n  nvme\n");
	return 0;
}

struct child {
	pid_t pid;	/* the run's process */
	FILE *in;	/* the read end of its pipe */
};

/* Forks one run; the child writes its result (or a message) and exits. */
static int spawn_run(const struct scenario *s, const struct run_opts *o, struct child *c)
{
	int fds[2];

	if (pipe(fds))
		return -errno;
	fflush(NULL);
	c->pid = fork();
	if (c->pid < 0)
		return -errno;
	if (c->pid == 0) {
		struct run_result r;
		char err[512];
		FILE *out;

		close(fds[0]);
		out = fdopen(fds[1], "w");
		result_init(&r);
		if (!out || scenario_run(s, o, &r, err, sizeof(err))) {
			fprintf(stderr, "mmemu: %s\n", err);
			_exit(1);
		}
		if (result_send(&r, out) || fclose(out))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	c->in = fdopen(fds[0], "r");
	return c->in ? 0 : -errno;
}

static int collect_run(struct child *c, Mmemu__Run **r, const char *policy)
{
	int status;

	*r = result_recv(c->in);
	fclose(c->in);
	waitpid(c->pid, &status, 0);
	if (!*r || !WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "mmemu: the run under '%s' failed\n", policy);
		return -1;
	}
	return 0;
}

/* Saves inv to path; a message and status 2 when it cannot. */
static int save_invocation(const Mmemu__Invocation *inv, const char *path)
{
	bool to_stdout = !strcmp(path, "-");	/* --out -: for mmemu sweep */
	FILE *f = to_stdout ? stdout : fopen(path, "wb");
	int rc = f ? result_file_write(inv, f) : -errno;

	if (f && (to_stdout ? fflush(f) : fclose(f)) && !rc)
		rc = -errno;
	if (rc) {
		fprintf(stderr, "mmemu: --out '%s': %s\n", path, strerror(-rc));
		if (f && !to_stdout)
			unlink(path);
		return 2;
	}
	return 0;
}

static int cmd_run(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },
		{ "scale", required_argument, NULL, 'x' },
		{ "format", required_argument, NULL, 'f' },
		{ "dump", required_argument, NULL, 'd' },
		{ "dump-every", required_argument, NULL, 'D' },
		{ "sample", required_argument, NULL, 'T' },
		{ "out", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *sets[MAX_SETS], *policy_arg = NULL, *format = "text", *out_path = NULL;
	char *policies[MAX_POLICIES], policy_buf[512], options[256] = "", err[512];
	int nr_sets = 0, nr_policies = 0, jobs = 2, opt, rc = 0;
	uint64_t seed = 1, dump_every = 0, sample = 100 * NSEC_PER_MSEC;
	bool dump = false;
	double scale = 0;
	struct scenario s;
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	Mmemu__Run **runs;
	struct child *children;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		char *end;

		switch (opt) {
		case 'p':
			policy_arg = optarg;
			break;
		case 's':
			if (nr_sets == MAX_SETS)
				return die("too many --set options");
			sets[nr_sets++] = optarg;
			if (strlen(options) + strlen(optarg) + 2 < sizeof(options)) {
				if (options[0])
					strcat(options, " ");
				strcat(options, optarg);
			}
			break;
		case 'S':
			errno = 0;
			seed = strtoull(optarg, &end, 0);
			if (errno || *end || !*optarg || *optarg == '-') {
				snprintf(err, sizeof(err), "--seed '%s' is not a number", optarg);
				return die(err);
			}
			break;
		case 'x': {
			const char *slash = strchr(optarg, '/');

			scale = slash ? strtod(optarg, NULL) / strtod(slash + 1, &end)
				      : strtod(optarg, &end);
			if (*end || !(scale > 0 && scale <= 1)) {
				snprintf(err, sizeof(err), "--scale '%s' is not in (0, 1] (or 1/N)",
					 optarg);
				return die(err);
			}
			break;
		}
		case 'f':
			format = optarg;
			if (!output_format_known(format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				return die(err);
			}
			break;
		case 'd':
			if (strcmp(optarg, "lru_gen")) {
				snprintf(err, sizeof(err), "--dump '%s': only lru_gen is known", optarg);
				return die(err);
			}
			dump = true;
			break;
		case 'D':
		case 'T':
			if (parse_time_ns(optarg, opt == 'D' ? &dump_every : &sample) ||
			    (opt == 'D' && !dump_every)) {
				snprintf(err, sizeof(err), "--%s '%s' is not a duration",
					 opt == 'D' ? "dump-every" : "sample", optarg);
				return die(err);
			}
			break;
		case 'o':
			out_path = optarg;
			if (!*out_path)
				return die("--out: no file named");
			break;
		case 'j':
			jobs = atoi(optarg);
			if (jobs < 1 || jobs > 64)
				return die("-j wants 1 to 64");
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind + 1 != argc) {
		usage(stderr);
		return 2;
	}
	if (dump_every && !dump)
		return die("--dump-every needs --dump lru_gen");
	if (scenario_load(&s, argv[optind], sets, nr_sets, scale, err, sizeof(err)))
		return die(err);

	if (!policy_arg)
		policy_arg = s.machine.policy[0] ? s.machine.policy : "classic";
	snprintf(policy_buf, sizeof(policy_buf), "%s", policy_arg);
	for (char *save, *p = strtok_r(policy_buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (nr_policies == MAX_POLICIES) {
			scenario_free(&s);
			return die("too many policies");
		}
		if (!reclaim_policy_find(p)) {
			snprintf(err, sizeof(err), "--policy: unknown policy '%s' (see mmemu list)", p);
			scenario_free(&s);
			return die(err);
		}
		policies[nr_policies++] = p;
	}
	if (!nr_policies) {
		scenario_free(&s);
		return die("--policy: no policy named");
	}

	runs = calloc((size_t)nr_policies, sizeof(*runs));
	children = calloc((size_t)nr_policies, sizeof(*children));
	if (!runs || !children)
		return die("out of memory");
	for (int started = 0, done = 0; done < nr_policies;) {
		while (started < nr_policies && started - done < jobs) {
			struct run_opts o = {
				.policy = policies[started],
				.seed = seed,
				.options = options,
				.check_invariants = true,
				.dump_lru_gen = dump,
				.dump_every_ns = dump_every,
				.sample_ns = sample,
			};

			if (spawn_run(&s, &o, &children[started]))
				return die("cannot start a run");
			started++;
		}
		if (collect_run(&children[done], &runs[done], policies[done]))
			rc = 1;
		done++;
	}
	if (!rc) {
		inv.scenario_name = s.name;
		inv.scenario_path = s.path;
		inv.scenario_text = s.text ? s.text : (char *)protobuf_c_empty_string;
		inv.scale = s.machine.scale;
		inv.mmemu_version = (char *)MMEMU_VERSION;
		inv.n_runs = (size_t)nr_policies;
		inv.runs = runs;
		if (!out_path || strcmp(out_path, "-"))
			output_write(stdout, format, &inv);
		if (out_path)
			rc = save_invocation(&inv, out_path);
	}
	for (int i = 0; i < nr_policies; i++)
		if (runs[i])
			mmemu__run__free_unpacked(runs[i], NULL);
	free(runs);
	free(children);
	scenario_free(&s);
	return rc;
}

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
	static const struct option opts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "summary", no_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *format = "text";
	Mmemu__Invocation **files, all = MMEMU__INVOCATION__INIT;
	char err[512];
	int nr_files, opt, rc = 0;
	bool summary = false;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			format = optarg;
			if (!output_format_known(format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				return die(err);
			}
			break;
		case 'm':
			summary = true;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	nr_files = argc - optind;
	if (nr_files < 1) {
		usage(stderr);
		return 2;
	}
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
	}
	if (!rc && summary)
		sweep_summary_write(stdout, format, &all);
	else if (!rc)
		output_write(stdout, format, &all);
	free(all.runs);
	for (int i = 0; i < nr_files; i++)
		if (files[i])
			mmemu__invocation__free_unpacked(files[i], NULL);
	free(files);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "plot"))
		return cmd_plot(argc - 1, argv + 1);
	if (!strcmp(argv[1], "list"))
		return cmd_list();
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sweep"))
		return cmd_sweep(argc - 1, argv + 1);
	fprintf(stderr, "mmemu: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
