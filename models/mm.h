/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The memory-management model, as in the kernel's include/linux/mmzone.h,
 * memcontrol.h and mm_types.h: nodes (pglist_data), memory cgroups, one
 * lruvec per (memcg, node), address spaces (files and anonymous regions),
 * tasks, and the counters printed under /proc/vmstat and memory.stat names.
 *
 * One simulated kernel per process: like the kernel's NODE_DATA() and
 * root_mem_cgroup, its state is global (struct mm_kernel mm).
 */
#ifndef MMEMU_MODELS_MM_H
#define MMEMU_MODELS_MM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/engine.h"
#include "models/folio.h"
#include "models/kernel_version.h"
#include "models/psi.h"
#include "mmemu/policy.h"
#include "numa/numa.h"
#include "storage/blockdev.h"

#define MAX_RECLAIM_RETRIES 16
#define MAX_MEMCGS 1024
#define MAX_TASKS 4096



/* memory.events */
enum memcg_memory_event {
	MEMCG_LOW,
	MEMCG_HIGH,
	MEMCG_MAX,
	MEMCG_OOM,
	MEMCG_OOM_KILL,
	MEMCG_OOM_GROUP_KILL,	/* oom_group_kill (5.16): memory.oom.group kills of this memcg */
	MEMCG_NR_MEMORY_EVENTS
};

extern const char *const node_stat_vmstat_name[NR_NODE_STAT_ITEMS];
extern const char *const node_stat_memcg_name[NR_NODE_STAT_ITEMS];
extern const char *const vm_event_name[NR_VM_EVENT_ITEMS];
extern const char *const memcg_event_name[MEMCG_NR_MEMORY_EVENTS];

struct mem_cgroup;
struct reclaim_policy;
struct swap_info;


struct mem_cgroup {
	char name[64];			/* its name, "" for the root (never cut: see mem_cgroup_create) */
	unsigned short id;		/* mem_cgroup_id(), nonzero */
	struct mem_cgroup *parent;	/* NULL for the root */
	struct mem_cgroup **children;	/* child memcgs */
	int nr_children;
	uint64_t max, high, low, min;	/* limits in pages (UINT64_MAX = "max") */
	uint64_t swap_max;		/* memory.swap.max in pages */
	int swappiness;			/* memory.swappiness (cgroup v1 semantics, kept) */
	bool oom_group;			/* memory.oom.group: the OOM killer kills it whole */
	uint64_t usage;			/* page_counter: pages charged */
	uint64_t watermark;		/* memory.peak */
	uint64_t swap_usage;		/* swap slots charged */
	uint64_t emin, elow;		/* effective protection for the current reclaim */
	uint64_t memory_events[MEMCG_NR_MEMORY_EVENTS];	/* memory.events (local) */
	uint64_t events[NR_VM_EVENT_ITEMS];	/* local event counts */
	struct lruvec *lruvec[MAX_NUMNODES];	/* per node */
	bool online;			/* not deleted */
	void *lrupriv;			/* policy state per memcg (memcg LRU) */
	uint64_t stats_updates;		/* |stat changes| in its subtree since its last flush */
	uint64_t nr_charge_inflight;	/* charged here, no folio yet (alloc_charge_folio in reclaim) */
	struct psi_group psi;		/* memory.pressure (the root's: /proc/pressure/memory) */
	/* zswap (models/zswap.c) */
	uint64_t zswap_max;		/* memory.zswap.max in pages (UINT64_MAX = "max") */
	uint64_t zswap_b;		/* memory.stat zswap: pool bytes of its subtree (MEMCG_ZSWAP_B) */
	uint64_t zswapped;		/* memory.stat zswapped: pages of its subtree (MEMCG_ZSWAPPED) */
	uint64_t zswap_own_b;		/* pool bytes of its own entries */
	uint64_t zswap_charged;		/* pages of usage those bytes are charged as */
	uint64_t zswap_events[3];	/* ZSWPIN, ZSWPOUT, ZSWPWB (local) */
};

enum pgdat_flags {
	PGDAT_WRITEBACK,	/* reclaim met many pages under writeback */
	PGDAT_RECLAIM_LOCKED,
};

