/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Scenario files (INI): [machine], [node.N], [device.NAME], [memcg.NAME],
 * [workload.NAME]. Every size is written at full scale; --scale shrinks
 * sizes and counts together. --set section.key=value overrides any key.
 */
#ifndef MMEMU_SCENARIOS_SCENARIO_H
#define MMEMU_SCENARIOS_SCENARIO_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/trace.h"

#define SCN_MAX_NODES 8
#define SCN_MAX_DEVICES 16
#define SCN_MAX_MEMCGS 64
#define SCN_MAX_WORKLOADS 64
#define SCN_NAME_LEN 48

struct scn_machine {
	int nodes;			/* NUMA nodes */
	uint64_t node_memory;		/* bytes per node (unless [node.N] says) */
	int node_cpus;			/* cores per node */
	int swappiness;			/* vm.swappiness */
	int watermark_scale_factor;	/* vm.watermark_scale_factor */
	uint64_t duration_ns;		/* simulated time limit (0 = until workloads end) */
	char policy[SCN_NAME_LEN];	/* default policy list when --policy is absent */
	double scale;			/* default --scale */
};

struct scn_node {
	uint64_t memory;		/* bytes, 0 = machine default */
	int cpus;			/* 0 = machine default */
};

struct scn_device {
	char name[SCN_NAME_LEN];
	char type[16];			/* nvme */
	uint64_t read_lat_ns, write_lat_ns;	/* 0 = the type's default */
	uint64_t read_bw, write_bw;	/* bytes/s, 0 = default */
	int channels;			/* 0 = default */
	uint64_t delay_read_ns;		/* extra latency on reads */
	uint64_t delay_write_ns;	/* extra latency on writes */
};

struct scn_memcg {
	char name[SCN_NAME_LEN];
	char parent[SCN_NAME_LEN];	/* "" = the root */
	uint64_t max, high, low, min;	/* bytes; UINT64_MAX = max */
	uint64_t swap_max;		/* bytes */
	int swappiness;			/* -1 = vm.swappiness */
};

enum scn_workload_type {
	WL_FILE_ZIPF,		/* zipfian reads (and updates) of a file */
	WL_ANON,		/* an anonymous working set */
	WL_DD,			/* dd: sequential write() of a file, pages_per_op per op */
	WL_FILE_SCAN,		/* read every page of a mapped file, pause, forever */
	WL_ANON_ROUNDS,		/* fault in anon memory, free it, `rounds` times */
	WL_TRACE,		/* replay a page-access trace */
	WL_YCSB,		/* a key-value store: anon cache over a data file (YCSB) */
	WL_FIO,			/* fio mmap randread: one file per job (wl_fio.c) */
	WL_SYSBENCH,		/* sysbench oltp_read_only on an InnoDB-like pool (wl_sysbench.c) */
	WL_APP_LAUNCH,		/* app launches in sequence, each app its memcg (wl_applaunch.c) */
	WL_PROACTIVE_RECLAIM,	/* one write to memory.reclaim (scenarios/wl_reclaim.c) */
	WL_CHROME_NODE,		/* Node.js servers in many memcgs, Chrome-like clients */
	WL_KBUILD,		/* make -jN: short-lived compiler processes (wl_kbuild.c) */
	NR_WL_TYPES
};

enum scn_access {
	ACC_READ,		/* read()/write() system calls */
	ACC_MMAP,		/* loads and stores through a mapping */
};

