/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The classic two-list LRU (active/inactive per type), as in mm/vmscan.c
 * and mm/swap.c without CONFIG_LRU_GEN: get_scan_count() balances anon
 * and file by swappiness and recent cost, shrink_active_list() ages,
 * shrink_inactive_list() isolates for shrink_folio_list().
 */
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"
#include "models/policy/classic.h"
#include "models/workingset.h"

struct classic_lruvec {
	struct flist lists[NR_LRU_LISTS];	/* head = most recent */
};

static struct flist *lru_flist(struct lruvec *lruvec, enum lru_list lru)
{
	return &((struct classic_lruvec *)lruvec->lrupriv)->lists[lru];
}

static int classic_lruvec_init(struct lruvec *lruvec)
{
	struct classic_lruvec *c = calloc(1, sizeof(*c));

	if (!c)
		return -1;
	lruvec->lrupriv = c;
	return 0;
}

static void classic_lruvec_exit(struct lruvec *lruvec)
{
	free(lruvec->lrupriv);
	lruvec->lrupriv = NULL;
}

/* folio_lru_list() */
static enum lru_list folio_lru_list(const struct folio *folio)
{
	enum lru_list lru;

	if (folio_test_unevictable(folio))
		return LRU_UNEVICTABLE;
	lru = folio_is_file_lru(folio) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	if (folio_test_active(folio))
		lru += LRU_ACTIVE;
	return lru;
}

/* lruvec_add_folio(): at the head of its list */
static void lruvec_add_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio_lru_list(folio);

	update_lru_size(lruvec, lru, 1);
	flist_add(lru_flist(lruvec, lru), folio_idx(folio));
	folio->lru = (uint8_t)lru;
	folio_set_lru(folio);
}

static void lruvec_del_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio->lru;

	flist_del(lru_flist(lruvec, lru), folio_idx(folio));
	update_lru_size(lruvec, lru, -1);
	folio_clear_lru(folio);
}

static void classic_folio_add(struct lruvec *lruvec, struct folio *folio)
{
	lruvec_add_folio(lruvec, folio);
}

static void classic_folio_del(struct lruvec *lruvec, struct folio *folio)
{
	lruvec_del_folio(lruvec, folio);
}

/* move_folios_to_lru(), one folio: activated ones age the non-resident clock. */
static void classic_folio_putback(struct lruvec *lruvec, struct folio *folio)
{
	lruvec_add_folio(lruvec, folio);
	if (folio_test_active(folio))
		workingset_age_nonresident(lruvec, 1);
}

/* lru_move_tail(): written back for reclaim; to the inactive tail */
static void classic_folio_rotate(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru;

	lruvec_del_folio(lruvec, folio);
	folio_clear_active(folio);
	lru = folio_lru_list(folio);
	update_lru_size(lruvec, lru, 1);
	flist_add_tail(lru_flist(lruvec, lru), folio_idx(folio));
	folio->lru = (uint8_t)lru;
	folio_set_lru(folio);
}

/* folio_activate(): move an inactive folio to the active list */
static void folio_activate(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);

	lruvec_del_folio(lruvec, folio);
	folio_set_active(folio);
	lruvec_add_folio(lruvec, folio);
	count_vm_events(PGACTIVATE, 1);
	count_memcg_events(lruvec->memcg, PGACTIVATE, 1);
}

/*
 * folio_mark_accessed(): inactive,unreferenced -> inactive,referenced ->
 * active,unreferenced.
 */
static void classic_folio_mark_accessed(struct folio *folio)
{
	if (!folio_test_referenced(folio)) {
		folio_set_referenced(folio);
	} else if (folio_test_unevictable(folio)) {
		/* unevictable folios are not on the lists that age */
	} else if (!folio_test_active(folio)) {
		/* An isolated folio is activated by reclaim's putback instead. */
		if (folio_test_lru(folio))
			folio_activate(folio);
		else
			folio_set_active(folio);
		folio_clear_referenced(folio);
		workingset_activation(folio);
	}
}

