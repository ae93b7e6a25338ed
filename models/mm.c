/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel setup, counters and memcg iteration (the model's checks: mm_check.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/writeback.h"
#include "models/vmscan.h"

struct mm_kernel mm;
struct folio_table folio_table;

const char *const node_stat_vmstat_name[NR_NODE_STAT_ITEMS] = {
	[NR_INACTIVE_ANON] = "nr_inactive_anon",
	[NR_ACTIVE_ANON] = "nr_active_anon",
	[NR_INACTIVE_FILE] = "nr_inactive_file",
	[NR_ACTIVE_FILE] = "nr_active_file",
	[NR_UNEVICTABLE] = "nr_unevictable",
	[NR_ISOLATED_ANON] = "nr_isolated_anon",
	[NR_ISOLATED_FILE] = "nr_isolated_file",
	[NR_ANON_MAPPED] = "nr_anon_pages",
	[NR_FILE_PAGES] = "nr_file_pages",
	[NR_FILE_MAPPED] = "nr_mapped",
	[NR_FILE_DIRTY] = "nr_dirty",
	[NR_WRITEBACK] = "nr_writeback",
	[WORKINGSET_REFAULT_ANON] = "workingset_refault_anon",
	[WORKINGSET_REFAULT_FILE] = "workingset_refault_file",
	[WORKINGSET_ACTIVATE_ANON] = "workingset_activate_anon",
	[WORKINGSET_ACTIVATE_FILE] = "workingset_activate_file",
	[WORKINGSET_RESTORE_ANON] = "workingset_restore_anon",
	[WORKINGSET_RESTORE_FILE] = "workingset_restore_file",
	[WORKINGSET_NODERECLAIM] = "workingset_nodereclaim",
};

const char *const node_stat_memcg_name[NR_NODE_STAT_ITEMS] = {
	[NR_INACTIVE_ANON] = "inactive_anon",
	[NR_ACTIVE_ANON] = "active_anon",
	[NR_INACTIVE_FILE] = "inactive_file",
	[NR_ACTIVE_FILE] = "active_file",
	[NR_UNEVICTABLE] = "unevictable",
	[NR_ISOLATED_ANON] = NULL,
	[NR_ISOLATED_FILE] = NULL,
	[NR_ANON_MAPPED] = "anon",
	[NR_FILE_PAGES] = "file",
	[NR_FILE_MAPPED] = "file_mapped",
	[NR_FILE_DIRTY] = "file_dirty",
	[NR_WRITEBACK] = "file_writeback",
	[WORKINGSET_REFAULT_ANON] = "workingset_refault_anon",
	[WORKINGSET_REFAULT_FILE] = "workingset_refault_file",
	[WORKINGSET_ACTIVATE_ANON] = "workingset_activate_anon",
	[WORKINGSET_ACTIVATE_FILE] = "workingset_activate_file",
	[WORKINGSET_RESTORE_ANON] = "workingset_restore_anon",
	[WORKINGSET_RESTORE_FILE] = "workingset_restore_file",
	[WORKINGSET_NODERECLAIM] = "workingset_nodereclaim",
};

const char *const vm_event_name[NR_VM_EVENT_ITEMS] = {
	[PGPGIN] = "pgpgin",
	[PGPGOUT] = "pgpgout",
	[PSWPIN] = "pswpin",
	[PSWPOUT] = "pswpout",
	[PGALLOC] = "pgalloc_normal",
	[PGFREE] = "pgfree",
	[PGACTIVATE] = "pgactivate",
	[PGDEACTIVATE] = "pgdeactivate",
	[PGFAULT] = "pgfault",
	[PGMAJFAULT] = "pgmajfault",
	[PGREFILL] = "pgrefill",
	[PGSTEAL_KSWAPD] = "pgsteal_kswapd",
	[PGSTEAL_DIRECT] = "pgsteal_direct",
	[PGSCAN_KSWAPD] = "pgscan_kswapd",
	[PGSCAN_DIRECT] = "pgscan_direct",
	[PGSCAN_DIRECT_THROTTLE] = "pgscan_direct_throttle",
	[PGSCAN_ANON] = "pgscan_anon",
	[PGSCAN_FILE] = "pgscan_file",
	[PGSTEAL_ANON] = "pgsteal_anon",
	[PGSTEAL_FILE] = "pgsteal_file",
	[PGROTATED] = "pgrotated",
	[ALLOCSTALL] = "allocstall_normal",
	[PAGEOUTRUN] = "pageoutrun",
	[OOM_KILL] = "oom_kill",
	[NR_DIRTIED] = "nr_dirtied",
	[NR_WRITTEN] = "nr_written",
	[NR_VMSCAN_WRITE] = "nr_vmscan_write",
	[NR_VMSCAN_IMMEDIATE] = "nr_vmscan_immediate_reclaim",
};

const char *const memcg_event_name[MEMCG_NR_MEMORY_EVENTS] = {
	[MEMCG_LOW] = "low",
	[MEMCG_HIGH] = "high",
	[MEMCG_MAX] = "max",
	[MEMCG_OOM] = "oom",
	[MEMCG_OOM_KILL] = "oom_kill",
	[MEMCG_OOM_GROUP_KILL] = "oom_group_kill",
};

void host_hugepage_hint(void *p, size_t bytes)
{
	const uintptr_t huge = 2 << 20;
	uintptr_t start = ((uintptr_t)p + huge - 1) & ~(huge - 1);
	uintptr_t end = ((uintptr_t)p + bytes) & ~(huge - 1);

	if (p && end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
}

/*
 * Free folios are handed out last freed first (a stack of their numbers),
 * then the never used in index order, as if every folio sat on one free
 * list in index order at the start (same folios, same order). The never
 * used are not stacked: calloc's memory stays untouched until a folio is
 * first handed out, so a machine of 128 GiB costs the host only the folios
 * a run uses.
 */
int folio_table_init(uint64_t nr_pages)
{
	if (nr_pages + 1 > UINT32_MAX)
		return -E2BIG;
	folio_table.nr = (uint32_t)nr_pages + 1;
	folio_table.f = calloc(folio_table.nr, sizeof(struct folio));
	if (!folio_table.f)
		return -ENOMEM;
	host_hugepage_hint(folio_table.f, folio_table.nr * sizeof(struct folio));
	/* room for every folio; untouched memory until folios are freed */
	folio_table.free_stack = malloc(folio_table.nr * sizeof(*folio_table.free_stack));
	if (!folio_table.free_stack) {
		free(folio_table.f);
		folio_table.f = NULL;
		return -ENOMEM;
	}
	folio_table.nr_fresh = 1;
	folio_table.nr_free = nr_pages;
	return 0;
}

void folio_table_exit(void)
{
	free(folio_table.f);
	free(folio_table.free_stack);
	memset(&folio_table, 0, sizeof(folio_table));
}

/* Folios handed out this many calls ahead start loading now (freed ones lie anywhere). */
#define FOLIO_PREFETCH_AHEAD 4

uint32_t folio_table_get(void)
{
	struct folio_table *t = &folio_table;
	uint32_t idx;

	if (t->nr_stacked) {
		idx = t->free_stack[--t->nr_stacked];	/* zero since folio_table_put() */
		if (t->nr_stacked >= FOLIO_PREFETCH_AHEAD)
			__builtin_prefetch(&t->f[t->free_stack[t->nr_stacked - FOLIO_PREFETCH_AHEAD]],
					   1);
	} else if (t->nr_fresh < t->nr) {
		idx = t->nr_fresh++;	/* zero since calloc */
	} else {
		return 0;
	}
	t->nr_free--;
	return idx;
}

void folio_table_put(uint32_t idx)
{
	struct folio_table *t = &folio_table;

	memset(&t->f[idx], 0, sizeof(struct folio));
	t->free_stack[t->nr_stacked++] = idx;
	t->nr_free++;
}

int lazy_array_init(struct lazy_array *la, uint64_t nr, size_t elem)
{
	const uint64_t block = 1ULL << LAZY_BLOCK_SHIFT;
	uint64_t bytes = (nr ? nr : 1) * elem, nr_blocks = (bytes + block - 1) / block;
	size_t words = (size_t)(nr_blocks + 63) / 64;

	/* block-aligned, so that a block stored to is whole host pages and none
	 * of its neighbours' is read; its content is never read before a store */
	la->base = aligned_alloc(block, nr_blocks * block);
	la->stored = malloc(words * sizeof(*la->stored));
	if (!la->base || !la->stored) {
		lazy_array_free(la);
		return -ENOMEM;
	}
	/* written, not calloc'ed: the bitmap is read on every access */
	memset(la->stored, 0, words * sizeof(*la->stored));
	la->bytes = bytes;
	return 0;
}

void lazy_array_free(struct lazy_array *la)
{
	free(la->base);
	free(la->stored);
	la->base = NULL;
	la->stored = NULL;
	la->bytes = 0;
}

void lazy_array_store_block(struct lazy_array *la, uint64_t off)
{
	uint64_t b = off >> LAZY_BLOCK_SHIFT, start = b << LAZY_BLOCK_SHIFT;
	uint64_t len = la->bytes - start < (1ULL << LAZY_BLOCK_SHIFT) ?
		       la->bytes - start : (1ULL << LAZY_BLOCK_SHIFT);

	memset(la->base + start, 0, len);
	la->stored[b / 64] |= 1ULL << (b % 64);
}

int mm_init(const struct machine *machine, const struct reclaim_policy *policy,
	    int vm_swappiness, uint64_t seed)
{
	uint64_t total = 0;
	unsigned int max_order;
	int nid, err;

	memset(&mm, 0, sizeof(mm));
	mm.machine = *machine;
	mm.machine.wakeup_kswapd = wakeup_kswapd;
	mm.machine.wakeup_ctx = NULL;
	mm.policy = policy;
	mm.kernel = &kernel_rules_table[KERNEL_DEFAULT];
	mm.vm_swappiness = vm_swappiness;
	/* tasks go to sleep and wake up: psi's TSK_RUNNING */
	engine_set_sleep_hook(psi_actor_sleep);
	/* the policy's knobs as the kernel has them (run.c then sets the scenario's) */
	if (policy->knobs)
		policy->knobs->set(policy->knobs->defaults);
	/* fault_around_bytes defaults to 64 KiB (mm/memory.c) */
	mm.fault_around_pages = 16;
	/* vm.page-cluster defaults to 3 (swap_setup(): 2 below 16M of memory, which no
	 * machine here has) */
	mm.page_cluster = SWAP_PAGE_CLUSTER;
	mm.vm_dirty_ratio = DEFAULT_DIRTY_RATIO;
	mm.vm_dirty_background_ratio = DEFAULT_DIRTY_BACKGROUND_RATIO;
	mm.dirty_expire_ns = DEFAULT_DIRTY_EXPIRE_NS;
	mm.dirty_writeback_interval_ns = DEFAULT_DIRTY_WRITEBACK_INTERVAL_NS;
	/* FLUSH_TIME = 2 * HZ (mm/memcontrol.c) */
	mm.memcg_flush_time_ns = 2 * NSEC_PER_SEC;
	rng_seed(&mm.rng, seed, "kernel");

	for_each_node(nid)
		total += mm.machine.node[nid].managed_pages;
	err = folio_table_init(total);
	if (err)
		return err;
	/*
	 * workingset_init(): shadow timestamps keep WORKINGSET_EVICTION_BITS
	 * bits; coarser buckets when memory has more pages than that.
	 */
	max_order = 64 - (unsigned int)__builtin_clzll(total > 1 ? total - 1 : 1);
	mm.bucket_order = max_order > 24 ? max_order - 24 : 0;

	for_each_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		pgdat->node_id = nid;
		pgdat->node = &mm.machine.node[nid];
	}
	mm.root_mem_cgroup = mem_cgroup_create(NULL, "");
	if (!mm.root_mem_cgroup)
		return -ENOMEM;
	/* mapping 0: orphans, folios whose owner exited while they were in flight */
	if (!file_create("(orphans)", 0, NULL, 0, false))
		return -ENOMEM;
	return 0;
}

int mm_start_daemons(void)
{
	int nid;

	for_each_node(nid)
		kswapd_run(nid);
	return mem_cgroup_stats_flusher_start() ? -ENOMEM : 0;
}

void mm_exit(void)
{
	engine_set_sleep_hook(NULL);
	for (int i = 1; i <= mm.nr_memcgs; i++) {
		struct mem_cgroup *memcg = mm.memcgs[i];
		int nid;

		if (!memcg)
			continue;
		for_each_node(nid) {
			if (mm.policy->lruvec_exit)
				mm.policy->lruvec_exit(memcg->lruvec[nid]);
			free(memcg->lruvec[nid]);
		}
		free(memcg->children);
		free(memcg->lrupriv);
		free(memcg);
	}
	for (uint32_t i = 0; i < mm.nr_mappings; i++) {
		free(mm.mappings[i]->slots);
		free(mm.mappings[i]->ptes);
		lazy_array_free(&mm.mappings[i]->mapcount);
		free(mm.mappings[i]->dirty_tag);
		free(mm.mappings[i]->dirty_tag_sum);
		lazy_array_free(&mm.mappings[i]->disk_version);
		free(mm.mappings[i]->page_version);
		free(mm.mappings[i]);
	}
	free(mm.mappings);
	for (int i = 0; i < mm.nr_tasks; i++) {
		for (int v = 0; v < mm.tasks[i]->nr_vmas; v++) {
			free(mm.tasks[i]->vmas[v]->ptes);
			free(mm.tasks[i]->vmas[v]);
		}
		free(mm.tasks[i]->regions);
		free(mm.tasks[i]->vmas);
		free(mm.tasks[i]);
	}
	for (int nid = 0; nid < mm.machine.nr_nodes; nid++) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		waitq_destroy(pgdat->kswapd_wait);
		for (int r = 0; r < NR_VMSCAN_THROTTLE; r++)
			waitq_destroy(pgdat->reclaim_wait[r]);
		free(pgdat->lrupriv);
	}
	if (mm.swap)
		swap_exit();
	wb_exit();
	folio_table_exit();
	memset(&mm, 0, sizeof(mm));
}

