/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/result.h"
#include "scenarios/result_commit.h"	/* MMEMU_COMMIT, generated */

void result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
}

void result_free(struct run_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nr; i++)
		free(r->g[i].v);
	free(r->g);
	free(r->policy);
	free(r->options);
	free(r->policy_file);
	free(r->policy_sha256);
	free(r->policy_name);
	free(r->kernel);
	free(r->dump);
	for (int i = 0; i < r->nr_samples; i++)
		mmemu__sample__free_unpacked(r->samples[i], NULL);
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		abort();	/* host out of memory */
	return d;
}

void result_set_run(struct run_result *r, const char *policy, const char *options)
{
	free(r->policy);
	free(r->options);
	r->policy = xstrdup(policy);
	r->options = xstrdup(options ? options : "");
}

void result_set_policy_file(struct run_result *r, const char *path, const char *sha256,
			    const char *name)
{
	free(r->policy_file);
	free(r->policy_sha256);
	free(r->policy_name);
	r->policy_file = xstrdup(path);
	r->policy_sha256 = xstrdup(sha256);
	r->policy_name = xstrdup(name);
}

void result_set_kernel(struct run_result *r, const char *kernel)
{
	free(r->kernel);
	r->kernel = xstrdup(kernel);
}

struct result_group *result_group(struct run_result *r, const char *name)
{
	struct result_group *g;

