/* SPDX-License-Identifier: GPL-2.0-only */
/* storage/: the NVMe model (latency, channels, shared bandwidth), stats, end_io. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "harness.h"
#include "storage/blockdev.h"

static uint64_t xfer_ns(uint64_t bytes, uint64_t bw)
{
	return bytes * NSEC_PER_SEC / bw;
}

START_TEST(test_nvme_defaults_and_types)
{
	struct bdev_params p;
	enum bdev_type t = NR_BDEV_TYPES;

	blockdev_default_params(BDEV_NVME, &p);
	ck_assert_uint_gt(p.read_lat_ns, 10 * NSEC_PER_USEC);
	ck_assert_uint_lt(p.read_lat_ns, 1000 * NSEC_PER_USEC);
	ck_assert_uint_ge(p.read_bw, 1000ULL * 1000 * 1000);
	ck_assert_uint_gt(p.nr_channels, 1);
	ck_assert_int_eq(bdev_type_parse("nvme", &t), 0);
	ck_assert_int_eq(t, BDEV_NVME);
	ck_assert_int_lt(bdev_type_parse("floppy", &t), 0);
	ck_assert_str_eq(bdev_type_name(BDEV_NVME), "nvme");
}
END_TEST

START_TEST(test_one_read_latency_plus_transfer)
{
	struct blockdev d;
	uint64_t done;

	harness_nvme(&d);
	done = blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL);
	ck_assert_uint_eq(done, d.p.read_lat_ns + xfer_ns(4096, d.p.read_bw));
	ck_assert_uint_eq(d.st.nr_reads, 1);
	ck_assert_uint_eq(d.st.bytes_read, 4096);
	ck_assert_uint_eq(d.st.nr_writes, 0);
	ck_assert_uint_eq(d.st.queue_ns, 0);
	ck_assert_uint_eq(d.st.service_ns, done);
	/* submitted later on an idle device: the same service time */
	{
		uint64_t t = 10 * NSEC_PER_MSEC;

		ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 7, 1, t, NULL, NULL) - t, done);
	}
}
END_TEST

START_TEST(test_one_write_and_delay)
{
	struct blockdev d;
	struct bdev_params p;

	blockdev_default_params(BDEV_NVME, &p);
	p.delay_read_ns = 5 * NSEC_PER_MSEC;
	p.delay_write_ns = 7 * NSEC_PER_MSEC;
	blockdev_init(&d, "slow", &p, 1);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_WRITE, 0, 2, 0, NULL, NULL),
			  p.write_lat_ns + p.delay_write_ns + xfer_ns(8192, p.write_bw));
	ck_assert_uint_eq(d.st.nr_writes, 1);
	ck_assert_uint_eq(d.st.bytes_written, 8192);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 100, 1, NSEC_PER_SEC, NULL, NULL),
			  NSEC_PER_SEC + p.read_lat_ns + p.delay_read_ns + xfer_ns(4096, p.read_bw));
}
END_TEST

START_TEST(test_channels_serve_in_parallel_then_queue)
{
	struct blockdev d;
	uint64_t done[65], lat, x;
	unsigned int ch;

	harness_nvme(&d);
	ch = d.p.nr_channels;
	ck_assert_uint_eq(ch, 64);
	lat = d.p.read_lat_ns;
	x = xfer_ns(4096, d.p.read_bw);
	for (unsigned int i = 0; i < ch; i++)
		done[i] = blockdev_submit(&d, REQ_OP_READ, i, 1, 0, NULL, NULL);
	/* no IO waited for a channel; only the shared transfer path serialises */
	ck_assert_uint_eq(d.st.queue_ns, 0);
	for (unsigned int i = 0; i < ch; i++) {
		ck_assert_uint_ge(done[i], lat + x);
		ck_assert_uint_le(done[i], lat + ch * x);
		/* "about the same time": all within one latency of each other */
		ck_assert_uint_lt(done[i] - done[0], lat);
	}
	/* the 65th waits for the first channel to free up */
	done[ch] = blockdev_submit(&d, REQ_OP_READ, ch, 1, 0, NULL, NULL);
	ck_assert_uint_ge(done[ch], done[0] + lat);
	ck_assert_uint_gt(d.st.queue_ns, 0);
	ck_assert_uint_eq(d.st.queue_ns, done[0]);
}
END_TEST

