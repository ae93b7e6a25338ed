/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * psi-agent: a userland proactive-reclaim agent in the shape of senpai
 * (facebookincubator/senpai, senpai.py): every `interval` it reads the
 * target memcg's memory.pressure and, while the stall is under its
 * `pressure` target, asks memory.reclaim for a step of memory.current;
 * when the pressure is at or over the target, or its PSI `trigger` fired
 * since the last interval, it backs off: no write that interval.
 *
 * senpai's tick compares the growth of the some total over the interval
 * with a target of 10 ms and sets memory.high (scale_limit()); this one
 * reads `some avg10` and writes memory.reclaim, as current proactive
 * reclaimers do (memory.reclaim, 5.19). The step is senpai's probe:
 * min(((target / pressure) / coeff_probe)^2, 1) * step of memory.current,
 * the largest (step) when the pressure is a tenth (1 / coeff_probe) of the
 * target or less; avg10 is read with the file's two decimals, so a
 * pressure of 0.00 counts as 0.01 (senpai's max(integral, 1)). It does not
 * reclaim below `min_size` (senpai's --min-size). With enable = no it only
 * reads the pressure: the same run without the agent's writes.
 *
 * The interval, the target and the trigger's window are not scaled by
 * --scale: PSI's averages (avg10: 10 s) do not shrink with the machine.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/mm.h"
#include "models/psi.h"
#include "scenarios/wl_psi_agent.h"
#include "scenarios/workload.h"


struct psi_agent {
	struct mem_cgroup *target;
	struct psi_trigger *trig;	/* NULL: none */
	uint64_t nr_ticks;		/* pressure reads */
	uint64_t nr_writes;		/* memory.reclaim writes */
	uint64_t nr_backoffs;		/* intervals with no write for pressure or a trigger */
	uint64_t nr_trigger_events;	/* trigger events it woke for */
	uint64_t requested, reclaimed;	/* pages asked of memory.reclaim, and freed */
	double pressure_sum, pressure_max;	/* some avg10 at the reads */
	uint64_t first_tick_ns;
	struct actor *actor;
};

/* senpai's probe: the fraction of memory.current to reclaim at pressure p */
static double probe_fraction(const struct psi_agent_params *p, double pct)
{
	/* the file's resolution: 0.00 reads as under 0.01 */
	double err = p->pressure / fmax(pct, 0.01);
	double adj = (err / p->coeff_probe) * (err / p->coeff_probe);

	return fmin(adj, 1.0) * p->step;
}

static void psi_agent_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;
	const struct psi_agent_params *p = w->cfg->params;
	struct psi_agent *ag = w->priv;
	uint64_t next;
	bool backoff = false;

	a->task = w->task;
	if (w->cfg->start_ns)
		actor_sleep_ns(a, w->cfg->start_ns);
	w->start_ns = actor_now_ns(a);
	if (strcmp(p->trigger, "none")) {
		const char *why;

		if (psi_trigger_create(&ag->target->psi, p->trigger, actor_now_ns(a), &ag->trig,
				       &why))
			return;	/* checked when the file was read: only -ENOMEM */
	}
	next = actor_now_ns(a) + p->interval_ns;
	for (;;) {
		struct psi_group *g = &ag->target->psi;
		uint64_t now = actor_now_ns(a);
		double pct;

		if (now < next) {
			if (!ag->trig) {
				actor_sleep_until_ns(a, next);
			} else if (psi_trigger_wait(a, ag->trig, next - now)) {
				ag->nr_trigger_events++;
				backoff = true;
			}
			continue;
		}
		next += p->interval_ns;
		psi_group_update(g, now);
		pct = psi_avg_pct(g->avg[PSI_MEM_SOME][0]);
		if (!ag->nr_ticks++)
			ag->first_tick_ns = now;
		ag->pressure_sum += pct;
		ag->pressure_max = fmax(ag->pressure_max, pct);
		if (pct >= p->pressure || backoff) {
			ag->nr_backoffs++;
			backoff = false;
			continue;
		}
		if (p->enable) {
			uint64_t usage = ag->target->usage, floor = p->min_size / 4096;
			uint64_t nr = (uint64_t)((double)usage * probe_fraction(p, pct));
			uint64_t got = 0;

			if (usage <= floor)
				continue;
			if (nr > usage - floor)
				nr = usage - floor;
			if (!nr)
				continue;
			memory_reclaim(ag->target, nr, -1, a, &got);
			actor_flush_cpu(a);
			ag->nr_writes++;
			ag->requested += nr;
			ag->reclaimed += got;
			w->ops_done++;
		}
	}
}

static int psi_agent_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			   uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	const struct psi_agent_params *p = c->params;
	struct psi_agent *ag = calloc(1, sizeof(*ag));

	(void)memcg;
	(void)bdev;
	(void)bdev_start;
	if (!ag)
		return -ENOMEM;
	w->priv = ag;
	ag->target = strcmp(p->target, "root") ? mem_cgroup_find(p->target) : mm.root_mem_cgroup;
	if (!ag->target)
		return -ENOENT;
	ag->actor = actor_create(c->name, c->node, psi_agent_thread, w, true);
	return ag->actor ? 0 : -ENOMEM;
}