/* isolate_lru_folios(): take up to nr_to_scan folios from the tail. */
static uint64_t isolate_lru_folios(uint64_t nr_to_scan, struct lruvec *lruvec,
				   struct flist *dst, uint64_t *nr_scanned,
				   struct scan_control *sc, enum lru_list lru)
{
	struct flist *src = lru_flist(lruvec, lru);
	uint64_t nr_taken = 0, scan = 0;

	while (scan < nr_to_scan && !flist_empty(src)) {
		uint32_t idx = flist_pop_tail(src);
		struct folio *folio = folio_of(idx);

		scan++;
		folio_clear_lru(folio);
		flist_add(dst, idx);
		nr_taken++;
	}
	update_lru_size(lruvec, lru, -(int64_t)nr_taken);
	actor_charge_sys(sc->actor, scan * COST_ISOLATE_NS);
	*nr_scanned = scan;
	return nr_taken;
}

static void move_folios_to_lru(struct lruvec *lruvec, struct flist *list)
{
	uint32_t idx;

	while ((idx = flist_pop_tail(list))) {
		struct folio *folio = folio_of(idx);

		classic_folio_putback(lruvec, folio);
	}
}

/* too_many_isolated(): direct reclaimers wait when isolated > inactive / 8. */
static bool too_many_isolated(struct pglist_data *pgdat, bool file, struct scan_control *sc)
{
	uint64_t inactive, isolated;

	if (sc->kswapd)
		return false;
	inactive = node_page_state(pgdat, file ? NR_INACTIVE_FILE : NR_INACTIVE_ANON);
	isolated = node_page_state(pgdat, file ? NR_ISOLATED_FILE : NR_ISOLATED_ANON);
	/* GFP_KERNEL may do IO: allow fewer isolated pages */
	inactive >>= 3;
	return isolated > inactive;
}

static uint64_t shrink_inactive_list(uint64_t nr_to_scan, struct lruvec *lruvec,
				     struct scan_control *sc, enum lru_list lru)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct mem_cgroup *memcg = lruvec->memcg;
	bool file = is_file_lru(lru);
	enum vm_event_item item;
	struct reclaim_stat stat;
	struct flist folio_list;
	uint64_t nr_scanned, nr_taken, nr_reclaimed;
	bool stalled = false;

	while (too_many_isolated(pgdat, file, sc)) {
		if (stalled)
			return 0;
		stalled = true;
		reclaim_throttle(pgdat, VMSCAN_THROTTLE_ISOLATED, sc->actor);
	}

	flist_init(&folio_list);
	nr_taken = isolate_lru_folios(nr_to_scan, lruvec, &folio_list, &nr_scanned, sc, lru);
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON + file, (int64_t)nr_taken);
	item = sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT;
	if (!cgroup_reclaim(sc))
		count_vm_events(item, nr_scanned);
	count_memcg_events(memcg, item, nr_scanned);
	count_vm_events(PGSCAN_ANON + file, nr_scanned);
	if (!nr_taken)
		return 0;

	nr_reclaimed = shrink_folio_list(&folio_list, pgdat, sc, &stat, false);
	move_folios_to_lru(lruvec, &folio_list);
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON + file, -(int64_t)nr_taken);

	item = sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT;
	if (!cgroup_reclaim(sc))
		count_vm_events(item, nr_reclaimed);
	count_memcg_events(memcg, item, nr_reclaimed);
	count_vm_events(PGSTEAL_ANON + file, nr_reclaimed);

	lru_note_cost(lruvec, file, stat.nr_pageout, nr_scanned - nr_reclaimed);

	/* every isolated page was dirty and not queued: kick the flushers */
	handle_reclaim_writeback(nr_taken, pgdat, sc, &stat);
	return nr_reclaimed;
}

