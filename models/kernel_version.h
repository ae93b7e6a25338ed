/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Which kernel the model emulates ([machine] kernel = 6.1 | 6.6 | 6.12 |
 * 7.2): the reclaim rules that changed between those releases, one flag
 * each, looked up in one table (kernel_version.c) that cites the commit or
 * release of every change. The model's code asks mm.kernel, never a
 * version number.
 */
#ifndef MMEMU_MODELS_KERNEL_VERSION_H
#define MMEMU_MODELS_KERNEL_VERSION_H

#include <stdbool.h>
#include <stddef.h>

enum kernel_version {
	KERNEL_6_1,
	KERNEL_6_6,
	KERNEL_6_12,
	KERNEL_7_2,
	NR_KERNEL_VERSIONS
};

/* The default: the newest release modelled. */
#define KERNEL_DEFAULT KERNEL_7_2

/* The rules of one release; kernel_rule_docs[] says where each changed. */
struct kernel_rules {
	const char *name;		/* "6.1" */
	/*
	 * vma_has_recency(): VM_RAND_READ mappings have no recency either, so
	 * rmap ignores their young PTEs; before, only VM_SEQ_READ was ignored
	 * (its young bit cleared, not counted), and only MGLRU's walk,
	 * look-around and LRU-fault marking skipped VM_RAND_READ.
	 */
	bool vma_has_recency;
	/*
	 * MGLRU refault accounting: every refault counts in
	 * workingset_refault_*, a recent one in workingset_activate_*; before,
	 * only recent refaults counted and workingset_activate_* counted the
	 * folios sort_folio() protected by tier.
	 */
	bool lru_gen_refault_all;
	/* lru_gen_test_recent(): within MAX_NR_GENS of max_seq (before: the token's gen is min_seq) */
	bool lru_gen_recent_max_seq;
	/*
	 * lru_gen_refault(): workingset_activate_* only in an LRU fault, and
	 * restore (PG_workingset, workingset_restore_*) iff the shadow had
	 * PG_workingset; before, every recent refault activated and restore
	 * came in a fault or at refs + workingset >= 3.
	 */
	bool lru_gen_activate_in_fault;
	/* zram swap I/O goes through submit_bio() (pgpgin/pgpgout); before, ->rw_page */
	bool zram_swap_bio;
	/* zswap's memcg-aware shrinker (shrinker_enabled), and memory.zswap.max writing back */
	bool zswap_shrinker;
	/* zswap entries get a second chance: referenced on store, rotated once by the shrinker */
	bool zswap_second_chance;
	/* zswap_load() into the swap cache frees the entry and dirties the folio */
	bool zswap_exclusive_loads;
	/* a page compressing to PAGE_SIZE or more is stored as it is (before: rejected) */
	bool zswap_incompressible_as_is;
};

extern const struct kernel_rules kernel_rules_table[NR_KERNEL_VERSIONS];

/* The rules of release `name` ("6.12"), or NULL. */
const struct kernel_rules *kernel_rules_find(const char *name);

/* A rule, for `mmemu list kernels` and the README: which field, what, since when. */
struct kernel_rule_doc {
	const char *key;		/* short name */
	size_t offset;			/* its bool in struct kernel_rules */
	const char *what;		/* what it changes, one line */
	const char *since;		/* the commit or release that changed it */
};
extern const struct kernel_rule_doc kernel_rule_docs[];	/* NULL key ends it */

static inline bool kernel_rule(const struct kernel_rules *k, const struct kernel_rule_doc *d)
{
	return *(const bool *)((const char *)k + d->offset);
}

/*
 * Whether a built-in policy existed in release k (a policy the table does
 * not know, e.g. one from a file, is taken to exist in every release);
 * *releases says which releases had it, for messages ("7.2").
 */
bool kernel_has_policy(const struct kernel_rules *k, const char *policy, const char **releases);

#endif
