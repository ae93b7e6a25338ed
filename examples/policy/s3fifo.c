/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * S3-FIFO as an mmemu reclaim policy, built outside the tree against the
 * installed policy API:
 *
 *	J. Yang, Y. Zhang, Z. Qiu, Y. Yue, R. Vinayak, "FIFO queues are all
 *	you need for cache eviction", SOSP 2023 (Algorithm 1).
 *
 * Three FIFO queues per lruvec and type (anon, file): a small queue S that
 * new folios enter, a main queue M, and a ghost queue G of folios evicted
 * from S. G holds no folios: it is the workingset shadow an evicted folio
 * leaves in its page-cache slot (or swap entry), stamped with the count of
 * G insertions so far; a refault whose shadow is fewer than |M| insertions
 * old was still in G, and the folio goes to M rather than S.
 *
 * A hit never moves a folio (that is S3-FIFO's point, and mmemu's hit path
 * never calls a policy anyway): read()/write() bump a 2-bit counter through
 * folio_mark_accessed; mapped accesses set the PTE young bit, which reclaim
 * adds to the counter with folio_referenced() when the folio reaches a
 * queue's tail. Eviction looks at S while S holds at least 10% of the type's
 * folios (the knob [s3fifo] small_percent), else at M:
 *   S tail: a hit since the miss: to M's head, counter 0; else evicted,
 *           leaving its shadow in G.
 *   M tail: counter > 0: back to M's head with counter - 1; else evicted
 *           (no shadow: G is for S's evictions).
 *
 * What a kernel can see differs from the paper's cache in one way: the miss
 * is an access too. read() marks the folio it brought in accessed, and a
 * fault leaves its PTE young, so the counter here counts the miss, and "a
 * hit since the miss" is a counter of 2. A young bit is one bit per look:
 * the first look at a mapped folio cannot tell its miss from a hit, so a
 * folio whose PTEs were young at its first look at S's tail takes one more
 * lap through S (as the kernel's inactive list gives a folio referenced
 * once), and a young bit at the second look is a hit.
 *
 * The kernel's lists carry the sizes: S is the type's inactive list, M its
 * active list (PG_active set on M), so vmstat, memory.stat and the
 * invariant checks read them as they read classic's.
 */
#include <stdio.h>
#include <stdlib.h>

#include <mmemu/policy.h>

/*
 * The policy's knobs, a scenario's [s3fifo] section (or --set
 * s3fifo.small_percent=20): mmemu reads them with its key table parser
 * (mmemu/keys.h) into a struct s3fifo_knobs, lists them in `mmemu list
 * sections`, and hands a run's values to s3fifo_knobs_set().
 */
struct s3fifo_knobs {
	int small_percent;	/* S's share of the folios of a type, percent */
};

/* 10% (paper, 4.1: "S uses 10% of the cache space") */
static const struct s3fifo_knobs s3fifo_defaults = { .small_percent = 10 };

/* The run's values: one simulated kernel per process, so one of these. */
static struct s3fifo_knobs knobs = { .small_percent = 10 };

static void s3fifo_knobs_set(const void *values)
{
	knobs = *(const struct s3fifo_knobs *)values;
}

static const struct key_desc s3fifo_keys[] = {
	SCN_KEY("small_percent", KT_INT, KEY_UNSCALED, struct s3fifo_knobs, small_percent, 1, 90,
		"a percentage (1-90)", "S's share of a type's folios, percent (10: the paper's)"),
	{ 0 }
};

static const struct policy_knobs s3fifo_knobs = {
	.section = "s3fifo",
	.desc = "the S3-FIFO plug-in (examples/policy)",
	.keys = s3fifo_keys,
	.size = sizeof(struct s3fifo_knobs),
	.defaults = &s3fifo_defaults,
	.set = s3fifo_knobs_set,
};
/*
 * S tail to M: one hit after the miss, the miss counted (see above). The
 * paper's Algorithm 1 moves at two hits ("t.freq > 1"); one hit is
 * libCacheSim's S3FIFOdv2 default (move-to-main-threshold=1).
 */
#define S3FIFO_MOVE_TO_MAIN 2
/* The counter is capped at 3: two bits (paper, 4.1). */
#define S3FIFO_FREQ_MAX 3

/* In the policy's flag bits: the counter, and "young at its first look at S's tail". */
#define FREQ_SHIFT FOLIO_POLICY_PGOFF
#define FREQ_MASK (3U << FREQ_SHIFT)
#define SEEN_BIT (1U << (FOLIO_POLICY_PGOFF + 2))

struct s3fifo_lruvec {
	struct flist lists[NR_LRU_LISTS];	/* by enum lru_list: S = inactive, M = active */
};

static struct flist *lru_flist(struct lruvec *lruvec, enum lru_list lru)
{
	return &((struct s3fifo_lruvec *)lruvec->lrupriv)->lists[lru];
}

static unsigned int folio_freq(const struct folio *folio)
{
	return (folio->flags & FREQ_MASK) >> FREQ_SHIFT;
}

static void folio_set_freq(struct folio *folio, unsigned int freq)
{
	if (freq > S3FIFO_FREQ_MAX)
		freq = S3FIFO_FREQ_MAX;
	folio->flags = (folio->flags & ~FREQ_MASK) | freq << FREQ_SHIFT;
}

/* S or M (PG_active) of the folio's type, or the unevictable list. */
static enum lru_list folio_lru_list(const struct folio *folio)
{
	enum lru_list lru;

	if (folio_test_unevictable(folio))
		return LRU_UNEVICTABLE;
	lru = folio_is_file_lru(folio) ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	if (folio_test_active(folio))
		lru += LRU_ACTIVE;
	return lru;
}

static void add_folio(struct lruvec *lruvec, struct folio *folio, bool tail)
{
	enum lru_list lru = folio_lru_list(folio);

	update_lru_size(lruvec, lru, 1);
	if (tail)
		flist_add_tail(lru_flist(lruvec, lru), folio_idx(folio));
	else
		flist_add(lru_flist(lruvec, lru), folio_idx(folio));
	folio->lru = (uint8_t)lru;
	folio_set_lru(folio);
}

static void del_folio(struct lruvec *lruvec, struct folio *folio)
{
	enum lru_list lru = folio->lru;

	flist_del(lru_flist(lruvec, lru), folio_idx(folio));
	update_lru_size(lruvec, lru, -1);
	folio_clear_lru(folio);
}

static int s3fifo_lruvec_init(struct lruvec *lruvec)
{
	lruvec->lrupriv = calloc(1, sizeof(struct s3fifo_lruvec));
	return lruvec->lrupriv ? 0 : -1;
}

static void s3fifo_lruvec_exit(struct lruvec *lruvec)
{
	free(lruvec->lrupriv);
	lruvec->lrupriv = NULL;
}

/* A new folio enters S; one whose refault hit G (PG_active, below) enters M. */
static void s3fifo_folio_add(struct lruvec *lruvec, struct folio *folio)
{
	add_folio(lruvec, folio, false);
}

static void s3fifo_folio_del(struct lruvec *lruvec, struct folio *folio)
{
	del_folio(lruvec, folio);
}

/* Reclaim could not free it (dirty, under writeback, ...): back to its queue's head. */
static void s3fifo_folio_putback(struct lruvec *lruvec, struct folio *folio)
{
	add_folio(lruvec, folio, false);
}

/* Written back for reclaim: to its queue's tail, to be evicted next. */
static void s3fifo_folio_rotate(struct lruvec *lruvec, struct folio *folio)
{
	del_folio(lruvec, folio);
	add_folio(lruvec, folio, true);
}

static void s3fifo_folio_mark_accessed(struct folio *folio)
{
	folio_set_freq(folio, folio_freq(folio) + 1);
}

/* Which queue of `type` to evict from: S while it holds small_percent (10%) or more. */
static enum lru_list evict_queue(struct lruvec *lruvec, int type)
{
	enum lru_list small = type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
	uint64_t s = lruvec_lru_size(lruvec, small);
	uint64_t m = lruvec_lru_size(lruvec, small + LRU_ACTIVE);

	if (!m || (s && s * 100 >= (s + m) * (uint64_t)knobs.small_percent))
		return small;
	return small + LRU_ACTIVE;
}

/* Up to nr_to_scan folios from the tails of type's queues; returns pages freed. */
static uint64_t s3fifo_evict(struct lruvec *lruvec, struct scan_control *sc, int type,
			     uint64_t nr_to_scan)
{
	struct pglist_data *pgdat = lruvec_pgdat(lruvec);
	struct mem_cgroup *memcg = lruvec->memcg;
	struct flist list;
	struct reclaim_stat stat;
	uint64_t scanned = 0, nr_taken = 0, nr_promoted = 0, nr_reclaimed;
	uint32_t idx;

	flist_init(&list);
	while (scanned < nr_to_scan) {
		enum lru_list lru = evict_queue(lruvec, type);
		struct folio *folio;
		bool vm_exec;
		int young;

		if (!(idx = lru_flist(lruvec, lru)->tail))
			break;
		folio = folio_of(idx);
		scanned++;
		del_folio(lruvec, folio);
		young = folio_referenced(folio, &vm_exec);
		folio_set_freq(folio, folio_freq(folio) + (young ? 1U : 0U));
		if (!is_active_lru(lru) && folio_freq(folio) >= S3FIFO_MOVE_TO_MAIN) {
			/* S -> M, its access bits cleared by the move */
			folio_set_freq(folio, 0);
			folio->flags &= ~SEEN_BIT;
			folio_set_active(folio);
			add_folio(lruvec, folio, false);
			nr_promoted++;
		} else if (!is_active_lru(lru) && young && !(folio->flags & SEEN_BIT)) {
			/* young at its first look: its miss, or a hit; look once more */
			folio->flags |= SEEN_BIT;
			add_folio(lruvec, folio, false);
		} else if (is_active_lru(lru) && folio_freq(folio)) {
			/* M: reinserted, one access fewer */
			folio_set_freq(folio, folio_freq(folio) - 1);
			add_folio(lruvec, folio, false);
		} else {
			flist_add(&list, idx);
			nr_taken++;
		}
	}
	sc_charge_isolate(sc, scanned);
	count_vm_events(PGACTIVATE, nr_promoted);
	count_memcg_events(memcg, PGACTIVATE, nr_promoted);
	if (!cgroup_reclaim(sc))
		count_vm_events(sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, scanned);
	count_memcg_events(memcg, sc->kswapd ? PGSCAN_KSWAPD : PGSCAN_DIRECT, scanned);
	count_vm_events(PGSCAN_ANON + type, scanned);
	if (!nr_taken)
		return 0;

	mod_lruvec_state(lruvec, NR_ISOLATED_ANON + type, (int64_t)nr_taken);
	/* the decision is made: shrink_folio_list() only unmaps, writes and frees */
	nr_reclaimed = shrink_folio_list(&list, pgdat, sc, &stat, true);
	while ((idx = flist_pop_tail(&list)))
		s3fifo_folio_putback(lruvec, folio_of(idx));
	mod_lruvec_state(lruvec, NR_ISOLATED_ANON + type, -(int64_t)nr_taken);

	if (!cgroup_reclaim(sc))
		count_vm_events(sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, nr_reclaimed);
	count_memcg_events(memcg, sc->kswapd ? PGSTEAL_KSWAPD : PGSTEAL_DIRECT, nr_reclaimed);
	count_vm_events(PGSTEAL_ANON + type, nr_reclaimed);
	lru_note_cost(lruvec, type, stat.nr_pageout, scanned - nr_reclaimed);
	handle_reclaim_writeback(nr_taken, pgdat, sc, &stat);
	return nr_reclaimed;
}

/*
 * How much of each type to look at: its size >> priority (after memory.low
 * protection), anon only when it can be swapped, the two weighted by
 * swappiness as the kernel's SCAN_FRACT does without its cost terms.
 */
static void s3fifo_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	struct mem_cgroup *memcg = lruvec->memcg;
	int swappiness = sc_swappiness(sc, memcg);
	bool anon_ok = sc->may_swap && swappiness &&
		       can_reclaim_anon_pages(memcg, lruvec->nid, sc);
	uint64_t nr[2], nr_reclaimed = 0;

	for (int type = 0; type < 2; type++) {
		enum lru_list small = type ? LRU_INACTIVE_FILE : LRU_INACTIVE_ANON;
		uint64_t size = lruvec_lru_size(lruvec, small) +
				lruvec_lru_size(lruvec, small + LRU_ACTIVE);
		uint64_t scan = apply_proportional_protection(memcg, sc, size) >> sc->priority;

		if (!scan && !mem_cgroup_online(memcg))
			scan = size < SWAP_CLUSTER_MAX ? size : SWAP_CLUSTER_MAX;
		if (!scan && sc->priority == 0)
			scan = size;
		nr[type] = scan * (uint64_t)(type ? 200 - swappiness : swappiness) / 100;
		if (!nr[type] && scan)
			nr[type] = 1;
	}
	if (!anon_ok)
		nr[0] = 0;

	while ((nr[0] || nr[1]) && nr_reclaimed < sc->nr_to_reclaim) {
		for (int type = 0; type < 2; type++) {
			uint64_t batch = nr[type] < SWAP_CLUSTER_MAX ? nr[type] : SWAP_CLUSTER_MAX;

			if (!batch)
				continue;
			nr[type] -= batch;
			nr_reclaimed += s3fifo_evict(lruvec, sc, type, batch);
		}
		sc_cond_resched(sc);
	}
	sc->nr_reclaimed += nr_reclaimed;
}

