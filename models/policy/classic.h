/* SPDX-License-Identifier: GPL-2.0-only */
/* Classic LRU decision points exported for tests. */
#ifndef MMEMU_MODELS_POLICY_CLASSIC_H
#define MMEMU_MODELS_POLICY_CLASSIC_H

#include "models/vmscan.h"

/* get_scan_count(): nr[lru] to scan for each evictable list. */
void get_scan_count(struct lruvec *lruvec, struct scan_control *sc, uint64_t *nr);

#endif
