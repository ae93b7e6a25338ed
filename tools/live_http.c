// SPDX-License-Identifier: GPL-2.0-only
#include <arpa/inet.h>
#include <ctype.h>
#include <stdbool.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "tools/live_http.h"

static int parse_port(const char *s, unsigned *port)
{
	unsigned long v = 0;

	if (!*s || strlen(s) > 5)
		return -1;
	for (; *s; s++) {
		if (!isdigit((unsigned char)*s))
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
	}
	if (v > 65535)
		return -1;
	*port = (unsigned)v;
	return 0;
}

int live_parse_addr(const char *arg, struct sockaddr_storage *ss, char *why, size_t whylen)
{
	char host[64] = "127.0.0.1";
	const char *port_s = arg, *colon;
	unsigned port;

	memset(ss, 0, sizeof(*ss));
	if (arg[0] == '[') {	/* [IPv6]:PORT */
		const char *end = strchr(arg, ']');

		if (!end || end[1] != ':' || (size_t)(end - arg - 1) >= sizeof(host)) {
			snprintf(why, whylen, "'%s': expected [IPV6]:PORT", arg);
			return -1;
		}
		memcpy(host, arg + 1, (size_t)(end - arg - 1));
		host[end - arg - 1] = '\0';
		port_s = end + 2;
	} else if ((colon = strrchr(arg, ':'))) {
		if ((size_t)(colon - arg) >= sizeof(host) || strchr(arg, ':') != colon) {
			snprintf(why, whylen, "'%s': expected ADDR:PORT (an IPv6 ADDR in brackets)",
				 arg);
			return -1;
		}
		memcpy(host, arg, (size_t)(colon - arg));
		host[colon - arg] = '\0';
		port_s = colon + 1;
	}
	if (parse_port(port_s, &port)) {
		snprintf(why, whylen, "'%s': the port '%s' is not a number from 0 to 65535", arg,
			 port_s);
		return -1;
	}
	if (arg[0] == '[') {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_port = htons((uint16_t)port);
		if (inet_pton(AF_INET6, host, &a->sin6_addr) == 1)
			return 0;
	} else {
		struct sockaddr_in *a = (struct sockaddr_in *)ss;

		a->sin_family = AF_INET;
		a->sin_port = htons((uint16_t)port);
		if (inet_pton(AF_INET, host, &a->sin_addr) == 1)
			return 0;
	}
	snprintf(why, whylen, "'%s': '%s' is not a numeric %s address", arg, host,
		 arg[0] == '[' ? "IPv6" : "IPv4");
	return -1;
}

/* The value of header name in the head's lines after the first, or NULL; its length in *len. */
static const char *header(const char *head, size_t hlen, const char *name, size_t *len)
{
	size_t nlen = strlen(name);
	const char *p = memchr(head, '\n', hlen), *end = head + hlen;

	while (p && ++p < end) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!eol)
			break;
		if ((size_t)(eol - p) > nlen && p[nlen] == ':' && !strncasecmp(p, name, nlen)) {
			const char *v = p + nlen + 1, *ve = eol;

			while (v < ve && (*v == ' ' || *v == '\t'))
				v++;
			while (ve > v && (ve[-1] == '\r' || ve[-1] == ' ' || ve[-1] == '\t'))
				ve--;
			*len = (size_t)(ve - v);
			return v;
		}
		p = eol;
	}
	return NULL;
}

/* A tchar of RFC 9110 section 5.6.2, what a method is made of. */
static bool is_tchar(unsigned char c)
{
	return isalnum(c) || (c && strchr("!#$%&'*+-.^_`|~", c));
}

/*
 * The request line "METHOD SP TARGET SP HTTP/1.D" in line[0..len) (its
 * line end cut off) into rq, 0; -1 when it is not one. The target is in
 * origin form ("/..."), of visible characters only (RFC 9112 section 3.2,
 * RFC 3986 section 2): a NUL, a control or a space in it is a bad request,
 * never a path cut short at the NUL.
 */