static void shrink_active_list(uint64_t nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, enum lru_list lru)
{
	struct mem_cgroup *memcg = lruvec->memcg;
	bool file = is_file_lru(lru);
	struct flist l_hold, l_active, l_inactive;
	uint64_t nr_taken, nr_scanned, nr_rotated = 0, nr_deactivate = 0;
	uint32_t idx;

	flist_init(&l_hold);
	flist_init(&l_active);
	flist_init(&l_inactive);
	nr_taken = isolate_lru_folios(nr_to_scan, lruvec, &l_hold, &nr_scanned, sc, lru);
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON + file, (int64_t)nr_taken);
	if (!cgroup_reclaim(sc))
		count_vm_events(PGREFILL, nr_scanned);
	count_memcg_events(memcg, PGREFILL, nr_scanned);
	folio_list_prefetch_rmap(&l_hold);

	while ((idx = flist_pop_tail(&l_hold))) {
		struct folio *folio = folio_of(idx);
		bool vm_exec;

		if (folio_test_unevictable(folio)) {
			flist_add(&l_active, idx);
			continue;
		}
		if (folio_referenced(folio, &vm_exec)) {
			/*
			 * Referenced executable file pages get another trip
			 * on the active list; everything else is deactivated.
			 */
			if (vm_exec && folio_is_file_lru(folio)) {
				nr_rotated++;
				flist_add(&l_active, idx);
				continue;
			}
		}
		folio_clear_active(folio);
		folio_set_workingset(folio);
		flist_add(&l_inactive, idx);
	}
	nr_deactivate = l_inactive.nr;
	actor_charge_sys(sc->actor, nr_taken * COST_LRU_MOVE_NS);
	move_folios_to_lru(lruvec, &l_active);
	move_folios_to_lru(lruvec, &l_inactive);
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON + file, -(int64_t)nr_taken);
	count_vm_events(PGDEACTIVATE, nr_deactivate);
	count_memcg_events(memcg, PGDEACTIVATE, nr_deactivate);
	lru_note_cost(lruvec, file, 0, nr_rotated);
}

static uint64_t shrink_list(enum lru_list lru, uint64_t nr_to_scan,
			    struct lruvec *lruvec, struct scan_control *sc)
{
	if (is_active_lru(lru)) {
		if (sc->may_deactivate & (1U << is_file_lru(lru)))
			shrink_active_list(nr_to_scan, lruvec, sc, lru);
		else
			sc->skipped_deactivate = true;
		return 0;
	}
	return shrink_inactive_list(nr_to_scan, lruvec, sc, lru);
}

enum scan_balance {
	SCAN_EQUAL,
	SCAN_FRACT,
	SCAN_ANON,
	SCAN_FILE,
};

/* get_scan_count(): how many folios of each list to scan. */
void get_scan_count(struct lruvec *lruvec, struct scan_control *sc, uint64_t *nr)
{
	struct mem_cgroup *memcg = lruvec->memcg;
	int swappiness = sc_swappiness(sc, memcg);
	uint64_t fraction[2] = { 0, 0 }, denominator = 1;
	enum scan_balance scan_balance;
	enum lru_list lru;

	/* No swap space (or not allowed): do not bother scanning anon. */
	if (!sc->may_swap || !can_reclaim_anon_pages(memcg, lruvec->nid, sc)) {
		scan_balance = SCAN_FILE;
		goto out;
	}
	/* memcg reclaim at swappiness 0: file only */
	if (cgroup_reclaim(sc) && !swappiness) {
		scan_balance = SCAN_FILE;
		goto out;
	}
	/* Close to OOM: scan both equally, no cleverness. */
	if (!sc->priority && swappiness) {
		scan_balance = SCAN_EQUAL;
		goto out;
	}
	/* Almost out of file pages: force-scan anon. */
	if (sc->file_is_tiny) {
		scan_balance = SCAN_ANON;
		goto out;
	}
	/* Enough inactive page cache: leave the anon workingset alone. */
	if (sc->cache_trim_mode) {
		scan_balance = SCAN_FILE;
		goto out;
	}
	scan_balance = SCAN_FRACT;
	{
		/* Weigh each type by swappiness and by its relative cost. */
		uint64_t total_cost = sc->anon_cost + sc->file_cost;
		uint64_t anon_cost = total_cost + sc->anon_cost;
		uint64_t file_cost = total_cost + sc->file_cost;
		uint64_t ap, fp;

		total_cost = anon_cost + file_cost;
		ap = (uint64_t)swappiness * (total_cost + 1);
		ap /= anon_cost + 1;
		fp = (uint64_t)(200 - swappiness) * (total_cost + 1);
		fp /= file_cost + 1;
		fraction[0] = ap;
		fraction[1] = fp;
		denominator = ap + fp;
	}
out:
	for_each_evictable_lru(lru) {
		bool file = is_file_lru(lru);
		uint64_t lruvec_size = lruvec_lru_size(lruvec, lru);
		uint64_t scan = apply_proportional_protection(memcg, sc, lruvec_size);

		scan >>= sc->priority;
		/* A deleted cgroup: scrape out the remaining cache. */
		if (!scan && !memcg->online)
			scan = lruvec_size < SWAP_CLUSTER_MAX ? lruvec_size : SWAP_CLUSTER_MAX;

		switch (scan_balance) {
		case SCAN_EQUAL:
			break;
		case SCAN_FRACT:
			if (memcg->online)
				scan = scan * fraction[file] / denominator;
			else
				scan = (scan * fraction[file] + denominator - 1) / denominator;
			break;
		case SCAN_FILE:
		case SCAN_ANON:
			if ((scan_balance == SCAN_FILE) != file)
				scan = 0;
			break;
		}
		nr[lru] = scan;
	}
}

