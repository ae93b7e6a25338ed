/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The multi-gen LRU, as in mm/vmscan.c (CONFIG_LRU_GEN) of mainline before
 * 2026, plus the 2026 reclaim-loop series as the named switches of
 * struct lru_gen_variant. Function names and decisions follow the kernel;
 * where the model simplifies, the comment says so.
 *
 * Simplifications: one zone per node; no huge pages (one folio = one page);
 * NR_HIST_GENS = 1; the page-table walk covers every task of the memcg and
 * prunes PTE tables with the Bloom filters, but not with non-leaf PMD young
 * bits; get_random_u32_below() is the kernel's deterministic stream.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/policy/mglru.h"
#include "models/vmscan.h"
#include "models/workingset.h"

/*
 * LRU_REFS_FLAGS (include/linux/mmzone.h since 4d5d14a01e2c "mm/mglru: rework
 * workingset protection", 6.14): the fd-access count, PG_referenced and the
 * refs bits. PG_workingset is not part of it: once set it stays until the
 * folio is reclaimed or lru_gen_clear_refs() deactivates it, so
 * folio_inc_gen() and the rejected-folio rule of evict_folios() keep it.
 */
#define LRU_REFS_FLAGS (LRU_REFS_MASK | (1U << PG_referenced))

static const struct lru_gen_variant *variant(void)
{
	return mm.policy->variant;
}

struct mglru_opts mglru_opts;

/* Options default to the kernel behaviour (-1 = unset). */
static bool opt(int v)
{
	return v > 0;
}

/* whether an ablation switch ([mglru] walk = 0, ...) removed a mechanism */
static bool ablated(unsigned int mech)
{
	return mglru_opts.off & mech;
}

static uint64_t now_ns(void)
{
	return current_actor ? actor_now_ns(current_actor) : engine_clock_ns();
}

static void charge(uint64_t ns)
{
	if (current_actor)
		actor_charge_sys(current_actor, ns);
}

/* min_type()/max_type(): the types reclaim may evict at this swappiness */
static int min_type(int swappiness)
{
	return !swappiness;
}

static int max_type(int swappiness)
{
	return swappiness < SWAPPINESS_ANON_ONLY;
}

#define for_each_evictable_type(type, swappiness) \
	for ((type) = min_type(swappiness); (type) <= max_type(swappiness); (type)++)

static uint64_t evictable_min_seq(const uint64_t *min_seq, int swappiness)
{
	uint64_t a = min_seq[min_type(swappiness)], b = min_seq[max_type(swappiness)];

	return a < b ? a : b;
}

int get_nr_gens(const struct lruvec *lruvec, int type)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);

	return (int)(lrugen->max_seq - lrugen->min_seq[type] + 1);
}

bool lru_gen_is_active(const struct lruvec *lruvec, int gen)
{
	uint64_t max_seq = lrugen_of(lruvec)->max_seq;

	return gen == lru_gen_from_seq(max_seq) || gen == lru_gen_from_seq(max_seq - 1);
}

int get_swappiness(const struct lruvec *lruvec, const struct scan_control *sc)
{
	if (!sc->may_swap)
		return 0;
	if (!can_reclaim_anon_pages(lruvec->memcg, lruvec->nid, sc))
		return 0;
	return sc_swappiness(sc, lruvec->memcg);
}

/* ================================================================
 * state change: sizes, addition, deletion
 * ================================================================ */

static void lru_gen_update_size(struct lruvec *lruvec, const struct folio *folio,
				int old_gen, int new_gen)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);
	enum lru_list lru = type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;

	if (old_gen >= 0)
		lrugen->nr_pages[old_gen][type]--;
	if (new_gen >= 0)
		lrugen->nr_pages[new_gen][type]++;
	/* addition */
	if (old_gen < 0) {
		update_lru_size(lruvec, lru + (lru_gen_is_active(lruvec, new_gen) ? LRU_ACTIVE : 0), 1);
		return;
	}
	/* deletion */
	if (new_gen < 0) {
		update_lru_size(lruvec, lru + (lru_gen_is_active(lruvec, old_gen) ? LRU_ACTIVE : 0), -1);
		return;
	}
	/* promotion (demotion needs isolation) */
	if (!lru_gen_is_active(lruvec, old_gen) && lru_gen_is_active(lruvec, new_gen)) {
		update_lru_size(lruvec, lru, -1);
		update_lru_size(lruvec, lru + LRU_ACTIVE, 1);
	}
}

/*
 * lru_gen_folio_seq(): where a folio goes when it joins the lists.
 * Active (set while isolated, or by a fault): the second youngest gen, the
 * workingset the youngest. Rotated to the tail: the oldest. New anon and
 * dirty folios waiting for writeback: second youngest. Everything else: the
 * oldest, or second oldest for the workingset, and with 6cbdd9726fb5 also
 * for a referenced folio (a fault marks it accessed instead of active).
 */
uint64_t lru_gen_folio_seq(const struct lruvec *lruvec, const struct folio *folio,
			   bool reclaiming)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);
	uint64_t gen, seq;

	if (folio_test_active(folio))
		gen = MIN_NR_GENS - folio_test_workingset(folio);
	else if (reclaiming)
		gen = MAX_NR_GENS;
	else if ((!folio_is_file_lru(folio) && !folio_test_swapcache(folio)) ||
		 (folio_test_reclaim(folio) &&
		  (folio_test_dirty(folio) || folio_test_writeback(folio))))
		gen = MIN_NR_GENS;
	else if (variant()->fault_mark_accessed)
		gen = MAX_NR_GENS - (folio_test_workingset(folio) || folio_test_referenced(folio));
	else
		gen = MAX_NR_GENS - folio_test_workingset(folio);

	seq = lrugen->max_seq + 1 - gen;
	if (lrugen->max_seq + 1 < gen || seq < lrugen->min_seq[type])
		seq = lrugen->min_seq[type];
	return seq;
}

static void lru_gen_add_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);
	int gen = lru_gen_from_seq(lru_gen_folio_seq(lruvec, folio, reclaiming));

	/* PG_active only says where to add; the gen says it from now on */
	folio->flags &= ~(LRU_GEN_MASK | (1U << PG_active));
	folio->flags |= (uint32_t)(gen + 1) << LRU_GEN_PGOFF;
	lru_gen_update_size(lruvec, folio, -1, gen);
	if (reclaiming)
		flist_add_tail(&lrugen->folios[gen][type], folio_idx(folio));
	else
		flist_add(&lrugen->folios[gen][type], folio_idx(folio));
	folio->lru = (uint8_t)gen;
	folio_set_lru(folio);
}

/*
 * lru_gen_del_folio(): the folio may sit on the list of an older gen than
 * its gen bits say (promoted lazily); folio->lru records the list.
 */
static void lru_gen_del_folio(struct lruvec *lruvec, struct folio *folio, bool reclaiming)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);
	int gen = folio_lru_gen(folio);

	flist_del(&lrugen->folios[folio->lru][type], folio_idx(folio));
	folio->flags &= ~LRU_GEN_MASK;
	if (!reclaiming && lru_gen_is_active(lruvec, gen))
		folio_set_active(folio);
	lru_gen_update_size(lruvec, folio, gen, -1);
	folio_clear_lru(folio);
}

/* list_move() within the lrugen lists */
static void lru_gen_move(struct lruvec *lruvec, struct folio *folio, int gen, bool tail)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);

	flist_del(&lrugen->folios[folio->lru][type], folio_idx(folio));
	if (tail)
		flist_add_tail(&lrugen->folios[gen][type], folio_idx(folio));
	else
		flist_add(&lrugen->folios[gen][type], folio_idx(folio));
	folio->lru = (uint8_t)gen;
}

static void lru_gen_inc_refs(struct folio *folio);

/*
 * folio_add_lru() in a fault: before 6cbdd9726fb5 every folio a fault adds
 * is set active (the second youngest gen); after it only a refaulted
 * workingset folio is, and the others are marked accessed (PG_referenced),
 * which lru_gen_folio_seq() places in the second oldest gen.
 */
static void mglru_folio_add(struct lruvec *lruvec, struct folio *folio)
{
	if (mm.in_lru_fault && !folio_test_unevictable(folio)) {
		if (!variant()->fault_mark_accessed || folio_test_workingset(folio))
			folio_set_active(folio);
		else if (!folio_test_referenced(folio))
			lru_gen_inc_refs(folio);
	}
	lru_gen_add_folio(lruvec, folio, false);
}

static void mglru_folio_del(struct lruvec *lruvec, struct folio *folio)
{
	lru_gen_del_folio(lruvec, folio, false);
}

static void mglru_folio_putback(struct lruvec *lruvec, struct folio *folio)
{
	lru_gen_add_folio(lruvec, folio, false);
}

/* lru_move_tail() with MGLRU: to the oldest gen, at its tail */
static void mglru_folio_rotate(struct lruvec *lruvec, struct folio *folio)
{
	lru_gen_del_folio(lruvec, folio, true);
	folio_clear_active(folio);
	lru_gen_add_folio(lruvec, folio, true);
}

/* folio_activate(): for MGLRU, delete and re-add as active (youngest gens) */
static void lru_gen_folio_activate(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);

	if (!folio_test_lru(folio))
		return;
	lru_gen_del_folio(lruvec, folio, false);
	folio_set_active(folio);
	lru_gen_add_folio(lruvec, folio, false);
	count_vm_events(PGACTIVATE, 1);
	count_memcg_events(lruvec->memcg, PGACTIVATE, 1);
}

/*
 * lru_gen_inc_refs() (folio_mark_accessed with MGLRU): the first access
 * sets PG_referenced, later ones count refs, and at the maximum the folio
 * joins the workingset.
 */
static void lru_gen_inc_refs(struct folio *folio)
{
	if (folio_test_unevictable(folio))
		return;
	if (!folio_test_referenced(folio)) {
		folio->flags = (folio->flags & ~LRU_REFS_MASK) | (1U << PG_referenced);
		return;
	}
	if ((folio->flags & LRU_REFS_MASK) == LRU_REFS_MASK) {
		folio_set_workingset(folio);
		return;
	}
	folio->flags += 1U << LRU_REFS_PGOFF;
}

/* ================================================================
 * Bloom filters (which PTE tables the next walk should visit)
 * ================================================================ */

static void get_item_key(uint32_t mapping, uint64_t pte_table, int key[2])
{
	uint64_t hash = mix64(((uint64_t)mapping << 40) ^ pte_table);

	key[0] = (int)(hash & ((1U << BLOOM_FILTER_SHIFT) - 1));
	key[1] = (int)((hash >> BLOOM_FILTER_SHIFT) & ((1U << BLOOM_FILTER_SHIFT) - 1));
}

static bool test_bit64(const uint64_t *map, int bit)
{
	return map[bit / 64] & (1ULL << (bit % 64));
}

static bool test_bloom_filter(struct lru_gen_folio *lrugen, uint64_t seq, uint32_t mapping,
			      uint64_t pte_table)
{
	uint64_t *filter = lrugen->filters[seq % NR_BLOOM_FILTERS];
	int key[2];

	if (!filter)
		return true;
	get_item_key(mapping, pte_table, key);
	return test_bit64(filter, key[0]) && test_bit64(filter, key[1]);
}

