/* SPDX-License-Identifier: GPL-2.0-only */
/* Workingset detection under the classic LRU: shadow entries, refault distance, activation. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"
#include "models/workingset.h"

/* ---- shadow packing ---- */

static void round_trip(unsigned short memcgid, int nid, uint64_t eviction, bool ws)
{
	unsigned short m2 = 0xffff;
	uint64_t e2 = ~0ULL, shadow = pack_shadow(memcgid, nid, eviction, ws);
	int n2 = -1;
	bool w2 = !ws;

	ck_assert(xa_is_value(shadow));
	unpack_shadow(shadow, &m2, &n2, &e2, &w2);
	ck_assert_uint_eq(m2, memcgid);
	ck_assert_int_eq(n2, nid);
	ck_assert_uint_eq(e2, eviction & EVICTION_MASK);
	ck_assert_int_eq(w2, ws);
}

START_TEST(test_shadow_round_trip)
{
	struct rng r;

	round_trip(0, 0, 0, false);
	round_trip(1, 1, 1, true);
	round_trip(4095, 7, EVICTION_MASK, true);
	round_trip(MAX_MEMCGS - 1, MAX_NUMNODES - 1, 123456, false);
	rng_seed(&r, 1, "shadow");
	for (int i = 0; i < 10000; i++)
		round_trip((unsigned short)rng_below(&r, MAX_MEMCGS), (int)rng_below(&r, MAX_NUMNODES),
			   rng_below(&r, EVICTION_MASK + 1), rng_below(&r, 2));
}
END_TEST

START_TEST(test_shadow_eviction_truncated)
{
	unsigned short m;
	uint64_t e;
	bool ws;
	int nid;

	/* the clock keeps WORKINGSET_EVICTION_BITS; the rest must not spill into the id */
	unpack_shadow(pack_shadow(5, 1, (1ULL << WORKINGSET_EVICTION_BITS) + 9, true), &m, &nid,
		      &e, &ws);
	ck_assert_uint_eq(m, 5);
	ck_assert_int_eq(nid, 1);
	ck_assert_uint_eq(e, 9);
	ck_assert(ws);
	/* different inputs, different shadows */
	ck_assert_uint_ne(pack_shadow(1, 0, 10, false), pack_shadow(2, 0, 10, false));
	ck_assert_uint_ne(pack_shadow(1, 0, 10, false), pack_shadow(1, 1, 10, false));
	ck_assert_uint_ne(pack_shadow(1, 0, 10, false), pack_shadow(1, 0, 11, false));
	ck_assert_uint_ne(pack_shadow(1, 0, 10, false), pack_shadow(1, 0, 10, true));
}
END_TEST

START_TEST(test_age_nonresident_walks_ancestors)
{
	struct mem_cgroup *p, *c;

	harness_boot(2, 16384, &classic_policy);
	p = mem_cgroup_create(mm.root_mem_cgroup, "p");
	c = mem_cgroup_create(p, "p/c");
	workingset_age_nonresident(c->lruvec[1], 3);
	ck_assert_uint_eq(c->lruvec[1]->nonresident_age, 3);
	ck_assert_uint_eq(p->lruvec[1]->nonresident_age, 3);
	ck_assert_uint_eq(mm.root_mem_cgroup->lruvec[1]->nonresident_age, 3);
	/* other nodes keep their own clock */
	ck_assert_uint_eq(c->lruvec[0]->nonresident_age, 0);
	workingset_age_nonresident(p->lruvec[1], 2);
	ck_assert_uint_eq(c->lruvec[1]->nonresident_age, 3);
	ck_assert_uint_eq(p->lruvec[1]->nonresident_age, 5);
}
END_TEST

/* ---- refaults through reclaim in a small memcg ---- */

#define WS_ACTIVE 200		/* pages made active first: the workingset */
#define WS_MAX 512		/* memory.max of the memcg, pages */
#define VICTIM 1000		/* the page evicted and refaulted */

static struct {
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct task *task;
	struct address_space *file;
	uint64_t next;		/* next page of the stream (descending: no readahead) */
} ws;

static void ws_boot(void)
{
	harness_boot(1, 65536, &classic_policy);
	memset(&ws, 0, sizeof(ws));
	harness_nvme(&ws.nvme);
	ws.memcg = mem_cgroup_create(mm.root_mem_cgroup, "ws");
	ws.memcg->max = WS_MAX;
	ws.task = task_create("reader", ws.memcg, 0);
	ws.file = file_create("data", 16384, &ws.nvme, 0, false);
	ck_assert_ptr_nonnull(ws.file);
	ws.next = 16383;
}

