/* SPDX-License-Identifier: GPL-2.0-only */
/* memcg: charging against memory.max and memory.high, the OOM killer, protection, iteration. */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"

static struct {
	struct blockdev nvme;
	struct mem_cgroup *memcg;
	struct task *task;
	struct address_space *file;
} fx;

static void boot(uint64_t max_pages)
{
	harness_boot(1, 65536, &classic_policy);
	memset(&fx, 0, sizeof(fx));
	harness_nvme(&fx.nvme);
	fx.memcg = mem_cgroup_create(mm.root_mem_cgroup, "app");
	ck_assert_ptr_nonnull(fx.memcg);
	fx.memcg->max = max_pages;
	fx.task = task_create("reader", fx.memcg, 0);
	fx.file = file_create("data", 8192, &fx.nvme, 0, false);
	ck_assert_ptr_nonnull(fx.file);
}

static void assert_invariants(void)
{
	char err[512];

	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}

/* ---- memory.max with file pages: reclaim, never over the limit ---- */

static void over_max_fn(struct actor *a, void *arg)
{
	(void)arg;
	/* descending: random reads, no readahead */
	for (int64_t i = 999; i >= 0; i--) {
		ck_assert_int_ge(filemap_read(a, fx.task, fx.file, (uint64_t)i), 0);
		ck_assert_msg(fx.memcg->usage <= fx.memcg->max, "usage %llu over max %llu after page %lld",
			      (unsigned long long)fx.memcg->usage,
			      (unsigned long long)fx.memcg->max, (long long)i);
	}
}

START_TEST(test_charge_over_max_reclaims_file)
{
	boot(128);
	harness_run_actor(over_max_fn, NULL);
	ck_assert_uint_gt(fx.memcg->memory_events[MEMCG_MAX], 0);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM], 0);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM_KILL], 0);
	ck_assert_uint_gt(fx.memcg->events[PGSCAN_DIRECT], 0);
	ck_assert_uint_gt(fx.memcg->events[PGSTEAL_DIRECT], 0);
	ck_assert_uint_le(fx.memcg->events[PGSTEAL_DIRECT], fx.memcg->events[PGSCAN_DIRECT]);
	/* at least the pages beyond the limit were freed */
	ck_assert_uint_ge(fx.memcg->events[PGSTEAL_DIRECT], 1000 - 128);
	/* limit reclaim is not global reclaim: /proc/vmstat's pgscan_direct and allocstall stay */
	ck_assert_uint_eq(mm.vm_events[PGSCAN_DIRECT], 0);
	ck_assert_uint_eq(mm.vm_events[ALLOCSTALL], 0);
	ck_assert_uint_eq(mm.vm_events[PGSTEAL_FILE], fx.memcg->events[PGSTEAL_DIRECT]);
	ck_assert_uint_ge(mm.vm_events[PGSCAN_FILE], mm.vm_events[PGSTEAL_FILE]);
	ck_assert_uint_le(fx.memcg->watermark, fx.memcg->max);
	ck_assert_uint_eq(fx.memcg->usage, memcg_page_state(fx.memcg, NR_FILE_PAGES));
	ck_assert_uint_eq(fx.file->nr_resident, fx.memcg->usage);
	assert_invariants();
}
END_TEST

START_TEST(test_charge_over_parent_max)
{
	struct mem_cgroup *child;

	boot(UINT64_MAX);
	fx.memcg->max = 128;
	child = mem_cgroup_create(fx.memcg, "app/child");
	fx.task->memcg = child;
	harness_run_actor(over_max_fn, NULL);
	ck_assert_uint_le(fx.memcg->usage, 128);
	ck_assert_uint_eq(child->usage, fx.memcg->usage);
	ck_assert_uint_gt(fx.memcg->memory_events[MEMCG_MAX], 0);
	ck_assert_uint_eq(child->memory_events[MEMCG_MAX], 0);
	ck_assert_uint_gt(memcg_memory_events(fx.memcg, MEMCG_MAX), 0);
	/* the child's pages were the ones scanned */
	ck_assert_uint_gt(child->events[PGSCAN_DIRECT], 0);
	ck_assert_uint_eq(memcg_events(fx.memcg, PGSCAN_DIRECT), child->events[PGSCAN_DIRECT]);
	assert_invariants();
}
END_TEST

