/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu fuzz [--policy a,b,...] [--seed N] [--time S] [--runs N] [--out DIR]`:
 * random cases, each a scenario file, run as `mmemu run` runs one: each in
 * a child on the runner (tools/runner.h: -j at a time, killed past
 * --case-timeout and with fuzz), `mmemu fuzz --cell --policy P --seed S`
 * with the case's text on stdin (fuzz_cell(): scenario_load_stream(),
 * scenario_check_policy(), scenario_run() with the model's invariants
 * checked at the engine's quiescent points and at the end: the checks
 * check-policy reports), its verdict one line on stdout. A case fails when
 * an invariant breaks, its process dies of a signal or exits otherwise
 * than with a verdict, it runs past --case-timeout, the loader refuses it,
 * or the run ends with an error. The first failing case (the lowest index,
 * whatever -j; the cases after it are killed) is shrunk, its candidates
 * children on the same runner: sections dropped, keys dropped, numbers
 * halved, keeping each change under which the case still fails the same
 * way; the result and the original are saved under --out, and the `mmemu
 * run` command that fails on it is printed. Exit 0 when nothing failed, 1
 * when a case did, 2 on bad usage; SIGINT, SIGTERM or SIGHUP kill the
 * children, and fuzz dies of the signal.
 *
 * A case is drawn from its own PRNG stream (the --seed and its index):
 * the same seed makes the same cases, in the same order, whatever -j and
 * however long each takes; --time only says how many of them run.
 *
 * The workload types come from scenarios/workloads.c's table, and each
 * has its generator in fuzz_types[] below, which writes only keys that
 * the type's key table (mmemu list workloads) has: a key it lacks is an
 * error naming the type and the key, not a case.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "models/kernel_version.h"
#include "models/mm.h"
#include "models/policy.h"
#include "models/policy/loader.h"
#include "scenarios/run.h"
#include "scenarios/scenario.h"
#include "scenarios/workload.h"
#include "storage/blockdev.h"
#include "tools/args.h"
#include "tools/child.h"
#include "tools/fuzz.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/runner.h"

#define FZ_MAX_POLICIES 16
#define FZ_MAX_JOBS 64
#define FZ_MAX_KV 32
/* [machine], [node.*] (4), [device.*] (3), [swap], [sysctl], [mglru], [memcg.*] (6), [workload.*] (5) */
#define FZ_MAX_SECT 24
#define FZ_MAX_NODES 4
#define FZ_MAX_DEVICES 3
#define FZ_MAX_MEMCGS 6
#define FZ_MAX_WORKLOADS 5

#define MIB ((uint64_t)1 << 20)
#define GIB ((uint64_t)1 << 30)

/*
 * Host seconds a case may take before it counts as hung: most cases take
 * well under a second (machines at 1/32 to 1/256 scale, at most 1 s
 * simulated), the slowest seen about 20 s (seed 1's case 20: classic
 * scanning 46 M pages for 15 K reclaimed); an estimate with a wide margin
 * for a loaded machine.
 */
#define FZ_CASE_TIMEOUT_S 120.0
/* Host seconds the shrinking of a failure may take (estimate: tens of runs of a second). */
#define FZ_SHRINK_TIME_S 120.0
/* run's --sample default (tools/cmd_run.c): the run fuzz makes is the one run makes */
#define FZ_SAMPLE_NS (100 * NSEC_PER_MSEC)

/* ---- the PRNG: SplitMix64 (Steele, Lea, Flood, OOPSLA 2014), one stream per case ---- */

struct fz_rng {
	uint64_t s;
};

static uint64_t rnd(struct fz_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in [lo, hi]. */
static uint64_t rnd_range(struct fz_rng *r, uint64_t lo, uint64_t hi)
{
	return lo + rnd(r) % (hi - lo + 1);
}

/* True with probability pct %. */
static bool rnd_pct(struct fz_rng *r, unsigned pct)
{
	return rnd(r) % 100 < pct;
}

static double rnd_double(struct fz_rng *r, double lo, double hi)
{
	return lo + (hi - lo) * (double)(rnd(r) >> 11) / 9007199254740992.0;
}

/* ---- a case: sections of keys, as the file will say them ---- */

enum fz_kind {
	FZ_STR,		/* as written */
	FZ_SIZE,	/* bytes, halved down to lo */
	FZ_TIME,	/* ns, halved down to lo */
	FZ_COUNT,	/* a number, halved down to lo */
	FZ_SCALE,	/* 1/num: shrinking doubles num up to hi */
};

struct fz_kv {
	char key[40];
	char str[64];		/* FZ_STR */
	uint64_t num, lo;	/* the others */
	enum fz_kind kind;
	bool keep;		/* shrinking does not drop it (a reference or the type) */
};

struct fz_sect {
	char name[64];		/* "machine", "memcg.m0", ... */
	int nr;
	struct fz_kv kv[FZ_MAX_KV];
};

struct fz_case {
	int nr;
	struct fz_sect s[FZ_MAX_SECT];
};

static int fuzz_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fuzz_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "mmemu: fuzz: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

static struct fz_sect *sect_find(struct fz_case *c, const char *name)
{
	for (int i = 0; i < c->nr; i++)
		if (!strcmp(c->s[i].name, name))
			return &c->s[i];
	return NULL;
}

static struct fz_sect *sect_add(struct fz_case *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static struct fz_sect *sect_add(struct fz_case *c, const char *fmt, ...)
{
	struct fz_sect *s;
	va_list ap;

	if (c->nr == FZ_MAX_SECT)
		abort();	/* FZ_MAX_* bound the sections: a programming error */
	s = &c->s[c->nr++];
	memset(s, 0, sizeof(*s));
	va_start(ap, fmt);
	vsnprintf(s->name, sizeof(s->name), fmt, ap);
	va_end(ap);
	return s;
}

static void sect_del(struct fz_case *c, struct fz_sect *s)
{
	int i = (int)(s - c->s);

	memmove(&c->s[i], &c->s[i + 1], (size_t)(c->nr - i - 1) * sizeof(c->s[0]));
	c->nr--;
}

static struct fz_kv *kv_find(struct fz_sect *s, const char *key)
{
	for (int i = 0; s && i < s->nr; i++)
		if (!strcmp(s->kv[i].key, key))
			return &s->kv[i];
	return NULL;
}

static void kv_del(struct fz_sect *s, struct fz_kv *kv)
{
	int i = (int)(kv - s->kv);

	memmove(&s->kv[i], &s->kv[i + 1], (size_t)(s->nr - i - 1) * sizeof(s->kv[0]));
	s->nr--;
}

static struct fz_kv *kv_add(struct fz_sect *s, const char *key, enum fz_kind kind)
{
	struct fz_kv *kv = kv_find(s, key);

	if (!kv) {
		if (s->nr == FZ_MAX_KV)
			abort();
		kv = &s->kv[s->nr++];
	}
	memset(kv, 0, sizeof(*kv));
	snprintf(kv->key, sizeof(kv->key), "%s", key);
	kv->kind = kind;
	return kv;
}

static struct fz_kv *kv_str(struct fz_sect *s, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static struct fz_kv *kv_str(struct fz_sect *s, const char *key, const char *fmt, ...)
{
	struct fz_kv *kv = kv_add(s, key, FZ_STR);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(kv->str, sizeof(kv->str), fmt, ap);
	va_end(ap);
	return kv;
}

static struct fz_kv *kv_num(struct fz_sect *s, const char *key, enum fz_kind kind, uint64_t v,
			    uint64_t lo)
{
	struct fz_kv *kv = kv_add(s, key, kind);

	kv->num = v;
	kv->lo = lo;
	return kv;
}

/* A size in whole pages of at least lo. */
static struct fz_kv *kv_size(struct fz_sect *s, const char *key, uint64_t bytes, uint64_t lo)
{
	/* whole MiB when that is a small change: the reproducer reads better */
	bytes &= bytes >= 64 * MIB ? ~(MIB - 1) : ~(uint64_t)4095;
	return kv_num(s, key, FZ_SIZE, bytes > lo ? bytes : lo, lo);
}

/* The value as the file says it. */
static void kv_format(const struct fz_kv *kv, char *buf, size_t len)
{
	uint64_t v = kv->num;

	switch (kv->kind) {
	case FZ_STR:
		snprintf(buf, len, "%s", kv->str);
		break;
	case FZ_SIZE:
		if (v && !(v % GIB))
			snprintf(buf, len, "%" PRIu64 "G", v / GIB);
		else if (v && !(v % MIB))
			snprintf(buf, len, "%" PRIu64 "M", v / MIB);
		else if (v && !(v % 1024))
			snprintf(buf, len, "%" PRIu64 "K", v / 1024);
		else
			snprintf(buf, len, "%" PRIu64, v);
		break;
	case FZ_TIME:
		if (v && !(v % (uint64_t)1000000000))
			snprintf(buf, len, "%" PRIu64 "s", v / (uint64_t)1000000000);
		else if (v && !(v % (uint64_t)1000000))
			snprintf(buf, len, "%" PRIu64 "ms", v / (uint64_t)1000000);
		else if (v && !(v % (uint64_t)1000))
			snprintf(buf, len, "%" PRIu64 "us", v / (uint64_t)1000);
		else
			snprintf(buf, len, "%" PRIu64 "ns", v);
		break;
	case FZ_COUNT:
		snprintf(buf, len, "%" PRIu64, v);
		break;
	case FZ_SCALE:
		snprintf(buf, len, "1/%" PRIu64, v);
		break;
	}
}

/* The case as a scenario file, with what made it and the command that runs it. */
static void case_write(FILE *f, const struct fz_case *c, const char *what, const char *cmd)
{
	char val[96];

	fprintf(f, "; %s\n", what);
	if (cmd)
		fprintf(f, "; %s\n", cmd);
	for (int i = 0; i < c->nr; i++) {
		fprintf(f, "\n[%s]\n", c->s[i].name);
		for (int k = 0; k < c->s[i].nr; k++) {
			kv_format(&c->s[i].kv[k], val, sizeof(val));
			fprintf(f, "%s = %s\n", c->s[i].kv[k].key, val);
		}
	}
}

/* ---- the generators ---- */

/* What a workload's generator sees. */
/*
 * The ablation switches of [mglru], from the MGLRU policies' key table:
 * its 0/1 keys (walk, look_around, bloom_filter, tiers, memcg_lru), in its
 * order. Their number.
 */
static int mglru_switches(const char **out, int max)
{
	int nr = 0;

	for (int i = 0; reclaim_policies[i]; i++) {
		const struct policy_knobs *k = reclaim_policies[i]->knobs;

		if (!k || strcmp(k->section, "mglru"))
			continue;
		for (const struct key_desc *d = k->keys; d->key && nr < max; d++)
			if (d->type == KT_BOOL)
				out[nr++] = d->key;
		break;
	}
	if (!nr)
		abort();	/* no [mglru] switches: the built-in policies lost them */
	return nr;
}

struct fz_gen {
	struct fz_rng *r;
	struct fz_case *c;
	struct fz_sect *w;		/* its [workload.*] */
	const struct workload_ops *type;
	uint64_t node_memory;		/* bytes of a node, at full scale */
	uint64_t duration_ns;		/* the run's */
	int nr_devices, nr_memcgs;
	const char *err;		/* a key the type does not take (set once) */
};

/* The key of the type's table (or of every type's), NULL when it has none. */
static const struct key_desc *type_key(const struct workload_ops *t, const char *key)
{
	for (const struct key_desc *k = t->keys; k && k->key; k++)
		if (!strcmp(k->key, key))
			return k;
	for (const struct key_desc *k = scn_workload_keys; k->key; k++)
		if (!strcmp(k->key, key))
			return k;
	return NULL;
}

/* The key, when g's type takes it; else the first such key is g->err. */
static const struct key_desc *wl_key(struct fz_gen *g, const char *key)
{
	const struct key_desc *k = type_key(g->type, key);

	if (!k && !g->err)
		g->err = key;
	return k;
}

static void wl_size(struct fz_gen *g, const char *key, uint64_t bytes)
{
	if (wl_key(g, key))
		kv_size(g->w, key, bytes, MIB);
}

/* Bytes as they are (a record's size), halved down to lo. */
static void wl_bytes(struct fz_gen *g, const char *key, uint64_t bytes, uint64_t lo)
{
	if (wl_key(g, key))
		kv_num(g->w, key, FZ_SIZE, bytes, lo);
}

static void wl_time(struct fz_gen *g, const char *key, uint64_t ns)
{
	if (wl_key(g, key))
		kv_num(g->w, key, FZ_TIME, ns, 1000);
}

static void wl_count(struct fz_gen *g, const char *key, uint64_t n)
{
	if (wl_key(g, key))
		kv_num(g->w, key, FZ_COUNT, n, 1);
}

/* A real in [lo, hi], within the key's own bounds. */
static void wl_double(struct fz_gen *g, const char *key, double lo, double hi)
{
	const struct key_desc *k = wl_key(g, key);

	if (!k)
		return;
	if (k->type == KT_DOUBLE) {
		lo = lo < k->lo ? k->lo : lo;
		hi = hi > k->hi ? k->hi : hi;
	}
	kv_str(g->w, key, "%.3f", rnd_double(g->r, lo, hi));
}

/* One of the key's choices (a KT_CHOICE key: its table's names). */
static void wl_choice(struct fz_gen *g, const char *key)
{
	const struct key_desc *k = wl_key(g, key);
	int n = 0;

	if (!k)
		return;
	while (k->choices && k->choices[n])
		n++;
	if (!n) {
		if (!g->err)
			g->err = key;
		return;
	}
	kv_str(g->w, key, "%s", k->choices[rnd(g->r) % (uint64_t)n]);
}

/* One of names (a KT_STRING key whose values its check() knows). */
static void wl_pick(struct fz_gen *g, const char *key, const char *const *names, int n)
{
	if (wl_key(g, key))
		kv_str(g->w, key, "%s", names[rnd(g->r) % (uint64_t)n]);
}

static void wl_bool(struct fz_gen *g, const char *key)
{
	if (wl_key(g, key))
		kv_str(g->w, key, "%s", rnd_pct(g->r, 50) ? "yes" : "no");
}

/* A size between lo and hi times a node's memory. */
static uint64_t mem_share(struct fz_gen *g, double lo, double hi)
{
	return (uint64_t)((double)g->node_memory * rnd_double(g->r, lo, hi));
}

/* The file's device: one of the case's. */
static void wl_device(struct fz_gen *g)
{
	if (wl_key(g, "device"))
		kv_str(g->w, "device", "d%d", (int)(rnd(g->r) % (uint64_t)g->nr_devices))->keep = true;
}

/* Enough operations to last the run (the duration ends it), at 10 per us per thread at most. */
static void wl_ops(struct fz_gen *g)
{
	wl_count(g, "ops", rnd_range(g->r, 1000, 10 * g->duration_ns / 1000 + 1000));
}

static void gen_file_zipf(struct fz_gen *g)
{
	wl_device(g);
	wl_size(g, "size", mem_share(g, 0.05, 1.5));
	wl_choice(g, "access");
	wl_double(g, "zipf_theta", 0, 1.3);
	if (rnd_pct(g->r, 20))
		wl_choice(g, "scramble");
	if (rnd_pct(g->r, 20))
		wl_count(g, "pages_per_op", rnd_range(g->r, 1, 16));
	wl_double(g, "write_ratio", 0, 0.5);
	wl_ops(g);
}

static void gen_anon(struct fz_gen *g)
{
	wl_size(g, "size", mem_share(g, 0.05, 1.5));
	wl_double(g, "zipf_theta", 0, 1.3);
	if (rnd_pct(g->r, 20))
		wl_choice(g, "scramble");
	if (rnd_pct(g->r, 20))
		wl_count(g, "pages_per_op", rnd_range(g->r, 1, 16));
	wl_double(g, "write_ratio", 0, 1);
	wl_bool(g, "prefault");
	if (rnd_pct(g->r, 20))
		wl_double(g, "compress_ratio", 1, 8);
	wl_ops(g);
}

static void gen_dd(struct fz_gen *g)
{
	wl_device(g);
	wl_size(g, "size", mem_share(g, 0.05, 1.5));
	wl_choice(g, "access");
	wl_count(g, "pages_per_op", rnd_range(g->r, 1, 256));
}

static void gen_file_scan(struct fz_gen *g)
{
	wl_device(g);
	wl_size(g, "size", mem_share(g, 0.05, 1));
	wl_time(g, "pause", rnd_range(g->r, 1, 200) * 1000000ULL);
	wl_bool(g, "processes");
}

static void gen_anon_rounds(struct fz_gen *g)
{
	wl_size(g, "size", mem_share(g, 0.05, 1.5));
	wl_count(g, "rounds", rnd_range(g->r, 1, 20));
}

static void gen_ycsb(struct fz_gen *g)
{
	static const char *const mixes[] = { "a", "b", "c", "d", "e", "f" };
	uint64_t size = mem_share(g, 0.1, 2);

	wl_device(g);
	wl_size(g, "size", size);
	uint64_t cache = (uint64_t)((double)size * rnd_double(g->r, 0.05, 0.5));

	wl_size(g, "cache_size", cache);
	if (rnd_pct(g->r, 50))
		wl_bytes(g, "record_size", rnd_range(g->r, 100, 2048), 64);
	if (rnd_pct(g->r, 30))
		wl_bytes(g, "page_size", (uint64_t)4096 << rnd_range(g->r, 0, 4), 4096);
	if (rnd_pct(g->r, 30))
		/* the index fits in the cache (its check()) */
		wl_size(g, "index_size", cache / rnd_range(g->r, 4, 40));
	if (rnd_pct(g->r, 30))
		wl_time(g, "checkpoint", rnd_range(g->r, 50, 1000) * 1000000ULL);
	if (rnd_pct(g->r, 30))
		wl_time(g, "commit_interval", rnd_range(g->r, 10, 200) * 1000000ULL);
	if (rnd_pct(g->r, 50))
		wl_pick(g, "ycsb_workload", mixes, 6);
	else
		wl_double(g, "write_ratio", 0, 0.5);
	wl_double(g, "zipf_theta", 0, 1.2);
	wl_bool(g, "prefault");
	wl_ops(g);
}

static void gen_fio(struct fz_gen *g)
{
	wl_device(g);
	wl_size(g, "size", mem_share(g, 0.05, 1.5));
	wl_ops(g);
}

static void gen_sysbench(struct fz_gen *g)
{
	static const char *const rand_types[] = { "special", "uniform" };

	uint64_t size = mem_share(g, 0.1, 2), tables = rnd_range(g->r, 1, 16);

	/*
	 * the tables fit the buffer pool (its check()): rows of 206 bytes
	 * (wl_sysbench.c's SB_ROW_BYTES) with room for InnoDB's pages
	 */
	wl_size(g, "size", size);
	wl_count(g, "tables", tables);
	wl_count(g, "rows", (uint64_t)((double)size / (double)tables / 206 /
				       rnd_double(g->r, 2, 4)) + 1);
	wl_pick(g, "rand_type", rand_types, 2);
	if (rnd_pct(g->r, 20))
		wl_double(g, "compress_ratio", 1, 8);
	wl_ops(g);
}

static void gen_app_launch(struct fz_gen *g)
{
	uint64_t size = mem_share(g, 0.01, 0.1);

	wl_device(g);
	uint64_t apps = rnd_range(g->r, 1, 16);

	wl_count(g, "apps", apps);
	/* the first cycle warms up: rounds must exceed apps (its check()) */
	wl_count(g, "rounds", apps + rnd_range(g->r, 1, 40));
	wl_size(g, "size", size);
	wl_size(g, "wss_size", (uint64_t)((double)size * rnd_double(g->r, 0.1, 1)));
	wl_size(g, "heap_size", mem_share(g, 0.01, 0.1));
	wl_time(g, "run", rnd_range(g->r, 10, 500) * 1000000ULL);
	wl_time(g, "pause", rnd_range(g->r, 1, 100) * 1000000ULL);
	wl_double(g, "write_ratio", 0, 1);
}

/* A memcg of the case, or root: what memory.reclaim is written to. */
static void wl_target(struct fz_gen *g)
{
	if (!wl_key(g, "target"))
		return;
	if (g->nr_memcgs && rnd_pct(g->r, 70))
		kv_str(g->w, "target", "m%d", (int)(rnd(g->r) % (uint64_t)g->nr_memcgs))->keep = true;
	else
		kv_str(g->w, "target", "root")->keep = true;
}

static void gen_proactive_reclaim(struct fz_gen *g)
{
	wl_target(g);
	if (rnd_pct(g->r, 30))
		kv_str(g->w, "amount", "full");
	else
		wl_size(g, "amount", mem_share(g, 0.01, 0.5));
	wl_time(g, "start", rnd_range(g->r, 0, g->duration_ns / 1000) * 1000ULL);
}

static void gen_psi_agent(struct fz_gen *g)
{
	/* none, senpai's default (150 ms in 1 s) and a full one (psi_trigger_parse()'s syntax) */
	static const char *const triggers[] = { "none", "some 150000 1000000",
						"full 50000 500000" };

	wl_target(g);
	if (rnd_pct(g->r, 20))
		kv_str(g->w, "enable", "no");
	wl_time(g, "interval", rnd_range(g->r, 10, 500) * 1000000ULL);
	wl_double(g, "pressure", 0.01, 5);
	wl_double(g, "step", 0.001, 0.2);
	if (rnd_pct(g->r, 30))
		wl_double(g, "coeff_probe", 1, 20);
	if (rnd_pct(g->r, 50))
		wl_size(g, "min_size", mem_share(g, 0.01, 0.3));
	wl_pick(g, "trigger", triggers, 3);
}

static void gen_chrome_node(struct fz_gen *g)
{
	uint64_t size = mem_share(g, 0.05, 0.5);

	wl_count(g, "groups", rnd_range(g->r, 1, 8));
	wl_count(g, "workers_per_group", rnd_range(g->r, 0, 3));
	wl_size(g, "size", size);
	wl_size(g, "chunk", (uint64_t)((double)size * rnd_double(g->r, 0.01, 0.2)));
	wl_size(g, "client_alloc", rnd_range(g->r, 1, 10) * MIB);
	wl_bool(g, "prefault");
}

/* kbuild.ini's tree (a 6.x defconfig build) times a random share */
static void gen_kbuild(struct fz_gen *g)
{
	static const char *const srcs[] = { "file", "tmpfs" };
	double f = rnd_double(g->r, 0.02, 0.5);

	wl_device(g);
	wl_pick(g, "src", srcs, 2);
	wl_count(g, "jobs", (uint64_t)(30000 * f) + 1);
	wl_size(g, "size", (uint64_t)(1320.0 * f * MIB));
	wl_size(g, "sources", (uint64_t)(579.0 * f * MIB));
	wl_size(g, "headers", (uint64_t)(40.0 * f * MIB));
	wl_count(g, "nr_headers", (uint64_t)(6332 * f) + 1);
	wl_count(g, "includes", (uint64_t)(607 * f) + 1);
	wl_size(g, "objects", (uint64_t)(486.0 * f * MIB));
	wl_size(g, "compiler", 33 * MIB);
	wl_size(g, "heap", mem_share(g, 0.005, 0.05));
	wl_time(g, "compile_time", rnd_range(g->r, 10, 2000) * 1000000ULL);
}

/*
 * One row per workload type of scenarios/workloads.c; gen NULL: not
 * fuzzed, and why. A type without a row is not fuzzed either, and
 * fuzz says so when it starts.
 */
static const struct fuzz_type {
	const char *name;
	void (*gen)(struct fz_gen *g);
	const char *why_not;		/* gen NULL: why */
} fuzz_types[] = {
	{ "file-zipf", gen_file_zipf, NULL },
	{ "anon", gen_anon, NULL },
	{ "dd", gen_dd, NULL },
	{ "file-scan", gen_file_scan, NULL },
	{ "anon-rounds", gen_anon_rounds, NULL },
	{ "trace", NULL, "it replays a trace file, which a random case has none of" },
	{ "ycsb", gen_ycsb, NULL },
	{ "fio", gen_fio, NULL },
	{ "sysbench", gen_sysbench, NULL },
	{ "app-launch", gen_app_launch, NULL },
	{ "proactive-reclaim", gen_proactive_reclaim, NULL },
	{ "chrome-node", gen_chrome_node, NULL },
	{ "kbuild", gen_kbuild, NULL },
	{ "psi-agent", gen_psi_agent, NULL },
};
#define NR_FUZZ_TYPES (sizeof(fuzz_types) / sizeof(fuzz_types[0]))

/* Fuzz's options, and what every case draws from. */
struct fuzz {
	uint64_t seed;
	const char *policies[FZ_MAX_POLICIES];
	int nr_policies;
	const struct fuzz_type *types[NR_FUZZ_TYPES];	/* the rows that generate */
	const struct workload_ops *type_ops[NR_FUZZ_TYPES];
	int nr_types;
	double time_s, case_timeout_s, shrink_time_s;
	uint64_t runs;			/* 0: no limit */
	long jobs;
	const char *out_dir;
	bool cell;			/* --cell: run the one case on stdin (fuzz_cell()) */
};

/* A case: its scenario, its policy and the run's seed. */
struct fz_run {
	struct fz_case c;
	const char *policy;
	uint64_t seed;
};

/*
 * A memcg of the tree; its limits no lower than floor (the loader refuses a
 * memory.max that scales below 1M: it cannot run anything).
 */
static void gen_memcg(struct fz_rng *r, struct fz_case *c, int i, uint64_t total, uint64_t floor)
{
	struct fz_sect *m = sect_add(c, "memcg.m%d", i);
	bool limited = false;

	if (i && rnd_pct(r, 50))
		kv_str(m, "parent", "m%d", (int)(rnd(r) % (uint64_t)i))->keep = true;
	if (rnd_pct(r, 60)) {
		kv_size(m, "memory.max", (uint64_t)((double)total * rnd_double(r, 0.02, 0.8)), floor);
		limited = true;
	}
	if (rnd_pct(r, 20))
		kv_size(m, "memory.high", (uint64_t)((double)total * rnd_double(r, 0.02, 0.8)), floor);
	if (rnd_pct(r, 20))
		kv_size(m, "memory.low", (uint64_t)((double)total * rnd_double(r, 0, 0.3)), MIB);
	if (rnd_pct(r, 10))
		kv_size(m, "memory.min", (uint64_t)((double)total * rnd_double(r, 0, 0.2)), MIB);
	if (rnd_pct(r, 15))
		kv_size(m, "memory.swap.max", (uint64_t)((double)total * rnd_double(r, 0, 0.5)), MIB);
	if (rnd_pct(r, 20))
		kv_num(m, "memory.swappiness", FZ_COUNT, rnd_range(r, 0, 200), 0);
	if (rnd_pct(r, 10))
		kv_num(m, "memory.oom.group", FZ_COUNT, 1, 1);
	/* a section needs a key to exist: max = max is the default */
	if (!m->nr || (!limited && rnd_pct(r, 30)))
		kv_str(m, "memory.max", "max");
}

/* Swap: none, zram or an area on one of the case's devices. */
static void gen_swap(struct fz_rng *r, struct fz_case *c, uint64_t total, int nr_devices)
{
	static const char *const comp[] = { "lz4", "lzo", "zstd" };
	struct fz_sect *s;

	switch (rnd(r) % 5) {
	case 0: case 1:
		break;
	case 2: case 3:
		s = sect_add(c, "swap");
		kv_str(s, "type", "zram")->keep = true;
		kv_size(s, "disksize", (uint64_t)((double)total * rnd_double(r, 0.1, 2)), 64 * MIB);
		kv_str(s, "comp_algorithm", "%s", comp[rnd(r) % 3]);
		break;
	default:
		s = sect_add(c, "swap");
		kv_str(s, "type", "block")->keep = true;
		kv_str(s, "device", "d%d", (int)(rnd(r) % (uint64_t)nr_devices))->keep = true;
		kv_size(s, "size", (uint64_t)((double)total * rnd_double(r, 0.1, 2)), 64 * MIB);
		break;
	}
}

/* [sysctl] (half the cases), and the MGLRU ablation switches (the other policies read none). */
static void gen_sysctl(struct fz_rng *r, struct fz_case *c)
{
	struct fz_sect *s;

	if (rnd_pct(r, 50)) {
		s = sect_add(c, "sysctl");
		kv_num(s, "vm.swappiness", FZ_COUNT, rnd_range(r, 0, 200), 0);
		if (rnd_pct(r, 20))
			kv_num(s, "vm.watermark_scale_factor", FZ_COUNT, rnd_range(r, 1, 1000), 1);
		if (rnd_pct(r, 20))
			kv_num(s, "vm.dirty_ratio", FZ_COUNT, rnd_range(r, 5, 60), 1);
		if (rnd_pct(r, 20))
			kv_num(s, "vm.page-cluster", FZ_COUNT, rnd_range(r, 0, 5), 0);
	}
	if (rnd_pct(r, 30)) {
		const char *sw[16];
		int nr_sw = mglru_switches(sw, 16);

		s = sect_add(c, "mglru");
		for (int i = 0; i < nr_sw; i++)
			if (rnd_pct(r, 40))
				kv_num(s, sw[i], FZ_COUNT, 0, 0);
		if (!s->nr)
			kv_num(s, sw[rnd(r) % (uint64_t)nr_sw], FZ_COUNT, 0, 0);
	}
}

/*
 * The case's workloads, each of a type drawn; base holds what they share
 * (its r, c, sizes and counts). 0, or 2 with a message (a generator and
 * its type disagree).
 */
static int gen_workloads(const struct fuzz *fz, const struct fz_gen *base, int nodes)
{
	struct fz_rng *r = base->r;
	int nr_workloads = (int)rnd_range(r, 1, FZ_MAX_WORKLOADS);

	for (int i = 0; i < nr_workloads; i++) {
		int t = (int)(rnd(r) % (uint64_t)fz->nr_types);
		struct fz_gen g = *base;

		g.type = fz->type_ops[t];
		g.w = sect_add(g.c, "workload.w%d", i);
		kv_str(g.w, "type", "%s", fz->types[t]->name)->keep = true;
		if (g.nr_memcgs && rnd_pct(r, 75))
			kv_str(g.w, "memcg", "m%d", (int)(rnd(r) % (uint64_t)g.nr_memcgs))->keep = true;
		kv_num(g.w, "node", FZ_COUNT, rnd(r) % (uint64_t)nodes, 0)->keep = true;
		if (rnd_pct(r, 70))
			wl_count(&g, "threads", rnd_range(r, 1, 8));
		if (rnd_pct(r, 20))
			wl_time(&g, "start", rnd_range(r, 0, g.duration_ns / 2000) * 1000ULL);
		if (rnd_pct(r, 50))
			wl_time(&g, "think", rnd_range(r, 1, 50) * 1000ULL);
		if (rnd_pct(r, 15))
			wl_choice(&g, "advice");
		fz->types[t]->gen(&g);
		if (g.err)
			return fuzz_fail("workload type '%s' has no key '%s' (tools/fuzz.c's "
					 "generator and the type's key table disagree)",
					 fz->types[t]->name, g.err);
	}
	return 0;
}

/* Case idx of the seed. 0, or 2 with a message (a generator and its type disagree). */
static int gen_case(const struct fuzz *fz, uint64_t idx, struct fz_run *run)
{
	struct fz_rng r = { fz->seed * 0x2545f4914f6cdd1dULL ^ (idx + 1) * 0x9e3779b97f4a7c15ULL };
	struct fz_case *c = &run->c;
	struct fz_sect *s, *machine;
	int nodes, nr_devices, nr_memcgs;
	uint64_t node_memory, duration_ns, total, denom;

	memset(run, 0, sizeof(*run));
	rnd(&r);
	run->policy = fz->policies[rnd(&r) % (uint64_t)fz->nr_policies];
	run->seed = rnd_range(&r, 1, 1000000);

	/* the machine, written at full scale (1 to 16G a node) and shrunk by its scale */
	/*
	 * the machine, written at full scale and shrunk by its scale (1/32 to
	 * 1/256): 32M to 256M a node once scaled (the loader wants 16M)
	 */
	nodes = (int)rnd_range(&r, 1, FZ_MAX_NODES);
	denom = (uint64_t)32 << rnd_range(&r, 0, 3);
	node_memory = (32 * MIB << rnd_range(&r, 0, 3)) * denom;
	duration_ns = rnd_range(&r, 50, 1000) * 1000000ULL;
	total = node_memory * (uint64_t)nodes;
	machine = sect_add(c, "machine");
	kv_num(machine, "nodes", FZ_COUNT, (uint64_t)nodes, 1);
	kv_size(machine, "node_memory", node_memory, 16 * MIB * denom);
	kv_num(machine, "node_cpus", FZ_COUNT, rnd_range(&r, 1, 16), 1);
	kv_num(machine, "duration", FZ_TIME, duration_ns, NSEC_PER_MSEC);
	kv_num(machine, "scale", FZ_SCALE, denom, 0)->lo = 1024;
	kv_str(machine, "policy", "%s", run->policy)->keep = true;
	for (int n = 0; n < nodes; n++)
		if (rnd_pct(&r, 20)) {
			s = sect_add(c, "node.%d", n);
			kv_size(s, "memory", (32 * MIB << rnd_range(&r, 0, 3)) * denom, 16 * MIB * denom);
			if (rnd_pct(&r, 50))
				kv_num(s, "cpus", FZ_COUNT, rnd_range(&r, 1, 16), 1);
		}

	/* devices of storage/'s types */
	nr_devices = (int)rnd_range(&r, 1, FZ_MAX_DEVICES);
	for (int d = 0; d < nr_devices; d++) {
		s = sect_add(c, "device.d%d", d);
		kv_str(s, "type", "%s", bdev_type_name((enum bdev_type)(rnd(&r) % NR_BDEV_TYPES)));
		if (rnd_pct(&r, 15))
			kv_num(s, "delay_read", FZ_TIME, rnd_range(&r, 1, 5000) * 1000ULL, 1000);
		if (rnd_pct(&r, 15))
			kv_num(s, "delay_write", FZ_TIME, rnd_range(&r, 1, 5000) * 1000ULL, 1000);
		if (rnd_pct(&r, 15))
			kv_num(s, "channels", FZ_COUNT, rnd_range(&r, 1, 64), 1);
	}

	gen_swap(&r, c, total, nr_devices);
	gen_sysctl(&r, c);

	nr_memcgs = (int)rnd_range(&r, 0, FZ_MAX_MEMCGS);
	for (int i = 0; i < nr_memcgs; i++)
		gen_memcg(&r, c, i, total, 4 * MIB * denom);

	{
		struct fz_gen g = {
			.r = &r, .c = c, .node_memory = node_memory, .duration_ns = duration_ns,
			.nr_devices = nr_devices, .nr_memcgs = nr_memcgs,
		};

		return gen_workloads(fz, &g, nodes);
	}
}

/* ---- running a case ---- */

enum fz_class {
	FZ_PASS,
	FZ_INVARIANT,	/* detail: enum mm_invariant_kind */
	FZ_ERROR,	/* the run ended with an error */
	FZ_REFUSED,	/* the loader or the policy check refused the case */
	FZ_SIGNAL,	/* detail: the signal */
	FZ_EXIT,	/* detail: the exit status, no verdict written */
	FZ_HANG,	/* past --case-timeout */
};

struct fz_outcome {
	enum fz_class cls;
	int detail;
	char msg[900];
};

static const char *const invariant_names[] = {
	[MM_INV_NONE] = "an invariant",
	[MM_INV_LISTS] = "every folio on exactly one list",
	[MM_INV_COUNTS] = "counts match",
	[MM_INV_FOLIOS] = "no folio lost across reclaim/refault",
};

/* What failed, in a few words. */
static void outcome_what(const struct fz_outcome *oc, char *buf, size_t len)
{
	switch (oc->cls) {
	case FZ_PASS:
		snprintf(buf, len, "passed");
		break;
	case FZ_INVARIANT:
		snprintf(buf, len, "invariant broken (%s)",
			 oc->detail > 0 && oc->detail <= MM_INV_FOLIOS ? invariant_names[oc->detail]
								       : "unknown kind");
		break;
	case FZ_ERROR:
		snprintf(buf, len, "the run failed");
		break;
	case FZ_REFUSED:
		snprintf(buf, len, "the scenario was refused");
		break;
	case FZ_SIGNAL:
		snprintf(buf, len, "the run's process was killed by %s", child_signal_name(oc->detail));
		break;
	case FZ_EXIT:
		snprintf(buf, len, "the run's process exited %d without a result", oc->detail);
		break;
	case FZ_HANG:
		snprintf(buf, len, "the run hung");
		break;
	}
}

/* The message without its numbers, for "fails the same way" (times and lines change). */
static void msg_shape(const char *msg, char *out, size_t len)
{
	size_t n = 0;

	for (; *msg && n + 1 < len; msg++)
		if (!(*msg >= '0' && *msg <= '9') && *msg != '.')
			out[n++] = *msg;
	out[n] = '\0';
}

static bool same_failure(const struct fz_outcome *a, const struct fz_outcome *b)
{
	char sa[900], sb[900];

	if (a->cls != b->cls || a->detail != b->detail)
		return false;
	if (a->cls != FZ_ERROR && a->cls != FZ_REFUSED)
		return true;
	msg_shape(a->msg, sa, sizeof(sa));
	msg_shape(b->msg, sb, sizeof(sb));
	return !strcmp(sa, sb);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What a cell's messages call the case it read on stdin. */
#define FZ_CELL_NAME "fuzz-case.ini"

/*
 * `mmemu fuzz --cell --policy P --seed S` (not in --help), a runner's
 * child: the case on stdin, run as `mmemu run` runs it (one policy, one
 * seed, the model's invariants checked). On stdout one line: "K" (it
 * passed), "L <why>" (the loader or the policy check refused it) or
 * "F <enum mm_invariant_kind> <why>" (the run failed); exit 0, or 1 when
 * stdout could not be written. What the model and a plug-in print goes to
 * /dev/null: it is not fuzz's output.
 */
static int fuzz_cell(const char *policy, uint64_t seed)
{
	struct run_opts o = {
		.policy = policy,
		.seed = seed,
		.options = "",
		.check_invariants = true,
		.sample_ns = FZ_SAMPLE_NS,
	};
	int fd = dup(STDOUT_FILENO), devnull = open("/dev/null", O_WRONLY);
	FILE *out = fd < 0 ? NULL : fdopen(fd, "w");
	struct run_result r;
	struct scenario s;
	char err[700];

	if (!policy || strchr(policy, ','))
		return fuzz_fail("--cell: one policy");
	if (!out || devnull < 0)
		return fuzz_fail("--cell: cannot keep standard output");
	dup2(devnull, STDOUT_FILENO);
	dup2(devnull, STDERR_FILENO);
	close(devnull);
	result_init(&r);
	if (scenario_load_stream(&s, FZ_CELL_NAME, stdin, NULL, 0, 0, err, sizeof(err)) ||
	    scenario_check_policy(&s, policy, err, sizeof(err))) {
		err[strcspn(err, "\n")] = '\0';
		fprintf(out, "L %s\n", err);
	} else if (scenario_run(&s, &o, &r, err, sizeof(err))) {
		err[strcspn(err, "\n")] = '\0';
		fprintf(out, "F %d %s\n", (int)mm_invariant_kind(), err);
	} else {
		fprintf(out, "K\n");
	}
	result_free(&r);
	scenario_free(&s);
	return fclose(out) ? 1 : 0;
}

/* The case as its cell reads it: malloc'ed text, its length in *len; NULL when out of memory. */
static char *case_text(const struct fz_case *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	case_write(f, c, "mmemu fuzz case", NULL);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* Starts run's cell as the runner's child index. 0, or a libuv error (nothing started). */
static int case_spawn(struct runner *r, size_t index, const struct fz_run *run)
{
	struct runner_io io = { .fds = { -1, -1 } };
	char seed[24], *label = NULL, **args = calloc(7, sizeof(*args));
	char *text = case_text(&run->c, &io.in_len);
	int n = 0, rc = UV_ENOMEM;

	snprintf(seed, sizeof(seed), "%" PRIu64, run->seed);
	if (args && text && asprintf(&label, "case %zu", index) >= 0) {
		const char *const words[] = { "fuzz", "--cell", "--policy", run->policy, "--seed", seed };

		while (n < 6 && (args[n] = strdup(words[n])))
			n++;
		io.in = text;
		if (n == 6)
			rc = runner_spawn_io(r, index, args, label, &io);
	}
	free(text);
	if (rc) {
		for (int i = 0; i < n; i++)
			free(args[i]);
		free(args);
		free(label);
	}
	return rc;
}

/* A cell's one line, without its '\n' (fuzz_cell()), into oc. False when it is no verdict. */
static bool verdict_parse(const char *line, struct fz_outcome *oc)
{
	char *end;
	long kind;

	if (!strcmp(line, "K")) {
		oc->cls = FZ_PASS;
		return true;
	}
	if (!strncmp(line, "L ", 2)) {
		oc->cls = FZ_REFUSED;
		snprintf(oc->msg, sizeof(oc->msg), "%s", line + 2);
		return true;
	}
	if (strncmp(line, "F ", 2) || line[2] < '0' || line[2] > '9')
		return false;
	errno = 0;
	kind = strtol(line + 2, &end, 10);
	if (errno || kind > INT_MAX || *end != ' ')
		return false;
	oc->cls = kind != MM_INV_NONE ? FZ_INVARIANT : FZ_ERROR;
	oc->detail = (int)kind;
	snprintf(oc->msg, sizeof(oc->msg), "%s", end + 1);
	return true;
}

/*
 * How a case ended, from its cell's end: killed past --case-timeout, by
 * a signal, or exit 0 with one verdict line and nothing else; anything
 * else exited without a verdict.
 */
static void outcome_of(const struct runner_exit *e, double timeout_s, struct fz_outcome *oc)
{
	const char *out = (const char *)e->out;
	size_t len = e->out_len;
	char line[sizeof(oc->msg)];	/* a cell writes 715 bytes at most */

	memset(oc, 0, sizeof(*oc));
	if (e->timed_out) {
		oc->cls = FZ_HANG;
		snprintf(oc->msg, sizeof(oc->msg), "the run did not end within %g s of host time "
			 "(--case-timeout)", timeout_s);
		return;
	}
	if (e->term_signal) {
		oc->cls = FZ_SIGNAL;
		oc->detail = e->term_signal;
		snprintf(oc->msg, sizeof(oc->msg), "%s", strsignal(e->term_signal));
		return;
	}
	if (!e->exit_status && len >= 2 && len <= sizeof(line) && out[len - 1] == '\n' &&
	    !memchr(out, '\n', len - 1) && !memchr(out, '\0', len)) {
		memcpy(line, out, len - 1);
		line[len - 1] = '\0';
		if (verdict_parse(line, oc))
			return;
		memset(oc, 0, sizeof(*oc));
	}
	oc->cls = FZ_EXIT;
	oc->detail = (int)e->exit_status;
	snprintf(oc->msg, sizeof(oc->msg), "exited %d without a verdict", oc->detail);
}

/*
 * The shrinking's state: -j candidates at a time, each a child; the first
 * of a batch that fails as the case did is kept once the whole batch has
 * ended (the same as one at a time would keep).
 */
struct fz_shrink {
	struct fz_run *run;		/* the case, as shrunk so far */
	const struct fz_outcome *oc;	/* how it fails */
	struct fz_run *cand;		/* [-j]: the batch's candidates */
	struct fz_outcome co[FZ_MAX_JOBS];	/* and how each ended */
	bool ended[FZ_MAX_JOBS];
	int n, left;			/* candidates in the batch, not ended yet */
	int k;				/* the batch's first candidate (shrink_candidate()) */
	int steps, tries;		/* changes kept, runs */
	bool changed;			/* this pass over the candidates kept one */
	bool timed_out;			/* stopped at --shrink-time */
	double end;			/* now_s() at --shrink-time */
	int rc;				/* 0, or a libuv error starting a candidate */
};

/* The search for a failing case, then its shrinking: one runner, -j cells at a time. */
struct fz_search {
	const struct fuzz *fz;
	struct runner r;
	bool r_open;				/* runner_open() done */
	struct fz_run *run;			/* the case being started */
	struct fz_run *found_run;		/* the lowest failing case */
	struct fz_outcome found_oc;		/* and how it failed */
	uint64_t next;				/* the next case's index */
	uint64_t done;				/* cases ended */
	uint64_t found;				/* the lowest failing index, UINT64_MAX: none */
	double start, deadline;			/* now_s() at the start, at --time */
	int rc;					/* 0, or the exit status fuzz ends with */
	struct fz_shrink *sh;			/* the shrinking, once it started */
};

/* ---- shrinking ---- */

static int count_prefix(const struct fz_case *c, const char *prefix)
{
	int n = 0;

	for (int i = 0; i < c->nr; i++)
		n += !strncmp(c->s[i].name, prefix, strlen(prefix));
	return n;
}

/* Every reference to memcg `name` now names its parent (or the root). */
static void drop_memcg(struct fz_case *c, struct fz_sect *m)
{
	char name[64], parent[64] = "";
	struct fz_kv *p = kv_find(m, "parent");

	snprintf(name, sizeof(name), "%s", m->name + strlen("memcg."));
	if (p)
		snprintf(parent, sizeof(parent), "%s", p->str);
	sect_del(c, m);
	for (int i = 0; i < c->nr; i++) {
		struct fz_sect *s = &c->s[i];
		static const char *const refs[] = { "parent", "memcg", "target" };

		for (int k = 0; k < 3; k++) {
			struct fz_kv *kv = kv_find(s, refs[k]);

			if (!kv || kv->kind != FZ_STR || strcmp(kv->str, name))
				continue;
			if (*parent)
				snprintf(kv->str, sizeof(kv->str), "%s", parent);
			else if (k == 2)
				snprintf(kv->str, sizeof(kv->str), "root");
			else
				kv_del(s, kv);
		}
		/* a [memcg.*] needs a key */
		if (!strncmp(s->name, "memcg.", 6) && !s->nr)
			kv_str(s, "memory.max", "max");
	}
}

/* The files of device `name` move to another device; its swap area goes. */
static void drop_device(struct fz_case *c, struct fz_sect *d)
{
	char name[64], other[64] = "";
	struct fz_sect *swap;

	snprintf(name, sizeof(name), "%s", d->name + strlen("device."));
	sect_del(c, d);
	for (int i = 0; i < c->nr; i++)
		if (!strncmp(c->s[i].name, "device.", 7)) {
			snprintf(other, sizeof(other), "%s", c->s[i].name + 7);
			break;
		}
	for (int i = 0; i < c->nr; i++) {
		struct fz_kv *kv = kv_find(&c->s[i], "device");

		if (kv && !strcmp(kv->str, name) && *other)
			snprintf(kv->str, sizeof(kv->str), "%s", other);
	}
	swap = sect_find(c, "swap");
	if (swap && kv_find(swap, "device") && !strcmp(kv_find(swap, "device")->str, name))
		sect_del(c, swap);
}

/* One node fewer: the last one's section goes, its workloads move to node 0. */
static bool drop_node(struct fz_case *c)
{
	struct fz_kv *nodes = kv_find(sect_find(c, "machine"), "nodes");
	char name[32];
	struct fz_sect *s;

	if (!nodes || nodes->num < 2)
		return false;
	nodes->num--;
	snprintf(name, sizeof(name), "node.%" PRIu64, nodes->num);
	if ((s = sect_find(c, name)))
		sect_del(c, s);
	for (int i = 0; i < c->nr; i++) {
		struct fz_kv *kv = kv_find(&c->s[i], "node");

		if (kv && !strncmp(c->s[i].name, "workload.", 9) && kv->num >= nodes->num)
			kv->num = 0;
	}
	return true;
}

/*
 * Candidate k of the shrinking of c, in out: false when there is no
 * candidate k. First whole sections (workloads, memcgs, a node, devices,
 * swap, sysctl, mglru), then each key a case does without, then each
 * number halved (the scale: doubled denominator).
 */
static bool shrink_candidate(const struct fz_case *c, int k, struct fz_case *out)
{
	int n;

	*out = *c;
	/* sections */
	for (int i = 0; i < c->nr; i++) {
		const char *name = c->s[i].name;
		bool drop = false;

		if (!strncmp(name, "workload.", 9))
			drop = count_prefix(c, "workload.") > 1;
		else if (!strncmp(name, "memcg.", 6) || !strncmp(name, "device.", 7) ||
			 !strncmp(name, "node.", 5) || !strcmp(name, "swap") ||
			 !strcmp(name, "sysctl") || !strcmp(name, "mglru"))
			drop = true;
		if (drop && !k--) {
			if (!strncmp(name, "memcg.", 6))
				drop_memcg(out, &out->s[i]);
			else if (!strncmp(name, "device.", 7))
				drop_device(out, &out->s[i]);
			else
				sect_del(out, &out->s[i]);
			return true;
		}
	}
	if (!k--)
		return drop_node(out);
	/* keys */
	for (int i = 0; i < c->nr; i++) {
		if (!strcmp(c->s[i].name, "machine"))
			continue;
		for (int j = 0; j < c->s[i].nr; j++) {
			const struct fz_kv *kv = &c->s[i].kv[j];

			if (kv->keep || (!strncmp(c->s[i].name, "device.", 7) &&
					 !strcmp(kv->key, "type")))
				continue;
			if (!k--) {
				kv_del(&out->s[i], &out->s[i].kv[j]);
				if (!out->s[i].nr && !strncmp(out->s[i].name, "memcg.", 6))
					kv_str(&out->s[i], "memory.max", "max");
				return true;
			}
		}
	}
	/* numbers */
	n = 0;
	for (int i = 0; i < c->nr; i++)
		for (int j = 0; j < c->s[i].nr; j++) {
			const struct fz_kv *kv = &c->s[i].kv[j];
			struct fz_kv *o = &out->s[i].kv[j];

			if (kv->kind == FZ_STR || !strcmp(kv->key, "node") ||
			    !strcmp(kv->key, "nodes"))
				continue;
			if (kv->kind == FZ_SCALE ? kv->num * 2 > kv->lo : kv->num / 2 < kv->lo ||
			    !kv->num)
				continue;
			if (k == n++) {
				if (kv->kind == FZ_SCALE)
					o->num = kv->num * 2;
				else if (kv->kind == FZ_SIZE && kv->num >= 8192)
					o->num = (kv->num / 2) & ~(uint64_t)4095;
				else if (kv->kind == FZ_TIME && kv->num >= 2000)
					o->num = (kv->num / 2) / 1000 * 1000;
				else
					o->num = kv->num / 2;
				if (kv->kind == FZ_SIZE && o->num < kv->lo)
					o->num = kv->lo;
				return true;
			}
		}
	return false;
}

/* Sections and keys of a case: the size shrinking brings down. */
static void case_size(const struct fz_case *c, char *buf, size_t len)
{
	const struct fz_kv *nodes = NULL;
	int keys = 0;

	for (int i = 0; i < c->nr; i++) {
		keys += c->s[i].nr;
		if (!strcmp(c->s[i].name, "machine"))
			nodes = kv_find((struct fz_sect *)&c->s[i], "nodes");
	}
	snprintf(buf, len, "%" PRIu64 " node%s, %d device%s, %d memcg%s, %d workload%s, %d keys",
		 nodes ? nodes->num : 0, nodes && nodes->num == 1 ? "" : "s",
		 count_prefix(c, "device."), count_prefix(c, "device.") == 1 ? "" : "s",
		 count_prefix(c, "memcg."), count_prefix(c, "memcg.") == 1 ? "" : "s",
		 count_prefix(c, "workload."), count_prefix(c, "workload.") == 1 ? "" : "s", keys);
}

/*
 * Starts the next batch of candidates, each still shrink_candidate()'s k
 * onwards: passes over the candidates until one changes nothing or
 * --shrink-time is up (checked before each batch). Nothing started: done.
 */
static void shrink_next(struct fz_search *s)
{
	struct fz_shrink *sh = s->sh;

	for (;;) {
		int n = 0;

		if (now_s() > sh->end) {
			sh->timed_out = true;
			return;
		}
		while (n < s->fz->jobs && shrink_candidate(&sh->run->c, sh->k + n, &sh->cand[n].c)) {
			sh->cand[n].policy = sh->run->policy;
			sh->cand[n].seed = sh->run->seed;
			n++;
		}
		if (n) {
			sh->n = n;
			for (int i = 0; i < n && !sh->rc; i++) {
				sh->ended[i] = false;
				if (!(sh->rc = case_spawn(&s->r, (size_t)i, &sh->cand[i])))
					sh->left++;
			}
			if (sh->rc)
				runner_kill_all(&s->r);
			return;
		}
		if (!sh->changed)
			return;
		sh->changed = false;	/* another pass */
		sh->k = 0;
	}
}

/* The first candidate of the batch that fails as the case does, or -1. */
static int shrink_kept(const struct fz_shrink *sh)
{
	for (int i = 0; i < sh->n && sh->ended[i]; i++)
		if (same_failure(&sh->co[i], sh->oc))
			return i;
	return -1;
}

/*
 * A candidate ended. The first of the batch kept is known once those
 * before it have ended: the later ones are killed, they cannot be kept.
 * The batch over, the kept one replaces the case and the next starts.
 */
static void shrink_on_exit(struct runner *r, const struct runner_exit *e)
{
	struct fz_search *s = r->ctx;
	struct fz_shrink *sh = s->sh;
	int kept;

	outcome_of(e, s->fz->case_timeout_s, &sh->co[e->index]);
	sh->ended[e->index] = true;
	sh->left--;
	kept = shrink_kept(sh);
	if (kept >= 0)
		runner_kill_past(r, (size_t)kept);
	if (sh->left || sh->rc || r->interrupted)
		return;
	sh->tries += sh->n;
	if (kept >= 0) {
		sh->run->c = sh->cand[kept].c;
		sh->steps++;
		sh->changed = true;
		sh->k += kept;	/* the same k is now another candidate */
	} else {
		sh->k += sh->n;
	}
	shrink_next(s);
}

/*
 * Greedy: each candidate that still fails as oc did replaces the case
 * (run). 0, -EINTR when interrupted, or a libuv error; in sh the changes
 * kept, the runs, whether --shrink-time stopped it.
 */
static int shrink(struct fz_search *s, struct fz_run *run, const struct fz_outcome *oc,
		  struct fz_shrink *sh)
{
	memset(sh, 0, sizeof(*sh));
	sh->run = run;
	sh->oc = oc;
	sh->end = now_s() + s->fz->shrink_time_s;
	sh->cand = calloc((size_t)s->fz->jobs, sizeof(*sh->cand));
	if (!sh->cand)
		return UV_ENOMEM;
	s->sh = sh;
	s->r.on_exit = shrink_on_exit;
	if (!s->r.interrupted)
		shrink_next(s);
	runner_run(&s->r);
	free(sh->cand);
	sh->cand = NULL;
	if (s->r.interrupted)
		return -EINTR;
	return sh->rc;
}

/* ---- the command ---- */

static int save_case(const char *path, const struct fz_case *c, const char *what, const char *cmd)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return fuzz_fail("--out: cannot write '%s': %s", path, strerror(errno));
	case_write(f, c, what, cmd);
	if (fclose(f))
		return fuzz_fail("--out: cannot write '%s': %s", path, strerror(errno));
	return 0;
}

/* The shell word for s: as is when it needs no quotes. */
static void shell_word(const char *s, char *buf, size_t len)
{
	if (s[strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-,=")])
		snprintf(buf, len, "'%s'", s);
	else
		snprintf(buf, len, "%s", s);
}

/* Shrinks the failing case, saves it and its original, prints how to run it. 1, or 2. */
static int report_failure(struct fz_search *s)
{
	const struct fuzz *fz = s->fz;
	const struct fz_outcome *oc = &s->found_oc;
	struct fz_run *run = s->found_run;
	uint64_t idx = s->found;
	char what[200], size[160], dir[4096], path[4400], orig[4400], cmd[9000], q1[4500],
	     q2[600], head[400];
	struct fz_case original = run->c;
	struct fz_shrink sh;
	double t0 = now_s();
	int rc;

	outcome_what(oc, what, sizeof(what));
	printf("case %" PRIu64 " (policy %s, seed %" PRIu64 "): %s: %s\n", idx, run->policy,
	       run->seed, what, oc->msg);
	case_size(&run->c, size, sizeof(size));
	printf("  as drawn: %s\n", size);
	fflush(stdout);
	rc = shrink(s, run, oc, &sh);
	if (s->r.tty)
		fprintf(stderr, "\r\033[K");
	if (rc == -EINTR)
		return 130;	/* cmd_fuzz() dies of the signal */
	if (rc)
		return fuzz_fail("cannot run a case: %s", uv_strerror(rc));
	case_size(&run->c, size, sizeof(size));
	printf("  shrunk:   %s (%d change%s kept of %d runs, %.1f s%s)\n", size, sh.steps,
	       sh.steps == 1 ? "" : "s", sh.tries, now_s() - t0,
	       sh.timed_out ? "; stopped at --shrink-time" : "");
	snprintf(dir, sizeof(dir), "%s", fz->out_dir);
	if (mkdir(dir, 0777) && errno != EEXIST)
		return fuzz_fail("--out '%s': %s", dir, strerror(errno));
	snprintf(path, sizeof(path), "%s/fuzz-%" PRIu64 "-%" PRIu64 ".ini", dir, fz->seed, idx);
	snprintf(orig, sizeof(orig), "%s/fuzz-%" PRIu64 "-%" PRIu64 "-orig.ini", dir, fz->seed, idx);
	shell_word(path, q1, sizeof(q1));
	shell_word(run->policy, q2, sizeof(q2));
	snprintf(cmd, sizeof(cmd), "mmemu run %s --policy %s --seed %" PRIu64, q1, q2, run->seed);
	snprintf(head, sizeof(head), "mmemu fuzz --seed %" PRIu64 ", case %" PRIu64 ", shrunk: %s",
		 fz->seed, idx, what);
	if (save_case(path, &run->c, head, cmd))
		return 2;
	shell_word(orig, q1, sizeof(q1));
	snprintf(head, sizeof(head), "mmemu fuzz --seed %" PRIu64 ", case %" PRIu64 " as drawn: %s",
		 fz->seed, idx, what);
	snprintf(cmd, sizeof(cmd), "mmemu run %s --policy %s --seed %" PRIu64, q1, q2, run->seed);
	if (save_case(orig, &original, head, cmd))
		return 2;
	shell_word(path, q1, sizeof(q1));
	printf("saved %s (as drawn: %s)\n", path, orig);
	printf("reproduce: mmemu run %s --policy %s --seed %" PRIu64 "\n", q1, q2, run->seed);
	return 1;
}

/* Which workload types fuzz draws: the rows of fuzz_types[] with a generator. */
static int fuzz_types_init(struct fuzz *fz)
{
	for (int t = 0; workload_types[t]; t++) {
		const struct fuzz_type *row = NULL;

		for (size_t i = 0; i < NR_FUZZ_TYPES; i++)
			if (!strcmp(fuzz_types[i].name, workload_types[t]->name))
				row = &fuzz_types[i];
		if (!row)
			fprintf(stderr, "mmemu: fuzz: workload type '%s' has no generator in "
				"tools/fuzz.c: not fuzzed\n", workload_types[t]->name);
		else if (row->gen) {
			fz->type_ops[fz->nr_types] = workload_types[t];
			fz->types[fz->nr_types++] = row;
		}
	}
	for (size_t i = 0; i < NR_FUZZ_TYPES; i++)
		if (!workload_type_find(fuzz_types[i].name))
			return fuzz_fail("tools/fuzz.c generates workload type '%s', which "
					 "scenarios/workloads.c does not have", fuzz_types[i].name);
	return fz->nr_types ? 0 : fuzz_fail("no workload type to fuzz");
}

static int parse_seconds(const char *opt, const char *arg, double *out)
{
	char *end;

	*out = strtod(arg, &end);
	if (end == arg || *end || !(*out > 0 && *out <= 86400 * 365))
		return fuzz_fail("--%s '%s': expected seconds, 0 < S", opt, arg);
	return 0;
}

/* Takes fuzz's options into fz (--policy's list in *policy_arg): -1, or the exit status now. */
static int fuzz_parse(struct fuzz *fz, int argc, char **argv, const char **policy_arg)
{
	bool time_given = false;
	int opt;

	optind = 1;
	while ((opt = cli_getopt(CMD_FUZZ, argc, argv)) != -1) {
		switch (opt) {
		case OPT_POLICY:
			*policy_arg = optarg;
			break;
		case OPT_SEED:
			if (args_u64(optarg, &fz->seed))
				return fuzz_fail("--seed '%s' is not a number", optarg);
			break;
		case OPT_TIME:
			if (parse_seconds("time", optarg, &fz->time_s))
				return 2;
			time_given = true;
			break;
		case OPT_RUNS:
			if (args_u64(optarg, &fz->runs) || !fz->runs)
				return fuzz_fail("--runs '%s': expected a count, 1 or more", optarg);
			break;
		case OPT_OUT:
			if (!*optarg)
				return fuzz_fail("--out: no directory named");
			fz->out_dir = optarg;
			break;
		case OPT_CASE_TIMEOUT:
			if (parse_seconds("case-timeout", optarg, &fz->case_timeout_s))
				return 2;
			break;
		case OPT_SHRINK_TIME:
			if (parse_seconds("shrink-time", optarg, &fz->shrink_time_s))
				return 2;
			break;
		case OPT_JOBS:
			if (args_long(optarg, 1, FZ_MAX_JOBS, &fz->jobs))
				return fuzz_fail("-j '%s': expected 1 to %d", optarg, FZ_MAX_JOBS);
			break;
		case OPT_CELL:
			fz->cell = true;
			break;
		case OPT_HELP:
			help_command(stdout, "fuzz");
			return 0;
		default:
			help_command(stderr, "fuzz");
			return 2;
		}
	}
	if (optind != argc) {
		help_command(stderr, "fuzz");
		return 2;
	}
	/* neither bound: a minute */
	if (!time_given && !fz->runs)
		fz->time_s = 60;
	if (!time_given && fz->runs)
		fz->time_s = 0;
	return -1;
}

/* The policies: --policy's list (its names in *buf, to free), else every built-in one. 0 or 2. */
static int fuzz_policies(struct fuzz *fz, const char *policy_arg, char **buf)
{
	char err[512];

	if (!policy_arg) {
		for (int i = 0; reclaim_policies[i] && fz->nr_policies < FZ_MAX_POLICIES; i++)
			fz->policies[fz->nr_policies++] = reclaim_policies[i]->name;
		return 0;
	}
	if (args_list_has_empty(policy_arg))
		return fuzz_fail("--policy '%s': an empty name", policy_arg);
	*buf = strdup(policy_arg);
	if (!*buf)
		return fuzz_fail("out of memory");
	for (char *save, *p = strtok_r(*buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		if (fz->nr_policies == FZ_MAX_POLICIES)
			return fuzz_fail("--policy: at most %d policies", FZ_MAX_POLICIES);
		if (!child_policy_get(p, err, sizeof(err)))
			return fuzz_fail("--policy: %s", err);
		fz->policies[fz->nr_policies++] = p;
	}
	return 0;
}

/* Starts cases until -j run, unless a bound is reached or a case failed. */
static void search_start(struct fz_search *s)
{
	const struct fuzz *fz = s->fz;
	int rc;

	while (s->found == UINT64_MAX && !s->rc && runner_can_spawn(&s->r)) {
		if ((fz->runs && s->next >= fz->runs) || now_s() >= s->deadline)
			break;
		if (gen_case(fz, s->next, s->run)) {
			s->rc = 2;
		} else if ((rc = case_spawn(&s->r, (size_t)s->next, s->run))) {
			s->rc = fuzz_fail("cannot start a case: %s", uv_strerror(rc));
		} else {
			s->next++;
			continue;
		}
		runner_kill_all(&s->r);
	}
}

/*
 * A case ended: the lowest failing index is kept, as one job would find
 * it, and the cases after it are killed (they do not count); then more
 * start.
 */
static void search_on_exit(struct runner *r, const struct runner_exit *e)
{
	struct fz_search *s = r->ctx;
	struct fz_outcome oc;

	if (e->index > s->found)
		return;
	outcome_of(e, s->fz->case_timeout_s, &oc);
	s->done++;
	if (oc.cls != FZ_PASS && e->index < s->found) {
		s->found = e->index;
		s->found_oc = oc;
		runner_kill_past(r, e->index);
	}
	search_start(s);
}

/* The progress line on a terminal: cases so far and what is left, or the shrinking's. */
static void search_progress(struct runner *r)
{
	struct fz_search *s = r->ctx;
	double t = now_s() - s->start, left = -1;
	char eta[32];

	if (s->sh) {
		fprintf(stderr, "\r[fuzz] shrinking: %d kept of %d tried\033[K", s->sh->steps,
			s->sh->tries);
		fflush(stderr);
		return;
	}
	if (s->fz->runs && s->done)
		left = t / (double)s->done * (double)(s->fz->runs - s->done);
	if (s->deadline < INFINITY && (left < 0 || s->deadline - now_s() < left))
		left = fmax(s->deadline - now_s(), 0);
	fprintf(stderr, "\r[fuzz] %" PRIu64 " cases, %.1f s", s->done, t);
	if (left >= 0) {
		runner_fmt_eta(eta, sizeof(eta), left);
		fprintf(stderr, ", ETA %s", eta);
	}
	fprintf(stderr, "\033[K");
	fflush(stderr);
}

/* Runs cases until a bound or the lowest failing one. 0, or the exit status. */
static int search(struct fz_search *s)
{
	s->start = now_s();
	s->deadline = s->fz->time_s > 0 ? s->start + s->fz->time_s : INFINITY;
	s->r.ctx = s;
	s->r.on_exit = search_on_exit;
	runner_progress_every(&s->r, search_progress);
	search_start(s);
	runner_run(&s->r);
	if (s->r.tty)
		fprintf(stderr, "\r\033[K");
	if (s->rc || s->found == UINT64_MAX)
		return s->rc;
	return gen_case(s->fz, s->found, s->found_run);
}

/* The search's state, its runner open: NULL with a message when it cannot be had. */
static struct fz_search *search_new(const struct fuzz *fz)
{
	struct fz_search *s = calloc(1, sizeof(*s));

	if (s) {
		s->fz = fz;
		s->found = UINT64_MAX;
		s->run = calloc(1, sizeof(*s->run));
		s->found_run = calloc(1, sizeof(*s->found_run));
	}
	if (s && s->run && s->found_run && !runner_open(&s->r, (unsigned)fz->jobs, fz->case_timeout_s)) {
		s->r_open = true;
		return s;
	}
	fuzz_fail(s && s->run && s->found_run ? "cannot start the runner" : "out of memory");
	if (s) {
		free(s->run);
		free(s->found_run);
	}
	free(s);
	return NULL;
}

/* Closes the runner (every child gone) and frees s. */
static void search_free(struct fz_search *s)
{
	if (s->r_open)
		runner_close(&s->r);
	free(s->run);
	free(s->found_run);
	free(s);
}

/*
 * The summary line, then "no failure" (0) or the failure shrunk and saved
 * (1, or 2). A failure counts the cases up to it, every one of which has
 * ended: not those after it that ended first under -j, as many as the
 * timing let end, so that the line is the same whatever -j.
 */
static int search_report(struct fz_search *s, const char *policy_arg)
{
	const struct fuzz *fz = s->fz;
	uint64_t n = s->found == UINT64_MAX ? s->done : s->found + 1;
	double t = now_s() - s->start;

	printf("fuzz: seed %" PRIu64 ": %" PRIu64 " case%s in %.1f s (%.1f cases/s), "
	       "policies %s\n", fz->seed, n, n == 1 ? "" : "s", t,
	       t > 0 ? (double)n / t : 0.0, policy_arg ? policy_arg : "(every built-in)");
	if (s->found == UINT64_MAX) {
		printf("no failure\n");
		return 0;
	}
	fflush(stdout);
	return report_failure(s);
}

/* The cases, then the failure's report; when interrupted, dies of the same signal. */
static int fuzz_search(const struct fuzz *fz, const char *policy_arg)
{
	struct fz_search *s = search_new(fz);
	int rc, sig;

	if (!s)
		return 2;
	rc = search(s);
	if (!rc && !s->r.interrupted)
		rc = search_report(s, policy_arg);
	if (s->r.interrupted) {
		sig = s->r.interrupt_signal;
		search_free(s);
		fflush(stdout);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	search_free(s);
	return rc;
}

int cmd_fuzz(int argc, char **argv)
{
	struct fuzz fz = {
		.seed = 1, .case_timeout_s = FZ_CASE_TIMEOUT_S, .shrink_time_s = FZ_SHRINK_TIME_S,
		.jobs = 2, .out_dir = "fuzz-findings",
	};
	const char *policy_arg = NULL;
	char *policy_buf = NULL;
	int rc;

	if ((rc = fuzz_parse(&fz, argc, argv, &policy_arg)) >= 0)
		return rc;
	if (fz.cell)
		return fuzz_cell(policy_arg, fz.seed);
	if (fuzz_types_init(&fz))
		return 2;
	if (fuzz_policies(&fz, policy_arg, &policy_buf)) {
		free(policy_buf);
		return 2;
	}
	rc = fuzz_search(&fz, policy_arg);
	free(policy_buf);
	return rc;
}
