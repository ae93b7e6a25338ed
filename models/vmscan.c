/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Reclaim shared by every policy, as in mm/vmscan.c: shrink_folio_list(),
 * cost accounting, shrink_node() over the memcg tree, direct reclaim
 * (global and memcg-limit), kswapd with balance_pgdat(), and throttling.
 * Policies decide which folios to isolate; this file frees them.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/zswap.h"
#include "models/workingset.h"
#include "models/writeback.h"

int sc_swappiness(const struct scan_control *sc, const struct mem_cgroup *memcg)
{
	if (sc && sc->swappiness >= 0)
		return sc->swappiness;
	/* cgroup v2 uses vm.swappiness for every memcg; the root always does */
	return memcg && memcg->parent ? memcg->swappiness : mm.vm_swappiness;
}

bool can_reclaim_anon_pages(const struct mem_cgroup *memcg, int nid,
			    const struct scan_control *sc)
{
	(void)nid;
	(void)sc;
	/* Without swap space, anon pages cannot be reclaimed (no demotion). */
	if (!mm.swap_enabled)
		return false;
	if (!mm.swap)
		return true;	/* decisions only (tests without a device) */
	return mem_cgroup_get_nr_swap_pages(memcg) > 0;
}

/* ---- rmap ---- */

/*
 * folio_referenced(): test and clear the young bit of every PTE mapping it,
 * but for mappings without recency (VM_RAND_READ, VM_SEQ_READ): since 6.3
 * the rmap walk skips them whole, young bit and all
 * (invalid_folio_referenced_vma()); before, only VM_SEQ_READ's young bits
 * did not count (rmap_young_rule()).
 */
int folio_referenced(struct folio *folio, bool *vm_exec)
{
	struct address_space *as = folio_mapping(folio);
	struct rmap_iter it;
	struct vm_area *vma;
	int referenced = 0;
	uint8_t *pte;

	*vm_exec = as->exec;
	rmap_iter_init(&it, as, folio->index);
	while ((pte = rmap_iter_next(&it, &vma))) {
		enum rmap_young rule = rmap_young_rule(mm.kernel, vma ? vma->vm_flags : as->vm_flags);

		if (rule == RMAP_YOUNG_SKIP)
			continue;
		if (current_actor)
			actor_charge_sys(current_actor, COST_RMAP_WALK_NS);
		if (*pte & PTE_YOUNG) {
			/* ptep_clear_flush_young() */
			*pte &= (uint8_t)~PTE_YOUNG;
			referenced += rule == RMAP_YOUNG_COUNT;
		}
	}
	return referenced;
}

/*
 * The folios were just isolated and are cached; what reclaim reads of each
 * beside it lies in arrays as large as their files, one cache miss a folio
 * taken one after another (a 3 M-page trace replay spent a third of its time
 * there, issue 38). A lazy array's block never stored to is not touched.
 */
void folio_list_prefetch_rmap(const struct flist *list)
{
	for (uint32_t idx = list->tail; idx; idx = folio_of(idx)->lru_prev) {
		const struct folio *folio = folio_of(idx);
		const struct address_space *as;

		if (!folio->mapping)
			continue;
		as = folio_mapping(folio);
		if (as->slots)
			__builtin_prefetch(&as->slots[folio->index], 1);
		if (as->type != AS_FILE) {
			if (as->ptes)
				__builtin_prefetch(&as->ptes[folio->index], 1);
			continue;
		}
		for (const struct vm_area *v = as->i_mmap; v; v = v->i_mmap_next)
			__builtin_prefetch(&v->ptes[folio->index], 1);
		if (as->mapcount.base && lazy_array_stored(&as->mapcount, folio->index * 2))
			__builtin_prefetch(&((const uint16_t *)as->mapcount.base)[folio->index], 1);
	}
}

/*
 * try_to_unmap(): clear every PTE mapping the folio; their dirty bits move
 * to the folio. An anon PTE becomes a swap entry pointing at the folio's slot.
 */
