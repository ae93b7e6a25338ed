/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * models/swap.c with vmscan and memcg: zram and block swap-out and swap-in,
 * the zram pool taken from the nodes, asynchronous block writeout with
 * rotation, memory.swap.max, a full swap device, and the OOM killer
 * freeing the swap slots of its victim.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"

#define HEAP_PAGES 1024
#define MEMCG_MAX 256

static const struct reclaim_policy *const policies[] = {
	&classic_policy, &mglru_old_policy, &mglru_budget_policy,
};

static struct {
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct task *task;
	struct address_space *heap;
	bool *touched;			/* per page of heap: faulted in once */
} fx;

static void boot_policy(const struct reclaim_policy *p, uint64_t max, uint64_t heap_pages)
{
	harness_boot(1, 65536, p);
	memset(&fx, 0, sizeof(fx));
	harness_nvme(&fx.nvme);
	fx.memcg = mem_cgroup_create(mm.root_mem_cgroup, "app");
	ck_assert_ptr_nonnull(fx.memcg);
	fx.memcg->max = max;
	fx.task = task_create("heap", fx.memcg, 0);
	ck_assert_ptr_nonnull(fx.task);
	fx.heap = anon_region_create(fx.task, "heap", heap_pages);
	ck_assert_ptr_nonnull(fx.heap);
	fx.touched = calloc(heap_pages, sizeof(*fx.touched));
	ck_assert_ptr_nonnull(fx.touched);
}

static void boot(uint64_t max, uint64_t heap_pages)
{
	boot_policy(&classic_policy, max, heap_pages);
}

static void assert_invariants(void)
{
	char err[512];

	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}

static uint64_t nodes_reserved(void)
{
	uint64_t sum = 0;
	int nid;

	for_each_node(nid)
		sum += mm.machine.node[nid].nr_reserved;
	return sum;
}

static uint64_t lruvecs_stat(enum node_stat_item item)
{
	uint64_t sum = 0;
	int nid;

	for (int id = 1; id <= mm.nr_memcgs; id++)
		for_each_node(nid)
			sum += (uint64_t)mm.memcgs[id]->lruvec[nid]->stat[item];
	return sum;
}

/* Folios with PG_writeback set, over the whole folio table. */
static uint64_t nr_folios_writeback(void)
{
	uint64_t nr = 0;

	for (uint32_t i = 1; i < folio_table.nr; i++)
		if (folio_table.f[i].memcg_id && folio_test_writeback(&folio_table.f[i]))
			nr++;
	return nr;
}

/* In-use folios of mapping 0: their owner exited while they were in flight. */
static uint64_t nr_orphans(void)
{
	uint64_t nr = 0;

	for (uint32_t i = 1; i < folio_table.nr; i++)
		if (folio_table.f[i].memcg_id && !folio_table.f[i].mapping)
			nr++;
	return nr;
}

/*
 * Swap bookkeeping: every allocated slot is referenced by exactly one swap
 * entry in a page table or by the swap cache; memory.swap.current adds up;
 * zram stores a page per referenced slot and its pool is what the nodes
 * hold reserved.
 */
