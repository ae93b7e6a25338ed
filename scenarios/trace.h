/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-access traces for replay, read as libCacheSim ships them:
 *
 * - oracleGeneral: packed little-endian records of uint32 clock_time,
 *   uint64 obj_id, uint32 obj_size, int64 next_access_vtime (24 bytes;
 *   libCacheSim's traceReader/customizedReader/oracle/oracleGeneralBin.h);
 * - csv: delimited lines. With no column options, "time,obj_id[,size[,op]]"
 *   (op read/write or r/w/get/set, default read), at most four fields;
 *   with options (libCacheSim cachesim's -t: "time-col=1,obj-id-col=2,
 *   obj-size-col=3,delimiter=,,has-header=true", columns counted from 1,
 *   plus op-col), the named columns of lines of any number of fields;
 * - txt: one obj_id per line (libCacheSim's plain text trace);
 * - lcs: libCacheSim's own binary trace, an 8192-byte header (a start and
 *   an end magic, 0x123456789abcdef0; the version, 1 to 8; the trace's
 *   statistics) and packed little-endian records of the version's layout
 *   (traceReader/customizedReader/lcs.h): v1 as oracleGeneral (24 bytes);
 *   v2 adds an op byte and a 24-bit tenant after obj_size (28); v3 has an
 *   int64 obj_size and a uint32 ttl (36); v4 to v8 add 1, 2, 4, 8 or 16
 *   uint32 features after v3's fields (40, 44, 52, 68, 100);
 * - twr: Twitter's cache traces as libCacheSim reads them (twrBin.h):
 *   uint32 time, uint64 obj_id, uint32 key size (top 10 bits) and value
 *   size (low 22), uint32 op (top 8 bits) and ttl (low 24), 20 bytes; the
 *   size is key + value. twrNS adds a uint16 namespace (22 bytes);
 *   oracleSysTwrNS is uint32 time, uint64 obj_id, uint16 key size, uint32
 *   value size, uint16 op, uint16 namespace, int32 ttl, int64 next access
 *   (34 bytes) and oracleSimTwrNS uint32 time, uint64 obj_id, uint32 size,
 *   int32 ttl, uint16 namespace, int64 next access (30 bytes, no op);
 * - vscsi: VMware vscsi block traces (vscsi.h), records of version 1
 *   (uint32 sn, len, nSG, uint16 cmd, ver, uint64 lbn, ts: 32 bytes) or 2
 *   (uint16 cmd, ver, uint32 sn, len, nSG, uint64 lbn, ts, rt: 40 bytes),
 *   the version in ver's high byte (told by the first two records and
 *   checked on each); obj_id is lbn, size len, time ts / 10^6 (microseconds
 *   to seconds), and a SCSI WRITE (6, 10, 12, 16) command writes;
 * - any of them compressed with zstd (a .zst file: found by the magic of
 *   its first frame, a zstd or a skippable one).
 *
 * The format is named or sniffed (TRACE_AUTO: zstd by its magic, then
 * lcs by its start magic, other binary data, or printable bytes with no
 * line end in the first 4096, is oracleGeneral; text with a delimiter in its
 * first line or with its columns named is csv, other text is txt; twr and
 * vscsi, which have no header, are read when named). Ops of libCacheSim's
 * binary formats (req_op_e: nop, get, gets, set, add, cas, replace, append,
 * prepend, delete, incr, decr, read, write, update) read for nop, get, gets
 * and read and write for the others (a delete, which a page cache does not
 * have, writes the object). A format named is trusted and checked
 * record by record or line by line; a trace that fails the checks is an
 * error saying what it looks like, quoting no byte that is not printable. Text lines may be empty or '#' comments;
 * a csv header is the first line whose first column read is no number
 * (has-header names it; with obj-id-is-num=false and no time column, a
 * header is only what has-header=true names). Numbers are whole decimal
 * numbers without sign; obj_id is a number, or with obj-id-is-num=false any
 * text: each distinct text is numbered 0, 1, 2... in the order first seen
 * (as if the trace had those numbers: "07" and "7" are two objects).
 *
 * What the fields mean: requests are in time order (a time before the
 * previous one is an error) and replay back to back, in that order: time
 * orders, it does not pace. An object of size bytes is ceil(size / 4 KiB)
 * pages (at least one: a size of 0 is one page; without a size, 4 KiB);
 * objects lie side by side in obj_id order, each as large as its largest
 * request, and a request touches the pages of its own size.
 * next_access_vtime is not used. A trace is a regular file of at most
 * TRACE_MAX_REQUESTS requests and fewer than 2^32 pages.
 */
