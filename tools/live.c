// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmemu run --live: an HTTP/1.1 server on libuv with three answers: the page
 * (tools/view.c's, its runs still empty, with tools/live.js appended), the
 * event stream /events, and 404 for anything else (favicon.ico: 204, so
 * that a browser logs no error). The protocol and the memory bound are in
 * tools/live.h.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>
#include <uv.h>

#include "tools/live.h"
#include "tools/live_http.h"
#include "tools/view.h"

static const unsigned char livejs[] = {
#include "livejs.inc"
	, 0
};

/*
 * Connections held at once, and how long one may take to send its request
 * head: a client past the bound is answered 503 and closed; one silent for
 * LIVE_IDLE_MS is closed. Idle clients then cannot take the descriptors
 * the runs' pipes need (issue 36 point 4). Estimates: a page and a few
 * tabs need a handful; a browser sends its head within milliseconds.
 */
#define LIVE_MAX_CLIENTS 32
#define LIVE_IDLE_MS 10000

/* A client's one write: at most this many events, or about this many bytes. */
#define WRITE_EVENTS 64
#define WRITE_BYTES (256 * 1024)
/* A run's rows arrive in reads of this size; a row may span several. */
#define STREAM_READ 65536

struct live_event {
	char *text;	/* the whole event, as sse_event() frames it */
	size_t len;
};

struct live_stream {		/* one run's rows, from its child */
	uv_pipe_t pipe;
	struct live *lv;
	size_t run;		/* its index */
	char *rbuf;		/* what a read fills */
	char *line;		/* a row not ended yet */
	size_t len, cap;
	uint64_t nr_rows;	/* rows so far */
	bool open;		/* pipe is initialised (and must be closed) */
	bool eof;		/* the child closed it */
};

struct live_client {
	uv_tcp_t tcp;
	struct live *lv;
	struct live_client *prev, *next;
	char req[HTTP_HEAD_MAX];	/* the request head, as it arrives */
	size_t req_len;
	bool events;		/* an event stream: follows the log */
	bool head_sent;		/* its response head is out */
	bool writing;		/* a write in flight */
	bool closing;
	bool head_only;		/* a HEAD request: the answer's head alone */
	size_t cursor;		/* the next event of the log it gets */
	uint64_t accepted_ms;	/* uv_now() when it connected */
	uv_write_t wr;
	uv_shutdown_t sh;
	uv_buf_t bufs[WRITE_EVENTS + 1];
	char head[256];		/* the response head */
};

struct live {
	uv_loop_t loop;
	uv_tcp_t server;
	uv_signal_t sigint, sigterm;
	uv_timer_t tick;
	uv_timer_t reap;	/* closes clients idle for LIVE_IDLE_MS */
	void (*tick_fn)(void *ctx);
	void *tick_ctx;
	char *page;		/* the page, built once */
	size_t page_len;
	struct live_event *log;	/* every event so far */
	size_t nr_log, cap_log;
	struct live_client *clients;
	size_t nr_clients;	/* in the list (closing ones too: they hold a descriptor) */
	struct live_stream *streams;	/* [run] */
	size_t nr_runs;
	bool connected;		/* an event stream has been asked for */
};

static void oom(void)
{
	fprintf(stderr, "mmemu: --live: out of memory\n");
	abort();	/* host out of memory, as scenarios/ does */
}

/* ---- the log ---- */

static void client_pump(struct live_client *c);

/* Appends one event and hands it to every stream client. */
static void live_append(struct live *lv, const char *name, const char *data)
{
	struct live_event *e;

	if (lv->nr_log == lv->cap_log) {
		size_t cap = lv->cap_log ? 2 * lv->cap_log : 1024;
		struct live_event *n = realloc(lv->log, cap * sizeof(*n));

		if (!n)
			oom();
		lv->log = n;
		lv->cap_log = cap;
	}
	e = &lv->log[lv->nr_log];
	e->text = sse_event(lv->nr_log, name, data, &e->len);
	if (!e->text)
		oom();
	lv->nr_log++;
	for (struct live_client *c = lv->clients; c; c = c->next)
		client_pump(c);
}

/* {"run": I, KEY: JSON} */
static char *run_message(size_t run, const char *key, const char *json)
{
	size_t len = strlen(json) + strlen(key) + 48;
	char *m = malloc(len);

	if (!m)
		oom();
	snprintf(m, len, "{\"run\":%zu,\"%s\":%s}", run, key, json);
	return m;
}

/* A row from run's child: parsed and written again as the saved view writes it. */
static void stream_row(struct live_stream *st, const char *row)
{
	json_error_t jerr;
	json_t *j = json_loads(row, 0, &jerr);
	char *text, *m;

	if (!j) {
		fprintf(stderr, "mmemu: --live: run %zu sent a row that is not JSON: %s\n",
			st->run + 1, jerr.text);
		return;
	}
	text = json_dumps(j, VIEW_JSON_FLAGS);
	json_decref(j);
	if (!text)
		oom();
	m = run_message(st->run, "row", text);
	free(text);
	live_append(st->lv, "sample", m);
	free(m);
	st->nr_rows++;
}

/* ---- the runs' pipes ---- */

static void stream_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	struct live_stream *st = h->data;

	(void)suggested;
	*b = uv_buf_init(st->rbuf, STREAM_READ);
}