/* can_age_anon_pages(): anon aging is pointless without swap. */
static bool can_age_anon_pages(struct lruvec *lruvec, struct scan_control *sc)
{
	return can_reclaim_anon_pages(lruvec->memcg, lruvec->nid, sc);
}

static void classic_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	uint64_t nr[NR_LRU_LISTS], targets[NR_LRU_LISTS];
	uint64_t nr_reclaimed = 0, nr_to_reclaim = sc->nr_to_reclaim;
	enum lru_list lru;
	bool scan_adjusted;

	get_scan_count(lruvec, sc, nr);
	memcpy(targets, nr, sizeof(nr));

	/*
	 * Global direct reclaim at DEF_PRIORITY scans everything it targeted:
	 * the small first pass is not worth cutting short.
	 */
	scan_adjusted = !cgroup_reclaim(sc) && !sc->kswapd && sc->priority == DEF_PRIORITY;

	while (nr[LRU_INACTIVE_ANON] || nr[LRU_ACTIVE_FILE] || nr[LRU_INACTIVE_FILE]) {
		uint64_t nr_anon, nr_file, percentage, nr_scanned;

		for_each_evictable_lru(lru) {
			if (nr[lru]) {
				uint64_t nr_to_scan = nr[lru] < SWAP_CLUSTER_MAX ?
						      nr[lru] : SWAP_CLUSTER_MAX;

				nr[lru] -= nr_to_scan;
				nr_reclaimed += shrink_list(lru, nr_to_scan, lruvec, sc);
			}
		}
		actor_cond_resched(sc->actor);

		if (nr_reclaimed < nr_to_reclaim || scan_adjusted)
			continue;
		/*
		 * The goal is met: stop scanning the smaller type and scale
		 * the larger one to the proportion the smaller one had left.
		 */
		nr_file = nr[LRU_INACTIVE_FILE] + nr[LRU_ACTIVE_FILE];
		nr_anon = nr[LRU_INACTIVE_ANON] + nr[LRU_ACTIVE_ANON];
		if (!nr_file || !nr_anon)
			break;
		if (nr_file > nr_anon) {
			uint64_t scan_target = targets[LRU_INACTIVE_ANON] +
					       targets[LRU_ACTIVE_ANON] + 1;
			lru = LRU_BASE;
			percentage = nr_anon * 100 / scan_target;
		} else {
			uint64_t scan_target = targets[LRU_INACTIVE_FILE] +
					       targets[LRU_ACTIVE_FILE] + 1;
			lru = LRU_FILE;
			percentage = nr_file * 100 / scan_target;
		}
		/* Stop scanning the smaller of the LRU */
		nr[lru] = 0;
		nr[lru + LRU_ACTIVE] = 0;
		/* Recalculate the other LRU scan count based on its original target */
		lru = (lru == LRU_FILE) ? LRU_BASE : LRU_FILE;
		nr_scanned = targets[lru] - nr[lru];
		nr[lru] = targets[lru] * (100 - percentage) / 100;
		nr[lru] -= nr[lru] < nr_scanned ? nr[lru] : nr_scanned;
		lru += LRU_ACTIVE;
		nr_scanned = targets[lru] - nr[lru];
		nr[lru] = targets[lru] * (100 - percentage) / 100;
		nr[lru] -= nr[lru] < nr_scanned ? nr[lru] : nr_scanned;
		scan_adjusted = true;
	}
	sc->nr_reclaimed += nr_reclaimed;

	/* Age the active anon list even when only file was scanned. */
	if (can_age_anon_pages(lruvec, sc) && inactive_is_low(lruvec, LRU_INACTIVE_ANON))
		shrink_active_list(SWAP_CLUSTER_MAX, lruvec, sc, LRU_ACTIVE_ANON);
}