#define check_swap() check_swap_at(__LINE__)
static void check_swap_at(int line)
{
	struct swap_info *si = mm.swap;
	uint64_t used, referenced = 0, entries = 0, memcg_sum = 0;
	uint8_t *seen;

	ck_assert_ptr_nonnull(si);
	ck_assert_msg(si->nr_free <= si->nr_slots, "nr_free %llu > nr_slots %llu",
		      (unsigned long long)si->nr_free, (unsigned long long)si->nr_slots);
	used = si->nr_slots - si->nr_free;
	seen = calloc(si->nr_slots + 1, 1);
	ck_assert_ptr_nonnull(seen);
	for (uint32_t m = 0; m < mm.nr_mappings; m++) {
		struct address_space *as = mm.mappings[m];

		if (as->type != AS_ANON)
			continue;
		for (uint64_t i = 0; i < as->nr_pages; i++) {
			uint64_t e = as->slots[i];
			uint64_t slot;

			if (!e)
				continue;
			if (xa_is_value(e)) {
				slot = swp_slot(e);
				ck_assert_msg(slot >= 1 && slot <= si->nr_slots,
					      "%s page %llu: swap entry with slot %llu", as->name,
					      (unsigned long long)i, (unsigned long long)slot);
				ck_assert_msg(!seen[slot], "slot %llu referenced twice",
					      (unsigned long long)slot);
				ck_assert_msg(!(as->ptes[i] & PTE_PRESENT),
					      "%s page %llu: swap entry but PTE present", as->name,
					      (unsigned long long)i);
				seen[slot] = 1;
				entries++;
			} else {
				const struct folio *f = folio_of((uint32_t)e);

				ck_assert(as->ptes[i] & PTE_PRESENT);
				ck_assert_uint_eq(f->mapping, as->id);
				ck_assert_uint_eq(f->index, i);
				if (folio_test_swapcache(f)) {
					ck_assert_msg(!seen[f->private], "slot %u referenced twice",
						      f->private);
					seen[f->private] = 1;
				}
			}
		}
	}
	for (uint64_t s = 1; s <= si->nr_slots; s++) {
		if (si->cache[s]) {
			const struct folio *f = folio_of(si->cache[s]);

			ck_assert(folio_test_swapcache(f));
			ck_assert_uint_eq(f->private, s);
			seen[s] = 1;
		}
		/* a shadow stays only where a page's entry still leads to its slot */
		ck_assert_msg(seen[s] || !si->shadow[s], "line %d: free slot %llu keeps a shadow",
			      line, (unsigned long long)s);
		referenced += seen[s];
	}
	free(seen);
	ck_assert_msg(referenced == used,
		      "line %d: %llu slots allocated, %llu referenced by page tables or the swap cache",
		      line, (unsigned long long)used, (unsigned long long)referenced);
	for (int i = 0; i < mm.root_mem_cgroup->nr_children; i++)
		memcg_sum += mm.root_mem_cgroup->children[i]->swap_usage;
	ck_assert_uint_eq(memcg_sum, used);
	ck_assert_uint_eq(mm.root_mem_cgroup->swap_usage, used);
	{
		uint64_t swapents = 0;

		for (int i = 0; i < mm.nr_tasks; i++)
			swapents += mm.tasks[i]->nr_swapents;
		ck_assert_uint_eq(swapents, entries);
	}
	if (si->type == SWAP_ZRAM) {
		ck_assert_uint_eq(si->zram.nr_stored, used);
		ck_assert_uint_eq(nodes_reserved(), zram_pool_pages(&si->zram));
	}
}

/*
 * One access with the caller's expectations: a page faulted before must
 * not come back as a new zero page (data loss), a first touch must be new,
 * and the page is mapped afterwards.
 */
static int touch(struct actor *a, struct task *t, struct address_space *as, bool *touched,
		 uint64_t i, bool write)
{
	int r = anon_access(a, t, as, i, write);

	if (r < 0)
		return r;
	if (touched[i])
		ck_assert_msg(r != ACCESS_NEW, "%s page %llu came back as a new zero page",
			      as->name, (unsigned long long)i);
	else
		ck_assert_msg(r == ACCESS_NEW, "%s page %llu: first touch gave %d", as->name,
			      (unsigned long long)i, r);
	ck_assert_msg(as->ptes[i] & PTE_PRESENT, "%s page %llu not present after access",
		      as->name, (unsigned long long)i);
	ck_assert(as->slots[i] && !xa_is_value(as->slots[i]));
	if (write)
		ck_assert(as->ptes[i] & PTE_DIRTY);
	touched[i] = true;
	return r;
}

/* ---- zram ---- */

struct zram_result {
	uint64_t pswpout, pswpin, swap_usage, pool, reserved, nr_major;
	uint64_t refault_anon;
};

