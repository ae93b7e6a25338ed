// SPDX-License-Identifier: GPL-2.0-only
/*
 * The one table of generation colours that mmemu plot and mmemu view
 * share: blue for the youngest through green and orange to red for the
 * oldest, the generation reclaim takes next.
 */
#include "tools/palette.h"

const char *const gen_colors[MMEMU_SAMPLE_MAX_GENS] = {
	"#1f77b4",	/* max_seq */
	"#2ca02c",	/* max_seq - 1 */
	"#ff7f0e",	/* max_seq - 2 */
	"#d62728",	/* max_seq - 3 */
};

void palette_write_js(FILE *f)
{
	fputs("window.mmemuPalette = {\"gens\": [", f);
	for (int i = 0; i < MMEMU_SAMPLE_MAX_GENS; i++)
		fprintf(f, "%s\"%s\"", i ? ", " : "", gen_colors[i]);
	fputs("]};\n", f);
}
