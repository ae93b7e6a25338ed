/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Results over seeds: the runs that differ only in seed (same policy and
 * --set options, in order of first appearance) are one column; each
 * (group, key) of the results gets the mean, standard deviation and 95%
 * Student-t confidence interval over them, and for each column after the
 * first of its --set values, the change of the mean against that column
 * and Welch's t-test of the difference (GSL's t distribution). `sweep`,
 * `run --seeds` and `report --summary` print this.
 *
 * Text is the MMTests-style comparison table (tools/table.h): the mean per
 * column with its standard deviation (±) and its change, '*' where Welch's
 * test finds the difference
 * significant at 95%. JSON and CSV carry every statistic of every
 * (group, key).
 */
#ifndef MMEMU_TOOLS_SUMMARY_H
#define MMEMU_TOOLS_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "scenarios/result.h"
#include "tools/output.h"

/* Writes the summary of inv's runs in o->format. 0, or -1 with the reason in err. */
int summary_write(FILE *f, const struct output_opts *o, const Mmemu__Invocation *inv, char *err,
		  size_t errlen);

/* The two-sided 95% Student t quantile for df degrees of freedom (df > 0), from GSL. */
double summary_t95(double df);

/*
 * Welch's t-test of two samples given as mean, variance and size: the
 * two-sided p-value (1 when either n < 2 or both are exact and equal; 0
 * when both are exact and differ).
 */
double summary_welch_p(double m0, double v0, unsigned n0, double m1, double v1, unsigned n1);

#endif