static bool resident(uint64_t index)
{
	uint64_t e = ws.file->slots[index];

	return e && !xa_is_value(e);
}

static struct folio *ws_page(uint64_t index)
{
	ck_assert(resident(index));
	return folio_of((uint32_t)ws.file->slots[index]);
}

static void ws_read(struct actor *a, uint64_t index)
{
	ck_assert_int_ge(filemap_read(a, ws.task, ws.file, index), 0);
	ck_assert_uint_le(ws.memcg->usage, WS_MAX);
}

/* The workingset: pages 0..WS_ACTIVE-1 read twice (active), then the victim read once. */
static void build_workingset(struct actor *a)
{
	for (int64_t i = WS_ACTIVE - 1; i >= 0; i--) {
		ws_read(a, (uint64_t)i);
		ws_read(a, (uint64_t)i);
		ck_assert(folio_test_active(ws_page((uint64_t)i)));
	}
	ck_assert_uint_eq(lruvec_lru_size(ws.memcg->lruvec[0], LRU_ACTIVE_FILE), WS_ACTIVE);
	ws_read(a, VICTIM);
	ck_assert(!folio_test_active(ws_page(VICTIM)));
}

/* Streams once-read pages until the victim is evicted; returns how many were read. */
static uint64_t stream_until_victim_evicted(struct actor *a)
{
	uint64_t n = 0;

	while (resident(VICTIM)) {
		ws_read(a, ws.next--);
		ck_assert_uint_lt(++n, 4 * WS_MAX);
	}
	ck_assert(xa_is_value(ws.file->slots[VICTIM]));
	return n;
}

static uint64_t memcg_stat(enum node_stat_item item)
{
	return (uint64_t)ws.memcg->lruvec[0]->stat[item];
}

/* The victim's eviction timestamp, from its shadow. */
static uint64_t victim_eviction(void)
{
	unsigned short memcgid;
	uint64_t eviction;
	bool workingset;
	int nid;

	unpack_shadow(ws.file->slots[VICTIM], &memcgid, &nid, &eviction, &workingset);
	return eviction << mm.bucket_order;
}

static void refault_soon_fn(struct actor *a, void *arg)
{
	struct folio *folio;
	uint64_t refaults, activates;
	unsigned short memcgid;
	uint64_t eviction;
	bool workingset;
	int nid;

	(void)arg;
	build_workingset(a);
	stream_until_victim_evicted(a);
	unpack_shadow(ws.file->slots[VICTIM], &memcgid, &nid, &eviction, &workingset);
	ck_assert_uint_eq(memcgid, ws.memcg->id);
	ck_assert(!workingset);
	/* the workingset was not touched by the stream */
	ck_assert_uint_eq(lruvec_lru_size(ws.memcg->lruvec[0], LRU_ACTIVE_FILE), WS_ACTIVE);

	refaults = memcg_stat(WORKINGSET_REFAULT_FILE);
	activates = memcg_stat(WORKINGSET_ACTIVATE_FILE);
	eviction = victim_eviction();
	ck_assert_int_eq(filemap_read(a, ws.task, ws.file, VICTIM), ACCESS_MAJOR);
	/* evictions since (the activation itself ticked the clock once more) */
	ck_assert_uint_lt(ws.memcg->lruvec[0]->nonresident_age - 1 - eviction, WS_ACTIVE);
	ck_assert_uint_eq(memcg_stat(WORKINGSET_REFAULT_FILE), refaults + 1);
	ck_assert_uint_eq(memcg_stat(WORKINGSET_ACTIVATE_FILE), activates + 1);
	ck_assert_uint_eq(memcg_stat(WORKINGSET_RESTORE_FILE), 0);
	folio = ws_page(VICTIM);
	ck_assert(folio_test_active(folio));
	ck_assert(folio_test_lru(folio));
	ck_assert_int_eq(folio->lru, LRU_ACTIVE_FILE);
	ck_assert(!folio_test_workingset(folio));
	/* the memory.stat view agrees */
	ck_assert_uint_eq(memcg_page_state(ws.memcg, WORKINGSET_REFAULT_FILE), refaults + 1);
	ck_assert_uint_eq(memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_FILE),
			  refaults + 1);
}

START_TEST(test_refault_soon_activates)
{
	ws_boot();
	harness_run_actor(refault_soon_fn, NULL);
}
END_TEST

