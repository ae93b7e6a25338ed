/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one walk over saved results: every (group, key) that any run of an
 * mmemu.Invocation holds, in the order the runs produced them (groups in
 * order of first appearance, keys likewise within a group), with each run's
 * value of each. The text table, the summaries over seeds and their JSON
 * and CSV read results through this, so no view can leave a group out.
 */
#ifndef MMEMU_TOOLS_RESULTSET_H
#define MMEMU_TOOLS_RESULTSET_H

#include <stdbool.h>
#include <stddef.h>

#include "core/histogram.h"
#include "scenarios/result.h"

/* One (group, key): a row of a table. */
struct rs_slot {
	int group;		/* index into resultset.groups */
	const char *key;	/* the key (borrowed from the first run that has it) */
};

struct rs_group {
	const char *name;	/* "vmstat", "memcg.app.memory.stat", ... (borrowed) */
	int *slots;		/* its slots, in key order */
	int nr_slots;
};

struct resultset {
	const Mmemu__Invocation *inv;	/* the runs (borrowed) */
	size_t nr_runs;
	struct rs_group *groups;
	int nr_groups;
	struct rs_slot *slots;
	int nr_slots;
	const Mmemu__Value **val;	/* [run * nr_slots + slot]; NULL where a run lacks it */
};

/* Builds the walk over inv's runs. 0 or -ENOMEM. */
int resultset_build(struct resultset *rs, const Mmemu__Invocation *inv);
void resultset_free(struct resultset *rs);

/* The slot of (group, key), or -1. */
int resultset_find(const struct resultset *rs, const char *group, const char *key);
/* Run r's value in slot, or NULL. */
static inline const Mmemu__Value *resultset_value(const struct resultset *rs, size_t r, int slot)
{
	return slot < 0 ? NULL : rs->val[r * (size_t)rs->nr_slots + (size_t)slot];
}

/* ---- what a (group, key) is: the presentation the text table gives it ---- */

enum value_class {
	VC_PLAIN,	/* a count, a rate or a time: printed as it is */
	VC_BYTES,	/* bytes: printed in K/M/G */
	VC_LIMIT,	/* a memcg limit in bytes, 0 meaning none ("max") */
	VC_BUCKET,	/* a percentile read from a log-linear histogram (core/histogram.h) */
};

/*
 * How far a VC_BUCKET value can be from the true percentile: hist_quantile()
 * returns the midpoint of a bucket at most 1/HIST_SUB of its lower bound wide.
 */
#define BUCKET_REL_ERROR (1.0 / (2.0 * HIST_SUB))

enum value_class value_class_of(const char *group, const char *key);

/* The group's kind: "memcg", "memory.stat" (memcg.X.memory.stat), "workload", "node", ... */
bool group_is_kind(const char *group, const char *kind);

/*
 * Whether file pb's runs may stand beside file pa's, on one table (report)
 * or one set of axes (plot, view): the same scenario, the same scenario text
 * and the same scale, one rule for all three. 0, or -1 with a message for
 * cmd naming both files and what differs (--force mixes them).
 */
int result_same_experiment(const Mmemu__Invocation *a, const char *pa,
			   const Mmemu__Invocation *b, const char *pb, const char *cmd,
			   char *why, size_t len);

/*
 * Whether every sample of inv (read from path) holds a row (stats, lruvec
 * or oom), as the JSON output and the view print them; -1 with a message
 * naming the file, the run and the sample when one does not.
 */
int result_check_samples(const Mmemu__Invocation *inv, const char *path, char *why, size_t len);

struct reclaim_policy;

/*
 * Whether policy p maintains the workingset_* counters: they count in its
 * workingset_eviction (the shadow entry) and workingset_refault ops, both
 * optional for a plug-in.
 */
bool result_policy_keeps_workingset(const struct reclaim_policy *p);

/*
 * Drops from run r the counters its policy p does not maintain (every
 * workingset_* key, in vmstat and memory.stat, when p lacks either
 * workingset op), so that they print as missing ("-"), not as a real 0 that
 * compares as -100%. How many values were dropped.
 */
size_t result_drop_unmaintained(Mmemu__Run *r, const struct reclaim_policy *p);

/* Whether run r had its workingset_* counters dropped (no vmstat workingset_refault_file). */
bool result_workingset_dropped(const Mmemu__Run *r);
/*
 * The name a run's column is headed by: the policy, or for a policy from a
 * file its own name unless another column's differs only by file.
 */
const char *resultset_policy_label(const Mmemu__Invocation *inv, size_t i);

#endif
