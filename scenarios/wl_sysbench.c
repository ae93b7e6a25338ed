/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sysbench 1.0 oltp_read_only against MySQL/InnoDB, reduced to what memory
 * management sees: the buffer pool is one anonymous region (`size`) holding
 * every page of the sbtest tables, populated before the measured phase (as
 * sysbench prepare and a warm-up leave it); a pool that holds all the data
 * never misses, so the tables' file on disk is never read and only the
 * memcg limit pushes pool pages out to swap.
 *
 * A transaction (oltp_common.lua, 1.0.x defaults): 10 point selects in one
 * random table, then one each of simple, sum, order and distinct ranges of
 * 100 ids, each in its own random table. Ids follow --rand-type, whose
 * default in sysbench 1.0.x (1.0.20 the last release) is "special"
 * (src/sb_rand.c: rand-spec-pct=1, rand-spec-res=75, rand-spec-iter=12);
 * later trees drop it for "uniform" (akopytov/sysbench#329), kept as an
 * option. A query descends the clustered B-tree: root and internal nodes,
 * then the leaf; in each 16 KiB node it reads the page header (first 4 KiB),
 * the page directory (last 4 KiB) for the binary search, and the 4 KiB that
 * holds the record.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/workload.h"

/* InnoDB page: 16 KiB (innodb_page_size default), four of our pages. */
#define IB_SUBPAGES 4
/* usable bytes per page: sequential inserts leave 1/16 free (InnoDB
 * fill factor for ordered inserts), after a 120-byte header (FIL + page header) */
#define IB_USABLE (16384 * 15 / 16 - 120)
#define IB_HEADER 120
/* sbtest row: id INT, k INT, c CHAR(120), pad CHAR(60) = 188 bytes, plus a
 * 5-byte record header, 6-byte DB_TRX_ID and 7-byte DB_ROLL_PTR (compact format) */
#define SB_ROW_BYTES 206
/* node pointer: 4-byte key + 4-byte child page number + 5-byte header */
#define IB_NODE_PTR_BYTES 13
/* secondary index k_1 entry: k + id + 5-byte header */
#define IB_SEC_ENTRY_BYTES 13
/* oltp_read_only defaults (oltp_common.lua): point_selects=10, one each of
 * simple/sum/order/distinct ranges, range_size=100 */
#define SB_POINT_SELECTS 10
#define SB_RANGES 4
#define SB_RANGE_SIZE 100
/* sb_rand.c defaults for "special" */
#define SB_SPEC_ITER 12
#define SB_SPEC_PCT 1
#define SB_SPEC_RES 75
/* per row returned by a range: row copy, item evaluation, send buffer;
 * an estimate (a range query of 100 rows costs a few times a point select) */
#define SB_ROW_NS 500

struct sb_layout {
	uint64_t rows;			/* rows per table */
	uint64_t rows_per_leaf;		/* clustered index leaf capacity */
	uint64_t fanout;		/* node pointers per internal page */
	int height;			/* levels, leaves included */
	uint64_t level_pages[8];	/* pages per level, [0] = leaves */
	uint64_t level_first[8];	/* first page of each level within the table */
	uint64_t table_pages;		/* 16 KiB pages per table, secondary index included */
};

/* The section's own keys. */
struct sysbench_params {
	int tables;			/* sbtest tables */
	uint64_t rows;			/* rows per table (scaled) */
	char rand_type[16];		/* id distribution: special (the default) or uniform */
	double compress_ratio;		/* zram ratio of the pool (0: the compressor's) */
};

struct wl_sysbench {
	struct address_space *pool;	/* the buffer pool (anonymous memory) */
	struct sb_layout l;		/* one table's shape */
	bool special;			/* --rand-type=special */
	uint64_t queries;		/* statements run */
	uint64_t pool_pages;		/* 4 KiB pages of data in the pool */
};

static void sb_layout_init(struct sb_layout *l, uint64_t rows)
{
	uint64_t n, first = 0, sec_leaves;

	memset(l, 0, sizeof(*l));
	l->rows = rows ? rows : 1;
	l->rows_per_leaf = IB_USABLE / SB_ROW_BYTES;
	l->fanout = IB_USABLE / IB_NODE_PTR_BYTES;
	n = (l->rows + l->rows_per_leaf - 1) / l->rows_per_leaf;
	l->level_pages[0] = n;
	l->height = 1;
	while (n > 1 && l->height < 8) {
		n = (n + l->fanout - 1) / l->fanout;
		l->level_pages[l->height++] = n;
	}
	/* root first, then each level down to the leaves */
	for (int h = l->height - 1; h >= 0; h--) {
		l->level_first[h] = first;
		first += l->level_pages[h];
	}
	/* k_1 is built after the load (sorted build, full pages): cold here */
	sec_leaves = (l->rows * IB_SEC_ENTRY_BYTES + 16384 - IB_HEADER - 1) / (16384 - IB_HEADER);
	l->table_pages = first + sec_leaves;
}

/* Bytes of buffer pool the tables take (clustered and secondary index pages). */
static uint64_t sysbench_data_bytes(const struct sysbench_params *p)
{
	struct sb_layout l;

	sb_layout_init(&l, p->rows);
	return (uint64_t)p->tables * l.table_pages * 16384;
}

/* sb_rand_special() of sysbench 1.0: 1 in 4 draws a gaussian over the range
 * (mean of 12 uniforms), 3 in 4 a uniform value in the middle 1% */
static uint64_t sb_rand_special(struct rng *rng, uint64_t t)
{
	uint64_t range = t * (100 / (100 - SB_SPEC_RES)), res = rng_below(rng, range), d, sum = 0;

	if (res < t) {
		for (int i = 0; i < SB_SPEC_ITER; i++)
			sum += rng_below(rng, t);
		return sum / SB_SPEC_ITER;
	}
	d = t * SB_SPEC_PCT / 100;
	if (d < 1)
		d = 1;
	return res % d + (t / 2 - t * SB_SPEC_PCT / 200);
}

static uint64_t sb_get_id(const struct wl_sysbench *sb, struct rng *rng)
{
	uint64_t t = sb->l.rows;

	return sb->special ? sb_rand_special(rng, t) : rng_below(rng, t);
}

/* One 4 KiB page of the pool: table, 16 KiB page within it, byte offset in it. */
static int sb_touch(struct workload *w, struct actor *a, uint64_t table, uint64_t page,
		    uint64_t byte)
{
	const struct wl_sysbench *sb = w->priv;
	uint64_t idx = (table * sb->l.table_pages + page) * IB_SUBPAGES + byte / 4096;
	int ret = anon_access(a, w->task, sb->pool, idx, false);

	workload_count_outcome(w, ret);
	return ret < 0 ? ret : 0;
}

/* One B-tree node: its header, its page directory, and the slot searched for. */
static int sb_touch_node(struct workload *w, struct actor *a, uint64_t table, uint64_t page,
			 uint64_t slot_byte, bool directory)
{
	if (sb_touch(w, a, table, page, 0))
		return -EINTR;
	if (directory && sb_touch(w, a, table, page, 16383))
		return -EINTR;
	return slot_byte >= 4096 ? sb_touch(w, a, table, page, slot_byte) : 0;
}

/* Descends from the root to the leaf holding row `r`; touches the leaf's header
 * and directory, not its record. Returns the leaf number or -EINTR. */
static int64_t sb_descend(struct workload *w, struct actor *a, uint64_t table, uint64_t r)
{
	const struct sb_layout *l = &((const struct wl_sysbench *)w->priv)->l;
	uint64_t leaf = r / l->rows_per_leaf;

	for (int h = l->height - 1; h >= 1; h--) {
		uint64_t span = 1, node, slot;

		for (int k = 0; k < h; k++)
			span *= l->fanout;
		node = leaf / span;
		slot = (leaf / (span / l->fanout)) % l->fanout;
		if (sb_touch_node(w, a, table, l->level_first[h] + node,
				  IB_HEADER + slot * IB_NODE_PTR_BYTES, true))
			return -EINTR;
	}
	if (sb_touch_node(w, a, table, l->level_first[0] + leaf, 0, true))
		return -EINTR;
	return (int64_t)leaf;
}

static uint64_t row_byte(const struct sb_layout *l, uint64_t r)
{
	return IB_HEADER + (r % l->rows_per_leaf) * SB_ROW_BYTES;
}

/* SELECT c FROM sbtestN WHERE id = ? */
static int sb_point_select(struct workload *w, struct actor *a, uint64_t table, uint64_t r)
{
	const struct sb_layout *l = &((const struct wl_sysbench *)w->priv)->l;
	int64_t leaf = sb_descend(w, a, table, r);

	if (leaf < 0)
		return -EINTR;
	return sb_touch(w, a, table, l->level_first[0] + (uint64_t)leaf, row_byte(l, r));
}

/* ... WHERE id BETWEEN ? AND ? + 99: descend once, then walk the leaf chain */
static int sb_range(struct workload *w, struct actor *a, uint64_t table, uint64_t r)
{
	const struct sb_layout *l = &((const struct wl_sysbench *)w->priv)->l;
	uint64_t end = r + SB_RANGE_SIZE, last_byte = UINT64_MAX, last_leaf;
	int64_t leaf = sb_descend(w, a, table, r);

	if (leaf < 0)
		return -EINTR;
	if (end > l->rows)
		end = l->rows;
	last_leaf = (uint64_t)leaf;
	for (uint64_t row = r; row < end; row++) {
		uint64_t lf = row / l->rows_per_leaf, byte = row_byte(l, row);

		if (lf != last_leaf) {
			/* the next leaf by its FIL_PAGE_NEXT link: header first */
			if (sb_touch(w, a, table, l->level_first[0] + lf, 0))
				return -EINTR;
			last_leaf = lf;
			last_byte = 0;
		}
		if (byte / 4096 != last_byte / 4096 &&
		    sb_touch(w, a, table, l->level_first[0] + lf, byte))
			return -EINTR;
		last_byte = byte;
	}
	actor_charge_user(a, (end - r) * SB_ROW_NS);
	return 0;
}

static int sb_transaction(struct workload *w, struct actor *a)
{
	struct wl_sysbench *sb = w->priv;
	const struct scn_workload *c = w->cfg;
	const struct sysbench_params *p = c->params;
	uint64_t table = rng_below(&a->rng, (uint64_t)p->tables);

	for (int i = 0; i < SB_POINT_SELECTS; i++) {
		if (sb_point_select(w, a, table, sb_get_id(sb, &a->rng)))
			return -EINTR;
		actor_charge_user(a, c->think_ns);
		sb->queries++;
		actor_cond_resched(a);
	}
	for (int i = 0; i < SB_RANGES; i++) {
		table = rng_below(&a->rng, (uint64_t)p->tables);
		if (sb_range(w, a, table, sb_get_id(sb, &a->rng)))
			return -EINTR;
		actor_charge_user(a, c->think_ns);
		sb->queries++;
		actor_cond_resched(a);
	}
	return 0;
}

static void sb_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;
	struct wl_sysbench *sb = w->priv;
	const struct scn_workload *c = w->cfg;
	int tid = w->threads_running++;

	a->task = w->task;
	/* prepare + warm-up: the pool holds every page of the tables */
	for (uint64_t p = (uint64_t)tid, step = (uint64_t)c->threads; p < sb->pool_pages;) {
		uint64_t nr_new, n = mm_range_ops ?
			anon_access_stride(a, w->task, sb->pool, p, sb->pool_pages, step, true, 0,
					   true, &nr_new) : 0;

		if (n) {
			/* the stripe's pages that need no reclaim, up to a resched */
			p += n * step;
			actor_cond_resched(a);
			continue;
		}
		if (anon_access(a, w->task, sb->pool, p, true) < 0)
			goto out;
		actor_cond_resched(a);
		p += step;
	}
	/* the run starts when the last thread is ready */
	if (actor_now_ns(a) > w->start_ns)
		w->start_ns = actor_now_ns(a);
	while (w->ops_issued < c->ops && !w->task->oom_killed) {
		uint64_t t0 = actor_now_ns(a);

		w->ops_issued++;
		if (sb_transaction(w, a))
			break;
		w->ops_done++;
		hist_record(&w->lat, actor_now_ns(a) - t0);
	}
out:
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

static int sysbench_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			  uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	const struct sysbench_params *p = c->params;
	struct wl_sysbench *sb = calloc(1, sizeof(*sb));
	char name[96];

	(void)memcg;
	(void)bdev;
	(void)bdev_start;
	if (!sb)
		return -ENOMEM;
	w->priv = sb;
	sb_layout_init(&sb->l, p->rows);
	sb->special = strcmp(p->rand_type, "uniform") != 0;
	sb->pool_pages = (uint64_t)p->tables * sb->l.table_pages * IB_SUBPAGES;
	/* innodb_buffer_pool_size of anonymous memory, touched as pages are loaded */
	sb->pool = anon_region_create(w->task, "buffer-pool", c->size / 4096);
	if (!sb->pool || sb->pool_pages > sb->pool->nr_pages)
		return -ENOMEM;
	sb->pool->compress_ratio = p->compress_ratio;
	for (int t = 0; t < c->threads; t++) {
		snprintf(name, sizeof(name), "%s.%d", c->name, t);
		if (!actor_create(name, c->node, sb_thread, w, false))
			return -ENOMEM;
	}
	return 0;
}

