/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu run --live: its address argument, the request head and the
 * server-sent events framing (tools/live_http.c), the exit status of bad
 * values, and the server itself over real sockets: several runs streaming
 * (-j 2), a client for the whole stream, one that leaves mid-run, one that
 * reconnects with Last-Event-ID, the page, 404, and SIGINT ending it with 0.
 */
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "harness.h"
#include "tests/cli.h"
#include "tools/live_http.h"

/* ---- the address ---- */

START_TEST(test_parse_addr)
{
	static const struct {
		const char *arg;
		int family;
		const char *host;
		unsigned port;
	} ok[] = {
		{ "8080", AF_INET, "127.0.0.1", 8080 },
		{ "0", AF_INET, "127.0.0.1", 0 },
		{ "0.0.0.0:8080", AF_INET, "0.0.0.0", 8080 },
		{ "127.0.0.1:0", AF_INET, "127.0.0.1", 0 },
		{ "[::1]:8080", AF_INET6, "::1", 8080 },
		{ "[::]:65535", AF_INET6, "::", 65535 },
	};
	struct sockaddr_storage ss;
	char why[256], host[64];

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		ck_assert_msg(!live_parse_addr(ok[i].arg, &ss, why, sizeof(why)), "%s: %s",
			      ok[i].arg, why);
		ck_assert_int_eq(ss.ss_family, ok[i].family);
		if (ok[i].family == AF_INET) {
			struct sockaddr_in *a = (struct sockaddr_in *)&ss;

			inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
			ck_assert_uint_eq(ntohs(a->sin_port), ok[i].port);
		} else {
			struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;

			inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
			ck_assert_uint_eq(ntohs(a->sin6_port), ok[i].port);
		}
		ck_assert_str_eq(host, ok[i].host);
	}
}
END_TEST

START_TEST(test_parse_addr_bad)
{
	static const char *const bad[] = {
		"", "x", "65536", "-1", "+80", " 80", "80 ", "123456", "1.2.3:80", ":80",
		"localhost:80", "1.2.3.4:80:90", "::1:80", "[::1]8080", "[::1]:", "[::1",
		"[1.2.3.4]:80", "1.2.3.4:", "1.2.3.4:0x50",
	};
	struct sockaddr_storage ss;
	char why[256];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ck_assert_msg(live_parse_addr(bad[i], &ss, why, sizeof(why)) == -1,
			      "'%s' was taken", bad[i]);
		ck_assert_msg(strstr(why, bad[i]), "'%s': the message names it: %s", bad[i], why);
	}
}
END_TEST

/* ---- the request head ---- */

