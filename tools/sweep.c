/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu sweep SCENARIO --policy a,b --set key=v1,v2 [--set ...] --seeds 1..5
 *
 * The cross product of policies x each --set key's values x seeds, every run
 * a child process of this same binary (`mmemu run ... --out -`, started with
 * uv_spawn in a process group of its own) whose stdout is a saved result
 * file read through a libuv pipe; -j N at a time (default: online CPUs).
 * A child that fails, prints something that is not a result or outlives
 * --timeout is reported on stderr with its parameters and the others go on;
 * the sweep then exits 1. The runs merge in a fixed order (policy, then the
 * --set values with the first --set varying slowest, then seed), never the
 * order they finished in, so the same arguments give the same file apart
 * from host_seconds. The summary groups runs that differ only in seed.
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
#include <unistd.h>
#include <uv.h>

#include "models/policy.h"
#include "scenarios/scenario.h"
#include "tools/output.h"
#include "tools/sweep.h"

#define SWEEP_MAX_POLICIES 16
#define SWEEP_MAX_SETS 64
#define SWEEP_MAX_RUNS 100000
#define SWEEP_MAX_JOBS 256

/* ---- statistics ---- */

double sweep_t95(unsigned df)
{
	/* two-sided 95%: t(0.975, df) */
	static const double t[] = {
		0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
		2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};

	if (df < sizeof(t) / sizeof(t[0]))
		return df ? t[df] : NAN;
	/* between table rows, the smaller df's (larger, conservative) quantile */
	if (df < 40)
		return 2.042;
	if (df < 60)
		return 2.021;
	if (df < 120)
		return 2.000;
	return 1.980;
}

struct stat_row {
	char group[96], key[64];
	unsigned n;
	double mean, half;	/* half-width of the 95% interval; NaN when n < 2 */
};

struct run_group {
	const char *policy, *options;
	const Mmemu__Run **runs;
	size_t nr;
	struct stat_row *rows;
	size_t nr_rows;
};

static const char *const vmstat_metrics[] = {
	"pgscan_file", "pgsteal_file", "workingset_refault_file", "workingset_refault_anon",
	"pswpout",
};
static const char *const workload_metrics[] = { "throughput_ops_s", "lat_mean_us" };

static const Mmemu__Value *run_value(const Mmemu__Run *r, const char *group, const char *key)
{
	for (size_t i = 0; i < r->n_groups; i++) {
		const Mmemu__Group *g = r->groups[i];

		if (strcmp(g->name, group))
			continue;
		for (size_t k = 0; k < g->n_values; k++)
			if (!strcmp(g->values[k]->key, key))
				return g->values[k];
	}
	return NULL;
}

static void stat_compute(struct stat_row *row, const struct run_group *grp)
{
	double sum = 0, ss = 0;

	row->n = 0;
	for (size_t i = 0; i < grp->nr; i++) {
		const Mmemu__Value *v = run_value(grp->runs[i], row->group, row->key);

		if (v) {
			sum += v->value;
			row->n++;
		}
	}
	row->mean = row->n ? sum / row->n : NAN;
	row->half = NAN;
	if (row->n < 2)
		return;
	for (size_t i = 0; i < grp->nr; i++) {
		const Mmemu__Value *v = run_value(grp->runs[i], row->group, row->key);

		if (v)
			ss += (v->value - row->mean) * (v->value - row->mean);
	}
	row->half = sweep_t95(row->n - 1) * sqrt(ss / (row->n - 1)) / sqrt((double)row->n);
}

static int add_row(struct run_group *grp, const char *group, const char *key)
{
	struct stat_row *rows = realloc(grp->rows, (grp->nr_rows + 1) * sizeof(*rows));

	if (!rows)
		return -1;
	grp->rows = rows;
	rows += grp->nr_rows++;
	snprintf(rows->group, sizeof(rows->group), "%s", group);
	snprintf(rows->key, sizeof(rows->key), "%s", key);
	stat_compute(rows, grp);
	return 0;
}

