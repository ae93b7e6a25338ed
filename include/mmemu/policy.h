/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu's reclaim policy API: everything a policy sees of the emulated
 * kernel, and nothing of the engine. The in-tree policies (classic, the
 * multi-gen LRU) are built against this same header.
 *
 * A policy is one struct reclaim_policy. Built into mmemu, it is a line in
 * models/policy/registry.c; built as a shared object, it is the one symbol
 *
 *	const struct reclaim_policy mmemu_policy = { .abi = MMEMU_POLICY_ABI, ... };
 *
 * and `mmemu run SCENARIO --policy ./mine.so` loads it:
 *
 *	cc -shared -fPIC $(pkg-config --cflags mmemu) -o mine.so mine.c
 *
 * The policy keeps its lists in lruvec->lrupriv and links folios through
 * folio->lru_next/lru_prev (struct flist); it accounts every list it keeps
 * in one of the kernel's enum lru_list sizes (update_lru_size()), which the
 * invariant checks compare with check_lruvec()'s walk. Its knobs, if it
 * has any, are a scenario section it declares (struct policy_knobs, with a
 * key table of mmemu/keys.h). shrink_folio_list()
 * does the unmapping, writeback, freeing and accounting for every policy;
 * a policy chooses and isolates. Page-table accesses only set the young bit
 * (the hit path never calls a policy): a policy reads and clears it with
 * folio_referenced(). read()/write() accesses call folio_mark_accessed.
 *
 * Everything here runs inside one simulated kernel per process; there is
 * no locking to do.
 */
#ifndef MMEMU_POLICY_H
#define MMEMU_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mmemu/keys.h"

/*
 * The ABI number: a policy built against another one is refused. Bumped
 * whenever any type or function in this header changes its layout or
 * meaning (models/policy/api.c pins the struct sizes of this number, so
 * that a change to them does not build until it is bumped). ABI 2: a
 * policy declares its knobs (struct policy_knobs) and reports its state
 * (report_stats, sample_state); the key tables of mmemu/keys.h. ABI 3:
 * sample_state fills a struct policy_gens_sample (typed results, no text).
 * ABI 4: struct folio_table keeps its freed folios on a stack (free_stack),
 * not on a list through lru_next.
 */
#define MMEMU_POLICY_ABI 4
/* The symbol a policy shared object exports. */
#define MMEMU_POLICY_SYMBOL "mmemu_policy"

/* Opaque to a policy: reach them through the functions below. */
struct mem_cgroup;
struct pglist_data;
struct actor;

/* ---- folios ---- */

/* Page flags, with the kernel's meaning. */
enum pageflags {
	PG_lru,		/* on an LRU list (not isolated) */
	PG_active,	/* on the active list (classic) or to activate on putback */
	PG_referenced,	/* seen referenced once (fd access, or first young PTE) */
	PG_workingset,	/* was active before (refault restores) */
	PG_dirty,	/* contents newer than the backing store */
	PG_writeback,	/* write to the backing store in flight */
	PG_reclaim,	/* reclaim wants it freed once writeback completes */
	PG_swapbacked,	/* anonymous (swap-backed) memory */
	PG_unevictable,	/* on the unevictable list */
	PG_swapcache,	/* has a swap slot in folio->private */
	PG_uptodate,	/* data read in */
	PG_locked,	/* IO in flight for the reader, reclaim must skip it */
	PG_readahead,	/* read ahead, not yet touched */
	NR_PAGEFLAGS
};

/*
 * Bits 16-20 of folio->flags belong to the policy: the multi-gen LRU keeps
 * its generation (+1, 0 = not on lrugen) and refs there, any other policy
 * may keep what it likes (they are 0 when a folio is allocated).
 */
#define FOLIO_POLICY_PGOFF 16
#define FOLIO_POLICY_WIDTH 5
#define FOLIO_POLICY_MASK (((1U << FOLIO_POLICY_WIDTH) - 1) << FOLIO_POLICY_PGOFF)