/* Evicted from S: into G, a shadow stamped with G's insertion count. */
static uint64_t s3fifo_eviction(struct folio *folio, struct mem_cgroup *target_memcg)
{
	if (folio_test_active(folio))
		return 0;	/* from M: no ghost */
	/* the kernel's shadow: the target's non-resident clock, which it advances */
	return workingset_eviction(folio, target_memcg);
}

/* Refault: still in G (fewer than |M| insertions since) goes to M. */
static void s3fifo_refault(struct folio *folio, uint64_t shadow)
{
	struct lruvec *lruvec = folio_lruvec(folio), *eviction_lruvec;
	bool file = folio_is_file_lru(folio), workingset;
	uint64_t distance = workingset_refault_distance(shadow, &eviction_lruvec, &workingset);
	uint64_t ghost_size;

	mod_lruvec_state(lruvec, WORKINGSET_REFAULT_BASE + file, 1);
	if (!eviction_lruvec)
		return;
	/* G holds as many entries as M has folios (paper, 4.1) */
	ghost_size = lruvec_page_state(eviction_lruvec, file ? NR_ACTIVE_FILE : NR_ACTIVE_ANON);
	if (distance >= ghost_size)
		return;
	folio_set_active(folio);
	mod_lruvec_state(lruvec, WORKINGSET_ACTIVATE_BASE + file, 1);
}