bool mem_cgroup_is_descendant(const struct mem_cgroup *memcg,
			      const struct mem_cgroup *root)
{
	for (; memcg; memcg = memcg->parent)
		if (memcg == root)
			return true;
	return false;
}

struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev)
{
	struct mem_cgroup *pos;

	if (!root)
		root = mm.root_mem_cgroup;
	if (!prev)
		return root;
	/* pre-order: first child, else next sibling up the tree */
	if (prev->nr_children)
		return prev->children[0];
	for (pos = prev; pos != root; pos = pos->parent) {
		struct mem_cgroup *parent = pos->parent;

		for (int i = 0; i < parent->nr_children - 1; i++)
			if (parent->children[i] == pos)
				return parent->children[i + 1];
	}
	return NULL;
}

uint64_t lruvec_page_state(const struct lruvec *lruvec, enum node_stat_item idx)
{
	struct mem_cgroup *root = lruvec->memcg, *memcg = NULL;
	int64_t sum = 0;

	while ((memcg = mem_cgroup_iter(root, memcg)))
		sum += memcg->lruvec[lruvec->nid]->stat[idx];
	return sum > 0 ? (uint64_t)sum : 0;
}

uint64_t lruvec_page_state_flushed(const struct lruvec *lruvec, enum node_stat_item idx)
{
	int64_t x = lruvec->stat_flushed[idx];

	return x > 0 ? (uint64_t)x : 0;
}

/* node_page_state(): the node's vmstat counters are exact (per-CPU drift aside) */
uint64_t node_page_state(const struct pglist_data *pgdat, enum node_stat_item idx)
{
	return lruvec_page_state(mm.root_mem_cgroup->lruvec[pgdat->node_id], idx);
}

uint64_t memcg_page_state(const struct mem_cgroup *memcg, enum node_stat_item idx)
{
	uint64_t sum = 0;
	int nid;

	for_each_node(nid)
		sum += lruvec_page_state(memcg->lruvec[nid], idx);
	return sum;
}

uint64_t memcg_events(const struct mem_cgroup *memcg, enum vm_event_item idx)
{
	struct mem_cgroup *pos = NULL, *root = (struct mem_cgroup *)memcg;
	uint64_t sum = 0;

	while ((pos = mem_cgroup_iter(root, pos)))
		sum += pos->events[idx];
	return sum;
}

uint64_t memcg_memory_events(const struct mem_cgroup *memcg, enum memcg_memory_event idx)
{
	struct mem_cgroup *pos = NULL, *root = (struct mem_cgroup *)memcg;
	uint64_t sum = 0;

	while ((pos = mem_cgroup_iter(root, pos)))
		sum += pos->memory_events[idx];
	return sum;
}
