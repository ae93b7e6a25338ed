/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The reclaim policy interface. A policy chooses and isolates folios and
 * keeps its own lists in lruvec->lrupriv; shrink_folio_list() in vmscan.c
 * does the unmapping, freeing and accounting for every policy.
 */
#ifndef MMEMU_MODELS_POLICY_H
#define MMEMU_MODELS_POLICY_H

#include <stdint.h>

#include "models/mm.h"

struct scan_control;
enum folio_references;

/* Output sink for print_state (teaching dumps). */
typedef void (*policy_print_fn)(void *ctx, const char *line);

struct reclaim_policy {
	const char *name;	/* --policy name */
	const char *desc;	/* one line for `mmemu list` */

	/* per-lruvec state, lruvec->lrupriv */
	int (*lruvec_init)(struct lruvec *lruvec);
	void (*lruvec_exit)(struct lruvec *lruvec);

	/* folio_add_lru(): a new folio (or refaulted one) joins the LRU */
	void (*folio_add)(struct lruvec *lruvec, struct folio *folio);
	/* lruvec_del_folio(): remove a folio that is on the LRU (truncation, exit) */
	void (*folio_del)(struct lruvec *lruvec, struct folio *folio);
	/* move_folios_to_lru(): put back a folio reclaim did not free */
	void (*folio_putback)(struct lruvec *lruvec, struct folio *folio);
	/* folio_rotate_reclaimable(): written back for reclaim, move to the tail */
	void (*folio_rotate)(struct lruvec *lruvec, struct folio *folio);
	/* folio_mark_accessed(): a read()/write() access */
	void (*folio_mark_accessed)(struct folio *folio);

	/* shrink_lruvec(): reclaim from one lruvec under sc */
	void (*shrink_lruvec)(struct lruvec *lruvec, struct scan_control *sc);
	/* optional: replaces shrink_node_memcgs() for root (global) reclaim */
	void (*shrink_node)(struct pglist_data *pgdat, struct scan_control *sc);
	/* kswapd_age_node(): background aging before kswapd reclaims */
	void (*age_node)(struct pglist_data *pgdat, struct scan_control *sc);

	/* optional: folio_check_references() when the policy has its own rules */
	enum folio_references (*check_references)(struct folio *folio,
						  struct scan_control *sc);

	/* workingset: shadow entry for an evicted folio, and its refault */
	uint64_t (*workingset_eviction)(struct folio *folio, struct mem_cgroup *target_memcg);
	void (*workingset_refault)(struct folio *folio, uint64_t shadow);

	/* invariants: walks the lists, counting folios per lru; 0 or -1 */
	int (*check_lruvec)(struct lruvec *lruvec, uint64_t nr_listed[NR_LRU_LISTS],
			    char *err, size_t len);
	/* teaching dump of one lruvec (optional) */
	void (*print_state)(struct lruvec *lruvec, policy_print_fn out, void *ctx);

	const void *variant;	/* policy-private constants (MGLRU before/after) */
};

const struct reclaim_policy *reclaim_policy_find(const char *name);
/* The registered policies, NULL-terminated. */
extern const struct reclaim_policy *const reclaim_policies[];

extern const struct reclaim_policy classic_policy;
extern const struct reclaim_policy mglru_old_policy;
extern const struct reclaim_policy mglru_budget_policy;
extern const struct reclaim_policy mglru_72_policy;

#endif
