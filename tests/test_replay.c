/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What keeps a trace replay's cost per request flat (issue 38): a hit on a
 * machine of one node reads its PTE alone, and the hints a replay gives
 * ahead (filemap_map_prefetch(), folio_list_prefetch_rmap() in reclaim)
 * change nothing the model decides.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"

#define FILE_PAGES 4096
#define CACHE_PAGES 256
#define NR_ACCESSES 20000
/* as tools/bench_trace.c gives them */
#define AHEAD_PTE 16
#define AHEAD_FAULT 8

static struct blockdev nvme;

static void boot(int nr_nodes)
{
	harness_boot(nr_nodes, 65536, &classic_policy);
	memset(&nvme, 0, sizeof(nvme));
	harness_nvme(&nvme);
}

/* ---- a hit reads the PTE alone ---- */

/* A folio index far past the table: reading that folio is a fault. */
#define POISON_FOLIO 0xfffffff0u

static void hit_fn(struct actor *a, void *arg)
{
	struct task *t = task_create("t", mm.root_mem_cgroup, 0);
	struct address_space *f = file_create("data", 64, &nvme, 0, false);
	uint64_t slot;

	(void)arg;
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(filemap_map_access(a, t, f, 5, false), ACCESS_MAJOR);
	/* the slot points nowhere: a hit that read it, or its folio, would fault */
	slot = f->slots[5];
	f->slots[5] = POISON_FOLIO;
	ck_assert_int_eq(filemap_map_access(a, t, f, 5, false), ACCESS_HIT);
	ck_assert_uint_eq(filemap_map_hit_range(a, t, f, 5, 6), 1);
	f->slots[5] = slot;
	ck_assert_int_eq(filemap_map_access(a, t, f, 5, false), ACCESS_HIT);
}

START_TEST(test_hit_on_one_node_reads_the_pte_alone)
{
	boot(1);
	harness_run_actor(hit_fn, NULL);
}
END_TEST

/* ---- the hints change nothing ---- */

struct replay {
	struct mem_cgroup *memcg;
	struct address_space *f;
	struct task *t;
	uint64_t majors;
};

/* A fixed skewed sequence: most accesses to a few pages, some to all. */
static uint64_t page_at(uint64_t i)
{
	uint64_t x = i * 0x9e3779b97f4a7c15ULL;

	x ^= x >> 29;
	return (x >> 7) % 8 ? (x >> 16) % (FILE_PAGES / 8) : (x >> 16) % FILE_PAGES;
}

static void replay(struct actor *a, struct replay *r, bool hints)
{
	for (uint64_t i = 0; i < NR_ACCESSES; i++) {
		int ret;

		if (hints) {
			filemap_map_prefetch(r->t, r->f, page_at(i + AHEAD_PTE), false);
			filemap_map_prefetch(r->t, r->f, page_at(i + AHEAD_FAULT), true);
		}
		ret = filemap_map_access(a, r->t, r->f, page_at(i), false);
		ck_assert_int_ge(ret, 0);
		r->majors += ret == ACCESS_MAJOR;
		actor_cond_resched(a);
	}
}

static void setup_replay(struct replay *r, const char *name)
{
	r->memcg = mem_cgroup_create(mm.root_mem_cgroup, name);
	ck_assert_ptr_nonnull(r->memcg);
	r->memcg->max = CACHE_PAGES;
	r->t = task_create(name, r->memcg, 0);
	ck_assert_ptr_nonnull(r->t);
	r->f = file_create(name, FILE_PAGES, &nvme, 0, false);
	ck_assert_ptr_nonnull(r->f);
	r->majors = 0;
}

static void hints_fn(struct actor *a, void *arg)
{
	struct replay with, without;
	char err[512];

	(void)arg;
	setup_replay(&with, "with");
	setup_replay(&without, "without");
	replay(a, &with, true);
	replay(a, &without, false);
	/* it reclaimed, many times over */
	ck_assert_uint_gt(with.majors, 4 * CACHE_PAGES);
	ck_assert_uint_gt(with.memcg->events[PGSCAN_DIRECT], 4 * CACHE_PAGES);
	ck_assert_uint_eq(with.majors, without.majors);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		ck_assert_msg(with.memcg->events[i] == without.memcg->events[i],
			      "event %d: %llu with hints, %llu without", i,
			      (unsigned long long)with.memcg->events[i],
			      (unsigned long long)without.memcg->events[i]);
	for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
		ck_assert_int_eq(with.memcg->lruvec[0]->stat[i], without.memcg->lruvec[0]->stat[i]);
	for (uint64_t p = 0; p < FILE_PAGES; p++) {
		uint64_t e = with.f->slots[p], o = without.f->slots[p];

		/* the same pages cached, and shadows where the same were evicted
		 * (their values name the memcg, so they differ) */
		ck_assert_int_eq(e && !xa_is_value(e), o && !xa_is_value(o));
		ck_assert_int_eq(xa_is_value(e), xa_is_value(o));
		ck_assert_uint_eq(*harness_file_pte(with.t, with.f, p),
				  *harness_file_pte(without.t, without.f, p));
	}
	ck_assert_msg(mm_check_invariants(err, sizeof(err)) == 0, "invariants: %s", err);
}

