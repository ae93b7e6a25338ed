/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <string.h>
#include <stdio.h>

#include "core/engine.h"
#include "storage/blockdev.h"

static const char *const bdev_type_names[NR_BDEV_TYPES] = {
	[BDEV_NVME] = "nvme",
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
	}
}

void blockdev_init(struct blockdev *d, const char *name, const struct bdev_params *p)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->p = *p;
	if (d->p.nr_channels < 1)
		d->p.nr_channels = 1;
	if (d->p.nr_channels > BDEV_MAX_CHANNELS)
		d->p.nr_channels = BDEV_MAX_CHANNELS;
}

struct bio_done {
	bio_end_io_fn fn;
	void *private;
};

uint64_t blockdev_submit(struct blockdev *d, enum bio_op op, uint64_t sector,
			 uint32_t nr_pages, uint64_t now_ns,
			 bio_end_io_fn end_io, void *private)
{
	uint64_t bytes = (uint64_t)nr_pages * 4096;
	bool rd = op == REQ_OP_READ;
	uint64_t bw = rd ? d->p.read_bw : d->p.write_bw;
	uint64_t lat = rd ? d->p.read_lat_ns + d->p.delay_read_ns
			  : d->p.write_lat_ns + d->p.delay_write_ns;
	unsigned int c = 0;
	uint64_t start, xfer_end, done;

	(void)sector;
	/* The earliest free channel serves the IO (lowest index on ties). */
	for (unsigned int i = 1; i < d->p.nr_channels; i++)
		if (d->chan_free_ns[i] < d->chan_free_ns[c])
			c = i;
	start = d->chan_free_ns[c] > now_ns ? d->chan_free_ns[c] : now_ns;
	/* Payload moves over one shared path at the device bandwidth. */
	xfer_end = (d->pipe_free_ns > start ? d->pipe_free_ns : start) +
		   bytes * NSEC_PER_SEC / bw;
	d->pipe_free_ns = xfer_end;
	done = xfer_end + lat;
	d->chan_free_ns[c] = done;

	if (rd) {
		d->st.nr_reads++;
		d->st.bytes_read += bytes;
	} else {
		d->st.nr_writes++;
		d->st.bytes_written += bytes;
	}
	d->st.queue_ns += start - now_ns;
	d->st.service_ns += done - now_ns;
	if (start >= d->busy_until_ns)
		d->st.busy_ns += done - start;
	else if (done > d->busy_until_ns)
		d->st.busy_ns += done - d->busy_until_ns;
	if (done > d->busy_until_ns)
		d->busy_until_ns = done;

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
