/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ycsb: YCSB's core workloads against a MongoDB/WiredTiger-like store.
 *
 * The store: the collection's B-tree file (records in insert order) and
 * the _id index's (entries in key order) on the workload's device, a
 * journal file, and WiredTiger's cache of leaf pages in anonymous memory.
 * Every operation looks its key up in the index, then reads or updates the
 * record's collection leaf. A leaf missing from the cache is preaded (its
 * whole on-disk extent, through the page cache) and decompressed into it.
 * The cache is accounted in bytes with WiredTiger's cache_overhead and kept
 * under eviction_target (and its dirty bytes under eviction_dirty_target)
 * by an eviction thread, least recently used first; application threads
 * evict past the triggers. Evicting a dirty leaf reconciles it: compressed
 * and pwritten to a new extent (copy-on-write; the old extent is free again
 * after the next checkpoint). Checkpoints every `checkpoint` from the run
 * phase's start reconcile every dirty leaf and fsync the files; the log
 * thread writes the journal's new records and fsyncs it every
 * commit_interval. B-tree internal pages are not modelled (they stay
 * cached and are few).
 *
 * The clients: `threads` of them, after the load phase (prefault: the data
 * file read into the page cache), issue `ops` operations: by default reads
 * plus a share write_ratio of updates over scrambled zipfian keys; with
 * ycsb_workload = a..f, that core workload's mix (the request distribution,
 * scrambled zipfian or latest for D, inserts after the loaded records,
 * range scans in key order, read-modify-writes), which replaces write_ratio.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/vmscan.h"
#include "models/writeback.h"
#include "scenarios/workload.h"
#include "scenarios/zipf.h"

/* The section's own keys. */
struct ycsb_params {
	uint64_t cache_size;		/* the store's cache (anonymous memory), bytes */
	uint64_t record_size;		/* bytes per record on disk (0: 1 KiB) */
	uint64_t page_size;		/* on-disk collection leaf page, bytes (0: 4 KiB) */
	uint64_t index_size;		/* the _id index file, bytes (0: no index) */
	uint64_t index_page_size;	/* on-disk index leaf page, bytes */
	uint64_t checkpoint_ns;		/* checkpoint interval (0: none) */
	uint64_t commit_ns;		/* journal commit interval (0: no journal) */
	uint64_t journal_record;	/* journal bytes per update */
	uint64_t journal_size;		/* journal file, bytes (a ring) */
	double cache_overhead;		/* WiredTiger cache_overhead, percent */
	double eviction_target;		/* eviction_target, percent of the cache */
	double eviction_trigger;	/* eviction_trigger: application threads evict */
	double dirty_target;		/* eviction_dirty_target */
	double dirty_trigger;		/* eviction_dirty_trigger */
	double file_room;		/* extents past the data, a fraction of it */
	char workload[4];		/* core workload a..f ("": write_ratio updates) */
	double zipf_theta;		/* key skew */
	int scramble;			/* index into ycsb_scrambles */
	double write_ratio;		/* share of updates without a core workload */
	bool prefault;			/* the load phase left the data files cached */
};

/* Operation proportions and request distribution of each core workload
 * (brianfrankcooper/YCSB workloads/workloada..workloadf). */
struct ycsb_spec {
	char letter;
	double read, update, insert, scan, rmw;
	bool latest;		/* requestdistribution=latest (else zipfian) */
};

/* A core workload's state: the mix and the records inserted so far. */
struct ycsb_mix {
	const struct ycsb_spec *spec;
	uint64_t loaded;	/* records of the load phase */
	uint64_t records;	/* records now (loaded + inserted) */
	uint64_t room;		/* records the data file has room for */
	struct zipf latest;	/* D: zipfian over the distance from the newest record */
	uint64_t reads, updates, inserts, scans, records_scanned, rmw;
	uint64_t reads_inserted;	/* reads of records inserted during the run */
	uint64_t inserts_refused;	/* inserts with the file full (done as reads) */
};

/*
 * One B-tree file (the collection, or the _id index) and its block
 * manager. Leaves are written copy-on-write: a reconciled leaf goes to a
 * free extent (first fit, the lowest), its old extent is discarded, and
 * discarded extents become free again when the next checkpoint completes
 * (WiredTiger's block manager: alloc, discard and avail lists).
 */
struct wt_tree {
	const char *name;
	struct address_space *file;
	uint64_t nr_leaves;		/* leaves of the tree */
	uint64_t pages_per_leaf;	/* 4 KiB file pages per on-disk leaf */
	uint64_t records_per_leaf;	/* entries per leaf */
	uint64_t mem_bytes;		/* a leaf's footprint in the cache (with cache_overhead) */
	uint32_t frames_per_leaf;	/* 4 KiB cache pages it takes */
	uint32_t *loc;			/* leaf -> its extent (WT_NO_EXTENT: never written) */
	uint32_t *cached;		/* leaf -> cache entry + 1 (0: not in the cache) */
	uint64_t nr_extents;		/* extents the file has room for */
	uint8_t *ext;			/* per extent: EXT_FREE, EXT_USED, EXT_DISCARD */
	uint64_t avail_lo;		/* no free extent below this one */
	uint32_t *discard;		/* discarded since the last checkpoint */
	uint64_t nr_discard;
	uint64_t extents_high;		/* highest extent used + 1 */
	uint64_t hits, misses, reconciled, in_place;
};

enum { EXT_FREE, EXT_USED, EXT_DISCARD };
#define WT_NO_EXTENT UINT32_MAX
#define WT_NONE UINT32_MAX

/* A leaf in the cache: its frames, and its place in the LRU and dirty lists. */
struct wt_entry {
	uint32_t tree;			/* index into store.tree */
	uint32_t leaf;
	uint32_t frame;			/* first frame (the rest chained in next_frame) */
	uint32_t prev, next;		/* LRU list: head most recent */
	uint32_t dprev, dnext;		/* dirty list: head most recently dirtied */
	bool dirty;
	bool evicting;			/* off the LRU list, being evicted */
};

enum { TREE_COLL, TREE_INDEX, NR_TREES };

/*
 * The WiredTiger-like store: the trees and the cache in front of them.
 * The cache holds leaves in anonymous memory, accounted in bytes as
 * WiredTiger does (each leaf's in-memory size times 1 + cache_overhead);
 * eviction threads keep it under eviction_target and its dirty bytes under
 * eviction_dirty_target, least recently used first; past eviction_trigger
 * (or eviction_dirty_trigger) the application threads evict too.
 */
