/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * zram: a compressed RAM block device used as swap. Synchronous: the
 * caller pays compression on write and decompression on read in CPU time.
 * It knows pages only by slot number; its pool size (compressed bytes) is
 * reported so models/ can take that memory from the node.
 */
#ifndef MMEMU_STORAGE_ZRAM_H
#define MMEMU_STORAGE_ZRAM_H

#include <stdbool.h>
#include <stdint.h>

enum zram_comp {
	ZRAM_LZ4,
	ZRAM_LZO,
	ZRAM_ZSTD,
	NR_ZRAM_COMPS
};

struct zram {
	enum zram_comp comp;		/* compressor */
	uint64_t disksize_pages;	/* slots */
	uint16_t *obj_bytes;		/* compressed size per slot, 0 = empty */
	uint64_t nr_stored;		/* slots holding a page */
	uint64_t compr_bytes;		/* sum of obj_bytes */
	uint64_t nr_writes, nr_reads;	/* pages compressed / decompressed */
};

const char *zram_comp_name(enum zram_comp c);
int zram_comp_parse(const char *s, enum zram_comp *c);
/* The compressor's typical ratio (original / compressed). */
double zram_comp_ratio(enum zram_comp c);
/* CPU ns to compress / decompress one 4 KiB page (zswap's compressors are the same) */
uint64_t zram_comp_ns(enum zram_comp c);
uint64_t zram_decomp_ns(enum zram_comp c);

int zram_init(struct zram *z, enum zram_comp comp, uint64_t disksize_pages);
void zram_exit(struct zram *z);
/* Stores a page compressed at `ratio`; returns the CPU ns it costs. */
uint64_t zram_write(struct zram *z, uint64_t slot, double ratio);
/* Reads a page back; returns the CPU ns it costs. */
uint64_t zram_read(struct zram *z, uint64_t slot);
void zram_free(struct zram *z, uint64_t slot);
/* Pages the pool occupies (zsmalloc, fragmentation ignored). */
static inline uint64_t zram_pool_pages(const struct zram *z)
{
	return (z->compr_bytes + 4095) / 4096;
}

#endif