/* The metrics of grp, named after its first run's workloads. */
static int group_stats(struct run_group *grp)
{
	const Mmemu__Run *first = grp->runs[0];

	for (size_t i = 0; i < first->n_groups; i++) {
		const char *name = first->groups[i]->name;

		if (strncmp(name, "workload.", 9) || strchr(name + 9, '.'))
			continue;
		for (size_t k = 0; k < sizeof(workload_metrics) / sizeof(*workload_metrics); k++)
			if (add_row(grp, name, workload_metrics[k]))
				return -1;
	}
	for (size_t k = 0; k < sizeof(vmstat_metrics) / sizeof(*vmstat_metrics); k++)
		if (add_row(grp, "vmstat", vmstat_metrics[k]))
			return -1;
	return 0;
}

/* Runs that differ only in seed, in order of first appearance; NULL when out of memory. */
static struct run_group *group_runs(const Mmemu__Invocation *inv, size_t *nr_groups)
{
	struct run_group *g = calloc(inv->n_runs ? inv->n_runs : 1, sizeof(*g));
	size_t n = 0;

	if (!g)
		return NULL;
	for (size_t i = 0; i < inv->n_runs; i++) {
		const Mmemu__Run *r = inv->runs[i];
		size_t k;

		for (k = 0; k < n; k++)
			if (!strcmp(g[k].policy, r->policy) && !strcmp(g[k].options, r->options))
				break;
		if (k == n) {
			g[n].policy = r->policy;
			g[n].options = r->options;
			g[n].runs = calloc(inv->n_runs, sizeof(*g[n].runs));
			if (!g[n].runs)
				goto fail;
			n++;
		}
		g[k].runs[g[k].nr++] = r;
	}
	for (size_t k = 0; k < n; k++)
		if (group_stats(&g[k]))
			goto fail;
	*nr_groups = n;
	return g;
fail:
	for (size_t k = 0; k < inv->n_runs; k++) {
		free(g[k].runs);
		free(g[k].rows);
	}
	free(g);
	return NULL;
}

static void json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
	else
		fprintf(f, "null");
}

static void csv_str(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	if (isfinite(v))
		fprintf(f, "%.9g", v);
}

static void text_num(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v != 0 && fabs(v) < 0.01)
		snprintf(buf, len, "%.3g", v);
	else
		snprintf(buf, len, "%.2f", v);
}

static void summary_text(FILE *f, const Mmemu__Invocation *inv, const struct run_group *g,
			 size_t nr)
{
	fprintf(f, "scenario %s, scale %g: %zu runs in %zu groups, mean and 95%% confidence "
		   "interval over seeds (Student t)\n",
		inv->scenario_name, inv->scale, inv->n_runs, nr);
	for (size_t k = 0; k < nr; k++) {
		fprintf(f, "\n%s  %s  (n=%zu, seeds", g[k].policy,
			*g[k].options ? g[k].options : "(no --set)", g[k].nr);
		for (size_t i = 0; i < g[k].nr; i++)
			fprintf(f, "%s%llu", i ? "," : " ", (unsigned long long)g[k].runs[i]->seed);
		fprintf(f, ")\n  %-42s %14s %12s %14s %14s\n", "metric", "mean", "+-95%",
			"ci_low", "ci_high");
		for (size_t i = 0; i < g[k].nr_rows; i++) {
			const struct stat_row *r = &g[k].rows[i];
			char name[170], mean[32], half[32], lo[32], hi[32];

			if (!r->n)
				continue;
			snprintf(name, sizeof(name), "%s.%s", r->group, r->key);
			text_num(mean, sizeof(mean), r->mean);
			text_num(half, sizeof(half), r->half);
			text_num(lo, sizeof(lo), r->mean - r->half);
			text_num(hi, sizeof(hi), r->mean + r->half);
			fprintf(f, "  %-42s %14s %12s %14s %14s\n", name, mean, half, lo, hi);
		}
	}
}

