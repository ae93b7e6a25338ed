/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * anon-rounds: each thread faults in its share of `size` (writing every
 * page), frees it (munmap) and starts again, `rounds` times, as the anon
 * workers of the file-anon-mix reproducer do; an operation is a round. It
 * reports the rounds every thread completed and the round the OOM killer
 * struck in.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenarios/workload.h"

struct anon_rounds_params {
	int rounds;			/* rounds per thread */
};

struct anon_rounds {
	struct workload *w;		/* the workload */
	struct address_space **regions;	/* one region per thread */
	int *round;			/* rounds completed per thread */
};

/* fault the thread's region in (writing), free it, repeat */
static void anon_rounds_thread(struct actor *a, void *arg)
{
	struct anon_rounds *ar = arg;
	struct workload *w = ar->w;
	const struct anon_rounds_params *p = w->cfg->params;
	int tid = w->threads_running++;
	struct address_space *as = ar->regions[tid];

	a->task = w->task;
	if (!w->start_ns)
		w->start_ns = actor_now_ns(a);
	for (int r = 0; r < p->rounds && !w->task->oom_killed; r++) {
		uint64_t t0 = actor_now_ns(a);
		int ret = 0;

		for (uint64_t pg = 0; pg < as->nr_pages && ret >= 0;) {
			uint64_t nr_new, n = mm_range_ops ?
				anon_access_range(a, w->task, as, pg, as->nr_pages, true, 0, true,
						  &nr_new) : 0;

			if (n) {
				/* the faults that need no reclaim, up to a resched */
				workload_count_range(w, n, nr_new);
				pg += n;
				actor_cond_resched(a);
				continue;
			}
			ret = anon_access(a, w->task, as, pg, true);
			if (ret >= 0)
				workload_count_outcome(w, ret);
			actor_cond_resched(a);
			pg++;
		}
		if (ret < 0)
			break;
		anon_region_zap(as);	/* munmap */
		ar->round[tid] = r + 1;
		w->ops_done++;
		hist_record(&w->lat, actor_now_ns(a) - t0);
	}
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

static int anon_rounds_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct anon_rounds_params *p = cfg->params;

	cfg->ops = 1;	/* it runs by rounds, not operations */
	if (!p->rounds)
		return scn_fail(ck, NULL, "rounds", "anon-rounds needs rounds");
	return 0;
}

static int anon_rounds_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			     uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	struct anon_rounds *ar = calloc(1, sizeof(*ar));
	char name[96];

	(void)memcg;
	(void)bdev;
	(void)bdev_start;
	if (!ar)
		return -ENOMEM;
	w->priv = ar;
	ar->w = w;
	ar->regions = calloc((size_t)c->threads, sizeof(*ar->regions));
	ar->round = calloc((size_t)c->threads, sizeof(*ar->round));
	if (!ar->regions || !ar->round)
		return -ENOMEM;
	for (int t = 0; t < c->threads; t++) {
		snprintf(name, sizeof(name), "%s.%d", c->name, t);
		ar->regions[t] = anon_region_create(w->task, name, c->size / 4096 / (uint64_t)c->threads);
		if (!ar->regions[t])
			return -ENOMEM;
		if (!actor_create(name, c->node, anon_rounds_thread, ar, false))
			return -ENOMEM;
	}
	return 0;
}

static void anon_rounds_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct anon_rounds *ar = w->priv;
	const struct anon_rounds_params *p = w->cfg->params;
	int done = p->rounds;

	(void)end_ns;
	for (int t = 0; t < w->cfg->threads; t++)
		if (ar->round[t] < done)
			done = ar->round[t];
	result_add_u64(g, "rounds_completed", (uint64_t)done);
	/* the round in which the OOM killer struck (0: none) */
	result_add_u64(g, "oom_round", w->task->oom_killed ? (uint64_t)done + 1 : 0);
}

static const struct key_desc anon_rounds_keys[] = {
	SCN_KEY("rounds", KT_INT, KEY_UNSCALED, struct anon_rounds_params, rounds, 1, 1000000,
		"a round count", "times each thread faults its share in and frees it"),
	{ 0 }
};

const struct workload_ops anon_rounds_ops = {
	.name = "anon-rounds",
	.desc = "anon workers faulting in and freeing memory in rounds",
	.keys = anon_rounds_keys,
	.params_size = sizeof(struct anon_rounds_params),
	.check = anon_rounds_check,
	.start = anon_rounds_start,
	.report = anon_rounds_report,
};
