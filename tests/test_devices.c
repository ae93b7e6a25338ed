/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * storage/: the HDD model (one head, square-root seek, uniform rotational
 * wait, zoned bandwidth, C-LOOK queue), the ramdisk, NVMe delays and the
 * determinism of the HDD's rotational positions.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "core/rng.h"
#include "harness.h"
#include "models/costs.h"
#include "models/page_io.h"
#include "storage/blockdev.h"

/* An engine on a one-node machine, for the timers that complete HDD IO. */
static void boot_engine(void)
{
	static struct machine m;
	uint64_t pages = 4096;
	int cpus = 1;

	ck_assert_int_eq(machine_init(&m, 1, &pages, &cpus, 10), 0);
	harness_boot_engine(&m);
}

static void hdd_init(struct blockdev *d, const char *name, uint64_t seed)
{
	struct bdev_params p;

	blockdev_default_params(BDEV_HDD, &p);
	blockdev_init(d, name, &p, seed);
}

/* Transfer time of `pages` at `bw` bytes/s, as the model computes it. */
static uint64_t xfer(uint64_t pages, double bw)
{
	return (uint64_t)((double)pages * 4096.0 * 1e9 / bw);
}

static uint64_t rev_ns(const struct blockdev *d)
{
	return 60ULL * NSEC_PER_SEC / d->p.rpm;
}

/* ---- one IO at a time ---- */

struct qd1_io {
	struct waitq *wq;
	int calls;
	uint64_t at;
};

static void qd1_end_io(void *private, uint64_t done_ns)
{
	struct qd1_io *q = private;

	q->calls++;
	q->at = done_ns;
	waitq_wake_all(q->wq);
}

/* Submits one IO on an idle device and waits for its end_io; returns its service time. */
static uint64_t qd1(struct actor *a, struct blockdev *d, enum bio_op op, uint64_t sector,
		    uint32_t nr_pages)
{
	struct qd1_io q = { .wq = waitq_create() };
	uint64_t now = engine_clock_ns(), done;

	ck_assert(!d->hdd_busy);
	done = blockdev_submit(d, op, sector, nr_pages, now, qd1_end_io, &q);
	/* an idle HDD knows the completion time at once */
	ck_assert_uint_gt(done, now);
	while (!q.calls)
		waitq_wait(a, q.wq, NSEC_PER_SEC);
	ck_assert_int_eq(q.calls, 1);
	ck_assert_uint_eq(q.at, done);
	ck_assert_uint_eq(engine_clock_ns(), done);
	ck_assert_uint_eq(d->head, sector + nr_pages);
	waitq_destroy(q.wq);
	return done - now;
}

/* ---- HDD tests, each run inside an actor ---- */

static void hdd_run(void (*fn)(struct actor *, void *), void *arg)
{
	boot_engine();
	harness_run_actor(fn, arg);
}

START_TEST(test_hdd_defaults)
{
	struct bdev_params p;
	enum bdev_type t = NR_BDEV_TYPES;

	blockdev_default_params(BDEV_HDD, &p);
	ck_assert_int_eq(p.type, BDEV_HDD);
	ck_assert_uint_eq(p.rpm, 7200);
	ck_assert_uint_lt(p.seek_t2t_ns, p.seek_full_ns);
	ck_assert_uint_lt(p.inner_bw, p.read_bw);
	ck_assert_uint_gt(p.capacity_pages, 0);
	ck_assert_uint_eq(p.nr_channels, 1);
	ck_assert_int_eq(bdev_type_parse("hdd", &t), 0);
	ck_assert_int_eq(t, BDEV_HDD);
	ck_assert_int_eq(bdev_type_parse("ramdisk", &t), 0);
	ck_assert_int_eq(t, BDEV_RAMDISK);
	ck_assert_str_eq(bdev_type_name(BDEV_HDD), "hdd");
	ck_assert_str_eq(bdev_type_name(BDEV_RAMDISK), "ramdisk");
}
END_TEST