struct wt_store {
	struct wt_tree tree[NR_TREES];
	int nr_trees;
	struct address_space *cache;	/* the cache's memory (anonymous) */
	uint32_t *next_frame;		/* frame chain of a leaf / the free list */
	uint32_t free_frame;		/* free list head */
	uint64_t nr_frames, nr_free_frames;
	struct wt_entry *ent;		/* cache entries */
	uint32_t free_ent;		/* free entries, chained through next */
	uint64_t nr_ent;
	uint32_t lru_head, lru_tail, dirty_head, dirty_tail;
	uint64_t bytes, dirty_bytes;	/* in the cache, as WiredTiger counts them */
	uint64_t target, trigger, dirty_target, dirty_trigger;	/* bytes */
	struct waitq *evict_wait;	/* the eviction thread sleeps here */
	bool evict_sleeping;
	uint64_t evicted, evicted_dirty, app_evictions, checkpoints;
	/* the journal: a ring file, written and synced every commit interval */
	struct address_space *journal;
	uint64_t journal_bytes, journal_synced;	/* appended, written out */
	uint64_t journal_flushes;
	uint64_t run_ns;		/* when the run phase began (0: not yet) */
	/* the counters the published runs report, at the run phase's start */
	uint64_t run_pgpgin, run_pgpgout, run_refault_file;
};

/* One ycsb workload (w->priv). */
struct ycsb {
	struct workload *w;		/* the workload */
	const struct ycsb_params *p;	/* its keys */
	struct wt_store store;		/* the store */
	struct zipf zipf;		/* request keys */
	uint64_t nr_keys;		/* records of the load phase */
	struct ycsb_mix *mix;		/* the core workload (NULL: reads and updates) */
};

/* ---- sizes ---- */

/* snappy on one core: compresses at ~250 MB/s, decompresses at ~500 MB/s
 * (google/snappy README, "Performance"): ns per 4 KiB page */
#define WT_SNAPPY_COMPRESS_NS_PER_PAGE (4096ULL * 1000 / 250)
#define WT_SNAPPY_DECOMPRESS_NS_PER_PAGE (4096ULL * 1000 / 500)
/* the eviction thread's poll when nothing wakes it: WiredTiger's evict
 * server waits on its condition for up to 10 ms (__wt_evict_thread_run) */
#define WT_EVICT_POLL_NS (10 * NSEC_PER_MSEC)

static uint64_t record_bytes(const struct ycsb_params *p)
{
	return p->record_size ? p->record_size : 1024;
}

static uint64_t leaf_bytes(const struct ycsb_params *p)
{
	return p->page_size ? p->page_size : 4096;
}

static uint64_t pages_of(uint64_t bytes)
{
	return (bytes + 4095) / 4096;
}

/* 4 KiB pages of a tree's file: its leaves and the room for new extents. */
static uint64_t tree_file_pages(uint64_t leaves, uint64_t leaf, double room)
{
	return (leaves + (uint64_t)((double)leaves * room)) * pages_of(leaf);
}

/* Leaves of the collection: the loaded records, plus room for inserts. */
static uint64_t coll_leaves(const struct scn_workload *cfg);

static uint64_t index_leaves(const struct ycsb_params *p)
{
	return p->index_size ? (p->index_size + p->index_page_size - 1) / p->index_page_size : 0;
}

/* ---- the block manager ---- */

/* First fit: the lowest free extent, or WT_NO_EXTENT. */
static uint32_t extent_alloc(struct wt_tree *t)
{
	for (uint64_t e = t->avail_lo; e < t->nr_extents; e++) {
		if (t->ext[e] != EXT_FREE)
			continue;
		t->ext[e] = EXT_USED;
		t->avail_lo = e + 1;
		if (e + 1 > t->extents_high)
			t->extents_high = e + 1;
		return (uint32_t)e;
	}
	t->avail_lo = t->nr_extents;
	return WT_NO_EXTENT;
}

/* A checkpoint completed: the extents discarded before it are free. */
static void extents_release(struct wt_tree *t)
{
	for (uint64_t i = 0; i < t->nr_discard; i++) {
		uint32_t e = t->discard[i];

		t->ext[e] = EXT_FREE;
		if (e < t->avail_lo)
			t->avail_lo = e;
	}
	t->nr_discard = 0;
}

/* ---- the cache's lists ---- */

static void lru_unlink(struct wt_store *st, uint32_t e)
{
	struct wt_entry *x = &st->ent[e];

	if (x->prev != WT_NONE)
		st->ent[x->prev].next = x->next;
	else
		st->lru_head = x->next;
	if (x->next != WT_NONE)
		st->ent[x->next].prev = x->prev;
	else
		st->lru_tail = x->prev;
}

static void lru_push(struct wt_store *st, uint32_t e)
{
	struct wt_entry *x = &st->ent[e];

	x->prev = WT_NONE;
	x->next = st->lru_head;
	if (st->lru_head != WT_NONE)
		st->ent[st->lru_head].prev = e;
	else
		st->lru_tail = e;
	st->lru_head = e;
}

static void dirty_unlink(struct wt_store *st, uint32_t e)
{
	struct wt_entry *x = &st->ent[e];

	if (x->dprev != WT_NONE)
		st->ent[x->dprev].dnext = x->dnext;
	else
		st->dirty_head = x->dnext;
	if (x->dnext != WT_NONE)
		st->ent[x->dnext].dprev = x->dprev;
	else
		st->dirty_tail = x->dprev;
}

static void mark_dirty(struct wt_store *st, uint32_t e)
{
	struct wt_entry *x = &st->ent[e];

	if (x->dirty)
		return;
	x->dirty = true;
	st->dirty_bytes += st->tree[x->tree].mem_bytes;
	x->dprev = WT_NONE;
	x->dnext = st->dirty_head;
	if (st->dirty_head != WT_NONE)
		st->ent[st->dirty_head].dprev = e;
	else
		st->dirty_tail = e;
	st->dirty_head = e;
}

static void mark_clean(struct wt_store *st, uint32_t e)
{
	struct wt_entry *x = &st->ent[e];

	if (!x->dirty)
		return;
	dirty_unlink(st, e);
	x->dirty = false;
	st->dirty_bytes -= st->tree[x->tree].mem_bytes;
}

/* The frame holding page `n` of entry e's leaf. */
static uint32_t entry_frame(const struct wt_store *st, uint32_t e, uint64_t n)
{
	uint32_t f = st->ent[e].frame;

	while (n--)
		f = st->next_frame[f];
	return f;
}

