/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/debug.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "models/swap.h"
#include "models/zswap.h"
#include "models/writeback.h"
#include "models/vmscan.h"
#include "scenarios/run.h"
#include "scenarios/workload.h"

/*
 * The names a run gives the model are a scenario's (at most SCN_NAME_LEN - 1
 * characters) with a suffix of at most NAME_SUFFIX_MAX ("-511.63",
 * ".job.<20 digits>"): every field that keeps one holds it whole, and the
 * model refuses a name that does not fit rather than cut it.
 */
#define NAME_SUFFIX_MAX 26
_Static_assert(sizeof(((struct blockdev *)0)->name) >= SCN_NAME_LEN, "device names fit");
_Static_assert(sizeof(((struct actor *)0)->name) >= SCN_NAME_LEN + NAME_SUFFIX_MAX,
	       "actor names fit");
_Static_assert(sizeof(((struct task *)0)->name) >= SCN_NAME_LEN + NAME_SUFFIX_MAX,
	       "task names fit");
_Static_assert(sizeof(((struct address_space *)0)->name) >= SCN_NAME_LEN + NAME_SUFFIX_MAX,
	       "file and region names fit");
/* chrome-node's "<name>-<group>" (groups <= 512), app-launch's "<name>.<app>" (apps <= 1000) */
_Static_assert(sizeof(((struct mem_cgroup *)0)->name) >= SCN_NAME_LEN + sizeof("-999") - 1,
	       "memcg names fit");
_Static_assert(sizeof(((struct result_group *)0)->name) >=
	       sizeof("memcg.") + sizeof(((struct mem_cgroup *)0)->name) + sizeof(".memory.pressure"),
	       "group names fit");

/*
 * The kernel's periods shrink with the run (README, "Scale"): at --scale s
 * a run's sizes and operation counts are s times the full-scale ones, so it
 * lasts about s times as long, and so do the periods that recur in it;
 * scenario keys of kind KEY_PERIOD (min_ttl_ms, checkpoint, commit_interval,
 * file-scan's pause) scale the same way when read. Latencies and CPU
 * costs do not scale.
 */
static void scale_kernel_periods(double scale)
{
	/* vm.dirty_expire_centisecs, vm.dirty_writeback_centisecs */
	mm.dirty_expire_ns = (uint64_t)llround((double)mm.dirty_expire_ns * scale);
	mm.dirty_writeback_interval_ns =
		(uint64_t)llround((double)mm.dirty_writeback_interval_ns * scale);
	/* memcg's FLUSH_TIME (the periodic rstat flush) */
	mm.memcg_flush_time_ns = (uint64_t)llround((double)mm.memcg_flush_time_ns * scale);
}

static uint64_t pages_of(uint64_t bytes)
{
	return bytes == UINT64_MAX ? UINT64_MAX : bytes / 4096;
}

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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

/* ---- teaching dumps and time series ---- */

struct sampler {
	const struct run_opts *o;	/* what to record */
	struct run_result *r;		/* where */
	uint64_t next_dump_ns;		/* next periodic dump */
	struct workload *wls;		/* the workloads, for their progress */
	int nr_wls;
	uint64_t duration_ns;		/* the scenario's end (0: when the workloads end) */
	uint64_t last_sample_ns;	/* when the last stats row was taken (UINT64_MAX: none) */
};

static void dump_line(void *ctx, const char *line)
{
	result_dump_append(ctx, line);
}

/* /sys/kernel/debug/lru_gen (or the policy's lists) for every lruvec */
static void dump_lruvecs(struct run_result *r, uint64_t now)
{
	char head[64];
	int nid;

	snprintf(head, sizeof(head), "# t=%.3f s", (double)now / 1e9);
	result_dump_append(r, head);
	for (int id = 1; id <= mm.nr_memcgs; id++)
		for_each_node(nid)
			if (mm.policy->print_state)
				mm.policy->print_state(mm.memcgs[id]->lruvec[nid], dump_line, r);
}

/* A name inside a JSON string: quotes, backslashes and control characters escaped. */
static void json_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
}

/* A piece of a sample row from the policy's sample_state(), as written. */
static void sample_text(void *ctx, const char *text)
{
	fputs(text, ctx);
}

