/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Trace replay: loading libCacheSim oracleGeneral, csv (with cachesim's
 * column options) and txt traces, plain and zstd, named or sniffed; dense
 * object numbering and object sizes in pages; a trace of another format,
 * bad and truncated traces named by record or line; a workload sized by its
 * trace; and a replayed trace giving the same misses on every run. Object
 * names (obj-id-is-num=false) numbered as first seen; lcs v1..v8, twr,
 * twrNS, oracleSysTwrNS, oracleSimTwrNS and vscsi v1/v2 files written here
 * read back, truncated and corrupt ones named by record; a device without
 * readahead faulting once per object of a sequential trace.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "scenarios/scenario.h"
#include "scenarios/trace.h"
#include "tests/harness.h"

static char *write_bytes(const void *data, size_t len)
{
	char *path = harness_write_temp("");
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	fclose(f);
	return path;
}

/* oracleGeneral record: uint32 time, uint64 obj, uint32 size, int64 next */
static void oracle_record(unsigned char *p, uint32_t time, uint64_t obj, uint32_t size)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(time >> (8 * i));
	for (int i = 0; i < 8; i++)
		p[4 + i] = (unsigned char)(obj >> (8 * i));
	for (int i = 0; i < 4; i++)
		p[12 + i] = (unsigned char)(size >> (8 * i));
	memset(p + 16, 0xff, 8);
}

