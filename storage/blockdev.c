/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "storage/blockdev.h"

static const char *const bdev_type_names[NR_BDEV_TYPES] = {
	[BDEV_NVME] = "nvme",
	[BDEV_HDD] = "hdd",
	[BDEV_RAMDISK] = "ramdisk",
};

const char *bdev_type_name(enum bdev_type t)
{
	return t < NR_BDEV_TYPES ? bdev_type_names[t] : "?";
}

int bdev_type_parse(const char *s, enum bdev_type *t)
{
	for (int i = 0; i < NR_BDEV_TYPES; i++) {
		if (!strcmp(s, bdev_type_names[i])) {
			*t = (enum bdev_type)i;
			return 0;
		}
	}
	return -EINVAL;
}

void blockdev_default_params(enum bdev_type t, struct bdev_params *p)
{
	memset(p, 0, sizeof(*p));
	p->type = t;
	switch (t) {
	case BDEV_NVME:
	default:
		/* PCIe 4.0 TLC SSD (e.g. Samsung 980 PRO spec sheet): 4 KiB QD1
		 * random read ~80 us end to end, writes land in the SLC cache ~30 us */
		p->read_lat_ns = 80 * NSEC_PER_USEC;
		p->write_lat_ns = 30 * NSEC_PER_USEC;
		/* sequential 3.5 GB/s read, 3 GB/s write (same spec class) */
		p->read_bw = 3500ULL * 1000 * 1000;
		p->write_bw = 3000ULL * 1000 * 1000;
		/* ~800K random read IOPS at depth: 64 channels x 80 us */
		p->nr_channels = 64;
		break;
	case BDEV_HDD:
		/* 7200 rpm 3.5" drive (e.g. Seagate Exos 7E8 / WD Gold data sheets):
		 * track-to-track ~1 ms, average seek ~8.5 ms, full stroke ~16 ms */
		p->seek_t2t_ns = 1 * NSEC_PER_MSEC;
		p->seek_full_ns = 16 * NSEC_PER_MSEC;
		p->rpm = 7200;
		/* sustained 180 MB/s at the outer zone, ~90 MB/s at the inner one
		 * (KERNEL.md: 80-175 MB/s) */
		p->read_bw = 180ULL * 1000 * 1000;
		p->write_bw = 180ULL * 1000 * 1000;
		p->inner_bw = 90ULL * 1000 * 1000;
		/* controller and command overhead ~0.1 ms */
		p->read_lat_ns = 100 * NSEC_PER_USEC;
		p->write_lat_ns = 100 * NSEC_PER_USEC;
		p->capacity_pages = 1ULL << 30;	/* 4 TiB */
		p->nr_channels = 1;
		break;
	case BDEV_RAMDISK:
		/* brd: a memcpy of 4 KiB at ~10 GB/s on the submitting CPU */
		p->cpu_per_page_ns = 400;
		p->read_bw = p->write_bw = 10ULL * 1000 * 1000 * 1000;
		p->nr_channels = 1;
		break;
	}
}

void blockdev_init(struct blockdev *d, const char *name, const struct bdev_params *p,
		   uint64_t seed)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->p = *p;
	rng_seed(&d->rng, seed, name);
	if (d->p.nr_channels < 1)
		d->p.nr_channels = 1;
	if (d->p.nr_channels > BDEV_MAX_CHANNELS)
		d->p.nr_channels = BDEV_MAX_CHANNELS;
	/* all free at 0: index order is a heap (a parent's index is below its children's) */
	for (unsigned int i = 0; i < d->p.nr_channels; i++)
		d->chan_heap[i] = (uint16_t)i;
}

/* The channel at heap slot a frees up before the one at slot b (lower index on ties). */
static bool chan_before(const struct blockdev *d, unsigned int a, unsigned int b)
{
	uint16_t ca = d->chan_heap[a], cb = d->chan_heap[b];

	return d->chan_free_ns[ca] < d->chan_free_ns[cb] ||
	       (d->chan_free_ns[ca] == d->chan_free_ns[cb] && ca < cb);
}

