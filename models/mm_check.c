/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The model's checks: mm_check_invariants(), the whole state at a quiescent
 * point (every folio charged and listed once, the counts adding up, no page's
 * data lost), run periodically under --check-invariants; and the local
 * contracts of debug.h (VM_WARN_ON()), which keep the first broken one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/debug.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"

#define INVARIANT(cond, ...)                                                   \
	do {                                                                   \
		if (!(cond)) {                                                 \
			snprintf(err, len, __VA_ARGS__);                       \
			goto out;                                              \
		}                                                              \
	} while (0)

/* What the check that failed last was about (mm_invariant_kind()). */
static enum mm_invariant_kind failed_kind = MM_INV_NONE;

enum mm_invariant_kind mm_invariant_kind(void)
{
	return failed_kind;
}

/* Whether a PTE mapping the folio carries the dirty bit (not yet moved to it). */
static bool folio_pte_dirty(const struct folio *folio)
{
	struct rmap_iter it;
	struct vm_area *vma;
	uint8_t *pte;

	rmap_iter_init(&it, mm.mappings[folio->mapping], folio->index);
	while ((pte = rmap_iter_next(&it, &vma)))
		if (*pte & PTE_DIRTY)
			return true;
	return false;
}

/* Folios of one lruvec as the folio table sees them. */
struct lruvec_count {
	uint64_t on_lru;	/* PG_lru: must be on this lruvec's lists */
	uint64_t off_lru;	/* isolated: must be counted in NR_ISOLATED_* */
};

static const char *as_kind(const struct address_space *as)
{
	return as->type == AS_FILE ? "file" : "anon";
}

/*
 * Folio c, found at page i of as (in its slot, or in the swap cache behind
 * the page's swap entry): it is charged, names the page back, holds the
 * version last written to the page and, if clean, what the page's backing
 * store holds (no lost write).
 */
static int check_page_folio(const struct address_space *as, uint64_t i, uint64_t c,
			    char *err, size_t len)
{
	const struct folio *f;
	uint32_t backing;

	INVARIANT(c < folio_table.nr, "%s '%s' page %llu: folio %llu is past the table",
		  as_kind(as), as->name, (unsigned long long)i, (unsigned long long)c);
	f = folio_of((uint32_t)c);
	INVARIANT(f->memcg_id && f->mapping == as->id && f->index == i,
		  "%s '%s' page %llu: its folio %llu is %s (mapping %u page %u)", as_kind(as),
		  as->name, (unsigned long long)i, (unsigned long long)c,
		  f->memcg_id ? "another page's" : "free", f->mapping, f->index);
	INVARIANT(f->version == as->page_version[i],
		  "folio %llu (%s '%s' page %llu) holds version %u but the page was last written "
		  "at version %u", (unsigned long long)c, as_kind(as), as->name,
		  (unsigned long long)i, f->version, as->page_version[i]);
	if (folio_test_swapcache(f))
		INVARIANT(mm.swap && f->private && f->private <= mm.swap->nr_slots &&
			  mm.swap->cache[f->private] == c,
			  "folio %llu (%s '%s' page %llu) is in the swap cache at slot %u, which "
			  "does not hold it", (unsigned long long)c, as_kind(as), as->name,
			  (unsigned long long)i, f->private);
	if (folio_test_dirty(f) || folio_test_locked(f))
		return 0;
	if (as->type == AS_FILE)
		backing = file_disk_version(as, i);
	else if (folio_test_swapcache(f))
		backing = mm.swap->slot_version[f->private];
	else
		return 0;	/* anon without a slot: the folio is the only copy */
	/* a dirty PTE makes it dirty too; the rmap walk only where it decides
	 * (a file folio mapped by 96 processes has 96 PTEs) */
	INVARIANT(backing == f->version || folio_pte_dirty(f),
		  "folio %llu (%s '%s' page %llu) is clean at version %u but its backing store "
		  "has version %u", (unsigned long long)c, as_kind(as), as->name,
		  (unsigned long long)i, f->version, backing);
	return 0;
out:
	return -1;
}

/*
 * One mm's PTEs of a mapping: each present one maps the folio in the page's
 * slot and names its node (mk_pte()).
 */
