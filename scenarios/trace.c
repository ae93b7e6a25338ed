/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Page-access traces (see trace.h): the byte source, the text formats (with
 * their object names numbered), the binary formats (fixed records, lcs's
 * header), the page layout.
 */
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
	[TRACE_AUTO] = "auto", [TRACE_LCS] = "lcs", [TRACE_TWR] = "twr", [TRACE_TWRNS] = "twrNS",
	[TRACE_ORACLE_SYS_TWRNS] = "oracleSysTwrNS", [TRACE_ORACLE_SIM_TWRNS] = "oracleSimTwrNS",
	[TRACE_VSCSI] = "vscsi",
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
	else {
		/* the binary formats cachesim names, in any case as it takes them */
		for (int i = TRACE_LCS; i <= TRACE_VSCSI; i++)
			if (!strcasecmp(s, format_names[i])) {
				*f = (enum trace_format)i;
				return 0;
			}
		return -EINVAL;
	}
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
		o->obj_id_str = !b;
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
		/* the first column named replaces time,obj_id,size,op */
		if (!o->columns && strlen(canon) > 4 && !strcmp(canon + strlen(canon) - 4, "-col")) {
			o->columns = true;
			o->time_col = o->obj_id_col = o->obj_size_col = o->op_col = 0;
		}
		rc = opts_one(o, canon, v, err, len);
		p = saved ? next + 1 : next;
		while (*p == ' ')
			p++;
	}
	if (!rc && o->columns && !o->obj_id_col) {
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

static uint16_t le16(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* ---- binary records ---- */

/* One binary record as read: what a request takes from it. */
struct bin_req {
	uint64_t time;		/* seconds (or the trace's unit), in order */
	uint64_t obj_id;	/* the object (lbn for vscsi) */
	uint64_t size;		/* bytes, at most UINT32_MAX */
	bool write;		/* its op changes the object */
};

/* A binary format: its records' size and how one reads (0, or -1 with why). */
struct bin_format {
	size_t rec;		/* bytes a record */
	int (*decode)(const unsigned char *rec, unsigned version, struct bin_req *r, char *why,
		      size_t len);
};

/*
 * libCacheSim's req_op_e (include/libCacheSim/enum.h): nop 0, get 1, gets 2,
 * set 3, add, cas, replace, append, prepend, delete 9, incr, decr, read 12,
 * write 13, update 14. Those that change the object write.
 */
static int op_write(unsigned op, bool *write, char *why, size_t len)
{
	if (op > 14) {
		snprintf(why, len, "op %u is none of libCacheSim's (0 to 14)", op);
		return -1;
	}
	*write = !(op <= 2 || op == 12);
	return 0;
}

/*
 * oracleGeneral and lcs v1: uint32 time, uint64 obj_id, uint32 size, int64
 * next; oracleSimTwrNS starts alike (then int32 ttl, uint16 ns, int64 next)
 */
static int decode_oracle(const unsigned char *rec, unsigned version, struct bin_req *r,
			 char *why, size_t len)
{
	(void)version, (void)why, (void)len;
	*r = (struct bin_req){ le32(rec), le64(rec + 4), le32(rec + 12), false };
	return 0;
}

/* lcs v2 (op byte, tenant, next) and v3..v8 (int64 size, op, tenant, ttl, next, features) */
static int decode_lcs(const unsigned char *rec, unsigned version, struct bin_req *r, char *why,
		      size_t len)
{
	int64_t size;

	if (version == 1)
		return decode_oracle(rec, version, r, why, len);
	r->time = le32(rec);
	r->obj_id = le64(rec + 4);
	if (version == 2) {
		r->size = le32(rec + 12);
		return op_write(rec[16], &r->write, why, len);
	}
	size = (int64_t)le64(rec + 12);
	if (size < 0 || size > UINT32_MAX) {
		snprintf(why, len, "obj_size %lld is %s", (long long)size,
			 size < 0 ? "negative" : "4 GiB or more (more than a request here holds)");
		return -1;
	}
	r->size = (uint64_t)size;
	return op_write(rec[20], &r->write, why, len);
}

/* twr and twrNS: uint32 time, uint64 obj_id, key size:10 value size:22, op:8 ttl:24 [, ns] */
static int decode_twr(const unsigned char *rec, unsigned version, struct bin_req *r, char *why,
		      size_t len)
{
	uint32_t kv = le32(rec + 12);

	(void)version;
	r->time = le32(rec);
	r->obj_id = le64(rec + 4);
	r->size = (kv >> 22) + (kv & ((1u << 22) - 1));
	return op_write(le32(rec + 16) >> 24, &r->write, why, len);
}

/* oracleSysTwrNS: time, obj_id, uint16 key size, uint32 value size, uint16 op, ns, ttl, next */
static int decode_sys_twrns(const unsigned char *rec, unsigned version, struct bin_req *r,
			    char *why, size_t len)
{
	(void)version;
	r->time = le32(rec);
	r->obj_id = le64(rec + 4);
	r->size = (uint64_t)le16(rec + 12) + le32(rec + 14);
	if (r->size > UINT32_MAX) {
		snprintf(why, len, "key and value sizes %llu are 4 GiB or more",
			 (unsigned long long)r->size);
		return -1;
	}
	return op_write(le16(rec + 18), &r->write, why, len);
}

/* SCSI WRITE(6), WRITE(10), WRITE(12), WRITE(16) (SBC-3) */
static bool scsi_write(unsigned cmd)
{
	return cmd == 0x0a || cmd == 0x2a || cmd == 0xaa || cmd == 0x8a;
}

/* vscsi: v1 sn, len, nSG, cmd, ver, lbn, ts; v2 cmd, ver, sn, len, nSG, lbn, ts, rt */
static int decode_vscsi(const unsigned char *rec, unsigned version, struct bin_req *r,
			char *why, size_t len)
{
	unsigned ver = le16(rec + (version == 1 ? 14 : 2)) >> 8;

	if (ver != version) {
		snprintf(why, len, "its version byte says %u, the trace's first records %u "
			 "(a corrupt record)", ver, version);
		return -1;
	}
	r->obj_id = le64(rec + 16);
	r->time = le64(rec + 24) / 1000000;	/* microseconds, to seconds as libCacheSim */
	r->size = le32(rec + (version == 1 ? 4 : 8));
	r->write = scsi_write(le16(rec + (version == 1 ? 12 : 0)) & 0xff);
	return 0;
}

/*
 * Reads fixed records from s to its end into t (a plain file's size, past
 * the header of hdr bytes, says how many: one allocation, touched once).
 * A named format is trusted: records whose bytes happen to be printable are
 * records all the same, checked one by one. Text is only a hint when a
 * record is wrong.
 */
static int load_records(struct trace *t, struct src *s, const char *path, uint64_t file_size,
			const struct bin_format *bf, size_t hdr, char *err, size_t len)
{
	size_t cap = 0, rec_size = bf->rec;
	uint64_t last_time = 0;
	const char *hint;
	char why[160];

	if (!s->z && (file_size - hdr) / rec_size) {
		t->req = big_alloc((file_size - hdr) / rec_size * sizeof(*t->req));
		if (!t->req)
			return fail(err, len, path, ": out of memory");
		cap = (file_size - hdr) / rec_size;
	}
	hint = !hdr && s->end &&
			       looks_like_text(s->buf + s->pos,
					       s->end - s->pos < SNIFF_BYTES ? s->end - s->pos
									     : SNIFF_BYTES)
		       ? " (its first bytes are text: a csv or txt trace? --trace-format csv|txt, "
			 "or auto)"
		       : "";
	for (;;) {
		const unsigned char *rec;
		struct bin_req b = { 0 };
		struct trace_req r = { 0 };

		if (s->end - s->pos < rec_size && !s->eof && src_fill(s))
			return fail(err, len, path, ": %s", s->why);
		if (s->end - s->pos < rec_size)
			break;
		rec = s->buf + s->pos;
		s->pos += rec_size;
		if (bf->decode(rec, t->version, &b, why, sizeof(why)))
			return fail(err, len, path, " record %zu: %s%s", t->nr + 1, why, hint);
		if (b.time < last_time)
			return fail(err, len, path, " record %zu: clock_time %llu is before the "
				    "previous record's %llu (requests are in time order)%s", t->nr + 1,
				    (unsigned long long)b.time, (unsigned long long)last_time, hint);
		last_time = b.time;
		r.obj_id = b.obj_id;
		r.size = (uint32_t)b.size;
		r.write = b.write;
		if (t->nr == TRACE_MAX_REQUESTS)
			return too_many(path, err, len);
		if (trace_push(t, &cap, &r))
			return fail(err, len, path, ": out of memory");
	}
	if (s->end - s->pos)
		return fail(err, len, path, " record %zu: truncated (%zu of %zu bytes)%s", t->nr + 1,
			    s->end - s->pos, rec_size, hint);
	return 0;
}

static const struct bin_format oracle_format = { ORACLE_RECORD, decode_oracle };

/* the formats of fixed records without a header */
static const struct bin_format plain_formats[] = {
	[TRACE_ORACLE] = { ORACLE_RECORD, decode_oracle },
	[TRACE_TWR] = { 20, decode_twr },
	[TRACE_TWRNS] = { 22, decode_twr },
	[TRACE_ORACLE_SYS_TWRNS] = { 34, decode_sys_twrns },
	[TRACE_ORACLE_SIM_TWRNS] = { 30, decode_oracle },
};

static int load_oracle(struct trace *t, struct src *s, const char *path, uint64_t file_size,
		       char *err, size_t len)
{
	return load_records(t, s, path, file_size, &oracle_format, 0, err, len);
}

/* ---- lcs ---- */

/* lcs.h: the header's start and end magic, its size; records by version (1..8) */
#define LCS_MAGIC 0x123456789abcdef0ULL
#define LCS_HEADER 8192
static const size_t lcs_record[9] = { 0, 24, 28, 36, 40, 44, 52, 68, 100 };

static bool is_lcs(const unsigned char *p, size_t n)
{
	return n >= 8 && le64(p) == LCS_MAGIC;
}

/* The header (start magic, version, stat with n_req first, end magic), then the records. */
static int load_lcs(struct trace *t, struct src *s, const char *path, uint64_t file_size,
		    char *err, size_t len)
{
	const unsigned char *h;
	uint64_t version;
	struct bin_format bf;

	if (s->end - s->pos < LCS_HEADER)
		return fail(err, len, path, " header: truncated (%zu of %d bytes of an lcs header)",
			    s->end - s->pos, LCS_HEADER);
	h = s->buf + s->pos;
	if (!is_lcs(h, LCS_HEADER))
		return fail(err, len, path, " header: its first 8 bytes are not lcs's start magic "
			    "(0x%llx): not an lcs trace", LCS_MAGIC);
	if (le64(h + LCS_HEADER - 8) != LCS_MAGIC)
		return fail(err, len, path, " header: its last 8 bytes (at 8184) are not lcs's "
			    "end magic (0x%llx): a corrupt header", LCS_MAGIC);
	version = le64(h + 8);
	if (version < 1 || version > 8)
		return fail(err, len, path, " header: lcs version %llu is not known (1 to 8)",
			    (unsigned long long)version);
	if ((int64_t)le64(h + 24) < 0)
		return fail(err, len, path, " header: n_req %lld is negative: a corrupt header",
			    (long long)le64(h + 24));
	t->version = (unsigned)version;
	s->pos += LCS_HEADER;
	bf = (struct bin_format){ lcs_record[version], decode_lcs };
	if (!s->z && (file_size - LCS_HEADER) / bf.rec > TRACE_MAX_REQUESTS)
		return too_many(path, err, len);
	return load_records(t, s, path, file_size, &bf, LCS_HEADER, err, len);
}

/* ---- vscsi ---- */

/* vscsi.h: version 1 records are 32 bytes, version 2 40; ver's high byte says which */
static int load_vscsi(struct trace *t, struct src *s, const char *path, uint64_t file_size,
		      char *err, size_t len)
{
	const unsigned char *p = s->buf + s->pos;
	size_t n = s->end - s->pos;
	struct bin_format bf = { 0, decode_vscsi };

	/* as vscsi.h's test_vscsi_version(): the first two records agree (one if one) */
	for (unsigned v = 2; v >= 1 && !bf.rec; v--) {
		size_t rec = v == 2 ? 40 : 32, at = v == 2 ? 2 : 14;
		bool all = n >= rec;

		for (size_t i = 0; i < 2 && (i + 1) * rec <= n; i++)
			all &= (unsigned)(le16(p + i * rec + at) >> 8) == v;
		if (all)
			bf.rec = rec;
	}
	if (!bf.rec)
		return fail(err, len, path, " record 1: %s",
			    n < 32 ? "truncated (shorter than a vscsi record)"
				   : "its version bytes say neither vscsi 1 nor 2: not a vscsi trace");
	t->version = bf.rec == 40 ? 2 : 1;
	if (!s->z && file_size / bf.rec > TRACE_MAX_REQUESTS)
		return too_many(path, err, len);
	return load_records(t, s, path, file_size, &bf, 0, err, len);
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

/*
 * Object names (obj-id-is-num=false): each distinct name gets the next
 * number, 0, 1, 2... in the order first seen, so that the same trace
 * numbered so replays alike. An open-addressing table of (hash, name) and
 * the names end to end in one buffer: memory grows with the distinct names
 * (both double when full), never with the requests.
 */
struct name_slot {
	uint64_t hash;		/* of the name; 0: the slot is empty */
	uint64_t off;		/* the name's first byte in names.bytes */
	uint32_t len;		/* its length */
	uint32_t id;		/* its number */
};

struct names {
	struct name_slot *slot;	/* cap slots, a power of two */
	size_t cap;
	size_t nr;		/* names numbered */
	char *bytes;		/* every name, end to end */
	size_t used, size;	/* bytes taken, allocated */
};

/* FNV-1a, never 0 (0 marks an empty slot) */
static uint64_t name_hash(const char *s, size_t n)
{
	uint64_t h = 14695981039346656037ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h ? h : 1;
}

static int names_grow(struct names *nm)
{
	size_t cap = nm->cap ? 2 * nm->cap : 1024;
	struct name_slot *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (size_t i = 0; i < nm->cap; i++) {
		size_t j = nm->slot[i].hash & (cap - 1);

		if (!nm->slot[i].hash)
			continue;
		while (slot[j].hash)
			j = (j + 1) & (cap - 1);
		slot[j] = nm->slot[i];
	}
	free(nm->slot);
	nm->slot = slot;
	nm->cap = cap;
	return 0;
}

/* name's number, numbering it if new; 0, or -1 out of memory */
static int names_id(struct names *nm, const char *name, uint64_t *id)
{
	size_t n = strlen(name), j;
	uint64_t h = name_hash(name, n);

	if (2 * (nm->nr + 1) > nm->cap && names_grow(nm))	/* at most half full */
		return -1;
	for (j = h & (nm->cap - 1); nm->slot[j].hash; j = (j + 1) & (nm->cap - 1)) {
		const struct name_slot *e = &nm->slot[j];

		if (e->hash == h && e->len == n && !memcmp(nm->bytes + e->off, name, n)) {
			*id = e->id;
			return 0;
		}
	}
	if (nm->used + n > nm->size) {
		size_t size = nm->size ? nm->size : 1 << 16;
		char *bytes;

		while (size < nm->used + n)
			size *= 2;
		bytes = realloc(nm->bytes, size);
		if (!bytes)
			return -1;
		nm->bytes = bytes;
		nm->size = size;
	}
	memcpy(nm->bytes + nm->used, name, n);
	nm->slot[j] = (struct name_slot){ h, nm->used, (uint32_t)n, (uint32_t)nm->nr };
	nm->used += n;
	*id = nm->nr++;
	return 0;
}

static void names_free(struct names *nm)
{
	free(nm->slot);
	free(nm->bytes);
}

struct text_cols {
	int col[4];		/* 1-based columns of time, obj_id, size, op (0: none) */
	int max;		/* the most fields a line may have (0: any) */
	int need;		/* the fewest fields a line must have */
	int key;		/* the column that tells a header: time's, else obj_id's */
};

static int load_text_names(struct trace *t, struct src *s, const char *path,
			   const struct trace_opts *o, enum trace_format fmt, struct names *nm,
			   char *err, size_t len);

static int load_text(struct trace *t, struct src *s, const char *path, const struct trace_opts *o,
		     enum trace_format fmt, char *err, size_t len)
{
	struct names nm = { 0 };
	int rc = load_text_names(t, s, path, o, fmt, &nm, err, len);

	names_free(&nm);
	return rc;
}

/* load_text() with nm numbering names (obj-id-is-num=false) */
static int load_text_names(struct trace *t, struct src *s, const char *path,
			   const struct trace_opts *o, enum trace_format fmt, struct names *nm,
			   char *err, size_t len)
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
	/* names are no numbers: a header is only what has-header names, unless a time tells */
	if (o->obj_id_str && c.key == c.col[1] && has_header == -1)
		has_header = 0;
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
		if (o->obj_id_str) {
			if (names_id(nm, field[c.col[1] - 1], &r.obj_id))
				return fail(err, len, path, ": out of memory");
		} else if (!text_number(field[c.col[1] - 1], UINT64_MAX, &r.obj_id)) {
			return fail(err, len, path, " line %d: obj_id '%s' is not a number (whole, "
				    "not negative; obj-id-is-num=false for names)", lineno,
				    quoted(field[c.col[1] - 1], q, sizeof(q)));
		}
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

	if (is_lcs(s->buf, n))
		return TRACE_LCS;
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
	else if (t->format == TRACE_LCS)
		rc = load_lcs(t, s, path, (uint64_t)st->st_size, err, len);
	else if (t->format == TRACE_VSCSI)
		rc = load_vscsi(t, s, path, (uint64_t)st->st_size, err, len);
	else if (t->format == TRACE_CSV || t->format == TRACE_TXT)
		rc = load_text(t, s, path, o, t->format, err, len);
	else if ((uint64_t)st->st_size / plain_formats[t->format].rec > TRACE_MAX_REQUESTS && !s->z)
		rc = too_many(path, err, len);
	else
		rc = load_records(t, s, path, (uint64_t)st->st_size, &plain_formats[t->format], 0,
				  err, len);
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