static void at_head_fn(struct actor *a, void *arg)
{
	struct blockdev *d = arg;
	uint64_t one = d->p.read_lat_ns + xfer(1, (double)d->p.read_bw);
	uint64_t t;

	ck_assert_uint_eq(d->head, 0);
	/* sector == head: no seek, no rotational wait */
	t = qd1(a, d, REQ_OP_READ, 0, 1);
	ck_assert_msg(t + 1 >= one && t <= one + 1, "read at the head took %llu ns, expected %llu",
		      (unsigned long long)t, (unsigned long long)one);
	/* the head now sits after it: the next page is free of seek too */
	t = qd1(a, d, REQ_OP_READ, 1, 1);
	ck_assert_msg(t <= one + 1, "sequential read took %llu ns, expected %llu",
		      (unsigned long long)t, (unsigned long long)one);
	t = qd1(a, d, REQ_OP_WRITE, 2, 1);
	ck_assert_uint_le(t, d->p.write_lat_ns + xfer(1, (double)d->p.inner_bw) + 1);
	ck_assert_uint_ge(t, d->p.write_lat_ns);
	/* one page away costs at least a track-to-track seek */
	t = qd1(a, d, REQ_OP_READ, 4, 1);
	ck_assert_uint_ge(t, one + d->p.seek_t2t_ns);
	ck_assert_uint_eq(d->st.nr_reads, 3);
	ck_assert_uint_eq(d->st.nr_writes, 1);
	ck_assert_uint_eq(d->st.queue_ns, 0);
}

START_TEST(test_hdd_read_at_head_no_seek)
{
	struct blockdev d;

	hdd_init(&d, "hdd0", 1);
	hdd_run(at_head_fn, &d);
	blockdev_exit(&d);
}
END_TEST

static void far_near_fn(struct actor *a, void *arg)
{
	struct blockdev *d = arg;
	uint64_t cap = d->p.capacity_pages;
	const uint64_t dist[] = { 1ULL << 10, 1ULL << 22, 1ULL << 26, cap / 4, cap - 2 };
	double mean[5];
	uint64_t lo = d->p.read_lat_ns + d->p.seek_t2t_ns;
	uint64_t hi = d->p.read_lat_ns + d->p.seek_full_ns + rev_ns(d) + xfer(1, (double)d->p.inner_bw);
	uint64_t near, far;

	/* one near and one far read: the seek difference beats any rotation */
	near = qd1(a, d, REQ_OP_READ, 1000, 1);
	far = qd1(a, d, REQ_OP_READ, cap - 1, 1);
	ck_assert_msg(far > near, "far read %llu ns, near %llu ns",
		      (unsigned long long)far, (unsigned long long)near);

	/* the mean over many reads grows with the distance */
	for (int k = 0; k < 5; k++) {
		double sum = 0;
		const int nr = 300;

		qd1(a, d, REQ_OP_READ, 0, 1);	/* head at 1 */
		for (int i = 0; i < nr; i++) {
			/* bounce between 0 and dist: every seek is dist +- 1 */
			uint64_t t = qd1(a, d, REQ_OP_READ, (i & 1) ? 0 : dist[k], 1);

			ck_assert_uint_ge(t, lo);
			ck_assert_uint_le(t, hi);
			sum += (double)t;
		}
		mean[k] = sum / nr;
		if (k)
			ck_assert_msg(mean[k] > mean[k - 1],
				      "mean read time at distance %llu (%.0f ns) not above %llu (%.0f ns)",
				      (unsigned long long)dist[k], mean[k],
				      (unsigned long long)dist[k - 1], mean[k - 1]);
	}
	/* full stroke minus short hop: most of seek_full - t2t */
	ck_assert_double_gt(mean[4] - mean[0],
			    0.8 * (double)(d->p.seek_full_ns - d->p.seek_t2t_ns));
}

START_TEST(test_hdd_seek_grows_with_distance)
{
	struct blockdev d;

	hdd_init(&d, "hdd0", 1);
	hdd_run(far_near_fn, &d);
	blockdev_exit(&d);
}
END_TEST

