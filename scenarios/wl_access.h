/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The operation loop of the page-access generators (file-zipf, anon, dd,
 * trace): each thread takes the next operation, touches pages_per_op
 * consecutive pages from its first key through read()/write(), a shared
 * mapping, or anonymous memory, and records the operation's latency. A
 * type only says where its keys come from (next_key) and what it maps.
 */
#ifndef MMEMU_SCENARIOS_WL_ACCESS_H
#define MMEMU_SCENARIOS_WL_ACCESS_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/workload.h"
#include "scenarios/zipf.h"

/* access = read | mmap: how a file is reached */
enum access_kind {
	ACC_READ,		/* read()/write() system calls */
	ACC_MMAP,		/* loads and stores through a shared mapping */
};

/* The keys of the page-access types (each takes those its key table names). */
struct access_params {
	int access;			/* enum access_kind (files) */
	double zipf_theta;		/* key skew; 0 = uniform */
	int scramble;			/* zipf_scramble_hash_first index */
	uint64_t pages_per_op;		/* consecutive pages touched per operation */
	double write_ratio;		/* share of operations that write */
	bool prefault;			/* anon: write every page once first */
	double compress_ratio;		/* anon: zram ratio of its data (0: the compressor's) */
};

/* The access choices, for a KT_CHOICE key. */
extern const char *const access_kind_names[];

struct access_gen;

/* The first key of operation number `op` and whether it writes. */
typedef uint64_t (*access_next_key_fn)(struct access_gen *g, struct actor *a, uint64_t op,
				       bool *write);

/* One page-access workload (w->priv); a type may embed it first in its own. */
struct access_gen {
	struct workload *w;		/* the workload */
	const struct access_params *p;	/* its keys */
	struct address_space *as;	/* the file or the anonymous region */
	bool anon;			/* as is anonymous memory */
	uint64_t nr_keys;		/* keys: pages / pages_per_op */
	struct zipf zipf;		/* key popularity (the zipfian types) */
	access_next_key_fn next_key;	/* where keys come from */
	uint32_t op_pages;		/* next_key may set it: the operation touches op_pages
					 * pages from the key taken as a page (trace objects) */
};

/* params_init: one page per operation, read() */
void access_params_init(struct scn_workload *cfg);
/* pages_per_op: the pages_per_op key (cfg->params starts with struct access_params) */
uint64_t access_pages_per_op(const struct scn_workload *cfg);
/* check: one operation fits the size */
int access_check(struct scn_workload *cfg, const struct scn_check *ck);
/*
 * Maps the workload's data (a file on bdev, or with anon an anonymous
 * region) into g, which becomes w->priv, and starts `threads` actors.
 * 0 or -errno.
 */
int access_gen_start(struct access_gen *g, struct workload *w, const struct access_params *p,
		     bool anon, access_next_key_fn next_key, struct blockdev *bdev,
		     uint64_t bdev_start);

#endif