static int check_ptes(const struct address_space *as, const uint8_t *ptes, char *err,
		      size_t len)
{
	for (uint64_t i = 0; i < as->nr_pages; i++) {
		uint64_t entry = as->slots[i];

		if (!(ptes[i] & PTE_PRESENT))
			continue;
		INVARIANT(entry && !xa_is_value(entry),
			  "%s '%s' page %llu: its PTE is present but no folio holds the page",
			  as_kind(as), as->name, (unsigned long long)i);
		INVARIANT(pte_nid(ptes[i]) == folio_of((uint32_t)entry)->nid,
			  "%s '%s' page %llu: its PTE names node %d but its folio is on node %u",
			  as_kind(as), as->name, (unsigned long long)i, pte_nid(ptes[i]),
			  folio_of((uint32_t)entry)->nid);
	}
	return 0;
out:
	return -1;
}

/*
 * Every page of a mapping: a folio holds it (check_page_folio), else the
 * version last written to it is what its device (file) or its swap slot
 * (anon) holds, so the next read or swap-in sees it; an anon page with
 * neither was never written (or was unmapped). Counts the folios found.
 */
static int check_mapping(const struct address_space *as, uint64_t *nr_found, char *err,
			 size_t len)
{
	if (as->type == AS_FILE) {
		for (const struct vm_area *v = as->i_mmap; v; v = v->i_mmap_next)
			if (check_ptes(as, v->ptes, err, len))
				return -1;
	} else if (as->ptes && check_ptes(as, as->ptes, err, len)) {
		return -1;
	}
	for (uint64_t i = 0; i < as->nr_pages; i++) {
		uint64_t entry = as->slots[i], slot;
		uint32_t want = as->page_version[i];

		if (entry && !xa_is_value(entry)) {
			if (check_page_folio(as, i, entry, err, len))
				return -1;
			(*nr_found)++;
		} else if (as->type == AS_FILE) {
			INVARIANT(file_disk_version(as, i) == want,
				  "file '%s' page %llu is not cached and its device holds version %u, "
				  "but it was last written at version %u", as->name,
				  (unsigned long long)i, file_disk_version(as, i), want);
		} else if (entry && mm.swap && (slot = swp_slot(entry))) {
			INVARIANT(slot <= mm.swap->nr_slots && mm.swap->slot_mapping[slot] == as->id &&
				  mm.swap->slot_index[slot] == i,
				  "anon '%s' page %llu: its swap slot %llu holds another page", as->name,
				  (unsigned long long)i, (unsigned long long)slot);
			if (mm.swap->cache[slot]) {
				const struct folio *f = folio_of(mm.swap->cache[slot]);

				INVARIANT(folio_test_swapcache(f) && f->private == slot,
					  "anon '%s' page %llu: folio %u in the swap cache at slot %llu "
					  "is not in the swap cache there", as->name,
					  (unsigned long long)i, mm.swap->cache[slot],
					  (unsigned long long)slot);
				if (check_page_folio(as, i, mm.swap->cache[slot], err, len))
					return -1;
				(*nr_found)++;
			} else {
				INVARIANT(mm.swap->slot_version[slot] == want,
					  "anon '%s' page %llu is swapped out and its slot %llu holds "
					  "version %u, but it was last written at version %u", as->name,
					  (unsigned long long)i, (unsigned long long)slot,
					  mm.swap->slot_version[slot], want);
			}
		} else {
			INVARIANT(!want, "anon '%s' page %llu was last written at version %u but is "
				  "neither resident nor swapped out", as->name,
				  (unsigned long long)i, want);
		}
	}
	return 0;
out:
	return -1;
}

/* Names a folio with a mapping that no page of the mapping leads to. */
static void find_lost_folio(char *err, size_t len)
{
	for (uint32_t i = 1; i < folio_table.nr_fresh; i++) {
		const struct folio *f = folio_of(i);
		const struct address_space *as;
		uint64_t entry;

		if (!f->memcg_id || !f->mapping)
			continue;
		as = f->mapping < mm.nr_mappings ? mm.mappings[f->mapping] : NULL;
		entry = as && as->slots && f->index < as->nr_pages ? as->slots[f->index] : 0;
		if (entry == i || (xa_is_value(entry) && folio_test_swapcache(f) &&
				   swp_slot(entry) == f->private))
			continue;
		snprintf(err, len, "folio %u (mapping %u '%s' page %u): the page does not lead to it "
			 "(its slot holds %#llx)", i, f->mapping, as ? as->name : "?", f->index,
			 (unsigned long long)entry);
		return;
	}
	snprintf(err, len, "folios: more pages lead to folios than folios have a mapping");
}