struct random_arg {
	struct blockdev *d;
	double iops;
	double mean_ns;
};

static void random_qd1_fn(struct actor *a, void *arg)
{
	struct random_arg *r = arg;
	struct rng rng;
	const int nr = 400;
	uint64_t start = engine_clock_ns();

	rng_seed(&rng, 42, "random-reads");
	for (int i = 0; i < nr; i++)
		qd1(a, r->d, REQ_OP_READ, rng_below(&rng, r->d->p.capacity_pages), 1);
	r->mean_ns = (double)(engine_clock_ns() - start) / nr;
	r->iops = 1e9 / r->mean_ns;
}

START_TEST(test_hdd_random_qd1_iops)
{
	struct blockdev d;
	struct random_arg r = { .d = &d };

	hdd_init(&d, "hdd0", 1);
	hdd_run(random_qd1_fn, &r);
	/* 7200 rpm: ~9 ms average seek + 4.2 ms half a revolution */
	ck_assert_msg(r.iops >= 60 && r.iops <= 120, "random 4 KiB QD1: %.1f IOPS", r.iops);
	ck_assert_uint_eq(d.st.nr_reads, 400);
	blockdev_exit(&d);
}
END_TEST

struct stream_arg {
	struct blockdev *d;
	double outer_bps, inner_bps;
	uint64_t first_ns, last_ns;	/* a 4 KiB read at the first and the last sector */
};

static double stream(struct actor *a, struct blockdev *d, uint64_t sector, int nr, uint32_t pages)
{
	uint64_t start = engine_clock_ns();

	for (int i = 0; i < nr; i++)
		qd1(a, d, REQ_OP_READ, sector + (uint64_t)i * pages, pages);
	return (double)nr * pages * 4096.0 * 1e9 / (double)(engine_clock_ns() - start);
}

static void stream_fn(struct actor *a, void *arg)
{
	struct stream_arg *s = arg;
	struct blockdev *d = s->d;
	uint64_t cap = d->p.capacity_pages;
	const int nr = 64;
	const uint32_t pages = 256;	/* 1 MiB requests */

	s->first_ns = qd1(a, d, REQ_OP_READ, 0, 1);
	s->outer_bps = stream(a, d, 1, nr, pages);
	/* to the last sectors: one seek, then 4 KiB under the head */
	qd1(a, d, REQ_OP_READ, cap - 2, 1);
	s->last_ns = qd1(a, d, REQ_OP_READ, cap - 1, 1);
	qd1(a, d, REQ_OP_READ, cap - 1 - (uint64_t)nr * pages - 1, 1);
	s->inner_bps = stream(a, d, cap - 1 - (uint64_t)nr * pages, nr, pages);
}

START_TEST(test_hdd_zoned_bandwidth)
{
	struct blockdev d;
	struct stream_arg s = { .d = &d };
	double outer, inner;

	hdd_init(&d, "hdd0", 1);
	outer = (double)d.p.read_bw;
	inner = (double)d.p.inner_bw;
	hdd_run(stream_fn, &s);
	/* sequential: only the per-IO overhead stands between us and the zone bandwidth */
	ck_assert_msg(s.outer_bps >= 0.95 * outer && s.outer_bps <= outer,
		      "outer stream %.1f MB/s, zone %.1f MB/s", s.outer_bps / 1e6, outer / 1e6);
	ck_assert_msg(s.inner_bps >= 0.95 * inner && s.inner_bps <= 1.001 * inner,
		      "inner stream %.1f MB/s, zone %.1f MB/s", s.inner_bps / 1e6, inner / 1e6);
	ck_assert_double_gt(s.outer_bps, 1.8 * s.inner_bps);
	/* a 4 KiB read at sector 0 is faster than one at the last sector */
	ck_assert_uint_lt(s.first_ns, s.last_ns);
	/* transfer alone: about twice as long at 90 MB/s as at 180 MB/s */
	ck_assert_double_gt((double)(s.last_ns - d.p.read_lat_ns),
			    1.8 * (double)(s.first_ns - d.p.read_lat_ns));
	ck_assert_double_lt((double)(s.last_ns - d.p.read_lat_ns),
			    2.2 * (double)(s.first_ns - d.p.read_lat_ns));
	blockdev_exit(&d);
}
END_TEST

