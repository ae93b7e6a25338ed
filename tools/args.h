/* SPDX-License-Identifier: GPL-2.0-only */
/* Command-line values every command parses alike: the whole text or nothing. */
#ifndef MMEMU_TOOLS_ARGS_H
#define MMEMU_TOOLS_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "0.125" or "1/8", in (0, 1]. 0 or -1. */
int args_scale(const char *s, double *scale);
/* A decimal count in [lo, hi]. 0 or -1. */
int args_long(const char *s, long lo, long hi, long *v);
/* A decimal or 0x number, no sign. 0 or -1. */
int args_u64(const char *s, uint64_t *v);
/* Whether a comma-separated list has an empty item ("a,,b", ",a", "a,", ""). */
bool args_list_has_empty(const char *s);
/* "1..5", "1,2,3" or "7", at most max seeds, into a malloc'ed array. 0 or -1. */
int args_seeds(const char *s, size_t max, uint64_t **seeds, size_t *nr);
/*
 * A scenario argument: the file itself when it exists; else, for a bare
 * name ("ycsb-b" or "ycsb-b.ini", no '/'), the first of dirs (NULL-ended)
 * that holds it; else the argument as given (its loader then says the file
 * is missing). The scenario's path, or NULL when out of memory (malloc'ed).
 */
char *args_scenario(const char *arg, const char *const *dirs);

#endif
