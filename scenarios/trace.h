/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-access traces for replay: libCacheSim's oracleGeneral binary format
 * (packed records of uint32 clock_time, uint64 obj_id, uint32 obj_size,
 * int64 next_access_vtime) and CSV ("time,obj_id,size,op", op read/write
 * or r/w/get/set, an optional header line).
 */
#ifndef MMEMU_SCENARIOS_TRACE_H
#define MMEMU_SCENARIOS_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
