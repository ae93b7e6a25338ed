/* SPDX-License-Identifier: GPL-2.0-only */
/* Memory pressure stall information (kernel/sched/psi.c); see psi.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/engine.h"
#include "models/mm.h"
#include "models/psi.h"

void psi_group_init(struct psi_group *g, uint64_t now)
{
	*g = (struct psi_group){ .state_start = now, .avg_last_update = now,
				 .avg_next_update = now + PSI_PERIOD_NS };
}

/* record_times(): the state held from state_start to now */
static void record_times(struct psi_group *g, uint64_t now)
{
	uint64_t delta = now - g->state_start;

	for (int s = 0; s < NR_PSI_MEM_STATES; s++)
		if (g->state[s])
			g->total[s] += delta;
	g->state_start = now;
}

unsigned long psi_calc_load(unsigned long load, unsigned long exp, unsigned long active)
{
	unsigned long newload = load * exp + active * (PSI_FIXED_1 - exp);

	if (active >= load)
		newload += PSI_FIXED_1 - 1;
	return newload / PSI_FIXED_1;
}

/* calc_avgs() of a period with no missed ones before it */
static void calc_avgs(unsigned long avg[3], uint64_t time, uint64_t period)
{
	unsigned long pct = (unsigned long)(time * 100 / period) * PSI_FIXED_1;

	avg[0] = psi_calc_load(avg[0], PSI_EXP_10s, pct);
	avg[1] = psi_calc_load(avg[1], PSI_EXP_60s, pct);
	avg[2] = psi_calc_load(avg[2], PSI_EXP_300s, pct);
}

/* update_averages() at the boundary `now` */
static void update_averages(struct psi_group *g, uint64_t now)
{
	uint64_t period = now - g->avg_last_update;

	g->avg_next_update = now + PSI_PERIOD_NS;
	g->avg_last_update = now;
	for (int s = 0; s < NR_PSI_MEM_STATES; s++) {
		uint64_t sample = g->total[s] - g->avg_total[s];

		/* the kernel punts an overage into the next period */
		if (sample > period)
			sample = period;
		g->avg_total[s] += sample;
		calc_avgs(g->avg[s], sample, period);
	}
}

void psi_group_update(struct psi_group *g, uint64_t now)
{
	if (now < g->state_start)
		now = g->state_start;	/* monotonic per group: see psi.h */
	while (g->avg_next_update <= now) {
		record_times(g, g->avg_next_update);
		update_averages(g, g->avg_next_update);
	}
	record_times(g, now);
}

double psi_avg_pct(unsigned long avg)
{
	/* LOAD_INT(), LOAD_FRAC(): what the file shows */
	unsigned long i = avg >> PSI_FSHIFT;
	unsigned long f = ((avg & (PSI_FIXED_1 - 1)) * 100) >> PSI_FSHIFT;

	return (double)i + (double)f / 100.0;
}

uint64_t psi_total_us(const struct psi_group *g, enum psi_mem_state s)
{
	return g->total[s] / NSEC_PER_USEC;
}

int psi_group_show(struct psi_group *g, uint64_t now, char *buf, size_t len)
{
	static const char *const name[NR_PSI_MEM_STATES] = { "some", "full" };
	size_t off = 0;

	psi_group_update(g, now);
	for (int s = 0; s < NR_PSI_MEM_STATES; s++) {
		int n = snprintf(buf + off, len - off,
				 "%s avg10=%.2f avg60=%.2f avg300=%.2f total=%" PRIu64 "\n",
				 name[s], psi_avg_pct(g->avg[s][0]), psi_avg_pct(g->avg[s][1]),
				 psi_avg_pct(g->avg[s][2]), psi_total_us(g, s));

		if (n < 0 || (size_t)n >= len - off)
			return -1;
		off += (size_t)n;
	}
	return 0;
}

