/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's results: named groups ("vmstat", "node.0", "memcg.app.memory.stat",
 * "workload.reader", "device.nvme0") of named values, in a fixed order.
 * A run's process hands its result to the CLI as an mmemu.Run message
 * (scenarios/result.proto); the CLI saves and renders those messages, so the
 * writers in tools/ see the same thing whether a run just ended or was saved.
 */
#ifndef MMEMU_SCENARIOS_RESULT_H
#define MMEMU_SCENARIOS_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "scenarios/result.pb-c.h"

struct result_value {
	char key[64];		/* kernel name where one exists */
	double value;		/* the value */
	bool is_int;		/* print as an integer */
};

struct result_group {
	char name[96];		/* kind[.name[.file]] */
	struct result_value *v;
	int nr, cap;
};

struct run_result {
	char *policy;		/* policy name (malloc'ed, result_set_run) */
	char *options;		/* --set options applied, "key=value" words (malloc'ed) */
	char *policy_file;	/* a policy from a file: its realpath (malloc'ed, NULL: built in) */
	char *policy_sha256;	/* ... and the SHA-256 of its contents (malloc'ed) */
	char *policy_name;	/* ... and its own name, reclaim_policy.name (malloc'ed) */
	char *kernel;		/* the release emulated, "7.2" (malloc'ed, result_set_kernel) */
	uint64_t seed;		/* run seed */
	double sim_seconds;	/* simulated time at the end */
	double host_seconds;	/* wall time of the run on the host */
	struct result_group *g;
	int nr, cap;
	char *dump;		/* --dump lru_gen text (NULL if none) */
	size_t dump_len;
	Mmemu__Sample **samples;	/* time series rows (each freed with mmemu__sample__free_unpacked) */
	int nr_samples, cap_samples;
	/* each row as it is added, as JSON (mmemu run --live streams them); NULL: none */
	void (*on_sample)(void *ctx, const char *json);
	void *on_sample_ctx;
	bool samples_unsaved;	/* rows go to on_sample only, not into samples */
};

void result_dump_append(struct run_result *r, const char *line);
/* A time series row: copied (unless samples_unsaved) and handed to on_sample. */
void result_add_sample(struct run_result *r, const Mmemu__Sample *s);

/*
 * A row as the JSON object `mmemu run --format json` prints in
 * lru_gen_samples (one line, no newline): kind "stats", "gens" (or the
 * policy's sample_kind), "lists" or "oom", then the row's fields. 0 or -1.
 */
int result_sample_json(const Mmemu__Sample *s, FILE *f);
/* The same in a malloc'ed string; NULL: out of memory. */
char *result_sample_text(const Mmemu__Sample *s);
/* A run's options as the words --set gave them, "a=1 b=2" (malloc'ed; NULL: out of memory). */
char *result_options_text(const Mmemu__Run *m);

void result_init(struct run_result *r);
/* The run's policy and options (copied whole; NULL options: none). */
void result_set_run(struct run_result *r, const char *policy, const char *options);
/* A policy loaded from a file: its path, content hash and own name, for the record. */
void result_set_policy_file(struct run_result *r, const char *path, const char *sha256,
			    const char *name);
/* The kernel release the run emulated (its name, "7.2"). */
void result_set_kernel(struct run_result *r, const char *kernel);
void result_free(struct run_result *r);
struct result_group *result_group(struct run_result *r, const char *name);
void result_add(struct result_group *g, const char *key, double value, bool is_int);
static inline void result_add_u64(struct result_group *g, const char *key, uint64_t v)
{
	result_add(g, key, (double)v, true);
}
const struct result_group *result_find_group(const struct run_result *r, const char *name);
const struct result_value *result_find(const struct result_group *g, const char *key);

/*
 * A line format the test harness reads and diffs (tests/harness.c): one
 * "run" line, "v" group/key/value lines, "s" samples (as JSON; result_read
 * skips them), "d" dump lines, "end".
 */
int result_write(const struct run_result *r, FILE *f);
int result_read(struct run_result *r, FILE *f);

/* ---- the protobuf form (scenarios/result.proto) ---- */

/* Packs r as an mmemu.Run into a malloc'ed *buf. 0 or -ENOMEM. */
int result_pack(const struct run_result *r, uint8_t **buf, size_t *len);
/* Writes r as a 4-byte little-endian length and a packed mmemu.Run. 0 or -errno. */
int result_send(const struct run_result *r, FILE *f);
/*
 * Reads what result_send() wrote; NULL on a short or malformed record.
 * Free with mmemu__run__free_unpacked(m, NULL).
 */
Mmemu__Run *result_recv(FILE *f);

/*
 * A saved file: a length-delimited protobuf stream (varint length, message),
 * an mmemu.Header, then the mmemu.Invocation. RESULT_FILE_SCHEMA counts the
 * file's forms: 1 was "MMEMUPB1" + an 8-byte length + the Invocation, with
 * the samples as JSON text (refused now: regenerate with run --out).
 */
#define RESULT_FILE_FORMAT "mmemu.results"
#define RESULT_FILE_SCHEMA 2
#define RESULT_FILE_OLD_MAGIC "MMEMUPB1"

/* Writes inv as a saved file (its Header names this build's commit). 0 or -errno. */
int result_file_write(const Mmemu__Invocation *inv, FILE *f);
/*
 * Reads a saved file; NULL with the reason in why ("not an mmemu result
 * file", "truncated: ...", ...) when it is foreign, cut short or corrupt.
 * Free with mmemu__invocation__free_unpacked(inv, NULL).
 */
Mmemu__Invocation *result_file_read(FILE *f, char *why, size_t whylen);
/* The same from the len bytes of a saved file in memory (a sweep's child's stdout). */
Mmemu__Invocation *result_file_parse(const uint8_t *buf, size_t len, char *why, size_t whylen);

#endif