static void summary_json(FILE *f, const Mmemu__Invocation *inv, const struct run_group *g,
			 size_t nr)
{
	fprintf(f, "{\"scenario\": ");
	json_str(f, inv->scenario_name);
	fprintf(f, ", \"scale\": %.9g, \"runs\": %zu, \"confidence\": 0.95,\n  \"groups\": [",
		inv->scale, inv->n_runs);
	for (size_t k = 0; k < nr; k++) {
		fprintf(f, "%s\n    {\"policy\": ", k ? "," : "");
		json_str(f, g[k].policy);
		fprintf(f, ", \"options\": ");
		json_str(f, g[k].options);
		fprintf(f, ", \"n\": %zu, \"seeds\": [", g[k].nr);
		for (size_t i = 0; i < g[k].nr; i++)
			fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)g[k].runs[i]->seed);
		fprintf(f, "],\n     \"metrics\": [");
		for (size_t i = 0, first = 1; i < g[k].nr_rows; i++) {
			const struct stat_row *r = &g[k].rows[i];

			if (!r->n)
				continue;
			fprintf(f, "%s\n       {\"group\": ", first ? "" : ",");
			first = 0;
			json_str(f, r->group);
			fprintf(f, ", \"key\": ");
			json_str(f, r->key);
			fprintf(f, ", \"n\": %u, \"mean\": ", r->n);
			json_num(f, r->mean);
			fprintf(f, ", \"ci_half\": ");
			json_num(f, r->half);
			fprintf(f, ", \"ci_low\": ");
			json_num(f, r->mean - r->half);
			fprintf(f, ", \"ci_high\": ");
			json_num(f, r->mean + r->half);
			fprintf(f, "}");
		}
		fprintf(f, "]}");
	}
	fprintf(f, "\n  ]\n}\n");
}

static void summary_csv(FILE *f, const Mmemu__Invocation *inv, const struct run_group *g,
			size_t nr)
{
	fprintf(f, "scenario,scale,policy,options,n,group,key,mean,ci_half,ci_low,ci_high\n");
	for (size_t k = 0; k < nr; k++) {
		for (size_t i = 0; i < g[k].nr_rows; i++) {
			const struct stat_row *r = &g[k].rows[i];

			if (!r->n)
				continue;
			csv_str(f, inv->scenario_name);
			fprintf(f, ",%g,", inv->scale);
			csv_str(f, g[k].policy);
			fputc(',', f);
			csv_str(f, g[k].options);
			fprintf(f, ",%u,", r->n);
			csv_str(f, r->group);
			fputc(',', f);
			csv_str(f, r->key);
			fputc(',', f);
			csv_num(f, r->mean);
			fputc(',', f);
			csv_num(f, r->half);
			fputc(',', f);
			csv_num(f, r->mean - r->half);
			fputc(',', f);
			csv_num(f, r->mean + r->half);
			fputc('\n', f);
		}
	}
}

void sweep_summary_write(FILE *f, const char *format, const Mmemu__Invocation *inv)
{
	size_t nr = 0;
	struct run_group *g = group_runs(inv, &nr);

	if (!g) {
		fprintf(stderr, "mmemu: out of memory\n");
		return;
	}
	if (!strcmp(format, "json"))
		summary_json(f, inv, g, nr);
	else if (!strcmp(format, "csv"))
		summary_csv(f, inv, g, nr);
	else
		summary_text(f, inv, g, nr);
	for (size_t k = 0; k < nr; k++) {
		free(g[k].runs);
		free(g[k].rows);
	}
	free(g);
}

/* ---- the sweep ---- */

struct axis {
	char *key;	/* "section.key" (malloc'ed, with the values after it) */
	char **vals;	/* its comma-separated values */
	size_t nr;
};

struct buf {
	char *p;
	size_t len, cap;
};

struct sweep;

struct job {
	struct sweep *sw;
	size_t index;		/* place in the merged order */
	char **argv;		/* the child's command line */
	char *params;		/* "policy=P seed=S key=v ..." for messages */
	uv_process_t proc;
	uv_pipe_t out, err;
	uv_timer_t timer;
	struct buf obuf, ebuf;
	int open_handles;	/* handles not closed yet; the job is freed at 0 */
	bool exited, out_eof, err_eof, timed_out, finished;
	int64_t exit_status;
	int term_signal;
};

