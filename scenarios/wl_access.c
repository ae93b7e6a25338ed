/* SPDX-License-Identifier: GPL-2.0-only */
/* The operation loop of the page-access generators (see wl_access.h). */
#include <errno.h>
#include <stdio.h>

#include "scenarios/wl_access.h"

const char *const access_kind_names[] = { [ACC_READ] = "read", [ACC_MMAP] = "mmap", NULL };

void access_params_init(struct scn_workload *cfg)
{
	struct access_params *p = cfg->params;

	p->pages_per_op = 1;
	p->access = ACC_READ;
}

uint64_t access_pages_per_op(const struct scn_workload *cfg)
{
	return ((const struct access_params *)cfg->params)->pages_per_op;
}

int access_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct access_params *p = cfg->params;

	if (cfg->size < 4096 * p->pages_per_op)
		return scn_fail(ck, NULL, "size", "smaller than one operation after scaling");
	return 0;
}

static int access_page(struct access_gen *g, struct actor *a, uint64_t page, bool write)
{
	struct task *t = g->w->task;

	if (g->anon)
		return anon_access(a, t, g->as, page, write);
	if (g->p->access == ACC_MMAP)
		return filemap_map_access(a, t, g->as, page, write);
	return write ? filemap_write(a, t, g->as, page) : filemap_read(a, t, g->as, page);
}

static void access_thread(struct actor *a, void *arg)
{
	struct access_gen *g = arg;
	struct workload *w = g->w;
	const struct scn_workload *c = w->cfg;
	uint64_t ppo = g->p->pages_per_op;
	int tid = w->threads_running++;

	a->task = w->task;
	if (c->start_ns)
		actor_sleep_ns(a, c->start_ns);
	if (!w->start_ns || actor_now_ns(a) < w->start_ns)
		w->start_ns = actor_now_ns(a);
	/* anon prefault: populate the heap first, each thread its stripe (malloc + memset) */
	if (g->anon && g->p->prefault) {
		uint64_t step = (uint64_t)c->threads;

		for (uint64_t p = (uint64_t)tid; p < g->as->nr_pages;) {
			uint64_t nr_new, n = mm_range_ops ?
				anon_access_stride(a, w->task, g->as, p, g->as->nr_pages, step, true,
						   0, true, &nr_new) : 0;
			int ret;

			if (n) {
				/* the stripe's pages that need no reclaim, up to a resched */
				workload_count_range(w, n, nr_new);
				p += n * step;
				actor_cond_resched(a);
				continue;
			}
			ret = anon_access(a, w->task, g->as, p, true);
			if (ret < 0)
				goto out;
			workload_count_outcome(w, ret);
			actor_cond_resched(a);
			p += step;
		}
	}
	while (w->ops_issued < c->ops && !w->task->oom_killed) {
		uint64_t t0 = actor_now_ns(a);
		bool write;
		uint64_t key, first, nr;
		int ret = 0;

		g->op_pages = 0;
		key = g->next_key(g, a, w->ops_issued, &write);
		first = g->op_pages ? key : key * ppo;
		nr = g->op_pages ? g->op_pages : ppo;
		w->ops_issued++;
		for (uint64_t i = 0; i < nr; i++) {
			ret = access_page(g, a, first + i, write);
			if (ret < 0)
				break;
			workload_count_outcome(w, ret);
		}
		if (ret < 0)
			break;
		if (c->think_ns)
			actor_charge_user(a, c->think_ns);
		w->ops_done++;
		w->ops_write += write;
		hist_record(&w->lat, actor_now_ns(a) - t0);
		actor_cond_resched(a);
	}
out:
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

int access_gen_start(struct access_gen *g, struct workload *w, const struct access_params *p,
		     bool anon, access_next_key_fn next_key, struct blockdev *bdev,
		     uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	uint64_t nr_pages = c->size / 4096;
	char name[96];

	g->w = w;
	g->p = p;
	g->anon = anon;
	g->next_key = next_key;
	w->priv = g;
	if (anon) {
		g->as = anon_region_create(w->task, c->name, nr_pages);
		if (g->as)
			g->as->compress_ratio = p->compress_ratio;
	} else {
		g->as = file_create(c->name, nr_pages, bdev, bdev_start, false);
	}
	if (!g->as)
		return -ENOMEM;
	g->nr_keys = nr_pages / p->pages_per_op;
	zipf_init(&g->zipf, g->nr_keys, p->zipf_theta, zipf_scramble_hash_first_of[p->scramble]);
	for (int t = 0; t < c->threads; t++) {
		snprintf(name, sizeof(name), "%s.%d", c->name, t);
		if (!actor_create(name, c->node, access_thread, g, false))
			return -ENOMEM;
	}
	return 0;
}
