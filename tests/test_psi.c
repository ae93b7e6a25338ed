/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * PSI memory accounting (models/psi.c): the kernel's fixed-point averages,
 * some and full per cgroup and up the hierarchy, and the stall sites:
 * memcg-limit reclaim, memory.high reclaim, global direct reclaim, a
 * throttle inside reclaim, workingset refaults; and what is not a stall:
 * memory.reclaim, balance_dirty_pages(), refaults of non-workingset pages.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/psi.h"
#include "models/vmscan.h"
#include "models/writeback.h"

static struct {
	struct blockdev nvme;
	struct mem_cgroup *parent, *a, *b;
	struct task *ta, *tb;
	struct address_space *file;
} fx;

/* root -> parent -> {a, b}: a task in a and in b, a file */
static void boot(uint64_t pages)
{
	harness_boot(1, pages, &classic_policy);
	memset(&fx, 0, sizeof(fx));
	harness_nvme(&fx.nvme);
	fx.parent = mem_cgroup_create(mm.root_mem_cgroup, "parent");
	fx.a = mem_cgroup_create(fx.parent, "a");
	fx.b = mem_cgroup_create(fx.parent, "b");
	ck_assert_ptr_nonnull(fx.b);
	fx.ta = task_create("ta", fx.a, 0);
	fx.tb = task_create("tb", fx.b, 0);
	fx.file = file_create("data", 8192, &fx.nvme, 0, false);
	ck_assert_ptr_nonnull(fx.file);
}

/* memory.pressure total (us) of memcg's some or full at the actor's time */
static uint64_t total_us(struct mem_cgroup *memcg, enum psi_mem_state s, struct actor *a)
{
	psi_group_update(&memcg->psi, a ? actor_now_ns(a) : 0);
	return psi_total_us(&memcg->psi, s);
}

/* ---- the averages: calc_load() with EXP_10s/60s/300s every PSI_FREQ ---- */

START_TEST(test_averages_are_the_kernels_fixed_point)
{
	struct psi_group g;
	char buf[256];

	psi_group_init(&g, 0);
	/* some for five whole periods, nothing full */
	g.state[PSI_MEM_SOME] = true;
	psi_group_update(&g, 5 * PSI_PERIOD_NS - 1);
	/* the fifth boundary is not passed yet: four samples of 100% */
	ck_assert_uint_eq(g.total[PSI_MEM_SOME], 5 * PSI_PERIOD_NS - 1);
	ck_assert_int_eq(psi_group_show(&g, 5 * PSI_PERIOD_NS, buf, sizeof(buf)), 0);
	/*
	 * calc_load() five times from 0 with active = 100 * FIXED_1:
	 * 129406, 31380, 6907 (as computed by the kernel's formula; LOAD_INT
	 * and LOAD_FRAC show them as 63.18, 15.32, 3.37)
	 */
	ck_assert_uint_eq(g.avg[PSI_MEM_SOME][0], 129406);
	ck_assert_uint_eq(g.avg[PSI_MEM_SOME][1], 31380);
	ck_assert_uint_eq(g.avg[PSI_MEM_SOME][2], 6907);
	ck_assert_str_eq(buf, "some avg10=63.18 avg60=15.32 avg300=3.37 total=10020000\n"
			      "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n");
	/* idle periods decay the averages; the total stays */
	g.state[PSI_MEM_SOME] = false;
	psi_group_update(&g, 10 * PSI_PERIOD_NS);
	ck_assert_uint_lt(g.avg[PSI_MEM_SOME][0], 129406 / 2);
	ck_assert_uint_eq(g.total[PSI_MEM_SOME], 5 * PSI_PERIOD_NS);
	/* calc_load() rounds up while rising */
	ck_assert_uint_eq(psi_calc_load(0, PSI_EXP_10s, 100 * PSI_FIXED_1),
			  (100 * PSI_FIXED_1 * (PSI_FIXED_1 - PSI_EXP_10s) + PSI_FIXED_1 - 1) /
			  PSI_FIXED_1);
}
END_TEST

/* ---- some and full, up the hierarchy ---- */

static void stall_5ms(struct actor *a, void *arg)
{
	unsigned long pflags;

	(void)arg;
	a->task = fx.ta;
	psi_memstall_enter(a, &pflags);
	actor_sleep_ns(a, 5 * NSEC_PER_MSEC);
	psi_memstall_leave(a, &pflags);
}

