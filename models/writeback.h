/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Dirty page cache and its writeback, as in mm/page-writeback.c and
 * fs/fs-writeback.c: dirty accounting, one flusher per device (woken by the
 * background threshold, by expiry and by reclaim), balance_dirty_pages()
 * throttling of writers, and completion handling that lets reclaim free
 * what it marked PG_reclaim.
 */
#ifndef MMEMU_MODELS_WRITEBACK_H
#define MMEMU_MODELS_WRITEBACK_H

#include <stdint.h>

#include "models/mm.h"

/* vm.dirty_background_ratio and vm.dirty_ratio defaults (Documentation/admin-guide/sysctl/vm.rst) */
#define DEFAULT_DIRTY_BACKGROUND_RATIO 10
#define DEFAULT_DIRTY_RATIO 20
/* vm.dirty_expire_centisecs = 3000, vm.dirty_writeback_centisecs = 500 */
#define DEFAULT_DIRTY_EXPIRE_NS (30 * NSEC_PER_SEC)
#define DEFAULT_DIRTY_WRITEBACK_INTERVAL_NS (5 * NSEC_PER_SEC)
/* MAX_WRITEBACK_PAGES: 4 MiB per inode per pass (fs/fs-writeback.c) */
#define MAX_WRITEBACK_PAGES 1024
/* One jiffy at HZ=250 (Debian's CONFIG_HZ_250) */
#define BDP_JIFFY_NS (4 * NSEC_PER_MSEC)
/* INIT_BW (mm/page-writeback.c): a wb's write bandwidth estimate before it
 * has measured one, 100 MB/s, in pages per second */
#define BDP_INIT_BW_PAGES (100ULL << (20 - 12))
/* balance_dirty_pages() pauses: MAX_PAUSE = HZ/5, MIN_PAUSE ~ 1 jiffy at HZ=250 */
#define BDP_MAX_PAUSE_NS (200 * NSEC_PER_MSEC)
#define BDP_MIN_PAUSE_NS (4 * NSEC_PER_MSEC)

/*
 * filemap_fdatawrite() of fsync(): every dirty page of the file written
 * from the caller (a), which does not wait for the IO (the callers here,
 * WiredTiger's checkpoint and log threads, block no client on it).
 */
void filemap_fdatawrite(struct actor *a, struct address_space *as);
/* Starts a flusher for a device (bdi_writeback); 0 or -ENOMEM. */
int wb_create(struct blockdev *bdev);
/* folio_mark_dirty(): a clean page cache folio becomes dirty (version + 1). */
void folio_mark_dirty(struct folio *folio);
/*
 * balance_dirty_pages_ratelimited(): the writer pays for dirtying: it kicks
 * background writeback and sleeps while the global or its memcg's dirty
 * pages exceed the limits. Returns the time it slept.
 */
uint64_t balance_dirty_pages_ratelimited(struct actor *a, struct task *t);
void wb_exit(void);

#endif
