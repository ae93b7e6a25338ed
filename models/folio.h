/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Folios (one 4 KiB page each) live in one table and are named by a 32-bit
 * index; index 0 is never used, so 0 means "no folio". Lists link by index.
 * Target: 32 bytes per folio.
 */
#ifndef MMEMU_MODELS_FOLIO_H
#define MMEMU_MODELS_FOLIO_H

#include <stdbool.h>
#include <stdint.h>

/* Page flags, with the kernel's meaning. */
enum pageflags {
	PG_lru,		/* on an LRU list (not isolated) */
	PG_active,	/* on the active list (classic) or to activate on putback */
	PG_referenced,	/* seen referenced once (fd access, or first young PTE) */
	PG_workingset,	/* was active before (refault restores) */
	PG_dirty,	/* contents newer than the backing store */
	PG_writeback,	/* write to the backing store in flight */
	PG_reclaim,	/* reclaim wants it freed once writeback completes */
	PG_swapbacked,	/* anonymous (swap-backed) memory */
	PG_unevictable,	/* on the unevictable list */
	PG_swapcache,	/* has a swap slot in folio->private */
	PG_uptodate,	/* data read in */
	PG_locked,	/* IO in flight for the reader, reclaim must skip it */
	PG_readahead,	/* read ahead, not yet touched */
	NR_PAGEFLAGS
};

/* MGLRU generation (+1, 0 = not on lrugen) and refs, stored in the flags. */
#define LRU_GEN_PGOFF 16
#define LRU_GEN_WIDTH 3
#define LRU_GEN_MASK (((1U << LRU_GEN_WIDTH) - 1) << LRU_GEN_PGOFF)
#define LRU_REFS_PGOFF (LRU_GEN_PGOFF + LRU_GEN_WIDTH)
#define LRU_REFS_WIDTH 2
#define LRU_REFS_MASK (((1U << LRU_REFS_WIDTH) - 1) << LRU_REFS_PGOFF)

struct folio {
	uint32_t lru_next;	/* next folio on its list (towards the tail) */
	uint32_t lru_prev;	/* previous folio (towards the head) */
	uint32_t flags;		/* enum pageflags bits, gen and refs */
	uint32_t mapping;	/* address_space id (file or anon region) */
	uint32_t index;		/* page offset within the mapping */
	uint32_t private;	/* swap slot while in the swap cache */
	uint16_t memcg_id;	/* charged memcg */
	uint8_t nid;		/* node of the page */
	uint8_t lru;		/* list the folio sits on (policy-defined id) */
	uint32_t version;	/* data version, for lost-write checks */
};

_Static_assert(sizeof(struct folio) <= 32, "struct folio must stay within 32 bytes");

/* A list of folios linked by index; head = most recently added. */
struct flist {
	uint32_t head;		/* first folio (youngest), 0 when empty */
	uint32_t tail;		/* last folio (oldest), 0 when empty */
	uint64_t nr;		/* folios on the list */
};

struct folio_table {
	struct folio *f;	/* the folios; f[0] unused */
	uint32_t nr;		/* capacity including f[0] */
	uint32_t free_head;	/* free folios, linked through lru_next */
	uint64_t nr_free;	/* folios on the free list */
};

extern struct folio_table folio_table;

int folio_table_init(uint64_t nr_pages);
void folio_table_exit(void);
/* Takes a free folio (zeroed but for nothing), 0 if none. */
uint32_t folio_table_get(void);
void folio_table_put(uint32_t idx);

static inline struct folio *folio_of(uint32_t idx)
{
	return &folio_table.f[idx];
}

static inline uint32_t folio_idx(const struct folio *folio)
{
	return (uint32_t)(folio - folio_table.f);
}

#define FOLIO_FLAG_FNS(name)                                                   \
	static inline bool folio_test_##name(const struct folio *f)            \
	{                                                                      \
		return f->flags & (1U << PG_##name);                           \
	}                                                                      \
	static inline void folio_set_##name(struct folio *f)                   \
	{                                                                      \
		f->flags |= 1U << PG_##name;                                   \
	}                                                                      \
	static inline void folio_clear_##name(struct folio *f)                 \
	{                                                                      \
		f->flags &= ~(1U << PG_##name);                                \
	}                                                                      \
	static inline bool folio_test_clear_##name(struct folio *f)            \
	{                                                                      \
		bool was = f->flags & (1U << PG_##name);                       \
		f->flags &= ~(1U << PG_##name);                                \
		return was;                                                    \
	}

FOLIO_FLAG_FNS(lru)
FOLIO_FLAG_FNS(active)
FOLIO_FLAG_FNS(referenced)
FOLIO_FLAG_FNS(workingset)
FOLIO_FLAG_FNS(dirty)
FOLIO_FLAG_FNS(writeback)
FOLIO_FLAG_FNS(reclaim)
FOLIO_FLAG_FNS(swapbacked)
FOLIO_FLAG_FNS(unevictable)
FOLIO_FLAG_FNS(swapcache)
FOLIO_FLAG_FNS(uptodate)
FOLIO_FLAG_FNS(locked)
FOLIO_FLAG_FNS(readahead)

/* folio_is_file_lru(): page cache rather than swap-backed. */
static inline bool folio_is_file_lru(const struct folio *f)
{
	return !folio_test_swapbacked(f);
}

static inline bool folio_test_anon(const struct folio *f)
{
	return folio_test_swapbacked(f);
}

/* ---- index-linked lists ---- */

static inline void flist_init(struct flist *l)
{
	l->head = l->tail = 0;
	l->nr = 0;
}

static inline bool flist_empty(const struct flist *l)
{
	return !l->head;
}

/* list_add(): at the head (youngest end). */
static inline void flist_add(struct flist *l, uint32_t idx)
{
	struct folio *f = folio_of(idx);

	f->lru_prev = 0;
	f->lru_next = l->head;
	if (l->head)
		folio_of(l->head)->lru_prev = idx;
	else
		l->tail = idx;
	l->head = idx;
	l->nr++;
}

/* list_add_tail(): at the tail (oldest end), where reclaim looks first. */
static inline void flist_add_tail(struct flist *l, uint32_t idx)
{
	struct folio *f = folio_of(idx);

	f->lru_next = 0;
	f->lru_prev = l->tail;
	if (l->tail)
		folio_of(l->tail)->lru_next = idx;
	else
		l->head = idx;
	l->tail = idx;
	l->nr++;
}

static inline void flist_del(struct flist *l, uint32_t idx)
{
	struct folio *f = folio_of(idx);

	if (f->lru_prev)
		folio_of(f->lru_prev)->lru_next = f->lru_next;
	else
		l->head = f->lru_next;
	if (f->lru_next)
		folio_of(f->lru_next)->lru_prev = f->lru_prev;
	else
		l->tail = f->lru_prev;
	f->lru_next = f->lru_prev = 0;
	l->nr--;
}

/* Moves every folio of `from` to the head of `to`, keeping their order. */
static inline void flist_splice(struct flist *from, struct flist *to)
{
	if (flist_empty(from))
		return;
	if (to->head) {
		folio_of(from->tail)->lru_next = to->head;
		folio_of(to->head)->lru_prev = from->tail;
	} else {
		to->tail = from->tail;
	}
	to->head = from->head;
	to->nr += from->nr;
	flist_init(from);
}

/* Pops the tail folio (lru_to_folio + list_del), 0 if empty. */
static inline uint32_t flist_pop_tail(struct flist *l)
{
	uint32_t idx = l->tail;

	if (idx)
		flist_del(l, idx);
	return idx;
}

#endif
