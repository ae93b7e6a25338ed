/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A run's results: named groups ("vmstat", "node.0", "memcg.app.memory.stat",
 * "workload.reader", "device.nvme0") of named values, in a fixed order.
 * The writers in tools/ render them; runs cross process boundaries in a
 * line format (result_write / result_read).
 */
#ifndef MMEMU_SCENARIOS_RESULT_H
#define MMEMU_SCENARIOS_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

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
	char policy[32];	/* policy name */
	char options[256];	/* --set options applied, space separated */
	uint64_t seed;		/* run seed */
	double sim_seconds;	/* simulated time at the end */
	double host_seconds;	/* wall time of the run on the host */
	struct result_group *g;
	int nr, cap;
	char *dump;		/* --dump lru_gen text (NULL if none) */
	size_t dump_len;
	char **samples;		/* time series rows, each a JSON object */
	int nr_samples, cap_samples;
};

void result_dump_append(struct run_result *r, const char *line);
void result_add_sample(struct run_result *r, const char *json);

void result_init(struct run_result *r);
void result_free(struct run_result *r);
struct result_group *result_group(struct run_result *r, const char *name);
void result_add(struct result_group *g, const char *key, double value, bool is_int);
static inline void result_add_u64(struct result_group *g, const char *key, uint64_t v)
{
	result_add(g, key, (double)v, true);
}
const struct result_group *result_find_group(const struct run_result *r, const char *name);
const struct result_value *result_find(const struct result_group *g, const char *key);

/* Line format for the pipe between a run's process and the CLI. */
int result_write(const struct run_result *r, FILE *f);
int result_read(struct run_result *r, FILE *f);

#endif
