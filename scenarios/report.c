/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What a run reports at its end: the groups of named values of the result
 * (scenarios/result.h), each with the kernel's names, in a fixed order:
 * each workload's, vmstat, each memcg's files, pressure.memory, swap and
 * zswap, each device's, each node's, then the --dump lru_gen text.
 */
#include <stdio.h>

#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/zswap.h"
#include "scenarios/report.h"
#include "scenarios/sample.h"

static void report_vmstat(struct run_result *r)
{
	struct result_group *g = result_group(r, "vmstat");
	uint64_t nr_free = 0;
	int nid;

	for_each_node(nid)
		nr_free += mm.machine.node[nid].nr_free;
	result_add_u64(g, "nr_free_pages", nr_free);
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++) {
		uint64_t sum = 0;

		for_each_node(nid)
			sum += node_page_state(NODE_DATA(nid), (enum node_stat_item)i);
		result_add_u64(g, node_stat_vmstat_name[i], sum);
	}
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		result_add_u64(g, vm_event_name[i], mm.vm_events[i]);
	/* CONFIG_ZSWAP's events, wherever there is swap */
	if (mm.swap)
		for (int i = 0; i < NR_ZSWAP_EVENT_ITEMS; i++)
			result_add_u64(g, zswap_event_name[i], zswap.events[i]);
	/* no vmstat item: the writeback:writeback_wake_background-like count of
	 * wakeup_flusher_threads(WB_REASON_VMSCAN) calls */
	result_add_u64(result_group(r, "writeback"), "flusher_wakeups_vmscan",
		       mm.nr_flusher_wakeups);
}

static void report_nodes(struct run_result *r)
{
	static const char *const throttle_names[NR_VMSCAN_THROTTLE] = {
		"throttle_writeback_ms", "throttle_isolated_ms",
		"throttle_noprogress_ms", "throttle_congested_ms",
	};
	int nid;

	for_each_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);
		struct numa_node *n = pgdat->node;
		char name[32];
		struct result_group *g;

		snprintf(name, sizeof(name), "node.%d", nid);
		g = result_group(r, name);
		result_add_u64(g, "managed_pages", n->managed_pages);
		result_add_u64(g, "nr_free_pages", n->nr_free);
		result_add_u64(g, "min", n->wmark[WMARK_MIN]);
		result_add_u64(g, "low", n->wmark[WMARK_LOW]);
		result_add_u64(g, "high", n->wmark[WMARK_HIGH]);
		result_add_u64(g, "numa_local", n->nr_alloc_local);
		result_add_u64(g, "numa_foreign", n->nr_alloc_foreign);
		for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
			result_add_u64(g, node_stat_vmstat_name[i],
				       node_page_state(pgdat, (enum node_stat_item)i));
		for (int t = 0; t < NR_VMSCAN_THROTTLE; t++)
			result_add(g, throttle_names[t], (double)pgdat->throttle_ns[t] / 1e6, false);
		result_add_u64(g, "kswapd_failures", (uint64_t)pgdat->kswapd_failures);
		result_add_u64(g, "reserved_pages", n->nr_reserved);
	}
}

/* the policy's report_stats() of every node of a memcg, summed key by key */
struct policy_stats_sum {
	const char *key[64];
	char names[64][48];
	uint64_t value[64];
	int nr, pos;
};

static void policy_stats_sum_add(void *ctx, const char *key, uint64_t value)
{
	struct policy_stats_sum *s = ctx;

	if (s->pos == s->nr) {
		if (s->nr == (int)(sizeof(s->value) / sizeof(s->value[0])))
			return;	/* more keys than a group here keeps: the first 64 */
		snprintf(s->names[s->nr], sizeof(s->names[0]), "%s", key);
		s->key[s->nr++] = s->names[s->pos];
	}
	s->value[s->pos++] += value;
}

/* memcg.NAME.<stats_name>: what the policy counts of the memcg's lruvecs (MGLRU: lru_gen) */
static void report_policy_stats(struct run_result *r, struct mem_cgroup *memcg)
{
	struct policy_stats_sum sum = { .nr = 0 };
	struct result_group *g;
	char name[128];
	int nid;

	for_each_node(nid) {
		sum.pos = 0;
		mm.policy->report_stats(memcg->lruvec[nid], policy_stats_sum_add, &sum);
	}
	snprintf(name, sizeof(name), "memcg.%s.%s", memcg->name, mm.policy->stats_name);
	g = result_group(r, name);
	for (int i = 0; i < sum.nr; i++)
		result_add_u64(g, sum.key[i], sum.value[i]);
}