/* ---- the C-LOOK queue ---- */

#define NR_QUEUED 64

struct queued_arg {
	struct blockdev *d;
	uint64_t sectors[NR_QUEUED];	/* submission order; [0] starts at once */
	uint64_t order[NR_QUEUED];	/* sectors in end_io order */
	uint64_t done_at[NR_QUEUED];
	int nr_done;
	uint64_t first_ret;		/* blockdev_submit() of the first */
	int nr_zero_ret;		/* submissions that returned 0 (queued) */
	uint64_t total_ns;		/* first submission to last completion */
	struct waitq *wq;
};

static struct queued_arg *queued_current;

static void queued_end_io(void *private, uint64_t done_ns)
{
	struct queued_arg *q = queued_current;
	uint64_t sector = (uint64_t)(uintptr_t)private;

	ck_assert_int_lt(q->nr_done, NR_QUEUED);
	q->order[q->nr_done] = sector;
	q->done_at[q->nr_done] = done_ns;
	ck_assert_uint_eq(engine_clock_ns(), done_ns);
	if (++q->nr_done == NR_QUEUED)
		waitq_wake_all(q->wq);
}

static void submit_all(struct actor *a, struct queued_arg *q)
{
	uint64_t now = engine_clock_ns();

	queued_current = q;
	q->wq = waitq_create();
	q->nr_done = 0;
	for (int i = 0; i < NR_QUEUED; i++) {
		uint64_t r = blockdev_submit(q->d, REQ_OP_READ, q->sectors[i], 1, now,
					     queued_end_io, (void *)(uintptr_t)q->sectors[i]);

		if (i == 0)
			q->first_ret = r;
		else if (!r)
			q->nr_zero_ret++;
	}
	while (q->nr_done < NR_QUEUED)
		waitq_wait(a, q->wq, NSEC_PER_SEC);
	q->total_ns = engine_clock_ns() - now;
	waitq_destroy(q->wq);
}

