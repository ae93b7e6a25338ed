/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kbuild: a kernel build, `make -jN`, as the memory-management side sees it.
 *
 * make runs N job slots. Each job is a short-lived compiler process: a new
 * task in the build's memcg that
 *  - executes the compiler (cc1): its text is a shared executable file
 *    mapping on the build device, touched slice by slice as the compile
 *    goes on;
 *  - reads its .c file and the headers it includes (read(); header
 *    popularity zipfian: linux/types.h is in every unit, a driver's
 *    register header in a few);
 *  - grows an anonymous heap (lognormal size) in COMPILE_STEPS steps, each
 *    burning a share of the job's user CPU and going back over a sample of
 *    the heap already built;
 *  - writes its object file and exits (task_exit(): the heap is freed).
 *
 * The tree and the objects live either on a file of the build device
 * (src = file: page cache, written back by the flusher) or on tmpfs
 * (src = tmpfs). mmemu has no shmem yet: tmpfs is a swap-backed anonymous
 * region owned by the long-lived make task, so its pages sit on the anon
 * LRU, are charged to the memcg, and can only be swapped, never dropped.
 * Unlike real shmem they count in make's oom_badness().
 *
 * Job parameters come from a stream seeded by the job's number, so every
 * policy builds the same units with the same heaps and CPU times.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/workload.h"
#include "scenarios/zipf.h"

/* Steps a compile is cut into (parse, GIMPLE/RTL passes...); a granularity
 * for interleaving CPU with heap growth, not a measured figure. */
#define COMPILE_STEPS 16
/* A job's heap and CPU are at most this many times their mean (a cut of
 * the lognormal tail; the 10 measured units span 0.05x-1.9x of the mean). */
#define MAX_FACTOR 8

/* The section's own keys (sizes and counts scaled, times not). */
struct kbuild_params {
	char src[8];			/* the tree and outputs on "file" (the default) or "tmpfs" */
	uint64_t jobs;			/* compilation units */
	uint64_t compiler_size;		/* the compiler's text (cc1), bytes */
	uint64_t heap_size;		/* mean heap per job, bytes */
	double heap_sigma;		/* lognormal sigma of the heap size */
	uint64_t compile_ns;		/* mean user CPU per job */
	double compile_sigma;		/* lognormal sigma of the CPU per job */
	uint64_t headers_size;		/* bytes of the headers a job can include */
	uint64_t nr_headers;		/* how many headers */
	uint64_t includes;		/* headers drawn per job */
	uint64_t sources_size;		/* bytes of the .c files built */
	uint64_t objects_size;		/* bytes of the objects written */
	double zipf_theta;		/* skew of the header popularity */
	int scramble;			/* zipf_scramble_hash_first index */
};

struct kbuild {
	struct workload *w;		/* the workload this build is */
	const struct scn_workload *c;	/* its scenario section */
	const struct kbuild_params *p;	/* its own keys */
	struct mem_cgroup *memcg;	/* where jobs run */
	bool tmpfs;			/* tree and objects on tmpfs */
	struct address_space *cc1;	/* the compiler's text (exec file mapping) */
	struct address_space *tree;	/* the source tree: headers, then .c files */
	struct address_space *objs;	/* the objects, one run of pages per job */
	uint64_t hdr_pages;		/* pages per header */
	uint64_t src_first;		/* first page of the .c files in the tree */
	uint64_t src_pages;		/* pages per .c file */
	uint64_t obj_pages;		/* pages per object file */
	struct zipf hdr_zipf;		/* header popularity */
	uint64_t job_seed;		/* base of the per-job random streams */
	uint64_t next_job;		/* next unit make hands out */
	uint64_t jobs_done;		/* compiles that exited normally */
	uint64_t jobs_failed;		/* compiles killed (OOM) */
	bool stop;			/* a job failed: make starts no new ones */
	int nr_slots;			/* -j */
	int nr_started;			/* slots running so far */
	struct actor **slots;		/* the job slots (their CPU is the build's) */
	uint8_t **seen;			/* per slot: headers already read by this job */
};

static struct kbuild *kb_of(const struct workload *w)
{
	return w->priv;
}

static uint64_t pages(uint64_t bytes)
{
	return bytes / 4096;
}

