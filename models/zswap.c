/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zswap's decisions, as mm/zswap.c has them (7.2; the release table says
 * what was different before): what zswap_store() refuses, what
 * zswap_load() does with the entry, which entries the shrink worker and
 * the shrinker write back and how many. The pool itself (entries, LRU
 * lists, limits) is storage/zswap.c's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/memory.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/zswap.h"

/* mm/internal.h: the shrink worker gives up after this many failed rounds */
#define MAX_RECLAIM_RETRIES 16
/* include/linux/shrinker.h: DEFAULT_SEEKS, and SHRINK_BATCH for batch = 0 */
#define DEFAULT_SEEKS 2
#define SHRINK_BATCH 128
/* memcpy of a page stored as it is (6.18+): ~15 GB/s, as clear_page (COST_CLEAR_PAGE_NS) */
#define COST_PAGE_COPY_NS COST_CLEAR_PAGE_NS

struct zswap_state zswap;

const char *const zswap_event_name[NR_ZSWAP_EVENT_ITEMS] = {
	[ZSWPIN] = "zswpin",
	[ZSWPOUT] = "zswpout",
	[ZSWPWB] = "zswpwb",
};

/* the kworker that runs shrink_worker() (zswap_shrink_work on shrink_wq) */
static struct {
	struct actor *actor;
	struct waitq *wait;
	bool queued;
} shrink_wq;

static inline uint32_t lru_of(unsigned short memcg_id, int nid)
{
	return (uint32_t)memcg_id * (uint32_t)mm.machine.nr_nodes + (uint32_t)nid;
}

static inline struct mem_cgroup *lru_memcg(uint32_t lru)
{
	return mm.memcgs[lru / (uint32_t)mm.machine.nr_nodes];
}

static void shrink_worker_fn(struct actor *self, void *arg);

int zswap_init(const struct zswap_params *p, uint64_t nr_slots)
{
	uint64_t totalram = 0;
	int nid;

	for_each_node(nid)
		totalram += mm.machine.node[nid].managed_pages;
	memset(&zswap, 0, sizeof(zswap));
	zswap.p = *p;
	if (zswap_pool_init(&zswap.pool, p->compressor, nr_slots,
			    lru_of(MAX_MEMCGS - 1, mm.machine.nr_nodes - 1) + 1, totalram,
			    p->max_pool_percent, p->accept_thr_percent))
		return -ENOMEM;
	zswap.nr_disk_swapins = calloc(MAX_MEMCGS, sizeof(*zswap.nr_disk_swapins));
	shrink_wq.wait = waitq_create();
	if (!zswap.nr_disk_swapins || !shrink_wq.wait)
		return -ENOMEM;
	shrink_wq.queued = false;
	shrink_wq.actor = actor_create("zswap-shrink", 0, shrink_worker_fn, NULL, true);
	if (!shrink_wq.actor)
		return -ENOMEM;
	zswap.enabled = true;
	return 0;
}

void zswap_exit(void)
{
	if (!zswap.pool.e)
		return;
	zswap_pool_exit(&zswap.pool);
	free(zswap.nr_disk_swapins);
	zswap.nr_disk_swapins = NULL;
	zswap.enabled = false;
}

static void count_zswap_event(struct mem_cgroup *memcg, enum zswap_event_item item)
{
	zswap.events[item]++;
	if (memcg)
		memcg->zswap_events[item]++;
}

uint64_t memcg_zswap_events(const struct mem_cgroup *memcg, enum zswap_event_item idx)
{
	struct mem_cgroup *pos = NULL, *root = (struct mem_cgroup *)memcg;
	uint64_t sum = 0;

	while ((pos = mem_cgroup_iter(root, pos)))
		sum += pos->zswap_events[idx];
	return sum;
}

/*
 * obj_cgroup_charge_zswap() / obj_cgroup_uncharge_zswap(): the bytes count
 * in MEMCG_ZSWAP_B and the entry in MEMCG_ZSWAPPED up the hierarchy, and
 * the memcg's usage holds them as whole pages, charged by force (the
 * store runs in reclaim, PF_MEMALLOC).
 */