/* ---- reconciliation and eviction ---- */

/*
 * Reconciliation: the leaf of entry e compressed and pwritten to a new
 * extent (the old one discarded until the next checkpoint). With no free
 * extent left in the file's room, it is rewritten in place (counted).
 */
static int wt_reconcile(struct ycsb *y, struct actor *a, uint32_t e)
{
	struct wt_store *st = &y->store;
	struct wt_entry *x = &st->ent[e];
	struct wt_tree *t = &st->tree[x->tree];
	uint32_t old = t->loc[x->leaf], ext = extent_alloc(t);
	uint64_t first;

	if (ext == WT_NO_EXTENT) {
		ext = old;
		t->in_place++;
		if (ext == WT_NO_EXTENT)
			return -ENOSPC;
	} else if (old != WT_NO_EXTENT) {
		t->ext[old] = EXT_DISCARD;
		t->discard[t->nr_discard++] = old;
	}
	t->loc[x->leaf] = ext;
	first = (uint64_t)ext * t->pages_per_leaf;
	/* clean from here: the writes may sleep, and no other thread takes it */
	mark_clean(st, e);
	t->reconciled++;
	actor_charge_user(a, t->pages_per_leaf * WT_SNAPPY_COMPRESS_NS_PER_PAGE);
	for (uint64_t i = 0; i < t->pages_per_leaf; i++) {
		int ret = filemap_write(a, y->w->task, t->file, first + i);

		if (ret < 0)
			return ret;
	}
	return 0;
}

/* Evicts entry e (reconciling it first when dirty). 0 or -errno. */
static int wt_evict(struct ycsb *y, struct actor *a, uint32_t e)
{
	struct wt_store *st = &y->store;
	struct wt_entry *x = &st->ent[e];
	struct wt_tree *t = &st->tree[x->tree];
	uint32_t f = x->frame, last = f;

	/* off the LRU first: reconciling may sleep, and no one else may pick it */
	lru_unlink(st, e);
	x->evicting = true;
	if (x->dirty) {
		int ret = wt_reconcile(y, a, e);

		if (ret < 0)
			return ret;
		st->evicted_dirty++;
	}
	t->cached[x->leaf] = 0;
	st->bytes -= t->mem_bytes;
	/* the leaf's frames go back to the free list (the memory stays resident) */
	for (uint32_t i = 1; i < t->frames_per_leaf; i++)
		last = st->next_frame[last];
	st->next_frame[last] = st->free_frame;
	st->free_frame = f;
	st->nr_free_frames += t->frames_per_leaf;
	x->next = st->free_ent;
	st->free_ent = e;
	st->evicted++;
	return 0;
}

/* The eviction work there is: the oldest dirty leaf while dirty bytes are
 * over `dirty`, else the least recently used leaf while bytes are over
 * `clean`; WT_NONE when there is nothing to do. */
static uint32_t evict_candidate(const struct wt_store *st, uint64_t clean, uint64_t dirty)
{
	if (st->dirty_bytes > dirty && st->dirty_tail != WT_NONE)
		return st->dirty_tail;
	if (st->bytes > clean && st->lru_tail != WT_NONE)
		return st->lru_tail;
	return WT_NONE;
}

static void evict_wake(struct wt_store *st)
{
	if (st->evict_sleeping &&
	    (st->bytes > st->target || st->dirty_bytes > st->dirty_target)) {
		st->evict_sleeping = false;
		waitq_wake_all(st->evict_wait);
	}
}

/* WiredTiger's eviction threads (one actor for MongoDB's four). */
static void evict_thread(struct actor *a, void *arg)
{
	struct ycsb *y = arg;
	struct wt_store *st = &y->store;

	a->task = y->w->task;
	for (;;) {
		uint32_t e = evict_candidate(st, st->target, st->dirty_target);

		if (e == WT_NONE) {
			st->evict_sleeping = true;
			waitq_wait(a, st->evict_wait, WT_EVICT_POLL_NS);
			st->evict_sleeping = false;
			continue;
		}
		if (wt_evict(y, a, e) < 0)
			return;
		actor_cond_resched(a);
	}
}

/* Room for a leaf of tree t: past the triggers (or out of frames), the
 * application thread evicts itself. 0 or -errno. */
static int wt_make_room(struct ycsb *y, struct actor *a, const struct wt_tree *t)
{
	struct wt_store *st = &y->store;

	for (;;) {
		uint32_t e;
		int ret;

		if (st->nr_free_frames >= t->frames_per_leaf && st->free_ent != WT_NONE &&
		    st->bytes + t->mem_bytes <= st->trigger && st->dirty_bytes <= st->dirty_trigger)
			return 0;
		e = evict_candidate(st, 0, st->dirty_bytes > st->dirty_trigger ? st->dirty_target
									       : UINT64_MAX);
		if (e == WT_NONE)
			return -ENOMEM;
		ret = wt_evict(y, a, e);
		if (ret < 0)
			return ret;
		st->app_evictions++;
	}
}

/* ---- accesses ---- */

/*
 * Page `page` of leaf `leaf` of tree `tr`; create: a new leaf (an insert
 * past the data on disk) is made in the cache. A miss preads the leaf's
 * extent and decompresses it into the cache. The last access's outcome,
 * or -errno.
 */
