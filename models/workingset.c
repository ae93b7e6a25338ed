/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Workingset detection (mm/workingset.c): each lruvec has a non-resident
 * age that advances on evictions and activations. An evicted page leaves
 * a shadow with that age; on refault, the distance (ages passed since) is
 * compared with the workingset size to decide whether the page would have
 * stayed resident had the active list been that much smaller.
 */
#include "models/vmscan.h"
#include "models/memory.h"
#include "models/workingset.h"

#define SHADOW_WS_BITS 1
#define SHADOW_NODE_BITS 3
#define SHADOW_MEMCG_BITS 12
#define EVICTION_SHIFT (SHADOW_WS_BITS + SHADOW_NODE_BITS + SHADOW_MEMCG_BITS)

uint64_t pack_shadow(unsigned short memcgid, int nid, uint64_t eviction, bool workingset)
{
	uint64_t v = eviction & EVICTION_MASK;

	v = (v << SHADOW_MEMCG_BITS) | memcgid;
	v = (v << SHADOW_NODE_BITS) | (uint64_t)nid;
	v = (v << SHADOW_WS_BITS) | workingset;
	return v | XA_VALUE_BIT;
}

void unpack_shadow(uint64_t shadow, unsigned short *memcgid, int *nid,
		   uint64_t *eviction, bool *workingset)
{
	uint64_t v = shadow & ~XA_VALUE_BIT;

	*workingset = v & 1;
	v >>= SHADOW_WS_BITS;
	*nid = (int)(v & ((1U << SHADOW_NODE_BITS) - 1));
	v >>= SHADOW_NODE_BITS;
	*memcgid = (unsigned short)(v & ((1U << SHADOW_MEMCG_BITS) - 1));
	v >>= SHADOW_MEMCG_BITS;
	*eviction = v & EVICTION_MASK;
}

void workingset_age_nonresident(struct lruvec *lruvec, uint64_t nr_pages)
{
	/*
	 * Reclaiming a cgroup means reclaiming all its children in a
	 * round-robin fashion: an eviction in a child ages the parent too.
	 */
	do {
		lruvec->nonresident_age += nr_pages;
	} while ((lruvec = parent_lruvec(lruvec)));
}

/*
 * workingset_eviction(): the clock and the memcg id are those of the
 * reclaim target (the root for global reclaim), read before this eviction
 * ages it.
 */
uint64_t workingset_eviction(struct folio *folio, struct mem_cgroup *target_memcg)
{
	struct mem_cgroup *memcg = target_memcg ? target_memcg : mm.root_mem_cgroup;
	struct lruvec *lruvec = memcg->lruvec[folio->nid];
	uint64_t eviction = lruvec->nonresident_age >> mm.bucket_order;

	workingset_age_nonresident(lruvec, 1);
	return pack_shadow(memcg->id, folio->nid, eviction, folio_test_workingset(folio));
}

void workingset_refault(struct folio *folio, uint64_t shadow)
{
	bool file = folio_is_file_lru(folio);
	struct lruvec *eviction_lruvec, *lruvec = folio_lruvec(folio);
	struct mem_cgroup *eviction_memcg;
	uint64_t eviction, refault, refault_distance, workingset_size;
	unsigned short memcgid;
	bool workingset;
	int nid;

	unpack_shadow(shadow, &memcgid, &nid, &eviction, &workingset);
	eviction <<= mm.bucket_order;
	eviction_memcg = memcgid <= mm.nr_memcgs ? mm.memcgs[memcgid] : NULL;
	if (!eviction_memcg || nid >= mm.machine.nr_nodes)
		return;
	eviction_lruvec = eviction_memcg->lruvec[nid];
	refault = eviction_lruvec->nonresident_age;
	/* the clock wraps at the bits a shadow keeps (times the bucket size) */
	refault_distance = (refault - eviction) &
			   ((1ULL << (WORKINGSET_EVICTION_BITS + mm.bucket_order)) - 1);

	mod_lruvec_state(lruvec, WORKINGSET_REFAULT_BASE + file, 1);

	/*
	 * Compare the distance with the workingset that could have held the
	 * page: active file (+ inactive file for anon), and with swap, the
	 * anon lists too.
	 */
	workingset_size = lruvec_page_state(eviction_lruvec, NR_ACTIVE_FILE);
	if (!file)
		workingset_size += lruvec_page_state(eviction_lruvec, NR_INACTIVE_FILE);
	if (can_reclaim_anon_pages(eviction_memcg, nid, NULL)) {
		workingset_size += lruvec_page_state(eviction_lruvec, NR_ACTIVE_ANON);
		if (file)
			workingset_size += lruvec_page_state(eviction_lruvec, NR_INACTIVE_ANON);
	}
	if (refault_distance > workingset_size)
		return;

	folio_set_active(folio);
	workingset_age_nonresident(lruvec, 1);
	mod_lruvec_state(lruvec, WORKINGSET_ACTIVATE_BASE + file, 1);

	/* Folio was active prior to eviction */
	if (workingset) {
		folio_set_workingset(folio);
		lru_note_cost_refault(folio);
		mod_lruvec_state(lruvec, WORKINGSET_RESTORE_BASE + file, 1);
	}
}

void workingset_activation(struct folio *folio)
{
	workingset_age_nonresident(folio_lruvec(folio), 1);
}
