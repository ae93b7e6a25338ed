/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The option table (tools/options.h) and what is made from it: each
 * command's getopt_long table, and the option lines of its --help and of
 * mmemu(1).
 *
 * A command's --help lists its shown rows in table order, so rows that
 * several commands share sit where every one of them has them: run's
 * first, then sweep's and ablate's, then those of run, report and sweep,
 * then each command's own.
 */
#include <getopt.h>
#include <string.h>

#include "tools/options.h"

#define RUN_REPORT_SWEEP (CMD_RUN | CMD_REPORT | CMD_SWEEP)
#define SWEEP_ABLATE (CMD_SWEEP | CMD_ABLATE)
#define EVERY_CMD (CMD_RUN | CMD_REPORT | CMD_SWEEP | CMD_ABLATE | CMD_FUZZ | CMD_VIEW | \
		   CMD_PLOT | CMD_LIST | CMD_BENCH | CMD_CHECK_POLICY | CMD_BATCH)

const struct cli_option cli_options[] = {
	{ "help", 'h', false, OPT_HELP, EVERY_CMD, NULL, NULL },

	/* run */
	{ "policy", 0, true, OPT_POLICY, CMD_RUN, "--policy a,b,...",
	  "policies, comma-separated (default: the scenario's, else\n"
	  "classic; see mmemu list); one with a '/' or ending in .so\n"
	  "is loaded from that file (see mmemu/policy.h)" },
	{ "set", 0, true, OPT_SET, CMD_RUN, "--set KEY=VALUE",
	  "override a scenario key, e.g. --set memcg.app.memory.max=2G\n"
	  "or --set vm.swappiness=100; sizes are written at full\n"
	  "scale and shrink with --scale" },
	{ "seed", 0, true, OPT_SEED, CMD_RUN, "--seed N", "run seed (default 1)" },
	{ "seeds", 0, true, OPT_SEEDS, CMD_RUN, "--seeds A..B",
	  "several seeds (A..B or A,B,...): every policy under each" },
	{ "scale", 0, true, OPT_SCALE, CMD_RUN, "--scale F",
	  "shrink sizes and counts, 0 < F <= 1 or 1/N (default: the\n"
	  "scenario's scale)" },

	/* sweep, and ablate (a sweep over its own combinations) */
	{ "policy", 0, true, OPT_POLICY, CMD_SWEEP, "--policy a,b,...",
	  "policies (default: the scenario's, else classic)" },
	{ "set", 0, true, OPT_SET, CMD_SWEEP, "--set KEY=V1,V2",
	  "a scenario key and its values (full-scale sizes)" },
	{ "set", 0, true, OPT_SET, CMD_ABLATE, NULL, NULL },	/* refused by name */
	{ "seeds", 0, true, OPT_SEEDS, CMD_SWEEP, "--seeds A..B", "seeds (default 1)" },
	{ "seed", 0, true, OPT_SEEDS, SWEEP_ABLATE, NULL, NULL },
	{ "policy", 0, true, OPT_POLICY, CMD_ABLATE, "--policy P", "the MGLRU policy" },
	{ "seeds", 0, true, OPT_SEEDS, CMD_ABLATE, "--seeds A..B",
	  "seeds (default 1; '*' needs two or more)" },
	{ "scale", 0, true, OPT_SCALE, SWEEP_ABLATE, "--scale F",
	  "shrink sizes and counts, 0 < F <= 1 or 1/N" },
	{ "jobs", 'j', true, OPT_JOBS, SWEEP_ABLATE, "-j N",
	  "runs in parallel, 1 to 256 (default: the online CPUs)" },
	{ "timeout", 0, true, OPT_TIMEOUT, SWEEP_ABLATE, "--timeout S",
	  "seconds a run may take (default 600)" },
	{ "format", 0, true, OPT_FORMAT, CMD_ABLATE, "--format F",
	  "text (default), json or csv (every row, as mmemu sweep)" },
	{ "out", 0, true, OPT_OUT, CMD_ABLATE, "--out FILE",
	  "save every run, ordered by combination, then seed" },
	{ "mpi", 0, false, OPT_MPI, CMD_ABLATE, "--mpi",
	  "started as MPI ranks, as mmemu sweep --mpi" },
	{ "rank-timeout", 0, true, OPT_RANK_TIMEOUT, CMD_ABLATE, "--rank-timeout S",
	  "a rank silent this long (default 30) is lost" },
	{ "all", 0, false, OPT_ALL, CMD_ABLATE, NULL, NULL },

	/* run, report and sweep */
	{ "format", 0, true, OPT_FORMAT, RUN_REPORT_SWEEP, "--format F",
	  "text (default), json or csv" },
	{ "all", 0, false, OPT_ALL, RUN_REPORT_SWEEP, "--all",
	  "text: every row, also those that do not change" },

	/* run */
	{ "jobs", 'j', true, OPT_JOBS, CMD_RUN, "-j N", "runs in parallel, 1 to 64 (default 2)" },
	{ "dump", 0, true, OPT_DUMP, CMD_RUN, "--dump lru_gen",
	  "each lruvec as /sys/kernel/debug/lru_gen shows it, at the end" },
	{ "dump-every", 0, true, OPT_DUMP_EVERY, CMD_RUN, "--dump-every T",
	  "and every T of simulated time" },
	{ "sample", 0, true, OPT_SAMPLE, CMD_RUN, "--sample T",
	  "period of the time series kept for plot (default 0.1s; 0: none)" },
	{ "out", 0, true, OPT_OUT, CMD_RUN, "--out FILE",
	  "also save every run to FILE (protobuf, for report and plot)" },
	{ "live", 0, true, OPT_LIVE, CMD_RUN, "--live [ADDR:]PORT",
	  "serve the page of mmemu view over HTTP while the runs go,\n"
	  "updated as their samples come (server-sent events), then\n"
	  "print the table and keep serving the final state until\n"
	  "SIGINT or SIGTERM (exit 0). ADDR defaults to 127.0.0.1\n"
	  "(0.0.0.0:8080, [::1]:8080); PORT 0 takes a free port; the\n"
	  "address is printed on stderr. With --sample 0 the page\n"
	  "still samples every 0.1s, the results keep none; the\n"
	  "results are the same with or without --live" },
	{ "live-wait", 0, false, OPT_LIVE_WAIT, CMD_RUN, "--live-wait",
	  "start the runs when a page has connected" },
	/* one run in this process, its outcome on stdout: a runner's child (run_cell()) */
	{ "cell", 0, false, OPT_CELL, CMD_RUN, NULL, NULL },
	/* the cell's scenario text on stdin, its progress slot (fd 3), its sample rows (fd 4) */
	{ "cell-stdin", 0, false, OPT_CELL_STDIN, CMD_RUN, NULL, NULL },
	{ "cell-progress", 0, true, OPT_CELL_PROGRESS, CMD_RUN, NULL, NULL },
	{ "cell-live", 0, false, OPT_CELL_LIVE, CMD_RUN, NULL, NULL },

	/* report */
	{ "summary", 0, false, OPT_SUMMARY, CMD_REPORT, "--summary",
	  "the mean over seeds of the runs that differ only in seed,\n"
	  "with Welch's t-test against the first group and 95%\n"
	  "Student-t confidence intervals (json, csv)" },
	{ "force", 0, false, OPT_FORCE, CMD_REPORT, "--force",
	  "put results of different scenarios or scales side by side" },

	/* sweep */
	{ "out", 0, true, OPT_OUT, CMD_SWEEP, "--out FILE",
	  "save every run, ordered by policy, values, seed" },
	{ "mpi", 0, false, OPT_MPI, CMD_SWEEP, "--mpi",
	  "started as MPI ranks (mpirun -n N, srun -n N): rank 0 hands\n"
	  "the runs out to every rank, -j at a time on each (default\n"
	  "1), and prints and saves what a local sweep would" },
	{ "rank-timeout", 0, true, OPT_RANK_TIMEOUT, CMD_SWEEP, "--rank-timeout S",
	  "a rank silent this long (default 30) is lost; only its\n"
	  "runs in flight fail" },

	/* fuzz */
	{ "policy", 0, true, OPT_POLICY, CMD_FUZZ, "--policy a,b,...",
	  "the policies drawn from (default: every built-in one);\n"
	  "a ./x.so is a plug-in, as run --policy takes it" },
	{ "seed", 0, true, OPT_SEED, CMD_FUZZ, "--seed N", "the cases' seed (default 1)" },
	{ "time", 0, true, OPT_TIME, CMD_FUZZ, "--time S",
	  "start no case after S seconds of host time (default 60\n"
	  "unless --runs is given)" },
	{ "runs", 0, true, OPT_RUNS, CMD_FUZZ, "--runs N", "at most N cases" },
	{ "out", 0, true, OPT_OUT, CMD_FUZZ, "--out DIR",
	  "where a failing case is saved (default fuzz-findings)" },
	{ "jobs", 'j', true, OPT_JOBS, CMD_FUZZ, "-j N", "cases at once, 1 to 64 (default 1)" },
	{ "case-timeout", 0, true, OPT_CASE_TIMEOUT, CMD_FUZZ, "--case-timeout S",
	  "a case running longer has hung (default 120)" },
	{ "shrink-time", 0, true, OPT_SHRINK_TIME, CMD_FUZZ, "--shrink-time S",
	  "host seconds the shrinking may take (default 120)" },
	/*
	 * one case in this process (its text on stdin, --policy and --seed its
	 * run's), its verdict on stdout: a runner's child (fuzz_cell())
	 */
	{ "cell", 0, false, OPT_CELL, CMD_FUZZ, NULL, NULL },

	/* view and plot */
	{ "output", 'o', true, OPT_OUT, CMD_VIEW, "-o, --output OUT", "the page to write" },
	{ "what", 'w', true, OPT_WHAT, CMD_PLOT, "--what W",
	  "gens, memory, throughput, refaults, swap, pressure or\n"
	  "pgscan-rate" },
	{ "memcg", 0, true, OPT_MEMCG, CMD_PLOT, "--memcg NAMES",
	  "only these memcgs (app or /app, comma separated; gens,\n"
	  "memory and pressure)" },
	{ "node", 0, true, OPT_NODE, CMD_PLOT, "--node N", "only the lruvecs of node N (gens)" },
	{ "from", 0, true, OPT_FROM, CMD_PLOT, "--from T, --to T",
	  "only the samples from T to T of simulated time (as\n"
	  "run --sample: 500ms, 2s); rates start at the first\n"
	  "sample from T" },
	{ "to", 0, true, OPT_TO, CMD_PLOT, NULL, NULL },	/* shown with --from */
	{ "out", 'o', true, OPT_OUT, CMD_PLOT, "-o, --out FILE",
	  "the image, .svg (default <what>.svg) or .png" },
	{ "script", 0, true, OPT_SCRIPT, CMD_PLOT, "--script FILE", "also write the gnuplot script" },
	{ "force", 0, false, OPT_FORCE, CMD_VIEW | CMD_PLOT, "--force",
	  "mix scenarios or scales anyway" },

	/* bench */
	{ "policy", 0, true, OPT_POLICY, CMD_BENCH, "--policy POLICY",
	  "reclaim policy, a name or ./x.so (default classic); a list\n"
	  "with --trace" },
	{ "trace", 0, true, OPT_TRACE, CMD_BENCH, "--trace FILE",
	  "a trace: libCacheSim oracleGeneral, lcs, csv or txt, twr,\n"
	  "vscsi, plain or .zst" },
	{ "trace-format", 0, true, OPT_TRACE_FORMAT, CMD_BENCH, "--trace-format F",
	  "auto (default: sniffed; lcs by its magic), oracle, csv,\n"
	  "txt, lcs, twr, twrNS, oracleSysTwrNS, oracleSimTwrNS or\n"
	  "vscsi, as libCacheSim lays them out (twr and vscsi have\n"
	  "no header to sniff: name them)" },
	{ "trace-params", 't', true, OPT_TRACE_PARAMS, CMD_BENCH, "-t, --trace-params P",
	  "csv columns as cachesim's -t: time-col=1,obj-id-col=2,\n"
	  "obj-size-col=3,op-col=4,delimiter=,,has-header=true;\n"
	  "obj-id-is-num=false: obj_id is a name (csv, txt), each\n"
	  "distinct one numbered as first seen" },
	{ "cache", 0, true, OPT_CACHE, CMD_BENCH, "--cache SIZE,...",
	  "memory.max per run: a size (1G) or a fraction of the\n"
	  "working set (0.1, 10%); default a quarter of it" },
	{ "no-timing", 0, false, OPT_NO_TIMING, CMD_BENCH, "--no-timing",
	  "miss ratios only: no IO waits or CPU costs (faster)" },
	{ "no-readahead", 0, false, OPT_NO_READAHEAD, CMD_BENCH, "--no-readahead",
	  "the device's read_ahead_kb = 0: a miss reads only its\n"
	  "request's pages (no readahead nor mmap read-around), so\n"
	  "that the caches alone are compared" },
	/* one replay in this process, its result on stdout: a runner's child (bt_cell()) */
	{ "cell", 0, false, OPT_CELL, CMD_BENCH, NULL, NULL },

	/* check-policy */
	{ "scale", 0, true, OPT_SCALE, CMD_CHECK_POLICY, "--scale F",
	  "shrink the scenarios, 0 < F <= 1 or 1/N (default 1/32)" },
	{ "timeout", 0, true, OPT_TIMEOUT, CMD_CHECK_POLICY, "--timeout S",
	  "host seconds a run may take (default 300)" },

	/* batch */
	{ "jobs", 'j', true, OPT_JOBS, CMD_BATCH, "-j N",
	  "runs at once, 1 to 256 (default: the online CPUs)" },
	{ "timeout", 0, true, OPT_TIMEOUT, CMD_BATCH, "--timeout S",
	  "host seconds a run may take (default: no limit)" },
	{ NULL, 0, false, 0, 0, NULL, NULL },
};

