/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target: what mmemu plot reads of a saved run (tools/plot.c):
 * a packed mmemu.Run, its typed samples ("stats" and lruvec rows) and its
 * groups; plot loads it as it loads a saved file's (every value checked), and a
 * run it accepts is drawn into each of five scripts. A rejection says
 * why; an accepted run never has a lruvec of more than PLOT_MAX_CELLS
 * numbers to draw.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* plot's messages about rejected input would fill the log: they go to /dev/null */
static FILE *fuzz_quiet(void)
{
	static FILE *f;

	if (!f && !(f = fopen("/dev/null", "w")))
		abort();
	return f;
}
#undef stderr
#define stderr fuzz_quiet()

/* the code under test, static functions and all */
#include "tools/plot.c"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct plot p = { .to = INFINITY };	/* every sample: no --from, --to */
	Mmemu__Run *run = mmemu__run__unpack(NULL, size, data);
	char *title = xasprintf("fuzz");

	if (run && !load_run(&p, "fuzz", 0, run)) {
		for (int r = 0; r < p.nr_runs; r++)
			for (int i = 0; i < p.runs[r].nlv; i++) {
				const struct lvec *lv = &p.runs[r].lv[i];

				if (lv->gens && lv->n &&
				    (double)(lv->rows[lv->n - 1].seq0 + lv->rows[lv->n - 1].n -
					     lv->rows[0].seq0) * lv->n > PLOT_MAX_CELLS)
					abort();
			}
		unique_labels(&p);
		p.title = title;
		for (int w = 0; w < 5; w++) {
			/* gens, memory, throughput, refaults, pgscan-rate */
			enum what what = w < 4 ? (enum what)w : W_PGSCAN;
			char *script = NULL;
			size_t len = 0;

			if (make_script(&p, what, &script, &len))
				abort();
			free(script);
		}
	}
	for (int r = 0; r < p.nr_runs; r++)
		prun_free(&p.runs[r]);
	free(p.runs);
	free(title);
	if (run)
		mmemu__run__free_unpacked(run, NULL);
	return 0;
}
