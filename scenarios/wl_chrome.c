/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chrome-node: the "Chrome and Node.js" experiment of the 2026 MGLRU
 * reclaim-loop series (SEEDS.md A.2). `groups` memcgs are made under the
 * section's memcg (or the root); each holds `workers_per_group` Node.js-like
 * servers (default: one per node), each a task of its own on its node with
 * an anonymous buffer of `size` bytes. The buffers are filled first, as a
 * server would have filled them (prefault), then every worker serves
 * requests back to back until [machine] duration: a Chrome-like client
 * faults in `client_alloc` bytes (writing them) and frees them, then the
 * server writes every page of one uniformly random `chunk` of its buffer.
 *
 * Reported per workload: completed requests in all and per worker (min, max,
 * mean, sample stdev, 95% confidence interval of the mean with Student's t
 * at n - 1 degrees of freedom), Jain's fairness index over the per-worker
 * counts, and the share of requests in the published latency buckets.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/workload.h"

/* Storing 4 KiB: one core's store bandwidth is ~10 GB/s (STREAM-like memset), ~400 ns. */
#define CHROME_PAGE_WRITE_NS 400

/* Published latency bucket edges in seconds, at full scale (SEEDS.md A.2). */
static const double lat_edges_s[] = { 1, 2, 4, 8 };
#define NR_LAT_BUCKETS (sizeof(lat_edges_s) / sizeof(lat_edges_s[0]) + 1)

/* The section's own keys. */
struct chrome_params {
	int groups;			/* memcgs made under the section's memcg */
	int workers_per_group;		/* servers per memcg (0: one per node) */
	uint64_t chunk;			/* bytes of its buffer a request writes */
	uint64_t client_alloc;		/* bytes a client faults in and frees per request */
	bool prefault;			/* servers fill their buffers first */
	double compress_ratio;		/* zram ratio of the buffers (0: the compressor's) */
};

struct chrome_node;

struct chrome_worker {
	struct chrome_node *cn;		/* the experiment */
	struct task *task;		/* the Node.js server process */
	struct address_space *buf;	/* its buffers */
	struct address_space *client;	/* the client's per-request allocation */
	int nid;			/* node it runs and allocates on */
	uint64_t requests;		/* completed in the measured phase */
};

struct chrome_node {
	struct workload *w;		/* owner: ops_done, lat, start_ns */
	struct chrome_worker *workers;	/* groups * per_group */
	int nr_workers;
	uint64_t chunk_pages;		/* pages written per request */
	uint64_t nr_chunks;		/* chunks in one buffer */
	uint64_t edge_ns[NR_LAT_BUCKETS - 1];	/* bucket edges at this scale */
	uint64_t bucket[NR_LAT_BUCKETS];	/* requests per latency bucket */
	int nr_ready;			/* workers past the fill phase */
	struct waitq *ready;		/* where the others wait for the last */
};

/* Writes pages [first, first + nr) of `as`: each is faulted in if needed, then stored to. */
static int write_pages(struct actor *a, struct chrome_worker *cw, struct address_space *as,
		       uint64_t first, uint64_t nr)
{
	for (uint64_t p = first; p < first + nr;) {
		uint64_t nr_new, n = mm_range_ops ?
			anon_access_range(a, cw->task, as, p, first + nr, true, CHROME_PAGE_WRITE_NS,
					  true, &nr_new) : 0;
		int ret;

		if (n) {
			workload_count_range(cw->cn->w, n, nr_new);
			p += n;
			actor_cond_resched(a);
			continue;
		}
		ret = anon_access(a, cw->task, as, p, true);
		if (ret < 0)
			return ret;
		workload_count_outcome(cw->cn->w, ret);
		actor_charge_user(a, CHROME_PAGE_WRITE_NS);
		actor_cond_resched(a);
		p++;
	}
	return 0;
}

