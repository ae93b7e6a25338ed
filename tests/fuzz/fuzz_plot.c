/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target: what mmemu plot reads of a saved run (tools/plot.c):
 * the samples as JSON objects, one per line ("stats", "gens" and "lists"
 * rows as result_sample_json() renders a saved file's typed rows); plot
 * loads them as it loads a saved file's (every value checked), and a
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
	Mmemu__Run run = MMEMU__RUN__INIT;
	struct plot p = { .to = INFINITY };	/* every sample: no --from, --to */
	char *text = malloc(size + 1), *title = NULL, **rows = NULL, *save;
	size_t nr = 0;

	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char **grown = realloc(rows, (nr + 1) * sizeof(*rows));

		if (!grown)
			abort();
		rows = grown;
		rows[nr++] = line;
	}
	run.policy = "mglru-budget";
	run.n_samples = nr;
	title = xasprintf("fuzz");
	if (!load_run(&p, "fuzz", 0, &run, rows)) {
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
	free(rows);
	free(text);
	return 0;
}