static void random_sectors(uint64_t *s, int nr, uint64_t cap, uint64_t seed)
{
	struct rng rng;

	rng_seed(&rng, seed, "sectors");
	for (int i = 0; i < nr; i++) {
		bool dup;

		do {
			s[i] = rng_below(&rng, cap);
			dup = false;
			for (int j = 0; j < i; j++)
				dup |= s[j] == s[i];
		} while (dup);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void clook_fn(struct actor *a, void *arg)
{
	struct queued_arg *q = arg;

	submit_all(a, q);
}

START_TEST(test_hdd_clook_order)
{
	struct blockdev d;
	struct queued_arg *q = calloc(1, sizeof(*q));
	uint64_t expect[NR_QUEUED], sorted[NR_QUEUED - 1], head;
	int n = 0;

	hdd_init(&d, "hdd0", 1);
	q->d = &d;
	random_sectors(q->sectors, NR_QUEUED, d.p.capacity_pages, 7);
	q->sectors[0] = d.p.capacity_pages / 2;	/* served first: the device is idle */
	hdd_run(clook_fn, q);

	ck_assert_uint_gt(q->first_ret, 0);
	ck_assert_int_eq(q->nr_zero_ret, NR_QUEUED - 1);
	ck_assert_int_eq(q->nr_done, NR_QUEUED);
	/* C-LOOK from the head: ascending from it, then wrap to the lowest, ascending */
	memcpy(sorted, q->sectors + 1, sizeof(sorted));
	qsort(sorted, NR_QUEUED - 1, sizeof(sorted[0]), cmp_u64);
	head = q->sectors[0] + 1;
	expect[n++] = q->sectors[0];
	for (int i = 0; i < NR_QUEUED - 1; i++)
		if (sorted[i] >= head)
			expect[n++] = sorted[i];
	for (int i = 0; i < NR_QUEUED - 1; i++)
		if (sorted[i] < head)
			expect[n++] = sorted[i];
	for (int i = 0; i < NR_QUEUED; i++) {
		ck_assert_msg(q->order[i] == expect[i],
			      "completion %d: sector %llu, C-LOOK wants %llu", i,
			      (unsigned long long)q->order[i], (unsigned long long)expect[i]);
		if (i)
			ck_assert_uint_gt(q->done_at[i], q->done_at[i - 1]);
	}
	ck_assert_uint_eq(d.st.nr_reads, NR_QUEUED);
	ck_assert_uint_gt(d.st.queue_ns, 0);
	ck_assert_int_eq(d.nr_queued, 0);
	blockdev_exit(&d);
	free(q);
}
END_TEST

struct elevator_arg {
	struct blockdev *qd1_dev;
	struct queued_arg *q;
	uint64_t qd1_total_ns;
};

static void elevator_fn(struct actor *a, void *arg)
{
	struct elevator_arg *e = arg;
	uint64_t start = engine_clock_ns();

	for (int i = 0; i < NR_QUEUED; i++)
		qd1(a, e->qd1_dev, REQ_OP_READ, e->q->sectors[i], 1);
	e->qd1_total_ns = engine_clock_ns() - start;
	submit_all(a, e->q);
}

START_TEST(test_hdd_elevator_beats_qd1)
{
	struct blockdev d1, d2;
	struct queued_arg *q = calloc(1, sizeof(*q));
	struct elevator_arg e = { .qd1_dev = &d1, .q = q };

	hdd_init(&d1, "hdd0", 1);
	hdd_init(&d2, "hdd0", 1);
	q->d = &d2;
	random_sectors(q->sectors, NR_QUEUED, d1.p.capacity_pages, 11);
	hdd_run(elevator_fn, &e);
	ck_assert_int_eq(q->nr_done, NR_QUEUED);
	/* 64 queued random reads: the elevator shortens seeks (rotation stays) */
	ck_assert_msg((double)q->total_ns < 0.8 * (double)e.qd1_total_ns,
		      "64 queued reads took %.1f ms, 64 at QD1 %.1f ms",
		      (double)q->total_ns / 1e6, (double)e.qd1_total_ns / 1e6);
	/* and no faster than the rotation alone could allow: 64 x (latency + t2t) */
	ck_assert_uint_gt(q->total_ns, NR_QUEUED * (d2.p.read_lat_ns + d2.p.seek_t2t_ns));
	blockdev_exit(&d1);
	blockdev_exit(&d2);
	free(q);
}
END_TEST

/* ---- determinism of the rotational positions ---- */

#define NR_DET 60

struct det_arg {
	struct blockdev *dev[3];
	uint64_t sectors[NR_DET];
	uint64_t t[3][NR_DET];
};

static void det_fn(struct actor *a, void *arg)
{
	struct det_arg *x = arg;

	for (int k = 0; k < 3; k++)
		for (int i = 0; i < NR_DET; i++)
			x->t[k][i] = qd1(a, x->dev[k], REQ_OP_READ, x->sectors[i], 1);
}

START_TEST(test_hdd_seed_determinism)
{
	struct blockdev d[3];
	struct det_arg x = { .dev = { &d[0], &d[1], &d[2] } };
	int differ = 0;

	hdd_init(&d[0], "hdd0", 5);
	hdd_init(&d[1], "hdd0", 5);
	hdd_init(&d[2], "hdd0", 6);
	random_sectors(x.sectors, NR_DET, d[0].p.capacity_pages, 3);
	/* every third read continues where the previous ended: no rotational wait */
	for (int i = 1; i < NR_DET; i += 3)
		x.sectors[i] = x.sectors[i - 1] + 1;
	hdd_run(det_fn, &x);
	for (int i = 0; i < NR_DET; i++) {
		ck_assert_uint_eq(x.t[0][i], x.t[1][i]);
		if (i % 3 == 1)
			ck_assert_uint_eq(x.t[0][i], x.t[2][i]);	/* no seek, no rotation */
		else
			differ += x.t[0][i] != x.t[2][i];
	}
	/* another seed: other rotational waits on (nearly) every seeking read */
	ck_assert_int_gt(differ, (NR_DET * 2 / 3) / 2);
	for (int k = 0; k < 3; k++)
		blockdev_exit(&d[k]);
}
END_TEST

/*
 * read_bandwidth is settable per device in a scenario; an HDD given an
 * outer-zone bandwidth below the default inner one (inner_bw = 90 MB/s)
 * must still have a finite, positive transfer time everywhere.
 */
static void slow_outer_fn(struct actor *a, void *arg)
{
	struct blockdev *d = arg;
	uint64_t cap = d->p.capacity_pages;
	uint64_t bound = d->p.read_lat_ns + d->p.seek_full_ns + rev_ns(d) +
			 xfer(1, 50e6 < (double)d->p.inner_bw ? 50e6 : (double)d->p.inner_bw);

	qd1(a, d, REQ_OP_READ, cap / 2, 1);
	{
		uint64_t t = qd1(a, d, REQ_OP_READ, cap / 2 + 1, 1);

		ck_assert_msg(t > d->p.read_lat_ns && t <= bound,
			      "4 KiB at the middle of an HDD with read_bw 50 MB/s took %llu ns "
			      "(bound %llu ns)", (unsigned long long)t, (unsigned long long)bound);
	}
}

START_TEST(test_hdd_slow_outer_bandwidth)
{
	struct blockdev d;
	struct bdev_params p;

	blockdev_default_params(BDEV_HDD, &p);
	p.read_bw = p.write_bw = 50ULL * 1000 * 1000;	/* as [device] read_bandwidth = 50M */
	blockdev_init(&d, "slowhdd", &p, 1);
	hdd_run(slow_outer_fn, &d);
	blockdev_exit(&d);
}
END_TEST

/* ---- ramdisk ---- */

START_TEST(test_ramdisk_no_queueing)
{
	struct blockdev d;
	struct bdev_params p;
	uint64_t now = 5 * NSEC_PER_MSEC;

	blockdev_default_params(BDEV_RAMDISK, &p);
	ck_assert_uint_eq(p.cpu_per_page_ns, 400);
	blockdev_init(&d, "ram0", &p, 1);
	/* many IOs at the same instant: each completes when submitted */
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(blockdev_submit(&d, i & 1 ? REQ_OP_WRITE : REQ_OP_READ,
						  (uint64_t)i, 8, now, NULL, NULL), now);
	ck_assert_uint_eq(d.st.queue_ns, 0);
	ck_assert_uint_eq(d.st.service_ns, 0);
	ck_assert_uint_eq(d.st.nr_reads, 50);
	ck_assert_uint_eq(d.st.nr_writes, 50);

	/* delay_read: a fixed latency on reads, none on writes */
	p.delay_read_ns = 3 * NSEC_PER_MSEC;
	blockdev_init(&d, "ram1", &p, 1);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 0, 1, now, NULL, NULL),
			  now + p.delay_read_ns);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 1, 64, now, NULL, NULL),
			  now + p.delay_read_ns);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_WRITE, 2, 1, now, NULL, NULL), now);
	ck_assert_uint_eq(d.st.queue_ns, 0);
}
END_TEST

