/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/vmscan.h"
#include "scenarios/wl_chrome.h"
#include "scenarios/workload.h"
#include "scenarios/wl_fio.h"
#include "scenarios/wl_sysbench.h"
#include "scenarios/wl_applaunch.h"
#include "scenarios/wl_reclaim.h"
#include "scenarios/wl_kbuild.h"
#include "scenarios/wl_ycsb.h"

static int ycsb_access(struct workload *w, struct actor *a, uint64_t page, bool write);

static int access_page(struct workload *w, struct actor *a, uint64_t page, bool write)
{
	const struct scn_workload *c = w->cfg;

	if (c->type == WL_YCSB)
		return ycsb_access(w, a, page, write);
	if (c->type == WL_ANON || (c->type == WL_TRACE && !strcmp(c->target, "anon")))
		return anon_access(a, w->task, w->as, page, write);
	if (c->access == ACC_MMAP)
		return filemap_map_access(a, w->task, w->as, page, write);
	return write ? filemap_write(a, w->task, w->as, page)
		     : filemap_read(a, w->task, w->as, page);
}


/*
 * ycsb: a WiredTiger-like store. Its cache of btree leaf pages lives in
 * anonymous memory (4-way sets, least recently used victim). A record
 * lives in leaf page key / records_per_leaf; a miss preads the whole
 * on-disk leaf page (a run of 4 KiB file pages) through the page cache and
 * decompresses it; evicting an updated leaf reconciles it (compresses and
 * pwrites the whole page). Checkpoints write every dirty leaf (see
 * ycsb_checkpoint_thread). Leaves are rewritten in place: WiredTiger writes
 * to new extents, which the model does not allocate.
 */
#define WT_WAYS 4
/* snappy on one core: compresses at ~250 MB/s, decompresses at ~500 MB/s
 * (google/snappy README, "Performance"): ns per 4 KiB page */
#define WT_SNAPPY_COMPRESS_NS_PER_PAGE (4096ULL * 1000 / 250)
#define WT_SNAPPY_DECOMPRESS_NS_PER_PAGE (4096ULL * 1000 / 500)

/* The file pages of leaf page `leaf`. */
static uint64_t wt_leaf_page(const struct workload *w, uint64_t leaf)
{
	return leaf * w->wt_pages_per_leaf;
}

/* Reconciliation: the leaf in `slot` compressed and written with pwrite(). */
static int wt_reconcile(struct workload *w, struct actor *a, uint64_t slot)
{
	uint64_t first = wt_leaf_page(w, w->wt_tag[slot] - 1);

	actor_charge_user(a, w->wt_pages_per_leaf * WT_SNAPPY_COMPRESS_NS_PER_PAGE);
	for (uint64_t i = 0; i < w->wt_pages_per_leaf; i++) {
		int ret = filemap_write(a, w->task, w->as, first + i);

		if (ret < 0)
			return ret;
	}
	w->wt_dirty[slot] = 0;
	w->wt_reconciled++;
	return 0;
}

static int wt_access(struct workload *w, struct actor *a, uint64_t key, bool write, bool create);

static int ycsb_access(struct workload *w, struct actor *a, uint64_t key, bool write)
{
	return wt_access(w, a, key, write, false);
}

int ycsb_store_access(struct workload *w, struct actor *a, uint64_t key, bool write,
		      bool create)
{
	int ret = wt_access(w, a, key, write, create);

	if (ret >= 0)
		workload_count_outcome(w, ret);
	return ret;
}

