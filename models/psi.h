/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Pressure stall information for memory, as kernel/sched/psi.c accounts it
 * (include/linux/psi.h, psi_types.h): a task is in a memory stall between
 * psi_memstall_enter() and psi_memstall_leave(); a group is in "some"
 * while at least one of its tasks is stalled and in "full" while, in
 * addition, none of its running tasks is doing anything but stall
 * (test_state(): NR_MEMSTALL && NR_RUNNING == NR_MEMSTALL_RUNNING). A
 * task counts in its memcg and in every ancestor; the root's group is the
 * machine's (psi_system, /proc/pressure/memory).
 *
 * What differs from the kernel, and why:
 * - The kernel keeps the state per CPU and weights each CPU's some/full
 *   time by its non-idle time (collect_percpu_times()). mmemu's actors
 *   have no CPU of their own, so a group has one state: its some/full are
 *   those the kernel reports on a machine with a single CPU. On N busy
 *   CPUs with one task stalled, the kernel's some is about 1/N of this.
 * - A task is running (TSK_RUNNING) except while it sleeps in the engine
 *   (an IO wait, a wait queue, a timed sleep); a sleep starts at the time
 *   the actor's pending CPU would end unshared, so time spent waiting for
 *   a shared core counts as asleep, not running.
 * - A task counts from its first engine call (a sleep) or stall after its
 *   actor took the task: workloads set it in the actor's body, where the
 *   engine cannot see it.
 * - Only actors that run for a task, and kswapd (root), are tasks here:
 *   flushers and other kernel workers are not counted (in the kernel they
 *   are root's tasks and, while running, keep the machine out of "full").
 * - Group time is kept monotonic: an actor that runs ahead of the engine
 *   by its pending CPU (at most a quantum) may report a change that
 *   another actor's later change precedes; the later is taken as at the
 *   earlier's time.
 * - The averages are updated at every PSI_FREQ boundary since the group's
 *   creation, with the period's exact sample (the kernel's worker runs
 *   late and stops while the group is idle, then catches up with
 *   calc_load_n(); its figures round a little differently).
 */
#ifndef MMEMU_MODELS_PSI_H
#define MMEMU_MODELS_PSI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct actor;
struct psi_trigger;

/* enum psi_states, memory only */
enum psi_mem_state {
	PSI_MEM_SOME,
	PSI_MEM_FULL,
	NR_PSI_MEM_STATES
};

/* per task (struct actor's psi_flags), include/linux/psi_types.h */
#define TSK_RUNNING (1U << 2)	/* the kernel's TSK_RUNNING: on a CPU or runnable */
#define TSK_MEMSTALL (1U << 1)	/* between psi_memstall_enter() and _leave() */
#define PSI_TRACKED (1U << 7)	/* mmemu: counted in a group (psi_memcg set) */

struct psi_group {
	unsigned int nr_running;		/* tasks[NR_RUNNING] */
	unsigned int nr_memstall;		/* tasks[NR_MEMSTALL] */
	unsigned int nr_memstall_running;	/* tasks[NR_MEMSTALL_RUNNING] */
	bool state[NR_PSI_MEM_STATES];		/* in some / full now */
	uint64_t state_start;			/* ns: the state holds since */
	uint64_t total[NR_PSI_MEM_STATES];	/* ns spent in each state (total[PSI_AVGS]) */
	uint64_t avg_total[NR_PSI_MEM_STATES];	/* ... folded into the averages */
	unsigned long avg[NR_PSI_MEM_STATES][3];	/* avg10, avg60, avg300, FIXED_1 = 100% / 100 */
	uint64_t avg_next_update;		/* ns: the next PSI_FREQ boundary */
	uint64_t avg_last_update;		/* ns: the last one */
	struct psi_trigger *triggers;		/* rtpoll_triggers: the group's triggers */
};

/* FSHIFT and FIXED_1 (include/linux/sched/loadavg.h) */
#define PSI_FSHIFT 11
#define PSI_FIXED_1 (1UL << PSI_FSHIFT)
/*
 * PSI_FREQ = 2*HZ+1 jiffies (kernel/sched/psi.c) at HZ=250 (Debian's
 * CONFIG_HZ_250, as BDP_JIFFY_NS): psi_period = 501 jiffies of 4 ms
 */
#define PSI_PERIOD_NS (501ULL * 4000000ULL)
/* kernel/sched/psi.c: 1/exp(2s/10s), 1/exp(2s/60s), 1/exp(2s/300s) as fixed point */
#define PSI_EXP_10s 1677
#define PSI_EXP_60s 1981
#define PSI_EXP_300s 2034

/* A group created at `now` (group_init(): avg_next_update = now + psi_period). */
void psi_group_init(struct psi_group *g, uint64_t now);
/* Brings totals and averages up to `now` (collect_percpu_times + update_averages). */
void psi_group_update(struct psi_group *g, uint64_t now);
/*
 * The group's memory.pressure text at `now`, the kernel's format (psi_show):
 * "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull ...\n".
 */