/* The benchmark starts once every server has filled its buffers. */
static void wait_for_all_ready(struct actor *a, struct chrome_node *cn)
{
	actor_flush_cpu(a);
	if (++cn->nr_ready < cn->nr_workers) {
		waitq_wait(a, cn->ready, 0);
		return;
	}
	cn->w->start_ns = actor_now_ns(a);
	waitq_wake_all(cn->ready);
}

static void record_request(struct chrome_node *cn, struct chrome_worker *cw, uint64_t ns)
{
	size_t b = 0;

	while (b < NR_LAT_BUCKETS - 1 && ns >= cn->edge_ns[b])
		b++;
	cn->bucket[b]++;
	cw->requests++;
	cn->w->ops_done++;
	hist_record(&cn->w->lat, ns);
}

static void chrome_worker_fn(struct actor *a, void *arg)
{
	struct chrome_worker *cw = arg;
	struct chrome_node *cn = cw->cn;
	const struct scn_workload *c = cn->w->cfg;
	const struct chrome_params *p = c->params;
	bool alive;

	a->task = cw->task;
	alive = !p->prefault || write_pages(a, cw, cw->buf, 0, cw->buf->nr_pages) >= 0;
	wait_for_all_ready(a, cn);
	while (alive && !cw->task->oom_killed) {
		uint64_t t0 = actor_now_ns(a);
		uint64_t chunk = rng_below(&a->rng, cn->nr_chunks);

		/* the client: fault in and fill its allocation, then free it */
		if (cw->client) {
			if (write_pages(a, cw, cw->client, 0, cw->client->nr_pages) < 0)
				break;
			anon_region_zap(cw->client);
		}
		/* the server: write one chunk of its buffer */
		if (write_pages(a, cw, cw->buf, chunk * cn->chunk_pages, cn->chunk_pages) < 0)
			break;
		if (c->think_ns)
			actor_charge_user(a, c->think_ns);
		actor_flush_cpu(a);
		record_request(cn, cw, actor_now_ns(a) - t0);
	}
	actor_flush_cpu(a);
}

static int chrome_node_start(struct workload *w, struct mem_cgroup *parent,
			     struct blockdev *bdev, uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	const struct chrome_params *p = c->params;
	int per_group = p->workers_per_group ? p->workers_per_group : mm.machine.nr_nodes;
	struct chrome_node *cn = calloc(1, sizeof(*cn));
	char name[96];

	(void)bdev;
	(void)bdev_start;
	if (!cn)
		return -ENOMEM;
	w->priv = cn;
	cn->w = w;
	cn->chunk_pages = p->chunk / 4096;
	cn->nr_chunks = c->size / p->chunk;
	for (size_t b = 0; b < NR_LAT_BUCKETS - 1; b++)
		cn->edge_ns[b] = (uint64_t)llround(lat_edges_s[b] * c->scale * 1e9);
	cn->nr_workers = p->groups * per_group;
	cn->workers = calloc((size_t)cn->nr_workers, sizeof(*cn->workers));
	cn->ready = waitq_create();
	if (!cn->workers || !cn->ready)
		return -ENOMEM;
	for (int g = 0; g < p->groups; g++) {
		struct mem_cgroup *memcg;

		snprintf(name, sizeof(name), "%s-%d", c->name, g);
		memcg = mem_cgroup_create(parent, name);
		if (!memcg)
			return -ENOMEM;
		for (int i = 0; i < per_group; i++) {
			struct chrome_worker *cw = &cn->workers[g * per_group + i];

			cw->cn = cn;
			cw->nid = i % mm.machine.nr_nodes;
			snprintf(name, sizeof(name), "%s-%d.%d", c->name, g, i);
			cw->task = workload_task_create(cn->w, name, memcg, cw->nid);
			if (!cw->task)
				return -ENOMEM;
			cw->buf = anon_region_create(cw->task, name, c->size / 4096);
			if (!cw->buf)
				return -ENOMEM;
			cw->buf->compress_ratio = p->compress_ratio;
			if (p->client_alloc) {
				cw->client = anon_region_create(cw->task, "client", p->client_alloc / 4096);
				if (!cw->client)
					return -ENOMEM;
				cw->client->compress_ratio = p->compress_ratio;
			}
			if (!actor_create(name, cw->nid, chrome_worker_fn, cw, false))
				return -ENOMEM;
		}
	}
	/* w->task is the first worker's; chrome_node_report() counts every worker's */
	w->task = cn->workers[0].task;
	return 0;
}