static void run_10ms(struct actor *a, void *arg)
{
	(void)arg;
	a->task = fx.tb;
	actor_sleep_ns(a, 0);	/* a task counts from its first engine call */
	actor_charge_user(a, 10 * NSEC_PER_MSEC);
	actor_flush_cpu(a);
}

static void two_tasks(struct actor *a, void *arg)
{
	(void)arg;
	actor_create("stalls", 0, stall_5ms, NULL, false);
	if (arg)
		actor_create("runs", 0, run_10ms, NULL, false);
	actor_sleep_ns(a, 20 * NSEC_PER_MSEC);
}

START_TEST(test_some_full_per_cgroup_and_ancestors)
{
	boot(65536);
	harness_run_actor(two_tasks, (void *)1);
	/* a: its only task stalled 5 ms, nothing else ran there */
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, NULL), 5000);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_FULL, NULL), 5000);
	/* b's task ran: no stall there */
	ck_assert_uint_eq(total_us(fx.b, PSI_MEM_SOME, NULL), 0);
	/* the parent and root see the stall, but b's task ran meanwhile: not full */
	ck_assert_uint_eq(total_us(fx.parent, PSI_MEM_SOME, NULL), 5000);
	ck_assert_uint_eq(total_us(fx.parent, PSI_MEM_FULL, NULL), 0);
	ck_assert_uint_eq(total_us(mm.root_mem_cgroup, PSI_MEM_SOME, NULL), 5000);
	ck_assert_uint_eq(total_us(mm.root_mem_cgroup, PSI_MEM_FULL, NULL), 0);
}
END_TEST

START_TEST(test_full_when_nobody_else_runs)
{
	boot(65536);
	harness_run_actor(two_tasks, NULL);
	ck_assert_uint_eq(total_us(fx.parent, PSI_MEM_FULL, NULL), 5000);
	ck_assert_uint_eq(total_us(mm.root_mem_cgroup, PSI_MEM_FULL, NULL), 5000);
	ck_assert_uint_eq(total_us(fx.b, PSI_MEM_SOME, NULL), 0);
}
END_TEST

/* ---- reclaim_throttle(): a stall inside reclaim, not by itself ---- */

static void throttle_fn(struct actor *a, void *arg)
{
	unsigned long pflags;

	a->task = fx.ta;
	if (arg)
		psi_memstall_enter(a, &pflags);
	/* nobody wakes it: the 1-jiffy timeout (4 ms at HZ=250) */
	reclaim_throttle(NODE_DATA(0), VMSCAN_THROTTLE_NOPROGRESS, a);
	if (arg)
		psi_memstall_leave(a, &pflags);
}

START_TEST(test_throttle_in_reclaim_stalls)
{
	boot(65536);
	harness_run_actor(throttle_fn, (void *)1);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, NULL), 4000);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_FULL, NULL), 4000);
}
END_TEST

START_TEST(test_throttle_outside_reclaim_does_not)
{
	boot(65536);
	harness_run_actor(throttle_fn, NULL);
	ck_assert_uint_eq(NODE_DATA(0)->throttle_ns[VMSCAN_THROTTLE_NOPROGRESS],
			  4 * NSEC_PER_MSEC);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
}
END_TEST

/* ---- memcg reclaim: memory.max and memory.high stall, memory.reclaim does not ---- */

static void read_1000(struct actor *a, void *arg)
{
	uint64_t start;

	(void)arg;
	a->task = fx.ta;
	start = actor_now_ns(a);
	for (int64_t i = 999; i >= 0; i--)	/* descending: no readahead */
		ck_assert_int_ge(filemap_read(a, fx.ta, fx.file, (uint64_t)i), 0);
	/* never more than the time it took */
	ck_assert_uint_le(total_us(fx.a, PSI_MEM_SOME, a), (actor_now_ns(a) - start) / 1000);
}