/* A lognormal draw with the given mean (Box-Muller on the job's stream). */
static double lognormal(struct rng *r, double mean, double sigma)
{
	double u1 = 1.0 - rng_double(r), u2 = rng_double(r);
	double z = sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);

	return mean * exp(sigma * z - sigma * sigma / 2);
}

/* A tmpfs page: a page of make's swap-backed region (see the .ini). */
static int tmpfs_access(struct kbuild *kb, struct actor *a, struct address_space *as,
			uint64_t index, bool write)
{
	return anon_access(a, kb->w->task, as, index, write);
}

/* A page of the tree or of the objects: page cache, or tmpfs (make's region). */
static int tree_read(struct kbuild *kb, struct actor *a, struct task *t,
		     struct address_space *as, uint64_t index)
{
	if (kb->tmpfs)
		return tmpfs_access(kb, a, as, index, false);
	return filemap_read(a, t, as, index);
}

static int tree_write(struct kbuild *kb, struct actor *a, struct task *t,
		      struct address_space *as, uint64_t index)
{
	if (kb->tmpfs)
		return tmpfs_access(kb, a, as, index, true);
	return filemap_write(a, t, as, index);
}

#define CHECK(call)                                                    \
	do {                                                           \
		int ret_ = (call);                                     \
		if (ret_ < 0)                                          \
			return ret_;                                   \
		workload_count_outcome(w, ret_);                       \
	} while (0)

/* The preprocessor's reads: the unit's .c file, then its headers. */
static int read_inputs(struct kbuild *kb, struct actor *a, struct task *t, uint64_t job,
		       struct rng *r, uint8_t *seen)
{
	const struct kbuild_params *p = kb->p;
	struct workload *w = kb->w;

	for (uint64_t pg = 0; pg < kb->src_pages; pg++)
		CHECK(tree_read(kb, a, t, kb->tree, kb->src_first + job * kb->src_pages + pg));
	memset(seen, 0, (size_t)(p->nr_headers + 7) / 8);
	/* `includes` distinct headers (include guards: none is read twice);
	 * the draws stop at 4x that when popular ones keep coming back */
	for (uint64_t n = 0, draws = 0; n < p->includes && draws < 4 * p->includes; draws++) {
		uint64_t h = zipf_next(&kb->hdr_zipf, r);

		if (seen[h / 8] & (1u << (h % 8)))
			continue;
		seen[h / 8] |= (uint8_t)(1u << (h % 8));
		n++;
		for (uint64_t pg = 0; pg < kb->hdr_pages; pg++)
			CHECK(tree_read(kb, a, t, kb->tree, h * kb->hdr_pages + pg));
		actor_cond_resched(a);
	}
	return 0;
}

/*
 * The compile: in each step a slice of cc1's text runs, the heap grows by
 * a slice (new pages written) and as many pages already built are visited
 * again (read), while a share of the job's user CPU burns.
 */
static int compile(struct kbuild *kb, struct actor *a, struct task *t,
		   struct address_space *heap, uint64_t cpu_ns, struct rng *r)
{
	uint64_t nr_text = kb->cc1->nr_pages, nr_heap = heap->nr_pages;
	struct workload *w = kb->w;

	for (uint64_t s = 0; s < COMPILE_STEPS; s++) {
		uint64_t t0 = nr_text * s / COMPILE_STEPS, t1 = nr_text * (s + 1) / COMPILE_STEPS;
		uint64_t h0 = nr_heap * s / COMPILE_STEPS, h1 = nr_heap * (s + 1) / COMPILE_STEPS;

		for (uint64_t p = t0; p < t1; p++)
			CHECK(filemap_map_access(a, t, kb->cc1, p, false));
		for (uint64_t p = h0; p < h1;) {
			uint64_t nr_new, n = mm_range_ops ?
				anon_access_range(a, t, heap, p, h1, true, 0, false, &nr_new) : 0;

			/* the heap grows by a slice: a memset, no resched inside */
			if (n) {
				workload_count_range(w, n, nr_new);
				p += n;
				continue;
			}
			CHECK(anon_access(a, t, heap, p, true));
			p++;
		}
		for (uint64_t i = h0; i < h1; i++)
			CHECK(anon_access(a, t, heap, rng_below(r, h1), false));
		actor_charge_user(a, cpu_ns / COMPILE_STEPS);
		actor_cond_resched(a);
	}
	return 0;
}

