/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ycsb: YCSB's core workloads against a MongoDB/WiredTiger-like store.
 *
 * The store: a data file of btree leaf pages on the workload's device,
 * and WiredTiger's cache of leaf pages in anonymous memory (4-way sets,
 * least recently used victim). A record lives in leaf page key /
 * records_per_leaf; a miss preads the whole on-disk leaf page (a run of
 * 4 KiB file pages) through the page cache and decompresses it; evicting
 * an updated leaf reconciles it (compresses and pwrites the whole page).
 * Checkpoints write every dirty leaf. Leaves are rewritten in place:
 * WiredTiger writes to new extents, which the model does not allocate;
 * the _id index and the journal are not modelled either.
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
#include "scenarios/workload.h"
#include "scenarios/zipf.h"

/* The section's own keys. */
struct ycsb_params {
	uint64_t cache_size;		/* the store's cache (anonymous memory), bytes */
	uint64_t record_size;		/* bytes per record (0: 1 KiB) */
	uint64_t page_size;		/* on-disk leaf page, bytes (0: one 4 KiB page) */
	uint64_t checkpoint_ns;		/* checkpoint interval (0: none) */
	char workload[4];		/* core workload a..f ("": write_ratio updates) */
	double zipf_theta;		/* key skew */
	double write_ratio;		/* share of updates without a core workload */
	bool prefault;			/* the load phase left the data file cached */
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

/* The WiredTiger-like store: the data file and the cache in front of it. */
struct wt_store {
	struct address_space *file;	/* the data file */
	struct address_space *cache;	/* the cache of leaf pages (anonymous memory) */
	uint64_t *tag;			/* file leaf + 1 held by each cache slot (0: empty) */
	uint32_t *used;			/* last use of each slot (op count) */
	uint8_t *dirty;			/* slot updated since it was read */
	uint64_t nr_slots;		/* cache slots (4-way sets) */
	uint64_t pages_per_leaf;	/* 4 KiB file (and cache) pages per leaf page */
	uint64_t records_per_leaf;	/* records per leaf page */
	uint64_t nr_leaves;		/* leaf pages in the data file */
	uint64_t hits, misses;		/* cache outcomes */
	uint64_t reconciled;		/* dirty leaf pages written (eviction, checkpoint) */
	uint64_t checkpoints;		/* checkpoints completed */
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

/* ---- the store's cache ---- */

#define WT_WAYS 4
/* snappy on one core: compresses at ~250 MB/s, decompresses at ~500 MB/s
 * (google/snappy README, "Performance"): ns per 4 KiB page */
#define WT_SNAPPY_COMPRESS_NS_PER_PAGE (4096ULL * 1000 / 250)
#define WT_SNAPPY_DECOMPRESS_NS_PER_PAGE (4096ULL * 1000 / 500)

static uint64_t record_bytes(const struct ycsb_params *p)
{
	return p->record_size ? p->record_size : 1024;
}

static uint64_t leaf_bytes(const struct ycsb_params *p)
{
	return p->page_size ? p->page_size : 4096;
}

/* The file pages of leaf page `leaf`. */
static uint64_t wt_leaf_page(const struct wt_store *st, uint64_t leaf)
{
	return leaf * st->pages_per_leaf;
}

/* Reconciliation: the leaf in `slot` compressed and written with pwrite(). */
static int wt_reconcile(struct ycsb *y, struct actor *a, uint64_t slot)
{
	struct wt_store *st = &y->store;
	uint64_t first = wt_leaf_page(st, st->tag[slot] - 1);

	actor_charge_user(a, st->pages_per_leaf * WT_SNAPPY_COMPRESS_NS_PER_PAGE);
	for (uint64_t i = 0; i < st->pages_per_leaf; i++) {
		int ret = filemap_write(a, y->w->task, st->file, first + i);

		if (ret < 0)
			return ret;
	}
	st->dirty[slot] = 0;
	st->reconciled++;
	return 0;
}

/* One record through the cache; create: a new leaf (an insert past the
 * data on disk) is made in the cache. The last access's outcome, or -errno. */
static int wt_access(struct ycsb *y, struct actor *a, uint64_t key, bool write, bool create)
{
	struct wt_store *st = &y->store;
	struct workload *w = y->w;
	uint64_t ppl = st->pages_per_leaf;
	uint64_t leaf = key / st->records_per_leaf;
	uint64_t set, victim, rec_page;
	uint32_t now = (uint32_t)w->ops_issued;
	int ret = 0;

	if (leaf >= st->nr_leaves)
		leaf = st->nr_leaves - 1;
	set = mix64(leaf) % (st->nr_slots / WT_WAYS);
	victim = set * WT_WAYS;
	/* the cache page holding the record within its leaf */
	rec_page = (key % st->records_per_leaf) * ppl / st->records_per_leaf;
	for (uint64_t s = set * WT_WAYS; s < (set + 1) * WT_WAYS; s++) {
		if (st->tag[s] == leaf + 1) {
			st->hits++;
			st->used[s] = now;
			st->dirty[s] |= write;
			return anon_access(a, w->task, st->cache, s * ppl + rec_page, write);
		}
		if (!st->tag[s] || (st->tag[victim] &&
				    (uint32_t)(now - st->used[s]) > (uint32_t)(now - st->used[victim])))
			victim = s;
	}
	st->misses++;
	if (!create) {
		ret = filemap_read_pages(a, w->task, st->file, wt_leaf_page(st, leaf), ppl);
		if (ret < 0)
			return ret;
		workload_count_outcome(w, ret);
		actor_charge_user(a, ppl * WT_SNAPPY_DECOMPRESS_NS_PER_PAGE);
	}
	if (st->tag[victim] && st->dirty[victim]) {
		ret = wt_reconcile(y, a, victim);
		if (ret < 0)
			return ret;
	}
	st->tag[victim] = leaf + 1;
	st->used[victim] = now;
	st->dirty[victim] = write;
	/* a new leaf starts with its first record */
	if (create)
		return anon_access(a, w->task, st->cache, victim * ppl + rec_page, write);
	/* the leaf is decompressed into the cache */
	for (uint64_t i = 0; i < ppl; i++) {
		ret = anon_access(a, w->task, st->cache, victim * ppl + i, true);
		if (ret < 0)
			return ret;
	}
	return ret;
}

/* One record through the store, its outcome counted. 0.. or -errno. */
static int store_access(struct ycsb *y, struct actor *a, uint64_t key, bool write, bool create)
{
	int ret = wt_access(y, a, key, write, create);

	if (ret >= 0)
		workload_count_outcome(y->w, ret);
	return ret;
}

/*
 * A WiredTiger checkpoint every `checkpoint` (MongoDB's syncPeriodSecs):
 * every dirty leaf is reconciled and written, then the file is fsync()ed.
 * fsync is modelled as starting writeback of the file's dirty pages (the
 * flushers are woken); the checkpoint does not wait for it.
 */
static void checkpoint_thread(struct actor *a, void *arg)
{
	struct ycsb *y = arg;
	struct wt_store *st = &y->store;

	a->task = y->w->task;
	for (;;) {
		actor_sleep_ns(a, y->p->checkpoint_ns);
		for (uint64_t s = 0; s < st->nr_slots; s++) {
			if (!st->tag[s] || !st->dirty[s])
				continue;
			if (wt_reconcile(y, a, s) < 0)
				return;
			actor_cond_resched(a);
		}
		wakeup_flusher_threads();
		st->checkpoints++;
	}
}

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

/* 4 KiB pages of the data file: the loaded records plus room for inserts. */
static uint64_t ycsb_file_pages(const struct scn_workload *cfg)
{
	const struct ycsb_params *p = cfg->params;
	const struct ycsb_spec *s = spec_of(p->workload);
	uint64_t nr_pages = cfg->size / 4096;
	uint64_t page = leaf_bytes(p);
	uint64_t ppl = (page + 4095) / 4096;
	uint64_t rpl = page / record_bytes(p) ? page / record_bytes(p) : 1;
	uint64_t records, leaves;

	if (!s || !s->insert)
		return nr_pages;
	records = cfg->size / record_bytes(p) + insert_room(cfg, s);
	leaves = (records + rpl - 1) / rpl;
	return leaves * ppl > nr_pages ? leaves * ppl : nr_pages;
}

/* The latest generator follows the record count: zeta(n) grows by one term
 * per insert, as YCSB's ZipfianGenerator does when asked for more items. */
static void latest_grow(struct zipf *z, uint64_t n)
{
	if (z->theta <= 0) {
		z->n = n;
		return;
	}
	for (uint64_t i = z->n + 1; i <= n; i++)
		z->zetan += 1.0 / pow((double)i, z->theta);
	z->n = n;
	z->eta = (1.0 - pow(2.0 / (double)n, 1.0 - z->theta)) /
		 (1.0 - (1.0 + z->half_pow_theta) / z->zetan);
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
	m->room = y->store.nr_leaves * y->store.records_per_leaf;
	if (m->room < m->records)
		m->room = m->records;
	/* CoreWorkload: the scrambled zipfian spans the loaded keys plus the
	 * expected inserts; a key not inserted yet is drawn again */
	if (m->spec->insert)
		zipf_init(&y->zipf, m->loaded + insert_room(c, m->spec), y->p->zipf_theta, true);
	if (m->spec->latest)
		zipf_init(&m->latest, m->loaded, y->p->zipf_theta, false);
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
	uint64_t rpl = y->store.records_per_leaf, ppl = y->store.pages_per_leaf;
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
	bool create = key % y->store.records_per_leaf == 0;
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
		latest_grow(&m->latest, m->records);
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
		for (uint64_t p = (uint64_t)tid; p < c->size / 4096; p += (uint64_t)c->threads) {
			if (filemap_read(a, w->task, y->store.file, p) < 0)
				goto out;
			actor_cond_resched(a);
		}
		/* throughput counts from the end of the load phase */
		if (actor_now_ns(a) > w->start_ns)
			w->start_ns = actor_now_ns(a);
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

/* The data file, and the cache in front of it (whole sets of WT_WAYS slots). */
static int store_init(struct ycsb *y, struct blockdev *bdev, uint64_t bdev_start)
{
	const struct scn_workload *c = y->w->cfg;
	struct wt_store *st = &y->store;
	uint64_t nr_pages = ycsb_file_pages(c), page = leaf_bytes(y->p), rec = record_bytes(y->p);

	st->file = file_create(c->name, nr_pages, bdev, bdev_start, false);
	if (!st->file)
		return -ENOMEM;
	y->nr_keys = c->size / rec;
	/* a leaf takes whole 4 KiB allocation units (allocation_size=4KB) */
	st->pages_per_leaf = (page + 4095) / 4096;
	st->records_per_leaf = page / rec ? page / rec : 1;
	st->nr_leaves = nr_pages / st->pages_per_leaf;
	st->nr_slots = y->p->cache_size / (st->pages_per_leaf * 4096) / WT_WAYS * WT_WAYS;
	st->cache = anon_region_create(y->w->task, "wt-cache", st->nr_slots * st->pages_per_leaf);
	st->tag = calloc(st->nr_slots, sizeof(*st->tag));
	st->used = calloc(st->nr_slots, sizeof(*st->used));
	st->dirty = calloc(st->nr_slots, sizeof(*st->dirty));
	if (!st->nr_slots || !st->nr_leaves || !st->cache || !st->tag || !st->used || !st->dirty)
		return -ENOMEM;
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
	if (y->p->checkpoint_ns &&
	    !actor_create("wt-checkpoint", c->node, checkpoint_thread, y, true))
		return -ENOMEM;
	zipf_init(&y->zipf, y->nr_keys, y->p->zipf_theta, true);
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
	const struct ycsb_mix *m = y->mix;

	(void)end_ns;
	result_add_u64(g, "cache_hits", y->store.hits);
	result_add_u64(g, "cache_misses", y->store.misses);
	result_add_u64(g, "leaves_reconciled", y->store.reconciled);
	result_add_u64(g, "checkpoints", y->store.checkpoints);
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

static int ycsb_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct ycsb_params *p = cfg->params;

	if (!p->cache_size || p->cache_size >= cfg->size)
		return scn_fail(ck, NULL, "cache_size",
				"a ycsb store needs a cache smaller than its data");
	if (p->page_size && (p->page_size < p->record_size || p->page_size > 128 * 1024))
		return scn_fail(ck, NULL, "page_size",
				"a ycsb leaf page holds at least one record and at most 128K");
	if (p->workload[0] && !spec_of(p->workload))
		return scn_fail(ck, NULL, "ycsb_workload", "expected a, b, c, d, e or f");
	return 0;
}

#define P struct ycsb_params
static const struct key_desc ycsb_keys[] = {
	SCN_KEY("cache_size", KT_SIZE, KEY_SCALED, P, cache_size, 0, 0, "a size",
		"WiredTiger's cache of leaf pages (anonymous memory)"),
	SCN_KEY("record_size", KT_INT_SIZE, KEY_UNSCALED, P, record_size, 0, 0, "a size",
		"bytes per record on disk (default 1K)"),
	SCN_KEY("page_size", KT_INT_SIZE, KEY_UNSCALED, P, page_size, 0, 0, "a size",
		"on-disk leaf page, up to 128K (default 4K)"),
	SCN_KEY("checkpoint", KT_TIME, KEY_UNSCALED, P, checkpoint_ns, 0, 0, "a duration",
		"interval between checkpoints (syncPeriodSecs; unset: none)"),
	SCN_KEY("ycsb_workload", KT_STRING, KEY_UNSCALED, P, workload, 0, 0,
		"a YCSB core workload (a, b, c, d, e or f)",
		"a core workload's mix, a-f (unset: reads and write_ratio updates)"),
	SCN_KEY("zipf_theta", KT_DOUBLE, KEY_UNSCALED, P, zipf_theta, 0, 0.9999,
		"a zipf theta in [0, 1)", "skew of the scrambled zipfian keys (0: uniform)"),
	SCN_KEY("write_ratio", KT_DOUBLE, KEY_UNSCALED, P, write_ratio, 0, 1, "a ratio in [0, 1]",
		"share of updates when ycsb_workload is unset"),
	SCN_KEY("prefault", KT_BOOL, KEY_UNSCALED, P, prefault, 0, 0, "a boolean",
		"start with the data file in the page cache (after the load phase)"),
	{ 0 }
};
#undef P

const struct workload_ops ycsb_ops = {
	.name = "ycsb",
	.desc = "YCSB core workloads on a WiredTiger-like store",
	.keys = ycsb_keys,
	.params_size = sizeof(struct ycsb_params),
	.check = ycsb_check,
	.needs_device = workload_has_files,
	.device_pages = ycsb_file_pages,
	.start = ycsb_start,
	.report = ycsb_report,
};