static void try_to_unmap(struct folio *folio, struct actor *a)
{
	struct address_space *as = folio_mapping(folio);
	struct rmap_iter it;
	struct vm_area *vma;
	uint8_t *pte;

	rmap_iter_init(&it, as, folio->index);
	while ((pte = rmap_iter_next(&it, &vma))) {
		actor_charge_sys(a, COST_RMAP_WALK_NS);
		if (*pte & PTE_DIRTY)
			folio_set_dirty(folio);
		*pte = 0;
	}
	if (folio_test_anon(folio)) {
		as->slots[folio->index] = swp_entry(folio->private);
		mm.swap->shadow[folio->private] = 0;
		as->nr_resident--;
		if (as->owner) {
			as->owner->rss_anon--;
			as->owner->nr_swapents++;
		}
	} else {
		lazy_u16_set(&as->mapcount, folio->index, 0);
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, -1);
	}
}

void folio_rotate_reclaimable(struct folio *folio)
{
	if (folio_test_locked(folio) || folio_test_dirty(folio) ||
	    folio_test_unevictable(folio) || !folio_test_lru(folio))
		return;
	mm.policy->folio_rotate(folio_lruvec(folio), folio);
	count_vm_events(PGROTATED, 1);
}

void writeback_complete(struct pglist_data *pgdat, uint64_t nr_pages)
{
	pgdat->nr_throttled_written += nr_pages;
	/* wake throttled reclaimers after 32 pages per throttled task were written */
	if (pgdat->nr_reclaim_throttled &&
	    pgdat->nr_throttled_written - pgdat->nr_reclaim_start >
	    (uint64_t)SWAP_CLUSTER_MAX * (uint64_t)pgdat->nr_reclaim_throttled &&
	    pgdat->reclaim_wait[VMSCAN_THROTTLE_WRITEBACK])
		waitq_wake_all(pgdat->reclaim_wait[VMSCAN_THROTTLE_WRITEBACK]);
}

/* ---- cost accounting ---- */

void lru_note_cost(struct lruvec *lruvec, bool file, uint64_t nr_io, uint64_t nr_rotated)
{
	/* IO is ~32x as expensive as a rotation (SWAP_CLUSTER_MAX). */
	uint64_t cost = nr_io * SWAP_CLUSTER_MAX + nr_rotated;

	do {
		uint64_t lrusize;

		if (file)
			lruvec->file_cost += cost;
		else
			lruvec->anon_cost += cost;
		/* Decay previous events: halve once the sum passes a quarter of the LRU. */
		lrusize = lruvec_page_state(lruvec, NR_INACTIVE_ANON) +
			  lruvec_page_state(lruvec, NR_ACTIVE_ANON) +
			  lruvec_page_state(lruvec, NR_INACTIVE_FILE) +
			  lruvec_page_state(lruvec, NR_ACTIVE_FILE);
		if (lruvec->file_cost + lruvec->anon_cost > lrusize / 4) {
			lruvec->file_cost /= 2;
			lruvec->anon_cost /= 2;
		}
	} while ((lruvec = parent_lruvec(lruvec)));
}

void lru_note_cost_refault(struct folio *folio)
{
	lru_note_cost(folio_lruvec(folio), folio_is_file_lru(folio), 1, 0);
}

/* ---- shrink_folio_list ---- */

static enum folio_references folio_check_references(struct folio *folio)
{
	bool vm_exec;
	int referenced_ptes = folio_referenced(folio, &vm_exec);
	bool referenced_folio = folio_test_clear_referenced(folio);

	if (referenced_ptes) {
		/*
		 * Mapped folios start with a reference from the faulting
		 * access: look twice. Mark it and spare it one more trip; a
		 * second reference, or young PTEs in several mappings,
		 * activates it.
		 */
		folio_set_referenced(folio);
		if (referenced_folio || referenced_ptes > 1)
			return FOLIOREF_ACTIVATE;
		/* Activate file-backed executable folios after first usage. */
		if (vm_exec && folio_is_file_lru(folio))
			return FOLIOREF_ACTIVATE;
		return FOLIOREF_KEEP;
	}
	/* (FOLIOREF_RECLAIM_CLEAN went with aops->writepage: reclaim never
	 * writes file folios) */
	return FOLIOREF_RECLAIM;
}

