/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zswap's compressed pool, as the data mm/zswap.c keeps: one entry per
 * swap slot (its compressed length, its referenced bit, the list it is
 * on), the LRU lists of entries (list_lru: one per memcg and node), the
 * pool's size against max_pool_percent with the accept_threshold_percent
 * hysteresis (zswap_check_limits()), and the debugfs statistics. It knows
 * slots and list numbers only; models/zswap.c decides what to store, load
 * and write back, and takes the pool's pages from the nodes.
 */
#ifndef MMEMU_STORAGE_ZSWAP_H
#define MMEMU_STORAGE_ZSWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "storage/zram.h"

#define ZSWAP_PAGE_SIZE 4096

/* struct zswap_entry, by slot */
struct zswap_slot {
	uint32_t prev, next;		/* LRU neighbours (slots), 0: none */
	uint32_t lru;			/* the list it is on */
	uint16_t length;		/* stored bytes */
	uint8_t present;		/* an entry exists */
	uint8_t referenced;		/* second chance: set on store, cleared by the shrinker */
};

/* one list_lru_one: oldest at head */
struct zswap_lru {
	uint32_t head, tail;
	uint64_t nr;
};

/* /sys/kernel/debug/zswap */
struct zswap_stats {
	uint64_t pool_limit_hit;
	uint64_t written_back_pages;
	uint64_t reject_reclaim_fail;
	uint64_t reject_compress_poor;
	uint64_t reject_alloc_fail;
	uint64_t stored_incompressible_pages;	/* since 6.18: pages held as they are */
};

struct zswap {
	enum zram_comp comp;		/* the compressor (zswap.compressor) */
	uint64_t nr_slots;
	struct zswap_slot *e;		/* [nr_slots + 1] */
	struct zswap_lru *lrus;		/* [nr_lrus] */
	uint32_t nr_lrus;
	uint64_t max_pages;		/* zswap_max_pages(): totalram x max_pool_percent / 100 */
	uint64_t accept_thr_pages;	/* zswap_accept_thr_pages(): max_pages x threshold / 100 */
	bool pool_reached_full;		/* zswap_pool_reached_full */
	uint64_t total_bytes;		/* stored bytes of every entry */
	uint64_t stored_pages;		/* zswap_stored_pages: entries */
	struct zswap_stats st;
};

int zswap_pool_init(struct zswap *z, enum zram_comp comp, uint64_t nr_slots, uint32_t nr_lrus,
		    uint64_t totalram_pages, unsigned int max_pool_percent,
		    unsigned int accept_thr_percent);
void zswap_pool_exit(struct zswap *z);

/* zswap_total_pages(): the pool's pages (zsmalloc's fragmentation left out, as zram's) */
static inline uint64_t zswap_total_pages(const struct zswap *z)
{
	return (z->total_bytes + ZSWAP_PAGE_SIZE - 1) / ZSWAP_PAGE_SIZE;
}

/*
 * zswap_check_limits(): true while stores are refused. Reaching max_pages
 * sets pool_reached_full (and counts pool_limit_hit); it is cleared only
 * once the pool is back at or below accept_thr_pages.
 */
bool zswap_check_limits(struct zswap *z);

/*
 * What the compressor makes of a page of data compressing `ratio` times
 * (1: incompressible, the compressor's output exceeds the page): the bytes
 * to store, or 0 if the page cannot be stored compressed (dlen >= PAGE_SIZE).
 */
uint32_t zswap_compressed_len(double ratio);

/* Adds the entry of `slot` (none there) at the newest end of list `lru`, referenced. */
void zswap_entry_add(struct zswap *z, uint64_t slot, uint32_t lru, uint32_t length);
/* zswap_entry_free(): takes the entry off its list and out of the pool; false if none. */
bool zswap_entry_free(struct zswap *z, uint64_t slot);

/* Moves the entry (on a list) to the newest end: a non-exclusive load's (before 6.9) */
void zswap_lru_rotate(struct zswap *z, uint64_t slot);

static inline bool zswap_entry_present(const struct zswap *z, uint64_t slot)
{
	return z->e[slot].present;
}

/*
 * One step of list_lru_walk_one() with shrink_memcg_cb() on list `lru`: the
 * oldest entry. With second_chance (6.12+), a referenced one loses its bit
 * and rotates to the newest end, and 0 is returned; otherwise it is rotated
 * (the kernel rotates before it drops the lock) and its slot returned for
 * writeback. 0 also when the list is empty.
 */
uint64_t zswap_lru_walk_one(struct zswap *z, uint32_t lru, bool second_chance);

#endif
