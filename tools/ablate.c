/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu ablate SCENARIO --policy P: the MGLRU policy P as the kernel has it,
 * with each mechanism removed in turn ([mglru] walk, look_around,
 * bloom_filter, tiers, memcg_lru = 0) and with all of them removed, over
 * the seeds: a sweep (tools/sweep.c, its runner, --mpi and Welch's test)
 * over that list of combinations, printed as the headline rows with a
 * column per mechanism removed and its change from the kernel.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "models/policy.h"
#include "models/policy/loader.h"
#include "tools/ablate.h"
#include "tools/child.h"
#include "tools/help.h"
#include "tools/sweep.h"

static const char *const none[] = { NULL };
static const char *const walk[] = { "mglru.walk=0", NULL };
static const char *const look_around[] = { "mglru.look_around=0", NULL };
static const char *const bloom_filter[] = { "mglru.bloom_filter=0", NULL };
static const char *const tiers[] = { "mglru.tiers=0", NULL };
static const char *const memcg_lru[] = { "mglru.memcg_lru=0", NULL };
static const char *const all[] = {
	"mglru.walk=0", "mglru.look_around=0", "mglru.bloom_filter=0", "mglru.tiers=0",
	"mglru.memcg_lru=0", NULL,
};

static const char *const *const sets[] = {
	none, walk, look_around, bloom_filter, tiers, memcg_lru, all,
};
static const char *const names[] = {
	"none", "walk", "look_around", "bloom_filter", "tiers", "memcg_lru", "all",
};
_Static_assert(sizeof(sets) / sizeof(*sets) == sizeof(names) / sizeof(*names),
	       "a name per combination");

/* Whether p's knobs are [mglru] and have a key for every switch of `all`. */
static bool takes_switches(const struct reclaim_policy *p)
{
	if (!p->knobs || strcmp(p->knobs->section, "mglru"))
		return false;
	for (const char *const *set = all; *set; set++) {
		const char *key = *set + strlen("mglru."), *eq = strchr(key, '=');
		const struct key_desc *k = p->knobs->keys;

		while (k->key && (strlen(k->key) != (size_t)(eq - key) ||
				  strncmp(k->key, key, (size_t)(eq - key))))
			k++;
		if (!k->key)
			return false;
	}
	return true;
}

static int die(const char *msg)
{
	fprintf(stderr, "mmemu: ablate: %s\n", msg);
	return 2;
}

int cmd_ablate(int argc, char **argv)
{
	static const struct sweep_variants v = {
		.cmd = "ablate",
		.sets = sets,
		.names = names,
		.label = "removed",
		.nr = sizeof(sets) / sizeof(*sets),
	};
	const char *policy = NULL;
	const struct reclaim_policy *p;
	char msg[400], err[512];

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
			return sweep_main(argc, argv, &v);
		if (!strcmp(argv[i], "--set") || !strncmp(argv[i], "--set=", 6))
			return die("--set: the combinations are ablate's own (use mmemu sweep)");
		if (!strcmp(argv[i], "--policy") && i + 1 < argc)
			policy = argv[++i];
		else if (!strncmp(argv[i], "--policy=", 9))
			policy = argv[i] + 9;
	}
	if (!policy) {
		help_command(stderr, "ablate");
		return 2;
	}
	if (strchr(policy, ',')) {
		snprintf(err, sizeof(err), "--policy '%.200s': one policy", policy);
		return die(err);
	}
	p = child_policy_get(policy, msg, sizeof(msg));
	if (!p) {
		snprintf(err, sizeof(err), "--policy: %s", msg);
		return die(err);
	}
	/* the policies whose knobs are [mglru], with every switch ablate sets */
	if (!takes_switches(p)) {
		snprintf(err, sizeof(err), "--policy '%.200s': not an MGLRU policy (mglru-old, "
			 "mglru-budget or mglru-7.2): it has no [mglru] mechanisms to remove",
			 policy);
		return die(err);
	}
	return sweep_main(argc, argv, &v);
}
