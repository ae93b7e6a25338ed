/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Anonymous faults and zaps, as in mm/memory.c: an access to anonymous
 * memory sets the young (and dirty) bit of a present PTE, or faults in a
 * zeroed page (do_anonymous_page()) or a swapped-out one (do_swap_page(),
 * in swap.c); a zap of a region or of a file mapping (zap_pte_range())
 * drops its PTEs and frees what only they held.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/internal.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/writeback.h"

bool mm_range_ops = true;

/* Pages ahead whose folios a range operation loads while it works on this one. */
#define RANGE_PREFETCH_PAGES 8

/*
 * Starts loading the folio that page i of as holds, if any (changes nothing).
 * Always inlined: gcc 12 finds a function that only prefetches pure (it
 * writes nothing) and drops its calls, whose result nobody uses.
 */
static inline __attribute__((always_inline)) void
prefetch_page_folio(const struct address_space *as, uint64_t i)
{
	uint64_t entry;

	if (i >= as->nr_pages)
		return;
	entry = as->slots[i];
	if (entry && !xa_is_value(entry))
		__builtin_prefetch(folio_of((uint32_t)entry));
}

/*
 * The common page of a zap: a folio neither in the swap cache nor under
 * writeback. It goes as anon_region_zap()'s page loop frees it, in the same
 * order, but its uncharge and the node's and PGFREE counts go to the batch.
 * False: the page takes the page loop's path.
 */
static bool zap_folio_batched(struct address_space *as, uint64_t i, uint64_t entry,
			      struct free_batch *fb)
{
	struct folio *folio;

	if (xa_is_value(entry))
		return false;
	folio = folio_of((uint32_t)entry);
	if (folio->flags & ((1U << PG_swapcache) | (1U << PG_writeback)))
		return false;
	as->page_version[i] = 0;
	if (folio_test_lru(folio))
		mm.policy->folio_del(folio_lruvec(folio), folio);
	as->slots[i] = 0;
	as->ptes[i] = 0;
	as->owner->rss_anon--;
	as->nr_resident--;
	free_folio_batched(folio, fb);
	return true;
}

/*
 * munmap() or exit_mmap() of an anonymous region (MADV_DONTNEED alike, through
 * zap_page_range_single()): in the kernel unmap_page_range() ->
 * zap_pte_range() clears each PTE; a present page's folio loses its rmap
 * and goes to the mmu_gather, whose tlb_batch_pages_flush() frees the
 * gathered folios at once (free_pages_and_swap_cache(), folios_put(): the
 * swap cache entry, the uncharge, the free); a swap entry is dropped by
 * free_swap_and_cache(). With mm_range_ops, the folios of a run of common
 * pages are freed by one batch (zap_folio_batched()) and loaded ahead; any
 * other page flushes the batch first. Nothing here sleeps, so the outcome
 * is the page loop's.
 */
void anon_region_zap(struct address_space *as)
{
	struct free_batch fb = { 0 };

	for (uint64_t i = 0; i < as->nr_pages; i++) {
		uint64_t entry = as->slots[i];
		struct folio *folio;

		if (!entry)
			continue;
		if (mm_range_ops) {
			uint64_t ahead = i + RANGE_PREFETCH_PAGES < as->nr_pages ?
					 as->slots[i + RANGE_PREFETCH_PAGES] : 0;

			if (xa_is_value(ahead))
				swap_prefetch_slot(swp_slot(ahead));
			else
				prefetch_page_folio(as, i + RANGE_PREFETCH_PAGES);
			if (zap_folio_batched(as, i, entry, &fb))
				continue;
			free_batch_flush(&fb);
		}
		as->page_version[i] = 0;	/* the data goes; a new fault reads zeroes */
		if (xa_is_value(entry)) {
			swap_zap_entry(as, i);
			continue;
		}
		folio = folio_of((uint32_t)entry);
		if (folio_test_swapcache(folio)) {
			swap_free(folio->private);
			delete_from_swap_cache(folio);
		}
		if (folio_test_writeback(folio)) {
			/* still being written: an orphan that reclaim frees later */
			folio->mapping = 0;
			folio->index = 0;
			as->slots[i] = 0;
			as->ptes[i] = 0;
			as->owner->rss_anon--;
			as->nr_resident--;
			continue;
		}
		/* reclaim never sleeps with folios isolated, so this one is listed */
		if (folio_test_lru(folio))
			mm.policy->folio_del(folio_lruvec(folio), folio);
		if (folio_test_swapcache(folio)) {
			swap_free(folio->private);
			delete_from_swap_cache(folio);
		}
		as->slots[i] = 0;
		as->ptes[i] = 0;
		as->owner->rss_anon--;
		as->nr_resident--;
		free_folio(folio);
	}
	free_batch_flush(&fb);
}