static void zram_fn(struct actor *a, void *arg)
{
	struct zram_result *r = arg;
	struct rng rng;

	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		ck_assert_int_ge(touch(a, fx.task, fx.heap, fx.touched, i, true), 0);
		ck_assert_uint_le(fx.memcg->usage, fx.memcg->max);
	}
	r->pswpout = mm.vm_events[PSWPOUT];
	r->swap_usage = fx.memcg->swap_usage;
	r->pool = zram_pool_pages(&mm.swap->zram);
	r->reserved = nodes_reserved();
	ck_assert_uint_eq(fx.task->rss_anon + fx.task->nr_swapents, HEAP_PAGES);
	ck_assert_uint_le(fx.task->rss_anon, MEMCG_MAX);
	ck_assert_uint_eq(fx.task->rss_anon, fx.heap->nr_resident);
	assert_invariants();
	check_swap();

	/* read every page back: swapped ones fault in from zram */
	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		int ret = touch(a, fx.task, fx.heap, fx.touched, i, false);

		ck_assert_int_ge(ret, 0);
		r->nr_major += ret == ACCESS_MAJOR;
	}
	r->pswpin = mm.vm_events[PSWPIN];
	r->refault_anon = lruvecs_stat(WORKINGSET_REFAULT_ANON);
	check_swap();

	/* mixed random traffic, checking every access */
	rng_seed(&rng, 9, "mixed");
	for (int n = 0; n < 4000; n++) {
		uint64_t i = rng_below(&rng, HEAP_PAGES);

		ck_assert_int_ge(touch(a, fx.task, fx.heap, fx.touched, i, rng_below(&rng, 3) == 0), 0);
	}
	ck_assert_uint_eq(fx.task->rss_anon + fx.task->nr_swapents, HEAP_PAGES);
	assert_invariants();
	check_swap();
}

/*
 * Slots are taken as from one stack with the lowest on top at first: the
 * freed ones last freed first, then the never used in order (writeout
 * starts at the front of the area); a freed slot forgets its shadow.
 */
START_TEST(test_swap_slot_order)
{
	static const uint64_t want[] = { 3, 1, 5 };
	struct folio *f[6];

	boot(MEMCG_MAX, 16);
	ck_assert_int_eq(swap_init_block(&fx.nvme, 0, 5), 0);
	for (int i = 0; i < 6; i++) {
		f[i] = folio_of(folio_table_get());
		f[i]->memcg_id = fx.memcg->id;
	}
	for (int i = 0; i < 4; i++) {
		ck_assert(add_to_swap(f[i]));
		ck_assert_uint_eq(f[i]->private, i + 1);
	}
	mm.swap->shadow[1] = 7;
	for (int i = 0; i < 3; i += 2) {
		delete_from_swap_cache(f[i]);
		swap_free(f[i]->private);
	}
	ck_assert_uint_eq(mm.swap->shadow[1], 0);
	ck_assert_uint_eq(mm.swap->nr_free, 3);
	delete_from_swap_cache(f[1]);
	f[1]->private = 0;
	for (int i = 0; i < 3; i++) {
		struct folio *g = i ? f[4 + i - 1] : f[1];

		ck_assert(add_to_swap(g));
		ck_assert_uint_eq(g->private, want[i]);
	}
	ck_assert_uint_eq(mm.swap->nr_free, 0);
	ck_assert(!add_to_swap(f[0]));	/* full */
}
END_TEST

START_TEST(test_zram_swapout_swapin)
{
	struct zram_result r = { 0 };

	boot_policy(policies[_i], MEMCG_MAX, HEAP_PAGES);
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, 4096), 0);
	ck_assert_uint_eq(nodes_reserved(), 0);
	harness_run_actor(zram_fn, &r);
	ck_assert_uint_gt(r.pswpout, 0);
	ck_assert_uint_ge(r.pswpout, HEAP_PAGES - MEMCG_MAX);
	ck_assert_uint_gt(r.swap_usage, 0);
	ck_assert_uint_gt(r.pool, 0);
	ck_assert_uint_eq(r.reserved, r.pool);
	/* lz4 at 2.6x: the pool is well under the pages it holds */
	ck_assert_uint_lt(r.pool, r.swap_usage);
	ck_assert_uint_gt(r.pswpin, 0);
	ck_assert_uint_gt(r.nr_major, 0);
	ck_assert_uint_le(r.nr_major, r.pswpin);
	ck_assert_uint_gt(r.refault_anon, 0);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM_KILL], 0);
	ck_assert(!fx.task->oom_killed);
	/* zram is synchronous: nothing was ever under writeback */
	ck_assert_uint_eq(mm.vm_events[PGROTATED], 0);
	ck_assert_uint_eq(lruvecs_stat(NR_WRITEBACK), 0);
}
END_TEST