START_TEST(test_memcg_max_reclaim_stalls)
{
	boot(65536);
	fx.a->max = 128;
	harness_run_actor(read_1000, NULL);
	ck_assert_uint_gt(fx.a->memory_events[MEMCG_MAX], 0);
	ck_assert_uint_gt(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
	/* its only task: every stall is full */
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_FULL, NULL), total_us(fx.a, PSI_MEM_SOME, NULL));
	ck_assert_uint_eq(total_us(fx.parent, PSI_MEM_SOME, NULL),
			  total_us(fx.a, PSI_MEM_SOME, NULL));
	ck_assert_uint_ge(total_us(mm.root_mem_cgroup, PSI_MEM_SOME, NULL),
			  total_us(fx.a, PSI_MEM_SOME, NULL));
	ck_assert_uint_eq(total_us(fx.b, PSI_MEM_SOME, NULL), 0);
}
END_TEST

START_TEST(test_memcg_high_reclaim_stalls)
{
	boot(65536);
	fx.a->high = 128;
	harness_run_actor(read_1000, NULL);
	ck_assert_uint_gt(fx.a->memory_events[MEMCG_HIGH], 0);
	ck_assert_uint_eq(fx.a->memory_events[MEMCG_MAX], 0);
	ck_assert_uint_gt(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
}
END_TEST

START_TEST(test_no_reclaim_no_stall)
{
	boot(65536);
	harness_run_actor(read_1000, NULL);
	ck_assert_uint_eq(mm.vm_events[ALLOCSTALL], 0);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
	ck_assert_uint_eq(total_us(mm.root_mem_cgroup, PSI_MEM_SOME, NULL), 0);
}
END_TEST

static void proactive(struct actor *a, void *arg)
{
	uint64_t got = 0;

	read_1000(a, arg);
	ck_assert_int_eq(memory_reclaim(fx.a, 500, -1, a, &got), 0);
	ck_assert_uint_ge(got, 500);
}

START_TEST(test_memory_reclaim_is_not_a_stall)
{
	boot(65536);
	harness_run_actor(proactive, NULL);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
}
END_TEST

/* ---- global direct reclaim ---- */

START_TEST(test_direct_reclaim_stalls)
{
	/* 1024 pages of memory: 1000 file pages do not fit above the watermarks */
	boot(1024);
	harness_run_actor(read_1000, NULL);
	ck_assert_uint_gt(mm.vm_events[ALLOCSTALL], 0);
	ck_assert_uint_gt(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
	ck_assert_uint_ge(total_us(mm.root_mem_cgroup, PSI_MEM_SOME, NULL),
			  total_us(fx.a, PSI_MEM_SOME, NULL));
}
END_TEST

/* ---- balance_dirty_pages(): an IO wait, not a memory stall ---- */

static void write_2000(struct actor *a, void *arg)
{
	(void)arg;
	a->task = fx.ta;
	for (uint64_t i = 0; i < 2000; i++)
		ck_assert_int_ge(filemap_write(a, fx.ta, fx.file, i), 0);
}

START_TEST(test_dirty_throttle_is_not_a_stall)
{
	boot(65536);
	ck_assert_int_eq(wb_create(&fx.nvme), 0);
	mm.vm_dirty_bytes = 256 * 4096;
	mm.vm_dirty_background_bytes = 64 * 4096;
	harness_run_actor(write_2000, NULL);
	ck_assert_uint_gt(fx.ta->dirty_throttle_ns, 0);
	ck_assert_uint_eq(mm.vm_events[ALLOCSTALL], 0);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, NULL), 0);
}
END_TEST

/* ---- refaults: a workingset folio's read stalls, another's does not ---- */

