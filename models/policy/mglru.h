/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The multi-gen LRU (CONFIG_LRU_GEN), shared by mglru-old (mainline before
 * 2026) and mglru-budget (after "mm/mglru: improve reclaim loop and dirty
 * folio"). The differences are the few named fields of struct
 * lru_gen_variant. Decision points are exported for tests.
 */
#ifndef MMEMU_MODELS_POLICY_MGLRU_H
#define MMEMU_MODELS_POLICY_MGLRU_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"
#include "models/vmscan.h"

/* MGLRU generation (+1, 0 = not on lrugen) and refs, in the policy's flag bits. */
#define LRU_GEN_PGOFF FOLIO_POLICY_PGOFF
#define LRU_GEN_WIDTH 3
#define LRU_GEN_MASK (((1U << LRU_GEN_WIDTH) - 1) << LRU_GEN_PGOFF)
#define LRU_REFS_PGOFF (LRU_GEN_PGOFF + LRU_GEN_WIDTH)
#define LRU_REFS_WIDTH 2
#define LRU_REFS_MASK (((1U << LRU_REFS_WIDTH) - 1) << LRU_REFS_PGOFF)
_Static_assert(LRU_GEN_WIDTH + LRU_REFS_WIDTH <= FOLIO_POLICY_WIDTH, "gen and refs fit the policy bits");

#define MIN_NR_GENS 2
#define MAX_NR_GENS 4
_Static_assert(MAX_NR_GENS == MMEMU_SAMPLE_MAX_GENS, "a gens sample row carries every generation");
#define MAX_NR_TIERS 4
#define MIN_LRU_BATCH 64
#define MAX_LRU_BATCH 4096
#define NR_HIST_GENS 1
#define ANON_AND_FILE 2
#define LRU_GEN_ANON 0
#define LRU_GEN_FILE 1
#define MIN_SWAPPINESS 0
#define MAX_SWAPPINESS 200
#define SWAPPINESS_ANON_ONLY (MAX_SWAPPINESS + 1)
/* memcg LRU: generations (old, young, spare) and random bins per node */
#define MEMCG_NR_GENS 3
#define MEMCG_NR_BINS 8
/* page table (PTE table) of 512 entries: the unit of the Bloom filter */
#define PTRS_PER_PTE 512
#define BLOOM_FILTER_SHIFT 15
#define NR_BLOOM_FILTERS 2

/*
 * What changed with the 2026 reclaim-loop series (v7, 15 patches, Linux 7.2)
 * and with Barry Song's separate 6cbdd9726fb5 of the same merge window.
 */
struct lru_gen_variant {
	/* patches 02-08: the budget computed once, aging inside the loop,
	 * batches of min(budget, MIN_LRU_BATCH) counted exactly (05), type
	 * fallback only when a type scanned nothing (06), no stop after aging
	 * but in root reclaim (08) */
	bool budget_loop;
	/* patches 09-15: no swap check at isolation, dirty/writeback folios
	 * isolated and reactivated by shrink_folio_list() with their tier bits,
	 * the flusher woken per batch through handle_reclaim_writeback() */
	bool reactivate_dirty;
	/* 6cbdd9726fb5: a fault marks a new folio accessed (PG_active only for
	 * refaulted workingset), so faulted file folios start in the second
	 * oldest gen; promotion on the second scan only with refs > 1 */
	bool fault_mark_accessed;
};

struct lruvec_vec {
	struct lruvec **v;	/* ordered: [0] is the head */
	int nr, cap;
};

/* pgdat->memcg_lru */
struct memcg_lru {
	uint64_t seq;				/* the old generation is seq % MEMCG_NR_GENS */
	int nr_memcgs[MEMCG_NR_GENS];		/* lruvecs per generation */
	struct lruvec_vec fifo[MEMCG_NR_GENS][MEMCG_NR_BINS];
};

struct lru_gen_folio {
	uint64_t max_seq;			/* youngest generation */
	uint64_t min_seq[ANON_AND_FILE];	/* oldest per type */
	uint64_t timestamps[MAX_NR_GENS];	/* birth time of each gen (ns) */
	struct flist folios[MAX_NR_GENS][ANON_AND_FILE];	/* one zone per node */
	int64_t nr_pages[MAX_NR_GENS][ANON_AND_FILE];		/* by the folios' gen bits */
	uint64_t avg_refaulted[ANON_AND_FILE][MAX_NR_TIERS];	/* PID: I term */
	uint64_t avg_total[ANON_AND_FILE][MAX_NR_TIERS];
	uint64_t protected[ANON_AND_FILE][MAX_NR_TIERS];	/* PID: P term, current gen */
	uint64_t evicted[ANON_AND_FILE][MAX_NR_TIERS];
	uint64_t refaulted[ANON_AND_FILE][MAX_NR_TIERS];
	/* the same three, never reset: what lru_gen_report() prints */
	struct lru_gen_stats {
		uint64_t evicted[ANON_AND_FILE][MAX_NR_TIERS];
		uint64_t refaulted[ANON_AND_FILE][MAX_NR_TIERS];
		uint64_t protected[ANON_AND_FILE][MAX_NR_TIERS];
	} stats;
	/* memcg LRU */
	int gen;				/* memcg generation */
	int seg;				/* MEMCG_LRU_HEAD/TAIL segment, 0 = default */
	int bin;				/* bin it sits in */
	/* lru_gen_mm_state */
	uint64_t mm_seq;			/* walks completed */
	int mm_head;				/* iterate_mm_list cursor: next task index, -1 = at the list head */
	uint64_t *filters[NR_BLOOM_FILTERS];	/* PTE tables worth walking */
	/*
	 * Not the kernel's, for the invariant checks only: inc_min_seq()
	 * retired an oldest gen of this type without sorting its folios
	 * (anon at swappiness 0, file at anon-only), so folios may carry gen
	 * bits outside [min_seq, max_seq] from then on, as in the kernel.
	 */
	bool unsorted_retire[ANON_AND_FILE];
};

enum {
	MEMCG_LRU_NOP,
	MEMCG_LRU_HEAD,
	MEMCG_LRU_TAIL,
	MEMCG_LRU_OLD,
	MEMCG_LRU_YOUNG,
};

/* PID controller position */
struct ctrl_pos {
	uint64_t refaulted;
	uint64_t total;
	int gain;
};

static inline struct lru_gen_folio *lrugen_of(const struct lruvec *lruvec)
{
	return lruvec->lrupriv;
}

static inline int lru_gen_from_seq(uint64_t seq)
{
	return (int)(seq % MAX_NR_GENS);
}

static inline int folio_lru_gen(const struct folio *folio)
{
	return (int)((folio->flags & LRU_GEN_MASK) >> LRU_GEN_PGOFF) - 1;
}

/* Accesses counted, PG_referenced included (0 if not referenced). */
static inline int folio_lru_refs(const struct folio *folio)
{
	if (!folio_test_referenced(folio))
		return 0;
	return (int)((folio->flags & LRU_REFS_MASK) >> LRU_REFS_PGOFF) + 1;
}

/* lru_tier_from_refs(): log2 of the fd accesses; workingset is the top tier. */
static inline int lru_tier_from_refs(int refs, bool workingset)
{
	int order = 0;

	if (workingset)
		return MAX_NR_TIERS - 1;
	while ((1 << order) < refs)
		order++;	/* order_base_2() */
	return order;
}

int get_nr_gens(const struct lruvec *lruvec, int type);
bool lru_gen_is_active(const struct lruvec *lruvec, int gen);
uint64_t lru_gen_folio_seq(const struct lruvec *lruvec, const struct folio *folio,
			   bool reclaiming);
bool positive_ctrl_err(const struct ctrl_pos *sp, const struct ctrl_pos *pv);
void read_ctrl_pos(const struct lruvec *lruvec, int type, int tier, int gain,
		   struct ctrl_pos *pos);
int get_type_to_scan(const struct lruvec *lruvec, int swappiness);
int get_tier_idx(const struct lruvec *lruvec, int type);
/*
 * should_run_aging(): mglru-old also returns the evictable size (nr_to_scan,
 * may be NULL); mglru-budget's is a pure predicate that spares the default
 * priority unless eviction is impossible.
 */
bool should_run_aging(const struct lruvec *lruvec, const struct scan_control *sc,
		      int swappiness, uint64_t *nr_to_scan);
bool try_to_inc_min_seq(struct lruvec *lruvec, int swappiness);
bool inc_max_seq(struct lruvec *lruvec, uint64_t seq, int swappiness, struct actor *a);
bool try_to_inc_max_seq(struct lruvec *lruvec, uint64_t seq, int swappiness,
			struct scan_control *sc);
/* One scan_folios() outcome: scanned count, isolated count, exhausted flag. */
struct scan_result {
	int scanned;
	int isolated;
	bool exhausted;		/* mglru.exhaust_detect: the last evictable gen ran dry */
};
struct scan_result scan_folios(uint64_t nr_to_scan, struct lruvec *lruvec,
			       struct scan_control *sc, int type, int tier, struct flist *list);
int isolate_folios(uint64_t nr_to_scan, struct lruvec *lruvec, struct scan_control *sc,
		   int swappiness, int *type_scanned, struct flist *list, int *isolated);
/* Returns what the policy's loop counts: scanned (and isolated via out). */
int evict_folios(uint64_t nr_to_scan, struct lruvec *lruvec, struct scan_control *sc,
		 int swappiness, int *isolated);
bool try_to_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc);
int get_swappiness(const struct lruvec *lruvec, const struct scan_control *sc);
/*
 * lru_gen_report(): the lruvec's generation counters as (key, value) pairs,
 * in the same order on every call: the rise of max_seq (inc_max_seq, the
 * generations created) and of min_seq per type (the generations retired)
 * and, per type and tier, the folios evicted, refaulted and
 * protected since the start (the counts /sys/kernel/debug/lru_gen_full
 * shows per generation).
 */
