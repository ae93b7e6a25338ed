/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Mappings, as mm/mmap.c makes them: an anonymous region is its task's one
 * vma with its own page table; a file mapping (struct vm_area) holds the
 * task's PTEs of the whole file and sits on the file's i_mmap list, which
 * reclaim's rmap walk follows.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/internal.h"
#include "models/memory.h"

int mapping_register(struct address_space *as)
{
	struct address_space **n = realloc(mm.mappings,
		(mm.nr_mappings + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	mm.mappings = n;
	as->id = mm.nr_mappings;
	n[mm.nr_mappings++] = as;
	return 0;
}

struct address_space *anon_region_create(struct task *t, const char *name,
					 uint64_t nr_pages)
{
	struct address_space *as = strlen(name) < sizeof(as->name) ? calloc(1, sizeof(*as)) : NULL;
	uint32_t *r;

	if (!as)
		return NULL;	/* out of memory, or a name that does not fit: never cut */
	as->type = AS_ANON;
	memcpy(as->name, name, strlen(name) + 1);
	as->nr_pages = nr_pages;
	as->slots = calloc(nr_pages, sizeof(*as->slots));
	as->ptes = calloc(nr_pages, sizeof(*as->ptes));
	as->page_version = calloc(nr_pages ? nr_pages : 1, sizeof(*as->page_version));
	as->owner = t;
	as->vm_flags = advice_vm_flags(t->advice);	/* madvise() right after mmap() */
	r = realloc(t->regions, (size_t)(t->nr_regions + 1) * sizeof(*r));
	if (!as->slots || !as->ptes || !as->page_version || !r || mapping_register(as)) {
		free(as->slots);
		free(as->ptes);
		free(as->page_version);
		free(as);
		if (r)
			t->regions = r;
		return NULL;
	}
	t->regions = r;
	r[t->nr_regions++] = as->id;
	return as;
}

/* mmap() of f by t: a new mapping on the task's list and the file's i_mmap. */
static struct vm_area *vma_create(struct task *t, struct address_space *f)
{
	struct vm_area *vma = calloc(1, sizeof(*vma));
	struct vm_area **n;

	if (!vma)
		return NULL;
	vma->ptes = calloc(f->nr_pages ? f->nr_pages : 1, sizeof(*vma->ptes));
	host_hugepage_hint(vma->ptes, f->nr_pages);
	n = realloc(t->vmas, (size_t)(t->nr_vmas + 1) * sizeof(*n));
	if (!vma->ptes || !n) {
		free(vma->ptes);
		free(vma);
		if (n)
			t->vmas = n;
		return NULL;
	}
	vma->task = t;
	vma->file = f;
	vma->vm_flags = advice_vm_flags(t->advice);	/* madvise() right after mmap() */
	vma->i_mmap_next = f->i_mmap;
	f->i_mmap = vma;
	t->vmas = n;
	n[t->nr_vmas++] = vma;
	return vma;
}

/* find_vma(): the task's mapping of f, made on first use (NULL: no memory) */
struct vm_area *task_file_vma(struct task *t, struct address_space *f)
{
	struct vm_area *vma = t->last_vma;

	if (vma && vma->file == f)
		return vma;
	vma = NULL;
	for (int i = 0; i < t->nr_vmas; i++)
		if (t->vmas[i]->file == f)
			vma = t->vmas[i];
	if (!vma)
		vma = vma_create(t, f);
	if (vma)
		t->last_vma = vma;
	return vma;
}

struct vm_area *task_mmap_file(struct task *t, struct address_space *f)
{
	return task_file_vma(t, f);
}