/* One compiler process, from fork/exec to exit. 0, or <0 when killed. */
static int run_job(struct kbuild *kb, struct actor *a, int slot, uint64_t job)
{
	const struct scn_workload *c = kb->c;
	const struct kbuild_params *p = kb->p;
	struct workload *w = kb->w;
	uint64_t heap_pages, cpu_ns, t0 = actor_now_ns(a), max_heap;
	struct address_space *heap;
	struct task *t;
	struct rng r;
	char name[96];
	int ret;

	snprintf(name, sizeof(name), "%s.job.%llu", c->name, (unsigned long long)job);
	rng_seed(&r, kb->job_seed, name);
	max_heap = pages(p->heap_size) * MAX_FACTOR;
	heap_pages = (uint64_t)llround(lognormal(&r, (double)pages(p->heap_size), p->heap_sigma));
	heap_pages = heap_pages < 1 ? 1 : heap_pages > max_heap ? max_heap : heap_pages;
	cpu_ns = (uint64_t)llround(lognormal(&r, (double)p->compile_ns, p->compile_sigma));
	if (cpu_ns > p->compile_ns * MAX_FACTOR)
		cpu_ns = p->compile_ns * MAX_FACTOR;

	t = workload_task_create(w, "cc1", kb->memcg, a->node);
	if (!t)
		return -ENOMEM;
	a->task = t;
	/* execve(): cc1's text is mapped; its pages fault in as it runs */
	task_mmap_file(t, kb->cc1);
	heap = anon_region_create(t, "cc1-heap", heap_pages);
	ret = heap ? 0 : -ENOMEM;
	if (!ret)
		ret = read_inputs(kb, a, t, job, &r, kb->seen[slot]);
	if (!ret)
		ret = compile(kb, a, t, heap, cpu_ns, &r);
	for (uint64_t p = 0; !ret && p < kb->obj_pages; p++) {
		ret = tree_write(kb, a, t, kb->objs, job * kb->obj_pages + p);
		if (ret >= 0)
			workload_count_outcome(w, ret);
		ret = ret < 0 ? ret : 0;
	}
	if (t->oom_killed && !ret)
		ret = -EINTR;
	task_exit(a, t);
	a->task = w->task;
	if (!ret)
		hist_record(&w->lat, actor_now_ns(a) - t0);
	return ret;
}

/* A job slot: take the next unit while make has any and nothing failed. */
static void slot_fn(struct actor *a, void *arg)
{
	struct kbuild *kb = arg;
	struct workload *w = kb->w;
	/* creating an actor may run it at once: slots number themselves */
	int slot = kb->nr_started++;

	kb->slots[slot] = a;
	a->task = w->task;
	while (!kb->stop && !w->task->oom_killed && kb->next_job < kb->p->jobs) {
		uint64_t job = kb->next_job++;

		if (run_job(kb, a, slot, job) < 0) {
			/* make: *** Waiting for unfinished jobs */
			kb->jobs_failed++;
			kb->stop = true;
			break;
		}
		kb->jobs_done++;
		w->ops_done++;
	}
	actor_flush_cpu(a);
	if (actor_now_ns(a) > w->end_ns)
		w->end_ns = actor_now_ns(a);
	w->threads_running--;
}

/* make: with the tree on tmpfs, copy it in first; then start the job slots. */
static void make_fn(struct actor *a, void *arg)
{
	struct kbuild *kb = arg;
	struct workload *w = kb->w;
	char name[96];

	a->task = w->task;
	kb->job_seed = rng_next(&a->rng);
	if (w->cfg->start_ns)
		actor_sleep_ns(a, w->cfg->start_ns);
	for (uint64_t p = 0; kb->tmpfs && p < kb->tree->nr_pages;) {
		uint64_t nr_new, n = mm_range_ops ?
			anon_access_range(a, w->task, kb->tree, p, kb->tree->nr_pages, true, 0, true,
					  &nr_new) : 0;

		/* the tree unpacked into tmpfs: its outcomes are not counted */
		if (n) {
			p += n;
			actor_cond_resched(a);
			continue;
		}
		if (anon_access(a, w->task, kb->tree, p, true) < 0)
			return;
		actor_cond_resched(a);
		p++;
	}
	actor_flush_cpu(a);
	w->start_ns = actor_now_ns(a);
	for (int i = 0; i < kb->nr_slots; i++) {
		snprintf(name, sizeof(name), "%s.%d", w->cfg->name, i);
		w->threads_running++;
		/* jobs spread over every node, as the scheduler would place them */
		if (!actor_create(name, i % mm.machine.nr_nodes, slot_fn, kb, false)) {
			w->threads_running--;
			kb->stop = true;
			return;
		}
	}
}

