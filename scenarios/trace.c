/* SPDX-License-Identifier: GPL-2.0-only */
/* Page-access traces (see trace.h): the byte source, the three formats, the page layout. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "scenarios/trace.h"

/* oracleGeneral: 4 + 8 + 4 + 8 bytes, little-endian, packed */
#define ORACLE_RECORD 24
/* the longest text line read */
#define LINE_MAX_BYTES 4096
/* what the sniffing looks at */
#define SNIFF_BYTES 4096
/* 4 KiB pages */
#define TRACE_PAGE 4096
/* a zstd frame starts with these bytes (RFC 8878, 3.1.1) */
static const unsigned char zstd_magic[4] = { 0x28, 0xb5, 0x2f, 0xfd };

/*
 * A zstd stream starts with a zstd frame or a skippable frame, whose magic
 * is 0x184D2A50 to 0x184D2A5F, little endian (RFC 8878, 3.1.2): what
 * `zstd -dc` reads, and so does ZSTD_decompressStream().
 */
static bool is_zstd(const unsigned char m[4])
{
	return !memcmp(m, zstd_magic, 4) ||
	       ((m[0] & 0xf0) == 0x50 && m[1] == 0x2a && m[2] == 0x4d && m[3] == 0x18);
}

static const char *const format_names[] = {
	[TRACE_ORACLE] = "oracleGeneral", [TRACE_CSV] = "csv", [TRACE_TXT] = "txt",
	[TRACE_AUTO] = "auto",
};

int trace_format_parse(const char *s, enum trace_format *f)
{
	if (!strcmp(s, "oracle") || !strcmp(s, "oracleGeneral"))
		*f = TRACE_ORACLE;
	else if (!strcmp(s, "csv"))
		*f = TRACE_CSV;
	else if (!strcmp(s, "txt"))
		*f = TRACE_TXT;
	else if (!strcmp(s, "auto"))
		*f = TRACE_AUTO;
	else
		return -EINVAL;
	return 0;
}

const char *trace_format_name(enum trace_format f)
{
	return format_names[f];
}

void trace_opts_init(struct trace_opts *o, enum trace_format f)
{
	*o = (struct trace_opts){ .format = f, .time_col = 1, .obj_id_col = 2, .obj_size_col = 3,
				  .op_col = 4, .has_header = -1 };
}

static bool parse_bool(const char *v, bool *b)
{
	if (!strcasecmp(v, "true") || !strcmp(v, "1") || !strcasecmp(v, "yes"))
		*b = true;
	else if (!strcasecmp(v, "false") || !strcmp(v, "0") || !strcasecmp(v, "no"))
		*b = false;
	else
		return false;
	return true;
}

static bool parse_col(const char *v, int *col)
{
	char *end;
	long n;

	if (!isdigit((unsigned char)*v))
		return false;
	errno = 0;
	n = strtol(v, &end, 10);
	if (errno || *end || n < 0 || n > 1024)
		return false;
	*col = (int)n;
	return true;
}

/* One "key=value" of cachesim's -t, the key already in its canonical form. */
static int opts_one(struct trace_opts *o, const char *key, const char *v, char *err, size_t len)
{
	bool b;

	if (!strcmp(key, "time-col") || !strcmp(key, "obj-id-col") ||
	    !strcmp(key, "obj-size-col") || !strcmp(key, "op-col")) {
		int *col = key[0] == 't' ? &o->time_col : key[1] == 'p' ? &o->op_col :
			   key[4] == 'i' ? &o->obj_id_col : &o->obj_size_col;

		if (!parse_col(v, col)) {
			snprintf(err, len, "trace parameter '%s': '%s' is not a column (1-1024, or "
				 "0 for none)", key, v);
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "has-header") || !strcmp(key, "header")) {
		if (!parse_bool(v, &b)) {
			snprintf(err, len, "trace parameter '%s': '%s' is not true or false", key, v);
			return -1;
		}
		o->has_header = b;
		return 0;
	}
	if (!strcmp(key, "obj-id-is-num")) {
		if (!parse_bool(v, &b)) {
			snprintf(err, len, "trace parameter '%s': '%s' is not true or false", key, v);
			return -1;
		}
		if (!b) {
			snprintf(err, len, "trace parameter 'obj-id-is-num': false is not supported "
				 "(mmemu reads numeric object ids)");
			return -1;
		}
		return 0;
	}
	if (!strcmp(key, "delimiter")) {
		/* cachesim's forms: "delimiter=,," and "delimiter=\\," are ',', "\\t" a tab */
		if (!v[0] || !strcmp(v, "\\,"))
			o->delimiter = ',';
		else if (!strcmp(v, "\\t"))
			o->delimiter = '\t';
		else if (!v[1] && v[0] != '#' && !isdigit((unsigned char)v[0]) && v[0] != '"')
			o->delimiter = v[0];
		else {
			snprintf(err, len, "trace parameter 'delimiter': '%s' is not one character "
				 "(or \\t)", v);
			return -1;
		}
		return 0;
	}
	snprintf(err, len, "trace parameter '%s' is not known (time-col, obj-id-col, obj-size-col, "
		 "op-col, delimiter, has-header, obj-id-is-num)", key);
	return -1;
}