static void stream_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct live_stream *st = s->data;
	const char *p = b->base, *end = b->base + (n > 0 ? n : 0);

	if (n < 0) {	/* UV_EOF, or the child died: what it sent stands */
		uv_read_stop(s);
		uv_close((uv_handle_t *)s, NULL);
		st->eof = true;
		return;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t l = (size_t)((nl ? nl : end) - p);

		if (st->len + l + 1 > st->cap) {
			size_t cap = st->cap ? st->cap : 4096;
			char *g;

			while (cap < st->len + l + 1)
				cap *= 2;
			g = realloc(st->line, cap);
			if (!g)
				oom();
			st->line = g;
			st->cap = cap;
		}
		memcpy(st->line + st->len, p, l);
		st->len += l;
		if (!nl)
			break;
		st->line[st->len] = '\0';
		stream_row(st, st->line);
		st->len = 0;
		p = nl + 1;
	}
}

int live_add_stream(struct live *lv, size_t run, int fd)
{
	struct live_stream *st = &lv->streams[run];
	int rc;

	st->lv = lv;
	st->run = run;
	st->rbuf = malloc(STREAM_READ);
	if (!st->rbuf)
		return -ENOMEM;
	rc = uv_pipe_init(&lv->loop, &st->pipe, 0);
	if (rc)
		return rc;
	st->pipe.data = st;
	st->open = true;
	rc = uv_pipe_open(&st->pipe, fd);
	if (!rc)
		rc = uv_read_start((uv_stream_t *)&st->pipe, stream_alloc, stream_read);
	if (rc) {
		uv_close((uv_handle_t *)&st->pipe, NULL);
		st->eof = true;
	}
	return rc;
}

/* ---- the clients ---- */

static void client_closed(uv_handle_t *h)
{
	struct live_client *c = h->data;
	struct live *lv = c->lv;

	if (c->prev)
		c->prev->next = c->next;
	else
		lv->clients = c->next;
	if (c->next)
		c->next->prev = c->prev;
	lv->nr_clients--;
	free(c);
}

static void client_close(struct live_client *c)
{
	if (c->closing)
		return;
	c->closing = true;
	uv_close((uv_handle_t *)&c->tcp, client_closed);
}

static void client_shut(uv_shutdown_t *req, int status)
{
	(void)status;
	client_close(req->data);
}

