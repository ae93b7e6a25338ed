/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel setup, counters, memcg iteration and the model's invariants. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
};

int folio_table_init(uint64_t nr_pages)
{
	if (nr_pages + 1 > UINT32_MAX)
		return -E2BIG;
	folio_table.nr = (uint32_t)nr_pages + 1;
	folio_table.f = calloc(folio_table.nr, sizeof(struct folio));
	if (!folio_table.f)
		return -ENOMEM;
	/* Free list in index order so allocation order is deterministic. */
	folio_table.free_head = 0;
	for (uint32_t i = folio_table.nr - 1; i >= 1; i--) {
		folio_table.f[i].lru_next = folio_table.free_head;
		folio_table.free_head = i;
	}
	folio_table.nr_free = nr_pages;
	return 0;
}

void folio_table_exit(void)
{
	free(folio_table.f);
	memset(&folio_table, 0, sizeof(folio_table));
}

uint32_t folio_table_get(void)
{
	uint32_t idx = folio_table.free_head;

	if (!idx)
		return 0;
	folio_table.free_head = folio_table.f[idx].lru_next;
	folio_table.nr_free--;
	memset(&folio_table.f[idx], 0, sizeof(struct folio));
	return idx;
}

void folio_table_put(uint32_t idx)
{
	struct folio *f = &folio_table.f[idx];

	memset(f, 0, sizeof(*f));
	f->lru_next = folio_table.free_head;
	folio_table.free_head = idx;
	folio_table.nr_free++;
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
	mm.vm_swappiness = vm_swappiness;
	mm.mglru = (struct mglru_opts){ -1, -1, -1, -1, 0 };
	/* fault_around_bytes defaults to 64 KiB (mm/memory.c) */
	mm.fault_around_pages = 16;
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

void mm_exit(void)
{
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
		free(mm.mappings[i]->mapcount);
		free(mm.mappings[i]->dirty_tag);
		free(mm.mappings[i]->dirty_tag_sum);
		free(mm.mappings[i]->disk_version);
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

#define INVARIANT(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond)) {                                                 \
			snprintf(err, len, __VA_ARGS__);                       \
			return -1;                                             \
		}                                                              \
	} while (0)

/* Whether a PTE mapping the folio carries the dirty bit (not yet moved to it). */
static bool folio_pte_dirty(const struct folio *folio)
{
	struct rmap_iter it;
	struct vm_area *vma;
	uint8_t *pte;

	rmap_iter_init(&it, mm.mappings[folio->mapping], folio->index);
	while ((pte = rmap_iter_next(&it, &vma)))
		if (*pte & PTE_DIRTY)
			return true;
	return false;
}

/*
 * Every folio is in exactly one place (free, or on one LRU list, or
 * isolated); node free + used = total; memcg usage = sum of its lruvecs.
 */
int mm_check_invariants(char *err, size_t len)
{
	uint64_t nr_on_lru = 0, nr_isolated = 0, nr_used = 0, nr_free_nodes = 0;
	uint64_t *per_node_used;
	int nid;

	per_node_used = calloc((size_t)mm.machine.nr_nodes, sizeof(*per_node_used));
	if (!per_node_used) {
		snprintf(err, len, "out of memory");
		return -1;
	}
	for (uint32_t i = 1; i < folio_table.nr; i++) {
		const struct folio *f = &folio_table.f[i];

		if (!f->memcg_id)
			continue;	/* free */
		/* no lost write: a clean page holds what its backing store holds */
		if (!folio_test_dirty(f) && !folio_test_locked(f) && f->mapping &&
		    !folio_pte_dirty(f)) {
			const struct address_space *as = mm.mappings[f->mapping];
			uint32_t backing = f->version;

			if (as->type == AS_FILE)
				backing = as->disk_version[f->index];
			else if (folio_test_swapcache(f) && mm.swap)
				backing = mm.swap->slot_version[f->private];
			if (backing != f->version) {
				snprintf(err, len, "folio %u (%s page %u) is clean at version %u but "
					 "its backing store has version %u", i, as->name, f->index,
					 f->version, backing);
				free(per_node_used);
				return -1;
			}
		}
		nr_used++;
		per_node_used[f->nid]++;
		if (folio_test_lru(f))
			nr_on_lru++;
		else
			nr_isolated++;
	}
	for_each_node(nid) {
		const struct numa_node *n = &mm.machine.node[nid];

		if (n->nr_free + per_node_used[nid] + n->nr_reserved != n->managed_pages) {
			snprintf(err, len, "node %d: free %llu + used %llu + reserved %llu != total %llu",
				 nid, (unsigned long long)n->nr_free,
				 (unsigned long long)per_node_used[nid],
				 (unsigned long long)n->nr_reserved,
				 (unsigned long long)n->managed_pages);
			free(per_node_used);
			return -1;
		}
		nr_free_nodes += n->nr_free;
	}
	free(per_node_used);
	INVARIANT(nr_used + folio_table.nr_free == (uint64_t)folio_table.nr - 1,
		  "folio table: %llu used + %llu free != %u",
		  (unsigned long long)nr_used, (unsigned long long)folio_table.nr_free,
		  folio_table.nr - 1);

	for (int id = 1; id <= mm.nr_memcgs; id++) {
		struct mem_cgroup *memcg = mm.memcgs[id];
		uint64_t sum = 0;

		for_each_node(nid) {
			struct lruvec *lruvec = memcg->lruvec[nid];
			uint64_t listed[NR_LRU_LISTS] = { 0 };
			int lru;

			if (mm.policy->check_lruvec &&
			    mm.policy->check_lruvec(lruvec, listed, err, len))
				return -1;
			for (lru = 0; lru < NR_LRU_LISTS; lru++) {
				INVARIANT(listed[lru] == lruvec_lru_size(lruvec, (enum lru_list)lru),
					  "memcg '%s' node %d: lru %d has %llu folios, size says %llu",
					  memcg->name, nid, lru, (unsigned long long)listed[lru],
					  (unsigned long long)lruvec_lru_size(lruvec, (enum lru_list)lru));
				sum += listed[lru];
			}
			sum += (uint64_t)(lruvec->stat[NR_ISOLATED_ANON] + lruvec->stat[NR_ISOLATED_FILE]);
		}
		/* usage is hierarchical: compare this memcg's own pages with
		 * usage minus the children's */
		{
			uint64_t own = memcg->usage;

			for (int c = 0; c < memcg->nr_children; c++)
				own -= memcg->children[c]->usage;
			INVARIANT(own == sum || mm.nr_alloc_inflight,
				  "memcg '%s': usage %llu (own %llu) != pages on its lruvecs %llu",
				  memcg->name, (unsigned long long)memcg->usage,
				  (unsigned long long)own, (unsigned long long)sum);
		}
	}
	(void)nr_free_nodes;
	(void)nr_isolated;
	return 0;
}