/* ---- block swap on NVMe ---- */

struct block_result {
	uint64_t max_wb_folios, max_nr_writeback;
	bool wb_consistent;
	uint64_t wb_after_io, nr_writeback_after_io, rotated_after_io, pswpin, nr_major;
	uint64_t swapcache_unmapped_before, swapcache_unmapped_after;
};

/* Written swap-cache folios nobody maps: what rotation hands to the next reclaim. */
static int written_unmapped(uint64_t *slots, uint32_t *idx, int max)
{
	int nr = 0;

	for (uint64_t s = 1; s <= mm.swap->nr_slots && nr < max; s++) {
		const struct folio *f;
		const struct address_space *as;

		if (!mm.swap->cache[s])
			continue;
		f = folio_of(mm.swap->cache[s]);
		as = folio_mapping(f);
		if (folio_test_writeback(f) || folio_test_dirty(f) ||
		    (as->ptes && (as->ptes[f->index] & PTE_PRESENT)))
			continue;
		slots[nr] = s;
		idx[nr++] = mm.swap->cache[s];
	}
	return nr;
}

static void block_fn(struct actor *a, void *arg)
{
	struct block_result *r = arg;
	uint64_t got;

	r->wb_consistent = true;
	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		uint64_t wb, nr;

		ck_assert_int_ge(touch(a, fx.task, fx.heap, fx.touched, i, true), 0);
		ck_assert_uint_le(fx.memcg->usage, fx.memcg->max);
		wb = nr_folios_writeback();
		nr = lruvecs_stat(NR_WRITEBACK);
		if (wb != nr)
			r->wb_consistent = false;
		if (wb > r->max_wb_folios)
			r->max_wb_folios = wb;
		if (nr > r->max_nr_writeback)
			r->max_nr_writeback = nr;
	}
	assert_invariants();
	check_swap();
	/* let every write complete */
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	r->wb_after_io = nr_folios_writeback();
	r->nr_writeback_after_io = lruvecs_stat(NR_WRITEBACK);
	r->rotated_after_io = mm.vm_events[PGROTATED];
	assert_invariants();
	check_swap();

	/* the rotated, written folios are the first the next reclaim frees */
	{
		uint64_t slots[64];
		uint32_t idx[64];
		int nr = written_unmapped(slots, idx, 64);

		r->swapcache_unmapped_before = (uint64_t)nr;
		memory_reclaim(fx.memcg, 32, -1, a, &got);
		for (int k = 0; k < nr; k++)
			r->swapcache_unmapped_after += mm.swap->cache[slots[k]] == idx[k];
	}
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	check_swap();

	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		int ret = touch(a, fx.task, fx.heap, fx.touched, i, false);

		ck_assert_int_ge(ret, 0);
		r->nr_major += ret == ACCESS_MAJOR;
	}
	r->pswpin = mm.vm_events[PSWPIN];
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	ck_assert_uint_eq(fx.task->rss_anon + fx.task->nr_swapents, HEAP_PAGES);
	assert_invariants();
	check_swap();
}

START_TEST(test_block_swap_async_writeout)
{
	struct block_result r = { 0 };

	boot_policy(policies[_i], MEMCG_MAX, HEAP_PAGES);
	ck_assert_int_eq(swap_init_block(&fx.nvme, 1 << 20, 4096), 0);
	harness_run_actor(block_fn, &r);
	ck_assert_uint_gt(mm.vm_events[PSWPOUT], 0);
	ck_assert_uint_eq(fx.nvme.st.nr_writes, mm.vm_events[PSWPOUT]);
	/* writeout was asynchronous: folios sat under writeback after reclaim */
	ck_assert_uint_gt(r.max_wb_folios, 0);
	ck_assert_uint_gt(r.max_nr_writeback, 0);
	ck_assert_msg(r.wb_consistent, "NR_WRITEBACK disagreed with the PG_writeback folios");
	/* completions rotated them and nothing stays under writeback */
	ck_assert_uint_gt(r.rotated_after_io, 0);
	ck_assert_uint_eq(r.wb_after_io, 0);
	ck_assert_uint_eq(r.nr_writeback_after_io, 0);
	/* swap-in reads the device */
	ck_assert_uint_gt(r.pswpin, 0);
	ck_assert_uint_gt(r.nr_major, 0);
	ck_assert_uint_ge(fx.nvme.st.nr_reads, r.pswpin);
	ck_assert_uint_eq(nodes_reserved(), 0);
	ck_assert(!fx.task->oom_killed);
	/* written, rotated folios sat at the tail: the next reclaim freed them all */
	ck_assert_uint_gt(r.swapcache_unmapped_before, 0);
	ck_assert_uint_eq(r.swapcache_unmapped_after, 0);
}
END_TEST

