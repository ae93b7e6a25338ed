/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The engine over SimGrid's S4U C API. Hosts are NUMA nodes; SimGrid runs
 * the actors and orders their sleeps, semaphores and mutexes. CPU time is
 * shared among a host's cores here, as processor sharing (see struct
 * engine_host), and an actor waits for its CPU to be done by sleeping (a
 * SimGrid execution goes through its LMM solver: ycsb-b at 1/16 took 2.2x
 * the CPU with executions as without). A sleep that ends
 * before any other actor could run moves the clock without SimGrid: see
 * actor_defer().
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simgrid/actor.h>
#include <simgrid/cond.h>
#include <simgrid/engine.h>
#include <simgrid/host.h>
#include <simgrid/mutex.h>
#include <simgrid/semaphore.h>

#include "core/engine.h"

struct actor *current_actor;
uint64_t engine_clock_cache_ns = ENGINE_CLOCK_UNKNOWN;

static inline void eng_others_forget(void);

/*
 * Simulated time moves only while every actor is blocked in the engine, so
 * the clock read once after an actor resumes holds until its next engine
 * call: every return from the engine forgets it (engine_clock_ns() reads it
 * again on demand) instead of asking SimGrid once per page.
 */
static inline void engine_resume(struct actor *a)
{
	current_actor = a;
	engine_clock_cache_ns = ENGINE_CLOCK_UNKNOWN;
	eng_others_forget();
}

static void engine_flush_deferred(void);

/*
 * Every SimGrid call may be a simcall, during which other actors run and
 * move current_actor; the caller takes it back when the call returns. Time
 * the caller has moved on by itself (actor_defer) is handed to SimGrid first.
 */
#define SG_CALL(call)                                  \
	do {                                           \
		struct actor *sg_call_self = current_actor; \
		engine_flush_deferred();               \
		call;                                  \
		engine_resume(sg_call_self);           \
	} while (0)

static struct {
	bool initialised;	/* simgrid_init done (once per process) */
	uint64_t seed;		/* run seed */
	struct actor **actors;	/* every actor created, freed at exit */
	uint64_t *wake;		/* each one's wake_ns, by its idx: scanned by others_wake_ns() */
	size_t nr_actors, cap_actors;
	struct waitq *timer_wq;	/* wakes the timer actor */
	struct actor *timer_actor;	/* runs the timer callbacks */
	uint64_t nr_quiescent;	/* blocking calls so far */
	uint64_t check_every;	/* quiescent points between checks (0: none) */
	uint64_t check_left;	/* ... until the next one */
	engine_check_fn check_fn;	/* the check */
	void *check_arg;	/* its argument */
	struct engine_host *hosts;	/* per node, indexed by node id */
	int nr_hosts;
	bool running;		/* inside engine_run() */
	uint64_t until_ns;	/* engine_run()'s limit (0: none) */
	bool deferred;		/* the running actor's clock is ahead of SimGrid's */
	uint64_t others_wake_ns;	/* min wake_ns of the actors not running (valid if known) */
	bool others_known;	/* ... computed since the running actor last resumed */
	uint64_t nr_deferred;	/* blocking calls that moved the clock without SimGrid */
} eng;

/*
 * A blocking call whose end nobody else can see comes before, moves the
 * clock without SimGrid. While one actor runs, every other one is blocked
 * and its wake_ns is a lower bound on when it can run again by itself (the
 * end of its sleep, of its execution, which sharing a core only delays, or
 * of its wait's timeout; 0 where it is runnable or waits for a lock, which
 * the wake of another hands on). If the running actor's sleep ends at t
 * before all of them, before
 * engine_run()'s limit, and before the engine's own timing precision could
 * merge it with any of them (SimGrid ends an action due within 1 ns of an
 * event at that event: the margin of 2 ns), SimGrid would advance to t with
 * nothing else happening on the way: the actor runs on at t at once, and
 * the time goes to SimGrid as one sleep at its next engine call (every
 * SimGrid call hands it over first). Same decisions, same times; a single
 * faulting thread's IO waits cost no context switch each. Executions always
 * go to SimGrid (see actor_flush_cpu).
 */