static const struct {
	const char *name;
	unsigned bit;
} cmd_bits[] = {
	{ "run", CMD_RUN },	    { "report", CMD_REPORT }, { "sweep", CMD_SWEEP },
	{ "ablate", CMD_ABLATE },   { "fuzz", CMD_FUZZ },     { "view", CMD_VIEW },
	{ "plot", CMD_PLOT },	    { "list", CMD_LIST },     { "bench", CMD_BENCH },
	{ "check-policy", CMD_CHECK_POLICY }, { "batch", CMD_BATCH },
};

unsigned cli_cmd_bit(const char *name)
{
	for (size_t i = 0; i < sizeof(cmd_bits) / sizeof(cmd_bits[0]); i++)
		if (!strcmp(cmd_bits[i].name, name))
			return cmd_bits[i].bit;
	return 0;
}

#define MAX_CMD_OPTIONS 32

/* cmd's getopt_long tables, made once per command. */
struct cli_getopt_tables {
	unsigned cmd;				/* whose they are (0: none yet) */
	struct option longs[MAX_CMD_OPTIONS + 1];
	char shorts[2 * MAX_CMD_OPTIONS + 1];	/* "j:h" */
	enum cli_opt_id short_id[128];		/* by the char */
};

static void tables_make(struct cli_getopt_tables *t, unsigned cmd)
{
	size_t nl = 0, ns = 0;

	memset(t, 0, sizeof(*t));
	t->cmd = cmd;
	for (const struct cli_option *o = cli_options; o->name; o++) {
		if (!(o->commands & cmd) || nl == MAX_CMD_OPTIONS)
			continue;
		t->longs[nl++] = (struct option){ o->name, o->has_arg ? required_argument
								      : no_argument, NULL, (int)o->id };
		if (o->short_name) {
			t->shorts[ns++] = o->short_name;
			if (o->has_arg)
				t->shorts[ns++] = ':';
			t->short_id[(unsigned char)o->short_name & 127] = o->id;
		}
	}
}

