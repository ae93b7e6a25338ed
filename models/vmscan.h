/* SPDX-License-Identifier: GPL-2.0-only */
/* Reclaim shared by every policy, as in mm/vmscan.c. */
#ifndef MMEMU_MODELS_VMSCAN_H
#define MMEMU_MODELS_VMSCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"

/* The types and helpers a policy sees (scan_control, shrink_folio_list()
 * and the rest) are in the policy API, include/mmemu/policy.h. */

static inline bool root_reclaim(const struct scan_control *sc)
{
	return !sc->target_mem_cgroup || sc->target_mem_cgroup == mm.root_mem_cgroup;
}

/* folio_rotate_reclaimable(): at writeback end, PG_reclaim folios go to the tail */
void folio_rotate_reclaimable(struct folio *folio);
/* Writeback completions for reclaim_throttle(WRITEBACK) wakeups. */
void writeback_complete(struct pglist_data *pgdat, uint64_t nr_pages);

/* wakeup_flusher_threads(WB_REASON_VMSCAN): every flusher writes everything (writeback.c). */
void wakeup_flusher_threads(void);
void lru_note_cost_refault(struct folio *folio);

/* Direct reclaim entry points. */
uint64_t try_to_free_pages(int nid, struct actor *a);
uint64_t try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, uint64_t nr_pages,
				      bool may_swap, int swappiness, bool proactive,
				      struct actor *a);
void shrink_node(struct pglist_data *pgdat, struct scan_control *sc);
/* kswapd: wakeup (callback for numa/) and the per-node actor body. */
void wakeup_kswapd(void *ctx, int nid);
void kswapd_run(int nid);
bool pgdat_balanced(const struct pglist_data *pgdat);
void reclaim_throttle(struct pglist_data *pgdat, enum vmscan_throttle_state reason,
		      struct actor *a);

/* mem_cgroup_calculate_protection() + below_min/below_low */
void mem_cgroup_calculate_protection(struct mem_cgroup *root, struct mem_cgroup *memcg);
bool mem_cgroup_below_min(const struct mem_cgroup *target, const struct mem_cgroup *memcg);
bool mem_cgroup_below_low(const struct mem_cgroup *target, const struct mem_cgroup *memcg);
/* mem_cgroup_protection(): the min and low that scale scan targets */
void mem_cgroup_protection(const struct mem_cgroup *root, const struct mem_cgroup *memcg,
			   uint64_t *min, uint64_t *low);

/*
 * apply_proportional_protection(): memory.min/low shrink a scan target in
 * proportion to the protected share of the memcg (at least SWAP_CLUSTER_MAX).
 */
uint64_t apply_proportional_protection(struct mem_cgroup *memcg, struct scan_control *sc,
				       uint64_t scan);

/*
 * A hint before reclaim walks an isolated list: starts loading, for every
 * folio on it, what folio_referenced(), try_to_unmap() and
 * __remove_mapping() read besides the folio (the PTEs that map it, its
 * page cache slot, its mapcount), so that those misses overlap instead of
 * coming one per folio. Changes nothing.
 */
void folio_list_prefetch_rmap(const struct flist *list);

/* Freeing a folio that left the LRU (reclaim, truncate, exit). */
void free_folio(struct folio *folio);
/* Frees a folio that never joined a mapping: uncharge and release only. */
void __free_folio(struct folio *folio);

#endif
