/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/debug.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "models/swap.h"
#include "models/zswap.h"
#include "models/writeback.h"
#include "models/vmscan.h"
#include "scenarios/report.h"
#include "scenarios/run.h"
#include "scenarios/sample.h"
#include "scenarios/workload.h"

/*
 * The names a run gives the model are a scenario's (at most SCN_NAME_LEN - 1
 * characters) with a suffix of at most NAME_SUFFIX_MAX ("-511.63",
 * ".job.<20 digits>"): every field that keeps one holds it whole, and the
 * model refuses a name that does not fit rather than cut it.
 */
#define NAME_SUFFIX_MAX 26
_Static_assert(sizeof(((struct blockdev *)0)->name) >= SCN_NAME_LEN, "device names fit");
_Static_assert(sizeof(((struct actor *)0)->name) >= SCN_NAME_LEN + NAME_SUFFIX_MAX,
	       "actor names fit");
_Static_assert(sizeof(((struct task *)0)->name) >= SCN_NAME_LEN + NAME_SUFFIX_MAX,
	       "task names fit");
_Static_assert(sizeof(((struct address_space *)0)->name) >= SCN_NAME_LEN + NAME_SUFFIX_MAX,
	       "file and region names fit");
/* chrome-node's "<name>-<group>" (groups <= 512), app-launch's "<name>.<app>" (apps <= 1000) */
_Static_assert(sizeof(((struct mem_cgroup *)0)->name) >= SCN_NAME_LEN + sizeof("-999") - 1,
	       "memcg names fit");
_Static_assert(sizeof(((struct result_group *)0)->name) >=
	       sizeof("memcg.") + sizeof(((struct mem_cgroup *)0)->name) + sizeof(".memory.pressure"),
	       "group names fit");

/*
 * The kernel's periods shrink with the run (README, "Scale"): at --scale s
 * a run's sizes and operation counts are s times the full-scale ones, so it
 * lasts about s times as long, and so do the periods that recur in it;
 * scenario keys of kind KEY_PERIOD (min_ttl_ms, checkpoint, commit_interval,
 * file-scan's pause) scale the same way when read. Latencies and CPU
 * costs do not scale.
 */
static void scale_kernel_periods(double scale)
{
	/* vm.dirty_expire_centisecs, vm.dirty_writeback_centisecs */
	mm.dirty_expire_ns = (uint64_t)llround((double)mm.dirty_expire_ns * scale);
	mm.dirty_writeback_interval_ns =
		(uint64_t)llround((double)mm.dirty_writeback_interval_ns * scale);
	/* memcg's FLUSH_TIME (the periodic rstat flush) */
	mm.memcg_flush_time_ns = (uint64_t)llround((double)mm.memcg_flush_time_ns * scale);
}

static uint64_t pages_of(uint64_t bytes)
{
	return bytes == UINT64_MAX ? UINT64_MAX : bytes / 4096;
}

static double host_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- building the machine ---- */

/* What a run builds from a scenario: freed by machine_free(). */
struct run_machine {
	struct blockdev *devs;		/* [device.*], in the scenario's order */
	uint64_t *dev_next;		/* each device's next free page (workloads, then swap) */
	struct workload *wls;		/* [workload.*], in the scenario's order */
};

static void machine_free(struct run_machine *m)
{
	free(m->devs);
	free(m->dev_next);
	free(m->wls);
}

/* The nodes, the engine over their platform, and the model (mm_init) under policy. */
static int boot(const struct scenario *s, const struct reclaim_policy *policy, uint64_t seed,
		char *err, size_t errlen)
{
	uint64_t pages[SCN_MAX_NODES];
	int cpus[SCN_MAX_NODES];
	struct machine machine;
	char *xml;

	for (int n = 0; n < s->machine.nodes; n++) {
		pages[n] = (s->node[n].memory ? s->node[n].memory : s->machine.node_memory) / 4096;
		cpus[n] = s->node[n].cpus ? s->node[n].cpus : s->machine.node_cpus;
	}
	if (machine_init(&machine, s->machine.nodes, pages, cpus,
			 (unsigned int)s->sysctl.watermark_scale_factor)) {
		snprintf(err, errlen, "scenario '%s': [machine]: impossible machine", s->path);
		return -1;
	}
	/* a vm.min_free_kbytes write: user_min_free_kbytes, then setup_per_zone_wmarks() */
	if (s->sysctl.min_free_kbytes != UINT64_MAX) {
		machine.user_min_free_kbytes = (int64_t)s->sysctl.min_free_kbytes;
		setup_per_zone_wmarks(&machine);
	}
	xml = numa_platform_xml(&machine);
	if (!xml || engine_init(xml, seed)) {
		free(xml);
		snprintf(err, errlen, "engine: cannot load the platform");
		return -1;
	}
	free(xml);
	if (mm_init(&machine, policy, s->sysctl.swappiness, seed)) {
		snprintf(err, errlen, "scenario '%s': cannot set up %llu pages", s->path,
			 (unsigned long long)folio_table.nr);
		return -1;
	}
	return 0;
}

