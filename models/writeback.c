/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/debug.h"
#include "models/costs.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"
#include "models/writeback.h"

#define MAX_WBS 16
/* pages a flusher keeps in flight before it waits (block queue depth, ~16 MiB) */
#define WB_MAX_INFLIGHT 4096
#define WB_BIO_PAGES 256

struct bdi_writeback {
	struct blockdev *bdev;		/* the device it writes to */
	struct actor *actor;		/* the flusher thread */
	struct waitq *wait;		/* it sleeps here between passes */
	struct waitq *inflight_wait;	/* ... and here when the queue is full */
	uint64_t inflight;		/* pages under writeback from it */
	bool start_all;			/* WB_start_all: wakeup_flusher_threads() asked for a flush */
	uint64_t nr_written;		/* pages written */
};

static struct bdi_writeback wbs[MAX_WBS];
static int nr_wbs;

struct wb_bio {
	struct bdi_writeback *wb;
	bool queued;			/* counted in wb->inflight (in the device's queue) */
	uint32_t nr;
	uint32_t idx[WB_BIO_PAGES];	/* folios written by this bio */
};

/* folio_mkclean(): every PTE mapping it write-protected and clean again */
static void folio_mkclean(struct folio *folio)
{
	struct rmap_iter it;
	struct vm_area *vma;
	uint8_t *pte;

	rmap_iter_init(&it, folio_mapping(folio), folio->index);
	while ((pte = rmap_iter_next(&it, &vma)))
		*pte &= (uint8_t)~PTE_DIRTY;
}

/*
 * PAGECACHE_TAG_DIRTY: writeback finds the next dirty page through the
 * tag, as the xarray's tag search does, not by looking at every page.
 */
static void dirty_tag_set(struct address_space *as, uint64_t index)
{
	as->dirty_tag[index / 64] |= 1ULL << (index % 64);
	as->dirty_tag_sum[index / 4096] |= 1ULL << (index / 64 % 64);
}

static void dirty_tag_clear(struct address_space *as, uint64_t index)
{
	uint64_t *w = &as->dirty_tag[index / 64];

	*w &= ~(1ULL << (index % 64));
	if (!*w)
		as->dirty_tag_sum[index / 4096] &= ~(1ULL << (index / 64 % 64));
}

/* The first tagged page at or after `from`, or nr_pages when there is none. */
static uint64_t dirty_tag_next(const struct address_space *as, uint64_t from)
{
	uint64_t nr_words = (as->nr_pages + 63) / 64;
	uint64_t w = from / 64, bits;

	if (from >= as->nr_pages)
		return as->nr_pages;
	bits = as->dirty_tag[w] & (~0ULL << (from % 64));
	while (!bits) {
		uint64_t s = ++w / 64, sum;

		if (w >= nr_words)
			return as->nr_pages;
		sum = as->dirty_tag_sum[s] & (~0ULL << (w % 64));
		while (!sum) {
			if (++s * 64 >= nr_words)
				return as->nr_pages;
			sum = as->dirty_tag_sum[s];
		}
		w = s * 64 + (uint64_t)__builtin_ctzll(sum);
		bits = as->dirty_tag[w];
	}
	return w * 64 + (uint64_t)__builtin_ctzll(bits);
}

void folio_mark_dirty(struct folio *folio)
{
	struct address_space *as = folio_mapping(folio);

	folio_inc_version(folio);
	if (folio_test_dirty(folio))
		return;
	folio_set_dirty(folio);
	if (folio_test_anon(folio) || !folio->mapping)
		return;
	count_vm_events(NR_DIRTIED, 1);
	mod_lruvec_state(folio_lruvec(folio), NR_FILE_DIRTY, 1);
	dirty_tag_set(as, folio->index);
	if (!as->nr_dirty++)
		as->dirtied_ns = current_actor ? actor_now_ns(current_actor) : engine_clock_ns();
}

/* ---- thresholds (domain_dirty_limits) ---- */

struct dirty_state {
	uint64_t dirty;		/* NR_FILE_DIRTY + NR_WRITEBACK */
	uint64_t bg_thresh;	/* background threshold */
	uint64_t thresh;	/* the dirty limit */
	uint64_t avail;		/* dirtyable memory of the domain */
};

