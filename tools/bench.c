/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu bench`: simulated page accesses per host second on the hit path
 * (anon, mmap'd file, read()), page faults per host second (zero-fill, and
 * major faults under memcg reclaim from NVMe), and bytes per folio; with
 * --trace, a trace replay (tools/bench_trace.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <time.h>

#include "models/memory.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "models/vmscan.h"
#include "models/writeback.h"
#include "scenarios/scenario.h"
#include "tools/child.h"
#include "tools/bench.h"
#include "tools/help.h"

struct bench {
	uint64_t hits;			/* accesses per hit-path phase */
	uint64_t faults;		/* zero-fill faults */
	uint64_t major;			/* accesses in the reclaim phase */
	struct blockdev dev;		/* NVMe for the file phase */
	double anon_hit_rate, mmap_hit_rate, read_hit_rate;
	double fault_rate, reclaim_fault_rate;
	double reclaim_fault_cpu_rate;	/* the same per CPU second of the process */
	uint64_t reclaim_faults;	/* major faults seen in the reclaim phase */
	uint64_t pgscan;		/* pages scanned in the reclaim phase */
};

double bench_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* the engine runs every actor on one thread */
double bench_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void bench_actor(struct actor *a, void *arg)
{
	struct bench *b = arg;
	const uint64_t ws = 1 << 16;	/* 256 MiB resident working set */
	struct task *t = task_create("bench", mm.root_mem_cgroup, 0);
	struct address_space *anon = anon_region_create(t, "heap", ws);
	struct address_space *file = file_create("file", ws, &b->dev, 0, false);
	struct address_space *fresh = anon_region_create(t, "fresh", b->faults);
	struct mem_cgroup *small = mem_cgroup_create(mm.root_mem_cgroup, "small");
	struct task *t2 = task_create("bench2", small, 0);
	struct address_space *big = file_create("big", 1 << 18, &b->dev, ws, false);
	double t0, c0;
	uint64_t sink = 0;

	for (uint64_t i = 0; i < ws; i++) {
		anon_access(a, t, anon, i, true);
		filemap_map_access(a, t, file, i, false);
		actor_cond_resched(a);
	}

	t0 = bench_now_s();
	for (uint64_t i = 0; i < b->hits; i++) {
		sink += (uint64_t)anon_access(a, t, anon, rng_below(&a->rng, ws), i & 1);
		actor_cond_resched(a);
	}
	b->anon_hit_rate = (double)b->hits / (bench_now_s() - t0);

	t0 = bench_now_s();
	for (uint64_t i = 0; i < b->hits; i++) {
		sink += (uint64_t)filemap_map_access(a, t, file, rng_below(&a->rng, ws), false);
		actor_cond_resched(a);
	}
	b->mmap_hit_rate = (double)b->hits / (bench_now_s() - t0);

	t0 = bench_now_s();
	for (uint64_t i = 0; i < b->hits / 4; i++) {
		sink += (uint64_t)filemap_read(a, t, file, rng_below(&a->rng, ws));
		actor_cond_resched(a);
	}
	b->read_hit_rate = (double)(b->hits / 4) / (bench_now_s() - t0);

	t0 = bench_now_s();
	for (uint64_t i = 0; i < b->faults; i++) {
		sink += (uint64_t)anon_access(a, t, fresh, i, true);
		actor_cond_resched(a);
	}
	b->fault_rate = (double)b->faults / (bench_now_s() - t0);

	/* major faults under memcg reclaim: a 1 GiB file through a 128 MiB memcg */
	small->max = 1 << 15;
	c0 = bench_cpu_s();
	t0 = bench_now_s();
	for (uint64_t i = 0; i < b->major; i++) {
		int ret = filemap_map_access(a, t2, big, rng_below(&a->rng, 1 << 18), false);

		b->reclaim_faults += ret == ACCESS_MAJOR;
		actor_cond_resched(a);
	}
	b->reclaim_fault_rate = (double)b->reclaim_faults / (bench_now_s() - t0);
	b->reclaim_fault_cpu_rate = (double)b->reclaim_faults / (bench_cpu_s() - c0);
	b->pgscan = memcg_events(small, PGSCAN_DIRECT);
	if (sink == 42)
		fprintf(stderr, " ");
}

int bench_boot(uint64_t pages, const struct reclaim_policy *policy, struct blockdev *dev,
	       actor_fn fn, void *arg)
{
	/* the bench actor, kswapd, the device's flusher, the memcg stats flusher
	 * and the timer on cores of their own: no CPU time is shared */
	int cpus[1] = { 8 };
	struct bdev_params p;
	struct machine m;
	char *xml;

	machine_init(&m, 1, &pages, cpus, 10);
	xml = numa_platform_xml(&m);
	if (!xml || engine_init(xml, 1) || mm_init(&m, policy, 60, 1)) {
		free(xml);
		fprintf(stderr, "mmemu: bench: setup failed\n");
		return 1;
	}
	free(xml);
	blockdev_default_params(BDEV_NVME, &p);
	blockdev_init(dev, "nvme", &p, 1);
	/* dirty pages need the flusher, and memcg dirty limits the rstat flush
	 * (mm_start_daemons), as a scenario's machine has them */
	if (wb_create(dev)) {
		fprintf(stderr, "mmemu: bench: setup failed\n");
		return 1;
	}
	actor_create("bench", 0, fn, arg, false);
	if (mm_start_daemons()) {
		fprintf(stderr, "mmemu: bench: setup failed\n");
		return 1;
	}
	engine_run(0);
	return 0;
}

int cmd_bench(int argc, char **argv)
{
	struct bench b = { .hits = 20000000, .faults = 1000000, .major = 300000 };
	const struct reclaim_policy *policy = &classic_policy;
	struct rusage ru;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			help_command(stdout, "bench");
			return 0;
		}
		if (!strcmp(argv[i], "--format")) {
			fprintf(stderr, "mmemu: bench: --format is now --trace-format (--format names "
					"an output format everywhere)\n");
			return 2;
		}
	}
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--trace") || !strncmp(argv[i], "--trace=", 8))
			return bench_trace(argc, argv);
	if (argc == 3 && !strcmp(argv[1], "--policy")) {
		char err[512];

		if (!(policy = child_policy_get(argv[2], err, sizeof(err)))) {
			fprintf(stderr, "mmemu: bench: --policy: %s\n", err);
			return 2;
		}
	} else if (argc != 1)
		policy = NULL;
	if (!policy) {
		help_command(stderr, "bench");
		return 2;
	}
	if (bench_boot(8ULL << 18, policy, &b.dev, bench_actor, &b))	/* 8 GiB */
		return 1;
	getrusage(RUSAGE_SELF, &ru);

	printf("policy                            %12s\n", policy->name);
	printf("hit path, anon (young bit)        %12.1f M accesses/s\n", b.anon_hit_rate / 1e6);
	printf("hit path, mmap file (young bit)   %12.1f M accesses/s\n", b.mmap_hit_rate / 1e6);
	printf("hit path, read() (mark_accessed)  %12.1f M accesses/s\n", b.read_hit_rate / 1e6);
	printf("zero-fill faults                  %12.1f K faults/s\n", b.fault_rate / 1e3);
	printf("major faults under memcg reclaim  %12.1f K faults/s (%llu faults, %llu scanned)\n",
	       b.reclaim_fault_rate / 1e3, (unsigned long long)b.reclaim_faults,
	       (unsigned long long)b.pgscan);
	/* on a shared machine the wall-clock rate counts other processes' time too */
	printf("major faults per CPU second       %12.1f K faults/s\n",
	       b.reclaim_fault_cpu_rate / 1e3);
	printf("bytes per folio                   %12zu\n", sizeof(struct folio));
	printf("bytes per mapped page (slot+pte)  %12zu\n", sizeof(uint64_t) + sizeof(uint8_t));
	printf("peak host memory                  %12.1f MiB (8 GiB machine)\n",
	       (double)ru.ru_maxrss / 1024);
	return 0;
}