/* One JSON row per lruvec: the policy's (MGLRU: its generations), else the list sizes. */
static void sample_lruvecs(struct run_result *r, uint64_t now)
{
	int nid;

	for (int id = 1; id <= mm.nr_memcgs; id++) {
		for_each_node(nid) {
			struct lruvec *lruvec = mm.memcgs[id]->lruvec[nid];
			char *row = NULL;
			size_t len = 0;
			FILE *f = open_memstream(&row, &len);

			if (!f)
				abort();	/* host out of memory */
			fprintf(f, "{\"kind\": \"%s\", \"t\": %.6f, \"memcg\": \"/",
				mm.policy->sample_state ? mm.policy->sample_kind : "lists",
				(double)now / 1e9);
			json_escape(f, mm.memcgs[id]->name);
			fprintf(f, "\", \"node\": %d", nid);
			if (mm.policy->sample_state) {
				mm.policy->sample_state(lruvec, now, sample_text, f);
			} else {
				fprintf(f, ", \"inactive_anon\": %llu, \"active_anon\": %llu, "
					   "\"inactive_file\": %llu, \"active_file\": %llu",
					(unsigned long long)lruvec_lru_size(lruvec, LRU_INACTIVE_ANON),
					(unsigned long long)lruvec_lru_size(lruvec, LRU_ACTIVE_ANON),
					(unsigned long long)lruvec_lru_size(lruvec, LRU_INACTIVE_FILE),
					(unsigned long long)lruvec_lru_size(lruvec, LRU_ACTIVE_FILE));
			}
			fputc('}', f);
			if (fclose(f))
				abort();	/* host out of memory */
			result_add_sample(r, row);
			free(row);
		}
	}
}

/*
 * Swap in use (pages in slots) and, for zram, the pages it holds and the
 * pool pages they take (zram's orig_data_size and mem_used_total, in
 * pages): nothing when the run has no swap.
 */
static void sample_swap(FILE *f)
{
	const struct swap_info *si = mm.swap;
	uint64_t pool = 0;
	int nid;

	if (!si)
		return;
	fprintf(f, ", \"swap_used\": %llu", (unsigned long long)(si->nr_slots - si->nr_free));
	if (si->type != SWAP_ZRAM)
		return;
	for_each_node(nid)
		pool += si->pool_pages[nid];
	fprintf(f, ", \"zram_stored\": %llu, \"zram_pool\": %llu",
		(unsigned long long)si->zram.nr_stored, (unsigned long long)pool);
}

/*
 * Per memcg, its memory.stat reclaim counters and its memory.events
 * oom_kill, cumulative and hierarchical as the files are (report_memcg()
 * prints the same at the end).
 */
static void sample_memcg_events(FILE *f)
{
	fprintf(f, ", \"memory_stat\": {");
	for (int id = 1; id <= mm.nr_memcgs; id++) {
		const struct mem_cgroup *memcg = mm.memcgs[id];

		fprintf(f, "%s\"/", id > 1 ? ", " : "");
		json_escape(f, memcg->name);
		fprintf(f, "\": {\"pgscan\": %llu, \"pgsteal\": %llu, "
			   "\"workingset_refault_anon\": %llu, \"workingset_refault_file\": %llu}",
			(unsigned long long)(memcg_events(memcg, PGSCAN_KSWAPD) +
					     memcg_events(memcg, PGSCAN_DIRECT)),
			(unsigned long long)(memcg_events(memcg, PGSTEAL_KSWAPD) +
					     memcg_events(memcg, PGSTEAL_DIRECT)),
			(unsigned long long)memcg_page_state(memcg, WORKINGSET_REFAULT_ANON),
			(unsigned long long)memcg_page_state(memcg, WORKINGSET_REFAULT_FILE));
	}
	fprintf(f, "}, \"memory_events\": {");
	for (int id = 1; id <= mm.nr_memcgs; id++) {
		fprintf(f, "%s\"/", id > 1 ? ", " : "");
		json_escape(f, mm.memcgs[id]->name);
		fprintf(f, "\": {\"oom_kill\": %llu}",
			(unsigned long long)memcg_memory_events(mm.memcgs[id], MEMCG_OOM_KILL));
	}
	fputc('}', f);
}

/*
 * Per memcg ("/" the machine's, /proc/pressure/memory), its memory.pressure
 * at now: the some and full avg10 and totals (us).
 */