/*
 * domain_dirty_limits(): vm.dirty_bytes / dirty_background_bytes if set,
 * else the ratios of the domain's dirtyable memory, in the kernel's
 * per-PAGE_SIZE fixed point; a memcg domain turns the byte limits into
 * ratios of the global dirtyable memory (global_avail, 0 for the global
 * domain). A background threshold at or above the limit is halved.
 */
static void dirty_limits(uint64_t avail, uint64_t global_avail, struct dirty_state *ds)
{
	uint64_t bytes = mm.vm_dirty_bytes, bg_bytes = mm.vm_dirty_background_bytes;
	uint64_t ratio = (uint64_t)mm.vm_dirty_ratio * PAGE_SIZE / 100;
	uint64_t bg_ratio = (uint64_t)mm.vm_dirty_background_ratio * PAGE_SIZE / 100;

	if (global_avail) {
		if (bytes)
			ratio = (bytes + global_avail - 1) / global_avail;
		if (bg_bytes)
			bg_ratio = (bg_bytes + global_avail - 1) / global_avail;
		if (ratio > PAGE_SIZE)
			ratio = PAGE_SIZE;
		if (bg_ratio > PAGE_SIZE)
			bg_ratio = PAGE_SIZE;
		bytes = bg_bytes = 0;
	}
	ds->thresh = bytes ? (bytes + PAGE_SIZE - 1) / PAGE_SIZE : ratio * avail / PAGE_SIZE;
	ds->bg_thresh = bg_bytes ? (bg_bytes + PAGE_SIZE - 1) / PAGE_SIZE
				 : bg_ratio * avail / PAGE_SIZE;
	if (ds->bg_thresh >= ds->thresh)
		ds->bg_thresh = ds->thresh / 2;
}

static void global_dirty_state(struct dirty_state *ds)
{
	uint64_t avail = 0, dirty = 0;
	int nid;

	/* global_dirtyable_memory(): free + file LRU pages */
	for_each_node(nid) {
		struct pglist_data *pgdat = NODE_DATA(nid);

		avail += pgdat->node->nr_free + node_page_state(pgdat, NR_ACTIVE_FILE) +
			 node_page_state(pgdat, NR_INACTIVE_FILE);
		dirty += node_page_state(pgdat, NR_FILE_DIRTY) + node_page_state(pgdat, NR_WRITEBACK);
	}
	ds->dirty = dirty;
	ds->avail = avail;
	dirty_limits(avail, 0, ds);
}

/*
 * mem_cgroup_wb_stats(): the memcg's file, dirty and writeback pages as of
 * the last rstat flush (ratelimited since 6.8, commit "mm: writeback:
 * ratelimit stat flush from mem_cgroup_wb_stats"), and its headroom from
 * the live page counters.
 */
static void mem_cgroup_wb_stats(const struct mem_cgroup *memcg, uint64_t *filepages,
				uint64_t *headroom, uint64_t *dirty, uint64_t *writeback)
{
	mem_cgroup_flush_stats_ratelimited((struct mem_cgroup *)memcg);
	*dirty = memcg_page_state_flushed(memcg, NR_FILE_DIRTY);
	*writeback = memcg_page_state_flushed(memcg, NR_WRITEBACK);
	*filepages = memcg_page_state_flushed(memcg, NR_ACTIVE_FILE) +
		     memcg_page_state_flushed(memcg, NR_INACTIVE_FILE);
	*headroom = UINT64_MAX;
	for (const struct mem_cgroup *pos = memcg; pos->parent; pos = pos->parent) {
		uint64_t ceiling = pos->max < pos->high ? pos->max : pos->high;
		uint64_t room = ceiling > pos->usage ? ceiling - pos->usage : 0;

		if (room < *headroom)
			*headroom = room;
	}
}

/* cgroup v2 writeback (mdtc_calc_avail): the memcg's file pages plus the
 * headroom it could still fill with clean pages from elsewhere */
static void memcg_dirty_state(const struct mem_cgroup *memcg, const struct dirty_state *gds,
			      struct dirty_state *ds)
{
	uint64_t filepages, headroom, dirty, writeback, clean, global_clean, other_clean, avail;