/* The policy's knobs ([mglru]), [kernel], [debugfs], [memcg] and [sysctl] into the model. */
static void set_knobs(const struct scenario *s, const struct reclaim_policy *policy)
{
	if (policy->knobs)
		policy->knobs->set(scenario_policy_knobs(s, policy));
	mm.kernel = scenario_kernel(s);
	mm.page_cluster = s->sysctl.page_cluster;
	/* fault_around_bytes_set(): rounddown_pow_of_two(max(val, PAGE_SIZE)) pages */
	mm.fault_around_pages = 1;
	while ((uint64_t)mm.fault_around_pages * 2 * 4096 <= s->debugfs.fault_around_bytes)
		mm.fault_around_pages *= 2;
	if (s->memcg_opts.reclaim_batch >= 0)
		mm.reclaim_batch = (enum memcg_reclaim_batch)s->memcg_opts.reclaim_batch;
	mm.vm_dirty_ratio = s->sysctl.dirty_ratio;
	mm.vm_dirty_background_ratio = s->sysctl.dirty_background_ratio;
	mm.vm_dirty_bytes = s->sysctl.dirty_bytes;
	mm.vm_dirty_background_bytes = s->sysctl.dirty_background_bytes;
	mm.dirty_expire_ns = (uint64_t)s->sysctl.dirty_expire_cs * 10 * NSEC_PER_MSEC;
	mm.dirty_writeback_interval_ns = (uint64_t)s->sysctl.dirty_writeback_cs * 10 * NSEC_PER_MSEC;
	scale_kernel_periods(s->machine.scale);
}