/*
 * NR_FILE_MAPPED decrements of a run of PTEs whose folios are on one lruvec,
 * made at once (zap_pte_range() batches its rss counts the same way, in
 * rss[] then add_mm_rss_vec()): the stat moves by -nr and each memcg's
 * stats_updates by nr up the tree, as nr mod_lruvec_state(..., -1) would.
 */
struct unmap_batch {
	struct lruvec *lruvec;		/* the run's lruvec (NULL: none yet) */
	int64_t nr;			/* mappings dropped to 0, not yet counted */
};

static void unmap_batch_flush(struct unmap_batch *ub)
{
	if (ub->nr)
		mod_lruvec_state(ub->lruvec, NR_FILE_MAPPED, -ub->nr);
	ub->nr = 0;
}

/* file_unmap_pte() with the stat's change left to ub */
static void file_unmap_pte_batched(struct address_space *f, uint64_t index, struct folio *folio,
				   struct unmap_batch *ub)
{
	struct lruvec *lruvec;

	if (--*lazy_u16_ptr(&f->mapcount, index))
		return;
	lruvec = folio_lruvec(folio);
	if (lruvec != ub->lruvec) {
		unmap_batch_flush(ub);
		ub->lruvec = lruvec;
	}
	ub->nr++;
}

/* The first page at or after i below end whose PTE is present, 8 PTEs a load. */
static uint64_t next_present_pte(const uint8_t *ptes, uint64_t i, uint64_t end)
{
	const uint64_t present = 0x0101010101010101ULL * PTE_PRESENT;

	for (; i + 8 <= end; i += 8) {
		uint64_t word;

		memcpy(&word, &ptes[i], sizeof(word));
		if (word & present)
			break;
	}
	while (i < end && !(ptes[i] & PTE_PRESENT))
		i++;
	return i;
}

/*
 * unmap_vmas() of one file mapping: in the kernel unmap_page_range() ->
 * zap_pte_range() -> zap_present_ptes() for each present PTE: the PTE is
 * cleared, the dirty bit moves to the folio (folio_mark_dirty()), a young
 * PTE marks it accessed (vma_has_recency()), folio_remove_rmap_ptes() drops
 * its mapcount and, at 0, NR_FILE_MAPPED. Then the mapping leaves the
 * file's i_mmap. With mm_range_ops the absent PTEs are skipped 8 at a time
 * and the NR_FILE_MAPPED changes are made once per run of one lruvec,
 * flushed before the policy's folio_mark_accessed() (which may read the
 * lruvec's stats) and at the end; nothing here sleeps, so the outcome is
 * the page loop's.
 */