	mem_cgroup_wb_stats(memcg, &filepages, &headroom, &dirty, &writeback);
	ds->dirty = dirty + writeback;
	clean = filepages - (filepages < ds->dirty ? filepages : ds->dirty);
	global_clean = gds->avail - (gds->avail < gds->dirty ? gds->avail : gds->dirty);
	other_clean = global_clean - (global_clean < clean ? global_clean : clean);
	avail = filepages + (headroom < other_clean ? headroom : other_clean);
	ds->avail = avail;
	dirty_limits(avail, gds->avail, ds);
}

/*
 * wb_over_bg_thresh(): the global domain, then each memcg domain, by the
 * domain's (flushed) dirty count or by the wb's own reclaimable pages,
 * which are exact (wb_stat(WB_RECLAIMABLE); our stand-in is the memcg's
 * live NR_FILE_DIRTY, one cgroup wb per memcg).
 */
static bool over_bground_thresh(void)
{
	struct dirty_state gds;

	global_dirty_state(&gds);
	if (gds.dirty > gds.bg_thresh)
		return true;
	for (int id = 2; id <= mm.nr_memcgs; id++) {
		struct dirty_state mds;

		memcg_dirty_state(mm.memcgs[id], &gds, &mds);
		if (mds.dirty > mds.bg_thresh ||
		    memcg_page_state(mm.memcgs[id], NR_FILE_DIRTY) > mds.bg_thresh)
			return true;
	}
	return false;
}

static void wb_wakeup(struct bdi_writeback *wb)
{
	waitq_wake_all(wb->wait);
}

/* wb_start_writeback(): a request while one is pending is dropped */
void wakeup_flusher_threads(void)
{
	mm.nr_flusher_wakeups++;
	for (int i = 0; i < nr_wbs; i++) {
		if (wbs[i].start_all)
			continue;
		wbs[i].start_all = true;
		wb_wakeup(&wbs[i]);
	}
}

/* get_nr_dirty_pages(): global NR_FILE_DIRTY, the size of a start_all flush */
static uint64_t get_nr_dirty_pages(void)
{
	uint64_t nr = 0;
	int nid;

	for_each_node(nid)
		nr += node_page_state(NODE_DATA(nid), NR_FILE_DIRTY);
	return nr;
}

/*
 * balance_dirty_pages(), simplified: below the freerun ceiling (halfway
 * between the background threshold and the limit) writers run free;
 * above it they kick the flushers and pause, from MIN_PAUSE growing to
 * MAX_PAUSE at the limit, until the domain (global, then the memcg) is
 * under its limit again. The kernel's rate-based pause estimation is not
 * modelled.
 */
/*
 * wb_stat_error(): how far the wb's per-CPU counters can be off,
 * WB_STAT_BATCH = 8 * (1 + ilog2(nr_cpus)) pages per CPU.
 */
static uint64_t wb_stat_error(void)
{
	uint64_t cpus = 0, log = 0;
	int nid;

	for_each_node(nid)
		cpus += (uint64_t)mm.machine.node[nid].nr_cpus;
	while ((2ULL << log) <= cpus)
		log++;
	return 8 * (1 + log) * cpus;
}

/* ilog2 */
static unsigned int ilog2_u64(uint64_t v)
{
	unsigned int l = 0;

	while (v >>= 1)
		l++;
	return l;
}

/*
 * dirty_poll_interval(): below the freerun ceiling, come back after about
 * the square root of the pages still left before the limit.
 */
static uint32_t dirty_poll_interval(uint64_t dirty, uint64_t thresh)
{
	if (thresh > dirty)
		return 1U << (ilog2_u64(thresh - dirty) >> 1);
	return 1;
}

static uint64_t balance_dirty_pages(struct actor *a, struct task *t);

/*
 * balance_dirty_pages_ratelimited(): a writer enters balance_dirty_pages()
 * only after dirtying nr_dirtied_pause pages (32 at start: 128 KiB), at
 * most 8 (32 KiB) while the domain's limit is exceeded. The kernel counts
 * per thread; the model counts per task, which shares the allowance among
 * a process's threads.
 */