START_TEST(test_charge_over_high_reclaims_back)
{
	boot(UINT64_MAX);
	fx.memcg->high = 128;
	fx.memcg->max = 100000;
	harness_run_actor(over_max_fn, NULL);
	ck_assert_uint_le(fx.memcg->usage, 128);
	ck_assert_uint_gt(fx.memcg->memory_events[MEMCG_HIGH], 0);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_MAX], 0);
	assert_invariants();
}
END_TEST

/* ---- memory.reclaim ---- */

static void proactive_fn(struct actor *a, void *arg)
{
	uint64_t got = 0, before;

	(void)arg;
	for (int64_t i = 299; i >= 0; i--)
		ck_assert_int_ge(filemap_read(a, fx.task, fx.file, (uint64_t)i), 0);
	before = fx.memcg->usage;
	ck_assert_uint_eq(before, 300);
	ck_assert_int_eq(memory_reclaim(fx.memcg, 100, -1, a, &got), 0);
	ck_assert_uint_ge(got, 100);
	ck_assert_uint_eq(fx.memcg->usage, before - got);
	assert_invariants();
}

START_TEST(test_memory_reclaim)
{
	boot(UINT64_MAX);
	harness_run_actor(proactive_fn, NULL);
}
END_TEST

static void proactive_anon_fn(struct actor *a, void *arg)
{
	struct address_space *heap = anon_region_create(fx.task, "heap", 64);
	uint64_t got = 12345;

	(void)arg;
	for (uint64_t i = 0; i < 64; i++)
		ck_assert_int_eq(anon_access(a, fx.task, heap, i, true), ACCESS_NEW);
	/* no swap: nothing to take */
	ck_assert_int_eq(memory_reclaim(fx.memcg, 10, -1, a, &got), -EAGAIN);
	ck_assert_uint_eq(got, 0);
	ck_assert_uint_eq(fx.memcg->usage, 64);
	ck_assert_uint_eq(fx.task->rss_anon, 64);
	assert_invariants();
}

START_TEST(test_memory_reclaim_nothing_reclaimable)
{
	boot(UINT64_MAX);
	harness_run_actor(proactive_anon_fn, NULL);
}
END_TEST

/* ---- the memcg OOM killer ---- */

struct oom_test {
	struct task *big, *small;
	struct address_space *big_heap, *small_heap;
	int last_ret;
};

static void oom_other_fn(struct actor *a, void *arg)
{
	struct oom_test *o = arg;

	for (uint64_t i = 0; i < 200; i++)
		ck_assert_int_eq(anon_access(a, o->big, o->big_heap, i, true), ACCESS_NEW);
	for (uint64_t i = 0; i < 50; i++)
		ck_assert_int_eq(anon_access(a, o->small, o->small_heap, i, true), ACCESS_NEW);
	ck_assert_uint_eq(fx.memcg->usage, 250);
	/* the small task goes over memory.max: the big one is killed */
	for (uint64_t i = 50; i < 100; i++)
		ck_assert_int_eq(anon_access(a, o->small, o->small_heap, i, true), ACCESS_NEW);
	o->last_ret = anon_access(a, o->big, o->big_heap, 0, false);
}