/* ---- memory.swap.max = 0 ---- */

struct oom_result {
	int last_ret;
	uint64_t killed_at;		/* page whose fault saw the kill */
	uint64_t max_swap_usage, max_swapents, min_nr_free;
	bool nr_free_wrapped;
};

static void fill_until_killed(struct actor *a, struct oom_result *r, uint64_t nr_pages)
{
	r->min_nr_free = mm.swap ? mm.swap->nr_free : 0;
	r->killed_at = UINT64_MAX;
	for (uint64_t i = 0; i < nr_pages; i++) {
		r->last_ret = touch(a, fx.task, fx.heap, fx.touched, i, true);
		if (mm.swap) {
			if (mm.swap->nr_free > mm.swap->nr_slots)
				r->nr_free_wrapped = true;
			if (mm.swap->nr_free < r->min_nr_free)
				r->min_nr_free = mm.swap->nr_free;
			ck_assert_uint_le(mm.swap->zram.nr_stored, mm.swap->nr_slots);
		}
		if (r->last_ret < 0) {
			r->killed_at = i;
			return;
		}
		ck_assert_uint_le(fx.memcg->usage, fx.memcg->max);
		if (fx.memcg->swap_usage > r->max_swap_usage)
			r->max_swap_usage = fx.memcg->swap_usage;
		if (fx.task->nr_swapents > r->max_swapents)
			r->max_swapents = fx.task->nr_swapents;
	}
}

static void swap_max_zero_fn(struct actor *a, void *arg)
{
	fill_until_killed(a, arg, HEAP_PAGES);
}

START_TEST(test_swap_max_zero_ooms)
{
	struct oom_result r = { 0 };

	boot(MEMCG_MAX, HEAP_PAGES);
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, 4096), 0);
	fx.memcg->swap_max = 0;
	harness_run_actor(swap_max_zero_fn, &r);
	ck_assert_int_eq(r.last_ret, -EINTR);
	ck_assert(fx.task->oom_killed);
	ck_assert_uint_eq(r.killed_at, MEMCG_MAX);
	ck_assert_uint_eq(mm.vm_events[PSWPOUT], 0);
	ck_assert_uint_eq(r.max_swap_usage, 0);
	ck_assert_uint_eq(mm.swap->nr_free, mm.swap->nr_slots);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM_KILL], 1);
	ck_assert_uint_eq(fx.task->rss_anon, 0);
	ck_assert_uint_eq(fx.memcg->usage, 0);
	ck_assert_uint_eq(nodes_reserved(), 0);
	assert_invariants();
	check_swap();
}
END_TEST

/* ---- a full swap device ---- */

#define FEW_SLOTS 16

static void swap_full_fn(struct actor *a, void *arg)
{
	fill_until_killed(a, arg, HEAP_PAGES);
}

