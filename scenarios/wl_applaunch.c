/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Android-like cold launches of several apps in sequence. Each app is a
 * process in its own memcg (as Android's per-app cgroups) with a code file
 * (APK, odex/vdex/oat, native libraries: mapped VM_EXEC, read through page
 * faults from flash) and an anonymous heap. The launcher brings apps to the
 * front one after the other, cycling through them. An app left in the back
 * stays alive as a cached process (lmkd kills are not modelled), its heap
 * and code pages pressing on the others; when its turn comes again its
 * process is stopped first (am start -S: force-stop, then start), so every
 * launch starts a new process and builds its heap anew: a cold launch.
 * Its code pages are cached only as far as the other apps' pressure left
 * them; nothing drops them by hand.
 *
 * The first cycle fills the phone: those launches read code never read
 * before and are reported apart (first_launch_*). The launches measured
 * (launch_*) are those after it, each the cold launch of an app whose code
 * was cached once and reclaimed since as far as the others' pressure went;
 * launch_code_cached_pct says how much of its code file was still cached
 * when the launch began.
 *
 * A launch runs from the start until the startup working set is touched:
 * the startup pages of the code file (a fixed set per app, spread over the
 * file, `wss_size` of it) and the whole heap (written: objects are built).
 * Then the app stays in front for `run`, touching the same working set once
 * every `pause` (a share `write_ratio` of heap pages written), and the next
 * launch begins.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/workload.h"

/* The section's own keys. */
struct applaunch_params {
	int apps;			/* apps cycled through */
	int rounds;			/* launches in all */
	uint64_t heap_size;		/* anonymous heap per app, bytes */
	uint64_t wss_size;		/* code pages touched at startup, bytes */
	uint64_t run_ns;		/* time an app stays in front */
	uint64_t pause_ns;		/* between passes over the working set in front */
	double write_ratio;		/* share of heap pages written per pass in front */
	double compress_ratio;		/* zram ratio of the heaps (0: the compressor's) */
};

struct app {
	struct mem_cgroup *memcg;	/* the app's cgroup */
	struct task *task;		/* its process (NULL before its first launch) */
	struct address_space *code;	/* APK + odex + native libs, mapped exec */
	struct address_space *heap;	/* Java and native heap of the process */
	char name[96];			/* its process's name */
	uint32_t *startup;		/* code pages touched at startup, in order */
	uint64_t nr_startup;
	uint64_t launches;		/* times brought to the front */
};

struct wl_applaunch {
	struct app *apps;
	int nr_apps;
	uint64_t heap_pages;		/* each process's heap */
	struct histogram first;		/* the first cycle's launches, ns */
	uint64_t launch_major;		/* major faults (flash reads) in measured launches */
	double code_cached_sum;		/* share of the code file cached at launch start, summed */
	double code_cached_max;		/* ... and its largest */
	uint64_t nr_cached_code;	/* measured launches whose startup read nothing from flash */
};

static int app_touch(struct workload *w, struct actor *a, struct app *app,
		     struct address_space *as, uint64_t page, bool write, uint64_t *nr_major)
{
	int ret = as->type == AS_ANON ? anon_access(a, app->task, as, page, write)
				      : filemap_map_access(a, app->task, as, page, false);

	switch (ret) {
	case ACCESS_HIT: w->nr_hit++; break;
	case ACCESS_MINOR: w->nr_minor++; break;
	case ACCESS_MAJOR: w->nr_major++; (*nr_major)++; break;
	case ACCESS_NEW: w->nr_new++; break;
	default: return ret;
	}
	actor_charge_user(a, w->cfg->think_ns);
	actor_cond_resched(a);
	return 0;
}

/* Whether a pass writes the next heap page: a share write_ratio of them. */
static bool heap_page_write(struct actor *a, double write_ratio)
{
	return write_ratio >= 1 || (write_ratio > 0 && rng_double(&a->rng) < write_ratio);
}

/*
 * The heap's pages in order, by runs of pages all written or all read: each
 * run's pages that need no reclaim by anon_access_range(), the others by
 * app_touch(). The draws are the page loop's, one per page in page order
 * (a run is drawn up to the first page of the next one before it is
 * touched: nothing else draws from a->rng meanwhile, the kernel's model
 * uses its own).
 */
static int heap_pass_by_runs(struct workload *w, struct actor *a, struct app *app,
			     double write_ratio, uint64_t *nr_major)
{
	struct address_space *heap = app->heap;
	bool write = false, next = false;
	uint64_t p = 0, end = 0;

	while (p < heap->nr_pages) {
		uint64_t nr_new, n;

		if (p == end) {
			write = p ? next : heap_page_write(a, write_ratio);
			for (end = p + 1; end < heap->nr_pages; end++)
				if ((next = heap_page_write(a, write_ratio)) != write)
					break;
		}
		n = anon_access_range(a, app->task, heap, p, end, write, w->cfg->think_ns, true,
				      &nr_new);
		if (n) {
			workload_count_range(w, n, nr_new);
			p += n;
			actor_cond_resched(a);
			continue;
		}
		if (app_touch(w, a, app, heap, p, write, nr_major))
			return -EINTR;
		p++;
	}
	return 0;
}

/* One pass over the app's working set: startup code, then the heap. */
static int app_pass(struct workload *w, struct actor *a, struct app *app, double write_ratio,
		    uint64_t *nr_major)
{
	for (uint64_t i = 0; i < app->nr_startup; i++)
		if (app_touch(w, a, app, app->code, app->startup[i], false, nr_major))
			return -EINTR;
	if (mm_range_ops)
		return heap_pass_by_runs(w, a, app, write_ratio, nr_major);
	for (uint64_t p = 0; p < app->heap->nr_pages; p++)
		if (app_touch(w, a, app, app->heap, p, heap_page_write(a, write_ratio), nr_major))
			return -EINTR;
	return 0;
}

/* A new process of the app (zygote's fork) with an empty heap. */
static int app_spawn(struct workload *w, struct wl_applaunch *al, struct app *app)
{
	const struct applaunch_params *p = w->cfg->params;

	app->task = workload_task_create(w, app->name, app->memcg, w->cfg->node);
	if (!app->task)
		return -ENOMEM;
	app->heap = anon_region_create(app->task, app->name, al->heap_pages);
	if (!app->heap)
		return -ENOMEM;
	app->heap->compress_ratio = p->compress_ratio;
	return 0;
}

static void launcher_thread(struct actor *a, void *arg)
{
	struct workload *w = arg;
	struct wl_applaunch *al = w->priv;
	const struct scn_workload *c = w->cfg;
	const struct applaunch_params *p = c->params;

	w->threads_running++;
	if (c->start_ns)
		actor_sleep_ns(a, c->start_ns);
	w->start_ns = actor_now_ns(a);
	for (uint64_t i = 0; i < c->ops; i++) {
		struct app *app = &al->apps[i % (uint64_t)al->nr_apps];
		uint64_t t0, lat, nr_major = 0, until;

		double cached;

		/* am start -S: the cached process is stopped, its heap freed */
		if (app->task) {
			a->task = w->task;
			task_exit(a, app->task);
			app->task = NULL;
			app->heap = NULL;
		}
		if (app_spawn(w, al, app))
			break;
		a->task = app->task;
		cached = (double)app->code->nr_resident / (double)app->code->nr_pages;
		actor_flush_cpu(a);
		t0 = actor_now_ns(a);
		if (app_pass(w, a, app, 1.0, &nr_major))
			break;
		actor_flush_cpu(a);
		lat = actor_now_ns(a) - t0;
		if (app->launches++) {
			hist_record(&w->lat, lat);
			al->launch_major += nr_major;
			al->code_cached_sum += cached;
			if (cached > al->code_cached_max)
				al->code_cached_max = cached;
			al->nr_cached_code += nr_major == 0;
		} else {
			hist_record(&al->first, lat);
		}
		w->ops_issued++;
		w->ops_done++;
		/* in front: the working set again every `pause` */
		until = t0 + lat + p->run_ns;
		while (actor_now_ns(a) + p->pause_ns < until) {
			actor_sleep_ns(a, p->pause_ns);
			if (app_pass(w, a, app, p->write_ratio, &nr_major))
				goto out;
		}
		if (actor_now_ns(a) < until)
			actor_sleep_until_ns(a, until);
	}
out:
	actor_flush_cpu(a);
	w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

static int applaunch_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			   uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	const struct applaunch_params *p = c->params;
	uint64_t code_pages = c->size / 4096, heap_pages = p->heap_size / 4096;
	uint64_t wss_pages = p->wss_size / 4096;
	struct wl_applaunch *al = calloc(1, sizeof(*al));
	char name[96];

	if (!al)
		return -ENOMEM;
	w->priv = al;
	hist_init(&al->first);
	al->heap_pages = heap_pages;
	al->nr_apps = p->apps;
	al->apps = calloc((size_t)p->apps, sizeof(*al->apps));
	if (!al->apps)
		return -ENOMEM;
	for (int i = 0; i < p->apps; i++) {
		struct app *app = &al->apps[i];

		snprintf(name, sizeof(name), "%s.%d", c->name, i);
		app->memcg = mem_cgroup_create(memcg, name);
		if (!app->memcg)
			return -ENOMEM;
		snprintf(app->name, sizeof(app->name), "%s", name);
		app->code = file_create(name, code_pages, bdev, bdev_start + (uint64_t)i * code_pages,
					true);
		app->startup = malloc((wss_pages ? wss_pages : 1) * sizeof(*app->startup));
		if (!app->code || !app->startup)
			return -ENOMEM;
		/* startup pages: wss_pages of the file, evenly spread, same every launch */
		for (uint64_t k = 0; k < wss_pages; k++)
			app->startup[k] = (uint32_t)(k * code_pages / wss_pages);
		app->nr_startup = wss_pages;
	}
	return actor_create(c->name, c->node, launcher_thread, w, false) ? 0 : -ENOMEM;
}

static void applaunch_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct wl_applaunch *al = w->priv;

	(void)end_ns;
	/* the measured launches: cold, after the first cycle */
	result_add_u64(g, "launches", w->lat.count);
	result_add(g, "launch_mean_ms", hist_mean(&w->lat) / 1e6, false);
	result_add(g, "launch_p50_ms", (double)hist_quantile(&w->lat, 0.50) / 1e6, false);
	result_add(g, "launch_p90_ms", (double)hist_quantile(&w->lat, 0.90) / 1e6, false);
	result_add(g, "launch_p95_ms", (double)hist_quantile(&w->lat, 0.95) / 1e6, false);
	result_add_u64(g, "launch_major_faults", al->launch_major);
	/* how cold their code was: the share of the code file in the page cache
	 * when each began, and the launches that read none of it from flash */
	result_add(g, "launch_code_cached_pct",
		   w->lat.count ? 100 * al->code_cached_sum / (double)w->lat.count : 0, false);
	result_add(g, "launch_code_cached_max_pct", 100 * al->code_cached_max, false);
	result_add_u64(g, "launches_code_cached", al->nr_cached_code);
	/* the first cycle, apart: code never read before */
	result_add_u64(g, "first_launches", al->first.count);
	result_add(g, "first_launch_mean_ms", hist_mean(&al->first) / 1e6, false);
}