#ifndef MMEMU_SCENARIOS_TRACE_H
#define MMEMU_SCENARIOS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Estimate: the most requests a replay keeps (32 bytes each in host memory,
 * 2 GiB; at a few million replayed accesses per host second, longer than
 * any run is meant to take). A larger trace is refused, not cut.
 */
#define TRACE_MAX_REQUESTS (1ULL << 26)

enum trace_format {
	TRACE_ORACLE,	/* libCacheSim oracleGeneral binary */
	TRACE_CSV,	/* delimited columns */
	TRACE_TXT,	/* one obj_id per line */
	TRACE_AUTO,	/* sniffed from the data */
	TRACE_LCS,	/* libCacheSim lcs v1..v8: header and records */
	TRACE_TWR,	/* Twitter twr records (20 bytes) */
	TRACE_TWRNS,	/* twr with a namespace (22 bytes) */
	TRACE_ORACLE_SYS_TWRNS,	/* libCacheSim oracleSysTwrNS (34 bytes) */
	TRACE_ORACLE_SIM_TWRNS,	/* libCacheSim oracleSimTwrNS (30 bytes) */
	TRACE_VSCSI,	/* VMware vscsi v1 or v2 records */
};

/* How to read a trace: its format and, for csv, its columns (cachesim's -t). */
struct trace_opts {
	enum trace_format format;	/* or TRACE_AUTO */
	bool columns;			/* columns named (else csv is time,obj_id,size,op) */
	int time_col;			/* 1-based; 0: no time */
	int obj_id_col;			/* 1-based */
	int obj_size_col;		/* 1-based; 0: no size (4 KiB) */
	int op_col;			/* 1-based; 0: every request reads */
	char delimiter;			/* 0: sniffed from the first line (',' without columns) */
	int has_header;			/* -1: the first line whose column is no number; 0; 1 */
	bool obj_id_str;		/* obj-id-is-num=false: obj_id is text, numbered as first seen */
};

struct trace_req {
	uint64_t obj_id;	/* object */
	uint32_t dense_id;	/* the object's number among distinct objects, by obj_id */
	uint32_t page;		/* the object's first page */
	uint32_t size;		/* bytes */
	uint32_t nr_pages;	/* pages this request touches: ceil(size / 4 KiB), >= 1 */
	bool write;		/* a write (csv op) */
};

struct trace {
	struct trace_req *req;	/* all requests, in order */
	size_t nr;
	uint64_t nr_objects;	/* distinct objects */
	uint64_t nr_pages;	/* pages of all objects: the working set */
	uint64_t bytes;		/* bytes of all requests */
	enum trace_format format;	/* as read (sniffed or named) */
	unsigned version;	/* lcs and vscsi: the version read; else 0 */
	bool compressed;	/* the file was zstd */
};

/*
 * "oracle"/"oracleGeneral", "csv", "txt", "auto", "lcs", "twr", "twrNS",
 * "oracleSysTwrNS", "oracleSimTwrNS", "vscsi" (the binary ones in any case,
 * as cachesim takes them): 0, or -EINVAL.
 */
int trace_format_parse(const char *s, enum trace_format *f);
const char *trace_format_name(enum trace_format f);
/* The defaults: format f, csv time,obj_id,size,op. */
void trace_opts_init(struct trace_opts *o, enum trace_format f);
/*
 * cachesim's trace parameters, "key=value,..." (time-col, obj-id-col,
 * obj-size-col, op-col, delimiter, has-header, obj-id-is-num; '_' for '-'
 * and -field for -col too). Columns named replace time,obj_id,size,op; the
 * other keys alone keep them. 0, or -1 with the key named in err.
 */
int trace_opts_parse(struct trace_opts *o, const char *s, char *err, size_t len);
/* Loads a whole trace; -1 with "trace 'F' record N: ..." or "line N" in err. */
int trace_load_opts(struct trace *t, const char *path, const struct trace_opts *o, char *err,
		    size_t len);
/* trace_load_opts() with the defaults of format f. */
int trace_load(struct trace *t, const char *path, enum trace_format f, char *err, size_t len);
void trace_free(struct trace *t);

#endif