/* A whole answer written: the connection ends (Connection: close). */
static void answer_written(uv_write_t *req, int status)
{
	struct live_client *c = req->data;

	c->writing = false;
	if (status || c->closing || uv_shutdown(&c->sh, (uv_stream_t *)&c->tcp, client_shut))
		client_close(c);
}

static void answer(struct live_client *c, const char *status, const char *type,
		   const char *body, size_t len)
{
	/* a 405 says which methods there are (RFC 9110 section 15.5.6) */
	int n = snprintf(c->head, sizeof(c->head),
			 "HTTP/1.1 %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n%s"
			 "Cache-Control: no-store\r\nConnection: close\r\n\r\n",
			 status, type, len, !strncmp(status, "405", 3) ? "Allow: GET, HEAD\r\n" : "");

	/* HEAD: the head GET would have, Content-Length and all (RFC 9110 section 9.3.2) */
	if (c->head_only)
		len = 0;
	c->bufs[0] = uv_buf_init(c->head, (unsigned)n);
	c->bufs[1] = uv_buf_init((char *)body, (unsigned)len);
	c->wr.data = c;
	c->sh.data = c;
	c->writing = true;
	uv_read_stop((uv_stream_t *)&c->tcp);
	if (uv_write(&c->wr, (uv_stream_t *)&c->tcp, c->bufs, len ? 2 : 1, answer_written))
		client_close(c);
}

static void events_written(uv_write_t *req, int status)
{
	struct live_client *c = req->data;

	c->writing = false;
	if (status)
		client_close(c);
	else
		client_pump(c);
}

/* The next events of the log to an event-stream client, one write at a time. */
static void client_pump(struct live_client *c)
{
	struct live *lv = c->lv;
	unsigned n = 0;
	size_t bytes = 0;

	if (!c->events || c->writing || c->closing)
		return;
	if (!c->head_sent) {
		int l = snprintf(c->head, sizeof(c->head),
				 "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
				 "Cache-Control: no-store\r\nConnection: keep-alive\r\n\r\n"
				 "retry: 1000\n\n");

		c->bufs[n++] = uv_buf_init(c->head, (unsigned)l);
		c->head_sent = true;
	}
	while (c->cursor < lv->nr_log && n < WRITE_EVENTS + 1 && bytes < WRITE_BYTES) {
		const struct live_event *e = &lv->log[c->cursor++];

		c->bufs[n++] = uv_buf_init(e->text, (unsigned)e->len);
		bytes += e->len;
	}
	if (!n)
		return;
	c->wr.data = c;
	c->writing = true;
	if (uv_write(&c->wr, (uv_stream_t *)&c->tcp, c->bufs, n, events_written)) {
		c->writing = false;
		client_close(c);
	}
}

static void client_route(struct live_client *c, const struct http_request *rq)
{
	struct live *lv = c->lv;
	static const char not_found[] = "not found\n", bad_method[] = "only GET and HEAD\n";

	c->head_only = !strcmp(rq->method, "HEAD");
	if (strcmp(rq->method, "GET") && !c->head_only) {
		answer(c, "405 Method Not Allowed", "text/plain", bad_method, sizeof(bad_method) - 1);
	} else if (c->head_only && !strcmp(rq->path, "/events")) {
		/* the stream's head, and no stream: the connection ends */
		answer(c, "200 OK", "text/event-stream", "", 0);
	} else if (!strcmp(rq->path, "/") || !strcmp(rq->path, "/index.html")) {
		answer(c, "200 OK", "text/html; charset=utf-8", lv->page, lv->page_len);
	} else if (!strcmp(rq->path, "/events")) {
		/* from the start, or after the last event a reconnecting EventSource had */
		c->events = true;
		lv->connected = true;
		c->cursor = rq->last_event_id >= 0 && (size_t)rq->last_event_id < lv->nr_log
				    ? (size_t)rq->last_event_id + 1
				    : rq->last_event_id >= 0 ? lv->nr_log : 0;
		client_pump(c);
	} else if (!strcmp(rq->path, "/favicon.ico")) {
		answer(c, "204 No Content", "image/x-icon", "", 0);
	} else {
		answer(c, "404 Not Found", "text/plain", not_found, sizeof(not_found) - 1);
	}
}

