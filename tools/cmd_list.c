/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu list [TABLE]`: the registries, each from its own table: the reclaim
 * policies, the kernel releases and their rules, the workload types with
 * their keys, the device types and the scenario sections with theirs.
 */
#include <stdio.h>
#include <string.h>

#include "models/policy.h"
#include "models/policy/loader.h"
#include "scenarios/scenario.h"
#include "scenarios/workload.h"
#include "storage/blockdev.h"
#include "tools/cmd.h"
#include "tools/help.h"

/* One line per key: name, documentation, and what --scale does to it. */
static void list_keys(FILE *f, const struct key_desc *tab, const char *indent)
{
	for (const struct key_desc *k = tab; k && k->key; k++)
		if (k->type != KT_RETIRED)
			fprintf(f, "%s%-18s %s%s\n", indent, k->key, k->doc,
			k->scale == KEY_SCALED ? " [scaled]"
			: k->scale == KEY_SCALED_PAGES ? " [scaled, whole pages]"
			: k->scale == KEY_PERIOD ? " [a period: scaled]" : "");
}

static void list_policies(FILE *f, bool names)
{
	for (int i = 0; reclaim_policies[i]; i++)
		if (names)
			fprintf(f, "%s\n", reclaim_policies[i]->name);
		else {
			const char *releases;

			kernel_has_policy(&kernel_rules_table[KERNEL_DEFAULT], reclaim_policies[i]->name,
					  &releases);
			fprintf(f, "  %-14s %s [kernel %s]\n", reclaim_policies[i]->name,
				reclaim_policies[i]->desc, releases);
		}
}

/* The releases [machine] kernel takes, and the rules that differ between them. */
static void list_kernels(FILE *f, bool names)
{
	if (names) {
		for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
			fprintf(f, "%s\n", kernel_rules_table[v].name);
		return;
	}
	fprintf(f, "  [machine] kernel = ");
	for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
		fprintf(f, "%s%s", v ? " | " : "", kernel_rules_table[v].name);
	fprintf(f, " (default %s); rules, yes where a release has it:\n",
		kernel_rules_table[KERNEL_DEFAULT].name);
	fprintf(f, "    %-26s", "rule");
	for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
		fprintf(f, " %-4s", kernel_rules_table[v].name);
	fprintf(f, "  changed by\n");
	for (const struct kernel_rule_doc *d = kernel_rule_docs; d->key; d++) {
		fprintf(f, "    %-26s", d->key);
		for (int v = 0; v < NR_KERNEL_VERSIONS; v++)
			fprintf(f, " %-4s", kernel_rule(&kernel_rules_table[v], d) ? "yes" : "-");
		fprintf(f, "  %s\n      %s\n", d->since, d->what);
	}
	fprintf(f, "    policies, by the releases that had them:\n");
	for (int i = 0; reclaim_policies[i]; i++) {
		const char *releases;

		kernel_has_policy(&kernel_rules_table[KERNEL_DEFAULT], reclaim_policies[i]->name,
				  &releases);
		fprintf(f, "      %-14s %s\n", reclaim_policies[i]->name, releases);
	}
}

/* The workload types of scenarios/ (its table), each with its own keys after those of every type. */
static void list_workloads(FILE *f, bool names)
{
	if (!names) {
		fprintf(f, "  keys of every type:\n");
		list_keys(f, scn_workload_keys, "    ");
	}
	for (int t = 0; workload_types[t]; t++) {
		if (names) {
			fprintf(f, "%s\n", workload_types[t]->name);
			continue;
		}
		fprintf(f, "  %-18s %s\n", workload_types[t]->name, workload_types[t]->desc);
		list_keys(f, workload_types[t]->keys, "    ");
	}
}

/*
 * The scenario sections other than [workload.*], each with its keys, those
 * of the policies' knobs last ([mglru]); names: --set's KEY.
 */
static void list_sections(FILE *f, bool names)
{
	struct scn_section_doc docs[32];
	int nr = scn_section_docs(docs, 32);

	for (const struct scn_section_doc *sd = docs; sd < docs + nr; sd++) {
		if (!names) {
			fprintf(f, "  [%s] %s\n", sd->name, sd->desc);
			list_keys(f, sd->keys, "    ");
			continue;
		}
		for (const struct key_desc *k = sd->keys; k->key; k++)
			if (k->type != KT_RETIRED)
				fprintf(f, "%s%s%s\n", sd->set, *sd->set ? "." : "", k->key);
	}
}

/* The device models of storage/ (its table of types). */
static void list_devices(FILE *f, bool names)
{
	for (int t = 0; t < NR_BDEV_TYPES; t++)
		fprintf(f, "%s%s\n", names ? "" : "  ", bdev_type_name((enum bdev_type)t));
}

static const struct {
	const char *name, *title;
	void (*print)(FILE *f, bool names);
} lists[] = {
	{ "policies", "policies", list_policies },
	{ "kernels", "kernel releases", list_kernels },
	{ "workloads", "workload types", list_workloads },
	{ "devices", "device types", list_devices },
	{ "sections", "scenario sections ([workload.*]: above)", list_sections },
};

int cmd_list(int argc, char **argv)
{
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")))
		return help_command(stdout, "list"), 0;
	if (argc > 2)
		return cmd_bad_usage("list");
	for (size_t i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		if (argc == 2 && strcmp(argv[1], lists[i].name))
			continue;
		if (argc == 1)
			printf("%s:\n", lists[i].title);
		lists[i].print(stdout, argc == 2);
		if (argc == 2)
			return 0;
	}
	if (argc == 2) {
		fprintf(stderr, "mmemu: list: unknown table '%s' (policies, kernels, workloads, devices or "
			"sections)\n",
			argv[1]);
		return 2;
	}
	return 0;
}
