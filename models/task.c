/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tasks, as kernel/fork.c and kernel/exit.c make and end them: a task is a
 * memcg member with its anonymous regions and its file mappings; its exit
 * frees its memory at once, or at the last task_put() of a page-table
 * walker that holds it (mmget()/mmput()).
 */
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/internal.h"
#include "models/memory.h"

struct task *task_create(const char *name, struct mem_cgroup *memcg, int nid)
{
	struct task *t;

	if (mm.nr_tasks >= MAX_TASKS || strlen(name) >= sizeof(t->name))
		return NULL;	/* a cut name could be another task's */
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->id = ++mm.last_task_id;
	memcpy(t->name, name, strlen(name) + 1);
	t->memcg = memcg;
	t->nid = nid;
	/* lru_gen_add_mm(): a new mm is walked by the next iteration (force_scan) */
	t->lru_gen_bitmap = 0xff;
	mm.tasks[mm.nr_tasks++] = t;
	return t;
}

void task_free_anon(struct task *t)
{
	for (int i = 0; i < t->nr_regions; i++)
		anon_region_zap(mm.mappings[t->regions[i]]);
}

/* exit_mmap() and the rest of __mmput(): the task's memory and its struct */
static uint64_t task_teardown(struct actor *a, struct task *t)
{
	uint64_t freed = t->rss_anon;
	int i;

	/* the anonymous memory, then the regions themselves */
	task_free_anon(t);
	for (i = 0; i < t->nr_regions; i++) {
		struct address_space *as = mm.mappings[t->regions[i]];

		free(as->slots);
		free(as->ptes);
		free(as->page_version);
		as->slots = NULL;
		as->ptes = NULL;
		as->page_version = NULL;
		as->nr_pages = 0;
		as->owner = NULL;
	}
	/* and its file mappings, each with its own PTEs */
	for (i = 0; i < t->nr_vmas; i++)
		unmap_vma(t->vmas[i]);
	if (a)
		actor_charge_sys(a, freed * COST_FREE_FOLIO_NS);
	free(t->regions);
	free(t->vmas);
	free(t);
	return freed;
}

uint64_t task_exit(struct actor *a, struct task *t)
{
	int i;

	/* release_task(): the pid goes; the others keep their order */
	for (i = 0; i < mm.nr_tasks; i++)
		if (mm.tasks[i] == t)
			break;
	if (i < mm.nr_tasks) {
		memmove(&mm.tasks[i], &mm.tasks[i + 1],
			(size_t)(mm.nr_tasks - i - 1) * sizeof(mm.tasks[0]));
		mm.nr_tasks--;
	}
	t->exited = true;
	/* mmput(): a page-table walker holding the mm frees it when done */
	if (t->users)
		return 0;
	return task_teardown(a, t);
}

void task_get(struct task *t)
{
	t->users++;
}

void task_put(struct actor *a, struct task *t)
{
	if (!--t->users && t->exited)
		task_teardown(a, t);
}