void lru_gen_report(const struct lruvec *lruvec, policy_stat_fn add, void *ctx);

/*
 * The [mglru] knobs of a run (--set mglru.KEY=VALUE), as mglru_knobs.set()
 * made them of the scenario's keys; -1 = the policy's kernel default.
 * Variants from the isolate_folios discussion apply to every MGLRU policy.
 * One simulated kernel per process: like mm, one of these.
 */
struct mglru_opts {
	int fallback;		/* 0 scanned0 (7.2), 1 explicit, 2 priority0 (7.3-rc) */
	int exhaust_detect;	/* fall back when the last evictable gen was scanned */
	int retry_once;		/* nothing isolated, not exhausted: same type again */
	int fallback_gate;	/* fall back only if the other type has > MIN_NR_GENS + 1 gens */
	uint64_t min_ttl_ns;	/* lru_gen min_ttl_ms (0 = off) */
	int enabled;		/* lru_gen/enabled: LRU_GEN_* bits (0: the default, all) */
	unsigned int off;	/* MGLRU_OFF_* mechanisms ablated (0: the kernel, all on) */
};

extern struct mglru_opts mglru_opts;
/* The [mglru] section: its keys, and the set() that makes mglru_opts of them. */
extern const struct policy_knobs mglru_knobs;