/*
 * handle_reclaim_writeback() (the series' patch 15, shared by
 * shrink_inactive_list() and MGLRU's evict_folios()): wake the flushers
 * when every folio taken was dirty and not yet queued, and sum the
 * writeback statistics shrink_node() acts on. The WRITEBACK throttle here
 * is for cgroup v1 (!writeback_throttling_sane()); mmemu models cgroup v2.
 */
void handle_reclaim_writeback(uint64_t nr_taken, struct pglist_data *pgdat,
			      struct scan_control *sc, const struct reclaim_stat *stat)
{
	(void)pgdat;
	if (stat->nr_unqueued_dirty == nr_taken)
		wakeup_flusher_threads();
	sc->nr.dirty += stat->nr_dirty;
	sc->nr.congested += stat->nr_congested;
	sc->nr.writeback += stat->nr_writeback;
	sc->nr.immediate += stat->nr_immediate;
	sc->nr.taken += (unsigned int)nr_taken;
}

/*
 * __remove_mapping(): leave a shadow where the folio was (the page cache
 * slot, or the swap entry of an anon page) and free it.
 */
static void __remove_mapping(struct folio *folio, bool reclaimed,
			     struct mem_cgroup *target_memcg)
{
	struct address_space *as = folio_mapping(folio);
	uint64_t shadow = 0;

	if (reclaimed && folio->mapping && mm.policy->workingset_eviction)
		shadow = mm.policy->workingset_eviction(folio, target_memcg);
	if (folio_test_swapcache(folio)) {
		uint64_t slot = folio->private;

		if (folio->mapping) {
			as->slots[folio->index] = swp_entry(slot);
			mm.swap->shadow[slot] = shadow;	/* left in the swap cache */
		}
		delete_from_swap_cache(folio);
	} else if (folio->mapping) {
		as->slots[folio->index] = shadow;
		as->nr_resident--;
	}
	free_folio(folio);
}