static void refaults(struct actor *a, void *arg)
{
	uint64_t got = 0, nr_ws = 0, nr_other = 0;

	(void)arg;
	a->task = fx.ta;
	/* 0..399 read twice (active), 400..799 once; descending: no readahead */
	for (int64_t i = 399; i >= 0; i--)
		ck_assert_int_ge(filemap_read(a, fx.ta, fx.file, (uint64_t)i), 0);
	for (int64_t i = 799; i >= 0; i--)
		ck_assert_int_ge(filemap_read(a, fx.ta, fx.file, (uint64_t)i), 0);
	/* evict some of both (proactive: no stall) */
	ck_assert_int_eq(memory_reclaim(fx.a, 600, -1, a, &got), 0);
	ck_assert_uint_eq(total_us(fx.a, PSI_MEM_SOME, a), 0);
	for (int64_t i = 799; i >= 0; i--) {
		uint64_t entry = fx.file->slots[i], before, start, stall, took;
		struct folio *folio;

		if (!xa_is_value(entry))
			continue;
		before = total_us(fx.a, PSI_MEM_SOME, a);
		start = actor_now_ns(a);
		ck_assert_int_eq(filemap_read(a, fx.ta, fx.file, (uint64_t)i), ACCESS_MAJOR);
		took = (actor_now_ns(a) - start) / 1000;
		stall = total_us(fx.a, PSI_MEM_SOME, a) - before;
		folio = folio_of((uint32_t)fx.file->slots[i]);
		if (folio_test_workingset(folio)) {
			/* the wait for the read: most of the read's time, never more */
			ck_assert_uint_le(stall, took);
			ck_assert_uint_ge(2 * stall, took);
			nr_ws++;
		} else {
			ck_assert_uint_eq(stall, 0);
			nr_other++;
		}
	}
	ck_assert_uint_gt(nr_ws, 0);
	ck_assert_uint_gt(nr_other, 0);
}

START_TEST(test_workingset_refault_stalls_other_refault_does_not)
{
	boot(65536);
	harness_run_actor(refaults, NULL);
	ck_assert_uint_gt(memcg_page_state(fx.a, WORKINGSET_RESTORE_FILE), 0);
}
END_TEST

/* ---- triggers: psi_trigger_create(), window_update(), update_triggers() ---- */

#define MS NSEC_PER_MSEC

START_TEST(test_trigger_parse_takes_the_kernels_form_and_limits)
{
	enum psi_mem_state st;
	uint64_t th, win;
	const char *why = NULL;

	ck_assert_int_eq(psi_trigger_parse("some 150000 1000000", &st, &th, &win, &why), 0);
	ck_assert_int_eq(st, PSI_MEM_SOME);
	ck_assert_uint_eq(th, 150000);
	ck_assert_uint_eq(win, 1000000);
	ck_assert_int_eq(psi_trigger_parse("full 50000 500000", &st, &th, &win, NULL), 0);
	ck_assert_int_eq(st, PSI_MEM_FULL);
	/* the window's limits, both ends included */
	ck_assert_int_eq(psi_trigger_parse("some 1 10000000", &st, &th, &win, NULL), 0);
	ck_assert_int_eq(psi_trigger_parse("some 1 499999", &st, &th, &win, &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "window"));
	ck_assert_int_eq(psi_trigger_parse("some 1 10000001", &st, &th, &win, NULL), -EINVAL);
	/* the threshold: 1 us to the window */
	ck_assert_int_eq(psi_trigger_parse("some 0 1000000", &st, &th, &win, &why), -EINVAL);
	ck_assert_ptr_nonnull(strstr(why, "threshold"));
	ck_assert_int_eq(psi_trigger_parse("some 1000001 1000000", &st, &th, &win, NULL), -EINVAL);
	ck_assert_int_eq(psi_trigger_parse("some 1000000 1000000", &st, &th, &win, NULL), 0);
	/* not the form */
	ck_assert_int_eq(psi_trigger_parse("avg10 1 1000000", &st, &th, &win, NULL), -EINVAL);
	ck_assert_int_eq(psi_trigger_parse("some 1000", &st, &th, &win, NULL), -EINVAL);
	ck_assert_int_eq(psi_trigger_parse("some 100 1000000 x", &st, &th, &win, NULL), -EINVAL);
	ck_assert_int_eq(psi_trigger_parse("some -1 1000000", &st, &th, &win, NULL), -EINVAL);
	ck_assert_int_eq(psi_trigger_parse("", &st, &th, &win, NULL), -EINVAL);
}
END_TEST

/* samples every 100 ms (the rtpoll period of a 1 s window) */
START_TEST(test_trigger_fires_when_growth_in_window_reaches_threshold)
{
	struct psi_trigger t;
	uint64_t total = 0;

	/* 100 ms within 1 s */
	psi_trigger_init(&t, PSI_MEM_SOME, 100000, 1000000, 0, 0);
	/* 9.9 ms more in each sample: 99 ms at 1 s, below the threshold */
	for (int i = 1; i <= 10; i++) {
		total += 9900 * NSEC_PER_USEC;
		ck_assert_msg(!psi_trigger_update(&t, (uint64_t)i * 100 * MS, total),
			      "fired at sample %d with %llu ns", i, (unsigned long long)total);
	}
	ck_assert(!t.event);
	/* one more ms within the same window: 100 ms, the threshold */
	total += 1 * MS;
	ck_assert(psi_trigger_update(&t, 1000 * MS, total));
	ck_assert(t.event);
	ck_assert_uint_eq(t.nr_events, 1);
}
END_TEST