static void update_bloom_filter(struct lru_gen_folio *lrugen, uint64_t seq, uint32_t mapping,
				uint64_t pte_table)
{
	uint64_t *filter = lrugen->filters[seq % NR_BLOOM_FILTERS];
	int key[2];

	if (!filter)
		return;
	get_item_key(mapping, pte_table, key);
	filter[key[0] / 64] |= 1ULL << (key[0] % 64);
	filter[key[1] / 64] |= 1ULL << (key[1] % 64);
}

static void reset_bloom_filter(struct lru_gen_folio *lrugen, uint64_t seq)
{
	uint64_t **filter = &lrugen->filters[seq % NR_BLOOM_FILTERS];
	size_t bytes = (1U << BLOOM_FILTER_SHIFT) / 8;

	if (!*filter)
		*filter = calloc(1, bytes);	/* NULL: every table is walked */
	else
		memset(*filter, 0, bytes);
}

/* suitable_to_scan(): at least one young PTE per cache line (8 PTEs) */
static bool suitable_to_scan(int total, int young)
{
	return young * 8 >= total;
}

/* ================================================================
 * the aging: promotion by page tables
 * ================================================================ */

/*
 * lru_gen_set_refs(): the first young sighting sets PG_referenced, the
 * second promotes into the workingset. With 6cbdd9726fb5 PG_referenced is
 * often set by the fault already, so a folio joins the workingset only
 * with refs > 1; otherwise it is marked accessed again (and still
 * activated).
 */
static bool lru_gen_set_refs(struct folio *folio)
{
	if (!folio_test_referenced(folio) && !folio_test_workingset(folio)) {
		folio->flags = (folio->flags & ~LRU_REFS_MASK) | (1U << PG_referenced);
		return false;
	}
	if (variant()->fault_mark_accessed && folio_lru_refs(folio) <= 1)
		lru_gen_inc_refs(folio);
	else
		folio->flags = (folio->flags & ~LRU_REFS_FLAGS) | (1U << PG_workingset);
	return true;
}

/* folio_update_gen(): promote a young folio to `gen` in place (lists fix up lazily) */
static int folio_update_gen(struct lruvec *lruvec, struct folio *folio, int gen)
{
	int old_gen = folio_lru_gen(folio);

	if (!folio_test_referenced(folio) && !folio_test_workingset(folio)) {
		folio->flags = (folio->flags & ~LRU_REFS_MASK) | (1U << PG_referenced);
		return -1;
	}
	if (old_gen < 0)
		return -1;	/* isolated */
	folio->flags &= ~(LRU_GEN_MASK | LRU_REFS_FLAGS);
	folio->flags |= ((uint32_t)(gen + 1) << LRU_GEN_PGOFF) | (1U << PG_workingset);
	if (old_gen != gen)
		lru_gen_update_size(lruvec, folio, old_gen, gen);
	return old_gen;
}

/* walk_update_folio(): with a walk (kswapd, proactive, aging) promote in place */
static void walk_update_folio(bool walk, struct lruvec *lruvec, struct folio *folio,
			      int new_gen, bool dirty)
{
	if (dirty && !folio_test_dirty(folio) && !folio_test_anon(folio))
		folio_set_dirty(folio);
	if (walk) {
		folio_update_gen(lruvec, folio, new_gen);
	} else if (lru_gen_set_refs(folio)) {
		int old_gen = folio_lru_gen(folio);

		if (old_gen >= 0 && old_gen != new_gen)
			lru_gen_folio_activate(folio);
	}
}

/* get_pfn_folio(): the folio behind a young PTE, if it is on this lruvec's lists */
static struct folio *get_pte_folio(const struct address_space *as, const uint8_t *ptes,
				   uint64_t i, const struct lruvec *lruvec)
{
	uint64_t entry;
	struct folio *folio;

	if (!(ptes[i] & PTE_PRESENT) || !(ptes[i] & PTE_YOUNG))
		return NULL;
	/* folio_nid() != pgdat->node_id, read from the PTE (mk_pte()): a
	 * page of another node costs no load of its folio */
	if (pte_nid(ptes[i]) != lruvec->nid)
		return NULL;
	entry = as->slots[i];
	if (!entry || xa_is_value(entry))
		return NULL;
	folio = folio_of((uint32_t)entry);
	if (folio_lru_gen(folio) < 0 || folio->memcg_id != lruvec->memcg->id)
		return NULL;
	return folio;
}

/*
 * A host shortcut, no decision: the folio a young PTE some way ahead will
 * name is loaded while this one is handled. A walk reads the slots and
 * PTEs in order, which the host's prefetcher follows, but the folios they
 * name lie anywhere in the folio table once pages have been reclaimed and
 * faulted again (file-anon-mix at 1/16: get_pte_folio() was 45 % of the
 * run, 96 readers' page tables walked over one file).
 */
#define WALK_PREFETCH_PTES 16

static inline __attribute__((always_inline)) void
walk_prefetch_folio(const struct address_space *as, const uint8_t *ptes, uint64_t j, uint64_t end,
		    int nid)
{
	uint64_t entry;

	if (j >= end || !(ptes[j] & PTE_YOUNG) || pte_nid(ptes[j]) != nid)
		return;
	entry = as->slots[j];
	if (entry && !xa_is_value(entry))
		__builtin_prefetch(folio_of((uint32_t)entry));
}

/* whether any of the eight PTEs from p on is young */
static inline bool ptes_any_young(const uint8_t *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof(w));
	return w & (UINT64_C(0x0101010101010101) * PTE_YOUNG);
}

/*
 * walk_pmd_range() and walk_pte_range() over one mapping's page tables
 * (`ptes`: an anon region's, or one mm's PTEs of a file): each PMD entry
 * costs a visit; the PTE tables that pass the Bloom filter are read PTE by
 * PTE. Like walk_mm(), it yields between page tables (cond_resched), so
 * other reclaimers run meanwhile; it stops when another thread aged the
 * lruvec (max_seq moved past the walk's seq). Returns false when it stopped.
 */
static bool walk_mapping(struct lruvec *lruvec, struct address_space *as, uint8_t *ptes,
			 uint64_t seq, bool force_scan)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int gen = lru_gen_from_seq(seq);
	uint64_t nr_tables = (as->nr_pages + PTRS_PER_PTE - 1) / PTRS_PER_PTE;

	if (!ptes || !as->nr_resident)
		return true;
	for (uint64_t t = 0; t < nr_tables; t++) {
		uint64_t start = t * PTRS_PER_PTE, end = start + PTRS_PER_PTE;
		int total = 0, young = 0;

		/* another thread might have called inc_max_seq() */
		if (lrugen->max_seq != seq)
			return false;
		charge(COST_PT_WALK_PMD_NS);
		/* [mglru] bloom_filter = 0: every PTE table is read, as with force_scan */
		if (!force_scan && !ablated(MGLRU_OFF_BLOOM_FILTER) &&
		    !test_bloom_filter(lrugen, seq, as->id, t))
			continue;
		if (end > as->nr_pages)
			end = as->nr_pages;
		total = (int)(end - start);
		for (uint64_t i = start; i < end; i++) {
			struct folio *folio;

			/*
			 * walk_pte_range() reads every PTE; here a word of eight
			 * without a young one is skipped whole, since
			 * get_pte_folio() would return no folio for any of them
			 * (a host shortcut: all `total` PTEs are still charged)
			 */
			if (!(i % 8) && i + 8 <= end && !ptes_any_young(ptes + i)) {
				i += 7;
				continue;
			}
			walk_prefetch_folio(as, ptes, i + WALK_PREFETCH_PTES, end, lruvec->nid);
			folio = get_pte_folio(as, ptes, i, lruvec);
			if (!folio)
				continue;
			ptes[i] &= (uint8_t)~PTE_YOUNG;
			walk_update_folio(true, lruvec, folio, gen, ptes[i] & PTE_DIRTY);
			young++;
		}
		/* carry dense tables over to the next generation */
		if (suitable_to_scan(total, young))
			update_bloom_filter(lrugen, seq + 1, as->id, t);
		charge((uint64_t)total * COST_PT_WALK_PTE_NS + (uint64_t)young * COST_PT_YOUNG_NS);
		if (current_actor)
			actor_cond_resched(current_actor);
	}
	return true;
}

/* walk_mm(): one task's (mm's) anonymous regions when anon is evictable, and its
 * file mappings unless reclaim is anon-only */
static void walk_mm(struct lruvec *lruvec, struct task *t, uint64_t seq, int swappiness,
		    bool force_scan)
{
	/* should_skip_vma(): a mapping without recency is not walked */
	if (swappiness)
		for (int r = 0; r < t->nr_regions; r++) {
			struct address_space *as = mm.mappings[t->regions[r]];

			if (vma_has_recency(as->vm_flags) &&
			    !walk_mapping(lruvec, as, as->ptes, seq, force_scan))
				return;
		}
	if (swappiness <= MAX_SWAPPINESS)
		for (int v = 0; v < t->nr_vmas; v++)
			if (vma_has_recency(t->vmas[v]->vm_flags) &&
			    !walk_mapping(lruvec, t->vmas[v]->file, t->vmas[v]->ptes, seq,
					  force_scan))
				return;
}

/*
 * iterate_mm_list(): the memcg's tasks are one list shared by every thread
 * aging this lruvec for `seq`. Each call hands out the next task to walk;
 * the caller that moves the cursor past the end completes the iteration
 * (mm_seq++) and returns true: that one increments max_seq. A caller whose
 * seq was already completed by others gets no task and false.
 */
static bool iterate_mm_list(struct lruvec *lruvec, uint64_t seq, bool force_scan,
			    struct task **iter)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint8_t key = (uint8_t)(1U << (lruvec->nid % 8));

	*iter = NULL;
	if (seq <= lrugen->mm_seq)
		return false;
	if (lrugen->mm_head < 0) {
		/* the first walker of this iteration */
		reset_bloom_filter(lrugen, seq + 1);
		lrugen->mm_head = 0;
	}
	while (lrugen->mm_head < mm.nr_tasks) {
		struct task *t = mm.tasks[lrugen->mm_head++];

		if (t->memcg == lruvec->memcg && !t->oom_killed) {
			/* get_next_mm(): skip an mm that has not run since this
			 * node's last walk (lru_gen_use_mm() sets the bit) */
			if (!force_scan && !(t->lru_gen_bitmap & key))
				continue;
			t->lru_gen_bitmap &= (uint8_t)~key;
			/* mmget_not_zero(): the walk may yield and the task exit */
			task_get(t);
			*iter = t;
			return false;
		}
	}
	lrugen->mm_head = -1;
	lrugen->mm_seq++;
	return true;
}

/* ---- the PID controller ---- */

void read_ctrl_pos(const struct lruvec *lruvec, int type, int tier, int gain,
		   struct ctrl_pos *pos)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int last = tier < MAX_NR_TIERS - 1 ? tier : MAX_NR_TIERS - 1;

	pos->gain = gain;
	pos->refaulted = pos->total = 0;
	/* tier == MAX_NR_TIERS: the sum of all tiers */
	for (int i = tier % MAX_NR_TIERS; i <= last; i++) {
		pos->refaulted += lrugen->avg_refaulted[type][i] + lrugen->refaulted[type][i];
		pos->total += lrugen->avg_total[type][i] + lrugen->protected[type][i] +
			      lrugen->evicted[type][i];
	}
}