struct ram_arg {
	struct blockdev *d;
	uint64_t submit_ns, stime_delta, end_at, end_clock;
	int calls;
	uint64_t batch_done_clock;
};

static void ram_end_io(void *private, uint64_t done_ns)
{
	struct ram_arg *r = private;

	r->calls++;
	r->end_at = done_ns;
	r->end_clock = engine_clock_ns();
}

static void ram_fn(struct actor *a, void *arg)
{
	struct ram_arg *r = arg;
	struct bio_batch b;
	uint64_t st, before;

	actor_sleep_ns(a, NSEC_PER_MSEC);
	r->submit_ns = engine_clock_ns();
	ck_assert_uint_eq(blockdev_submit(r->d, REQ_OP_READ, 0, 4, r->submit_ns, ram_end_io, r),
			  r->submit_ns);
	actor_sleep_ns(a, NSEC_PER_MSEC);

	/* through models/: the submitter pays the copy, 400 ns a page */
	st = a->stime_ns;
	before = actor_now_ns(a);
	bio_batch_init(&b);
	bio_batch_submit(&b, a, r->d, REQ_OP_READ, 100, 16);
	r->stime_delta = a->stime_ns - st;
	bio_batch_wait(&b, a);
	r->batch_done_clock = engine_clock_ns() - before;
}