enum vmscan_throttle_state {
	VMSCAN_THROTTLE_WRITEBACK,
	VMSCAN_THROTTLE_ISOLATED,
	VMSCAN_THROTTLE_NOPROGRESS,
	VMSCAN_THROTTLE_CONGESTED,
	NR_VMSCAN_THROTTLE
};

/* Per-node memory-management state (struct pglist_data). */
struct pglist_data {
	int node_id;			/* nid */
	struct numa_node *node;		/* free pages and watermarks (numa/) */
	struct actor *kswapd;		/* the node's kswapd */
	struct waitq *kswapd_wait;	/* kswapd sleeps here */
	bool kswapd_sleeping;		/* waiting on kswapd_wait */
	int kswapd_failures;		/* balance_pgdat runs that reclaimed nothing */
	unsigned long flags;		/* PGDAT_* bits */
	struct waitq *reclaim_wait[NR_VMSCAN_THROTTLE];	/* reclaim_throttle() */
	int nr_reclaim_throttled;	/* throttled on WRITEBACK */
	uint64_t nr_reclaim_start;	/* NR_THROTTLED_WRITTEN snapshot */
	uint64_t nr_throttled_written;	/* pages written back since */
	uint64_t throttle_ns[NR_VMSCAN_THROTTLE];	/* time spent throttled */
	void *lrupriv;			/* policy state per node */
};

enum address_space_type {
	AS_FILE,
	AS_ANON
};

/* slot values: 0 empty, folio index, or an xa_value (shadow) entry */
#define XA_VALUE_BIT (1ULL << 63)

static inline bool xa_is_value(uint64_t entry)
{
	return entry & XA_VALUE_BIT;
}

/* vm_flags of a mapping: madvise(MADV_SEQUENTIAL / MADV_RANDOM) */
#define VM_SEQ_READ 0x1
#define VM_RAND_READ 0x2

/*
 * A workload's madvise()/posix_fadvise() hint for every mapping and file
 * it opens (MADV_NORMAL/RANDOM/SEQUENTIAL, POSIX_FADV_* alike).
 */
enum mm_advice {
	ADVICE_NORMAL,
	ADVICE_RANDOM,		/* VM_RAND_READ; FMODE_RANDOM: no readahead */
	ADVICE_SEQUENTIAL,	/* VM_SEQ_READ; f_ra.ra_pages doubled */
};

/* The vm_flags madvise(advice) gives a mapping. */
static inline uint8_t advice_vm_flags(int advice)
{
	return advice == ADVICE_RANDOM ? VM_RAND_READ :
	       advice == ADVICE_SEQUENTIAL ? VM_SEQ_READ : 0;
}

/*
 * vma_has_recency() (Linux 6.3, "mm: add vma_has_recency()"): a
 * VM_SEQ_READ or VM_RAND_READ mapping has no temporal locality, so the LRU
 * ignores its references: the rmap walk skips it
 * (invalid_folio_referenced_vma()), so does the MGLRU page-table walk
 * (should_skip_vma()), the unmap passes no young bit on, and its faults
 * are not LRU faults (lru_gen_enter_fault()).
 */
static inline bool vma_has_recency(uint8_t vm_flags)
{
	return !(vm_flags & (VM_SEQ_READ | VM_RAND_READ));
}

/* What the rmap walk does with one young PTE of a mapping (folio_referenced_one()). */
enum rmap_young {
	RMAP_YOUNG_SKIP,	/* the mapping is not looked at: its young bit stays */
	RMAP_YOUNG_CLEAR,	/* the young bit is cleared but does not count */
	RMAP_YOUNG_COUNT,	/* cleared, and a reference */
};

/*
 * Since 6.3 (mm.kernel->vma_has_recency) rmap skips a mapping without
 * recency whole (invalid_folio_referenced_vma()); before, it cleared the
 * young bit of every mapping and counted it unless VM_SEQ_READ, so a
 * VM_RAND_READ mapping's references still counted.
 */
static inline enum rmap_young rmap_young_rule(const struct kernel_rules *k, uint8_t vm_flags)
{
	if (k->vma_has_recency)
		return vma_has_recency(vm_flags) ? RMAP_YOUNG_COUNT : RMAP_YOUNG_SKIP;
	return vm_flags & VM_SEQ_READ ? RMAP_YOUNG_CLEAR : RMAP_YOUNG_COUNT;
}