/* reset_ctrl_pos(): on inc_min_seq, fold the current gen into the average (1/2) */
static void reset_ctrl_pos(struct lruvec *lruvec, int type, bool carryover)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);

	/* NR_HIST_GENS == 1: only the carry-over clears */
	if (!carryover)
		return;
	for (int tier = 0; tier < MAX_NR_TIERS; tier++) {
		lrugen->avg_refaulted[type][tier] =
			(lrugen->avg_refaulted[type][tier] + lrugen->refaulted[type][tier]) / 2;
		lrugen->avg_total[type][tier] =
			(lrugen->avg_total[type][tier] + lrugen->protected[type][tier] +
			 lrugen->evicted[type][tier]) / 2;
		lrugen->refaulted[type][tier] = 0;
		lrugen->evicted[type][tier] = 0;
		lrugen->protected[type][tier] = 0;
	}
}

/* True if the PV has few refaults or a lower refaulted/total than the SP. */
bool positive_ctrl_err(const struct ctrl_pos *sp, const struct ctrl_pos *pv)
{
	return pv->refaulted < MIN_LRU_BATCH ||
	       pv->refaulted * (sp->total + MIN_LRU_BATCH) * (uint64_t)sp->gain <=
	       (sp->refaulted + 1) * pv->total * (uint64_t)pv->gain;
}

/* ---- generations ---- */

/* folio_inc_gen(): one gen younger than the oldest, keeping lazy promotions */
static int folio_inc_gen(struct lruvec *lruvec, struct folio *folio, bool reclaiming)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);
	int old_gen = lru_gen_from_seq(lrugen->min_seq[type]);
	int new_gen = folio_lru_gen(folio);

	/* folio_update_gen() has promoted this page? */
	if (new_gen >= 0 && new_gen != old_gen)
		return new_gen;
	new_gen = (old_gen + 1) % MAX_NR_GENS;
	folio->flags &= ~(LRU_GEN_MASK | LRU_REFS_FLAGS);
	folio->flags |= (uint32_t)(new_gen + 1) << LRU_GEN_PGOFF;
	/* for folio_end_writeback() */
	if (reclaiming)
		folio_set_reclaim(folio);
	lru_gen_update_size(lruvec, folio, old_gen, new_gen);
	return new_gen;
}

/* inc_min_seq(): retire the oldest gen of a type, moving what is left in it */
static bool inc_min_seq(struct lruvec *lruvec, int type, int swappiness)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int remaining = MAX_LRU_BATCH;
	int old_gen = lru_gen_from_seq(lrugen->min_seq[type]);
	struct flist *head = &lrugen->folios[old_gen][type];

	/* file type is not evictable at anon-only, anon not at swappiness 0 */
	if ((type && swappiness == SWAPPINESS_ANON_ONLY) || (!type && !swappiness)) {
		/* its folios stay where they are, gen bits and all */
		if (!flist_empty(head))
			lrugen->unsorted_retire[type] = true;
		goto done;
	}
	/* prevent cold/hot inversion if the type is evictable */
	while (!flist_empty(head)) {
		struct folio *folio = folio_of(head->tail);
		int refs = folio_lru_refs(folio);
		bool workingset = folio_test_workingset(folio);
		int new_gen = folio_inc_gen(lruvec, folio, false);

		lru_gen_move(lruvec, folio, new_gen, true);
		/* don't count the workingset being lazily promoted */
		if (refs + workingset != (1 << LRU_REFS_WIDTH) + 1) {
			lrugen->protected[type][lru_tier_from_refs(refs, workingset)]++;
			lrugen->stats.protected[type][lru_tier_from_refs(refs, workingset)]++;
		}
		if (!--remaining)
			return false;
	}
done:
	reset_ctrl_pos(lruvec, type, true);
	lrugen->min_seq[type]++;
	return true;
}

/*
 * try_to_inc_min_seq(): skip empty oldest gens. With swappiness in
 * (0, 200], a type whose min_seq would pass max_seq - MIN_NR_GENS while
 * the other type is behind is held back (the cross-type sync).
 */
bool try_to_inc_min_seq(struct lruvec *lruvec, int swappiness)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint64_t min_seq[ANON_AND_FILE] = { lrugen->min_seq[0], lrugen->min_seq[1] };
	bool seq_inc_flag = false, success = false;
	int type;

	for_each_evictable_type(type, swappiness) {
		while (min_seq[type] + MIN_NR_GENS <= lrugen->max_seq) {
			if (!flist_empty(&lrugen->folios[lru_gen_from_seq(min_seq[type])][type]))
				break;
			min_seq[type]++;
			seq_inc_flag = true;
		}
	}
	if (!seq_inc_flag)
		return false;
	if (swappiness && swappiness <= MAX_SWAPPINESS) {
		uint64_t seq = lrugen->max_seq - MIN_NR_GENS;

		if (min_seq[LRU_GEN_ANON] > seq && min_seq[LRU_GEN_FILE] < seq)
			min_seq[LRU_GEN_ANON] = seq;
		else if (min_seq[LRU_GEN_FILE] > seq && min_seq[LRU_GEN_ANON] < seq)
			min_seq[LRU_GEN_FILE] = seq;
	}
	for_each_evictable_type(type, swappiness) {
		if (min_seq[type] <= lrugen->min_seq[type])
			continue;
		reset_ctrl_pos(lruvec, type, true);
		lrugen->min_seq[type] = min_seq[type];
		success = true;
	}
	return success;
}

/*
 * inc_max_seq(): a type already at MAX_NR_GENS first retires its oldest
 * gen; then the two sides of max_seq swap active/inactive accounting, the
 * new gen is stamped and max_seq moves on.
 */
bool inc_max_seq(struct lruvec *lruvec, uint64_t seq, int swappiness, struct actor *a)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int prev, next;

restart:
	if (seq != lrugen->max_seq)
		return false;
	for (int type = 0; type < ANON_AND_FILE; type++) {
		if (get_nr_gens(lruvec, type) != MAX_NR_GENS)
			continue;
		if (inc_min_seq(lruvec, type, swappiness))
			continue;
		if (a)
			actor_cond_resched(a);
		goto restart;
	}
	prev = lru_gen_from_seq(lrugen->max_seq - 1);
	next = lru_gen_from_seq(lrugen->max_seq + 1);
	for (int type = 0; type < ANON_AND_FILE; type++) {
		enum lru_list lru = type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
		int64_t delta = lrugen->nr_pages[prev][type] - lrugen->nr_pages[next][type];

		if (!delta)
			continue;
		update_lru_size(lruvec, lru, delta);
		update_lru_size(lruvec, lru + LRU_ACTIVE, -delta);
	}
	for (int type = 0; type < ANON_AND_FILE; type++)
		reset_ctrl_pos(lruvec, type, false);
	lrugen->timestamps[next] = now_ns();
	lrugen->max_seq++;
	charge(COST_INC_MAX_SEQ_NS);
	return true;
}

bool try_to_inc_max_seq(struct lruvec *lruvec, uint64_t seq, int swappiness,
			struct scan_control *sc)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);

	struct task *t;
	bool last;

	/* see iterate_mm_list(): another reclaimer walked for this seq already */
	if (seq <= lrugen->mm_seq)
		return false;
	/*
	 * should_walk_mmu() false (lru_gen/enabled without LRU_GEN_MM_WALK):
	 * iterate_mm_list_nowalk() completes the iteration without a walk, and
	 * the eviction's look-around is the only feedback from page tables.
	 * [mglru] walk = 0 takes the same path without touching the bits.
	 */
	if (!(mglru_opts.enabled & LRU_GEN_MM_WALK) || ablated(MGLRU_OFF_WALK)) {
		lrugen->mm_head = -1;
		lrugen->mm_seq++;
		return inc_max_seq(lruvec, seq, swappiness, sc ? sc->actor : current_actor);
	}
	/* set_mm_walk(NULL, true): the walk stays until clear_mm_walk() */
	if (sc)
		sc->mm_walk = true;
	/* x86 sets the accessed bit in hardware: walk the page tables, one
	 * task at a time, sharing the iteration with concurrent agers */
	do {
		last = iterate_mm_list(lruvec, seq, false, &t);
		if (t) {
			walk_mm(lruvec, t, seq, swappiness, false);
			task_put(current_actor, t);
		}
	} while (t);
	if (!last || lrugen->max_seq != seq)
		return false;
	return inc_max_seq(lruvec, seq, swappiness, sc ? sc->actor : current_actor);
}

/* ================================================================
 * rmap/PT walk feedback: look-around
 * ================================================================ */

/*
 * lru_gen_look_around(): a young PTE found by the eviction's rmap walk in
 * one mapping (`ptes`); scan up to MIN_LRU_BATCH neighbours in the same PTE
 * table and promote the young ones. Returns true if the PTE itself was young.
 */
static bool lru_gen_look_around(struct folio *folio, uint8_t *ptes, struct scan_control *sc)
{
	struct address_space *as = folio_mapping(folio);
	struct lruvec *lruvec = folio_lruvec(folio);
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint64_t i = folio->index, start, end;
	int gen = lru_gen_from_seq(lrugen->max_seq);
	/* with a walk (current->reclaim_state->mm_walk) promote in place,
	 * without one activate */
	bool walk = sc->mm_walk;
	int young = 1, total = 0;

	if (!(ptes[i] & PTE_YOUNG))
		return false;
	ptes[i] &= (uint8_t)~PTE_YOUNG;
	/* [mglru] look_around = 0: ptep_clear_flush_young() of this PTE only,
	 * as folio_referenced_one() does without lru_gen_enabled() */
	if (ablated(MGLRU_OFF_LOOK_AROUND))
		return true;
	start = i - i % PTRS_PER_PTE;
	end = start + PTRS_PER_PTE;
	if (end > as->nr_pages)
		end = as->nr_pages;
	if (end - start == 1)
		return true;
	if (end - start > MIN_LRU_BATCH) {
		if (i - start < MIN_LRU_BATCH / 2)
			end = start + MIN_LRU_BATCH;
		else if (end - i < MIN_LRU_BATCH / 2)
			start = end - MIN_LRU_BATCH;
		else {
			start = i - MIN_LRU_BATCH / 2;
			end = i + MIN_LRU_BATCH / 2;
		}
	}
	/* the window's first folios, before the loop loads those ahead of it */
	for (uint64_t j = start; j < start + WALK_PREFETCH_PTES; j++)
		walk_prefetch_folio(as, ptes, j, end, lruvec->nid);
	for (uint64_t j = start; j < end; j++) {
		struct folio *f;

		/* a word of eight PTEs without a young one: no folio (as in walk_mapping()) */
		if (!(j % 8) && j + 8 <= end && !ptes_any_young(ptes + j)) {
			total += 8;
			j += 7;
			continue;
		}
		total++;
		walk_prefetch_folio(as, ptes, j + WALK_PREFETCH_PTES, end, lruvec->nid);
		f = get_pte_folio(as, ptes, j, lruvec);
		if (!f)
			continue;
		ptes[j] &= (uint8_t)~PTE_YOUNG;
		walk_update_folio(walk, lruvec, f, gen, ptes[j] & PTE_DIRTY);
		young++;
	}
	charge((uint64_t)total * COST_PT_WALK_PTE_NS + (uint64_t)young * COST_PT_YOUNG_NS);
	/* feedback from rmap walkers to page table walkers */
	if (suitable_to_scan(total, young))
		update_bloom_filter(lrugen, lrugen->max_seq, as->id, folio->index / PTRS_PER_PTE);
	return true;
}