START_TEST(test_http_request)
{
	struct http_request rq;
	const char *full = "GET /events?x=1 HTTP/1.1\r\nHost: a\r\nlast-event-id:  41 \r\n\r\n";

	/* every prefix of a request is incomplete, never wrong */
	for (size_t l = 0; l < strlen(full); l++)
		ck_assert_int_eq(http_parse_request(full, l, &rq), 1);
	ck_assert_int_eq(http_parse_request(full, strlen(full), &rq), 0);
	ck_assert_str_eq(rq.method, "GET");
	ck_assert_str_eq(rq.path, "/events");
	ck_assert_int_eq(rq.last_event_id, 41);

	ck_assert_int_eq(http_parse_request("GET / HTTP/1.0\r\n\r\n", 18, &rq), 0);
	ck_assert_str_eq(rq.path, "/");
	ck_assert_int_eq(rq.last_event_id, -1);
	ck_assert_int_eq(http_parse_request("POST /x HTTP/1.1\r\nLast-Event-ID: 7x\r\n\r\n", 39,
					    &rq), 0);
	ck_assert_str_eq(rq.method, "POST");
	ck_assert_int_eq(rq.last_event_id, -1);	/* not a number: none */
	{
		static const char *const bad[] = {
			"GET\r\n\r\n", "GET /\r\n\r\n", "GET / HTTP/2\r\n\r\n", "GET x HTTP/1.1\r\n\r\n",
			" / HTTP/1.1\r\n\r\n", "GET  HTTP/1.1\r\n\r\n", "GET / SPDY/1.1\r\n\r\n",
			"G(T / HTTP/1.1\r\n\r\n", "GET /a\tb HTTP/1.1\r\n\r\n",
			"GET /\x7f HTTP/1.1\r\n\r\n", "GET /\x80 HTTP/1.1\r\n\r\n",
			"GET / HTTP/1.1\rHost: x\r\n\r\n", "GET / HTTP/1.1\r\nHost: \rx\r\n\r\n",
		};

		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			ck_assert_msg(http_parse_request(bad[i], strlen(bad[i]), &rq) == -1,
				      "'%s' was taken", bad[i]);
	}
	/* a NUL in the target is a bad request, not a path cut at the NUL */
	{
		static const char nul_target[] = "GET /\0/events HTTP/1.1\r\n\r\n";
		static const char nul_header[] = "GET / HTTP/1.1\r\nHost: a\0b\r\n\r\n";

		ck_assert_int_eq(http_parse_request(nul_target, sizeof(nul_target) - 1, &rq), -1);
		ck_assert_int_eq(http_parse_request(nul_header, sizeof(nul_header) - 1, &rq), -1);
		/* and refused as soon as it arrives, not when the head ends */
		ck_assert_int_eq(http_parse_request(nul_target, 6, &rq), -1);
	}
	/* lines ending in a bare LF (RFC 9112 section 2.2), alone or mixed with CRLF */
	{
		static const char *const lf[] = {
			"GET /events HTTP/1.1\nLast-Event-ID: 3\n\n",
			"GET /events HTTP/1.1\r\nLast-Event-ID: 3\n\r\n",
			"GET /events HTTP/1.1\nLast-Event-ID: 3\r\n\n",
		};

		for (size_t i = 0; i < sizeof(lf) / sizeof(lf[0]); i++) {
			for (size_t l = 0; l < strlen(lf[i]); l++)
				ck_assert_int_eq(http_parse_request(lf[i], l, &rq), 1);
			ck_assert_msg(http_parse_request(lf[i], strlen(lf[i]), &rq) == 0, "'%s'",
				      lf[i]);
			ck_assert_str_eq(rq.path, "/events");
			ck_assert_int_eq(rq.last_event_id, 3);
		}
	}
	ck_assert_int_eq(http_parse_request("HEAD /a?b HTTP/1.1\r\n\r\n", 24, &rq), 0);
	ck_assert_str_eq(rq.method, "HEAD");
	ck_assert_str_eq(rq.path, "/a");
}
END_TEST

/* ---- server-sent events ---- */

START_TEST(test_sse_framing)
{
	static const struct {
		const char *data, *want;
	} cases[] = {
		{ "{\"run\":0}", "id: 7\nevent: sample\ndata: {\"run\":0}\n\n" },
		{ "", "id: 7\nevent: sample\ndata: \n\n" },
		/* each line its own data: line, whatever ends it */
		{ "a\nb", "id: 7\nevent: sample\ndata: a\ndata: b\n\n" },
		{ "a\r\nb\rc", "id: 7\nevent: sample\ndata: a\ndata: b\ndata: c\n\n" },
		{ "a\n", "id: 7\nevent: sample\ndata: a\ndata: \n\n" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t len;
		char *e = sse_event(7, "sample", cases[i].data, &len);

		ck_assert_ptr_nonnull(e);
		ck_assert_uint_eq(len, strlen(e));
		ck_assert_str_eq(e, cases[i].want);
		free(e);
	}
}
END_TEST

/* ---- the command line ---- */

START_TEST(test_bad_values_exit_2)
{
	static const char *const bad[][2] = {
		{ "--live", "65536" }, { "--live", "abc" }, { "--live", "[::1]" },
		{ "--live", "localhost:8080" }, { "--live", "" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *args[] = { "run", cli_quickstart(), "--scale", "1/64", bad[i][0],
				       bad[i][1], NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 2, "%s '%s': status %d", bad[i][0], bad[i][1], o.status);
		ck_assert_msg(strstr(o.err, "--live"), "the message names --live: %s", o.err);
		ck_assert_str_eq(o.out, "");
		cli_out_free(&o);
	}
	{
		const char *args[] = { "run", cli_quickstart(), "--live-wait", NULL };
		struct cli_out o = cli_run(args);

		ck_assert_int_eq(o.status, 2);
		ck_assert_ptr_nonnull(strstr(o.err, "--live-wait needs --live"));
		cli_out_free(&o);
	}
}
END_TEST

/* A port this test holds, so that --live cannot listen on it. */
START_TEST(test_port_in_use_exit_2)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	char arg[64];

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(listen(fd, 1), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	snprintf(arg, sizeof(arg), "127.0.0.1:%u", ntohs(a.sin_port));
	{
		const char *args[] = { "run", cli_quickstart(), "--scale", "1/64", "--live", arg,
				       NULL };
		struct cli_out o = cli_run(args);

		ck_assert_msg(o.status == 2, "status %d: %s", o.status, o.err);
		ck_assert_msg(strstr(o.err, "--live") && strstr(o.err, "cannot listen"), "%s", o.err);
		cli_out_free(&o);
	}
	close(fd);
}
END_TEST

/* ---- the server ---- */

static int connect_to(unsigned port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	ck_assert_int_ge(fd, 0);
	ck_assert_msg(!connect(fd, (struct sockaddr *)&a, sizeof(a)), "connect: %s",
		      strerror(errno));
	return fd;
}

static void send_all(int fd, const char *s)
{
	ck_assert_int_eq(write(fd, s, strlen(s)), (ssize_t)strlen(s));
}

/* Reads from fd into a growing string until it holds until (or the peer closes: all). */
static char *read_until(int fd, const char *until, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);

	ck_assert_ptr_nonnull(buf);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;

		buf[n] = '\0';
		if (until && strstr(buf, until))
			break;
		ck_assert_msg(poll(&p, 1, 300000) == 1, "no answer in 300 s");
		if (n + 4096 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert_ptr_nonnull(buf);
		}
		r = read(fd, buf + n, cap - n - 1);
		ck_assert_int_ge(r, 0);
		if (!r)
			break;
		n += (size_t)r;
	}
	*len = n;
	return buf;
}