static void client_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
	struct live_client *c = h->data;

	(void)suggested;
	if (c->events) {	/* what an event-stream client sends later is read and dropped */
		static char sink[1024];

		*b = uv_buf_init(sink, sizeof(sink));
		return;
	}
	*b = uv_buf_init(c->req + c->req_len, (unsigned)(sizeof(c->req) - c->req_len));
}

static void client_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct live_client *c = s->data;
	struct http_request rq;
	static const char too_long[] = "request head too long\n", bad[] = "bad request\n";
	int rc;

	(void)b;
	if (n < 0) {	/* the client left (or UV_ENOBUFS: a head that fills the buffer) */
		if (n == UV_ENOBUFS)
			answer(c, "431 Request Header Fields Too Large", "text/plain", too_long,
			       sizeof(too_long) - 1);
		else
			client_close(c);
		return;
	}
	if (c->events || !n)
		return;
	c->req_len += (size_t)n;
	rc = http_parse_request(c->req, c->req_len, &rq);
	if (rc < 0)
		answer(c, "400 Bad Request", "text/plain", bad, sizeof(bad) - 1);
	else if (!rc)
		client_route(c, &rq);
	else if (c->req_len == sizeof(c->req))
		answer(c, "431 Request Header Fields Too Large", "text/plain", too_long,
		       sizeof(too_long) - 1);
}

/* Every second: a client still without a whole request head after LIVE_IDLE_MS goes. */
static void reap_idle(uv_timer_t *t)
{
	struct live *lv = t->data;
	uint64_t now = uv_now(&lv->loop);

	for (struct live_client *c = lv->clients; c; c = c->next)
		if (!c->events && !c->writing && !c->closing && now - c->accepted_ms >= LIVE_IDLE_MS)
			client_close(c);
}

static void server_accept(uv_stream_t *server, int status)
{
	static const char busy[] = "too many connections\n";
	struct live *lv = server->data;
	struct live_client *c;

	if (status)
		return;
	c = calloc(1, sizeof(*c));
	if (!c)
		oom();
	c->lv = lv;
	c->accepted_ms = uv_now(&lv->loop);
	uv_tcp_init(&lv->loop, &c->tcp);
	c->tcp.data = c;
	c->next = lv->clients;
	if (c->next)
		c->next->prev = c;
	lv->clients = c;
	lv->nr_clients++;
	if (uv_accept(server, (uv_stream_t *)&c->tcp)) {
		client_close(c);
		return;
	}
	if (lv->nr_clients > LIVE_MAX_CLIENTS) {
		answer(c, "503 Service Unavailable", "text/plain", busy, sizeof(busy) - 1);
		return;
	}
	if (uv_read_start((uv_stream_t *)&c->tcp, client_alloc, client_read))
		client_close(c);
}

/* ---- the page ---- */

/* A run before its first row: no samples, the scenario's own memcgs' limits. */
static json_t *run_skeleton(const struct scenario *s, const char *policy, uint64_t seed)
{
	json_t *o = json_object(), *limits = json_object();

	json_object_set_new(o, "scenario", json_string(s->name));
	json_object_set_new(o, "policy", json_string(policy));
	json_object_set_new(o, "seed", json_integer((json_int_t)seed));
	json_object_set_new(o, "sim_seconds", json_real(0));
	json_object_set_new(o, "dump", json_string(""));
	json_object_set_new(o, "samples", json_array());
	/* as the result gives them: whole pages, 0 for no limit */
	for (int i = 0; i < s->nr_memcgs; i++) {
		const struct scn_memcg *m = &s->memcg[i];
		json_t *lim = json_object();
		char path[SCN_NAME_LEN + 1];

		json_object_set_new(lim, "memory.max",
				    json_real(m->max == UINT64_MAX ? 0 : (double)(m->max / 4096 * 4096)));
		json_object_set_new(lim, "memory.high",
				    json_real(m->high == UINT64_MAX ? 0
						   : (double)(m->high / 4096 * 4096)));
		snprintf(path, sizeof(path), "/%s", m->name);
		json_object_set_new(limits, path, lim);
	}
	json_object_set_new(o, "limits", limits);
	return o;
}