/*
 * folio_check_references() with lru_gen_enabled(): folio_referenced() walks
 * the rmap and looks around every young PTE, one per mapping; any young
 * mapping counts as a reference.
 */
static enum folio_references lru_gen_check_references(struct folio *folio,
						      struct scan_control *sc)
{
	struct rmap_iter it;
	struct vm_area *vma;
	int referenced = 0;
	uint8_t *pte;

	rmap_iter_init(&it, folio_mapping(folio), folio->index);
	while ((pte = rmap_iter_next(&it, &vma))) {
		uint8_t vm_flags = vma ? vma->vm_flags : folio_mapping(folio)->vm_flags;
		enum rmap_young rule = rmap_young_rule(mm.kernel, vm_flags);

		/* invalid_folio_referenced_vma(): no recency, no look */
		if (rule == RMAP_YOUNG_SKIP)
			continue;
		charge(COST_RMAP_WALK_NS);
		if (!vma_has_recency(vm_flags)) {
			/* before 6.3: no look-around, but ptep_clear_flush_young()
			 * still counts a VM_RAND_READ mapping's young PTE */
			if (*pte & PTE_YOUNG) {
				*pte &= (uint8_t)~PTE_YOUNG;
				referenced += rule == RMAP_YOUNG_COUNT;
			}
			continue;
		}
		referenced += lru_gen_look_around(folio, vma ? vma->ptes : folio_mapping(folio)->ptes,
						  sc);
	}
	if (!referenced)
		return FOLIOREF_RECLAIM;
	return lru_gen_set_refs(folio) ? FOLIOREF_ACTIVATE : FOLIOREF_KEEP;
}

/* ================================================================
 * memcg LRU
 * ================================================================ */

static struct memcg_lru *memcg_lru_of(struct pglist_data *pgdat)
{
	return pgdat->lrupriv;
}

static int get_memcg_gen(uint64_t seq)
{
	return (int)(seq % MEMCG_NR_GENS);
}

static int vec_find(const struct lruvec_vec *v, const struct lruvec *lruvec)
{
	for (int i = 0; i < v->nr; i++)
		if (v->v[i] == lruvec)
			return i;
	return -1;
}

static void vec_del(struct lruvec_vec *v, const struct lruvec *lruvec)
{
	int i = vec_find(v, lruvec);

	if (i < 0)
		return;
	memmove(&v->v[i], &v->v[i + 1], (size_t)(v->nr - i - 1) * sizeof(*v->v));
	v->nr--;
}

static int vec_add(struct lruvec_vec *v, struct lruvec *lruvec, bool head)
{
	if (v->nr == v->cap) {
		int cap = v->cap ? 2 * v->cap : 8;
		struct lruvec **n = realloc(v->v, (size_t)cap * sizeof(*n));

		if (!n)
			return -1;
		v->v = n;
		v->cap = cap;
	}
	if (head) {
		memmove(&v->v[1], &v->v[0], (size_t)v->nr * sizeof(*v->v));
		v->v[0] = lruvec;
	} else {
		v->v[v->nr] = lruvec;
	}
	v->nr++;
	return 0;
}

static void lru_gen_rotate_memcg(struct lruvec *lruvec, int op)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct memcg_lru *lru = memcg_lru_of(pgdat);
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int bin = (int)rng_below(&mm.rng, MEMCG_NR_BINS);
	int old = lrugen->gen, new = old, seg = 0;

	if (op == MEMCG_LRU_HEAD)
		seg = MEMCG_LRU_HEAD;
	else if (op == MEMCG_LRU_TAIL)
		seg = MEMCG_LRU_TAIL;
	else if (op == MEMCG_LRU_OLD)
		new = get_memcg_gen(lru->seq);
	else if (op == MEMCG_LRU_YOUNG)
		new = get_memcg_gen(lru->seq + 1);
	lrugen->seg = seg;
	lrugen->gen = new;
	vec_del(&lru->fifo[old][lrugen->bin], lruvec);
	vec_add(&lru->fifo[new][bin], lruvec, op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD);
	lrugen->bin = bin;
	lru->nr_memcgs[old]--;
	lru->nr_memcgs[new]++;
	/* the old generation emptied: the young one becomes old */
	if (!lru->nr_memcgs[old] && old == get_memcg_gen(lru->seq))
		lru->seq++;
}

static void lru_gen_online_lruvec(struct lruvec *lruvec)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct memcg_lru *lru = memcg_lru_of(pgdat);
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int gen = get_memcg_gen(lru->seq);

	lrugen->gen = gen;
	lrugen->bin = (int)rng_below(&mm.rng, MEMCG_NR_BINS);
	vec_add(&lru->fifo[gen][lrugen->bin], lruvec, false);
	lru->nr_memcgs[gen]++;
}

/* ================================================================
 * the eviction
 * ================================================================ */

static bool sort_folio(struct lruvec *lruvec, struct folio *folio, struct scan_control *sc,
		       int tier_idx)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int gen = folio_lru_gen(folio);
	int type = folio_is_file_lru(folio);
	int refs = folio_lru_refs(folio);
	bool workingset = folio_test_workingset(folio);
	int tier = lru_tier_from_refs(refs, workingset);
	bool dirty, writeback;

	/* promoted (by the page-table walk or look-around) */
	if (gen != lru_gen_from_seq(lrugen->min_seq[type])) {
		lru_gen_move(lruvec, folio, gen, false);
		return true;
	}
	/* protected: accessed through file descriptors more than the tier allows */
	if (tier > tier_idx || refs + workingset == (1 << LRU_REFS_WIDTH) + 1) {
		gen = folio_inc_gen(lruvec, folio, false);
		lru_gen_move(lruvec, folio, gen, false);
		/* don't count the workingset being lazily promoted */
		if (refs + workingset != (1 << LRU_REFS_WIDTH) + 1) {
			lrugen->protected[type][tier]++;
			lrugen->stats.protected[type][tier]++;
		}
		/* before 6.5 ("Multi-gen LRU: fix workingset accounting") a
		 * protected folio was what workingset_activate counted */
		if (!mm.kernel->lru_gen_refault_all)
			mod_lruvec_state(lruvec, WORKINGSET_ACTIVATE_BASE + type, 1);
		return true;
	}
	if (variant()->reactivate_dirty)
		return false;	/* dirty and writeback folios go to shrink_folio_list */

	/* mglru-old: dirty file and writeback folios are bumped ("ping-pong") */
	dirty = folio_test_dirty(folio);
	writeback = folio_test_writeback(folio);
	if (type == LRU_GEN_FILE && dirty) {
		sc->nr.file_taken++;
		if (!writeback)
			sc->nr.unqueued_dirty++;
	}
	if (writeback || (type == LRU_GEN_FILE && dirty)) {
		gen = folio_inc_gen(lruvec, folio, true);
		lru_gen_move(lruvec, folio, gen, false);
		return true;
	}
	return false;
}

static void isolate_folio(struct lruvec *lruvec, struct folio *folio)
{
	/* refs count only while PG_referenced is set */
	if (!folio_test_referenced(folio))
		folio->flags &= ~LRU_REFS_MASK;
	/*
	 * mglru-old clears PG_reclaim for shrink_folio_list(); the series
	 * (patch 9) keeps it: shrink_folio_list() uses it to count folios met
	 * again under writeback as congested.
	 */
	if (!variant()->reactivate_dirty)
		folio_clear_reclaim(folio);
	lru_gen_del_folio(lruvec, folio, true);
}

struct scan_result scan_folios(uint64_t nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, int type, int tier, struct flist *list)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	struct mem_cgroup *memcg = lruvec->memcg;
	struct scan_result r = { 0, 0, false };
	int sorted = 0;
	/* mglru-old clamps here; after patch 03 the callers do (<= MIN_LRU_BATCH) */
	int remaining = (int)(nr_to_scan < MAX_LRU_BATCH ? nr_to_scan : MAX_LRU_BATCH);
	bool early_stop = false;
	int gen;
	struct flist *head;
	enum vm_event_item item;

	if (get_nr_gens(lruvec, type) == MIN_NR_GENS)
		return r;
	gen = lru_gen_from_seq(lrugen->min_seq[type]);
	head = &lrugen->folios[gen][type];
	while (!flist_empty(head)) {
		struct folio *folio = folio_of(head->tail);

		r.scanned++;
		if (sort_folio(lruvec, folio, sc, tier)) {
			sorted++;
		} else {
			isolate_folio(lruvec, folio);
			flist_add(list, folio_idx(folio));
			r.isolated++;
		}
		if (!--remaining || r.isolated >= MIN_LRU_BATCH) {
			early_stop = true;
			break;
		}
	}
	/* mglru.exhaust_detect: the type's last evictable gen was scanned through */
	r.exhausted = !early_stop && lrugen->min_seq[type] + MIN_NR_GENS == lrugen->max_seq;
	charge((uint64_t)r.scanned * COST_ISOLATE_NS);

	item = sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT;
	if (!cgroup_reclaim(sc)) {
		count_vm_events(item, (uint64_t)r.isolated);
		count_vm_events(PGREFILL, (uint64_t)sorted);
	}
	count_memcg_events(memcg, item, (uint64_t)r.isolated);
	count_memcg_events(memcg, PGREFILL, (uint64_t)sorted);
	count_vm_events(PGSCAN_ANON + type, (uint64_t)r.isolated);
	if (variant()->budget_loop)
		return r;	/* patch 05: the exact count */
	/* sc->nr.file_taken (gone with patch 13) */
	if (type == LRU_GEN_FILE)
		sc->nr.file_taken += (unsigned int)r.isolated;
	/*
	 * There might not be eligible folios due to reclaim_idx: check the
	 * remaining to prevent livelock if it's not making progress. So
	 * mglru-old reports 0 whenever nothing was isolated, unless the whole
	 * batch was visited.
	 */
	if (!r.isolated && remaining)
		r.scanned = 0;
	return r;
}

/* get_tier_idx(): the last tier whose refaults do not exceed tier 0's (gain 2:3) */
int get_tier_idx(const struct lruvec *lruvec, int type)
{
	struct ctrl_pos sp, pv;
	int tier;

	/* [mglru] tiers = 0: every tier is evictable, sort_folio() protects none */
	if (ablated(MGLRU_OFF_TIERS))
		return MAX_NR_TIERS - 1;
	read_ctrl_pos(lruvec, type, 0, 2, &sp);
	for (tier = 1; tier < MAX_NR_TIERS; tier++) {
		read_ctrl_pos(lruvec, type, tier, 3, &pv);
		if (!positive_ctrl_err(&sp, &pv))
			break;
	}
	return tier - 1;
}

/* get_type_to_scan(): anon (gain swappiness) against file (gain 200 - swappiness) */
int get_type_to_scan(const struct lruvec *lruvec, int swappiness)
{
	struct ctrl_pos sp, pv;

	if (swappiness <= MIN_SWAPPINESS + 1)
		return LRU_GEN_FILE;
	if (swappiness >= MAX_SWAPPINESS)
		return LRU_GEN_ANON;
	read_ctrl_pos(lruvec, LRU_GEN_ANON, MAX_NR_TIERS, swappiness, &sp);
	read_ctrl_pos(lruvec, LRU_GEN_FILE, MAX_NR_TIERS, MAX_SWAPPINESS - swappiness, &pv);
	return positive_ctrl_err(&sp, &pv);
}

