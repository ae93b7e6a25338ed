/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario parsing: libinih reads the file (through a line-counting reader,
 * so every key keeps its line), --set overrides are merged, then a key
 * table per section kind checks and converts each value, scaled as the
 * key says. A [workload.*] section takes the keys of every workload
 * (scn_workload_keys) and those its type declares (workload_ops.keys, into
 * cfg->params); its type is read first, wherever its line is. The
 * checks across sections end with each workload type's own check().
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "models/kernel_version.h"
#include "models/mm.h"
#include "models/policy/loader.h"
#include "scenarios/scenario.h"
#include "scenarios/workload.h"
#include "storage/blockdev.h"
#include "storage/zram.h"

#define SIZE_MAX_VALUE UINT64_MAX

/* ---- value parsing ---- */

int parse_size(const char *s, uint64_t *bytes)
{
	char *end;
	double v, mult = 1;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': mult = 1024.0; end++; break;
	case 'M': mult = 1024.0 * 1024; end++; break;
	case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	case 'T': mult = 1024.0 * 1024 * 1024 * 1024; end++; break;
	default: break;
	}
	if (mult > 1 && toupper((unsigned char)*end) == 'I' && toupper((unsigned char)end[1]) == 'B')
		end += 2;
	else if (mult > 1 && toupper((unsigned char)*end) == 'B')
		end++;
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	v *= mult;
	if (v >= 1.8e19)
		return -1;
	*bytes = (uint64_t)llround(v);
	return 0;
}

int parse_time_ns(const char *s, uint64_t *ns)
{
	char *end;
	double v, mult = 1e9;

	while (isspace((unsigned char)*s))
		s++;
	if (!*s || *s == '-')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !isfinite(v) || v < 0)
		return -1;
	if (!strncmp(end, "ns", 2)) { mult = 1; end += 2; }
	else if (!strncmp(end, "us", 2)) { mult = 1e3; end += 2; }
	else if (!strncmp(end, "ms", 2)) { mult = 1e6; end += 2; }
	else if (*end == 's') { mult = 1e9; end++; }
	else if (*end == 'm' && end[1] != 's') { mult = 60e9; end++; }
	while (isspace((unsigned char)*end))
		end++;
	if (*end)
		return -1;
	v *= mult;
	if (v >= 1.8e19)
		return -1;
	*ns = (uint64_t)llround(v);
	return 0;
}

