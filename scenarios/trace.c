/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

static int too_many(const char *path, char *err, size_t len)
{
	snprintf(err, len, "trace '%s': more than %llu requests, more than a replay holds", path,
		 (unsigned long long)TRACE_MAX_REQUESTS);
	return -1;
}

static int load_oracle(struct trace *t, FILE *f, const char *path, char *err, size_t len)
{
	unsigned char rec[ORACLE_RECORD];
	size_t cap = 0, got;
	uint32_t last_time = 0;

	while ((got = fread(rec, 1, sizeof(rec), f)) == sizeof(rec)) {
		struct trace_req r = { .obj_id = le64(rec + 4), .size = le32(rec + 12) };
		uint32_t time = le32(rec);

		if (time < last_time) {
			snprintf(err, len, "trace '%s' record %zu: clock_time %u is before the "
				 "previous record's %u (requests are in time order)", path, t->nr + 1,
				 time, last_time);
			return -1;
		}
		last_time = time;
		if (t->nr == TRACE_MAX_REQUESTS)
			return too_many(path, err, len);
		if (trace_push(t, &cap, r)) {
			snprintf(err, len, "trace '%s': out of memory", path);
			return -1;
		}
	}
	if (ferror(f)) {
		snprintf(err, len, "trace '%s': cannot read it: %s", path, strerror(errno));
		return -1;
	}
	if (got) {
		snprintf(err, len, "trace '%s' record %zu: truncated (%zu of %d bytes)", path,
			 t->nr + 1, got, ORACLE_RECORD);
		return -1;
	}
	return 0;
}

/* A whole unsigned decimal number of at most max: no sign, space or other base. */
static bool csv_number(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v <= max;
}

/* "time,obj_id[,size[,op]]": the fields of one line, in place; their number, or -1 (> 4). */
static int csv_split(char *line, char *field[4])
{
	int n = 0;

	for (char *p = line;; p++) {
		char *comma = strchr(p, ',');

		if (n == 4)
			return -1;
		field[n++] = p;
		if (!comma)
			return n;
		*comma = '\0';
		p = comma;
	}
}

/*
 * One line of f into buf (without its "\n" or "\r\n"): its length, -1 at
 * the end, -2 if longer than size - 1 bytes, -3 if it holds a NUL byte.
 */
static int csv_getline(FILE *f, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	while ((c = getc(f)) != EOF && c != '\n') {
		if (!c)
			return -3;
		if (n + 1 == size)
			return -2;
		buf[n++] = (char)c;
	}
	if (c == EOF && !n)
		return -1;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return (int)n;
}

static int load_csv(struct trace *t, FILE *f, const char *path, char *err, size_t len)
{
	static const char *const names[4] = { "time", "obj_id", "size", "op" };
	char line[512];
	size_t cap = 0;
	uint64_t last_time = 0;
	int lineno = 0, got;
	bool header = false, data = false;	/* the header line, a request line was read */

	while ((got = csv_getline(f, line, sizeof(line))) != -1) {
		struct trace_req r = { .size = 4096 };
		char *field[4];
		uint64_t v;
		int n;

		lineno++;
		if (got == -2 || got == -3) {
			snprintf(err, len, "trace '%s' line %d: %s", path, lineno,
				 got == -2 ? "longer than 511 bytes" : "binary data (a NUL byte)");
			return -1;
		}
		if (!line[0] || line[0] == '#')
			continue;
		n = csv_split(line, field);
		if (n < 0) {
			snprintf(err, len, "trace '%s' line %d: more than 4 fields "
				 "(time,obj_id,size,op)", path, lineno);
			return -1;
		}
		/* the first line (comments aside) whose time is no number: the header */
		if (!data && !header && !isdigit((unsigned char)field[0][0])) {
			header = true;
			continue;
		}
		data = true;
		if (n < 2) {
			snprintf(err, len, "trace '%s' line %d: expected time,obj_id[,size[,op]]",
				 path, lineno);
			return -1;
		}
		for (int i = 0; i < n; i++)
			if (!field[i][0]) {
				snprintf(err, len, "trace '%s' line %d: %s is empty", path, lineno,
					 names[i]);
				return -1;
			}
		if (!csv_number(field[0], UINT64_MAX, &v)) {
			snprintf(err, len, "trace '%s' line %d: time '%.40s' is not a number (whole, "
				 "not negative)", path, lineno, field[0]);
			return -1;
		}
		if (v < last_time) {
			snprintf(err, len, "trace '%s' line %d: time %llu is before the previous "
				 "line's %llu (requests are in time order)", path, lineno,
				 (unsigned long long)v, (unsigned long long)last_time);
			return -1;
		}
		last_time = v;
		if (!csv_number(field[1], UINT64_MAX, &r.obj_id)) {
			snprintf(err, len, "trace '%s' line %d: obj_id '%.40s' is not a number "
				 "(whole, not negative)", path, lineno, field[1]);
			return -1;
		}
		if (n > 2) {
			if (!csv_number(field[2], UINT32_MAX, &v)) {
				snprintf(err, len, "trace '%s' line %d: size '%.40s' is not a size "
					 "(bytes, at most 4294967295)", path, lineno, field[2]);
				return -1;
			}
			r.size = (uint32_t)v;
		}
		if (n > 3) {
			const char *op = field[3];

			if (!strcmp(op, "write") || !strcmp(op, "w") || !strcmp(op, "set"))
				r.write = true;
			else if (strcmp(op, "read") && strcmp(op, "r") && strcmp(op, "get")) {
				snprintf(err, len, "trace '%s' line %d: op '%.40s' is not read or "
					 "write (r, w, get, set)", path, lineno, op);
				return -1;
			}
		}
		if (t->nr == TRACE_MAX_REQUESTS)
			return too_many(path, err, len);
		if (trace_push(t, &cap, r)) {
			snprintf(err, len, "trace '%s': out of memory", path);
			return -1;
		}
	}
	if (ferror(f)) {
		snprintf(err, len, "trace '%s': cannot read it: %s", path, strerror(errno));
		return -1;
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
	struct stat st;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!f) {
		snprintf(err, len, "trace '%s': %s", path, strerror(errno));
		return -1;
	}
	/* a device (/dev/zero) or FIFO has no end to read to, or another one each run */
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, len, "trace '%s': not a regular file", path);
		fclose(f);
		return -1;
	}
	/* a file of more records than a replay holds is refused before it is read */
	if (fmt == TRACE_ORACLE && (uint64_t)st.st_size / ORACLE_RECORD > TRACE_MAX_REQUESTS)
		rc = too_many(path, err, len);
	else
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
