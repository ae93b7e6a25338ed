/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario files (INI): [machine], [node.N], [device.NAME], [memcg.NAME],
 * [workload.NAME]. Every size is written at full scale; --scale shrinks
 * sizes and counts together. --set section.key=value overrides any key.
 */
#ifndef MMEMU_SCENARIOS_SCENARIO_H
#define MMEMU_SCENARIOS_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCN_MAX_NODES 8
#define SCN_MAX_DEVICES 16
#define SCN_MAX_MEMCGS 64
#define SCN_MAX_WORKLOADS 64
/* A section's name (memcg, device, workload) is at most SCN_NAME_LEN - 1 characters. */
#define SCN_NAME_LEN 48

struct kernel_rules;

struct scn_machine {
	int nodes;			/* NUMA nodes */
	uint64_t node_memory;		/* bytes per node (unless [node.N] says) */
	int node_cpus;			/* cores per node */
	uint64_t duration_ns;		/* simulated time limit (0 = until workloads end) */
	char *policy;			/* default policy list when --policy is absent (NULL: none) */
	double scale;			/* default --scale */
	int kernel;			/* enum kernel_version; -1: unset (the newest) */
	char kernel_at[320];		/* where it was set, for messages ("scenario 'F' line N: ") */
};

struct scn_node {
	uint64_t memory;		/* bytes, 0 = machine default */
	int cpus;			/* 0 = machine default */
	bool declared;			/* a [node.N] section (or --set) names it */
};

struct scn_device {
	char name[SCN_NAME_LEN];
	char type[16];			/* nvme */
	uint64_t read_lat_ns, write_lat_ns;	/* 0 = the type's default */
	uint64_t read_bw, write_bw;	/* bytes/s, 0 = default */
	int channels;			/* 0 = default */
	uint64_t delay_read_ns;		/* extra latency on reads */
	uint64_t delay_write_ns;	/* extra latency on writes */
	bool readahead;			/* no: read_ahead_kb = 0 (yes) */
};

struct scn_memcg {
	char name[SCN_NAME_LEN];
	char parent[SCN_NAME_LEN];	/* "" = the root */
	uint64_t max, high, low, min;	/* bytes; UINT64_MAX = max */
	uint64_t swap_max;		/* memory.swap.max, bytes */
	uint64_t zswap_max;		/* memory.zswap.max, bytes */
	int swappiness;			/* memory.swappiness (cgroup v1's file); -1 = vm.swappiness */
	int oom_group;			/* memory.oom.group: 0 or 1 */
};

struct workload_ops;

/*
 * A [workload.NAME] section: the keys every type takes, and the type's own
 * (its `params`, a struct of the type's file filled through type->keys).
 */
struct scn_workload {
	char name[SCN_NAME_LEN];
	const struct workload_ops *type;	/* the generator (scenarios/workloads.c) */
	char memcg[SCN_NAME_LEN];	/* memcg the task runs in */
	int node;			/* preferred node (CPU and memory) */
	int threads;			/* actors */
	uint64_t size;			/* bytes of file or anon region */
	char device[SCN_NAME_LEN];	/* file's device */
	uint64_t ops;			/* operations in total (all threads) */
	uint64_t think_ns;		/* user CPU per operation */
	uint64_t start_ns;		/* start delay */
	int advice;			/* enum mm_advice: madvise/fadvise of its mappings (-1: type's) */
	double scale;			/* the scale applied to this scenario's sizes */
	void *params;			/* the type's own keys (type->params_size bytes) */
};

/* [mglru]: /sys/kernel/mm/lru_gen knobs and the isolate_folios variants (both MGLRU policies) */
struct scn_mglru {
	int enabled;			/* lru_gen/enabled: LRU_GEN_* capability bits */
	int fallback;			/* -1 default, 0 scanned0, 1 explicit */
	int exhaust_detect;		/* -1 default, 0 or 1 */
	int retry_once;			/* -1 default, 0 or 1 */
	int fallback_gate;		/* -1 default, 0 or 1 */
	uint64_t min_ttl_ns;		/* lru_gen/min_ttl_ms, in ns (a period: scaled) */
	/* ablation switches (1: the kernel's mechanism, 0: removed) */
	bool walk, look_around, bloom_filter, tiers, memcg_lru;
};

/* [sysctl]: /proc/sys/vm knobs under their own names (vm.dirty_ratio = 20) */
struct scn_sysctl {
	int dirty_ratio;		/* vm.dirty_ratio, percent */
	int dirty_background_ratio;	/* vm.dirty_background_ratio, percent */
	uint64_t dirty_bytes;		/* vm.dirty_bytes (0: the ratio) */
	uint64_t dirty_background_bytes;	/* vm.dirty_background_bytes (0: the ratio) */
	int dirty_expire_cs;		/* vm.dirty_expire_centisecs */
	int dirty_writeback_cs;		/* vm.dirty_writeback_centisecs (0: no periodic writeback) */
	int swappiness;			/* vm.swappiness */
	int watermark_scale_factor;	/* vm.watermark_scale_factor */
	uint64_t min_free_kbytes;	/* vm.min_free_kbytes, scaled (UINT64_MAX: computed) */
	int page_cluster;		/* vm.page-cluster: swap-in reads 2^N slots */
};

/* [debugfs]: /sys/kernel/debug knobs */
struct scn_debugfs {
	uint64_t fault_around_bytes;	/* fault_around_bytes */
};

/* [memcg] (no name): options of the memcg code itself */
struct scn_memcg_opts {
	int reclaim_batch;		/* -1 default, else enum memcg_reclaim_batch */
};

