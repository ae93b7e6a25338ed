/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Swap slots, the swap cache, swap writeout and swap-in. zram is
 * synchronous (SWP_SYNCHRONOUS_IO): the reclaimer compresses, the faulting
 * task decompresses and skips the swap cache; its pool takes node memory
 * that is not charged to any memcg. Block swap writes asynchronously: the
 * folio stays under writeback on the LRU and rotates to the tail when the
 * write completes, so the next reclaim pass frees it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/debug.h"
#include "models/costs.h"
#include "models/memory.h"
#include "models/page_io.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/zswap.h"

static struct swap_info swap_info;

static int swap_init_slots(uint64_t nr_slots)
{
	struct swap_info *si = &swap_info;

	if (!nr_slots || nr_slots >= (1ULL << SWP_SLOT_BITS))
		return -E2BIG;
	si->nr_slots = nr_slots;
	si->nr_free = nr_slots;
	/* the lowest slot first: writeout starts at the front of the area */
	si->next_fresh = 1;
	si->free_stack = malloc(nr_slots * sizeof(*si->free_stack));
	si->cache = calloc(nr_slots + 1, sizeof(*si->cache));
	si->shadow = calloc(nr_slots + 1, sizeof(*si->shadow));
	si->slot_memcg = calloc(nr_slots + 1, sizeof(*si->slot_memcg));
	si->slot_version = calloc(nr_slots + 1, sizeof(*si->slot_version));
	si->slot_mapping = calloc(nr_slots + 1, sizeof(*si->slot_mapping));
	si->slot_index = calloc(nr_slots + 1, sizeof(*si->slot_index));
	if (!si->free_stack || !si->cache || !si->shadow || !si->slot_memcg ||
	    !si->slot_version || !si->slot_mapping || !si->slot_index)
		return -ENOMEM;
	mm.swap = si;
	mm.swap_enabled = true;
	return 0;
}

int swap_init_zram(enum zram_comp comp, uint64_t nr_slots)
{
	swap_info.type = SWAP_ZRAM;
	if (zram_init(&swap_info.zram, comp, nr_slots))
		return -ENOMEM;
	return swap_init_slots(nr_slots);
}

int swap_init_block(struct blockdev *bdev, uint64_t bdev_start, uint64_t nr_slots)
{
	swap_info.type = SWAP_BLOCK;
	swap_info.bdev = bdev;
	swap_info.bdev_start = bdev_start;
	return swap_init_slots(nr_slots);
}

void swap_exit(void)
{
	free(swap_info.free_stack);
	free(swap_info.cache);
	free(swap_info.shadow);
	free(swap_info.slot_memcg);
	free(swap_info.slot_version);
	free(swap_info.slot_mapping);
	free(swap_info.slot_index);
	zram_exit(&swap_info.zram);
	zswap_exit();
	memset(&swap_info, 0, sizeof(swap_info));
}

uint64_t mem_cgroup_get_nr_swap_pages(const struct mem_cgroup *memcg)
{
	uint64_t nr = mm.swap ? mm.swap->nr_free : 0;

	for (; memcg; memcg = memcg->parent) {
		uint64_t room = memcg->swap_usage < memcg->swap_max ?
				memcg->swap_max - memcg->swap_usage : 0;

		if (room < nr)
			nr = room;
	}
	return nr;
}

static void mem_cgroup_swap_charge(struct mem_cgroup *memcg, int64_t nr)
{
	for (; memcg; memcg = memcg->parent)
		memcg->swap_usage += (uint64_t)nr;
}

/*
 * swap_prefetch_slot(), inlined where it is called in this file: gcc finds
 * a function that only prefetches pure and drops its calls (memory.c).
 */
