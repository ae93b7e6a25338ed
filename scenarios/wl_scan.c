/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * file-scan: readers of a shared file mapping that touch every page in
 * order, sleep `pause`, and start again, for as long as the run lasts
 * (daemons: the run ends without them), as a service rereading its
 * mapped data files does.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "scenarios/workload.h"

struct file_scan_params {
	uint64_t pause_ns;		/* sleep after each pass */
};

struct file_scan {
	struct workload *w;		/* the workload */
	struct address_space *as;	/* the mapped file */
	uint64_t passes;		/* passes over the file */
};

static void file_scan_thread(struct actor *a, void *arg)
{
	struct file_scan *fs = arg;
	struct workload *w = fs->w;
	const struct file_scan_params *p = w->cfg->params;

	a->task = w->task;
	for (;;) {
		for (uint64_t pg = 0; pg < fs->as->nr_pages; pg++) {
			int ret = filemap_map_access(a, w->task, fs->as, pg, false);

			if (ret < 0)
				return;
			workload_count_outcome(w, ret);
			actor_cond_resched(a);
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

	(void)memcg;
	if (!fs)
		return -ENOMEM;
	w->priv = fs;
	fs->w = w;
	fs->as = file_create(c->name, c->size / 4096, bdev, bdev_start, false);
	if (!fs->as)
		return -ENOMEM;
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
	SCN_KEY("pause", KT_TIME, KEY_UNSCALED, struct file_scan_params, pause_ns, 0, 0,
		"a duration", "sleep after each pass over the file"),
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