/* Pages the build takes on its device: compiler, tree and objects (file mode). */
static uint64_t kbuild_device_pages(const struct scn_workload *c)
{
	const struct kbuild_params *p = c->params;
	uint64_t n = pages(p->compiler_size);

	if (strcmp(p->src, "tmpfs"))
		n += pages(c->size) + pages(p->objects_size);
	return n;
}

static int kbuild_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
			uint64_t bdev_start)
{
	const struct scn_workload *c = w->cfg;
	const struct kbuild_params *p = c->params;
	uint64_t nr_tree = pages(c->size), nr_comp = pages(p->compiler_size);
	struct kbuild *kb = calloc(1, sizeof(*kb));

	if (!kb)
		return -ENOMEM;
	w->priv = kb;
	kb->w = w;
	kb->c = c;
	kb->p = p;
	kb->memcg = memcg;
	kb->tmpfs = !strcmp(p->src, "tmpfs");
	kb->nr_slots = c->threads;
	kb->cc1 = file_create("cc1", nr_comp, bdev, bdev_start, true);
	if (kb->tmpfs) {
		kb->tree = anon_region_create(w->task, "tmpfs-tree", nr_tree);
		kb->objs = anon_region_create(w->task, "tmpfs-objs", pages(p->objects_size));
	} else {
		kb->tree = file_create("tree", nr_tree, bdev, bdev_start + nr_comp, false);
		kb->objs = file_create("objs", pages(p->objects_size), bdev,
				       bdev_start + nr_comp + nr_tree, false);
	}
	kb->slots = calloc((size_t)kb->nr_slots, sizeof(*kb->slots));
	kb->seen = calloc((size_t)kb->nr_slots, sizeof(*kb->seen));
	if (!kb->cc1 || !kb->tree || !kb->objs || !kb->slots || !kb->seen)
		return -ENOMEM;
	for (int i = 0; i < kb->nr_slots; i++)
		if (!(kb->seen[i] = calloc((size_t)(p->nr_headers + 7) / 8, 1)))
			return -ENOMEM;
	kb->hdr_pages = pages(p->headers_size) / p->nr_headers;
	kb->src_first = kb->hdr_pages * p->nr_headers;
	kb->src_pages = pages(p->sources_size) / p->jobs;
	kb->obj_pages = pages(p->objects_size) / p->jobs;
	zipf_init(&kb->hdr_zipf, p->nr_headers, p->zipf_theta,
		  zipf_scramble_hash_first_of[p->scramble]);
	if (!actor_create(c->name, c->node, make_fn, kb, false))
		return -ENOMEM;
	return 0;
}

static void kbuild_report(const struct workload *w, struct result_group *g, uint64_t end_ns)
{
	const struct kbuild *kb = kb_of(w);
	uint64_t utime = 0, stime = 0;

	(void)end_ns;
	for (int i = 0; i < kb->nr_slots; i++) {
		if (!kb->slots[i])
			continue;
		utime += kb->slots[i]->utime_ns;
		stime += kb->slots[i]->stime_ns;
	}
	result_add_u64(g, "jobs_completed", kb->jobs_done);
	result_add_u64(g, "jobs_failed", kb->jobs_failed);
	/* `time make`: the children's CPU (kswapd's is not the build's) */
	result_add(g, "user_s", (double)utime / 1e9, false);
	result_add(g, "sys_s", (double)stime / 1e9, false);
}