/* key into out: '_' as '-', -field as -col, size-col as obj-size-col (cut to out's size) */
static void canonical_key(const char *key, char *out, size_t size)
{
	size_t n;

	snprintf(out, size, "%s", key);
	for (char *p = out; *p; p++)
		*p = *p == '_' ? '-' : (char)tolower((unsigned char)*p);
	n = strlen(out);
	if (n > 6 && !strcmp(out + n - 6, "-field"))
		strcpy(out + n - 6, "-col");
	if (!strcmp(out, "size-col"))
		snprintf(out, size, "obj-size-col");
}

int trace_opts_parse(struct trace_opts *o, const char *s, char *err, size_t len)
{
	char *copy = malloc(strlen(s) + 1), *p;
	int rc = 0;

	if (!copy) {
		snprintf(err, len, "trace parameters: out of memory");
		return -1;
	}
	strcpy(copy, s);
	p = copy;
	o->columns = true;
	o->time_col = o->obj_id_col = o->obj_size_col = o->op_col = 0;
	while (!rc && *p) {
		char *key = p, *eq = strchr(p, '='), *v, *next, canon[64];
		char saved;

		if (!eq) {
			snprintf(err, len, "trace parameters: '%s' is not key=value", p);
			rc = -1;
			break;
		}
		*eq = '\0';
		v = eq + 1;
		canonical_key(key, canon, sizeof(canon));
		if (strlen(key) >= 48)	/* no key is that long: name it whole */
			snprintf(canon, sizeof(canon), "(a key of %zu bytes)", strlen(key));
		if (!strcmp(canon, "delimiter")) {
			/* the value is one character, even a comma, or \t or \, */
			next = v + (v[0] == '\\' && v[1] ? 2 : v[0] ? 1 : 0);
			if (*next && *next != ',') {
				snprintf(err, len, "trace parameter 'delimiter': '%s' is not one "
					 "character (or \\t)", v);
				rc = -1;
				break;
			}
		} else {
			next = v + strcspn(v, ",");
		}
		saved = *next;
		*next = '\0';
		rc = opts_one(o, canon, v, err, len);
		p = saved ? next + 1 : next;
		while (*p == ' ')
			p++;
	}
	if (!rc && !o->obj_id_col) {
		snprintf(err, len, "trace parameters: obj-id-col is not given");
		rc = -1;
	}
	free(copy);
	return rc;
}

/* ---- the byte source: a plain file or a zstd stream ---- */

struct src {
	FILE *f;
	ZSTD_DStream *z;		/* NULL: the file is read as it is */
	size_t zlast;			/* ZSTD_decompressStream()'s last hint: 0 at a frame's end */
	ZSTD_inBuffer zin;		/* compressed bytes read, not yet decoded */
	unsigned char in[1 << 16];	/* zin's bytes */
	unsigned char buf[1 << 16];	/* decoded bytes [pos, end) not yet taken */
	size_t pos, end;
	bool eof;			/* no more bytes after end */
	char why[160];			/* a read or zstd error, if any */
};