/* [device.*]: each with its flusher (wb_create). */
static int create_devices(const struct scenario *s, struct run_machine *m, uint64_t seed,
			  char *err, size_t errlen)
{
	for (int i = 0; i < s->nr_devices; i++) {
		const struct scn_device *sd = &s->device[i];
		struct bdev_params p;
		enum bdev_type t;

		bdev_type_parse(sd->type, &t);
		blockdev_default_params(t, &p);
		if (sd->read_lat_ns)
			p.read_lat_ns = sd->read_lat_ns;
		if (sd->write_lat_ns)
			p.write_lat_ns = sd->write_lat_ns;
		if (sd->read_bw)
			p.read_bw = sd->read_bw;
		if (sd->write_bw)
			p.write_bw = sd->write_bw;
		if (sd->channels)
			p.nr_channels = (unsigned int)sd->channels;
		p.delay_read_ns = sd->delay_read_ns;
		p.delay_write_ns = sd->delay_write_ns;
		blockdev_init(&m->devs[i], sd->name, &p, seed);
		m->devs[i].no_readahead = !sd->readahead;
		if (wb_create(&m->devs[i])) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	return 0;
}

/* [memcg.*], parents before children (the parser checks the order), with their limits. */
static int create_memcgs(const struct scenario *s, char *err, size_t errlen)
{
	for (int i = 0; i < s->nr_memcgs; i++) {
		const struct scn_memcg *sm = &s->memcg[i];
		struct mem_cgroup *parent = mm.root_mem_cgroup, *memcg;

		if (sm->parent[0])
			parent = mem_cgroup_find(sm->parent);
		memcg = mem_cgroup_create(parent, sm->name);
		if (!memcg) {
			snprintf(err, errlen, "scenario '%s': too many memcgs", s->path);
			return -1;
		}
		memcg->max = pages_of(sm->max);
		memcg->high = pages_of(sm->high);
		memcg->low = pages_of(sm->low);
		memcg->min = pages_of(sm->min);
		memcg->swap_max = pages_of(sm->swap_max);
		memcg->zswap_max = pages_of(sm->zswap_max);
		if (sm->swappiness >= 0)
			memcg->swappiness = sm->swappiness;
		memcg->oom_group = sm->oom_group == 1;
	}
	return 0;
}

/* [workload.*]: each in its memcg, its files from its device's next free page. */
static int start_workloads(const struct scenario *s, struct run_machine *m, char *err,
			   size_t errlen)
{
	for (int i = 0; i < s->nr_workloads; i++) {
		const struct scn_workload *sw = &s->workload[i];
		struct mem_cgroup *memcg = sw->memcg[0] ? mem_cgroup_find(sw->memcg)
							: mm.root_mem_cgroup;
		struct blockdev *bdev = NULL;
		uint64_t start = 0;
		int ret;

		for (int d = 0; d < s->nr_devices; d++) {
			if (!strcmp(s->device[d].name, sw->device)) {
				bdev = &m->devs[d];
				start = m->dev_next[d];
				m->dev_next[d] += workload_device_pages(sw);
			}
		}
		ret = workload_start(&m->wls[i], sw, memcg, bdev, start);
		/* what the scenario asks is checked up front: this is the host's limit */
		if (ret) {
			snprintf(err, errlen, "scenario '%s': [workload.%s]: cannot set it up: %s",
				 s->path, sw->name,
				 ret == -ENOMEM ? "out of host memory for its pages (size)"
						: strerror(-ret));
			return -1;
		}
	}
	return 0;
}

/* [swap]: zram, or a block device after the workloads' pages; zswap in front. */
static int setup_swap(const struct scenario *s, struct run_machine *m, char *err, size_t errlen)
{
	if (!strcmp(s->swap.type, "zram")) {
		enum zram_comp c;

		zram_comp_parse(s->swap.comp_algorithm, &c);
		if (swap_init_zram(c, s->swap.size / 4096)) {
			snprintf(err, errlen, "scenario '%s': [swap]: cannot set up zram", s->path);
			return -1;
		}
	} else if (!strcmp(s->swap.type, "block")) {
		for (int d = 0; d < s->nr_devices; d++)
			if (!strcmp(s->device[d].name, s->swap.device) &&
			    swap_init_block(&m->devs[d], m->dev_next[d], s->swap.size / 4096)) {
				snprintf(err, errlen, "scenario '%s': [swap]: cannot set up swap",
					 s->path);
				return -1;
			}
	}
	if (s->swap.zswap) {
		struct zswap_params zp = {
			.max_pool_percent = (unsigned int)s->swap.max_pool_percent,
			.accept_thr_percent = (unsigned int)s->swap.accept_threshold_percent,
			.shrinker_enabled = s->swap.shrinker_enabled,
		};

		zram_comp_parse(s->swap.comp_algorithm, &zp.compressor);
		if (zswap_init(&zp, mm.swap->nr_slots)) {
			snprintf(err, errlen, "scenario '%s': [swap]: cannot set up zswap", s->path);
			return -1;
		}
	}
	return 0;
}

/* The machine the scenario describes, booted and populated, kswapd and the flusher running. */
static int build_machine(const struct scenario *s, const struct run_opts *o,
			 const struct reclaim_policy *policy, struct run_machine *m, char *err,
			 size_t errlen)
{
	if (boot(s, policy, o->seed, err, errlen))
		return -1;
	set_knobs(s, policy);
	m->devs = calloc((size_t)s->nr_devices + 1, sizeof(*m->devs));
	m->dev_next = calloc((size_t)s->nr_devices + 1, sizeof(*m->dev_next));
	m->wls = calloc((size_t)s->nr_workloads + 1, sizeof(*m->wls));
	if (!m->devs || !m->dev_next || !m->wls) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (create_devices(s, m, o->seed, err, errlen) || create_memcgs(s, err, errlen) ||
	    start_workloads(s, m, err, errlen) || setup_swap(s, m, err, errlen))
		return -1;
	if (mm_start_daemons()) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

/* ---- the end of a run ---- */

/*
 * A warning the run raised: it fails a checked run (o->check_invariants),
 * else it is said on stderr and the run stands. 0 or -1 (err says it).
 */
static int warn_or_fail(const struct run_opts *o, char *err)
{
	if (o->check_invariants)
		return -1;
	fprintf(stderr, "mmemu: warning: %s\n", err);
	err[0] = 0;
	return 0;
}

/* The model's state after the run: its invariants, its contract checks, the engine's word. */
static int check_run_end(const struct run_opts *o, char *err, size_t errlen)
{
	if (mm_invariants_broken()) {
		snprintf(err, errlen, "%s", mm_invariants_broken());
		return -1;
	}
	if (o->check_invariants && mm_check_invariants(err, errlen))
		return -1;
	/* a broken VM_WARN_ON() contract fails a checked run; others say it */
	if (mm_warned()) {
		snprintf(err, errlen, "%s (%llu times)", mm_warned(),
			 (unsigned long long)mm_nr_warnings());
		if (warn_or_fail(o, err))
			return -1;
	}
	return 0;
}

/* What the result records of the run itself: policy, options, kernel, seed, time. */
static void record_run(struct run_result *r, const struct run_opts *o, uint64_t end_ns)
{
	const struct policy_file *pf = reclaim_policy_file(o->policy);

	result_set_run(r, o->policy, o->options);
	result_set_kernel(r, mm.kernel->name);
	if (pf)
		result_set_policy_file(r, pf->path, pf->sha256, pf->policy->name);
	r->seed = o->seed;
	r->sim_seconds = (double)end_ns / 1e9;
}

int scenario_run(const struct scenario *s, const struct run_opts *o,
		 struct run_result *r, char *err, size_t errlen)
{
	const struct reclaim_policy *policy = reclaim_policy_get(o->policy, err, errlen);
	struct run_machine m = { NULL, NULL, NULL };
	double host_start = host_now();
	struct sampler sm;
	uint64_t end_ns;
	int rc = -1;

	if (!policy || scenario_check_policy(s, o->policy, err, errlen))
		return -1;
	if (build_machine(s, o, policy, &m, err, errlen))
		goto out;
	sampler_start(&sm, o, r, m.wls, s->nr_workloads, s->machine.duration_ns);
	if (o->check_invariants)
		mm_check_invariants_periodic(o->check_every);
	end_ns = engine_run(s->machine.duration_ns);
	if (check_run_end(o, err, errlen))
		goto out;
	sampler_finish(&sm, end_ns);
	record_run(r, o, end_ns);
	run_report(r, s, o, m.wls, m.devs, end_ns);
	r->host_seconds = host_now() - host_start;
	rc = 0;
out:
	machine_free(&m);
	return rc;
}
