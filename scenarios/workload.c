/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What every workload shares: its task, its latency histogram and outcome
 * counters, and the common results. The generators are behind
 * cfg->type (scenarios/workloads.c); nothing here knows one.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "scenarios/workload.h"

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

void workload_count_range(struct workload *w, uint64_t nr, uint64_t nr_new)
{
	w->nr_hit += nr - nr_new;
	w->nr_new += nr_new;
}

double workload_seconds(const struct workload *w, uint64_t end_ns)
{
	uint64_t end = w->end_ns ? w->end_ns : end_ns;

	return end > w->start_ns ? (double)(end - w->start_ns) / 1e9 : 0;
}

bool workload_has_files(const struct scn_workload *cfg)
{
	(void)cfg;
	return true;
}

uint64_t workload_device_pages(const struct scn_workload *cfg)
{
	if (cfg->type->device_pages)
		return cfg->type->device_pages(cfg);
	return cfg->size / 4096;
}

uint64_t workload_pages_per_op(const struct scn_workload *cfg)
{
	return cfg->type->pages_per_op ? cfg->type->pages_per_op(cfg) : 1;
}

struct task *workload_task_create(struct workload *w, const char *name, struct mem_cgroup *memcg,
				  int nid)
{
	struct task *t = task_create(name, memcg, nid);

	if (t)
		t->advice = (uint8_t)w->cfg->advice;
	return t;
}

int workload_start(struct workload *w, const struct scn_workload *cfg,
		   struct mem_cgroup *memcg, struct blockdev *bdev, uint64_t bdev_start)
{
	memset(w, 0, sizeof(*w));
	w->cfg = cfg;
	hist_init(&w->lat);
	if (!cfg->type->own_tasks) {
		w->task = workload_task_create(w, cfg->name, memcg, cfg->node);
		if (!w->task)
			return -ENOMEM;
	}
	return cfg->type->start(w, memcg, bdev, bdev_start);
}

/* latency histogram: operations below each decade edge */
static void report_histogram(const struct workload *w, struct result_group *g)
{
	static const uint64_t edges_us[] = { 1, 10, 100, 1000, 10000, 100000, 1000000 };
	uint64_t prev = 0;

	for (size_t i = 0; i < sizeof(edges_us) / sizeof(edges_us[0]); i++) {
		char key[40];

		snprintf(key, sizeof(key), "hist_%llu_%lluus", (unsigned long long)prev,
			 (unsigned long long)edges_us[i]);
		result_add_u64(g, key, hist_count_range(&w->lat, prev * 1000, edges_us[i] * 1000));
		prev = edges_us[i];
	}
	result_add_u64(g, "hist_1000000us_inf", hist_count_range(&w->lat, prev * 1000, 0));
}

void workload_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct workload_ops *type = w->cfg->type;
	double secs = workload_seconds(w, end_ns);

	if (type->reports_all) {
		type->report(w, g, end_ns);
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
	if (type->report)
		type->report(w, g, end_ns);
	result_add(g, "oom_kill_s", w->task->oom_killed ? (double)w->task->oom_kill_ns / 1e9 : 0,
		   false);
	report_histogram(w, g);
}
