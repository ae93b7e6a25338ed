/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The pieces of mmemu run --live that need no network: its address
 * argument, the head of an HTTP request, and server-sent events framing
 * (the text/event-stream format of the HTML standard, section 9.2).
 */
#ifndef MMEMU_TOOLS_LIVE_HTTP_H
#define MMEMU_TOOLS_LIVE_HTTP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/*
 * "[ADDR:]PORT": PORT alone is 127.0.0.1:PORT; ADDR is a numeric IPv4
 * address or an IPv6 one in brackets ("[::1]:8080"); PORT is 0 to 65535,
 * 0 for any free port. 0, or -1 with why.
 */
int live_parse_addr(const char *arg, struct sockaddr_storage *ss, char *why, size_t whylen);

/* The request line and the header the server reads. */
struct http_request {
	char method[16];		/* "GET" */
	char path[256];			/* "/events", the query cut off */
	long long last_event_id;	/* Last-Event-ID (an EventSource reconnecting), -1: none */
};

/* The most a request head may take; a longer one is refused (431). */
#define HTTP_HEAD_MAX 8192

/*
 * The head of a request in buf[0..len): 1 when it has not ended yet (no
 * empty line; lines end in CRLF or a bare LF), 0 when parsed into rq, -1
 * when it is not an HTTP/1.x request (a NUL, a stray CR, a method that is
 * not a token, a target not of visible characters or not starting with /).
 */
int http_parse_request(const char *buf, size_t len, struct http_request *rq);

/*
 * One event: "id: ID\nevent: NAME\n", a "data: " line per line of data,
 * then an empty line. Malloc'ed, its length in *len; NULL when out of memory.
 */
char *sse_event(uint64_t id, const char *name, const char *data, size_t *len);

#endif