uint64_t shrink_folio_list(struct flist *folio_list, struct pglist_data *pgdat,
			   struct scan_control *sc, struct reclaim_stat *stat,
			   bool ignore_references)
{
	struct flist ret_folios;
	uint64_t nr_reclaimed = 0;
	uint32_t idx;

	memset(stat, 0, sizeof(*stat));
	flist_init(&ret_folios);
	folio_list_prefetch_rmap(folio_list);

	while ((idx = flist_pop_tail(folio_list))) {
		struct folio *folio = folio_of(idx);
		enum folio_references references = FOLIOREF_RECLAIM;
		bool file = folio_is_file_lru(folio);
		bool dirty, writeback;

		actor_charge_sys(sc->actor, COST_SHRINK_FOLIO_NS);
		/* folio_trylock(): a reader's IO holds it */
		if (folio_test_locked(folio))
			goto keep;
		sc->nr_scanned++;
		if (folio_test_unevictable(folio))
			goto activate_locked;

		/* folio_check_dirty_writeback(): page cache only */
		dirty = file && folio_test_dirty(folio);
		writeback = file && folio_test_writeback(folio);
		if (dirty || writeback)
			stat->nr_dirty++;
		if (dirty && !writeback)
			stat->nr_unqueued_dirty++;
		/* cycling faster than written: met again with PG_reclaim */
		if (writeback && folio_test_reclaim(folio))
			stat->nr_congested++;

		if (folio_test_writeback(folio)) {
			/* kswapd on a node flagged PGDAT_WRITEBACK: count and throttle later */
			if (sc->kswapd && folio_test_reclaim(folio) &&
			    (pgdat->flags & (1UL << PGDAT_WRITEBACK))) {
				stat->nr_immediate++;
				goto activate_locked;
			}
			/* mark it for immediate reclaim at writeback end, move on */
			folio_set_reclaim(folio);
			stat->nr_writeback++;
			goto activate_locked;
		}

		/* an orphan of an exited task, written back: nothing to keep */
		if (!folio->mapping)
			goto free_it;

		if (!ignore_references)
			references = mm.policy->check_references ?
				     mm.policy->check_references(folio, sc) :
				     folio_check_references(folio);
		switch (references) {
		case FOLIOREF_ACTIVATE:
			goto activate_locked;
		case FOLIOREF_KEEP:
			stat->nr_ref_keep++;
			goto keep;
		case FOLIOREF_RECLAIM:
			break;
		}

		/* Anonymous memory needs a swap slot first. */
		if (folio_test_anon(folio) && !folio_test_swapcache(folio)) {
			if (!can_reclaim_anon_pages(folio_memcg(folio), folio->nid, sc) ||
			    !add_to_swap(folio))
				goto activate_locked;
		}

		if (folio_mapped(folio)) {
			if (!sc->may_unmap) {
				stat->nr_unmap_fail++;
				goto keep;
			}
			try_to_unmap(folio, sc->actor);
		}

		if (folio_test_dirty(folio)) {
			/*
			 * Reclaim never writes file folios (aops->writepage and
			 * PGDAT_DIRTY are gone from 2025-26 kernels): mark for
			 * immediate reclaim once the flusher has written it.
			 */
			if (file) {
				count_vm_events(NR_VMSCAN_IMMEDIATE, 1);
				folio_set_reclaim(folio);
				goto activate_locked;
			}
			if (!sc->may_writepage)
				goto keep;
			/* pageout() */
			count_vm_events(NR_VMSCAN_WRITE, 1);
			switch (swap_writepage(folio, sc->actor)) {
			case -1:
				goto activate_locked;
			case 1:
				/* under writeback: rotate to the tail when written */
				folio_set_reclaim(folio);
				stat->nr_pageout++;
				goto keep;
			default:
				/* synchronous (zram): clean, free it now */
				stat->nr_pageout++;
				break;
			}
		}

free_it:
		actor_charge_sys(sc->actor, COST_FREE_FOLIO_NS);
		__remove_mapping(folio, true, sc->target_mem_cgroup);
		nr_reclaimed++;
		continue;

activate_locked:
		if (!folio_test_unevictable(folio)) {
			folio_set_active(folio);
			stat->nr_activate[file]++;
			count_memcg_events(folio_memcg(folio), PGACTIVATE, 1);
		}
keep:
		flist_add(&ret_folios, idx);
	}
	count_vm_events(PGACTIVATE, stat->nr_activate[0] + stat->nr_activate[1]);
	/* the kept folios go back to the caller's list, oldest last */
	flist_splice(&ret_folios, folio_list);
	return nr_reclaimed;
}

/* ---- reclaim throttling (mm/vmscan.c reclaim_throttle) ---- */

void reclaim_throttle(struct pglist_data *pgdat, enum vmscan_throttle_state reason,
		      struct actor *a)
{
	/* HZ = 250: one jiffy is 4 ms */
	static const uint64_t timeout_ns[NR_VMSCAN_THROTTLE] = {
		[VMSCAN_THROTTLE_WRITEBACK] = 100 * NSEC_PER_MSEC,	/* HZ/10 */
		[VMSCAN_THROTTLE_ISOLATED] = 20 * NSEC_PER_MSEC,	/* HZ/50 */
		[VMSCAN_THROTTLE_NOPROGRESS] = 4 * NSEC_PER_MSEC,	/* 1 jiffy */
		[VMSCAN_THROTTLE_CONGESTED] = 4 * NSEC_PER_MSEC,	/* 1 jiffy */
	};
	uint64_t start;

