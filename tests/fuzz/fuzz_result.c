/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target: the readers of saved results (scenarios/result.c):
 * result_file_read() on a saved file (a length-delimited stream: an
 * mmemu.Header, then an mmemu.Invocation) as `mmemu report` and `mmemu plot` read it, then what
 * report prints of it (tools/output.c: text, JSON, CSV, and the summaries
 * over seeds of tools/summary.c); and result_recv() on the same bytes, the
 * record a run child sends its parent. A writer that refuses the file says
 * why.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/result.h"
#include "tools/output.h"
#include "tools/summary.h"

static FILE *devnull;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const formats[] = { "text", "json", "csv" };
	Mmemu__Invocation *inv;
	Mmemu__Run *run;
	char why[256], err[512];
	FILE *f;

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	/* fmemopen() wants at least one byte: an empty input is an empty file */
	f = size ? fmemopen((void *)data, size, "rb") : fopen("/dev/null", "rb");
	if (!f)
		abort();
	why[0] = '\0';
	inv = result_file_read(f, why, sizeof(why));
	if (!inv && !why[0])
		abort();	/* a rejection says why */
	if (inv && inv->n_runs)	/* `report` rejects a file without runs */
		for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
			for (int all = 0; all < 2; all++) {
				const struct output_opts o = { .format = formats[i], .all = all };

				err[0] = '\0';
				if (output_write(devnull, &o, inv, err, sizeof(err)) && !err[0])
					abort();
				err[0] = '\0';
				if (summary_write(devnull, &o, inv, err, sizeof(err)) && !err[0])
					abort();
			}
	if (inv)
		mmemu__invocation__free_unpacked(inv, NULL);
	rewind(f);
	run = result_recv(f);
	if (run)
		mmemu__run__free_unpacked(run, NULL);
	fclose(f);
	return 0;
}