void unmap_vma(struct vm_area *vma)
{
	struct address_space *f = vma->file;
	bool young_counts = zap_young_counts(mm.kernel, vma->vm_flags);
	struct unmap_batch ub = { 0 };
	struct vm_area **p;

	for (uint64_t i = 0; i < f->nr_pages; i++) {
		uint8_t pte;
		struct folio *folio;

		if (mm_range_ops) {
			i = next_present_pte(vma->ptes, i, f->nr_pages);
			if (i == f->nr_pages)
				break;
		}
		pte = vma->ptes[i];
		if (!(pte & PTE_PRESENT))
			continue;
		folio = folio_of((uint32_t)f->slots[i]);
		vma->ptes[i] = 0;
		if (mm_range_ops)
			file_unmap_pte_batched(f, i, folio, &ub);
		else
			file_unmap_pte(f, i, folio);
		if (pte & PTE_DIRTY)
			folio_mark_dirty(folio);
		/* zap_present_folio_ptes(): only a mapping with recency passes
		 * its young bit on (before 6.3: any but VM_SEQ_READ) */
		if ((pte & PTE_YOUNG) && young_counts && folio_test_lru(folio)) {
			unmap_batch_flush(&ub);
			mm.policy->folio_mark_accessed(folio);
		}
	}
	unmap_batch_flush(&ub);
	for (p = &f->i_mmap; *p; p = &(*p)->i_mmap_next)
		if (*p == vma) {
			*p = vma->i_mmap_next;
			break;
		}
	free(vma->ptes);
	free(vma);
}

int anon_access(struct actor *a, struct task *t, struct address_space *as,
		uint64_t index, bool write)
{
	uint8_t *pte = &as->ptes[index];
	struct folio *folio;
	uint32_t idx;

	t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	if (*pte & PTE_PRESENT) {
		if (write && !(*pte & PTE_DIRTY))	/* new data since it was last clean */
			folio_inc_version(folio_of((uint32_t)as->slots[index]));
		*pte |= PTE_YOUNG | (write ? PTE_DIRTY : 0);
		actor_charge_user(a, pte_access_cost(a, *pte, COST_MMAP_HIT_NS));
		return ACCESS_HIT;
	}
	if (t->oom_killed)
		return -EINTR;
	if (as->slots[index] && xa_is_value(as->slots[index]))
		return do_swap_page(a, t, as, index, write);
	/* do_anonymous_page(): a zeroed page */
	count_vm_events(PGFAULT, 1);
	count_memcg_events(t->memcg, PGFAULT, 1);
	idx = alloc_charge_folio(a, t, t->memcg);
	if (!idx)
		return -EINTR;
	if ((*pte & PTE_PRESENT) || as->slots[index]) {
		/*
		 * pte_none() no longer holds: another thread of the task (or of
		 * a task sharing the region) faulted it in while this one slept
		 * in reclaim, and it may even be swapped out again. Drop ours and
		 * take the fault again, as do_anonymous_page() does.
		 */
		__free_folio(folio_of(idx));
		return anon_access(a, t, as, index, write);
	}
	folio = folio_of(idx);
	folio->mapping = as->id;
	folio->index = (uint32_t)index;
	folio_set_swapbacked(folio);
	folio_set_uptodate(folio);
	as->slots[index] = idx;
	as->nr_resident++;
	*pte = mk_pte(folio) | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	t->rss_anon++;
	mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
	mm.in_lru_fault = vma_has_recency(as->vm_flags);	/* lru_gen_enter_fault() */
	folio_add_lru(folio, 0);
	mm.in_lru_fault = false;
	actor_charge_sys(a, COST_MINOR_FAULT_NS + COST_CLEAR_PAGE_NS);
	actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
	return ACCESS_NEW;
}

/* ---- range operations ---- */

/*
 * do_anonymous_page() of page i, as anon_access() makes it, for a fault that
 * the range's budget says needs no reclaim: the folio, its page, its LRU add.
 * The fault, allocation and charge counts, the charge itself and the node's
 * free pages are the caller's, once for the range.
 */
