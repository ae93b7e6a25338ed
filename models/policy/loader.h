/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policies by --policy argument: a built-in name from the registry, or a
 * shared object (an argument with a '/' or ending in .so) that exports
 * MMEMU_POLICY_SYMBOL, built against include/mmemu/policy.h.
 */
#ifndef MMEMU_MODELS_POLICY_LOADER_H
#define MMEMU_MODELS_POLICY_LOADER_H

#include <stdbool.h>
#include <stddef.h>

#include "models/policy.h"

/* A policy loaded from a file; loaded once per process, never unloaded. */
struct policy_file {
	char *arg;			/* the --policy argument */
	char *path;			/* its realpath() */
	char sha256[65];		/* of the file's contents, hex */
	const struct reclaim_policy *policy;
};

/* An argument naming a file rather than a built-in policy. */
bool reclaim_policy_arg_is_file(const char *arg);
/*
 * The policy for a --policy argument: built-in by name, or loaded from the
 * file (checked: the symbol, the ABI, the required ops, and lruvec_init on
 * a scratch lruvec). NULL with a message naming the name or the path and
 * the reason.
 */
const struct reclaim_policy *reclaim_policy_get(const char *arg, char *err, size_t len);
/* The file record of an argument reclaim_policy_get() loaded (NULL: built-in). */
const struct policy_file *reclaim_policy_file(const char *arg);

/*
 * The knob sections of the policies known now, each once (the MGLRU
 * variants share one): the built-in ones in registry order, then those of
 * the files loaded, in load order. At most max; their number.
 */
int reclaim_policy_knobs_known(const struct policy_knobs **out, int max);

void sha256_hex(const void *data, size_t len, char out[65]);

#endif