static void psi_agent_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct psi_agent *ag = w->priv;

	(void)end_ns;
	result_add_u64(g, "ticks", ag->nr_ticks);
	result_add_u64(g, "writes", ag->nr_writes);
	result_add_u64(g, "backoffs", ag->nr_backoffs);
	result_add_u64(g, "trigger_events", ag->nr_trigger_events);
	result_add_u64(g, "requested_pages", ag->requested);
	result_add_u64(g, "reclaimed_pages", ag->reclaimed);
	/* some avg10 of the target as the agent read it, mean and largest */
	result_add(g, "pressure_mean", ag->nr_ticks ? ag->pressure_sum / (double)ag->nr_ticks : 0,
		   false);
	result_add(g, "pressure_max", ag->pressure_max, false);
	result_add(g, "target_current_mib", (double)ag->target->usage / 256.0, false);
	result_add(g, "sys_s", ag->actor ? (double)ag->actor->stime_ns / 1e9 : 0, false);
}

/*
 * senpai.py's defaults: --interval 6, --pressure 10000 (us of some stall
 * per interval: 10 ms / 6 s = 0.17 % of the time, as avg10 shows it),
 * --max-probe 0.01, --coeff-probe 10, --min-size 100M. The trigger is
 * Documentation/accounting/psi.rst's example (150 ms within 1 s).
 */
static void psi_agent_params_init(struct scn_workload *cfg)
{
	struct psi_agent_params *p = cfg->params;

	cfg->size = 4096;
	cfg->ops = 1;
	p->enable = true;
	p->interval_ns = 6 * NSEC_PER_SEC;
	p->pressure = 0.17;
	p->step = 0.01;
	p->coeff_probe = 10;
	/* 100M at full scale, scaled as a written min_size is */
	p->min_size = (uint64_t)llround((double)(100ULL << 20) * cfg->scale);
	snprintf(p->target, sizeof(p->target), "root");
	snprintf(p->trigger, sizeof(p->trigger), "some 150000 1000000");
}

static int psi_agent_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct psi_agent_params *p = cfg->params;
	const struct scenario *s = ck->s;
	enum psi_mem_state st;
	uint64_t th, win;
	const char *why;
	int j;

	for (j = 0; j < s->nr_memcgs; j++)
		if (!strcmp(s->memcg[j].name, p->target))
			break;
	if (strcmp(p->target, "root") && j == s->nr_memcgs)
		return scn_fail(ck, NULL, "target", "psi-agent needs a target: root or a memcg name");
	if (!p->interval_ns)
		return scn_fail(ck, NULL, "interval", "the interval must be longer than 0");
	if (strcmp(p->trigger, "none") && psi_trigger_parse(p->trigger, &st, &th, &win, &why)) {
		char msg[160];

		snprintf(msg, sizeof(msg), "'%s': %s", p->trigger, why);
		return scn_fail(ck, NULL, "trigger", msg);
	}
	return 0;
}

#define P struct psi_agent_params
static const struct key_desc psi_agent_keys[] = {
	SCN_KEY("target", KT_STRING, KEY_UNSCALED, P, target, 0, 0, "root or a memcg name",
		"the memcg whose memory.pressure it reads and memory.reclaim it writes"),
	SCN_KEY("enable", KT_BOOL, KEY_UNSCALED, P, enable, 0, 0, "a boolean",
		"write memory.reclaim (no: only read the pressure, the run without the agent)"),
	SCN_KEY("interval", KT_TIME, KEY_UNSCALED, P, interval_ns, 0, 0, "a duration",
		"between two reads of memory.pressure (senpai: 6s)"),
	SCN_KEY("pressure", KT_DOUBLE, KEY_UNSCALED, P, pressure, 0.01, 100, "a percentage",
		"target some avg10, percent: under it, reclaim (senpai: 10 ms per 6 s, 0.17)"),
	SCN_KEY("step", KT_DOUBLE, KEY_UNSCALED, P, step, 0.0001, 1, "a fraction",
		"the largest write, a fraction of memory.current (senpai's max_probe: 0.01)"),
	SCN_KEY("coeff_probe", KT_DOUBLE, KEY_UNSCALED, P, coeff_probe, 1, 1000, "a number",
		"the step is the largest at pressure <= target / coeff_probe (senpai: 10)"),
	SCN_KEY("min_size", KT_SIZE, KEY_SCALED, P, min_size, 0, 0, "a size",
		"no reclaim below this memory.current (senpai: 100M)"),
	SCN_KEY("trigger", KT_STRING, KEY_UNSCALED, P, trigger, 0, 0,
		"\"some|full THRESHOLD_US WINDOW_US\" or none",
		"a PSI trigger on the target: an event backs off one interval (150 ms in 1 s)"),
	{ 0 }
};
#undef P

const struct workload_ops psi_agent_ops = {
	.name = "psi-agent",
	.desc = "senpai-style agent: memory.reclaim steps while memory.pressure is under target",
	.keys = psi_agent_keys,
	.params_size = sizeof(struct psi_agent_params),
	.params_init = psi_agent_params_init,
	.check = psi_agent_check,
	.daemon = true,
	.start = psi_agent_start,
	.report = psi_agent_report,
	.reports_all = true,
};
