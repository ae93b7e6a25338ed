/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "storage/zram.h"

static const struct {
	const char *name;
	double ratio;		/* compression ratio of typical memory */
	uint64_t comp_ns;	/* one 4 KiB page */
	uint64_t decomp_ns;
} comps[NR_ZRAM_COMPS] = {
	/* compress time and ratio: KERNEL.md (Devices, zram); decompression:
	 * lzbench single-core figures, lz4 ~4 GB/s, lzo ~1.5 GB/s, zstd ~1.2 GB/s */
	[ZRAM_LZ4] = { "lz4", 2.6, 1700, 1000 },
	[ZRAM_LZO] = { "lzo", 2.8, 2400, 2700 },
	[ZRAM_ZSTD] = { "zstd", 3.4, 5700, 3400 },
};

const char *zram_comp_name(enum zram_comp c)
{
	return c < NR_ZRAM_COMPS ? comps[c].name : "?";
}

int zram_comp_parse(const char *s, enum zram_comp *c)
{
	for (int i = 0; i < NR_ZRAM_COMPS; i++) {
		if (!strcmp(s, comps[i].name)) {
			*c = (enum zram_comp)i;
			return 0;
		}
	}
	return -EINVAL;
}

double zram_comp_ratio(enum zram_comp c)
{
	return comps[c].ratio;
}

uint64_t zram_comp_ns(enum zram_comp c)
{
	return comps[c].comp_ns;
}

uint64_t zram_decomp_ns(enum zram_comp c)
{
	return comps[c].decomp_ns;
}

int zram_init(struct zram *z, enum zram_comp comp, uint64_t disksize_pages)
{
	memset(z, 0, sizeof(*z));
	z->comp = comp;
	z->disksize_pages = disksize_pages;
	z->obj_bytes = calloc(disksize_pages + 1, sizeof(*z->obj_bytes));
	return z->obj_bytes ? 0 : -ENOMEM;
}

void zram_exit(struct zram *z)
{
	free(z->obj_bytes);
	z->obj_bytes = NULL;
}

uint64_t zram_write(struct zram *z, uint64_t slot, double ratio)
{
	uint64_t bytes = ratio > 1 ? (uint64_t)(4096.0 / ratio) : 4096;

	zram_free(z, slot);
	if (!bytes)
		bytes = 1;
	z->obj_bytes[slot] = (uint16_t)bytes;
	z->compr_bytes += bytes;
	z->nr_stored++;
	z->nr_writes++;
	return comps[z->comp].comp_ns;
}

uint64_t zram_read(struct zram *z, uint64_t slot)
{
	(void)slot;
	z->nr_reads++;
	return comps[z->comp].decomp_ns;
}

void zram_free(struct zram *z, uint64_t slot)
{
	if (!z->obj_bytes[slot])
		return;
	z->compr_bytes -= z->obj_bytes[slot];
	z->obj_bytes[slot] = 0;
	z->nr_stored--;
}