struct sweep {
	uv_loop_t loop;
	uv_timer_t progress;
	uv_signal_t sigint, sigterm;
	const char *exe, *scenario, *scale_arg;
	char **policies;
	size_t nr_policies;
	struct axis *axes;
	size_t nr_axes, nr_combos;
	uint64_t *seeds;
	size_t nr_seeds;
	size_t total, next, running, done, failed;
	unsigned jobs;
	double timeout_s;
	uint64_t start_ns;
	bool tty, interrupted;
	struct job **live;		/* by index, while running */
	Mmemu__Invocation **results;	/* by index, the child's saved file */
};

static int die(const char *msg)
{
	fprintf(stderr, "mmemu: sweep: %s\n", msg);
	return 2;
}

static void fmt_eta(char *buf, size_t len, double s)
{
	if (s < 100)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 6000)
		snprintf(buf, len, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
	else
		snprintf(buf, len, "%.1fh", s / 3600);
}

static void progress(struct sweep *sw)
{
	double elapsed = (double)(uv_hrtime() - sw->start_ns) / 1e9;
	char eta[32] = "?";

	if (!sw->tty)
		return;
	if (sw->done)
		fmt_eta(eta, sizeof(eta), elapsed * (double)(sw->total - sw->done) / sw->done);
	fprintf(stderr, "\r[sweep] done %zu/%zu, running %zu, failed %zu, ~%s left\033[K",
		sw->done, sw->total, sw->running, sw->failed, eta);
	fflush(stderr);
}

static void on_progress_timer(uv_timer_t *t)
{
	progress(t->data);
}

