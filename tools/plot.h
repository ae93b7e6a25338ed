/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu plot FILE... [--what gens|memory|throughput|refaults] [-o OUT]`:
 * time series of saved results (the "samples" rows of each mmemu.Run, see
 * scenarios/result.proto) drawn by gnuplot into an SVG or PNG image.
 */
#ifndef MMEMU_TOOLS_PLOT_H
#define MMEMU_TOOLS_PLOT_H

/* argv[0] is "plot". 0, 1 if gnuplot failed, 2 on bad input or no gnuplot. */
int cmd_plot(int argc, char **argv);

#endif