static void sample_memory_pressure(FILE *f, uint64_t now)
{
	fprintf(f, ", \"memory_pressure\": {");
	for (int id = 1; id <= mm.nr_memcgs; id++) {
		struct psi_group *psi = &mm.memcgs[id]->psi;

		psi_group_update(psi, now);
		fprintf(f, "%s\"/", id > 1 ? ", " : "");
		json_escape(f, mm.memcgs[id]->name);
		fprintf(f, "\": {\"some_avg10\": %.2f, \"some_total\": %llu, "
			   "\"full_avg10\": %.2f, \"full_total\": %llu}",
			psi_avg_pct(psi->avg[PSI_MEM_SOME][0]),
			(unsigned long long)psi_total_us(psi, PSI_MEM_SOME),
			psi_avg_pct(psi->avg[PSI_MEM_FULL][0]),
			(unsigned long long)psi_total_us(psi, PSI_MEM_FULL));
	}
	fputc('}', f);
}

/*
 * One "stats" row per sample: memory use per memcg and each memcg's
 * parent, free pages per node, cumulative reclaim and refault counters,
 * the machine's and each memcg's, memory.pressure, swap and zram use, and
 * each workload's operations so far (rates are differences between rows).
 */
static void sample_stats(struct sampler *sm, uint64_t now)
{
	char *row = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&row, &len);
	int nid;

	if (!f)
		abort();	/* host out of memory */
	fprintf(f, "{\"kind\": \"stats\", \"t\": %.6f, \"free_pages\": [", (double)now / 1e9);
	for_each_node(nid)
		fprintf(f, "%s%llu", nid ? ", " : "", (unsigned long long)mm.machine.node[nid].nr_free);
	fprintf(f, "], \"pgscan\": %llu, \"pgsteal\": %llu, \"workingset_refault_anon\": %llu, "
		   "\"workingset_refault_file\": %llu, \"memory_current\": {",
		(unsigned long long)(mm.vm_events[PGSCAN_ANON] + mm.vm_events[PGSCAN_FILE]),
		(unsigned long long)(mm.vm_events[PGSTEAL_ANON] + mm.vm_events[PGSTEAL_FILE]),
		(unsigned long long)memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_ANON),
		(unsigned long long)memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_FILE));
	for (int id = 1; id <= mm.nr_memcgs; id++) {
		fprintf(f, "%s\"/", id > 1 ? ", " : "");
		json_escape(f, mm.memcgs[id]->name);
		fprintf(f, "\": %llu", (unsigned long long)mm.memcgs[id]->usage * 4096);
	}
	/* each memcg's parent (the root is "/"), so that a sum over memcgs counts a page once */
	fprintf(f, "}, \"memcg_parent\": {");
	for (int id = 1, n = 0; id <= mm.nr_memcgs; id++) {
		if (!mm.memcgs[id]->parent)
			continue;
		fprintf(f, "%s\"/", n++ ? ", " : "");
		json_escape(f, mm.memcgs[id]->name);
		fprintf(f, "\": \"/");
		json_escape(f, mm.memcgs[id]->parent->name);
		fputc('"', f);
	}
	fprintf(f, "}");
	sample_memcg_events(f);
	sample_memory_pressure(f, now);
	sample_swap(f);
	fprintf(f, ", \"ops\": {");
	for (int i = 0; i < sm->nr_wls; i++) {
		fprintf(f, "%s\"", i ? ", " : "");
		json_escape(f, sm->wls[i].cfg->name);
		fprintf(f, "\": %llu", (unsigned long long)sm->wls[i].ops_done);
	}
	fprintf(f, "}}");
	if (fclose(f))
		abort();	/* host out of memory */
	result_add_sample(sm->r, row);
	free(row);
	sm->last_sample_ns = now;
}

/*
 * An OOM kill as a row of kind "oom" when it happens, with the fields of
 * the kernel's "oom-kill:" line (dump_oom_victim()): constraint, oom_memcg
 * ("/" for a global OOM), task_memcg, task and pid.
 */
static void sample_oom_kill(void *ctx, const struct task *victim,
			    const struct mem_cgroup *oom_memcg)
{
	struct sampler *sm = ctx;
	char *row = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&row, &len);

	if (!f)
		abort();	/* host out of memory */
	fprintf(f, "{\"kind\": \"oom\", \"t\": %.6f, \"constraint\": \"%s\", \"oom_memcg\": \"/",
		(double)victim->oom_kill_ns / 1e9, oom_memcg ? "CONSTRAINT_MEMCG" : "CONSTRAINT_NONE");
	json_escape(f, oom_memcg ? oom_memcg->name : "");
	fprintf(f, "\", \"task_memcg\": \"/");
	json_escape(f, victim->memcg->name);
	fprintf(f, "\", \"task\": \"");
	json_escape(f, victim->name);
	fprintf(f, "\", \"pid\": %d}", victim->id);
	if (fclose(f))
		abort();	/* host out of memory */
	result_add_sample(sm->r, row);
	free(row);
}

