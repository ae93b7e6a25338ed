/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Submitting block IO from models/ and waiting for it, whatever the device
 * model: devices that know the completion time let the submitter sleep
 * until then; queued ones (the HDD elevator) call back at completion.
 */
#ifndef MMEMU_MODELS_PAGE_IO_H
#define MMEMU_MODELS_PAGE_IO_H

#include <stdbool.h>
#include <stdint.h>

#include "core/engine.h"
#include "storage/blockdev.h"

/* IOs a thread waits for together (submit_bio_wait and readahead). */
struct bio_batch {
	struct waitq *wq;	/* woken when the last queued IO completes */
	int pending;		/* IOs whose completion time is not known yet */
	uint64_t done_max;	/* latest known completion */
};

void bio_batch_init(struct bio_batch *b);
/* Submits one IO of the batch; charges the submission CPU to a. */
void bio_batch_submit(struct bio_batch *b, struct actor *a, struct blockdev *bdev,
		      enum bio_op op, uint64_t sector, uint32_t nr_pages);
/* Waits for every IO of the batch, then frees its wait queue. */
void bio_batch_wait(struct bio_batch *b, struct actor *a);

#endif
