/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ycsb: the YCSB core workloads A-F (ycsb_workload = a..f) on the
 * WiredTiger-like store of workload.c: the operation mix, the request
 * distribution (scrambled zipfian, or latest for D), inserts after the
 * loaded records, range scans in key order, read-modify-writes.
 * Set, ycsb_workload replaces write_ratio (which only the default mix uses).
 */
#ifndef MMEMU_SCENARIOS_WL_YCSB_H
#define MMEMU_SCENARIOS_WL_YCSB_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/workload.h"

/* True when `letter` names a core workload (a..f). */
bool ycsb_workload_valid(const char *letter);
/* 4 KiB pages of the data file: the loaded records plus room for inserts. */
uint64_t ycsb_file_pages(const struct scn_workload *cfg);
/* After the store is set up: the mix state (w->priv) and key generators. 0 or -errno. */
int ycsb_mix_init(struct workload *w);
/* One operation of the mix; *write when it modified the store. 0 or -errno. */
int ycsb_mix_op(struct workload *w, struct actor *a, bool *write);
void ycsb_mix_report(const struct workload *w, struct result_group *g);

/* workload.c: one record through the store's cache (outcome counted); create:
 * the record starts a leaf that is not on disk yet (nothing to read). */
int ycsb_store_access(struct workload *w, struct actor *a, uint64_t key, bool write,
		      bool create);

#endif