/* A message about one run, above the progress line. */
static void report_failure(struct sweep *sw, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void report_failure(struct sweep *sw, const char *fmt, ...)
{
	va_list ap;

	if (sw->tty)
		fprintf(stderr, "\r\033[K");
	fprintf(stderr, "mmemu: sweep: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int buf_reserve(struct buf *b, size_t more)
{
	if (b->cap - b->len >= more)
		return 0;
	size_t cap = b->cap ? b->cap : 65536;

	while (cap - b->len < more)
		cap *= 2;
	char *p = realloc(b->p, cap);

	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *out)
{
	struct job *j = h->data;
	struct buf *b = h == (uv_handle_t *)&j->out ? &j->obuf : &j->ebuf;

	if (buf_reserve(b, suggested)) {
		*out = uv_buf_init(NULL, 0);	/* read_cb gets UV_ENOBUFS */
		return;
	}
	*out = uv_buf_init(b->p + b->len, (unsigned)(b->cap - b->len));
}

static void start_more(struct sweep *sw);

static void job_free(struct job *j)
{
	for (char **a = j->argv; a && *a; a++)
		free(*a);
	free(j->argv);
	free(j->params);
	free(j->obuf.p);
	free(j->ebuf.p);
	free(j);
}

static void on_close(uv_handle_t *h)
{
	struct job *j = h->data;

	if (--j->open_handles == 0)
		job_free(j);
}

/* The last non-empty line of the child's stderr, without "mmemu: ". */
static const char *last_line(struct buf *b)
{
	char *s, *nl;

	if (buf_reserve(b, 1))
		return "";
	b->p[b->len] = '\0';
	while (b->len && (b->p[b->len - 1] == '\n' || b->p[b->len - 1] == '\r'))
		b->p[--b->len] = '\0';
	nl = strrchr(b->p, '\n');
	s = nl ? nl + 1 : b->p;
	if (!strncmp(s, "mmemu: ", 7))
		s += 7;
	return s;
}

static void job_finish(struct job *j)
{
	struct sweep *sw = j->sw;
	char why[256];
	bool ok = false;

	j->finished = true;
	if (sw->interrupted) {
		/* reported once, at the end */
	} else if (j->timed_out) {
		report_failure(sw, "run %s timed out after %gs", j->params, sw->timeout_s);
	} else if (j->term_signal) {
		report_failure(sw, "run %s failed: killed by signal %d%s%s", j->params,
			       j->term_signal, j->ebuf.len ? ": " : "", last_line(&j->ebuf));
	} else if (j->exit_status) {
		const char *msg = last_line(&j->ebuf);

		report_failure(sw, "run %s failed (exit status %lld)%s%s", j->params,
			       (long long)j->exit_status, *msg ? ": " : "", msg);
	} else {
		Mmemu__Invocation *inv =
			result_file_parse((const uint8_t *)j->obuf.p, j->obuf.len, why, sizeof(why));

		if (inv && inv->n_runs != 1) {
			snprintf(why, sizeof(why), "%zu runs instead of 1", inv->n_runs);
			mmemu__invocation__free_unpacked(inv, NULL);
			inv = NULL;
		}
		if (inv) {
			sw->results[j->index] = inv;
			ok = true;
		} else {
			report_failure(sw, "run %s failed: bad output: %s", j->params, why);
		}
	}
	sw->running--;
	sw->done++;
	sw->failed += !ok;
	sw->live[j->index] = NULL;
	uv_close((uv_handle_t *)&j->proc, on_close);
	uv_close((uv_handle_t *)&j->out, on_close);
	uv_close((uv_handle_t *)&j->err, on_close);
	uv_close((uv_handle_t *)&j->timer, on_close);
	start_more(sw);
	progress(sw);
}

static void job_maybe_finish(struct job *j)
{
	if (j->exited && j->out_eof && j->err_eof && !j->finished)
		job_finish(j);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct job *j = s->data;
	bool is_out = s == (uv_stream_t *)&j->out;

	(void)b;
	if (n > 0) {
		(is_out ? &j->obuf : &j->ebuf)->len += (size_t)n;
		return;
	}
	if (n == 0)
		return;	/* EAGAIN */
	/* EOF, or an error (the output will not parse, or the status tells) */
	uv_read_stop(s);
	if (n != UV_EOF && is_out)
		j->obuf.len = 0;
	*(is_out ? &j->out_eof : &j->err_eof) = true;
	job_maybe_finish(j);
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	struct job *j = p->data;

	j->exited = true;
	j->exit_status = status;
	j->term_signal = sig;
	job_maybe_finish(j);
}

static void on_timeout(uv_timer_t *t)
{
	struct job *j = t->data;

	j->timed_out = true;
	kill(-j->proc.pid, SIGKILL);	/* the run and the process it forks */
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
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
	if (rc < 0) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	return s;
}

/* The command line and parameter text of run index. */
static void job_args(struct sweep *sw, struct job *j)
{
	size_t seed_i = j->index % sw->nr_seeds;
	size_t combo = j->index / sw->nr_seeds % sw->nr_combos;
	size_t pol = j->index / sw->nr_seeds / sw->nr_combos;
	size_t vals[SWEEP_MAX_SETS], n = 0;
	char *params;

	for (size_t a = sw->nr_axes; a-- > 0;) {
		vals[a] = combo % sw->axes[a].nr;
		combo /= sw->axes[a].nr;
	}
	j->argv = calloc(16 + 2 * sw->nr_axes, sizeof(*j->argv));
	if (!j->argv) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	j->argv[n++] = xstrdup(sw->exe);
	j->argv[n++] = xstrdup("run");
	j->argv[n++] = xstrdup(sw->scenario);
	j->argv[n++] = xstrdup("--policy");
	j->argv[n++] = xstrdup(sw->policies[pol]);
	j->argv[n++] = xstrdup("--seed");
	j->argv[n++] = xprintf("%llu", (unsigned long long)sw->seeds[seed_i]);
	if (sw->scale_arg) {
		j->argv[n++] = xstrdup("--scale");
		j->argv[n++] = xstrdup(sw->scale_arg);
	}
	j->params = xprintf("policy=%s seed=%llu", sw->policies[pol],
			    (unsigned long long)sw->seeds[seed_i]);
	for (size_t a = 0; a < sw->nr_axes; a++) {
		j->argv[n++] = xstrdup("--set");
		j->argv[n++] = xprintf("%s=%s", sw->axes[a].key, sw->axes[a].vals[vals[a]]);
		params = xprintf("%s %s", j->params, j->argv[n - 1]);
		free(j->params);
		j->params = params;
	}
	j->argv[n++] = xstrdup("--out");
	j->argv[n++] = xstrdup("-");
	j->argv[n] = NULL;
}

static void job_start(struct sweep *sw, size_t index)
{
	struct job *j = calloc(1, sizeof(*j));
	uv_process_options_t o;
	uv_stdio_container_t stdio[3];
	int rc;

	if (!j) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	j->sw = sw;
	j->index = index;
	job_args(sw, j);
	uv_pipe_init(&sw->loop, &j->out, 0);
	uv_pipe_init(&sw->loop, &j->err, 0);
	uv_timer_init(&sw->loop, &j->timer);
	j->proc.data = j->out.data = j->err.data = j->timer.data = j;
	j->open_handles = 4;

	memset(&o, 0, sizeof(o));
	stdio[0].flags = UV_IGNORE;
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&j->out;
	stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[2].data.stream = (uv_stream_t *)&j->err;
	o.file = sw->exe;
	o.args = j->argv;
	o.exit_cb = on_exit_cb;
	o.stdio = stdio;
	o.stdio_count = 3;
	o.flags = UV_PROCESS_DETACHED;	/* its own process group, killed as one */

	sw->running++;
	rc = uv_spawn(&sw->loop, &j->proc, &o);
	j->proc.data = j;
	if (rc) {
		report_failure(sw, "run %s failed: cannot start '%s': %s", j->params, sw->exe,
			       uv_strerror(rc));
		j->exited = j->out_eof = j->err_eof = true;
		j->exit_status = 127;
		j->finished = true;
		sw->running--;
		sw->done++;
		sw->failed++;
		uv_close((uv_handle_t *)&j->proc, on_close);
		uv_close((uv_handle_t *)&j->out, on_close);
		uv_close((uv_handle_t *)&j->err, on_close);
		uv_close((uv_handle_t *)&j->timer, on_close);
		return;
	}
	sw->live[index] = j;
	uv_read_start((uv_stream_t *)&j->out, on_alloc, on_read);
	uv_read_start((uv_stream_t *)&j->err, on_alloc, on_read);
	uv_timer_start(&j->timer, on_timeout, (uint64_t)(sw->timeout_s * 1000), 0);
}

static void start_more(struct sweep *sw)
{
	while (!sw->interrupted && sw->running < sw->jobs && sw->next < sw->total)
		job_start(sw, sw->next++);
}

static void on_signal(uv_signal_t *h, int sig)
{
	struct sweep *sw = h->data;

	(void)sig;
	sw->interrupted = true;
	for (size_t i = 0; i < sw->total; i++)
		if (sw->live[i])
			kill(-sw->live[i]->proc.pid, SIGKILL);
}

static int parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

/* "1..5", "1,2,3" or "7". */
static int parse_seeds(const char *arg, uint64_t **seeds, size_t *nr)
{
	const char *dots = strstr(arg, "..");
	char *copy = xstrdup(arg), *save = NULL;
	uint64_t a, b;

	free(*seeds);
	*seeds = NULL;
	*nr = 0;
	if (dots) {
		copy[dots - arg] = '\0';
		if (parse_u64(copy, &a) || parse_u64(copy + (dots - arg) + 2, &b) || b < a ||
		    b - a >= SWEEP_MAX_RUNS)
			goto bad;
		*seeds = calloc((size_t)(b - a + 1), sizeof(**seeds));
		if (!*seeds)
			goto bad;
		for (uint64_t s = a; s <= b; s++)
			(*seeds)[(*nr)++] = s;
		free(copy);
		return 0;
	}
	*seeds = calloc(strlen(arg) / 2 + 1, sizeof(**seeds));
	if (!*seeds)
		goto bad;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (parse_u64(t, &a))
			goto bad;
		(*seeds)[(*nr)++] = a;
	}
	if (!*nr)
		goto bad;
	free(copy);
	return 0;
bad:
	free(copy);
	free(*seeds);
	*seeds = NULL;
	*nr = 0;
	return -1;
}

/* "section.key=v1,v2,v3" as an axis; empty values are kept (the run says why they fail). */
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

static void usage_sweep(FILE *f)
{
	fprintf(f,
		"usage: mmemu sweep SCENARIO [--policy a,b,...] [--set section.key=v1,v2,...]...\n"
		"                   [--seeds A..B|A,B,...] [--scale F] [-j N] [--timeout SECONDS]\n"
		"                   [--format text|json|csv] [--out FILE]\n"
		"Runs every policy x --set value x seed as its own process, -j at a time\n"
		"(default: the online CPUs), and prints the mean and 95%% confidence interval\n"
		"over seeds; --out saves every run in one file for `mmemu report`.\n");
}

static bool is_exe_path_ok(const char *p)
{
	return p && *p && access(p, X_OK) == 0;
}

int cmd_sweep(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "policy", required_argument, NULL, 'p' },
		{ "set", required_argument, NULL, 's' },
		{ "seeds", required_argument, NULL, 'S' },
		{ "seed", required_argument, NULL, 'S' },
		{ "scale", required_argument, NULL, 'x' },
		{ "format", required_argument, NULL, 'f' },
		{ "out", required_argument, NULL, 'o' },
		{ "timeout", required_argument, NULL, 't' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sweep sw;
	struct axis axes[SWEEP_MAX_SETS];
	char *policies[SWEEP_MAX_POLICIES], policy_buf[512], err[512], exe[4096];
	const char *policy_arg = NULL, *format = "text", *out_path = NULL;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double scale = 0;
	struct scenario s;
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	int opt, rc = 0;
	ssize_t n;

	memset(&sw, 0, sizeof(sw));
	sw.jobs = cpus > 0 ? (unsigned)(cpus < SWEEP_MAX_JOBS ? cpus : SWEEP_MAX_JOBS) : 1;
	sw.timeout_s = 600;
	sw.axes = axes;
	optind = 1;
	while ((opt = getopt_long(argc, argv, "j:h", opts, NULL)) != -1) {
		char *end;

		switch (opt) {
		case 'p':
			policy_arg = optarg;
			break;
		case 's':
			if (sw.nr_axes == SWEEP_MAX_SETS)
				{ rc = die("too many --set options"); goto out_args; }
			if (parse_axis(optarg, &axes[sw.nr_axes])) {
				snprintf(err, sizeof(err), "--set '%s': expected section.key=v1,v2,...",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			sw.nr_axes++;
			break;
		case 'S':
			if (parse_seeds(optarg, &sw.seeds, &sw.nr_seeds)) {
				snprintf(err, sizeof(err),
					 "--seeds '%s': expected A..B or A,B,... (numbers)", optarg);
				{ rc = die(err); goto out_args; }
			}
			break;
		case 'x': {
			const char *slash = strchr(optarg, '/');

			scale = slash ? strtod(optarg, NULL) / strtod(slash + 1, &end)
				      : strtod(optarg, &end);
			if (*end || !(scale > 0 && scale <= 1)) {
				snprintf(err, sizeof(err), "--scale '%s' is not in (0, 1] (or 1/N)",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			sw.scale_arg = optarg;
			break;
		}
		case 'f':
			format = optarg;
			if (!output_format_known(format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			break;
		case 'o':
			out_path = optarg;
			if (!*out_path)
				{ rc = die("--out: no file named"); goto out_args; }
			break;
		case 't':
			sw.timeout_s = strtod(optarg, &end);
			if (*end || !(sw.timeout_s > 0 && sw.timeout_s < 1e7)) {
				snprintf(err, sizeof(err), "--timeout '%s': expected seconds (> 0)",
					 optarg);
				{ rc = die(err); goto out_args; }
			}
			break;
		case 'j': {
			long j = strtol(optarg, &end, 10);

			if (*end || j < 1 || j > SWEEP_MAX_JOBS)
				{ rc = die("-j wants 1 to 256"); goto out_args; }
			sw.jobs = (unsigned)j;
			break;
		}
		case 'h':
			usage_sweep(stdout);
			goto out_args;
		default:
			usage_sweep(stderr);
			rc = 2;
			goto out_args;
		}
	}
	if (optind + 1 != argc) {
		usage_sweep(stderr);
		rc = 2;
		goto out_args;
	}
	sw.scenario = argv[optind];
	if (!sw.nr_seeds) {
		sw.seeds = calloc(1, sizeof(*sw.seeds));
		if (!sw.seeds)
			{ rc = die("out of memory"); goto out_args; }
		sw.seeds[0] = 1;
		sw.nr_seeds = 1;
	}
	/* the scenario as the runs see it before --set: its name, text and scale */
	if (scenario_load(&s, sw.scenario, NULL, 0, scale, err, sizeof(err))) {
		rc = die(err);
		goto out_args;
	}
	if (!policy_arg)
		policy_arg = s.machine.policy[0] ? s.machine.policy : "classic";
	snprintf(policy_buf, sizeof(policy_buf), "%s", policy_arg);
	for (char *save, *p = strtok_r(policy_buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (sw.nr_policies == SWEEP_MAX_POLICIES) {
			rc = die("too many policies");
			goto out_scenario;
		}
		if (!reclaim_policy_find(p)) {
			snprintf(err, sizeof(err), "--policy: unknown policy '%s' (see mmemu list)", p);
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
	sw.total = sw.nr_policies * sw.nr_combos * sw.nr_seeds;

	/* the children are this binary */
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		sw.exe = exe;
	}
	if (!is_exe_path_ok(sw.exe))
		sw.exe = "/proc/self/exe";

	sw.live = calloc(sw.total, sizeof(*sw.live));
	sw.results = calloc(sw.total, sizeof(*sw.results));
	if (!sw.live || !sw.results) {
		rc = die("out of memory");
		goto out_free;
	}
	sw.tty = isatty(STDERR_FILENO);
	if (uv_loop_init(&sw.loop)) {
		rc = die("cannot start the event loop");
		goto out_free;
	}
	fflush(NULL);
	uv_timer_init(&sw.loop, &sw.progress);
	sw.progress.data = &sw;
	uv_signal_init(&sw.loop, &sw.sigint);
	uv_signal_init(&sw.loop, &sw.sigterm);
	sw.sigint.data = sw.sigterm.data = &sw;
	uv_signal_start(&sw.sigint, on_signal, SIGINT);
	uv_signal_start(&sw.sigterm, on_signal, SIGTERM);
	uv_unref((uv_handle_t *)&sw.sigint);
	uv_unref((uv_handle_t *)&sw.sigterm);
	sw.start_ns = uv_hrtime();
	if (sw.tty) {
		uv_timer_start(&sw.progress, on_progress_timer, 500, 500);
		uv_unref((uv_handle_t *)&sw.progress);
	}
	start_more(&sw);
	progress(&sw);
	uv_run(&sw.loop, UV_RUN_DEFAULT);
	uv_close((uv_handle_t *)&sw.progress, NULL);
	uv_close((uv_handle_t *)&sw.sigint, NULL);
	uv_close((uv_handle_t *)&sw.sigterm, NULL);
	uv_run(&sw.loop, UV_RUN_DEFAULT);
	uv_loop_close(&sw.loop);
	if (sw.tty)
		fprintf(stderr, "\r[sweep] done %zu/%zu, failed %zu, %.1fs\033[K\n", sw.done,
			sw.total, sw.failed, (double)(uv_hrtime() - sw.start_ns) / 1e9);
	if (sw.interrupted) {
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
			inv.runs[inv.n_runs++] = sw.results[i]->runs[0];
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
	inv.mmemu_version = (char *)MMEMU_VERSION;
	sweep_summary_write(stdout, format, &inv);
	fflush(stdout);
	if (out_path) {
		FILE *f = fopen(out_path, "wb");
		int wrc = f ? result_file_write(&inv, f) : -errno;

		if (f && fclose(f) && !wrc)
			wrc = -errno;
		if (wrc) {
			fprintf(stderr, "mmemu: sweep: --out '%s': %s\n", out_path, strerror(-wrc));
			if (f)
				unlink(out_path);
			rc = 2;
			goto out_free;
		}
	}
	rc = sw.failed ? 1 : 0;
out_free:
	free(inv.runs);
	if (sw.results)
		for (size_t i = 0; i < sw.total; i++)
			if (sw.results[i])
				mmemu__invocation__free_unpacked(sw.results[i], NULL);
	free(sw.results);
	free(sw.live);
out_scenario:
	scenario_free(&s);
out_args:
	for (size_t a = 0; a < sw.nr_axes; a++) {
		free(axes[a].key);
		free(axes[a].vals);
	}
	free(sw.seeds);
	return rc;
}