/*
 * zap_pte_range(): does a young PTE of this mapping mark the folio
 * accessed? Since 6.3 only with recency; before, unless VM_SEQ_READ.
 */
static inline bool zap_young_counts(const struct kernel_rules *k, uint8_t vm_flags)
{
	return k->vma_has_recency ? vma_has_recency(vm_flags) : !(vm_flags & VM_SEQ_READ);
}

/* PTE bits of a mapped page: one PTE per page per mm that maps it. */
#define PTE_PRESENT 0x1
#define PTE_YOUNG 0x2
#define PTE_DIRTY 0x4
/*
 * The node of the page a present PTE maps: a PTE holds the page's PFN, and
 * the PFN names its node (pfn_to_nid()). A folio here never changes node,
 * so the bits hold while the PTE is present, and a hit learns its NUMA
 * cost from the PTE alone, as the hardware does, without reading the folio.
 */
#define PTE_NID_SHIFT 3
#define PTE_NID_MASK (0x7 << PTE_NID_SHIFT)
_Static_assert(MAX_NUMNODES <= 8, "a PTE has three bits for the node");

/* mk_pte(): the PTE that maps folio (present, its node; no young or dirty bit) */
static inline uint8_t mk_pte(const struct folio *folio)
{
	return (uint8_t)(PTE_PRESENT | (folio->nid << PTE_NID_SHIFT));
}

/* the node of the page a present PTE maps */
static inline int pte_nid(uint8_t pte)
{
	return (pte & PTE_NID_MASK) >> PTE_NID_SHIFT;
}

struct task;
struct address_space;

/*
 * Asks the host for transparent huge pages under [p, p + bytes) (the 2 MiB
 * pages wholly inside; a hint, ignored where the host has none): the folio
 * table and the per-page arrays are read at random on large runs, and a TLB
 * miss on each read there costs more than the read (issue 38).
 */
void host_hugepage_hint(void *p, size_t bytes);

/*
 * A per-page array that most pages never store to (a file page's disk
 * version, its mapcount), in 4 KiB blocks: a block is zeroed at its first
 * store, and a read of a block never stored to is 0 and touches nothing.
 * So the per-page path never reads memory that was never written: on a host
 * without a zero page (PVM's pvm_no_zero_page) such a read costs a fault the
 * first time, and every read of an array costs cache and TLB misses that a
 * bit in a small bitmap does not (issue 38).
 */
#define LAZY_BLOCK_SHIFT 12

struct lazy_array {
	unsigned char *base;		/* the array: valid in the blocks stored to */
	uint64_t *stored;		/* a bit per block: zeroed and stored to */
	uint64_t bytes;			/* its size */
};

/* An array of nr elements of elem bytes, all 0, no block touched: 0 or -ENOMEM. */
int lazy_array_init(struct lazy_array *la, uint64_t nr, size_t elem);
void lazy_array_free(struct lazy_array *la);
/* Zeroes the block that holds byte `off` and marks it stored to. */
void lazy_array_store_block(struct lazy_array *la, uint64_t off);

static inline bool lazy_array_stored(const struct lazy_array *la, uint64_t off)
{
	uint64_t b = off >> LAZY_BLOCK_SHIFT;

	return la->stored[b / 64] >> (b % 64) & 1;
}

/* Element i of a uint16_t array: 0 where no store was made */
static inline uint16_t lazy_u16(const struct lazy_array *la, uint64_t i)
{
	return lazy_array_stored(la, i * 2) ? ((const uint16_t *)la->base)[i] : 0;
}

/* ... and the place to store it (its block zeroed first if it never was) */
static inline uint16_t *lazy_u16_ptr(struct lazy_array *la, uint64_t i)
{
	if (!lazy_array_stored(la, i * 2))
		lazy_array_store_block(la, i * 2);
	return &((uint16_t *)la->base)[i];
}

static inline void lazy_u16_set(struct lazy_array *la, uint64_t i, uint16_t v)
{
	if (!lazy_array_stored(la, i * 2)) {
		if (!v)
			return;	/* it reads 0 already */
		lazy_array_store_block(la, i * 2);
	}
	((uint16_t *)la->base)[i] = v;
}