/* psi_group_change(): one task's flags go from `clear` to `set` at now */
static void psi_group_change(struct psi_group *g, unsigned int old, unsigned int new,
			     uint64_t now)
{
	psi_group_update(g, now);
	if (old & TSK_RUNNING)
		g->nr_running--;
	if (old & TSK_MEMSTALL)
		g->nr_memstall--;
	if ((old & (TSK_RUNNING | TSK_MEMSTALL)) == (TSK_RUNNING | TSK_MEMSTALL))
		g->nr_memstall_running--;
	if (new & TSK_RUNNING)
		g->nr_running++;
	if (new & TSK_MEMSTALL)
		g->nr_memstall++;
	if ((new & (TSK_RUNNING | TSK_MEMSTALL)) == (TSK_RUNNING | TSK_MEMSTALL))
		g->nr_memstall_running++;
	/* test_state() */
	g->state[PSI_MEM_SOME] = g->nr_memstall > 0;
	g->state[PSI_MEM_FULL] = g->nr_memstall > 0 &&
				 g->nr_running == g->nr_memstall_running;
}

/*
 * The memcg whose group (and ancestors') the actor counts in: its task's,
 * root for kswapd, none for other actors. Fixed at its first change, so
 * that the counts it added leave from where they went (a task's memcg
 * never changes here; the task itself may be freed before its actor ends).
 */
static struct mem_cgroup *psi_task_memcg(struct actor *a)
{
	if (!(a->psi_flags & PSI_TRACKED)) {
		const struct task *t = a->task;
		struct mem_cgroup *memcg = t ? t->memcg : a->is_kswapd ? mm.root_mem_cgroup : NULL;

		if (!memcg)
			return NULL;
		a->psi_memcg = memcg;
		/* an actor reports its own changes: it is running now */
		a->psi_flags = PSI_TRACKED | TSK_RUNNING;
		for (struct mem_cgroup *m = memcg; m; m = m->parent)
			psi_group_change(&m->psi, 0, TSK_RUNNING, actor_now_ns(a));
	}
	return a->psi_memcg;
}

/* psi_task_change() */
static void psi_task_change(struct actor *a, unsigned int clear, unsigned int set)
{
	struct mem_cgroup *memcg = psi_task_memcg(a);
	unsigned int old = a->psi_flags, new = (old & ~clear) | set;
	uint64_t now;

	if (!memcg || old == new)
		return;
	now = actor_now_ns(a);
	a->psi_flags = (uint8_t)new;
	for (struct mem_cgroup *m = memcg; m; m = m->parent)
		psi_group_change(&m->psi, old, new, now);
}

void psi_memstall_enter(struct actor *a, unsigned long *flags)
{
	/* PF_MEMSTALL: nested (no actor: nothing to account) */
	*flags = !a || (a->psi_flags & TSK_MEMSTALL);
	if (*flags)
		return;
	psi_task_change(a, 0, TSK_MEMSTALL);
}

void psi_memstall_leave(struct actor *a, unsigned long *flags)
{
	if (*flags)
		return;
	psi_task_change(a, TSK_MEMSTALL, 0);
}

void psi_actor_sleep(struct actor *a, bool asleep)
{
	if (asleep)
		psi_task_change(a, TSK_RUNNING, 0);
	else
		psi_task_change(a, 0, TSK_RUNNING);
}

/* ---- triggers ---- */

int psi_trigger_parse(const char *buf, enum psi_mem_state *state, uint64_t *threshold_us,
		      uint64_t *window_us, const char **why)
{
	static const char *const names[NR_PSI_MEM_STATES] = { "some", "full" };
	unsigned long long th, win;
	const char *why_dummy;
	int s, n = 0;

	if (!why)
		why = &why_dummy;
	for (s = 0; s < NR_PSI_MEM_STATES; s++) {
		char fmt[24];

		/* "some %u %u" and "full %u %u", whole (%n: nothing may follow) */
		snprintf(fmt, sizeof(fmt), "%s %%llu %%llu%%n", names[s]);
		n = 0;
		if (sscanf(buf, fmt, &th, &win, &n) == 2 && n > 0)
			break;
	}
	if (s == NR_PSI_MEM_STATES || buf[n] || strchr(buf, '-')) {
		*why = "expected \"some|full THRESHOLD_US WINDOW_US\"";
		return -EINVAL;
	}
	if (win < PSI_WINDOW_MIN_US || win > PSI_WINDOW_MAX_US) {
		*why = "the window must be 500000 to 10000000 us (WINDOW_MIN_US..WINDOW_MAX_US)";
		return -EINVAL;
	}
	if (th == 0 || th > win) {
		*why = "the threshold must be 1 us to the window";
		return -EINVAL;
	}
	*state = (enum psi_mem_state)s;
	*threshold_us = th;
	*window_us = win;
	return 0;
}