/* create: a new leaf (an insert past the data on disk) is made in the cache */
static int wt_access(struct workload *w, struct actor *a, uint64_t key, bool write, bool create)
{
	uint64_t ppl = w->wt_pages_per_leaf;
	uint64_t leaf = key / w->wt_records_per_leaf;
	uint64_t set, victim, rec_page;
	uint32_t now = (uint32_t)w->ops_issued;
	int ret = 0;

	if (leaf >= w->wt_nr_leaves)
		leaf = w->wt_nr_leaves - 1;
	set = mix64(leaf) % (w->nr_slots / WT_WAYS);
	victim = set * WT_WAYS;
	/* the cache page holding the record within its leaf */
	rec_page = (key % w->wt_records_per_leaf) * ppl / w->wt_records_per_leaf;
	for (uint64_t s = set * WT_WAYS; s < (set + 1) * WT_WAYS; s++) {
		if (w->wt_tag[s] == leaf + 1) {
			w->wt_hits++;
			w->wt_used[s] = now;
			w->wt_dirty[s] |= write;
			return anon_access(a, w->task, w->cache_as, s * ppl + rec_page, write);
		}
		if (!w->wt_tag[s] || (w->wt_tag[victim] &&
				      (uint32_t)(now - w->wt_used[s]) > (uint32_t)(now - w->wt_used[victim])))
			victim = s;
	}
	w->wt_misses++;
	if (!create) {
		ret = filemap_read_pages(a, w->task, w->as, wt_leaf_page(w, leaf), ppl);
		if (ret < 0)
			return ret;
		workload_count_outcome(w, ret);
		actor_charge_user(a, ppl * WT_SNAPPY_DECOMPRESS_NS_PER_PAGE);
	}
	if (w->wt_tag[victim] && w->wt_dirty[victim]) {
		ret = wt_reconcile(w, a, victim);
		if (ret < 0)
			return ret;
	}
	w->wt_tag[victim] = leaf + 1;
	w->wt_used[victim] = now;
	w->wt_dirty[victim] = write;
	/* a new leaf starts with its first record */
	if (create)
		return anon_access(a, w->task, w->cache_as, victim * ppl + rec_page, write);
	/* the leaf is decompressed into the cache */
	for (uint64_t i = 0; i < ppl; i++) {
		ret = anon_access(a, w->task, w->cache_as, victim * ppl + i, true);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/*
 * A WiredTiger checkpoint every `checkpoint` (MongoDB's syncPeriodSecs):
 * every dirty leaf is reconciled and written, then the file is fsync()ed.
 * fsync is modelled as starting writeback of the file's dirty pages (the
 * flushers are woken); the checkpoint does not wait for it.
 */
static void ycsb_checkpoint_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;

	a->task = w->task;
	for (;;) {
		actor_sleep_ns(a, w->cfg->checkpoint_ns);
		for (uint64_t s = 0; s < w->nr_slots; s++) {
			if (!w->wt_tag[s] || !w->wt_dirty[s])
				continue;
			if (wt_reconcile(w, a, s) < 0)
				return;
			actor_cond_resched(a);
		}
		wakeup_flusher_threads();
		w->wt_checkpoints++;
	}
}

void workload_count_outcome(struct workload *w, int ret)
{
	switch (ret) {
	case ACCESS_HIT: w->nr_hit++; break;
	case ACCESS_MINOR: w->nr_minor++; break;
	case ACCESS_MAJOR: w->nr_major++; break;
	case ACCESS_NEW: w->nr_new++; break;
	default: break;
	}
}

/* file-scan: every page of the mapping in order, then a pause; a daemon */
static void file_scan_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;

	a->task = w->task;
	for (;;) {
		for (uint64_t p = 0; p < w->as->nr_pages; p++) {
			int ret = filemap_map_access(a, w->task, w->as, p, false);

			if (ret < 0)
				return;
			workload_count_outcome(w, ret);
			actor_cond_resched(a);
		}
		w->passes++;
		actor_sleep_ns(a, w->cfg->pause_ns);
	}
}

/* anon-rounds: fault the thread's region in (writing), free it, repeat */
static void anon_rounds_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;
	int tid = w->threads_running++;
	struct address_space *as = w->regions[tid];

	a->task = w->task;
	if (!w->start_ns)
		w->start_ns = actor_now_ns(a);
	for (int r = 0; r < w->cfg->rounds && !w->task->oom_killed; r++) {
		uint64_t t0 = actor_now_ns(a);
		int ret = 0;

		for (uint64_t p = 0; p < as->nr_pages && ret >= 0; p++) {
			ret = anon_access(a, w->task, as, p, true);
			if (ret >= 0)
				workload_count_outcome(w, ret);
			actor_cond_resched(a);
		}
		if (ret < 0)
			break;
		anon_region_zap(as);	/* munmap */
		w->round[tid] = r + 1;
		w->ops_done++;
		hist_record(&w->lat, actor_now_ns(a) - t0);
	}
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

