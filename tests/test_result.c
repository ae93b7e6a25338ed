/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The readers of scenarios/result.c on bytes they cannot trust: a run
 * child's record (result_recv) goes through a send/recv round trip, and a
 * record whose length claims gigabytes on a stream of a few bytes fails
 * without reserving what it claims (found by tests/fuzz/fuzz_result: the
 * MMEMUPB1 magic read as a length is 1.3 GB). A saved file is a
 * length-delimited protobuf stream, a Header and then the Invocation: it
 * reads back, and cut short, followed by bytes, of another schema or of the
 * old MMEMUPB1 form it is refused with what is wrong.
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

/* A saved file of one run in a malloc'ed buffer. */
static char *saved_file(size_t *len)
{
	Mmemu__Invocation inv = MMEMU__INVOCATION__INIT;
	Mmemu__Run run = MMEMU__RUN__INIT, *runs[] = { &run };
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	ck_assert_ptr_nonnull(f);
	inv.scenario_name = "quickstart";
	inv.scale = 0.5;
	run.policy = "classic";
	run.seed = 3;
	inv.n_runs = 1;
	inv.runs = runs;
	ck_assert_int_eq(result_file_write(&inv, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return buf;
}

static Mmemu__Invocation *parse(const void *buf, size_t len, char *why, size_t whylen)
{
	why[0] = '\0';
	return result_file_parse(buf, len, why, whylen);
}

/* A varint length, the Header, a varint length, the Invocation: as protobuf's parseDelimitedFrom reads */
START_TEST(test_file_is_a_delimited_stream)
{
	size_t len, hlen;
	char *buf = saved_file(&len), why[256];
	Mmemu__Header *h;
	Mmemu__Invocation *inv;

	hlen = (uint8_t)buf[0];
	ck_assert_uint_lt(hlen, 0x80);
	h = mmemu__header__unpack(NULL, hlen, (const uint8_t *)buf + 1);
	ck_assert_ptr_nonnull(h);
	ck_assert_str_eq(h->format, "mmemu.results");
	ck_assert_uint_eq(h->schema_version, RESULT_FILE_SCHEMA);
	ck_assert_uint_gt(strlen(h->mmemu_commit), 0);
	mmemu__header__free_unpacked(h, NULL);
	inv = parse(buf, len, why, sizeof(why));
	ck_assert_msg(inv != NULL, "%s", why);
	ck_assert_str_eq(inv->scenario_name, "quickstart");
	ck_assert_uint_eq(inv->n_runs, 1);
	ck_assert_str_eq(inv->runs[0]->policy, "classic");
	ck_assert_uint_eq(inv->runs[0]->seed, 3);
	mmemu__invocation__free_unpacked(inv, NULL);
	free(buf);
}
END_TEST

START_TEST(test_file_cut_short_or_grown_is_refused)
{
	size_t len;
	char *buf = saved_file(&len), why[256], *longer = malloc(len + 1);

	for (size_t cut = 0; cut < len; cut++) {
		ck_assert_ptr_null(parse(buf, cut, why, sizeof(why)));
		ck_assert_msg(strstr(why, "truncated") || strstr(why, "not an mmemu result file"),
			      "cut at %zu: %s", cut, why);
	}
	/* cut after the header: the results are what is missing */
	ck_assert_ptr_null(parse(buf, (size_t)buf[0] + 2, why, sizeof(why)));
	ck_assert_msg(strstr(why, "truncated") && strstr(why, "results"), "%s", why);
	ck_assert_ptr_nonnull(longer);
	memcpy(longer, buf, len);
	longer[len] = 0;
	ck_assert_ptr_null(parse(longer, len + 1, why, sizeof(why)));
	ck_assert_str_eq(why, "1 bytes after the end of the results");
	free(longer);
	free(buf);
}
END_TEST

START_TEST(test_file_of_another_form_is_refused_with_how_to_regenerate)
{
	static const char old[] = "MMEMUPB1\x02\0\0\0\0\0\0\0\x0a\0";
	static const char text[] = "[machine]\nnodes = 1\n";
	/* a Header of schema 1: format, schema_version, commit */
	static const char schema1[] = "\x17\x0a\x0d" "mmemu.results\x10\x01\x1a\x04" "abcd\x00";
	char why[256];

	ck_assert_ptr_null(parse(old, sizeof(old) - 1, why, sizeof(why)));
	ck_assert_msg(strstr(why, "old form") && strstr(why, "regenerate it with `mmemu run"), "%s",
		      why);
	ck_assert_ptr_null(parse(text, sizeof(text) - 1, why, sizeof(why)));
	ck_assert_msg(strstr(why, "not an mmemu result file"), "%s", why);
	ck_assert_ptr_null(parse(schema1, sizeof(schema1) - 1, why, sizeof(why)));
	ck_assert_msg(strstr(why, "schema version 1 (written by mmemu abcd)") &&
		      strstr(why, "regenerate"), "%s", why);
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
	tc = tcase_create("file");
	tcase_add_test(tc, test_file_is_a_delimited_stream);
	tcase_add_test(tc, test_file_cut_short_or_grown_is_refused);
	tcase_add_test(tc, test_file_of_another_form_is_refused_with_how_to_regenerate);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