START_TEST(test_swap_full_ooms)
{
	struct oom_result r = { 0 };

	boot(MEMCG_MAX, HEAP_PAGES);
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, FEW_SLOTS), 0);
	harness_run_actor(swap_full_fn, &r);
	ck_assert(!r.nr_free_wrapped);
	ck_assert_uint_eq(r.min_nr_free, 0);		/* it did fill up */
	ck_assert_uint_le(r.max_swap_usage, FEW_SLOTS);
	ck_assert_uint_eq(r.max_swapents, FEW_SLOTS);
	/* written pages were never swapped in: each slot was written once */
	ck_assert_uint_eq(mm.vm_events[PSWPOUT], FEW_SLOTS);
	ck_assert_int_eq(r.last_ret, -EINTR);
	ck_assert(fx.task->oom_killed);
	ck_assert_uint_eq(r.killed_at, MEMCG_MAX + FEW_SLOTS);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM_KILL], 1);
	/* the reaper gave every slot back */
	ck_assert_uint_eq(mm.swap->nr_free, FEW_SLOTS);
	ck_assert_uint_eq(fx.memcg->swap_usage, 0);
	ck_assert_uint_eq(mm.swap->zram.nr_stored, 0);
	ck_assert_uint_eq(nodes_reserved(), 0);
	assert_invariants();
	check_swap();
}
END_TEST

/* ---- the OOM killer frees its victim's swap ---- */

static void oom_swap_fn(struct actor *a, void *arg)
{
	fill_until_killed(a, arg, 4 * HEAP_PAGES);
}

START_TEST(test_oom_frees_swap_slots_zram)
{
	struct oom_result r = { 0 };

	boot(MEMCG_MAX, 4 * HEAP_PAGES);
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, 4096), 0);
	fx.memcg->swap_max = 512;
	harness_run_actor(oom_swap_fn, &r);
	ck_assert_int_eq(r.last_ret, -EINTR);
	ck_assert(fx.task->oom_killed);
	ck_assert_uint_eq(r.max_swap_usage, 512);
	ck_assert_uint_eq(r.max_swapents, 512);
	ck_assert_uint_eq(mm.swap->nr_free, mm.swap->nr_slots);
	ck_assert_uint_eq(fx.memcg->swap_usage, 0);
	ck_assert_uint_eq(mm.root_mem_cgroup->swap_usage, 0);
	ck_assert_uint_eq(fx.task->nr_swapents, 0);
	ck_assert_uint_eq(mm.swap->zram.nr_stored, 0);
	ck_assert_uint_eq(zram_pool_pages(&mm.swap->zram), 0);
	ck_assert_uint_eq(nodes_reserved(), 0);
	for (uint64_t i = 0; i < fx.heap->nr_pages; i++)
		ck_assert_uint_eq(fx.heap->slots[i], 0);
	assert_invariants();
	check_swap();
}
END_TEST

/*
 * Block swap: the victim dies with writes in flight. Its folios under
 * writeback become orphans that reclaim frees once written; neither they
 * nor the victim may keep a slot.
 */
struct block_oom_arg {
	struct oom_result r;
	struct task *other;
	struct address_space *other_heap;
	bool *other_touched;
	uint64_t wb_at_kill, orphans_at_kill;	/* at the moment of the kill */
};

static void block_oom_fn(struct actor *a, void *arg)
{
	struct block_oom_arg *b = arg;

	fill_until_killed(a, &b->r, 4 * HEAP_PAGES);
	b->wb_at_kill = nr_folios_writeback();
	b->orphans_at_kill = nr_orphans();
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	check_swap();
	/* another task of the memcg fills it: reclaim meets the orphans */
	for (uint64_t i = 0; i < MEMCG_MAX + 64; i++)
		ck_assert_int_ge(touch(a, b->other, b->other_heap, b->other_touched, i, true), 0);
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
	assert_invariants();
	check_swap();
	/* the survivor exits */
	task_free_anon(b->other);
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);
}