static int request_line(const char *line, size_t len, struct http_request *rq)
{
	const char *sp1 = memchr(line, ' ', len), *sp2, *t, *end = line + len;
	size_t mlen, plen;

	if (!sp1)
		return -1;
	sp2 = memchr(sp1 + 1, ' ', (size_t)(end - sp1 - 1));
	if (!sp2)
		return -1;
	mlen = (size_t)(sp1 - line);
	if (!mlen || mlen >= sizeof(rq->method))
		return -1;
	for (size_t i = 0; i < mlen; i++)
		if (!is_tchar((unsigned char)line[i]))
			return -1;
	t = sp1 + 1;
	if (t == sp2 || *t != '/')
		return -1;
	for (const char *q = t; q < sp2; q++)
		if ((unsigned char)*q <= 0x20 || (unsigned char)*q >= 0x7f)
			return -1;
	if ((size_t)(end - sp2 - 1) != 8 || strncmp(sp2 + 1, "HTTP/1.", 7) ||
	    !isdigit((unsigned char)sp2[8]))
		return -1;
	memcpy(rq->method, line, mlen);
	rq->method[mlen] = '\0';
	plen = strcspn(t, "?# ");	/* the query (and a fragment) cut off */
	if (plen > (size_t)(sp2 - t))
		plen = (size_t)(sp2 - t);
	if (plen >= sizeof(rq->path))
		plen = sizeof(rq->path) - 1;	/* no such path: a 404 all the same */
	memcpy(rq->path, t, plen);
	rq->path[plen] = '\0';
	return 0;
}

int http_parse_request(const char *buf, size_t len, struct http_request *rq)
{
	const char *p = buf, *end = buf + len, *head_end = NULL, *v;
	size_t vlen, nr_lines = 0;

	/*
	 * Line by line: a line ends in CRLF or in a bare LF, which RFC 9112
	 * section 2.2 lets a server take as a line end (what nc and printf
	 * send); the head ends at the first empty line. A NUL or a CR that does
	 * not end a line is refused as soon as it arrives (RFC 9112 section
	 * 2.2, RFC 9110 section 5.5), and so is a request line that is not one.
	 */
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *stop = nl ? nl : end, *le;

		for (const char *q = p; q < stop; q++)
			if (!*q || (*q == '\r' && q + 1 < end && q + 1 != nl))
				return -1;
		if (!nl)
			return 1;
		le = nl > p && nl[-1] == '\r' ? nl - 1 : nl;
		if (!nr_lines) {
			if (request_line(p, (size_t)(le - p), rq))
				return -1;
		} else if (le == p) {
			head_end = nl + 1;
			break;
		}
		nr_lines++;
		p = nl + 1;
	}
	if (!head_end)
		return 1;
	rq->last_event_id = -1;
	v = header(buf, (size_t)(head_end - buf), "Last-Event-ID", &vlen);
	if (v && vlen && vlen < 19) {
		long long id = 0;
		size_t i;

		for (i = 0; i < vlen && isdigit((unsigned char)v[i]); i++)
			id = id * 10 + (v[i] - '0');
		if (i == vlen)
			rq->last_event_id = id;
	}
	return 0;
}

char *sse_event(uint64_t id, const char *name, const char *data, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	const char *p = data;

	if (!f)
		return NULL;
	fprintf(f, "id: %llu\nevent: %s\n", (unsigned long long)id, name);
	/* a line ends at CR, LF or CRLF; each is a data: line of its own */
	for (;;) {
		size_t l = strcspn(p, "\r\n");

		fputs("data: ", f);
		fwrite(p, 1, l, f);
		fputc('\n', f);
		p += l;
		if (!*p)
			break;
		p += (p[0] == '\r' && p[1] == '\n') ? 2 : 1;
	}
	fputc('\n', f);
	if (fclose(f)) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}
