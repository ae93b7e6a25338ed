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
 * Each (policy, size) runs in a child process (the engine starts once per
 * process) on the trace loaded once before; runs go one at a time, so their
 * speeds do not disturb each other.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
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

/* Runs one (policy, size) in a child; 0 with its result, or -1. */
static int replay_one(const struct trace *tr, const struct reclaim_policy *policy,
		      uint64_t cache_pages, bool untimed, bool no_readahead,
		      struct replay_result *out)
{
	int fd[2], status;
	pid_t pid;
	ssize_t got;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fd))
		return -1;
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		static struct replay b;

		child_stdout_to_stderr();
		close(fd[0]);
		b = (struct replay){ .tr = tr, .cache_pages = cache_pages, .untimed = untimed,
				     .no_readahead = no_readahead };
		if (replay_boot(&b, policy) || !b.r.ok)
			_exit(1);
		_exit(write(fd[1], &b.r, sizeof(b.r)) == sizeof(b.r) ? 0 : 1);
	}
	close(fd[1]);
	do
		got = read(fd[0], out, sizeof(*out));
	while (got < 0 && errno == EINTR);
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return got == sizeof(*out) && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
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

int bench_trace(int argc, char **argv)
{
	const struct reclaim_policy *policy[MAX_POLICIES];
	char *policy_arg = NULL, *cache_arg = NULL, *item[MAX_SIZES], err[512], format[32];
	const char *path = NULL, *params = NULL;
	enum trace_format fmt = TRACE_AUTO;
	uint64_t cache[MAX_SIZES];
	int nr_policies = 1, nr_sizes = 1, rc = 0;
	bool untimed = false, no_readahead = false, said_readahead = false;
	double compulsory;
	struct trace_opts o;
	struct trace tr;
	double t0, load_s;

	policy[0] = &classic_policy;
	for (int i = 1; i < argc; i++) {
		const char *opt = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--no-timing")) {
			untimed = true;
			continue;
		}
		if (!strcmp(opt, "--no-readahead")) {
			no_readahead = true;
			continue;
		}
		if (!val || (strcmp(opt, "--trace") && strcmp(opt, "--trace-format") &&
			     strcmp(opt, "--trace-params") && strcmp(opt, "-t") &&
			     strcmp(opt, "--policy") && strcmp(opt, "--cache"))) {
			fprintf(stderr, "mmemu: bench: unknown option '%s'\n", opt);
			help_command(stderr, "bench");
			return 2;
		}
		i++;
		if (!strcmp(opt, "--trace"))
			path = val;
		else if (!strcmp(opt, "--trace-format")) {
			if (trace_format_parse(val, &fmt)) {
				fprintf(stderr, "mmemu: bench: --trace-format '%s': expected auto, "
					"oracle, csv, txt, lcs, twr, twrNS, oracleSysTwrNS, "
					"oracleSimTwrNS or vscsi\n", val);
				return 2;
			}
		} else if (!strcmp(opt, "--trace-params") || !strcmp(opt, "-t"))
			params = val;
		else if (!strcmp(opt, "--policy"))
			policy_arg = argv[i];
		else
			cache_arg = argv[i];
	}
	if (!path) {
		help_command(stderr, "bench");
		return 2;
	}
	if (policy_arg) {
		char copy[1024], *names[MAX_POLICIES];

		snprintf(copy, sizeof(copy), "%s", policy_arg);
		nr_policies = strlen(policy_arg) < sizeof(copy) ?
			      split_list(copy, names, MAX_POLICIES) : -1;
		if (nr_policies <= 0) {
			fprintf(stderr, "mmemu: bench: --policy '%s': expected 1 to %d names\n",
				policy_arg, MAX_POLICIES);
			return 2;
		}
		for (int i = 0; i < nr_policies; i++)
			if (!(policy[i] = child_policy_get(names[i], err, sizeof(err)))) {
				fprintf(stderr, "mmemu: bench: --policy: %s\n", err);
				return 2;
			}
	}
	trace_opts_init(&o, fmt);
	if (params && trace_opts_parse(&o, params, err, sizeof(err))) {
		fprintf(stderr, "mmemu: bench: --trace-params: %s\n", err);
		return 2;
	}
	t0 = bench_now_s();
	if (trace_load_opts(&tr, path, &o, err, sizeof(err))) {
		fprintf(stderr, "mmemu: %s\n", err);
		return 2;
	}
	load_s = bench_now_s() - t0;
	if (cache_arg) {
		char copy[1024];

		snprintf(copy, sizeof(copy), "%s", cache_arg);
		nr_sizes = strlen(cache_arg) < sizeof(copy) ? split_list(copy, item, MAX_SIZES) : -1;
		for (int i = 0; i < nr_sizes && nr_sizes > 0; i++)
			if (parse_cache(item[i], &tr, &cache[i])) {
				fprintf(stderr, "mmemu: bench: --cache '%s': expected a size (1G) or a "
					"fraction of the working set (0.1, 10%%)\n", item[i]);
				trace_free(&tr);
				return 2;
			}
		if (nr_sizes <= 0) {
			fprintf(stderr, "mmemu: bench: --cache '%s': expected 1 to %d sizes\n",
				cache_arg, MAX_SIZES);
			trace_free(&tr);
			return 2;
		}
	} else {
		cache[0] = tr.nr_pages / 4 + 1;	/* a quarter of the working set */
	}

	/* lcs and vscsi: the version read ("lcs v3") */
	snprintf(format, sizeof(format), tr.version ? "%s v%u" : "%s", trace_format_name(tr.format),
		 tr.version);
	printf("trace %s: %s%s, %zu requests, %llu objects, working set %llu pages "
	       "(%.1f MiB), %.2f s to read\n", path, format,
	       tr.compressed ? " (zstd)" : "", tr.nr, (unsigned long long)tr.nr_objects,
	       (unsigned long long)tr.nr_pages, (double)tr.nr_pages * 4096 / (1 << 20), load_s);
	if (untimed) {
		size_t writes = 0;

		for (size_t i = 0; i < tr.nr; i++)
			writes += tr.req[i].write;
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
	if (no_readahead)
		printf("no readahead: the device's read_ahead_kb = 0, a miss reads only the pages "
		       "of its request\n");
	compulsory = (double)tr.nr_objects / (double)tr.nr;
	for (int p = 0; p < nr_policies; p++)
		for (int s = 0; s < nr_sizes; s++) {
			struct replay_result r;
			char size[32];

			print_size(size, sizeof(size), cache[s]);
			if (replay_one(&tr, policy[p], cache[s], untimed, no_readahead, &r)) {
				fprintf(stderr, "mmemu: bench: the replay of %s at %s ended early "
					"(its task OOM-killed, or the model stopped: see above)\n",
					policy[p]->name, size);
				rc = 1;
				continue;
			}
			if (r.failed_at) {
				fprintf(stderr, "mmemu: bench: %s at %s: request %llu failed (%s): "
					"the replay's task was OOM-killed (a cache smaller than one "
					"fault's readaround?)\n", policy[p]->name, size,
					(unsigned long long)r.failed_at, strerror(-r.error));
				rc = 1;
				continue;
			}
			printf("%s %s cache size %8s, %zu req, miss ratio %.4f, byte miss ratio %.4f, "
			       "throughput %.2f M req/s, CPU %.2f s (%.0f ns/req)", path,
			       policy[p]->name, size, tr.nr, (double)r.misses / (double)tr.nr,
			       tr.bytes ? (double)r.bytes_missed / (double)tr.bytes : 0.0,
			       (double)tr.nr / r.host_s / 1e6, r.cpu_s,
			       r.cpu_s * 1e9 / (double)tr.nr);
			if (untimed)
				printf(" (no timing)\n");
			else
				printf(", simulated %.3f s\n", (double)r.sim_ns / 1e9);
			if (r.misses < tr.nr_objects && !said_readahead) {
				printf("miss ratio below the compulsory %.4f (%llu objects / %zu "
				       "requests): readahead read pages before they were requested; "
				       "--no-readahead compares the caches alone\n", compulsory,
				       (unsigned long long)tr.nr_objects, tr.nr);
				said_readahead = true;
			}
		}
	trace_free(&tr);
	return rc;
}