START_TEST(test_oom_frees_swap_slots_block)
{
	struct block_oom_arg b = { 0 };

	boot(MEMCG_MAX, 4 * HEAP_PAGES);
	/* writes that take 2 ms more (dm-delay): some are in flight at the kill,
	 * however fast reclaim gets there */
	fx.nvme.p.delay_write_ns = 2 * NSEC_PER_MSEC;
	ck_assert_int_eq(swap_init_block(&fx.nvme, 1 << 20, 4096), 0);
	fx.memcg->swap_max = 512;
	b.other = task_create("other", fx.memcg, 0);
	b.other_heap = anon_region_create(b.other, "other-heap", MEMCG_MAX + 64);
	b.other_touched = calloc(MEMCG_MAX + 64, sizeof(bool));
	harness_run_actor(block_oom_fn, &b);
	ck_assert_int_eq(b.r.last_ret, -EINTR);
	ck_assert(fx.task->oom_killed);
	ck_assert(!b.other->oom_killed);
	ck_assert_uint_gt(b.r.max_swapents, 0);
	/* the victim died with writes in flight: its folios became orphans */
	ck_assert_uint_gt(b.wb_at_kill, 0);
	ck_assert_uint_gt(b.orphans_at_kill, 0);
	ck_assert_uint_eq(nr_orphans(), 0);
	ck_assert_uint_eq(fx.task->nr_swapents, 0);
	ck_assert_uint_eq(b.other->nr_swapents, 0);
	ck_assert_uint_eq(b.other->rss_anon, 0);
	/* everybody is gone: every slot is free again */
	ck_assert_msg(mm.swap->nr_free == mm.swap->nr_slots, "%llu slots still allocated",
		      (unsigned long long)(mm.swap->nr_slots - mm.swap->nr_free));
	ck_assert_uint_eq(fx.memcg->swap_usage, 0);
	ck_assert_uint_eq(nr_folios_writeback(), 0);
	assert_invariants();
	check_swap();
	free(b.other_touched);
}
END_TEST

/*
 * The victim dies while one of its threads waits on a swap-in read: the
 * folio is locked, in the swap cache and on the LRU. The zap (the OOM
 * reaper) must not free it under the read (free_swap_and_cache()'s
 * folio_trylock() fails): it becomes an orphan, and the faulter, woken,
 * finds its PTE gone (!pte_same) and maps nothing. Freed at the zap, the
 * folio went to another page while the faulter then mapped it (found by
 * mmemu fuzz: "its folio ... is another page's").
 */
struct swapin_zap_arg {
	uint64_t page;		/* a page swapped out, faulted in by the faulter */
	int fault_ret;
	bool faulted;
	uint64_t orphans_after_zap;
};

static void swapin_faulter(struct actor *a, void *arg)
{
	struct swapin_zap_arg *z = arg;

	z->fault_ret = anon_access(a, fx.task, fx.heap, z->page, false);
	z->faulted = true;
}

static void swapin_zap_fn(struct actor *a, void *arg)
{
	struct swapin_zap_arg *z = arg;
	struct task *other = task_create("other", fx.memcg, 0);
	struct address_space *oh = anon_region_create(other, "other-heap", MEMCG_MAX);
	bool *ot = calloc(MEMCG_MAX, sizeof(bool));
	uint64_t i;

	ck_assert_ptr_nonnull(ot);
	for (i = 0; i < 2 * MEMCG_MAX; i++)
		ck_assert_int_ge(touch(a, fx.task, fx.heap, fx.touched, i, true), 0);
	actor_sleep_ns(a, 50 * NSEC_PER_MSEC);	/* every write done */
	for (i = 0; i < 2 * MEMCG_MAX; i++)
		if (xa_is_value(fx.heap->slots[i]) &&
		    !mm.swap->cache[swp_slot(fx.heap->slots[i])])
			break;
	ck_assert_uint_lt(i, 2 * MEMCG_MAX);
	z->page = i;
	actor_create("faulter", 0, swapin_faulter, z, false);
	actor_sleep_ns(a, NSEC_PER_MSEC);	/* the read takes 2 ms more */
	ck_assert(!z->faulted);
	/* the OOM reaper's part of a kill */
	fx.task->oom_killed = true;
	task_free_anon(fx.task);
	z->orphans_after_zap = nr_orphans();
	/* the freed memory goes to another task: a folio freed too early is
	 * another page's by the time the faulter maps it */
	for (i = 0; i < MEMCG_MAX / 2; i++)
		ck_assert_int_ge(touch(a, other, oh, ot, i, true), 0);
	actor_sleep_ns(a, 10 * NSEC_PER_MSEC);
	ck_assert(z->faulted);
	assert_invariants();
	check_swap();
	free(ot);
}