/*
 * How much of the run is done: the larger of simulated time over the
 * scenario's duration and operations done over operations to do (the
 * workloads that end; a daemon type runs until the others are done).
 */
static double done_share(const struct sampler *sm, uint64_t now)
{
	uint64_t ops = 0, done = 0;
	double share = -1;

	for (int i = 0; i < sm->nr_wls; i++) {
		const struct workload *w = &sm->wls[i];

		if (w->cfg->type->daemon || !w->cfg->ops)
			continue;
		ops += w->cfg->ops;
		done += w->ops_done < w->cfg->ops ? w->ops_done : w->cfg->ops;
	}
	if (ops)
		share = (double)done / (double)ops;
	if (sm->duration_ns && (double)now / (double)sm->duration_ns > share)
		share = (double)now / (double)sm->duration_ns;
	return share > 1 ? 1 : share;
}

static void sampler_fn(struct actor *self, void *arg)
{
	struct sampler *sm = arg;
	uint64_t period = sm->o->sample_ns;

	if (sm->o->dump_every_ns && (!period || sm->o->dump_every_ns < period))
		period = sm->o->dump_every_ns;
	if (!period)
		period = 100 * NSEC_PER_MSEC;	/* progress only */
	for (;;) {
		uint64_t now;

		actor_sleep_ns(self, period);
		now = engine_clock_ns();
		if (sm->o->sample_ns && now % sm->o->sample_ns < period) {
			sample_stats(sm, now);
			sample_lruvecs(sm->r, now);
		}
		if (sm->o->progress)
			sm->o->progress(sm->o->progress_ctx, (double)now / 1e9, done_share(sm, now));
		if (sm->o->dump_every_ns && now >= sm->next_dump_ns) {
			dump_lruvecs(sm->r, now);
			sm->next_dump_ns += sm->o->dump_every_ns;
		}
	}
}

int scenario_run(const struct scenario *s, const struct run_opts *o,
		 struct run_result *r, char *err, size_t errlen)
{
	const struct reclaim_policy *policy = reclaim_policy_get(o->policy, err, errlen);
	uint64_t pages[SCN_MAX_NODES];
	int cpus[SCN_MAX_NODES];
	struct machine machine;
	struct blockdev *devs = NULL;
	struct mem_cgroup **memcgs = NULL;
	struct workload *wls = NULL;
	uint64_t *dev_next = NULL, end_ns;
	double host_start = host_now();
	struct sampler sm;
	char *xml;
	int nid, rc = -1;

	if (!policy || scenario_check_policy(s, o->policy, err, errlen))
		return -1;
	for (int n = 0; n < s->machine.nodes; n++) {
		pages[n] = (s->node[n].memory ? s->node[n].memory : s->machine.node_memory) / 4096;
		cpus[n] = s->node[n].cpus ? s->node[n].cpus : s->machine.node_cpus;
	}
	if (machine_init(&machine, s->machine.nodes, pages, cpus,
			 (unsigned int)s->sysctl.watermark_scale_factor)) {
		snprintf(err, errlen, "scenario '%s': [machine]: impossible machine", s->path);
		return -1;
	}
	/* a vm.min_free_kbytes write: user_min_free_kbytes, then setup_per_zone_wmarks() */
	if (s->sysctl.min_free_kbytes != UINT64_MAX) {
		machine.user_min_free_kbytes = (int64_t)s->sysctl.min_free_kbytes;
		setup_per_zone_wmarks(&machine);
	}
	xml = numa_platform_xml(&machine);
	if (!xml || engine_init(xml, o->seed)) {
		free(xml);
		snprintf(err, errlen, "engine: cannot load the platform");
		return -1;
	}
	free(xml);
	if (mm_init(&machine, policy, s->sysctl.swappiness, o->seed)) {
		snprintf(err, errlen, "scenario '%s': cannot set up %llu pages", s->path,
			 (unsigned long long)folio_table.nr);
		return -1;
	}