	/*
	 * Not a memory stall of its own: its callers (direct reclaim,
	 * try_charge_memcg(), reclaim_high(), kswapd's balance_pgdat()) are
	 * in one, so a throttled reclaimer stalls; memory.reclaim's is not.
	 */
	/* kswapd is never throttled except on WRITEBACK */
	if (a->is_kswapd && reason != VMSCAN_THROTTLE_WRITEBACK)
		return;
	if (!pgdat->reclaim_wait[reason])
		pgdat->reclaim_wait[reason] = waitq_create();
	if (reason == VMSCAN_THROTTLE_WRITEBACK && !pgdat->nr_reclaim_throttled++)
		pgdat->nr_reclaim_start = pgdat->nr_throttled_written;
	start = actor_now_ns(a);
	waitq_wait(a, pgdat->reclaim_wait[reason], timeout_ns[reason]);
	pgdat->throttle_ns[reason] += engine_clock_ns() - start;
	if (reason == VMSCAN_THROTTLE_WRITEBACK)
		pgdat->nr_reclaim_throttled--;
}

uint64_t apply_proportional_protection(struct mem_cgroup *memcg, struct scan_control *sc,
				       uint64_t scan)
{
	uint64_t min, low, cgroup_size, protection;

	mem_cgroup_protection(sc->target_mem_cgroup, memcg, &min, &low);
	if (!min && !low)
		return scan;
	/* memory.low scaling; retry below it before OOM */
	if (!sc->memcg_low_reclaim && low > min) {
		protection = low;
		sc->memcg_low_skipped = true;
	} else {
		protection = min;
	}
	/* avoid TOCTOU with the earlier protection check */
	cgroup_size = memcg->usage > protection ? memcg->usage : protection;
	scan -= scan * protection / (cgroup_size + 1);
	/* minimally target SWAP_CLUSTER_MAX pages to keep reclaim moving */
	return scan > SWAP_CLUSTER_MAX ? scan : SWAP_CLUSTER_MAX;
}

/* ---- shrink_node ---- */

/* inactive_is_low() is classic's, but prepare_scan_count() needs it here. */
bool inactive_is_low(struct lruvec *lruvec, enum lru_list inactive_lru)
{
	enum lru_list active_lru = inactive_lru + LRU_ACTIVE;
	uint64_t inactive = lruvec_page_state(lruvec, NR_LRU_BASE + inactive_lru);
	uint64_t active = lruvec_page_state(lruvec, NR_LRU_BASE + active_lru);
	uint64_t gb = (inactive + active) >> (30 - PAGE_SHIFT);
	uint64_t inactive_ratio = 1;

	if (gb) {
		/* int_sqrt(10 * gb) */
		uint64_t x = 10 * gb, r = 0;

		while ((r + 1) * (r + 1) <= x)
			r++;
		inactive_ratio = r;
	}
	return inactive * inactive_ratio < active;
}

static void prepare_scan_count(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct lruvec *target_lruvec = mem_cgroup_lruvec(sc->target_mem_cgroup, pgdat);
	uint64_t refaults, file;

	sc->anon_cost = target_lruvec->anon_cost;
	sc->file_cost = target_lruvec->file_cost;

	/*
	 * Target inactive:active ratios: when refaults are observed a new
	 * workingset is forming, so deactivate to get rid of stale pages.
	 */
	if (!sc->force_deactivate) {
		refaults = lruvec_page_state(target_lruvec, WORKINGSET_ACTIVATE_ANON);
		if (refaults != target_lruvec->refaults[0] ||
		    inactive_is_low(target_lruvec, LRU_INACTIVE_ANON))
			sc->may_deactivate |= DEACTIVATE_ANON;
		else
			sc->may_deactivate &= ~DEACTIVATE_ANON;

		refaults = lruvec_page_state(target_lruvec, WORKINGSET_ACTIVATE_FILE);
		if (refaults != target_lruvec->refaults[1] ||
		    inactive_is_low(target_lruvec, LRU_INACTIVE_FILE))
			sc->may_deactivate |= DEACTIVATE_FILE;
		else
			sc->may_deactivate &= ~DEACTIVATE_FILE;
	} else {
		sc->may_deactivate = DEACTIVATE_ANON | DEACTIVATE_FILE;
	}

	/* Plenty of inactive file that isn't thrashing: reclaim it first. */
	file = lruvec_page_state(target_lruvec, NR_INACTIVE_FILE);
	sc->cache_trim_mode = (file >> sc->priority) && !(sc->may_deactivate & DEACTIVATE_FILE);

	/*
	 * Avoid the cache trap: in global reclaim, if file + free is below
	 * the high watermark, the file LRU is too small to reclaim alone.
	 */
	if (!cgroup_reclaim(sc)) {
		uint64_t free = pgdat->node->nr_free;
		uint64_t total_high = pgdat->node->wmark[WMARK_HIGH];
		uint64_t anon = node_page_state(pgdat, NR_INACTIVE_ANON);
		uint64_t f = node_page_state(pgdat, NR_ACTIVE_FILE) +
			     node_page_state(pgdat, NR_INACTIVE_FILE);

		sc->file_is_tiny = f + free <= total_high &&
				   !(sc->may_deactivate & DEACTIVATE_ANON) &&
				   anon >> sc->priority;
	} else {
		sc->file_is_tiny = false;
	}
}