static int wt_access(struct ycsb *y, struct actor *a, int tr, uint64_t leaf, uint64_t page,
		     bool write, bool create)
{
	struct wt_store *st = &y->store;
	struct wt_tree *t = &st->tree[tr];
	struct workload *w = y->w;
	uint32_t e = t->cached[leaf];
	int ret;

	if (e) {
		t->hits++;
		goto hit;
	}
	t->misses++;
	if (!create) {
		ret = filemap_read_pages(a, w->task, t->file,
					 (uint64_t)t->loc[leaf] * t->pages_per_leaf, t->pages_per_leaf);
		if (ret < 0)
			return ret;
		workload_count_outcome(w, ret);
		actor_charge_user(a, t->pages_per_leaf * WT_SNAPPY_DECOMPRESS_NS_PER_PAGE);
	}
	ret = wt_make_room(y, a, t);
	if (ret < 0)
		return ret;
	/* another thread read it in while this one slept */
	e = t->cached[leaf];
	if (e)
		goto hit;
	/* a free entry and frames_per_leaf free frames */
	e = st->free_ent;
	st->free_ent = st->ent[e].next;
	st->ent[e] = (struct wt_entry){ .tree = (uint32_t)tr, .leaf = (uint32_t)leaf,
					 .frame = st->free_frame };
	for (uint32_t i = 0; i < t->frames_per_leaf; i++) {
		uint32_t f = st->free_frame;

		st->free_frame = st->next_frame[f];
		if (i + 1 < t->frames_per_leaf)
			st->next_frame[f] = st->free_frame;
	}
	st->nr_free_frames -= t->frames_per_leaf;
	st->bytes += t->mem_bytes;
	t->cached[leaf] = e + 1;
	lru_push(st, e);
	if (write || create)
		mark_dirty(st, e);
	evict_wake(st);
	/* a new leaf starts with its first record */
	if (create)
		return anon_access(a, w->task, st->cache, entry_frame(st, e, page), write);
	/* the leaf is decompressed into the cache */
	for (uint32_t i = 0, f = st->ent[e].frame; i < t->frames_per_leaf;
	     i++, f = st->next_frame[f]) {
		ret = anon_access(a, w->task, st->cache, f, true);
		if (ret < 0)
			return ret;
	}
	return ret;
hit:
	e--;
	/* a leaf being evicted is read as it is, and keeps no update */
	if (!st->ent[e].evicting) {
		if (st->lru_head != e) {
			lru_unlink(st, e);
			lru_push(st, e);
		}
		if (write) {
			mark_dirty(st, e);
			evict_wake(st);
		}
	}
	return anon_access(a, w->task, st->cache, entry_frame(st, e, page), write);
}

/* The journal: an update appends its log record; the log thread writes it. */
static void journal_append(struct wt_store *st, const struct ycsb_params *p)
{
	if (st->journal)
		st->journal_bytes += p->journal_record;
}

/*
 * One record through the store: its _id looked up in the index (the
 * index's leaves are in key order, which for YCSB's hashed keys is a
 * pseudo-random leaf), then the record's leaf in the collection (records
 * in insert order). Its outcome counted; 0.. or -errno.
 */
static int store_access(struct ycsb *y, struct actor *a, uint64_t key, bool write, bool create)
{
	struct wt_store *st = &y->store;
	struct wt_tree *c = &st->tree[TREE_COLL];
	uint64_t leaf = key / c->records_per_leaf;
	int ret;

	if (st->nr_trees > TREE_INDEX) {
		struct wt_tree *ix = &st->tree[TREE_INDEX];
		uint64_t h = mix64(key ^ 0x5851f42d4c957f2dULL);
		uint64_t il = h % ix->nr_leaves;

		ret = wt_access(y, a, TREE_INDEX, il, (h >> 32) % ix->frames_per_leaf, create,
				false);
		if (ret < 0)
			return ret;
		workload_count_outcome(y->w, ret);
	}
	if (leaf >= c->nr_leaves)
		leaf = c->nr_leaves - 1;
	ret = wt_access(y, a, TREE_COLL, leaf,
			(key % c->records_per_leaf) * c->frames_per_leaf / c->records_per_leaf,
			write, create && c->loc[leaf] == WT_NO_EXTENT && !c->cached[leaf]);
	if (ret >= 0)
		workload_count_outcome(y->w, ret);
	if (write)
		journal_append(st, y->p);
	return ret;
}

/* fsync() of a file: its dirty pages written (the caller does not wait). */
static void wt_fsync(struct actor *a, struct address_space *f)
{
	filemap_fdatawrite(a, f);
}

/* Waits for the run phase (the end of the load phase). */
static void wait_run_phase(struct actor *a, const struct wt_store *st)
{
	while (!st->run_ns)
		actor_sleep_ns(a, 10 * NSEC_PER_MSEC);
}

/*
 * A WiredTiger checkpoint every `checkpoint` from the start of the run
 * phase (MongoDB's syncPeriodSecs): every dirty leaf is reconciled and
 * written, the files are fsync()ed, and the extents discarded before it
 * become free.
 */
static void checkpoint_thread(struct actor *a, void *arg)
{
	struct ycsb *y = arg;
	struct wt_store *st = &y->store;

	a->task = y->w->task;
	wait_run_phase(a, st);
	for (uint64_t k = 1;; k++) {
		actor_sleep_until_ns(a, st->run_ns + k * y->p->checkpoint_ns);
		while (st->dirty_head != WT_NONE) {
			if (wt_reconcile(y, a, st->dirty_head) < 0)
				return;
			actor_cond_resched(a);
		}
		for (int t = 0; t < st->nr_trees; t++) {
			wt_fsync(a, st->tree[t].file);
			extents_release(&st->tree[t]);
		}
		st->checkpoints++;
	}
}

/*
 * The journal's log thread: every commitIntervalMs the records appended
 * since the last commit are written (buffered; the partly filled last page
 * again next time) and the log file is fsync()ed. The file is a ring:
 * WiredTiger removes log files a checkpoint made obsolete and preallocates
 * new ones, which the ring stands for.
 */
static void journal_thread(struct actor *a, void *arg)
{
	struct ycsb *y = arg;
	struct wt_store *st = &y->store;
	uint64_t ring = st->journal->nr_pages;

	a->task = y->w->task;
	wait_run_phase(a, st);
	for (uint64_t k = 1;; k++) {
		uint64_t from, to;

		actor_sleep_until_ns(a, st->run_ns + k * y->p->commit_ns);
		if (st->journal_bytes == st->journal_synced)
			continue;
		from = st->journal_synced / 4096;
		to = (st->journal_bytes + 4095) / 4096;
		for (uint64_t pg = from; pg < to; pg++)
			if (filemap_write(a, y->w->task, st->journal, pg % ring) < 0)
				return;
		st->journal_synced = st->journal_bytes;
		wt_fsync(a, st->journal);
		st->journal_flushes++;
	}
}

/* `scramble`: its names (the default first) and their mappings */
static const char *const ycsb_scramble_names[] = { "ycsb", "hash", "none", "permutation", NULL };
static const enum zipf_scramble ycsb_scramble_of[] = {
	ZIPF_YCSB, ZIPF_HASH, ZIPF_ORDER, ZIPF_PERMUTATION,
};

/* ---- the core workloads ---- */

