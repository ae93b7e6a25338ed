/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MMEMU_TOOLS_PALETTE_H
#define MMEMU_TOOLS_PALETTE_H

#include <stdio.h>

#include "mmemu/policy.h"

/*
 * The colour of an MGLRU generation by its distance from max_seq: [0] the
 * youngest (max_seq), [MMEMU_SAMPLE_MAX_GENS - 1] the oldest that can exist
 * (max_seq - 3, next to be evicted). mmemu plot fills its bands from it
 * and mmemu view gets the same table in its page (palette_write_js), so a
 * generation has one colour in both.
 */
extern const char *const gen_colors[MMEMU_SAMPLE_MAX_GENS];

/* The table as a script statement: window.mmemuPalette = {"gens": [...]}; */
void palette_write_js(FILE *f);

#endif