static inline uint32_t lazy_u32(const struct lazy_array *la, uint64_t i)
{
	return lazy_array_stored(la, i * 4) ? ((const uint32_t *)la->base)[i] : 0;
}

static inline void lazy_u32_set(struct lazy_array *la, uint64_t i, uint32_t v)
{
	if (!lazy_array_stored(la, i * 4)) {
		if (!v)
			return;	/* it reads 0 already */
		lazy_array_store_block(la, i * 4);
	}
	((uint32_t *)la->base)[i] = v;
}

/*
 * A task's mapping of a file (vm_area_struct, MAP_SHARED, the whole file):
 * its own PTEs, so that processes mapping one file each set their own young
 * bits, each is walked by the MGLRU aging, and reclaim's rmap visits them
 * all. Threads of one task share it.
 */
struct vm_area {
	struct task *task;		/* the mm it belongs to */
	struct address_space *file;	/* the file mapped */
	uint8_t *ptes;			/* per file page: PTE_* bits of this mm */
	uint8_t vm_flags;		/* VM_SEQ_READ, VM_RAND_READ (the task's advice) */
	struct vm_area *i_mmap_next;	/* the file's next mapping (i_mmap) */
};

/* A file's page cache or an anonymous region's page table. */
struct address_space {
	uint32_t id;			/* index in mm.mappings */
	enum address_space_type type;	/* file or anon */
	char name[96];			/* scenario name (never cut: see file_create) */
	uint64_t nr_pages;		/* size */
	uint64_t *slots;		/* per page: folio index, shadow, or 0 */
	uint8_t *ptes;			/* anon: per page PTE_* bits (its one mm) */
	struct vm_area *i_mmap;		/* file: the mappings, most recent first */
	struct lazy_array mapcount;	/* file: uint16_t per page, PTEs that map it (folio_mapcount) */
	struct blockdev *bdev;		/* backing device (files) */
	uint64_t bdev_start;		/* first page number on the device */
	struct task *owner;		/* anon: the task whose region this is */
	bool exec;			/* mapped VM_EXEC */
	uint8_t vm_flags;		/* anon: its vma's VM_SEQ_READ, VM_RAND_READ */
	uint64_t nr_resident;		/* folios present */
	uint64_t ra_prev;		/* readahead: last index read + 1 */
	uint32_t ra_size;		/* readahead: current window in pages */
	uint32_t mmap_miss;		/* faults that missed, less hits (read-around off past 100) */
	double compress_ratio;		/* anon: zram compression ratio of its data (0: default) */
	uint64_t nr_dirty;		/* dirty page cache folios */
	uint64_t *dirty_tag;		/* file: PAGECACHE_TAG_DIRTY, a bit per page */
	uint64_t *dirty_tag_sum;	/* file: a bit per dirty_tag word that is nonzero */
	uint64_t dirtied_ns;		/* when it went from clean to dirty (inode->dirtied_when) */
	uint64_t writeback_index;	/* where the flusher goes on */
	struct lazy_array disk_version;	/* uint32_t per page: the data version the device holds */
	uint32_t *page_version;		/* per page: the version last written, wherever it is now */
};

/* A process: a memcg member with anonymous regions; the OOM killer's unit. */
struct task {
	int id;				/* pid-like */
	char name[96];			/* comm (never cut, unlike the kernel's 16 bytes: see task_create) */
	struct mem_cgroup *memcg;	/* its cgroup */
	int nid;			/* preferred node (mempolicy local) */
	bool oom_killed;		/* SIGKILL from the OOM killer */
	uint8_t advice;			/* enum mm_advice of every mapping and file it opens */
	uint64_t oom_kill_ns;		/* when */
	uint64_t rss_anon;		/* resident anon pages */
	uint64_t nr_swapents;		/* anon pages out on swap (MM_SWAPENTS) */
	uint64_t dirty_throttle_ns;	/* time slept in balance_dirty_pages() */
	uint32_t *regions;		/* anon address_space ids */
	int nr_regions;
	struct vm_area **vmas;		/* its file mappings */
	int nr_vmas;
	struct vm_area *last_vma;	/* the mapping last used (a one-entry vmacache) */
	uint8_t lru_gen_bitmap;		/* mm->lru_gen.bitmap: per node, ran since walked */
	int users;			/* mm_users held by page-table walkers (mmget) */
	uint32_t nr_dirtied;		/* pages dirtied since balance_dirty_pages() last ran */
	uint32_t nr_dirtied_pause;	/* ... and how many it lets pass before the next (0: start) */
	bool exited;			/* released; the mm goes at the last task_put() */
};