static int s3fifo_check_lruvec(struct lruvec *lruvec, uint64_t nr_listed[NR_LRU_LISTS],
			       char *err, size_t len)
{
	for (int lru = 0; lru < NR_LRU_LISTS; lru++) {
		struct flist *l = lru_flist(lruvec, (enum lru_list)lru);
		uint64_t n = 0;

		for (uint32_t idx = l->head; idx; idx = folio_of(idx)->lru_next) {
			struct folio *folio = folio_of(idx);

			if (!folio_test_lru(folio) || folio->lru != lru ||
			    folio_lru_list(folio) != (enum lru_list)lru ||
			    folio->memcg_id != mem_cgroup_id(lruvec->memcg) ||
			    folio->nid != lruvec->nid) {
				snprintf(err, len, "s3fifo: folio %u on list %d of memcg %u node %d "
					 "has flags %#x lru %d memcg %u nid %u", idx, lru,
					 mem_cgroup_id(lruvec->memcg), lruvec->nid, folio->flags,
					 folio->lru, folio->memcg_id, folio->nid);
				return -1;
			}
			if (++n > l->nr) {
				snprintf(err, len, "s3fifo: list %d of memcg %u node %d: longer than %llu",
					 lru, mem_cgroup_id(lruvec->memcg), lruvec->nid,
					 (unsigned long long)l->nr);
				return -1;
			}
		}
		if (n != l->nr) {
			snprintf(err, len, "s3fifo: list %d of memcg %u node %d: %llu listed, nr %llu",
				 lru, mem_cgroup_id(lruvec->memcg), lruvec->nid,
				 (unsigned long long)n, (unsigned long long)l->nr);
			return -1;
		}
		nr_listed[lru] = n;
	}
	return 0;
}