/*
 * What isolate_folios() does after a scan of `type` that isolated nothing:
 * try the other type, the same type again, or stop. The kernel's rules
 * first, then the variants of Barry Song's unmerged isolate_folios cleanup
 * (Aug 2026): an explicit retry with at most one fallback and none for
 * single-type reclaim (1/3), fallback on the last gen scanned through
 * instead of on nothing scanned (2/3), one retry of the same type when
 * isolation failed but the type is not exhausted (3/3), and the gate
 * discussed with it (fall back only if the other type has gens to spare).
 */
enum isolate_next { ISOLATE_STOP, ISOLATE_SAME, ISOLATE_OTHER };

static enum isolate_next isolate_folios_next(const struct lruvec *lruvec, int type, bool both,
					     const struct scan_result *r, bool *fell_back,
					     bool *retried)
{
	bool explicit = mglru_opts.fallback == 1 || opt(mglru_opts.exhaust_detect) ||
			opt(mglru_opts.retry_once);
	bool gated = opt(mglru_opts.fallback_gate) &&
		     get_nr_gens(lruvec, !type) <= MIN_NR_GENS + 1;
	bool fall_back;

	if (!explicit) {
		/* for_each_evictable_type(): at most two tries. mglru-old falls
		 * back when scan_folios() returned 0 (nothing isolated); budget
		 * (patch 06) only when nothing was scanned, else it tries the
		 * same type once more */
		if (!both || *fell_back)
			return ISOLATE_STOP;
		*fell_back = true;
		if (r->scanned && variant()->budget_loop)
			return ISOLATE_SAME;
		return gated ? ISOLATE_STOP : ISOLATE_OTHER;
	}
	fall_back = opt(mglru_opts.exhaust_detect) ? r->exhausted : !r->scanned;
	if (fall_back && both && !*fell_back && !gated) {
		*fell_back = true;
		return ISOLATE_OTHER;
	}
	if (opt(mglru_opts.retry_once) && !fall_back && !r->exhausted && !*retried) {
		*retried = true;
		return ISOLATE_SAME;
	}
	return ISOLATE_STOP;
}

/*
 * isolate_folios(): the type the PID controller picks, then as
 * isolate_folios_next() says. mglru-old returns the count of the scan that
 * succeeded (0 if none did); mglru-budget the folios scanned in all tries.
 */
int isolate_folios(uint64_t nr_to_scan, struct lruvec *lruvec, struct scan_control *sc,
		   int swappiness, int *type_scanned, struct flist *list, int *isolated)
{
	int type = get_type_to_scan(lruvec, swappiness);
	bool both = min_type(swappiness) != max_type(swappiness);
	bool fell_back = false, retried = false;
	int total = 0;

	*isolated = 0;
	for (;;) {
		struct scan_result r;

		*type_scanned = type;
		r = scan_folios(nr_to_scan, lruvec, sc, type, get_tier_idx(lruvec, type), list);
		total += r.scanned;
		*isolated += r.isolated;
		if (r.isolated)
			return variant()->budget_loop ? total : r.scanned;
		if (mglru_opts.fallback == 2) {
			/*
			 * 7.3-rc (mm/vmscan.c of 7.3-rc5; the commit is not
			 * identified): one more try per evictable type; after a
			 * type scanned nothing, flush its empty gens and fall
			 * back only when reclaim runs at priority 0, so a
			 * scanned but unproductive type is tried again.
			 */
			if (!both || fell_back)
				return variant()->budget_loop ? total : r.scanned;
			fell_back = true;
			if (!r.scanned) {
				try_to_inc_min_seq(lruvec, swappiness);
				if (!sc->priority)
					type = !type;
			}
			continue;
		}
		switch (isolate_folios_next(lruvec, type, both, &r, &fell_back, &retried)) {
		case ISOLATE_STOP:
			return variant()->budget_loop ? total : r.scanned;
		case ISOLATE_SAME:
			break;
		case ISOLATE_OTHER:
			type = !type;
			break;
		}
	}
}

int evict_folios(uint64_t nr_to_scan, struct lruvec *lruvec, struct scan_control *sc,
		 int swappiness, int *isolated)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct mem_cgroup *memcg = lruvec->memcg;
	struct flist list, clean;
	struct reclaim_stat stat;
	bool skip_retry = false;
	int type, scanned, nr_isolated;
	int64_t nr_iso[ANON_AND_FILE] = { 0, 0 };
	enum vm_event_item item;

	flist_init(&list);
	flist_init(&clean);
	/* patch 05: in case folio deletion left empty old gens, flush them */
	if (variant()->budget_loop)
		try_to_inc_min_seq(lruvec, swappiness);
	scanned = isolate_folios(nr_to_scan, lruvec, sc, swappiness, &type, &list, &nr_isolated);
	*isolated = nr_isolated;
	if (variant()->budget_loop) {
		/* scanning may have emptied the oldest gen, flush it */
		if (scanned)
			try_to_inc_min_seq(lruvec, swappiness);
	} else {
		scanned += try_to_inc_min_seq(lruvec, swappiness);
		/* eviction is not possible at MIN_NR_GENS: report nothing scanned */
		if (evictable_min_seq(lrugen->min_seq, swappiness) + MIN_NR_GENS > lrugen->max_seq)
			scanned = 0;
	}
	if (flist_empty(&list))
		return scanned;
	for (uint32_t idx = list.head; idx; idx = folio_of(idx)->lru_next)
		nr_iso[folio_is_file_lru(folio_of(idx))]++;
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON, nr_iso[0]);
	mod_lruvec_state(lruvec, NR_ISOLATED_FILE, nr_iso[1]);
retry:
	{
		uint64_t reclaimed = shrink_folio_list(&list, pgdat, sc, &stat, false);
		uint32_t idx;
		struct flist keep;

		sc->nr_reclaimed += reclaimed;
		if (!variant()->reactivate_dirty)
			sc->nr.unqueued_dirty += stat.nr_unqueued_dirty;
		else if (nr_isolated)
			/* patches 11, 15: the retry pass is only for clean folios */
			handle_reclaim_writeback((uint64_t)nr_isolated, pgdat, sc, &stat);
		flist_init(&keep);
		while ((idx = flist_pop_tail(&list))) {
			struct folio *folio = folio_of(idx);

			/* retry folios that may have missed folio_rotate_reclaimable() */
			if (!skip_retry && !folio_test_active(folio) && !folio_mapped(folio) &&
			    !folio_test_dirty(folio) && !folio_test_writeback(folio)) {
				flist_add(&clean, idx);
				continue;
			}
			/* don't add rejected folios to the oldest generation */
			if (lru_gen_folio_seq(lruvec, folio, false) == lrugen->min_seq[type])
				folio->flags = (folio->flags & ~LRU_REFS_FLAGS) | (1U << PG_active);
			flist_add(&keep, idx);
		}
		/* move_folios_to_lru() */
		while ((idx = flist_pop_tail(&keep)))
			lru_gen_add_folio(lruvec, folio_of(idx), false);
		item = sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT;
		if (!cgroup_reclaim(sc))
			count_vm_events(item, reclaimed);
		count_memcg_events(memcg, item, reclaimed);
		count_vm_events(PGSTEAL_ANON + type, reclaimed);
	}
	if (!flist_empty(&clean)) {
		flist_splice(&clean, &list);
		skip_retry = true;
		nr_isolated = 0;
		goto retry;
	}
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON, -nr_iso[0]);
	mod_lruvec_state(lruvec, NR_ISOLATED_FILE, -nr_iso[1]);
	return scanned;
}

/* lruvec_evictable_size() (patch 01): every gen of every evictable type */
static uint64_t lruvec_evictable_size(const struct lruvec *lruvec, int swappiness)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint64_t size = 0;
	int type;

	for_each_evictable_type(type, swappiness) {
		for (uint64_t seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++) {
			int64_t n = lrugen->nr_pages[lru_gen_from_seq(seq)][type];

			size += n > 0 ? (uint64_t)n : 0;
		}
	}
	return size;
}

bool should_run_aging(const struct lruvec *lruvec, const struct scan_control *sc,
		      int swappiness, uint64_t *nr_to_scan)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint64_t min = evictable_min_seq(lrugen->min_seq, swappiness);

	if (nr_to_scan)
		*nr_to_scan = 0;
	/* have to run aging, since eviction is not possible anymore */
	if (min + MIN_NR_GENS > lrugen->max_seq)
		return true;
	if (variant()->budget_loop) {
		/* try to avoid aging, do gentle reclaim at the default priority */
		if (sc->priority == DEF_PRIORITY)
			return false;
	} else if (nr_to_scan) {
		*nr_to_scan = lruvec_evictable_size(lruvec, swappiness);
	}
	/* better to run aging even though eviction is still possible */
	return min + MIN_NR_GENS == lrugen->max_seq;
}

/*
 * get_nr_to_scan(). mglru-old, recomputed on every pass: -1 rotate, 0 stop
 * (after aging, or nothing to do at the default priority with 2 gens),
 * else a target. mglru-budget (patch 04), once at loop entry: the
 * evictable size scaled by protection, >> priority (all of it for an
 * offline memcg).
 */
static long get_nr_to_scan(struct lruvec *lruvec, struct scan_control *sc, int swappiness)
{
	struct mem_cgroup *memcg = lruvec->memcg;
	uint64_t max_seq = lrugen_of(lruvec)->max_seq, nr_to_scan;
	bool success;

	if (variant()->budget_loop) {
		uint64_t evictable = lruvec_evictable_size(lruvec, swappiness);

		/* try to scrape all its memory if this memcg was deleted */
		if (!memcg->online)
			return (long)evictable;
		return (long)(apply_proportional_protection(memcg, sc, evictable) >> sc->priority);
	}
	if (mem_cgroup_below_min(sc->target_mem_cgroup, memcg))
		return -1;
	success = should_run_aging(lruvec, sc, swappiness, &nr_to_scan);
	/* try to scrape all its memory if this memcg was deleted */
	if (nr_to_scan && !memcg->online)
		return (long)nr_to_scan;
	nr_to_scan = apply_proportional_protection(memcg, sc, nr_to_scan);
	/* try to get away with not aging at the default priority */
	if (!success || sc->priority == DEF_PRIORITY)
		return (long)(nr_to_scan >> sc->priority);
	/* stop scanning this lruvec as it's low on cold folios */
	return try_to_inc_max_seq(lruvec, max_seq, swappiness, sc) ? -1 : 0;
}

static bool should_abort_scan(struct lruvec *lruvec, struct scan_control *sc)
{
	struct numa_node *n;

	/*
	 * Don't abort memcg reclaim to ensure fairness. (Late-2026 trees lost
	 * this gate; the change is not from the series and is not modelled.)
	 */
	if (!root_reclaim(sc))
		return false;
	/* compact_gap(order) is 2 pages at order 0 */
	if (sc->nr_reclaimed >= (sc->nr_to_reclaim > 2 ? sc->nr_to_reclaim : 2))
		return true;
	if (!sc->kswapd)
		return false;
	/* kswapd aborts once the node is safely above the high watermark */
	n = lruvec_pgdat(lruvec)->node;
	return n->nr_free > n->wmark[WMARK_HIGH] + MIN_LRU_BATCH;
}

