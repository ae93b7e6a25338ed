/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-access traces for replay: libCacheSim's oracleGeneral binary format
 * (packed records of uint32 clock_time, uint64 obj_id, uint32 obj_size,
 * int64 next_access_vtime) and CSV: "time,obj_id[,size[,op]]" per line, op
 * read/write or r/w/get/set (default read), an optional header line (the
 * first whose time is no number), empty lines and '#' comments skipped.
 *
 * What the fields mean: requests are in time order (a time before the
 * previous one is an error) and replay back to back, in that order: time
 * orders, it does not pace. Each distinct obj_id is one page (or one
 * operation's pages_per_op), so size and next_access_vtime are checked but
 * not used. Numbers are whole decimal numbers, without sign; every field is
 * there or absent, never empty; more than four fields is an error. A trace
 * is a regular file of at most TRACE_MAX_REQUESTS requests.
 */
#ifndef MMEMU_SCENARIOS_TRACE_H
#define MMEMU_SCENARIOS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Estimate: the most requests a replay keeps (24 bytes each in host memory,
 * 1.5 GiB; at a few million replayed accesses per host second, longer than
 * any run is meant to take). A larger trace is refused, not cut.
 */
#define TRACE_MAX_REQUESTS (1ULL << 26)

enum trace_format {
	TRACE_ORACLE,	/* libCacheSim oracleGeneral binary */
	TRACE_CSV,	/* time,obj_id,size,op */
};

struct trace_req {
	uint64_t obj_id;	/* object */
	uint64_t dense_id;	/* the object's number among distinct objects, by obj_id */
	uint32_t size;		/* bytes */
	bool write;		/* a write (CSV op) */
};

struct trace {
	struct trace_req *req;	/* all requests, in order */
	size_t nr;
	uint64_t nr_objects;	/* distinct objects */
};

int trace_format_parse(const char *s, enum trace_format *f);
/* Loads a whole trace; -1 with "trace 'F' record N: ..." or "line N" in err. */
int trace_load(struct trace *t, const char *path, enum trace_format f, char *err, size_t len);
void trace_free(struct trace *t);

#endif
