/* SPDX-License-Identifier: GPL-2.0-only */
/* core/: random streams, histograms, and the engine (clock, waits, timers, CPU). */
#include <check.h>
#include <math.h>
#include <stdlib.h>

#include "core/engine.h"
#include "core/histogram.h"
#include "core/rng.h"
#include "harness.h"

/* ---- rng ---- */

START_TEST(test_rng_same_seed_same_stream)
{
	struct rng a, b;

	rng_seed(&a, 42, "reader.0");
	rng_seed(&b, 42, "reader.0");
	for (int i = 0; i < 100; i++)
		ck_assert_uint_eq(rng_next(&a), rng_next(&b));
}
END_TEST

static int nr_equal_of_100(uint64_t seed1, const char *n1, uint64_t seed2, const char *n2)
{
	struct rng a, b;
	int same = 0;

	rng_seed(&a, seed1, n1);
	rng_seed(&b, seed2, n2);
	for (int i = 0; i < 100; i++)
		same += rng_next(&a) == rng_next(&b);
	return same;
}

START_TEST(test_rng_other_name_or_seed_differs)
{
	ck_assert_int_eq(nr_equal_of_100(42, "reader.0", 42, "reader.1"), 0);
	ck_assert_int_eq(nr_equal_of_100(42, "reader.0", 43, "reader.0"), 0);
	ck_assert_int_eq(nr_equal_of_100(0, "", 1, ""), 0);
}
END_TEST

START_TEST(test_rng_below_in_range_and_uniform)
{
	struct rng r;
	uint64_t bucket[10] = { 0 };

	rng_seed(&r, 7, "below");
	for (int i = 0; i < 100000; i++) {
		uint64_t v = rng_below(&r, 10);

		ck_assert_uint_lt(v, 10);
		bucket[v]++;
	}
	/* each bucket expects 10000; 5% is > 15 standard deviations */
	for (int i = 0; i < 10; i++) {
		ck_assert_uint_gt(bucket[i], 9500);
		ck_assert_uint_lt(bucket[i], 10500);
	}
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_eq(rng_below(&r, 1), 0);
	for (int i = 0; i < 1000; i++) {
		uint64_t n = 3 + (uint64_t)i * 1000003ULL;

		ck_assert_uint_lt(rng_below(&r, n), n);
	}
	for (int i = 0; i < 1000; i++) {
		double d = rng_double(&r);

		ck_assert(d >= 0.0 && d < 1.0);
	}
}
END_TEST

/* ---- histogram ---- */

static void hist_1_to_1000_us(struct histogram *h)
{
	hist_init(h);
	for (uint64_t us = 1; us <= 1000; us++)
		hist_record(h, us * 1000);
}

START_TEST(test_hist_quantiles)
{
	struct histogram h;
	uint64_t p50, p99, p0, p100;

	hist_1_to_1000_us(&h);
	ck_assert_uint_eq(h.count, 1000);
	ck_assert_uint_eq(h.min, 1000);
	ck_assert_uint_eq(h.max, 1000000);
	ck_assert_double_eq_tol(hist_mean(&h), 500500.0, 1e-6);
	p50 = hist_quantile(&h, 0.50);
	p99 = hist_quantile(&h, 0.99);
	p0 = hist_quantile(&h, 0.0);
	p100 = hist_quantile(&h, 1.0);
	ck_assert_msg(fabs((double)p50 - 500000.0) <= 0.07 * 500000.0, "p50 %llu",
		      (unsigned long long)p50);
	ck_assert_msg(fabs((double)p99 - 990000.0) <= 0.07 * 990000.0, "p99 %llu",
		      (unsigned long long)p99);
	/* clamped to the values actually seen */
	ck_assert_uint_ge(p0, 1000);
	ck_assert_uint_le(p0, 1070);
	ck_assert_uint_le(p100, 1000000);
	ck_assert_uint_ge(p100, 930000);
	ck_assert_uint_le(p50, p99);
}
END_TEST

START_TEST(test_hist_count_range_sums_to_count)
{
	static const uint64_t edges[] = { 0, 1000, 10000, 100000, 1000000, 0 };
	struct histogram h;
	uint64_t sum = 0;

	hist_1_to_1000_us(&h);
	for (int i = 0; i + 1 < (int)(sizeof(edges) / sizeof(edges[0])); i++)
		sum += hist_count_range(&h, edges[i], edges[i + 1]);
	ck_assert_uint_eq(sum, h.count);
	ck_assert_uint_eq(hist_count_range(&h, 0, 0), 1000);
	/* about a tenth of the values are below 100 us (bucket error < 6.25%) */
	{
		uint64_t below = hist_count_range(&h, 0, 100000);

		ck_assert_uint_ge(below, 93);
		ck_assert_uint_le(below, 107);
	}
}
END_TEST

START_TEST(test_hist_small_values_exact_and_merge)
{
	struct histogram a, b;

	hist_init(&a);
	hist_init(&b);
	ck_assert_uint_eq(hist_quantile(&a, 0.5), 0);
	ck_assert_double_eq(hist_mean(&a), 0.0);
	for (uint64_t v = 0; v < 16; v++)
		hist_record(&a, v);
	for (uint64_t v = 0; v < 16; v++)
		ck_assert_uint_eq(hist_count_range(&a, v, v + 1), 1);
	hist_record(&b, 12345);
	ck_assert_uint_eq(hist_quantile(&b, 0.5), 12345);
	hist_merge(&a, &b);
	ck_assert_uint_eq(a.count, 17);
	ck_assert_uint_eq(a.max, 12345);
	ck_assert_uint_eq(a.min, 0);
	ck_assert_uint_eq(a.sum, 120 + 12345);
	ck_assert_uint_eq(hist_quantile(&a, 1.0), 12345);
}
END_TEST