/* Tops up buf; 0, or -1 with why. */
static int src_fill(struct src *s)
{
	if (s->pos) {
		memmove(s->buf, s->buf + s->pos, s->end - s->pos);
		s->end -= s->pos;
		s->pos = 0;
	}
	while (!s->eof && s->end < sizeof(s->buf)) {
		if (!s->z) {
			size_t got = fread(s->buf + s->end, 1, sizeof(s->buf) - s->end, s->f);

			s->end += got;
			if (got)
				continue;
			if (ferror(s->f)) {
				snprintf(s->why, sizeof(s->why), "cannot read it: %s", strerror(errno));
				return -1;
			}
			s->eof = true;
			break;
		}
		if (s->zin.pos == s->zin.size) {
			size_t got = fread(s->in, 1, sizeof(s->in), s->f);

			if (!got) {
				if (ferror(s->f)) {
					snprintf(s->why, sizeof(s->why), "cannot read it: %s",
						 strerror(errno));
					return -1;
				}
				if (s->zlast) {
					snprintf(s->why, sizeof(s->why), "the zstd data ends inside a "
						 "frame (a truncated .zst)");
					return -1;
				}
				s->eof = true;
				break;
			}
			s->zin = (ZSTD_inBuffer){ s->in, got, 0 };
		}
		ZSTD_outBuffer out = { s->buf, sizeof(s->buf), s->end };

		s->zlast = ZSTD_decompressStream(s->z, &out, &s->zin);
		if (ZSTD_isError(s->zlast)) {
			snprintf(s->why, sizeof(s->why), "zstd: %s", ZSTD_getErrorName(s->zlast));
			return -1;
		}
		s->end = out.pos;
	}
	return 0;
}

/* The next byte, EOF at the end, -2 on an error. */
static inline int src_getc(struct src *s)
{
	if (s->pos == s->end) {
		if (s->eof)
			return EOF;
		if (src_fill(s))
			return -2;
		if (s->pos == s->end)
			return EOF;
	}
	return s->buf[s->pos++];
}

/* ---- errors ---- */