/*
 * A psi group's memory pressure file at `now` as keys: some_avg10, ...,
 * some_total, full_... (percent with the file's two decimals; total in us)
 */
static void report_pressure(struct result_group *g, struct psi_group *psi, uint64_t now)
{
	static const char *const keys[NR_PSI_MEM_STATES][4] = {
		{ "some_avg10", "some_avg60", "some_avg300", "some_total" },
		{ "full_avg10", "full_avg60", "full_avg300", "full_total" },
	};

	psi_group_update(psi, now);
	for (int s = 0; s < NR_PSI_MEM_STATES; s++) {
		for (int w = 0; w < 3; w++)
			result_add(g, keys[s][w], psi_avg_pct(psi->avg[s][w]), false);
		result_add_u64(g, keys[s][3], psi_total_us(psi, (enum psi_mem_state)s));
	}
}

static void report_memcg(struct run_result *r, struct mem_cgroup *memcg, uint64_t now)
{
	static const enum vm_event_item events[] = {
		PGFAULT, PGMAJFAULT, PGREFILL, PGSCAN_KSWAPD, PGSCAN_DIRECT,
		PGSTEAL_KSWAPD, PGSTEAL_DIRECT, PGACTIVATE, PGDEACTIVATE,
	};
	static const enum node_stat_item sizes[] = {
		NR_ANON_MAPPED, NR_FILE_PAGES, NR_FILE_MAPPED, NR_FILE_DIRTY, NR_WRITEBACK,
		NR_INACTIVE_ANON, NR_ACTIVE_ANON, NR_INACTIVE_FILE, NR_ACTIVE_FILE,
		NR_UNEVICTABLE,
	};
	static const enum node_stat_item counts[] = {
		WORKINGSET_REFAULT_ANON, WORKINGSET_REFAULT_FILE, WORKINGSET_ACTIVATE_ANON,
		WORKINGSET_ACTIVATE_FILE, WORKINGSET_RESTORE_ANON, WORKINGSET_RESTORE_FILE,
		WORKINGSET_NODERECLAIM,
	};
	char name[128];
	struct result_group *g;

	snprintf(name, sizeof(name), "memcg.%s", memcg->name);
	g = result_group(r, name);
	result_add_u64(g, "memory.current", memcg->usage * 4096);
	result_add_u64(g, "memory.peak", memcg->watermark * 4096);
	/* the limits in force (0 for memory.max, memory.high and memory.swap.max: none) */
	result_add_u64(g, "memory.max", memcg->max == UINT64_MAX ? 0 : memcg->max * 4096);
	result_add_u64(g, "memory.high", memcg->high == UINT64_MAX ? 0 : memcg->high * 4096);
	result_add_u64(g, "memory.low", memcg->low * 4096);
	result_add_u64(g, "memory.min", memcg->min * 4096);
	result_add_u64(g, "memory.swap.current", memcg->swap_usage * 4096);
	result_add_u64(g, "memory.swap.max",
		       memcg->swap_max == UINT64_MAX ? 0 : memcg->swap_max * 4096);
	if (zswap.enabled) {
		result_add_u64(g, "memory.zswap.current", memcg->zswap_b);
		result_add_u64(g, "memory.zswap.max",
			       memcg->zswap_max == UINT64_MAX ? 0 : memcg->zswap_max * 4096);
	}

	snprintf(name, sizeof(name), "memcg.%s.memory.stat", memcg->name);
	g = result_group(r, name);
	/* memory.stat prints sizes in bytes and events as counts */
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		result_add_u64(g, node_stat_memcg_name[sizes[i]],
			       memcg_page_state(memcg, sizes[i]) * 4096);
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		result_add_u64(g, node_stat_memcg_name[counts[i]], memcg_page_state(memcg, counts[i]));
	result_add_u64(g, "pgscan", memcg_events(memcg, PGSCAN_KSWAPD) +
				    memcg_events(memcg, PGSCAN_DIRECT));
	result_add_u64(g, "pgsteal", memcg_events(memcg, PGSTEAL_KSWAPD) +
				     memcg_events(memcg, PGSTEAL_DIRECT));
	for (size_t i = 0; i < sizeof(events) / sizeof(events[0]); i++)
		result_add_u64(g, vm_event_name[events[i]], memcg_events(memcg, events[i]));
	if (mm.swap) {
		/* zswap: compressed bytes and pages of the subtree, then its events */
		result_add_u64(g, "zswap", memcg->zswap_b);
		result_add_u64(g, "zswapped", memcg->zswapped);
		for (int i = 0; i < NR_ZSWAP_EVENT_ITEMS; i++)
			result_add_u64(g, zswap_event_name[i],
				       memcg_zswap_events(memcg, (enum zswap_event_item)i));
	}

	snprintf(name, sizeof(name), "memcg.%s.memory.events", memcg->name);
	g = result_group(r, name);
	for (int i = 0; i < MEMCG_NR_MEMORY_EVENTS; i++)
		result_add_u64(g, memcg_event_name[i],
			       memcg_memory_events(memcg, (enum memcg_memory_event)i));
	snprintf(name, sizeof(name), "memcg.%s.memory.pressure", memcg->name);
	report_pressure(result_group(r, name), &memcg->psi, now);
	if (mm.policy->report_stats)
		report_policy_stats(r, memcg);
}