/* ---- engine ---- */

static void boot_one_node(int cpus)
{
	static struct machine m;
	uint64_t pages = 4096;

	ck_assert_int_eq(machine_init(&m, 1, &pages, &cpus, 10), 0);
	harness_boot_engine(&m);
}

static void sleeper_fn(struct actor *a, void *arg)
{
	uint64_t *t = arg;

	ck_assert_ptr_eq(current_actor, a);
	actor_sleep_ns(a, NSEC_PER_MSEC);
	t[0] = engine_clock_ns();
	actor_sleep_ns(a, 2 * NSEC_PER_MSEC);
	t[1] = engine_clock_ns();
	actor_sleep_until_ns(a, 5 * NSEC_PER_MSEC);
	t[2] = engine_clock_ns();
	/* a deadline in the past does not move the clock */
	actor_sleep_until_ns(a, NSEC_PER_MSEC);
	t[3] = engine_clock_ns();
}

START_TEST(test_engine_sleeps_add_up)
{
	uint64_t t[4] = { 0 };

	boot_one_node(1);
	harness_run_actor(sleeper_fn, t);
	ck_assert_uint_eq(t[0], 1 * NSEC_PER_MSEC);
	ck_assert_uint_eq(t[1], 3 * NSEC_PER_MSEC);
	ck_assert_uint_eq(t[2], 5 * NSEC_PER_MSEC);
	ck_assert_uint_eq(t[3], 5 * NSEC_PER_MSEC);
	ck_assert_uint_eq(engine_clock_ns(), 5 * NSEC_PER_MSEC);
}
END_TEST

static void pending_fn(struct actor *a, void *arg)
{
	uint64_t *t = arg;

	actor_charge_sys(a, 5 * NSEC_PER_USEC);
	t[0] = engine_clock_ns();
	t[1] = actor_now_ns(a);
	actor_flush_cpu(a);
	t[2] = engine_clock_ns();
	t[3] = a->stime_ns;
	t[4] = a->cpu_pending_ns;
	/* below a quantum, cond_resched keeps the CPU pending */
	actor_charge_user(a, NSEC_PER_USEC);
	actor_cond_resched(a);
	t[5] = a->cpu_pending_ns;
	actor_charge_user(a, a->quantum_ns);
	actor_cond_resched(a);
	t[6] = a->cpu_pending_ns;
	t[7] = engine_clock_ns();
}

START_TEST(test_engine_pending_cpu)
{
	uint64_t t[8] = { 0 };

	boot_one_node(1);
	harness_run_actor(pending_fn, t);
	ck_assert_uint_eq(t[0], 0);
	ck_assert_uint_eq(t[1], 5 * NSEC_PER_USEC);
	ck_assert_uint_eq(t[2], 5 * NSEC_PER_USEC);
	ck_assert_uint_eq(t[3], 5 * NSEC_PER_USEC);
	ck_assert_uint_eq(t[4], 0);
	ck_assert_uint_eq(t[5], NSEC_PER_USEC);
	ck_assert_uint_eq(t[6], 0);
	ck_assert_uint_eq(t[7], 5 * NSEC_PER_USEC + NSEC_PER_USEC + ACTOR_DEFAULT_QUANTUM_NS);
}
END_TEST

struct wq_test {
	struct waitq *wq;
	uint64_t timeout_ns;	/* the waiters' timeout */
	uint64_t wake_at_ns;	/* 0 = nobody wakes */
	bool wake_one;		/* waitq_wake_one instead of _all */
	bool woke[2];		/* what waitq_wait returned */
	uint64_t at[2];		/* when it returned */
	int nr_waiters_seen;	/* waitq_nr_waiters() just before the wake */
};

static void waiter0_fn(struct actor *a, void *arg)
{
	struct wq_test *w = arg;

	w->woke[0] = waitq_wait(a, w->wq, w->timeout_ns);
	w->at[0] = engine_clock_ns();
}

static void waiter1_fn(struct actor *a, void *arg)
{
	struct wq_test *w = arg;

	w->woke[1] = waitq_wait(a, w->wq, w->timeout_ns);
	w->at[1] = engine_clock_ns();
}

static void waker_fn(struct actor *a, void *arg)
{
	struct wq_test *w = arg;

	actor_sleep_until_ns(a, w->wake_at_ns);
	w->nr_waiters_seen = waitq_nr_waiters(w->wq);
	if (w->wake_one)
		waitq_wake_one(w->wq);
	else
		waitq_wake_all(w->wq);
}

/*
 * A waiter with CPU time still pending: waitq_wait hands that time to the
 * engine, during which others run. A wake-up in that window must not be
 * lost (the waiter checked its condition before the call; it would sleep
 * forever). The waiter owes 2 ms of CPU, the waker wakes at 1 ms.
 */
static void busy_waiter_fn(struct actor *a, void *arg)
{
	struct wq_test *w = arg;

	actor_charge_sys(a, 2 * NSEC_PER_MSEC);
	w->woke[0] = waitq_wait(a, w->wq, 0);
	w->at[0] = engine_clock_ns();
}