static const struct ycsb_spec ycsb_specs[] = {
	{ 'a', 0.50, 0.50, 0, 0, 0, false },	/* update heavy */
	{ 'b', 0.95, 0.05, 0, 0, 0, false },	/* read mostly */
	{ 'c', 1.00, 0, 0, 0, 0, false },	/* read only */
	{ 'd', 0.95, 0, 0.05, 0, 0, true },	/* read latest */
	{ 'e', 0, 0, 0.05, 0.95, 0, false },	/* short ranges */
	{ 'f', 0.50, 0, 0, 0, 0.50, false },	/* read-modify-write */
};

/* workloade: maxscanlength=100, scanlengthdistribution=uniform (minscanlength 1) */
#define YCSB_MAX_SCAN_LENGTH 100
/* CoreWorkload: expectednewkeys = operationcount * insertproportion * 2.0
 * ("2 is fudge factor"): the zipfian key space, and here the file's room */
#define YCSB_INSERT_FUDGE 2.0

static const struct ycsb_spec *spec_of(const char *letter)
{
	for (size_t i = 0; letter && letter[0] && !letter[1] &&
			   i < sizeof(ycsb_specs) / sizeof(ycsb_specs[0]); i++)
		if (ycsb_specs[i].letter == letter[0])
			return &ycsb_specs[i];
	return NULL;
}

static uint64_t insert_room(const struct scn_workload *cfg, const struct ycsb_spec *s)
{
	return (uint64_t)((double)cfg->ops * s->insert * YCSB_INSERT_FUDGE);
}