struct folio {
	uint32_t lru_next;	/* next folio on its list (towards the tail) */
	uint32_t lru_prev;	/* previous folio (towards the head) */
	uint32_t flags;		/* enum pageflags bits, gen and refs */
	uint32_t mapping;	/* address_space id (file or anon region) */
	uint32_t index;		/* page offset within the mapping */
	uint32_t private;	/* swap slot while in the swap cache */
	uint16_t memcg_id;	/* charged memcg */
	uint8_t nid;		/* node of the page */
	uint8_t lru;		/* list the folio sits on (policy-defined id) */
	uint32_t version;	/* data version, for lost-write checks */
};

_Static_assert(sizeof(struct folio) <= 32, "struct folio must stay within 32 bytes");

/* A list of folios linked by index; head = most recently added. */
struct flist {
	uint32_t head;		/* first folio (youngest), 0 when empty */
	uint32_t tail;		/* last folio (oldest), 0 when empty */
	uint64_t nr;		/* folios on the list */
};

struct folio_table {
	struct folio *f;	/* the folios; f[0] unused */
	uint32_t nr;		/* capacity including f[0] */
	uint32_t nr_fresh;	/* f[nr_fresh..nr-1] were never handed out: free, all zero */
	uint64_t nr_free;	/* free folios: the freed ones and the never used */
	uint32_t *free_stack;	/* freed folios, all zero, last freed on top */
	uint64_t nr_stacked;	/* ... on free_stack */
};

extern struct folio_table folio_table;


static inline struct folio *folio_of(uint32_t idx)
{
	return &folio_table.f[idx];
}

static inline uint32_t folio_idx(const struct folio *folio)
{
	return (uint32_t)(folio - folio_table.f);
}

