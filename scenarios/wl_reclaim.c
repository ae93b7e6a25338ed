/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The proactive-reclaim workload: `echo AMOUNT > TARGET/memory.reclaim`,
 * timed. "full" writes a request larger than any memcg (the benchmark's
 * "full reclaim"), which only memory.reclaim's -EAGAIN after
 * MAX_RECLAIM_RETRIES empty rounds ends.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/memory.h"
#include "scenarios/wl_reclaim.h"
#include "scenarios/workload.h"

struct wl_reclaim {
	struct mem_cgroup *target;	/* memcg whose memory.reclaim is written */
	uint64_t nr_to_reclaim;		/* pages requested */
	bool full;			/* amount = full */
	uint64_t nr_reclaimed;		/* pages memory.reclaim counted so far */
	uint64_t usage_before;		/* target's memory.current at the write, pages */
	uint64_t usage_after;		/* ... when the write returned, pages */
	uint64_t start_ns, end_ns;	/* the write's start and return */
	bool started, finished;		/* the write began; it returned */
	int rc;				/* its return: 0, -EAGAIN, -EINTR */
	struct actor *actor;		/* the writer, for its CPU time */
};

static void reclaim_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;
	struct wl_reclaim *r = w->priv;

	a->task = w->task;
	if (w->cfg->start_ns)
		actor_sleep_ns(a, w->cfg->start_ns);
	r->usage_before = r->target->usage;
	r->start_ns = w->start_ns = actor_now_ns(a);
	r->started = true;
	r->rc = memory_reclaim(r->target, r->nr_to_reclaim, -1, a, &r->nr_reclaimed);
	actor_flush_cpu(a);
	r->usage_after = r->target->usage;
	r->end_ns = w->end_ns = actor_now_ns(a);
	r->finished = true;
	w->ops_done = 1;
}

static int reclaim_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			 uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	const struct reclaim_params *p = c->params;
	struct wl_reclaim *r = calloc(1, sizeof(*r));

	(void)memcg;
	(void)bdev;
	(void)bdev_start;
	if (!r)
		return -ENOMEM;
	w->priv = r;
	r->target = strcmp(p->target, "root") ? mem_cgroup_find(p->target) : mm.root_mem_cgroup;
	if (!r->target)
		return -ENOENT;
	r->full = p->amount == UINT64_MAX;
	/* "full": the largest request memparse() gives, in pages */
	r->nr_to_reclaim = r->full ? UINT64_MAX / 4096 : p->amount / 4096;
	r->actor = actor_create(c->name, c->node, reclaim_thread, w, false);
	return r->actor ? 0 : -ENOMEM;
}

static void reclaim_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct wl_reclaim *r = w->priv;
	uint64_t end = r->finished ? r->end_ns : end_ns;
	double secs = r->started && end > r->start_ns ? (double)(end - r->start_ns) / 1e9 : 0;
	uint64_t usage_now = r->finished ? r->usage_after : r->target->usage;

	result_add_u64(g, "requested_pages", r->full ? 0 : r->nr_to_reclaim);
	result_add_u64(g, "reclaimed_pages", r->nr_reclaimed);
	result_add(g, "reclaim_s", secs, false);
	result_add(g, "pages_per_s", secs > 0 ? (double)r->nr_reclaimed / secs : 0, false);
	/* what memory.reclaim counted beyond the request (none for full) */
	result_add(g, "over_reclaim_mib",
		   r->full ? 0 : ((double)r->nr_reclaimed - (double)r->nr_to_reclaim) / 256.0, false);
	/* memory.current before minus after: the target's own view, racing with its tasks */
	result_add(g, "usage_drop_mib",
		   ((double)r->usage_before - (double)usage_now) / 256.0, false);
	result_add_u64(g, "finished", r->finished);
	result_add(g, "rc", r->finished ? (double)r->rc : 0, true);
	result_add(g, "sys_s", r->actor ? (double)r->actor->stime_ns / 1e9 : 0, false);
}

/* one write, no data of its own: one page, one operation */
static void reclaim_params_init(struct scn_workload *cfg)
{
	cfg->size = 4096;
	cfg->ops = 1;
}

static int reclaim_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct reclaim_params *p = cfg->params;
	const struct scenario *s = ck->s;
	int j;

	if (!p->amount)
		return scn_fail(ck, NULL, "amount", "proactive-reclaim needs an amount (a size or full)");
	for (j = 0; j < s->nr_memcgs; j++)
		if (!strcmp(s->memcg[j].name, p->target))
			break;
	if (strcmp(p->target, "root") && j == s->nr_memcgs)
		return scn_fail(ck, NULL, "target",
				"proactive-reclaim needs a target: root or a memcg name");
	return 0;
}

#define P struct reclaim_params
static const struct key_desc reclaim_keys[] = {
	SCN_KEY("target", KT_STRING, KEY_UNSCALED, P, target, 0, 0, "root or a memcg name",
		"the memcg whose memory.reclaim is written, or root"),
	SCN_KEY("amount", KT_AMOUNT, KEY_SCALED, P, amount, 0, 0, "a size or full",
		"bytes written to memory.reclaim, or full (more than any memcg holds)"),
	{ 0 }
};
#undef P

const struct workload_ops proactive_reclaim_ops = {
	.name = "proactive-reclaim",
	.desc = "one write to memory.reclaim, timed",
	.keys = reclaim_keys,
	.params_size = sizeof(struct reclaim_params),
	.params_init = reclaim_params_init,
	.check = reclaim_check,
	.start = reclaim_start,
	.report = reclaim_report,
	.reports_all = true,
};