static void report_swap(struct run_result *r)
{
	struct swap_info *si = mm.swap;
	struct result_group *g;
	uint64_t pool = 0;
	int nid;

	if (!si)
		return;
	g = result_group(r, "swap");
	result_add_u64(g, "slots", si->nr_slots);
	result_add_u64(g, "slots_used", si->nr_slots - si->nr_free);
	if (si->type == SWAP_ZRAM) {
		for_each_node(nid)
			pool += si->pool_pages[nid];
		result_add_u64(g, "zram_stored_pages", si->zram.nr_stored);
		result_add_u64(g, "zram_compr_data_size", si->zram.compr_bytes);
		result_add_u64(g, "zram_mem_used_total", pool * 4096);
		result_add_u64(g, "zram_write_failed", si->nr_failed);
	} else {
		result_add_u64(g, "swap_ra", si->nr_readahead);
	}
	if (zswap.enabled) {
		const struct zswap *z = &zswap.pool;

		/* /sys/kernel/debug/zswap */
		g = result_group(r, "zswap");
		result_add_u64(g, "stored_pages", z->stored_pages);
		result_add_u64(g, "pool_total_size", zswap_total_pages(z) * 4096);
		result_add_u64(g, "pool_limit_hit", z->st.pool_limit_hit);
		result_add_u64(g, "written_back_pages", z->st.written_back_pages);
		result_add_u64(g, "reject_reclaim_fail", z->st.reject_reclaim_fail);
		result_add_u64(g, "reject_compress_poor", z->st.reject_compress_poor);
		result_add_u64(g, "reject_alloc_fail", z->st.reject_alloc_fail);
		if (mm.kernel->zswap_incompressible_as_is)
			result_add_u64(g, "stored_incompressible_pages",
				       z->st.stored_incompressible_pages);
	}
}

static void report_device(struct run_result *r, const struct blockdev *d, uint64_t end_ns)
{
	char name[64];
	struct result_group *g;
	uint64_t nr = d->st.nr_reads + d->st.nr_writes;

	snprintf(name, sizeof(name), "device.%s", d->name);
	g = result_group(r, name);
	result_add_u64(g, "reads", d->st.nr_reads);
	result_add_u64(g, "writes", d->st.nr_writes);
	result_add_u64(g, "read_bytes", d->st.bytes_read);
	result_add_u64(g, "write_bytes", d->st.bytes_written);
	result_add(g, "util", blockdev_util(d, end_ns), false);
	result_add(g, "queue_us_mean", nr ? (double)d->st.queue_ns / (double)nr / 1e3 : 0, false);
	result_add(g, "io_us_mean", nr ? (double)d->st.service_ns / (double)nr / 1e3 : 0, false);
}

void run_report(struct run_result *r, const struct scenario *s, const struct run_opts *o,
		struct workload *wls, const struct blockdev *devs, uint64_t end_ns)
{
	for (int i = 0; i < s->nr_workloads; i++) {
		char name[96];

		snprintf(name, sizeof(name), "workload.%s", s->workload[i].name);
		workload_report(&wls[i], result_group(r, name), end_ns);
	}
	report_vmstat(r);
	/* the scenario's memcgs in its order, then those its workloads made (chrome-node, app-launch) */
	for (int id = 1; id <= mm.nr_memcgs; id++)
		if (mm.memcgs[id] != mm.root_mem_cgroup)
			report_memcg(r, mm.memcgs[id], end_ns);
	/* /proc/pressure/memory: psi_system, the root's group */
	report_pressure(result_group(r, "pressure.memory"), &mm.root_mem_cgroup->psi, end_ns);
	report_swap(r);
	for (int i = 0; i < s->nr_devices; i++)
		report_device(r, &devs[i], end_ns);
	report_nodes(r);
	if (o->dump_lru_gen)
		dump_lruvecs(r, end_ns);
}