static void workload_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;
	const struct scn_workload *c = w->cfg;
	int tid = w->threads_running++;

	a->task = w->task;
	if (c->start_ns)
		actor_sleep_ns(a, c->start_ns);
	if (!w->start_ns || actor_now_ns(a) < w->start_ns)
		w->start_ns = actor_now_ns(a);

	/* ycsb's load phase left the data file in the page cache: read it in
	 * (each thread its stripe, in order; not counted as operations) */
	if (c->type == WL_YCSB && c->prefault) {
		for (uint64_t p = (uint64_t)tid; p < c->size / 4096; p += (uint64_t)c->threads) {
			int ret = filemap_read(a, w->task, w->as, p);

			if (ret < 0)
				goto out;
			actor_cond_resched(a);
		}
		/* throughput counts from the end of the load phase */
		if (actor_now_ns(a) > w->start_ns)
			w->start_ns = actor_now_ns(a);
	}
	/* Populate the heap first, each thread its stripe (like malloc + memset). */
	if (c->type == WL_ANON && c->prefault) {
		for (uint64_t p = (uint64_t)tid; p < w->as->nr_pages; p += (uint64_t)c->threads) {
			int ret = anon_access(a, w->task, w->as, p, true);

			if (ret < 0)
				goto out;
			workload_count_outcome(w, ret);
			actor_cond_resched(a);
		}
	}
	while (w->ops_issued < c->ops && !w->task->oom_killed) {
		uint64_t t0 = actor_now_ns(a);

		/* ycsb_workload: a YCSB core workload's mix (wl_ycsb.c) */
		if (c->type == WL_YCSB && w->priv) {
			bool wrote;
			int r;

			w->ops_issued++;
			r = ycsb_mix_op(w, a, &wrote);
			if (r < 0)
				break;
			if (c->think_ns)
				actor_charge_user(a, c->think_ns);
			w->ops_done++;
			w->ops_write += wrote;
			hist_record(&w->lat, actor_now_ns(a) - t0);
			actor_cond_resched(a);
			continue;
		}
		/* dd writes the file front to back, a trace says what to touch,
		 * the others draw keys */
		const struct trace_req *tr = c->type == WL_TRACE ? &c->trace->req[w->ops_issued] : NULL;
		uint64_t key = c->type == WL_DD ? w->ops_issued % w->nr_keys
			     : tr ? tr->dense_id % w->nr_keys
				  : zipf_next(&w->zipf, &a->rng);
		bool write = c->type == WL_DD || (tr && tr->write) ||
			     (!tr && c->write_ratio > 0 && rng_double(&a->rng) < c->write_ratio);
		int ret = 0;

		w->ops_issued++;
		if (c->type == WL_YCSB) {
			ret = access_page(w, a, key, write);
			if (ret >= 0)
				workload_count_outcome(w, ret);
		}
		for (uint64_t i = 0; c->type != WL_YCSB && i < c->pages_per_op; i++) {
			ret = access_page(w, a, key * c->pages_per_op + i, write);
			if (ret < 0)
				break;
			workload_count_outcome(w, ret);
		}
		if (ret < 0)
			break;
		if (c->think_ns)
			actor_charge_user(a, c->think_ns);
		w->ops_done++;
		w->ops_write += write;
		hist_record(&w->lat, actor_now_ns(a) - t0);
		actor_cond_resched(a);
	}
out:
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

uint64_t workload_device_pages(const struct scn_workload *cfg)
{
	if (cfg->type == WL_KBUILD)
		return kbuild_device_pages(cfg);
	if (cfg->type == WL_YCSB)
		return ycsb_file_pages(cfg);
	/* one file per job, one code file per app, laid out one after another */
	if (cfg->type == WL_FIO)
		return (uint64_t)cfg->threads * (cfg->size / 4096);
	if (cfg->type == WL_APP_LAUNCH)
		return (uint64_t)cfg->apps * (cfg->size / 4096);
	return cfg->size / 4096;
}

