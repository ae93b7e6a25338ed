/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>

#include "commit.h"	/* MMEMU_COMMIT, generated */
#include "scenarios/scenario.h"
#include "tools/help.h"
#include "tools/options.h"

struct command_help {
	const char *name;	/* "run" */
	const char *summary;	/* one line for `mmemu --help` */
	const char *usage;	/* the synopsis, "usage: mmemu run ..." lines */
	const char *text;	/* what it does; its options come from tools/options.c */
};

static const struct command_help commands[] = {
	{
		.name = "run",
		.summary = "emulate a scenario once per policy and print the results side by side",
		.usage =
		"usage: mmemu run SCENARIO [--policy a,b,...] [--set section.key=value]...\n"
		"                 [--seed N | --seeds A..B] [--scale F] [--format text|json|csv]\n"
		"                 [--all] [-j N] [--dump lru_gen [--dump-every T]] [--sample T]\n"
		"                 [--out FILE] [--live [ADDR:]PORT [--live-wait]]\n",
		.text =
		"Emulates SCENARIO once per policy, each run in its own process, and prints\n"
		"the results side by side: per metric each policy's value and its change\n"
		"against the first policy, the headline first (each workload's throughput\n"
		"and latency, pgpgin/pgpgout, workingset refaults, pgscan/pgsteal, OOM\n"
		"kills), then the rest. With several seeds, the mean over seeds per policy,\n"
		"'*' where Welch's t-test finds a change significant at 95%.\n",
	},
	{
		.name = "report",
		.summary = "print results saved with run --out or sweep --out",
		.usage =
		"usage: mmemu report FILE... [--format text|json|csv] [--all] [--summary]\n"
		"                    [--force]\n",
		.text =
		"Prints saved results byte for byte as run printed them. With several files,\n"
		"their runs side by side under the first file's scenario and scale; files of\n"
		"another scenario or scale are refused unless --force.\n",
	},
	{
		.name = "sweep",
		.summary = "every policy x --set value x seed in parallel; the mean over seeds",
		.usage =
		"usage: mmemu sweep SCENARIO [--policy a,b,...] [--set section.key=v1,v2,...]...\n"
		"                   [--seeds A..B|A,B,...] [--scale F] [-j N] [--timeout SECONDS]\n"
		"                   [--format text|json|csv] [--all] [--out FILE]\n"
		"                   [--mpi [--rank-timeout SECONDS]]\n",
		.text =
		"Runs every policy x --set value x seed as its own process, -j at a time, and\n"
		"prints the mean over seeds per policy and --set values, '*' where Welch's\n"
		"t-test finds a change from the first group significant at 95%. A run that\n"
		"fails or times out is reported with its parameters; the others go on and the\n"
		"sweep exits 1.\n",
	},
	{
		.name = "ablate",
		.summary = "an MGLRU policy with each mechanism removed in turn, against the kernel",
		.usage =
		"usage: mmemu ablate SCENARIO --policy P [--seeds A..B|A,B,...] [--scale F]\n"
		"                    [-j N] [--timeout SECONDS] [--format text|json|csv]\n"
		"                    [--out FILE] [--mpi [--rank-timeout SECONDS]]\n",
		.text =
		"Runs the MGLRU policy P (mglru-old, mglru-budget or mglru-7.2) as the kernel\n"
		"has it, then with each mechanism removed in turn by its [mglru] switch (walk:\n"
		"the aging's page-table walk; look_around; bloom_filter; tiers: the PID\n"
		"controller's tier protection; memcg_lru: root reclaim's memcg LRU), then with\n"
		"all removed, over the seeds, as mmemu sweep does (its own process per run, -j\n"
		"at a time, or --mpi). Prints the headline rows (throughput, latency, I/O,\n"
		"refaults, pgscan/pgsteal, OOM kills): the mean over seeds with the mechanism\n"
		"removed and its change from the kernel's, '*' where Welch's t-test finds it\n"
		"significant at 95%. min_ttl_ms is off by default and is not part of the list\n"
		"(mmemu sweep --set mglru.min_ttl_ms=... measures it).\n",
	},
	{
		.name = "fuzz",
		.summary = "random machines, memcgs, workloads and policies under the invariant checks",
		.usage =
		"usage: mmemu fuzz [--policy a,b,...] [--seed N] [--time SECONDS] [--runs N]\n"
		"                  [--out DIR] [-j N] [--case-timeout SECONDS]\n"
		"                  [--shrink-time SECONDS]\n",
		.text =
		"Draws cases from a PRNG seeded by --seed: a machine (1 to 4 nodes, their\n"
		"memory and cores, 1 to 3 devices of the device types, no swap, zram or a\n"
		"swap area on a device, vm.* knobs, the [mglru] switches), a memcg tree\n"
		"(memory.max, high, low, min, swap.max, swappiness, oom.group) and a mix of\n"
		"the workload types of mmemu list workloads with random keys, under one of\n"
		"the policies. Each case is a scenario file run as mmemu run runs one, in\n"
		"its own process, with the model's invariants checked at the engine's\n"
		"quiescent points and at the end (the checks of check-policy). A case fails\n"
		"when an invariant breaks, its process dies of a signal or without a\n"
		"result, it runs past --case-timeout, the scenario is refused, or the run\n"
		"ends with an error. The first failing case is shrunk (workloads, memcgs,\n"
		"nodes, devices and keys dropped, numbers halved, each change kept while\n"
		"the case still fails the same way) and saved under --out with the case as\n"
		"drawn; the mmemu run command that fails on it is printed. The same seed\n"
		"draws the same cases in the same order whatever -j; the trace type (it\n"
		"needs a trace file) is not drawn. Exit 0 when no case failed, 1 when one\n"
		"did, 2 on bad usage.\n",
	},
	{
		.name = "view",
		.summary = "write saved results as one HTML page to watch reclaim in a browser",
		.usage =
		"usage: mmemu view FILE.pb... -o OUT.html [--force]\n",
		.text =
		"Writes the runs saved with run --out (several files: their runs side by\n"
		"side) as one self-contained HTML page, Chart.js embedded, that opens\n"
		"without network access: an overview of the memcgs sortable by pressure\n"
		"(memory.stat pgscan at the end over memory.peak in pages; for files of\n"
		"an older mmemu, peak memory.current over memory.max), limit use, pgscan\n"
		"rate and OOM kills and, for the one picked, a column per run on shared\n"
		"axes: per lruvec the MGLRU generations as stacked anon/file bands with\n"
		"min_seq and max_seq, aging (max_seq++) and eviction (min_seq++) marked,\n"
		"or classic's four lists; memory.current against memory.max and\n"
		"memory.high; the memcg's pgscan, pgsteal and refaults per second; OOM\n"
		"kills in its subtree as markers; its memory.pressure some and full avg10;\n"
		"swap and zram use. A time cursor\n"
		"(slider, hovering over or clicking a panel) shows the lru_gen dump of\n"
		"the memcg's lruvecs at that instant (seq, age in ms, anon and file\n"
		"pages, as debugfs), from the samples. Files of different scenarios,\n"
		"scenario texts or scales are refused. The page is also served while the runs go: mmemu\n"
		"run --live.\n",
	},
	{
		.name = "plot",
		.summary = "draw the time series of saved results with gnuplot",
		.usage =
		"usage: mmemu plot FILE... [--what gens|memory|throughput|refaults|swap|pressure|\n"
		"                  pgscan-rate] [--memcg NAME[,NAME]] [--node N] [--from T] [--to T]\n"
		"                  [-o OUT.svg|OUT.png]\n"
		"                  [--script FILE] [--force]\n",
		.text =
		"Draws the samples saved with run --out as a grid of panels with shared\n"
		"axes, one line per policy: gens (the default) a panel per lruvec and\n"
		"policy, file pages above the zero line and anon below, MGLRU generations\n"
		"as bands by age (max_seq, max_seq-1, ...; the colours of mmemu view)\n"
		"with marks where aging (max_seq++) or eviction (min_seq++) happened,\n"
		"classic its inactive and active lists; memory\n"
		"memory.current per memcg with memory.max and memory.high; throughput\n"
		"ops/s per workload; refaults workingset refaults/s; swap swap slots in\n"
		"use and zram's stored pages and pool memory; pressure memory.pressure\n"
		"some (solid) and full (dashed) avg10 per memcg, / the machine's;\n"
		"pgscan-rate the machine's pgscan and pgsteal per second (kswapd and\n"
		"direct together). Past 8 memcgs the memcgs under the most reclaim\n"
		"pressure, pgscan + workingset_refault_anon + workingset_refault_file at\n"
		"the end of the runs, get a panel and the others are summed in one\n"
		"(pressure: the 8 of highest some avg10, the others left out; gens, past\n"
		"8 lruvecs per policy: each node's memcgs summed by age first, then the\n"
		"lruvecs of the memcgs under the most pressure). The root memcg, whose\n"
		"memory.current is every memcg's, is drawn only when asked for. Prints the\n"
		"name of each file it wrote. Files of different scenarios, scenario texts\n"
		"or scales are refused, as report and view refuse them.\n",
	},
	{
		.name = "list",
		.summary = "the registered policies, kernel releases, workload types, device types and sections",
		.usage = "usage: mmemu list [policies|kernels|workloads|devices|sections]\n",
		.text =
		"Lists the reclaim policies (with the releases that had each), the kernel\n"
		"releases [machine] kernel takes with the rules that differ between them,\n"
		"the workload types with the scenario keys each\n"
		"takes (and what --scale does to them), the device types, and the other\n"
		"scenario sections with their keys under the kernel's names; with a table's\n"
		"name, only that table's names, one per line (sections: as --set takes them).\n",
	},
	{
		.name = "bench",
		.summary = "hit-path and fault speed, bytes per folio; trace replay",
		.usage =
		"usage: mmemu bench [--policy POLICY]\n"
		"       mmemu bench --trace FILE [--trace-format FORMAT]\n"
		"                   [-t|--trace-params PARAMS] [--policy A,B,...]\n"
		"                   [--cache SIZE,...] [--no-timing] [--no-readahead]\n",
		.text =
		"Measures simulated page accesses per host second on the hit path, page\n"
		"faults per host second and bytes per folio; with --trace, replays a\n"
		"page-access trace through one memcg under each policy and cache size and\n"
		"prints one line per (policy, size) like libCacheSim's cachesim. A miss\n"
		"ratio below the compulsory one (distinct objects / requests) is said to be\n"
		"readahead's: read-around read pages before they were requested.\n",
	},
	{
		.name = "check-policy",
		.summary = "a policy (./x.so or built in) under the model's invariant checks",
		.usage = "usage: mmemu check-policy POLICY [--scale F] [--timeout S] [SCENARIO...]\n",
		.text =
		"Loads POLICY (a built-in name, or a shared object built against\n"
		"mmemu/policy.h) and runs each SCENARIO (default: quickstart, swap-zram and\n"
		"proactive-reclaim from mmemu's scenarios) twice, each run in its own\n"
		"process, with the model's invariants checked during the run and at its end.\n"
		"Prints pass or FAIL per check: every folio on exactly one list, counts\n"
		"match, no folio lost across reclaim/refault, reclaims, deterministic (the\n"
		"two runs identical). A run that does not end within --timeout (a\n"
		"shrink_lruvec that loops, or one that reports pages it did not free) is\n"
		"killed and fails \"runs to the end\". Exit 0 when all pass, 1 when one\n"
		"fails, 2 when the policy does not load.\n",
	},
	{
		.name = "batch",
		.summary = "a plan's runs, -j at a time, each result as run --format json",
		.usage = "usage: mmemu batch PLAN [-j N] [--timeout S]\n",
		.text =
		"Runs each line of PLAN in its own process, -j at a time. A line is the file\n"
		"the run's result goes to, then mmemu run's arguments (the scenario and its\n"
		"options, one policy, one seed), separated by blanks, \"a word\" with blanks\n"
		"in double quotes; blank lines and lines starting with '#' are skipped. The\n"
		"file gets what mmemu run ARGS --format json prints. The options batch sets\n"
		"(--format, --all, -j), --seeds, a policy list, --out and --live are\n"
		"refused, and so is a file two lines name: the plan is checked before any\n"
		"run starts, a bad line exits 2 naming the plan, the line and the word. As\n"
		"each run ends, a line goes to stdout: the run's index in the plan (from 0),\n"
		"ok, failed, timeout or killed, the host seconds it took and its error,\n"
		"tab-separated. A run that fails does not stop the others; exit 1 when one\n"
		"failed. SIGINT, SIGTERM and SIGHUP kill every run.\n",
	},
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void help_global(FILE *f)
{
	fprintf(f, "usage: mmemu COMMAND [OPTIONS]\n"
		   "       mmemu COMMAND --help\n"
		   "       mmemu --version\n"
		   "\n"
		   "A discrete-event emulator of Linux memory management under pressure.\n"
		   "\n"
		   "Commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "%s", commands[i].usage);
}

int help_command(FILE *f, const char *cmd)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, cmd)) {
			fprintf(f, "%s\n%s", commands[i].usage, commands[i].text);
			cli_options_print(f, cli_cmd_bit(cmd));
			return 0;
		}
	return -1;
}

