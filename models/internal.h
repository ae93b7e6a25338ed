/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of models/ that hold the page cache (filemap.c), the
 * mappings (mmap.c), the faults and zaps (memory.c) and the tasks (task.c)
 * share and workloads do not call, as the kernel's mm/internal.h.
 */
#ifndef MMEMU_MODELS_INTERNAL_H
#define MMEMU_MODELS_INTERNAL_H

#include <stdint.h>

#include "models/mm.h"

/* Gives as its id, the next in mm.mappings: 0 or -ENOMEM. */
int mapping_register(struct address_space *as);
/* find_vma(): the task's mapping of f, made on first use (NULL: no memory) */
struct vm_area *task_file_vma(struct task *t, struct address_space *f);
/* unmap_vmas() of one file mapping, which is then freed */
void unmap_vma(struct vm_area *vma);

/*
 * Pages memcg can now be charged one at a time as mem_cgroup_charge() would,
 * without reclaim: within memory.max and memory.high all the way up (a
 * fault range's budget; mem_cgroup_force_charge() then charges them at once).
 */
uint64_t mem_cgroup_charge_budget(const struct mem_cgroup *memcg);

/*
 * Folios freed in a row (a zap): free_folio_batched() is free_folio() but
 * for the uncharge, the node's free count and PGFREE, which the batch makes
 * at free_batch_flush(), at once for a run of one memcg and node. The caller
 * flushes before anything that could read them (any call but the policy's
 * folio_del and another free_folio_batched()) and at its end.
 */
struct free_batch {
	struct mem_cgroup *memcg;	/* the run's memcg */
	int nid;			/* ... and node */
	uint64_t nr;			/* folios freed, not yet uncharged and counted */
};

void free_folio_batched(struct folio *folio, struct free_batch *fb);
void free_batch_flush(struct free_batch *fb);

/* The cost of touching folio from a's node: ns, more when remote. */
static inline uint64_t access_cost(struct actor *a, const struct folio *folio, uint64_t ns)
{
	return numa_access_cost(a->node, folio->nid, ns);
}

/* access_cost() of the page a present PTE maps: its node is in the PTE */
static inline uint64_t pte_access_cost(struct actor *a, uint8_t pte, uint64_t ns)
{
	return numa_access_cost(a->node, pte_nid(pte), ns);
}

/* A PTE of f's page `index` appears in one more mm: NR_FILE_MAPPED counts pages. */
static inline void file_map_pte(struct address_space *f, uint64_t index, struct folio *folio)
{
	if (!(*lazy_u16_ptr(&f->mapcount, index))++)
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, 1);
}

/* ... and one less (zap or unmap) */
static inline void file_unmap_pte(struct address_space *f, uint64_t index, struct folio *folio)
{
	if (!--*lazy_u16_ptr(&f->mapcount, index))
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, -1);
}

#endif
