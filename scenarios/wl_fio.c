/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fio with ioengine=mmap, rw=randread, bs=4k: every job is a process with
 * its own file, mapped shared once (fio_mmap_file); each IO is a memcpy of
 * one 4 KiB block out of the mapping, so the page cache is reached only
 * through page faults (filemap_fault), never through read().
 *
 * Offsets: fio's default random map (norandommap=0) hands out every block
 * of the file once per loop in random order; a new loop starts a new order.
 * fio advises the mapping POSIX_MADV_RANDOM for random jobs (fio_madvise_file,
 * fadvise_hint=1 by default): the type's default advice is random, so a
 * fault reads only the faulting page and, since Linux 6.3, the LRU ignores
 * the mapping's references (vma_has_recency()). `advice = normal` is
 * fadvise_hint=0.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/workload.h"

/* memcpy of one 4 KiB block from the mapping into fio's buffer (~10 GB/s, as
 * models/costs.h's copy_to_user) */
#define FIO_COPY_NS 400

struct fio_job {
	struct workload *w;		/* the fio workload */
	struct task *task;		/* this job's process */
	struct address_space *f;	/* its file */
	uint32_t *order;		/* the random map: block order for this loop */
	uint64_t pos;			/* blocks issued in this loop */
	uint64_t nr_ios;		/* IOs this job issues */
	uint64_t loops;			/* loops over the file started */
};

struct wl_fio {
	struct fio_job *jobs;		/* one per job */
	int nr_jobs;
};

/* A new loop: a fresh random order of the file's blocks (Fisher-Yates). */
static void fio_new_loop(struct fio_job *j, struct rng *rng)
{
	uint64_t n = j->f->nr_pages;

	for (uint64_t i = n - 1; i > 0; i--) {
		uint64_t k = rng_below(rng, i + 1);
		uint32_t tmp = j->order[i];

		j->order[i] = j->order[k];
		j->order[k] = tmp;
	}
	j->pos = 0;
	j->loops++;
}

static void fio_job_thread(struct actor *a, void *arg)
{
	struct fio_job *j = arg;
	struct workload *w = j->w;
	const struct scn_workload *c = w->cfg;

	a->task = j->task;
	w->threads_running++;
	if (c->start_ns)
		actor_sleep_ns(a, c->start_ns);
	if (!w->start_ns || actor_now_ns(a) < w->start_ns)
		w->start_ns = actor_now_ns(a);
	for (uint64_t io = 0; io < j->nr_ios && !j->task->oom_killed; io++) {
		uint64_t t0 = actor_now_ns(a);
		int ret;

		if (j->pos == j->f->nr_pages || !j->loops)
			fio_new_loop(j, &a->rng);
		ret = filemap_map_access(a, j->task, j->f, j->order[j->pos++], false);
		if (ret < 0)
			break;
		workload_count_outcome(w, ret);
		actor_charge_user(a, FIO_COPY_NS + c->think_ns);
		w->ops_issued++;
		w->ops_done++;
		hist_record(&w->lat, actor_now_ns(a) - t0);
		actor_cond_resched(a);
	}
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

static int fio_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		     uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	uint64_t nr_pages = c->size / 4096;
	struct wl_fio *fio = calloc(1, sizeof(*fio));
	char name[96];

	if (!fio || nr_pages >= UINT32_MAX)
		return -ENOMEM;
	w->priv = fio;
	fio->nr_jobs = c->threads;
	fio->jobs = calloc((size_t)c->threads, sizeof(*fio->jobs));
	if (!fio->jobs)
		return -ENOMEM;
	for (int t = 0; t < c->threads; t++) {
		struct fio_job *j = &fio->jobs[t];

		j->w = w;
		snprintf(name, sizeof(name), "%s.%d", c->name, t);
		/* fio forks a process per job (thread=0) */
		j->task = t ? workload_task_create(w, name, memcg, c->node) : w->task;
		/* the jobs' files lie one after the other on the device */
		j->f = file_create(name, nr_pages, bdev, bdev_start + (uint64_t)t * nr_pages, false);
		j->order = malloc(nr_pages * sizeof(*j->order));
		if (!j->task || !j->f || !j->order)
			return -ENOMEM;
		for (uint64_t p = 0; p < nr_pages; p++)
			j->order[p] = (uint32_t)p;
		/* the total of IOs, shared out over the jobs */
		j->nr_ios = c->ops / (uint64_t)c->threads + ((uint64_t)t < c->ops % (uint64_t)c->threads);
		if (!actor_create(name, c->node, fio_job_thread, j, false))
			return -ENOMEM;
	}
	return 0;
}

static void fio_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct wl_fio *fio = w->priv;
	double secs = workload_seconds(w, end_ns);
	uint64_t loops = 0;

	for (int t = 0; t < fio->nr_jobs; t++)
		loops += fio->jobs[t].loops;
	/* fio's "bw" in MB/s (10^6 bytes), 4 KiB per IO */
	result_add(g, "bandwidth_mb_s", secs > 0 ? (double)w->ops_done * 4096 / 1e6 / secs : 0,
		   false);
	result_add(g, "iops", secs > 0 ? (double)w->ops_done / secs : 0, false);
	result_add_u64(g, "loops", loops);
}

/* one file per job, laid out one after another */
static uint64_t fio_device_pages(const struct scn_workload *cfg)
{
	return (uint64_t)cfg->threads * (cfg->size / 4096);
}

const struct workload_ops fio_ops = {
	.name = "fio",
	.desc = "fio mmap randread, one file per job",
	.needs_device = workload_has_files,
	.device_pages = fio_device_pages,
	/* rw=randread with fadvise_hint=1: POSIX_MADV_RANDOM */
	.default_advice = ADVICE_RANDOM,
	.start = fio_start,
	.report = fio_report,
};