START_TEST(test_channels_exact_with_infinite_bandwidth)
{
	struct blockdev d;
	struct bdev_params p;

	blockdev_default_params(BDEV_NVME, &p);
	p.read_bw = 1ULL << 62;	/* transfer time rounds to 0 */
	p.nr_channels = 4;
	blockdev_init(&d, "fast", &p, 1);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL), p.read_lat_ns);
	for (int i = 0; i < 4; i++)
		ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL),
				  2 * p.read_lat_ns);
	ck_assert_uint_eq(blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL), 3 * p.read_lat_ns);
}
END_TEST

/*
 * The channel that serves an IO is the earliest free one, the lowest index
 * on ties, whatever the history: random submission times, sizes and ops
 * (with ties, since many IOs are submitted at once), each compared with a
 * scan of the channels' free times before it.
 */
START_TEST(test_earliest_free_channel_lowest_index_on_ties)
{
	static struct blockdev d;
	struct bdev_params p;
	uint64_t now = 0, x = 7;

	blockdev_default_params(BDEV_NVME, &p);
	p.nr_channels = 13;
	blockdev_init(&d, "chan", &p, 1);
	for (int n = 0; n < 20000; n++) {
		uint64_t before[BDEV_MAX_CHANNELS];
		unsigned int want = 0, changed = 0, nr_changed = 0;

		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		if ((x >> 60) < 6)	/* ~2 in 5 IOs after a gap, the others at once */
			now += (x >> 20) % (3 * p.read_lat_ns);
		memcpy(before, d.chan_free_ns, sizeof(before));
		for (unsigned int i = 1; i < p.nr_channels; i++)
			if (before[i] < before[want])
				want = i;
		blockdev_submit(&d, (x >> 40) & 1 ? REQ_OP_READ : REQ_OP_WRITE, 0,
				1 + (uint32_t)((x >> 33) % 32), now, NULL, NULL);
		for (unsigned int i = 0; i < p.nr_channels; i++)
			if (d.chan_free_ns[i] != before[i]) {
				changed = i;
				nr_changed++;
			}
		ck_assert_uint_eq(nr_changed, 1);
		ck_assert_msg(changed == want, "IO %d went to channel %u, the earliest free is %u",
			      n, changed, want);
	}
}
END_TEST

START_TEST(test_single_channel_serialises)
{
	struct blockdev d;
	struct bdev_params p;
	uint64_t one, two;

	blockdev_default_params(BDEV_NVME, &p);
	p.nr_channels = 1;
	blockdev_init(&d, "one", &p, 1);
	one = blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL);
	two = blockdev_submit(&d, REQ_OP_READ, 1, 1, 0, NULL, NULL);
	ck_assert_uint_eq(two, 2 * one);
}
END_TEST

START_TEST(test_channel_count_clamped)
{
	struct blockdev d;
	struct bdev_params p;

	blockdev_default_params(BDEV_NVME, &p);
	p.nr_channels = 0;
	blockdev_init(&d, "zero", &p, 1);
	ck_assert_uint_eq(d.p.nr_channels, 1);
	p.nr_channels = 100000;
	blockdev_init(&d, "many", &p, 1);
	ck_assert_uint_eq(d.p.nr_channels, BDEV_MAX_CHANNELS);
	blockdev_init(&d, "a-device-name-longer-than-thirty-two-bytes", &p, 1);
	ck_assert_uint_lt(strlen(d.name), sizeof(d.name));
}
END_TEST

START_TEST(test_streaming_is_bandwidth_bound)
{
	struct blockdev d;
	uint64_t last = 0, bytes, ideal;
	const int nr = 2000;

	harness_nvme(&d);
	for (int i = 0; i < nr; i++) {
		uint64_t done = blockdev_submit(&d, REQ_OP_READ, (uint64_t)i * 32, 32, 0, NULL, NULL);

		if (done > last)
			last = done;
	}
	bytes = (uint64_t)nr * 32 * 4096;
	ideal = xfer_ns(bytes, d.p.read_bw);
	ck_assert_uint_eq(d.st.nr_reads, (uint64_t)nr);
	ck_assert_uint_eq(d.st.bytes_read, bytes);
	ck_assert_msg(last >= ideal && (double)last <= 1.02 * (double)ideal,
		      "%d x 128 KiB done at %llu ns, bandwidth allows %llu ns", nr,
		      (unsigned long long)last, (unsigned long long)ideal);
	/* busy the whole time */
	ck_assert_double_eq_tol(blockdev_util(&d, last), 1.0, 1e-9);
}
END_TEST

