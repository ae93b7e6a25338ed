/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What workloads call: tasks, files, anonymous regions, and page accesses
 * through read()/write(), mmap and anonymous memory, with their faults,
 * page allocation, memcg charging and the OOM killer behind them.
 */
#ifndef MMEMU_MODELS_MEMORY_H
#define MMEMU_MODELS_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "models/mm.h"

/* How an access was served. Negative: the task was OOM-killed (-EINTR). */
enum access_result {
	ACCESS_HIT,		/* resident and mapped (or cached for read()) */
	ACCESS_MINOR,		/* minor fault: resident, mapped now */
	ACCESS_MAJOR,		/* read from storage */
	ACCESS_NEW,		/* new page (anon zero-fill) */
};

/* ---- memcg (memcontrol.c) ---- */
struct mem_cgroup *mem_cgroup_create(struct mem_cgroup *parent, const char *name);
struct mem_cgroup *mem_cgroup_find(const char *name);
/*
 * try_charge_memcg() for one page: reclaim, retries, then the OOM killer.
 * On success the page counts in memcg->nr_charge_inflight until the caller
 * gives it a folio or uncharges it (and then takes it off that count).
 */
int mem_cgroup_charge(struct actor *a, struct task *t, struct mem_cgroup *memcg);
void mem_cgroup_uncharge(struct mem_cgroup *memcg, uint64_t nr_pages);
/* A charge that must succeed (PF_MEMALLOC context, try_charge_memcg()'s force): over max too. */
void mem_cgroup_force_charge(struct mem_cgroup *memcg, uint64_t nr_pages);
/* Charges one page if every ancestor has room; no reclaim. */
bool mem_cgroup_try_charge_noreclaim(struct mem_cgroup *memcg);
/*
 * memcg statistics as rstat readers see them (cgroup v2), as of the last
 * flush (memcontrol.c has the rule): memcg_page_state_flushed() sums
 * lruvec_page_state() over the nodes. mem_cgroup_flush_stats() flushes when
 * enough updates are pending, _ratelimited() only when the periodic flush
 * is late, mem_cgroup_do_flush_stats() always (NULL: the root).
 */
uint64_t memcg_page_state_flushed(const struct mem_cgroup *memcg, enum node_stat_item idx);
void mem_cgroup_flush_stats(struct mem_cgroup *memcg);
void mem_cgroup_flush_stats_ratelimited(struct mem_cgroup *memcg);
void mem_cgroup_do_flush_stats(struct mem_cgroup *memcg);
/* Starts the periodic flusher; 0 or -ENOMEM. */
int mem_cgroup_stats_flusher_start(void);
void memcg_memory_event(struct mem_cgroup *memcg, enum memcg_memory_event event);
/* Kills the task with the largest footprint under memcg (NULL: whole machine). */
bool out_of_memory(struct mem_cgroup *memcg, struct actor *a);
/* memory.reclaim: returns 0 or -EAGAIN; `reclaimed` gets pages freed. */
int memory_reclaim(struct mem_cgroup *memcg, uint64_t nr_pages, int swappiness,
		   struct actor *a, uint64_t *reclaimed);

/* ---- tasks and mappings ---- */
struct task *task_create(const char *name, struct mem_cgroup *memcg, int nid);
struct address_space *file_create(const char *name, uint64_t nr_pages,
				  struct blockdev *bdev, uint64_t bdev_start, bool exec);
struct address_space *anon_region_create(struct task *t, const char *name,
					 uint64_t nr_pages);
/* mmap() of a file by t: its mapping, whose PTEs faults fill later (NULL: no
 * memory); task_exit unmaps it. Faults through a file map it on first use too. */
struct vm_area *task_mmap_file(struct task *t, struct address_space *f);
/* munmap of a whole anon region: frees its pages (the region stays usable),
 * by runs of folios with mm_range_ops. */
void anon_region_zap(struct address_space *as);
/* exit_mmap(): frees every anon page of the task. */
void task_free_anon(struct task *t);
/*
 * do_exit() of a task: exit_mmap() frees its anonymous memory and unmaps
 * the files no other task maps (young PTEs mark their folios accessed, as
 * zap_pte_range() does), then the task is gone (t is freed). The freeing
 * is charged to `a` as sys time. Returns the anon pages freed (0 when a
 * walker holds the task: task_put() frees them).
 */
uint64_t task_exit(struct actor *a, struct task *t);
/*
 * mmget()/mmput() for page-table walkers: while a walker holds t, an exit
 * only releases the pid; the last task_put() frees the memory (charged to a).
 */
void task_get(struct task *t);
void task_put(struct actor *a, struct task *t);

/* ---- accesses (the per-page hot path for hits) ---- */
/* read()/write() of one page of a file: mark_page_accessed on a hit. */
int filemap_read(struct actor *a, struct task *t, struct address_space *f,
		 uint64_t index);
/*
 * read() of nr pages from index (one pread of a buffer): missing pages go
 * through page_cache_sync_ra() with the rest of the request as its size.
 * ACCESS_MAJOR if any page was read from the device.
 */
