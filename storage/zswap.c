/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "storage/zswap.h"

int zswap_pool_init(struct zswap *z, enum zram_comp comp, uint64_t nr_slots, uint32_t nr_lrus,
		    uint64_t totalram_pages, unsigned int max_pool_percent,
		    unsigned int accept_thr_percent)
{
	memset(z, 0, sizeof(*z));
	if (!nr_slots || nr_slots >= UINT32_MAX || !nr_lrus)
		return -EINVAL;
	z->comp = comp;
	z->nr_slots = nr_slots;
	z->nr_lrus = nr_lrus;
	/* zswap_max_pages() and zswap_accept_thr_pages(), in integer pages as there */
	z->max_pages = totalram_pages * max_pool_percent / 100;
	z->accept_thr_pages = z->max_pages * accept_thr_percent / 100;
	z->e = calloc(nr_slots + 1, sizeof(*z->e));
	z->lrus = calloc(nr_lrus, sizeof(*z->lrus));
	if (!z->e || !z->lrus) {
		zswap_pool_exit(z);
		return -ENOMEM;
	}
	return 0;
}

void zswap_pool_exit(struct zswap *z)
{
	free(z->e);
	free(z->lrus);
	z->e = NULL;
	z->lrus = NULL;
}

bool zswap_check_limits(struct zswap *z)
{
	uint64_t cur = zswap_total_pages(z);

	if (cur >= z->max_pages) {
		z->st.pool_limit_hit++;
		z->pool_reached_full = true;
	} else if (z->pool_reached_full && cur <= z->accept_thr_pages) {
		z->pool_reached_full = false;
	}
	return z->pool_reached_full;
}

uint32_t zswap_compressed_len(double ratio)
{
	uint32_t len;

	/* ratio 1 is data that does not compress: lz4's output bound is
	 * n + n/255 + 16 bytes, over the page */
	if (!(ratio > 1))
		return 0;
	len = (uint32_t)(ZSWAP_PAGE_SIZE / ratio);
	if (len >= ZSWAP_PAGE_SIZE)
		return 0;
	return len ? len : 1;
}

static void lru_unlink(struct zswap *z, uint64_t slot)
{
	struct zswap_slot *e = &z->e[slot];
	struct zswap_lru *l = &z->lrus[e->lru];

	if (e->prev)
		z->e[e->prev].next = e->next;
	else
		l->head = e->next;
	if (e->next)
		z->e[e->next].prev = e->prev;
	else
		l->tail = e->prev;
	e->prev = e->next = 0;
	l->nr--;
}

static void lru_add_tail(struct zswap *z, uint64_t slot)
{
	struct zswap_slot *e = &z->e[slot];
	struct zswap_lru *l = &z->lrus[e->lru];

	e->prev = l->tail;
	e->next = 0;
	if (l->tail)
		z->e[l->tail].next = (uint32_t)slot;
	else
		l->head = (uint32_t)slot;
	l->tail = (uint32_t)slot;
	l->nr++;
}

void zswap_entry_add(struct zswap *z, uint64_t slot, uint32_t lru, uint32_t length)
{
	struct zswap_slot *e = &z->e[slot];

	e->present = 1;
	e->referenced = 1;
	e->length = (uint16_t)(length > UINT16_MAX ? UINT16_MAX : length);
	e->lru = lru;
	z->total_bytes += length;
	z->stored_pages++;
	if (length >= ZSWAP_PAGE_SIZE)
		z->st.stored_incompressible_pages++;
	lru_add_tail(z, slot);
}

bool zswap_entry_free(struct zswap *z, uint64_t slot)
{
	struct zswap_slot *e = &z->e[slot];

	if (!e->present)
		return false;
	lru_unlink(z, slot);
	z->total_bytes -= e->length;
	if (e->length >= ZSWAP_PAGE_SIZE)
		z->st.stored_incompressible_pages--;
	z->stored_pages--;
	memset(e, 0, sizeof(*e));
	return true;
}

void zswap_lru_rotate(struct zswap *z, uint64_t slot)
{
	if (!z->e[slot].present)
		return;
	lru_unlink(z, slot);
	lru_add_tail(z, slot);
}

uint64_t zswap_lru_walk_one(struct zswap *z, uint32_t lru, bool second_chance)
{
	uint64_t slot = z->lrus[lru].head;
	struct zswap_slot *e;

	if (!slot)
		return 0;
	e = &z->e[slot];
	lru_unlink(z, slot);
	lru_add_tail(z, slot);
	if (second_chance && e->referenced) {
		e->referenced = 0;
		return 0;
	}
	return slot;
}