START_TEST(test_utilisation)
{
	struct blockdev d;
	uint64_t done;
	double u;

	harness_nvme(&d);
	ck_assert_double_eq(blockdev_util(&d, 0), 0.0);
	ck_assert_double_eq(blockdev_util(&d, NSEC_PER_SEC), 0.0);
	done = blockdev_submit(&d, REQ_OP_READ, 0, 1, 0, NULL, NULL);
	blockdev_submit(&d, REQ_OP_READ, 1, 1, 0, NULL, NULL);
	u = blockdev_util(&d, 10 * done);
	ck_assert(u > 0.0 && u <= 1.0);
	ck_assert_double_eq_tol(u, (double)d.busy_until_ns / (10.0 * (double)done), 1e-9);
	/* measured before the IO ends: never above 1 */
	u = blockdev_util(&d, done / 2);
	ck_assert(u > 0.0 && u <= 1.0);
	/* an idle gap is not busy */
	blockdev_submit(&d, REQ_OP_READ, 2, 1, NSEC_PER_SEC, NULL, NULL);
	u = blockdev_util(&d, NSEC_PER_SEC + done);
	ck_assert(u > 0.0 && u < 0.01);
}
END_TEST

struct io_done {
	uint64_t at;		/* done_ns handed to end_io */
	uint64_t clock;		/* engine clock inside end_io */
	int calls;
};

static void end_io(void *private, uint64_t done_ns)
{
	struct io_done *d = private;

	d->at = done_ns;
	d->clock = engine_clock_ns();
	d->calls++;
}

struct submit_arg {
	struct blockdev *d;
	struct io_done io;
	uint64_t expect;
};

static void submitter_fn(struct actor *a, void *arg)
{
	struct submit_arg *s = arg;

	actor_sleep_ns(a, NSEC_PER_MSEC);
	s->expect = blockdev_submit(s->d, REQ_OP_READ, 0, 4, engine_clock_ns(), end_io, &s->io);
	actor_sleep_ns(a, 10 * NSEC_PER_MSEC);
}

START_TEST(test_end_io_called_at_completion)
{
	struct blockdev d;
	struct submit_arg s = { .d = &d };
	uint64_t pages = 4096;
	int cpus = 1;
	struct machine m;

	ck_assert_int_eq(machine_init(&m, 1, &pages, &cpus, 10), 0);
	harness_boot_engine(&m);
	harness_nvme(&d);
	harness_run_actor(submitter_fn, &s);
	ck_assert_int_eq(s.io.calls, 1);
	ck_assert_uint_eq(s.expect, NSEC_PER_MSEC + d.p.read_lat_ns + xfer_ns(16384, d.p.read_bw));
	ck_assert_uint_eq(s.io.at, s.expect);
	ck_assert_uint_eq(s.io.clock, s.expect);
}
END_TEST

static Suite *storage_suite(void)
{
	Suite *s = suite_create("storage");
	TCase *tc = tcase_create("nvme");

	tcase_add_test(tc, test_nvme_defaults_and_types);
	tcase_add_test(tc, test_one_read_latency_plus_transfer);
	tcase_add_test(tc, test_one_write_and_delay);
	tcase_add_test(tc, test_channels_serve_in_parallel_then_queue);
	tcase_add_test(tc, test_channels_exact_with_infinite_bandwidth);
	tcase_add_test(tc, test_single_channel_serialises);
	tcase_add_test(tc, test_earliest_free_channel_lowest_index_on_ties);
	tcase_add_test(tc, test_channel_count_clamped);
	tcase_add_test(tc, test_streaming_is_bandwidth_bound);
	tcase_add_test(tc, test_utilisation);
	suite_add_tcase(s, tc);

	tc = tcase_create("end_io");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_end_io_called_at_completion);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(storage_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