/* A decimal integer in [lo, hi]: "010" is ten, not eight (strtol's base 0 took it as octal). */
static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	while (isspace((unsigned char)*end))
		end++;
	if (end == s || *end || errno || !isfinite(v) || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

/* ---- key tables ---- */

#define K(k, t, sc, st, f, lo, hi, w) SCN_KEY(k, t, sc, st, f, lo, hi, w, NULL)
/* ... with one line for `mmemu list sections` */
#define KD(k, t, sc, st, f, lo, hi, w, doc) SCN_KEY(k, t, sc, st, f, lo, hi, w, doc)
#define U KEY_UNSCALED
#define S KEY_SCALED
#define SP KEY_SCALED_PAGES

/* kernel_rules_table's names, in enum kernel_version order */
static const char *const kernel_names[] = { "6.1", "6.6", "6.12", "7.2", NULL };

static const struct key_desc machine_keys[] = {
	KD("nodes", KT_INT, U, struct scn_machine, nodes, 1, SCN_MAX_NODES, "a node count",
	   "NUMA nodes (default 2)"),
	KD("node_memory", KT_SIZE, SP, struct scn_machine, node_memory, 0, 0, "a size",
	   "memory of each node (default 8G)"),
	KD("node_cpus", KT_INT, U, struct scn_machine, node_cpus, 1, 4096, "a core count",
	   "cores of each node (default 4)"),
	KD("duration", KT_TIME, U, struct scn_machine, duration_ns, 0, 0, "a duration",
	   "simulated time limit (unset: until the workloads end)"),
	KD("policy", KT_TEXT, U, struct scn_machine, policy, 0, 0, "a policy list",
	   "the policies a run compares when --policy is absent"),
	KD("scale", KT_SCALE, U, struct scn_machine, scale, 0, 0, "a scale (0 < F <= 1, or 1/N)",
	   "the default --scale"),
	SCN_CHOICE("kernel", struct scn_machine, kernel, kernel_names,
		   "a kernel release (6.1, 6.6, 6.12 or 7.2)",
		   "the release whose rules apply: 6.1, 6.6, 6.12, 7.2 (7.2; mmemu list kernels)"),
	{ 0 }
};

/* their kernel defaults: machine_defaults() */
static const struct key_desc sysctl_keys[] = {
	KD("vm.dirty_ratio", KT_INT, U, struct scn_sysctl, dirty_ratio, 0, 100, "a percentage",
	   "percent of available memory dirty before writers wait (20)"),
	KD("vm.dirty_background_ratio", KT_INT, U, struct scn_sysctl, dirty_background_ratio, 0,
	  100, "a percentage",
	   "percent dirty before the flusher starts (10)"),
	KD("vm.dirty_bytes", KT_SIZE, S, struct scn_sysctl, dirty_bytes, 0, 0, "a size",
	   "the same in bytes (0: the ratio)"),
	KD("vm.dirty_background_bytes", KT_SIZE, S, struct scn_sysctl, dirty_background_bytes, 0,
	  0, "a size",
	   "the same in bytes (0: the ratio)"),
	/* centiseconds, periods of the run: they shrink with --scale (run.c) */
	KD("vm.dirty_expire_centisecs", KT_INT, U, struct scn_sysctl, dirty_expire_cs, 0,
	  2000000000, "centiseconds",
	   "age at which dirty data is written (3000) [a period: scaled]"),
	KD("vm.dirty_writeback_centisecs", KT_INT, U, struct scn_sysctl, dirty_writeback_cs, 0,
	  2000000000, "centiseconds",
	   "the flusher's period, 0 off (500) [a period: scaled]"),
	KD("vm.swappiness", KT_INT, U, struct scn_sysctl, swappiness, 0, 200, "a swappiness (0-200)",
	   "anon vs file reclaim balance, 0-200 (60)"),
	/* the sysctl's bounds: 1 to 3000 */
	KD("vm.watermark_scale_factor", KT_INT, U, struct scn_sysctl, watermark_scale_factor, 1,
	  3000, "a factor (1-3000)",
	   "low/high watermark gap in 1/10000 of memory (10)"),
	/* kilobytes of memory: scaled like any size */
	KD("vm.min_free_kbytes", KT_COUNT, S, struct scn_sysctl, min_free_kbytes, 0, 0,
	  "a count of kilobytes",
	   "the min watermark in KB (computed: sqrt(16 x KB of memory))"),
	/* the sysctl's bound: page_cluster_max = 31 */
	KD("vm.page-cluster", KT_INT, U, struct scn_sysctl, page_cluster, 0, 31,
	  "a power of two exponent (0-31)",
	   "swap-in reads 2^N slots (3)"),
	{ 0 }
};

static const struct key_desc debugfs_keys[] = {
	/* mm/memory.c fault_around_bytes_set(): at most PTRS_PER_PTE pages */
	KD("fault_around_bytes", KT_SIZE, U, struct scn_debugfs, fault_around_bytes, 0, 0,
	  "a size (at most 2M)",
	   "a read fault maps this many cached bytes around it (65536)"),
	{ 0 }
};

/* enum memcg_reclaim_batch's names, in its order */
static const char *const reclaim_batch_names[] = { "decay4", "full", "swap_cluster_max", NULL };

static const struct key_desc memcg_opts_keys[] = {
	SCN_CHOICE("reclaim_batch", struct scn_memcg_opts, reclaim_batch, reclaim_batch_names,
		   "full, swap_cluster_max or decay4",
		   "memory.reclaim batching: decay4 (the kernel), full or swap_cluster_max"),
	{ 0 }
};

static const struct key_desc swap_keys[] = {
	KD("type", KT_STRING, U, struct scn_swap, type, 0, 0, "a swap type (none, zram, block)",
	   "none, zram or block"),
	KD("size", KT_SIZE, SP, struct scn_swap, size, 0, 0, "a size",
	   "zram's disksize, or the swap area on a device"),
	/* /sys/block/zram0/disksize and comp_algorithm */
	KD("disksize", KT_SIZE, SP, struct scn_swap, disksize, 0, 0, "a size",
	   "zram: /sys/block/zram0/disksize"),
	KD("device", KT_STRING, U, struct scn_swap, device, 0, 0, "a device name",
	   "block: the [device.*] holding the area (zram has none: unused)"),
	KD("comp_algorithm", KT_STRING, U, struct scn_swap, comp_algorithm, 0, 0,
	  "lz4, lzo or zstd",
	   "zram's comp_algorithm and zswap's compressor: lz4, lzo or zstd (lz4)"),
	/* /sys/module/zswap/parameters (Documentation/admin-guide/mm/zswap.rst) */
	KD("zswap", KT_BOOL, U, struct scn_swap, zswap, 0, 0, "yes or no",
	   "zswap's compressed cache in front of the device (no)"),
	KD("max_pool_percent", KT_INT, U, struct scn_swap, max_pool_percent, 0, 100,
	  "a percentage (0-100)",
	   "zswap: its pool's limit, percent of total RAM (20)"),
	KD("accept_threshold_percent", KT_INT, U, struct scn_swap, accept_threshold_percent, 0,
	  100, "a percentage (0-100)",
	   "zswap: once full, stores resume below this percent of the limit (90)"),
	KD("shrinker_enabled", KT_BOOL, U, struct scn_swap, shrinker_enabled, 0, 0, "yes or no",
	   "zswap: write cold entries back under memory pressure (no; since 6.8)"),
	{ 0 }
};

static const struct key_desc node_keys[] = {
	KD("memory", KT_SIZE, SP, struct scn_node, memory, 0, 0, "a size",
	   "this node's memory (unset: node_memory)"),
	KD("cpus", KT_INT, U, struct scn_node, cpus, 1, 4096, "a core count",
	   "this node's cores (unset: node_cpus)"),
	{ 0 }
};

static const struct key_desc device_keys[] = {
	KD("type", KT_STRING, U, struct scn_device, type, 0, 0, "a device type",
	   "nvme, hdd or ramdisk"),
	KD("read_latency", KT_TIME, U, struct scn_device, read_lat_ns, 0, 0, "a duration",
	   "per read (unset: the type's)"),
	KD("write_latency", KT_TIME, U, struct scn_device, write_lat_ns, 0, 0, "a duration",
	   "per write (unset: the type's)"),
	KD("read_bandwidth", KT_SIZE, U, struct scn_device, read_bw, 0, 0, "a size per second",
	   "bytes per second (unset: the type's)"),
	KD("write_bandwidth", KT_SIZE, U, struct scn_device, write_bw, 0, 0, "a size per second",
	   "bytes per second (unset: the type's)"),
	KD("channels", KT_INT, U, struct scn_device, channels, 1, 256, "a channel count (1-256)",
	   "requests served at once (unset: the type's)"),
	KD("delay_read", KT_TIME, U, struct scn_device, delay_read_ns, 0, 0, "a duration",
	   "extra latency on every read"),
	KD("delay_write", KT_TIME, U, struct scn_device, delay_write_ns, 0, 0, "a duration",
	   "extra latency on every write"),
	KD("readahead", KT_BOOL, U, struct scn_device, readahead, 0, 0, "yes or no",
	   "no: read_ahead_kb = 0, files on it read only the pages asked for (yes)"),
	{ 0 }
};

static const struct key_desc memcg_keys[] = {
	KD("parent", KT_STRING, U, struct scn_memcg, parent, 0, 0, "a memcg name",
	   "the memcg it is a child of (unset: the root)"),
	/* the cgroup v2 files (Documentation/admin-guide/cgroup-v2.rst) */
	KD("memory.max", KT_LIMIT, S, struct scn_memcg, max, 0, 0, "a size or max",
	   "cgroup v2: the hard limit (max)"),
	KD("memory.high", KT_LIMIT, S, struct scn_memcg, high, 0, 0, "a size or max",
	   "cgroup v2: the throttle limit (max)"),
	KD("memory.low", KT_LIMIT, S, struct scn_memcg, low, 0, 0, "a size or max",
	   "cgroup v2: best-effort protection (0)"),
	KD("memory.min", KT_LIMIT, S, struct scn_memcg, min, 0, 0, "a size or max",
	   "cgroup v2: hard protection (0)"),
	KD("memory.swap.max", KT_LIMIT, S, struct scn_memcg, swap_max, 0, 0, "a size or max",
	   "cgroup v2: swap limit (max)"),
	KD("memory.zswap.max", KT_LIMIT, S, struct scn_memcg, zswap_max, 0, 0, "a size or max",
	   "cgroup v2: zswap pool limit of its subtree (max)"),
	KD("memory.oom.group", KT_TRISTATE, U, struct scn_memcg, oom_group, 0, 0, "0 or 1",
	   "cgroup v2: 1 = the OOM killer kills the whole memcg (0)"),
	/* cgroup v1's file: v2 has none and uses vm.swappiness (mem_cgroup_swappiness()) */
	KD("memory.swappiness", KT_INT, U, struct scn_memcg, swappiness, 0, 200,
	  "a swappiness (0-200)",
	   "cgroup v1's file: its own swappiness (unset: vm.swappiness)"),
	{ 0 }
};

const struct scn_section_doc scn_sections[] = {
	{ "machine", "machine", "the machine and the run", machine_keys },
	{ "node.N", "node.N", "one NUMA node, N from 0", node_keys },
	{ "device.NAME", "device.NAME", "a block device", device_keys },
	{ "memcg.NAME", "memcg.NAME", "a memory cgroup: its cgroup v2 files", memcg_keys },
	{ "sysctl", "", "/proc/sys/vm, under the sysctl names (--set vm.KEY=V)", sysctl_keys },
	{ "debugfs", "debugfs", "/sys/kernel/debug", debugfs_keys },
	{ "swap", "swap", "one swap device: zram or an area on a [device.*]; zswap in front",
	  swap_keys },
	{ "memcg", "memcg", "the memcg code itself", memcg_opts_keys },
	{ NULL, NULL, NULL, NULL }
};

/*
 * Other names of a key, meaning exactly the same: the entry takes the
 * canonical (kernel) name, so a file that sets both is refused as a key
 * set twice, and a --set of either overrides the file's. `kind` is a
 * section's name, or "memcg." for every [memcg.NAME].
 */
static const struct key_alias {
	const char *kind;	/* the section it is written in */
	const char *alias;	/* the key as written */
	const char *section;	/* the canonical section (NULL: the same) */
	const char *key;	/* the canonical key */
} key_aliases[] = {
	{ "machine", "swappiness", "sysctl", "vm.swappiness" },
	{ "machine", "watermark_scale_factor", "sysctl", "vm.watermark_scale_factor" },
	{ "memcg.", "max", NULL, "memory.max" },
	{ "memcg.", "high", NULL, "memory.high" },
	{ "memcg.", "low", NULL, "memory.low" },
	{ "memcg.", "min", NULL, "memory.min" },
	{ "memcg.", "swap_max", NULL, "memory.swap.max" },
	{ "memcg.", "swappiness", NULL, "memory.swappiness" },
	{ "swap", "compressor", NULL, "comp_algorithm" },
};

static bool kind_matches(const char *kind, const char *section)
{
	size_t n = strlen(kind);

	if (kind[n - 1] == '.')
		return !strncmp(section, kind, n) && section[n];
	return !strcmp(section, kind);
}

static const struct key_alias *find_alias(const char *section, const char *key)
{
	for (size_t i = 0; i < sizeof(key_aliases) / sizeof(key_aliases[0]); i++)
		if (kind_matches(key_aliases[i].kind, section) && !strcmp(key_aliases[i].alias, key))
			return &key_aliases[i];
	return NULL;
}

/* enum mm_advice's names, in its order */
static const char *const scn_advice_names[] = { "normal", "random", "sequential", NULL };

/* The keys of every workload type; a type's own are in its wl_*.c (cfg->params). */
#define W struct scn_workload
const struct key_desc scn_workload_keys[] = {
	SCN_KEY("type", KT_WORKLOAD_TYPE, U, W, type, 0, 0, "a workload type",
		"the generator, one of the types below (unset: the first)"),
	SCN_KEY("memcg", KT_STRING, U, W, memcg, 0, 0, "a memcg name",
		"the [memcg.*] its tasks run in (unset: the root)"),
	SCN_KEY("node", KT_INT, U, W, node, 0, SCN_MAX_NODES - 1, "a node id",
		"the NUMA node its tasks run and allocate on"),
	SCN_KEY("threads", KT_INT, U, W, threads, 1, 1024, "a thread count (1-1024)",
		"its threads, jobs or job slots (default 1)"),
	SCN_KEY("size", KT_SIZE, SP, W, size, 0, 0, "a size", "bytes of its file or anonymous region"),
	SCN_KEY("device", KT_STRING, U, W, device, 0, 0, "a device name",
		"the [device.*] its files live on"),
	SCN_KEY("ops", KT_COUNT, S, W, ops, 0, 0, "a count", "operations in all, over its threads"),
	SCN_KEY("start", KT_TIME, U, W, start_ns, 0, 0, "a duration", "when it starts"),
	SCN_KEY("think", KT_TIME, U, W, think_ns, 0, 0, "a duration", "user CPU per operation"),
	SCN_CHOICE("advice", W, advice, scn_advice_names, "normal, random or sequential",
		   "madvise/fadvise of its mappings and files (unset: the type's; fio's random)"),
	{ 0 }
};
#undef W

/* ---- raw entries ---- */

/*
 * One key = value line of the file or one --set, or a section's header
 * (key NULL), in file order. The texts are whole copies: nothing a file or
 * --set says is cut to fit.
 */
struct entry {
	char *section;		/* "workload.reader" (canonical: see key_aliases) */
	char *key;		/* NULL: the [section] line itself (canonical) */
	char *wsection, *wkey;	/* as written when an alias (NULL: as above) */
	char *value;		/* NULL for a header */
	int line;		/* 0 = from --set */
	const char *set;	/* the --set text */
};

/* The section and key as the file or --set wrote them, for messages. */
#define ESEC(e) ((e)->wsection ? (e)->wsection : (e)->section)
#define EKEY(e) ((e)->wkey ? (e)->wkey : (e)->key)

/*
 * libinih (Debian's build: lines of at most INI_MAX_LINE = 200 bytes, split
 * beyond that, and section names cut to 49 characters, both fixed when the
 * library was compiled) reads the file through ini_line_reader(), which
 * hands it one whole physical line at a time: white space at either end
 * removed (so no line is ever a multi-line continuation), a line too long
 * for libinih's buffer replaced by a stand-in of the same meaning (";" for a
 * comment, "k=v" for a key = value line, whose key and value the reader
 * split with libinih's rules and keeps whole), and every [section] line by
 * "[s]": the reader keeps the section's whole name. So libinih still finds
 * the syntax errors and splits the short key = value lines, and every line
 * of any length keeps all of its text.
 */
struct parse_ctx {
	struct entry *e;
	int nr, cap;
	const char *text;	/* the rest of the file, for the reader */
	int line;		/* the line handed to libinih last */
	char *section;		/* the section that line is in (malloc'ed, "" before any) */
	char *key, *value;	/* that line's, when libinih got a stand-in (malloc'ed) */
	int err_line;		/* the line of the first error found here (0: none) */
	char err[512];		/* its message, without the file and line */
	uint32_t *index;	/* (section, key) -> entry + 1, open addressing; 0: empty */
	uint32_t index_size;	/* a power of two, at least twice nr */
};

static char *xstrndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);

	if (!d) {
		fprintf(stderr, "mmemu: out of memory\n");
		abort();	/* host out of memory */
	}
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p) {
		fprintf(stderr, "mmemu: out of memory\n");
		abort();	/* host out of memory */
	}
	return p;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