START_TEST(test_oom_kills_largest_task)
{
	struct oom_test o = { 0 };

	boot(256);
	o.big = task_create("big", fx.memcg, 0);
	o.small = task_create("small", fx.memcg, 0);
	o.big_heap = anon_region_create(o.big, "big-heap", 256);
	o.small_heap = anon_region_create(o.small, "small-heap", 256);
	harness_run_actor(oom_other_fn, &o);
	ck_assert(o.big->oom_killed);
	ck_assert(!o.small->oom_killed);
	ck_assert(!fx.task->oom_killed);	/* no anon: not chosen over big */
	ck_assert_uint_eq(o.big->rss_anon, 0);
	ck_assert_uint_eq(o.big_heap->nr_resident, 0);
	ck_assert_uint_eq(o.small->rss_anon, 100);
	ck_assert_uint_eq(fx.memcg->usage, 100);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM_KILL], 1);
	ck_assert_uint_ge(fx.memcg->memory_events[MEMCG_OOM], 1);
	ck_assert_uint_ge(fx.memcg->memory_events[MEMCG_MAX], 1);
	ck_assert_uint_eq(mm.vm_events[OOM_KILL], 1);
	/* a killed task's next fault fails */
	ck_assert_int_eq(o.last_ret, -EINTR);
	assert_invariants();
}
END_TEST

struct oom_self {
	struct address_space *heap;
	uint64_t faulted;	/* pages faulted before the kill */
	int ret;		/* the failing access */
};

static void oom_self_fn(struct actor *a, void *arg)
{
	struct oom_self *o = arg;

	for (uint64_t i = 0; i < 300; i++) {
		o->ret = anon_access(a, fx.task, o->heap, i, true);
		if (o->ret < 0)
			break;
		o->faulted++;
	}
}

START_TEST(test_oom_kills_faulting_task)
{
	struct oom_self o = { 0 };

	boot(256);
	o.heap = anon_region_create(fx.task, "heap", 300);
	harness_run_actor(oom_self_fn, &o);
	ck_assert_int_eq(o.ret, -EINTR);
	ck_assert_uint_eq(o.faulted, 256);
	ck_assert(fx.task->oom_killed);
	ck_assert_uint_eq(fx.task->rss_anon, 0);
	ck_assert_uint_eq(fx.memcg->usage, 0);
	ck_assert_uint_eq(fx.memcg->memory_events[MEMCG_OOM_KILL], 1);
	ck_assert_uint_eq(mm.nr_oom_kills, 1);
	assert_invariants();
}
END_TEST

/*
 * memory.oom.group: mem_cgroup_get_oom_group() takes the highest memcg with
 * oom.group set from the victim's up to the OOM domain, and every task of
 * its subtree dies with the victim (memory.events oom_group_kill). Tree:
 * root > g (oom.group) > { c (victim's), s }, and a task in the root.
 */
START_TEST(test_oom_group_kills_the_group)
{
	/* _i 0: a global OOM; 1: g's own; 2: c's (below the group: no group) */
	const int domain = _i;
	struct mem_cgroup *g, *c, *sib;
	struct task *victim, *cousin, *outside;

	boot(256);
	g = mem_cgroup_create(mm.root_mem_cgroup, "g");
	c = mem_cgroup_create(g, "g/c");
	sib = mem_cgroup_create(g, "g/s");
	ck_assert_ptr_nonnull(sib);
	g->oom_group = true;
	victim = task_create("victim", c, 0);
	cousin = task_create("cousin", sib, 0);
	outside = task_create("outside", mm.root_mem_cgroup, 0);
	victim->rss_anon = 1000;	/* the largest: oom_badness() */
	ck_assert(out_of_memory(domain == 0 ? NULL : domain == 1 ? g : c, NULL));
	ck_assert(victim->oom_killed);
	ck_assert(!outside->oom_killed);
	if (domain < 2) {
		ck_assert_msg(cousin->oom_killed, "domain %d: the group was not killed", domain);
		ck_assert_uint_eq(g->memory_events[MEMCG_OOM_GROUP_KILL], 1);
		ck_assert_uint_eq(mm.vm_events[OOM_KILL], 2);
	} else {
		ck_assert_msg(!cousin->oom_killed, "an OOM inside c killed g's group");
		ck_assert_uint_eq(g->memory_events[MEMCG_OOM_GROUP_KILL], 0);
		ck_assert_uint_eq(mm.vm_events[OOM_KILL], 1);
	}
}
END_TEST

/* ---- protection: mem_cgroup_calculate_protection, below_min, below_low ---- */