int workload_start(struct workload *w, const struct scn_workload *cfg,
		   struct mem_cgroup *memcg, struct blockdev *bdev, uint64_t bdev_start)
{
	uint64_t nr_pages = cfg->type == WL_YCSB ? ycsb_file_pages(cfg) : cfg->size / 4096;
	char name[96];

	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	hist_init(&w->lat);
	if (cfg->type == WL_CHROME_NODE)
		return chrome_node_start(w, memcg);
	w->task = task_create(cfg->name, memcg, cfg->node);
	if (!w->task)
		return -ENOMEM;
	if (cfg->type == WL_FIO)
		return wl_fio_start(w, memcg, bdev, bdev_start);
	if (cfg->type == WL_SYSBENCH)
		return wl_sysbench_start(w);
	if (cfg->type == WL_APP_LAUNCH)
		return wl_applaunch_start(w, memcg, bdev, bdev_start);
	if (cfg->type == WL_PROACTIVE_RECLAIM)
		return wl_reclaim_start(w);
	if (cfg->type == WL_KBUILD)
		return kbuild_start(w, memcg, bdev, bdev_start);
	if (cfg->type == WL_ANON_ROUNDS) {
		w->regions = calloc((size_t)cfg->threads, sizeof(*w->regions));
		w->round = calloc((size_t)cfg->threads, sizeof(*w->round));
		if (!w->regions || !w->round)
			return -ENOMEM;
		for (int t = 0; t < cfg->threads; t++) {
			snprintf(name, sizeof(name), "%s.%d", cfg->name, t);
			w->regions[t] = anon_region_create(w->task, name, nr_pages / (uint64_t)cfg->threads);
			if (!w->regions[t])
				return -ENOMEM;
			if (!actor_create(name, cfg->node, anon_rounds_thread, w, false))
				return -ENOMEM;
		}
		return 0;
	}
	if (cfg->type == WL_ANON || (cfg->type == WL_TRACE && !strcmp(cfg->target, "anon"))) {
		w->as = anon_region_create(w->task, cfg->name, nr_pages);
		if (w->as)
			w->as->compress_ratio = cfg->compress_ratio;
	}
	else
		w->as = file_create(cfg->name, nr_pages, bdev, bdev_start, false);
	if (!w->as)
		return -ENOMEM;
	w->nr_keys = nr_pages / cfg->pages_per_op;
	if (cfg->type == WL_YCSB) {
		/* records, and the store's cache in front of the data file */
		uint64_t rec = cfg->record_size ? cfg->record_size : 1024;
		uint64_t page = cfg->page_size ? cfg->page_size : 4096;

		w->nr_keys = cfg->size / rec;
		/* a leaf takes whole 4 KiB allocation units (allocation_size=4KB) */
		w->wt_pages_per_leaf = (page + 4095) / 4096;
		w->wt_records_per_leaf = page / rec ? page / rec : 1;
		w->wt_nr_leaves = nr_pages / w->wt_pages_per_leaf;
		w->nr_slots = cfg->cache_size / (w->wt_pages_per_leaf * 4096) / WT_WAYS * WT_WAYS;
		w->cache_as = anon_region_create(w->task, "wt-cache",
						 w->nr_slots * w->wt_pages_per_leaf);
		w->wt_tag = calloc(w->nr_slots, sizeof(*w->wt_tag));
		w->wt_used = calloc(w->nr_slots, sizeof(*w->wt_used));
		w->wt_dirty = calloc(w->nr_slots, sizeof(*w->wt_dirty));
		if (!w->nr_slots || !w->wt_nr_leaves || !w->cache_as || !w->wt_tag || !w->wt_used ||
		    !w->wt_dirty)
			return -ENOMEM;
		if (cfg->checkpoint_ns &&
		    !actor_create("wt-checkpoint", cfg->node, ycsb_checkpoint_thread, w, true))
			return -ENOMEM;
	}
	zipf_init(&w->zipf, w->nr_keys, cfg->zipf_theta, true);
	if (cfg->type == WL_YCSB && cfg->ycsb_workload[0] && ycsb_mix_init(w))
		return -ENOMEM;
	for (int t = 0; t < cfg->threads; t++) {
		bool scan = cfg->type == WL_FILE_SCAN;

		snprintf(name, sizeof(name), "%s.%d", cfg->name, t);
		/* file scanners read "forever": daemons, the run ends without them */
		if (!actor_create(name, cfg->node, scan ? file_scan_thread : workload_thread, w, scan))
			return -ENOMEM;
	}
	return 0;
}

