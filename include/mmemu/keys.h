/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Key tables: how the keys of one scenario section are read. Every section
 * has one (scenarios/scenario.c), each workload type declares its own
 * (workload_ops.keys), and so does a reclaim policy with knobs
 * (reclaim_policy.knobs, in mmemu/policy.h): one parser reads them all,
 * checks each value, names the file, line and key of a bad one, and fills
 * the field at `offset` of the section's struct. `mmemu list sections`
 * prints each key with its `doc` line.
 */
#ifndef MMEMU_KEYS_H
#define MMEMU_KEYS_H

#include <stddef.h>

enum key_type {
	KT_SIZE,	/* bytes (a uint64_t) */
	KT_LIMIT,	/* bytes or "max" */
	KT_COUNT,	/* a count */
	KT_INT,		/* integer in [lo, hi] (an int, or int64_t when the field is 8 bytes) */
	KT_DOUBLE,	/* real in [lo, hi] */
	KT_TIME,	/* duration, in ns (a uint64_t) */
	KT_STRING,	/* a name or keyword, at most the field's size less one */
	KT_TEXT,	/* any length (a malloc'ed char *: the owner frees it) */
	KT_BOOL,	/* 0/1, yes/no, true/false (a bool) */
	KT_WORKLOAD_TYPE,	/* workload type (scenarios/workloads.c) */
	KT_CHOICE,	/* one of `choices`, stored as its index (an int) */
	KT_SCALE,	/* a scale: 0.125 or 1/8 */
	KT_TRISTATE,	/* exactly 0 or 1 (an int, whose default may be -1: the policy's) */
	KT_INT_SIZE,	/* bytes, not 0 (a record's size) */
	KT_AMOUNT,	/* bytes or "full" */
	KT_MSECS,	/* whole milliseconds in [lo, hi], stored in ns (a uint64_t) */
	KT_PARSE,	/* read by the key's own `parse` */
	KT_RETIRED,	/* not a key any more: refused with `what`, which says what to write */
};

/* What --scale does to a key's value (sizes and counts of data shrink together). */
enum key_scale {
	KEY_UNSCALED = 1,	/* as written: times, ratios, counts of things that run */
	KEY_SCALED,		/* times the scale */
	KEY_SCALED_PAGES,	/* times the scale, then down to whole 4 KiB pages */
	KEY_PERIOD,		/* a period of the run: times the scale (README, "Scale") */
};

struct key_desc {
	const char *key;	/* name in the file */
	enum key_type type;	/* its parser */
	enum key_scale scale;	/* what --scale does to it */
	size_t offset;		/* in the section's struct (a workload type's: in its params) */
	size_t size;		/* the field's size (string capacity) */
	double lo, hi;		/* bounds for KT_INT / KT_DOUBLE / KT_MSECS */
	const char *what;	/* how errors name the value ("0 or 1"); KT_RETIRED: the reason */
	const char *doc;	/* one line for `mmemu list` */
	const char *const *choices;	/* KT_CHOICE: the names, NULL-terminated */
	/*
	 * KT_PARSE: stores value into *field; 0, or -1 with why it is refused
	 * (what follows the quoted value: "has bits beyond 0x0007"), why left ""
	 * for "is not <what>".
	 */
	int (*parse)(const char *value, void *field, char *why, size_t len);
};

/* A key of struct `st`'s field `f`; `doc` NULL for keys `mmemu list` does not show. */
#define SCN_KEY(k, t, sc, st, f, lo, hi, what, doc)                                    \
	{ k, t, sc, offsetof(st, f), sizeof(((st *)0)->f), lo, hi, what, doc, NULL, NULL }
#define SCN_CHOICE(k, st, f, names, what, doc)                                         \
	{ k, KT_CHOICE, KEY_UNSCALED, offsetof(st, f), sizeof(((st *)0)->f), 0, 0, what, doc, \
	  names, NULL }
#define SCN_PARSE(k, st, f, fn, what, doc)                                             \
	{ k, KT_PARSE, KEY_UNSCALED, offsetof(st, f), sizeof(((st *)0)->f), 0, 0, what, doc, \
	  NULL, fn }
/* A key that was: `msg` tells what to write instead. */
#define SCN_RETIRED(k, msg) { k, KT_RETIRED, KEY_UNSCALED, 0, 0, 0, 0, msg, NULL, NULL, NULL }

#endif