/* After the store is set up: the mix state and its key generators. 0 or -errno. */
static int mix_init(struct ycsb *y)
{
	const struct scn_workload *c = y->w->cfg;
	struct ycsb_mix *m = calloc(1, sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->spec = spec_of(y->p->workload);
	m->loaded = m->records = y->nr_keys;
	m->room = y->store.tree[TREE_COLL].nr_leaves * y->store.tree[TREE_COLL].records_per_leaf;
	if (m->room < m->records)
		m->room = m->records;
	/* CoreWorkload: the scrambled zipfian spans the loaded keys plus the
	 * expected inserts; a key not inserted yet is drawn again */
	if (m->spec->insert)
		zipf_init(&y->zipf, m->loaded + insert_room(c, m->spec), y->p->zipf_theta,
			  ycsb_scramble_of[y->p->scramble]);
	if (m->spec->latest)
		zipf_init(&m->latest, m->loaded, y->p->zipf_theta, ZIPF_ORDER);
	y->mix = m;
	return 0;
}

/* CoreWorkload.nextKeynum(): a key among the records present. */
static uint64_t next_key(struct ycsb *y, struct ycsb_mix *m, struct rng *r)
{
	uint64_t key;

	if (m->spec->latest)
		return m->records - 1 - zipf_next(&m->latest, r);
	do
		key = zipf_next(&y->zipf, r);
	while (key >= m->records);
	return key;
}

static int do_read(struct ycsb *y, struct ycsb_mix *m, struct actor *a)
{
	uint64_t key = next_key(y, m, &a->rng);

	m->reads++;
	m->reads_inserted += key >= m->loaded;
	return store_access(y, a, key, false, false);
}

/* A range in key order: consecutive records share a leaf, so each cache
 * page of each leaf covering the range is read once. */
static int do_scan(struct ycsb *y, struct ycsb_mix *m, struct actor *a)
{
	uint64_t start = next_key(y, m, &a->rng);
	uint64_t len = 1 + rng_below(&a->rng, YCSB_MAX_SCAN_LENGTH);
	uint64_t end = start + len < m->records ? start + len : m->records;
	uint64_t rpl = y->store.tree[TREE_COLL].records_per_leaf;
	uint64_t ppl = y->store.tree[TREE_COLL].frames_per_leaf;
	uint64_t last = UINT64_MAX;
	int ret = 0;

	m->scans++;
	m->records_scanned += end - start;
	for (uint64_t k = start; k < end; k++) {
		uint64_t where = (k / rpl) * ppl + (k % rpl) * ppl / rpl;

		if (where == last)
			continue;
		last = where;
		ret = store_access(y, a, k, false, false);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/* An insert appends the next key; the first record of a leaf beyond the
 * loaded data starts a new leaf in the cache (nothing on disk to read). */
static int do_insert(struct ycsb *y, struct ycsb_mix *m, struct actor *a, bool *write)
{
	uint64_t key = m->records;
	bool create = key % y->store.tree[TREE_COLL].records_per_leaf == 0;
	int ret;

	if (key >= m->room) {
		/* the file sized for YCSB's expected inserts is full */
		m->inserts_refused++;
		return do_read(y, m, a);
	}
	ret = store_access(y, a, key, true, create);
	if (ret < 0)
		return ret;
	m->inserts++;
	m->records++;
	if (m->spec->latest)
		zipf_grow(&m->latest, m->records);
	*write = true;
	return ret;
}

/* One operation of the mix; *write when it modified the store. 0.. or -errno. */
static int mix_op(struct ycsb *y, struct actor *a, bool *write)
{
	struct ycsb_mix *m = y->mix;
	const struct ycsb_spec *s = m->spec;
	double u = rng_double(&a->rng);
	uint64_t key;
	int ret;

	*write = false;
	if (u < s->read)
		return do_read(y, m, a);
	u -= s->read;
	if (u < s->update) {
		m->updates++;
		*write = true;
		return store_access(y, a, next_key(y, m, &a->rng), true, false);
	}
	u -= s->update;
	if (u < s->insert)
		return do_insert(y, m, a, write);
	u -= s->insert;
	if (u < s->scan || !s->rmw)
		return s->scan ? do_scan(y, m, a) : do_read(y, m, a);
	/* read-modify-write: read the record, then update it */
	key = next_key(y, m, &a->rng);
	m->rmw++;
	ret = store_access(y, a, key, false, false);
	if (ret < 0)
		return ret;
	*write = true;
	return store_access(y, a, key, true, false);
}

/* Without a core workload: a zipfian record, updated with probability write_ratio. */
static int plain_op(struct ycsb *y, struct actor *a, bool *write)
{
	uint64_t key = zipf_next(&y->zipf, &a->rng);

	*write = y->p->write_ratio > 0 && rng_double(&a->rng) < y->p->write_ratio;
	return store_access(y, a, key, *write, false);
}

/* ---- the clients ---- */

static void client_thread(struct actor *a, void *arg)
{
	struct ycsb *y = arg;
	struct workload *w = y->w;
	const struct scn_workload *c = w->cfg;
	int tid = w->threads_running++;

	a->task = w->task;
	if (c->start_ns)
		actor_sleep_ns(a, c->start_ns);
	if (!w->start_ns || actor_now_ns(a) < w->start_ns)
		w->start_ns = actor_now_ns(a);
	/* the load phase left the data file in the page cache: read it in
	 * (each thread its stripe, in order; not counted as operations) */
	if (y->p->prefault) {
		for (int t = 0; t < y->store.nr_trees; t++) {
			const struct wt_tree *tr = &y->store.tree[t];
			uint64_t pages = tr->extents_high * tr->pages_per_leaf;

			for (uint64_t p = (uint64_t)tid; p < pages; p += (uint64_t)c->threads) {
				if (filemap_read(a, w->task, tr->file, p) < 0)
					goto out;
				actor_cond_resched(a);
			}
		}
		/* throughput counts from the end of the load phase */
		if (actor_now_ns(a) > w->start_ns)
			w->start_ns = actor_now_ns(a);
	}
	/* the run phase (checkpoints and journal commits count from here) */
	if (!y->store.run_ns) {
		y->store.run_ns = actor_now_ns(a);
		y->store.run_pgpgin = mm.vm_events[PGPGIN];
		y->store.run_pgpgout = mm.vm_events[PGPGOUT];
		y->store.run_refault_file =
			memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_FILE);
	}
	while (w->ops_issued < c->ops && !w->task->oom_killed) {
		uint64_t t0 = actor_now_ns(a);
		bool wrote;
		int ret;

		/* the op's number is its clock in the cache (wt_access) */
		w->ops_issued++;
		ret = y->mix ? mix_op(y, a, &wrote) : plain_op(y, a, &wrote);
		if (ret < 0)
			break;
		if (c->think_ns)
			actor_charge_user(a, c->think_ns);
		w->ops_done++;
		w->ops_write += wrote;
		hist_record(&w->lat, actor_now_ns(a) - t0);
		actor_cond_resched(a);
	}
out:
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

/* ---- setup and results ---- */

static const struct ycsb_spec *spec_of(const char *letter);
static uint64_t insert_room(const struct scn_workload *cfg, const struct ycsb_spec *s);

static uint64_t coll_leaves(const struct scn_workload *cfg)
{
	const struct ycsb_params *p = cfg->params;
	const struct ycsb_spec *s = spec_of(p->workload);
	uint64_t rpl = leaf_bytes(p) / record_bytes(p) ? leaf_bytes(p) / record_bytes(p) : 1;
	uint64_t records = cfg->size / record_bytes(p);

	if (s && s->insert)
		records += insert_room(cfg, s);
	return (records + rpl - 1) / rpl;
}

static uint64_t journal_pages(const struct ycsb_params *p)
{
	return p->commit_ns ? pages_of(p->journal_size) : 0;
}

/* 4 KiB pages on the device: the collection, the index, the journal. */
static uint64_t ycsb_device_pages(const struct scn_workload *cfg)
{
	const struct ycsb_params *p = cfg->params;

	return tree_file_pages(coll_leaves(cfg), leaf_bytes(p), p->file_room) +
	       tree_file_pages(index_leaves(p), p->index_page_size, p->file_room) +
	       journal_pages(p);
}

static int tree_init(struct wt_tree *t, const char *name, uint64_t leaves, uint64_t loaded,
		     uint64_t leaf, uint64_t records_per_leaf, const struct ycsb_params *p,
		     struct blockdev *bdev, uint64_t bdev_start)
{
	double mem = (double)leaf * (1.0 + p->cache_overhead / 100);

	t->name = name;
	t->nr_leaves = leaves;
	t->pages_per_leaf = pages_of(leaf);
	t->records_per_leaf = records_per_leaf ? records_per_leaf : 1;
	t->mem_bytes = (uint64_t)mem;
	/* the leaf's memory in whole pages, to the nearest (WiredTiger counts bytes) */
	t->frames_per_leaf = (uint32_t)(mem / 4096 + 0.5);
	if (!t->frames_per_leaf)
		t->frames_per_leaf = 1;
	t->nr_extents = leaves + (uint64_t)((double)leaves * p->file_room);
	t->file = file_create(name, t->nr_extents * t->pages_per_leaf, bdev, bdev_start, false);
	t->loc = malloc(leaves * sizeof(*t->loc));
	t->cached = calloc(leaves, sizeof(*t->cached));
	t->ext = calloc(t->nr_extents, 1);
	t->discard = malloc(t->nr_extents * sizeof(*t->discard));
	if (!t->file || !t->loc || !t->cached || !t->ext || !t->discard)
		return -ENOMEM;
	/* the load phase wrote the loaded leaves in order */
	for (uint64_t l = 0; l < leaves; l++) {
		t->loc[l] = l < loaded ? (uint32_t)l : WT_NO_EXTENT;
		if (l < loaded)
			t->ext[l] = EXT_USED;
	}
	t->avail_lo = loaded;
	t->extents_high = loaded;
	return 0;
}

/* The trees, the journal, and the cache in front of them. */
static int store_init(struct ycsb *y, struct blockdev *bdev, uint64_t bdev_start)
{
	const struct scn_workload *c = y->w->cfg;
	const struct ycsb_params *p = y->p;
	struct wt_store *st = &y->store;
	uint64_t rec = record_bytes(p), leaf = leaf_bytes(p);
	uint64_t rpl = leaf / rec, min_frames = UINT32_MAX, name_len = strlen(c->name) + 8;
	char *name;
	int ret;

	y->nr_keys = c->size / rec;
	name = malloc(name_len * 2);
	if (!name)
		return -ENOMEM;
	snprintf(name, name_len, "%s", c->name);
	ret = tree_init(&st->tree[TREE_COLL], name, coll_leaves(c),
			(y->nr_keys + (rpl ? rpl : 1) - 1) / (rpl ? rpl : 1), leaf, rpl, p, bdev,
			bdev_start);
	if (ret)
		return ret;
	bdev_start += st->tree[TREE_COLL].nr_extents * st->tree[TREE_COLL].pages_per_leaf;
	st->nr_trees = 1;
	if (p->index_size) {
		uint64_t n = index_leaves(p);

		snprintf(name + name_len, name_len, "%s._id", c->name);
		ret = tree_init(&st->tree[TREE_INDEX], name + name_len, n, n, p->index_page_size,
				(y->nr_keys + n - 1) / n, p, bdev, bdev_start);
		if (ret)
			return ret;
		bdev_start += st->tree[TREE_INDEX].nr_extents * st->tree[TREE_INDEX].pages_per_leaf;
		st->nr_trees = 2;
	}
	if (p->commit_ns) {
		st->journal = file_create("journal", journal_pages(p), bdev, bdev_start, false);
		if (!st->journal)
			return -ENOMEM;
	}
	for (int t = 0; t < st->nr_trees; t++)
		if (st->tree[t].frames_per_leaf < min_frames)
			min_frames = st->tree[t].frames_per_leaf;
	st->target = (uint64_t)((double)p->cache_size * p->eviction_target / 100);
	st->trigger = (uint64_t)((double)p->cache_size * p->eviction_trigger / 100);
	st->dirty_target = (uint64_t)((double)p->cache_size * p->dirty_target / 100);
	st->dirty_trigger = (uint64_t)((double)p->cache_size * p->dirty_trigger / 100);
	/* frames enough that the byte limits bind first; only used ones are resident */
	st->nr_frames = 2 * pages_of(p->cache_size) + 2 * st->tree[TREE_COLL].frames_per_leaf;
	st->nr_ent = st->nr_frames / min_frames;
	st->cache = anon_region_create(y->w->task, "wt-cache", st->nr_frames);
	st->next_frame = malloc(st->nr_frames * sizeof(*st->next_frame));
	st->ent = calloc(st->nr_ent, sizeof(*st->ent));
	st->evict_wait = waitq_create();
	if (!st->cache || !st->next_frame || !st->ent || !st->evict_wait || !st->nr_ent)
		return -ENOMEM;
	for (uint64_t f = 0; f < st->nr_frames; f++)
		st->next_frame[f] = f + 1 < st->nr_frames ? (uint32_t)(f + 1) : WT_NONE;
	st->free_frame = 0;
	st->nr_free_frames = st->nr_frames;
	for (uint64_t e = 0; e < st->nr_ent; e++)
		st->ent[e].next = e + 1 < st->nr_ent ? (uint32_t)(e + 1) : WT_NONE;
	st->free_ent = 0;
	st->lru_head = st->lru_tail = st->dirty_head = st->dirty_tail = WT_NONE;
	return 0;
}

static int ycsb_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		      uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	struct ycsb *y = calloc(1, sizeof(*y));
	char name[96];
	int ret;

	(void)memcg;
	if (!y)
		return -ENOMEM;
	w->priv = y;
	y->w = w;
	y->p = c->params;
	ret = store_init(y, bdev, bdev_start);
	if (ret)
		return ret;
	if (!actor_create("wt-evict", c->node, evict_thread, y, true))
		return -ENOMEM;
	if (y->p->checkpoint_ns &&
	    !actor_create("wt-checkpoint", c->node, checkpoint_thread, y, true))
		return -ENOMEM;
	if (y->p->commit_ns && !actor_create("wt-log", c->node, journal_thread, y, true))
		return -ENOMEM;
	zipf_init(&y->zipf, y->nr_keys, y->p->zipf_theta, ycsb_scramble_of[y->p->scramble]);
	if (y->p->workload[0] && mix_init(y))
		return -ENOMEM;
	for (int t = 0; t < c->threads; t++) {
		snprintf(name, sizeof(name), "%s.%d", c->name, t);
		if (!actor_create(name, c->node, client_thread, y, false))
			return -ENOMEM;
	}
	return 0;
}

static void ycsb_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct ycsb *y = w->priv;
	const struct wt_store *st = &y->store;
	const struct wt_tree *c = &st->tree[TREE_COLL], *ix = &st->tree[TREE_INDEX];
	const struct ycsb_mix *m = y->mix;

	(void)end_ns;
	result_add_u64(g, "cache_hits", c->hits);
	result_add_u64(g, "cache_misses", c->misses);
	result_add_u64(g, "leaves_reconciled", c->reconciled);
	if (st->nr_trees > TREE_INDEX) {
		result_add_u64(g, "index_cache_hits", ix->hits);
		result_add_u64(g, "index_cache_misses", ix->misses);
		result_add_u64(g, "index_leaves_reconciled", ix->reconciled);
	}
	result_add_u64(g, "evicted", st->evicted);
	result_add_u64(g, "evicted_dirty", st->evicted_dirty);
	result_add_u64(g, "app_evictions", st->app_evictions);
	/* copy-on-write: the file's high-water mark, and rewrites for want of room */
	result_add_u64(g, "extents_high", c->extents_high);
	result_add_u64(g, "extents_in_place", c->in_place + ix->in_place);
	result_add_u64(g, "checkpoints", st->checkpoints);
	/* the run phase, per operation (the published runs' vmstat deltas) */
	if (w->ops_done) {
		double ops = (double)w->ops_done;

		result_add(g, "run_pages_read_per_op",
			   (double)(mm.vm_events[PGPGIN] - st->run_pgpgin) / 4 / ops, false);
		result_add(g, "run_pages_written_per_op",
			   (double)(mm.vm_events[PGPGOUT] - st->run_pgpgout) / 4 / ops, false);
		result_add(g, "run_refaults_file_per_op",
			   (double)(memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_FILE) -
				    st->run_refault_file) / ops, false);
	}
	if (st->journal) {
		result_add_u64(g, "journal_bytes", st->journal_bytes);
		result_add_u64(g, "journal_flushes", st->journal_flushes);
	}
	if (!m)
		return;
	result_add_u64(g, "reads", m->reads);
	result_add_u64(g, "updates", m->updates);
	result_add_u64(g, "inserts", m->inserts);
	result_add_u64(g, "scans", m->scans);
	result_add_u64(g, "records_scanned", m->records_scanned);
	result_add_u64(g, "rmw", m->rmw);
	result_add_u64(g, "reads_inserted", m->reads_inserted);
	result_add_u64(g, "inserts_refused", m->inserts_refused);
	result_add_u64(g, "records", m->records);
}