/* Text for scdoc: its markup characters escaped. */
static void scd_text(FILE *f, const char *s, size_t n)
{
	for (size_t i = 0; i < n && s[i]; i++) {
		if (s[i] == '*' || s[i] == '_' || s[i] == '\\')
			fputc('\\', f);
		fputc(s[i], f);
	}
}

static void scd_text_cb(FILE *f, const char *s, size_t n)
{
	scd_text(f, s, n);
}

/* One command's text, then its options as scdoc's indented term lists. */
static void scd_command(FILE *f, const struct command_help *c)
{
	const char *p = c->text;
	unsigned cmd = cli_cmd_bit(c->name);

	fprintf(f, "## mmemu %s\n\n```\n%s```\n\n", c->name, c->usage);
	while (*p) {
		size_t n = strcspn(p, "\n");

		scd_text(f, p, n);
		fputc('\n', f);
		p += n + (p[n] == '\n');
	}
	if (cli_options_shown(cmd)) {
		fputc('\n', f);
		cli_options_scdoc(f, cmd, scd_text_cb);
	}
	fputc('\n', f);
}

/* The scenario sections and their keys, from their key tables (a policy's from its knobs). */
static void scd_sections(FILE *f)
{
	struct scn_section_doc docs[32];
	int nr = scn_section_docs(docs, 32);

	fprintf(f, "# SCENARIO SECTIONS\n\nThe keys of each section as a scenario file writes them "
		   "(*mmemu list sections*; a [workload.NAME] takes those of *mmemu list "
		   "workloads*).\n\n");
	for (int i = 0; i < nr; i++) {
		fputs("## [", f);
		scd_text(f, docs[i].name, strlen(docs[i].name));
		fputs("]\n\n", f);
		scd_text(f, docs[i].desc, strlen(docs[i].desc));
		fputs("\n\n", f);
		for (const struct key_desc *k = docs[i].keys; k->key; k++) {
			if (k->type == KT_RETIRED)
				continue;
			fputc('*', f);
			scd_text(f, k->key, strlen(k->key));
			fputs("*\n\t", f);
			scd_text(f, k->doc, strlen(k->doc));
			fputs("\n\n", f);
		}
	}
}