/* window_reset() */
static void window_reset(struct psi_window *win, uint64_t now, uint64_t value,
			 uint64_t prev_growth)
{
	win->start_time = now;
	win->start_value = value;
	win->prev_growth = prev_growth;
}

/*
 * window_update(): the growth within the window ending now. Past a whole
 * window, a new one starts and the last one's growth becomes prev_growth;
 * within it, the previous window's growth counts pro rata for the part
 * not yet elapsed, as if it had been linear.
 */
static uint64_t window_update(struct psi_window *win, uint64_t now, uint64_t value)
{
	uint64_t elapsed = now - win->start_time;
	uint64_t growth = value - win->start_value;

	if (elapsed > win->size)
		window_reset(win, now, value, growth);
	else
		growth += win->prev_growth * (win->size - elapsed) / win->size;
	return growth;
}

void psi_trigger_init(struct psi_trigger *t, enum psi_mem_state state, uint64_t threshold_us,
		      uint64_t window_us, uint64_t now, uint64_t total)
{
	memset(t, 0, sizeof(*t));
	t->state = state;
	t->threshold = threshold_us * NSEC_PER_USEC;
	t->win.size = window_us * NSEC_PER_USEC;
	window_reset(&t->win, now, total, 0);
	t->last_total = total;
}

bool psi_trigger_update(struct psi_trigger *t, uint64_t now, uint64_t total)
{
	bool new_stall = total != t->last_total;

	t->last_total = total;
	/* neither new stall nor an earlier breach to signal */
	if (!new_stall && !t->pending_event)
		return false;
	if (new_stall) {
		uint64_t growth = window_update(&t->win, now, total);

		if (!t->pending_event) {
			if (growth < t->threshold)
				return false;
			t->pending_event = true;
		}
	}
	/* at most one event per window */
	if (t->nr_events && now < t->last_event_time + t->win.size)
		return false;
	t->event = true;
	t->nr_events++;
	t->last_event_time = now;
	t->pending_event = false;
	return true;
}

/* The rtpoll worker of one trigger: a sample every window / UPDATES_PER_WINDOW. */
static void psi_rtpoll_timer(void *arg, uint64_t now)
{
	struct psi_trigger *t = arg;

	if (t->dead) {
		waitq_destroy(t->wq);
		free(t);
		return;
	}
	psi_group_update(t->group, now);
	if (psi_trigger_update(t, now, t->group->total[t->state]))
		waitq_wake_all(t->wq);
	timer_add(now + t->win.size / PSI_UPDATES_PER_WINDOW, psi_rtpoll_timer, t);
}

int psi_trigger_create(struct psi_group *g, const char *buf, uint64_t now,
		       struct psi_trigger **out, const char **why)
{
	enum psi_mem_state state;
	uint64_t th, win;
	struct psi_trigger *t;
	int err = psi_trigger_parse(buf, &state, &th, &win, why);

	if (err)
		return err;
	t = malloc(sizeof(*t));
	if (!t)
		return -ENOMEM;
	psi_group_update(g, now);
	psi_trigger_init(t, state, th, win, now, g->total[state]);
	t->group = g;
	t->wq = waitq_create();
	if (!t->wq) {
		free(t);
		return -ENOMEM;
	}
	t->next = g->triggers;
	g->triggers = t;
	timer_add(now + t->win.size / PSI_UPDATES_PER_WINDOW, psi_rtpoll_timer, t);
	*out = t;
	return 0;
}

bool psi_trigger_wait(struct actor *a, struct psi_trigger *t, uint64_t timeout_ns)
{
	/* psi_trigger_poll(): an event not yet taken is there at once */
	if (!t->event)
		waitq_wait(a, t->wq, timeout_ns);
	if (!t->event)
		return false;
	t->event = false;
	return true;
}

void psi_trigger_destroy(struct psi_trigger *t)
{
	struct psi_trigger **pp;

	for (pp = &t->group->triggers; *pp && *pp != t; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = t->next;
	t->dead = true;
	waitq_wake_all(t->wq);
}