START_TEST(test_waitq_wake_while_waiter_flushes_cpu)
{
	struct wq_test w = { .wake_at_ns = 1 * NSEC_PER_MSEC };

	boot_one_node(2);
	w.wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waker", 0, waker_fn, &w, false));
	harness_run_actor(busy_waiter_fn, &w);
	ck_assert_int_eq(w.nr_waiters_seen, 1);
	ck_assert(w.woke[0]);
	/* it returns once its own CPU time is spent */
	ck_assert_uint_eq(w.at[0], 2 * NSEC_PER_MSEC);
	waitq_destroy(w.wq);
}
END_TEST

START_TEST(test_waitq_timeout)
{
	struct wq_test w = { .timeout_ns = 5 * NSEC_PER_MSEC };

	boot_one_node(1);
	w.wq = waitq_create();
	harness_run_actor(waiter0_fn, &w);
	ck_assert(!w.woke[0]);
	ck_assert_uint_eq(w.at[0], 5 * NSEC_PER_MSEC);
	ck_assert_int_eq(waitq_nr_waiters(w.wq), 0);
	waitq_destroy(w.wq);
}
END_TEST

START_TEST(test_waitq_woken_early)
{
	struct wq_test w = { .timeout_ns = 10 * NSEC_PER_MSEC, .wake_at_ns = 2 * NSEC_PER_MSEC };

	boot_one_node(1);
	w.wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waker", 0, waker_fn, &w, false));
	harness_run_actor(waiter0_fn, &w);
	ck_assert_int_eq(w.nr_waiters_seen, 1);
	ck_assert(w.woke[0]);
	ck_assert_uint_eq(w.at[0], 2 * NSEC_PER_MSEC);
	waitq_destroy(w.wq);
}
END_TEST

START_TEST(test_waitq_wake_one_wakes_one)
{
	struct wq_test w = { .timeout_ns = 10 * NSEC_PER_MSEC, .wake_at_ns = 2 * NSEC_PER_MSEC,
			     .wake_one = true };

	boot_one_node(1);
	w.wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waiter1", 0, waiter1_fn, &w, false));
	ck_assert_ptr_nonnull(actor_create("waker", 0, waker_fn, &w, false));
	harness_run_actor(waiter0_fn, &w);
	ck_assert_int_eq(w.nr_waiters_seen, 2);
	ck_assert_int_eq(w.woke[0] + w.woke[1], 1);
	ck_assert_uint_eq(w.woke[0] ? w.at[0] : w.at[1], 2 * NSEC_PER_MSEC);
	ck_assert_uint_eq(w.woke[0] ? w.at[1] : w.at[0], 10 * NSEC_PER_MSEC);
	waitq_destroy(w.wq);
}
END_TEST

struct mutex_test {
	struct sim_mutex *m;
	uint64_t got_at;	/* when the second locker got it */
};

static void holder_fn(struct actor *a, void *arg)
{
	struct mutex_test *t = arg;

	sim_mutex_lock(a, t->m);
	actor_sleep_ns(a, NSEC_PER_MSEC);
	sim_mutex_unlock(t->m);
}

static void contender_fn(struct actor *a, void *arg)
{
	struct mutex_test *t = arg;

	actor_sleep_ns(a, NSEC_PER_MSEC / 2);
	sim_mutex_lock(a, t->m);
	t->got_at = engine_clock_ns();
	sim_mutex_unlock(t->m);
}

/*
 * Two actors in a timed wait, one wake_all: both wake at once. (A waitq built
 * on sg_cond_wait_for made SimGrid abort here: "Cannot release that mutex:
 * you're not the owner".)
 */
START_TEST(test_waitq_wake_all_two_timed_waiters)
{
	struct wq_test w = { .timeout_ns = 10 * NSEC_PER_MSEC, .wake_at_ns = 2 * NSEC_PER_MSEC };

	boot_one_node(1);
	w.wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waiter1", 0, waiter1_fn, &w, false));
	ck_assert_ptr_nonnull(actor_create("waker", 0, waker_fn, &w, false));
	harness_run_actor(waiter0_fn, &w);
	ck_assert_int_eq(w.nr_waiters_seen, 2);
	ck_assert(w.woke[0] && w.woke[1]);
	ck_assert_uint_eq(w.at[0], 2 * NSEC_PER_MSEC);
	ck_assert_uint_eq(w.at[1], 2 * NSEC_PER_MSEC);
	waitq_destroy(w.wq);
}
END_TEST

START_TEST(test_waitq_wake_all_two_untimed_waiters)
{
	struct wq_test w = { .timeout_ns = 0, .wake_at_ns = 2 * NSEC_PER_MSEC };

	boot_one_node(1);
	w.wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waiter1", 0, waiter1_fn, &w, false));
	ck_assert_ptr_nonnull(actor_create("waker", 0, waker_fn, &w, false));
	harness_run_actor(waiter0_fn, &w);
	ck_assert_int_eq(w.nr_waiters_seen, 2);
	ck_assert(w.woke[0] && w.woke[1]);
	ck_assert_uint_eq(w.at[0], 2 * NSEC_PER_MSEC);
	ck_assert_uint_eq(w.at[1], 2 * NSEC_PER_MSEC);
	waitq_destroy(w.wq);
}
END_TEST

struct rewait_test {
	struct waitq *wq;
	bool woke[2];		/* the two waits' results */
	uint64_t at[2];		/* when they returned */
	int waiters_after;	/* waiters 1 ms after the wake */
};

static void rewaiter_fn(struct actor *a, void *arg)
{
	struct rewait_test *t = arg;

	for (int i = 0; i < 2; i++) {
		t->woke[i] = waitq_wait(a, t->wq, 5 * NSEC_PER_MSEC);
		t->at[i] = engine_clock_ns();
	}
}