#define DEFER_MARGIN_NS 2

static inline void eng_others_forget(void)
{
	eng.others_known = false;
}

static inline void actor_set_wake(struct actor *a, uint64_t t)
{
	a->wake_ns = t;
	eng.wake[a->idx] = t;
}

/* the least wake_ns of the others: one pass over a dense array, self set aside */
static uint64_t others_wake_ns(const struct actor *self)
{
	if (!eng.others_known) {
		uint64_t m = UINT64_MAX, *w = eng.wake, keep = w[self->idx];

		w[self->idx] = UINT64_MAX;
		for (size_t i = 0; i < eng.nr_actors; i++)
			m = w[i] < m ? w[i] : m;
		w[self->idx] = keep;
		eng.others_wake_ns = m;
		eng.others_known = true;
	}
	return eng.others_wake_ns;
}

/* The running actor a is done until t: true if it may run on at t at once. */
static bool actor_defer(struct actor *a, uint64_t t)
{
	if (a->untimed || !eng.running || t >= UINT64_MAX - DEFER_MARGIN_NS)
		return false;
	if (eng.until_ns && t + DEFER_MARGIN_NS >= eng.until_ns)
		return false;
	if (t + DEFER_MARGIN_NS >= others_wake_ns(a))
		return false;
	engine_clock_cache_ns = t;
	eng.deferred = true;
	eng.nr_deferred++;
	return true;
}

