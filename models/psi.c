/* SPDX-License-Identifier: GPL-2.0-only */
/* Memory pressure stall information (kernel/sched/psi.c); see psi.h. */
#include <inttypes.h>
#include <stdio.h>

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