int cli_getopt(unsigned cmd, int argc, char **argv)
{
	static struct cli_getopt_tables t;
	int opt;

	if (t.cmd != cmd)
		tables_make(&t, cmd);
	opt = getopt_long(argc, argv, t.shorts, t.longs, NULL);
	if (opt > 0 && opt < 128 && opt != '?')
		return t.short_id[opt] ? (int)t.short_id[opt] : '?';
	return opt;
}

/* "  --seed N          " : the term in a column of 18, two blanks at least after it. */
#define HELP_COLUMN 18

bool cli_options_shown(unsigned cmd)
{
	for (const struct cli_option *o = cli_options; o->name; o++)
		if ((o->commands & cmd) && o->term)
			return true;
	return false;
}

void cli_options_print(FILE *f, unsigned cmd)
{
	if (cli_options_shown(cmd))
		fputc('\n', f);
	for (const struct cli_option *o = cli_options; o->name; o++) {
		const char *p;

		if (!(o->commands & cmd) || !o->term)
			continue;
		if (strlen(o->term) > HELP_COLUMN - 2)
			fprintf(f, "  %s  ", o->term);
		else
			fprintf(f, "  %-*s", HELP_COLUMN, o->term);
		for (p = o->help; *p;) {
			size_t n = strcspn(p, "\n");

			fprintf(f, "%s%.*s\n", p == o->help ? "" : "                    ", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
}

void cli_options_scdoc(FILE *f, unsigned cmd, void (*text)(FILE *f, const char *s, size_t n))
{
	for (const struct cli_option *o = cli_options; o->name; o++) {
		if (!(o->commands & cmd) || !o->term)
			continue;
		fputc('*', f);
		text(f, o->term, strlen(o->term));
		fputs("*\n", f);
		for (const char *p = o->help; *p;) {
			size_t n = strcspn(p, "\n");

			fputc('\t', f);
			text(f, p, n);
			fputc('\n', f);
			p += n + (p[n] == '\n');
		}
	}
}
