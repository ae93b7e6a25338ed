/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workload generators. Each runs as one task (a process in its memcg) with
 * `threads` actors. They imitate:
 *  - file-zipf: a key-value read path over a file (YCSB-style zipfian keys,
 *    each key a run of pages), through read() or a shared mmap;
 *  - anon: an in-memory working set (anonymous heap) with zipfian or uniform
 *    page accesses, reads and writes.
 */
#ifndef MMEMU_SCENARIOS_WORKLOAD_H
#define MMEMU_SCENARIOS_WORKLOAD_H

#include <stdint.h>

#include "core/histogram.h"
#include "models/memory.h"
#include "scenarios/result.h"
#include "scenarios/scenario.h"
#include "scenarios/zipf.h"

struct workload {
	const struct scn_workload *cfg;	/* scenario section */
	struct task *task;		/* the process */
	struct address_space *as;	/* file or anon region */
	struct zipf zipf;		/* key distribution */
	uint64_t nr_keys;		/* keys = pages / pages_per_op */
	uint64_t ops_issued;		/* operations handed out to threads */
	uint64_t ops_done;		/* operations completed */
	uint64_t ops_write;		/* of which writes */
	uint64_t nr_hit, nr_minor, nr_major, nr_new;	/* page accesses by outcome */
	int threads_running;		/* actors still working */
	uint64_t start_ns, end_ns;	/* first op start, last op end */
	struct histogram lat;		/* per-operation latency, ns */
	struct address_space **regions;	/* anon-rounds: one region per thread */
	int *round;			/* anon-rounds: rounds completed per thread */
	uint64_t passes;		/* file-scan: passes over the file */
	struct address_space *cache_as;	/* ycsb: the store's cache (anonymous memory) */
	uint64_t *wt_tag;		/* ycsb: file page + 1 held by each cache slot (0: empty) */
	uint32_t *wt_used;		/* ycsb: last use of each slot (op count) */
	uint8_t *wt_dirty;		/* ycsb: slot updated since it was read */
	uint64_t nr_slots;		/* ycsb: cache slots (4-way sets) */
	uint64_t wt_hits, wt_misses;	/* ycsb: store cache outcomes */
	uint64_t wt_pages_per_leaf;	/* ycsb: 4 KiB file (and cache) pages per leaf page */
	uint64_t wt_records_per_leaf;	/* ycsb: records per leaf page */
	uint64_t wt_nr_leaves;		/* ycsb: leaf pages in the data file */
	uint64_t wt_reconciled;		/* ycsb: dirty leaf pages written (eviction, checkpoint) */
	uint64_t wt_checkpoints;	/* ycsb: checkpoints completed */
	void *priv;			/* state of a generator in its own file (wl_*.c) */
};

/* Creates the task, its mapping and its actors. 0 or -errno. */
int workload_start(struct workload *w, const struct scn_workload *cfg,
		   struct mem_cgroup *memcg, struct blockdev *bdev, uint64_t bdev_start);
/* Pages the workload's files take on its device (where the next one starts). */
uint64_t workload_device_pages(const struct scn_workload *cfg);
void workload_report(const struct workload *w, struct result_group *g, uint64_t end_ns);
/* Counts an access's outcome (ACCESS_HIT, _MINOR, _MAJOR, _NEW) in w's page counters. */
void workload_count_outcome(struct workload *w, int ret);

#endif