static void refault_late_fn(struct actor *a, void *arg)
{
	uint64_t refaults, activates, eviction, distance;
	struct folio *folio;

	(void)arg;
	build_workingset(a);
	stream_until_victim_evicted(a);
	/* more evictions than the active list holds, fewer than active + inactive */
	for (int i = 0; i < WS_ACTIVE + 50; i++)
		ws_read(a, ws.next--);
	ck_assert_uint_eq(lruvec_lru_size(ws.memcg->lruvec[0], LRU_ACTIVE_FILE), WS_ACTIVE);
	eviction = victim_eviction();

	refaults = memcg_stat(WORKINGSET_REFAULT_FILE);
	activates = memcg_stat(WORKINGSET_ACTIVATE_FILE);
	ck_assert_int_eq(filemap_read(a, ws.task, ws.file, VICTIM), ACCESS_MAJOR);
	/* the refault distance the kernel would compute (the clock ticked on evictions only) */
	distance = ws.memcg->lruvec[0]->nonresident_age - eviction;
	ck_assert_msg(distance > WS_ACTIVE && distance < WS_MAX,
		      "test setup: refault distance %llu should be between %d and %d",
		      (unsigned long long)distance, WS_ACTIVE, WS_MAX);
	ck_assert_uint_eq(memcg_stat(WORKINGSET_REFAULT_FILE), refaults + 1);
	/* a file page competes with the active file list only: no activation */
	ck_assert_uint_eq(memcg_stat(WORKINGSET_ACTIVATE_FILE), activates);
	folio = ws_page(VICTIM);
	ck_assert(!folio_test_active(folio));
	ck_assert_int_eq(folio->lru, LRU_INACTIVE_FILE);
}

START_TEST(test_refault_late_not_activated)
{
	ws_boot();
	harness_run_actor(refault_late_fn, NULL);
}
END_TEST

static void restore_fn(struct actor *a, void *arg)
{
	struct scan_control sc = {
		.nr_to_reclaim = SWAP_CLUSTER_MAX,
		.target_mem_cgroup = ws.memcg,
		.priority = DEF_PRIORITY,
		.may_unmap = true,
		.swappiness = -1,
		.actor = a,
	};
	struct lruvec *l = ws.memcg->lruvec[0];
	struct reclaim_stat stat;
	struct flist list;
	struct folio *folio;
	unsigned short memcgid;
	uint64_t eviction, file_cost;
	bool workingset;
	int nid;

	(void)arg;
	build_workingset(a);
	/* page 0 was active: deactivate it as shrink_active_list does, then evict it */
	folio = ws_page(0);
	mm.policy->folio_del(l, folio);
	folio_clear_active(folio);
	folio_set_workingset(folio);
	flist_init(&list);
	flist_add(&list, folio_idx(folio));
	mod_lruvec_state(l, NR_ISOLATED_FILE, 1);
	ck_assert_uint_eq(shrink_folio_list(&list, NODE_DATA(0), &sc, &stat, false), 1);
	mod_lruvec_state(l, NR_ISOLATED_FILE, -1);
	ck_assert(xa_is_value(ws.file->slots[0]));
	unpack_shadow(ws.file->slots[0], &memcgid, &nid, &eviction, &workingset);
	ck_assert(workingset);

	file_cost = l->file_cost;
	ck_assert_int_eq(filemap_read(a, ws.task, ws.file, 0), ACCESS_MAJOR);
	folio = ws_page(0);
	ck_assert(folio_test_active(folio));
	ck_assert(folio_test_workingset(folio));
	ck_assert_uint_eq(memcg_stat(WORKINGSET_REFAULT_FILE), 1);
	ck_assert_uint_eq(memcg_stat(WORKINGSET_ACTIVATE_FILE), 1);
	ck_assert_uint_eq(memcg_stat(WORKINGSET_RESTORE_FILE), 1);
	/* a restored workingset page is a cost of reclaiming file pages */
	ck_assert_uint_gt(l->file_cost, file_cost);
}

START_TEST(test_refault_of_workingset_page_restores)
{
	ws_boot();
	harness_run_actor(restore_fn, NULL);
}
END_TEST

static Suite *workingset_suite(void)
{
	Suite *s = suite_create("workingset");
	TCase *tc = tcase_create("shadow");

	tcase_add_test(tc, test_shadow_round_trip);
	tcase_add_test(tc, test_shadow_eviction_truncated);
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_age_nonresident_walks_ancestors);
	suite_add_tcase(s, tc);

	tc = tcase_create("refault");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_refault_soon_activates);
	tcase_add_test(tc, test_refault_late_not_activated);
	tcase_add_test(tc, test_refault_of_workingset_page_restores);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(workingset_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