static void shrink_node_memcgs(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mem_cgroup *target_memcg = sc->target_mem_cgroup;
	struct mem_cgroup *memcg = NULL;

	while ((memcg = mem_cgroup_iter(target_memcg, memcg))) {
		struct lruvec *lruvec = mem_cgroup_lruvec(memcg, pgdat);

		actor_charge_sys(sc->actor, COST_MEMCG_VISIT_NS);
		actor_cond_resched(sc->actor);
		mem_cgroup_calculate_protection(target_memcg, memcg);
		if (mem_cgroup_below_min(target_memcg, memcg)) {
			/* Hard protection: never reclaim. */
			continue;
		} else if (mem_cgroup_below_low(target_memcg, memcg)) {
			/* Soft protection: only when nothing else is left. */
			if (!sc->memcg_low_reclaim) {
				sc->memcg_low_skipped = true;
				continue;
			}
			memcg_memory_event(memcg, MEMCG_LOW);
		}
		mm.policy->shrink_lruvec(lruvec, sc);
		/* shrink_slab(): of the memcg-aware shrinkers, zswap's */
		zswap_shrink_slab(pgdat->node_id, memcg, sc->priority, sc->actor);
	}
}

void shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct lruvec *target_lruvec;
	uint64_t nr_reclaimed;

	if (mm.policy->shrink_node && root_reclaim(sc)) {
		struct mem_cgroup *memcg = NULL;

		mm.policy->shrink_node(pgdat, sc);
		/* shrink_one()'s shrink_slab() of each memcg, after the policy's pass */
		while (zswap.enabled && (memcg = mem_cgroup_iter(NULL, memcg)))
			zswap_shrink_slab(pgdat->node_id, memcg, sc->priority, sc->actor);
		return;
	}
	target_lruvec = mem_cgroup_lruvec(sc->target_mem_cgroup, pgdat);
	memset(&sc->nr, 0, sizeof(sc->nr));
	nr_reclaimed = sc->nr_reclaimed;
	prepare_scan_count(pgdat, sc);
	shrink_node_memcgs(pgdat, sc);

	if (sc->kswapd) {
		/* Many pages under writeback at the tail: pages cycle faster than written. */
		if (sc->nr.writeback && sc->nr.writeback == sc->nr.taken)
			pgdat->flags |= 1UL << PGDAT_WRITEBACK;
		if (sc->nr.immediate)
			reclaim_throttle(pgdat, VMSCAN_THROTTLE_WRITEBACK, sc->actor);
	}
	/*
	 * Tag the memcg (cgroup v2 reclaim) or the node (kswapd) congested
	 * when every dirty page seen was already under writeback for reclaim.
	 */
	if (sc->nr.dirty && sc->nr.dirty == sc->nr.congested) {
		if (cgroup_reclaim(sc))
			target_lruvec->flags |= 1UL << LRUVEC_CGROUP_CONGESTED;
		if (sc->kswapd)
			target_lruvec->flags |= 1UL << LRUVEC_NODE_CONGESTED;
	}
	/* Direct reclaimers stall for IO completions on a congested lruvec. */
	if (!sc->kswapd && (target_lruvec->flags & ((1UL << LRUVEC_CGROUP_CONGESTED) |
						    (1UL << LRUVEC_NODE_CONGESTED))))
		reclaim_throttle(pgdat, VMSCAN_THROTTLE_CONGESTED, sc->actor);

	if (sc->nr_reclaimed - nr_reclaimed)
		pgdat->kswapd_failures = 0;
}

