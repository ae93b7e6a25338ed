/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * file-scan: readers of a shared file mapping that touch every page in
 * order, sleep `pause`, and start again, for as long as the run lasts
 * (daemons: the run ends without them), as a service rereading its
 * mapped data files does. With `processes`, each reader is a process of
 * its own (its own mm, page table and mm_list entry, as the published
 * reproducer's nproc readers each mmap the file MAP_SHARED); otherwise
 * they are threads of one process.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenarios/workload.h"

struct file_scan_params {
	uint64_t pause_ns;		/* sleep after each pass */
	bool processes;			/* one process per reader */
};

struct file_scan {
	struct workload *w;		/* the workload */
	struct address_space *as;	/* the mapped file */
	uint64_t passes;		/* passes over the file */
	struct task **tasks;		/* each reader's process (processes), else NULL */
	int next;			/* readers started */
};

static void file_scan_thread(struct actor *a, void *arg)
{
	struct file_scan *fs = arg;
	struct workload *w = fs->w;
	const struct file_scan_params *p = w->cfg->params;
	struct task *t = fs->tasks ? fs->tasks[fs->next++] : w->task;

	a->task = t;
	for (;;) {
		for (uint64_t pg = 0; pg < fs->as->nr_pages;) {
			uint64_t n = mm_range_ops ?
				filemap_map_hit_range(a, t, fs->as, pg, fs->as->nr_pages) : 0;
			int ret;

			if (n) {
				/* a run of hits, as many as the page loop makes before it resches */
				w->nr_hit += n;
				pg += n;
				actor_cond_resched(a);
				continue;
			}
			ret = filemap_map_access(a, t, fs->as, pg, false);
			if (ret < 0)
				return;
			workload_count_outcome(w, ret);
			actor_cond_resched(a);
			pg++;
		}
		fs->passes++;
		actor_sleep_ns(a, p->pause_ns);
	}
}

/* it runs by passes, not operations */
static int file_scan_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	(void)ck;
	cfg->ops = 1;
	return 0;
}

static int file_scan_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			   uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	struct file_scan *fs = calloc(1, sizeof(*fs));
	char name[96];

	if (!fs)
		return -ENOMEM;
	w->priv = fs;
	fs->w = w;
	fs->as = file_create(c->name, c->size / 4096, bdev, bdev_start, false);
	if (!fs->as)
		return -ENOMEM;
	if (((const struct file_scan_params *)c->params)->processes) {
		fs->tasks = calloc((size_t)c->threads, sizeof(*fs->tasks));
		if (!fs->tasks)
			return -ENOMEM;
		/* the first reader is the workload's own process */
		fs->tasks[0] = w->task;
		for (int t = 1; t < c->threads; t++) {
			snprintf(name, sizeof(name), "%s.%d", c->name, t);
			fs->tasks[t] = workload_task_create(w, name, memcg, c->node);
			if (!fs->tasks[t])
				return -ENOMEM;
		}
	}
	for (int t = 0; t < c->threads; t++) {
		snprintf(name, sizeof(name), "%s.%d", c->name, t);
		if (!actor_create(name, c->node, file_scan_thread, fs, true))
			return -ENOMEM;
	}
	return 0;
}

static void file_scan_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct file_scan *fs = w->priv;

	(void)end_ns;
	result_add_u64(g, "passes", fs->passes);
}

static const struct key_desc file_scan_keys[] = {
	SCN_KEY("pause", KT_TIME, KEY_PERIOD, struct file_scan_params, pause_ns, 0, 0,
		"a duration", "sleep after each pass over the file"),
	SCN_KEY("processes", KT_BOOL, KEY_UNSCALED, struct file_scan_params, processes, 0, 0,
		"a boolean", "each reader a process of its own (own mm and page table)"),
	{ 0 }
};

const struct workload_ops file_scan_ops = {
	.name = "file-scan",
	.desc = "mapped readers that read every page of a file and pause, forever",
	.keys = file_scan_keys,
	.params_size = sizeof(struct file_scan_params),
	.check = file_scan_check,
	.needs_device = workload_has_files,
	.daemon = true,
	.start = file_scan_start,
	.report = file_scan_report,
};
