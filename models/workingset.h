/* SPDX-License-Identifier: GPL-2.0-only */
/* Refault detection, as in mm/workingset.c. */
#ifndef MMEMU_MODELS_WORKINGSET_H
#define MMEMU_MODELS_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"

/* Bits of eviction timestamp a shadow keeps (the rest: memcg, node, workingset). */
#define WORKINGSET_EVICTION_BITS 24
#define EVICTION_MASK ((1ULL << WORKINGSET_EVICTION_BITS) - 1)

uint64_t pack_shadow(unsigned short memcgid, int nid, uint64_t eviction, bool workingset);
void unpack_shadow(uint64_t shadow, unsigned short *memcgid, int *nid,
		   uint64_t *eviction, bool *workingset);

/* Advances the non-resident clock of the lruvec and its ancestors. */
void workingset_age_nonresident(struct lruvec *lruvec, uint64_t nr_pages);
/* Classic LRU: shadow for an evicted folio, refault check, activation. */
uint64_t workingset_eviction(struct folio *folio, struct mem_cgroup *target_memcg);
void workingset_refault(struct folio *folio, uint64_t shadow);
void workingset_activation(struct folio *folio);

#endif