/* snapshot_refaults(): remember WORKINGSET_ACTIVATE for may_deactivate. */
static void snapshot_refaults(struct mem_cgroup *target_memcg, struct pglist_data *pgdat)
{
	struct lruvec *target_lruvec = mem_cgroup_lruvec(target_memcg, pgdat);

	target_lruvec->refaults[0] = lruvec_page_state(target_lruvec, WORKINGSET_ACTIVATE_ANON);
	target_lruvec->refaults[1] = lruvec_page_state(target_lruvec, WORKINGSET_ACTIVATE_FILE);
}

/* shrink_zones(): every node in the zonelist of `nid`, local first. */
static void shrink_zones(int nid, struct scan_control *sc)
{
	for (int i = 0; i < mm.machine.nr_nodes; i++)
		shrink_node(NODE_DATA((nid + i) % mm.machine.nr_nodes), sc);
}

static uint64_t do_try_to_free_pages(int nid, struct scan_control *sc)
{
	int initial_priority = sc->priority;

retry:
	if (!cgroup_reclaim(sc))
		count_vm_events(ALLOCSTALL, 1);
	do {
		sc->nr_scanned = 0;
		shrink_zones(nid, sc);
		if (sc->nr_reclaimed >= sc->nr_to_reclaim)
			break;
		/* Getting into trouble: write dirty pages even in laptop mode. */
		if (sc->priority < DEF_PRIORITY - 2)
			sc->may_writepage = true;
	} while (--sc->priority >= 0);

	for (int i = 0; i < mm.machine.nr_nodes; i++) {
		struct pglist_data *pgdat = NODE_DATA(i);

		snapshot_refaults(sc->target_mem_cgroup, pgdat);
		if (cgroup_reclaim(sc))
			mem_cgroup_lruvec(sc->target_mem_cgroup, pgdat)->flags &=
				~(1UL << LRUVEC_CGROUP_CONGESTED);
	}
	if (sc->nr_reclaimed)
		return sc->nr_reclaimed;
	/* Retry with forced deactivation if active lists were spared. */
	if (sc->skipped_deactivate) {
		sc->priority = initial_priority;
		sc->force_deactivate = true;
		sc->skipped_deactivate = false;
		goto retry;
	}
	/* Untapped cgroup reserves? Don't OOM, retry. */
	if (sc->memcg_low_skipped) {
		sc->priority = initial_priority;
		sc->force_deactivate = false;
		sc->memcg_low_reclaim = true;
		sc->memcg_low_skipped = false;
		goto retry;
	}
	return 0;
}

uint64_t try_to_free_pages(int nid, struct actor *a)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.priority = DEF_PRIORITY,
		.may_writepage = true,
		.may_unmap = true,
		.may_swap = true,
		.swappiness = -1,
		.actor = a,
	};
	uint64_t start = actor_now_ns(a), nr;

	nr = do_try_to_free_pages(nid, &sc);
	/* Global direct reclaim that made no progress at all throttles. */
	if (!nr)
		reclaim_throttle(NODE_DATA(nid), VMSCAN_THROTTLE_NOPROGRESS, a);
	(void)start;
	return nr;
}

uint64_t try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, uint64_t nr_pages,
				      bool may_swap, int swappiness, bool proactive,
				      struct actor *a)
{
	struct scan_control sc = {
		.nr_to_reclaim = nr_pages > SWAP_CLUSTER_MAX ? nr_pages : SWAP_CLUSTER_MAX,
		.target_mem_cgroup = memcg,
		.priority = DEF_PRIORITY,
		.may_writepage = true,
		.may_unmap = true,
		.may_swap = may_swap,
		.proactive = proactive,
		.swappiness = swappiness,
		.actor = a,
	};