START_TEST(test_hints_change_no_decision)
{
	boot(1);
	harness_run_actor(hints_fn, NULL);
}
END_TEST

/* A hint reads, it never stores: no lazy block is stored to, no PTE or slot changes. */
static void hint_stores_nothing_fn(struct actor *a, void *arg)
{
	struct task *t = task_create("t", mm.root_mem_cgroup, 0);
	struct address_space *f = file_create("data", FILE_PAGES, &nvme, 0, false);
	uint64_t *slots = malloc(FILE_PAGES * sizeof(*slots)), words;
	uint8_t *ptes = malloc(FILE_PAGES);
	uint64_t *stored;

	(void)arg;
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(slots);
	ck_assert_ptr_nonnull(ptes);
	ck_assert_int_eq(filemap_map_access(a, t, f, 0, false), ACCESS_MAJOR);
	words = (f->mapcount.bytes / (1ULL << LAZY_BLOCK_SHIFT) + 64) / 64;
	stored = malloc(words * sizeof(*stored));
	ck_assert_ptr_nonnull(stored);
	memcpy(stored, f->mapcount.stored, words * sizeof(*stored));
	memcpy(slots, f->slots, FILE_PAGES * sizeof(*slots));
	for (uint64_t p = 0; p < FILE_PAGES; p++)
		ptes[p] = *harness_file_pte(t, f, p);
	for (uint64_t p = 0; p < FILE_PAGES + 2; p++) {
		filemap_map_prefetch(t, f, p, false);
		filemap_map_prefetch(t, f, p, true);
	}
	ck_assert_mem_eq(stored, f->mapcount.stored, words * sizeof(*stored));
	ck_assert_mem_eq(slots, f->slots, FILE_PAGES * sizeof(*slots));
	for (uint64_t p = 0; p < FILE_PAGES; p++)
		ck_assert_uint_eq(ptes[p], *harness_file_pte(t, f, p));
	free(stored);
	free(slots);
	free(ptes);
}

START_TEST(test_hint_stores_nothing)
{
	boot(1);
	harness_run_actor(hint_stores_nothing_fn, NULL);
}
END_TEST

/* ---- huge pages for the per-page arrays ---- */

/* The VmFlags of the host mapping holding p (/proc/self/smaps), in buf; false if none. */
static bool host_vm_flags(const void *p, char *buf, size_t size)
{
	FILE *f = fopen("/proc/self/smaps", "r");
	uintptr_t a = (uintptr_t)p;
	bool inside = false, found = false;
	char line[512];

	ck_assert_ptr_nonnull(f);
	while (!found && fgets(line, sizeof(line), f)) {
		unsigned long start, end;

		if (sscanf(line, "%lx-%lx ", &start, &end) == 2)	/* a mapping's first line */
			inside = start <= a && a < end;
		else if (inside && !strncmp(line, "VmFlags:", 8)) {
			snprintf(buf, size, "%s", line);
			found = true;
		}
	}
	fclose(f);
	return found;
}

/*
 * A large file's page cache slots and PTEs are read at random by a replay:
 * they ask the host for huge pages (madvise MADV_HUGEPAGE: "hg" in VmFlags),
 * one TLB entry for 2 MiB of them.
 */
START_TEST(test_per_page_arrays_ask_for_huge_pages)
{
	const uint64_t nr = 4ULL << 20;	/* 32 MiB of slots, 4 MiB of PTEs */
	struct address_space *f;
	struct task *t;
	char flags[512];

	boot(1);
	t = task_create("t", mm.root_mem_cgroup, 0);
	f = file_create("big", nr, &nvme, 0, false);
	ck_assert_ptr_nonnull(t);
	ck_assert_ptr_nonnull(f);
	ck_assert(host_vm_flags(&f->slots[nr / 2], flags, sizeof(flags)));
	ck_assert_msg(strstr(flags, " hg"), "slots: %s", flags);
	ck_assert(host_vm_flags(&harness_file_pte(t, f, nr / 2)[0], flags, sizeof(flags)));
	ck_assert_msg(strstr(flags, " hg"), "PTEs: %s", flags);
}
END_TEST

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hit_on_one_node_reads_the_pte_alone);
	tcase_add_test(tc, test_hints_change_no_decision);
	tcase_add_test(tc, test_hint_stores_nothing);
	tcase_add_test(tc, test_per_page_arrays_ask_for_huge_pages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(replay_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