#define FOLIO_FLAG_FNS(name)                                                   \
	static inline bool folio_test_##name(const struct folio *f)            \
	{                                                                      \
		return f->flags & (1U << PG_##name);                           \
	}                                                                      \
	static inline void folio_set_##name(struct folio *f)                   \
	{                                                                      \
		f->flags |= 1U << PG_##name;                                   \
	}                                                                      \
	static inline void folio_clear_##name(struct folio *f)                 \
	{                                                                      \
		f->flags &= ~(1U << PG_##name);                                \
	}                                                                      \
	static inline bool folio_test_clear_##name(struct folio *f)            \
	{                                                                      \
		bool was = f->flags & (1U << PG_##name);                       \
		f->flags &= ~(1U << PG_##name);                                \
		return was;                                                    \
	}

FOLIO_FLAG_FNS(lru)
FOLIO_FLAG_FNS(active)
FOLIO_FLAG_FNS(referenced)
FOLIO_FLAG_FNS(workingset)
FOLIO_FLAG_FNS(dirty)
FOLIO_FLAG_FNS(writeback)
FOLIO_FLAG_FNS(reclaim)
FOLIO_FLAG_FNS(swapbacked)
FOLIO_FLAG_FNS(unevictable)
FOLIO_FLAG_FNS(swapcache)
FOLIO_FLAG_FNS(uptodate)
FOLIO_FLAG_FNS(locked)
FOLIO_FLAG_FNS(readahead)

/* folio_is_file_lru(): page cache rather than swap-backed. */
static inline bool folio_is_file_lru(const struct folio *f)
{
	return !folio_test_swapbacked(f);
}

static inline bool folio_test_anon(const struct folio *f)
{
	return folio_test_swapbacked(f);
}

/* ---- index-linked lists ---- */

static inline void flist_init(struct flist *l)
{
	l->head = l->tail = 0;
	l->nr = 0;
}

static inline bool flist_empty(const struct flist *l)
{
	return !l->head;
}

/* list_add(): at the head (youngest end). */
static inline void flist_add(struct flist *l, uint32_t idx)
{
	struct folio *f = folio_of(idx);

	f->lru_prev = 0;
	f->lru_next = l->head;
	if (l->head)
		folio_of(l->head)->lru_prev = idx;
	else
		l->tail = idx;
	l->head = idx;
	l->nr++;
}

/* list_add_tail(): at the tail (oldest end), where reclaim looks first. */
static inline void flist_add_tail(struct flist *l, uint32_t idx)
{
	struct folio *f = folio_of(idx);

	f->lru_next = 0;
	f->lru_prev = l->tail;
	if (l->tail)
		folio_of(l->tail)->lru_next = idx;
	else
		l->head = idx;
	l->tail = idx;
	l->nr++;
}

static inline void flist_del(struct flist *l, uint32_t idx)
{
	struct folio *f = folio_of(idx);

	if (f->lru_prev)
		folio_of(f->lru_prev)->lru_next = f->lru_next;
	else
		l->head = f->lru_next;
	if (f->lru_next)
		folio_of(f->lru_next)->lru_prev = f->lru_prev;
	else
		l->tail = f->lru_prev;
	f->lru_next = f->lru_prev = 0;
	l->nr--;
}

/* Moves every folio of `from` to the head of `to`, keeping their order. */
static inline void flist_splice(struct flist *from, struct flist *to)
{
	if (flist_empty(from))
		return;
	if (to->head) {
		folio_of(from->tail)->lru_next = to->head;
		folio_of(to->head)->lru_prev = from->tail;
	} else {
		to->tail = from->tail;
	}
	to->head = from->head;
	to->nr += from->nr;
	flist_init(from);
}

/* Pops the tail folio (lru_to_folio + list_del), 0 if empty. */
static inline uint32_t flist_pop_tail(struct flist *l)
{
	uint32_t idx = l->tail;

	if (idx)
		flist_del(l, idx);
	return idx;
}


/* ---- lruvecs and their counters ---- */

#define SWAP_CLUSTER_MAX 32UL
#define DEF_PRIORITY 12

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};
#define NR_EVICTABLE_LRU LRU_UNEVICTABLE
#define LRU_BASE 0
#define LRU_ACTIVE 1
#define LRU_FILE 2

static inline bool is_file_lru(enum lru_list lru)
{
	return lru == LRU_INACTIVE_FILE || lru == LRU_ACTIVE_FILE;
}

static inline bool is_active_lru(enum lru_list lru)
{
	return lru == LRU_ACTIVE_ANON || lru == LRU_ACTIVE_FILE;
}

#define for_each_evictable_lru(lru) for (lru = 0; lru < NR_EVICTABLE_LRU; lru++)

/* Per-lruvec state counters (node_stat_item); node and memcg values are sums. */
enum node_stat_item {
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE,
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_ISOLATED_ANON,
	NR_ISOLATED_FILE,
	NR_ANON_MAPPED,		/* anon pages resident */
	NR_FILE_PAGES,		/* page cache pages */
	NR_FILE_MAPPED,		/* page cache pages mapped by a PTE */
	NR_FILE_DIRTY,
	NR_WRITEBACK,
	WORKINGSET_REFAULT_ANON,
	WORKINGSET_REFAULT_FILE,
	WORKINGSET_ACTIVATE_ANON,
	WORKINGSET_ACTIVATE_FILE,
	WORKINGSET_RESTORE_ANON,
	WORKINGSET_RESTORE_FILE,
	WORKINGSET_NODERECLAIM,
	NR_NODE_STAT_ITEMS
};
#define WORKINGSET_REFAULT_BASE WORKINGSET_REFAULT_ANON
#define WORKINGSET_ACTIVATE_BASE WORKINGSET_ACTIVATE_ANON
#define WORKINGSET_RESTORE_BASE WORKINGSET_RESTORE_ANON

/* Events (vm_event_item), counted globally and per memcg. */
enum vm_event_item {
	PGPGIN,
	PGPGOUT,
	PSWPIN,
	PSWPOUT,
	PGALLOC,
	PGFREE,
	PGACTIVATE,
	PGDEACTIVATE,
	PGFAULT,
	PGMAJFAULT,
	PGREFILL,
	PGSTEAL_KSWAPD,
	PGSTEAL_DIRECT,
	PGSCAN_KSWAPD,
	PGSCAN_DIRECT,
	PGSCAN_DIRECT_THROTTLE,
	PGSCAN_ANON,
	PGSCAN_FILE,
	PGSTEAL_ANON,
	PGSTEAL_FILE,
	PGROTATED,
	ALLOCSTALL,
	PAGEOUTRUN,
	OOM_KILL,
	NR_DIRTIED,		/* pages dirtied */
	NR_WRITTEN,		/* pages written back */
	NR_VMSCAN_WRITE,	/* pages reclaim wrote itself (pageout) */
	NR_VMSCAN_IMMEDIATE,	/* dirty pages reclaim marked for immediate reclaim */
	NR_VM_EVENT_ITEMS
};

/* The LRU vector of one memcg on one node. */
struct lruvec {
	struct mem_cgroup *memcg;	/* owner */
	int nid;			/* node */
	int64_t stat[NR_NODE_STAT_ITEMS];	/* local counters of this (memcg, node) */
	int64_t stat_flushed[NR_NODE_STAT_ITEMS];	/* hierarchical, as of the last rstat flush */
	uint64_t anon_cost;		/* lru_note_cost(): recent anon reclaim cost */
	uint64_t file_cost;		/* ... and file */
	uint64_t nonresident_age;	/* workingset clock: evictions + activations */
	uint64_t refaults[2];		/* WORKINGSET_ACTIVATE snapshot (anon, file) */
	unsigned long flags;		/* LRUVEC_* bits */
	void *lrupriv;			/* policy state, opaque to vmscan */
};

enum lruvec_flags {
	LRUVEC_CGROUP_CONGESTED,	/* memcg reclaim saw dirty == congested */
	LRUVEC_NODE_CONGESTED,		/* node-level congestion */
};

/* lruvec_lru_size(): pages on this lruvec's own list. */
static inline uint64_t lruvec_lru_size(const struct lruvec *lruvec, enum lru_list lru)
{
	return (uint64_t)lruvec->stat[NR_LRU_BASE + lru];
}

/* update_lru_size(): list size accounting shared by every policy. */
static inline void update_lru_size(struct lruvec *lruvec, enum lru_list lru, int64_t nr)
{
	lruvec->stat[NR_LRU_BASE + lru] += nr;
}

/* ---- reclaim ---- */

struct scan_control {
	uint64_t nr_to_reclaim;		/* how many pages to reclaim */
	struct mem_cgroup *target_mem_cgroup;	/* memcg-limit reclaim target, NULL = global */
	uint64_t anon_cost, file_cost;	/* target lruvec costs at prepare_scan_count */
	unsigned int may_deactivate;	/* DEACTIVATE_ANON / DEACTIVATE_FILE */
	bool force_deactivate;		/* retry with forced deactivation */
	bool skipped_deactivate;	/* an active list was not aged */
	bool may_writepage;		/* may write dirty pages */
	bool may_unmap;			/* may unmap mapped pages */
	bool may_swap;			/* may swap out anon pages */
	bool proactive;			/* memory.reclaim */
	bool memcg_low_reclaim;		/* may reclaim below memory.low */
	bool memcg_low_skipped;		/* a memcg was skipped for memory.low */
	bool cache_trim_mode;		/* plenty of non-thrashing inactive file */
	bool file_is_tiny;		/* file LRU too small to reclaim alone */
	int priority;			/* scan size >> priority */
	int swappiness;			/* -1: the memcg's; else forced (memory.reclaim) */
	uint64_t nr_scanned;		/* pages scanned (inactive lists) */
	uint64_t nr_reclaimed;		/* pages freed */
	struct {			/* shrink_folio_list() findings this shrink_node */
		unsigned int dirty;
		unsigned int unqueued_dirty;	/* mglru-old only (gone with the series' 14) */
		unsigned int congested;
		unsigned int writeback;
		unsigned int immediate;
		unsigned int file_taken;	/* mglru-old only (gone with the series' 13) */
		unsigned int taken;
	} nr;
	struct actor *actor;		/* the reclaiming actor (CPU is charged to it) */
	bool kswapd;			/* current_is_kswapd() */
	bool mm_walk;			/* MGLRU: current->reclaim_state->mm_walk is set */
};

#define DEACTIVATE_ANON 1
#define DEACTIVATE_FILE 2

/* folio_check_references() verdicts */
enum folio_references {
	FOLIOREF_RECLAIM,
	FOLIOREF_KEEP,
	FOLIOREF_ACTIVATE,
};

/* What shrink_folio_list() saw (struct reclaim_stat). */
struct reclaim_stat {
	unsigned int nr_dirty;
	unsigned int nr_unqueued_dirty;
	unsigned int nr_congested;
	unsigned int nr_writeback;
	unsigned int nr_immediate;
	unsigned int nr_pageout;
	unsigned int nr_activate[2];
	unsigned int nr_ref_keep;
	unsigned int nr_unmap_fail;
};

static inline bool cgroup_reclaim(const struct scan_control *sc)
{
	return sc->target_mem_cgroup != NULL;
}

/* sc_swappiness(): forced by memory.reclaim, else the memcg's. */
int sc_swappiness(const struct scan_control *sc, const struct mem_cgroup *memcg);
/* can_reclaim_anon_pages(): swap space exists for this memcg */
bool can_reclaim_anon_pages(const struct mem_cgroup *memcg, int nid,
			    const struct scan_control *sc);

/*
 * Frees what it can of the isolated folios on `list` (unmaps, writes back
 * dirty ones, leaves shadows through the policy's workingset_eviction);
 * what stays on the list is for the policy to put back (PG_active set:
 * activate). Returns pages freed.
 */
uint64_t shrink_folio_list(struct flist *list, struct pglist_data *pgdat,
			   struct scan_control *sc, struct reclaim_stat *stat,
			   bool ignore_references);
/* After shrink_folio_list(): flusher wakeup and sc->nr writeback statistics. */
void handle_reclaim_writeback(uint64_t nr_taken, struct pglist_data *pgdat,
			      struct scan_control *sc, const struct reclaim_stat *stat);
/* folio_referenced(): test and clear the young PTEs; their count, and VM_EXEC. */
int folio_referenced(struct folio *folio, bool *vm_exec);
/* inactive_is_low(): inactive * sqrt(10 * GB) < active (hierarchical sizes). */
bool inactive_is_low(struct lruvec *lruvec, enum lru_list inactive_lru);
/* lru_note_cost(): charge reclaim cost to the lruvec and its ancestors. */
void lru_note_cost(struct lruvec *lruvec, bool file, uint64_t nr_io, uint64_t nr_rotated);
void lru_note_cost_refault(struct folio *folio);
/* apply_proportional_protection(): memory.min/low scale a scan target. */
uint64_t apply_proportional_protection(struct mem_cgroup *memcg, struct scan_control *sc,
				       uint64_t scan);

/* CPU the reclaimer spends: isolating nr folios, moving nr between lists. */
void sc_charge_isolate(struct scan_control *sc, uint64_t nr);
void sc_charge_lru_move(struct scan_control *sc, uint64_t nr);
/* cond_resched() of the reclaiming task. */
void sc_cond_resched(struct scan_control *sc);

/* lruvec_page_state(): hierarchical (the memcg and its descendants). */
uint64_t lruvec_page_state(const struct lruvec *lruvec, enum node_stat_item idx);
/* node_page_state(): summed over every memcg. */
uint64_t node_page_state(const struct pglist_data *pgdat, enum node_stat_item idx);

/* mem_cgroup_id(), its name ("" for the root), and whether it is still online. */
unsigned short mem_cgroup_id(const struct mem_cgroup *memcg);
const char *mem_cgroup_name(const struct mem_cgroup *memcg);
bool mem_cgroup_online(const struct mem_cgroup *memcg);

/* ---- workingset (mm/workingset.c) ---- */

/* Bits of eviction timestamp a shadow keeps (the rest: memcg, node, workingset). */
#define WORKINGSET_EVICTION_BITS 24
#define EVICTION_MASK ((1ULL << WORKINGSET_EVICTION_BITS) - 1)

uint64_t pack_shadow(unsigned short memcgid, int nid, uint64_t eviction, bool workingset);
void unpack_shadow(uint64_t shadow, unsigned short *memcgid, int *nid,
		   uint64_t *eviction, bool *workingset);
/* Advances the non-resident clock of the lruvec and its ancestors. */
void workingset_age_nonresident(struct lruvec *lruvec, uint64_t nr_pages);
/* The kernel's: shadow for an evicted folio (ages the target's clock), refault, activation. */
uint64_t workingset_eviction(struct folio *folio, struct mem_cgroup *target_memcg);
void workingset_refault(struct folio *folio, uint64_t shadow);
void workingset_activation(struct folio *folio);
/*
 * For a policy's own refault rule: the lruvec whose non-resident clock the
 * shadow was taken from (*eviction_lruvec, NULL if that memcg is gone), the
 * shadow's workingset bit, and the refault distance: how far that clock
 * advanced since the eviction (UINT64_MAX when the lruvec is gone).
 */
uint64_t workingset_refault_distance(uint64_t shadow, struct lruvec **eviction_lruvec,
				     bool *workingset);

/*
 * In mmemu these are inline and reach the kernel's globals; a policy
 * built outside gets them as functions of the same names and meaning.
 */
struct pglist_data *mmemu_lruvec_pgdat(const struct lruvec *lruvec);
struct lruvec *mmemu_folio_lruvec(const struct folio *folio);
struct mem_cgroup *mmemu_folio_memcg(const struct folio *folio);
void mmemu_mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int64_t val);
void mmemu_count_vm_events(enum vm_event_item item, uint64_t n);
void mmemu_count_memcg_events(struct mem_cgroup *memcg, enum vm_event_item item, uint64_t n);
bool mmemu_root_reclaim(const struct scan_control *sc);

#ifndef MMEMU_INTERNAL
static inline struct pglist_data *lruvec_pgdat(const struct lruvec *lruvec)
{
	return mmemu_lruvec_pgdat(lruvec);
}

static inline struct lruvec *folio_lruvec(const struct folio *folio)
{
	return mmemu_folio_lruvec(folio);
}

static inline struct mem_cgroup *folio_memcg(const struct folio *folio)
{
	return mmemu_folio_memcg(folio);
}

static inline void mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int64_t val)
{
	mmemu_mod_lruvec_state(lruvec, idx, val);
}

static inline void count_vm_events(enum vm_event_item item, uint64_t n)
{
	mmemu_count_vm_events(item, n);
}

static inline void count_memcg_events(struct mem_cgroup *memcg, enum vm_event_item item,
				      uint64_t n)
{
	mmemu_count_memcg_events(memcg, item, n);
}

static inline bool root_reclaim(const struct scan_control *sc)
{
	return mmemu_root_reclaim(sc);
}
#endif

/* ---- the policy ---- */

/*
 * The generations a "gens" sample row (sample_state below) carries at most:
 * the multi-gen LRU's MAX_NR_GENS; mmemu plot and view draw that many.
 */
#define MMEMU_SAMPLE_MAX_GENS 4

/*
 * A "gens" sample row of one lruvec, as sample_state fills it: the seqs and
 * the generations of /sys/kernel/debug/lru_gen, oldest first.
 */
struct policy_gens_sample {
	uint64_t max_seq;		/* lrugen->max_seq */
	uint64_t min_seq[2];		/* lrugen->min_seq[] of anon and file */
	int nr_gens;			/* generations in gen[], 1 to MMEMU_SAMPLE_MAX_GENS */
	struct {
		uint64_t seq;		/* its seq */
		uint64_t age_ms;	/* now - its birth (lrugen->timestamps[]) */
		int64_t anon, file;	/* lrugen->nr_pages[gen][type] */
	} gen[MMEMU_SAMPLE_MAX_GENS];
};

/* Output sink for print_state (teaching dumps). */
typedef void (*policy_print_fn)(void *ctx, const char *line);
/* One counter of report_stats: its name and value. */
typedef void (*policy_stat_fn)(void *ctx, const char *key, uint64_t value);

/*
 * A policy's knobs: the keys of one scenario section ([mglru]), read by
 * mmemu's parser (mmemu/keys.h) into a struct of the policy's own, whose
 * field each key's `offset` names. Policies that share a section (the
 * MGLRU variants) share one of these. `mmemu list sections` lists the keys
 * with their doc lines; a scenario that sets a key under another policy
 * is not refused (the other policy reads none of it).
 */
struct policy_knobs {
	const char *section;		/* [section], and --set section.KEY=VALUE */
	const char *desc;		/* one line for `mmemu list sections` */
	const struct key_desc *keys;	/* {0}-terminated, each with its doc line */
	size_t size;			/* bytes of the struct the keys fill */
	const void *defaults;		/* that struct before any key is read */
	/*
	 * The values of a run: called by mm_init() with the defaults, then
	 * with the scenario's before the first task runs.
	 */
	void (*set)(const void *values);
};

struct reclaim_policy {
	uint32_t abi;		/* MMEMU_POLICY_ABI it was built against (first, always) */
	const char *name;	/* --policy name */
	const char *desc;	/* one line for `mmemu list` */

	/* per-lruvec state, lruvec->lrupriv */
	int (*lruvec_init)(struct lruvec *lruvec);
	void (*lruvec_exit)(struct lruvec *lruvec);

	/* folio_add_lru(): a new folio (or refaulted one) joins the LRU */
	void (*folio_add)(struct lruvec *lruvec, struct folio *folio);
	/* lruvec_del_folio(): remove a folio that is on the LRU (truncation, exit) */
	void (*folio_del)(struct lruvec *lruvec, struct folio *folio);
	/* move_folios_to_lru(): put back a folio reclaim did not free */
	void (*folio_putback)(struct lruvec *lruvec, struct folio *folio);
	/* folio_rotate_reclaimable(): written back for reclaim, move to the tail */
	void (*folio_rotate)(struct lruvec *lruvec, struct folio *folio);
	/* folio_mark_accessed(): a read()/write() access */
	void (*folio_mark_accessed)(struct folio *folio);

	/* shrink_lruvec(): reclaim from one lruvec under sc */
	void (*shrink_lruvec)(struct lruvec *lruvec, struct scan_control *sc);
	/* optional: replaces shrink_node_memcgs() for root (global) reclaim */
	void (*shrink_node)(struct pglist_data *pgdat, struct scan_control *sc);
	/* kswapd_age_node(): background aging before kswapd reclaims */
	void (*age_node)(struct pglist_data *pgdat, struct scan_control *sc);

	/* optional: folio_check_references() when the policy has its own rules */
	enum folio_references (*check_references)(struct folio *folio,
						  struct scan_control *sc);

	/* workingset: shadow entry for an evicted folio, and its refault */
	uint64_t (*workingset_eviction)(struct folio *folio, struct mem_cgroup *target_memcg);
	void (*workingset_refault)(struct folio *folio, uint64_t shadow);

	/* invariants: walks the lists, counting folios per lru; 0 or -1 */
	int (*check_lruvec)(struct lruvec *lruvec, uint64_t nr_listed[NR_LRU_LISTS],
			    char *err, size_t len);
	/* teaching dump of one lruvec (optional) */
	void (*print_state)(struct lruvec *lruvec, policy_print_fn out, void *ctx);

	/* optional: the scenario section of its knobs */
	const struct policy_knobs *knobs;
	/*
	 * optional: counters of one lruvec as (key, value) pairs, the same keys
	 * in the same order on every call; a run sums them over the nodes of
	 * each memcg into the result group memcg.NAME.<stats_name>
	 */
	const char *stats_name;
	void (*report_stats)(const struct lruvec *lruvec, policy_stat_fn add, void *ctx);
	/*
	 * optional: a --sample row of one lruvec (what `mmemu view` and `mmemu
	 * plot` draw): its generations, filled into row (zeroed before), in a
	 * row of kind sample_kind. Without it a row has the four LRU list
	 * sizes ("lists").
	 */
	const char *sample_kind;	/* "gens" */
	void (*sample_state)(const struct lruvec *lruvec, uint64_t now_ns,
			     struct policy_gens_sample *row);

	const void *variant;	/* policy-private constants (MGLRU before/after) */
};


#endif
