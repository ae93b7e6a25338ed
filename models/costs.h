/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * CPU costs charged to the acting thread, in nanoseconds. Each is a global
 * default with its source; none is tuned per scenario or per policy.
 */
#ifndef MMEMU_MODELS_COSTS_H
#define MMEMU_MODELS_COSTS_H

/* Touching a resident mapped page: one DRAM miss, ~90 ns local (Intel MLC). */
#define COST_MMAP_HIT_NS 90
/* read() of one cached 4 KiB page: lookup + copy_to_user at ~10 GB/s (~400 ns). */
#define COST_READ_HIT_NS 450
/* Minor fault: trap, page-table update, return; ~1 us (will-it-scale page_fault). */
#define COST_MINOR_FAULT_NS 1000
/*
 * Fault-around maps each further cached page with set_pte_range() and an
 * rmap/refcount update: a few cache lines. An estimate (~50 ns), no
 * published per-page figure.
 */
#define COST_FAULT_AROUND_PAGE_NS 50
/* Zero-filling a new 4 KiB anon page: clear_page at ~15 GB/s (~270 ns). */
#define COST_CLEAR_PAGE_NS 270
/* Page allocation + memcg charge fast path (~150 ns per page, perf profiles of page_fault). */
#define COST_PAGE_ALLOC_NS 150
/* Block IO submission and completion on the CPU (~2 us per bio, blk-mq profiles). */
#define COST_BIO_SUBMIT_NS 2000
/* Reclaim: isolating one folio from an LRU list (lru_lock held, list ops). */
#define COST_ISOLATE_NS 40
/* shrink_folio_list() per folio: trylock, reference checks, mapping lookups. */
#define COST_SHRINK_FOLIO_NS 200
/* rmap walk of one mapped folio (folio_referenced / try_to_unmap, one PTE). */
#define COST_RMAP_WALK_NS 300
/* Freeing one page cache folio: __remove_mapping + uncharge + free to buddy. */
#define COST_FREE_FOLIO_NS 300
/* Moving one folio between lists (putback, activation, rotation). */
#define COST_LRU_MOVE_NS 30
/*
 * Reclaim visiting one memcg on one node, whatever it then scans:
 * mem_cgroup_iter, the protection calculation, get_scan_count's size and
 * cost reads, lru_add_drain, and shrink_slab's count_objects of each
 * memcg-aware shrinker (~10-20 list_lrus at ~100 ns). An estimate from
 * those paths, not a measurement; the "restart cost" of 287d5fedb377.
 */
#define COST_MEMCG_VISIT_NS 2000

/* MGLRU page-table walk: 8 PTEs per 64-byte line at ~30 ns a line (~4 ns a PTE). */
#define COST_PT_WALK_PTE_NS 4
/*
 * One PMD entry of the walk (walk_pmd_range): the PMD line and the PTE
 * table's first line and lock are cold, about one DRAM miss (~90 ns local,
 * Intel MLC, as COST_MMAP_HIT_NS) plus the trylock/unlock; an estimate.
 */
#define COST_PT_WALK_PMD_NS 100
/*
 * A young PTE: its folio's struct page is a likely DRAM miss (~90 ns, as
 * above) plus the atomic test-and-clear and the gen update (folio_update_gen
 * cmpxchg); an estimate from those steps.
 */
#define COST_PT_YOUNG_NS 100
/* Aging bookkeeping per generation step (inc_max_seq, lru lock, timestamps). */
#define COST_INC_MAX_SEQ_NS 2000

#endif