static void rewake_fn(struct actor *a, void *arg)
{
	struct rewait_test *t = arg;

	actor_sleep_ns(a, 2 * NSEC_PER_MSEC);
	waitq_wake_all(t->wq);
	actor_sleep_ns(a, NSEC_PER_MSEC);
	t->waiters_after = waitq_nr_waiters(t->wq);
}

/*
 * wake_up_all() wakes the waiters present at the call: one that is woken
 * and waits again at the same instant is not woken a second time.
 */
START_TEST(test_waitq_wake_all_then_wait_again)
{
	struct rewait_test t = { 0 };

	boot_one_node(1);
	t.wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waker", 0, rewake_fn, &t, false));
	harness_run_actor(rewaiter_fn, &t);
	ck_assert(t.woke[0]);
	ck_assert_uint_eq(t.at[0], 2 * NSEC_PER_MSEC);
	ck_assert_msg(!t.woke[1], "the second wait was woken too (at %llu ns) by the same wake_all",
		      (unsigned long long)t.at[1]);
	ck_assert_uint_eq(t.at[1], 7 * NSEC_PER_MSEC);
	ck_assert_int_eq(t.waiters_after, 1);
	waitq_destroy(t.wq);
}
END_TEST

START_TEST(test_sim_mutex_blocks)
{
	struct mutex_test t = { 0 };

	boot_one_node(2);
	t.m = sim_mutex_create();
	ck_assert_ptr_nonnull(actor_create("holder", 0, holder_fn, &t, false));
	harness_run_actor(contender_fn, &t);
	ck_assert_uint_eq(t.got_at, NSEC_PER_MSEC);
	sim_mutex_destroy(t.m);
	sim_mutex_destroy(NULL);
	waitq_destroy(NULL);
}
END_TEST

#define NR_TIMERS 30

struct timer_log {
	int id[NR_TIMERS];	/* timer ids in firing order */
	uint64_t now[NR_TIMERS];	/* the now_ns they were given */
	uint64_t clock[NR_TIMERS];	/* engine clock inside the callback */
	int n;
};

struct timer_slot {
	struct timer_log *log;
	int id;
	uint64_t when;
};

static void timer_cb(void *arg, uint64_t now_ns)
{
	struct timer_slot *s = arg;
	struct timer_log *l = s->log;

	ck_assert_int_lt(l->n, NR_TIMERS);
	l->id[l->n] = s->id;
	l->now[l->n] = now_ns;
	l->clock[l->n] = engine_clock_ns();
	l->n++;
}

static void keeper_fn(struct actor *a, void *arg)
{
	(void)arg;
	actor_sleep_ns(a, 10 * NSEC_PER_MSEC);
}

START_TEST(test_timers_fire_in_time_then_insertion_order)
{
	static struct timer_log log;
	static struct timer_slot slot[NR_TIMERS];
	int expect = 0;

	boot_one_node(1);
	for (int i = 0; i < NR_TIMERS; i++) {
		/* times 1, 2 or 3 ms, interleaved */
		slot[i] = (struct timer_slot){ &log, i, (uint64_t)((i * 7) % 3 + 1) * NSEC_PER_MSEC };
		timer_add(slot[i].when, timer_cb, &slot[i]);
	}
	ck_assert_uint_eq(timer_pending(), NR_TIMERS);
	harness_run_actor(keeper_fn, NULL);
	ck_assert_int_eq(log.n, NR_TIMERS);
	ck_assert_uint_eq(timer_pending(), 0);
	for (uint64_t ms = 1; ms <= 3; ms++) {
		for (int i = 0; i < NR_TIMERS; i++) {
			if (slot[i].when != ms * NSEC_PER_MSEC)
				continue;
			ck_assert_msg(log.id[expect] == i, "timer %d fired as number %d, expected %d",
				      log.id[expect], expect, i);
			ck_assert_uint_eq(log.now[expect], slot[i].when);
			ck_assert_uint_eq(log.clock[expect], slot[i].when);
			expect++;
		}
	}
	ck_assert_int_eq(expect, NR_TIMERS);
}
END_TEST

struct late_timer {
	uint64_t fired_at;
};

static void late_cb(void *arg, uint64_t now_ns)
{
	((struct late_timer *)arg)->fired_at = now_ns;
}

static void add_timer_later_fn(struct actor *a, void *arg)
{
	/* added while the timer actor sleeps towards a later timer */
	actor_sleep_ns(a, NSEC_PER_MSEC);
	timer_add(2 * NSEC_PER_MSEC, late_cb, arg);
	actor_sleep_ns(a, 10 * NSEC_PER_MSEC);
}

START_TEST(test_timer_added_earlier_than_pending_one)
{
	struct late_timer far = { 0 }, near = { 0 };

	boot_one_node(1);
	timer_add(8 * NSEC_PER_MSEC, late_cb, &far);
	harness_run_actor(add_timer_later_fn, &near);
	ck_assert_uint_eq(near.fired_at, 2 * NSEC_PER_MSEC);
	ck_assert_uint_eq(far.fired_at, 8 * NSEC_PER_MSEC);
}
END_TEST

static void burner_fn(struct actor *a, void *arg)
{
	uint64_t *end = arg;

	actor_charge_user(a, 10 * NSEC_PER_MSEC);
	actor_flush_cpu(a);
	*end = engine_clock_ns();
	ck_assert_uint_eq(a->utime_ns, 10 * NSEC_PER_MSEC);
}