int mm_check_invariants(char *err, size_t len)
{
	int nr_nodes = mm.machine.nr_nodes, nid, rc = -1;
	uint64_t nr_used = 0, nr_mapped = 0, nr_found = 0, *per_node_used;
	struct lruvec_count *count;

	failed_kind = MM_INV_COUNTS;
	per_node_used = calloc((size_t)nr_nodes, sizeof(*per_node_used));
	count = calloc((size_t)(mm.nr_memcgs + 1) * (size_t)nr_nodes, sizeof(*count));
	if (!per_node_used || !count) {
		snprintf(err, len, "out of memory");
		goto out;
	}
	/* past nr_fresh every folio is free and was never written */
	for (uint32_t i = 1; i < folio_table.nr_fresh; i++) {
		const struct folio *f = &folio_table.f[i];
		struct lruvec_count *c;

		if (!f->memcg_id)
			continue;	/* free */
		INVARIANT(f->memcg_id <= mm.nr_memcgs && mm.memcgs[f->memcg_id] && f->nid < nr_nodes,
			  "folio %u: charged to memcg %u on node %u, which do not exist", i,
			  f->memcg_id, f->nid);
		nr_mapped += f->mapping != 0;
		nr_used++;
		per_node_used[f->nid]++;
		c = &count[(size_t)f->memcg_id * (size_t)nr_nodes + f->nid];
		if (folio_test_lru(f))
			c->on_lru++;
		else
			c->off_lru++;
	}
	for_each_node(nid) {
		const struct numa_node *n = &mm.machine.node[nid];

		INVARIANT(n->nr_free + per_node_used[nid] + n->nr_reserved == n->managed_pages,
			  "node %d: free %llu + used %llu + reserved %llu != total %llu", nid,
			  (unsigned long long)n->nr_free, (unsigned long long)per_node_used[nid],
			  (unsigned long long)n->nr_reserved, (unsigned long long)n->managed_pages);
	}
	INVARIANT(nr_used + folio_table.nr_free == (uint64_t)folio_table.nr - 1,
		  "folio table: %llu used + %llu free != %u", (unsigned long long)nr_used,
		  (unsigned long long)folio_table.nr_free, folio_table.nr - 1);

	for (int id = 1; id <= mm.nr_memcgs; id++) {
		struct mem_cgroup *memcg = mm.memcgs[id];
		uint64_t own = memcg->usage, nr_folios = 0;

		for_each_node(nid) {
			struct lruvec *lruvec = memcg->lruvec[nid];
			const struct lruvec_count *c = &count[(size_t)id * (size_t)nr_nodes + nid];
			uint64_t listed[NR_LRU_LISTS] = { 0 }, nr_listed = 0;
			int64_t isolated = lruvec->stat[NR_ISOLATED_ANON] + lruvec->stat[NR_ISOLATED_FILE];

			failed_kind = MM_INV_LISTS;
			if (mm.policy->check_lruvec && mm.policy->check_lruvec(lruvec, listed, err, len))
				goto out;
			failed_kind = MM_INV_COUNTS;
			for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
				INVARIANT(listed[lru] == lruvec_lru_size(lruvec, (enum lru_list)lru),
					  "memcg '%s' node %d: lru %d has %llu folios, size says %llu",
					  memcg->name, nid, lru, (unsigned long long)listed[lru],
					  (unsigned long long)lruvec_lru_size(lruvec, (enum lru_list)lru));
				nr_listed += listed[lru];
			}
			failed_kind = MM_INV_LISTS;
			INVARIANT(c->on_lru == nr_listed,
				  "memcg '%s' node %d: %llu folios on its lists, but %llu of its folios "
				  "have PG_lru", memcg->name, nid, (unsigned long long)nr_listed,
				  (unsigned long long)c->on_lru);
			/* isolated, or freed by the batch that isolated them: the kernel
			 * (shrink_inactive_list) takes the batch off NR_ISOLATED at its end */
			INVARIANT(isolated >= 0 && c->off_lru <= (uint64_t)isolated,
				  "memcg '%s' node %d: %llu of its folios are off the LRU, but "
				  "nr_isolated_anon + nr_isolated_file is %lld", memcg->name, nid,
				  (unsigned long long)c->off_lru, (long long)isolated);
			nr_folios += c->on_lru + c->off_lru;
		}
		failed_kind = MM_INV_COUNTS;
		/* usage is hierarchical: its own pages are usage minus the children's */
		for (int ch = 0; ch < memcg->nr_children; ch++)
			own -= memcg->children[ch]->usage;
		/* zswap's pool pages are charged to the memcg too (obj_cgroup_charge_zswap) */
		INVARIANT(own == nr_folios + memcg->nr_charge_inflight + memcg->zswap_charged,
			  "memcg '%s': usage %llu (own %llu) != %llu folios + %llu charges in flight "
			  "+ %llu zswap pages", memcg->name, (unsigned long long)memcg->usage,
			  (unsigned long long)own, (unsigned long long)nr_folios,
			  (unsigned long long)memcg->nr_charge_inflight,
			  (unsigned long long)memcg->zswap_charged);
	}

	failed_kind = MM_INV_FOLIOS;
	/* every folio with a mapping, found from its page exactly once */
	for (uint32_t id = 1; id < mm.nr_mappings; id++)
		if (mm.mappings[id]->slots && check_mapping(mm.mappings[id], &nr_found, err, len))
			goto out;
	if (nr_found != nr_mapped) {
		find_lost_folio(err, len);
		goto out;
	}
	failed_kind = MM_INV_NONE;
	rc = 0;