	/* the policy's knobs as the scenario has them ([mglru]) */
	if (policy->knobs)
		policy->knobs->set(scenario_policy_knobs(s, policy));
	mm.kernel = scenario_kernel(s);
	mm.page_cluster = s->sysctl.page_cluster;
	/* fault_around_bytes_set(): rounddown_pow_of_two(max(val, PAGE_SIZE)) pages */
	mm.fault_around_pages = 1;
	while ((uint64_t)mm.fault_around_pages * 2 * 4096 <= s->debugfs.fault_around_bytes)
		mm.fault_around_pages *= 2;
	if (s->memcg_opts.reclaim_batch >= 0)
		mm.reclaim_batch = (enum memcg_reclaim_batch)s->memcg_opts.reclaim_batch;
	/* [sysctl] */
	mm.vm_dirty_ratio = s->sysctl.dirty_ratio;
	mm.vm_dirty_background_ratio = s->sysctl.dirty_background_ratio;
	mm.vm_dirty_bytes = s->sysctl.dirty_bytes;
	mm.vm_dirty_background_bytes = s->sysctl.dirty_background_bytes;
	mm.dirty_expire_ns = (uint64_t)s->sysctl.dirty_expire_cs * 10 * NSEC_PER_MSEC;
	mm.dirty_writeback_interval_ns = (uint64_t)s->sysctl.dirty_writeback_cs * 10 * NSEC_PER_MSEC;
	scale_kernel_periods(s->machine.scale);
	devs = calloc((size_t)s->nr_devices + 1, sizeof(*devs));
	dev_next = calloc((size_t)s->nr_devices + 1, sizeof(*dev_next));
	memcgs = calloc((size_t)s->nr_memcgs + 1, sizeof(*memcgs));
	wls = calloc((size_t)s->nr_workloads, sizeof(*wls));
	if (!devs || !dev_next || !memcgs || !wls) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	for (int i = 0; i < s->nr_devices; i++) {
		const struct scn_device *sd = &s->device[i];
		struct bdev_params p;
		enum bdev_type t;

		bdev_type_parse(sd->type, &t);
		blockdev_default_params(t, &p);
		if (sd->read_lat_ns)
			p.read_lat_ns = sd->read_lat_ns;
		if (sd->write_lat_ns)
			p.write_lat_ns = sd->write_lat_ns;
		if (sd->read_bw)
			p.read_bw = sd->read_bw;
		if (sd->write_bw)
			p.write_bw = sd->write_bw;
		if (sd->channels)
			p.nr_channels = (unsigned int)sd->channels;
		p.delay_read_ns = sd->delay_read_ns;
		p.delay_write_ns = sd->delay_write_ns;
		blockdev_init(&devs[i], sd->name, &p, o->seed);
		devs[i].no_readahead = !sd->readahead;
		if (wb_create(&devs[i])) {
			snprintf(err, errlen, "out of memory");
			goto out;
		}
	}
	for (int i = 0; i < s->nr_memcgs; i++) {
		const struct scn_memcg *sm = &s->memcg[i];
		struct mem_cgroup *parent = mm.root_mem_cgroup;

		if (sm->parent[0])
			parent = mem_cgroup_find(sm->parent);
		memcgs[i] = mem_cgroup_create(parent, sm->name);
		if (!memcgs[i]) {
			snprintf(err, errlen, "scenario '%s': too many memcgs", s->path);
			goto out;
		}
		memcgs[i]->max = pages_of(sm->max);
		memcgs[i]->high = pages_of(sm->high);
		memcgs[i]->low = pages_of(sm->low);
		memcgs[i]->min = pages_of(sm->min);
		memcgs[i]->swap_max = pages_of(sm->swap_max);
		memcgs[i]->zswap_max = pages_of(sm->zswap_max);
		if (sm->swappiness >= 0)
			memcgs[i]->swappiness = sm->swappiness;
		memcgs[i]->oom_group = sm->oom_group == 1;
	}
	for (int i = 0; i < s->nr_workloads; i++) {
		const struct scn_workload *sw = &s->workload[i];
		struct mem_cgroup *memcg = sw->memcg[0] ? mem_cgroup_find(sw->memcg)
							: mm.root_mem_cgroup;
		struct blockdev *bdev = NULL;
		uint64_t start = 0;

		for (int d = 0; d < s->nr_devices; d++) {
			if (!strcmp(s->device[d].name, sw->device)) {
				bdev = &devs[d];
				start = dev_next[d];
				dev_next[d] += workload_device_pages(sw);
			}
		}
		{
			int ret = workload_start(&wls[i], sw, memcg, bdev, start);

			/* what the scenario asks is checked up front: this is the host's limit */
			if (ret) {
				snprintf(err, errlen, "scenario '%s': [workload.%s]: cannot set it up: "
					 "%s", s->path, sw->name,
					 ret == -ENOMEM ? "out of host memory for its pages (size)"
							: strerror(-ret));
				goto out;
			}
		}
	}
	if (!strcmp(s->swap.type, "zram")) {
		enum zram_comp c;

		zram_comp_parse(s->swap.comp_algorithm, &c);
		if (swap_init_zram(c, s->swap.size / 4096)) {
			snprintf(err, errlen, "scenario '%s': [swap]: cannot set up zram", s->path);
			goto out;
		}
	} else if (!strcmp(s->swap.type, "block")) {
		for (int d = 0; d < s->nr_devices; d++)
			if (!strcmp(s->device[d].name, s->swap.device) &&
			    swap_init_block(&devs[d], dev_next[d], s->swap.size / 4096)) {
				snprintf(err, errlen, "scenario '%s': [swap]: cannot set up swap",
					 s->path);
				goto out;
			}
	}
	if (s->swap.zswap) {
		struct zswap_params zp = {
			.max_pool_percent = (unsigned int)s->swap.max_pool_percent,
			.accept_thr_percent = (unsigned int)s->swap.accept_threshold_percent,
			.shrinker_enabled = s->swap.shrinker_enabled,
		};

		zram_comp_parse(s->swap.comp_algorithm, &zp.compressor);
		if (zswap_init(&zp, mm.swap->nr_slots)) {
			snprintf(err, errlen, "scenario '%s': [swap]: cannot set up zswap", s->path);
			goto out;
		}
	}
	for_each_node(nid)
		kswapd_run(nid);
	if (mem_cgroup_stats_flusher_start()) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* the rows, as the sampler makes them, to whoever watches (run --live) */
	r->on_sample = o->on_sample;
	r->on_sample_ctx = o->on_sample_ctx;
	r->samples_unsaved = o->samples_unsaved;
	if (o->sample_ns || o->progress || (o->dump_lru_gen && o->dump_every_ns)) {
		sm.o = o;
		sm.r = r;
		sm.next_dump_ns = o->dump_every_ns;
		sm.wls = wls;
		sm.nr_wls = s->nr_workloads;
		sm.duration_ns = s->machine.duration_ns;
		sm.last_sample_ns = UINT64_MAX;
		actor_create("sampler", 0, sampler_fn, &sm, true);
	}
	if (o->sample_ns) {
		mm.oom_kill_notify = sample_oom_kill;
		mm.oom_kill_ctx = &sm;
	}