static int build_page(struct live *lv, const struct scenario *s, const char *const *policy,
		      const uint64_t *seed, char *why, size_t whylen)
{
	json_t *doc = json_object(), *runs = json_array();
	FILE *f = open_memstream(&lv->page, &lv->page_len);
	int rc;

	if (!f)
		oom();
	for (size_t i = 0; i < lv->nr_runs; i++)
		json_array_append_new(runs, run_skeleton(s, policy[i], seed[i]));
	json_object_set_new(doc, "scenario", json_string(s->name));
	json_object_set_new(doc, "scale", json_real(s->machine.scale));
	json_object_set_new(doc, "live", json_true());
	json_object_set_new(doc, "runs", runs);
	rc = view_write_page(f, s->name, doc, (const char *)livejs, why, whylen);
	json_decref(doc);
	if (fclose(f))
		oom();
	return rc;
}

/* ---- the server ---- */

struct live *live_start(const struct sockaddr_storage *addr, const char *arg,
			const struct scenario *s, const char *const *policy, const uint64_t *seed,
			size_t nr_runs, char *why, size_t whylen)
{
	struct live *lv = calloc(1, sizeof(*lv));
	struct sockaddr_storage bound;
	int len = sizeof(bound), rc;
	char host[INET6_ADDRSTRLEN];
	unsigned port;

	if (!lv)
		oom();
	lv->nr_runs = nr_runs;
	lv->streams = calloc(nr_runs, sizeof(*lv->streams));
	if (!lv->streams || uv_loop_init(&lv->loop))
		oom();
	uv_tcp_init(&lv->loop, &lv->server);
	uv_timer_init(&lv->loop, &lv->tick);
	uv_timer_init(&lv->loop, &lv->reap);
	uv_signal_init(&lv->loop, &lv->sigint);
	uv_signal_init(&lv->loop, &lv->sigterm);
	lv->server.data = lv->tick.data = lv->reap.data = lv->sigint.data = lv->sigterm.data = lv;
	if (build_page(lv, s, policy, seed, why, whylen)) {
		live_free(lv);
		return NULL;
	}
	rc = uv_tcp_bind(&lv->server, (const struct sockaddr *)addr, 0);
	if (!rc)
		rc = uv_listen((uv_stream_t *)&lv->server, 64, server_accept);
	if (!rc)
		rc = uv_timer_start(&lv->reap, reap_idle, 1000, 1000);
	if (!rc)
		rc = uv_tcp_getsockname(&lv->server, (struct sockaddr *)&bound, &len);
	if (rc) {
		snprintf(why, whylen, "--live '%s': cannot listen: %s", arg, uv_strerror(rc));
		live_free(lv);
		return NULL;
	}
	if (bound.ss_family == AF_INET6) {
		uv_ip6_name((struct sockaddr_in6 *)&bound, host, sizeof(host));
		port = ntohs(((struct sockaddr_in6 *)&bound)->sin6_port);
		fprintf(stderr, "mmemu: live view at http://[%s]:%u/\n", host, port);
	} else {
		uv_ip4_name((struct sockaddr_in *)&bound, host, sizeof(host));
		port = ntohs(((struct sockaddr_in *)&bound)->sin_port);
		fprintf(stderr, "mmemu: live view at http://%s:%u/\n", host, port);
	}
	/* a client gone mid-write is an error from uv_write, not a signal */
	signal(SIGPIPE, SIG_IGN);
	return lv;
}