START_TEST(test_ramdisk_completion_and_cpu)
{
	struct blockdev d;
	struct bdev_params p;
	struct ram_arg r = { .d = &d };

	boot_engine();
	blockdev_default_params(BDEV_RAMDISK, &p);
	blockdev_init(&d, "ram0", &p, 1);
	harness_run_actor(ram_fn, &r);
	ck_assert_int_eq(r.calls, 1);
	ck_assert_uint_eq(r.end_at, r.submit_ns);
	ck_assert_uint_eq(r.end_clock, r.submit_ns);
	ck_assert_uint_eq(r.stime_delta, COST_BIO_SUBMIT_NS + 16 * 400);
	/* no device time beyond the CPU the submitter spent */
	ck_assert_uint_eq(r.batch_done_clock, r.stime_delta);
}
END_TEST

/* ---- NVMe: delay_write only delays writes ---- */

START_TEST(test_nvme_delay_write_only)
{
	struct blockdev d, ref;
	struct bdev_params p;
	uint64_t t = NSEC_PER_SEC;

	blockdev_default_params(BDEV_NVME, &p);
	blockdev_init(&ref, "ref", &p, 1);
	p.delay_write_ns = 4 * NSEC_PER_MSEC;
	blockdev_init(&d, "slow-writes", &p, 1);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL),
			  blockdev_submit(&ref, REQ_OP_READ, 0, 1, 0, NULL, NULL));
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 9, 1, 0, NULL, NULL),
			  p.read_lat_ns + 2 * (4096 * NSEC_PER_SEC / p.read_bw));
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_WRITE, 0, 1, t, NULL, NULL),
			  t + p.write_lat_ns + p.delay_write_ns + 4096 * NSEC_PER_SEC / p.write_bw);
	ck_assert_uint_eq(blockdev_submit(&ref, REQ_OP_WRITE, 0, 1, t, NULL, NULL),
			  t + p.write_lat_ns + 4096 * NSEC_PER_SEC / p.write_bw);
	/* and a read after it is still undelayed */
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 1, 1, 2 * t, NULL, NULL),
			  2 * t + p.read_lat_ns + 4096 * NSEC_PER_SEC / p.read_bw);
}
END_TEST

static Suite *devices_suite(void)
{
	Suite *s = suite_create("devices");
	TCase *tc = tcase_create("hdd");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_hdd_defaults);
	tcase_add_test(tc, test_hdd_read_at_head_no_seek);
	tcase_add_test(tc, test_hdd_seek_grows_with_distance);
	tcase_add_test(tc, test_hdd_random_qd1_iops);
	tcase_add_test(tc, test_hdd_zoned_bandwidth);
	tcase_add_test(tc, test_hdd_clook_order);
	tcase_add_test(tc, test_hdd_elevator_beats_qd1);
	tcase_add_test(tc, test_hdd_seed_determinism);
	tcase_add_test(tc, test_hdd_slow_outer_bandwidth);
	suite_add_tcase(s, tc);

	tc = tcase_create("ramdisk");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_ramdisk_no_queueing);
	tcase_add_test(tc, test_ramdisk_completion_and_cpu);
	suite_add_tcase(s, tc);

	tc = tcase_create("nvme");
	tcase_add_test(tc, test_nvme_delay_write_only);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(devices_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
