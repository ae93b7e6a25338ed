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
#include <stdio.h>

#include "mmemu/keys.h"

#define SCN_MAX_NODES 8
#define SCN_MAX_DEVICES 16
#define SCN_MAX_MEMCGS 64
#define SCN_MAX_WORKLOADS 64
/* A section's name (memcg, device, workload) is at most SCN_NAME_LEN - 1 characters. */
#define SCN_NAME_LEN 48
/* Policies with knobs a scenario can set at once. */
#define SCN_MAX_POLICY_SECTIONS 8

struct kernel_rules;
struct reclaim_policy;

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

struct policy_knobs;

/*
 * A reclaim policy's section ([mglru]): its keys are the policy's
 * (reclaim_policy.knobs), its values a struct of the policy's own.
 */
struct scn_policy_section {
	const struct policy_knobs *knobs;	/* the section and its keys */
	void *values;			/* knobs->size bytes: the defaults, then the file's */
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
	/* the sections of every policy known when it was loaded (built in, or a loaded ./x.so) */
	struct scn_policy_section policy_section[SCN_MAX_POLICY_SECTIONS];
	int nr_policy_sections;
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

/* A section kind and its keys, for `mmemu list sections`; NULL-terminated. */
struct scn_section_doc {
	const char *name;		/* [name] as written */
	const char *set;		/* what --set puts before a key and a dot ("": nothing) */
	const char *desc;		/* one line */
	const struct key_desc *keys;	/* its keys, with docs */
};
extern const struct scn_section_doc scn_sections[];
/*
 * Every section kind with its keys, for `mmemu list sections`: those of
 * scn_sections, then those of the policies known now (built in, and each
 * ./x.so loaded: reclaim_policy.knobs); at most max, their number.
 */
int scn_section_docs(struct scn_section_doc *out, int max);

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
/*
 * scenario_load() of the text read from in (to its end) as the file at
 * path: its name, its messages and its relative paths are path's (a run's
 * child of `mmemu run` gets the text its parent loaded on stdin).
 */
int scenario_load_stream(struct scenario *s, const char *path, FILE *in,
			 const char *const *sets, int nr_sets, double scale, char *err,
			 size_t errlen);
void scenario_free(struct scenario *s);

/*
 * The values a scenario gives a policy's knobs (the defaults where it sets
 * none), NULL for a policy without knobs: what knobs->set() gets for a run.
 */
const void *scenario_policy_knobs(const struct scenario *s, const struct reclaim_policy *policy);

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