/*
 * [mglru] ablation switches (issue 33): a set bit removes one mechanism of
 * MGLRU, for measuring what each contributes. Not kernel knobs: the kernel
 * has every one of them on (LRU_GEN_MM_WALK excepted, which lru_gen/enabled
 * also clears).
 */
#define MGLRU_OFF_WALK 0x01		/* try_to_inc_max_seq() without walk_mm() */
#define MGLRU_OFF_LOOK_AROUND 0x02	/* folio_referenced() without lru_gen_look_around()'s neighbours */
#define MGLRU_OFF_BLOOM_FILTER 0x04	/* walk_pmd_range() visits every PTE table */
#define MGLRU_OFF_TIERS 0x08		/* get_tier_idx(): the top tier, no tier protection */
#define MGLRU_OFF_MEMCG_LRU 0x10	/* root reclaim iterates memcgs in order (no memcg LRU) */

/* /sys/kernel/mm/lru_gen/enabled bits (include/linux/mmzone.h) */
#define LRU_GEN_CORE 0x0001		/* MGLRU itself */
#define LRU_GEN_MM_WALK 0x0002		/* the aging walks page tables (should_walk_mmu()) */
#define LRU_GEN_NONLEAF_YOUNG 0x0004	/* ... using non-leaf PMD accessed bits */
#define LRU_GEN_CAPS_ALL 0x0007

#endif