static int fail(char *err, size_t len, const char *path, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t len, const char *path, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(err, len, "trace '%s'", path);

	va_start(ap, fmt);
	if (n >= 0 && (size_t)n < len)
		vsnprintf(err + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int too_many(const char *path, char *err, size_t len)
{
	return fail(err, len, path, ": more than %llu requests, more than a replay holds",
		    (unsigned long long)TRACE_MAX_REQUESTS);
}

/*
 * A large array on transparent huge pages where the host allows them: one
 * first-touch fault per 2 MiB instead of 512 (host speed only; free() frees it).
 */
static void *big_alloc(size_t bytes)
{
	const size_t huge = 2 << 20;
	size_t round = (bytes + huge - 1) & ~(huge - 1);
	void *p;

	if (bytes < huge)
		return malloc(bytes);
	if (posix_memalign(&p, huge, round))
		return NULL;
	madvise(p, round, MADV_HUGEPAGE);	/* a hint: without it, small pages */
	return p;
}

static int trace_push(struct trace *t, size_t *cap, const struct trace_req *r)
{
	if (t->nr == *cap) {
		size_t n = *cap ? 2 * *cap : 4096;
		struct trace_req *q = big_alloc(n * sizeof(*q));

		if (!q)
			return -1;
		if (t->nr)
			memcpy(q, t->req, t->nr * sizeof(*q));
		free(t->req);
		t->req = q;
		*cap = n;
	}
	t->req[t->nr++] = *r;
	return 0;
}

/*
 * s as a message quotes it: its first 40 bytes, each byte that is not
 * printable ASCII as \xNN, so that no message prints raw binary.
 */
static const char *quoted(const char *s, char *buf, size_t size)
{
	size_t o = 0;

	for (size_t i = 0; s[i] && i < 40 && o + 5 < size; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f)
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
	}
	buf[o] = '\0';
	return buf;
}

/* Text: no control byte but tab, CR and LF (bytes past ASCII may be UTF-8). */
static bool looks_like_text(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r') || p[i] == 0x7f)
			return false;
	return true;
}

/* ---- oracleGeneral ---- */

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

static int load_oracle(struct trace *t, struct src *s, const char *path, uint64_t file_size,
		       char *err, size_t len)
{
	size_t cap = 0;
	uint32_t last_time = 0;
	const char *hint;

	/* a plain file says how many records it holds: one allocation, touched once */
	if (!s->z && file_size / ORACLE_RECORD) {
		t->req = big_alloc(file_size / ORACLE_RECORD * sizeof(*t->req));
		if (!t->req)
			return fail(err, len, path, ": out of memory");
		cap = file_size / ORACLE_RECORD;
	}

	/*
	 * A named format is trusted: records whose bytes happen to be printable
	 * are records all the same, checked one by one. Text is only a hint when
	 * a record is wrong.
	 */
	hint = s->end && looks_like_text(s->buf, s->end < SNIFF_BYTES ? s->end : SNIFF_BYTES)
		       ? " (its first bytes are text: a csv or txt trace? --trace-format csv|txt, "
			 "or auto)"
		       : "";
	for (;;) {
		const unsigned char *rec;
		struct trace_req r = { 0 };
		uint32_t time;

		if (s->end - s->pos < ORACLE_RECORD && !s->eof && src_fill(s))
			return fail(err, len, path, ": %s", s->why);
		if (s->end - s->pos < ORACLE_RECORD)
			break;
		rec = s->buf + s->pos;
		s->pos += ORACLE_RECORD;
		time = le32(rec);
		r.obj_id = le64(rec + 4);
		r.size = le32(rec + 12);
		if (time < last_time)
			return fail(err, len, path, " record %zu: clock_time %u is before the previous "
				    "record's %u (requests are in time order)%s", t->nr + 1, time,
				    last_time, hint);
		last_time = time;
		if (t->nr == TRACE_MAX_REQUESTS)
			return too_many(path, err, len);
		if (trace_push(t, &cap, &r))
			return fail(err, len, path, ": out of memory");
	}
	if (s->end - s->pos)
		return fail(err, len, path, " record %zu: truncated (%zu of %d bytes)%s", t->nr + 1,
			    s->end - s->pos, ORACLE_RECORD, hint);
	return 0;
}

/* ---- csv and txt ---- */

/* A whole unsigned decimal number of at most max: no sign, space or other base. */
static bool text_number(const char *s, uint64_t max, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v <= max;
}

/*
 * One line into buf (without "\n" or "\r\n"): its length, -1 at the end,
 * -2 if longer than size - 1 bytes, -3 if it holds a NUL byte, -4 on a
 * read error.
 */
static int text_getline(struct src *s, char *buf, size_t size)
{
	size_t n = 0;
	int c;

	while ((c = src_getc(s)) >= 0 && c != '\n') {
		if (!c)
			return -3;
		if (n + 1 == size)
			return -2;
		buf[n++] = (char)c;
	}
	if (c == -2)
		return -4;
	if (c == EOF && !n)
		return -1;
	if (n && buf[n - 1] == '\r')
		n--;
	buf[n] = '\0';
	return (int)n;
}

/* The fields of a line split in place at delim; their number (at most max + 1). */
static int text_split(char *line, char delim, char **field, int max)
{
	int n = 0;

	for (char *p = line;; p++) {
		char *d = delim ? strchr(p, delim) : NULL;

		field[n++] = p;
		if (!d || n > max)
			return n;
		*d = '\0';
		p = d;
	}
}

/* cachesim's choice: the candidate seen most in the first line (ties: this order) */
static char sniff_delimiter(const char *line)
{
	static const char cand[] = { '\t', ',', '|', ':' };
	int best = 0;
	char d = 0;

	for (size_t i = 0; i < sizeof(cand); i++) {
		int n = 0;

		for (const char *p = line; *p; p++)
			n += *p == cand[i];
		if (n > best) {
			best = n;
			d = cand[i];
		}
	}
	return d;
}

static const char *const col_names[] = { "time", "obj_id", "size", "op" };

struct text_cols {
	int col[4];		/* 1-based columns of time, obj_id, size, op (0: none) */
	int max;		/* the most fields a line may have (0: any) */
	int need;		/* the fewest fields a line must have */
	int key;		/* the column that tells a header: time's, else obj_id's */
};

static int load_text(struct trace *t, struct src *s, const char *path, const struct trace_opts *o,
		     enum trace_format fmt, char *err, size_t len)
{
	char line[LINE_MAX_BYTES], q[4 * 40 + 1];
	char *field[LINE_MAX_BYTES / 2 + 2];
	struct text_cols c;
	size_t cap = 0;
	uint64_t last_time = 0;
	int lineno = 0, got, has_header = o->has_header;
	char delim = o->delimiter;
	bool header = false, data = false;	/* the header line, a request line was read */

	if (fmt == TRACE_TXT) {
		c = (struct text_cols){ { 0, 1, 0, 0 }, 1, 1, 1 };
		delim = 0;
	} else if (!o->columns) {
		c = (struct text_cols){ { 1, 2, 3, 4 }, 4, 2, 1 };
	} else {
		c = (struct text_cols){ { o->time_col, o->obj_id_col, o->obj_size_col, o->op_col },
					0, 0, o->time_col ? o->time_col : o->obj_id_col };
		for (int i = 0; i < 4; i++)
			if (c.col[i] > c.need)
				c.need = c.col[i];
	}
	while ((got = text_getline(s, line, sizeof(line))) != -1) {
		struct trace_req r = { .size = TRACE_PAGE };
		uint64_t v;
		int n;

		lineno++;
		if (got == -4)
			return fail(err, len, path, " line %d: %s", lineno, s->why);
		if (got == -2)
			return fail(err, len, path, " line %d: longer than %d bytes", lineno,
				    LINE_MAX_BYTES - 1);
		if (got == -3)
			return fail(err, len, path, " line %d: binary data (a NUL byte): an "
				    "oracleGeneral trace? (--trace-format oracle, or auto)", lineno);
		if (!line[0] || line[0] == '#')
			continue;
		if (fmt == TRACE_CSV && !delim)
			delim = sniff_delimiter(line);
		n = text_split(line, delim, field, c.max ? c.max : LINE_MAX_BYTES / 2);
		if (c.max && n > c.max) {
			if (fmt == TRACE_TXT)
				return fail(err, len, path, " line %d: more than one field (a txt trace "
					    "has one obj_id per line)", lineno);
			return fail(err, len, path, " line %d: more than 4 fields (time,obj_id,size,op)",
				    lineno);
		}
		/* the header: named, or the first line whose key column is no number */
		if (!data && !header && fmt == TRACE_CSV &&
		    (has_header == 1 ||
		     (has_header == -1 && (n < c.key || !isdigit((unsigned char)field[c.key - 1][0]))))) {
			header = true;
			continue;
		}
		data = true;
		if (n < c.need) {
			if (!o->columns)
				return fail(err, len, path, " line %d: expected time,obj_id[,size[,op]]",
					    lineno);
			return fail(err, len, path, " line %d: %d fields, and column %d is read "
				    "(delimiter '%c')", lineno, n, c.need, delim ? delim : ',');
		}
		for (int i = 0; i < 4; i++)
			if (c.col[i] && c.col[i] <= n && !field[c.col[i] - 1][0])
				return fail(err, len, path, " line %d: %s is empty", lineno,
					    col_names[i]);
		if (c.col[0]) {
			if (!text_number(field[c.col[0] - 1], UINT64_MAX, &v))
				return fail(err, len, path, " line %d: time '%s' is not a number "
					    "(whole, not negative)", lineno,
					    quoted(field[c.col[0] - 1], q, sizeof(q)));
			if (v < last_time)
				return fail(err, len, path, " line %d: time %llu is before the previous "
					    "line's %llu (requests are in time order)", lineno,
					    (unsigned long long)v, (unsigned long long)last_time);
			last_time = v;
		}
		if (!text_number(field[c.col[1] - 1], UINT64_MAX, &r.obj_id))
			return fail(err, len, path, " line %d: obj_id '%s' is not a number (whole, "
				    "not negative)", lineno, quoted(field[c.col[1] - 1], q, sizeof(q)));
		if (c.col[2] && c.col[2] <= n) {
			if (!text_number(field[c.col[2] - 1], UINT32_MAX, &v))
				return fail(err, len, path, " line %d: size '%s' is not a size (bytes, "
					    "at most 4294967295)", lineno,
					    quoted(field[c.col[2] - 1], q, sizeof(q)));
			r.size = (uint32_t)v;
		}
		if (c.col[3] && c.col[3] <= n) {
			const char *op = field[c.col[3] - 1];

			if (!strcmp(op, "write") || !strcmp(op, "w") || !strcmp(op, "set"))
				r.write = true;
			else if (strcmp(op, "read") && strcmp(op, "r") && strcmp(op, "get"))
				return fail(err, len, path, " line %d: op '%s' is not read or write "
					    "(r, w, get, set)", lineno, quoted(op, q, sizeof(q)));
		}
		if (t->nr == TRACE_MAX_REQUESTS)
			return too_many(path, err, len);
		if (trace_push(t, &cap, &r))
			return fail(err, len, path, ": out of memory");
	}
	return 0;
}

/* ---- the page layout ---- */

struct id_pos {
	uint64_t id;
	uint32_t pos;
};

/* LSD radix sort of v by id, 16 bits a pass, passes whose digit never varies skipped. */
static int sort_id_pos(struct id_pos *v, size_t n)
{
	struct id_pos *tmp = big_alloc(n * sizeof(*tmp));
	static size_t count[1 << 16];
	uint64_t all_or = 0, all_and = ~0ULL;

	if (!tmp)
		return -1;
	for (size_t i = 0; i < n; i++) {
		all_or |= v[i].id;
		all_and &= v[i].id;
	}
	for (int shift = 0; shift < 64; shift += 16) {
		size_t sum = 0;

		if (!(((all_or ^ all_and) >> shift) & 0xffff))
			continue;	/* every id has this digit: the order stays */
		memset(count, 0, sizeof(count));
		for (size_t i = 0; i < n; i++)
			count[(v[i].id >> shift) & 0xffff]++;
		for (size_t d = 0; d < (1 << 16); d++) {
			size_t c = count[d];

			count[d] = sum;
			sum += c;
		}
		/* stable: equal ids keep their order, the request order */
		for (size_t i = 0; i < n; i++)
			tmp[count[(v[i].id >> shift) & 0xffff]++] = v[i];
		memcpy(v, tmp, n * sizeof(*v));
	}
	free(tmp);
	return 0;
}

static uint32_t size_pages(uint32_t size)
{
	uint32_t n = (uint32_t)(((uint64_t)size + TRACE_PAGE - 1) / TRACE_PAGE);

	return n ? n : 1;
}

/*
 * Numbers the distinct objects 0..n-1 in obj_id order and lays them side
 * by side, each as many pages as its largest request. 0, -1 (memory) or
 * -2 (more than 2^32 pages).
 */
static int trace_layout(struct trace *t)
{
	struct id_pos *v = big_alloc(t->nr * sizeof(*v));
	uint64_t next = 0, page = 0;

	if (!v)
		return -1;
	for (size_t i = 0; i < t->nr; i++) {
		v[i] = (struct id_pos){ t->req[i].obj_id, (uint32_t)i };
		t->req[i].nr_pages = size_pages(t->req[i].size);
		t->bytes += t->req[i].size;
	}
	if (sort_id_pos(v, t->nr)) {
		free(v);
		return -1;
	}
	for (size_t i = 0, first = 0; i < t->nr; first = i) {
		uint32_t most = 0;

		/* one object: its requests v[first..i) */
		for (; i < t->nr && v[i].id == v[first].id; i++)
			if (t->req[v[i].pos].nr_pages > most)
				most = t->req[v[i].pos].nr_pages;
		if (page + most >= UINT32_MAX) {
			free(v);
			return -2;
		}
		for (size_t j = first; j < i; j++) {
			t->req[v[j].pos].dense_id = (uint32_t)next;
			t->req[v[j].pos].page = (uint32_t)page;
		}
		next++;
		page += most;
	}
	t->nr_objects = next;
	t->nr_pages = page;
	free(v);
	return 0;
}

/* ---- loading ---- */

/* What the first bytes look like: zstd is looked at before, by the caller. */
static enum trace_format sniff(const struct src *s)
{
	size_t n = s->end < SNIFF_BYTES ? s->end : SNIFF_BYTES;
	const char *p = (const char *)s->buf, *end = p + n;

	if (!looks_like_text(s->buf, n))
		return TRACE_ORACLE;
	/* no line end where a text line must have ended: records that happen to be printable */
	if (n == SNIFF_BYTES && SNIFF_BYTES >= LINE_MAX_BYTES && !memchr(p, '\n', n))
		return TRACE_ORACLE;
	/* the first line that is neither empty nor a comment */
	while (p < end && (*p == '\n' || *p == '\r' || *p == '#')) {
		if (*p == '#')
			while (p < end && *p != '\n')
				p++;
		else
			p++;
	}
	for (; p < end && *p != '\n'; p++)
		if (*p == ',' || *p == '\t' || *p == '|' || *p == ':')
			return TRACE_CSV;
	return n ? TRACE_TXT : TRACE_ORACLE;
}

static int load(struct trace *t, FILE *f, const char *path, const struct trace_opts *o,
		char *err, size_t len, const struct stat *st)
{
	struct src *s = calloc(1, sizeof(*s));
	unsigned char magic[4];
	size_t got;
	int rc;

	if (!s)
		return fail(err, len, path, ": out of memory");
	s->f = f;
	got = fread(magic, 1, sizeof(magic), f);
	if (got == sizeof(magic) && is_zstd(magic)) {
		s->z = ZSTD_createDStream();
		if (!s->z) {
			free(s);
			return fail(err, len, path, ": out of memory");
		}
		t->compressed = true;
	}
	rewind(f);
	rc = src_fill(s);
	if (rc) {
		rc = fail(err, len, path, ": %s", s->why);
		goto out;
	}
	t->format = o->format == TRACE_AUTO ? sniff(s) : o->format;
	/* text with its columns named is csv, whatever its delimiter */
	if (o->format == TRACE_AUTO && o->columns && t->format == TRACE_TXT)
		t->format = TRACE_CSV;
	/* a plain file of more records than a replay holds is refused before it is read */
	if (t->format == TRACE_ORACLE && !s->z &&
	    (uint64_t)st->st_size / ORACLE_RECORD > TRACE_MAX_REQUESTS)
		rc = too_many(path, err, len);
	else if (t->format == TRACE_ORACLE)
		rc = load_oracle(t, s, path, (uint64_t)st->st_size, err, len);
	else
		rc = load_text(t, s, path, o, t->format, err, len);
out:
	ZSTD_freeDStream(s->z);
	free(s);
	return rc;
}

int trace_load_opts(struct trace *t, const char *path, const struct trace_opts *o, char *err,
		    size_t len)
{
	/*
	 * O_NONBLOCK: opening a FIFO waits for a writer, forever when none
	 * comes; opened so, it is found to be no regular file and refused
	 */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), flags, rc;
	struct stat st;
	FILE *f;

	memset(t, 0, sizeof(*t));
	if (fd < 0)
		return fail(err, len, path, ": %s", strerror(errno));
	/* a device (/dev/zero) or FIFO has no end to read to, or another one each run */
	if (fstat(fd, &st)) {
		rc = errno;
		close(fd);
		return fail(err, len, path, ": %s", strerror(rc));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return fail(err, len, path, ": not a regular file%s",
			    S_ISFIFO(st.st_mode)  ? " (a FIFO)"
			    : S_ISDIR(st.st_mode) ? " (a directory)"
						  : "");
	}
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) || !(f = fdopen(fd, "rb"))) {
		rc = errno;
		close(fd);
		return fail(err, len, path, ": %s", strerror(rc));
	}
	rc = load(t, f, path, o, err, len, &st);
	fclose(f);
	if (!rc && !t->nr)
		rc = fail(err, len, path, ": no requests");
	if (!rc) {
		int lrc = trace_layout(t);

		if (lrc == -1)
			rc = fail(err, len, path, ": out of memory");
		else if (lrc == -2)
			rc = fail(err, len, path, ": its objects take 2^32 pages (16T) or more");
	}
	if (rc)
		trace_free(t);
	return rc;
}

int trace_load(struct trace *t, const char *path, enum trace_format fmt, char *err, size_t len)
{
	struct trace_opts o;

	trace_opts_init(&o, fmt);
	return trace_load_opts(t, path, &o, err, len);
}

void trace_free(struct trace *t)
{
	free(t->req);
	t->req = NULL;
	t->nr = 0;
}