struct scn_workload {
	char name[SCN_NAME_LEN];
	enum scn_workload_type type;
	char memcg[SCN_NAME_LEN];	/* memcg the task runs in */
	int node;			/* preferred node (CPU and memory) */
	int threads;			/* actors */
	uint64_t size;			/* bytes of file or anon region */
	char device[SCN_NAME_LEN];	/* file's device */
	enum scn_access access;		/* read() or mmap for files */
	double zipf_theta;		/* 0 = uniform */
	uint64_t ops;			/* operations in total (all threads) */
	uint64_t pages_per_op;		/* consecutive pages touched per operation */
	double write_ratio;		/* share of operations that write */
	uint64_t think_ns;		/* user CPU per operation */
	uint64_t start_ns;		/* start delay */
	bool prefault;			/* anon: touch every page once first */
	double compress_ratio;		/* anon: zram ratio of its data (0: compressor's) */
	uint64_t pause_ns;		/* file-scan: sleep after each pass */
	int rounds;			/* anon-rounds: how many; app-launch: launches */
	char trace_path[256];		/* trace: the file (relative to the scenario's folder) */
	char trace_format[16];		/* trace: oracle or csv */
	char target[SCN_NAME_LEN];	/* trace: "file" or "anon"; proactive-reclaim: a memcg or "root" */
	struct trace *trace;		/* trace: loaded requests */
	uint64_t cache_size;		/* ycsb: the store's own cache (anon), bytes */
	uint64_t record_size;		/* ycsb: bytes per record */
	int tables;			/* sysbench: tables */
	uint64_t rows;			/* sysbench: rows per table (scaled) */
	char rand_type[16];		/* sysbench: key distribution, special or uniform */
	int apps;			/* app-launch: apps cycled through */
	uint64_t heap_size;		/* app-launch: anon heap per app; kbuild: mean heap per job (bytes) */
	uint64_t wss_size;		/* app-launch: code pages touched at startup, bytes */
	uint64_t run_ns;		/* app-launch: time an app stays in front */
	uint64_t amount;		/* proactive-reclaim: bytes written to memory.reclaim (UINT64_MAX: full) */
	int groups;			/* chrome-node: memcgs made under `memcg` */
	int workers_per_group;		/* chrome-node: servers per memcg (0: one per node) */
	uint64_t chunk;			/* chrome-node: bytes of its buffer a request writes */
	uint64_t client_alloc;		/* chrome-node: bytes a client faults in and frees per request */
	double scale;			/* the scale applied to this scenario's sizes */
	char src[8];			/* kbuild: the tree and outputs on "file" or "tmpfs" */
	uint64_t jobs;			/* kbuild: compilation units (scaled) */
	uint64_t compiler_size;		/* kbuild: the compiler's text (cc1), bytes */
	double heap_sigma;		/* kbuild: lognormal sigma of the heap size */
	uint64_t compile_ns;		/* kbuild: mean user CPU per job */
	double compile_sigma;		/* kbuild: lognormal sigma of the CPU per job */
	uint64_t headers_size;		/* kbuild: bytes of the headers a job can include */
	uint64_t nr_headers;		/* kbuild: how many headers (scaled) */
	uint64_t includes;		/* kbuild: headers drawn per job (scaled) */
	uint64_t sources_size;		/* kbuild: bytes of the .c files built */
	uint64_t objects_size;		/* kbuild: bytes of the objects written */
	uint64_t page_size;		/* ycsb: on-disk leaf page, bytes (0: one 4 KiB page) */
	uint64_t checkpoint_ns;		/* ycsb: checkpoint interval (0: none) */
	char ycsb_workload[4];		/* ycsb: core workload a..f ("": write_ratio updates) */
};

/* [mglru]: the isolate_folios variants and min_ttl (apply to both MGLRU policies) */
struct scn_mglru {
	int fallback;			/* -1 default, 0 scanned0, 1 explicit */
	int exhaust_detect;		/* -1 default, 0 or 1 */
	int retry_once;			/* -1 default, 0 or 1 */
	int fallback_gate;		/* -1 default, 0 or 1 */
	uint64_t min_ttl_ns;		/* min_ttl_ms */
};

/* [memcg] (no name): options of the memcg code itself */
struct scn_memcg_opts {
	int reclaim_batch;		/* -1 default, else enum memcg_reclaim_batch */
};

/* [swap]: one swap device */
struct scn_swap {
	char type[16];			/* none, zram, block */
	uint64_t size;			/* bytes (zram disksize or swap area) */
	char device[SCN_NAME_LEN];	/* block: the device holding the area */
	char compressor[16];		/* zram: lz4, lzo, zstd */
};

struct scenario {
	char path[256];			/* file it came from */
	char name[64];			/* basename without .ini */
	char *text;			/* the file's text */
	struct scn_machine machine;
	struct scn_mglru mglru;
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

/*
 * Loads a scenario, applies `sets` ("section.key=value") and the scale
 * (<= 0: the file's default). On error returns -1 with a one-line message
 * naming file, line and key in `err`.
 */
int scenario_load(struct scenario *s, const char *path, const char *const *sets,
		  int nr_sets, double scale, char *err, size_t errlen);
void scenario_free(struct scenario *s);

/* Size parsing: "10G", "4.5G", "64M", "4096" (bytes). 0 or -1. */
int parse_size(const char *s, uint64_t *bytes);
/* Time parsing: "100us", "1.5ms", "2s", "30" (seconds). 0 or -1. */
int parse_time_ns(const char *s, uint64_t *ns);

const char *scn_workload_type_name(enum scn_workload_type t);

#endif