/*
 * memory.reclaim: the batch each round asks try_to_free_mem_cgroup_pages()
 * for. The kernel's history: the whole remaining request (memory.reclaim
 * as added in 5.19), min(remaining, SWAP_CLUSTER_MAX) (0388536ac291, 6.5),
 * remaining / 4 (287d5fedb377, 6.9; still in user_proactive_reclaim()).
 */
enum memcg_reclaim_batch {
	RECLAIM_BATCH_DECAY4,		/* (remaining) / 4: the kernel's default since 6.9 */
	RECLAIM_BATCH_FULL,		/* the whole remaining request ("pre") */
	RECLAIM_BATCH_SWAP_CLUSTER_MAX,	/* min(remaining, SWAP_CLUSTER_MAX) ("post") */
};

/* The simulated kernel. */
struct mm_kernel {
	struct machine machine;		/* NUMA topology and free pages */
	struct pglist_data node_data[MAX_NUMNODES];
	struct mem_cgroup *root_mem_cgroup;
	struct mem_cgroup *memcgs[MAX_MEMCGS];	/* by id */
	int nr_memcgs;
	struct address_space **mappings;	/* by id */
	uint32_t nr_mappings;
	struct task *tasks[MAX_TASKS];
	int nr_tasks;
	int last_task_id;		/* pid of the last task created (pids are not reused) */
	const struct reclaim_policy *policy;	/* the reclaim policy */
	const struct kernel_rules *kernel;	/* the release emulated ([machine] kernel) */
	uint64_t vm_events[NR_VM_EVENT_ITEMS];	/* /proc/vmstat events */
	int vm_swappiness;		/* vm.swappiness */
	unsigned int bucket_order;	/* workingset shadow timestamp granularity */
	uint64_t nr_oom_kills;		/* OOM kills of any kind */
	/*
	 * Told of every OOM kill as it happens, like the kernel's "oom-kill:"
	 * line (dump_oom_victim()): the victim and the OOM domain, the memcg
	 * whose limit was hit or NULL for a global OOM. NULL: nobody listens.
	 * It only reads: the run's sampler records a row.
	 */
	void (*oom_kill_notify)(void *ctx, const struct task *victim,
				const struct mem_cgroup *oom_memcg);
	void *oom_kill_ctx;		/* its first argument */
	bool swap_enabled;		/* a swap device exists */
	struct swap_info *swap;		/* the swap device (NULL: none) */
	bool in_lru_fault;		/* current->in_lru_fault: adding folios from a fault */
	struct rng rng;			/* get_random_u32_below() */
	uint64_t nr_flusher_wakeups;	/* wakeup_flusher_threads(WB_REASON_VMSCAN) calls */
	uint64_t stats_flush_last_ns;	/* flush_last_time: the last memcg rstat flush */
	uint64_t nr_stats_flushes;	/* memcg rstat flushes done */
	enum memcg_reclaim_batch reclaim_batch;	/* memory.reclaim batching (memcg.reclaim_batch) */
	unsigned int fault_around_pages;	/* debugfs fault_around_bytes / PAGE_SIZE; <= 1: off */
	int page_cluster;		/* vm.page-cluster: swap-in reads 2^page_cluster slots */
	/* writeback sysctls (vm.dirty_*), kernel defaults set by mm_init() */
	int vm_dirty_ratio;			/* vm.dirty_ratio, percent */
	int vm_dirty_background_ratio;		/* vm.dirty_background_ratio, percent */
	uint64_t vm_dirty_bytes;		/* vm.dirty_bytes (0: use the ratio) */
	uint64_t vm_dirty_background_bytes;	/* vm.dirty_background_bytes (0: the ratio) */
	uint64_t dirty_expire_ns;		/* vm.dirty_expire_centisecs */
	uint64_t dirty_writeback_interval_ns;	/* vm.dirty_writeback_centisecs (0: no kupdate) */
	uint64_t memcg_flush_time_ns;		/* memcontrol.c FLUSH_TIME: the periodic stats flush */
	uint64_t invariant_check_every;	/* mm_check_invariants_periodic(): its argument */
	uint64_t nr_invariant_checks;	/* periodic checks done */
	char invariant_broken[640];	/* the first broken invariant, with its time ("": none) */
	char warned[320];		/* the first broken VM_WARN_ON() contract ("": none) */
	uint64_t nr_warnings;		/* VM_WARN_ON()s that fired */
};