uint64_t balance_dirty_pages_ratelimited(struct actor *a, struct task *t)
{
	uint32_t ratelimit = t->nr_dirtied_pause ? t->nr_dirtied_pause : 32;

	if (++t->nr_dirtied < ratelimit)
		return 0;
	t->nr_dirtied = 0;
	return balance_dirty_pages(a, t);
}

static uint64_t balance_dirty_pages(struct actor *a, struct task *t)
{
	uint64_t slept = 0;

	for (;;) {
		struct dirty_state gds, mds, *worst = &gds;
		uint64_t freerun, pause;

		if (t->oom_killed)
			return slept;
		global_dirty_state(&gds);
		memcg_dirty_state(t->memcg, &gds, &mds);
		if (t->memcg != mm.root_mem_cgroup &&
		    mds.dirty * (gds.thresh + 1) > gds.dirty * (mds.thresh + 1))
			worst = &mds;
		if (gds.dirty > gds.bg_thresh || mds.dirty > mds.bg_thresh)
			for (int i = 0; i < nr_wbs; i++)
				wb_wakeup(&wbs[i]);
		freerun = (worst->bg_thresh + worst->thresh) / 2;
		if (worst->dirty <= freerun) {
			t->nr_dirtied_pause = dirty_poll_interval(worst->dirty, worst->thresh);
			return slept;
		}
		/* over the freerun ceiling: come back soon (dirty_exceeded: 8 pages) */
		t->nr_dirtied_pause = 8;
		if (worst->dirty >= worst->thresh)
			pause = BDP_MAX_PAUSE_NS;
		else
			pause = BDP_MIN_PAUSE_NS + (BDP_MAX_PAUSE_NS - BDP_MIN_PAUSE_NS) *
				(worst->dirty - freerun) / (worst->thresh - freerun + 1);
		/*
		 * wb_max_pause(): no longer than the wb needs to write what it
		 * holds (exact count), so a small pool of dirty pages does not
		 * leave the disk idle; at least one jiffy.
		 */
		{
			uint64_t wb_dirty = worst == &mds ?
				memcg_page_state(t->memcg, NR_FILE_DIRTY) +
				memcg_page_state(t->memcg, NR_WRITEBACK) : gds.dirty;
			uint64_t max_pause = (wb_dirty / (1 + BDP_INIT_BW_PAGES / 32) + 1) *
					     BDP_JIFFY_NS;

			if (pause > max_pause)
				pause = max_pause;
		}
		actor_sleep_ns(a, pause);
		slept += pause;
		if (worst->dirty < worst->thresh)
			return slept;	/* one pause per call below the limit */
		/*
		 * dirty_exceeded also needs the wb's own dirty + writeback count,
		 * which is exact (wb_stat, our stand-in the memcg's live counts),
		 * over the wb's share of the threshold (one wb per memcg: all of
		 * it). Once writeback brought the wb under it, the writer goes,
		 * however stale the domain's count; likewise when the wb has
		 * (almost) nothing dirty or in flight (wb_stat_error).
		 */
		if (worst == &mds) {
			uint64_t wb_dirty = memcg_page_state(t->memcg, NR_FILE_DIRTY) +
					    memcg_page_state(t->memcg, NR_WRITEBACK);

			if (wb_dirty <= mds.thresh || wb_dirty <= wb_stat_error())
				return slept;
		}
	}
}

/* ---- the flusher ---- */

static void wb_bio_dequeue(void *private, uint64_t now)
{
	struct wb_bio *bio = private;

	(void)now;
	if (!bio->queued)
		return;
	bio->queued = false;
	bio->wb->inflight -= bio->nr;
	waitq_wake_all(bio->wb->inflight_wait);
}

static void wb_end_io(void *private, uint64_t now)
{
	struct wb_bio *bio = private;

	for (uint32_t i = 0; i < bio->nr; i++) {
		struct folio *folio = folio_of(bio->idx[i]);

		/* folio_end_writeback(): VM_BUG_ON_FOLIO(!folio_test_writeback()) */
		if (VM_WARN_ON(!folio_test_writeback(folio)))
			continue;
		folio_clear_writeback(folio);
		mod_lruvec_state(folio_lruvec(folio), NR_WRITEBACK, -1);
		if (folio_test_reclaim(folio)) {
			folio_clear_reclaim(folio);
			folio_rotate_reclaimable(folio);
		}
		writeback_complete(NODE_DATA(folio->nid), 1);
	}
	count_vm_events(NR_WRITTEN, bio->nr);
	wb_bio_dequeue(bio, now);
	free(bio);
}

