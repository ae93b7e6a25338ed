/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Local contract checks, as the kernel's VM_WARN_ON_ONCE_FOLIO() and
 * VM_BUG_ON_FOLIO() state them where a function relies on them: a folio
 * ending writeback is under writeback, a folio freed is off the LRU and
 * out of IO. VM_WARN_ON(cond) is true when cond holds (the contract is
 * broken) and keeps the first such place with the simulated time; a run
 * under --check-invariants (fuzz, check-policy) then fails naming it, any
 * other run says it on stderr. The check is one branch: cheap enough for
 * every path but the per-page hit path, where none is placed.
 */
#ifndef MMEMU_MODELS_DEBUG_H
#define MMEMU_MODELS_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

bool mm_warn(const char *file, int line, const char *what);

#define VM_WARN_ON(cond) \
	(__builtin_expect(!!(cond), 0) ? mm_warn(__FILE__, __LINE__, #cond) : false)

/* "contract broken at T s simulated: FILE:LINE: COND (N times)", or NULL */
const char *mm_warned(void);
/* how many times any contract broke in this run */
uint64_t mm_nr_warnings(void);

#endif