static void two_burners(int cpus, uint64_t end[2])
{
	boot_one_node(cpus);
	ck_assert_ptr_nonnull(actor_create("burner1", 0, burner_fn, &end[1], false));
	harness_run_actor(burner_fn, &end[0]);
}

START_TEST(test_cpu_shared_on_one_core)
{
	uint64_t end[2] = { 0 };

	two_burners(1, end);
	for (int i = 0; i < 2; i++)
		ck_assert_uint_eq(end[i], 20 * NSEC_PER_MSEC);
}
END_TEST

START_TEST(test_cpu_parallel_on_two_cores)
{
	uint64_t end[2] = { 0 };

	two_burners(2, end);
	for (int i = 0; i < 2; i++)
		ck_assert_uint_eq(end[i], 10 * NSEC_PER_MSEC);
}
END_TEST

static void node1_fn(struct actor *a, void *arg)
{
	int *node = arg;

	*node = a->node;
	actor_charge_user(a, NSEC_PER_MSEC);
}

START_TEST(test_actor_on_other_node_and_run_until)
{
	static struct machine m;
	uint64_t pages[2] = { 4096, 4096 };
	int cpus[2] = { 1, 1 }, node = -1;
	uint64_t end;

	ck_assert_int_eq(machine_init(&m, 2, pages, cpus, 10), 0);
	harness_boot_engine(&m);
	ck_assert_ptr_nonnull(actor_create("on1", 1, node1_fn, &node, false));
	ck_assert_ptr_nonnull(actor_create("long", 0, keeper_fn, NULL, false));
	end = engine_run(3 * NSEC_PER_MSEC);
	ck_assert_int_eq(node, 1);
	ck_assert_uint_eq(end, 3 * NSEC_PER_MSEC);
}
END_TEST

/*
 * Blocking calls that move the clock without SimGrid (actor_defer): only
 * where no other actor can run before the call's end. Each case below has a
 * second actor whose wake-up a wrong deferral would move or reorder.
 */
struct defer_case {
	int nr_steps;		/* 1 ms sleeps the stepper has done */
	int steps_seen;		/* nr_steps when the other actor (or timer) ran */
	uint64_t seen_ns;	/* when it ran */
	uint64_t step_ns[10];	/* when each of the stepper's sleeps ended */
	struct waitq *wq;
	uint64_t woke_ns;	/* when the waiter returned */
	struct actor *waiter;	/* the executing waiter */
	struct waitq *wq2;	/* the watcher's queue */
};

static void stepper_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	for (int i = 0; i < 10; i++) {
		actor_sleep_ns(a, NSEC_PER_MSEC);
		c->step_ns[i] = engine_clock_ns();
		c->nr_steps++;
	}
}

static void watcher_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	actor_sleep_until_ns(a, 3500 * NSEC_PER_USEC);
	c->seen_ns = engine_clock_ns();
	c->steps_seen = c->nr_steps;
}

static void stepper_and_watcher_fn(struct actor *a, void *arg)
{
	ck_assert_ptr_nonnull(actor_create("watcher", 0, watcher_fn, arg, false));
	stepper_fn(a, arg);
}

START_TEST(test_lone_actor_sleeps_without_the_engine)
{
	uint64_t t[4] = { 0 };

	boot_one_node(1);
	harness_run_actor(sleeper_fn, t);
	ck_assert_uint_eq(t[2], 5 * NSEC_PER_MSEC);
	/* the three sleeps that moved the clock, none through SimGrid */
	ck_assert_uint_eq(engine_nr_deferred(), 3);
}
END_TEST

START_TEST(test_deferred_sleeps_stop_before_another_wakes)
{
	struct defer_case c = { 0 };

	boot_one_node(4);
	harness_run_actor(stepper_and_watcher_fn, &c);
	/* the watcher wakes at its time and sees the steps of 1, 2 and 3 ms */
	ck_assert_uint_eq(c.seen_ns, 3500 * NSEC_PER_USEC);
	ck_assert_int_eq(c.steps_seen, 3);
	for (int i = 0; i < 10; i++)
		ck_assert_uint_eq(c.step_ns[i], (uint64_t)(i + 1) * NSEC_PER_MSEC);
	/*
	 * 1, 2, 3 ms: before the watcher's 3.5 ms (it ran when it was started
	 * and sleeps), alone; 4 ms: after it, through SimGrid; 5-10 ms: alone.
	 */
	ck_assert_uint_eq(engine_nr_deferred(), 9);
	ck_assert_uint_eq(engine_clock_ns(), 10 * NSEC_PER_MSEC);
}
END_TEST

static void untimed_waiter_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	waitq_wait(a, c->wq, 0);
	c->woke_ns = engine_clock_ns();
}

/* wakes the waiter at 1 ms, then sleeps on: the woken one runs at 1 ms */
static void waker_then_sleeper_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	c->wq = waitq_create();
	ck_assert_ptr_nonnull(actor_create("waiter", 0, untimed_waiter_fn, c, false));
	actor_sleep_ns(a, NSEC_PER_MSEC);
	waitq_wake_all(c->wq);
	actor_sleep_ns(a, 5 * NSEC_PER_MSEC);
	c->seen_ns = engine_clock_ns();
}

START_TEST(test_no_deferral_past_a_woken_actor)
{
	struct defer_case c = { 0 };

	boot_one_node(4);
	harness_run_actor(waker_then_sleeper_fn, &c);
	ck_assert_uint_eq(c.woke_ns, NSEC_PER_MSEC);
	ck_assert_uint_eq(c.seen_ns, 6 * NSEC_PER_MSEC);
	/*
	 * both sleeps alone: the untimed waiter can run only when woken, and
	 * it ran when it was woken (inside the release) and ended
	 */
	ck_assert_uint_eq(engine_nr_deferred(), 2);
	waitq_destroy(c.wq);
}
END_TEST