static inline __attribute__((always_inline)) void prefetch_slot(const struct swap_info *si,
								uint64_t slot)
{
	if (!si || !slot || slot > si->nr_slots)
		return;
	__builtin_prefetch(&si->cache[slot], 1);
	__builtin_prefetch(&si->slot_memcg[slot], 1);
	__builtin_prefetch(&si->shadow[slot], 1);
	__builtin_prefetch(&si->slot_mapping[slot], 1);
	__builtin_prefetch(&si->slot_index[slot], 1);
	__builtin_prefetch(&si->slot_version[slot], 1);
	if (si->type == SWAP_ZRAM)
		__builtin_prefetch(&si->zram.obj_bytes[slot], 1);
	zswap_prefetch(slot);
}

bool add_to_swap(struct folio *folio)
{
	struct swap_info *si = mm.swap;
	struct mem_cgroup *memcg = folio_memcg(folio);
	uint64_t slot;

	if (!si || !mem_cgroup_get_nr_swap_pages(memcg))
		return false;
	slot = si->nr_stacked ? si->free_stack[--si->nr_stacked] : si->next_fresh++;
	/* the slot the next add_to_swap() takes: its state loads meanwhile
	 * (freed slots come back in any order) */
	prefetch_slot(si, si->nr_stacked ? si->free_stack[si->nr_stacked - 1] : si->next_fresh);
	si->nr_free--;
	mem_cgroup_swap_charge(memcg, 1);
	si->slot_memcg[slot] = memcg->id;
	si->slot_mapping[slot] = folio->mapping;
	si->slot_index[slot] = folio->index;
	si->cache[slot] = folio_idx(folio);
	folio->private = (uint32_t)slot;
	folio_set_swapcache(folio);
	/* the new swap copy does not exist yet: the folio must be written */
	folio_set_dirty(folio);
	return true;
}

void delete_from_swap_cache(struct folio *folio)
{
	mm.swap->cache[folio->private] = 0;
	folio_clear_swapcache(folio);
}

int swap_pool_sync(uint64_t *pool_pages, uint64_t want, int nid)
{
	uint64_t have = 0;
	int n;

	for_each_node(n)
		have += pool_pages[n];
	while (have < want) {
		int got = -1;

		/* zsmalloc allocates on the local node first */
		for (int i = 0; i < mm.machine.nr_nodes && got < 0; i++) {
			int try = (nid + i) % mm.machine.nr_nodes;

			if (!numa_reserve_page(&mm.machine, try))
				got = try;
		}
		if (got < 0)
			return -ENOMEM;
		pool_pages[got]++;
		have++;
	}
	while (have > want) {
		int most = 0;

		for_each_node(n)
			if (pool_pages[n] > pool_pages[most])
				most = n;
		numa_unreserve_page(&mm.machine, most);
		pool_pages[most]--;
		have--;
	}
	return 0;
}

/* zram's pool grows and shrinks in pages taken from the nodes. */
static int zram_sync_pool(int nid)
{
	struct swap_info *si = mm.swap;

	return swap_pool_sync(si->pool_pages, zram_pool_pages(&si->zram), nid);
}

void swap_prefetch_slot(uint64_t slot)
{
	prefetch_slot(mm.swap, slot);
}

void swap_free(uint64_t slot)
{
	struct swap_info *si = mm.swap;
	unsigned short memcg_id = si->slot_memcg[slot];

	zswap_invalidate(slot);
	if (si->type == SWAP_ZRAM) {
		zram_free(&si->zram, slot);
		zram_sync_pool(0);
	}
	si->free_stack[si->nr_stacked++] = (uint32_t)slot;
	si->nr_free++;
	si->shadow[slot] = 0;
	si->slot_memcg[slot] = 0;
	si->slot_mapping[slot] = 0;
	if (memcg_id && memcg_id <= mm.nr_memcgs)
		mem_cgroup_swap_charge(mm.memcgs[memcg_id], -1);
}