static void zswap_charge(struct mem_cgroup *memcg, int64_t bytes, int64_t entries)
{
	uint64_t pages;

	if (!memcg)
		return;
	for (struct mem_cgroup *pos = memcg; pos; pos = pos->parent) {
		pos->zswap_b += (uint64_t)bytes;
		pos->zswapped += (uint64_t)entries;
	}
	memcg->zswap_own_b += (uint64_t)bytes;
	pages = (memcg->zswap_own_b + ZSWAP_PAGE_SIZE - 1) / ZSWAP_PAGE_SIZE;
	if (pages > memcg->zswap_charged)
		mem_cgroup_force_charge(memcg, pages - memcg->zswap_charged);
	else if (pages < memcg->zswap_charged)
		mem_cgroup_uncharge(memcg, memcg->zswap_charged - pages);
	memcg->zswap_charged = pages;
}

/* the pool's node pages follow its size */
static int zswap_sync_pool(int nid)
{
	return swap_pool_sync(zswap.pool_pages, zswap_total_pages(&zswap.pool), nid);
}

/* zswap_entry_free() of the slot's entry, if any */
static void zswap_entry_drop(uint64_t slot)
{
	const struct zswap_slot *e = &zswap.pool.e[slot];
	struct mem_cgroup *memcg;
	uint32_t length;

	if (!e->present)
		return;
	memcg = lru_memcg(e->lru);
	length = e->length;
	zswap_entry_free(&zswap.pool, slot);
	zswap_charge(memcg, -(int64_t)length, -1);
	zswap_sync_pool(0);
}

void zswap_invalidate(uint64_t slot)
{
	if (zswap.enabled)
		zswap_entry_drop(slot);
}

void zswap_prefetch(uint64_t slot)
{
	if (zswap.enabled && zswap.pool.e)
		__builtin_prefetch(&zswap.pool.e[slot], 1);
}

/*
 * obj_cgroup_may_zswap(): every ancestor below the root with a
 * memory.zswap.max must have its subtree's pool pages under it; 0 refuses
 * at once.
 */
static bool obj_cgroup_may_zswap(const struct mem_cgroup *memcg)
{
	for (; memcg && memcg->parent; memcg = memcg->parent) {
		if (memcg->zswap_max == UINT64_MAX)
			continue;
		if (!memcg->zswap_max || memcg->zswap_b / ZSWAP_PAGE_SIZE >= memcg->zswap_max)
			return false;
	}
	return true;
}

/*
 * zswap_writeback_entry(): a folio for the slot in the swap cache, the
 * entry decompressed into it and freed, the folio written to the device
 * with PG_reclaim so that it goes to the LRU's tail once written.
 * -EEXIST: the slot's page is in the swap cache already (swapped in: hot).
 */
static int zswap_writeback_entry(uint64_t slot, struct actor *a)
{
	struct swap_info *si = mm.swap;
	const struct zswap_slot *e = &zswap.pool.e[slot];
	struct mem_cgroup *memcg = lru_memcg(e->lru);
	int nid = (int)(e->lru % (uint32_t)mm.machine.nr_nodes);
	struct folio *folio;
	uint32_t idx;

	if (si->cache[slot])
		return -EEXIST;
	if (!memcg || !si->slot_mapping[slot])
		return -ENOMEM;
	/* __read_swap_cache_async(GFP_KERNEL) in reclaim: PF_MEMALLOC */
	idx = alloc_folio_memalloc(memcg, nid);
	if (!idx)
		return -ENOMEM;
	folio = folio_of(idx);
	folio->mapping = si->slot_mapping[slot];
	folio->index = si->slot_index[slot];
	folio->version = si->slot_version[slot];
	folio->private = (uint32_t)slot;
	folio_set_swapbacked(folio);
	folio_set_swapcache(folio);
	si->cache[slot] = idx;
	mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
	folio_add_lru(folio, si->shadow[slot]);
	actor_charge_sys(a, e->length >= ZSWAP_PAGE_SIZE ? COST_PAGE_COPY_NS
							  : zram_decomp_ns(zswap.p.compressor));
	count_zswap_event(memcg, ZSWPWB);
	zswap_entry_drop(slot);
	folio_set_uptodate(folio);
	folio_set_dirty(folio);
	folio_set_reclaim(folio);
	switch (__swap_writepage(folio, a)) {
	case 0:
		/* written synchronously (zram): end_writeback's rotation at once */
		folio_clear_reclaim(folio);
		folio_rotate_reclaimable(folio);
		break;
	case -1:
		/* zram found no memory: the dirty folio keeps the data */
		folio_clear_reclaim(folio);
		break;
	}
	return 0;
}

