/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The readers of scenarios/result.c on bytes they cannot trust: a run
 * child's record (result_recv) goes through a send/recv round trip, and a
 * record whose length claims gigabytes on a stream of a few bytes fails
 * without reserving what it claims (found by tests/fuzz/fuzz_result: the
 * MMEMUPB1 magic read as a length is 1.3 GB).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "scenarios/result.h"

/* A read-only stream over bytes that notes the address space in use at each read. */
struct probe {
	const uint8_t *data;
	size_t len, pos;
	unsigned long max_vm_kb;	/* VmSize seen while the reader reads */
};

static unsigned long vm_size_kb(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	unsigned long pages = 0;

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%lu", &pages), 1);
	fclose(f);
	return pages * 4;
}

static ssize_t probe_read(void *cookie, char *buf, size_t size)
{
	struct probe *p = cookie;
	size_t n = p->len - p->pos < size ? p->len - p->pos : size;
	unsigned long vm = vm_size_kb();

	if (vm > p->max_vm_kb)
		p->max_vm_kb = vm;
	memcpy(buf, p->data + p->pos, n);
	p->pos += n;
	return (ssize_t)n;
}

static FILE *probe_open(struct probe *p)
{
	cookie_io_functions_t io = { .read = probe_read };
	FILE *f = fopencookie(p, "r", io);

	ck_assert_ptr_nonnull(f);
	setvbuf(f, NULL, _IONBF, 0);	/* every fread reaches probe_read */
	return f;
}

START_TEST(test_recv_round_trip)
{
	struct run_result r;
	Mmemu__Run *m;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	result_init(&r);
	result_set_run(&r, "classic", NULL);
	r.seed = 7;
	result_add_u64(result_group(&r, "vmstat"), "pgscan_file", 42);
	ck_assert_int_eq(result_send(&r, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	f = fmemopen(buf, len, "r");
	m = result_recv(f);
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m->policy, "classic");
	ck_assert_uint_eq(m->seed, 7);
	mmemu__run__free_unpacked(m, NULL);
	fclose(f);
	/* cut short anywhere: no record */
	for (size_t cut = 1; cut < len; cut++) {
		f = fmemopen(buf, cut, "r");
		ck_assert_ptr_null(result_recv(f));
		fclose(f);
	}
	free(buf);
	result_free(&r);
}
END_TEST

START_TEST(test_recv_lying_length_costs_what_arrives)
{
	/* "MMEMUPB1..." read as a record: 0x4d454d4d bytes claimed, 12 present */
	static const uint8_t bytes[] = "MMEMUPB1\x10\x00\x00\x00";
	struct probe p = { bytes, sizeof(bytes) - 1, 0, 0 };
	unsigned long before = vm_size_kb();
	FILE *f = probe_open(&p);

	ck_assert_ptr_null(result_recv(f));
	fclose(f);
	ck_assert_msg(p.max_vm_kb < before + 64 * 1024,
		      "reading 12 bytes took %lu KiB of address space", p.max_vm_kb - before);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("result");
	TCase *tc = tcase_create("recv");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_recv_round_trip);
	tcase_add_test(tc, test_recv_lying_length_costs_what_arrives);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