static void s3fifo_print_state(struct lruvec *lruvec, policy_print_fn out, void *ctx)
{
	char line[160];

	snprintf(line, sizeof(line), "memcg %5u node %d: S anon %llu file %llu, M anon %llu file %llu",
		 mem_cgroup_id(lruvec->memcg), lruvec->nid,
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_INACTIVE_ANON),
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_INACTIVE_FILE),
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_ACTIVE_ANON),
		 (unsigned long long)lruvec_lru_size(lruvec, LRU_ACTIVE_FILE));
	out(ctx, line);
}

const struct reclaim_policy mmemu_policy = {
	.abi = MMEMU_POLICY_ABI,
	.name = "s3fifo",
	.desc = "S3-FIFO (Yang et al., SOSP'23): small, main and ghost FIFOs",
	.lruvec_init = s3fifo_lruvec_init,
	.lruvec_exit = s3fifo_lruvec_exit,
	.folio_add = s3fifo_folio_add,
	.folio_del = s3fifo_folio_del,
	.folio_putback = s3fifo_folio_putback,
	.folio_rotate = s3fifo_folio_rotate,
	.folio_mark_accessed = s3fifo_folio_mark_accessed,
	.shrink_lruvec = s3fifo_shrink_lruvec,
	.workingset_eviction = s3fifo_eviction,
	.workingset_refault = s3fifo_refault,
	.check_lruvec = s3fifo_check_lruvec,
	.print_state = s3fifo_print_state,
	.knobs = &s3fifo_knobs,
};