/* folio_end_writeback() for a swap write: rotate it if reclaim wants it */
static void swap_end_write(void *private, uint64_t now)
{
	struct folio *folio = folio_of((uint32_t)(uintptr_t)private);

	(void)now;
	if (VM_WARN_ON(!folio_test_writeback(folio)))
		return;
	folio_clear_writeback(folio);
	mod_lruvec_state(folio_lruvec(folio), NR_WRITEBACK, -1);
	if (folio_test_reclaim(folio)) {
		folio_clear_reclaim(folio);
		folio_rotate_reclaimable(folio);
	}
	writeback_complete(NODE_DATA(folio->nid), 1);
	count_vm_events(NR_WRITTEN, 1);
}

int swap_writepage(struct folio *folio, struct actor *a)
{
	/* zswap takes it first: no device write, nothing counted in pswpout */
	if (zswap_store(folio, a)) {
		mm.swap->slot_version[folio->private] = folio->version;
		folio_clear_dirty(folio);
		return 0;
	}
	return __swap_writepage(folio, a);
}

int __swap_writepage(struct folio *folio, struct actor *a)
{
	struct swap_info *si = mm.swap;
	struct address_space *as = folio_mapping(folio);
	uint64_t slot = folio->private;

	si->slot_version[slot] = folio->version;
	if (si->type == SWAP_ZRAM) {
		double ratio = as->compress_ratio > 0 ? as->compress_ratio
						      : zram_comp_ratio(si->zram.comp);

		/* zram is a bio-based block device: submit_bio() counts the
		 * write in PGPGOUT whatever becomes of it (before 6.4
		 * bdev_write_page() used zram's ->rw_page: no bio, no count) */
		if (mm.kernel->zram_swap_bio)
			count_vm_events(PGPGOUT, PAGE_SIZE / 1024);
		actor_charge_sys(a, zram_write(&si->zram, slot, ratio));
		if (zram_sync_pool(a->node)) {
			/* no memory for the compressed copy: keep the page */
			zram_free(&si->zram, slot);
			zram_sync_pool(a->node);
			si->nr_failed++;
			return -1;
		}
		folio_clear_dirty(folio);
		count_vm_events(PSWPOUT, 1);
		return 0;
	}
	/* block swap: asynchronous, the folio stays under writeback */
	folio_clear_dirty(folio);
	folio_set_writeback(folio);
	mod_lruvec_state(folio_lruvec(folio), NR_WRITEBACK, 1);
	actor_charge_sys(a, COST_BIO_SUBMIT_NS);
	blockdev_submit(si->bdev, REQ_OP_WRITE, si->bdev_start + slot, 1, actor_now_ns(a),
			swap_end_write, (void *)(uintptr_t)folio_idx(folio));
	count_vm_events(PSWPOUT, 1);
	count_vm_events(PGPGOUT, PAGE_SIZE / 1024);
	return 1;
}

/*
 * swap_cluster_readahead(): the other slots of the faulting slot's aligned
 * cluster come into the swap cache too, unmapped, charged to the memcg
 * that swapped them out; only what needs no reclaim is read ahead.
 */
static void swap_cluster_readahead(struct actor *a, uint64_t slot, struct bio_batch *batch)
{
	struct swap_info *si = mm.swap;
	uint64_t start = slot & ~((1ULL << mm.page_cluster) - 1);
	uint64_t end = start + (1ULL << mm.page_cluster);

	for (uint64_t s = start ? start : 1; s < end && s <= si->nr_slots; s++) {
		struct address_space *owner;
		struct folio *folio;
		uint64_t entry, zswap_ns;
		uint32_t idx;

		if (s == slot || !si->slot_mapping[s] || si->cache[s] || !si->slot_memcg[s])
			continue;
		owner = mm.mappings[si->slot_mapping[s]];
		entry = owner->slots[si->slot_index[s]];
		if (!xa_is_value(entry) || swp_slot(entry) != s)
			continue;
		idx = alloc_folio_noreclaim(mm.memcgs[si->slot_memcg[s]], a->node);
		if (!idx)
			return;
		folio = folio_of(idx);
		folio->mapping = si->slot_mapping[s];
		folio->index = si->slot_index[s];
		folio->version = si->slot_version[s];
		folio->private = (uint32_t)s;
		folio_set_swapbacked(folio);
		folio_set_swapcache(folio);
		folio_set_uptodate(folio);
		si->cache[s] = idx;
		mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
		folio_add_lru(folio, si->shadow[s]);
		si->nr_readahead++;
		/* swap_read_folio(): zswap first */
		if (zswap_load(s, folio, true, &zswap_ns)) {
			actor_charge_sys(a, zswap_ns);
			continue;
		}
		zswap_folio_swapin(folio);
		bio_batch_submit(batch, a, si->bdev, REQ_OP_READ, si->bdev_start + s, 1);
		count_vm_events(PGPGIN, PAGE_SIZE / 1024);
		count_vm_events(PSWPIN, 1);
	}
}