	/* The zonelist of the node the reclaiming task runs on. */
	return do_try_to_free_pages(a->node, &sc);
}

/* ---- kswapd ---- */

bool pgdat_balanced(const struct pglist_data *pgdat)
{
	return node_watermark_ok(pgdat->node, WMARK_HIGH);
}

void wakeup_kswapd(void *ctx, int nid)
{
	struct pglist_data *pgdat = NODE_DATA(nid);

	(void)ctx;
	if (!pgdat->kswapd_wait)
		return;
	/* Hopeless node: leave it to direct reclaim. */
	if (pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES)
		return;
	if (pgdat_balanced(pgdat))
		return;
	if (pgdat->kswapd_sleeping)
		waitq_wake_all(pgdat->kswapd_wait);
}

/* kswapd_shrink_node(): reclaim toward the high watermark. */
static bool kswapd_shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	uint64_t high = pgdat->node->wmark[WMARK_HIGH];

	sc->nr_to_reclaim = high > SWAP_CLUSTER_MAX ? high : SWAP_CLUSTER_MAX;
	shrink_node(pgdat, sc);
	return sc->nr_scanned >= sc->nr_to_reclaim;
}

static void balance_pgdat(struct pglist_data *pgdat, struct actor *a)
{
	struct scan_control sc = {
		.priority = DEF_PRIORITY,
		.may_writepage = true,	/* !laptop_mode */
		.may_unmap = true,
		.may_swap = true,
		.swappiness = -1,
		.actor = a,
		.kswapd = true,
	};
	unsigned long pflags;

	/* kswapd's balancing is a memory stall (of root: kswapd is a kernel thread) */
	psi_memstall_enter(a, &pflags);
	count_vm_events(PAGEOUTRUN, 1);
	do {
		uint64_t nr_reclaimed = sc.nr_reclaimed;
		bool raise_priority = true;

		if (pgdat_balanced(pgdat))
			goto out;
		/* Background aging to give pages a chance to be referenced. */
		if (mm.policy->age_node)
			mm.policy->age_node(pgdat, &sc);
		if (sc.priority < DEF_PRIORITY - 2)
			sc.may_writepage = true;
		sc.nr_scanned = 0;
		/* No need to raise priority if enough pages are being scanned. */
		if (kswapd_shrink_node(pgdat, &sc))
			raise_priority = false;
		actor_cond_resched(a);
		nr_reclaimed = sc.nr_reclaimed - nr_reclaimed;
		if (raise_priority || !nr_reclaimed)
			sc.priority--;
	} while (sc.priority >= 1);

	if (!sc.nr_reclaimed)
		pgdat->kswapd_failures++;
out:
	snapshot_refaults(NULL, pgdat);
	psi_memstall_leave(a, &pflags);
}

static void kswapd_fn(struct actor *self, void *arg)
{
	struct pglist_data *pgdat = arg;

	self->is_kswapd = true;
	for (;;) {
		/* prepare_kswapd_sleep(): balanced or hopeless */
		if (pgdat_balanced(pgdat) || pgdat->kswapd_failures >= MAX_RECLAIM_RETRIES) {
			/* clear_pgdat_congested() */
			pgdat->flags &= ~(1UL << PGDAT_WRITEBACK);
			mm.root_mem_cgroup->lruvec[pgdat->node_id]->flags &=
				~(1UL << LRUVEC_NODE_CONGESTED);
			pgdat->kswapd_sleeping = true;
			waitq_wait(self, pgdat->kswapd_wait, 0);
			pgdat->kswapd_sleeping = false;
			continue;
		}
		balance_pgdat(pgdat, self);
		actor_cond_resched(self);
	}
}

void kswapd_run(int nid)
{
	struct pglist_data *pgdat = NODE_DATA(nid);
	char name[32];

	pgdat->kswapd_wait = waitq_create();
	snprintf(name, sizeof(name), "kswapd%d", nid);
	pgdat->kswapd = actor_create(name, nid, kswapd_fn, pgdat, true);
}