/*
 * Submits a writeback bio. Its pages count against the flusher's queue
 * depth until the device has served it; a dm-delay-like delay holds the
 * bio outside the queue, so it stops counting then, before it completes.
 */
static void wb_bio_submit(struct bdi_writeback *wb, struct wb_bio *bio, struct blockdev *bdev,
			  uint64_t sector, uint64_t now)
{
	uint64_t delay = blockdev_delay_ns(bdev, REQ_OP_WRITE), done;

	bio->queued = true;
	wb->inflight += bio->nr;
	count_vm_events(PGPGOUT, bio->nr * (PAGE_SIZE / 1024));
	done = blockdev_submit(bdev, REQ_OP_WRITE, sector, bio->nr, now, wb_end_io, bio);
	if (delay && done > now + delay)
		timer_add(done - delay, wb_bio_dequeue, bio);
}

/* Submits bio from actor a (the flusher, or a task in fsync()). */
static void wb_submit(struct bdi_writeback *wb, struct actor *a, struct address_space *as,
		      struct wb_bio *bio, uint64_t first)
{
	actor_charge_sys(a, COST_BIO_SUBMIT_NS);
	wb->nr_written += bio->nr;
	wb_bio_submit(wb, bio, as->bdev, as->bdev_start + first, actor_now_ns(a));
}

/*
 * folio_prepare_writeback(), which write_cache_pages() runs after
 * folio_lock(): the folio at index is still there (mapping unchanged),
 * dirty, not under writeback and not locked (our folio_trylock), or NULL.
 */
static struct folio *folio_prepare_writeback(struct address_space *as, uint64_t index)
{
	uint64_t entry = as->slots[index];
	struct folio *folio;

	if (!entry || xa_is_value(entry))
		return NULL;
	folio = folio_of((uint32_t)entry);
	if (!folio_test_dirty(folio) || folio_test_writeback(folio) || folio_test_locked(folio))
		return NULL;
	return folio;
}

/*
 * writeback_single_inode(): dirty folios in file order from writeback_index
 * (range_cyclic), found through the dirty tag; a locked folio or one still
 * under writeback is skipped and keeps its tag.
 */
static uint64_t writeback_file(struct bdi_writeback *wb, struct actor *a,
			       struct address_space *as, uint64_t nr_to_write)
{
	struct wb_bio *bio = NULL;
	uint64_t written = 0, first = 0;
	uint64_t start = as->writeback_index < as->nr_pages ? as->writeback_index : 0;
	uint64_t next = start;
	bool stopped = false;

	/* from writeback_index to the end, then from the start of the file */
	for (int pass = 0; pass < 2 && !stopped; pass++) {
		uint64_t lo = pass ? 0 : start, hi = pass ? start : as->nr_pages, i;

		for (i = dirty_tag_next(as, lo); i < hi; i = dirty_tag_next(as, i + 1)) {
			struct folio *folio;

			if (written >= nr_to_write || !as->nr_dirty) {
				stopped = true;
				break;
			}
			next = i + 1;
			if (bio && (bio->nr == WB_BIO_PAGES || first + bio->nr != i) &&
			    folio_prepare_writeback(as, i)) {
				/*
				 * Submitting costs CPU time, in which another
				 * writer (fsync, the flusher) or reclaim may take
				 * this folio: it is looked at again after.
				 */
				wb_submit(wb, a, as, bio, first);
				bio = NULL;
			}
			folio = folio_prepare_writeback(as, i);
			if (!folio)
				continue;
			if (!bio) {
				bio = calloc(1, sizeof(*bio));
				if (!bio) {
					stopped = true;
					break;
				}
				bio->wb = wb;
				first = i;
			}
			/* folio_clear_dirty_for_io(): clean at submission, PTE write-protected */
			folio_clear_dirty(folio);
			mod_lruvec_state(folio_lruvec(folio), NR_FILE_DIRTY, -1);
			VM_WARN_ON(!as->nr_dirty);
			as->nr_dirty--;
			dirty_tag_clear(as, i);
			folio_mkclean(folio);
			if (as->disk_version.base)
				lazy_u32_set(&as->disk_version, i, folio->version);
			folio_set_writeback(folio);
			mod_lruvec_state(folio_lruvec(folio), NR_WRITEBACK, 1);
			bio->idx[bio->nr++] = folio_idx(folio);
			written++;
			if (written >= nr_to_write || !as->nr_dirty) {
				stopped = true;
				break;
			}
		}
	}
	if (bio)
		wb_submit(wb, a, as, bio, first);
	/* a full circle comes back where it started */
	if (!stopped)
		next = start;
	as->writeback_index = next < as->nr_pages ? next : 0;
	return written;
}

