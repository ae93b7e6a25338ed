/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Folios (one 4 KiB page each) live in one table and are named by a 32-bit
 * index; index 0 is never used, so 0 means "no folio". Lists link by index.
 * The folio, its flags and its lists are part of the policy API
 * (include/mmemu/policy.h); the table's management is the model's own.
 */
#ifndef MMEMU_MODELS_FOLIO_H
#define MMEMU_MODELS_FOLIO_H

#include <stdbool.h>
#include <stdint.h>

#include "mmemu/policy.h"

int folio_table_init(uint64_t nr_pages);
void folio_table_exit(void);
/* Takes a free folio (zeroed but for nothing), 0 if none. */
uint32_t folio_table_get(void);
void folio_table_put(uint32_t idx);

#endif
