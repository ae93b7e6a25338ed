/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace: a replay of a page-access trace (scenarios/trace.h: libCacheSim's
 * oracleGeneral or lcs records, csv or txt, twr or vscsi records, plain or
 * .zst), one operation per
 * request in order over all threads; each distinct object is ceil(size /
 * 4 KiB) pages of a file (target = file) or of an anonymous region (target
 * = anon), objects side by side, a request touching the pages of its size,
 * and a csv write op writes. Without a size key, the workload is as large
 * as the trace's objects (unscaled: the trace is what it is).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/trace.h"
#include "scenarios/wl_access.h"

struct trace_params {
	struct access_params a;		/* access, compress_ratio (one page per op: sizes say more) */
	char *path;			/* the file (relative to the scenario's folder), or NULL */
	char format[16];		/* auto, oracle, csv, txt, lcs, twr... (trace_format_parse) */
	char *columns;			/* cachesim's trace parameters (csv columns), or NULL */
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

/* Request number `op`: its object's first page and pages, and whether it writes. */
static uint64_t trace_key(struct access_gen *g, struct actor *a, uint64_t op, bool *write)
{
	const struct trace_req *tr = &((struct trace_gen *)g)->trace->req[op];

	(void)a;
	*write = tr->write;
	g->op_pages = tr->nr_pages;
	return tr->page;
}

/*
 * Loads the trace (relative paths from the scenario's folder); ops = its
 * requests, and without a size the size its objects take. All of them must
 * fit in size (they used to wrap modulo its keys: 200 K objects on a 4 MB
 * workload).
 */
static int trace_check(struct scn_workload *cfg, const struct scn_check *ck)
{
	struct trace_params *p = cfg->params;
	const char *spath = ck->s->path, *slash = strrchr(spath, '/');
	struct trace_opts o;
	enum trace_format fmt;
	char *path, why[512] = "", msg[256];
	int rc;

	if (!p->path)
		return scn_fail(ck, NULL, "trace", "a trace workload needs a trace file");
	if (trace_format_parse(p->format[0] ? p->format : "auto", &fmt))
		return scn_fail(ck, NULL, "trace_format", "expected auto, oracle, csv, txt, lcs, "
				"twr, twrNS, oracleSysTwrNS, oracleSimTwrNS or vscsi");
	trace_opts_init(&o, fmt);
	if (p->columns && trace_opts_parse(&o, p->columns, why, sizeof(why)))
		return scn_fail(ck, NULL, "trace_params", why);
	if (p->target[0] && strcmp(p->target, "file") && strcmp(p->target, "anon"))
		return scn_fail(ck, NULL, "target", "expected file or anon");
	if (p->path[0] == '/' || !slash)
		rc = asprintf(&path, "%s", p->path);
	else
		rc = asprintf(&path, "%.*s/%s", (int)(slash - spath), spath, p->path);
	if (rc < 0)
		return scn_fail(ck, NULL, "trace", "out of memory");
	p->trace = calloc(1, sizeof(*p->trace));
	rc = p->trace ? trace_load_opts(p->trace, path, &o, why, sizeof(why)) : -1;
	free(path);
	if (rc) {
		free(p->trace);
		p->trace = NULL;
		return scn_fail(ck, NULL, "trace", why[0] ? why : "out of memory");
	}
	if (!cfg->size)
		cfg->size = p->trace->nr_pages * 4096;
	if (access_check(cfg, ck))
		return -1;
	if (p->trace->nr_pages > cfg->size / 4096) {
		snprintf(msg, sizeof(msg), "the trace's %llu distinct objects take %llu pages, "
			 "and size holds %llu after scaling (leave size out to take the trace's)",
			 (unsigned long long)p->trace->nr_objects,
			 (unsigned long long)p->trace->nr_pages,
			 (unsigned long long)(cfg->size / 4096));
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
	free(p->columns);
	p->columns = NULL;
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
	SCN_KEY("trace_format", KT_STRING, KEY_UNSCALED, P, format, 0, 0,
		"auto, oracle, csv, txt, lcs, twr, twrNS, vscsi...",
		"auto (the default: sniffed), oracle (libCacheSim oracleGeneral), csv, txt, lcs, "
		"twr, twrNS, oracleSysTwrNS, oracleSimTwrNS or vscsi; plain or .zst"),
	SCN_KEY("trace_params", KT_TEXT, KEY_UNSCALED, P, columns, 0, 0, "cachesim's -t",
		"csv columns as cachesim's -t: time-col=1,obj-id-col=2,obj-size-col=3,op-col=4,"
		"delimiter=,,has-header=true; obj-id-is-num=false for names"),
	SCN_KEY("target", KT_STRING, KEY_UNSCALED, P, target, 0, 0, "file or anon",
		"file (the default: pages of a file on its device) or anon (anonymous memory)"),
	SCN_CHOICE("access", P, a.access, access_kind_names, "an access kind (read, mmap)",
		   "a file's pages through read: read()/write(), or mmap: a shared mapping"),
	SCN_KEY("compress_ratio", KT_DOUBLE, KEY_UNSCALED, P, a.compress_ratio, 1, 100,
		"a ratio in [1, 100]", "anon: how well its pages compress in zram"),
	{ 0 }
};
#undef P

const struct workload_ops trace_ops = {
	.name = "trace",
	.desc = "replay of a page-access trace (libCacheSim oracleGeneral, lcs, csv, txt, twr, "
		"vscsi, .zst)",
	.keys = trace_keys,
	.params_size = sizeof(struct trace_params),
	.params_init = access_params_init,
	.check = trace_check,
	.size_from_check = true,
	.params_free = trace_params_free,
	.needs_device = trace_needs_device,
	.start = trace_start,
};
