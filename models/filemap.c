/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The page cache, as in mm/filemap.c and mm/readahead.c: read() marks pages
 * accessed, mapped accesses only set the young bit, misses allocate,
 * charge, read (with readahead or mmap read-around) and wait for the
 * device. Anonymous faults are in memory.c, mappings in mmap.c, tasks in
 * task.c.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/internal.h"
#include "models/memory.h"
#include "models/page_io.h"
#include "models/policy.h"
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
		vma->ptes[i] = mk_pte(folio) | PTE_YOUNG;
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
		actor_charge_user(a, pte_access_cost(a, *pte, COST_MMAP_HIT_NS));
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
	*pte = mk_pte(folio) | PTE_YOUNG | (write ? PTE_DIRTY : 0);
	file_map_pte(f, index, folio);
	if (write) {
		folio_mark_dirty(folio);
		t->dirty_throttle_ns += balance_dirty_pages_ratelimited(a, t);
	}
	actor_charge_sys(a, COST_MINOR_FAULT_NS);
	actor_charge_user(a, access_cost(a, folio, COST_MMAP_HIT_NS));
	return ret;
}

/*
 * The hit range's run of pages on one node: present PTEs that name the
 * node of ptes[index], each of which the page loop would charge the same
 * cost c (pte_access_cost()). It marks them young a word of eight at a time
 * and charges once: the pages the loop takes are those up to the first
 * whose charge brings cpu_pending_ns to the quantum (at least one).
 */
static uint64_t map_hit_run(struct actor *a, uint8_t *ptes, uint64_t index, uint64_t end)
{
	const uint64_t ones = UINT64_C(0x0101010101010101);
	const uint8_t key = PTE_PRESENT | PTE_NID_MASK;	/* present, and which node */
	const uint8_t want = ptes[index] & key;
	const uint64_t young = ones * PTE_YOUNG;
	uint64_t c, i = index, lim = end, n, room;

	if (!(want & PTE_PRESENT))
		return 0;
	c = pte_access_cost(a, want, COST_MMAP_HIT_NS);
	if (a->cpu_pending_ns >= a->quantum_ns) {
		lim = index + 1;	/* the loop charges one page before it looks */
	} else if (c) {
		room = (a->quantum_ns - a->cpu_pending_ns + c - 1) / c;
		if (room < end - index)
			lim = index + room;
	}
	for (; i + 8 <= lim; i += 8) {
		uint64_t w;

		memcpy(&w, ptes + i, sizeof(w));
		if ((w & ones * key) != ones * want)
			break;
		w |= young;
		memcpy(ptes + i, &w, sizeof(w));
	}
	for (; i < lim && (ptes[i] & key) == want; i++)
		ptes[i] |= PTE_YOUNG;
	n = i - index;
	actor_charge_user(a, n * c);
	return n;
}

/* memory.h; each run of pages on one node goes a word at a time */
uint64_t filemap_map_hit_range(struct actor *a, struct task *t, struct address_space *f,
			       uint64_t index, uint64_t end)
{
	struct vm_area *vma = t->last_vma;
	uint64_t i = index;

	if (!vma || vma->file != f)
		return 0;
	while (i < end) {
		uint64_t n = map_hit_run(a, vma->ptes, i, end);

		i += n;
		/* a run ends at a page not present, the quantum or another node */
		if (!n || a->cpu_pending_ns >= a->quantum_ns)
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
		return;	/* a hit reads nothing else (its node is in the PTE) */
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