/*
 * shrink_memcg_cb() on the oldest entry of one list: a referenced entry
 * (6.12+) loses its bit and rotates; else it is written back. Returns 1
 * written, 0 rotated or failed (*stop on -EEXIST when asked), -1 empty.
 */
static int shrink_lru_one(uint32_t lru, struct actor *a, bool *stop)
{
	uint64_t slot;
	int ret;

	if (!zswap.pool.lrus[lru].nr)
		return -1;
	slot = zswap_lru_walk_one(&zswap.pool, lru, mm.kernel->zswap_second_chance);
	if (!slot)
		return 0;
	ret = zswap_writeback_entry(slot, a);
	if (ret) {
		zswap.pool.st.reject_reclaim_fail++;
		if (ret == -EEXIST && stop)
			*stop = true;
		return 0;
	}
	zswap.pool.st.written_back_pages++;
	return 1;
}

/* shrink_memcg(): one entry of each node's list; 0 some written, -ENOENT none to try, -EAGAIN */
static int shrink_memcg(struct mem_cgroup *memcg, struct actor *a)
{
	int nid, shrunk = 0, scanned = 0;

	if (!memcg->online)
		return -ENOENT;
	for_each_node(nid) {
		int r = shrink_lru_one(lru_of(memcg->id, nid), a, NULL);

		if (r < 0)
			continue;
		scanned++;
		shrunk += r;
	}
	if (!scanned)
		return -ENOENT;
	return shrunk ? 0 : -EAGAIN;
}

/*
 * shrink_worker(): memcgs in turn from the cursor, one entry of each,
 * until the pool is down to the accept threshold or MAX_RECLAIM_RETRIES
 * rounds failed.
 */
static void shrink_worker(struct actor *a)
{
	int failures = 0, attempts = 0;

	do {
		struct mem_cgroup *memcg = mem_cgroup_iter(NULL, zswap.next_shrink ?
					   mm.memcgs[zswap.next_shrink] : NULL);
		int ret;

		zswap.next_shrink = memcg ? memcg->id : 0;
		if (!memcg) {
			/* a whole walk: give up only if it found no candidate */
			if (!attempts && ++failures == MAX_RECLAIM_RETRIES)
				break;
			attempts = 0;
			continue;
		}
		ret = shrink_memcg(memcg, a);
		actor_cond_resched(a);
		if (ret == -ENOENT)
			continue;
		++attempts;
		if (ret && ++failures == MAX_RECLAIM_RETRIES)
			break;
	} while (zswap_total_pages(&zswap.pool) > zswap.pool.accept_thr_pages);
}

static void shrink_worker_fn(struct actor *self, void *arg)
{
	(void)arg;
	for (;;) {
		while (!shrink_wq.queued)
			waitq_wait(self, shrink_wq.wait, 0);
		shrink_wq.queued = false;
		shrink_worker(self);
	}
}

/* queue_work(shrink_wq, &zswap_shrink_work) */
static void zswap_queue_shrink(void)
{
	shrink_wq.queued = true;
	waitq_wake_all(shrink_wq.wait);
}

bool zswap_store(struct folio *folio, struct actor *a)
{
	struct address_space *as = folio_mapping(folio);
	struct mem_cgroup *memcg = folio_memcg(folio);
	uint64_t slot = folio->private;
	uint32_t len;
	double ratio;

	if (!zswap.enabled)
		return false;
	if (!obj_cgroup_may_zswap(memcg)) {
		/* over memory.zswap.max: since 6.8 one of the memcg's own entries
		 * is written back to make room, and the store goes on if it was */
		if (!mm.kernel->zswap_shrinker || shrink_memcg(memcg, a))
			goto reject;
	}
	if (zswap_check_limits(&zswap.pool))
		goto reject;
	/* a stale entry of the slot (the folio was redirtied) is replaced */
	zswap_entry_drop(slot);
	ratio = as->compress_ratio > 0 ? as->compress_ratio : zram_comp_ratio(zswap.p.compressor);
	actor_charge_sys(a, zram_comp_ns(zswap.p.compressor));
	len = zswap_compressed_len(ratio);
	if (!len) {
		/* dlen >= PAGE_SIZE: refused (zsmalloc's -ENOSPC), or since 6.18 kept as it is */
		if (!mm.kernel->zswap_incompressible_as_is) {
			zswap.pool.st.reject_compress_poor++;
			goto reject;
		}
		len = ZSWAP_PAGE_SIZE;
		actor_charge_sys(a, COST_PAGE_COPY_NS);
	}
	zswap_entry_add(&zswap.pool, slot, lru_of(memcg->id, folio->nid), len);
	if (zswap_sync_pool(folio->nid)) {
		/* zpool_malloc() found no page */
		zswap_entry_free(&zswap.pool, slot);
		zswap_sync_pool(folio->nid);
		zswap.pool.st.reject_alloc_fail++;
		goto reject;
	}
	zswap_charge(memcg, len, 1);
	count_zswap_event(memcg, ZSWPOUT);
	return true;
reject:
	if (zswap.pool.pool_reached_full)
		zswap_queue_shrink();
	/* the device takes the page: an older entry of the slot is stale */
	zswap_entry_drop(slot);
	return false;
}