/* The root channel's free time grew: sift it down to its place. */
static void chan_sift_down(struct blockdev *d)
{
	unsigned int n = d->p.nr_channels, i = 0;

	for (;;) {
		unsigned int l = 2 * i + 1, r = l + 1, m = i;
		uint16_t t;

		if (l < n && chan_before(d, l, m))
			m = l;
		if (r < n && chan_before(d, r, m))
			m = r;
		if (m == i)
			return;
		t = d->chan_heap[i];
		d->chan_heap[i] = d->chan_heap[m];
		d->chan_heap[m] = t;
		i = m;
	}
}

void blockdev_exit(struct blockdev *d)
{
	free(d->queue);
	d->queue = NULL;
}

static void account(struct blockdev *d, enum bio_op op, uint32_t nr_pages, uint64_t submit,
		    uint64_t start, uint64_t done)
{
	uint64_t bytes = (uint64_t)nr_pages * 4096;

	if (op == REQ_OP_READ) {
		d->st.nr_reads++;
		d->st.bytes_read += bytes;
	} else {
		d->st.nr_writes++;
		d->st.bytes_written += bytes;
	}
	d->st.queue_ns += start - submit;
	d->st.service_ns += done - submit;
	if (start >= d->busy_until_ns)
		d->st.busy_ns += done - start;
	else if (done > d->busy_until_ns)
		d->st.busy_ns += done - d->busy_until_ns;
	if (done > d->busy_until_ns)
		d->busy_until_ns = done;
}

/*
 * delay_read/delay_write stand for dm-delay in front of the device: the
 * bio is held for the delay outside the device's queue, so the delay adds
 * to the completion time but occupies neither a channel nor the head.
 */
uint64_t blockdev_delay_ns(const struct blockdev *d, enum bio_op op)
{
	return op == REQ_OP_READ ? d->p.delay_read_ns : d->p.delay_write_ns;
}

/* ---- HDD: one head, seek + rotation + zoned transfer, C-LOOK queue ---- */

static uint64_t hdd_service_ns(struct blockdev *d, const struct bdev_req *r)
{
	const struct bdev_params *p = &d->p;
	uint64_t cap = p->capacity_pages ? p->capacity_pages : 1;
	uint64_t dist = r->sector > d->head ? r->sector - d->head : d->head - r->sector;
	uint64_t pos = r->sector < cap ? r->sector : cap - 1;
	bool rd = r->op == REQ_OP_READ;
	/* zoned recording: bandwidth falls linearly from the outer to the inner
	 * tracks; writes scale the same profile to their own outer figure */
	double outer = (double)(rd ? p->read_bw : p->write_bw);
	double inner = (double)p->inner_bw * outer / (double)(p->read_bw ? p->read_bw : 1);
	double bw = outer - (outer - inner) * ((double)pos / (double)cap);
	uint64_t ns = rd ? p->read_lat_ns : p->write_lat_ns;

	if (bw < 1)
		bw = 1;
	ns += (uint64_t)((double)r->nr_pages * 4096.0 * 1e9 / bw);
	if (dist) {
		/* seek time grows with the square root of the distance
		 * (Ruemmler & Wilkes, "An introduction to disk drive modeling", 1994) */
		ns += p->seek_t2t_ns + (uint64_t)((double)(p->seek_full_ns - p->seek_t2t_ns) *
						  sqrt((double)dist / (double)cap));
		/* then wait for the sector to come round: uniform over one revolution */
		ns += rng_below(&d->rng, 60ULL * NSEC_PER_SEC / p->rpm);
	}
	return ns;
}

static void hdd_complete(void *arg, uint64_t now);

static uint64_t hdd_start(struct blockdev *d, const struct bdev_req *r, uint64_t now)
{
	uint64_t done = now + hdd_service_ns(d, r);

	d->hdd_busy = true;
	d->cur = *r;
	d->head = r->sector + r->nr_pages;
	account(d, r->op, r->nr_pages, r->submit_ns, now, done);
	timer_add(done, hdd_complete, d);
	return done;
}

