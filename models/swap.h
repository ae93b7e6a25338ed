/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Swap, as in mm/swapfile.c, mm/swap_state.c and mm/page_io.c: one swap
 * device (zram or a block device), slots, the swap cache, writeout from
 * shrink_folio_list() and swap-in on fault. A swapped-out page's PTE holds
 * a swap entry, its slot; the shadow of its eviction stays in the swap
 * cache at that slot (swap_info.shadow), as the kernel's swap cache keeps it.
 */
#ifndef MMEMU_MODELS_SWAP_H
#define MMEMU_MODELS_SWAP_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"
#include "storage/blockdev.h"
#include "storage/zram.h"

/* slots are numbered from 1 and held in 32 bits (folio->private) */
#define SWP_SLOT_BITS 32
/* vm.page-cluster's default, 3: swap-in reads the aligned 2^3 slots around a fault
 * (mm.page_cluster holds the value in force) */
#define SWAP_PAGE_CLUSTER 3

enum swap_type {
	SWAP_NONE,
	SWAP_ZRAM,	/* SWP_SYNCHRONOUS_IO: compress on the reclaiming CPU */
	SWAP_BLOCK,	/* asynchronous writes to a block device */
};

struct swap_info {
	enum swap_type type;
	uint64_t nr_slots;		/* usable slots, numbered from 1 */
	uint64_t nr_free;		/* free slots */
	/*
	 * Slots are taken as from one stack with the lowest on top at first:
	 * the freed ones, last freed first, then the never used in order
	 * (next_fresh on), which are not stacked, so that a large device
	 * costs the host only the slots a run uses.
	 */
	uint32_t *free_stack;		/* freed slots */
	uint64_t nr_stacked;		/* ... on free_stack */
	uint64_t next_fresh;		/* lowest slot never used */
	uint32_t *cache;		/* slot -> folio in the swap cache (0: none) */
	uint64_t *shadow;		/* slot -> shadow its reclaimed folio left (0: none) */
	uint16_t *slot_memcg;		/* slot -> memcg charged for it (swap_cgroup) */
	uint32_t *slot_version;		/* slot -> data version written there */
	uint32_t *slot_mapping;		/* slot -> anon region it holds a page of */
	uint32_t *slot_index;		/* ... and the page */
	uint64_t nr_readahead;		/* pages read by swap_cluster_readahead() */
	struct zram zram;		/* SWAP_ZRAM */
	struct blockdev *bdev;		/* SWAP_BLOCK */
	uint64_t bdev_start;		/* first page of the swap area on bdev */
	uint64_t pool_pages[MAX_NUMNODES];	/* zram pool pages held on each node */
	uint64_t nr_failed;		/* writes that found no pool memory */
};

/* An anon page's entry for its swap slot (only anon mappings hold these). */
static inline uint64_t swp_entry(uint64_t slot)
{
	return XA_VALUE_BIT | slot;
}

static inline uint64_t swp_slot(uint64_t entry)
{
	return entry & ((1ULL << SWP_SLOT_BITS) - 1);
}

int swap_init_zram(enum zram_comp comp, uint64_t nr_slots);
int swap_init_block(struct blockdev *bdev, uint64_t bdev_start, uint64_t nr_slots);
void swap_exit(void);
/* get_nr_swap_pages() for a memcg: free slots within its swap.max chain */
uint64_t mem_cgroup_get_nr_swap_pages(const struct mem_cgroup *memcg);
/* add_to_swap(): a slot and the swap cache; false if swap is full */
bool add_to_swap(struct folio *folio);
/* Drops the folio from the swap cache (its slot stays with the PTE). */
void delete_from_swap_cache(struct folio *folio);
/* Frees a slot the PTE no longer needs. */
void swap_free(uint64_t slot);
/*
 * Starts loading slot's state in the per-slot arrays (changes nothing): a
 * zap does so a few pages ahead, since the slots of a region's swapped
 * pages lie anywhere in them, and add_to_swap() for the next slot it hands out.
 */
void swap_prefetch_slot(uint64_t slot);
/*
 * pageout() of a swap-cache folio: 0 written and clean (zram), 1 under
 * writeback (block), -1 failed (zram pool could not grow).
 */
int swap_writepage(struct folio *folio, struct actor *a);
/* __swap_writepage(): the device's write, zswap passed by (its writeback's) */
int __swap_writepage(struct folio *folio, struct actor *a);
/*
 * The node pages a compressed pool (zram's, zswap's) holds follow `want`,
 * taken on nid first; -ENOMEM if no node had a page for it.
 */
int swap_pool_sync(uint64_t *pool_pages, uint64_t want, int nid);
/* do_swap_page(): the fault of a PTE holding a swap entry */
int do_swap_page(struct actor *a, struct task *t, struct address_space *as,
		 uint64_t index, bool write);
/* Unmapped-by-exit pages of a region: free swap entries and swap-cache folios. */
void swap_zap_entry(struct address_space *as, uint64_t index);

#endif