/* kswapd_age_node(): keep the anon inactive list from running low. */
static void classic_age_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mem_cgroup *memcg = NULL;
	struct lruvec *lruvec = mem_cgroup_lruvec(NULL, pgdat);

	if (!can_age_anon_pages(lruvec, sc))
		return;
	if (!inactive_is_low(lruvec, LRU_INACTIVE_ANON))
		return;
	while ((memcg = mem_cgroup_iter(NULL, memcg)))
		shrink_active_list(SWAP_CLUSTER_MAX, mem_cgroup_lruvec(memcg, pgdat), sc,
				   LRU_ACTIVE_ANON);
}

static int classic_check_lruvec(struct lruvec *lruvec, uint64_t nr_listed[NR_LRU_LISTS],
				char *err, size_t len)
{
	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		struct flist *l = lru_flist(lruvec, (enum lru_list)lru);
		uint64_t n = 0;

		for (uint32_t idx = l->head; idx; idx = folio_of(idx)->lru_next) {
			struct folio *folio = folio_of(idx);

			if (!folio_test_lru(folio) || folio->lru != lru ||
			    folio_lru_list(folio) != (enum lru_list)lru ||
			    folio->memcg_id != lruvec->memcg->id || folio->nid != lruvec->nid) {
				snprintf(err, len, "folio %u on lru %d of memcg '%s' node %d "
					 "has flags %#x lru %d memcg %u nid %u", idx, lru,
					 lruvec->memcg->name, lruvec->nid, folio->flags,
					 folio->lru, folio->memcg_id, folio->nid);
				return -1;
			}
			if (++n > l->nr) {
				snprintf(err, len, "lru %d of memcg '%s' node %d: list longer than %llu",
					 lru, lruvec->memcg->name, lruvec->nid,
					 (unsigned long long)l->nr);
				return -1;
			}
		}
		if (n != l->nr) {
			snprintf(err, len, "lru %d of memcg '%s' node %d: %llu listed, nr says %llu",
				 lru, lruvec->memcg->name, lruvec->nid, (unsigned long long)n,
				 (unsigned long long)l->nr);
			return -1;
		}
		nr_listed[lru] = n;
	}
	return 0;
}

static void classic_print_state(struct lruvec *lruvec, policy_print_fn out, void *ctx)
{
	char line[160];

	snprintf(line, sizeof(line),
		 "memcg %5u %s node %d: inactive_anon %llu active_anon %llu "
		 "inactive_file %llu active_file %llu",
		 lruvec->memcg->id, lruvec->memcg->name[0] ? lruvec->memcg->name : "/",
		 lruvec->nid,
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_INACTIVE_ANON),
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_ACTIVE_ANON),
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_INACTIVE_FILE),
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_ACTIVE_FILE));
	out(ctx, line);
}

const struct reclaim_policy classic_policy = {
	.abi = MMEMU_POLICY_ABI,
	.name = "classic",
	.desc = "active/inactive LRU (CONFIG_LRU_GEN off)",
	.lruvec_init = classic_lruvec_init,
	.lruvec_exit = classic_lruvec_exit,
	.folio_add = classic_folio_add,
	.folio_del = classic_folio_del,
	.folio_putback = classic_folio_putback,
	.folio_rotate = classic_folio_rotate,
	.folio_mark_accessed = classic_folio_mark_accessed,
	.shrink_lruvec = classic_shrink_lruvec,
	.age_node = classic_age_node,
	.workingset_eviction = workingset_eviction,
	.workingset_refault = workingset_refault,
	.check_lruvec = classic_check_lruvec,
	.print_state = classic_print_state,
};