START_TEST(test_trigger_no_new_stall_no_event)
{
	struct psi_trigger t;

	psi_trigger_init(&t, PSI_MEM_FULL, 100000, 1000000, 0, 5 * MS);
	/* the total it started from is not growth */
	for (int i = 1; i <= 30; i++)
		ck_assert(!psi_trigger_update(&t, (uint64_t)i * 100 * MS, 5 * MS));
	ck_assert_uint_eq(t.nr_events, 0);
}
END_TEST

/*
 * A continuous stall (all of the time) for 5 s: the threshold is crossed
 * at 100 ms and every sample after, but an event is signalled at most
 * once a window: at 0.1, 1.1, 2.1, 3.1 and 4.1 s.
 */
START_TEST(test_trigger_at_most_once_per_window)
{
	struct psi_trigger t;
	uint64_t fired[8];
	int n = 0;

	psi_trigger_init(&t, PSI_MEM_SOME, 100000, 1000000, 0, 0);
	for (uint64_t now = 100 * MS; now <= 5000 * MS; now += 100 * MS)
		if (psi_trigger_update(&t, now, now)) {
			ck_assert_int_lt(n, 8);
			fired[n++] = now;
		}
	ck_assert_int_eq(n, 5);
	for (int i = 0; i < n; i++)
		ck_assert_uint_eq(fired[i], (100 + 1000 * (uint64_t)i) * MS);
}
END_TEST

/*
 * A breach inside the rate limit is kept pending and signalled once the
 * window since the last event has passed, even with no stall then.
 */
START_TEST(test_trigger_pending_breach_signalled_after_window)
{
	struct psi_trigger t;

	psi_trigger_init(&t, PSI_MEM_SOME, 100000, 1000000, 0, 0);
	ck_assert(psi_trigger_update(&t, 200 * MS, 150 * MS));
	/* a second breach 300 ms later: rate-limited, pending */
	ck_assert(!psi_trigger_update(&t, 500 * MS, 400 * MS));
	ck_assert(t.pending_event);
	/* no new stall; still inside the window since the event */
	ck_assert(!psi_trigger_update(&t, 1100 * MS, 400 * MS));
	/* the window since the event has passed: signalled without new stall */
	ck_assert(psi_trigger_update(&t, 1200 * MS, 400 * MS));
	ck_assert(!t.pending_event);
	ck_assert_uint_eq(t.nr_events, 2);
}
END_TEST

/*
 * window_update(): past a window, the last window's growth counts pro
 * rata for the part of the new one not yet elapsed.
 */
START_TEST(test_trigger_window_carries_previous_growth)
{
	struct psi_trigger t;

	psi_trigger_init(&t, PSI_MEM_SOME, 100000, 1000000, 0, 0);
	/* 80 ms over the first 1.1 s (a new window from 1.1 s, prev_growth 80 ms) */
	ck_assert(!psi_trigger_update(&t, 1100 * MS, 80 * MS));
	/* half way: 30 ms new + 80 * 0.5 = 70 ms: no */
	ck_assert(!psi_trigger_update(&t, 1600 * MS, 110 * MS));
	/* 70 % of the way: 65 ms new + 80 * 0.3 = 89 ms: no */
	ck_assert(!psi_trigger_update(&t, 1800 * MS, 145 * MS));
	/* 80 % of the way: 85 ms new + 80 * 0.2 = 101 ms: fires (85 ms alone would not) */
	ck_assert(psi_trigger_update(&t, 1900 * MS, 165 * MS));
}
END_TEST

