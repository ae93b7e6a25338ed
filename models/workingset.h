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



#endif