out:
	free(per_node_used);
	free(count);
	return rc;
}

/*
 * Pages a check walks per quiescent point between two checks, at most. A
 * check reads every folio of the table handed out so far and every page of
 * every mapping once, a few ns each (the interval counts the whole table);
 * a quiescent point costs the engine well under a microsecond when its
 * sleep is deferred (core/engine.c; mmemu bench: 4 M major faults/s, an IO
 * wait each) and a microsecond or more when SimGrid runs it.
 * Estimate, measured with perf (CPU time inside the checks over the run's):
 * file-anon-mix at 1/64 under classic, 21 % of its CPU time at 32 pages per
 * point, 7 % at 8 (26.6 -> 21.9 s host); ycsb-b at 1/4 under mglru-budget,
 * 4 % at 32.
 */
#define MM_CHECK_PAGES_PER_POINT 8

/*
 * Pages mm_check_invariants() walks at most: the folio table, every
 * mapping, and the PTEs of each (an anon region's, each mm's of a file).
 */
static uint64_t invariants_size(void)
{
	uint64_t n = folio_table.nr;

	for (uint32_t id = 1; id < mm.nr_mappings; id++) {
		const struct address_space *as = mm.mappings[id];
		uint64_t tables = as->ptes ? 1 : 0;

		for (const struct vm_area *v = as->type == AS_FILE ? as->i_mmap : NULL; v;
		     v = v->i_mmap_next)
			tables++;
		n += (1 + tables) * as->nr_pages;
	}
	return n;
}

static uint64_t invariants_interval(void)
{
	uint64_t every = mm.invariant_check_every ? mm.invariant_check_every
						  : invariants_size() / MM_CHECK_PAGES_PER_POINT;

	return every ? every : 1;
}

static int invariants_check_fn(void *arg, uint64_t now_ns)
{
	char why[512];

	(void)arg;
	mm.nr_invariant_checks++;
	if (!mm_check_invariants(why, sizeof(why))) {
		/* mappings come and go (tasks exit, clients start): follow the size */
		engine_set_check(invariants_interval(), invariants_check_fn, NULL);
		return 0;
	}
	snprintf(mm.invariant_broken, sizeof(mm.invariant_broken),
		 "invariant broken at %.6f s simulated: %s", (double)now_ns / 1e9, why);
	return 1;
}

void mm_check_invariants_periodic(uint64_t every)
{
	mm.invariant_check_every = every;
	engine_set_check(invariants_interval(), invariants_check_fn, NULL);
}

const char *mm_invariants_broken(void)
{
	return mm.invariant_broken[0] ? mm.invariant_broken : NULL;
}

bool mm_warn(const char *file, int line, const char *what)
{
	const char *base = strrchr(file, '/');

	if (!mm.nr_warnings++)
		snprintf(mm.warned, sizeof(mm.warned), "contract broken at %.6f s simulated: %s:%d: %s",
			 (double)engine_clock_ns() / 1e9, base ? base + 1 : file, line, what);
	return true;
}

const char *mm_warned(void)
{
	return mm.nr_warnings ? mm.warned : NULL;
}

uint64_t mm_nr_warnings(void)
{
	return mm.nr_warnings;
}