/* try_to_shrink_lruvec() of mglru-old: returns whether to rotate the lruvec */
static bool try_to_shrink_lruvec_old(struct lruvec *lruvec, struct scan_control *sc)
{
	int swappiness = get_swappiness(lruvec, sc);
	uint64_t scanned = 0;
	long nr_to_scan;

	for (;;) {
		int delta, isolated;

		nr_to_scan = get_nr_to_scan(lruvec, sc, swappiness);
		if (nr_to_scan <= 0)
			break;
		delta = evict_folios((uint64_t)nr_to_scan, lruvec, sc, swappiness, &isolated);
		if (!delta)
			break;
		scanned += (uint64_t)delta;
		if (scanned >= (uint64_t)nr_to_scan)
			break;
		if (should_abort_scan(lruvec, sc))
			break;
		actor_cond_resched(sc->actor);
	}
	/*
	 * If too many file cache in the coldest generation can't be evicted
	 * due to being dirty, wake up the flusher: once, on counters summed
	 * over the whole shrink_node() pass (every lruvec visited so far).
	 */
	if (sc->nr.unqueued_dirty && sc->nr.unqueued_dirty == sc->nr.file_taken)
		wakeup_flusher_threads();
	return nr_to_scan < 0;
}

/*
 * try_to_shrink_lruvec() of mglru-budget (patches 04, 07, 08): the budget
 * is set once; each pass ages first if should_run_aging() says so, then
 * evicts one batch of min(budget, MIN_LRU_BATCH) and takes off what it
 * scanned. It ends when a batch scanned nothing, on should_abort_scan(),
 * or, in root reclaim only, once it has aged (to rotate the memcg LRU).
 */
static bool try_to_shrink_lruvec_budget(struct lruvec *lruvec, struct scan_control *sc)
{
	struct mem_cgroup *memcg = lruvec->memcg;
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int swappiness = get_swappiness(lruvec, sc);
	bool need_rotate = false, should_age = false;
	long nr_to_scan = get_nr_to_scan(lruvec, sc, swappiness);

	while (nr_to_scan > 0) {
		uint64_t max_seq = lrugen->max_seq;
		long nr_batch = nr_to_scan < MIN_LRU_BATCH ? nr_to_scan : MIN_LRU_BATCH;
		int delta, isolated;

		if (mem_cgroup_below_min(sc->target_mem_cgroup, memcg)) {
			need_rotate = true;
			break;
		}
		if (should_run_aging(lruvec, sc, swappiness, NULL)) {
			if (try_to_inc_max_seq(lruvec, max_seq, swappiness, sc))
				need_rotate = true;
			should_age = true;
		}
		delta = evict_folios((uint64_t)nr_batch, lruvec, sc, swappiness, &isolated);
		if (!delta)
			break;
		if (should_abort_scan(lruvec, sc))
			break;
		/* root reclaim needs rotation when low on cold folios, for fairness;
		 * cgroup reclaim gets fairness from the iterator */
		if (root_reclaim(sc) && should_age)
			break;
		nr_to_scan -= delta;
		actor_cond_resched(sc->actor);
	}
	return need_rotate;
}

bool try_to_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	return variant()->budget_loop ? try_to_shrink_lruvec_budget(lruvec, sc)
				      : try_to_shrink_lruvec_old(lruvec, sc);
}

static bool lruvec_is_sizable(struct lruvec *lruvec, struct scan_control *sc)
{
	uint64_t total = lruvec_evictable_size(lruvec, get_swappiness(lruvec, sc));

	/* whether the size is big enough to be helpful */
	return lruvec->memcg->online ? (total >> sc->priority) != 0 : total != 0;
}

static int shrink_one(struct lruvec *lruvec, struct scan_control *sc)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	struct mem_cgroup *memcg = lruvec->memcg;
	bool success;

	/* the walk, protection and shrink_slab of one memcg */
	charge(COST_MEMCG_VISIT_NS);
	/* lru_gen_age_node() computed the protection */
	if (mem_cgroup_below_min(NULL, memcg))
		return MEMCG_LRU_YOUNG;
	if (mem_cgroup_below_low(NULL, memcg)) {
		if (lrugen->seg != MEMCG_LRU_TAIL)
			return MEMCG_LRU_TAIL;
		memcg_memory_event(memcg, MEMCG_LOW);
	}
	success = try_to_shrink_lruvec(lruvec, sc);
	if (success && memcg->online)
		return MEMCG_LRU_YOUNG;
	if (!success && lruvec_is_sizable(lruvec, sc))
		return 0;
	/* one retry if offlined or too small */
	return lrugen->seg != MEMCG_LRU_TAIL ? MEMCG_LRU_TAIL : MEMCG_LRU_YOUNG;
}

/*
 * shrink_many(): the old generation of the memcg LRU, from a random bin,
 * every bin once; each memcg's outcome rotates it.
 */
static void shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct memcg_lru *lru = memcg_lru_of(pgdat);
	int gen = get_memcg_gen(lru->seq);
	int first_bin = (int)rng_below(&mm.rng, MEMCG_NR_BINS), bin = first_bin;

	do {
		struct lruvec_vec *v = &lru->fifo[gen][bin];
		struct lruvec *snap[MAX_MEMCGS];
		int nr = v->nr < MAX_MEMCGS ? v->nr : MAX_MEMCGS;

		if (nr)
			memcpy(snap, v->v, (size_t)nr * sizeof(*snap));
		for (int i = 0; i < nr; i++) {
			struct lruvec *lruvec = snap[i];
			int op;

			if (lrugen_of(lruvec)->gen != gen)
				continue;
			op = shrink_one(lruvec, sc);
			if (op)
				lru_gen_rotate_memcg(lruvec, op);
			if (should_abort_scan(lruvec, sc))
				return;
		}
		bin = (bin + 1) % MEMCG_NR_BINS;
	} while (bin != first_bin);
}

/*
 * [mglru] memcg_lru = 0: root reclaim as before the memcg LRU (Linux 6.3):
 * shrink_node_memcgs() over the memcgs in mem_cgroup_iter() order, with
 * its protection rules; nothing is rotated.
 */
static void shrink_memcgs_in_order(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mem_cgroup *memcg = NULL;

	while ((memcg = mem_cgroup_iter(NULL, memcg))) {
		charge(COST_MEMCG_VISIT_NS);
		actor_cond_resched(sc->actor);
		mem_cgroup_calculate_protection(NULL, memcg);
		if (mem_cgroup_below_min(NULL, memcg))
			continue;
		if (mem_cgroup_below_low(NULL, memcg)) {
			if (!sc->memcg_low_reclaim) {
				sc->memcg_low_skipped = true;
				continue;
			}
			memcg_memory_event(memcg, MEMCG_LOW);
		}
		try_to_shrink_lruvec(mem_cgroup_lruvec(memcg, pgdat), sc);
	}
}

/* set_initial_priority(): (reclaimable >> priority) ~ nr_to_reclaim, in [6, 12] */
static void set_initial_priority(struct pglist_data *pgdat, struct scan_control *sc)
{
	uint64_t reclaimable;
	int priority;

	if (sc->priority != DEF_PRIORITY || sc->nr_to_reclaim < MIN_LRU_BATCH)
		return;
	reclaimable = node_page_state(pgdat, NR_INACTIVE_FILE);
	if (can_reclaim_anon_pages(NULL, pgdat->node_id, sc))
		reclaimable += node_page_state(pgdat, NR_INACTIVE_ANON);
	/* fls_long(reclaimable) - 1 - fls_long(nr_to_reclaim - 1) */
	priority = (reclaimable ? 63 - __builtin_clzll(reclaimable) : -1) -
		   (sc->nr_to_reclaim > 1 ? 64 - __builtin_clzll(sc->nr_to_reclaim - 1) : 0);
	if (priority < DEF_PRIORITY / 2)
		priority = DEF_PRIORITY / 2;
	if (priority > DEF_PRIORITY)
		priority = DEF_PRIORITY;
	sc->priority = priority;
}

/*
 * lru_gen_shrink_node(): root reclaim through the memcg LRU. shrink_node()
 * returns right after it: root MGLRU reclaim has no dirty, writeback or
 * congestion throttling, before the series and after it.
 */
static void lru_gen_shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	uint64_t reclaimed = sc->nr_reclaimed;

	memset(&sc->nr, 0, sizeof(sc->nr));
	/* unmapped clean folios are already prioritized: scanning for more of
	 * them is likely futile */
	if (!sc->may_writepage || !sc->may_unmap)
		goto done;
	/* set_mm_walk(pgdat, sc->proactive): kswapd's own, or allocated */
	sc->mm_walk = sc->kswapd || sc->proactive;
	set_initial_priority(pgdat, sc);
	if (sc->kswapd)
		sc->nr_reclaimed = 0;
	if (ablated(MGLRU_OFF_MEMCG_LRU))
		shrink_memcgs_in_order(pgdat, sc);
	else
		shrink_many(pgdat, sc);
	if (sc->kswapd)
		sc->nr_reclaimed += reclaimed;
	sc->mm_walk = false;	/* clear_mm_walk() */
done:
	if (sc->nr_reclaimed > reclaimed)
		pgdat->kswapd_failures = 0;
}

/* lru_gen_shrink_lruvec(): memcg-limit reclaim of one lruvec */
static void lru_gen_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	/* set_mm_walk(NULL, sc->proactive) */
	sc->mm_walk = sc->proactive;
	if (try_to_shrink_lruvec(lruvec, sc) && !ablated(MGLRU_OFF_MEMCG_LRU))
		lru_gen_rotate_memcg(lruvec, MEMCG_LRU_YOUNG);
	sc->mm_walk = false;	/* clear_mm_walk() */
}

static bool lruvec_is_reclaimable(struct lruvec *lruvec, struct scan_control *sc,
				  uint64_t min_ttl)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int swappiness = get_swappiness(lruvec, sc);
	uint64_t birth;

	if (mem_cgroup_below_min(NULL, lruvec->memcg))
		return false;
	if (!lruvec_is_sizable(lruvec, sc))
		return false;
	birth = lrugen->timestamps[lru_gen_from_seq(evictable_min_seq(lrugen->min_seq,
								      swappiness))];
	return birth + min_ttl < now_ns();
}

/* lru_gen_age_node(): kswapd; OOM if every lruvec is younger than min_ttl */
static void lru_gen_age_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	uint64_t min_ttl = mglru_opts.min_ttl_ns;
	bool reclaimable = !min_ttl;
	struct mem_cgroup *memcg = NULL;

	set_initial_priority(pgdat, sc);
	while ((memcg = mem_cgroup_iter(NULL, memcg))) {
		mem_cgroup_calculate_protection(NULL, memcg);
		if (!reclaimable)
			reclaimable = lruvec_is_reclaimable(mem_cgroup_lruvec(memcg, pgdat), sc,
							    min_ttl);
	}
	if (!reclaimable)
		out_of_memory(NULL, sc->actor);
}

/* ================================================================
 * workingset: the MGLRU shadow token
 * ================================================================ */

static uint64_t lru_gen_eviction(struct folio *folio, struct mem_cgroup *target_memcg)
{
	struct lruvec *lruvec = folio_lruvec(folio);
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int type = folio_is_file_lru(folio);
	int refs = folio_lru_refs(folio);
	bool workingset = folio_test_workingset(folio);
	uint64_t min_seq = lrugen->min_seq[type];
	uint64_t token = (min_seq << LRU_REFS_WIDTH) | (uint64_t)(refs > 1 ? refs - 1 : 0);

	(void)target_memcg;	/* MGLRU records the folio's own lruvec */

	lrugen->evicted[type][lru_tier_from_refs(refs, workingset)]++;
	lrugen->stats.evicted[type][lru_tier_from_refs(refs, workingset)]++;
	return pack_shadow(folio->memcg_id, folio->nid, token, workingset);
}

