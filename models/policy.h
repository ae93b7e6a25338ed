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

const struct reclaim_policy *reclaim_policy_find(const char *name);
/* The registered policies, NULL-terminated. */
extern const struct reclaim_policy *const reclaim_policies[];

extern const struct reclaim_policy classic_policy;
extern const struct reclaim_policy mglru_old_policy;
extern const struct reclaim_policy mglru_budget_policy;
extern const struct reclaim_policy mglru_72_policy;

#endif