/* [swap]: one swap device */
struct scn_swap {
	char type[16];			/* none, zram, block */
	uint64_t size;			/* bytes (zram disksize or swap area) */
	uint64_t disksize;		/* zram: /sys/block/zram0/disksize (0: size says) */
	char device[SCN_NAME_LEN];	/* block: the device holding the area */
	char comp_algorithm[16];	/* zram: /sys/block/zram0/comp_algorithm (lz4, lzo, zstd) */
	/* zswap in front of the device: /sys/module/zswap/parameters */
	bool zswap;			/* enabled */
	int max_pool_percent;		/* of total RAM (20) */
	int accept_threshold_percent;	/* of the pool limit (90) */
	bool shrinker_enabled;		/* the memory-pressure shrinker (no) */
};

struct scenario {
	char *path;			/* file it came from */
	char *name;			/* basename without .ini */
	char *text;			/* the file's text */
	struct scn_machine machine;
	struct scn_mglru mglru;
	struct scn_sysctl sysctl;
	struct scn_debugfs debugfs;
	struct scn_swap swap;
	struct scn_node node[SCN_MAX_NODES];
	struct scn_device device[SCN_MAX_DEVICES];
	int nr_devices;
	struct scn_memcg memcg[SCN_MAX_MEMCGS];
	int nr_memcgs;
	struct scn_workload workload[SCN_MAX_WORKLOADS];
	int nr_workloads;
	struct scn_memcg_opts memcg_opts;	/* [memcg] */
};

/* ---- key tables: how a section's keys are read ---- */

enum key_type {
	KT_SIZE,	/* bytes */
	KT_LIMIT,	/* bytes or "max" */
	KT_COUNT,	/* a count */
	KT_INT,		/* integer in [lo, hi] (an int, or int64_t when the field is 8 bytes) */
	KT_DOUBLE,	/* real in [lo, hi] */
	KT_TIME,	/* duration */
	KT_STRING,	/* a name or keyword, at most the field's size less one */
	KT_TEXT,	/* any length (a malloc'ed char *: the owner frees it) */
	KT_BOOL,	/* 0/1, yes/no, true/false */
	KT_WORKLOAD_TYPE,	/* workload type (scenarios/workloads.c) */
	KT_CHOICE,	/* one of `choices`, stored as its index (an int) */
	KT_SCALE,	/* a scale: 0.125 or 1/8 */
	KT_FALLBACK,	/* scanned0 / explicit */
	KT_TRISTATE,	/* 0/1 (default: the policy's) */
	KT_INT_SIZE,	/* bytes, not 0 (a record's size) */
	KT_RECLAIM_BATCH,	/* full / swap_cluster_max / decay4 */
	KT_AMOUNT,	/* bytes or "full" */
	KT_MSECS,	/* whole milliseconds, stored in ns */
	KT_LRU_GEN_CAPS,	/* lru_gen/enabled: y, n or a mask of LRU_GEN_* bits */
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
	double lo, hi;		/* bounds for KT_INT / KT_DOUBLE */
	const char *what;	/* how errors name the value */
	const char *doc;	/* one line for `mmemu list` (workload keys) */
	const char *const *choices;	/* KT_CHOICE: the names, NULL-terminated */
};

/* A key of struct `st`'s field `f`; `doc` is NULL for sections `mmemu list` does not show. */
#define SCN_KEY(k, t, sc, st, f, lo, hi, what, doc)                                    \
	{ k, t, sc, offsetof(st, f), sizeof(((st *)0)->f), lo, hi, what, doc, NULL }
#define SCN_CHOICE(k, st, f, names, what, doc)                                         \
	{ k, KT_CHOICE, KEY_UNSCALED, offsetof(st, f), sizeof(((st *)0)->f), 0, 0, what, doc, \
	  names }

/* A section kind and its keys, for `mmemu list sections`; NULL-terminated. */
struct scn_section_doc {
	const char *name;		/* [name] as written */
	const char *set;		/* what --set puts before a key and a dot ("": nothing) */
	const char *desc;		/* one line */
	const struct key_desc *keys;	/* its keys, with docs */
};
extern const struct scn_section_doc scn_sections[];

/* The keys every [workload.*] section takes, {0}-terminated (the type's come after). */
extern const struct key_desc scn_workload_keys[];

/*
 * What a workload type's check() sees: the scenario as read (the other
 * sections are checked already), the section's name, and where a message goes.
 */
struct scn_check {
	const struct scenario *s;	/* the scenario */
	const char *section;		/* "workload.NAME" */
	char *err;			/* the message buffer */
	size_t errlen;
};

/* Writes "scenario 'F' line N: [SECTION] KEY: MSG" (the key's line, else the
 * section's first) and returns -1; section NULL: the workload's own. */
int scn_fail(const struct scn_check *ck, const char *section, const char *key, const char *msg);

/*
 * Loads a scenario, applies `sets` ("section.key=value") and the scale
 * (<= 0: the file's default). On error returns -1 with a one-line message
 * naming file, line and key in `err`.
 */
int scenario_load(struct scenario *s, const char *path, const char *const *sets,
		  int nr_sets, double scale, char *err, size_t errlen);
void scenario_free(struct scenario *s);

/*
 * The release a run emulates: [machine] kernel, else the newest. A policy
 * the release did not have is refused when the kernel was named (-1 and a
 * message naming the key's file and line); unnamed, every policy runs under
 * the newest release's other rules.
 */
const struct kernel_rules *scenario_kernel(const struct scenario *s);
int scenario_check_policy(const struct scenario *s, const char *policy, char *err, size_t errlen);

/* Size parsing: "10G", "4.5G", "64M", "4096" (bytes). 0 or -1. */
int parse_size(const char *s, uint64_t *bytes);
/* Time parsing: "100us", "1.5ms", "2s", "30" (seconds). 0 or -1. */
int parse_time_ns(const char *s, uint64_t *ns);

#endif