/*
 * Woken while it still executes the CPU time charged before its wait: the
 * semaphore is released by then, so the wait returns at the execution's end
 * without blocking. Others due at that instant may run first, and must not
 * take it for blocked.
 */
static void wq_waker_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	actor_sleep_until_ns(a, 500 * NSEC_PER_USEC);
	waitq_wake_all(c->wq);
}

/* wakes the watcher at the instant the waiter's execution ends */
static void watcher_waker_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	actor_sleep_until_ns(a, NSEC_PER_MSEC);
	waitq_wake_all(c->wq2);
}

/*
 * Woken at the instant the waiter's execution ends, so it resumes in the
 * same SimGrid round as the waiter's acquire (released already), and here
 * before it: the waiter has not returned yet, and its wake_ns must say it is
 * runnable, or the sleep below would be taken past the waiter's return.
 */
static void watcher_of_waiter_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	waitq_wait(a, c->wq2, 0);
	/* the waiter is due now: runnable, whether or not it has run yet */
	if (!c->nr_steps)
		ck_assert_uint_le(c->waiter->wake_ns, engine_clock_ns());
	actor_sleep_ns(a, NSEC_PER_MSEC);
	c->steps_seen = c->nr_steps;
	c->seen_ns = engine_clock_ns();
}

static void executing_waiter_fn(struct actor *a, void *arg)
{
	struct defer_case *c = arg;

	c->wq = waitq_create();
	c->wq2 = waitq_create();
	c->waiter = a;
	ck_assert_ptr_nonnull(actor_create("watcher", 0, watcher_of_waiter_fn, c, false));
	ck_assert_ptr_nonnull(actor_create("waker", 0, wq_waker_fn, c, false));
	ck_assert_ptr_nonnull(actor_create("watcher-waker", 0, watcher_waker_fn, c, false));
	actor_charge_user(a, NSEC_PER_MSEC);
	waitq_wait(a, c->wq, 0);
	c->woke_ns = engine_clock_ns();
	c->nr_steps++;
}

START_TEST(test_no_deferral_past_an_actor_woken_while_executing)
{
	struct defer_case c = { 0 };

	boot_one_node(4);
	harness_run_actor(executing_waiter_fn, &c);
	ck_assert_uint_eq(c.woke_ns, NSEC_PER_MSEC);
	/* the waiter returned at 1 ms, before the watcher's sleep to 2 ms ended */
	ck_assert_int_eq(c.steps_seen, 1);
	ck_assert_uint_eq(c.seen_ns, 2 * NSEC_PER_MSEC);
	waitq_destroy(c.wq);
	waitq_destroy(c.wq2);
}
END_TEST

static void step_cb(void *arg, uint64_t now_ns)
{
	struct defer_case *c = arg;

	c->seen_ns = now_ns;
	c->steps_seen = c->nr_steps;
}

static void stepper_with_timer_fn(struct actor *a, void *arg)
{
	timer_add(3500 * NSEC_PER_USEC, step_cb, arg);
	stepper_fn(a, arg);
}

START_TEST(test_deferred_sleeps_stop_before_a_timer)
{
	struct defer_case c = { 0 };

	boot_one_node(4);
	harness_run_actor(stepper_with_timer_fn, &c);
	ck_assert_uint_eq(c.seen_ns, 3500 * NSEC_PER_USEC);
	ck_assert_int_eq(c.steps_seen, 3);
	ck_assert_uint_eq(c.step_ns[9], 10 * NSEC_PER_MSEC);
}
END_TEST

START_TEST(test_deferred_sleeps_stop_at_the_run_limit)
{
	struct defer_case c = { 0 };
	uint64_t end;

	boot_one_node(1);
	ck_assert_ptr_nonnull(actor_create("stepper", 0, stepper_fn, &c, false));
	end = engine_run(4500 * NSEC_PER_USEC);
	ck_assert_uint_eq(end, 4500 * NSEC_PER_USEC);
	ck_assert_int_eq(c.nr_steps, 4);
}
END_TEST

/* a lone actor's CPU time moves the clock without SimGrid, like its sleeps */
static void lone_burner_fn(struct actor *a, void *arg)
{
	uint64_t *t = arg;

	actor_charge_user(a, 3 * NSEC_PER_MSEC);
	actor_flush_cpu(a);
	*t = engine_clock_ns();
}

START_TEST(test_lone_cpu_moves_the_clock_by_itself)
{
	uint64_t t = 0;

	boot_one_node(4);
	harness_run_actor(lone_burner_fn, &t);
	ck_assert_uint_eq(t, 3 * NSEC_PER_MSEC);
	ck_assert_uint_eq(engine_nr_deferred(), 1);
}
END_TEST

/* ---- checks at quiescent points ---- */

struct check_case {
	int nr_checks;		/* calls of the check */
	int fail_at;		/* the call that fails (0: none) */
	uint64_t last_ns;	/* the time the last call was given */
	int nr_finished;	/* sleepers that reached their end */
};

static int count_check(void *arg, uint64_t now_ns)
{
	struct check_case *c = arg;

	c->last_ns = now_ns;
	return ++c->nr_checks == c->fail_at;
}