int psi_group_show(struct psi_group *g, uint64_t now, char *buf, size_t len);
/* avg in percent (LOAD_INT.LOAD_FRAC, two decimals as shown), total in us */
double psi_avg_pct(unsigned long avg);
uint64_t psi_total_us(const struct psi_group *g, enum psi_mem_state s);

/* calc_load() (include/linux/sched/loadavg.h), for the tests */
unsigned long psi_calc_load(unsigned long load, unsigned long exp, unsigned long active);

/*
 * psi_memstall_enter()/_leave() for the task `a` runs for: *flags saves
 * whether it already was in a stall (nested sections count once).
 */
void psi_memstall_enter(struct actor *a, unsigned long *flags);
void psi_memstall_leave(struct actor *a, unsigned long *flags);
/* The engine's sleep hook: a starts (asleep) or ends a sleep. */
void psi_actor_sleep(struct actor *a, bool asleep);

/*
 * Triggers (psi_trigger_create(), update_triggers(), window_update() in
 * kernel/sched/psi.c; Documentation/accounting/psi.rst): a waiter asks to
 * be told when the group's some or full stall time grows by more than
 * THRESHOLD_US within any WINDOW_US, by writing "some|full THRESHOLD_US
 * WINDOW_US" to memory.pressure and polling the file. Growth within the
 * window is the stall since the window started plus the previous window's
 * growth, pro rata for the part of the window not yet elapsed (the kernel
 * assumes it was linear). An event is signalled at most once per window;
 * a breach within the window after an event is kept pending and signalled
 * once the window since that event has passed.
 *
 * What differs from the kernel, and why:
 * - The kernel's rtpoll worker samples the group every window / 10 while
 *   there was stall activity within the last window, and sleeps
 *   otherwise; here a trigger's own timer samples every window / 10 for as
 *   long as the trigger exists. With no new stall update_triggers() does
 *   nothing but signal a pending event, so the events are the same except
 *   that a pending event after a quiet window is signalled at the next
 *   sample instead of at the next stall.
 * - The input is checked strictly: the kernel's sscanf() ignores what
 *   follows the two numbers; here trailing text is an error.
 */
#define PSI_WINDOW_MIN_US 500000ULL	/* WINDOW_MIN_US: 500 ms */
#define PSI_WINDOW_MAX_US 10000000ULL	/* WINDOW_MAX_US: 10 s */
#define PSI_UPDATES_PER_WINDOW 10	/* UPDATES_PER_WINDOW: samples per window */

struct psi_window {
	uint64_t size;		/* ns */
	uint64_t start_time;	/* ns: the window's start */
	uint64_t start_value;	/* the stall total (ns) then */
	uint64_t prev_growth;	/* growth (ns) over the previous window */
};

struct psi_trigger {
	enum psi_mem_state state;	/* some or full */
	uint64_t threshold;		/* ns of stall growth within the window */
	struct psi_window win;
	uint64_t last_total;		/* rtpoll_total: the total at the last sample */
	uint64_t last_event_time;	/* ns: when the last event was signalled */
	bool pending_event;		/* a breach not yet signalled (rate limit) */
	bool event;			/* signalled, not yet taken by a waiter (t->event) */
	uint64_t nr_events;		/* events signalled so far */
	/* engine glue (psi_trigger_create() below) */
	struct psi_group *group;
	struct waitq *wq;		/* event_wait: the pollers */
	bool dead;			/* destroyed: its timer frees it */
	struct psi_trigger *next;	/* in group->triggers */
};

/*
 * Parses "some|full THRESHOLD_US WINDOW_US" as psi_trigger_create() does:
 * 0, or -EINVAL when the text is not of that form, the window is outside
 * PSI_WINDOW_MIN_US..PSI_WINDOW_MAX_US, or the threshold is 0 or longer
 * than the window. why (may be NULL) says which.
 */
int psi_trigger_parse(const char *buf, enum psi_mem_state *state, uint64_t *threshold_us,
		      uint64_t *window_us, const char **why);
/* A trigger's decision state at now with the group's stall total then (window_reset()). */
void psi_trigger_init(struct psi_trigger *t, enum psi_mem_state state, uint64_t threshold_us,
		      uint64_t window_us, uint64_t now, uint64_t total);
/*
 * update_triggers() for one trigger: the group's total of t's state is
 * `total` (ns) at `now`. True when an event is signalled now (t->event set).
 */
bool psi_trigger_update(struct psi_trigger *t, uint64_t now, uint64_t total);

/*
 * A trigger on group g from `now` on, sampled by a timer every window /
 * PSI_UPDATES_PER_WINDOW: 0 and *out, or -EINVAL (psi_trigger_parse()),
 * or -ENOMEM.
 */
int psi_trigger_create(struct psi_group *g, const char *buf, uint64_t now,
		       struct psi_trigger **out, const char **why);
/*
 * psi_trigger_poll() and a wait on it: true when an event was signalled
 * (taken now: the next wait waits for the next), false when timeout_ns
 * (0: none) passed first.
 */
bool psi_trigger_wait(struct actor *a, struct psi_trigger *t, uint64_t timeout_ns);
/* psi_trigger_destroy(): no more events; freed by its timer. */
void psi_trigger_destroy(struct psi_trigger *t);

#endif
