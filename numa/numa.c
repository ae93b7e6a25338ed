/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numa/numa.h"

int machine_init(struct machine *m, int nr_nodes, const uint64_t *pages,
		 const int *cpus, unsigned int watermark_scale_factor)
{
	if (nr_nodes < 1 || nr_nodes > MAX_NUMNODES)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->nr_nodes = nr_nodes;
	m->watermark_scale_factor = watermark_scale_factor;
	m->user_min_free_kbytes = -1;
	for (int i = 0; i < nr_nodes; i++) {
		if (!pages[i] || cpus[i] < 1)
			return -EINVAL;
		m->node[i].nid = i;
		m->node[i].nr_cpus = cpus[i];
		m->node[i].managed_pages = pages[i];
		m->node[i].nr_free = pages[i];
	}
	setup_per_zone_wmarks(m);
	return 0;
}

void setup_per_zone_wmarks(struct machine *m)
{
	uint64_t lowmem_kbytes = 0, total = 0;
	uint64_t min_pages;

	for (int i = 0; i < m->nr_nodes; i++)
		total += m->node[i].managed_pages;
	lowmem_kbytes = total * (PAGE_SIZE / 1024);
	/* calculate_min_free_kbytes(): sqrt(lowmem_kbytes * 16), clamped [128 KB,
	 * 256 MB]; a value written to the sysctl takes over as written
	 * (min_free_kbytes_sysctl_handler() sets user_min_free_kbytes) */
	m->min_free_kbytes = (uint64_t)sqrt((double)lowmem_kbytes * 16.0);
	if (m->min_free_kbytes < 128)
		m->min_free_kbytes = 128;
	if (m->min_free_kbytes > 262144)
		m->min_free_kbytes = 262144;
	if (m->user_min_free_kbytes >= 0)
		m->min_free_kbytes = (uint64_t)m->user_min_free_kbytes;
	min_pages = m->min_free_kbytes / (PAGE_SIZE / 1024);

	for (int i = 0; i < m->nr_nodes; i++) {
		struct numa_node *n = &m->node[i];
		/* __setup_per_zone_wmarks(): min shared in proportion to size */
		uint64_t min = min_pages * n->managed_pages / total;
		/* max(min/4, managed * watermark_scale_factor / 10000) */
		uint64_t gap = n->managed_pages * m->watermark_scale_factor / 10000;

		if (gap < min / 4)
			gap = min / 4;
		n->wmark[WMARK_MIN] = min;
		n->wmark[WMARK_LOW] = min + gap;
		n->wmark[WMARK_HIGH] = min + 2 * gap;
	}
}

static int numa_take(struct machine *m, int nid, int preferred)
{
	struct numa_node *n = &m->node[nid];

	n->nr_free--;
	if (nid == preferred)
		n->nr_alloc_local++;
	else
		m->node[preferred].nr_alloc_foreign++;
	return nid;
}

int numa_alloc_page(struct machine *m, int preferred, enum zone_watermarks mark)
{
	/* Zonelist order: the local node, then the others in id order. */
	for (int i = 0; i < m->nr_nodes; i++) {
		int nid = (preferred + i) % m->nr_nodes;

		if (node_watermark_ok(&m->node[nid], mark))
			return numa_take(m, nid, preferred);
	}
	return -1;
}

uint64_t numa_alloc_budget(const struct machine *m, int nid, enum zone_watermarks mark)
{
	const struct numa_node *n = &m->node[nid];

	return n->nr_free > n->wmark[mark] ? n->nr_free - n->wmark[mark] : 0;
}

void numa_take_pages(struct machine *m, int nid, uint64_t nr)
{
	m->node[nid].nr_free -= nr;
	m->node[nid].nr_alloc_local += nr;
}

int numa_alloc_page_nowmark(struct machine *m, int preferred)
{
	for (int i = 0; i < m->nr_nodes; i++) {
		int nid = (preferred + i) % m->nr_nodes;

		if (m->node[nid].nr_free)
			return numa_take(m, nid, preferred);
	}
	return -1;
}

void numa_free_page(struct machine *m, int nid)
{
	m->node[nid].nr_free++;
}

void numa_free_pages(struct machine *m, int nid, uint64_t nr)
{
	m->node[nid].nr_free += nr;
}

int numa_reserve_page(struct machine *m, int nid)
{
	struct numa_node *n = &m->node[nid];

	if (!n->nr_free)
		return -1;
	n->nr_free--;
	n->nr_reserved++;
	return 0;
}

void numa_unreserve_page(struct machine *m, int nid)
{
	m->node[nid].nr_reserved--;
	m->node[nid].nr_free++;
}

void numa_wake_all_kswapds(struct machine *m)
{
	for (int i = 0; i < m->nr_nodes; i++)
		if (!node_watermark_ok(&m->node[i], WMARK_LOW) && m->wakeup_kswapd)
			m->wakeup_kswapd(m->wakeup_ctx, i);
}

char *numa_platform_xml(const struct machine *m)
{
	size_t cap = 512 + 128 * (size_t)m->nr_nodes, len;
	char *s = malloc(cap);

	if (!s)
		return NULL;
	len = (size_t)snprintf(s, cap,
		"<?xml version='1.0'?>\n"
		"<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
		"<platform version=\"4.1\">\n<zone id=\"machine\" routing=\"Full\">\n");
	for (int i = 0; i < m->nr_nodes; i++)
		/* 1 Gflop/s: one flop is one nanosecond of CPU time */
		len += (size_t)snprintf(s + len, cap - len,
			"  <host id=\"node%d\" speed=\"1Gf\" core=\"%d\"/>\n",
			i, m->node[i].nr_cpus);
	snprintf(s + len, cap - len, "</zone>\n</platform>\n");
	return s;
}