/*
 * lru_gen_test_recent(): within MAX_NR_GENS of the current max_seq; before
 * 6.14 ("mm/mglru: rework refault detection") only while the gen the folio
 * was evicted from is still the type's min_seq.
 */
static bool lru_gen_test_recent(uint64_t shadow, int type, struct lruvec **lruvec,
				uint64_t *token, bool *workingset)
{
	unsigned short memcgid;
	int nid;
	uint64_t max_seq, seq;

	unpack_shadow(shadow, &memcgid, &nid, token, workingset);
	if (!memcgid || memcgid > mm.nr_memcgs || nid >= mm.machine.nr_nodes) {
		*lruvec = NULL;
		return false;
	}
	*lruvec = mm.memcgs[memcgid]->lruvec[nid];
	seq = *token >> LRU_REFS_WIDTH;
	if (!mm.kernel->lru_gen_recent_max_seq)
		return seq == (lrugen_of(*lruvec)->min_seq[type] & (EVICTION_MASK >> LRU_REFS_WIDTH));
	max_seq = lrugen_of(*lruvec)->max_seq & (EVICTION_MASK >> LRU_REFS_WIDTH);
	return (max_seq > seq ? max_seq - seq : seq - max_seq) < MAX_NR_GENS;
}

static void lru_gen_refault(struct folio *folio, uint64_t shadow)
{
	int type = folio_is_file_lru(folio);
	struct lruvec *lruvec;
	uint64_t token;
	bool workingset, recent;
	int refs, tier;

	recent = lru_gen_test_recent(shadow, type, &lruvec, &token, &workingset);
	if (lruvec != folio_lruvec(folio))
		return;
	/* every refault counts since 6.5, only a recent one before */
	if (mm.kernel->lru_gen_refault_all || recent)
		mod_lruvec_state(lruvec, WORKINGSET_REFAULT_BASE + type, 1);
	if (!recent)
		return;
	refs = (int)(token & ((1U << LRU_REFS_WIDTH) - 1)) + 1;
	tier = lru_tier_from_refs(refs, workingset);
	lrugen_of(lruvec)->refaulted[type][tier]++;
	lrugen_of(lruvec)->stats.refaulted[type][tier]++;
	if (!mm.kernel->lru_gen_activate_in_fault) {
		/*
		 * Before 6.14 (4d5d14a01e2c): 6.5 to 6.13 count every recent
		 * refault as activated; a refault in a fault, or of a folio
		 * read through file descriptors 3 times (token refs plus
		 * PG_workingset), restores it: PG_workingset and every refs
		 * bit set. The tiers themselves stay those of 6.14 (README).
		 */
		int old_refs = (int)(token & ((1U << LRU_REFS_WIDTH) - 1)) + workingset;

		if (mm.kernel->lru_gen_refault_all)
			mod_lruvec_state(lruvec, WORKINGSET_ACTIVATE_BASE + type, 1);
		if (mm.in_lru_fault || old_refs >= (1 << LRU_REFS_WIDTH) - 1) {
			folio->flags |= LRU_REFS_MASK;
			folio_set_workingset(folio);
			mod_lruvec_state(lruvec, WORKINGSET_RESTORE_BASE + type, 1);
		}
		return;
	}
	/* folio_add_lru() sets it active in a fault (6cbdd9726fb5: only the
	 * workingset) */
	if (mm.in_lru_fault && (!variant()->fault_mark_accessed || workingset))
		mod_lruvec_state(lruvec, WORKINGSET_ACTIVATE_BASE + type, 1);
	if (workingset) {
		folio_set_workingset(folio);
		mod_lruvec_state(lruvec, WORKINGSET_RESTORE_BASE + type, 1);
	} else {
		folio->flags = (folio->flags & ~LRU_REFS_MASK) |
			       ((uint32_t)(refs - 1) << LRU_REFS_PGOFF);
	}
}

/* ================================================================
 * init, invariants, debugfs-style dump
 * ================================================================ */

static int mglru_lruvec_init(struct lruvec *lruvec)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct lru_gen_folio *lrugen = calloc(1, sizeof(*lrugen));

	if (!lrugen)
		return -1;
	lruvec->lrupriv = lrugen;
	lrugen->max_seq = MIN_NR_GENS + 1;
	for (int i = 0; i <= MIN_NR_GENS + 1; i++)
		lrugen->timestamps[i] = now_ns();
	lrugen->mm_seq = MIN_NR_GENS;
	lrugen->mm_head = -1;
	if (!pgdat->lrupriv) {
		pgdat->lrupriv = calloc(1, sizeof(struct memcg_lru));
		if (!pgdat->lrupriv)
			return -1;
	}
	lru_gen_online_lruvec(lruvec);
	return 0;
}

static void mglru_lruvec_exit(struct lruvec *lruvec)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	struct memcg_lru *lru = memcg_lru_of(lruvec_pgdat(lruvec));

	if (!lrugen)
		return;
	if (lru) {
		vec_del(&lru->fifo[lrugen->gen][lrugen->bin], lruvec);
		lru->nr_memcgs[lrugen->gen]--;
		if (!lru->nr_memcgs[0] && !lru->nr_memcgs[1] && !lru->nr_memcgs[2]) {
			for (int g = 0; g < MEMCG_NR_GENS; g++)
				for (int b = 0; b < MEMCG_NR_BINS; b++)
					free(lru->fifo[g][b].v);
		}
	}
	for (int i = 0; i < NR_BLOOM_FILTERS; i++)
		free(lrugen->filters[i]);
	free(lrugen);
	lruvec->lrupriv = NULL;
}

static int mglru_check_lruvec(struct lruvec *lruvec, uint64_t nr_listed[NR_LRU_LISTS],
			      char *err, size_t len)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	int64_t by_gen[MAX_NR_GENS][ANON_AND_FILE] = { { 0 } };

	for (int type = 0; type < ANON_AND_FILE; type++) {
		int nr_gens = get_nr_gens(lruvec, type);

		if (nr_gens < MIN_NR_GENS || nr_gens > MAX_NR_GENS) {
			snprintf(err, len, "memcg '%s' node %d: type %d has %d gens",
				 lruvec->memcg->name, lruvec->nid, type, nr_gens);
			return -1;
		}
	}
	for (int gen = 0; gen < MAX_NR_GENS; gen++) {
		for (int type = 0; type < ANON_AND_FILE; type++) {
			struct flist *l = &lrugen->folios[gen][type];
			uint64_t n = 0;

			for (uint32_t idx = l->head; idx; idx = folio_of(idx)->lru_next) {
				struct folio *folio = folio_of(idx);
				int fgen = folio_lru_gen(folio);
				uint64_t seq;
				bool live = false;

				if (!folio_test_lru(folio) || fgen < 0 || folio->lru != gen ||
				    folio_is_file_lru(folio) != type ||
				    folio->memcg_id != lruvec->memcg->id || folio->nid != lruvec->nid) {
					snprintf(err, len, "memcg '%s' node %d: folio %u on gen %d "
						 "type %d has flags %#x", lruvec->memcg->name,
						 lruvec->nid, idx, gen, type, folio->flags);
					return -1;
				}
				for (seq = lrugen->min_seq[type]; seq <= lrugen->max_seq; seq++)
					live |= lru_gen_from_seq(seq) == fgen;
				/* the kernel keeps this only while every retired gen
				 * was sorted (see unsorted_retire) */
				if (!live && !lrugen->unsorted_retire[type]) {
					snprintf(err, len, "memcg '%s' node %d: folio %u in gen %d "
						 "outside [min_seq, max_seq]", lruvec->memcg->name,
						 lruvec->nid, idx, fgen);
					return -1;
				}
				by_gen[fgen][type]++;
				nr_listed[type * LRU_FILE +
					  (lru_gen_is_active(lruvec, fgen) ? LRU_ACTIVE : 0)]++;
				if (++n > l->nr) {
					snprintf(err, len, "gen list longer than its count");
					return -1;
				}
			}
			if (n != l->nr) {
				snprintf(err, len, "memcg '%s' node %d gen %d type %d: %llu listed, "
					 "nr says %llu", lruvec->memcg->name, lruvec->nid, gen, type,
					 (unsigned long long)n, (unsigned long long)l->nr);
				return -1;
			}
		}
	}
	for (int gen = 0; gen < MAX_NR_GENS; gen++)
		for (int type = 0; type < ANON_AND_FILE; type++)
			if (by_gen[gen][type] != lrugen->nr_pages[gen][type]) {
				snprintf(err, len, "memcg '%s' node %d: nr_pages[%d][%d] = %lld but "
					 "%lld folios carry that gen", lruvec->memcg->name,
					 lruvec->nid, gen, type,
					 (long long)lrugen->nr_pages[gen][type],
					 (long long)by_gen[gen][type]);
				return -1;
			}
	return 0;
}

void lru_gen_report(const struct lruvec *lruvec, policy_stat_fn add, void *ctx)
{
	static const char *const type_name[ANON_AND_FILE] = { "anon", "file" };
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	char key[48];

	/* max_seq starts at MIN_NR_GENS + 1 and min_seq at 0 (lru_gen_init_lruvec) */
	add(ctx, "inc_max_seq", lrugen->max_seq - (MIN_NR_GENS + 1));
	for (int type = 0; type < ANON_AND_FILE; type++) {
		snprintf(key, sizeof(key), "inc_min_seq_%s", type_name[type]);
		add(ctx, key, lrugen->min_seq[type]);
	}
	for (int type = 0; type < ANON_AND_FILE; type++) {
		for (int tier = 0; tier < MAX_NR_TIERS; tier++) {
			snprintf(key, sizeof(key), "%s_tier%d_evicted", type_name[type], tier);
			add(ctx, key, lrugen->stats.evicted[type][tier]);
			snprintf(key, sizeof(key), "%s_tier%d_refaulted", type_name[type], tier);
			add(ctx, key, lrugen->stats.refaulted[type][tier]);
			snprintf(key, sizeof(key), "%s_tier%d_protected", type_name[type], tier);
			add(ctx, key, lrugen->stats.protected[type][tier]);
		}
	}
}

/* The format of /sys/kernel/debug/lru_gen */
static void mglru_print_state(struct lruvec *lruvec, policy_print_fn out, void *ctx)
{
	struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint64_t now = engine_clock_ns();
	uint64_t seq = lrugen->min_seq[0] < lrugen->min_seq[1] ? lrugen->min_seq[0]
							       : lrugen->min_seq[1];
	char line[160];

	if (lruvec->nid == 0) {
		snprintf(line, sizeof(line), "memcg %5u /%s", lruvec->memcg->id,
			 lruvec->memcg->name);
		out(ctx, line);
	}
	snprintf(line, sizeof(line), " node %5d", lruvec->nid);
	out(ctx, line);
	for (; seq <= lrugen->max_seq; seq++) {
		int gen = lru_gen_from_seq(seq);
		uint64_t birth = lrugen->timestamps[gen];
		int64_t anon = lrugen->nr_pages[gen][0], file = lrugen->nr_pages[gen][1];

		snprintf(line, sizeof(line), " %10llu %10llu %10lld %10lld",
			 (unsigned long long)seq,
			 (unsigned long long)(now > birth ? (now - birth) / NSEC_PER_MSEC : 0),
			 (long long)(seq >= lrugen->min_seq[0] && anon > 0 ? anon : 0),
			 (long long)(seq >= lrugen->min_seq[1] && file > 0 ? file : 0));
		out(ctx, line);
	}
}