int filemap_read_pages(struct actor *a, struct task *t, struct address_space *f,
		       uint64_t index, uint64_t nr);
/* write() of one page of a file: read if needed, then dirty it (and throttle). */
int filemap_write(struct actor *a, struct task *t, struct address_space *f,
		  uint64_t index);
/* An access through a mapping of a file: sets the young bit on a hit. */
int filemap_map_access(struct actor *a, struct task *t, struct address_space *f,
		       uint64_t index, bool write);
/*
 * Reads through t's mapping of f from `index` on, as filemap_map_access(...,
 * false) page by page with actor_cond_resched() after each, for as long as
 * each is a hit (its PTE present): sets the young bits, charges each hit's
 * cost. Stops before the first page that is not mapped, at `end`, or after
 * the page at which a's pending CPU reaches its quantum, where the page
 * loop's actor_cond_resched() would hand it to the engine; the caller does
 * that. Returns the number of pages read, each an ACCESS_HIT; 0 when t's last
 * mapping is not f's (filemap_map_access() looks it up). Calls no engine:
 * nothing else runs during the range, so the outcome is the page loop's.
 */
uint64_t filemap_map_hit_range(struct actor *a, struct task *t, struct address_space *f,
			       uint64_t index, uint64_t end);
/*
 * A hint for a caller that knows its accesses ahead (a trace replay): starts
 * loading what filemap_map_access(a, t, f, index, ...) will read, so that
 * the cache misses of the next accesses overlap instead of following one
 * another. Not `deep` (some accesses ahead): the PTE. `deep` (nearer): reads
 * that PTE and, when the page is not mapped, loads the page cache slots the
 * fault reads (fault-around's window) and the page's mapcount. Changes
 * nothing and touches no memory that was never written (a lazy array's
 * blocks never stored to are skipped); nothing when t's last mapping is not
 * f's.
 */
void filemap_map_prefetch(const struct task *t, const struct address_space *f, uint64_t index,
			  bool deep);
/* An access to anonymous memory: sets the young (and dirty) bit on a hit. */
int anon_access(struct actor *a, struct task *t, struct address_space *as,
		uint64_t index, bool write);
/*
 * Touches pages index, index + step, ... below end of an anonymous region
 * (step 1: in a row, a memset; a larger step: one thread's stripe of a
 * populate pass), as anon_access(a, t, as, i, write) page by page with the
 * caller's own user_ns of CPU after each and, with resched, its
 * actor_cond_resched(), for as long as each page is a hit or a fault of a
 * zeroed page that needs no reclaim: the charge stays within memory.max and
 * memory.high all the way up, the task's node stays above its low
 * watermark. Stops before the first page that could sleep or wake anyone
 * (swapped out, a charge or an allocation that would reclaim, wake kswapd or
 * take another node's page, a killed task's fault), at `end`, or with
 * resched after the page at which a's pending CPU reaches its quantum, where
 * the caller's actor_cond_resched() hands it to the engine. Returns the
 * pages touched (the next page is index + step times that): *nr_new
 * ACCESS_NEW, the others ACCESS_HIT. Calls no engine:
 * nothing else runs during the range, so the outcome is the page loop's; the
 * folios are made and added to the LRU one by one in page order, and the
 * counts, the charge and the node's free pages are updated once.
 */
uint64_t anon_access_stride(struct actor *a, struct task *t, struct address_space *as,
			    uint64_t index, uint64_t end, uint64_t step, bool write,
			    uint64_t user_ns, bool resched, uint64_t *nr_new);
/* anon_access_stride() of [index, end) in a row: a memset */
static inline uint64_t anon_access_range(struct actor *a, struct task *t,
					 struct address_space *as, uint64_t index, uint64_t end,
					 bool write, uint64_t user_ns, bool resched,
					 uint64_t *nr_new)
{
	return anon_access_stride(a, t, as, index, end, 1, write, user_ns, resched, nr_new);
}
/*
 * Range operations (filemap_map_hit_range(), anon_access_range(), the
 * batched frees of anon_region_zap()) where the outcome is the page loop's;
 * false: page by page, which tests compare with (issue 38). Callers of the
 * range functions check it.
 */
extern bool mm_range_ops;

/* ---- page allocation (page_alloc.c) ---- */
/*
 * Allocates a page for `t` on its node (fallback to others), charging
 * `memcg`. Direct reclaim and OOM as needed. Returns the folio index with
 * nid and memcg set, or 0 when the task was killed.
 */
uint32_t alloc_charge_folio(struct actor *a, struct task *t, struct mem_cgroup *memcg);
/* A folio only if it needs no reclaim (readahead): charge under max, low watermark. */
uint32_t alloc_folio_noreclaim(struct mem_cgroup *memcg, int nid);
/*
 * A folio allocated by a reclaimer (PF_MEMALLOC): the charge is forced and
 * the page may come from below the min watermark; 0 only if no node has a
 * free page.
 */
uint32_t alloc_folio_memalloc(struct mem_cgroup *memcg, int nid);
/* Adds a new folio to the LRU (through workingset_refault when shadowed). */
void folio_add_lru(struct folio *folio, uint64_t shadow);

#endif