static char *get(unsigned port, const char *head, const char *until, size_t *len)
{
	int fd = connect_to(port);
	char *r;

	send_all(fd, head);
	r = read_until(fd, until, len);
	close(fd);
	return r;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The rows every run of the saved file has (mmemu report --format json). */
static size_t saved_samples(const char *pb)
{
	const char *args[] = { "report", pb, "--format", "json", NULL };
	struct cli_out o = cli_run(args);
	json_error_t e;
	json_t *j = json_loads(o.out, 0, &e), *runs;
	size_t n = 0, i;
	json_t *r;

	ck_assert_msg(j, "%s", e.text);
	runs = json_object_get(j, "runs");
	json_array_foreach(runs, i, r)
		n += json_array_size(json_object_get(r, "lru_gen_samples"));
	json_decref(j);
	cli_out_free(&o);
	return n;
}

/* The next line of stderr that has what (a sanitizer may print lines of its own). */
static void err_line(FILE *err, const char *what, char *line, size_t len)
{
	do
		ck_assert_msg(fgets(line, (int)len, err), "stderr ended before '%s'", what);
	while (!strstr(line, what));
}

START_TEST(test_server)
{
	char *pb = cli_temp_file(".pb"), line[256], *all, *page, *late, *other;
	size_t len, nr_events, n;
	unsigned port;
	int errp[2], outp[2], status, fd;
	pid_t pid;
	FILE *err;

	ck_assert_int_eq(pipe(errp), 0);
	ck_assert_int_eq(pipe(outp), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(errp[1], 2);
		dup2(outp[1], 1);
		execl(cli_mmemu(), "mmemu", "run", cli_quickstart(), "--scale", "1/32", "--policy",
		      "classic,mglru-budget", "-j", "2", "--live", "0", "--live-wait", "--out", pb,
		      (char *)NULL);
		_exit(127);
	}
	close(errp[1]);
	close(outp[1]);
	err = fdopen(errp[0], "r");
	err_line(err, "mmemu: live view at http://127.0.0.1:", line, sizeof(line));
	ck_assert_msg(sscanf(line, "mmemu: live view at http://127.0.0.1:%u/", &port) == 1, "%s",
		      line);
	err_line(err, "when a page has connected", line, sizeof(line));

	/* the page, and what is not there */
	page = get(port, "GET / HTTP/1.1\r\nHost: x\r\n\r\n", NULL, &len);
	ck_assert_msg(!strncmp(page, "HTTP/1.1 200 OK\r\n", 17), "%.100s", page);
	ck_assert_ptr_nonnull(strstr(page, "id=\"mmemu-data\""));
	ck_assert_ptr_nonnull(strstr(page, "\"live\":true"));
	ck_assert_ptr_nonnull(strstr(page, "new EventSource(\"events\")"));
	free(page);
	page = get(port, "GET /nothing HTTP/1.1\r\n\r\n", NULL, &len);
	ck_assert_msg(!strncmp(page, "HTTP/1.1 404 ", 13), "%.100s", page);
	free(page);
	page = get(port, "GARBAGE\r\n\r\n", NULL, &len);
	ck_assert_msg(!strncmp(page, "HTTP/1.1 400 ", 13), "%.100s", page);
	free(page);
	/* lines ending in a bare LF are answered, not left open */
	page = get(port, "GET / HTTP/1.1\nHost: x\n\n", NULL, &len);
	ck_assert_msg(!strncmp(page, "HTTP/1.1 200 OK\r\n", 17), "%.100s", page);
	ck_assert_ptr_nonnull(strstr(page, "id=\"mmemu-data\""));
	free(page);
	/* a NUL in the target is a bad request, not the page */
	{
		static const char nul[] = "GET /\0/events HTTP/1.1\r\n\r\n";

		fd = connect_to(port);
		ck_assert_int_eq(write(fd, nul, sizeof(nul) - 1), (ssize_t)sizeof(nul) - 1);
		page = read_until(fd, NULL, &len);
		close(fd);
		ck_assert_msg(!strncmp(page, "HTTP/1.1 400 ", 13), "%.100s", page);
		free(page);
	}
	/* HEAD: GET's head, its Content-Length, and no body */
	{
		char *got = get(port, "GET / HTTP/1.1\r\n\r\n", NULL, &len), *cl;
		size_t body = len - (size_t)(strstr(got, "\r\n\r\n") + 4 - got), want;

		page = get(port, "HEAD / HTTP/1.1\r\n\r\n", NULL, &len);
		ck_assert_msg(!strncmp(page, "HTTP/1.1 200 OK\r\n", 17), "%.100s", page);
		cl = strstr(page, "Content-Length: ");
		ck_assert_ptr_nonnull(cl);
		ck_assert_int_eq(sscanf(cl, "Content-Length: %zu", &want), 1);
		ck_assert_uint_eq(want, body);
		ck_assert_ptr_nonnull(strstr(page, "\r\n\r\n"));
		ck_assert_str_eq(strstr(page, "\r\n\r\n"), "\r\n\r\n");
		free(page);
		free(got);
		page = get(port, "HEAD /events HTTP/1.1\r\n\r\n", NULL, &len);
		ck_assert_msg(!strncmp(page, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n", 50),
			      "%.100s", page);
		ck_assert_str_eq(strstr(page, "\r\n\r\n"), "\r\n\r\n");
		free(page);
		page = get(port, "DELETE / HTTP/1.1\r\n\r\n", NULL, &len);
		ck_assert_msg(!strncmp(page, "HTTP/1.1 405 ", 13), "%.100s", page);
		ck_assert_ptr_nonnull(strstr(page, "\r\nAllow: GET, HEAD\r\n"));
		free(page);
	}

	/* one client leaves mid-run: it connects first, so the runs start for it */
	fd = connect_to(port);
	send_all(fd, "GET /events HTTP/1.1\r\n\r\n");
	free(read_until(fd, "event: sample", &len));
	close(fd);
	/* another follows from the start to the end */
	all = get(port, "GET /events HTTP/1.1\r\n\r\n", "event: end\n", &len);
	ck_assert_msg(!strncmp(all, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n", 49),
		      "%.100s", all);
	nr_events = count(all, "\nid: ");
	/* every row each run saved, one event each, then a "run" event per run and "end" */
	ck_assert_uint_eq(count(all, "event: run\n"), 2);
	ck_assert_uint_eq(count(all, "event: end\n"), 1);
	ck_assert_uint_eq(count(all, "event: sample\n"), nr_events - 3);
	/* ids count from 0, one by one */
	for (size_t i = 0; i < nr_events; i++) {
		char id[32];

		snprintf(id, sizeof(id), "\nid: %zu\n", i);
		ck_assert_msg(strstr(all, id), "no event %zu", i);
	}
	/* both runs' rows, interleaved as they came */
	ck_assert_uint_gt(count(all, "data: {\"run\":0,\"row\":"), 0);
	ck_assert_uint_gt(count(all, "data: {\"run\":1,\"row\":"), 0);
	ck_assert_ptr_nonnull(strstr(all, "data: {\"run\":1,\"final\":{\"scenario\":\"quickstart\""));

	/* the table comes out as usual, then the final state is served */
	err_line(err, "keeps the final state", line, sizeof(line));
	ck_assert_uint_eq(count(all, "event: sample\n"), saved_samples(pb));
	/* a reconnecting EventSource gets what follows its Last-Event-ID */
	late = get(port, "GET /events HTTP/1.1\r\nLast-Event-ID: 5\r\n\r\n", "event: end\n", &len);
	ck_assert_uint_eq(count(late, "\nid: "), nr_events - 6);
	ck_assert_ptr_nonnull(strstr(late, "\nid: 6\n"));
	ck_assert_ptr_null(strstr(late, "\nid: 5\n"));
	other = strstr(all, "\nid: 6\n");
	ck_assert_str_eq(strstr(late, "\nid: 6\n"), other);
	free(late);
	/* a client still connected does not keep the server up after SIGINT */
	fd = connect_to(port);
	send_all(fd, "GET /events HTTP/1.1\r\n\r\n");
	free(read_until(fd, "event: end\n", &len));
	ck_assert_int_eq(kill(pid, SIGINT), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	page = read_until(outp[0], NULL, &n);
	ck_assert_ptr_nonnull(strstr(page, "policy "));
	free(page);
	close(fd);
	fclose(err);
	close(outp[0]);
	free(all);
	cli_remove_temp(pb);
}
END_TEST

/*
 * 100 clients that connect and say nothing, against an mmemu with 64
 * descriptors (issue 36 point 4): beyond LIVE_MAX_CLIENTS they are answered
 * 503, the idle ones are closed after LIVE_IDLE_MS, and the three runs all
 * start and finish (before: "cannot start a run", exit 2, the finished runs
 * lost).
 */
START_TEST(test_idle_clients)
{
	enum { NR = 100 };
	char line[256], *out;
	int errp[2], outp[2], status, fds[NR], nr_busy = 0, nr_closed = 0;
	unsigned port;
	size_t n;
	pid_t pid;
	FILE *err;

	ck_assert_int_eq(pipe(errp), 0);
	ck_assert_int_eq(pipe(outp), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct rlimit rl = { 64, 64 };

		dup2(errp[1], 2);
		dup2(outp[1], 1);
		if (setrlimit(RLIMIT_NOFILE, &rl))
			_exit(126);
		execl(cli_mmemu(), "mmemu", "run", cli_quickstart(), "--scale", "1/64", "--policy",
		      "classic,mglru-old,mglru-budget", "-j", "2", "--live", "0", (char *)NULL);
		_exit(127);
	}
	close(errp[1]);
	close(outp[1]);
	err = fdopen(errp[0], "r");
	err_line(err, "mmemu: live view at http://127.0.0.1:", line, sizeof(line));
	ck_assert_msg(sscanf(line, "mmemu: live view at http://127.0.0.1:%u/", &port) == 1, "%s",
		      line);
	for (int i = 0; i < NR; i++) {
		struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };

		fds[i] = socket(AF_INET, SOCK_STREAM, 0);
		ck_assert_int_ge(fds[i], 0);
		ck_assert_int_eq(fcntl(fds[i], F_SETFL, O_NONBLOCK), 0);
		ck_assert_msg(!connect(fds[i], (struct sockaddr *)&a, sizeof(a)) ||
			      errno == EINPROGRESS, "connect: %s", strerror(errno));
	}
	/* every run finishes and the table is printed */
	err_line(err, "keeps the final state", line, sizeof(line));
	/* each client is answered 503 or closed idle, within LIVE_IDLE_MS and a margin */
	for (int i = 0; i < NR; i++) {
		struct pollfd p = { .fd = fds[i], .events = POLLIN };
		char buf[256];
		ssize_t r;

		ck_assert_msg(poll(&p, 1, 30000) == 1, "client %d neither answered nor closed", i);
		r = read(fds[i], buf, sizeof(buf) - 1);
		if (r > 0) {
			buf[r] = '\0';
			ck_assert_msg(!strncmp(buf, "HTTP/1.1 503 ", 13), "client %d: %s", i, buf);
			nr_busy++;
		} else {
			nr_closed++;
		}
		close(fds[i]);
	}
	ck_assert_int_gt(nr_busy, 0);
	ck_assert_int_gt(nr_closed, 0);
	ck_assert_int_eq(kill(pid, SIGINT), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %#x", status);
	out = read_until(outp[0], NULL, &n);
	ck_assert_msg(strstr(out, "classic") && strstr(out, "mglru-old") &&
		      strstr(out, "mglru-budget"), "%s", out);
	free(out);
	fclose(err);
	close(outp[0]);
}
END_TEST

static Suite *live_suite(void)
{
	Suite *s = suite_create("live");
	TCase *tc = tcase_create("live");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_parse_addr);
	tcase_add_test(tc, test_parse_addr_bad);
	tcase_add_test(tc, test_http_request);
	tcase_add_test(tc, test_sse_framing);
	tcase_add_test(tc, test_bad_values_exit_2);
	tcase_add_test(tc, test_port_in_use_exit_2);
	tcase_add_test(tc, test_server);
	tcase_add_test(tc, test_idle_clients);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(live_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
