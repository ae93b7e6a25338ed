/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libFuzzer target: the request parser and the event framing of mmemu run
 * --live (tools/live_http.c), what a client on the network controls. The
 * input is a request head as it arrives. Checked: every prefix of a head is
 * incomplete or refused, never taken with another meaning (a head is taken
 * only once its empty line has arrived, and a prefix refused stays
 * refused); a head taken has a token for its method and a target of visible
 * characters starting with '/'; and the input framed as one event's data
 * has only "data: " lines, none holding a CR or a LF.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tools/live_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data;
	struct http_request rq;
	int rc;

	if (size > HTTP_HEAD_MAX)
		return 0;
	rc = http_parse_request(buf, size, &rq);
	if (rc == 0) {
		size_t m = strlen(rq.method), p = strlen(rq.path);

		if (!m || m >= sizeof(rq.method) || rq.path[0] != '/' || p >= sizeof(rq.path))
			abort();
		for (size_t i = 0; i < p; i++)
			if ((unsigned char)rq.path[i] <= 0x20 || (unsigned char)rq.path[i] >= 0x7f)
				abort();
		/* the head ends at an empty line: the input has one */
		if (!memmem(buf, size, "\n\n", 2) && !memmem(buf, size, "\n\r\n", 3))
			abort();
	}
	/* a prefix is never a request of its own unless it already was one */
	if (size) {
		int prc = http_parse_request(buf, size - 1, &rq);

		if (prc == -1 && rc != -1)
			abort();
		if (prc == 0 && rc != 0)
			abort();
	}
	{
		char *s = malloc(size + 1), *e, *line, *save;
		size_t len;

		if (!s)
			abort();
		memcpy(s, data, size);
		s[size] = '\0';
		e = sse_event(7, "sample", s, &len);
		if (!e)
			abort();
		if (strlen(e) != len || strncmp(e, "id: 7\nevent: sample\n", 20) ||
		    len < 2 || strcmp(e + len - 2, "\n\n") || strchr(e, '\r'))
			abort();
		for (line = strtok_r(e + 20, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (strncmp(line, "data: ", 6))
				abort();
		free(e);
		free(s);
	}
	return 0;
}