/* WiredTiger's defaults (WT_CONNECTION::open, "eviction_*" and
 * "cache_overhead", source.wiredtiger.com, unchanged through MongoDB 4.4-7.0) */
static void ycsb_params_init(struct scn_workload *cfg)
{
	struct ycsb_params *p = cfg->params;

	p->cache_overhead = 8;
	p->eviction_target = 80;
	p->eviction_trigger = 95;
	p->dirty_target = 5;
	p->dirty_trigger = 20;
	/* MongoDB's _id index: leaf_page_max=16KB, pages up to 3/4 full (SERVER-16182) */
	p->index_page_size = 12 * 1024;
	/* estimate: a one-field update's log record (WT_UPDATE_MODIFY of a
	 * 100-byte field, the log and operation headers) */
	p->journal_record = 256;
	/* WiredTiger log files of file_max=100MB (MongoDB's setting): two */
	p->journal_size = 200ULL << 20;
	/* estimate: the data file's room for copy-on-write between checkpoints */
	p->file_room = 0.5;
}

static int ycsb_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct ycsb_params *p = cfg->params;

	if (!p->cache_size || p->cache_size >= cfg->size)
		return scn_fail(ck, NULL, "cache_size",
				"a ycsb store needs a cache smaller than its data");
	if (p->page_size && (p->page_size < p->record_size || p->page_size > 128 * 1024))
		return scn_fail(ck, NULL, "page_size",
				"a ycsb leaf page holds at least one record and at most 128K");
	if (p->index_page_size < 512 || p->index_page_size > 128 * 1024)
		return scn_fail(ck, NULL, "index_page_size", "an index leaf page is 512 to 128K");
	if (p->index_size && p->index_size < p->index_page_size)
		return scn_fail(ck, NULL, "index_size", "an index takes at least one leaf page");
	if (p->index_size && p->index_size >= p->cache_size)
		return scn_fail(ck, NULL, "index_size", "the index must fit in the cache");
	if (p->commit_ns && p->journal_size < 4096)
		return scn_fail(ck, NULL, "journal_size", "a journal takes at least a page");
	if (p->eviction_target >= p->eviction_trigger)
		return scn_fail(ck, NULL, "eviction_target", "must be below eviction_trigger");
	if (p->dirty_target > p->dirty_trigger)
		return scn_fail(ck, NULL, "eviction_dirty_target",
				"must not exceed eviction_dirty_trigger");
	if (p->workload[0] && !spec_of(p->workload))
		return scn_fail(ck, NULL, "ycsb_workload", "expected a, b, c, d, e or f");
	return 0;
}

