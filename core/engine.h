/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The event engine: simulated clock, actors (simulated threads), CPU time
 * accounting, wait queues, timers. A thin layer over SimGrid's C API; no
 * other folder includes SimGrid headers.
 *
 * An actor accumulates CPU cost in nanoseconds without entering the engine
 * and hands it over only at a blocking point or when a quantum has run out
 * (actor_cond_resched), so the per-page hit path stays plain C.
 */
#ifndef MMEMU_CORE_ENGINE_H
#define MMEMU_CORE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/rng.h"

#define NSEC_PER_USEC 1000ULL
#define NSEC_PER_MSEC 1000000ULL
#define NSEC_PER_SEC 1000000000ULL

/* Default CPU quantum handed to the engine at once: 100 us simulated. */
#define ACTOR_DEFAULT_QUANTUM_NS (100 * NSEC_PER_USEC)

struct actor;
typedef void (*actor_fn)(struct actor *self, void *arg);

struct actor {
	char name[96];		/* unique name; seeds the random stream (never cut: see actor_create) */
	int node;		/* NUMA node whose host runs the actor */
	uint64_t cpu_pending_ns;	/* CPU cost not yet handed to the engine */
	uint64_t utime_ns;	/* user CPU charged so far */
	uint64_t stime_ns;	/* kernel (sys) CPU charged so far */
	uint64_t quantum_ns;	/* hand CPU to the engine once pending >= this */
	struct rng rng;		/* deterministic per-actor random stream */
	actor_fn fn;		/* body */
	void *arg;		/* body argument */
	void *sg;		/* the engine's actor handle */
	bool is_kswapd;		/* current_is_kswapd() */
	void *sem;		/* the engine's semaphore this actor waits on */
	struct actor *wq_next;	/* next waiter on the wait queue it sleeps on */
	bool woken;		/* taken off a wait queue by a waker */
	void *task;		/* the models/ task this actor runs for, if any */
	uint8_t psi_flags;	/* models/psi.c: the task's psi state (TSK_* bits) */
	void *psi_memcg;	/* models/psi.c: the memcg it counts in */
	bool untimed;		/* its CPU and sleeps are dropped: time does not pass for it
				 * (a miss-ratio-only replay, bench --trace --no-timing) */
	double cpu_work_end;	/* its host's work at which its CPU is done (engine.c) */
	bool cpu_running;	/* its CPU time runs (engine.c: struct engine_host) */
	uint64_t wake_ns;	/* while not running: the earliest time it can run again
				 * unless another actor wakes it (0: now; UINT64_MAX:
				 * only another can); see actor_defer() */
	size_t idx;		/* its place in the engine's tables (engine.c) */
};

/* The actor whose code is running now, like the kernel's `current`. */
extern struct actor *current_actor;

/* Engine setup: platform XML text (made by numa/), run seed. 0 or -errno. */
int engine_init(const char *platform_xml, uint64_t seed);
/* Runs until every non-daemon actor has finished or until `until_ns` (0 = no
 * limit). Returns the final simulated time in ns. */
uint64_t engine_run(uint64_t until_ns);
/* Frees the actors; the SimGrid engine itself lives until process exit. */
void engine_exit(void);

/*
 * A check at the engine's quiescent points. An actor about to block (hand
 * its CPU time over, sleep, wait, take a lock) is where every other actor
 * sits blocked too, so what it sees there is what any actor can see: every
 * `every` such points, fn(arg, the actor's time) runs there. fn returns
 * nonzero to end the run at once: every actor is stopped and engine_run()
 * returns. fn must not call the engine. every 0 (or fn NULL): no checks.
 */
typedef int (*engine_check_fn)(void *arg, uint64_t now_ns);
void engine_set_check(uint64_t every, engine_check_fn fn, void *arg);
/* Quiescent points passed so far (blocking calls of every actor). */
uint64_t engine_nr_quiescent(void);

/* Simulated clock as seen by the engine (excludes pending CPU). */
#define ENGINE_CLOCK_UNKNOWN UINT64_MAX
extern uint64_t engine_clock_cache_ns;	/* valid until the engine is next called */
uint64_t engine_clock_read_ns(void);
static inline uint64_t engine_clock_ns(void)
{
	uint64_t t = engine_clock_cache_ns;

	return t != ENGINE_CLOCK_UNKNOWN ? t : engine_clock_read_ns();
}

struct actor *actor_create(const char *name, int node, actor_fn fn, void *arg,
			   bool daemon);
/* Actors created since engine_init(), the lazily made timer actor included. */
size_t engine_nr_actors(void);
/* Sleeps (CPU waits included) that moved the clock without SimGrid (actor_defer()). */
uint64_t engine_nr_deferred(void);

/* Local time of an actor: the engine clock plus its pending CPU. */
static inline uint64_t actor_now_ns(const struct actor *a)
{
	return engine_clock_ns() + a->cpu_pending_ns;
}

static inline void actor_charge_user(struct actor *a, uint64_t ns)
{
	a->cpu_pending_ns += ns;
	a->utime_ns += ns;
}

static inline void actor_charge_sys(struct actor *a, uint64_t ns)
{
	a->cpu_pending_ns += ns;
	a->stime_ns += ns;
}

/* Runs the pending CPU: the actor shares its node's cores with the others there. */
void actor_flush_cpu(struct actor *a);

/* cond_resched(): gives the engine the CPU once a quantum has accumulated. */
static inline void actor_cond_resched(struct actor *a)
{
	if (a->cpu_pending_ns >= a->quantum_ns)
		actor_flush_cpu(a);
}

/*
 * Told when an actor starts (asleep) and ends a sleep in the engine: a
 * timed sleep, a wait queue, a mutex, and its end (asleep for good), at
 * actor_now_ns(). Untimed actors are not told. NULL: nobody listens.
 */
void engine_set_sleep_hook(void (*fn)(struct actor *a, bool asleep));

/* Blocks until simulated time t (after running the pending CPU). */
void actor_sleep_until_ns(struct actor *a, uint64_t t);
void actor_sleep_ns(struct actor *a, uint64_t ns);

/* A wait queue: wait with a timeout, woken by another actor. */
struct waitq;
struct waitq *waitq_create(void);
void waitq_destroy(struct waitq *wq);
/* Returns true when woken, false on timeout (timeout_ns 0 = none). */
bool waitq_wait(struct actor *a, struct waitq *wq, uint64_t timeout_ns);
void waitq_wake_all(struct waitq *wq);
void waitq_wake_one(struct waitq *wq);
int waitq_nr_waiters(const struct waitq *wq);

/* A sleeping lock for contention where it matters. */
struct sim_mutex;
struct sim_mutex *sim_mutex_create(void);
void sim_mutex_destroy(struct sim_mutex *m);
void sim_mutex_lock(struct actor *a, struct sim_mutex *m);
void sim_mutex_unlock(struct sim_mutex *m);

/*
 * Timers: callback at a simulated time, run by the engine's timer actor.
 * Timers at the same time fire in the order they were added.
 */
typedef void (*timer_fn)(void *arg, uint64_t now_ns);
void timer_add(uint64_t when_ns, timer_fn fn, void *arg);
/* Timers pending (for tests and end-of-run checks). */
size_t timer_pending(void);

#endif