static struct folio *anon_fault_batched(struct task *t, struct address_space *as, uint64_t i,
					bool write)
{
	uint32_t idx = folio_table_get();	/* it loads the next fault's folio */
	struct folio *folio = folio_of(idx);

	folio->nid = (uint8_t)t->nid;
	folio->memcg_id = t->memcg->id;
	folio->mapping = as->id;
	folio->index = (uint32_t)i;
	folio_set_swapbacked(folio);
	folio_set_uptodate(folio);
	as->slots[i] = idx;
	as->nr_resident++;
	as->ptes[i] = mk_pte(folio) | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	t->rss_anon++;
	mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
	mm.in_lru_fault = vma_has_recency(as->vm_flags);	/* lru_gen_enter_fault() */
	folio_add_lru(folio, 0);
	mm.in_lru_fault = false;
	return folio;
}

/* The range's faults, counted and charged as nr of anon_access()'s would be. */
static void anon_faults_account(struct task *t, uint64_t nr)
{
	if (!nr)
		return;
	count_vm_events(PGFAULT, nr);
	count_memcg_events(t->memcg, PGFAULT, nr);
	mem_cgroup_force_charge(t->memcg, nr);
	numa_take_pages(&mm.machine, t->nid, nr);
	count_vm_events(PGALLOC, nr);
}

/* anon_access()'s hit on page i: its bits, the version of a first write, the cost. */
static uint64_t anon_hit(struct actor *a, struct address_space *as, uint64_t i, bool write)
{
	uint8_t *pte = &as->ptes[i];

	if (write && !(*pte & PTE_DIRTY))	/* new data since it was last clean */
		folio_inc_version(folio_of((uint32_t)as->slots[i]));
	*pte |= PTE_YOUNG | (write ? PTE_DIRTY : 0);
	return pte_access_cost(a, *pte, COST_MMAP_HIT_NS);
}

/*
 * A userspace memset (or a populate pass) over an anonymous region: in the
 * kernel each untouched page takes its own fault, handle_mm_fault() ->
 * do_anonymous_page() (alloc_anon_folio(), mem_cgroup_charge(),
 * folio_add_new_anon_rmap(), folio_add_lru_vma()), and a present page is a
 * plain store that sets the PTE's young and dirty bits in hardware. Here the
 * pages that need no reclaim go in one loop, the faults' counts and charge
 * at once; the first page that could sleep is left to anon_access().
 */
uint64_t anon_access_stride(struct actor *a, struct task *t, struct address_space *as,
			    uint64_t index, uint64_t end, uint64_t step, bool write,
			    uint64_t user_ns, bool resched, uint64_t *nr_new)
{
	uint64_t budget = UINT64_MAX, nr_faults = 0, user = 0, sys = 0, nr = 0, i;

	for (i = index; i < end; i += step) {
		if (write)	/* a first write's folio_inc_version() */
			prefetch_page_folio(as, i + RANGE_PREFETCH_PAGES * step);
		if (as->ptes[i] & PTE_PRESENT) {
			user += anon_hit(a, as, i, write);
		} else {
			struct folio *folio;

			/* swapped out, or a killed task's fault: the page loop's */
			if (as->slots[i] || t->oom_killed)
				break;
			/* what the charge and the allocation give without reclaim,
			 * a kswapd wakeup or another node, asked at the first fault */
			if (budget == UINT64_MAX) {
				uint64_t node = numa_alloc_budget(&mm.machine, t->nid, WMARK_LOW);

				budget = mem_cgroup_charge_budget(t->memcg);
				budget = node < budget ? node : budget;
			}
			if (nr_faults == budget)
				break;
			folio = anon_fault_batched(t, as, i, write);
			nr_faults++;
			sys += COST_PAGE_ALLOC_NS + COST_MINOR_FAULT_NS + COST_CLEAR_PAGE_NS;
			user += access_cost(a, folio, COST_MMAP_HIT_NS);
		}
		user += user_ns;
		/* the page loop's actor_cond_resched() would hand the CPU over here */
		nr++;
		if (resched && a->cpu_pending_ns + user + sys >= a->quantum_ns)
			break;
	}
	if (nr)
		t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	anon_faults_account(t, nr_faults);
	actor_charge_user(a, user);
	actor_charge_sys(a, sys);
	*nr_new = nr_faults;
	return nr;
}