START_TEST(test_trigger_full_counts_full_only)
{
	struct psi_group g;
	struct psi_trigger t;

	psi_group_init(&g, 0);
	psi_trigger_init(&t, PSI_MEM_FULL, 100000, 1000000, 0, 0);
	/* some for 1 s, never full */
	g.state[PSI_MEM_SOME] = true;
	for (uint64_t now = 100 * MS; now <= 1000 * MS; now += 100 * MS) {
		psi_group_update(&g, now);
		ck_assert(!psi_trigger_update(&t, now, g.total[PSI_MEM_FULL]));
	}
	g.state[PSI_MEM_FULL] = true;
	psi_group_update(&g, 1100 * MS);
	psi_group_update(&g, 1200 * MS);
	ck_assert(psi_trigger_update(&t, 1200 * MS, g.total[PSI_MEM_FULL]));
}
END_TEST

/* through the engine: a task stalls 300 ms from 1 s; a waiter polls the trigger */
static struct {
	struct psi_trigger *t;
	uint64_t woke_ns;
	bool got;
	int nr_timeouts;
	uint64_t nr_events;
} trig;

static void stall_300ms(struct actor *a, void *arg)
{
	unsigned long pflags;

	(void)arg;
	a->task = fx.ta;
	actor_sleep_ns(a, 1000 * MS);
	psi_memstall_enter(a, &pflags);
	actor_sleep_ns(a, 300 * MS);
	psi_memstall_leave(a, &pflags);
}

static void poller(struct actor *a, void *arg)
{
	const char *why;

	(void)arg;
	ck_assert_int_eq(psi_trigger_create(&fx.a->psi, "some 150000 1000000", actor_now_ns(a),
					    &trig.t, &why), 0);
	actor_create("stalls", 0, stall_300ms, NULL, false);
	/* nothing within the first 500 ms */
	ck_assert(!psi_trigger_wait(a, trig.t, 500 * MS));
	trig.nr_timeouts++;
	trig.got = psi_trigger_wait(a, trig.t, 0);
	trig.woke_ns = actor_now_ns(a);
	trig.nr_events = trig.t->nr_events;
	/* freed by its timer from here on */
	psi_trigger_destroy(trig.t);
}

START_TEST(test_trigger_wakes_the_poller)
{
	boot(65536);
	memset(&trig, 0, sizeof(trig));
	harness_run_actor(poller, NULL);
	ck_assert(trig.got);
	ck_assert_int_eq(trig.nr_timeouts, 1);
	/*
	 * 150 ms of stall are reached at 1.15 s; the sample after that, on the
	 * 100 ms grid from creation, is at 1.2 s
	 */
	ck_assert_uint_eq(trig.woke_ns, 1200 * MS);
	ck_assert_uint_eq(trig.nr_events, 1);
}
END_TEST

static Suite *psi_suite(void)
{
	Suite *s = suite_create("psi");
	TCase *tc = tcase_create("psi");

	tcase_add_test(tc, test_averages_are_the_kernels_fixed_point);
	tcase_add_test(tc, test_some_full_per_cgroup_and_ancestors);
	tcase_add_test(tc, test_full_when_nobody_else_runs);
	tcase_add_test(tc, test_throttle_in_reclaim_stalls);
	tcase_add_test(tc, test_throttle_outside_reclaim_does_not);
	tcase_add_test(tc, test_memcg_max_reclaim_stalls);
	tcase_add_test(tc, test_memcg_high_reclaim_stalls);
	tcase_add_test(tc, test_no_reclaim_no_stall);
	tcase_add_test(tc, test_memory_reclaim_is_not_a_stall);
	tcase_add_test(tc, test_direct_reclaim_stalls);
	tcase_add_test(tc, test_dirty_throttle_is_not_a_stall);
	tcase_add_test(tc, test_workingset_refault_stalls_other_refault_does_not);
	tcase_add_test(tc, test_trigger_parse_takes_the_kernels_form_and_limits);
	tcase_add_test(tc, test_trigger_fires_when_growth_in_window_reaches_threshold);
	tcase_add_test(tc, test_trigger_no_new_stall_no_event);
	tcase_add_test(tc, test_trigger_at_most_once_per_window);
	tcase_add_test(tc, test_trigger_pending_breach_signalled_after_window);
	tcase_add_test(tc, test_trigger_window_carries_previous_growth);
	tcase_add_test(tc, test_trigger_full_counts_full_only);
	tcase_add_test(tc, test_trigger_wakes_the_poller);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(psi_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
