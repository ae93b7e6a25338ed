/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What keeps a trace replay's cost per request flat (issue 38): a hit on a
 * machine of one node reads its PTE alone.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "models/memory.h"
#include "models/policy.h"

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

static Suite *replay_suite(void)
{
	Suite *s = suite_create("replay");
	TCase *tc = tcase_create("replay");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hit_on_one_node_reads_the_pte_alone);
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
