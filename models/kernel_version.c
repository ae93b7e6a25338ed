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
	},
	[KERNEL_7_2] = {
		.name = "7.2",
		.vma_has_recency = true,
		.lru_gen_refault_all = true,
		.lru_gen_recent_max_seq = true,
		.lru_gen_activate_in_fault = true,
		.zram_swap_bio = true,
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
