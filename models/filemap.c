/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page cache and anonymous memory, as in mm/filemap.c, mm/readahead.c and
 * mm/memory.c: read() marks pages accessed, mapped accesses only set the
 * young bit, misses allocate, charge, read (with readahead or mmap
 * read-around) and wait for the device.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/memory.h"
#include "models/page_io.h"
#include "models/policy.h"
#include "models/swap.h"
#include "models/vmscan.h"
#include "models/writeback.h"

/* Default read_ahead_kb = 128: 32 pages (block/blk-settings.c VM_READAHEAD_PAGES). */
#define RA_MAX_PAGES 32
/* get_init_ra_size() for a one-page request with a 32-page maximum. */
#define RA_INIT_PAGES 4
/* POSIX_FADV_SEQUENTIAL: file->f_ra.ra_pages = bdi->ra_pages * 2 (mm/fadvise.c) */
#define RA_MAX_PAGES_SEQ (2 * RA_MAX_PAGES)
/* mm/filemap.c MMAP_LOTSAMISS: stop read-around after this many misses. */
#define MMAP_LOTSAMISS 100

/* folio_wait_table: hashed wait queues for locked folios. */
#define PAGE_WAIT_TABLE_SIZE 64
static struct waitq *page_wait_table[PAGE_WAIT_TABLE_SIZE];

static struct waitq *folio_waitqueue(uint32_t idx)
{
	struct waitq **wq = &page_wait_table[mix64(idx) % PAGE_WAIT_TABLE_SIZE];

	if (!*wq)
		*wq = waitq_create();
	return *wq;
}

/*
 * folio_wait_locked(): sleep until the reader that owns the IO unlocks it.
 * Waiting for the read of a workingset folio is a memory stall
 * (folio_wait_bit_common(): PG_locked, !uptodate, PG_workingset).
 */
static void folio_wait_locked(struct actor *a, uint32_t idx)
{
	struct folio *folio = folio_of(idx);
	bool thrashing = folio_test_locked(folio) && !folio_test_uptodate(folio) &&
			 folio_test_workingset(folio);
	unsigned long pflags;

	if (thrashing)
		psi_memstall_enter(a, &pflags);
	while (folio_test_locked(folio))
		waitq_wait(a, folio_waitqueue(idx), 0);
	if (thrashing)
		psi_memstall_leave(a, &pflags);
}

static int mapping_register(struct address_space *as)
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

struct address_space *file_create(const char *name, uint64_t nr_pages,
				  struct blockdev *bdev, uint64_t bdev_start, bool exec)
{
	struct address_space *as = strlen(name) < sizeof(as->name) ? calloc(1, sizeof(*as)) : NULL;

	if (!as)
		return NULL;	/* out of memory, or a name that does not fit: never cut */
	as->type = AS_FILE;
	memcpy(as->name, name, strlen(name) + 1);
	as->nr_pages = nr_pages;
	as->slots = calloc(nr_pages, sizeof(*as->slots));
	as->dirty_tag = calloc(nr_pages / 64 + 1, sizeof(*as->dirty_tag));
	as->dirty_tag_sum = calloc(nr_pages / 4096 + 1, sizeof(*as->dirty_tag_sum));
	as->page_version = calloc(nr_pages ? nr_pages : 1, sizeof(*as->page_version));
	as->bdev = bdev;
	as->bdev_start = bdev_start;
	as->exec = exec;
	host_hugepage_hint(as->slots, nr_pages * sizeof(*as->slots));
	if (!as->slots || lazy_array_init(&as->mapcount, nr_pages, sizeof(uint16_t)) ||
	    lazy_array_init(&as->disk_version, nr_pages, sizeof(uint32_t)) || !as->dirty_tag ||
	    !as->dirty_tag_sum || !as->page_version || mapping_register(as)) {
		free(as->slots);
		lazy_array_free(&as->mapcount);
		lazy_array_free(&as->disk_version);
		free(as->dirty_tag);
		free(as->dirty_tag_sum);
		free(as->page_version);
		free(as);
		return NULL;
	}
	return as;
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

void anon_region_zap(struct address_space *as)
{
	for (uint64_t i = 0; i < as->nr_pages; i++) {
		uint64_t entry = as->slots[i];
		struct folio *folio;

		if (!entry)
			continue;
		as->page_version[i] = 0;	/* the data goes; a new fault reads zeroes */
		if (xa_is_value(entry)) {
			swap_zap_entry(as, i);
			continue;
		}
		folio = folio_of((uint32_t)entry);
		if (folio_test_swapcache(folio)) {
			swap_free(folio->private);
			delete_from_swap_cache(folio);
		}
		if (folio_test_writeback(folio)) {
			/* still being written: an orphan that reclaim frees later */
			folio->mapping = 0;
			folio->index = 0;
			as->slots[i] = 0;
			as->ptes[i] = 0;
			as->owner->rss_anon--;
			as->nr_resident--;
			continue;
		}
		/* reclaim never sleeps with folios isolated, so this one is listed */
		if (folio_test_lru(folio))
			mm.policy->folio_del(folio_lruvec(folio), folio);
		if (folio_test_swapcache(folio)) {
			swap_free(folio->private);
			delete_from_swap_cache(folio);
		}
		as->slots[i] = 0;
		as->ptes[i] = 0;
		as->owner->rss_anon--;
		as->nr_resident--;
		free_folio(folio);
	}
}

void task_free_anon(struct task *t)
{
	for (int i = 0; i < t->nr_regions; i++)
		anon_region_zap(mm.mappings[t->regions[i]]);
}

/* A PTE of f's page `index` appears in one more mm: NR_FILE_MAPPED counts pages. */
static void file_map_pte(struct address_space *f, uint64_t index, struct folio *folio)
{
	if (!(*lazy_u16_ptr(&f->mapcount, index))++)
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, 1);
}