extern struct mm_kernel mm;

#define NODE_DATA(nid) (&mm.node_data[nid])
#define for_each_node(nid) for (nid = 0; nid < mm.machine.nr_nodes; nid++)

static inline struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg,
					       struct pglist_data *pgdat)
{
	return (memcg ? memcg : mm.root_mem_cgroup)->lruvec[pgdat->node_id];
}

static inline struct pglist_data *lruvec_pgdat(const struct lruvec *lruvec)
{
	return NODE_DATA(lruvec->nid);
}

static inline struct mem_cgroup *folio_memcg(const struct folio *folio)
{
	return mm.memcgs[folio->memcg_id];
}

static inline struct lruvec *folio_lruvec(const struct folio *folio)
{
	return folio_memcg(folio)->lruvec[folio->nid];
}

static inline struct address_space *folio_mapping(const struct folio *folio)
{
	return mm.mappings[folio->mapping];
}

/* The data version f's device holds for page `index` (0: never written there). */
static inline uint32_t file_disk_version(const struct address_space *f, uint64_t index)
{
	return f->disk_version.base ? lazy_u32(&f->disk_version, index) : 0;
}

/*
 * A write made new data in the folio: a new version for it and for its page
 * (mm_check_invariants() then finds that version wherever the page goes:
 * in the folio, on the device, in a swap slot).
 */
static inline void folio_inc_version(struct folio *folio)
{
	folio->version++;
	if (folio->mapping)
		folio_mapping(folio)->page_version[folio->index] = folio->version;
}

/* Kernel-wide setup from nodes already described in `machine`. */
int mm_init(const struct machine *machine, const struct reclaim_policy *policy,
	    int vm_swappiness, uint64_t seed);
void mm_exit(void);
/*
 * The kernel threads of a booted machine, once its devices and workloads
 * exist: kswapd on every node (kswapd_run() at boot) and the periodic memcg
 * stats flush (flush_memcg_stats_dwork). 0, or -ENOMEM.
 */
int mm_start_daemons(void);

/*
 * Local lruvec counter, as __mod_lruvec_state() would update it; the change
 * counts towards the memcg's and its ancestors' pending rstat updates
 * (memcg_rstat_updated()).
 */
static inline void mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx,
				    int64_t val)
{
	lruvec->stat[idx] += val;
	for (struct mem_cgroup *m = lruvec->memcg; m; m = m->parent)
		m->stats_updates += (uint64_t)(val < 0 ? -val : val);
}

/*
 * lruvec_page_state(): hierarchical (the memcg and its descendants), exact.
 * The kernel's readers see the value of the last rstat flush, up to 2 s old
 * (lruvec_page_state_flushed()); only writeback's readers here use that,
 * see memcg_page_state_flushed().
 */
uint64_t lruvec_page_state(const struct lruvec *lruvec, enum node_stat_item idx);
uint64_t lruvec_page_state_flushed(const struct lruvec *lruvec, enum node_stat_item idx);
/* node_page_state(): summed over every memcg. */
uint64_t node_page_state(const struct pglist_data *pgdat, enum node_stat_item idx);
/* memcg_page_state(): the memcg subtree over every node. */
uint64_t memcg_page_state(const struct mem_cgroup *memcg, enum node_stat_item idx);
/* memcg_events(): the memcg subtree. */
uint64_t memcg_events(const struct mem_cgroup *memcg, enum vm_event_item idx);
uint64_t memcg_memory_events(const struct mem_cgroup *memcg, enum memcg_memory_event idx);

