/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The releases mmemu emulates and the rules that changed between them.
 * 6.1 was read in Debian's linux-source-6.1 (6.1.192, with stable fixes);
 * the later changes from their commits and patch mails.
 */
#include <string.h>

#include "models/kernel_version.h"

const struct kernel_rules kernel_rules_table[NR_KERNEL_VERSIONS] = {
	[KERNEL_6_1] = {
		.name = "6.1",
	},
	[KERNEL_6_6] = {
		.name = "6.6",
		.vma_has_recency = true,
		.lru_gen_refault_all = true,
		.zram_swap_bio = true,
	},
	[KERNEL_6_12] = {
		.name = "6.12",
		.vma_has_recency = true,
		.lru_gen_refault_all = true,
		.zram_swap_bio = true,
		.zswap_shrinker = true,
		.zswap_second_chance = true,
		.zswap_exclusive_loads = true,
	},
	[KERNEL_7_2] = {
		.name = "7.2",
		.vma_has_recency = true,
		.lru_gen_refault_all = true,
		.lru_gen_recent_max_seq = true,
		.lru_gen_activate_in_fault = true,
		.zram_swap_bio = true,
		.zswap_shrinker = true,
		.zswap_second_chance = true,
		.zswap_exclusive_loads = true,
		.zswap_incompressible_as_is = true,
	},
};

#define RULE(k, f, w, s) { k, offsetof(struct kernel_rules, f), w, s }

const struct kernel_rule_doc kernel_rule_docs[] = {
	RULE("vma_has_recency", vma_has_recency,
	     "rmap ignores MADV_RANDOM mappings' young PTEs too (before: they counted)",
	     "6.3, 8788f6781486 mm: add vma_has_recency()"),
	RULE("lru_gen_refault_all", lru_gen_refault_all,
	     "MGLRU counts every refault, activate on recent ones (before: sort_folio's)",
	     "6.5, Multi-gen LRU: fix workingset accounting"),
	RULE("lru_gen_recent_max_seq", lru_gen_recent_max_seq,
	     "refault recent within MAX_NR_GENS of max_seq (before: its gen is min_seq)",
	     "6.14, mm/mglru: rework refault detection"),
	RULE("lru_gen_activate_in_fault", lru_gen_activate_in_fault,
	     "activate in an LRU fault only, restore iff workingset (before: any recent)",
	     "6.14, 4d5d14a01e2c rework workingset protection"),
	RULE("zram_swap_bio", zram_swap_bio,
	     "zram swap I/O is bios, counted in pgpgin/pgpgout (before: ->rw_page, not)",
	     "6.4, block: remove ->rw_page"),
	RULE("zswap_shrinker", zswap_shrinker,
	     "zswap's shrinker (shrinker_enabled); zswap.max writes back first (before: none)",
	     "6.8, b5ba474f3f51 zswap: shrink zswap pool based on memory pressure"),
	RULE("zswap_second_chance", zswap_second_chance,
	     "zswap writeback skips a referenced entry once (before: the LRU's oldest)",
	     "6.12, mm: zswap: implement a second chance algorithm for dynamic zswap shrinker"),
	RULE("zswap_exclusive_loads", zswap_exclusive_loads,
	     "a zswap load into the swap cache frees the entry (before: kept, moved to LRU head)",
	     "6.9, mm/zswap: remove the exclusive_loads knob (6.6's default was off)"),
	RULE("zswap_incompressible_as_is", zswap_incompressible_as_is,
	     "zswap keeps a page that does not compress as it is (before: rejected)",
	     "6.18, dca4437a5861 mm/zswap: store <PAGE_SIZE compression failed page as-is"),
	{ 0 }
};

const struct kernel_rules *kernel_rules_find(const char *name)
{
	for (int i = 0; i < NR_KERNEL_VERSIONS; i++)
		if (!strcmp(kernel_rules_table[i].name, name))
			return &kernel_rules_table[i];
	return NULL;
}

/* The releases that had each built-in policy, as bits of enum kernel_version. */
static const struct {
	const char *policy;
	unsigned int releases;
	const char *text;
} policy_releases[] = {
	{ "classic", (1U << NR_KERNEL_VERSIONS) - 1, "6.1, 6.6, 6.12, 7.2" },
	/* MGLRU from 6.1 until the 2026 series replaced its reclaim loop in 7.2 */
	{ "mglru-old", (1U << KERNEL_6_1) | (1U << KERNEL_6_6) | (1U << KERNEL_6_12),
	  "6.1, 6.6, 6.12 (6.1 to 7.1)" },
	/* the series (Kairui Song, 7.2) without Barry Song's 6cbdd9726fb5 of the same window */
	{ "mglru-budget", 1U << KERNEL_7_2, "7.2 (less 6cbdd9726fb5)" },
	{ "mglru-7.2", 1U << KERNEL_7_2, "7.2" },
};

bool kernel_has_policy(const struct kernel_rules *k, const char *policy, const char **releases)
{
	int v = (int)(k - kernel_rules_table);

	for (size_t i = 0; i < sizeof(policy_releases) / sizeof(policy_releases[0]); i++) {
		if (strcmp(policy_releases[i].policy, policy))
			continue;
		if (releases)
			*releases = policy_releases[i].text;
		return policy_releases[i].releases & (1U << v);
	}
	if (releases)
		*releases = "any";
	return true;
}
