/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared setup for the Check tests. The SimGrid engine can be initialised
 * once per process only, so every test that needs it boots its own machine
 * (Check's default fork mode runs each test in its own process; with
 * CK_FORK=no run one engine test at a time, e.g. CK_RUN_CASE=...).
 */
#ifndef MMEMU_TESTS_HARNESS_H
#define MMEMU_TESTS_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/engine.h"
#include "models/memory.h"
#include "models/policy.h"
#include "numa/numa.h"
#include "scenarios/result.h"
#include "storage/blockdev.h"

/* Cores per node in machines made by harness_boot(). */
#define HARNESS_CPUS 4

/* The machine given to mm_init() by the last harness_boot(). */
extern struct machine harness_machine;

/*
 * machine_init (nr_nodes nodes of pages_per_node pages, HARNESS_CPUS cores,
 * watermark_scale_factor 10) + numa_platform_xml + engine_init (seed 1) +
 * mm_init (vm.swappiness 60). Aborts the test on failure.
 */
void harness_boot(int nr_nodes, uint64_t pages_per_node, const struct reclaim_policy *p);
/* Only the engine, on a platform made from `m` (no mm_init). */
void harness_boot_engine(const struct machine *m);

/* Creates one non-daemon actor on node 0 running fn(actor, arg), then engine_run(0). */
void harness_run_actor(void (*fn)(struct actor *, void *), void *arg);

/* An NVMe device with its default parameters. */
void harness_nvme(struct blockdev *d);

/* The source root: $SRCDIR, else the one meson configured. */
const char *harness_srcdir(void);
/* $SRCDIR/rel in a static buffer. */
const char *harness_src_path(const char *rel);

/*
 * Forks a child that loads the scenario (sets, scale, seed, policy) and
 * runs it with scenario_run(); the child sends result_write() text back.
 * Returns the child's exit status (0 = ran), with the text in *out
 * (malloc'ed, NUL-terminated, possibly empty) and the child's error
 * message (scenario_load or scenario_run) in err.
 */
int harness_run_scenario(const char *path, const char *const *sets, int nr_sets,
			 double scale, uint64_t seed, const char *policy,
			 bool check_invariants, char **out, char *err, size_t errlen);
/* The same, invariants checked every check_every quiescent points (run_opts.check_every). */
int harness_run_scenario_checked(const char *path, const char *const *sets, int nr_sets,
				 double scale, uint64_t seed, const char *policy,
				 uint64_t check_every, char **out, char *err, size_t errlen);
/* Parses result_write() text. 0 or -1. */
int harness_parse_result(const char *text, struct run_result *r);
/* A value of a result, or NaN when the group or key is missing. */
double harness_value(const struct run_result *r, const char *group, const char *key);

/*
 * Runs argv (argv[0] a path) with stdout and stderr captured into malloc'ed
 * strings. Returns the exit status, or -1 if it did not exit normally.
 */
int harness_exec(const char *const *argv, char **out, char **err);
/*
 * The same with stdout going to stdout_path (created; *out is then empty)
 * unless it is NULL, and, when fsize_limit is not 0, RLIMIT_FSIZE set to it
 * with SIGXFSZ ignored: a write past it fails with EFBIG, as on a full disk.
 */
int harness_exec_to(const char *const *argv, const char *stdout_path, unsigned long fsize_limit,
		    char **out, char **err);

/* Writes text to a new temporary file "<dir>/mmemu-test-XXXXXX.ini"; returns its path. */
char *harness_write_temp(const char *text);

/* The PTE of t's mapping of file f for page `index` (the mapping is made if absent). */
uint8_t *harness_file_pte(struct task *t, struct address_space *f, uint64_t index);

#endif
