/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/trace.h"

/* oracleGeneral: 4 + 8 + 4 + 8 bytes, little-endian, packed */
#define ORACLE_RECORD 24

int trace_format_parse(const char *s, enum trace_format *f)
{
	if (!strcmp(s, "oracle") || !strcmp(s, "oracleGeneral"))
		*f = TRACE_ORACLE;
	else if (!strcmp(s, "csv"))
		*f = TRACE_CSV;
	else
		return -EINVAL;
	return 0;
}

static int trace_push(struct trace *t, size_t *cap, struct trace_req r)
{
	if (t->nr == *cap) {
		size_t n = *cap ? 2 * *cap : 4096;
		struct trace_req *q = realloc(t->req, n * sizeof(*q));

		if (!q)
			return -1;
		t->req = q;
		*cap = n;
	}
	t->req[t->nr++] = r;
	return 0;
}

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static int load_oracle(struct trace *t, FILE *f, const char *path, char *err, size_t len)
{
	unsigned char rec[ORACLE_RECORD];
	size_t cap = 0, got;

	while ((got = fread(rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		struct trace_req r = { .obj_id = le64(rec + 4), .size = le32(rec + 12) };

		if (trace_push(t, &cap, r)) {
			snprintf(err, len, "trace '%s': out of memory", path);
			return -1;
		}
	}
	if (got) {
		snprintf(err, len, "trace '%s' record %zu: truncated (%zu of %d bytes)", path,
			 t->nr + 1, got, ORACLE_RECORD);
		return -1;
	}
	return 0;
}

static int load_csv(struct trace *t, FILE *f, const char *path, char *err, size_t len)
{
	char line[512];
	size_t cap = 0;
	int lineno = 0;

	while (fgets(line, sizeof(line), f)) {
		char *time_s, *id_s, *size_s, *op_s, *save, *end;
		struct trace_req r = { .size = 4096 };

		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			snprintf(err, len, "trace '%s' line %d: line too long", path, lineno);
			return -1;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		time_s = strtok_r(line, ",", &save);
		id_s = strtok_r(NULL, ",", &save);
		size_s = strtok_r(NULL, ",", &save);
		op_s = strtok_r(NULL, ",", &save);
		if (lineno == 1 && time_s && strtoull(time_s, &end, 10) == 0 && *end)
			continue;	/* a header */
		if (!time_s || !id_s) {
			snprintf(err, len, "trace '%s' line %d: expected time,obj_id,size,op", path,
				 lineno);
			return -1;
		}
		errno = 0;
		r.obj_id = strtoull(id_s, &end, 10);
		if (errno || *end || end == id_s) {
			snprintf(err, len, "trace '%s' line %d: obj_id '%s' is not a number", path,
				 lineno, id_s);
			return -1;
		}
		if (size_s && *size_s) {
			unsigned long long sz = strtoull(size_s, &end, 10);

			if (*end || sz > UINT32_MAX) {
				snprintf(err, len, "trace '%s' line %d: size '%s' is not a size", path,
					 lineno, size_s);
				return -1;
			}
			r.size = (uint32_t)sz;
		}
		if (op_s) {
			if (!strcmp(op_s, "write") || !strcmp(op_s, "w") || !strcmp(op_s, "set"))
				r.write = true;
			else if (strcmp(op_s, "read") && strcmp(op_s, "r") && strcmp(op_s, "get")) {
				snprintf(err, len, "trace '%s' line %d: op '%s' is not read or write",
					 path, lineno, op_s);
				return -1;
			}
		}
		if (trace_push(t, &cap, r)) {
			snprintf(err, len, "trace '%s': out of memory", path);
			return -1;
		}
	}
	return 0;
}

struct id_pos {
	uint64_t id;
	size_t pos;
};

static int cmp_id_pos(const void *a, const void *b)
{
	const struct id_pos *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Numbers the distinct objects 0..n-1 in obj_id order, so they map 1:1 to pages. */
static int trace_densify(struct trace *t)
{
	struct id_pos *v = malloc(t->nr * sizeof(*v));
	uint64_t next = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < t->nr; i++)
		v[i] = (struct id_pos){ t->req[i].obj_id, i };
	qsort(v, t->nr, sizeof(*v), cmp_id_pos);
	for (size_t i = 0; i < t->nr; i++) {
		if (i && v[i].id != v[i - 1].id)
			next++;
		t->req[v[i].pos].dense_id = next;
	}
	t->nr_objects = t->nr ? next + 1 : 0;
	free(v);
	return 0;
}

int trace_load(struct trace *t, const char *path, enum trace_format fmt, char *err, size_t len)
{
	FILE *f = fopen(path, "rb");
	int rc;

	memset(t, 0, sizeof(*t));
	if (!f) {
		snprintf(err, len, "trace '%s': %s", path, strerror(errno));
		return -1;
	}
	rc = fmt == TRACE_ORACLE ? load_oracle(t, f, path, err, len) : load_csv(t, f, path, err, len);
	fclose(f);
	if (!rc && !t->nr) {
		snprintf(err, len, "trace '%s': no requests", path);
		rc = -1;
	}
	if (!rc && trace_densify(t)) {
		snprintf(err, len, "trace '%s': out of memory", path);
		rc = -1;
	}
	if (rc)
		trace_free(t);
	return rc;
}

void trace_free(struct trace *t)
{
	free(t->req);
	t->req = NULL;
	t->nr = 0;
}
