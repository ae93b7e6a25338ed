/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Block devices with deterministic latency models. A device knows pages
 * only by number: it computes when an IO completes and, if the submitter
 * handed down an end_io callback, calls it then (through a core timer).
 */
#ifndef MMEMU_STORAGE_BLOCKDEV_H
#define MMEMU_STORAGE_BLOCKDEV_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"

#define BDEV_MAX_CHANNELS 256

enum bdev_type {
	BDEV_NVME,	/* parallel channels, tens of microseconds */
	BDEV_HDD,	/* one head, seek + rotation, elevator (C-LOOK) queue */
	BDEV_RAMDISK,	/* memcpy on the submitting CPU, no queueing */
	NR_BDEV_TYPES
};

enum bio_op {
	REQ_OP_READ,
	REQ_OP_WRITE
};

typedef void (*bio_end_io_fn)(void *private, uint64_t done_ns);

/* Model parameters; defaults per type in blockdev_default_params(). */
struct bdev_params {
	enum bdev_type type;		/* model */
	uint64_t read_lat_ns;		/* per-IO read latency (media + controller) */
	uint64_t write_lat_ns;		/* per-IO write latency */
	uint64_t read_bw;		/* bytes per second, shared by all IO */
	uint64_t write_bw;		/* bytes per second */
	unsigned int nr_channels;	/* IOs served in parallel (internal parallelism) */
	uint64_t delay_read_ns;		/* extra fixed latency (what-if `delay`) */
	uint64_t delay_write_ns;	/* extra fixed latency on writes */
	uint64_t cpu_per_page_ns;	/* CPU the submitter spends per page (ramdisk memcpy) */
	uint64_t capacity_pages;	/* HDD: size, for seek distances and zones */
	uint64_t seek_t2t_ns;		/* HDD: track-to-track seek */
	uint64_t seek_full_ns;		/* HDD: full-stroke seek */
	uint64_t rpm;			/* HDD: spindle speed */
	uint64_t inner_bw;		/* HDD: bandwidth at the inner zone (read_bw is outer) */
};

/* A queued HDD request. */
struct bdev_req {
	uint64_t sector;		/* first page */
	uint32_t nr_pages;
	enum bio_op op;
	uint64_t submit_ns;
	bio_end_io_fn end_io;
	void *private;
};

struct bdev_stats {
	uint64_t nr_reads, nr_writes;		/* IOs completed or in flight */
	uint64_t bytes_read, bytes_written;	/* payload */
	uint64_t busy_ns;			/* time with at least one IO in service */
	uint64_t queue_ns;			/* sum of time IOs waited before service */
	uint64_t service_ns;			/* sum of submission-to-completion times */
};

struct blockdev {
	char name[48];			/* scenario name (scenarios/run.c: every one fits) */
	struct bdev_params p;		/* model parameters */
	uint64_t chan_free_ns[BDEV_MAX_CHANNELS];	/* when each channel frees up */
	/* the channels as a min-heap on (chan_free_ns, index): the root serves next */
	uint16_t chan_heap[BDEV_MAX_CHANNELS];
	uint64_t pipe_free_ns;		/* when the shared transfer path frees up */
	uint64_t busy_until_ns;		/* end of the current busy period */
	struct bdev_stats st;		/* counters for the results */
	bool no_readahead;		/* queue/read_ahead_kb = 0 (bdi->ra_pages 0): files read only
					 * the pages asked for, no readahead nor mmap read-around */
	/* HDD */
	uint64_t head;			/* page under the head */
	bool hdd_busy;			/* a request is being served */
	struct bdev_req cur;		/* the one being served */
	struct bdev_req *queue;		/* waiting requests */
	int nr_queued, cap_queued;
	struct rng rng;			/* rotational position */
};

const char *bdev_type_name(enum bdev_type t);
int bdev_type_parse(const char *s, enum bdev_type *t);
void blockdev_default_params(enum bdev_type t, struct bdev_params *p);
void blockdev_init(struct blockdev *d, const char *name, const struct bdev_params *p,
		   uint64_t seed);
void blockdev_exit(struct blockdev *d);

/*
 * Submits an IO of nr_pages pages at page number `sector` at time now_ns.
 * Returns the completion time when the model knows it now (NVMe, ramdisk,
 * an idle HDD), else 0. end_io(private, done), if set, is called at
 * completion in every case; a submitter that got 0 must wait for it.
 * The submitter also spends d->p.cpu_per_page_ns per page of CPU.
 */
/* The dm-delay-like delay of an op: added to its completion, not device time. */
uint64_t blockdev_delay_ns(const struct blockdev *d, enum bio_op op);
uint64_t blockdev_submit(struct blockdev *d, enum bio_op op, uint64_t sector,
			 uint32_t nr_pages, uint64_t now_ns,
			 bio_end_io_fn end_io, void *private);

/* Utilisation over [0, end_ns]. */
double blockdev_util(const struct blockdev *d, uint64_t end_ns);

#endif