/* ten 1 ms sleeps: ten quiescent points */
static void ten_sleeps_fn(struct actor *a, void *arg)
{
	struct check_case *c = arg;

	for (int i = 0; i < 10; i++)
		actor_sleep_ns(a, NSEC_PER_MSEC);
	c->nr_finished++;
}

static void two_sleepers_fn(struct actor *a, void *arg)
{
	actor_create("s1", 0, ten_sleeps_fn, arg, false);
	actor_create("s2", 0, ten_sleeps_fn, arg, false);
	(void)a;
}

/*
 * CPU time then an IO wait (actor_sleep_until_ns) beside a second actor
 * burning CPU: with a core each the waiter wakes at the IO's end; on one
 * shared core its 3 ms of CPU run at half speed beside the other's and end
 * after the IO, at 6 ms. The quiescent points are the same either way.
 */
struct io_wait_case {
	uint64_t woke_ns;	/* when the waiter returned */
	uint64_t burnt_ns;	/* when the burner's CPU was done */
};

static void io_burner_fn(struct actor *a, void *arg)
{
	struct io_wait_case *c = arg;

	actor_charge_user(a, 3 * NSEC_PER_MSEC);
	actor_flush_cpu(a);
	c->burnt_ns = engine_clock_ns();
}

static void io_waiter_fn(struct actor *a, void *arg)
{
	struct io_wait_case *c = arg;

	ck_assert_ptr_nonnull(actor_create("burner", 0, io_burner_fn, c, false));
	actor_charge_sys(a, 3 * NSEC_PER_MSEC);
	actor_sleep_until_ns(a, 4 * NSEC_PER_MSEC);
	c->woke_ns = engine_clock_ns();
}

/* waiter: charge, wait (2 points); burner: flush (1 point) */
#define IO_WAIT_CASE_POINTS 3

START_TEST(test_cpu_then_io_wait_on_own_core)
{
	struct io_wait_case c = { 0 };

	boot_one_node(4);
	harness_run_actor(io_waiter_fn, &c);
	ck_assert_uint_eq(c.woke_ns, 4 * NSEC_PER_MSEC);
	ck_assert_uint_eq(c.burnt_ns, 3 * NSEC_PER_MSEC);
	ck_assert_uint_eq(engine_nr_quiescent(), IO_WAIT_CASE_POINTS);
}
END_TEST

START_TEST(test_cpu_then_io_wait_on_shared_core)
{
	struct io_wait_case c = { 0 };

	boot_one_node(1);
	harness_run_actor(io_waiter_fn, &c);
	ck_assert_uint_eq(c.woke_ns, 6 * NSEC_PER_MSEC);
	ck_assert_uint_eq(c.burnt_ns, 6 * NSEC_PER_MSEC);
	ck_assert_uint_eq(engine_nr_quiescent(), IO_WAIT_CASE_POINTS);
}
END_TEST

/*
 * Processor sharing as executions join and leave. One core: "long" needs
 * 10 ms of CPU from 0, "short" 2 ms from 4 ms: they share the core at half
 * speed until short has its 2 ms, at 8 ms; long has 6 ms by then and ends
 * its last 4 ms alone, at 12 ms (long's first wait, to 10 ms, ends early).
 * Two cores, 3, 6 and 9 ms from 0: each runs at 2/3 of a core until the
 * first is done, at 4.5 ms; the other two have 3 ms then and run alone.
 */
struct share_case {
	uint64_t start_ns[3];	/* when each starts its CPU */
	uint64_t cpu_ns[3];	/* how much */
	uint64_t end_ns[3];	/* when it was done */
};

static void sharer_fn(struct actor *a, void *arg)
{
	struct share_case *c = arg;
	int i = a->name[5] - '0';

	actor_sleep_until_ns(a, c->start_ns[i]);
	actor_charge_user(a, c->cpu_ns[i]);
	actor_flush_cpu(a);
	c->end_ns[i] = engine_clock_ns();
}

static void sharers_fn(struct actor *a, void *arg)
{
	struct share_case *c = arg;
	char name[16];

	(void)a;
	for (int i = 0; i < 3; i++) {
		if (!c->cpu_ns[i])
			continue;
		snprintf(name, sizeof(name), "share%d", i);
		ck_assert_ptr_nonnull(actor_create(name, 0, sharer_fn, c, false));
	}
}

START_TEST(test_cpu_join_slows_and_leave_speeds_up)
{
	struct share_case c = {
		.start_ns = { 0, 4 * NSEC_PER_MSEC },
		.cpu_ns = { 10 * NSEC_PER_MSEC, 2 * NSEC_PER_MSEC },
	};

	boot_one_node(1);
	harness_run_actor(sharers_fn, &c);
	ck_assert_uint_eq(c.end_ns[1], 8 * NSEC_PER_MSEC);
	ck_assert_uint_eq(c.end_ns[0], 12 * NSEC_PER_MSEC);
}
END_TEST

START_TEST(test_cpu_three_share_two_cores)
{
	struct share_case c = {
		.cpu_ns = { 3 * NSEC_PER_MSEC, 6 * NSEC_PER_MSEC, 9 * NSEC_PER_MSEC },
	};

	boot_one_node(2);
	harness_run_actor(sharers_fn, &c);
	ck_assert_uint_eq(c.end_ns[0], 4500 * NSEC_PER_USEC);
	ck_assert_uint_eq(c.end_ns[1], 7500 * NSEC_PER_USEC);
	ck_assert_uint_eq(c.end_ns[2], 10500 * NSEC_PER_USEC);
}
END_TEST