void help_scdoc(FILE *f)
{
	fprintf(f, "mmemu(1)\n\n# NAME\n\nmmemu - emulate Linux memory management under pressure\n\n"
		   "# SYNOPSIS\n\n*mmemu* _COMMAND_ [_OPTIONS_]\n\n*mmemu* _COMMAND_ *--help*\n\n"
		   "*mmemu* *--version*\n\n# DESCRIPTION\n\n"
		   "A discrete-event emulator of Linux memory management under pressure: a NUMA\n"
		   "machine with storage, memory cgroups, and reclaim policies that compete on the\n"
		   "same workload; results carry the kernel's counter names.\n\n# COMMANDS\n\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		scd_command(f, &commands[i]);
	scd_sections(f);
	fprintf(f, "# EXIT STATUS\n\n0 on success; 1 when a run failed or output could not be written;\n"
		   "2 on bad input (a message names the file, line and key).\n\n"
		   "# VERSION\n\nmmemu %s\n", help_version_string());
}

const char *help_version_string(void)
{
	static char v[160];

	if (!v[0]) {
		if (strcmp(MMEMU_COMMIT, "unknown"))
			snprintf(v, sizeof(v), "%s, git %s", MMEMU_VERSION, MMEMU_COMMIT);
		else
			snprintf(v, sizeof(v), "%s", MMEMU_VERSION);
	}
	return v;
}

void help_version(FILE *f)
{
	fprintf(f, "mmemu %s\n"
		   "License GPL-2.0-only.\n", help_version_string());
}