	if (o->check_invariants)
		mm_check_invariants_periodic(o->check_every);
	end_ns = engine_run(s->machine.duration_ns);
	if (mm_invariants_broken()) {
		snprintf(err, errlen, "%s", mm_invariants_broken());
		goto out;
	}
	if (o->check_invariants && mm_check_invariants(err, errlen))
		goto out;
	/* a broken VM_WARN_ON() contract fails a checked run; others say it */
	if (mm_warned()) {
		snprintf(err, errlen, "%s (%llu times)", mm_warned(),
			 (unsigned long long)mm_nr_warnings());
		if (o->check_invariants)
			goto out;
		fprintf(stderr, "mmemu: warning: %s\n", err);
		err[0] = 0;
	}
	/* CPU run as a sleep is exact only while no host gains actors beyond its cores */
	if (engine_nr_late_overcommits()) {
		snprintf(err, errlen, "engine: %llu actors created beyond a node's cores while CPU time "
			 "ran there as a sleep: CPU sharing after it is not SimGrid's",
			 (unsigned long long)engine_nr_late_overcommits());
		if (o->check_invariants)
			goto out;
		fprintf(stderr, "mmemu: warning: %s\n", err);
		err[0] = 0;
	}
	/* the series end where the run does: a last row at its end (the sampler sleeps then) */
	if (o->sample_ns && sm.last_sample_ns != end_ns) {
		sample_stats(&sm, end_ns);
		sample_lruvecs(r, end_ns);
	}

	result_set_run(r, o->policy, o->options);
	result_set_kernel(r, mm.kernel->name);
	if (reclaim_policy_file(o->policy))
		result_set_policy_file(r, reclaim_policy_file(o->policy)->path,
				       reclaim_policy_file(o->policy)->sha256,
				       reclaim_policy_file(o->policy)->policy->name);
	r->seed = o->seed;
	r->sim_seconds = (double)end_ns / 1e9;
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
	r->host_seconds = host_now() - host_start;
	rc = 0;
out:
	free(devs);
	free(dev_next);
	free(memcgs);
	free(wls);
	return rc;
}