#define P struct ycsb_params
static const struct key_desc ycsb_keys[] = {
	SCN_KEY("cache_size", KT_SIZE, KEY_SCALED, P, cache_size, 0, 0, "a size",
		"WiredTiger's cache (anonymous memory)"),
	SCN_KEY("record_size", KT_INT_SIZE, KEY_UNSCALED, P, record_size, 0, 0, "a size",
		"bytes per record on disk (default 1K)"),
	SCN_KEY("page_size", KT_INT_SIZE, KEY_UNSCALED, P, page_size, 0, 0, "a size",
		"on-disk collection leaf page, up to 128K (default 4K)"),
	SCN_KEY("index_size", KT_SIZE, KEY_SCALED, P, index_size, 0, 0, "a size",
		"the _id index file, looked up by every operation (unset: none)"),
	SCN_KEY("index_page_size", KT_INT_SIZE, KEY_UNSCALED, P, index_page_size, 0, 0, "a size",
		"on-disk index leaf page (default 12K)"),
	SCN_KEY("checkpoint", KT_TIME, KEY_PERIOD, P, checkpoint_ns, 0, 0, "a duration",
		"interval between checkpoints from the run phase's start (syncPeriodSecs)"),
	SCN_KEY("commit_interval", KT_TIME, KEY_PERIOD, P, commit_ns, 0, 0, "a duration",
		"journal commit interval (commitIntervalMs; unset: no journal)"),
	SCN_KEY("journal_record", KT_INT_SIZE, KEY_UNSCALED, P, journal_record, 0, 0, "a size",
		"journal bytes per update (default 256)"),
	SCN_KEY("journal_size", KT_SIZE, KEY_UNSCALED, P, journal_size, 0, 0, "a size",
		"the journal's files, written as a ring (default 200M)"),
	SCN_KEY("cache_overhead", KT_DOUBLE, KEY_UNSCALED, P, cache_overhead, 0, 100,
		"a percentage", "WiredTiger cache_overhead: a leaf's extra bytes in cache (8)"),
	SCN_KEY("eviction_target", KT_DOUBLE, KEY_UNSCALED, P, eviction_target, 10, 99,
		"a percentage", "eviction threads keep the cache below this (80)"),
	SCN_KEY("eviction_trigger", KT_DOUBLE, KEY_UNSCALED, P, eviction_trigger, 10, 100,
		"a percentage", "application threads evict past this (95)"),
	SCN_KEY("eviction_dirty_target", KT_DOUBLE, KEY_UNSCALED, P, dirty_target, 1, 99,
		"a percentage", "eviction threads keep dirty bytes below this (5)"),
	SCN_KEY("eviction_dirty_trigger", KT_DOUBLE, KEY_UNSCALED, P, dirty_trigger, 1, 99,
		"a percentage", "application threads evict dirty leaves past this (20)"),
	SCN_KEY("file_room", KT_DOUBLE, KEY_UNSCALED, P, file_room, 0, 4, "a fraction",
		"each file's room for copy-on-write extents, a fraction of its data (0.5)"),
	SCN_KEY("ycsb_workload", KT_STRING, KEY_UNSCALED, P, workload, 0, 0,
		"a YCSB core workload (a, b, c, d, e or f)",
		"a core workload's mix, a-f (unset: reads and write_ratio updates)"),
	SCN_KEY("zipf_theta", KT_DOUBLE, KEY_UNSCALED, P, zipf_theta, 0, 10,
		"a zipf theta in [0, 10]", "skew of the zipfian keys (0: uniform)"),
	SCN_CHOICE("scramble", P, scramble, ycsb_scramble_names, "ycsb, hash, none or permutation",
		   "ranks onto keys: ycsb (ScrambledZipfian, default), hash, none, permutation"),
	SCN_KEY("write_ratio", KT_DOUBLE, KEY_UNSCALED, P, write_ratio, 0, 1, "a ratio in [0, 1]",
		"share of updates when ycsb_workload is unset"),
	SCN_KEY("prefault", KT_BOOL, KEY_UNSCALED, P, prefault, 0, 0, "a boolean",
		"start with the data files in the page cache (after the load phase)"),
	{ 0 }
};
#undef P

const struct workload_ops ycsb_ops = {
	.name = "ycsb",
	.desc = "YCSB core workloads on a WiredTiger-like store",
	.keys = ycsb_keys,
	.params_size = sizeof(struct ycsb_params),
	.params_init = ycsb_params_init,
	.check = ycsb_check,
	.needs_device = workload_has_files,
	.device_pages = ycsb_device_pages,
	.start = ycsb_start,
	.report = ycsb_report,
};
