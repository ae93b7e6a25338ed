/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target: scenario_load() (scenarios/scenario.c, libinih) on a
 * scenario file and --set strings. The input is the file's text, then
 * optionally a NUL and --set strings separated by NULs, e.g.
 * "[machine]\nnodes = 2\n\0machine.swappiness=100\0memcg.app.max=2G".
 * The file goes to a directory of its own, so relative trace paths find
 * nothing but the scenario itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "scenarios/scenario.h"

#define MAX_SETS 64

static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *sets[MAX_SETS];
	const uint8_t *nul = memchr(data, '\0', size);
	size_t text_len = nul ? (size_t)(nul - data) : size;
	char err[1024], *rest = NULL;
	struct scenario s;
	int nr_sets = 0;
	FILE *f;

	if (!path[0]) {
		char dir[] = "mmemu-fuzz-XXXXXX";	/* in the directory tests/fuzz/run gives */

		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/fuzz.ini", dir);
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, text_len, f) != text_len || fclose(f))
		abort();
	if (nul) {
		size_t n = size - text_len - 1;

		rest = malloc(n + 1);
		if (!rest)
			abort();
		memcpy(rest, nul + 1, n);
		rest[n] = '\0';
		for (char *p = rest; nr_sets < MAX_SETS;) {
			char *next = memchr(p, '\0', (size_t)(rest + n - p) + 1);

			sets[nr_sets++] = p;
			if (!next || next == rest + n)
				break;
			p = next + 1;
		}
	}
	memset(&s, 0, sizeof(s));
	if (scenario_load(&s, path, sets, nr_sets, 0, err, sizeof(err)) && !err[0])
		abort();	/* a rejection says why */
	/* also after a rejection: the loader keeps s->text (and traces) then */
	scenario_free(&s);
	free(rest);
	return 0;
}
