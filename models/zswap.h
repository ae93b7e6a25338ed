/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zswap, as mm/zswap.c: a compressed cache in front of the swap device.
 * zswap_store() on swap-out takes the page into the pool (no device
 * write) unless memory.zswap.max, the pool limit with its accept
 * threshold, or a page that does not compress refuses it; zswap_load()
 * on swap-in serves the page from the pool; the shrink worker (pool
 * full) and the memcg-aware shrinker (shrinker_enabled, under reclaim)
 * write the coldest entries back to the device through the swap cache.
 * The pool's memory comes from the nodes and is charged to the memcg
 * (obj_cgroup_charge_zswap()), unlike zram's.
 */
#ifndef MMEMU_MODELS_ZSWAP_H
#define MMEMU_MODELS_ZSWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"
#include "storage/zswap.h"

/* /proc/vmstat and memory.stat events of zswap (outside the policy ABI's vm_event_item) */
enum zswap_event_item {
	ZSWPIN,		/* pages loaded from the pool */
	ZSWPOUT,	/* pages stored in the pool */
	ZSWPWB,		/* entries written back to the device */
	NR_ZSWAP_EVENT_ITEMS
};
extern const char *const zswap_event_name[NR_ZSWAP_EVENT_ITEMS];

/* /sys/module/zswap/parameters */
struct zswap_params {
	enum zram_comp compressor;		/* compressor */
	unsigned int max_pool_percent;		/* of total RAM (20) */
	unsigned int accept_thr_percent;	/* of the pool limit (90) */
	bool shrinker_enabled;			/* the memory-pressure shrinker (off) */
};

/* mm/zswap.c's state */
struct zswap_state {
	bool enabled;
	struct zswap_params p;
	struct zswap pool;
	uint64_t pool_pages[MAX_NUMNODES];	/* node pages the pool holds */
	uint64_t events[NR_ZSWAP_EVENT_ITEMS];	/* /proc/vmstat */
	/* zswap_lruvec_state.nr_disk_swapins, by memcg id and node */
	uint64_t (*nr_disk_swapins)[MAX_NUMNODES];
	unsigned short next_shrink;		/* zswap_next_shrink: the worker's memcg cursor */
};

extern struct zswap_state zswap;

/* zswap_setup() for the swap device of nr_slots slots; 0 or -errno */
int zswap_init(const struct zswap_params *p, uint64_t nr_slots);
void zswap_exit(void);

/*
 * zswap_store(): true if the folio (locked, in the swap cache, its slot
 * in folio->private) is now in the pool and clean. False: the device must
 * take it; any stale entry of the slot is dropped.
 */
bool zswap_store(struct folio *folio, struct actor *a);
/*
 * zswap_load(): true if the slot's page came from the pool into folio;
 * *cost_ns is the decompression's CPU, for the caller to charge. Into the
 * swap cache (swapcache) the load is exclusive from 6.9: the entry is
 * freed, the folio dirty.
 */
bool zswap_load(uint64_t slot, struct folio *folio, bool swapcache, uint64_t *cost_ns);
/* zswap_invalidate(): the slot is freed */
void zswap_invalidate(uint64_t slot);
/* Starts loading what zswap_invalidate() reads of slot (changes nothing). */
void zswap_prefetch(uint64_t slot);
/* zswap_folio_swapin(): a swap-in that read the device (the shrinker backs off) */
void zswap_folio_swapin(struct folio *folio);
/*
 * shrink_slab()'s call of the zswap shrinker for memcg on node nid at
 * reclaim priority `priority`: count (zswap_shrinker_count()) and scan in
 * SHRINK_BATCH steps (do_shrink_slab()). Returns the entries written back.
 */
uint64_t zswap_shrink_slab(int nid, struct mem_cgroup *memcg, int priority, struct actor *a);

/* memcg's memory.stat zswap (bytes) and zswapped (pages), its subtree */
static inline uint64_t memcg_zswap_b(const struct mem_cgroup *memcg)
{
	return memcg->zswap_b;
}
/* memory.stat's zswpin/zswpout/zswpwb: the memcg's subtree */
uint64_t memcg_zswap_events(const struct mem_cgroup *memcg, enum zswap_event_item idx);

#endif
