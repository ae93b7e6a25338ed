/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page allocation with the kernel's slow path (mm/page_alloc.c): the low
 * watermark first, then wake kswapd and try the min watermark, then direct
 * reclaim with retries, then the global OOM killer.
 */
#include <errno.h>

#include "models/debug.h"
#include "models/costs.h"
#include "models/internal.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"

static int __alloc_pages(struct actor *a, struct task *t, int preferred)
{
	struct machine *m = &mm.machine;
	int no_progress_loops = 0;
	int nid;

	/* get_page_from_freelist() with ALLOC_WMARK_LOW */
	nid = numa_alloc_page(m, preferred, WMARK_LOW);
	if (nid >= 0)
		return nid;
	/* __alloc_pages_slowpath() */
	numa_wake_all_kswapds(m);
	nid = numa_alloc_page(m, preferred, WMARK_MIN);
	if (nid >= 0)
		return nid;
	for (;;) {
		unsigned long pflags;
		uint64_t progress;

		if (t && t->oom_killed)
			return -EINTR;
		/* __alloc_pages_direct_reclaim(): a memory stall, the reclaim
		 * and the allocation after it */
		psi_memstall_enter(a, &pflags);
		progress = try_to_free_pages(preferred, a);
		nid = numa_alloc_page(m, preferred, WMARK_MIN);
		psi_memstall_leave(a, &pflags);
		if (nid >= 0)
			return nid;
		/* should_reclaim_retry() */
		if (progress) {
			no_progress_loops = 0;
			continue;
		}
		if (++no_progress_loops <= MAX_RECLAIM_RETRIES)
			continue;
		/* __alloc_pages_may_oom() */
		no_progress_loops = 0;
		if (!out_of_memory(NULL, a)) {
			/* nothing left to kill: dip into the reserves, or fail */
			nid = numa_alloc_page_nowmark(m, preferred);
			return nid >= 0 ? nid : -ENOMEM;
		}
	}
}

uint32_t alloc_charge_folio(struct actor *a, struct task *t, struct mem_cgroup *memcg)
{
	struct folio *folio;
	uint32_t idx;
	int nid;

	/*
	 * The kernel allocates, then charges. Charging first keeps the folio
	 * out of existence while either step may sleep in reclaim; the charge
	 * counts in memcg->nr_charge_inflight until the folio exists.
	 */
	if (mem_cgroup_charge(a, t, memcg))
		return 0;
	nid = __alloc_pages(a, t, t ? t->nid : a->node);
	memcg->nr_charge_inflight--;
	if (nid < 0) {
		mem_cgroup_uncharge(memcg, 1);
		return 0;
	}
	idx = folio_table_get();
	folio = folio_of(idx);
	folio->nid = (uint8_t)nid;
	folio->memcg_id = memcg->id;
	count_vm_events(PGALLOC, 1);
	actor_charge_sys(a, COST_PAGE_ALLOC_NS);
	return idx;
}

uint32_t alloc_folio_noreclaim(struct mem_cgroup *memcg, int nid)
{
	struct folio *folio;
	uint32_t idx;

	if (!mem_cgroup_try_charge_noreclaim(memcg))
		return 0;
	nid = numa_alloc_page(&mm.machine, nid, WMARK_LOW);
	if (nid < 0) {
		mem_cgroup_uncharge(memcg, 1);
		return 0;
	}
	idx = folio_table_get();
	folio = folio_of(idx);
	folio->nid = (uint8_t)nid;
	folio->memcg_id = memcg->id;
	count_vm_events(PGALLOC, 1);
	return idx;
}

uint32_t alloc_folio_memalloc(struct mem_cgroup *memcg, int nid)
{
	struct folio *folio;
	uint32_t idx;

	nid = numa_alloc_page_nowmark(&mm.machine, nid);
	if (nid < 0)
		return 0;
	mem_cgroup_force_charge(memcg, 1);
	idx = folio_table_get();
	folio = folio_of(idx);
	folio->nid = (uint8_t)nid;
	folio->memcg_id = memcg->id;
	count_vm_events(PGALLOC, 1);
	return idx;
}

void folio_add_lru(struct folio *folio, uint64_t shadow)
{
	struct lruvec *lruvec = folio_lruvec(folio);

	/* folio_add_lru(): VM_BUG_ON_FOLIO(folio_test_lru(folio), folio) */
	if (VM_WARN_ON(folio_test_lru(folio)))
		return;

	if (shadow && mm.policy->workingset_refault)
		mm.policy->workingset_refault(folio, shadow);
	mm.policy->folio_add(lruvec, folio);
}

/* free_pages_prepare(): a folio still listed, locked or under writeback is a bad page */
static void free_pages_prepare(struct folio *folio)
{
	VM_WARN_ON(folio->flags & ((1U << PG_lru) | (1U << PG_locked) | (1U << PG_writeback)));
}

void __free_folio(struct folio *folio)
{
	free_pages_prepare(folio);
	mem_cgroup_uncharge(folio_memcg(folio), 1);
	numa_free_page(&mm.machine, folio->nid);
	count_vm_events(PGFREE, 1);
	folio_table_put(folio_idx(folio));
}

void free_folio(struct folio *folio)
{
	struct lruvec *lruvec = folio_lruvec(folio);

	if (folio_test_anon(folio))
		mod_lruvec_state(lruvec, NR_ANON_MAPPED, -1);
	else
		mod_lruvec_state(lruvec, NR_FILE_PAGES, -1);
	__free_folio(folio);
}

void free_batch_flush(struct free_batch *fb)
{
	if (!fb->nr)
		return;
	mem_cgroup_uncharge(fb->memcg, fb->nr);
	numa_free_pages(&mm.machine, fb->nid, fb->nr);
	count_vm_events(PGFREE, fb->nr);
	fb->nr = 0;
}

void free_folio_batched(struct folio *folio, struct free_batch *fb)
{
	struct lruvec *lruvec = folio_lruvec(folio);

	if (fb->nr && (fb->memcg != folio_memcg(folio) || fb->nid != folio->nid))
		free_batch_flush(fb);
	fb->memcg = folio_memcg(folio);
	fb->nid = folio->nid;
	/* free_folio() up to __free_folio()'s uncharge, which the batch makes */
	if (folio_test_anon(folio))
		mod_lruvec_state(lruvec, NR_ANON_MAPPED, -1);
	else
		mod_lruvec_state(lruvec, NR_FILE_PAGES, -1);
	free_pages_prepare(folio);
	folio_table_put(folio_idx(folio));
	fb->nr++;
}