/* The tree holds the headers and sources; every job gets pages. */
static int kbuild_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	struct kbuild_params *p = cfg->params;

	if (!p->src[0])
		snprintf(p->src, sizeof(p->src), "file");
	if (strcmp(p->src, "file") && strcmp(p->src, "tmpfs"))
		return scn_fail(ck, NULL, "src", "expected file or tmpfs");
	if (!p->jobs)
		return scn_fail(ck, NULL, "jobs", "a kbuild needs jobs > 0 after scaling");
	if (p->compiler_size < 4096)
		return scn_fail(ck, NULL, "compiler",
				"a kbuild needs a compiler of at least one page after scaling");
	if (p->heap_size < 4096)
		return scn_fail(ck, NULL, "heap",
				"a kbuild needs a heap of at least one page after scaling");
	if (!p->nr_headers || p->headers_size / 4096 < p->nr_headers)
		return scn_fail(ck, NULL, "headers",
				"every header needs at least one page after scaling");
	if (p->sources_size / 4096 < p->jobs)
		return scn_fail(ck, NULL, "sources",
				"every source file needs at least one page after scaling");
	if (p->objects_size / 4096 < p->jobs)
		return scn_fail(ck, NULL, "objects",
				"every object file needs at least one page after scaling");
	if (p->headers_size + p->sources_size > cfg->size)
		return scn_fail(ck, NULL, "size", "the tree (size) must hold the headers and the sources");
	cfg->ops = p->jobs;
	return 0;
}

#define P struct kbuild_params
static const struct key_desc kbuild_keys[] = {
	SCN_KEY("src", KT_STRING, KEY_UNSCALED, P, src, 0, 0, "file or tmpfs",
		"the tree and objects on a file of the device (file, the default) or tmpfs"),
	SCN_KEY("jobs", KT_COUNT, KEY_SCALED, P, jobs, 0, 0, "a count",
		"compilation units, one compiler process each"),
	SCN_KEY("compiler", KT_SIZE, KEY_SCALED, P, compiler_size, 0, 0, "a size",
		"the compiler's text (cc1), an executable mapping"),
	SCN_KEY("heap", KT_SIZE, KEY_SCALED, P, heap_size, 0, 0, "a size",
		"mean anonymous heap of a job (lognormal)"),
	SCN_KEY("heap_sigma", KT_DOUBLE, KEY_UNSCALED, P, heap_sigma, 0, 3, "a sigma in [0, 3]",
		"lognormal sigma of the heap sizes"),
	SCN_KEY("compile_time", KT_TIME, KEY_UNSCALED, P, compile_ns, 0, 0, "a duration",
		"mean user CPU of a job (lognormal)"),
	SCN_KEY("compile_sigma", KT_DOUBLE, KEY_UNSCALED, P, compile_sigma, 0, 3,
		"a sigma in [0, 3]", "lognormal sigma of the CPU times"),
	SCN_KEY("headers", KT_SIZE, KEY_SCALED, P, headers_size, 0, 0, "a size",
		"bytes of the headers in the tree"),
	SCN_KEY("nr_headers", KT_COUNT, KEY_SCALED, P, nr_headers, 0, 0, "a count",
		"how many headers (zipfian popularity, zipf_theta)"),
	SCN_KEY("includes", KT_COUNT, KEY_SCALED, P, includes, 0, 0, "a count",
		"distinct headers a job reads"),
	SCN_KEY("sources", KT_SIZE, KEY_SCALED, P, sources_size, 0, 0, "a size",
		"bytes of the .c files, one per job"),
	SCN_KEY("objects", KT_SIZE, KEY_SCALED, P, objects_size, 0, 0, "a size",
		"bytes of the objects written, one per job"),
	SCN_KEY("zipf_theta", KT_DOUBLE, KEY_UNSCALED, P, zipf_theta, 0, 10,
		"a zipf theta in [0, 10]", "skew of the header popularity (0: uniform)"),
	SCN_CHOICE("scramble", P, scramble, zipf_scramble_hash_first,
		   "hash, none, ycsb or permutation",
		   "header ranks onto headers: hash (default), none, ycsb, permutation"),
	{ 0 }
};
#undef P

const struct workload_ops kbuild_ops = {
	.name = "kbuild",
	.desc = "make -jN of a kernel tree, short-lived compiler processes",
	.keys = kbuild_keys,
	.params_size = sizeof(struct kbuild_params),
	.check = kbuild_check,
	.needs_device = workload_has_files,
	.device_pages = kbuild_device_pages,
	.start = kbuild_start,
	.report = kbuild_report,
};