/*
 * Two actors add the first timers at the same instant. Creating the timer
 * actor is a simcall, so the second runs timer_add() before the first's
 * creation returns: one timer actor must serve both.
 */
static void first_timer_cb(void *arg, uint64_t now_ns)
{
	(void)now_ns;
	(*(int *)arg)++;
}

static void first_timer_adder_fn(struct actor *a, void *arg)
{
	timer_add(NSEC_PER_MSEC, first_timer_cb, arg);
	actor_sleep_ns(a, 2 * NSEC_PER_MSEC);
}

static void two_first_timers_fn(struct actor *a, void *arg)
{
	ck_assert_ptr_nonnull(actor_create("adder1", 0, first_timer_adder_fn, arg, false));
	ck_assert_ptr_nonnull(actor_create("adder2", 0, first_timer_adder_fn, arg, false));
	actor_sleep_ns(a, 3 * NSEC_PER_MSEC);
}

START_TEST(test_one_timer_actor_for_racing_first_timers)
{
	static int fired;

	boot_one_node(4);
	harness_run_actor(two_first_timers_fn, &fired);
	ck_assert_int_eq(fired, 2);
	/* the test actor, the two adders and one timer actor */
	ck_assert_uint_eq(engine_nr_actors(), 4);
}
END_TEST

START_TEST(test_check_every_n_quiescent_points)
{
	struct check_case c = { 0 };

	boot_one_node(1);
	engine_set_check(4, count_check, &c);
	harness_run_actor(two_sleepers_fn, &c);
	/* 20 sleeps (the actors' ends hand over no CPU): checks at points 4, 8, ..., 20 */
	ck_assert_uint_eq(engine_nr_quiescent(), 20);
	ck_assert_int_eq(c.nr_checks, 5);
	ck_assert_int_eq(c.nr_finished, 2);
}
END_TEST

START_TEST(test_failed_check_ends_the_run)
{
	struct check_case c = { .fail_at = 2 };

	boot_one_node(1);
	engine_set_check(4, count_check, &c);
	harness_run_actor(two_sleepers_fn, &c);
	/* point 8 is the fourth sleep of each (2 actors, 1 ms apart): at 3 ms */
	ck_assert_int_eq(c.nr_checks, 2);
	ck_assert_uint_eq(c.last_ns, 3 * NSEC_PER_MSEC);
	ck_assert_uint_eq(engine_nr_quiescent(), 8);
	ck_assert_int_eq(c.nr_finished, 0);
	ck_assert_uint_eq(engine_clock_ns(), 3 * NSEC_PER_MSEC);
}
END_TEST

static Suite *core_suite(void)
{
	Suite *s = suite_create("core");
	TCase *tc = tcase_create("rng");

	tcase_add_test(tc, test_rng_same_seed_same_stream);
	tcase_add_test(tc, test_rng_other_name_or_seed_differs);
	tcase_add_test(tc, test_rng_below_in_range_and_uniform);
	suite_add_tcase(s, tc);

	tc = tcase_create("histogram");
	tcase_add_test(tc, test_hist_quantiles);
	tcase_add_test(tc, test_hist_count_range_sums_to_count);
	tcase_add_test(tc, test_hist_small_values_exact_and_merge);
	suite_add_tcase(s, tc);

	/* each takes milliseconds; a hang is a failure, found fast */
	tc = tcase_create("engine");
	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, test_engine_sleeps_add_up);
	tcase_add_test(tc, test_engine_pending_cpu);
	tcase_add_test(tc, test_waitq_timeout);
	tcase_add_test(tc, test_waitq_woken_early);
	tcase_add_test(tc, test_waitq_wake_one_wakes_one);
	tcase_add_test(tc, test_waitq_wake_all_two_timed_waiters);
	tcase_add_test(tc, test_waitq_wake_all_two_untimed_waiters);
	tcase_add_test(tc, test_waitq_wake_all_then_wait_again);
	tcase_add_test(tc, test_sim_mutex_blocks);
	tcase_add_test(tc, test_waitq_wake_while_waiter_flushes_cpu);
	tcase_add_test(tc, test_timers_fire_in_time_then_insertion_order);
	tcase_add_test(tc, test_timer_added_earlier_than_pending_one);
	tcase_add_test(tc, test_cpu_shared_on_one_core);
	tcase_add_test(tc, test_cpu_parallel_on_two_cores);
	tcase_add_test(tc, test_actor_on_other_node_and_run_until);
	tcase_add_test(tc, test_cpu_then_io_wait_on_own_core);
	tcase_add_test(tc, test_cpu_then_io_wait_on_shared_core);
	tcase_add_test(tc, test_cpu_join_slows_and_leave_speeds_up);
	tcase_add_test(tc, test_cpu_three_share_two_cores);
	tcase_add_test(tc, test_one_timer_actor_for_racing_first_timers);
	tcase_add_test(tc, test_check_every_n_quiescent_points);
	tcase_add_test(tc, test_failed_check_ends_the_run);
	tcase_add_test(tc, test_lone_actor_sleeps_without_the_engine);
	tcase_add_test(tc, test_deferred_sleeps_stop_before_another_wakes);
	tcase_add_test(tc, test_no_deferral_past_a_woken_actor);
	tcase_add_test(tc, test_no_deferral_past_an_actor_woken_while_executing);
	tcase_add_test(tc, test_deferred_sleeps_stop_before_a_timer);
	tcase_add_test(tc, test_deferred_sleeps_stop_at_the_run_limit);
	tcase_add_test(tc, test_lone_cpu_moves_the_clock_by_itself);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(core_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