/* ... and one less (zap or unmap) */
static void file_unmap_pte(struct address_space *f, uint64_t index, struct folio *folio)
{
	if (!--*lazy_u16_ptr(&f->mapcount, index))
		mod_lruvec_state(folio_lruvec(folio), NR_FILE_MAPPED, -1);
}

/*
 * unmap_vmas() of one file mapping (zap_pte_range): the dirty bit moves to
 * the folio and a young PTE marks the folio accessed (vma_has_recency());
 * then the mapping leaves the file's i_mmap.
 */
static void unmap_vma(struct vm_area *vma)
{
	struct address_space *f = vma->file;
	struct vm_area **p;

	for (uint64_t i = 0; i < f->nr_pages; i++) {
		uint8_t pte = vma->ptes[i];
		struct folio *folio;

		if (!(pte & PTE_PRESENT))
			continue;
		folio = folio_of((uint32_t)f->slots[i]);
		vma->ptes[i] = 0;
		file_unmap_pte(f, i, folio);
		if (pte & PTE_DIRTY)
			folio_mark_dirty(folio);
		/* zap_present_folio_ptes(): only a mapping with recency passes
		 * its young bit on (before 6.3: any but VM_SEQ_READ) */
		if ((pte & PTE_YOUNG) && zap_young_counts(mm.kernel, vma->vm_flags) &&
		    folio_test_lru(folio))
			mm.policy->folio_mark_accessed(folio);
	}
	for (p = &f->i_mmap; *p; p = &(*p)->i_mmap_next)
		if (*p == vma) {
			*p = vma->i_mmap_next;
			break;
		}
	free(vma->ptes);
	free(vma);
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
static struct vm_area *task_file_vma(struct task *t, struct address_space *f)
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

/* ---- page cache reads ---- */

/* bdi->ra_pages is 0 (queue/read_ahead_kb = 0): f_ra.ra_pages too, no readahead */
static bool ra_off(const struct address_space *f)
{
	return f->bdev && f->bdev->no_readahead;
}

/* file->f_ra.ra_pages of the task's files: doubled by POSIX_FADV_SEQUENTIAL */
static uint64_t ra_pages(const struct task *t)
{
	return t->advice == ADVICE_SEQUENTIAL ? RA_MAX_PAGES_SEQ : RA_MAX_PAGES;
}

static uint64_t access_cost(struct actor *a, const struct folio *folio, uint64_t ns)
{
	return numa_access_cost(a->node, folio->nid, ns);
}

/*
 * access_cost() of the folio in f's slot `index`. On a machine of one node
 * every folio is local, so a hit reads neither the slot nor the folio: the
 * PTE alone (two cache misses fewer a hit on a large trace, issue 38).
 */
static uint64_t slot_access_cost(struct actor *a, const struct address_space *f,
				 uint64_t index, uint64_t ns)
{
	if (mm.machine.nr_nodes == 1)
		return ns;
	return access_cost(a, folio_of((uint32_t)f->slots[index]), ns);
}

/*
 * filemap_add_folio(): a new folio at `index` of f, in the page cache and
 * on the LRU. It replaces the slot's shadow entry, if any, which the LRU
 * add uses for refault detection; `fault` says a page fault brought it in.
 * Its data version starts as the one on the device.
 */
static void filemap_add_folio(struct address_space *f, uint32_t idx, uint64_t index,
			      uint64_t shadow, bool fault)
{
	struct folio *folio = folio_of(idx);

	folio->mapping = f->id;
	folio->index = (uint32_t)index;
	folio->version = file_disk_version(f, index);
	f->slots[index] = idx;
	f->nr_resident++;
	mod_lruvec_state(folio_lruvec(folio), NR_FILE_PAGES, 1);
	mm.in_lru_fault = fault;
	folio_add_lru(folio, shadow);
	mm.in_lru_fault = false;
}

/*
 * Reads [index, index + nr) of f into the page cache, skipping pages that
 * are present, and waits for the IO; the caller needs page `need`. Returns
 * 0 or -EINTR when the task was killed while allocating.
 */
static int page_cache_read(struct actor *a, struct task *t, struct address_space *f,
			   uint64_t index, uint64_t nr, uint64_t need, bool fault)
{
	unsigned long pflags;
	bool waited = false;
	struct mem_cgroup *memcg = t->memcg;
	uint32_t locked[RA_MAX_PAGES_SEQ];
	uint64_t run_start = 0, run_len = 0;
	unsigned int nr_locked = 0;
	struct bio_batch batch;
	int err = 0;

	bio_batch_init(&batch);

	for (uint64_t i = index; i < index + nr && i < f->nr_pages; i++) {
		uint64_t entry = f->slots[i];
		struct folio *folio;
		uint32_t idx;

		if (entry && !xa_is_value(entry))
			goto submit;	/* present: end of a contiguous run */
		idx = alloc_charge_folio(a, t, memcg);
		if (!idx) {
			err = -EINTR;
			break;
		}
		/* the slot may have been filled while we slept in reclaim */
		entry = f->slots[i];
		if (entry && !xa_is_value(entry)) {
			__free_folio(folio_of(idx));
			goto submit;
		}
		folio = folio_of(idx);
		folio_set_locked(folio);
		filemap_add_folio(f, idx, i, entry, fault);
		/*
		 * The caller then waits for page `need` (folio_wait_bit_common()):
		 * a memory stall if its refault made it PG_workingset. (read_pages()
		 * also counts the submission of a batch holding any workingset
		 * folio; the submissions here are charged before that is known.)
		 */
		if (i == need && folio_test_workingset(folio))
			waited = true;
		locked[nr_locked++] = idx;
		if (!run_len)
			run_start = i;
		run_len++;
		continue;
submit:
		if (run_len) {
			bio_batch_submit(&batch, a, f->bdev, REQ_OP_READ, f->bdev_start + run_start,
					 (uint32_t)run_len);
			count_vm_events(PGPGIN, run_len * (PAGE_SIZE / 1024));
			run_len = 0;
		}
	}
	if (run_len) {
		bio_batch_submit(&batch, a, f->bdev, REQ_OP_READ, f->bdev_start + run_start,
				 (uint32_t)run_len);
		count_vm_events(PGPGIN, run_len * (PAGE_SIZE / 1024));
	}
	if (waited)
		psi_memstall_enter(a, &pflags);
	bio_batch_wait(&batch, a);
	if (waited)
		psi_memstall_leave(a, &pflags);
	for (unsigned int i = 0; i < nr_locked; i++) {
		struct folio *folio = folio_of(locked[i]);

		folio_set_uptodate(folio);
		folio_clear_locked(folio);
		waitq_wake_all(folio_waitqueue(locked[i]));
	}
	return err;
}

int filemap_read(struct actor *a, struct task *t, struct address_space *f,
		 uint64_t index)
{
	int ret = ACCESS_HIT;
	struct folio *folio;

	t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	for (;;) {
		uint64_t entry = f->slots[index];

		if (t->oom_killed)
			return -EINTR;
		if (!entry || xa_is_value(entry)) {
			/* page_cache_sync_ra(): ramp on a sequential stream,
			 * else a standalone random read is read as is;
			 * FMODE_RANDOM (POSIX_FADV_RANDOM): the page alone */
			uint64_t nr = 1;

			if (index && index == f->ra_prev && t->advice != ADVICE_RANDOM &&
			    !ra_off(f)) {
				f->ra_size = f->ra_size ? f->ra_size * 2 : RA_INIT_PAGES;
				if (f->ra_size > ra_pages(t))
					f->ra_size = (uint32_t)ra_pages(t);
				nr = f->ra_size;
			} else {
				f->ra_size = 0;
			}
			if (page_cache_read(a, t, f, index, nr, index, false))
				return -EINTR;
			ret = ACCESS_MAJOR;
			continue;
		}
		folio = folio_of((uint32_t)entry);
		if (folio_test_locked(folio)) {
			/* another reader's IO: wait, then look again */
			folio_wait_locked(a, (uint32_t)entry);
			continue;
		}
		break;
	}
	f->ra_prev = index + 1;
	mm.policy->folio_mark_accessed(folio);
	actor_charge_sys(a, access_cost(a, folio, COST_READ_HIT_NS));
	return ret;
}

/* get_init_ra_size(): the first window of a stream, for a request of req pages */
static uint64_t init_ra_size(uint64_t req, uint64_t max)
{
	uint64_t size = 1;

	while (size < req)
		size <<= 1;
	if (size <= max / 32)
		size *= 4;
	else if (size <= max / 4)
		size *= 2;
	return size < max ? size : max;
}

/* page_cache_prev_miss(): cached pages right before index, looking back at most max */
static uint64_t cached_history(const struct address_space *f, uint64_t index, uint64_t max)
{
	uint64_t n = 0;

	while (n < max && n < index) {
		uint64_t entry = f->slots[index - 1 - n];

		if (!entry || xa_is_value(entry))
			break;
		n++;
	}
	return n;
}

/*
 * page_cache_sync_ra() for a read() of req pages whose first page, index,
 * is missing: how many pages to read from index. A sequential miss opens a
 * window; cached history longer than the request is taken for a stream
 * (context readahead); anything else is a standalone random read, read as
 * is. The async window (PG_readahead) is not modelled.
 */
static uint64_t sync_ra_pages(const struct task *t, const struct address_space *f,
			      uint64_t index, uint64_t req)
{
	uint64_t contig, size, max = ra_pages(t);

	/* !ra_pages: force_page_cache_ra() of one page (page_cache_sync_ra()) */
	if (ra_off(f))
		return 1;
	/* FMODE_RANDOM: force_page_cache_ra() of the request alone */
	if (t->advice == ADVICE_RANDOM)
		return req < max ? req : max;
	/* start of file, oversized read, or a miss right after the previous read */
	if (!index || req > max || index == f->ra_prev || index == f->ra_prev + 1)
		return init_ra_size(req, max);
	contig = cached_history(f, index, max);
	if (contig <= req)
		return req;
	if (contig >= index)
		contig *= 2;
	size = contig + req;
	return size < max ? size : max;
}

int filemap_read_pages(struct actor *a, struct task *t, struct address_space *f,
		       uint64_t index, uint64_t nr)
{
	int ret = ACCESS_HIT;

	t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	for (uint64_t i = index; i < index + nr && i < f->nr_pages;) {
		uint64_t entry = f->slots[i];
		struct folio *folio;

		if (t->oom_killed)
			return -EINTR;
		if (!entry || xa_is_value(entry)) {
			if (page_cache_read(a, t, f, i, sync_ra_pages(t, f, i, index + nr - i), i,
					    false))
				return -EINTR;
			ret = ACCESS_MAJOR;
			continue;
		}
		folio = folio_of((uint32_t)entry);
		if (folio_test_locked(folio)) {
			folio_wait_locked(a, (uint32_t)entry);
			continue;
		}
		mm.policy->folio_mark_accessed(folio);
		actor_charge_sys(a, access_cost(a, folio, COST_READ_HIT_NS));
		i++;
	}
	f->ra_prev = index + nr;
	return ret;
}

/*
 * write_begin() of a whole page that is not cached: the new folio is filled
 * by the copy, so nothing is read (ext4/generic block_write_begin read only
 * blocks a write covers in part). It is added like any page cache folio
 * (a shadow left there counts as a refault) but not marked accessed
 * (FGP_WRITEBEGIN has no FGP_ACCESSED).
 */
/*
 * write_begin on a page that is not cached: a whole-page write needs no
 * read. filemap_add_folio() with __GFP_WRITE: the shadow entry is dropped
 * without workingset_refault() ("folios getting rewritten" are not
 * refaults, mm/filemap.c).
 */
static int filemap_write_begin(struct actor *a, struct task *t, struct address_space *f,
			       uint64_t index)
{
	uint64_t entry;
	uint32_t idx;

	idx = alloc_charge_folio(a, t, t->memcg);
	if (!idx)
		return -EINTR;
	/* the slot may have been filled while we slept in reclaim */
	entry = f->slots[index];
	if (entry && !xa_is_value(entry)) {
		__free_folio(folio_of(idx));
		return ACCESS_HIT;
	}
	/* the copy replaces all of it: it starts from what the device holds */
	folio_set_uptodate(folio_of(idx));
	filemap_add_folio(f, idx, index, 0, false);
	return ACCESS_NEW;
}

/*
 * write() of one whole page (generic_perform_write()): write_begin finds
 * or creates the folio (FGP_WRITEBEGIN: no FGP_ACCESSED, so a write does
 * not mark it accessed), the data is copied in and the folio dirtied.
 */
int filemap_write(struct actor *a, struct task *t, struct address_space *f,
		  uint64_t index)
{
	struct folio *folio;
	int ret = ACCESS_HIT;

	t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	for (;;) {
		uint64_t entry = f->slots[index];

		if (t->oom_killed)
			return -EINTR;
		if (!entry || xa_is_value(entry)) {
			ret = filemap_write_begin(a, t, f, index);
			if (ret < 0)
				return ret;
			continue;
		}
		folio = folio_of((uint32_t)entry);
		if (folio_test_locked(folio)) {
			folio_wait_locked(a, (uint32_t)entry);
			continue;
		}
		break;
	}
	/* copy_from_user of the page */
	actor_charge_sys(a, access_cost(a, folio, COST_READ_HIT_NS));
	folio_mark_dirty(folio);
	t->dirty_throttle_ns += balance_dirty_pages_ratelimited(a, t);
	return ret;
}

/*
 * do_sync_mmap_readahead(): read-around of ra_pages centred on the fault,
 * until the file has missed MMAP_LOTSAMISS times more than it hit; none
 * for VM_RAND_READ, and ra_pages from the fault on for VM_SEQ_READ
 * (page_cache_sync_ra(ra_pages)).
 */
static uint64_t mmap_readaround(const struct vm_area *vma, uint64_t index, uint64_t *start)
{
	struct address_space *f = vma->file;

	*start = index;
	/* do_sync_mmap_readahead(): nothing around the fault without ra_pages */
	if ((vma->vm_flags & VM_RAND_READ) || ra_off(f))
		return 1;
	if (vma->vm_flags & VM_SEQ_READ)
		return ra_pages(vma->task);
	if (f->mmap_miss < MMAP_LOTSAMISS)
		f->mmap_miss++;
	if (f->mmap_miss >= MMAP_LOTSAMISS) {
		*start = index;
		return 1;
	}
	*start = index > RA_MAX_PAGES / 2 ? index - RA_MAX_PAGES / 2 : 0;
	return RA_MAX_PAGES;
}

/*
 * do_fault_around() -> filemap_map_pages(): before a read fault goes to
 * ->fault, map the pages of the aligned window of mm.fault_around_pages
 * that are already in the page cache, uptodate and unlocked. On x86 those
 * PTEs start young (the page protection carries _PAGE_ACCESSED, and
 * arch_wants_old_prefaulted_pte() is false). Returns true when the
 * faulting page itself got mapped.
 */
static bool do_fault_around(struct actor *a, struct vm_area *vma, uint64_t index)
{
	struct address_space *f = vma->file;
	uint64_t start = index & ~(uint64_t)(mm.fault_around_pages - 1);
	uint64_t end = start + mm.fault_around_pages;
	uint64_t mapped = 0;

	if (end > f->nr_pages)
		end = f->nr_pages;
	for (uint64_t i = start; i < end; i++) {
		uint64_t entry = f->slots[i];
		struct folio *folio;

		if ((vma->ptes[i] & PTE_PRESENT) || !entry || xa_is_value(entry))
			continue;
		folio = folio_of((uint32_t)entry);
		if (folio_test_locked(folio) || !folio_test_uptodate(folio))
			continue;
		vma->ptes[i] = PTE_PRESENT | PTE_YOUNG;
		file_map_pte(f, i, folio);
		mapped++;
	}
	actor_charge_sys(a, mapped * COST_FAULT_AROUND_PAGE_NS);
	return vma->ptes[index] & PTE_PRESENT;
}

int filemap_map_access(struct actor *a, struct task *t, struct address_space *f,
		       uint64_t index, bool write)
{
	struct vm_area *vma = t->last_vma;
	int ret = ACCESS_MINOR;
	struct folio *folio;
	uint8_t *pte;

	/* lru_gen_use_mm(): the task ran since the aging last walked it */
	t->lru_gen_bitmap = 0xff;
	if (!vma || vma->file != f) {
		vma = task_file_vma(t, f);
		if (!vma)
			return -ENOMEM;
	}
	pte = &vma->ptes[index];
	if (*pte & PTE_PRESENT) {
		/* the hardware sets the accessed bit; the kernel is not told */
		*pte |= PTE_YOUNG;
		actor_charge_user(a, slot_access_cost(a, f, index, COST_MMAP_HIT_NS));
		if (write && !(*pte & PTE_DIRTY)) {
			/* a shared mapping is write-protected while clean: the
			 * write fault dirties the folio (do_wp_page, page_mkwrite) */
			*pte |= PTE_DIRTY;
			folio_mark_dirty(folio_of((uint32_t)f->slots[index]));
			actor_charge_sys(a, COST_MINOR_FAULT_NS);
			t->dirty_throttle_ns += balance_dirty_pages_ratelimited(a, t);
		}
		return ACCESS_HIT;
	}
	count_vm_events(PGFAULT, 1);
	count_memcg_events(t->memcg, PGFAULT, 1);
	/* do_read_fault(): fault-around first */
	if (!write && mm.fault_around_pages > 1 && do_fault_around(a, vma, index)) {
		folio = folio_of((uint32_t)f->slots[index]);
		if (f->mmap_miss)
			f->mmap_miss--;
		actor_charge_sys(a, COST_MINOR_FAULT_NS);
		actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
		return ACCESS_MINOR;
	}
	/* filemap_fault() */
	for (;;) {
		uint64_t entry = f->slots[index];

		if (t->oom_killed)
			return -EINTR;
		if (!entry || xa_is_value(entry)) {
			uint64_t start, nr = mmap_readaround(vma, index, &start);

			if (ret != ACCESS_MAJOR) {
				count_vm_events(PGMAJFAULT, 1);
				count_memcg_events(t->memcg, PGMAJFAULT, 1);
			}
			ret = ACCESS_MAJOR;
			/* lru_gen_enter_fault(): an LRU fault if the mapping has recency */
			if (page_cache_read(a, t, f, start, nr, index,
					    vma_has_recency(vma->vm_flags)))
				return -EINTR;
			continue;
		}
		folio = folio_of((uint32_t)entry);
		if (folio_test_locked(folio)) {
			folio_wait_locked(a, (uint32_t)entry);
			continue;
		}
		break;
	}
	if (ret == ACCESS_MINOR && f->mmap_miss)
		f->mmap_miss--;
	if (*pte & PTE_PRESENT) {
		/*
		 * finish_fault() finds !pte_none(): another thread sharing the
		 * mapping faulted the page in while this one slept (page lock,
		 * read IO, reclaim). Nothing is mapped twice; the access is
		 * retried and hits.
		 */
		int hit;

		actor_charge_sys(a, COST_MINOR_FAULT_NS);
		hit = filemap_map_access(a, t, f, index, write);
		return hit < 0 ? hit : ret;
	}
	/* finish_fault(): map it; the access that faulted makes it young */
	*pte = PTE_PRESENT | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	file_map_pte(f, index, folio);
	if (write) {
		folio_mark_dirty(folio);
		t->dirty_throttle_ns += balance_dirty_pages_ratelimited(a, t);
	}
	actor_charge_sys(a, COST_MINOR_FAULT_NS);
	actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
	return ret;
}

uint64_t filemap_map_hit_range(struct actor *a, struct task *t, struct address_space *f,
			       uint64_t index, uint64_t end)
{
	struct vm_area *vma = t->last_vma;
	uint64_t i = index;

	if (!vma || vma->file != f)
		return 0;
	while (i < end && (vma->ptes[i] & PTE_PRESENT)) {
		vma->ptes[i] |= PTE_YOUNG;
		actor_charge_user(a, slot_access_cost(a, f, i, COST_MMAP_HIT_NS));
		i++;
		if (a->cpu_pending_ns >= a->quantum_ns)
			break;
	}
	if (i > index)
		t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	return i - index;
}

void filemap_map_prefetch(const struct task *t, const struct address_space *f, uint64_t index,
			  bool deep)
{
	const struct vm_area *vma = t->last_vma;
	uint64_t start, end;

	if (!vma || vma->file != f || index >= f->nr_pages)
		return;
	if (!deep) {
		__builtin_prefetch(&vma->ptes[index]);
		return;
	}
	if (vma->ptes[index] & PTE_PRESENT)
		return;	/* a hit reads nothing else on one node */
	start = index;
	end = index + 1;
	if (mm.fault_around_pages > 1) {
		start = index & ~(uint64_t)(mm.fault_around_pages - 1);
		end = start + mm.fault_around_pages;
	}
	if (end > f->nr_pages)
		end = f->nr_pages;
	__builtin_prefetch(&f->slots[start], 1);
	__builtin_prefetch(&f->slots[end - 1], 1);
	__builtin_prefetch(&f->slots[index], 1);
	if (f->mapcount.base && lazy_array_stored(&f->mapcount, index * 2))
		__builtin_prefetch(&((const uint16_t *)f->mapcount.base)[index], 1);
}

int anon_access(struct actor *a, struct task *t, struct address_space *as,
		uint64_t index, bool write)
{
	uint8_t *pte = &as->ptes[index];
	struct folio *folio;
	uint32_t idx;

	t->lru_gen_bitmap = 0xff;	/* lru_gen_use_mm() */
	if (*pte & PTE_PRESENT) {
		folio = folio_of((uint32_t)as->slots[index]);
		if (write && !(*pte & PTE_DIRTY))
			folio_inc_version(folio);	/* new data since it was last clean */
		*pte |= PTE_YOUNG | (write ? PTE_DIRTY : 0);
		actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
		return ACCESS_HIT;
	}
	if (t->oom_killed)
		return -EINTR;
	if (as->slots[index] && xa_is_value(as->slots[index]))
		return do_swap_page(a, t, as, index, write);
	/* do_anonymous_page(): a zeroed page */
	count_vm_events(PGFAULT, 1);
	count_memcg_events(t->memcg, PGFAULT, 1);
	idx = alloc_charge_folio(a, t, t->memcg);
	if (!idx)
		return -EINTR;
	if ((*pte & PTE_PRESENT) || as->slots[index]) {
		/*
		 * pte_none() no longer holds: another thread of the task (or of
		 * a task sharing the region) faulted it in while this one slept
		 * in reclaim, and it may even be swapped out again. Drop ours and
		 * take the fault again, as do_anonymous_page() does.
		 */
		__free_folio(folio_of(idx));
		return anon_access(a, t, as, index, write);
	}
	folio = folio_of(idx);
	folio->mapping = as->id;
	folio->index = (uint32_t)index;
	folio_set_swapbacked(folio);
	folio_set_uptodate(folio);
	as->slots[index] = idx;
	as->nr_resident++;
	*pte = PTE_PRESENT | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	t->rss_anon++;
	mod_lruvec_state(folio_lruvec(folio), NR_ANON_MAPPED, 1);
	mm.in_lru_fault = vma_has_recency(as->vm_flags);	/* lru_gen_enter_fault() */
	folio_add_lru(folio, 0);
	mm.in_lru_fault = false;
	actor_charge_sys(a, COST_MINOR_FAULT_NS + COST_CLEAR_PAGE_NS);
	actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
	return ACCESS_NEW;
}
