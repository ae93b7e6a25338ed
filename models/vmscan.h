/* SPDX-License-Identifier: GPL-2.0-only */
/* Reclaim shared by every policy, as in mm/vmscan.c. */
#ifndef MMEMU_MODELS_VMSCAN_H
#define MMEMU_MODELS_VMSCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"

struct scan_control {
	uint64_t nr_to_reclaim;		/* how many pages to reclaim */
	struct mem_cgroup *target_mem_cgroup;	/* memcg-limit reclaim target, NULL = global */
	uint64_t anon_cost, file_cost;	/* target lruvec costs at prepare_scan_count */
	unsigned int may_deactivate;	/* DEACTIVATE_ANON / DEACTIVATE_FILE */
	bool force_deactivate;		/* retry with forced deactivation */
	bool skipped_deactivate;	/* an active list was not aged */
	bool may_writepage;		/* may write dirty pages */
	bool may_unmap;			/* may unmap mapped pages */
	bool may_swap;			/* may swap out anon pages */
	bool proactive;			/* memory.reclaim */
	bool memcg_low_reclaim;		/* may reclaim below memory.low */
	bool memcg_low_skipped;		/* a memcg was skipped for memory.low */
	bool cache_trim_mode;		/* plenty of non-thrashing inactive file */
	bool file_is_tiny;		/* file LRU too small to reclaim alone */
	int priority;			/* scan size >> priority */
	int swappiness;			/* -1: the memcg's; else forced (memory.reclaim) */
	uint64_t nr_scanned;		/* pages scanned (inactive lists) */
	uint64_t nr_reclaimed;		/* pages freed */
	struct {			/* shrink_folio_list() findings this shrink_node */
		unsigned int dirty;
		unsigned int unqueued_dirty;	/* mglru-old only (gone with the series' 14) */
		unsigned int congested;
		unsigned int writeback;
		unsigned int immediate;
		unsigned int file_taken;	/* mglru-old only (gone with the series' 13) */
		unsigned int taken;
	} nr;
	struct actor *actor;		/* the reclaiming actor (CPU is charged to it) */
	bool kswapd;			/* current_is_kswapd() */
	bool mm_walk;			/* MGLRU: current->reclaim_state->mm_walk is set */
};

#define DEACTIVATE_ANON 1
#define DEACTIVATE_FILE 2

/* folio_check_references() verdicts */
enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_KEEP,
	FOLIOREF_ACTIVATE,
};

/* What shrink_folio_list() saw (struct reclaim_stat). */
struct reclaim_stat {
	unsigned int nr_dirty;
	unsigned int nr_unqueued_dirty;
	unsigned int nr_congested;
	unsigned int nr_writeback;
	unsigned int nr_immediate;
	unsigned int nr_pageout;
	unsigned int nr_activate[2];
	unsigned int nr_ref_keep;
	unsigned int nr_unmap_fail;
};

static inline bool cgroup_reclaim(const struct scan_control *sc)
{
	return sc->target_mem_cgroup != NULL;
}

static inline bool root_reclaim(const struct scan_control *sc)
{
	return !sc->target_mem_cgroup || sc->target_mem_cgroup == mm.root_mem_cgroup;
}

/* sc_swappiness(): forced by memory.reclaim, else the memcg's. */
int sc_swappiness(const struct scan_control *sc, const struct mem_cgroup *memcg);
/* can_reclaim_anon_pages(): swap space exists for this memcg */
bool can_reclaim_anon_pages(const struct mem_cgroup *memcg, int nid,
			    const struct scan_control *sc);

/*
 * Frees what it can of the isolated folios on `list`; what stays on the list
 * goes back to the LRU (PG_active set for activation). Returns pages freed.
 */
uint64_t shrink_folio_list(struct flist *list, struct pglist_data *pgdat,
			   struct scan_control *sc, struct reclaim_stat *stat,
			   bool ignore_references);

/* folio_referenced(): test-and-clear young PTEs; count and VM_EXEC. */
int folio_referenced(struct folio *folio, bool *vm_exec);

/* inactive_is_low(): inactive * sqrt(10 * GB) < active (hierarchical sizes). */
bool inactive_is_low(struct lruvec *lruvec, enum lru_list inactive_lru);

/* folio_rotate_reclaimable(): at writeback end, PG_reclaim folios go to the tail */
void folio_rotate_reclaimable(struct folio *folio);
/* Writeback completions for reclaim_throttle(WRITEBACK) wakeups. */
void writeback_complete(struct pglist_data *pgdat, uint64_t nr_pages);

/* wakeup_flusher_threads(WB_REASON_VMSCAN): every flusher writes everything (writeback.c). */
void wakeup_flusher_threads(void);
/* After shrink_folio_list(): flusher wakeup and sc->nr writeback statistics. */
void handle_reclaim_writeback(uint64_t nr_taken, struct pglist_data *pgdat,
			      struct scan_control *sc, const struct reclaim_stat *stat);

/* lru_note_cost(): charge reclaim cost to the lruvec and its ancestors. */
void lru_note_cost(struct lruvec *lruvec, bool file, uint64_t nr_io, uint64_t nr_rotated);
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

/* Freeing a folio that left the LRU (reclaim, truncate, exit). */
void free_folio(struct folio *folio);
/* Frees a folio that never joined a mapping: uncharge and release only. */
void __free_folio(struct folio *folio);

#endif