void live_wait_page(struct live *lv)
{
	fprintf(stderr, "mmemu: the runs start when a page has connected\n");
	while (!lv->connected)
		uv_run(&lv->loop, UV_RUN_ONCE);
}

static void on_tick(uv_timer_t *t)
{
	struct live *lv = t->data;

	lv->tick_fn(lv->tick_ctx);
}

void live_wait(struct live *lv, size_t run, void (*tick)(void *ctx), void *ctx)
{
	struct live_stream *st = &lv->streams[run];

	if (tick) {
		lv->tick_fn = tick;
		lv->tick_ctx = ctx;
		uv_timer_start(&lv->tick, on_tick, 250, 250);
	}
	while (st->open && !st->eof)
		uv_run(&lv->loop, UV_RUN_ONCE);
	uv_timer_stop(&lv->tick);
	/* the last row, were it cut short (the child died mid-line), is dropped */
	st->len = 0;
}

int live_run_done(struct live *lv, size_t run, const char *scenario, const Mmemu__Run *r)
{
	char why[256];
	json_t *o = view_run_json(scenario, r, why, sizeof(why));
	char *text, *m;

	if (!o) {
		fprintf(stderr, "mmemu: --live: %s\n", why);
		return -1;
	}
	/* the samples came as rows: the rest of what the saved view has */
	json_object_del(o, "samples");
	text = json_dumps(o, VIEW_JSON_FLAGS);
	json_decref(o);
	if (!text)
		oom();
	if (r->n_samples && r->n_samples != lv->streams[run].nr_rows)
		fprintf(stderr, "mmemu: --live: run '%s' sent %llu rows, its result has %zu\n",
			r->policy, (unsigned long long)lv->streams[run].nr_rows, r->n_samples);
	m = run_message(run, "final", text);
	free(text);
	live_append(lv, "run", m);
	free(m);
	return 0;
}

static void close_all(struct live *lv)
{
	uv_handle_t *hs[] = {
		(uv_handle_t *)&lv->server, (uv_handle_t *)&lv->tick, (uv_handle_t *)&lv->reap,
		(uv_handle_t *)&lv->sigint, (uv_handle_t *)&lv->sigterm,
	};

	for (size_t i = 0; i < sizeof(hs) / sizeof(hs[0]); i++)
		if (!uv_is_closing(hs[i]))
			uv_close(hs[i], NULL);
	for (struct live_client *c = lv->clients; c; c = c->next)
		client_close(c);
	for (size_t i = 0; i < lv->nr_runs; i++)
		if (lv->streams[i].open && !uv_is_closing((uv_handle_t *)&lv->streams[i].pipe))
			uv_close((uv_handle_t *)&lv->streams[i].pipe, NULL);
}

static void on_signal(uv_signal_t *h, int sig)
{
	(void)sig;
	close_all(h->data);
}

int live_serve_final(struct live *lv)
{
	live_append(lv, "end", "{}");
	uv_signal_start(&lv->sigint, on_signal, SIGINT);
	uv_signal_start(&lv->sigterm, on_signal, SIGTERM);
	fprintf(stderr, "mmemu: the runs are done; the live view keeps the final state "
			"until Ctrl-C\n");
	uv_run(&lv->loop, UV_RUN_DEFAULT);
	return 0;
}

void live_free(struct live *lv)
{
	if (!lv)
		return;
	close_all(lv);
	uv_run(&lv->loop, UV_RUN_DEFAULT);
	uv_loop_close(&lv->loop);
	for (size_t i = 0; i < lv->nr_log; i++)
		free(lv->log[i].text);
	for (size_t i = 0; i < lv->nr_runs; i++) {
		free(lv->streams[i].rbuf);
		free(lv->streams[i].line);
	}
	free(lv->log);
	free(lv->streams);
	free(lv->page);
	free(lv);
}