static struct mem_cgroup *P, *A, *B;

static void protection_tree(void)
{
	harness_boot(1, 65536, &classic_policy);
	P = mem_cgroup_create(mm.root_mem_cgroup, "p");
	A = mem_cgroup_create(P, "p/a");
	B = mem_cgroup_create(P, "p/b");
	P->min = 300;
	P->low = 600;
	A->min = 100;
	A->low = 200;
	B->min = 0;
	B->low = 500;
}

static void set_usage(uint64_t a, uint64_t b)
{
	A->usage = a;
	B->usage = b;
	P->usage = a + b + 1000;
}

/* What shrink_node_memcgs does: the walk is pre-order, parents first. */
static void calculate(struct mem_cgroup *root)
{
	struct mem_cgroup *memcg = NULL;

	while ((memcg = mem_cgroup_iter(root, memcg)))
		mem_cgroup_calculate_protection(root, memcg);
}

START_TEST(test_protection_within_parent)
{
	protection_tree();
	set_usage(150, 300);
	calculate(NULL);
	ck_assert_uint_eq(P->emin, 300);
	ck_assert_uint_eq(P->elow, 600);
	ck_assert_uint_eq(A->emin, 100);
	ck_assert_uint_eq(A->elow, 150);
	ck_assert_uint_eq(B->emin, 0);
	ck_assert_uint_eq(B->elow, 300);
	ck_assert(!mem_cgroup_below_min(NULL, A));
	ck_assert(mem_cgroup_below_low(NULL, A));
	ck_assert(!mem_cgroup_below_min(NULL, B));
	ck_assert(mem_cgroup_below_low(NULL, B));
	ck_assert(!mem_cgroup_below_low(NULL, P));
	ck_assert(!mem_cgroup_below_min(NULL, mm.root_mem_cgroup));
	ck_assert(!mem_cgroup_below_low(NULL, mm.root_mem_cgroup));
	/* under its memory.min */
	set_usage(90, 300);
	calculate(NULL);
	ck_assert_uint_eq(A->emin, 90);
	ck_assert(mem_cgroup_below_min(NULL, A));
}
END_TEST

START_TEST(test_protection_overcommitted)
{
	protection_tree();
	/* the children claim 150 + 500 of memory.low, the parent has 600 */
	set_usage(150, 800);
	calculate(NULL);
	ck_assert_uint_eq(A->elow, 150 * 600 / 650);
	ck_assert_uint_eq(B->elow, 500 * 600 / 650);
	ck_assert(!mem_cgroup_below_low(NULL, A));
	ck_assert(!mem_cgroup_below_low(NULL, B));
	/* a parent without memory.min gives its children none */
	P->min = 0;
	set_usage(50, 800);
	calculate(NULL);
	ck_assert_uint_eq(A->emin, 0);
	ck_assert(!mem_cgroup_below_min(NULL, A));
}
END_TEST

START_TEST(test_protection_relative_to_reclaim_target)
{
	uint64_t min, low;

	protection_tree();
	set_usage(150, 300);
	/* reclaim of A itself: A is not protected from it */
	calculate(A);
	ck_assert(!mem_cgroup_below_min(A, A));
	ck_assert(!mem_cgroup_below_low(A, A));
	mem_cgroup_protection(A, A, &min, &low);
	ck_assert_uint_eq(min, 0);
	ck_assert_uint_eq(low, 0);
	/* reclaim of P: its children are protected by their own settings */
	P->min = 0;
	P->low = 0;
	calculate(P);
	ck_assert_uint_eq(A->emin, 100);
	ck_assert_uint_eq(A->elow, 150);
	ck_assert(mem_cgroup_below_low(P, A));
	mem_cgroup_protection(P, A, &min, &low);
	ck_assert_uint_eq(min, 100);
	ck_assert_uint_eq(low, 150);
}
END_TEST

/* ---- the tree ---- */