/* C-LOOK: the nearest request at or after the head, else the lowest one */
static int hdd_pick(const struct blockdev *d)
{
	int best = -1, lowest = 0;

	for (int i = 0; i < d->nr_queued; i++) {
		const struct bdev_req *q = &d->queue[i];

		if (q->sector < d->queue[lowest].sector)
			lowest = i;
		if (q->sector >= d->head && (best < 0 || q->sector < d->queue[best].sector))
			best = i;
	}
	return best >= 0 ? best : lowest;
}

static void hdd_complete(void *arg, uint64_t now)
{
	struct blockdev *d = arg;
	struct bdev_req done = d->cur;

	d->hdd_busy = false;
	if (d->nr_queued) {
		int i = hdd_pick(d);
		struct bdev_req next = d->queue[i];

		d->queue[i] = d->queue[--d->nr_queued];
		hdd_start(d, &next, now);
	}
	if (done.end_io) {
		uint64_t delay = blockdev_delay_ns(d, done.op);

		d->st.service_ns += delay;
		if (delay)
			timer_add(now + delay, done.end_io, done.private);
		else
			done.end_io(done.private, now);
	}
}

static uint64_t hdd_submit(struct blockdev *d, const struct bdev_req *r, uint64_t now)
{
	if (!d->hdd_busy)
		return hdd_start(d, r, now);
	if (d->nr_queued == d->cap_queued) {
		int cap = d->cap_queued ? 2 * d->cap_queued : 64;
		struct bdev_req *n = realloc(d->queue, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		d->queue = n;
		d->cap_queued = cap;
	}
	d->queue[d->nr_queued++] = *r;
	return 0;
}

uint64_t blockdev_submit(struct blockdev *d, enum bio_op op, uint64_t sector,
			 uint32_t nr_pages, uint64_t now_ns,
			 bio_end_io_fn end_io, void *private)
{
	uint64_t bytes = (uint64_t)nr_pages * 4096;
	bool rd = op == REQ_OP_READ;
	uint64_t bw = rd ? d->p.read_bw : d->p.write_bw;
	uint64_t delay = blockdev_delay_ns(d, op);
	uint64_t lat = rd ? d->p.read_lat_ns : d->p.write_lat_ns;
	unsigned int c = 0;
	uint64_t start, xfer_end, done;

	if (d->p.type == BDEV_HDD) {
		struct bdev_req r = { sector, nr_pages, op, now_ns, end_io, private };
		uint64_t t = hdd_submit(d, &r, now_ns);

		return t ? t + delay : 0;	/* end_io runs from hdd_complete() */
	}
	if (d->p.type == BDEV_RAMDISK) {
		/* the copy is the submitter's CPU time; completion is immediate */
		done = now_ns + lat + delay;
		account(d, op, nr_pages, now_ns, now_ns, done);
		if (end_io)
			timer_add(done, end_io, private);
		return done;
	}
	/* NVMe: the earliest free channel serves the IO (lowest index on ties). */
	c = d->chan_heap[0];
	start = d->chan_free_ns[c] > now_ns ? d->chan_free_ns[c] : now_ns;
	/* Payload moves over one shared path at the device bandwidth. */
	xfer_end = (d->pipe_free_ns > start ? d->pipe_free_ns : start) +
		   bytes * NSEC_PER_SEC / bw;
	d->pipe_free_ns = xfer_end;
	done = xfer_end + lat;
	d->chan_free_ns[c] = done;	/* >= its old value: start is at least that */
	chan_sift_down(d);
	account(d, op, nr_pages, now_ns, start, done);
	d->st.service_ns += delay;
	done += delay;

	if (end_io)
		timer_add(done, end_io, private);
	return done;
}

double blockdev_util(const struct blockdev *d, uint64_t end_ns)
{
	uint64_t busy = d->st.busy_ns;

	if (!end_ns)
		return 0.0;
	if (d->busy_until_ns > end_ns)
		busy -= d->busy_until_ns - end_ns < busy ? d->busy_until_ns - end_ns : busy;
	return (double)busy / (double)end_ns;
}
