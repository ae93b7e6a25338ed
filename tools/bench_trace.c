/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu bench --trace`: replays a trace (scenarios/trace.h) through one
 * memcg whose memory.max is the cache, as a mapped file on NVMe, under each
 * policy and cache size asked for, and prints one line per (policy, size)
 * like libCacheSim's cachesim: requests, miss ratio (requests that took a
 * major fault), byte miss ratio, replay speed. A miss ratio below the
 * compulsory one (distinct objects / requests: each object's first request
 * misses in a cache alone) is readahead's doing, and is said so;
 * --no-readahead (the device's read_ahead_kb = 0) compares caches alone.
 *
 * Each (policy, size) runs in a child process on the runner (the engine
 * starts once per process): `mmemu bench --trace ... --cell`, which reads
 * the trace again and writes its struct replay_result on stdout; runs go
 * one at a time, so their speeds do not disturb each other.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "models/memory.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "models/vmscan.h"
#include "scenarios/scenario.h"
#include "scenarios/trace.h"
#include "tools/child.h"
#include "tools/bench.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/runner.h"

#define MAX_POLICIES 16
#define MAX_SIZES 64

struct replay_result {
	uint64_t misses;		/* requests that took a major fault */
	uint64_t major;			/* major faults (pages read) */
	uint64_t hits;			/* page accesses that hit */
	uint64_t bytes_missed;		/* of the requests' bytes, those of pages read */
	uint64_t sim_ns;		/* simulated time of the replay */
	double host_s;			/* host seconds of the replay */
	double cpu_s;			/* CPU seconds of the replay (its process, every thread) */
	int ok;				/* the child finished */
	uint64_t failed_at;		/* the request (from 1) whose access failed, or 0 */
	int error;			/* that access's -errno */
};

struct replay {
	const struct trace *tr;		/* requests */
	struct blockdev dev;		/* NVMe behind the file */
	uint64_t cache_pages;		/* memcg limit */
	bool untimed;			/* --no-timing */
	bool no_readahead;		/* --no-readahead */
	struct replay_result r;
};

/*
 * How many requests ahead the replay starts loading a page's PTE, and what
 * its fault would read: far enough for a DRAM miss to complete while the
 * requests between are replayed (a hit takes a few tens of ns), near enough
 * that the lines are still cached (measured, issue 38).
 */
#define PREFETCH_PTE 16
#define PREFETCH_FAULT 8

static void replay_actor(struct actor *a, void *arg)
{
	struct replay *b = arg;
	struct mem_cgroup *memcg = mem_cgroup_create(mm.root_mem_cgroup, "cache");
	struct task *t = task_create("replay", memcg, 0);
	struct address_space *f = file_create("trace", b->tr->nr_pages, &b->dev, 0, false);
	const struct trace_req *req = b->tr->req, *end = req + b->tr->nr;
	uint64_t t0_ns;
	double t0, cpu0;

	a->untimed = b->untimed;
	b->dev.no_readahead = b->no_readahead;
	memcg->max = b->cache_pages;
	t0_ns = actor_now_ns(a);
	t0 = bench_now_s();
	cpu0 = bench_cpu_s();
	for (; req < end; req++) {
		uint64_t major = 0;

		/* the trace is known ahead: load the PTEs, then the rest a fault reads */
		if (end - req > PREFETCH_PTE)
			filemap_map_prefetch(t, f, req[PREFETCH_PTE].page, false);
		if (end - req > PREFETCH_FAULT)
			filemap_map_prefetch(t, f, req[PREFETCH_FAULT].page, true);

		for (uint32_t i = 0; i < req->nr_pages; i++) {
			/* untimed, a write is an access: writeback needs time to pass */
			int ret = filemap_map_access(a, t, f, req->page + i,
						     req->write && !b->untimed);

			if (ret < 0) {	/* OOM-killed: the cache cannot hold what one fault reads */
				b->r.failed_at = (uint64_t)(req - b->tr->req) + 1;
				b->r.error = ret;
				return;
			}
			major += ret == ACCESS_MAJOR;
			b->r.hits += ret == ACCESS_HIT;
		}
		if (major) {
			uint64_t bytes = major * 4096;

			b->r.misses++;
			b->r.major += major;
			b->r.bytes_missed += bytes < req->size ? bytes : req->size;
		}
		actor_cond_resched(a);
	}
	b->r.host_s = bench_now_s() - t0;
	b->r.cpu_s = bench_cpu_s() - cpu0;
	actor_flush_cpu(a);
	b->r.sim_ns = actor_now_ns(a) - t0_ns;
	b->r.ok = 1;
}

/* One node large enough for the trace, an NVMe device, the replay and kswapd, to the end. */
static int replay_boot(struct replay *b, const struct reclaim_policy *policy)
{
	return bench_boot(b->tr->nr_pages + b->cache_pages + (1ULL << 18), policy, &b->dev,
			  replay_actor, b);
}

/*
 * A cache size: absolute ("1G", "262144K", "4096") or a fraction of the
 * trace's working set ("0.1", "10%"), as cachesim takes them; in pages,
 * at least one. 0, or -1.
 */
static int parse_cache(const char *s, const struct trace *tr, uint64_t *pages)
{
	size_t n = strlen(s);
	char *end;
	double f;

	if (n && (s[n - 1] == '%' || (strchr(s, '.') && (s[n - 1] == '.' ||
							  (s[n - 1] >= '0' && s[n - 1] <= '9'))))) {
		errno = 0;
		f = strtod(s, &end);
		if (errno || end == s || (*end && strcmp(end, "%")) || !(f > 0))
			return -1;
		if (*end == '%')
			f /= 100;
		*pages = (uint64_t)(f * (double)tr->nr_pages);
	} else {
		uint64_t bytes;

		if (parse_size(s, &bytes) || !bytes)
			return -1;
		*pages = bytes / 4096;
	}
	if (!*pages)
		*pages = 1;
	return 0;
}

/* "a,b,c" into at most max pieces of s (modified); their number, or -1. */
static int split_list(char *s, char **item, int max)
{
	int n = 0;

	for (char *p = strtok(s, ","); p; p = strtok(NULL, ",")) {
		if (n == max)
			return -1;
		item[n++] = p;
	}
	return n;
}

static void print_size(char *buf, size_t len, uint64_t pages)
{
	uint64_t bytes = pages * 4096;

	if (!(bytes % (1ULL << 30)))
		snprintf(buf, len, "%lluGiB", (unsigned long long)(bytes >> 30));
	else if (!(bytes % (1ULL << 20)))
		snprintf(buf, len, "%lluMiB", (unsigned long long)(bytes >> 20));
	else
		snprintf(buf, len, "%lluKiB", (unsigned long long)(bytes >> 10));
}

/* What bench --trace's options say. */
struct bt_args {
	const char *path;		/* --trace */
	const char *format_arg;		/* --trace-format, as given, or NULL */
	enum trace_format fmt;
	const char *params;		/* --trace-params, or NULL */
	char *policy_arg, *cache_arg;	/* --policy, --cache, or NULL */
	bool untimed, no_readahead;	/* --no-timing, --no-readahead */
	bool cell;			/* --cell: one replay here, its result on stdout */
	char names_buf[1024];
	char *names[MAX_POLICIES];	/* the --policy list, each as given */
	const struct reclaim_policy *policy[MAX_POLICIES];
	int nr_policies;
	uint64_t cache[MAX_SIZES];	/* pages */
	int nr_sizes;
};

/* A bad option, as bench has always said it: 2. */
static int bt_unknown(const char *opt)
{
	fprintf(stderr, "mmemu: bench: unknown option '%s'\n", opt);
	help_command(stderr, "bench");
	return 2;
}

/* Takes option opt (its value in optarg): -1, or the exit status now. */
static int bt_take_option(struct bt_args *a, int opt, const char *as_given)
{
	switch (opt) {
	case OPT_NO_TIMING:
		a->untimed = true;
		return -1;
	case OPT_NO_READAHEAD:
		a->no_readahead = true;
		return -1;
	case OPT_CELL:
		a->cell = true;
		return -1;
	case OPT_TRACE:
		a->path = optarg;
		return -1;
	case OPT_TRACE_FORMAT:
		if (trace_format_parse(optarg, &a->fmt)) {
			fprintf(stderr, "mmemu: bench: --trace-format '%s': expected auto, oracle, csv, "
				"txt, lcs, twr, twrNS, oracleSysTwrNS, oracleSimTwrNS or vscsi\n",
				optarg);
			return 2;
		}
		a->format_arg = optarg;
		return -1;
	case OPT_TRACE_PARAMS:
		a->params = optarg;
		return -1;
	case OPT_POLICY:
		a->policy_arg = optarg;
		return -1;
	case OPT_CACHE:
		a->cache_arg = optarg;
		return -1;
	default:	/* one bench does not take, or without its value */
		return bt_unknown(as_given);
	}
}

/* The options (getopt's own messages off: bench names a bad one itself): -1, or the exit status. */
static int bt_parse(struct bt_args *a, int argc, char **argv)
{
	int opt, rc = -1, saved = opterr;

	opterr = 0;
	optind = 1;
	while (rc < 0 && (opt = cli_getopt(CMD_BENCH, argc, argv)) != -1)
		rc = bt_take_option(a, opt, argv[optind - 1]);
	opterr = saved;
	if (rc >= 0)
		return rc;
	if (optind < argc)	/* a word that is no option's value */
		return bt_unknown(argv[optind]);
	if (!a->path) {
		help_command(stderr, "bench");
		return 2;
	}
	return -1;
}

/* The --policy list (default classic), each found: -1, or the exit status. */
static int bt_policies(struct bt_args *a)
{
	char err[512];

	a->nr_policies = 1;
	a->names[0] = "classic";
	a->policy[0] = &classic_policy;
	if (!a->policy_arg)
		return -1;
	snprintf(a->names_buf, sizeof(a->names_buf), "%s", a->policy_arg);
	a->nr_policies = strlen(a->policy_arg) < sizeof(a->names_buf)
				 ? split_list(a->names_buf, a->names, MAX_POLICIES) : -1;
	if (a->nr_policies <= 0) {
		fprintf(stderr, "mmemu: bench: --policy '%s': expected 1 to %d names\n",
			a->policy_arg, MAX_POLICIES);
		return 2;
	}
	for (int i = 0; i < a->nr_policies; i++)
		if (!(a->policy[i] = child_policy_get(a->names[i], err, sizeof(err)))) {
			fprintf(stderr, "mmemu: bench: --policy: %s\n", err);
			return 2;
		}
	return -1;
}

/* The trace, read: -1, or the exit status (nothing to free). */
static int bt_load(const struct bt_args *a, struct trace *tr)
{
	struct trace_opts o;
	char err[512];

	trace_opts_init(&o, a->fmt);
	if (a->params && trace_opts_parse(&o, a->params, err, sizeof(err))) {
		fprintf(stderr, "mmemu: bench: --trace-params: %s\n", err);
		return 2;
	}
	if (trace_load_opts(tr, a->path, &o, err, sizeof(err))) {
		fprintf(stderr, "mmemu: %s\n", err);
		return 2;
	}
	return -1;
}

/* The --cache sizes in pages (default a quarter of the working set): -1, or the exit status. */
static int bt_sizes(struct bt_args *a, const struct trace *tr)
{
	char copy[1024], *item[MAX_SIZES];

	a->nr_sizes = 1;
	if (!a->cache_arg) {
		a->cache[0] = tr->nr_pages / 4 + 1;
		return -1;
	}
	snprintf(copy, sizeof(copy), "%s", a->cache_arg);
	a->nr_sizes = strlen(a->cache_arg) < sizeof(copy) ? split_list(copy, item, MAX_SIZES) : -1;
	for (int i = 0; i < a->nr_sizes && a->nr_sizes > 0; i++)
		if (parse_cache(item[i], tr, &a->cache[i])) {
			fprintf(stderr, "mmemu: bench: --cache '%s': expected a size (1G) or a "
				"fraction of the working set (0.1, 10%%)\n", item[i]);
			return 2;
		}
	if (a->nr_sizes <= 0) {
		fprintf(stderr, "mmemu: bench: --cache '%s': expected 1 to %d sizes\n", a->cache_arg,
			MAX_SIZES);
		return 2;
	}
	return -1;
}

/*
 * bench --trace --cell (a runner's child): the one replay of the first
 * policy and size in this process, struct replay_result on stdout (what a
 * plug-in prints goes to stderr). 0, or 1 when it did not finish.
 */
static int bt_cell(const struct bt_args *a, const struct trace *tr)
{
	static struct replay b;
	int fd = dup(STDOUT_FILENO);

	if (fd < 0)
		return 1;
	child_stdout_to_stderr();
	b = (struct replay){ .tr = tr, .cache_pages = a->cache[0], .untimed = a->untimed,
			     .no_readahead = a->no_readahead };
	if (replay_boot(&b, a->policy[0]) || !b.r.ok)
		return 1;
	return write(fd, &b.r, sizeof(b.r)) == sizeof(b.r) && !close(fd) ? 0 : 1;
}

/* `mmemu bench --trace PATH ... --policy NAME --cache PAGESK --cell` for policy p. */
static char **bt_cell_args(const struct bt_args *a, int p, uint64_t pages)
{
	char **args = calloc(16, sizeof(*args));
	size_t n = 0;

	if (!args)
		return NULL;
	args[n++] = strdup("bench");
	args[n++] = strdup("--trace");
	args[n++] = strdup(a->path);
	if (a->format_arg) {
		args[n++] = strdup("--trace-format");
		args[n++] = strdup(a->format_arg);
	}
	if (a->params) {
		args[n++] = strdup("--trace-params");
		args[n++] = strdup(a->params);
	}
	args[n++] = strdup("--policy");
	args[n++] = strdup(a->names[p]);
	args[n++] = strdup("--cache");
	if (asprintf(&args[n++], "%lluK", (unsigned long long)pages * 4) < 0)
		args[n - 1] = NULL;
	if (a->untimed)
		args[n++] = strdup("--no-timing");
	if (a->no_readahead)
		args[n++] = strdup("--no-readahead");
	args[n++] = strdup("--cell");
	for (size_t i = 0; i < n; i++)
		if (!args[i]) {
			for (size_t k = 0; k < n; k++)
				free(args[k]);
			free(args);
			return NULL;
		}
	return args;
}

/* The cell's end: its result when it finished. */
struct bt_end {
	bool ok;
	bool interrupted;	/* SIGINT, SIGTERM or SIGHUP: every child killed */
	struct replay_result r;
};

static void bt_on_exit(struct runner *rn, const struct runner_exit *e)
{
	struct bt_end *end = rn->ctx;

	end->interrupted = rn->interrupted;
	end->ok = !rn->interrupted && !e->timed_out && !e->term_signal && !e->exit_status &&
		  e->out_len == sizeof(end->r);
	if (end->ok)
		memcpy(&end->r, e->out, sizeof(end->r));
}

/*
 * Replays (policy p, pages) in a child on the runner, one at a time so that
 * the speeds do not disturb each other: 0 with its result, -1, or -EINTR
 * when interrupted.
 */
static int replay_one(const struct bt_args *a, int p, uint64_t pages, struct replay_result *out)
{
	struct bt_end end = { 0 };
	struct runner rn = { 0 };
	char **args = bt_cell_args(a, p, pages), *label = strdup(a->names[p]);
	int rc = -1;

	/* a replay takes what it takes: no timeout (a year) */
	if (args && label && !runner_open(&rn, 1, 365 * 86400.0)) {
		rn.ctx = &end;
		rn.on_exit = bt_on_exit;
		rn.inherit_stderr = true;	/* the model's messages: "see above" */
		rc = runner_spawn(&rn, 0, args, label);
		if (!rc) {
			args = NULL;
			label = NULL;
			runner_run(&rn);
		}
		runner_close(&rn);
	}
	for (char **s = args; s && *s; s++)
		free(*s);
	free(args);
	free(label);
	if (end.interrupted)
		return -EINTR;
	if (rc || !end.ok)
		return -1;
	*out = end.r;
	return 0;
}

/* What the trace is and how it is replayed. */
static void bt_print_header(const struct bt_args *a, const struct trace *tr, double load_s)
{
	char format[32];

	/* lcs and vscsi: the version read ("lcs v3") */
	snprintf(format, sizeof(format), tr->version ? "%s v%u" : "%s",
		 trace_format_name(tr->format), tr->version);
	printf("trace %s: %s%s, %zu requests, %llu objects, working set %llu pages "
	       "(%.1f MiB), %.2f s to read\n", a->path, format,
	       tr->compressed ? " (zstd)" : "", tr->nr, (unsigned long long)tr->nr_objects,
	       (unsigned long long)tr->nr_pages, (double)tr->nr_pages * 4096 / (1 << 20), load_s);
	if (a->untimed) {
		size_t writes = 0;

		for (size_t i = 0; i < tr->nr; i++)
			writes += tr->req[i].write;
		printf("no timing: miss ratio only; the model's decisions without IO waits or CPU "
		       "costs (simulated time does not pass), so faster than a timed replay\n");
		if (writes)
			printf("no timing: the %zu writes replay as reads (no dirty pages: their "
			       "writeback needs simulated time)\n",
			       writes);
	}
	else
		printf("timed: each miss an NVMe read, the model's CPU costs; a miss is a request "
		       "that took a major fault\n");
	if (a->no_readahead)
		printf("no readahead: the device's read_ahead_kb = 0, a miss reads only the pages "
		       "of its request\n");
}

/* One (policy, size)'s line, or its failure: 0, 1, or 130 when interrupted. */
static int bt_replay(const struct bt_args *a, const struct trace *tr, int p, int s,
		     bool *said_readahead)
{
	double compulsory = (double)tr->nr_objects / (double)tr->nr;
	const char *name = a->policy[p]->name;
	struct replay_result r;
	char size[32];
	int rc;

	print_size(size, sizeof(size), a->cache[s]);
	rc = replay_one(a, p, a->cache[s], &r);
	if (rc == -EINTR) {
		fprintf(stderr, "mmemu: bench: interrupted\n");
		return 130;
	}
	if (rc) {
		fprintf(stderr, "mmemu: bench: the replay of %s at %s ended early (its task "
			"OOM-killed, or the model stopped: see above)\n", name, size);
		return 1;
	}
	if (r.failed_at) {
		fprintf(stderr, "mmemu: bench: %s at %s: request %llu failed (%s): the replay's "
			"task was OOM-killed (a cache smaller than one fault's readaround?)\n", name,
			size, (unsigned long long)r.failed_at, strerror(-r.error));
		return 1;
	}
	printf("%s %s cache size %8s, %zu req, miss ratio %.4f, byte miss ratio %.4f, "
	       "throughput %.2f M req/s, CPU %.2f s (%.0f ns/req)", a->path, name, size, tr->nr,
	       (double)r.misses / (double)tr->nr,
	       tr->bytes ? (double)r.bytes_missed / (double)tr->bytes : 0.0,
	       (double)tr->nr / r.host_s / 1e6, r.cpu_s, r.cpu_s * 1e9 / (double)tr->nr);
	if (a->untimed)
		printf(" (no timing)\n");
	else
		printf(", simulated %.3f s\n", (double)r.sim_ns / 1e9);
	if (r.misses < tr->nr_objects && !*said_readahead) {
		printf("miss ratio below the compulsory %.4f (%llu objects / %zu requests): "
		       "readahead read pages before they were requested; --no-readahead compares "
		       "the caches alone\n", compulsory, (unsigned long long)tr->nr_objects, tr->nr);
		*said_readahead = true;
	}
	return 0;
}

int bench_trace(int argc, char **argv)
{
	struct bt_args a = { .fmt = TRACE_AUTO };
	bool said_readahead = false;
	struct trace tr;
	double t0, load_s;
	int rc = bt_parse(&a, argc, argv);

	if (rc < 0)
		rc = bt_policies(&a);
	if (rc >= 0)
		return rc;
	t0 = bench_now_s();
	if ((rc = bt_load(&a, &tr)) >= 0)
		return rc;
	load_s = bench_now_s() - t0;
	rc = bt_sizes(&a, &tr);
	if (rc < 0 && a.cell) {
		rc = bt_cell(&a, &tr);
	} else if (rc < 0) {
		bt_print_header(&a, &tr, load_s);
		rc = 0;
		for (int p = 0; p < a.nr_policies && rc != 130; p++)
			for (int s = 0; s < a.nr_sizes && rc != 130; s++) {
				int one = bt_replay(&a, &tr, p, s, &said_readahead);

				rc = one == 130 ? one : rc | one;
			}
	}
	trace_free(&tr);
	return rc;
}
