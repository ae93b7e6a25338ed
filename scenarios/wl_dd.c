/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dd: `dd if=/dev/zero of=FILE bs=(pages_per_op pages)`, a file written
 * front to back with write() (or stores through a mapping, access = mmap);
 * unless ops says otherwise, the whole file once.
 */
#include <errno.h>
#include <stdlib.h>

#include "scenarios/wl_access.h"

/* The next block of the file, written. */
static uint64_t dd_key(struct access_gen *g, struct actor *a, uint64_t op, bool *write)
{
	(void)a;
	*write = true;
	return op % g->nr_keys;
}

static int dd_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct access_params *p = cfg->params;

	if (access_check(cfg, ck))
		return -1;
	if (!cfg->ops)
		cfg->ops = cfg->size / 4096 / p->pages_per_op;
	return 0;
}

static int dd_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		    uint64_t bdev_start)
{
	struct access_gen *g = calloc(1, sizeof(*g));

	(void)memcg;
	if (!g)
		return -ENOMEM;
	return access_gen_start(g, w, w->cfg->params, false, dd_key, bdev, bdev_start);
}

#define P struct access_params
static const struct key_desc dd_keys[] = {
	SCN_CHOICE("access", P, access, access_kind_names, "an access kind (read, mmap)",
		   "read: write() calls; mmap: stores through a shared mapping"),
	SCN_KEY("pages_per_op", KT_INT, KEY_UNSCALED, P, pages_per_op, 1, 4096,
		"a page count (1-4096)", "pages per write (dd's bs)"),
	{ 0 }
};
#undef P

const struct workload_ops dd_ops = {
	.name = "dd",
	.desc = "dd of a file, pages_per_op pages per write",
	.keys = dd_keys,
	.params_size = sizeof(struct access_params),
	.params_init = access_params_init,
	.check = dd_check,
	.needs_device = workload_has_files,
	.pages_per_op = access_pages_per_op,
	.start = dd_start,
};
