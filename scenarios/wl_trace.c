/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace: a replay of a page-access trace (scenarios/trace.h: libCacheSim's
 * oracleGeneral records, or CSV), one operation per request in order over
 * all threads; each distinct object is one key (pages_per_op pages) of a
 * file (target = file) or of an anonymous region (target = anon), and a
 * CSV write op writes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/trace.h"
#include "scenarios/wl_access.h"

struct trace_params {
	struct access_params a;		/* access, pages_per_op, compress_ratio */
	char *path;			/* the file (relative to the scenario's folder), or NULL */
	char format[16];		/* oracle or csv */
	char target[SCN_NAME_LEN];	/* file or anon */
	struct trace *trace;		/* the requests, loaded by check() */
};

struct trace_gen {
	struct access_gen g;		/* first: the loop's state */
	const struct trace *trace;	/* the requests replayed */
};

static bool is_anon(const struct scn_workload *cfg)
{
	const struct trace_params *p = cfg->params;

	return !strcmp(p->target, "anon");
}

/* Request number `op`: its object, and whether it writes. */
static uint64_t trace_key(struct access_gen *g, struct actor *a, uint64_t op, bool *write)
{
	const struct trace_req *tr = &((struct trace_gen *)g)->trace->req[op];

	(void)a;
	*write = tr->write;
	return tr->dense_id % g->nr_keys;
}

/*
 * Loads the trace (relative paths from the scenario's folder); ops = its
 * requests. Each distinct object is one key: all of them must fit in size
 * (they wrapped modulo its keys: 200 K objects on a 4 MB workload).
 */
static int trace_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	struct trace_params *p = cfg->params;
	const char *spath = ck->s->path, *slash = strrchr(spath, '/');
	uint64_t nr_keys = cfg->size / 4096 / p->a.pages_per_op;
	enum trace_format fmt;
	char *path, why[512] = "", msg[256];
	int rc;

	if (access_check(cfg, ck))
		return -1;
	if (!p->path)
		return scn_fail(ck, NULL, "trace", "a trace workload needs a trace file");
	if (trace_format_parse(p->format[0] ? p->format : "oracle", &fmt))
		return scn_fail(ck, NULL, "trace_format", "expected oracle or csv");
	if (p->target[0] && strcmp(p->target, "file") && strcmp(p->target, "anon"))
		return scn_fail(ck, NULL, "target", "expected file or anon");
	if (p->path[0] == '/' || !slash)
		rc = asprintf(&path, "%s", p->path);
	else
		rc = asprintf(&path, "%.*s/%s", (int)(slash - spath), spath, p->path);
	if (rc < 0)
		return scn_fail(ck, NULL, "trace", "out of memory");
	p->trace = calloc(1, sizeof(*p->trace));
	rc = p->trace ? trace_load(p->trace, path, fmt, why, sizeof(why)) : -1;
	free(path);
	if (rc) {
		free(p->trace);
		p->trace = NULL;
		return scn_fail(ck, NULL, "trace", why[0] ? why : "out of memory");
	}
	if (p->trace->nr_objects > nr_keys) {
		snprintf(msg, sizeof(msg), "the trace has %llu distinct objects, each its own "
			 "%llu pages, and size holds %llu of them after scaling",
			 (unsigned long long)p->trace->nr_objects,
			 (unsigned long long)p->a.pages_per_op, (unsigned long long)nr_keys);
		return scn_fail(ck, NULL, "size", msg);
	}
	cfg->ops = p->trace->nr;
	return 0;
}

static void trace_params_free(struct scn_workload *cfg)
{
	struct trace_params *p = cfg->params;

	if (p->trace) {
		trace_free(p->trace);
		free(p->trace);
		p->trace = NULL;
	}
	free(p->path);
	p->path = NULL;
}

static bool trace_needs_device(const struct scn_workload *cfg)
{
	return !is_anon(cfg);
}

static int trace_start(struct workload *w, struct mem_cgroup *memcg, struct blockdev *bdev,
		       uint64_t bdev_start)
{
	const struct trace_params *p = w->cfg->params;
	struct trace_gen *tg = calloc(1, sizeof(*tg));

	(void)memcg;
	if (!tg)
		return -ENOMEM;
	tg->trace = p->trace;
	return access_gen_start(&tg->g, w, &p->a, is_anon(w->cfg), trace_key, bdev, bdev_start);
}

#define P struct trace_params
static const struct key_desc trace_keys[] = {
	SCN_KEY("trace", KT_TEXT, KEY_UNSCALED, P, path, 0, 0, "a trace file",
		"the trace file (relative to the scenario's folder)"),
	SCN_KEY("trace_format", KT_STRING, KEY_UNSCALED, P, format, 0, 0, "oracle or csv",
		"oracle (libCacheSim oracleGeneral, the default) or csv (time,obj_id,size,op)"),
	SCN_KEY("target", KT_STRING, KEY_UNSCALED, P, target, 0, 0, "file or anon",
		"file (the default: pages of a file on its device) or anon (anonymous memory)"),
	SCN_CHOICE("access", P, a.access, access_kind_names, "an access kind (read, mmap)",
		   "a file's pages through read: read()/write(), or mmap: a shared mapping"),
	SCN_KEY("pages_per_op", KT_INT, KEY_UNSCALED, P, a.pages_per_op, 1, 4096,
		"a page count (1-4096)", "pages per object"),
	SCN_KEY("compress_ratio", KT_DOUBLE, KEY_UNSCALED, P, a.compress_ratio, 1, 100,
		"a ratio in [1, 100]", "anon: how well its pages compress in zram"),
	{ 0 }
};
#undef P

const struct workload_ops trace_ops = {
	.name = "trace",
	.desc = "replay of a page-access trace (libCacheSim oracleGeneral or CSV)",
	.keys = trace_keys,
	.params_size = sizeof(struct trace_params),
	.params_init = access_params_init,
	.check = trace_check,
	.params_free = trace_params_free,
	.needs_device = trace_needs_device,
	.pages_per_op = access_pages_per_op,
	.start = trace_start,
};