int do_swap_page(struct actor *a, struct task *t, struct address_space *as,
		 uint64_t index, bool write)
{
	struct swap_info *si = mm.swap;
	uint64_t entry = as->slots[index];
	uint64_t slot = swp_slot(entry);
	uint64_t shadow = si->shadow[slot];	/* get_shadow_from_swap_cache() */
	uint8_t *pte = &as->ptes[index];
	unsigned long pflags;
	struct folio *folio;
	bool workingset, from_zswap = false;
	uint64_t zswap_ns = 0;
	uint32_t idx;

	count_vm_events(PGFAULT, 1);
	count_memcg_events(t->memcg, PGFAULT, 1);
	idx = si->cache[slot];
	if (idx) {
		/* swap cache hit: map the folio again (a minor fault) */
		folio = folio_of(idx);
		if (folio_test_locked(folio)) {
			actor_charge_sys(a, COST_MINOR_FAULT_NS);
			return ACCESS_MINOR;	/* a sibling thread's read: retry on the next access */
		}
		as->slots[index] = idx;
		*pte = mk_pte(folio) | PTE_YOUNG | (write ? PTE_DIRTY : 0);
		t->rss_anon++;
		t->nr_swapents--;
		as->nr_resident++;
		if (write && !folio_test_writeback(folio)) {
			/* the swap copy is stale now */
			delete_from_swap_cache(folio);
			swap_free(slot);
			folio_set_dirty(folio);
		}
		actor_charge_sys(a, COST_MINOR_FAULT_NS);
		return ACCESS_MINOR;
	}

	count_vm_events(PGMAJFAULT, 1);
	count_memcg_events(t->memcg, PGMAJFAULT, 1);
	idx = alloc_charge_folio(a, t, t->memcg);
	if (!idx)
		return -EINTR;
	if (as->slots[index] != entry || si->shadow[slot] != shadow || si->cache[slot]) {
		/* a sibling thread swapped it in (and out again) while we slept in reclaim */
		__free_folio(folio_of(idx));
		return ACCESS_MINOR;
	}
	folio = folio_of(idx);
	folio->mapping = as->id;
	folio->index = (uint32_t)index;
	folio->version = si->slot_version[slot];
	folio_set_swapbacked(folio);
	if (si->type == SWAP_ZRAM) {
		/* SWP_SYNCHRONOUS_IO: read directly, skip the swap cache, free the
		 * slot; the read is a bio all the same (swap_read_folio_bdev_sync()
		 * -> submit_bio_wait()), counted in PGPGIN; before 6.4
		 * bdev_read_page() used ->rw_page, uncounted. do_swap_page()
		 * adds the folio to the LRU (workingset_refault()) before
		 * swap_read_folio(), which stalls on a workingset folio: the
		 * read's CPU is charged after the add, its cost taken before
		 * the slot is freed. */
		uint64_t read_ns;

		/* swap_read_folio(): zswap first; not into the swap cache, so the
		 * entry stays (zswap_load()'s exception) until swap_free() */
		from_zswap = zswap_load(slot, folio, false, &read_ns);
		if (!from_zswap) {
			read_ns = zram_read(&si->zram, slot);
			zswap_folio_swapin(folio);
			if (mm.kernel->zram_swap_bio)
				count_vm_events(PGPGIN, PAGE_SIZE / 1024);
		}
		swap_free(slot);
		folio_set_dirty(folio);
		mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
		mm.in_lru_fault = vma_has_recency(as->vm_flags);	/* lru_gen_enter_fault() */
		folio_add_lru(folio, shadow);
		mm.in_lru_fault = false;
		workingset = folio_test_workingset(folio);
		if (workingset)
			psi_memstall_enter(a, &pflags);
		actor_charge_sys(a, read_ns);
		if (workingset)
			psi_memstall_leave(a, &pflags);
		goto map;
	} else {
		struct bio_batch batch;

		si->cache[slot] = idx;
		folio->private = (uint32_t)slot;
		folio_set_swapcache(folio);
		folio_set_locked(folio);
		mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
		mm.in_lru_fault = vma_has_recency(as->vm_flags);	/* lru_gen_enter_fault() */
		folio_add_lru(folio, shadow);
		mm.in_lru_fault = false;
		/* swap_read_folio() of a workingset folio stalls for its
		 * submission, folio_wait_bit_common() for the wait after it */
		workingset = folio_test_workingset(folio);
		if (workingset)
			psi_memstall_enter(a, &pflags);
		bio_batch_init(&batch);
		from_zswap = zswap_load(slot, folio, true, &zswap_ns);
		if (from_zswap) {
			actor_charge_sys(a, zswap_ns);
		} else {
			zswap_folio_swapin(folio);
			bio_batch_submit(&batch, a, si->bdev, REQ_OP_READ, si->bdev_start + slot, 1);
			count_vm_events(PGPGIN, PAGE_SIZE / 1024);
		}
		swap_cluster_readahead(a, slot, &batch);
		bio_batch_wait(&batch, a);
		if (workingset)
			psi_memstall_leave(a, &pflags);
		folio_clear_locked(folio);
		if (!folio->mapping || as->slots[index] != entry) {
			/*
			 * The region was zapped while the read was in flight
			 * (the task was killed): !pte_same(), out_nomap. The
			 * folio is an orphan now and the slot freed.
			 */
			return t->oom_killed ? -EINTR : ACCESS_MINOR;
		}
		if (write) {
			delete_from_swap_cache(folio);
			swap_free(slot);
			folio_set_dirty(folio);
		}
		goto map;
	}
map:
	folio_set_uptodate(folio);
	as->slots[index] = idx;
	as->nr_resident++;
	*pte = mk_pte(folio) | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	t->rss_anon++;
	t->nr_swapents--;
	if (!from_zswap)
		count_vm_events(PSWPIN, 1);
	actor_charge_sys(a, COST_MINOR_FAULT_NS);
	return ACCESS_MAJOR;
}

void swap_zap_entry(struct address_space *as, uint64_t index)
{
	uint64_t entry = as->slots[index];
	uint64_t slot = swp_slot(entry);
	uint32_t idx;

	if (!slot || !mm.swap)
		return;
	idx = mm.swap->cache[slot];
	if (idx) {
		struct folio *folio = folio_of(idx);

		delete_from_swap_cache(folio);
		/*
		 * In flight: being written, isolated, or locked by a swap-in
		 * whose faulter waits on the read (free_swap_and_cache()'s
		 * folio_trylock() fails; the faulter's reference keeps it).
		 * An orphan that reclaim frees once the IO is done.
		 */
		if (folio_test_writeback(folio) || folio_test_locked(folio) ||
		    !folio_test_lru(folio)) {
			folio->mapping = 0;
			folio->index = 0;
		} else {
			mm.policy->folio_del(folio_lruvec(folio), folio);
			free_folio(folio);
		}
	}
	swap_free(slot);
	if (as->owner)
		as->owner->nr_swapents--;
	as->slots[index] = 0;
}