__attribute__((format(printf, 2, 3)))
static void parse_fail(struct parse_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	if (ctx->err_line)
		return;
	ctx->err_line = ctx->line;
	va_start(ap, fmt);
	vsnprintf(ctx->err, sizeof(ctx->err), fmt, ap);
	va_end(ap);
}

/* Up to the first of chars or an inline comment (';' after white space), as ini.c does. */
static const char *find_chars_or_comment(const char *s, const char *end, const char *chars)
{
	bool was_space = false;

	for (; s < end && !(chars && strchr(chars, *s)) && !(was_space && *s == ';'); s++)
		was_space = isspace((unsigned char)*s);
	return s;
}

static const char *rskip(const char *s, const char *end)
{
	while (end > s && isspace((unsigned char)end[-1]))
		end--;
	return end;
}

static const char *lskip(const char *s, const char *end)
{
	while (s < end && isspace((unsigned char)*s))
		s++;
	return s;
}

/*
 * An entry's slot in ctx->index (FNV-1a of section, NUL, key; a header has
 * no key). The index keeps finding a repeated key linear in the file's
 * size: a crafted file of a million keys took minutes to compare pairwise.
 */
static uint32_t entry_hash(const char *section, const char *key)
{
	uint32_t h = 2166136261u;

	for (const char *c = section; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	h = (h ^ 0xffu) * 16777619u;
	for (const char *c = key ? key : ""; *c; c++)
		h = (h ^ (unsigned char)*c) * 16777619u;
	return key ? h : ~h;
}

static bool entry_is(const struct entry *e, const char *section, const char *key)
{
	return !strcmp(e->section, section) && (key ? e->key && !strcmp(e->key, key) : !e->key);
}

/* The index slot of (section, key): the entry's, or the empty one where it would go. */
static uint32_t *index_slot(const struct parse_ctx *ctx, const char *section, const char *key)
{
	uint32_t mask = ctx->index_size - 1, i = entry_hash(section, key) & mask;

	while (ctx->index[i] && !entry_is(&ctx->e[ctx->index[i] - 1], section, key))
		i = (i + 1) & mask;
	return &ctx->index[i];
}

/* Files every entry in a new index of twice the size. */
static void index_grow(struct parse_ctx *ctx)
{
	uint32_t size = ctx->index_size ? 2 * ctx->index_size : 256;

	free(ctx->index);
	ctx->index = calloc(size, sizeof(*ctx->index));
	if (!ctx->index) {
		fprintf(stderr, "mmemu: out of memory\n");
		abort();	/* host out of memory */
	}
	ctx->index_size = size;
	for (int i = 0; i < ctx->nr; i++) {
		uint32_t *slot = index_slot(ctx, ctx->e[i].section, ctx->e[i].key);

		if (!*slot)	/* the first of a repeated one, as entry_add keeps */
			*slot = (uint32_t)i + 1;
	}
}

/* The first entry of (section, key) (key NULL: the header), or NULL. */
static const struct entry *entry_find(const struct parse_ctx *ctx, const char *section,
				      const char *key)
{
	uint32_t slot;

	if (!ctx->index_size)
		return NULL;
	slot = *index_slot(ctx, section, key);
	return slot ? &ctx->e[slot - 1] : NULL;
}

/*
 * A new entry for (section, key) (malloc'ed strings, taken over); the
 * index keeps the first of a repeated one (only --set repeats the file's).
 */
static struct entry *entry_add(struct parse_ctx *ctx, char *section, char *key)
{
	struct entry *e;
	uint32_t *slot;

	if ((uint32_t)ctx->nr * 2 >= ctx->index_size)
		index_grow(ctx);
	if (ctx->nr == ctx->cap) {
		int cap = ctx->cap ? 2 * ctx->cap : 64;
		struct entry *n = realloc(ctx->e, (size_t)cap * sizeof(*n));

		if (!n) {
			fprintf(stderr, "mmemu: out of memory\n");
			abort();	/* host out of memory */
		}
		ctx->e = n;
		ctx->cap = cap;
	}
	e = &ctx->e[ctx->nr];
	memset(e, 0, sizeof(*e));
	e->section = section;
	e->key = key;
	slot = index_slot(ctx, section, key);
	if (!*slot)
		*slot = (uint32_t)ctx->nr + 1;
	ctx->nr++;
	return e;
}

/* "[name]" (then nothing, or a comment): the header's entry, or a message. */
static void section_line(struct parse_ctx *ctx, const char *p, const char *end)
{
	const char *close = find_chars_or_comment(p + 1, end, "]"), *rest;
	const struct entry *first;
	struct entry *e;
	char *name;

	if (close == end || *close != ']') {
		parse_fail(ctx, "a section header is [name], on one line");
		return;
	}
	rest = lskip(close + 1, end);
	if (rest < end && *rest != ';' && *rest != '#') {
		parse_fail(ctx, "text after the section header [%.*s]", (int)(close - p - 1), p + 1);
		return;
	}
	name = xstrndup(p + 1, (size_t)(close - p - 1));
	first = entry_find(ctx, name, NULL);
	if (first) {
		parse_fail(ctx, "[%s] again (first at line %d): one section per name", name,
			   first->line);
		free(name);
		return;
	}
	free(ctx->section);
	ctx->section = name;
	e = entry_add(ctx, xstrdup(name), NULL);
	e->line = ctx->line;
}

/* A key = value line libinih cannot hold: split as ini.c would, kept whole in ctx. */
static bool long_key_line(struct parse_ctx *ctx, const char *p, const char *end)
{
	const char *sep = find_chars_or_comment(p, end, "=:"), *v, *vend;

	if (sep == end || (*sep != '=' && *sep != ':'))
		return false;	/* not a key = value line */
	/* the inline comment first: the white space after the separator counts */
	vend = find_chars_or_comment(sep + 1, end, NULL);
	v = lskip(sep + 1, vend);
	vend = rskip(v, vend);
	free(ctx->key);
	free(ctx->value);
	ctx->key = xstrndup(p, (size_t)(rskip(p, sep) - p));
	ctx->value = xstrndup(v, (size_t)(vend - v));
	return true;
}

static char *ini_line_reader(char *str, int num, void *stream)
{
	struct parse_ctx *ctx = stream;
	const char *p = ctx->text, *nl, *end;
	size_t len;

	free(ctx->key);
	free(ctx->value);
	ctx->key = ctx->value = NULL;
	if (ctx->err_line || !*p || num < 8)
		return NULL;
	nl = strchr(p, '\n');
	end = nl ? nl : p + strlen(p);
	ctx->text = nl ? nl + 1 : end;
	ctx->line++;
	if (ctx->line == 1 && end - p >= 3 && !memcmp(p, "\xef\xbb\xbf", 3))
		p += 3;		/* a UTF-8 byte order mark */
	p = lskip(p, end);
	end = rskip(p, end);
	for (const char *c = p; c < end; c++)
		if (iscntrl((unsigned char)*c) && *c != '\t') {
			parse_fail(ctx, "a control character (0x%02x): not a text line",
				   (unsigned char)*c);
			return NULL;
		}
	len = (size_t)(end - p);
	if (len && *p == '[') {
		section_line(ctx, p, end);
		if (ctx->err_line)
			return NULL;
		snprintf(str, (size_t)num, "[s]\n");
	} else if (len + 2 <= (size_t)num) {
		memcpy(str, p, len);
		memcpy(str + len, "\n", 2);
	} else if (*p == ';' || *p == '#') {
		snprintf(str, (size_t)num, ";\n");
	} else if (long_key_line(ctx, p, end)) {
		snprintf(str, (size_t)num, "k=v\n");
	} else {
		snprintf(str, (size_t)num, "!\n");	/* libinih's error for it */
	}
	return str;
}

static int ini_entry_handler(void *user, const char *section, const char *name, const char *value)
{
	struct parse_ctx *ctx = user;
	const struct key_alias *al;
	const struct entry *first;
	struct entry *e;

	(void)section;	/* "s": the reader has the whole name */
	if (ctx->key) {
		name = ctx->key;
		value = ctx->value;
	}
	al = find_alias(ctx->section, name);
	first = entry_find(ctx, al && al->section ? al->section : ctx->section, al ? al->key : name);
	if (first) {
		if (strcmp(EKEY(first), name) || strcmp(ESEC(first), ctx->section))
			parse_fail(ctx, "[%s] %s: set again, as [%s] %s (line %d): one value per "
				   "knob", ctx->section, name, ESEC(first), EKEY(first), first->line);
		else
			parse_fail(ctx, "[%s] %s: set again (first at line %d): one value per key",
				   ctx->section, name, first->line);
		return 0;
	}
	e = entry_add(ctx, xstrdup(al && al->section ? al->section : ctx->section),
		      xstrdup(al ? al->key : name));
	if (al) {
		e->wsection = xstrdup(ctx->section);
		e->wkey = xstrdup(name);
	}
	e->value = xstrdup(value);
	e->line = ctx->line;
	return 1;
}

static void parse_ctx_free(struct parse_ctx *ctx)
{
	for (int i = 0; i < ctx->nr; i++) {
		free(ctx->e[i].section);
		free(ctx->e[i].key);
		free(ctx->e[i].wsection);
		free(ctx->e[i].wkey);
		free(ctx->e[i].value);
	}
	free(ctx->e);
	free(ctx->index);
	free(ctx->section);
	free(ctx->key);
	free(ctx->value);
	memset(ctx, 0, sizeof(*ctx));
}

/* ---- interpretation ---- */

struct err_ctx {
	char *buf;
	size_t len;
	const char *file;
};

/*
 * A quoted text in a message: the first SHOWN_MAX characters and "..." when
 * there is more (the message shortens it, never the value: an over-long
 * value is refused whole).
 */
#define SHOWN_MAX 80
#define SHOWN(s) (strlen(s) > SHOWN_MAX ? SHOWN_MAX : (int)strlen(s)), (s), \
		 (strlen(s) > SHOWN_MAX ? "..." : "")

/* "scenario 'F' line N: " or "scenario 'F' --set 'TEXT': " then the message; -1. */
__attribute__((format(printf, 3, 4)))
static int fail_entry(const struct err_ctx *ec, const struct entry *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e && e->set)
		n = snprintf(ec->buf, ec->len, "scenario '%s' --set '%.*s%s': ", ec->file,
			     SHOWN(e->set));
	else if (e)
		n = snprintf(ec->buf, ec->len, "scenario '%s' line %d: ", ec->file, e->line);
	else
		n = snprintf(ec->buf, ec->len, "scenario '%s': ", ec->file);
	if (n >= 0 && (size_t)n < ec->len) {
		va_start(ap, fmt);
		vsnprintf(ec->buf + n, ec->len - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int bad_value(const struct err_ctx *ec, const struct entry *e, const char *what)
{
	return fail_entry(ec, e, "[%s] %s: '%.*s%s' is not %s", ESEC(e), EKEY(e),
			  SHOWN(e->value), what);
}

static int parse_scale(const char *v, double *out)
{
	const char *slash = strchr(v, '/');
	double num, den;

	if (slash) {
		char a[64];

		if ((size_t)(slash - v) >= sizeof(a))
			return -1;
		memcpy(a, v, (size_t)(slash - v));
		a[slash - v] = '\0';
		if (parse_double(a, 1e-9, 1e9, &num) || parse_double(slash + 1, 1e-9, 1e9, &den))
			return -1;
		*out = num / den;
	} else if (parse_double(v, 1e-9, 1, out)) {
		return -1;
	}
	return *out > 0 && *out <= 1 ? 0 : -1;
}

static const struct key_desc *find_key(const struct key_desc *tab, const char *key)
{
	for (const struct key_desc *k = tab; k && k->key; k++)
		if (!strcmp(k->key, key))
			return k;
	return NULL;
}

/* Levenshtein distance of a and b (names of at most 63 characters; longer: far). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];

	if (la > 63 || lb > 63)
		return SIZE_MAX;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* Keeps name in *best when it is nearer to key than *best (ties: the first). */
static void nearer(const char *key, const char *name, const char **best, size_t *dist)
{
	size_t d = edit_distance(key, name);

	if (d < *dist) {
		*dist = d;
		*best = name;
	}
}

/*
 * The known key nearest to `key` among tab's, tab2's and the aliases of
 * `section`, or NULL when none is near (more than a third of its length
 * away, at least 2): a typo's likely meaning.
 */
static const char *nearest_key(const char *key, const char *section, const struct key_desc *tab,
			       const struct key_desc *tab2)
{
	const char *best = NULL;
	size_t dist = SIZE_MAX, limit = strlen(key) / 3 > 2 ? strlen(key) / 3 : 2;

	for (const struct key_desc *k = tab; k && k->key; k++)
		if (k->type != KT_RETIRED)
			nearer(key, k->key, &best, &dist);
	for (const struct key_desc *k = tab2; k && k->key; k++)
		if (k->type != KT_RETIRED)
			nearer(key, k->key, &best, &dist);
	for (size_t i = 0; i < sizeof(key_aliases) / sizeof(key_aliases[0]); i++)
		if (kind_matches(key_aliases[i].kind, section))
			nearer(key, key_aliases[i].alias, &best, &dist);
	return dist <= limit ? best : NULL;
}

/* " (did you mean 'K'?)" for the nearest known key, or "" */
static void suggestion(char *buf, size_t len, const char *near)
{
	if (near)
		snprintf(buf, len, " (did you mean '%s'?)", near);
	else
		buf[0] = '\0';
}

static int unknown_key(const struct entry *e, const struct key_desc *tab,
		       const struct err_ctx *ec)
{
	char hint[96];

	suggestion(hint, sizeof(hint), nearest_key(e->key, e->section, tab, NULL));
	return fail_entry(ec, e, "[%s]: unknown key '%.*s%s'%s", ESEC(e), SHOWN(e->key), hint);
}

/* Sets the field of key k in obj from e's value, scaled as k says. */
static int set_key(void *obj, const struct key_desc *k, const struct entry *e, double scale,
		   const struct err_ctx *ec)
{
	char *p = (char *)obj + k->offset;

	if (k->scale == KEY_UNSCALED)
		scale = 1.0;
	switch (k->type) {
	case KT_INT_SIZE:
		if (parse_size(e->value, (uint64_t *)p) || !*(uint64_t *)p)
			return bad_value(ec, e, k->what);
		return 0;
	case KT_SIZE:
	case KT_LIMIT:
	case KT_AMOUNT:
	case KT_COUNT: {
		uint64_t v;

		if ((k->type == KT_LIMIT && !strcmp(e->value, "max")) ||
		    (k->type == KT_AMOUNT && !strcmp(e->value, "full"))) {
			*(uint64_t *)p = SIZE_MAX_VALUE;
			return 0;
		}
		if (k->type == KT_COUNT) {
			double d;

			if (parse_double(e->value, 0, 1e18, &d) || d != floor(d))
				return bad_value(ec, e, "a count");
			v = (uint64_t)d;
		} else if (parse_size(e->value, &v)) {
			return bad_value(ec, e, k->what);
		}
		*(uint64_t *)p = (uint64_t)llround((double)v * scale);
		/* sizes are whole pages after scaling */
		if (k->scale == KEY_SCALED_PAGES)
			*(uint64_t *)p &= ~4095ULL;
		return 0;
	}
	case KT_INT: {
		long v;

		if (parse_long(e->value, (long)k->lo, (long)k->hi, &v))
			return bad_value(ec, e, k->what);
		if (k->size == sizeof(int64_t))
			*(int64_t *)p = v;
		else
			*(int *)p = (int)v;
		return 0;
	}
	case KT_DOUBLE:
		if (parse_double(e->value, k->lo, k->hi, (double *)p))
			return bad_value(ec, e, k->what);
		return 0;
	case KT_SCALE:
		if (parse_scale(e->value, (double *)p))
			return bad_value(ec, e, k->what);
		return 0;
	case KT_TIME:
		if (parse_time_ns(e->value, (uint64_t *)p))
			return bad_value(ec, e, k->what);
		/* a period shrinks with the run it recurs in */
		if (k->scale == KEY_PERIOD)
			*(uint64_t *)p = (uint64_t)llround((double)*(uint64_t *)p * scale);
		return 0;
	case KT_STRING:
		if (!*e->value)
			return bad_value(ec, e, k->what);
		if (strlen(e->value) >= k->size)
			return fail_entry(ec, e, "[%s] %s: '%.*s%s' is not %s (at most %zu characters)",
					  ESEC(e), EKEY(e), SHOWN(e->value), k->what, k->size - 1);
		memcpy(p, e->value, strlen(e->value) + 1);
		return 0;
	case KT_TEXT:
		if (!*e->value)
			return bad_value(ec, e, k->what);
		free(*(char **)p);
		*(char **)p = xstrdup(e->value);
		return 0;
	case KT_BOOL:
		if (!strcmp(e->value, "1") || !strcmp(e->value, "yes") || !strcmp(e->value, "true"))
			*(bool *)p = true;
		else if (!strcmp(e->value, "0") || !strcmp(e->value, "no") ||
			 !strcmp(e->value, "false"))
			*(bool *)p = false;
		else
			return bad_value(ec, e, k->what);
		return 0;
	case KT_WORKLOAD_TYPE:
		/* resolved with the section (section_object): its keys depend on it */
		return 0;
	case KT_CHOICE:
		for (int i = 0; k->choices[i]; i++) {
			if (!strcmp(e->value, k->choices[i])) {
				*(int *)p = i;
				return 0;
			}
		}
		return bad_value(ec, e, k->what);
	case KT_TRISTATE:
		if (!strcmp(e->value, "0"))
			*(int *)p = 0;
		else if (!strcmp(e->value, "1"))
			*(int *)p = 1;
		else
			return bad_value(ec, e, k->what);
		return 0;
	case KT_MSECS: {
		long v;

		if (parse_long(e->value, (long)k->lo, (long)k->hi, &v))
			return bad_value(ec, e, k->what);
		*(uint64_t *)p = (uint64_t)v * 1000000;
		if (k->scale == KEY_PERIOD)
			*(uint64_t *)p = (uint64_t)llround((double)*(uint64_t *)p * scale);
		return 0;
	}
	case KT_PARSE: {
		char why[256] = "";

		if (!k->parse(e->value, p, why, sizeof(why)))
			return 0;
		if (!*why)
			return bad_value(ec, e, k->what);
		return fail_entry(ec, e, "[%s] %s: '%.*s%s' %s", ESEC(e), EKEY(e), SHOWN(e->value),
				  why);
	}
	case KT_RETIRED:
		return fail_entry(ec, e, "[%s] %s: not a key any more: %s", ESEC(e), EKEY(e),
				  k->what);
	}
	return -1;
}

static int apply_key(void *obj, const struct key_desc *tab, const struct entry *e,
		     double scale, const struct err_ctx *ec)
{
	const struct key_desc *k = find_key(tab, e->key);

	return k ? set_key(obj, k, e, scale, ec) : unknown_key(e, tab, ec);
}

/* Appends "a, b, c" (the keys of tab) to buf at *len. */
static void list_keys(char *buf, size_t cap, size_t *len, const struct key_desc *tab)
{
	for (const struct key_desc *k = tab; k && k->key && *len < cap; k++)
		*len += (size_t)snprintf(buf + *len, cap - *len, "%s%s", *len ? ", " : "", k->key);
}

/* A workload's key: one of every type's, else one of its type's (in cfg->params). */
static int apply_workload_key(struct scn_workload *w, const struct entry *e, double scale,
			      const struct err_ctx *ec)
{
	const struct key_desc *k = find_key(scn_workload_keys, e->key);
	char keys[1024], hint[96];
	size_t len = 0;

	if (k)
		return set_key(w, k, e, scale, ec);
	k = find_key(w->type->keys, e->key);
	if (k)
		return set_key(w->params, k, e, scale, ec);
	list_keys(keys, sizeof(keys), &len, scn_workload_keys);
	list_keys(keys, sizeof(keys), &len, w->type->keys);
	suggestion(hint, sizeof(hint), nearest_key(e->key, e->section, scn_workload_keys,
						   w->type->keys));
	return fail_entry(ec, e, "[%s]: unknown key '%.*s%s'%s; a '%s' workload takes %s",
			  e->section, SHOWN(e->key), hint, w->type->name, keys);
}

static bool valid_name(const char *n)
{
	if (!*n)
		return false;
	for (; *n; n++)
		if (!isalnum((unsigned char)*n) && *n != '-' && *n != '_')
			return false;
	return true;
}

static void device_defaults(struct scn_device *d)
{
	memset(d, 0, sizeof(*d));
	snprintf(d->type, sizeof(d->type), "nvme");
	d->readahead = true;
}

static void memcg_defaults(struct scn_memcg *m)
{
	memset(m, 0, sizeof(*m));
	m->max = m->high = m->swap_max = m->zswap_max = SIZE_MAX_VALUE;
	m->swappiness = -1;
}

/*
 * A new [workload.NAME]: its type comes first, wherever its line is (INI
 * order is free), since the type says which keys the section takes and
 * sets their defaults. The last `type` counts, as for every key: a --set
 * (after the file's lines) overrides the file's, the only way a key has two
 * values. NULL with a message on error.
 */
static struct scn_workload *workload_create(struct scenario *s, const struct parse_ctx *ctx,
					    const char *sec, const char *name,
					    const struct err_ctx *ec)
{
	struct scn_workload *w = &s->workload[s->nr_workloads];
	const struct entry *te = NULL;

	for (int i = 0; i < ctx->nr; i++)
		if (!strcmp(ctx->e[i].section, sec) && ctx->e[i].key && !strcmp(ctx->e[i].key, "type"))
			te = &ctx->e[i];
	memset(w, 0, sizeof(*w));
	memcpy(w->name, name, strlen(name) + 1);	/* section_object checked its length */
	w->threads = 1;
	w->advice = -1;		/* the type's (workload_validate) */
	/* the scale in force is known before any section's keys: params_init() may use it */
	w->scale = s->machine.scale;
	w->type = te ? workload_type_find(te->value) : workload_types[0];
	if (!w->type) {
		char what[512] = "a workload type (";
		size_t len = strlen(what);

		for (int t = 0; workload_types[t] && len < sizeof(what); t++)
			len += (size_t)snprintf(what + len, sizeof(what) - len, "%s%s", t ? ", " : "",
						workload_types[t]->name);
		if (len < sizeof(what))
			snprintf(what + len, sizeof(what) - len, ")");
		bad_value(ec, te, what);
		return NULL;
	}
	if (w->type->params_size && !(w->params = calloc(1, w->type->params_size))) {
		snprintf(ec->buf, ec->len, "scenario '%s': [%s]: out of memory", ec->file, sec);
		return NULL;
	}
	if (w->type->params_init)
		w->type->params_init(w);
	s->nr_workloads++;
	return w;
}

/*
 * Finds or creates the object for a section and its key table (NULL for a
 * workload: its keys are every type's and its type's, apply_workload_key);
 * NULL with a message on error.
 */
static void *section_object(struct scenario *s, const struct parse_ctx *ctx,
			    const struct entry *e, const struct key_desc **tab,
			    const struct err_ctx *ec)
{
	static const struct {
		const char *name;		/* [name] */
		const struct key_desc *keys;
		size_t offset;			/* the object in struct scenario */
	} singles[] = {
		{ "machine", machine_keys, offsetof(struct scenario, machine) },
		{ "swap", swap_keys, offsetof(struct scenario, swap) },
		{ "sysctl", sysctl_keys, offsetof(struct scenario, sysctl) },
		{ "memcg", memcg_opts_keys, offsetof(struct scenario, memcg_opts) },
		{ "debugfs", debugfs_keys, offsetof(struct scenario, debugfs) },
	};
	static const char *const kinds[] = { "node.", "device.", "memcg.", "workload." };
	const char *sec = e->section, *dot = strchr(sec, '.'), *name, *near = NULL;
	size_t kind_len, dist = SIZE_MAX;
	char hint[96], kind[64], best_kind[64];

	for (size_t i = 0; i < sizeof(singles) / sizeof(singles[0]); i++)
		if (!strcmp(sec, singles[i].name)) {
			*tab = singles[i].keys;
			return (char *)s + singles[i].offset;
		}
	/* a policy's section: its keys are the policy's */
	for (int i = 0; i < s->nr_policy_sections; i++)
		if (!strcmp(sec, s->policy_section[i].knobs->section)) {
			*tab = s->policy_section[i].knobs->keys;
			return s->policy_section[i].values;
		}
	/* the nearest name: [machine] first, then the policies' (as [mglru] came second) */
	nearer(sec, singles[0].name, &near, &dist);
	for (int i = 0; i < s->nr_policy_sections; i++)
		nearer(sec, s->policy_section[i].knobs->section, &near, &dist);
	for (size_t i = 1; i < sizeof(singles) / sizeof(singles[0]); i++)
		nearer(sec, singles[i].name, &near, &dist);
	for (size_t i = 0; dot && i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		/* the kind before the dot, with the name as written */
		size_t n = (size_t)(strchr(kinds[i], '.') - kinds[i]), d;

		snprintf(kind, sizeof(kind), "%.*s%s", (int)n, kinds[i], dot);
		d = edit_distance(sec, kind);
		if (d < dist) {
			dist = d;
			memcpy(best_kind, kind, sizeof(kind));
			near = best_kind;
		}
	}
	suggestion(hint, sizeof(hint), dist <= 2 ? near : NULL);
	if (!dot) {
		fail_entry(ec, e, "unknown section [%.*s%s]%s", SHOWN(sec), hint);
		return NULL;
	}
	kind_len = (size_t)(dot - sec);
	name = dot + 1;
	if (kind_len == 4 && !strncmp(sec, "node", 4)) {
		long nid;

		if (parse_long(name, 0, SCN_MAX_NODES - 1, &nid)) {
			fail_entry(ec, e, "[%.*s%s]: node id '%.*s%s' is not in 0-%d", SHOWN(sec),
				   SHOWN(name), SCN_MAX_NODES - 1);
			return NULL;
		}
		s->node[nid].declared = true;
		*tab = node_keys;
		return &s->node[nid];
	}
	if (!((kind_len == 6 && !strncmp(sec, "device", 6)) ||
	      (kind_len == 5 && !strncmp(sec, "memcg", 5)) ||
	      (kind_len == 8 && !strncmp(sec, "workload", 8)))) {
		fail_entry(ec, e, "unknown section [%.*s%s]%s", SHOWN(sec), hint);
		return NULL;
	}
	if (!valid_name(name)) {
		fail_entry(ec, e, "[%.*s%s]: a name is letters, digits, '-' and '_'", SHOWN(sec));
		return NULL;
	}
	if (strlen(name) >= SCN_NAME_LEN) {
		fail_entry(ec, e, "[%.*s%s]: the name is %zu characters, at most %d", SHOWN(sec),
			   strlen(name), SCN_NAME_LEN - 1);
		return NULL;
	}
#define FIND_OR_ADD(arr, nr, max, keys, init)                                          \
	do {                                                                           \
		for (int i = 0; i < s->nr; i++)                                        \
			if (!strcmp(s->arr[i].name, name)) {                           \
				*tab = keys;                                           \
				return &s->arr[i];                                     \
			}                                                              \
		if (s->nr == max) {                                                    \
			fail_entry(ec, e, "[%s]: more than %d %.*s sections", sec, max, \
				   (int)kind_len, sec);                                \
			return NULL;                                                   \
		}                                                                      \
		init(&s->arr[s->nr]);                                                  \
		memcpy(s->arr[s->nr].name, name, strlen(name) + 1);                    \
		*tab = keys;                                                           \
		return &s->arr[s->nr++];                                               \
	} while (0)
	if (*sec == 'd')	/* device */
		FIND_OR_ADD(device, nr_devices, SCN_MAX_DEVICES, device_keys, device_defaults);
	if (*sec == 'm')	/* memcg */
		FIND_OR_ADD(memcg, nr_memcgs, SCN_MAX_MEMCGS, memcg_keys, memcg_defaults);
#undef FIND_OR_ADD
	*tab = NULL;	/* a workload */
	for (int i = 0; i < s->nr_workloads; i++)
		if (!strcmp(s->workload[i].name, name))
			return &s->workload[i];
	if (s->nr_workloads == SCN_MAX_WORKLOADS) {
		fail_entry(ec, e, "[%s]: more than %d workload sections", sec, SCN_MAX_WORKLOADS);
		return NULL;
	}
	return workload_create(s, ctx, sec, name, ec);
}

/*
 * The sections of the policies known now, each with its defaults: a
 * scenario sets the knobs of any of them, whichever policy it runs under.
 */
static int policy_sections_init(struct scenario *s, char *err, size_t errlen)
{
	const struct policy_knobs *known[SCN_MAX_POLICY_SECTIONS];
	int nr = reclaim_policy_knobs_known(known, SCN_MAX_POLICY_SECTIONS);

	for (int i = 0; i < nr; i++) {
		struct scn_policy_section *ps;

		/* a plug-in's [swap] would never be read: the scenario's own comes first */
		for (const struct scn_section_doc *sd = scn_sections; sd->name; sd++)
			if (!strncmp(sd->name, known[i]->section, strcspn(sd->name, ".")) &&
			    !known[i]->section[strcspn(sd->name, ".")]) {
				snprintf(err, errlen, "scenario '%s': a policy's knobs take the section "
					 "[%s], which is the scenario's own", s->path,
					 known[i]->section);
				return -1;
			}
		ps = &s->policy_section[s->nr_policy_sections++];

		ps->knobs = known[i];
		ps->values = xmalloc(known[i]->size);
		memcpy(ps->values, known[i]->defaults, known[i]->size);
	}
	return 0;
}

const void *scenario_policy_knobs(const struct scenario *s, const struct reclaim_policy *policy)
{
	for (int i = 0; policy->knobs && i < s->nr_policy_sections; i++)
		if (s->policy_section[i].knobs == policy->knobs)
			return s->policy_section[i].values;
	return policy->knobs ? policy->knobs->defaults : NULL;
}

int scn_section_docs(struct scn_section_doc *out, int max)
{
	const struct policy_knobs *known[SCN_MAX_POLICY_SECTIONS];
	int nr = 0, nr_known = reclaim_policy_knobs_known(known, SCN_MAX_POLICY_SECTIONS);

	for (const struct scn_section_doc *sd = scn_sections; sd->name && nr < max; sd++)
		out[nr++] = *sd;
	for (int i = 0; i < nr_known && nr < max; i++)
		out[nr++] = (struct scn_section_doc){ known[i]->section, known[i]->section,
						      known[i]->desc, known[i]->keys };
	return nr;
}

static void machine_defaults(struct scenario *s)
{
	s->machine.nodes = 2;
	s->machine.node_memory = 8ULL << 30;
	s->machine.node_cpus = 4;
	s->machine.scale = 1.0;
	s->machine.kernel = -1;
	s->memcg_opts.reclaim_batch = -1;
	/* Documentation/admin-guide/sysctl/vm.rst defaults; min_free_kbytes is
	 * computed from memory (calculate_min_free_kbytes()) */
	s->sysctl = (struct scn_sysctl){ .dirty_ratio = 20, .dirty_background_ratio = 10,
					 .dirty_expire_cs = 3000, .dirty_writeback_cs = 500,
					 .swappiness = 60, .watermark_scale_factor = 10,
					 .min_free_kbytes = UINT64_MAX, .page_cluster = 3 };
	/* mm/memory.c: fault_around_pages = 65536 >> PAGE_SHIFT */
	s->debugfs.fault_around_bytes = 65536;
	snprintf(s->swap.type, sizeof(s->swap.type), "none");
	snprintf(s->swap.comp_algorithm, sizeof(s->swap.comp_algorithm), "lz4");
	/* zswap's module parameter defaults (mm/zswap.c); the shrinker's is
	 * CONFIG_ZSWAP_SHRINKER_DEFAULT_ON, default n since it came in 6.8 */
	s->swap.max_pool_percent = 20;
	s->swap.accept_threshold_percent = 90;
}

/* The entries of the scenario being validated, to name lines in messages. */
static const struct parse_ctx *validate_ctx;

/*
 * A message about [sec] key (key NULL: the section) at the entry that set
 * it (the one in force: a --set over the file's), else at the section's
 * first line, else without a line. -1.
 */
static int fail_at(char *err, size_t errlen, const char *path, const char *sec,
		   const char *key, const char *msg)
{
	const struct err_ctx ec = { err, errlen, path };
	const struct entry *e = NULL;

	for (int i = 0; key && validate_ctx && i < validate_ctx->nr; i++)
		if (!strcmp(validate_ctx->e[i].section, sec) && validate_ctx->e[i].key &&
		    !strcmp(validate_ctx->e[i].key, key))
			e = &validate_ctx->e[i];
	/* a missing key: name the section's first line, else the first --set of it */
	for (int i = 0; !e && validate_ctx && i < validate_ctx->nr; i++)
		if (!strcmp(validate_ctx->e[i].section, sec) && !validate_ctx->e[i].set)
			e = &validate_ctx->e[i];
	for (int i = 0; !e && validate_ctx && i < validate_ctx->nr; i++)
		if (!strcmp(validate_ctx->e[i].section, sec))
			e = &validate_ctx->e[i];
	if (!key)
		return fail_entry(&ec, e, "[%s]: %s", sec, msg);
	if (e && e->key && !strcmp(e->key, key) && !strcmp(e->section, sec))
		return fail_entry(&ec, e, "[%s] %s: %s", ESEC(e), EKEY(e), msg);	/* as written */
	return fail_entry(&ec, e, "[%s] %s: %s", sec, key, msg);
}

int scn_fail(const struct scn_check *ck, const char *section, const char *key, const char *msg)
{
	return fail_at(ck->err, ck->errlen, ck->s->path, section ? section : ck->section, key, msg);
}

/* A workload's checks: those of every type, then its type's. */
static int workload_validate(const struct scenario *s, struct scn_workload *w, char *err,
			     size_t errlen)
{
	const char *p = s->path;
	char sec[80];
	struct scn_check ck = { s, sec, err, errlen };
	int j;

	snprintf(sec, sizeof(sec), "workload.%s", w->name);
	if (!w->size && !w->type->size_from_check)
		return fail_at(err, errlen, p, sec, "size", "a workload needs a size");
	/* a page's index in its file or region is 32-bit (struct folio) */
	for (int t = 0; t < 2; t++)
		for (const struct key_desc *k = t ? w->type->keys : scn_workload_keys; k && k->key;
		     k++)
			if (k->type == KT_SIZE &&
			    *(const uint64_t *)((const char *)(t ? w->params : (void *)w) + k->offset) /
			    4096 >= UINT32_MAX)
				return fail_at(err, errlen, p, sec, k->key,
					       "more than 2^32 pages (16T) in one file or region "
					       "is not supported");
	if (w->node >= s->machine.nodes)
		return fail_at(err, errlen, p, sec, "node", "no such node on this machine");
	if (w->memcg[0]) {
		for (j = 0; j < s->nr_memcgs; j++)
			if (!strcmp(s->memcg[j].name, w->memcg))
				break;
		if (j == s->nr_memcgs)
			return fail_at(err, errlen, p, sec, "memcg", "no such memcg");
	}
	if (w->advice < 0)
		w->advice = w->type->default_advice;
	if (w->type->check && w->type->check(w, &ck))
		return -1;
	if (!w->size)
		return fail_at(err, errlen, p, sec, "size", "a workload needs a size");
	if (w->type->needs_device && w->type->needs_device(w)) {
		if (!w->device[0])
			return fail_at(err, errlen, p, sec, "device", "a file workload needs a device");
		for (j = 0; j < s->nr_devices; j++)
			if (!strcmp(s->device[j].name, w->device))
				break;
		if (j == s->nr_devices)
			return fail_at(err, errlen, p, sec, "device", "no such device");
	}
	if (!w->ops)
		return fail_at(err, errlen, p, sec, "ops", "a workload needs ops > 0");
	return 0;
}

/* Cross-section checks: names resolve, sizes fit, the machine is possible. */
static int scenario_validate(struct scenario *s, char *err, size_t errlen)
{
	const char *p = s->path;
	uint64_t total_pages = 0;

	for (int n = 0; n < SCN_MAX_NODES; n++) {
		uint64_t mem = s->node[n].memory ? s->node[n].memory : s->machine.node_memory;
		char sec[16];
		const char *key = s->node[n].memory ? "memory" : "node_memory";

		snprintf(sec, sizeof(sec), "node.%d", n);
		if (n >= s->machine.nodes) {
			if (s->node[n].declared) {
				char msg[80];

				snprintf(msg, sizeof(msg), "no such node: the machine has %d "
					 "([machine] nodes)", s->machine.nodes);
				return fail_at(err, errlen, p, sec, NULL, msg);
			}
			continue;
		}
		if (!s->node[n].memory)
			snprintf(sec, sizeof(sec), "machine");
		if (mem < (16ULL << 20))
			return fail_at(err, errlen, p, sec, key,
				       "a node needs at least 16M after scaling");
		/* page frame numbers are 32-bit (struct folio's indexes) */
		if (mem / 4096 >= UINT32_MAX || (total_pages += mem / 4096) >= UINT32_MAX)
			return fail_at(err, errlen, p, sec, key,
				       "more than 2^32 pages (16T) of memory in all is not supported");
	}
	for (int i = 0; i < s->nr_devices; i++) {
		enum bdev_type t;

		if (bdev_type_parse(s->device[i].type, &t)) {
			char sec[80];

			snprintf(sec, sizeof(sec), "device.%s", s->device[i].name);
			return fail_at(err, errlen, p, sec, "type",
				       "unknown device type (known: nvme, hdd, ramdisk)");
		}
	}
	if (s->debugfs.fault_around_bytes > 512 * 4096)
		return fail_at(err, errlen, p, "debugfs", "fault_around_bytes",
			       "more than PTRS_PER_PTE (512) pages, 2M, is refused by the kernel");
	if (s->sysctl.min_free_kbytes != UINT64_MAX) {
		uint64_t kb = 0;

		for (int n = 0; n < s->machine.nodes; n++)
			kb += (s->node[n].memory ? s->node[n].memory : s->machine.node_memory) / 1024;
		/* every page below the min watermark: no allocation could succeed */
		if (s->sysctl.min_free_kbytes >= kb)
			return fail_at(err, errlen, p, "sysctl", "vm.min_free_kbytes",
				       "the machine's whole memory or more after scaling: nothing "
				       "could be allocated");
	}
	if (strcmp(s->swap.type, "zram") && s->swap.disksize)
		return fail_at(err, errlen, p, "swap", "disksize",
			       "disksize is zram's (/sys/block/zram0/disksize); a swap area on a "
			       "device takes size");
	if (s->swap.disksize) {
		if (s->swap.size)
			return fail_at(err, errlen, p, "swap", "disksize",
				       "zram's size is given twice (size and disksize): one of them");
		s->swap.size = s->swap.disksize;
	}
	if (s->swap.zswap && !strcmp(s->swap.type, "none"))
		return fail_at(err, errlen, p, "swap", "zswap",
			       "zswap caches pages on their way to a swap device: it needs a type");
	if (s->swap.shrinker_enabled && !scenario_kernel(s)->zswap_shrinker)
		return fail_at(err, errlen, p, "swap", "shrinker_enabled",
			       "zswap's shrinker came in 6.8: the kernel emulated has none");
	if (strcmp(s->swap.type, "none")) {
		enum zram_comp c;
		const char *size_key = s->swap.disksize ? "disksize" : "size";

		if (strcmp(s->swap.type, "zram") && strcmp(s->swap.type, "block"))
			return fail_at(err, errlen, p, "swap", "type",
				       "unknown swap type (known: none, zram, block)");
		if (s->swap.size < 4096)
			return fail_at(err, errlen, p, "swap", size_key, "a swap device needs a size");
		/* slots are numbered from 1 in 32 bits (models/swap.h) */
		if (s->swap.size / 4096 >= (1ULL << 32))
			return fail_at(err, errlen, p, "swap", size_key,
				       "2^32 swap slots (16T) or more are not supported; use --scale");
		if (zram_comp_parse(s->swap.comp_algorithm, &c))
			return fail_at(err, errlen, p, "swap", "comp_algorithm",
				       "unknown compressor (known: lz4, lzo, zstd)");
		if (!strcmp(s->swap.type, "block")) {
			int j;

			for (j = 0; j < s->nr_devices; j++)
				if (!strcmp(s->device[j].name, s->swap.device))
					break;
			if (j == s->nr_devices)
				return fail_at(err, errlen, p, "swap", "device",
					       "block swap needs one of the [device.*] names");
		}
	}
	for (int i = 0; i < s->nr_memcgs; i++) {
		struct scn_memcg *m = &s->memcg[i];
		char sec[80];

		snprintf(sec, sizeof(sec), "memcg.%s", m->name);
		if (m->parent[0]) {
			int j;

			for (j = 0; j < i; j++)
				if (!strcmp(s->memcg[j].name, m->parent))
					break;
			if (j == i)
				return fail_at(err, errlen, p, sec, "parent",
					       "no memcg of that name is declared before it");
		}
		if (m->max != SIZE_MAX_VALUE && m->max < (1ULL << 20))
			return fail_at(err, errlen, p, sec, "memory.max",
				       "memory.max below 1M after scaling cannot run anything");
	}
	if (!s->nr_workloads)
		return fail_at(err, errlen, p, "workload.*", "type", "no workload is declared");
	for (int i = 0; i < s->nr_workloads; i++)
		if (workload_validate(s, &s->workload[i], err, errlen))
			return -1;
	return 0;
}

/* Longer than any scenario: a device that never ends (/dev/zero, /dev/urandom) is refused. */
#define SCENARIO_MAX_BYTES (16 << 20)

/*
 * A scenario file's whole text, NUL-terminated, into a malloc'ed *text:
 * its length, or -errno (-EILSEQ: a NUL byte, binary data; -EFBIG: over
 * SCENARIO_MAX_BYTES).
 */
static long read_text(FILE *f, char **text)
{
	size_t len = 0, cap = 4096;
	char *buf = malloc(cap);

	*text = NULL;
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);
		char *grown;

		if (memchr(buf + len, '\0', n)) {
			free(buf);
			return -EILSEQ;
		}
		len += n;
		if (len < cap - 1) {	/* a short read: the end, or an error */
			if (ferror(f)) {
				int e = errno ? errno : EIO;

				free(buf);
				return -e;
			}
			break;
		}
		if (cap > SCENARIO_MAX_BYTES) {
			free(buf);
			return -EFBIG;
		}
		grown = realloc(buf, cap *= 2);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (!buf)
		return -ENOMEM;
	buf[len] = '\0';
	*text = buf;
	return (long)len;
}

/* Whether the n characters at name are a policy's section ([mglru]): a section without a name. */
static bool is_policy_section(const char *name, size_t n)
{
	const struct policy_knobs *known[SCN_MAX_POLICY_SECTIONS];
	int nr = reclaim_policy_knobs_known(known, SCN_MAX_POLICY_SECTIONS);

	for (int i = 0; i < nr; i++)
		if (strlen(known[i]->section) == n && !strncmp(known[i]->section, name, n))
			return true;
	return false;
}

/* --set section.key=value (kind[.name].key) as an entry; -1 with a message. */
static int set_entry(struct parse_ctx *ctx, const char *path, const char *set, char *err,
		     size_t errlen)
{
	const char *eq = strchr(set, '='), *dot1 = strchr(set, '.'), *dot2, *k;
	const struct key_alias *al;
	struct entry *e;
	char *sec, *key, *wsec = NULL, *wkey = NULL;

	if (!eq || !dot1 || dot1 > eq) {
		snprintf(err, errlen, "scenario '%s' --set '%.*s%s': expected section.key=value",
			 path, SHOWN(set));
		return -1;
	}
	/* a sysctl under its own name: vm.KEY=V, or sysctl.vm.KEY=V */
	if (!strncmp(set, "vm.", 3) || !strncmp(set, "sysctl.vm.", 10)) {
		dot2 = NULL;
		k = set[0] == 's' ? set + 7 : set;
	} else if (!strncmp(set, "machine.", 8) || is_policy_section(set, (size_t)(dot1 - set)) ||
		   !strncmp(set, "swap.", 5) || !strncmp(set, "debugfs.", 8) ||
		   /* [memcg] has no name: memcg.KEY=V; [memcg.NAME]: memcg.NAME.KEY=V */
		   (!strncmp(set, "memcg.", 6) &&
		    (!strchr(dot1 + 1, '.') || strchr(dot1 + 1, '.') > eq))) {
		dot2 = dot1;
		k = dot2 + 1;
	} else {
		dot2 = strchr(dot1 + 1, '.');
		if (!dot2 || dot2 > eq) {
			snprintf(err, errlen, "scenario '%s' --set '%.*s%s': expected "
				 "kind.name.key=value", path, SHOWN(set));
			return -1;
		}
		k = dot2 + 1;
	}
	if (eq == k) {
		snprintf(err, errlen, "scenario '%s' --set '%.*s%s': no key before '='", path,
			 SHOWN(set));
		return -1;
	}
	sec = dot2 ? xstrndup(set, (size_t)(dot2 - set)) : xstrdup("sysctl");
	key = xstrndup(k, (size_t)(eq - k));
	al = find_alias(sec, key);
	if (al) {
		wsec = sec;
		wkey = key;
		sec = xstrdup(al->section ? al->section : wsec);
		key = xstrdup(al->key);
	}
	/* a named section ([memcg.app], [workload.reader]) must be the file's: a --set
	 * changes a key, and a misspelt name must not add an empty memcg or device
	 * ([node.N] needs no header: the machine has its nodes) */
	if (!strncmp(sec, "memcg.", 6) || !strncmp(sec, "device.", 7) ||
	    !strncmp(sec, "workload.", 9)) {
		const char *near = NULL;
		size_t dist = SIZE_MAX;
		char hint[96];
		int found = 0;

		for (int i = 0; i < ctx->nr && !found; i++)
			found = !ctx->e[i].set && !strcmp(ctx->e[i].section, sec);
		/* a misspelt name: the file's nearest section header */
		for (int i = 0; i < ctx->nr && !found; i++)
			if (!ctx->e[i].set && !ctx->e[i].key)
				nearer(sec, ctx->e[i].section, &near, &dist);
		suggestion(hint, sizeof(hint), dist <= 2 ? near : NULL);
		if (!found) {
			snprintf(err, errlen, "scenario '%s' --set '%.*s%s': the scenario has no "
				 "[%s]%s (a --set changes a key of a section the file declares)",
				 path, SHOWN(set), sec, hint);
			free(sec);
			free(key);
			free(wsec);
			free(wkey);
			return -1;
		}
	}
	/* over the file's value, once: a second --set of the key is a mistake */
	for (int i = 0; i < ctx->nr; i++)
		if (ctx->e[i].set && ctx->e[i].key && !strcmp(ctx->e[i].section, sec) &&
		    !strcmp(ctx->e[i].key, key)) {
			snprintf(err, errlen, "scenario '%s' --set '%.*s%s': [%s] %s is set by --set "
				 "'%.*s%s' already: one value per key", path, SHOWN(set), sec, key,
				 SHOWN(ctx->e[i].set));
			free(sec);
			free(key);
			free(wsec);
			free(wkey);
			return -1;
		}
	e = entry_add(ctx, sec, key);
	e->wsection = wsec;
	e->wkey = wkey;
	e->value = xstrdup(eq + 1);
	e->set = set;
	return 0;
}

int scenario_load(struct scenario *s, const char *path, const char *const *sets,
		  int nr_sets, double scale, char *err, size_t errlen)
{
	return scenario_load_stream(s, path, NULL, sets, nr_sets, scale, err, errlen);
}

int scenario_load_stream(struct scenario *s, const char *path, FILE *in,
			 const char *const *sets, int nr_sets, double scale, char *err,
			 size_t errlen)
{
	struct parse_ctx ctx = { 0 };
	struct err_ctx ec = { err, errlen, path };
	const char *base;
	FILE *f;
	long len;
	int rc;

	memset(s, 0, sizeof(*s));
	s->path = xstrdup(path);
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	len = (long)strlen(base);
	if (len > 4 && !strcmp(base + len - 4, ".ini"))
		len -= 4;
	s->name = xstrndup(base, (size_t)len);

	f = in ? in : fopen(path, "rb");
	if (!f) {
		snprintf(err, errlen, "scenario '%s': %s", path, strerror(errno));
		return -1;
	}
	/* read to the end, not to a size asked beforehand: a pipe or FIFO has none */
	len = read_text(f, &s->text);
	if (!in)
		fclose(f);
	if (len == -EFBIG) {
		snprintf(err, errlen, "scenario '%s': longer than %d MiB, not a scenario", path,
			 SCENARIO_MAX_BYTES >> 20);
		return -1;
	}
	if (len == -EILSEQ) {
		snprintf(err, errlen, "scenario '%s': binary data (a NUL byte) in a scenario file",
			 path);
		return -1;
	}
	if (len < 0) {
		snprintf(err, errlen, "scenario '%s': cannot read it: %s", path, strerror((int)-len));
		return -1;
	}

	ctx.text = s->text;
	ctx.section = xstrdup("");
	rc = ini_parse_stream(ini_line_reader, &ctx, ini_entry_handler, &ctx);
	/* the first error: libinih's (a line that is no INI) or the reader's */
	if (rc > 0 && (!ctx.err_line || rc < ctx.err_line)) {
		snprintf(err, errlen, "scenario '%s' line %d: not a section, key = value or comment",
			 path, rc);
		parse_ctx_free(&ctx);
		return -1;
	}
	if (ctx.err_line || rc) {
		if (ctx.err_line)
			snprintf(err, errlen, "scenario '%s' line %d: %s", path, ctx.err_line,
				 ctx.err);
		else
			snprintf(err, errlen, "scenario '%s': cannot parse it (out of memory)", path);
		parse_ctx_free(&ctx);
		return -1;
	}
	for (int i = 0; i < nr_sets; i++)
		if (set_entry(&ctx, path, sets[i], err, errlen)) {
			parse_ctx_free(&ctx);
			return -1;
		}

	/* The scale first: it applies to every size and count. */
	machine_defaults(s);
	if (policy_sections_init(s, err, errlen)) {
		parse_ctx_free(&ctx);
		return -1;
	}
	for (int i = 0; i < ctx.nr; i++) {
		if (!strcmp(ctx.e[i].section, "machine") && ctx.e[i].key &&
		    !strcmp(ctx.e[i].key, "scale") &&
		    apply_key(&s->machine, machine_keys, &ctx.e[i], 1.0, &ec)) {
			parse_ctx_free(&ctx);
			return -1;
		}
	}
	if (scale <= 0)
		scale = s->machine.scale;
	s->machine.scale = scale;

	/* Sections in file order (headers first), so memcg parents precede children. */
	for (int i = 0; i < ctx.nr; i++) {
		const struct entry *e = &ctx.e[i];
		const struct key_desc *tab;
		void *obj = section_object(s, &ctx, e, &tab, &ec);

		if (!obj || (e->key && (tab ? apply_key(obj, tab, e, scale, &ec)
					    : apply_workload_key(obj, e, scale, &ec)))) {
			parse_ctx_free(&ctx);
			return -1;
		}
	}
	/* the scale in force is the one applied, --scale over the file's */
	s->machine.scale = scale;
	for (int i = 0; i < s->nr_workloads; i++)
		s->workload[i].scale = scale;
	/* where the kernel was named, for scenario_check_policy() */
	for (int i = 0; i < ctx.nr; i++)
		if (!strcmp(ctx.e[i].section, "machine") && ctx.e[i].key &&
		    !strcmp(ctx.e[i].key, "kernel")) {
			const struct err_ctx kec = { s->machine.kernel_at,
						     sizeof(s->machine.kernel_at), path };

			fail_entry(&kec, &ctx.e[i], "%s", "");
		}
	validate_ctx = &ctx;
	rc = scenario_validate(s, err, errlen);
	validate_ctx = NULL;
	parse_ctx_free(&ctx);
	return rc;
}

const struct kernel_rules *scenario_kernel(const struct scenario *s)
{
	return &kernel_rules_table[s->machine.kernel < 0 ? KERNEL_DEFAULT : s->machine.kernel];
}

int scenario_check_policy(const struct scenario *s, const char *policy, char *err, size_t errlen)
{
	const struct kernel_rules *k = scenario_kernel(s);
	const char *releases;

	if (s->machine.kernel < 0 || kernel_has_policy(k, policy, &releases))
		return 0;
	snprintf(err, errlen, "%s[machine] kernel: '%s' had no policy '%s' (it is in %s; "
		 "mmemu list kernels)", s->machine.kernel_at, k->name, policy, releases);
	return -1;
}

void scenario_free(struct scenario *s)
{
	for (int i = 0; i < s->nr_workloads; i++) {
		struct scn_workload *w = &s->workload[i];

		if (w->params && w->type->params_free)
			w->type->params_free(w);
		free(w->params);
		w->params = NULL;
	}
	for (int i = 0; i < s->nr_policy_sections; i++)
		free(s->policy_section[i].values);
	s->nr_policy_sections = 0;
	free(s->machine.policy);
	s->machine.policy = NULL;
	free(s->text);
	s->text = NULL;
	free(s->path);
	s->path = NULL;
	free(s->name);
	s->name = NULL;
}