START_TEST(test_zap_during_swapin_read)
{
	struct swapin_zap_arg z = { 0 };

	boot(MEMCG_MAX, 2 * MEMCG_MAX);
	fx.nvme.p.delay_read_ns = 2 * NSEC_PER_MSEC;
	ck_assert_int_eq(swap_init_block(&fx.nvme, 1 << 20, 4096), 0);
	harness_run_actor(swapin_zap_fn, &z);
	ck_assert_int_eq(z.fault_ret, -EINTR);
	/* the read's folio outlived the zap, as an orphan */
	ck_assert_uint_eq(z.orphans_after_zap, 1);
	for (uint64_t i = 0; i < fx.heap->nr_pages; i++)
		ck_assert_uint_eq(fx.heap->slots[i], 0);
	ck_assert_uint_eq(fx.task->nr_swapents, 0);
	ck_assert_uint_eq(fx.task->rss_anon, 0);
}
END_TEST

/*
 * oom_badness() counts MM_SWAPENTS with the RSS (mm/oom_kill.c): a task
 * whose memory went mostly to swap is still the biggest.
 */
struct badness_arg {
	struct task *b;
	struct address_space *b_heap;
	bool *b_touched;
	uint64_t a_rss, a_swap, b_rss, b_swap;
	int b_ret;
};

static void badness_fn(struct actor *a, void *arg)
{
	struct badness_arg *x = arg;

	for (uint64_t i = 0; i < 700; i++)
		ck_assert_int_ge(touch(a, fx.task, fx.heap, fx.touched, i, true), 0);
	/* B grows until swap.max is reached and somebody must die */
	for (uint64_t i = 0; i < HEAP_PAGES; i++) {
		x->a_rss = fx.task->rss_anon;
		x->a_swap = fx.task->nr_swapents;
		x->b_rss = x->b->rss_anon;
		x->b_swap = x->b->nr_swapents;
		x->b_ret = touch(a, x->b, x->b_heap, x->b_touched, i, true);
		if (x->b_ret < 0 || fx.task->oom_killed)
			break;
	}
}

START_TEST(test_oom_badness_counts_swap)
{
	struct badness_arg x = { 0 };

	boot(MEMCG_MAX, HEAP_PAGES);
	ck_assert_int_eq(swap_init_zram(ZRAM_LZ4, 4096), 0);
	fx.memcg->swap_max = 600;
	x.b = task_create("b", fx.memcg, 0);
	x.b_heap = anon_region_create(x.b, "b-heap", HEAP_PAGES);
	x.b_touched = calloc(HEAP_PAGES, sizeof(bool));
	harness_run_actor(badness_fn, &x);
	ck_assert_uint_eq(mm.nr_oom_kills, 1);
	/* just before the kill: A's footprint (RSS + swap) was the larger */
	ck_assert_uint_gt(x.a_rss + x.a_swap, x.b_rss + x.b_swap);
	ck_assert_msg(fx.task->oom_killed && !x.b->oom_killed,
		      "killed %s: A had rss %llu + swap %llu, B rss %llu + swap %llu",
		      fx.task->oom_killed ? "A" : "B", (unsigned long long)x.a_rss,
		      (unsigned long long)x.a_swap, (unsigned long long)x.b_rss,
		      (unsigned long long)x.b_swap);
	free(x.b_touched);
}
END_TEST

static Suite *swap_suite(void)
{
	Suite *s = suite_create("swap");
	TCase *tc = tcase_create("zram");
	int nr = (int)(sizeof(policies) / sizeof(policies[0]));

	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_zram_swapout_swapin, 0, nr);
	suite_add_tcase(s, tc);

	tc = tcase_create("block");
	tcase_set_timeout(tc, 30);
	tcase_add_loop_test(tc, test_block_swap_async_writeout, 0, nr);
	suite_add_tcase(s, tc);

	tc = tcase_create("limits");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_swap_slot_order);
	tcase_add_test(tc, test_swap_max_zero_ooms);
	tcase_add_test(tc, test_swap_full_ooms);
	tcase_add_test(tc, test_oom_frees_swap_slots_zram);
	tcase_add_test(tc, test_oom_frees_swap_slots_block);
	tcase_add_test(tc, test_zap_during_swapin_read);
	tcase_add_test(tc, test_oom_badness_counts_swap);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(swap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