/*
 * The flusher (wb_workfn -> wb_do_writeback): a start_all request writes
 * as many pages as were dirty when it began (wb_check_start_all(), a
 * snapshot, not until nothing is dirty), then drops the request; expired
 * files (dirtied dirty_expire ago, kupdate) and, while the background
 * threshold is exceeded, any file, are written MAX_WRITEBACK_PAGES at a
 * time; then it sleeps for dirty_writeback_interval or until woken.
 */
static void flusher_fn(struct actor *self, void *arg)
{
	struct bdi_writeback *wb = arg;
	uint64_t start_all_left = 0;	/* pages the start_all work still writes */
	bool start_all_running = false;

	for (;;) {
		uint64_t now = actor_now_ns(self);
		bool expired = false, wrote = false;

		if (wb->start_all && !start_all_running) {
			start_all_running = true;
			start_all_left = get_nr_dirty_pages();
		}
		for (uint32_t m = 0; m < mm.nr_mappings; m++) {
			struct address_space *as = mm.mappings[m];
			uint64_t chunk = MAX_WRITEBACK_PAGES, n;
			bool all = start_all_running && start_all_left;

			if (as->bdev != wb->bdev || !as->nr_dirty)
				continue;
			expired = now >= as->dirtied_ns + mm.dirty_expire_ns;
			if (!all && !expired && !over_bground_thresh())
				continue;
			if (all && start_all_left < chunk)
				chunk = start_all_left;
			while (wb->inflight >= WB_MAX_INFLIGHT)
				waitq_wait(self, wb->inflight_wait, 0);
			n = writeback_file(wb, self, as, chunk);
			if (n)
				wrote = true;
			if (start_all_running)
				start_all_left -= n < start_all_left ? n : start_all_left;
			if (!as->nr_dirty)
				as->dirtied_ns = 0;
			actor_cond_resched(self);
		}
		if (start_all_running && (!start_all_left || !wrote)) {
			/* the start_all work is done: clear_bit(WB_start_all) */
			start_all_running = false;
			wb->start_all = false;
		}
		if (wrote)
			continue;
		/* wb_workfn: periodic kupdate writeback every dirty_writeback_interval */
		waitq_wait(self, wb->wait, mm.dirty_writeback_interval_ns);
	}
}

void filemap_fdatawrite(struct actor *a, struct address_space *as)
{
	for (int i = 0; i < nr_wbs; i++)
		if (wbs[i].bdev == as->bdev && as->nr_dirty)
			writeback_file(&wbs[i], a, as, UINT64_MAX);
}

int wb_create(struct blockdev *bdev)
{
	struct bdi_writeback *wb;
	char name[64];

	if (nr_wbs == MAX_WBS)
		return -ENOSPC;
	wb = &wbs[nr_wbs++];
	memset(wb, 0, sizeof(*wb));
	wb->bdev = bdev;
	wb->wait = waitq_create();
	wb->inflight_wait = waitq_create();
	if (!wb->wait || !wb->inflight_wait)
		return -ENOMEM;
	snprintf(name, sizeof(name), "flush-%s", bdev->name);
	wb->actor = actor_create(name, 0, flusher_fn, wb, true);
	return wb->actor ? 0 : -ENOMEM;
}

void wb_exit(void)
{
	for (int i = 0; i < nr_wbs; i++) {
		waitq_destroy(wbs[i].wait);
		waitq_destroy(wbs[i].inflight_wait);
	}
	nr_wbs = 0;
}
