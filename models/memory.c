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

#include "models/costs.h"
#include "models/internal.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/writeback.h"

void anon_region_zap(struct address_space *as)
{
	for (uint64_t i = 0; i < as->nr_pages; i++) {
		uint64_t entry = as->slots[i];
		struct folio *folio;

		if (!entry)
			continue;
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
}

/*
 * unmap_vmas() of one file mapping (zap_pte_range): the dirty bit moves to
 * the folio and a young PTE marks the folio accessed (vma_has_recency());
 * then the mapping leaves the file's i_mmap.
 */
void unmap_vma(struct vm_area *vma)
{
	struct address_space *f = vma->file;
	struct vm_area **p;

	for (uint64_t i = 0; i < f->nr_pages; i++) {
		uint8_t pte = vma->ptes[i];
		struct folio *folio;

		if (!(pte & PTE_PRESENT))
			continue;
		folio = folio_of((uint32_t)f->slots[i]);
		vma->ptes[i] = 0;
		file_unmap_pte(f, i, folio);
		if (pte & PTE_DIRTY)
			folio_mark_dirty(folio);
		/* zap_present_folio_ptes(): only a mapping with recency passes
		 * its young bit on (before 6.3: any but VM_SEQ_READ) */
		if ((pte & PTE_YOUNG) && zap_young_counts(mm.kernel, vma->vm_flags) &&
		    folio_test_lru(folio))
			mm.policy->folio_mark_accessed(folio);
	}
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
		folio = folio_of((uint32_t)as->slots[index]);
		if (write && !(*pte & PTE_DIRTY))
			folio_inc_version(folio);	/* new data since it was last clean */
		*pte |= PTE_YOUNG | (write ? PTE_DIRTY : 0);
		actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
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
	*pte = PTE_PRESENT | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	t->rss_anon++;
	mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
	mm.in_lru_fault = vma_has_recency(as->vm_flags);	/* lru_gen_enter_fault() */
	folio_add_lru(folio, 0);
	mm.in_lru_fault = false;
	actor_charge_sys(a, COST_MINOR_FAULT_NS + COST_CLEAR_PAGE_NS);
	actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
	return ACCESS_NEW;
}