static double ns_to_s(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* The time the running actor moved on by itself goes to SimGrid. */
static void engine_flush_deferred(void)
{
	struct actor *a = current_actor;
	uint64_t t = engine_clock_cache_ns;

	if (!eng.deferred)
		return;
	eng.deferred = false;
	actor_set_wake(a, t);
	sg_actor_sleep_until(ns_to_s(t));
	engine_resume(a);
}

uint64_t engine_nr_deferred(void)
{
	return eng.nr_deferred;
}

/*
 * CPU time on a host is processor sharing, SimGrid's Cas01 model with every
 * execution bound to one core: while a host runs no more executions than it
 * has cores each runs at one core's speed, else all share its cores equally
 * (cores/n each). Kept as virtual work: `work` is the CPU time each
 * execution in progress has received since work_ns's reference, so an
 * execution that needs ns more from now is done when work reaches work + ns
 * (its cpu_work_end), whatever starts or ends meanwhile, and they end in
 * the order of that. The state moves on lazily (cpu_advance) whenever an
 * actor of the host looks at it.
 */
struct engine_host {
	sg_host_t sg;		/* the engine's host "node<id>" */
	int nr_cores;		/* its cores */
	struct actor **run;	/* executions in progress, the first to end last */
	int nr_run, cap_run;
	double work;		/* CPU ns each of them has received, at work_ns */
	uint64_t work_ns;	/* the time work was brought up to date */
};

static struct engine_host *engine_host(int node)
{
	if (node >= eng.nr_hosts) {
		int nr = node + 1;
		struct engine_host *n = realloc(eng.hosts, (size_t)nr * sizeof(*n));
		char name[32];

		if (!n)
			abort();	/* out of host memory: nothing sensible to do */
		for (int i = eng.nr_hosts; i < nr; i++) {
			snprintf(name, sizeof(name), "node%d", i);
			n[i] = (struct engine_host){ .sg = sg_host_by_name(name) };
			n[i].nr_cores = n[i].sg ? sg_host_core_count(n[i].sg) : 0;
		}
		eng.hosts = n;
		eng.nr_hosts = nr;
	}
	return &eng.hosts[node];
}

/* Nanoseconds (rounded up) for each of nr executions on h to get `work` more CPU ns. */
static uint64_t cpu_ns_for(const struct engine_host *h, int nr, double work)
{
	double ns = nr <= h->nr_cores ? work : work * nr / h->nr_cores;

	ns = ceil(ns);
	return ns > 0 ? (uint64_t)ns : 0;
}

/* The CPU ns each execution on h gets in ns nanoseconds. */
static double cpu_work_in(const struct engine_host *h, uint64_t ns)
{
	return h->nr_run <= h->nr_cores ? (double)ns : (double)ns * h->nr_cores / h->nr_run;
}

/*
 * SimGrid ends what is due within its timing precision (surf/precision,
 * 1e-9 s) of the date it reaches at that date: a sleep until an
 * execution's end may return 1 ns before it, which counts as the end.
 */
#define ENGINE_PRECISION_NS 1

/*
 * The executions on h done by time t leave it, in order; the state moves
 * to the last end. Only that and a start move it, never a look at it, so
 * every end follows from the starts alone, however often actors wake.
 */
static void cpu_advance(struct engine_host *h, uint64_t t)
{
	while (h->nr_run) {
		struct actor *first = h->run[h->nr_run - 1];
		uint64_t end = h->work_ns + cpu_ns_for(h, h->nr_run, first->cpu_work_end - h->work);

		if (end > t + ENGINE_PRECISION_NS)
			break;
		h->work = first->cpu_work_end;
		if (end > h->work_ns)
			h->work_ns = end;
		first->cpu_running = false;
		h->nr_run--;
	}
}

/* a's execution of ns starts on h at t, placed by its end */
static void cpu_start(struct engine_host *h, struct actor *a, uint64_t ns, uint64_t t)
{
	int i;

	cpu_advance(h, t);
	if (t > h->work_ns) {
		if (h->nr_run)
			h->work += cpu_work_in(h, t - h->work_ns);
		h->work_ns = t;
	}
	a->cpu_work_end = h->work + (double)ns;
	if (h->nr_run == h->cap_run) {
		int cap = h->cap_run ? 2 * h->cap_run : 16;
		struct actor **n = realloc(h->run, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* out of host memory: nothing sensible to do */
		h->run = n;
		h->cap_run = cap;
	}
	i = h->nr_run;
	while (i && h->run[i - 1]->cpu_work_end < a->cpu_work_end)
		i--;
	memmove(&h->run[i + 1], &h->run[i], (size_t)(h->nr_run - i) * sizeof(*h->run));
	h->run[i] = a;
	h->nr_run++;
	a->cpu_running = true;
}

/*
 * When a's execution on h ends if no other starts there meanwhile: those
 * that end before it leave one by one, each giving the rest a larger share
 * (the steps cpu_advance() will take). A start meanwhile can only delay it.
 */
static uint64_t cpu_end(const struct engine_host *h, const struct actor *a)
{
	uint64_t t = h->work_ns;
	double work = h->work;

	for (int i = h->nr_run - 1; i >= 0; i--) {
		t += cpu_ns_for(h, i + 1, h->run[i]->cpu_work_end - work);
		work = h->run[i]->cpu_work_end;
		if (h->run[i] == a)
			break;
	}
	return t;
}

size_t engine_nr_actors(void)
{
	return eng.nr_actors;
}

void engine_set_check(uint64_t every, engine_check_fn fn, void *arg)
{
	eng.check_every = fn ? every : 0;
	eng.check_left = eng.check_every;
	eng.check_fn = fn;
	eng.check_arg = arg;
}

uint64_t engine_nr_quiescent(void)
{
	return eng.nr_quiescent;
}

/*
 * Actor a is about to block. A failed check ends the run here: the other
 * actors are killed, then this one (SimGrid unwinds their stacks), and
 * simgrid_run() returns.
 */
static void engine_quiescent(struct actor *a)
{
	eng.nr_quiescent++;
	if (!eng.check_every || --eng.check_left)
		return;
	eng.check_left = eng.check_every;
	if (!eng.check_fn(eng.check_arg, actor_now_ns(a)))
		return;
	eng.check_every = 0;
	engine_flush_deferred();
	sg_actor_kill_all();
	sg_actor_exit();
}

uint64_t engine_clock_read_ns(void)
{
	engine_clock_cache_ns = (uint64_t)llround(simgrid_get_clock() * 1e9);
	return engine_clock_cache_ns;
}

int engine_init(const char *platform_xml, uint64_t seed)
{
	char path[] = "/tmp/mmemu-platform-XXXXXX";
	int fd;
	size_t len = strlen(platform_xml);

	if (!eng.initialised) {
		static char arg0[] = "mmemu";
		static char arg1[] = "--log=root.thresh:critical";
		static char arg2[] = "--cfg=contexts/factory:raw";
		static char arg3[] = "--cfg=contexts/stack-size:256";
		char *argv[] = { arg0, arg1, arg2, arg3, NULL };
		int argc = 4;

		simgrid_init(&argc, argv);
		eng.initialised = true;
	}
	eng.seed = seed;
	engine_clock_cache_ns = ENGINE_CLOCK_UNKNOWN;

	/* SimGrid's C API loads platforms from files only. */
	fd = mkstemp(path);
	if (fd < 0)
		return -errno;
	if (write(fd, platform_xml, len) != (ssize_t)len) {
		close(fd);
		unlink(path);
		return -EIO;
	}
	close(fd);
	simgrid_load_platform(path);
	unlink(path);
	return 0;
}

static void (*sleep_hook)(struct actor *a, bool asleep);

void engine_set_sleep_hook(void (*fn)(struct actor *a, bool asleep))
{
	sleep_hook = fn;
}

static inline void actor_sleep_hook(struct actor *a, bool asleep)
{
	if (sleep_hook && !a->untimed)
		sleep_hook(a, asleep);
}

static void actor_trampoline(int argc, char **argv)
{
	struct actor *a = sg_actor_self_get_data();

	(void)argc;
	(void)argv;
	engine_resume(a);
	a->fn(a, a->arg);
	actor_sleep_hook(a, true);
	actor_flush_cpu(a);
	engine_flush_deferred();
	actor_set_wake(a, UINT64_MAX);
}

struct actor *actor_create(const char *name, int node, actor_fn fn, void *arg,
			   bool daemon)
{
	struct actor *a = calloc(1, sizeof(*a));
	struct engine_host *h;
	sg_actor_t sa;

	/* a name that does not fit is refused, not cut: a cut one could be another's */
	if (!a || strlen(name) >= sizeof(a->name)) {
		free(a);
		return NULL;
	}
	memcpy(a->name, name, strlen(name) + 1);
	a->node = node;
	a->quantum_ns = ACTOR_DEFAULT_QUANTUM_NS;
	a->fn = fn;
	a->arg = arg;
	rng_seed(&a->rng, eng.seed, name);

	if (eng.nr_actors == eng.cap_actors) {
		size_t cap = eng.cap_actors ? 2 * eng.cap_actors : 64;
		struct actor **n = realloc(eng.actors, cap * sizeof(*n));
		uint64_t *w;

		if (n)
			eng.actors = n;
		w = n ? realloc(eng.wake, cap * sizeof(*w)) : NULL;
		if (!w) {
			free(a);
			return NULL;
		}
		eng.wake = w;
		eng.cap_actors = cap;
	}
	a->idx = eng.nr_actors;
	eng.actors[eng.nr_actors++] = a;
	actor_set_wake(a, 0);	/* runnable */

	h = engine_host(node);
	SG_CALL(sa = sg_actor_init(a->name, h->sg));
	SG_CALL(sg_actor_set_data(sa, a));
	SG_CALL(sg_actor_start(sa, actor_trampoline, 0, NULL));
	if (daemon)
		SG_CALL(sg_actor_daemonize(sa));
	a->sg = sa;
	return a;
}

/*
 * a sleeps until t > now: by itself if nobody can tell, else in SimGrid,
 * until t or, when for_ns is not 0, for for_ns from now (t == now + for_ns:
 * the two hand SimGrid different doubles, so each caller keeps its own)
 */
static void actor_sleep_to_by(struct actor *a, uint64_t t, uint64_t for_ns)
{
	if (actor_defer(a, t))
		return;
	engine_flush_deferred();
	actor_set_wake(a, t);
	if (for_ns)
		sg_actor_sleep_for(ns_to_s(for_ns));
	else
		sg_actor_sleep_until(ns_to_s(t));
	engine_resume(a);
}

static void actor_sleep_to(struct actor *a, uint64_t t)
{
	actor_sleep_to_by(a, t, 0);
}

/*
 * a's CPU time ns runs on its host from now, and a sleeps until it is done
 * and t has come (t 0: the CPU alone), the later of the two: one sleep for
 * an IO wait after its submission cost, where the CPU ends first. Where
 * others started on the host meanwhile, the CPU is not done when the sleep
 * ends: a sleeps on until its new end.
 */
static void actor_run_cpu(struct actor *a, uint64_t ns, uint64_t t)
{
	struct engine_host *h = &eng.hosts[a->node];
	bool waited = false;

	cpu_start(h, a, ns, engine_clock_ns());
	while (a->cpu_running) {
		uint64_t end = cpu_end(h, a);

		if (t >= end) {
			end = t;
			waited = true;
		}
		if (end > engine_clock_ns())
			actor_sleep_to(a, end);
		cpu_advance(h, engine_clock_ns());
	}
	if (!waited && t > engine_clock_ns())
		actor_sleep_to(a, t);
}

void actor_flush_cpu(struct actor *a)
{
	uint64_t ns = a->cpu_pending_ns;

	if (!ns)
		return;
	engine_quiescent(a);
	a->cpu_pending_ns = 0;
	if (!a->untimed)
		actor_run_cpu(a, ns, 0);
}

/* Pending CPU, then a sleep until t: both quiescent points, at a's time. */
static void actor_sleep_until(struct actor *a, uint64_t t)
{
	uint64_t ns = a->cpu_pending_ns;

	if (ns)
		engine_quiescent(a);
	engine_quiescent(a);
	a->cpu_pending_ns = 0;
	if (a->untimed)
		return;
	if (ns)
		actor_run_cpu(a, ns, t);
	else if (t > engine_clock_ns())
		actor_sleep_to(a, t);
}

void actor_sleep_until_ns(struct actor *a, uint64_t t)
{
	actor_sleep_hook(a, true);
	actor_sleep_until(a, t);
	actor_sleep_hook(a, false);
}

static void actor_sleep_for(struct actor *a, uint64_t ns);

void actor_sleep_ns(struct actor *a, uint64_t ns)
{
	actor_sleep_hook(a, true);
	actor_sleep_for(a, ns);
	actor_sleep_hook(a, false);
}

static void actor_sleep_for(struct actor *a, uint64_t ns)
{
	actor_flush_cpu(a);
	engine_quiescent(a);
	if (!ns || a->untimed)
		return;
	actor_sleep_to_by(a, engine_clock_ns() + ns, ns);
}

/*
 * Wait queues: a FIFO of actors, each blocked on its own semaphore with a
 * timeout. (SimGrid's condition variables with timeouts were seen to lose
 * mutex ownership when a timeout and a notify met at the same instant.)
 */
struct waitq {
	struct actor *head, *tail;	/* waiters in arrival order */
	int nr_waiters;
};

struct waitq *waitq_create(void)
{
	return calloc(1, sizeof(struct waitq));
}

void waitq_destroy(struct waitq *wq)
{
	free(wq);
}

static void waitq_remove(struct waitq *wq, struct actor *a)
{
	struct actor **pp = &wq->head, *prev = NULL;

	for (; *pp; prev = *pp, pp = &(*pp)->wq_next) {
		if (*pp == a) {
			*pp = a->wq_next;
			if (wq->tail == a)
				wq->tail = prev;
			a->wq_next = NULL;
			wq->nr_waiters--;
			return;
		}
	}
}

static bool waitq_wait_sleep(struct actor *a, struct waitq *wq, uint64_t timeout_ns);

bool waitq_wait(struct actor *a, struct waitq *wq, uint64_t timeout_ns)
{
	bool ret;

	actor_sleep_hook(a, true);
	ret = waitq_wait_sleep(a, wq, timeout_ns);
	actor_sleep_hook(a, false);
	return ret;
}

static bool waitq_wait_sleep(struct actor *a, struct waitq *wq, uint64_t timeout_ns)
{
	int timed_out = 0;

	if (!a->sem)
		SG_CALL(a->sem = sg_sem_init(0));
	a->woken = false;
	a->wq_next = NULL;
	if (wq->tail)
		wq->tail->wq_next = a;
	else
		wq->head = a;
	wq->tail = a;
	wq->nr_waiters++;
	/*
	 * Queued first, then the pending CPU time is handed over: that is a
	 * point where other actors run, and a wake-up meanwhile must find us
	 * on the queue (it leaves the semaphore released for the acquire
	 * below) instead of being lost while the caller's condition, checked
	 * before the call, no longer holds.
	 */
	actor_flush_cpu(a);
	engine_quiescent(a);
	engine_flush_deferred();
	/*
	 * A wake during the execution above left the semaphore released: the
	 * acquire returns at once, but only after the others due now have run,
	 * and they must not take this actor for blocked.
	 */
	if (a->woken)
		actor_set_wake(a, 0);
	else
		actor_set_wake(a, timeout_ns ? engine_clock_ns() + timeout_ns : UINT64_MAX);
	if (timeout_ns)
		timed_out = sg_sem_acquire_timeout(a->sem, ns_to_s(timeout_ns));
	else
		sg_sem_acquire(a->sem);
	engine_resume(a);
	if (timed_out) {
		if (a->woken) {
			/* woken at the instant of the timeout: take the release */
			actor_set_wake(a, 0);
			sg_sem_acquire_timeout(a->sem, 0);
			engine_resume(a);
			return true;
		}
		waitq_remove(wq, a);
		return false;
	}
	return true;
}

/* Wakes the waiters present now: they are taken off first, then released. */
static void waitq_wake(struct waitq *wq, int nr)
{
	struct actor *list = NULL, **tail = &list;

	while (wq->head && nr--) {
		struct actor *a = wq->head;

		wq->head = a->wq_next;
		if (!wq->head)
			wq->tail = NULL;
		a->wq_next = NULL;
		a->woken = true;
		actor_set_wake(a, 0);		/* runnable from now */
		wq->nr_waiters--;
		*tail = a;
		tail = &a->wq_next;
	}
	while (list) {
		struct actor *a = list;

		list = a->wq_next;
		a->wq_next = NULL;
		SG_CALL(sg_sem_release(a->sem));
	}
}

void waitq_wake_all(struct waitq *wq)
{
	waitq_wake(wq, -1);
}

void waitq_wake_one(struct waitq *wq)
{
	waitq_wake(wq, 1);
}

int waitq_nr_waiters(const struct waitq *wq)
{
	return wq->nr_waiters;
}

struct sim_mutex {
	sg_mutex_t m;		/* the engine's mutex */
};

struct sim_mutex *sim_mutex_create(void)
{
	struct sim_mutex *m = calloc(1, sizeof(*m));

	if (m)
		SG_CALL(m->m = sg_mutex_init());
	return m;
}

void sim_mutex_destroy(struct sim_mutex *m)
{
	if (!m)
		return;
	sg_mutex_destroy(m->m);
	free(m);
}

void sim_mutex_lock(struct actor *a, struct sim_mutex *m)
{
	actor_sleep_hook(a, true);
	actor_flush_cpu(a);
	engine_quiescent(a);
	engine_flush_deferred();
	actor_set_wake(a, 0);		/* an unlock may hand it the lock at any time */
	sg_mutex_lock(m->m);
	engine_resume(a);
	actor_sleep_hook(a, false);
}

void sim_mutex_unlock(struct sim_mutex *m)
{
	SG_CALL(sg_mutex_unlock(m->m));
}

/* ---- timers: a binary heap ordered by (when, seq) ---- */

struct timer {
	uint64_t when_ns;	/* fire time */
	uint64_t seq;		/* insertion order, breaks ties */
	timer_fn fn;		/* callback */
	void *arg;		/* its argument */
};

static struct {
	struct timer *heap;
	size_t nr, cap;
	uint64_t seq;
} timers;

static bool timer_before(const struct timer *a, const struct timer *b)
{
	return a->when_ns < b->when_ns ||
	       (a->when_ns == b->when_ns && a->seq < b->seq);
}

static void timer_swap(size_t i, size_t j)
{
	struct timer t = timers.heap[i];

	timers.heap[i] = timers.heap[j];
	timers.heap[j] = t;
}

static void timer_actor_fn(struct actor *self, void *arg)
{
	(void)arg;
	for (;;) {
		uint64_t now = engine_clock_ns();

		while (timers.nr && timers.heap[0].when_ns <= now) {
			struct timer t = timers.heap[0];
			size_t i = 0;

			timers.heap[0] = timers.heap[--timers.nr];
			for (;;) {
				size_t l = 2 * i + 1, r = l + 1, m = i;

				if (l < timers.nr && timer_before(&timers.heap[l], &timers.heap[m]))
					m = l;
				if (r < timers.nr && timer_before(&timers.heap[r], &timers.heap[m]))
					m = r;
				if (m == i)
					break;
				timer_swap(i, m);
				i = m;
			}
			t.fn(t.arg, now);
		}
		if (timers.nr)
			waitq_wait(self, eng.timer_wq, timers.heap[0].when_ns - now);
		else
			waitq_wait(self, eng.timer_wq, 0);
	}
}

void timer_add(uint64_t when_ns, timer_fn fn, void *arg)
{
	size_t i;

	/*
	 * Tested on the queue, set before the creation: creating an actor is a
	 * simcall, so another actor may run timer_add() before it returns, and
	 * it must not make a second timer actor (fuzz seed 13, case 2359).
	 */
	if (!eng.timer_wq) {
		eng.timer_wq = waitq_create();
		eng.timer_actor = actor_create("timer", 0, timer_actor_fn, NULL, true);
	}
	if (timers.nr == timers.cap) {
		size_t cap = timers.cap ? 2 * timers.cap : 256;
		struct timer *n = realloc(timers.heap, cap * sizeof(*n));

		if (!n)
			abort();	/* out of host memory: nothing sensible to do */
		timers.heap = n;
		timers.cap = cap;
	}
	i = timers.nr++;
	timers.heap[i] = (struct timer){ when_ns, timers.seq++, fn, arg };
	while (i && timer_before(&timers.heap[i], &timers.heap[(i - 1) / 2])) {
		timer_swap(i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	if (i == 0)
		waitq_wake_all(eng.timer_wq);
}

size_t timer_pending(void)
{
	return timers.nr;
}

uint64_t engine_run(uint64_t until_ns)
{
	eng.running = true;
	eng.until_ns = until_ns;
	eng.deferred = false;
	if (until_ns)
		simgrid_run_until(ns_to_s(until_ns));
	else
		simgrid_run();
	eng.running = false;
	engine_clock_cache_ns = ENGINE_CLOCK_UNKNOWN;
	return engine_clock_ns();
}

void engine_exit(void)
{
	for (size_t i = 0; i < eng.nr_actors; i++) {
		if (eng.actors[i]->sem)
			sg_sem_destroy(eng.actors[i]->sem);
		free(eng.actors[i]);
	}
	free(eng.actors);
	eng.actors = NULL;
	free(eng.wake);
	eng.wake = NULL;
	eng.nr_actors = eng.cap_actors = 0;
	waitq_destroy(eng.timer_wq);
	eng.timer_wq = NULL;
	eng.timer_actor = NULL;
	engine_set_check(0, NULL, NULL);
	eng.nr_quiescent = 0;
	free(timers.heap);
	memset(&timers, 0, sizeof(timers));
	for (int i = 0; i < eng.nr_hosts; i++)
		free(eng.hosts[i].run);
	free(eng.hosts);
	eng.hosts = NULL;
	eng.nr_hosts = 0;
	eng.nr_deferred = 0;
}