bool zswap_load(uint64_t slot, struct folio *folio, bool swapcache, uint64_t *cost_ns)
{
	const struct zswap_slot *e;

	if (!zswap.enabled)
		return false;
	e = &zswap.pool.e[slot];
	if (!e->present)
		return false;
	*cost_ns = e->length >= ZSWAP_PAGE_SIZE ? COST_PAGE_COPY_NS
						: zram_decomp_ns(zswap.p.compressor);
	count_zswap_event(lru_memcg(e->lru), ZSWPIN);
	/* exclusive: the swap cache holds the only copy, and it must be written again */
	if (swapcache && mm.kernel->zswap_exclusive_loads) {
		zswap_entry_drop(slot);
		folio_set_dirty(folio);
	} else if (swapcache) {
		/* kept, clean copy in the swap cache: the entry is young again */
		zswap_lru_rotate(&zswap.pool, slot);
	}
	return true;
}

void zswap_folio_swapin(struct folio *folio)
{
	if (zswap.enabled)
		zswap.nr_disk_swapins[folio->memcg_id][folio->nid]++;
}

/* zswap_shrinker_count() */
static uint64_t zswap_shrinker_count(int nid, struct mem_cgroup *memcg)
{
	uint64_t *disk_swapins = &zswap.nr_disk_swapins[memcg->id][nid];
	uint64_t nr_freeable = zswap.pool.lrus[lru_of(memcg->id, nid)].nr, consumed;

	if (!memcg->zswapped || !nr_freeable)
		return 0;
	/* swap-ins from the device since: protect that many entries, once */
	consumed = *disk_swapins < nr_freeable ? *disk_swapins : nr_freeable;
	*disk_swapins -= consumed;
	nr_freeable -= consumed;
	/* scaled by the memory saving: what compresses well is written back less */
	return nr_freeable * (memcg->zswap_b / ZSWAP_PAGE_SIZE) / memcg->zswapped;
}

uint64_t zswap_shrink_slab(int nid, struct mem_cgroup *memcg, int priority, struct actor *a)
{
	uint64_t freeable, total_scan, freed = 0;
	uint32_t lru = lru_of(memcg->id, nid);

	if (!zswap.enabled || !zswap.p.shrinker_enabled || !mm.kernel->zswap_shrinker)
		return 0;
	freeable = zswap_shrinker_count(nid, memcg);
	if (!freeable)
		return 0;
	/* do_shrink_slab(); the work deferred from callers that could not scan is not kept */
	total_scan = (freeable >> priority) * 4 / DEFAULT_SEEKS;
	if (total_scan > 2 * freeable)
		total_scan = 2 * freeable;
	while (total_scan >= SHRINK_BATCH || total_scan >= freeable) {
		uint64_t nr_to_scan = total_scan < SHRINK_BATCH ? total_scan : SHRINK_BATCH;
		uint64_t batch_freed = 0;
		bool stop = false;

		if (!nr_to_scan)
			break;
		/* zswap_shrinker_scan(): list_lru_shrink_walk() of nr_to_scan entries */
		for (uint64_t i = 0; i < nr_to_scan && !stop; i++) {
			int r = shrink_lru_one(lru, a, &stop);

			if (r < 0)
				break;
			batch_freed += (uint64_t)r;
		}
		freed += batch_freed;
		/* SHRINK_STOP: nothing freed, or a page found in the swap cache */
		if (!batch_freed || stop)
			break;
		total_scan -= nr_to_scan;
		actor_cond_resched(a);
	}
	return freed;
}