START_TEST(test_oracle_load_and_dense_ids)
{
	unsigned char buf[4 * 24];
	uint64_t objs[4] = { 900, 7, 900, 123456789012ULL };
	struct trace t;
	char err[256], *path;

	for (int i = 0; i < 4; i++)
		oracle_record(buf + 24 * i, (uint32_t)i, objs[i], 4096);
	path = write_bytes(buf, sizeof(buf));
	ck_assert_int_eq(trace_load(&t, path, TRACE_ORACLE, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.nr, 4);
	ck_assert_uint_eq(t.nr_objects, 3);
	ck_assert_uint_eq(t.req[0].obj_id, 900);
	ck_assert_uint_eq(t.req[3].obj_id, 123456789012ULL);
	/* dense ids follow obj_id order: 7 -> 0, 900 -> 1, the big one -> 2 */
	ck_assert_uint_eq(t.req[1].dense_id, 0);
	ck_assert_uint_eq(t.req[0].dense_id, 1);
	ck_assert_uint_eq(t.req[2].dense_id, 1);
	ck_assert_uint_eq(t.req[3].dense_id, 2);
	trace_free(&t);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_oracle_truncated_names_the_record)
{
	unsigned char buf[2 * 24 + 10];
	struct trace t;
	char err[256], *path;

	oracle_record(buf, 0, 1, 4096);
	oracle_record(buf + 24, 1, 2, 4096);
	path = write_bytes(buf, sizeof(buf));
	ck_assert_int_eq(trace_load(&t, path, TRACE_ORACLE, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, path) && strstr(err, "record 3") && strstr(err, "truncated"),
		      "message: %s", err);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_csv_load_and_errors)
{
	char *good = harness_write_temp("time,obj_id,size,op\n1,5,4096,read\n2,6,8192,write\n"
					"3,5,4096,get\n");
	char *bad = harness_write_temp("1,5,4096,read\n2,banana,4096,read\n");
	char *badop = harness_write_temp("1,5,4096,read\n2,6,4096,delete\n");
	struct trace t;
	char err[256];

	ck_assert_int_eq(trace_load(&t, good, TRACE_CSV, err, sizeof(err)), 0);
	ck_assert_uint_eq(t.nr, 3);
	ck_assert_uint_eq(t.nr_objects, 2);
	ck_assert(!t.req[0].write);
	ck_assert(t.req[1].write);
	ck_assert_uint_eq(t.req[1].size, 8192);
	trace_free(&t);
	ck_assert_int_eq(trace_load(&t, bad, TRACE_CSV, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "line 2") && strstr(err, "banana"), "message: %s", err);
	ck_assert_int_eq(trace_load(&t, badop, TRACE_CSV, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "line 2") && strstr(err, "delete"), "message: %s", err);
	unlink(good);
	unlink(bad);
	unlink(badop);
	free(good);
	free(bad);
	free(badop);
}
END_TEST

/* A zipf-like trace: object i requested roughly in proportion to 1/(i+1). */
static char *make_trace(size_t nr)
{
	unsigned char *buf = malloc(nr * 24);
	struct rng r;
	char *path;

	rng_seed(&r, 7, "trace");
	for (size_t i = 0; i < nr; i++) {
		uint64_t obj = rng_below(&r, 1 + rng_below(&r, 20000));

		oracle_record(buf + 24 * i, (uint32_t)i, obj * 1000003ULL, 4096);
	}
	path = write_bytes(buf, nr * 24);
	free(buf);
	return path;
}

START_TEST(test_replay_same_misses_every_run)
{
	char *trace = make_trace(60000), ini[1024], *path, *out1 = NULL, *out2 = NULL, err[512];
	struct run_result r1, r2;

	snprintf(ini, sizeof(ini),
		 "[machine]\nnodes = 1\nnode_memory = 512M\nnode_cpus = 2\n"
		 "[device.nvme0]\ntype = nvme\n[memcg.cache]\nmax = 24M\n"
		 "[workload.replay]\ntype = trace\ntrace = %s\ntrace_format = oracle\n"
		 "memcg = cache\nsize = 80M\ndevice = nvme0\naccess = mmap\n", trace);
	path = harness_write_temp(ini);
	ck_assert_int_eq(harness_run_scenario(path, NULL, 0, 1.0, 1, "mglru-budget", true, &out1,
					      err, sizeof(err)), 0);
	ck_assert_int_eq(harness_run_scenario(path, NULL, 0, 1.0, 1, "mglru-budget", true, &out2,
					      err, sizeof(err)), 0);
	ck_assert_int_eq(harness_parse_result(out1, &r1), 0);
	ck_assert_int_eq(harness_parse_result(out2, &r2), 0);
	ck_assert_double_eq(harness_value(&r1, "workload.replay", "ops"), 60000);
	/* the cache is smaller than the objects: misses happen, the same every run */
	ck_assert(harness_value(&r1, "workload.replay", "major_faults") > 0);
	ck_assert_double_eq(harness_value(&r1, "workload.replay", "major_faults"),
			    harness_value(&r2, "workload.replay", "major_faults"));
	ck_assert_double_eq(harness_value(&r1, "workload.replay", "page_hits"),
			    harness_value(&r2, "workload.replay", "page_hits"));
	result_free(&r1);
	result_free(&r2);
	free(out1);
	free(out2);
	unlink(path);
	unlink(trace);
	free(path);
	free(trace);
}
END_TEST

START_TEST(test_scenario_with_truncated_trace_fails_with_the_record)
{
	unsigned char buf[24 + 5];
	char *trace, ini[1024], *path, *out = NULL, err[512];

	oracle_record(buf, 0, 1, 4096);
	trace = write_bytes(buf, sizeof(buf));
	snprintf(ini, sizeof(ini),
		 "[machine]\nnodes = 1\nnode_memory = 256M\n[device.d]\ntype = nvme\n"
		 "[workload.replay]\ntype = trace\ntrace = %s\nsize = 4M\ndevice = d\n", trace);
	path = harness_write_temp(ini);
	ck_assert_int_ne(harness_run_scenario(path, NULL, 0, 1.0, 1, "classic", true, &out, err,
					      sizeof(err)), 0);
	ck_assert_msg(strstr(err, "record 2") && strstr(err, "truncated"), "message: %s", err);
	free(out);
	unlink(path);
	unlink(trace);
	free(path);
	free(trace);
}
END_TEST

/* Every CSV line a trace must not take, with what the message names (issue 13.5). */
START_TEST(test_csv_strict_fields)
{
	static const struct {
		const char *text;
		const char *says;
	} bad[] = {
		{ "1,5,4096,read\n2,-5,4096,read\n", "obj_id '-5'" },
		{ "1,5\n2,+5\n", "obj_id '+5'" },
		{ "1,5\n2, 5\n", "obj_id ' 5'" },
		{ "1,5\n2,0x10\n", "obj_id '0x10'" },
		{ "1,5\nsoon,6\n", "time 'soon'" },
		{ "1,5\n-2,6\n", "time '-2'" },
		{ "5,5\n3,6\n", "time 3 is before" },
		{ "1,5,4096,read,extra\n", "more than 4 fields" },
		{ "1,5\n2,,4096,read\n", "obj_id is empty" },
		{ "1,5\n2,6,,read\n", "size is empty" },
		{ "1,5\n2,6,4096,\n", "op is empty" },
		{ "1,5\n,6\n", "time is empty" },
		{ "1,5\n2,6,4294967296\n", "size '4294967296'" },
		{ "1,5\n2\n", "expected time,obj_id" },
		{ "time,obj_id\nsize,op\n1,5\n", "time 'size'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *path = harness_write_temp(bad[i].text), err[256] = "";
		struct trace t;

		ck_assert_msg(trace_load(&t, path, TRACE_CSV, err, sizeof(err)) == -1,
			      "accepted: %s", bad[i].text);
		ck_assert_msg(strstr(err, "line 2") || strstr(err, "line 1"), "%s", err);
		ck_assert_msg(strstr(err, bad[i].says), "'%s' does not say '%s'", err, bad[i].says);
		unlink(path);
		free(path);
	}
}
END_TEST

START_TEST(test_csv_legal_forms)
{
	/* comments and blank lines anywhere, the header after them, CRLF, two to four fields */
	char *path = harness_write_temp("# made by hand\n\ntime,obj_id,size,op\r\n1,5\r\n1,6,512\n"
					"2,5,4096,w\n# a comment\n3,7,0,get\n");
	struct trace t;
	char err[256];

	ck_assert_msg(trace_load(&t, path, TRACE_CSV, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(t.nr, 4);
	ck_assert_uint_eq(t.nr_objects, 3);
	ck_assert(t.req[2].write && !t.req[3].write);
	ck_assert_uint_eq(t.req[1].size, 512);
	trace_free(&t);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_oracle_out_of_time_order)
{
	unsigned char buf[3 * 24];
	struct trace t;
	char err[256], *path;

	oracle_record(buf, 5, 1, 4096);
	oracle_record(buf + 24, 5, 2, 4096);
	oracle_record(buf + 48, 4, 3, 4096);
	path = write_bytes(buf, sizeof(buf));
	ck_assert_int_eq(trace_load(&t, path, TRACE_ORACLE, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "record 3") && strstr(err, "time order"), "%s", err);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_no_endless_traces)
{
	/* a device never ends: refused before a byte is read, in both formats */
	static const char *const dev[] = { "/dev/zero", "/dev/urandom" };
	char err[256], *path = harness_write_temp("");
	struct trace t;
	FILE *f;

	for (int i = 0; i < 2; i++)
		for (int fmt = 0; fmt < 2; fmt++) {
			ck_assert_int_eq(trace_load(&t, dev[i], fmt ? TRACE_CSV : TRACE_ORACLE, err,
						    sizeof(err)), -1);
			ck_assert_msg(strstr(err, dev[i]) && strstr(err, "not a regular file"), "%s",
				      err);
		}
	/* a FIFO with no writer: refused at once, not waited on forever (opened O_NONBLOCK) */
	{
		char *fifo = harness_write_temp("");

		unlink(fifo);
		ck_assert_int_eq(mkfifo(fifo, 0600), 0);
		alarm(20);	/* a hang fails here, not at the test's timeout */
		for (int fmt = 0; fmt < 2; fmt++) {
			ck_assert_int_eq(trace_load(&t, fifo, fmt ? TRACE_CSV : TRACE_AUTO, err,
						    sizeof(err)), -1);
			ck_assert_msg(strstr(err, fifo) && strstr(err, "not a regular file (a FIFO)"),
				      "%s", err);
		}
		alarm(0);
		unlink(fifo);
		free(fifo);
	}
	/* a file of more records than a replay holds (sparse: no disk) is refused unread */
	f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(ftruncate(fileno(f), (off_t)(TRACE_MAX_REQUESTS + 1) * 24), 0);
	fclose(f);
	ck_assert_int_eq(trace_load(&t, path, TRACE_ORACLE, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "more than") && strstr(err, "requests"), "%s", err);
	/* and as CSV it is binary data, at line 1 */
	ck_assert_int_eq(trace_load(&t, path, TRACE_CSV, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "line 1") && strstr(err, "binary"), "%s", err);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_trace_objects_fit_the_workload)
{
	/* 300 distinct objects on a workload of 64 pages: they used to wrap modulo 64 */
	static const char *const sizes[] = { "256K", "1200K" };
	char csv[8192] = "", *trace;

	for (int i = 0; i < 300; i++)
		snprintf(csv + strlen(csv), sizeof(csv) - strlen(csv), "%d,%d\n", i, i * 7);
	trace = harness_write_temp(csv);
	for (int k = 0; k < 2; k++) {
		char ini[1024], *path, err[512] = "";
		struct scenario s;
		int rc;

		snprintf(ini, sizeof(ini),
			 "[machine]\nnodes = 1\nnode_memory = 256M\n[device.d]\ntype = nvme\n"
			 "[workload.replay]\ntype = trace\ntrace = %s\ntrace_format = csv\n"
			 "size = %s\ndevice = d\n", trace, sizes[k]);
		path = harness_write_temp(ini);
		rc = scenario_load(&s, path, NULL, 0, 1.0, err, sizeof(err));
		if (!k)	/* line 10: size */
			ck_assert_msg(rc && strstr(err, "line 10") && strstr(err, "size") &&
				      strstr(err, "300 distinct"), "%s", err);
		else	/* 300 pages hold them */
			ck_assert_msg(rc == 0, "%s", err);
		scenario_free(&s);
		unlink(path);
		free(path);
	}
	unlink(trace);
	free(trace);
}
END_TEST


/* data compressed as one zstd frame, into a temporary file */
static char *write_zstd(const void *data, size_t len)
{
	size_t cap = ZSTD_compressBound(len), n;
	void *z = malloc(cap);
	char *path;

	ck_assert_ptr_nonnull(z);
	n = ZSTD_compress(z, cap, data, len, 3);
	ck_assert(!ZSTD_isError(n));
	path = write_bytes(z, n);
	free(z);
	return path;
}

static void load_ok(struct trace *t, const char *path, const struct trace_opts *o)
{
	char err[512] = "";

	ck_assert_msg(trace_load_opts(t, path, o, err, sizeof(err)) == 0, "%s", err);
}

static void load_fails(const char *path, const struct trace_opts *o, const char *says1,
		       const char *says2)
{
	struct trace t;
	char err[512] = "";

	ck_assert_msg(trace_load_opts(&t, path, o, err, sizeof(err)) == -1, "accepted %s", path);
	ck_assert_msg(strstr(err, path) && strstr(err, says1) && (!says2 || strstr(err, says2)),
		      "'%s' does not say '%s' and '%s'", err, says1, says2 ? says2 : "");
}

/* The same four requests in every format, sniffed and named, plain and zstd. */
START_TEST(test_every_format_sniffed_and_named)
{
	static const char csv[] = "time,obj_id,size,op\n1,5,4096,read\n2,9,9000,write\n"
				  "3,5,4096,get\n4,7,1,read\n";
	static const char txt[] = "5\n9\n5\n7\n";
	unsigned char bin[4 * 24];
	static const uint64_t obj[4] = { 5, 9, 5, 7 };
	static const uint32_t size[4] = { 4096, 9000, 4096, 1 };
	char *files[6];
	static const enum trace_format fmt[6] = { TRACE_ORACLE, TRACE_CSV, TRACE_TXT,
						  TRACE_ORACLE, TRACE_CSV, TRACE_TXT };

	for (int i = 0; i < 4; i++)
		oracle_record(bin + 24 * i, (uint32_t)i, obj[i], size[i]);
	files[0] = write_bytes(bin, sizeof(bin));
	files[1] = harness_write_temp(csv);
	files[2] = harness_write_temp(txt);
	files[3] = write_zstd(bin, sizeof(bin));
	files[4] = write_zstd(csv, strlen(csv));
	files[5] = write_zstd(txt, strlen(txt));
	for (int i = 0; i < 6; i++)
		for (int named = 0; named < 2; named++) {
			struct trace_opts o;
			struct trace t;

			trace_opts_init(&o, named ? fmt[i] : TRACE_AUTO);
			load_ok(&t, files[i], &o);
			ck_assert_int_eq(t.format, fmt[i]);
			ck_assert_int_eq(t.compressed, i >= 3);
			ck_assert_uint_eq(t.nr, 4);
			ck_assert_uint_eq(t.nr_objects, 3);
			for (int r = 0; r < 4; r++)
				ck_assert_uint_eq(t.req[r].obj_id, obj[r]);
			/* txt has no sizes: every object one page */
			if (fmt[i] == TRACE_TXT) {
				ck_assert_uint_eq(t.nr_pages, 3);
				ck_assert_uint_eq(t.bytes, 4 * 4096);
			} else {
				/* 5: 1 page, 7: 1 page (1 byte), 9: 3 pages (9000 bytes) */
				ck_assert_uint_eq(t.nr_pages, 5);
				ck_assert_uint_eq(t.bytes, 4096 + 9000 + 4096 + 1);
				ck_assert_uint_eq(t.req[1].nr_pages, 3);
				ck_assert_uint_eq(t.req[3].nr_pages, 1);
				ck_assert(t.req[1].write == (fmt[i] == TRACE_CSV));
			}
			trace_free(&t);
		}
	for (int i = 0; i < 6; i++) {
		unlink(files[i]);
		free(files[i]);
	}
}
END_TEST

/* Objects side by side in obj_id order, each as large as its largest request. */
START_TEST(test_object_sizes_in_pages)
{
	char *path = harness_write_temp("1,30,4096\n2,10,0\n3,20,12289\n4,30,8192\n5,20,4096\n");
	struct trace_opts o;
	struct trace t;

	trace_opts_init(&o, TRACE_CSV);
	load_ok(&t, path, &o);
	ck_assert_uint_eq(t.nr_objects, 3);
	/* 10: size 0 is one page, at 0; 20: 12289 bytes, 4 pages, at 1; 30: 2 pages at 5 */
	ck_assert_uint_eq(t.req[1].page, 0);
	ck_assert_uint_eq(t.req[1].nr_pages, 1);
	ck_assert_uint_eq(t.req[2].page, 1);
	ck_assert_uint_eq(t.req[2].nr_pages, 4);
	ck_assert_uint_eq(t.req[4].page, 1);
	ck_assert_uint_eq(t.req[4].nr_pages, 1);	/* a request touches its own size */
	ck_assert_uint_eq(t.req[0].page, 5);
	ck_assert_uint_eq(t.req[0].nr_pages, 1);
	ck_assert_uint_eq(t.req[3].page, 5);
	ck_assert_uint_eq(t.req[3].nr_pages, 2);
	ck_assert_uint_eq(t.nr_pages, 7);
	ck_assert_uint_eq(t.bytes, 4096 + 0 + 12289 + 8192 + 4096);
	trace_free(&t);
	unlink(path);
	free(path);
}
END_TEST

/* cachesim's -t: named columns, any order, extra columns, delimiters, headers. */
START_TEST(test_csv_columns_like_cachesim)
{
	static const struct {
		const char *text, *params;
	} ok[] = {
		{ "ts,id,bytes\n1,5,4096\n2,9,9000\n",
		  "time-col=1,obj-id-col=2,obj-size-col=3,delimiter=,,has-header=true" },
		{ "x,9,1,5,4096,read\nx,9,2,9,9000,write\n",
		  "time-col=3,obj-id-col=4,obj-size-col=5,op-col=6,has-header=false" },
		{ "1\t5\t4096\tjunk\n2\t9\t9000\tmore\n", "time_field=1, obj_id_field=2, size_field=3" },
		{ "5|4096\n9|9000\n", "obj-id-col=1,obj-size-col=2,delimiter=|" },
		{ "id;size\n5;4096\n9;9000\n", "obj-id-col=1,obj-size-col=2,delimiter=;" },
		{ "1\t5\t4096\n2\t9\t9000\n", "time-col=1,obj-id-col=2,obj-size-col=3,delimiter=\\t" },
	};
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		char *path = harness_write_temp(ok[i].text), err[256] = "";
		struct trace_opts o;
		struct trace t;

		trace_opts_init(&o, TRACE_AUTO);
		ck_assert_msg(trace_opts_parse(&o, ok[i].params, err, sizeof(err)) == 0, "%s", err);
		load_ok(&t, path, &o);
		ck_assert_int_eq(t.format, TRACE_CSV);
		ck_assert_uint_eq(t.nr, 2);
		ck_assert_uint_eq(t.req[0].obj_id, 5);
		ck_assert_uint_eq(t.req[1].obj_id, 9);
		ck_assert_uint_eq(t.req[1].size, 9000);
		ck_assert_uint_eq(t.nr_pages, 4);
		ck_assert(t.req[1].write == (i == 1));
		trace_free(&t);
		unlink(path);
		free(path);
	}
}
END_TEST

START_TEST(test_csv_column_errors)
{
	static const struct {
		const char *params, *says;
	} bad[] = {
		{ "time-col=1,obj-id-col=x", "obj-id-col" },
		{ "time-col=1", "obj-id-col is not given" },
		{ "obj-id-col=2,colour=red", "'colour' is not known" },
		{ "obj-id-col=2,obj-id-is-num=maybe", "obj-id-is-num" },
		{ "obj-id-col=2,has-header=maybe", "has-header" },
		{ "obj-id-col=2,delimiter=ab", "delimiter" },
		{ "obj-id-col", "not key=value" },
	};
	char *path = harness_write_temp("1,5\n2,6\n");
	struct trace_opts o;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char err[256] = "";

		trace_opts_init(&o, TRACE_CSV);
		ck_assert_msg(trace_opts_parse(&o, bad[i].params, err, sizeof(err)) == -1,
			      "accepted %s", bad[i].params);
		ck_assert_msg(strstr(err, bad[i].says), "'%s' does not say '%s'", err, bad[i].says);
	}
	/* a line without the column read, and a header named but then a number */
	trace_opts_init(&o, TRACE_CSV);
	ck_assert_int_eq(trace_opts_parse(&o, "time-col=1,obj-id-col=3", (char[64]){ 0 }, 64), 0);
	load_fails(path, &o, "line 1", "column 3");
	trace_opts_init(&o, TRACE_CSV);
	ck_assert_int_eq(trace_opts_parse(&o, "obj-id-col=2,has-header=false", (char[64]){ 0 }, 64),
			 0);
	unlink(path);
	free(path);
	path = harness_write_temp("time,id\n1,5\n");
	load_fails(path, &o, "line 1", "obj_id 'id'");
	unlink(path);
	free(path);
}
END_TEST

/* No message prints raw binary: a byte that is not printable ASCII is quoted as \xNN. */
static void printable_only(const char *err)
{
	for (const char *p = err; *p; p++)
		ck_assert_msg((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f,
			      "byte %#x in the message", (unsigned char)*p);
}

/*
 * oracleGeneral records whose bytes are all printable, over more than the
 * 4096 bytes sniffed: read as records when oracle is named (a named format is
 * trusted), and sniffed as records (no text line is that long).
 */
START_TEST(test_printable_oracle_records)
{
	enum { N = 200 };
	unsigned char bin[N * 24];
	char *path, *bad, err[512] = "";
	struct trace_opts o;
	struct trace t;

	for (int i = 0; i < N; i++) {
		unsigned char *r = bin + 24 * i;

		memcpy(r, "aaaa", 4);			/* clock_time 0x61616161, every record */
		memcpy(r + 4, i % 2 ? "objectAA" : "objectBB", 8);
		memcpy(r + 12, "    ", 4);		/* obj_size 0x20202020 */
		memcpy(r + 16, "zzzzzzzz", 8);		/* next_access_vtime: not read */
	}
	path = write_bytes(bin, sizeof(bin));
	trace_opts_init(&o, TRACE_ORACLE);
	load_ok(&t, path, &o);
	ck_assert_uint_eq(t.nr, N);
	ck_assert_uint_eq(t.nr_objects, 2);
	ck_assert_uint_eq(t.req[0].size, 0x20202020u);
	trace_free(&t);
	trace_opts_init(&o, TRACE_AUTO);
	load_ok(&t, path, &o);
	ck_assert_int_eq(t.format, TRACE_ORACLE);
	ck_assert_uint_eq(t.nr, N);
	trace_free(&t);
	/* records named oracle and wrong: the message quotes no byte of them */
	memcpy(bin + 24 * 5, "\x01\x80\xff\x10", 4);	/* clock_time goes back */
	bad = write_bytes(bin, sizeof(bin));
	trace_opts_init(&o, TRACE_ORACLE);
	ck_assert_int_eq(trace_load_opts(&t, bad, &o, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "record 6: clock_time"), "%s", err);
	printable_only(err);
	unlink(bad);
	free(bad);
	/* a csv field of binary bytes is quoted escaped */
	bad = write_bytes("1,7\n2,\x01\x80\xfe\x1b[2J\n", 14);
	trace_opts_init(&o, TRACE_CSV);
	ck_assert_int_eq(trace_load_opts(&t, bad, &o, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "line 2: obj_id '\\x01\\x80\\xfe\\x1b[2J'"), "%s", err);
	printable_only(err);
	unlink(bad);
	free(bad);
	unlink(path);
	free(path);
}
END_TEST

/*
 * A .zst that starts with a skippable frame (RFC 8878, 3.1.2: magic
 * 0x184D2A50 to 0x184D2A5F, a 4-byte size, that many bytes) is zstd, as
 * `zstd -dc` reads it, not raw records.
 */
START_TEST(test_zstd_skippable_frame)
{
	unsigned char bin[3 * 24], file[512];
	size_t cap = ZSTD_compressBound(sizeof(bin)), n;
	void *z = malloc(cap);
	char *path;
	struct trace_opts o;
	struct trace t;

	ck_assert_ptr_nonnull(z);
	for (int i = 0; i < 3; i++)
		oracle_record(bin + 24 * i, (uint32_t)i, (uint64_t)(i % 2), 4096);
	n = ZSTD_compress(z, cap, bin, sizeof(bin), 3);
	ck_assert(!ZSTD_isError(n));
	for (unsigned magic = 0x50; magic <= 0x5f; magic += 0xf) {
		const unsigned char skip[] = { (unsigned char)magic, 0x2a, 0x4d, 0x18, 5, 0, 0, 0,
					       'm', 'm', 'e', 'm', 'u' };

		ck_assert_uint_le(sizeof(skip) + n, sizeof(file));
		memcpy(file, skip, sizeof(skip));
		memcpy(file + sizeof(skip), z, n);
		path = write_bytes(file, sizeof(skip) + n);
		for (int named = 0; named < 2; named++) {
			trace_opts_init(&o, named ? TRACE_ORACLE : TRACE_AUTO);
			load_ok(&t, path, &o);
			ck_assert(t.compressed);
			ck_assert_int_eq(t.format, TRACE_ORACLE);
			ck_assert_uint_eq(t.nr, 3);
			ck_assert_uint_eq(t.nr_objects, 2);
			trace_free(&t);
		}
		unlink(path);
		free(path);
	}
	free(z);
}
END_TEST

/* A trace read as another format says what it looks like, at its record or line. */
START_TEST(test_wrong_format_is_named)
{
	unsigned char bin[2 * 24];
	char *csv = harness_write_temp("1,5,4096,read\n2,6,4096,read\n"), *oracle, *zcsv, *ztrunc;
	FILE *f;
	long n;
	struct trace_opts o;

	oracle_record(bin, 0, 1, 4096);
	oracle_record(bin + 24, 1, 2, 4096);
	oracle = write_bytes(bin, sizeof(bin));
	zcsv = write_zstd("1,5\n2,6\n", 8);
	/* a csv named oracle: read as records (named is trusted), their error says it is text */
	trace_opts_init(&o, TRACE_ORACLE);
	load_fails(csv, &o, "record 2: truncated (4 of 24 bytes)", "first bytes are text: a csv");
	load_fails(zcsv, &o, "record 1: truncated", "first bytes are text: a csv");
	/* binary named csv or txt: the NUL byte at line 1, and what it may be */
	trace_opts_init(&o, TRACE_CSV);
	load_fails(oracle, &o, "line 1: binary data", "oracleGeneral");
	trace_opts_init(&o, TRACE_TXT);
	load_fails(oracle, &o, "line 1: binary data", "oracleGeneral");
	/* a csv named txt: its line has no single number */
	load_fails(csv, &o, "line 1", "obj_id '1,5,4096,read'");
	/* a zstd file cut short */
	f = fopen(zcsv, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fclose(f);
	ztrunc = harness_write_temp("");
	{
		unsigned char buf[256];
		FILE *in = fopen(zcsv, "rb"), *out = fopen(ztrunc, "wb");

		ck_assert(n > 6 && n < (long)sizeof(buf));
		ck_assert_uint_eq(fread(buf, 1, (size_t)n, in), (size_t)n);
		ck_assert_uint_eq(fwrite(buf, 1, (size_t)n - 3, out), (size_t)n - 3);
		fclose(in);
		fclose(out);
	}
	trace_opts_init(&o, TRACE_AUTO);
	load_fails(ztrunc, &o, "zstd", "truncated");
	unlink(csv);
	unlink(oracle);
	unlink(zcsv);
	unlink(ztrunc);
	free(csv);
	free(oracle);
	free(zcsv);
	free(ztrunc);
}
END_TEST

/* Without a size key a trace workload is its trace's pages; with one, they must fit. */
START_TEST(test_workload_size_from_trace)
{
	char *trace = harness_write_temp("1,5,4096\n2,9,9000\n3,5,4096\n"), ini[1024], *path;
	char err[512] = "";
	struct scenario s;

	snprintf(ini, sizeof(ini),
		 "[machine]\nnodes = 1\nnode_memory = 256M\n[device.d]\ntype = nvme\n"
		 "[workload.replay]\ntype = trace\ntrace = %s\ndevice = d\n", trace);
	path = harness_write_temp(ini);
	ck_assert_msg(scenario_load(&s, path, NULL, 0, 1.0, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(s.workload[0].size, 4 * 4096);
	ck_assert_uint_eq(s.workload[0].ops, 3);
	scenario_free(&s);
	unlink(path);
	free(path);
	/* 12K holds 3 of its 4 pages */
	snprintf(ini, sizeof(ini),
		 "[machine]\nnodes = 1\nnode_memory = 256M\n[device.d]\ntype = nvme\n"
		 "[workload.replay]\ntype = trace\ntrace = %s\ndevice = d\nsize = 12K\n", trace);
	path = harness_write_temp(ini);
	ck_assert_int_ne(scenario_load(&s, path, NULL, 0, 1.0, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, "size") && strstr(err, "4 pages"), "%s", err);
	scenario_free(&s);
	unlink(path);
	free(path);
	unlink(trace);
	free(trace);
}
END_TEST

/* ---- object names (obj-id-is-num=false) ---- */

/*
 * A csv of names gives what the same trace numbered 0, 1, 2... in the order
 * first seen gives: the same objects, pages and sizes, request by request.
 */
START_TEST(test_string_ids_numbered_as_first_seen)
{
	char *names = malloc(1 << 16), *numbers = malloc(1 << 16), *pn, *pu;
	size_t nn = 0, nu = 0;
	int first_seen[300], nr_seen = 0;
	struct trace_opts o;
	struct trace tn, tu;
	char err[512] = "";
	struct rng r;

	ck_assert_ptr_nonnull(names);
	ck_assert_ptr_nonnull(numbers);
	for (int i = 0; i < 300; i++)
		first_seen[i] = -1;
	rng_seed(&r, 3, "names");
	nn += (size_t)snprintf(names + nn, 4096, "time,key,size,op\n");
	nu += (size_t)snprintf(numbers + nu, 4096, "time,key,size,op\n");
	for (int i = 0; i < 1000; i++) {
		int k = (int)rng_below(&r, 300), size = 4096 * (1 + k % 3);
		const char *op = i % 7 ? "read" : "write";

		if (first_seen[k] < 0)
			first_seen[k] = nr_seen++;
		nn += (size_t)snprintf(names + nn, (1 << 16) - nn, "%d,user:%d/%c,%d,%s\n", i, k,
				       'a' + k % 26, size, op);
		nu += (size_t)snprintf(numbers + nu, (1 << 16) - nu, "%d,%d,%d,%s\n", i,
				       first_seen[k], size, op);
	}
	pn = harness_write_temp(names);
	pu = harness_write_temp(numbers);
	trace_opts_init(&o, TRACE_AUTO);
	ck_assert_int_eq(trace_opts_parse(&o, "obj-id-is-num=false", err, sizeof(err)), 0);
	ck_assert_msg(trace_load_opts(&tn, pn, &o, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(trace_load(&tu, pu, TRACE_AUTO, err, sizeof(err)), 0);
	ck_assert_uint_eq(tn.nr, 1000);
	ck_assert_uint_eq(tn.nr_objects, (uint64_t)nr_seen);
	ck_assert_uint_eq(tn.nr_objects, tu.nr_objects);
	ck_assert_uint_eq(tn.nr_pages, tu.nr_pages);
	for (size_t i = 0; i < tn.nr; i++) {
		ck_assert_uint_eq(tn.req[i].obj_id, tu.req[i].obj_id);
		ck_assert_uint_eq(tn.req[i].page, tu.req[i].page);
		ck_assert_uint_eq(tn.req[i].nr_pages, tu.req[i].nr_pages);
		ck_assert_uint_eq(tn.req[i].dense_id, tu.req[i].dense_id);
		ck_assert(tn.req[i].write == tu.req[i].write);
	}
	trace_free(&tn);
	trace_free(&tu);
	/* without the parameter, names are refused and the message says how to read them */
	load_fails(pn, (trace_opts_init(&o, TRACE_CSV), &o), "line 2", "obj-id-is-num=false");
	unlink(pn);
	unlink(pu);
	free(pn);
	free(pu);
	free(names);
	free(numbers);
}
END_TEST

/* Names are text: "07" and "7" differ; txt takes names; a header is only what is named. */
START_TEST(test_string_ids_are_text)
{
	char *txt = harness_write_temp("7\n07\nseven\n7\n");
	char *csv = harness_write_temp("key,size\nk1,4096\nk2,8192\n");
	struct trace_opts o;
	struct trace t;
	char err[512] = "";

	trace_opts_init(&o, TRACE_AUTO);
	ck_assert_int_eq(trace_opts_parse(&o, "obj_id_is_num=0", err, sizeof(err)), 0);
	ck_assert_msg(trace_load_opts(&t, txt, &o, err, sizeof(err)) == 0, "%s", err);
	ck_assert_int_eq(t.format, TRACE_TXT);
	ck_assert_uint_eq(t.nr_objects, 3);
	ck_assert_uint_eq(t.req[0].obj_id, 0);
	ck_assert_uint_eq(t.req[1].obj_id, 1);
	ck_assert_uint_eq(t.req[2].obj_id, 2);
	ck_assert_uint_eq(t.req[3].obj_id, 0);
	trace_free(&t);
	/* no time column: "key" is a name like any other unless has-header says so */
	trace_opts_init(&o, TRACE_AUTO);
	ck_assert_int_eq(trace_opts_parse(&o, "obj-id-col=1,obj-size-col=2,obj-id-is-num=false",
					  err, sizeof(err)), 0);
	load_fails(csv, &o, "line 1", "size 'size'");
	trace_opts_init(&o, TRACE_AUTO);
	ck_assert_int_eq(trace_opts_parse(&o, "obj-id-col=1,obj-size-col=2,obj-id-is-num=false,"
					  "has-header=true", err, sizeof(err)), 0);
	ck_assert_msg(trace_load_opts(&t, csv, &o, err, sizeof(err)) == 0, "%s", err);
	ck_assert_uint_eq(t.nr, 2);
	ck_assert_uint_eq(t.nr_pages, 3);
	trace_free(&t);
	unlink(txt);
	unlink(csv);
	free(txt);
	free(csv);
}
END_TEST

/* ---- binary formats, as libCacheSim defines them ---- */

static void put(unsigned char *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* One request of a test trace and what it should read back as. */
struct want {
	uint32_t time;
	uint64_t obj_id;
	uint32_t size;
	unsigned op;		/* libCacheSim's req_op_e */
	bool write;
};

static const struct want wants[4] = {
	{ 10, 900, 4096, 1, false },	/* get */
	{ 11, 7, 9000, 3, true },	/* set */
	{ 11, 900, 100, 12, false },	/* read */
	{ 20, 123456789012ULL, 1, 9, true },	/* delete */
};

static void check_wants(const struct trace *t, bool has_op)
{
	ck_assert_uint_eq(t->nr, 4);
	ck_assert_uint_eq(t->nr_objects, 3);
	for (int i = 0; i < 4; i++) {
		ck_assert_uint_eq(t->req[i].obj_id, wants[i].obj_id);
		ck_assert_uint_eq(t->req[i].size, wants[i].size);
		ck_assert_msg(t->req[i].write == (has_op && wants[i].write), "request %d", i);
	}
}

/* An lcs trace of version v: the 8192-byte header and the four requests. */
static size_t lcs_trace(unsigned char *buf, unsigned v)
{
	static const size_t rec[9] = { 0, 24, 28, 36, 40, 44, 52, 68, 100 };
	size_t n = 8192;

	memset(buf, 0, 8192 + 4 * 100);
	put(buf, 0x123456789abcdef0ULL, 8);
	put(buf + 8, v, 8);
	put(buf + 16, 1, 8);		/* stat version */
	put(buf + 24, 4, 8);		/* n_req */
	put(buf + 8184, 0x123456789abcdef0ULL, 8);
	for (int i = 0; i < 4; i++, n += rec[v]) {
		unsigned char *p = buf + n;

		put(p, wants[i].time, 4);
		put(p + 4, wants[i].obj_id, 8);
		if (v == 1) {
			put(p + 12, wants[i].size, 4);
			put(p + 16, (uint64_t)-1, 8);
		} else if (v == 2) {
			put(p + 12, wants[i].size, 4);
			put(p + 16, wants[i].op | 5u << 8, 4);	/* tenant 5 */
			put(p + 20, (uint64_t)-1, 8);
		} else {
			put(p + 12, wants[i].size, 8);
			put(p + 20, wants[i].op | 5u << 8, 4);
			put(p + 24, 3600, 4);			/* ttl */
			put(p + 28, (uint64_t)-1, 8);
			for (size_t f = 36; f < rec[v]; f++)	/* features */
				p[f] = 0xee;
		}
	}
	return n;
}

START_TEST(test_lcs_every_version)
{
	unsigned char buf[8192 + 4 * 100];
	struct trace_opts o;
	struct trace t;
	char err[512] = "";

	for (unsigned v = 1; v <= 8; v++)
		for (int named = 0; named < 2; named++) {
			size_t n = lcs_trace(buf, v);
			char *path = write_bytes(buf, n);

			trace_opts_init(&o, named ? TRACE_LCS : TRACE_AUTO);
			ck_assert_msg(trace_load_opts(&t, path, &o, err, sizeof(err)) == 0,
				      "v%u: %s", v, err);
			ck_assert_int_eq(t.format, TRACE_LCS);
			ck_assert_uint_eq(t.version, v);
			check_wants(&t, v >= 2);
			trace_free(&t);
			unlink(path);
			free(path);
		}
}
END_TEST

START_TEST(test_lcs_truncated_or_corrupt)
{
	unsigned char buf[8192 + 4 * 100];
	struct trace_opts o;
	size_t n;
	char *path;

	trace_opts_init(&o, TRACE_AUTO);
	/* cut in the header, then in its third record */
	n = lcs_trace(buf, 3);
	path = write_bytes(buf, 5000);
	load_fails(path, &o, "header: truncated", "5000 of 8192");
	unlink(path);
	free(path);
	path = write_bytes(buf, 8192 + 2 * 36 + 10);
	load_fails(path, &o, "record 3", "truncated (10 of 36 bytes)");
	unlink(path);
	free(path);
	/* an unknown version, a wrong end magic, a size that is negative, an op none knows */
	put(buf + 8, 9, 8);
	path = write_bytes(buf, n);
	load_fails(path, &o, "lcs version 9", NULL);
	unlink(path);
	free(path);
	lcs_trace(buf, 3);
	buf[8190] ^= 1;
	path = write_bytes(buf, n);
	load_fails(path, &o, "end magic", NULL);
	unlink(path);
	free(path);
	lcs_trace(buf, 3);
	put(buf + 8192 + 36 + 12, (uint64_t)-5, 8);
	path = write_bytes(buf, n);
	load_fails(path, &o, "record 2", "obj_size -5 is negative");
	unlink(path);
	free(path);
	lcs_trace(buf, 2);
	buf[8192 + 2 * 28 + 16] = 99;
	path = write_bytes(buf, 8192 + 4 * 28);
	load_fails(path, &o, "record 3", "op 99");
	unlink(path);
	free(path);
	/* named lcs, but no magic */
	memset(buf, 0, 8192);
	path = write_bytes(buf, 8192);
	trace_opts_init(&o, TRACE_LCS);
	load_fails(path, &o, "not an lcs trace", NULL);
	unlink(path);
	free(path);
}
END_TEST

/* twr, twrNS, oracleSysTwrNS, oracleSimTwrNS: fixed records, no header */
static size_t twr_trace(unsigned char *buf, enum trace_format f, size_t *rec)
{
	size_t n = 0;

	*rec = f == TRACE_TWR ? 20 : f == TRACE_TWRNS ? 22 : f == TRACE_ORACLE_SYS_TWRNS ? 34 : 30;
	for (int i = 0; i < 4; i++, n += *rec) {
		unsigned char *p = buf + n;
		uint32_t key = wants[i].size > 64 ? 40 : 0, val = wants[i].size - key;

		put(p, wants[i].time, 4);
		put(p + 4, wants[i].obj_id, 8);
		if (f == TRACE_TWR || f == TRACE_TWRNS) {
			put(p + 12, key << 22 | val, 4);
			put(p + 16, (uint64_t)wants[i].op << 24 | 86400, 4);
			if (f == TRACE_TWRNS)
				put(p + 20, 17, 2);
		} else if (f == TRACE_ORACLE_SYS_TWRNS) {
			put(p + 12, key, 2);
			put(p + 14, val, 4);
			put(p + 18, wants[i].op, 2);
			put(p + 20, 17, 2);
			put(p + 22, 86400, 4);
			put(p + 26, (uint64_t)-1, 8);
		} else {
			put(p + 12, wants[i].size, 4);
			put(p + 16, 86400, 4);
			put(p + 20, 17, 2);
			put(p + 22, (uint64_t)-1, 8);
		}
	}
	return n;
}

START_TEST(test_twr_formats)
{
	static const enum trace_format fmts[] = { TRACE_TWR, TRACE_TWRNS, TRACE_ORACLE_SYS_TWRNS,
						  TRACE_ORACLE_SIM_TWRNS };
	static const char *const names[] = { "twr", "twrns", "oracleSysTwrNS", "oracleSimTwrNS" };
	unsigned char buf[4 * 34];
	struct trace_opts o;
	struct trace t;
	char err[512] = "";

	for (int i = 0; i < 4; i++) {
		size_t rec, n = twr_trace(buf, fmts[i], &rec);
		char *path = write_bytes(buf, n);
		enum trace_format f;

		ck_assert_int_eq(trace_format_parse(names[i], &f), 0);
		ck_assert_int_eq(f, fmts[i]);
		trace_opts_init(&o, f);
		ck_assert_msg(trace_load_opts(&t, path, &o, err, sizeof(err)) == 0, "%s: %s",
			      names[i], err);
		ck_assert_int_eq(t.format, fmts[i]);
		check_wants(&t, fmts[i] != TRACE_ORACLE_SIM_TWRNS);
		trace_free(&t);
		unlink(path);
		free(path);
		/* truncated in the last record */
		path = write_bytes(buf, n - 3);
		load_fails(path, &o, "record 4", "truncated");
		unlink(path);
		free(path);
	}
}
END_TEST

/* vscsi: version 1 and 2 records, the version in ver's high byte, SCSI writes */
static size_t vscsi_trace(unsigned char *buf, unsigned v)
{
	size_t rec = v == 1 ? 32 : 40, n = 0;

	memset(buf, 0, 4 * 40);
	for (int i = 0; i < 4; i++, n += rec) {
		unsigned char *p = buf + n;
		unsigned cmd = wants[i].write ? 0x2a : 0x28;	/* WRITE(10), READ(10) */

		if (v == 1) {
			put(p, 1000 + (unsigned)i, 4);
			put(p + 4, wants[i].size, 4);
			put(p + 8, 1, 4);
			put(p + 12, cmd, 2);
			put(p + 14, 0x100, 2);
		} else {
			put(p, cmd, 2);
			put(p + 2, 0x200, 2);
			put(p + 4, 1000 + (unsigned)i, 4);
			put(p + 8, wants[i].size, 4);
			put(p + 12, 1, 4);
			put(p + 32, 250, 8);	/* response time */
		}
		put(p + 16, wants[i].obj_id, 8);
		put(p + 24, (uint64_t)wants[i].time * 1000000 + 999999, 8);
	}
	return n;
}

START_TEST(test_vscsi_versions)
{
	unsigned char buf[4 * 40];
	struct trace_opts o;
	struct trace t;
	char err[512] = "", *path;

	trace_opts_init(&o, TRACE_VSCSI);
	for (unsigned v = 1; v <= 2; v++) {
		size_t n = vscsi_trace(buf, v), rec = v == 1 ? 32 : 40;

		path = write_bytes(buf, n);
		ck_assert_msg(trace_load_opts(&t, path, &o, err, sizeof(err)) == 0, "v%u: %s", v,
			      err);
		ck_assert_uint_eq(t.version, v);
		check_wants(&t, true);
		trace_free(&t);
		unlink(path);
		free(path);
		path = write_bytes(buf, n - 1);
		load_fails(path, &o, "record 4", "truncated");
		unlink(path);
		free(path);
		/* a record whose version byte is not the trace's */
		buf[2 * rec + (v == 1 ? 15 : 3)] = 7;
		path = write_bytes(buf, n);
		load_fails(path, &o, "record 3", "version byte says 7");
		unlink(path);
		free(path);
	}
	memset(buf, 0, sizeof(buf));
	path = write_bytes(buf, sizeof(buf));
	load_fails(path, &o, "record 1", "not a vscsi trace");
	unlink(path);
	free(path);
}
END_TEST

/* A sequential trace as a run: without readahead, each object's first request faults. */
START_TEST(test_device_without_readahead)
{
	unsigned char *buf = malloc(2000 * 24);
	char *trace, ini[1024], *path, *out = NULL, err[512];
	double major[2];

	ck_assert_ptr_nonnull(buf);
	for (int i = 0; i < 2000; i++)
		oracle_record(buf + 24 * i, (uint32_t)i, (uint64_t)i, 4096);
	trace = write_bytes(buf, 2000 * 24);
	free(buf);
	for (int ra = 0; ra < 2; ra++) {
		struct run_result r;

		snprintf(ini, sizeof(ini),
			 "[machine]\nnodes = 1\nnode_memory = 256M\n[device.d]\ntype = nvme\n%s"
			 "[memcg.cache]\nmemory.max = 4M\n"
			 "[workload.replay]\ntype = trace\ntrace = %s\nmemcg = cache\ndevice = d\n"
			 "access = mmap\n", ra ? "" : "readahead = no\n", trace);
		path = harness_write_temp(ini);
		ck_assert_msg(harness_run_scenario(path, NULL, 0, 1.0, 1, "classic", true, &out,
						   err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(harness_parse_result(out, &r), 0);
		ck_assert_double_eq(harness_value(&r, "workload.replay", "ops"), 2000);
		major[ra] = harness_value(&r, "workload.replay", "major_faults");
		result_free(&r);
		free(out);
		out = NULL;
		unlink(path);
		free(path);
	}
	/* read-around brings 32 pages a fault; without it, one fault per object */
	ck_assert_double_eq(major[0], 2000);
	ck_assert_msg(major[1] < 2000 / 8, "%f major faults with readahead", major[1]);
	unlink(trace);
	free(trace);
}
END_TEST

static Suite *trace_suite(void)
{
	Suite *s = suite_create("trace");
	TCase *tc = tcase_create("trace");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_oracle_load_and_dense_ids);
	tcase_add_test(tc, test_oracle_truncated_names_the_record);
	tcase_add_test(tc, test_csv_load_and_errors);
	tcase_add_test(tc, test_replay_same_misses_every_run);
	tcase_add_test(tc, test_scenario_with_truncated_trace_fails_with_the_record);
	tcase_add_test(tc, test_csv_strict_fields);
	tcase_add_test(tc, test_csv_legal_forms);
	tcase_add_test(tc, test_oracle_out_of_time_order);
	tcase_add_test(tc, test_no_endless_traces);
	tcase_add_test(tc, test_trace_objects_fit_the_workload);
	tcase_add_test(tc, test_every_format_sniffed_and_named);
	tcase_add_test(tc, test_object_sizes_in_pages);
	tcase_add_test(tc, test_csv_columns_like_cachesim);
	tcase_add_test(tc, test_csv_column_errors);
	tcase_add_test(tc, test_wrong_format_is_named);
	tcase_add_test(tc, test_printable_oracle_records);
	tcase_add_test(tc, test_zstd_skippable_frame);
	tcase_add_test(tc, test_workload_size_from_trace);
	tcase_add_test(tc, test_string_ids_numbered_as_first_seen);
	tcase_add_test(tc, test_string_ids_are_text);
	tcase_add_test(tc, test_lcs_every_version);
	tcase_add_test(tc, test_lcs_truncated_or_corrupt);
	tcase_add_test(tc, test_twr_formats);
	tcase_add_test(tc, test_vscsi_versions);
	tcase_add_test(tc, test_device_without_readahead);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(trace_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
