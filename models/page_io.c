/* SPDX-License-Identifier: GPL-2.0-only */
#include "models/costs.h"
#include "models/page_io.h"

void bio_batch_init(struct bio_batch *b)
{
	b->wq = NULL;
	b->pending = 0;
	b->done_max = 0;
}

static void bio_batch_end_io(void *private, uint64_t now)
{
	struct bio_batch *b = private;

	(void)now;
	if (--b->pending == 0 && b->wq)
		waitq_wake_all(b->wq);
}

void bio_batch_submit(struct bio_batch *b, struct actor *a, struct blockdev *bdev,
		      enum bio_op op, uint64_t sector, uint32_t nr_pages)
{
	bool queued_model = bdev->p.type == BDEV_HDD;
	uint64_t done;

	actor_charge_sys(a, COST_BIO_SUBMIT_NS + (uint64_t)nr_pages * bdev->p.cpu_per_page_ns);
	if (queued_model) {
		if (!b->wq)
			b->wq = waitq_create();
		b->pending++;
		done = blockdev_submit(bdev, op, sector, nr_pages, actor_now_ns(a),
				       bio_batch_end_io, b);
	} else {
		done = blockdev_submit(bdev, op, sector, nr_pages, actor_now_ns(a), NULL, NULL);
	}
	if (done > b->done_max)
		b->done_max = done;
}

void bio_batch_wait(struct bio_batch *b, struct actor *a)
{
	while (b->pending)
		waitq_wait(a, b->wq, 0);
	if (b->done_max)
		actor_sleep_until_ns(a, b->done_max);
	waitq_destroy(b->wq);
	b->wq = NULL;
}
