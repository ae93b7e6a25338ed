/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the files of models/ that hold the page cache (filemap.c), the
 * mappings (mmap.c), the faults and zaps (memory.c) and the tasks (task.c)
 * share and workloads do not call, as the kernel's mm/internal.h.
 */
#ifndef MMEMU_MODELS_INTERNAL_H
#define MMEMU_MODELS_INTERNAL_H

#include <stdint.h>

#include "models/mm.h"

/* Gives as its id, the next in mm.mappings: 0 or -ENOMEM. */
int mapping_register(struct address_space *as);
/* find_vma(): the task's mapping of f, made on first use (NULL: no memory) */
struct vm_area *task_file_vma(struct task *t, struct address_space *f);
/* unmap_vmas() of one file mapping, which is then freed */
void unmap_vma(struct vm_area *vma);

/* The cost of touching folio from a's node: ns, more when remote. */
static inline uint64_t access_cost(struct actor *a, const struct folio *folio, uint64_t ns)
{
	return numa_access_cost(a->node, folio->nid, ns);
}

/* A PTE of f's page `index` appears in one more mm: NR_FILE_MAPPED counts pages. */
static inline void file_map_pte(struct address_space *f, uint64_t index, struct folio *folio)
{
	if (!(*lazy_u16_ptr(&f->mapcount, index))++)
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, 1);
}

/* ... and one less (zap or unmap) */
static inline void file_unmap_pte(struct address_space *f, uint64_t index, struct folio *folio)
{
	if (!--*lazy_u16_ptr(&f->mapcount, index))
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, -1);
}

#endif