/*
 * The --sample row of an lruvec: its generations, oldest first, as the
 * debugfs file has them (age_ms: now - lrugen->timestamps[gen]).
 */
static void mglru_sample_state(const struct lruvec *lruvec, uint64_t now,
			       struct policy_gens_sample *row)
{
	const struct lru_gen_folio *lrugen = lrugen_of(lruvec);
	uint64_t seq = lrugen->min_seq[0] < lrugen->min_seq[1] ? lrugen->min_seq[0]
							       : lrugen->min_seq[1];

	row->max_seq = lrugen->max_seq;
	row->min_seq[0] = lrugen->min_seq[0];
	row->min_seq[1] = lrugen->min_seq[1];
	for (uint64_t q = seq; q <= lrugen->max_seq && row->nr_gens < MAX_NR_GENS; q++) {
		int gen = lru_gen_from_seq(q);
		uint64_t birth = lrugen->timestamps[gen];

		row->gen[row->nr_gens].seq = q;
		row->gen[row->nr_gens].age_ms = now > birth ? (now - birth) / NSEC_PER_MSEC : 0;
		row->gen[row->nr_gens].anon = lrugen->nr_pages[gen][0];
		row->gen[row->nr_gens].file = lrugen->nr_pages[gen][1];
		row->nr_gens++;
	}
}

/* ---- the [mglru] knobs ---- */

/*
 * The section as written: /sys/kernel/mm/lru_gen's files, the
 * isolate_folios variants and the ablation switches; mglru_knobs_set()
 * makes the run's mglru_opts of it.
 */
struct mglru_knob_values {
	int enabled;			/* lru_gen/enabled: LRU_GEN_* capability bits */
	int fallback;			/* -1 default, 0 scanned0, 1 explicit, 2 priority0 */
	int exhaust_detect;		/* -1 default, 0 or 1 */
	int retry_once;			/* -1 default, 0 or 1 */
	int fallback_gate;		/* -1 default, 0 or 1 */
	uint64_t min_ttl_ns;		/* lru_gen/min_ttl_ms, in ns (a period: scaled) */
	/* ablation switches (1: the kernel's mechanism, 0: removed) */
	bool walk, look_around, bloom_filter, tiers, memcg_lru;
};

/* CONFIG_LRU_GEN_ENABLED on x86: every capability (0x0007); every mechanism on */
static const struct mglru_knob_values mglru_knob_defaults = {
	.enabled = LRU_GEN_CAPS_ALL, .fallback = -1, .exhaust_detect = -1, .retry_once = -1,
	.fallback_gate = -1, .walk = 1, .look_around = 1, .bloom_filter = 1, .tiers = 1,
	.memcg_lru = 1,
};

/* lru_gen_enabled store: 'y' or 'n', else kstrtouint(buf, 0); what the model can run */
static int parse_lru_gen_caps(const char *value, void *field, char *why, size_t len)
{
	unsigned long caps;
	char *end;

	if (!strcmp(value, "y")) {
		caps = LRU_GEN_CAPS_ALL;
	} else if (!strcmp(value, "n")) {
		caps = 0;
	} else {
		errno = 0;
		caps = strtoul(value, &end, 0);
		if (end == value || *end || errno || value[0] == '-')
			return -1;
	}
	if (caps & ~(unsigned long)LRU_GEN_CAPS_ALL) {
		snprintf(why, len, "has bits beyond 0x0007 (core, mm walk, non-leaf young)");
		return -1;
	}
	if (!(caps & LRU_GEN_CORE)) {
		snprintf(why, len, "turns MGLRU off (no 0x0001): the kernel then runs the classic "
			 "LRU, --policy classic");
		return -1;
	}
	if (!(caps & LRU_GEN_NONLEAF_YOUNG)) {
		snprintf(why, len, "clears 0x0004 (non-leaf young): not modelled, the model keeps no "
			 "PMD accessed bits and its walk is that of 0x0004 set");
		return -1;
	}
	*(int *)field = (int)caps;
	return 0;
}

/* isolate_folios variants, in mglru_opts.fallback order */
static const char *const fallback_names[] = { "scanned0", "explicit", "priority0", NULL };

#define MK(k, t, sc, f, lo, hi, what, doc) SCN_KEY(k, t, sc, struct mglru_knob_values, f, lo, hi, what, doc)
static const struct key_desc mglru_keys[] = {
	SCN_CHOICE("fallback", struct mglru_knob_values, fallback, fallback_names,
		   "scanned0, explicit or priority0",
		   "isolate_folios variant: scanned0 (7.2), explicit, or priority0 (7.3-rc)"),
	MK("exhaust_detect", KT_TRISTATE, KEY_UNSCALED, exhaust_detect, 0, 0, "0 or 1",
	   "isolate_folios variant: fall back once the last gen ran dry"),
	MK("retry_once", KT_TRISTATE, KEY_UNSCALED, retry_once, 0, 0, "0 or 1",
	   "isolate_folios variant: retry the same type once"),
	MK("fallback_gate", KT_TRISTATE, KEY_UNSCALED, fallback_gate, 0, 0, "0 or 1",
	   "isolate_folios variant: fall back only past MIN_NR_GENS + 1 gens"),
	/* /sys/kernel/mm/lru_gen/min_ttl_ms: milliseconds, a period (scaled) */
	MK("min_ttl_ms", KT_MSECS, KEY_PERIOD, min_ttl_ns, 0, 4294967295.0, "whole milliseconds",
	   "lru_gen/min_ttl_ms: OOM-kill before evicting a younger gen (0: off)"),
	/* /sys/kernel/mm/lru_gen/enabled */
	SCN_PARSE("enabled", struct mglru_knob_values, enabled, parse_lru_gen_caps,
		  "y, n or a mask of 0x0001 (core), 0x0002 (mm walk), 0x0004 (non-leaf young)",
		  "lru_gen/enabled: y, or 0x1 core | 0x2 mm walk | 0x4 non-leaf young (0x0007)"),
	/* ablation switches (issue 33): 1 is the kernel, 0 removes the mechanism */
	MK("walk", KT_BOOL, KEY_UNSCALED, walk, 0, 0, "0 or 1",
	   "ablation: the aging walks page tables (try_to_inc_max_seq; default 1)"),
	MK("look_around", KT_BOOL, KEY_UNSCALED, look_around, 0, 0, "0 or 1",
	   "ablation: eviction looks around a young PTE (lru_gen_look_around; default 1)"),
	MK("bloom_filter", KT_BOOL, KEY_UNSCALED, bloom_filter, 0, 0, "0 or 1",
	   "ablation: the walk skips PTE tables not in the Bloom filter (default 1)"),
	MK("tiers", KT_BOOL, KEY_UNSCALED, tiers, 0, 0, "0 or 1",
	   "ablation: the PID controller protects tiers (get_tier_idx; default 1)"),
	MK("memcg_lru", KT_BOOL, KEY_UNSCALED, memcg_lru, 0, 0, "0 or 1",
	   "ablation: root reclaim walks the memcg LRU (shrink_many; default 1)"),
	SCN_RETIRED("min_ttl", "min_ttl was in seconds (min_ttl = 1000 meant 1000 s); the "
		    "kernel's knob is min_ttl_ms, in milliseconds (min_ttl_ms = 1000 is 1 s)"),
	{ 0 }
};
#undef MK

static void mglru_knobs_set(const void *values)
{
	const struct mglru_knob_values *v = values;

	mglru_opts = (struct mglru_opts){
		.fallback = v->fallback,
		.exhaust_detect = v->exhaust_detect,
		.retry_once = v->retry_once,
		.fallback_gate = v->fallback_gate,
		.min_ttl_ns = v->min_ttl_ns,
		.enabled = v->enabled,
		.off = (v->walk ? 0 : MGLRU_OFF_WALK) |
		       (v->look_around ? 0 : MGLRU_OFF_LOOK_AROUND) |
		       (v->bloom_filter ? 0 : MGLRU_OFF_BLOOM_FILTER) |
		       (v->tiers ? 0 : MGLRU_OFF_TIERS) |
		       (v->memcg_lru ? 0 : MGLRU_OFF_MEMCG_LRU),
	};
}

const struct policy_knobs mglru_knobs = {
	.section = "mglru",
	.desc = "/sys/kernel/mm/lru_gen, and isolate_folios variants",
	.keys = mglru_keys,
	.size = sizeof(struct mglru_knob_values),
	.defaults = &mglru_knob_defaults,
	.set = mglru_knobs_set,
};

static const struct lru_gen_variant mglru_old_variant = {
	.budget_loop = false,
	.reactivate_dirty = false,
};

static const struct lru_gen_variant mglru_budget_variant = {
	.budget_loop = true,
	.reactivate_dirty = true,
};

static const struct lru_gen_variant mglru_72_variant = {
	.budget_loop = true,
	.reactivate_dirty = true,
	.fault_mark_accessed = true,
};

#define MGLRU_POLICY_OPS                                        \
	.lruvec_init = mglru_lruvec_init,                       \
	.lruvec_exit = mglru_lruvec_exit,                       \
	.folio_add = mglru_folio_add,                           \
	.folio_del = mglru_folio_del,                           \
	.folio_putback = mglru_folio_putback,                   \
	.folio_rotate = mglru_folio_rotate,                     \
	.folio_mark_accessed = lru_gen_inc_refs,                \
	.shrink_lruvec = lru_gen_shrink_lruvec,                 \
	.shrink_node = lru_gen_shrink_node,                     \
	.age_node = lru_gen_age_node,                           \
	.check_references = lru_gen_check_references,           \
	.workingset_eviction = lru_gen_eviction,                \
	.workingset_refault = lru_gen_refault,                  \
	.check_lruvec = mglru_check_lruvec,                     \
	.print_state = mglru_print_state,                       \
	.knobs = &mglru_knobs,                                  \
	.stats_name = "lru_gen",                                \
	.report_stats = lru_gen_report,                         \
	.sample_kind = "gens",                                  \
	.sample_state = mglru_sample_state

const struct reclaim_policy mglru_old_policy = {
	.abi = MMEMU_POLICY_ABI,
	.name = "mglru-old",
	.desc = "multi-gen LRU as in mainline before 2026",
	MGLRU_POLICY_OPS,
	.variant = &mglru_old_variant,
};

const struct reclaim_policy mglru_budget_policy = {
	.abi = MMEMU_POLICY_ABI,
	.name = "mglru-budget",
	.desc = "multi-gen LRU after the 2026 reclaim-loop series",
	MGLRU_POLICY_OPS,
	.variant = &mglru_budget_variant,
};

const struct reclaim_policy mglru_72_policy = {
	.abi = MMEMU_POLICY_ABI,
	.name = "mglru-7.2",
	.desc = "multi-gen LRU of Linux 7.2: the series plus 6cbdd9726fb5 (fault-time placement)",
	MGLRU_POLICY_OPS,
	.variant = &mglru_72_variant,
};
