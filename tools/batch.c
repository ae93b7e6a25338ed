/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu batch PLAN [-j N] [--timeout S]`: the runs a plan lists, each a
 * child on the runner (tools/runner.h: -j at a time, killed past --timeout,
 * dying with this process), for a caller that has many runs of different
 * scenarios and options to make (tools/reproduce).
 *
 * A plan line is a run: the file its result goes to, then `mmemu run`'s
 * arguments (the scenario and its options, one policy, one seed), words
 * separated by blanks, a word with blanks in double quotes ("a b"). Blank
 * lines and lines starting with '#' are skipped. Run i (the i-th line that
 * is a run, from 0) is the child `mmemu run ARGS --format json --cell`, the
 * simulation in that process as run's own cells are, which prints its
 * result as `mmemu run ARGS --format json` does (run_cell(), cell_print()
 * in tools/cmd_run.c); that stdout is written to its result file whole
 * (tools/sink.h). The options batch sets, those that make more than one
 * run (--seeds, a policy list) or no JSON of one (--out, --live) are
 * refused in a plan, as is a result file two lines name: the plan is
 * checked whole before any run starts, a bad line is a message naming the
 * plan, the line and the word, and exit 2. The values themselves are the
 * run's to check: a bad one fails that run.
 *
 * As each run ends, one line goes to stdout, flushed: the run's index, its
 * status (ok, failed, timeout, killed), the host seconds it took and its
 * error ("exit 1: <the last line of its stderr>", "killed by SIGSEGV",
 * "cannot write result 'FILE'"), tab-separated, the error empty for ok.
 * A failed run does not stop the others; exit 1 at the end when one failed
 * or stdout could not be written (then no run is started after it).
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/args.h"
#include "tools/batch.h"
#include "tools/child.h"
#include "tools/cmd.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/runner.h"
#include "tools/sink.h"

#define BATCH_MAX_JOBS 256
/* no --timeout: a run takes what it takes (a year, as run's) */
#define BATCH_NO_TIMEOUT_S (365 * 86400.0)
/* what batch appends to every run's arguments: one run, printed as run prints it */
static const char *const batch_run_tail[] = { "--format", "json", "--cell" };
#define BATCH_TAIL_LEN (sizeof(batch_run_tail) / sizeof(batch_run_tail[0]))

/* One run of the plan. */
struct batch_run {
	char *result;		/* the file its JSON goes to */
	char **words;		/* run's arguments as the plan has them, NULL-ended */
	size_t nr_words;
	unsigned line;		/* its line in the plan, for messages */
	uint64_t start_ns;	/* uv_hrtime() when it started */
};

struct batch {
	const char *plan;		/* the plan's path */
	struct batch_run *runs;		/* [nr_runs], in plan order */
	size_t nr_runs, cap;
	size_t started;			/* runs started, in order */
	size_t nr_failed;
	bool out_failed;		/* stdout could not be written: start nothing more */
	struct runner rn;
};

/* ---- the plan ---- */

static int plan_error(const struct batch *b, unsigned line, const char *word, const char *why)
{
	fprintf(stderr, "mmemu: plan '%s' line %u: '%s': %s\n", b->plan, line, word, why);
	return 2;
}

static void words_free(char **words)
{
	for (char **w = words; w && *w; w++)
		free(*w);
	free(words);
}

/*
 * The words of line into *words (malloc'ed, NULL-ended): 0, -1 when out of
 * memory, or 1 with the word that does not end (an unclosed quote) in *bad.
 */
static int split_words(char *line, char ***words, size_t *nr, const char **bad)
{
	size_t cap = 8, n = 0;
	char **w = calloc(cap + 1, sizeof(*w)), *p = line;

	if (!w)
		return -1;
	for (;;) {
		char *start, *end, **more;

		p += strspn(p, " \t\r");
		if (!*p)
			break;
		if (*p == '"') {
			start = p + 1;
			end = strchr(start, '"');
			if (!end || (end[1] && !strchr(" \t\r", end[1]))) {
				*bad = p;
				words_free(w);
				return 1;
			}
			p = end + 1;
		} else {
			start = p;
			end = p + strcspn(p, " \t\r");
			p = end;
		}
		if (n == cap) {
			more = realloc(w, (2 * cap + 1) * sizeof(*w));
			if (!more) {
				words_free(w);
				return -1;
			}
			w = more;
			cap *= 2;
		}
		w[n] = strndup(start, (size_t)(end - start));
		if (!w[n]) {
			words_free(w);
			return -1;
		}
		w[++n] = NULL;
	}
	*words = w;
	*nr = n;
	return 0;
}

/* Whether a run option is one batch sets, or one that makes no JSON of one run. */
static bool is_refused(int id)
{
	switch (id) {
	case OPT_FORMAT: case OPT_ALL: case OPT_JOBS: case OPT_OUT: case OPT_LIVE:
	case OPT_LIVE_WAIT: case OPT_HELP: case OPT_CELL: case OPT_CELL_STDIN:
	case OPT_CELL_PROGRESS: case OPT_CELL_LIVE:
		return true;
	default:
		return false;
	}
}

/*
 * Run's options in words, as `mmemu run` parses them: each known to run and
 * not refused, with its value, and one scenario. 0, or 2 with the message.
 */
static int check_run_words(const struct batch *b, unsigned line, const char *result,
			   char **words, size_t nr)
{
	char **argv = calloc(nr + 2, sizeof(*argv));
	int argc = (int)nr + 1, opt, saved_opterr = opterr, rc = 0;

	if (!argv)
		return cmd_die("out of memory");
	argv[0] = "run";
	memcpy(argv + 1, words, nr * sizeof(*words));
	opterr = 0;	/* the message names the plan */
	optind = 1;
	while (!rc && (opt = cli_getopt(CMD_RUN, argc, argv)) != -1) {
		/* the option's own word, not its value's */
		const char *word = argv[optind - (optarg && optind >= 2 &&
						   optarg == argv[optind - 1] ? 2 : 1)];

		if (opt == '?')
			rc = plan_error(b, line, word, optopt >= OPT_HELP ? "its value is missing"
							       : "not an option of mmemu run");
		else if (is_refused(opt))
			rc = plan_error(b, line, word, "batch sets it, or it is not for a plan "
						       "(--format, --all, -j, --out, --live)");
		else if (opt == OPT_SEEDS)
			rc = plan_error(b, line, word, "one seed per line (--seed N)");
		else if (opt == OPT_POLICY && strchr(optarg, ','))
			rc = plan_error(b, line, optarg, "one policy per line");
	}
	opterr = saved_opterr;
	if (!rc && optind == argc)
		rc = plan_error(b, line, result, "no scenario among the run's arguments");
	else if (!rc && optind + 1 < argc)
		rc = plan_error(b, line, argv[optind + 1], "a second scenario");
	free(argv);
	optind = 1;
	return rc;
}

/* One line of the plan: 0 (a run added, or nothing to add), or the exit status. */
static int plan_line(struct batch *b, char *text, unsigned line)
{
	struct batch_run r = { .line = line };
	const char *bad = NULL;
	int rc;

	text[strcspn(text, "\n")] = '\0';
	if (!text[strspn(text, " \t\r")] || text[strspn(text, " \t\r")] == '#')
		return 0;
	rc = split_words(text, &r.words, &r.nr_words, &bad);
	if (rc < 0)
		return cmd_die("out of memory");
	if (rc)
		return plan_error(b, line, bad, "a quote that does not end");
	r.result = r.words[0];
	memmove(r.words, r.words + 1, r.nr_words * sizeof(*r.words));
	if (!--r.nr_words)
		rc = plan_error(b, line, r.result, "no scenario after the result file");
	else if (!*r.result)
		rc = plan_error(b, line, r.result, "an empty result file name");
	for (size_t i = 0; !rc && i < b->nr_runs; i++)
		if (!strcmp(b->runs[i].result, r.result)) {
			char why[64];

			snprintf(why, sizeof(why), "also the result of line %u", b->runs[i].line);
			rc = plan_error(b, line, r.result, why);
		}
	if (!rc)
		rc = check_run_words(b, line, r.result, r.words, r.nr_words);
	if (!rc && b->nr_runs == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 64;
		struct batch_run *more = realloc(b->runs, cap * sizeof(*more));

		if (!more)
			rc = cmd_die("out of memory");
		else {
			b->runs = more;
			b->cap = cap;
		}
	}
	if (rc) {
		free(r.result);
		words_free(r.words);
		return rc;
	}
	b->runs[b->nr_runs++] = r;
	return 0;
}

/* Every run of the plan into b, checked: 0, or the exit status. */
static int plan_read(struct batch *b)
{
	FILE *f = fopen(b->plan, "r");
	char *text = NULL, msg[600];
	size_t len = 0;
	unsigned line = 0;
	int rc = 0;

	if (!f) {
		snprintf(msg, sizeof(msg), "plan '%s': %s", b->plan, strerror(errno));
		return cmd_die(msg);
	}
	while (!rc && getline(&text, &len, f) >= 0)
		rc = plan_line(b, text, ++line);
	if (!rc && ferror(f)) {
		snprintf(msg, sizeof(msg), "plan '%s': %s", b->plan, strerror(errno));
		rc = cmd_die(msg);
	}
	free(text);
	fclose(f);
	return rc;
}

static void batch_free(struct batch *b)
{
	for (size_t i = 0; i < b->nr_runs; i++) {
		free(b->runs[i].result);
		words_free(b->runs[i].words);
	}
	free(b->runs);
}

/* ---- the runs ---- */

/* `run WORDS... --format json --cell` of run i (malloc'ed words), or NULL. */
static char **run_args(const struct batch_run *r)
{
	size_t n = 0, total = 1 + r->nr_words + BATCH_TAIL_LEN;
	char **args = calloc(total + 1, sizeof(*args));
	bool ok = args && (args[n++] = strdup("run"));

	for (size_t k = 0; ok && k < r->nr_words; k++)
		ok = (args[n++] = strdup(r->words[k])) != NULL;
	for (size_t k = 0; ok && k < BATCH_TAIL_LEN; k++)
		ok = (args[n++] = strdup(batch_run_tail[k])) != NULL;
	if (!ok) {
		words_free(args);
		return NULL;
	}
	return args;
}

/* One line on stdout for a run that ended; stdout failing stops the batch. */
static void say_end(struct batch *b, size_t i, const char *status, double secs, char *err)
{
	if (strcmp(status, "ok"))
		b->nr_failed++;
	if (b->out_failed)
		return;
	/* one line, four fields: the error's own tabs and line ends are blanks */
	for (char *c = err; *c; c++)
		if (*c == '\t' || *c == '\n' || *c == '\r')
			*c = ' ';
	printf("%zu\t%s\t%.3f\t%s\n", i, status, secs, err);
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "mmemu: cannot write standard output: %s\n", strerror(errno));
		clearerr(stdout);	/* said once: nothing more goes there */
		b->out_failed = true;
		runner_kill_all(&b->rn);
	}
}

/* Starts runs while -j allows; a run that cannot start has failed. */
static void start_more(struct batch *b)
{
	while (!b->out_failed && b->started < b->nr_runs && runner_can_spawn(&b->rn)) {
		size_t i = b->started;
		char **args = run_args(&b->runs[i]), label[32], *lab;
		int e;

		snprintf(label, sizeof(label), "run %zu", i);
		lab = strdup(label);
		e = args && lab ? 0 : UV_ENOMEM;
		b->runs[i].start_ns = uv_hrtime();
		if (!e)
			e = runner_spawn(&b->rn, i, args, lab);
		if ((e == UV_EAGAIN || e == UV_EMFILE || e == UV_ENFILE || e == UV_ENOMEM) &&
		    b->rn.running) {
			words_free(args);
			free(lab);
			return;	/* later, when a run has ended */
		}
		b->started++;
		if (e) {
			char why[128];

			snprintf(why, sizeof(why), "cannot start: %s", uv_strerror(e));
			words_free(args);
			free(lab);
			say_end(b, i, "failed", 0, why);
		}
	}
}

static void on_run_exit(struct runner *rn, const struct runner_exit *e)
{
	struct batch *b = rn->ctx;
	struct batch_run *r = &b->runs[e->index];
	double secs = (double)(uv_hrtime() - r->start_ns) / 1e9;
	char why[640];

	if (rn->interrupted)
		return;
	if (e->timed_out) {
		snprintf(why, sizeof(why), "timed out after %g s", rn->timeout_s);
		say_end(b, e->index, "timeout", secs, why);
	} else if (e->term_signal) {
		snprintf(why, sizeof(why), "killed by %s", child_signal_name(e->term_signal));
		say_end(b, e->index, "killed", secs, why);
	} else if (e->exit_status || !e->out_len) {
		snprintf(why, sizeof(why), "exit %lld: %s", (long long)e->exit_status,
			 e->wrote_err ? e->err_line : "no result");
		say_end(b, e->index, "failed", secs, why);
	} else if (sink_write_bytes(e->out, e->out_len, r->result, "result")) {
		snprintf(why, sizeof(why), "cannot write result '%.500s'", r->result);
		say_end(b, e->index, "failed", secs, why);
	} else {
		why[0] = '\0';
		say_end(b, e->index, "ok", secs, why);
	}
	start_more(b);
}

/* ---- the options ---- */

static int batch_parse(int argc, char **argv, unsigned *jobs, double *timeout_s)
{
	char err[512], *end;
	long j;
	int opt;

	optind = 1;
	while ((opt = cli_getopt(CMD_BATCH, argc, argv)) != -1) {
		switch (opt) {
		case OPT_JOBS:
			if (args_long(optarg, 1, BATCH_MAX_JOBS, &j)) {
				snprintf(err, sizeof(err), "-j '%s': expected 1 to %d", optarg,
					 BATCH_MAX_JOBS);
				return cmd_die(err);
			}
			*jobs = (unsigned)j;
			break;
		case OPT_TIMEOUT:
			*timeout_s = strtod(optarg, &end);
			if (*end || !(*timeout_s > 0 && *timeout_s < 1e7)) {
				snprintf(err, sizeof(err), "--timeout '%s': expected seconds (> 0)",
					 optarg);
				return cmd_die(err);
			}
			break;
		case OPT_HELP:
			help_command(stdout, "batch");
			return 0;
		default:
			return cmd_bad_usage("batch");
		}
	}
	return optind + 1 == argc ? -1 : cmd_bad_usage("batch");
}

int cmd_batch(int argc, char **argv)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned jobs = cpus > 0 ? (unsigned)(cpus < BATCH_MAX_JOBS ? cpus : BATCH_MAX_JOBS) : 1;
	double timeout_s = BATCH_NO_TIMEOUT_S;
	struct batch b = { 0 };
	int rc = batch_parse(argc, argv, &jobs, &timeout_s), sig;

	if (rc >= 0)
		return rc;
	b.plan = argv[optind];
	rc = plan_read(&b);
	if (!rc && runner_open(&b.rn, jobs, timeout_s))
		rc = cmd_die("cannot start the event loop");
	if (rc) {
		batch_free(&b);
		return rc;
	}
	b.rn.ctx = &b;
	b.rn.on_exit = on_run_exit;
	start_more(&b);
	runner_run(&b.rn);
	sig = b.rn.interrupted ? b.rn.interrupt_signal : 0;
	runner_close(&b.rn);
	batch_free(&b);
	if (sig) {
		/* every run killed: end by that signal, as run does */
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return b.nr_failed || b.out_failed ? 1 : 0;
}