/*
 * Student's t for a two-sided 95% interval at nu degrees of freedom, from
 * the Cornish-Fisher expansion around the normal quantile (Abramowitz and
 * Stegun 26.7.5): within 0.1% for nu >= 5, 1.998 at nu = 63.
 */
static double student_t_975(double nu)
{
	const double z = 1.959963984540054;
	double z2 = z * z, z3 = z2 * z, z5 = z3 * z2, z7 = z5 * z2, z9 = z7 * z2;
	double g1 = (z3 + z) / 4;
	double g2 = (5 * z5 + 16 * z3 + 3 * z) / 96;
	double g3 = (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / 384;
	double g4 = (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / 92160;

	return z + g1 / nu + g2 / (nu * nu) + g3 / (nu * nu * nu) + g4 / (nu * nu * nu * nu);
}

static void chrome_node_report(const struct workload *w, struct result_group *g,
			       uint64_t end_ns)
{
	const struct chrome_node *cn = w->priv;
	double n = cn->nr_workers, sum = 0, sum2 = 0, mean, var = 0, sd, half = 0;
	uint64_t lo = UINT64_MAX, hi = 0, killed = 0, total = 0;
	double secs = end_ns > w->start_ns && w->start_ns ? (double)(end_ns - w->start_ns) / 1e9 : 0;
	static const char *const share_names[NR_LAT_BUCKETS] = {
		"lat_share_0_1s", "lat_share_1_2s", "lat_share_2_4s", "lat_share_4_8s",
		"lat_share_8s_inf",
	};

	for (int i = 0; i < cn->nr_workers; i++) {
		double x = (double)cn->workers[i].requests;

		sum += x;
		sum2 += x * x;
		lo = cn->workers[i].requests < lo ? cn->workers[i].requests : lo;
		hi = cn->workers[i].requests > hi ? cn->workers[i].requests : hi;
		killed += cn->workers[i].task->oom_killed;
		total += cn->workers[i].requests;
	}
	mean = sum / n;
	for (int i = 0; i < cn->nr_workers; i++)
		var += ((double)cn->workers[i].requests - mean) *
		       ((double)cn->workers[i].requests - mean);
	var = cn->nr_workers > 1 ? var / (n - 1) : 0;
	sd = sqrt(var);
	if (cn->nr_workers > 1)
		half = student_t_975(n - 1) * sd / sqrt(n);

	result_add_u64(g, "ops", w->ops_done);
	result_add(g, "throughput_ops_s", secs > 0 ? (double)w->ops_done / secs : 0, false);
	result_add(g, "lat_mean_us", hist_mean(&w->lat) / 1e3, false);
	result_add(g, "lat_p50_us", (double)hist_quantile(&w->lat, 0.50) / 1e3, false);
	result_add(g, "lat_p99_us", (double)hist_quantile(&w->lat, 0.99) / 1e3, false);
	result_add(g, "lat_max_us", w->lat.count ? (double)w->lat.max / 1e3 : 0, false);
	result_add(g, "runtime_s", secs, false);
	result_add_u64(g, "page_hits", w->nr_hit);
	result_add_u64(g, "minor_faults", w->nr_minor);
	result_add_u64(g, "major_faults", w->nr_major);
	result_add_u64(g, "new_pages", w->nr_new);
	result_add_u64(g, "oom_killed", killed);
	result_add_u64(g, "workers", (uint64_t)cn->nr_workers);
	result_add_u64(g, "requests_total", total);
	result_add_u64(g, "requests_min", cn->nr_workers ? lo : 0);
	result_add_u64(g, "requests_max", hi);
	result_add(g, "requests_mean", mean, false);
	result_add(g, "requests_stdev", sd, false);
	result_add(g, "requests_ci95_lo", mean - half, false);
	result_add(g, "requests_ci95_hi", mean + half, false);
	result_add(g, "jain_fairness", sum2 > 0 ? sum * sum / (n * sum2) : 0, false);
	/* bucket edges are the published seconds times the scale: a request
	 * does `scale` of the published work, so --scale 1 gives [0,1) s etc. */
	for (size_t b = 0; b < NR_LAT_BUCKETS; b++)
		result_add(g, share_names[b],
			   total ? 100.0 * (double)cn->bucket[b] / (double)total : 0, false);
}

/* Whether name is "<base>-<g>", g in [0, groups): a memcg chrome_node_start() makes. */
static bool is_group_name(const char *name, const char *base, int groups)
{
	size_t n = strlen(base);
	char *end;
	long g;

	if (strncmp(name, base, n) || name[n] != '-' || !isdigit((unsigned char)name[n + 1]) ||
	    (name[n + 1] == '0' && name[n + 2]))
		return false;
	g = strtol(name + n + 1, &end, 10);
	return !*end && g < groups;
}

static int chrome_node_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct chrome_params *p = cfg->params;

	cfg->ops = 1;	/* it runs until the duration, not by operations */
	if (!p->groups)
		return scn_fail(ck, NULL, "groups", "chrome-node needs groups (memcgs)");
	/* a declared memcg of the same name: both were made, and their results merged */
	for (int j = 0; j < ck->s->nr_memcgs; j++)
		if (is_group_name(ck->s->memcg[j].name, cfg->name, p->groups)) {
			char msg[320];

			snprintf(msg, sizeof(msg), "its memcgs are %s-0 to %s-%d, and [memcg.%s] is "
				 "one of them: rename one", cfg->name, cfg->name, p->groups - 1,
				 ck->s->memcg[j].name);
			return scn_fail(ck, NULL, "groups", msg);
		}
	if (p->chunk < 4096 || p->chunk > cfg->size)
		return scn_fail(ck, NULL, "chunk",
				"chrome-node needs a chunk of at least a page after scaling, "
				"and no larger than size");
	if (!ck->s->machine.duration_ns)
		return scn_fail(ck, "machine", "duration",
				"a chrome-node workload runs until the duration: set one");
	return 0;
}

#define P struct chrome_params
static const struct key_desc chrome_node_keys[] = {
	SCN_KEY("groups", KT_INT, KEY_UNSCALED, P, groups, 1, 512, "a memcg count (1-512)",
		"memcgs made under the section's memcg, one server group each"),
	SCN_KEY("workers_per_group", KT_INT, KEY_UNSCALED, P, workers_per_group, 0, 64,
		"a worker count (0-64, 0: one per node)", "servers per memcg (0: one per node)"),
	SCN_KEY("chunk", KT_SIZE, KEY_SCALED_PAGES, P, chunk, 0, 0, "a size",
		"bytes of its buffer (size) a server writes per request"),
	SCN_KEY("client_alloc", KT_SIZE, KEY_SCALED_PAGES, P, client_alloc, 0, 0, "a size",
		"bytes a client faults in and frees per request"),
	SCN_KEY("prefault", KT_BOOL, KEY_UNSCALED, P, prefault, 0, 0, "a boolean",
		"servers fill their buffers before the requests start"),
	SCN_KEY("compress_ratio", KT_DOUBLE, KEY_UNSCALED, P, compress_ratio, 1, 100,
		"a ratio in [1, 100]", "how well the buffers compress in zram"),
	{ 0 }
};
#undef P

const struct workload_ops chrome_node_ops = {
	.name = "chrome-node",
	.desc = "Node.js servers in many memcgs with Chrome-like clients",
	.keys = chrome_node_keys,
	.params_size = sizeof(struct chrome_params),
	.check = chrome_node_check,
	.own_tasks = true,
	.start = chrome_node_start,
	.report = chrome_node_report,
	.reports_all = true,
};
