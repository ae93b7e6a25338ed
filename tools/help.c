/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>

#include "commit.h"	/* MMEMU_COMMIT, generated */
#include "scenarios/scenario.h"
#include "tools/help.h"

struct command_help {
	const char *name;	/* "run" */
	const char *summary;	/* one line for `mmemu --help` */
	const char *usage;	/* the synopsis, "usage: mmemu run ..." lines */
	const char *text;	/* what it does and its options */
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
		"'*' where Welch's t-test finds a change significant at 95%.\n"
		"\n"
		"  --policy a,b,...  policies, comma-separated (default: the scenario's, else\n"
		"                    classic; see mmemu list); one with a '/' or ending in .so\n"
		"                    is loaded from that file (see mmemu/policy.h)\n"
		"  --set KEY=VALUE   override a scenario key, e.g. --set memcg.app.memory.max=2G\n"
		"                    or --set vm.swappiness=100; sizes are written at full\n"
		"                    scale and shrink with --scale\n"
		"  --seed N          run seed (default 1)\n"
		"  --seeds A..B      several seeds (A..B or A,B,...): every policy under each\n"
		"  --scale F         shrink sizes and counts, 0 < F <= 1 or 1/N (default: the\n"
		"                    scenario's scale)\n"
		"  --format F        text (default), json or csv\n"
		"  --all             text: every row, also those that do not change\n"
		"  -j N              runs in parallel, 1 to 64 (default 2)\n"
		"  --dump lru_gen    each lruvec as /sys/kernel/debug/lru_gen shows it, at the end\n"
		"  --dump-every T    and every T of simulated time\n"
		"  --sample T        period of the time series kept for plot (default 0.1s; 0: none)\n"
		"  --out FILE        also save every run to FILE (protobuf, for report and plot)\n"
		"  --live [ADDR:]PORT  serve the page of mmemu view over HTTP while the runs go,\n"
		"                    updated as their samples come (server-sent events), then\n"
		"                    print the table and keep serving the final state until\n"
		"                    SIGINT or SIGTERM (exit 0). ADDR defaults to 127.0.0.1\n"
		"                    (0.0.0.0:8080, [::1]:8080); PORT 0 takes a free port; the\n"
		"                    address is printed on stderr. With --sample 0 the page\n"
		"                    still samples every 0.1s, the results keep none; the\n"
		"                    results are the same with or without --live\n"
		"  --live-wait       start the runs when a page has connected\n",
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
		"another scenario or scale are refused unless --force.\n"
		"\n"
		"  --format F        text (default), json or csv\n"
		"  --all             text: every row, also those that do not change\n"
		"  --summary         the mean over seeds of the runs that differ only in seed,\n"
		"                    with Welch's t-test against the first group and 95%\n"
		"                    Student-t confidence intervals (json, csv)\n"
		"  --force           put results of different scenarios or scales side by side\n",
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
		"sweep exits 1.\n"
		"\n"
		"  --policy a,b,...  policies (default: the scenario's, else classic)\n"
		"  --set KEY=V1,V2   a scenario key and its values (full-scale sizes)\n"
		"  --seeds A..B      seeds (default 1)\n"
		"  --scale F         shrink sizes and counts, 0 < F <= 1 or 1/N\n"
		"  -j N              runs in parallel, 1 to 256 (default: the online CPUs)\n"
		"  --timeout S       seconds a run may take (default 600)\n"
		"  --format F        text (default), json or csv\n"
		"  --all             text: every row, also those that do not change\n"
		"  --out FILE        save every run, ordered by policy, values, seed\n"
		"  --mpi             started as MPI ranks (mpirun -n N, srun -n N): rank 0 hands\n"
		"                    the runs out to every rank, -j at a time on each (default\n"
		"                    1), and prints and saves what a local sweep would\n"
		"  --rank-timeout S  a rank silent this long (default 30) is lost; only its\n"
		"                    runs in flight fail\n",
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
		"(mmemu sweep --set mglru.min_ttl_ms=... measures it).\n"
		"\n"
		"  --policy P        the MGLRU policy\n"
		"  --seeds A..B      seeds (default 1; '*' needs two or more)\n"
		"  --scale F         shrink sizes and counts, 0 < F <= 1 or 1/N\n"
		"  -j N              runs in parallel, 1 to 256 (default: the online CPUs)\n"
		"  --timeout S       seconds a run may take (default 600)\n"
		"  --format F        text (default), json or csv (every row, as mmemu sweep)\n"
		"  --out FILE        save every run, ordered by combination, then seed\n"
		"  --mpi             started as MPI ranks, as mmemu sweep --mpi\n"
		"  --rank-timeout S  a rank silent this long (default 30) is lost\n",
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
		"did, 2 on bad usage.\n"
		"\n"
		"  --policy a,b,...  the policies drawn from (default: every built-in one);\n"
		"                    a ./x.so is a plug-in, as run --policy takes it\n"
		"  --seed N          the cases' seed (default 1)\n"
		"  --time S          start no case after S seconds of host time (default 60\n"
		"                    unless --runs is given)\n"
		"  --runs N          at most N cases\n"
		"  --out DIR         where a failing case is saved (default fuzz-findings)\n"
		"  -j N              cases at once, 1 to 64 (default 1)\n"
		"  --case-timeout S  a case running longer has hung (default 120)\n"
		"  --shrink-time S   host seconds the shrinking may take (default 120)\n",
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
		"run --live.\n"
		"\n"
		"  -o, --output OUT  the page to write\n"
		"  --force           mix scenarios or scales anyway\n",
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
		"or scales are refused, as report and view refuse them.\n"
		"\n"
		"  --what W          gens, memory, throughput, refaults, swap, pressure or\n"
		"                    pgscan-rate\n"
		"  --memcg NAMES     only these memcgs (app or /app, comma separated; gens,\n"
		"                    memory and pressure)\n"
		"  --node N          only the lruvecs of node N (gens)\n"
		"  --from T, --to T  only the samples from T to T of simulated time (as\n"
		"                    run --sample: 500ms, 2s); rates start at the first\n"
		"                    sample from T\n"
		"  -o, --out FILE    the image, .svg (default <what>.svg) or .png\n"
		"  --script FILE     also write the gnuplot script\n"
		"  --force           mix scenarios or scales anyway\n",
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
		"readahead's: read-around read pages before they were requested.\n"
		"\n"
		"  --policy POLICY   reclaim policy, a name or ./x.so (default classic); a list\n"
		"                    with --trace\n"
		"  --trace FILE      a trace: libCacheSim oracleGeneral, lcs, csv or txt, twr,\n"
		"                    vscsi, plain or .zst\n"
		"  --trace-format F  auto (default: sniffed; lcs by its magic), oracle, csv,\n"
		"                    txt, lcs, twr, twrNS, oracleSysTwrNS, oracleSimTwrNS or\n"
		"                    vscsi, as libCacheSim lays them out (twr and vscsi have\n"
		"                    no header to sniff: name them)\n"
		"  -t, --trace-params P  csv columns as cachesim's -t: time-col=1,obj-id-col=2,\n"
		"                    obj-size-col=3,op-col=4,delimiter=,,has-header=true;\n"
		"                    obj-id-is-num=false: obj_id is a name (csv, txt), each\n"
		"                    distinct one numbered as first seen\n"
		"  --cache SIZE,...  memory.max per run: a size (1G) or a fraction of the\n"
		"                    working set (0.1, 10%); default a quarter of it\n"
		"  --no-timing       miss ratios only: no IO waits or CPU costs (faster)\n"
		"  --no-readahead    the device's read_ahead_kb = 0: a miss reads only its\n"
		"                    request's pages (no readahead nor mmap read-around), so\n"
		"                    that the caches alone are compared\n",
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
		"fails, 2 when the policy does not load.\n"
		"\n"
		"  --scale F         shrink the scenarios, 0 < F <= 1 or 1/N (default 1/32)\n"
		"  --timeout S       host seconds a run may take (default 300)\n",
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

/*
 * One command's text: paragraphs as they are, option lines ("  --x V   what",
 * continued further indented) as scdoc's indented term lists.
 */
static void scd_command(FILE *f, const struct command_help *c)
{
	const char *p = c->text;

	fprintf(f, "## mmemu %s\n\n```\n%s```\n\n", c->name, c->usage);
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);

		if (n > 2 && p[0] == ' ' && p[1] == ' ' && p[2] == '-') {
			/* the option and its value up to a run of two spaces */
			const char *desc = strstr(p + 2, "  ");
			size_t on = desc && desc < p + n ? (size_t)(desc - p - 2) : n - 2;

			fputc('*', f);
			scd_text(f, p + 2, on);
			fprintf(f, "*\n\t");
			if (desc && desc < p + n) {
				while (*desc == ' ')
					desc++;
				scd_text(f, desc, (size_t)(p + n - desc));
			}
			fputc('\n', f);
		} else if (n > 2 && p[0] == ' ' && p[1] == ' ') {
			/* a continued description */
			const char *q = p;

			while (*q == ' ')
				q++;
			fputc('\t', f);
			scd_text(f, q, (size_t)(p + n - q));
			fputc('\n', f);
		} else {
			scd_text(f, p, n);
			fputc('\n', f);
		}
		p += n + (nl ? 1 : 0);
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
