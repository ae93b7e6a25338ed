/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target: trace_load() (scenarios/trace.c) on a trace file, in
 * the format FUZZ_TRACE_FORMAT (TRACE_ORACLE: libCacheSim oracleGeneral
 * binary records; TRACE_CSV: time,obj_id,size,op lines; TRACE_AUTO: the
 * sniffing, and lcs by its magic; TRACE_VSCSI, TRACE_TWR). A trace it
 * accepts has requests, and its dense object numbers are 0..n-1, one per
 * distinct obj_id.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenarios/trace.h"

static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace t;
	char err[1024];
	FILE *f;

	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "mmemu-fuzz-trace-XXXXXX");	/* in the working directory */
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	if (trace_load(&t, path, FUZZ_TRACE_FORMAT, err, sizeof(err))) {
		if (!err[0])
			abort();	/* a rejection says why */
		return 0;
	}
	if (!t.nr || t.nr_objects > t.nr)
		abort();
	for (size_t i = 0; i < t.nr; i++) {
		if (t.req[i].dense_id >= t.nr_objects)
			abort();
		/* one dense number per obj_id: the first request of each object says it */
		for (size_t j = 0; j < i && j < 64; j++)
			if ((t.req[j].obj_id == t.req[i].obj_id) != (t.req[j].dense_id == t.req[i].dense_id))
				abort();
	}
	trace_free(&t);
	return 0;
}