static int applaunch_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	const struct applaunch_params *p = cfg->params;

	if (!p->apps || !p->rounds)
		return scn_fail(ck, NULL, p->apps ? "rounds" : "apps",
				"app-launch needs apps and rounds (launches)");
	if (p->heap_size < 4096)
		return scn_fail(ck, NULL, "heap_size",
				"app-launch needs a heap of a page or more after scaling");
	if (p->rounds <= p->apps)
		return scn_fail(ck, NULL, "rounds",
				"app-launch measures the launches after the first cycle: rounds must "
				"exceed apps");
	if (p->wss_size > cfg->size)
		return scn_fail(ck, NULL, "wss_size", "the startup set is larger than the code file");
	cfg->ops = (uint64_t)p->rounds;	/* one operation per launch */
	return 0;
}

/* one code file per app, laid out one after another */
static uint64_t applaunch_device_pages(const struct scn_workload *cfg)
{
	const struct applaunch_params *p = cfg->params;

	return (uint64_t)p->apps * (cfg->size / 4096);
}

#define P struct applaunch_params
static const struct key_desc applaunch_keys[] = {
	SCN_KEY("apps", KT_INT, KEY_UNSCALED, P, apps, 1, 1000, "an app count (1-1000)",
		"apps launched in turn, each its memcg, process, code file (size) and heap"),
	SCN_KEY("rounds", KT_INT, KEY_UNSCALED, P, rounds, 1, 1000000, "a round count",
		"launches in all"),
	SCN_KEY("heap_size", KT_SIZE, KEY_SCALED, P, heap_size, 0, 0, "a size",
		"each app's anonymous heap, written at every launch"),
	SCN_KEY("wss_size", KT_SIZE, KEY_SCALED, P, wss_size, 0, 0, "a size",
		"the code pages a launch touches, spread over the code file"),
	SCN_KEY("run", KT_TIME, KEY_UNSCALED, P, run_ns, 0, 0, "a duration",
		"time an app stays in front after its launch"),
	SCN_KEY("pause", KT_TIME, KEY_UNSCALED, P, pause_ns, 0, 0, "a duration",
		"in front: the time between passes over its working set"),
	SCN_KEY("write_ratio", KT_DOUBLE, KEY_UNSCALED, P, write_ratio, 0, 1, "a ratio in [0, 1]",
		"in front: the share of heap pages each pass writes"),
	SCN_KEY("compress_ratio", KT_DOUBLE, KEY_UNSCALED, P, compress_ratio, 1, 100,
		"a ratio in [1, 100]", "how well the heaps compress in zram"),
	{ 0 }
};
#undef P

const struct workload_ops app_launch_ops = {
	.name = "app-launch",
	.desc = "cold app launches in sequence, each app its memcg and process",
	.keys = applaunch_keys,
	.params_size = sizeof(struct applaunch_params),
	.check = applaunch_check,
	.needs_device = workload_has_files,
	.device_pages = applaunch_device_pages,
	.start = applaunch_start,
	.report = applaunch_report,
};