	for (int i = 0; i < r->nr; i++)
		if (!strcmp(r->g[i].name, name))
			return &r->g[i];
	if (r->nr == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		struct result_group *n = realloc(r->g, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		r->g = n;
		r->cap = cap;
	}
	g = &r->g[r->nr++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	return g;
}

void result_add(struct result_group *g, const char *key, double value, bool is_int)
{
	struct result_value *v;

	if (g->nr == g->cap) {
		int cap = g->cap ? 2 * g->cap : 32;
		struct result_value *n = realloc(g->v, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		g->v = n;
		g->cap = cap;
	}
	v = &g->v[g->nr++];
	snprintf(v->key, sizeof(v->key), "%s", key);
	v->value = value;
	v->is_int = is_int;
}

void result_dump_append(struct run_result *r, const char *line)
{
	size_t n = strlen(line);
	char *d = realloc(r->dump, r->dump_len + n + 2);

	if (!d)
		abort();	/* host out of memory */
	memcpy(d + r->dump_len, line, n);
	d[r->dump_len + n] = '\n';
	d[r->dump_len + n + 1] = '\0';
	r->dump = d;
	r->dump_len += n + 1;
}

/* A deep copy of s: packed, then unpacked, so that mmemu__sample__free_unpacked() frees it. */
static Mmemu__Sample *sample_dup(const Mmemu__Sample *s)
{
	size_t len = mmemu__sample__get_packed_size(s);
	uint8_t *buf = malloc(len + 1);
	Mmemu__Sample *d;

	if (!buf)
		abort();	/* host out of memory */
	mmemu__sample__pack(s, buf);
	d = mmemu__sample__unpack(NULL, len, buf);
	free(buf);
	if (!d)
		abort();	/* host out of memory: what was just packed decodes */
	return d;
}

void result_add_sample(struct run_result *r, const Mmemu__Sample *s)
{
	if (r->on_sample) {
		char *text = result_sample_text(s);

		if (!text)
			abort();	/* host out of memory */
		r->on_sample(r->on_sample_ctx, text);
		free(text);
	}
	if (r->samples_unsaved)
		return;
	if (r->nr_samples == r->cap_samples) {
		int cap = r->cap_samples ? 2 * r->cap_samples : 64;
		Mmemu__Sample **n = realloc(r->samples, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		r->samples = n;
		r->cap_samples = cap;
	}
	r->samples[r->nr_samples++] = sample_dup(s);
}

/* ---- a sample as JSON ---- */

/* A name inside a JSON string: quotes, backslashes and control characters escaped. */
static void json_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
}

/* "/NAME": a memcg's path as the rows print it */
static void json_memcg(FILE *f, const char *sep, const char *name)
{
	fprintf(f, "%s\"/", sep);
	json_escape(f, name);
	fputc('"', f);
}

static void json_stats(FILE *f, const Mmemu__StatsRow *row)
{
	fprintf(f, ", \"free_pages\": [");
	for (size_t i = 0; i < row->n_free_pages; i++)
		fprintf(f, "%s%llu", i ? ", " : "", (unsigned long long)row->free_pages[i]);
	fprintf(f, "], \"pgscan\": %llu, \"pgsteal\": %llu, \"workingset_refault_anon\": %llu, "
		   "\"workingset_refault_file\": %llu, \"memory_current\": {",
		(unsigned long long)row->pgscan, (unsigned long long)row->pgsteal,
		(unsigned long long)row->workingset_refault_anon,
		(unsigned long long)row->workingset_refault_file);
	for (size_t i = 0; i < row->n_memcgs; i++) {
		json_memcg(f, i ? ", " : "", row->memcgs[i]->name);
		fprintf(f, ": %llu", (unsigned long long)row->memcgs[i]->memory_current);
	}
	/* each memcg's parent (the root is "/"), so that a sum over memcgs counts a page once */
	fprintf(f, "}, \"memcg_parent\": {");
	for (size_t i = 0, n = 0; i < row->n_memcgs; i++) {
		if (!row->memcgs[i]->has_parent)
			continue;
		json_memcg(f, n++ ? ", " : "", row->memcgs[i]->name);
		json_memcg(f, ": ", row->memcgs[i]->parent);
	}
	fprintf(f, "}, \"memory_stat\": {");
	for (size_t i = 0; i < row->n_memcgs; i++) {
		const Mmemu__MemcgSample *m = row->memcgs[i];

		json_memcg(f, i ? ", " : "", m->name);
		fprintf(f, ": {\"pgscan\": %llu, \"pgsteal\": %llu, "
			   "\"workingset_refault_anon\": %llu, \"workingset_refault_file\": %llu}",
			(unsigned long long)m->pgscan, (unsigned long long)m->pgsteal,
			(unsigned long long)m->workingset_refault_anon,
			(unsigned long long)m->workingset_refault_file);
	}
	fprintf(f, "}, \"memory_events\": {");
	for (size_t i = 0; i < row->n_memcgs; i++) {
		json_memcg(f, i ? ", " : "", row->memcgs[i]->name);
		fprintf(f, ": {\"oom_kill\": %llu}", (unsigned long long)row->memcgs[i]->oom_kill);
	}
	fprintf(f, "}, \"memory_pressure\": {");
	for (size_t i = 0; i < row->n_memcgs; i++) {
		const Mmemu__MemcgSample *m = row->memcgs[i];

		json_memcg(f, i ? ", " : "", m->name);
		fprintf(f, ": {\"some_avg10\": %.2f, \"some_total\": %llu, "
			   "\"full_avg10\": %.2f, \"full_total\": %llu}",
			m->some_avg10, (unsigned long long)m->some_total, m->full_avg10,
			(unsigned long long)m->full_total);
	}
	fputc('}', f);
	if (row->swap) {
		fprintf(f, ", \"swap_used\": %llu", (unsigned long long)row->swap->used);
		if (row->swap->zram)
			fprintf(f, ", \"zram_stored\": %llu, \"zram_pool\": %llu",
				(unsigned long long)row->swap->zram->stored,
				(unsigned long long)row->swap->zram->pool);
	}
	fprintf(f, ", \"ops\": {");
	for (size_t i = 0; i < row->n_ops; i++) {
		fprintf(f, "%s\"", i ? ", " : "");
		json_escape(f, row->ops[i]->name);
		fprintf(f, "\": %llu", (unsigned long long)row->ops[i]->ops);
	}
	fputc('}', f);
}

static void json_lruvec(FILE *f, const Mmemu__LruvecRow *row)
{
	json_memcg(f, ", \"memcg\": ", row->memcg);
	fprintf(f, ", \"node\": %d", row->node);
	if (row->lists) {
		fprintf(f, ", \"inactive_anon\": %llu, \"active_anon\": %llu, "
			   "\"inactive_file\": %llu, \"active_file\": %llu",
			(unsigned long long)row->lists->inactive_anon,
			(unsigned long long)row->lists->active_anon,
			(unsigned long long)row->lists->inactive_file,
			(unsigned long long)row->lists->active_file);
	} else if (row->gens) {
		const Mmemu__Generations *g = row->gens;

		fprintf(f, ", \"max_seq\": %llu, \"min_seq\": [%llu, %llu], \"gens\": [",
			(unsigned long long)g->max_seq, (unsigned long long)g->min_seq_anon,
			(unsigned long long)g->min_seq_file);
		for (size_t i = 0; i < g->n_gens; i++)
			fprintf(f, "%s{\"seq\": %llu, \"age_ms\": %llu, \"anon\": %lld, \"file\": %lld}",
				i ? ", " : "", (unsigned long long)g->gens[i]->seq,
				(unsigned long long)g->gens[i]->age_ms, (long long)g->gens[i]->anon,
				(long long)g->gens[i]->file);
		fputc(']', f);
	}
}

static void json_oom(FILE *f, const Mmemu__OomKill *oom)
{
	fprintf(f, ", \"constraint\": \"%s\"",
		oom->memcg_constraint ? "CONSTRAINT_MEMCG" : "CONSTRAINT_NONE");
	json_memcg(f, ", \"oom_memcg\": ", oom->oom_memcg);
	json_memcg(f, ", \"task_memcg\": ", oom->task_memcg);
	fprintf(f, ", \"task\": \"");
	json_escape(f, oom->task);
	fprintf(f, "\", \"pid\": %d", oom->pid);
}

int result_sample_json(const Mmemu__Sample *s, FILE *f)
{
	const char *kind = s->row_case == MMEMU__SAMPLE__ROW_STATS ? "stats" :
			   s->row_case == MMEMU__SAMPLE__ROW_OOM ? "oom" :
			   s->row_case == MMEMU__SAMPLE__ROW_LRUVEC ? s->lruvec->kind : "none";

	fprintf(f, "{\"kind\": \"");
	json_escape(f, kind);
	fprintf(f, "\", \"t\": %.6f", (double)s->t_ns / 1e9);
	if (s->row_case == MMEMU__SAMPLE__ROW_STATS)
		json_stats(f, s->stats);
	else if (s->row_case == MMEMU__SAMPLE__ROW_LRUVEC)
		json_lruvec(f, s->lruvec);
	else if (s->row_case == MMEMU__SAMPLE__ROW_OOM)
		json_oom(f, s->oom);
	fputc('}', f);
	return ferror(f) ? -1 : 0;
}

char *result_sample_text(const Mmemu__Sample *s)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (result_sample_json(s, f) | fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

char *result_options_text(const Mmemu__Run *m)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	for (size_t i = 0; i < m->n_options; i++)
		fprintf(f, "%s%s=%s", i ? " " : "", m->options[i]->key, m->options[i]->value);
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

const struct result_group *result_find_group(const struct run_result *r, const char *name)
{
	for (int i = 0; i < r->nr; i++)
		if (!strcmp(r->g[i].name, name))
			return &r->g[i];
	return NULL;
}

const struct result_value *result_find(const struct result_group *g, const char *key)
{
	if (!g)
		return NULL;
	for (int i = 0; i < g->nr; i++)
		if (!strcmp(g->v[i].key, key))
			return &g->v[i];
	return NULL;
}

int result_write(const struct run_result *r, FILE *f)
{
	fprintf(f, "run\t%s\t%llu\t%a\t%a\t%s\n", r->policy ? r->policy : "",
		(unsigned long long)r->seed, r->sim_seconds, r->host_seconds,
		r->options ? r->options : "");
	for (int i = 0; i < r->nr; i++)
		for (int j = 0; j < r->g[i].nr; j++)
			fprintf(f, "v\t%s\t%s\t%a\t%d\n", r->g[i].name, r->g[i].v[j].key,
				r->g[i].v[j].value, r->g[i].v[j].is_int);
	for (int i = 0; i < r->nr_samples; i++) {
		fputs("s\t", f);
		result_sample_json(r->samples[i], f);
		fputc('\n', f);
	}
	if (r->dump) {
		const char *p = r->dump;

		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			fprintf(f, "d\t%.*s\n", (int)n, p);
			p += n + (nl ? 1 : 0);
		}
	}
	fprintf(f, "end\n");
	return ferror(f) ? -1 : 0;
}

int result_read(struct run_result *r, FILE *f)
{
	char *line = NULL;
	size_t cap = 0;
	bool ended = false;
	int rc = -1;

	result_init(r);
	while (getline(&line, &cap, f) > 0) {
		char *save, *tag;

		if (!strncmp(line, "d\t", 2)) {
			line[strcspn(line, "\n")] = '\0';
			result_dump_append(r, line + 2);
			continue;
		}
		if (!strncmp(line, "s\t", 2))
			continue;	/* samples: the harness runs take none */
		tag = strtok_r(line, "\t\n", &save);
		if (!tag)
			continue;
		if (!strcmp(tag, "run")) {
			char *p = strtok_r(NULL, "\t\n", &save);
			char *seed = strtok_r(NULL, "\t\n", &save);
			char *sim = strtok_r(NULL, "\t\n", &save);
			char *host = strtok_r(NULL, "\t\n", &save);
			char *opts = strtok_r(NULL, "\n", &save);

			if (!p || !seed || !sim || !host)
				goto out;
			result_set_run(r, p, opts);
			r->seed = strtoull(seed, NULL, 10);
			r->sim_seconds = strtod(sim, NULL);
			r->host_seconds = strtod(host, NULL);
		} else if (!strcmp(tag, "v")) {
			char *g = strtok_r(NULL, "\t\n", &save);
			char *k = strtok_r(NULL, "\t\n", &save);
			char *v = strtok_r(NULL, "\t\n", &save);
			char *i = strtok_r(NULL, "\t\n", &save);

			if (!g || !k || !v || !i)
				goto out;
			result_add(result_group(r, g), k, strtod(v, NULL), atoi(i));
		} else if (!strcmp(tag, "end")) {
			ended = true;
			break;
		}
	}
	rc = ended ? 0 : -1;
out:
	free(line);
	return rc;
}

/* ---- the protobuf form ---- */

static void put_le(uint8_t *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
	uint64_t v = 0;

	for (int i = n - 1; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Empty strings for the message: protobuf-c packs NULL and "" alike, but unpacks to "". */
static char *pb_str(const char *s)
{
	return (char *)(s ? s : protobuf_c_empty_string);
}

/*
 * The --set words of text ("memcg.app.max=300M workload.w.ops=9") as
 * key/value pairs into opt (room for one per word); a word without '='
 * continues the value before it, as a value with a space was joined. The
 * pairs point into text, which is cut up. Their number.
 */
static size_t split_options(char *text, Mmemu__Option *opt, Mmemu__Option **optp)
{
	size_t n = 0;
	char *save = NULL;

	for (char *w = strtok_r(text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');

		if (!eq && n) {
			w[-1] = ' ';	/* "a=x y": y is the rest of a's value */
			continue;
		}
		mmemu__option__init(&opt[n]);
		opt[n].key = w;
		opt[n].value = eq ? eq + 1 : "";
		if (eq)
			*eq = '\0';
		optp[n] = &opt[n];
		n++;
	}
	return n;
}

int result_pack(const struct run_result *r, uint8_t **buf, size_t *len)
{
	Mmemu__Run m = MMEMU__RUN__INIT;
	Mmemu__Group *g, **gp;
	Mmemu__Value *v, **vp;
	size_t nr_values = 0, n = 0, nr_words = 1;
	char *options = strdup(r->options ? r->options : "");
	Mmemu__Option *opt = NULL, **optp = NULL;
	int rc = -ENOMEM;

	for (int i = 0; i < r->nr; i++)
		nr_values += (size_t)r->g[i].nr;
	/* the message borrows r's strings; only the arrays are ours */
	g = calloc((size_t)r->nr + 1, sizeof(*g));
	gp = calloc((size_t)r->nr + 1, sizeof(*gp));
	v = calloc(nr_values + 1, sizeof(*v));
	vp = calloc(nr_values + 1, sizeof(*vp));
	for (const char *p = options ? options : ""; *p; p++)
		nr_words += *p == ' ';
	opt = calloc(nr_words, sizeof(*opt));
	optp = calloc(nr_words, sizeof(*optp));
	if (!g || !gp || !v || !vp || !options || !opt || !optp)
		goto out;
	for (int i = 0; i < r->nr; i++) {
		mmemu__group__init(&g[i]);
		g[i].name = pb_str(r->g[i].name);
		g[i].n_values = (size_t)r->g[i].nr;
		g[i].values = &vp[n];
		for (int k = 0; k < r->g[i].nr; k++, n++) {
			mmemu__value__init(&v[n]);
			v[n].key = pb_str(r->g[i].v[k].key);
			v[n].value = r->g[i].v[k].value;
			v[n].is_int = r->g[i].v[k].is_int;
			vp[n] = &v[n];
		}
		gp[i] = &g[i];
	}
	m.policy = pb_str(r->policy);
	m.n_options = split_options(options, opt, optp);
	m.options = optp;
	m.seed = r->seed;
	m.sim_seconds = r->sim_seconds;
	m.host_seconds = r->host_seconds;
	m.n_groups = (size_t)r->nr;
	m.groups = gp;
	m.n_samples = (size_t)r->nr_samples;
	m.samples = r->samples;
	m.dump = pb_str(r->dump);
	m.policy_file = pb_str(r->policy_file);
	m.policy_sha256 = pb_str(r->policy_sha256);
	m.policy_name = pb_str(r->policy_name);
	m.kernel = pb_str(r->kernel);

	*len = mmemu__run__get_packed_size(&m);
	*buf = malloc(*len + 1);
	if (*buf) {
		mmemu__run__pack(&m, *buf);
		rc = 0;
	}
out:
	free(g);
	free(gp);
	free(v);
	free(vp);
	free(options);
	free(opt);
	free(optp);
	return rc;
}

int result_send(const struct run_result *r, FILE *f)
{
	uint8_t *buf, head[4];
	size_t len;
	int rc = result_pack(r, &buf, &len);

	if (rc)
		return rc;
	if (len > UINT32_MAX) {
		free(buf);
		return -EFBIG;
	}
	put_le(head, len, 4);
	if (fwrite(head, 1, 4, f) != 4 || fwrite(buf, 1, len, f) != len)
		rc = -EIO;
	free(buf);
	return rc;
}

/*
 * The record's length is the sender's word only: the buffer grows with what
 * arrives (64 KiB, then doubling), so a stream cut short or a length that
 * is garbage costs what the stream holds, not what it claims.
 */
Mmemu__Run *result_recv(FILE *f)
{
	Mmemu__Run *m = NULL;
	uint8_t head[4], *buf = NULL;
	size_t len, got = 0, cap = 0;

	if (fread(head, 1, 4, f) != 4)
		return NULL;
	len = (size_t)get_le(head, 4);
	while (got < len) {
		size_t want = cap ? 2 * cap : 1 << 16, n;
		uint8_t *grown;

		if (want > len)
			want = len;
		grown = realloc(buf, want);
		if (!grown)
			goto out;
		buf = grown;
		cap = want;
		n = fread(buf + got, 1, cap - got, f);
		got += n;
		if (got < cap)
			goto out;	/* short: the sender died, or the length lies */
	}
	m = mmemu__run__unpack(NULL, len, buf ? buf : head);
out:
	free(buf);
	return m;
}

/* ---- the saved file: a length-delimited stream ---- */

/* The varint of v at p (at most 10 bytes); its length. */
static size_t put_varint(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	do {
		p[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
		v >>= 7;
	} while (v);
	return n;
}

/*
 * The varint at buf[*pos], *pos moved past it: 0, or -1 when the bytes end
 * inside it (-2 when it runs past 10 bytes, no length protobuf writes).
 */
static int get_varint(const uint8_t *buf, size_t len, size_t *pos, uint64_t *v)
{
	*v = 0;
	for (int shift = 0; shift < 70; shift += 7) {
		uint8_t b;

		if (*pos >= len)
			return -1;
		b = buf[(*pos)++];
		*v |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80))
			return 0;
	}
	return -2;
}

/* One message as protobuf's writeDelimitedTo() writes it: its length as a varint, then it. */
static int write_delimited(const ProtobufCMessage *m, FILE *f)
{
	size_t len = protobuf_c_message_get_packed_size(m), n;
	uint8_t head[10], *buf = malloc(len + 1);
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	protobuf_c_message_pack(m, buf);
	n = put_varint(head, len);
	if (fwrite(head, 1, n, f) != n || fwrite(buf, 1, len, f) != len)
		rc = -EIO;
	free(buf);
	return rc;
}

int result_file_write(const Mmemu__Invocation *inv, FILE *f)
{
	Mmemu__Header h = MMEMU__HEADER__INIT;
	int rc;

	h.format = (char *)RESULT_FILE_FORMAT;
	h.schema_version = RESULT_FILE_SCHEMA;
	h.mmemu_commit = (char *)MMEMU_COMMIT;
	rc = write_delimited(&h.base, f);
	return rc ? rc : write_delimited(&inv->base, f);
}

/*
 * The next delimited message of buf at *pos: its bytes in *msg, *mlen; 0 or
 * -1 with why ("truncated: ...") naming it as what.
 */
static int next_delimited(const uint8_t *buf, size_t len, size_t *pos, const char *what,
			  const uint8_t **msg, size_t *mlen, char *why, size_t whylen)
{
	size_t at = *pos;
	uint64_t want;
	int rc = get_varint(buf, len, pos, &want);

	if (rc == -1) {
		snprintf(why, whylen, "truncated: %zu bytes, the %s's length is cut at byte %zu", len,
			 what, at);
		return -1;
	}
	if (rc) {
		snprintf(why, whylen, "corrupt: the %s's length at byte %zu is no varint", what, at);
		return -1;
	}
	if (len - *pos < want) {
		snprintf(why, whylen, "truncated: %zu bytes, the %s promises %llu", len, what,
			 (unsigned long long)(*pos + want));
		return -1;
	}
	*msg = buf + *pos;
	*mlen = (size_t)want;
	*pos += (size_t)want;
	return 0;
}

/* The Header at buf[*pos]: 0, or -1 with why when the file is not a saved file of this schema. */
static int check_header(const uint8_t *buf, size_t len, size_t *pos, char *why, size_t whylen)
{
	const uint8_t *msg;
	size_t mlen;
	Mmemu__Header *h;
	int rc = -1;

	if (!len) {
		snprintf(why, whylen, "not an mmemu result file (empty)");
		return -1;
	}
	if (len >= strlen(RESULT_FILE_OLD_MAGIC) &&
	    !memcmp(buf, RESULT_FILE_OLD_MAGIC, strlen(RESULT_FILE_OLD_MAGIC))) {
		snprintf(why, whylen, "a result file of the old form (%s, schema 1), which this mmemu "
			 "no longer reads: regenerate it with `mmemu run ... --out FILE`",
			 RESULT_FILE_OLD_MAGIC);
		return -1;
	}
	if (next_delimited(buf, len, pos, "header", &msg, &mlen, why, whylen)) {
		/* a foreign file's first bytes read as a length are most often too long */
		snprintf(why, whylen, "not an mmemu result file (no mmemu.Header first)");
		return -1;
	}
	h = mmemu__header__unpack(NULL, mlen, msg);
	if (!h || strcmp(h->format, RESULT_FILE_FORMAT))
		snprintf(why, whylen, "not an mmemu result file (no mmemu.Header first)");
	else if (h->schema_version != RESULT_FILE_SCHEMA)
		snprintf(why, whylen, "schema version %u (written by mmemu %s), this mmemu reads "
			 "version %u: regenerate it with `mmemu run ... --out FILE`",
			 h->schema_version, h->mmemu_commit, RESULT_FILE_SCHEMA);
	else
		rc = 0;
	if (h)
		mmemu__header__free_unpacked(h, NULL);
	return rc;
}

/* The whole of f in a malloc'ed buffer; NULL on a read error. */
static uint8_t *slurp(FILE *f, size_t *len)
{
	size_t cap = 1 << 16;
	uint8_t *buf = malloc(cap);

	*len = 0;
	while (buf) {
		uint8_t *grown;

		*len += fread(buf + *len, 1, cap - *len, f);
		if (*len < cap)
			break;
		cap *= 2;
		grown = realloc(buf, cap);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (buf && ferror(f)) {
		free(buf);
		buf = NULL;
	}
	return buf;
}

Mmemu__Invocation *result_file_parse(const uint8_t *buf, size_t len, char *why, size_t whylen)
{
	Mmemu__Invocation *inv;
	const uint8_t *msg;
	size_t pos = 0, mlen;

	if (check_header(buf, len, &pos, why, whylen))
		return NULL;
	if (pos == len) {
		snprintf(why, whylen, "truncated: %zu bytes, a header and no results", len);
		return NULL;
	}
	if (next_delimited(buf, len, &pos, "results", &msg, &mlen, why, whylen))
		return NULL;
	if (pos != len) {
		snprintf(why, whylen, "%zu bytes after the end of the results", len - pos);
		return NULL;
	}
	inv = mmemu__invocation__unpack(NULL, mlen, msg);
	if (!inv)
		snprintf(why, whylen, "corrupt: the results do not decode");
	return inv;
}

Mmemu__Invocation *result_file_read(FILE *f, char *why, size_t whylen)
{
	Mmemu__Invocation *inv;
	size_t len;
	uint8_t *buf = slurp(f, &len);

	if (!buf) {
		snprintf(why, whylen, "cannot read it");
		return NULL;
	}
	inv = result_file_parse(buf, len, why, whylen);
	free(buf);
	return inv;
}
