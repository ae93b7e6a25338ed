/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * NUMA topology: nodes, per-node free pages, watermarks, local-first page
 * allocation with fallback, the remote-access penalty, and the SimGrid
 * platform text for the machine. numa/ counts pages; it never reclaims them
 * (kswapd belongs to models/ and is reached through a callback).
 */
#ifndef MMEMU_NUMA_NUMA_H
#define MMEMU_NUMA_NUMA_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_NUMNODES 8
#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)

/*
 * Remote DRAM access costs about 1.6x local on two-socket Xeon servers
 * (Intel Memory Latency Checker: ~90 ns local, ~140 ns remote; KERNEL.md
 * gives 1.5-2x). Percent extra CPU for a page touched on another node.
 */
#define NUMA_REMOTE_PENALTY_PCT 60

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	NR_WMARK
};

struct numa_node {
	int nid;			/* node id */
	int nr_cpus;			/* cores of this node */
	uint64_t managed_pages;		/* pages the allocator manages */
	uint64_t nr_free;		/* free pages now */
	uint64_t nr_reserved;		/* pages taken by non-page-cache users (zram pool) */
	uint64_t wmark[NR_WMARK];	/* min/low/high watermarks in pages */
	uint64_t nr_alloc_local;	/* numa_hit-like: served on the preferred node */
	uint64_t nr_alloc_foreign;	/* numa_foreign-like: served on another node */
};

/* Called when an allocation found a node below its low watermark. */
typedef void (*wakeup_kswapd_fn)(void *ctx, int nid);

struct machine {
	int nr_nodes;			/* nodes in use */
	struct numa_node node[MAX_NUMNODES];
	uint64_t min_free_kbytes;	/* vm.min_free_kbytes in force */
	int64_t user_min_free_kbytes;	/* a value written to vm.min_free_kbytes (-1: none) */
	unsigned int watermark_scale_factor;	/* vm.watermark_scale_factor */
	wakeup_kswapd_fn wakeup_kswapd;	/* handed down by models/ */
	void *wakeup_ctx;		/* its context */
};

/* Sets up nodes with their page counts and cores, then the watermarks. */
int machine_init(struct machine *m, int nr_nodes, const uint64_t *pages,
		 const int *cpus, unsigned int watermark_scale_factor);
/* The kernel's init_per_zone_wmark_min + setup_per_zone_wmarks, one zone per node. */
void setup_per_zone_wmarks(struct machine *m);

static inline bool node_watermark_ok(const struct numa_node *n, enum zone_watermarks mark)
{
	return n->nr_free > n->wmark[mark];
}

/*
 * get_page_from_freelist(): the preferred node first, then the others in
 * distance order, each only if above `mark`. Returns the node or -1.
 */
int numa_alloc_page(struct machine *m, int preferred, enum zone_watermarks mark);
/* Same, ignoring watermarks (the last resort of a nofail allocation). */
int numa_alloc_page_nowmark(struct machine *m, int preferred);
void numa_free_page(struct machine *m, int nid);
/*
 * Pages numa_alloc_page(m, nid, mark) would now give one by one from nid
 * itself, above its mark (a fault range's budget); numa_take_pages() takes
 * nr of them at once, as many numa_alloc_page() calls would.
 */
uint64_t numa_alloc_budget(const struct machine *m, int nid, enum zone_watermarks mark);
void numa_take_pages(struct machine *m, int nid, uint64_t nr);
/* nr pages back to nid at once (a zap's batch): as many numa_free_page() */
void numa_free_pages(struct machine *m, int nid, uint64_t nr);
/* Pages taken by a non-LRU user (the zram pool): -1 if the node has none free. */
int numa_reserve_page(struct machine *m, int nid);
void numa_unreserve_page(struct machine *m, int nid);
/* Wakes kswapd of every node below its low watermark (wake_all_kswapds). */
void numa_wake_all_kswapds(struct machine *m);

/* Extra CPU ns for touching a page on `nid` from `cpu_nid`, given local cost. */
static inline uint64_t numa_access_cost(int cpu_nid, int nid, uint64_t local_ns)
{
	return cpu_nid == nid ? local_ns : local_ns * (100 + NUMA_REMOTE_PENALTY_PCT) / 100;
}

/* The SimGrid platform (hosts = nodes with their cores), malloc'ed XML text. */
char *numa_platform_xml(const struct machine *m);

#endif