static inline void count_vm_events(enum vm_event_item item, uint64_t n)
{
	mm.vm_events[item] += n;
}

static inline void count_memcg_events(struct mem_cgroup *memcg,
				      enum vm_event_item item, uint64_t n)
{
	memcg->events[item] += n;
}


/* Ancestor walk: parent_lruvec(). */
static inline struct lruvec *parent_lruvec(const struct lruvec *lruvec)
{
	struct mem_cgroup *parent = lruvec->memcg->parent;

	return parent ? parent->lruvec[lruvec->nid] : NULL;
}

bool mem_cgroup_is_descendant(const struct mem_cgroup *memcg,
			      const struct mem_cgroup *root);

/*
 * mem_cgroup_iter(): pre-order walk of the subtree under root (NULL = the
 * whole tree). Returns NULL after the last.
 */
struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root, struct mem_cgroup *prev);

/* folio_mapcount(): how many PTEs map the folio (anon: its one mm's). */
static inline unsigned int folio_mapcount(const struct folio *folio)
{
	const struct address_space *as = folio_mapping(folio);

	if (as->type == AS_FILE)
		return as->mapcount.base ? lazy_u16(&as->mapcount, folio->index) : 0;
	return as->ptes && (as->ptes[folio->index] & PTE_PRESENT);
}

static inline bool folio_mapped(const struct folio *folio)
{
	return folio_mapcount(folio) > 0;
}

/* rmap_walk(): the present PTEs that map page `index` of `as`, one by one. */
struct rmap_iter {
	struct address_space *as;	/* the mapping */
	uint64_t index;			/* the page */
	struct vm_area *vma;		/* file: the next mapping to look at */
	bool done;			/* anon: its PTE was returned */
};

static inline void rmap_iter_init(struct rmap_iter *it, struct address_space *as,
				  uint64_t index)
{
	it->as = as;
	it->index = index;
	it->vma = as->type == AS_FILE ? as->i_mmap : NULL;
	it->done = false;
}

/* The next present PTE and its mapping (NULL for anon), or NULL at the end. */
static inline uint8_t *rmap_iter_next(struct rmap_iter *it, struct vm_area **vma)
{
	if (it->as->type != AS_FILE) {
		*vma = NULL;
		if (it->done || !it->as->ptes || !(it->as->ptes[it->index] & PTE_PRESENT))
			return NULL;
		it->done = true;
		return &it->as->ptes[it->index];
	}
	while (it->vma) {
		struct vm_area *v = it->vma;

		it->vma = v->i_mmap_next;
		if (v->ptes[it->index] & PTE_PRESENT) {
			*vma = v;
			return &v->ptes[it->index];
		}
	}
	return NULL;
}

/*
 * Checks the model's invariants, exactly, at any point where no actor is
 * running (every sleeping actor's partial work included): every folio is
 * free or charged, on its lruvec's list or isolated; node and table counts
 * add up; each memcg's usage is its folios plus its in-flight charges; a
 * page's last written version is in its folio, else on its device or its
 * swap slot. 0, or -1 with a message naming the memcg, node, folio or page.
 */
int mm_check_invariants(char *err, size_t len);

/*
 * mm_check_invariants() during the run, at the engine's quiescent points
 * (see engine_set_check), every `every` of them; 0: one per
 * MM_CHECK_PAGES_PER_POINT pages the check walks, so that it costs a fixed
 * share of any run. The first broken invariant ends the run there, and
 * mm_invariants_broken() says when and where.
 */
void mm_check_invariants_periodic(uint64_t every);
/* "invariant broken at T s simulated: <what, naming the object>", or NULL. */
const char *mm_invariants_broken(void);

/* Which kind of invariant mm_check_invariants() found broken last. */
enum mm_invariant_kind {
	MM_INV_NONE,		/* none (the last check passed) */
	MM_INV_LISTS,		/* every folio on exactly one list: the policy's walk, PG_lru */
	MM_INV_COUNTS,		/* list sizes, node, table and memcg counts add up */
	MM_INV_FOLIOS,		/* no folio lost: each found from its page, its data intact */
};
enum mm_invariant_kind mm_invariant_kind(void);

#endif