static void sysbench_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct wl_sysbench *sb = w->priv;
	double secs = workload_seconds(w, end_ns);

	result_add(g, "tps", secs > 0 ? (double)w->ops_done / secs : 0, false);
	result_add(g, "qps", secs > 0 ? (double)sb->queries / secs : 0, false);
	result_add_u64(g, "queries", sb->queries);
	/* sysbench prints latency in ms: avg and the 95th percentile */
	result_add(g, "lat_avg_ms", hist_mean(&w->lat) / 1e6, false);
	result_add(g, "lat_p95_ms", (double)hist_quantile(&w->lat, 0.95) / 1e6, false);
	result_add_u64(g, "pool_data_pages", sb->pool_pages);
	result_add_u64(g, "btree_height", (uint64_t)sb->l.height);
}

static int sysbench_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct sysbench_params *p = cfg->params;

	if (!p->tables || !p->rows)
		return scn_fail(ck, NULL, p->tables ? "rows" : "tables",
				"a sysbench workload needs tables and rows");
	if (p->rand_type[0] && strcmp(p->rand_type, "special") && strcmp(p->rand_type, "uniform"))
		return scn_fail(ck, NULL, "rand_type", "expected special or uniform");
	if (sysbench_data_bytes(p) > cfg->size)
		return scn_fail(ck, NULL, "size",
				"the tables do not fit the buffer pool (misses are not modelled)");
	return 0;
}

#define P struct sysbench_params
static const struct key_desc sysbench_keys[] = {
	SCN_KEY("tables", KT_INT, KEY_UNSCALED, P, tables, 1, 100000, "a table count (1-100000)",
		"sbtest tables (--tables)"),
	SCN_KEY("rows", KT_COUNT, KEY_SCALED, P, rows, 0, 0, "a count",
		"rows per table (--table-size)"),
	SCN_KEY("rand_type", KT_STRING, KEY_UNSCALED, P, rand_type, 0, 0, "special or uniform",
		"id distribution, --rand-type: special (1.0's default) or uniform"),
	SCN_KEY("compress_ratio", KT_DOUBLE, KEY_UNSCALED, P, compress_ratio, 1, 100,
		"a ratio in [1, 100]", "how well the pool's pages compress in zram"),
	{ 0 }
};
#undef P

const struct workload_ops sysbench_ops = {
	.name = "sysbench",
	.desc = "sysbench oltp_read_only on an InnoDB-like buffer pool",
	.keys = sysbench_keys,
	.params_size = sizeof(struct sysbench_params),
	.check = sysbench_check,
	.start = sysbench_start,
	.report = sysbench_report,
};