void workload_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	uint64_t end = w->end_ns ? w->end_ns : end_ns;
	double secs = end > w->start_ns ? (double)(end - w->start_ns) / 1e9 : 0;
	static const uint64_t edges_us[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
	uint64_t prev = 0;

	if (w->cfg->type == WL_PROACTIVE_RECLAIM) {
		wl_reclaim_report(w, g, end_ns);
		return;
	}
	if (w->cfg->type == WL_CHROME_NODE) {
		chrome_node_report(w, g, end_ns);
		return;
	}
	result_add_u64(g, "ops", w->ops_done);
	result_add(g, "throughput_ops_s", secs > 0 ? (double)w->ops_done / secs : 0, false);
	result_add(g, "lat_mean_us", hist_mean(&w->lat) / 1e3, false);
	result_add(g, "lat_p50_us", (double)hist_quantile(&w->lat, 0.50) / 1e3, false);
	result_add(g, "lat_p99_us", (double)hist_quantile(&w->lat, 0.99) / 1e3, false);
	result_add(g, "lat_p99.9_us", (double)hist_quantile(&w->lat, 0.999) / 1e3, false);
	result_add(g, "lat_max_us", w->lat.count ? (double)w->lat.max / 1e3 : 0, false);
	result_add(g, "runtime_s", secs, false);
	result_add_u64(g, "page_hits", w->nr_hit);
	result_add_u64(g, "minor_faults", w->nr_minor);
	result_add_u64(g, "major_faults", w->nr_major);
	result_add_u64(g, "new_pages", w->nr_new);
	result_add_u64(g, "oom_killed", w->task->oom_killed);
	result_add(g, "dirty_throttle_ms", (double)w->task->dirty_throttle_ns / 1e6, false);
	if (w->cfg->type == WL_FILE_SCAN)
		result_add_u64(g, "passes", w->passes);
	if (w->cfg->type == WL_FIO)
		wl_fio_report(w, g, secs);
	if (w->cfg->type == WL_SYSBENCH)
		wl_sysbench_report(w, g, secs);
	if (w->cfg->type == WL_APP_LAUNCH)
		wl_applaunch_report(w, g);
	if (w->cfg->type == WL_YCSB) {
		result_add_u64(g, "cache_hits", w->wt_hits);
		result_add_u64(g, "cache_misses", w->wt_misses);
		result_add_u64(g, "leaves_reconciled", w->wt_reconciled);
		result_add_u64(g, "checkpoints", w->wt_checkpoints);
		if (w->priv)
			ycsb_mix_report(w, g);
	}
	if (w->cfg->type == WL_KBUILD)
		kbuild_report(w, g);
	if (w->cfg->type == WL_ANON_ROUNDS) {
		int done = w->cfg->rounds;

		for (int t = 0; t < w->cfg->threads; t++)
			if (w->round[t] < done)
				done = w->round[t];
		result_add_u64(g, "rounds_completed", (uint64_t)done);
		/* the round in which the OOM killer struck (0: none) */
		result_add_u64(g, "oom_round", w->task->oom_killed ? (uint64_t)done + 1 : 0);
	}
	result_add(g, "oom_kill_s", w->task->oom_killed ? (double)w->task->oom_kill_ns / 1e9 : 0,
		   false);
	/* latency histogram: operations below each decade edge */
	for (size_t i = 0; i < sizeof(edges_us) / sizeof(edges_us[0]); i++) {
		char key[40];

		snprintf(key, sizeof(key), "hist_%llu_%lluus", (unsigned long long)prev,
			 (unsigned long long)edges_us[i]);
		result_add_u64(g, key, hist_count_range(&w->lat, prev * 1000, edges_us[i] * 1000));
		prev = edges_us[i];
	}
	result_add_u64(g, "hist_1000000us_inf", hist_count_range(&w->lat, prev * 1000, 0));
}