START_TEST(test_iter_pre_order_and_hierarchical_counts)
{
	struct mem_cgroup *a, *ab, *ac, *d, *it;
	struct mem_cgroup *expect_all[5], *expect_a[3];
	int n = 0;

	harness_boot(2, 16384, &classic_policy);
	a = mem_cgroup_create(mm.root_mem_cgroup, "a");
	ab = mem_cgroup_create(a, "a/b");
	ac = mem_cgroup_create(a, "a/c");
	d = mem_cgroup_create(mm.root_mem_cgroup, "d");
	expect_all[0] = mm.root_mem_cgroup;
	expect_all[1] = a;
	expect_all[2] = ab;
	expect_all[3] = ac;
	expect_all[4] = d;
	for (it = mem_cgroup_iter(NULL, NULL); it; it = mem_cgroup_iter(NULL, it)) {
		ck_assert_int_lt(n, 5);
		ck_assert_ptr_eq(it, expect_all[n]);
		n++;
	}
	ck_assert_int_eq(n, 5);
	expect_a[0] = a;
	expect_a[1] = ab;
	expect_a[2] = ac;
	n = 0;
	for (it = mem_cgroup_iter(a, NULL); it; it = mem_cgroup_iter(a, it))
		ck_assert_ptr_eq(it, expect_a[n++]);
	ck_assert_int_eq(n, 3);
	ck_assert_ptr_eq(mem_cgroup_iter(ab, NULL), ab);
	ck_assert_ptr_null(mem_cgroup_iter(ab, ab));

	ck_assert(mem_cgroup_is_descendant(ac, a));
	ck_assert(mem_cgroup_is_descendant(ac, mm.root_mem_cgroup));
	ck_assert(!mem_cgroup_is_descendant(d, a));
	ck_assert_ptr_eq(mem_cgroup_find("a/c"), ac);
	ck_assert_ptr_null(mem_cgroup_find("nope"));

	ab->events[PGFAULT] = 3;
	ac->events[PGFAULT] = 4;
	a->events[PGFAULT] = 1;
	d->events[PGFAULT] = 100;
	ck_assert_uint_eq(memcg_events(a, PGFAULT), 8);
	ck_assert_uint_eq(memcg_events(mm.root_mem_cgroup, PGFAULT), 108);
	ab->lruvec[1]->stat[NR_FILE_PAGES] = 5;
	ac->lruvec[0]->stat[NR_FILE_PAGES] = 7;
	ck_assert_uint_eq(memcg_page_state(a, NR_FILE_PAGES), 12);
	ck_assert_uint_eq(lruvec_page_state(a->lruvec[1], NR_FILE_PAGES), 5);
	ck_assert_uint_eq(node_page_state(NODE_DATA(0), NR_FILE_PAGES), 7);
	ac->memory_events[MEMCG_OOM_KILL] = 2;
	ck_assert_uint_eq(memcg_memory_events(a, MEMCG_OOM_KILL), 2);
	ck_assert_uint_eq(memcg_memory_events(d, MEMCG_OOM_KILL), 0);
}
END_TEST

static Suite *memcg_suite(void)
{
	Suite *s = suite_create("memcg");
	TCase *tc = tcase_create("charge");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_charge_over_max_reclaims_file);
	tcase_add_test(tc, test_charge_over_parent_max);
	tcase_add_test(tc, test_charge_over_high_reclaims_back);
	tcase_add_test(tc, test_memory_reclaim);
	tcase_add_test(tc, test_memory_reclaim_nothing_reclaimable);
	suite_add_tcase(s, tc);

	tc = tcase_create("oom");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_oom_kills_largest_task);
	tcase_add_test(tc, test_oom_kills_faulting_task);
	tcase_add_loop_test(tc, test_oom_group_kills_the_group, 0, 3);
	suite_add_tcase(s, tc);

	tc = tcase_create("protection");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_protection_within_parent);
	tcase_add_test(tc, test_protection_overcommitted);
	tcase_add_test(tc, test_protection_relative_to_reclaim_target);
	tcase_add_test(tc, test_iter_pre_order_and_hierarchical_counts);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(memcg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
