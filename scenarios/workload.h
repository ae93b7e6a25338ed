/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workload generators behind one interface, as reclaim policies are
 * (models/policy.h): a type is a `const struct workload_ops` in its own
 * wl_*.c, registered in scenarios/workloads.c. This header is all a
 * generator sees of the run: its section (`cfg`, with its own keys in
 * cfg->params), the task, and what every workload reports (operations,
 * latency histogram, page-access outcomes). Its own state lives behind
 * `priv`.
 */
#ifndef MMEMU_SCENARIOS_WORKLOAD_H
#define MMEMU_SCENARIOS_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/histogram.h"
#include "models/memory.h"
#include "scenarios/result.h"
#include "scenarios/scenario.h"

struct workload {
	const struct scn_workload *cfg;	/* scenario section (cfg->type: its ops) */
	struct task *task;		/* the process (a type with several: the first) */
	uint64_t ops_issued;		/* operations handed out to threads */
	uint64_t ops_done;		/* operations completed */
	uint64_t ops_write;		/* of which writes */
	uint64_t nr_hit, nr_minor, nr_major, nr_new;	/* page accesses by outcome */
	int threads_running;		/* actors still working */
	uint64_t start_ns, end_ns;	/* first op start, last op end */
	struct histogram lat;		/* per-operation latency, ns */
	void *priv;			/* the generator's state (its wl_*.c) */
};

struct workload_ops {
	const char *name;		/* `type = NAME` in a [workload.*] section */
	const char *desc;		/* one line for `mmemu list` and the README */

	/* ---- the scenario file ---- */
	const struct key_desc *keys;	/* the type's own keys, {0}-terminated (NULL: none) */
	size_t params_size;		/* bytes of the struct they fill (cfg->params) */
	/* optional: defaults, before the section's keys are applied (cfg->scale is set) */
	void (*params_init)(struct scn_workload *cfg);
	/* optional: checks and derived values once the file is read; 0 or scn_fail() */
	int (*check)(struct scn_workload *cfg, const struct scn_check *ck);
	/* check() gives cfg->size when the section has none (a trace: the trace's pages) */
	bool size_from_check;
	/* optional: frees what check() loaded into cfg->params */
	void (*params_free)(struct scn_workload *cfg);
	/* optional: true when cfg has files on its device, which must exist */
	bool (*needs_device)(const struct scn_workload *cfg);
	/* optional: pages its files take on the device (NULL: size / 4096) */
	uint64_t (*device_pages)(const struct scn_workload *cfg);
	/* the advice (enum mm_advice) of its mappings when the section has none */
	int default_advice;
	/* optional: pages one operation touches (NULL: 1), for a run's cost estimate */
	uint64_t (*pages_per_op)(const struct scn_workload *cfg);

	/* ---- the run ---- */
	bool own_tasks;			/* start() creates w->task (else workload_start() does) */
	bool daemon;			/* runs as long as the run: cfg->ops is no work to finish */
	/* creates its mappings and actors; 0 or -errno */
	int (*start)(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		     uint64_t bdev_start);
	/* optional: its own results, after the common ones (reports_all: the only ones) */
	void (*report)(const struct workload *w, struct result_group *g, uint64_t end_ns);
	bool reports_all;		/* report() prints every figure itself */
};

/* The registered types, NULL-terminated; the first is a section's without `type`. */
extern const struct workload_ops *const workload_types[];
const struct workload_ops *workload_type_find(const char *name);

/* Sets up w for cfg (its task, unless the type makes its own) and starts it. 0 or -errno. */
int workload_start(struct workload *w, const struct scn_workload *cfg,
		   struct mem_cgroup *memcg, struct blockdev *bdev, uint64_t bdev_start);
/* Pages the workload's files take on its device (where the next one starts). */
uint64_t workload_device_pages(const struct scn_workload *cfg);
/* Pages one of its operations touches (1 unless its type says more). */
uint64_t workload_pages_per_op(const struct scn_workload *cfg);
void workload_report(const struct workload *w, struct result_group *g, uint64_t end_ns);

/* ---- for the generators ---- */

/* task_create() for one of w's processes: it takes the workload's advice. */
struct task *workload_task_create(struct workload *w, const char *name, struct mem_cgroup *memcg,
				  int nid);
/* Counts an access's outcome (ACCESS_HIT, _MINOR, _MAJOR, _NEW) in w's page counters. */
void workload_count_outcome(struct workload *w, int ret);
/*
 * Counts the outcomes of a range operation (anon_access_range): nr pages,
 * nr_new of them ACCESS_NEW and the others ACCESS_HIT. Workloads that touch
 * pages in a row do it by range operations where mm_range_ops allows
 * (models/memory.h).
 */
void workload_count_range(struct workload *w, uint64_t nr, uint64_t nr_new);
/* Seconds from the first operation to the last (or to end_ns, the run's end). */
double workload_seconds(const struct workload *w, uint64_t end_ns);
/* needs_device for a type whose files are always on its device. */
bool workload_has_files(const struct scn_workload *cfg);

#endif
