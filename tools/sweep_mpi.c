/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu sweep --mpi: one sweep over the ranks of an MPI job (mpirun -n N,
 * srun -n N).
 *
 * Rank 0 owns the plan (tools/sweep.c): it hands out one run at a time, as
 * the run's command line, to whichever rank has a free slot (its own
 * included), in the plan's order (largest estimate first). Every rank runs
 * what it is given as a local sweep does (a child process per run,
 * --timeout, failures as messages naming the run) and sends back each
 * outcome: the packed mmemu.Run, or the message. Rank 0 files them with
 * sweep_collect() into the fixed merge order and prints and saves them with
 * the code a local sweep uses, so the output does not depend on the layout.
 *
 * A rank that dies. Measured with Open MPI 4.1.4 here: a send to a peer
 * killed with SIGKILL returns MPI_SUCCESS, and nothing else reports it; so
 * every rank sends a heartbeat each second and rank 0 declares a rank
 * silent for --rank-timeout lost: its runs in flight fail, named, and the
 * rest go to the others (rank 0 itself always has slots, so the sweep
 * ends). An error MPI does return (MPI_ERRORS_RETURN) loses the rank at
 * once. A worker that hears nothing from rank 0 for --rank-timeout, once
 * it has heard from it, kills its children and exits 2. Whether the
 * survivors live on is the launcher's choice: Open MPI's mpirun kills the
 * whole job when a rank dies unless it runs with --enable-recovery (and
 * then, in 4.1, exits 0 whatever the ranks return); srun keeps the other
 * tasks unless --kill-on-bad-exit.
 *
 * Every message is bytes (MPI_BYTE), sent and received without blocking from
 * libuv timers, so the children's pipes and MPI share the one thread.
 */
#include <limits.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "tools/sweep_run.h"

enum {
	TAG_HELLO = 1,	/* worker -> 0: u32 slots, then its host name */
	TAG_RUN,	/* 0 -> worker: u64 index, then params and each argument, each NUL-ended */
	TAG_OUTCOME,	/* worker -> 0: u64 index, u8 ok, then the packed mmemu.Run or message */
	TAG_BEAT,	/* either way, empty: still here */
	TAG_STOP,	/* 0 -> worker: u8 "a rank was lost"; no more runs, kill any left, finish */
};

#define POLL_MS 5	/* estimate: MPI polling period; a run lasts seconds, a dispatch waits this */
#define BEAT_MS 1000	/* heartbeat period; --rank-timeout (default 30 s) is many of them */
#define DRAIN_MS 1000	/* how long sends may take to complete at the end */
#define MAX_SLOTS 256	/* -j's bound */

struct msg_out {
	MPI_Request req;
	uint8_t *buf;
	int dest;
	struct msg_out *next;
};

struct msg_in {
	MPI_Request req;
	uint8_t *buf;
	int len, source, tag;
	struct msg_in *next;
};

struct peer {
	char host[64];		/* from its hello */
	unsigned slots, busy;	/* runs it takes at a time, runs it has */
	bool hello, lost;
	uint64_t heard_ms;	/* uv_now() when a message of it last matched */
};

struct sweep_mpi {
	int rank, size;
	uv_timer_t poll, beat;
	bool timers;		/* poll and beat initialised */
	struct peer *peers;	/* rank 0: by rank (0 unused) */
	int *owner;		/* rank 0: by run, the rank running it, 0 if none */
	struct msg_out *outbox;
	struct msg_in *inbox;
	uint64_t heard0_ms;	/* worker: rank 0's last message (0: none yet) */
	bool stopped;		/* rank 0: stop sent; worker: stop received or given up */
	bool lost;		/* a rank was lost: no MPI_Finalize (below) */
	int status;		/* worker: exit status */
	char host[64];
};

static void put_u64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_u64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static const char *mpi_strerror(int rc, char *buf)
{
	int len = 0;

	if (MPI_Error_string(rc, buf, &len) != MPI_SUCCESS)
		snprintf(buf, MPI_MAX_ERROR_STRING, "MPI error %d", rc);
	return buf;
}

/* Sends len bytes of buf (taken over) to dest without waiting. An MPI error code. */
static int send_msg(struct sweep_mpi *m, int dest, int tag, uint8_t *buf, size_t len)
{
	struct msg_out *o = calloc(1, sizeof(*o));
	int rc;

	if (!o || len > INT_MAX) {
		free(o);
		free(buf);
		return MPI_ERR_COUNT;
	}
	o->buf = buf;
	o->dest = dest;
	rc = MPI_Isend(buf, (int)len, MPI_BYTE, dest, tag, MPI_COMM_WORLD, &o->req);
	if (rc != MPI_SUCCESS) {
		free(buf);
		free(o);
		return rc;
	}
	o->next = m->outbox;
	m->outbox = o;
	return MPI_SUCCESS;
}

/* Frees the sends that completed. */
static void outbox_reap(struct sweep_mpi *m)
{
	for (struct msg_out **pp = &m->outbox; *pp;) {
		struct msg_out *o = *pp;
		int flag = 0;

		if (MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			flag = 1;	/* the error tells of a lost rank; the heartbeat will too */
		if (!flag) {
			pp = &o->next;
			continue;
		}
		*pp = o->next;
		free(o->buf);
		free(o);
	}
}

/* Waits up to DRAIN_MS for the sends to complete, then leaves the rest (lost peers). */
static void outbox_drain(struct sweep_mpi *m)
{
	double end = MPI_Wtime() + DRAIN_MS / 1000.0;

	for (outbox_reap(m); m->outbox && MPI_Wtime() < end; outbox_reap(m))
		usleep(1000);
}

static void handle(struct sweep *sw, int source, int tag, const uint8_t *buf, int len);

/* Starts receiving every message that arrived; handles those complete. */
static void inbox_poll(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;
	uint64_t now = uv_now(&sw->rn.loop);

	for (;;) {
		MPI_Message msg;
		MPI_Status st;
		struct msg_in *in, **tail;
		int flag = 0, len = 0;

		if (MPI_Improbe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &msg, &st) !=
			    MPI_SUCCESS || !flag)
			break;
		MPI_Get_count(&st, MPI_BYTE, &len);
		in = calloc(1, sizeof(*in));
		if (!in || !(in->buf = malloc(len > 0 ? (size_t)len : 1))) {
			fprintf(stderr, "mmemu: out of memory\n");
			exit(2);
		}
		in->len = len;
		in->source = st.MPI_SOURCE;
		in->tag = st.MPI_TAG;
		if (MPI_Imrecv(in->buf, len, MPI_BYTE, &msg, &in->req) != MPI_SUCCESS) {
			free(in->buf);
			free(in);
			break;
		}
		for (tail = &m->inbox; *tail; tail = &(*tail)->next)
			;
		*tail = in;	/* handled in the order they matched: runs start as sent */
		if (m->rank == 0 && st.MPI_SOURCE > 0 && st.MPI_SOURCE < m->size)
			m->peers[st.MPI_SOURCE].heard_ms = now;
		else if (m->rank != 0 && st.MPI_SOURCE == 0)
			m->heard0_ms = now;
	}
	for (struct msg_in **pp = &m->inbox; *pp;) {
		struct msg_in *in = *pp;
		int flag = 0;

		if (MPI_Test(&in->req, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
			*pp = in->next;	/* its sender is gone: the heartbeat tells */
			free(in->buf);
			free(in);
			continue;
		}
		if (!flag) {
			pp = &in->next;
			continue;
		}
		*pp = in->next;
		handle(sw, in->source, in->tag, in->buf, in->len);
		free(in->buf);
		free(in);
	}
}

static void stop_timers(struct sweep_mpi *m)
{
	if (!m->timers)
		return;
	uv_timer_stop(&m->poll);
	uv_timer_stop(&m->beat);
}

static void close_timers(struct sweep_mpi *m)
{
	if (!m->timers)
		return;
	uv_close((uv_handle_t *)&m->poll, NULL);
	uv_close((uv_handle_t *)&m->beat, NULL);
	m->timers = false;
}

/*
 * MPI_Finalize waits for every rank (a PMIx fence over the job). Measured
 * with Open MPI 4.1.4 under mpirun --enable-recovery: after one of the
 * sweep's ranks was killed, rank 0 and the other worker stayed in it for
 * good (a minimal MPI program without children got through; the cause was
 * not found). So after a loss every rank exits without it, which the
 * launcher that kept them running accepts.
 */
static void finalize(struct sweep_mpi *m)
{
	if (!m->lost)
		MPI_Finalize();
}

/* ---- rank 0: the dispatcher ---- */

static void rank0_more(struct sweep *sw);

/* Rank r is gone: its runs in flight fail, by name; the others go on. */
static void lose_rank(struct sweep *sw, int r, const char *why)
{
	struct sweep_mpi *m = sw->m;
	struct peer *p = &m->peers[r];

	if (p->lost)
		return;
	p->lost = true;
	m->lost = true;
	sweep_report(sw, "rank %d%s%s%s lost: %s", r, *p->host ? " (" : "", p->host,
		     *p->host ? ")" : "", why);
	for (size_t i = 0; i < sw->total; i++) {
		char *params, *msg;

		if (m->owner[i] != r)
			continue;
		m->owner[i] = 0;
		p->busy--;
		sw->remote--;
		params = sweep_run_params(sw, i);
		if (asprintf(&msg, "run %s failed: rank %d lost", params, r) < 0)
			msg = NULL;
		sweep_collect(sw, i, false, (const uint8_t *)msg, msg ? strlen(msg) : 0);
		free(params);
		free(msg);
	}
	if (!sw->rn.interrupted)
		rank0_more(sw);
	sweep_progress(sw);
}

/* Sends run index to rank r: the index, then its parameters and arguments. */
static int send_run(struct sweep *sw, int r, size_t index)
{
	char **args = sweep_run_args(sw, index), *params = sweep_run_params(sw, index);
	size_t len = 8 + strlen(params) + 1, off;
	uint8_t *buf;
	int rc;

	for (char **a = args; *a; a++)
		len += strlen(*a) + 1;
	buf = malloc(len);
	if (!buf) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	put_u64(buf, index);
	off = 8;
	memcpy(buf + off, params, strlen(params) + 1);
	off += strlen(params) + 1;
	for (char **a = args; *a; a++) {
		memcpy(buf + off, *a, strlen(*a) + 1);
		off += strlen(*a) + 1;
		free(*a);
	}
	free(args);
	free(params);
	rc = send_msg(sw->m, r, TAG_RUN, buf, len);
	return rc;
}

/* A slot came free somewhere: fill this rank's, then each other rank's in rank order. */
static void rank0_more(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;
	size_t index;

	while (sw->rn.running < sw->rn.jobs && sweep_next_run(sw, &index))
		sweep_job_start_planned(sw, index);
	for (int r = 1; r < m->size; r++) {
		struct peer *p = &m->peers[r];

		while (p->hello && !p->lost && p->busy < p->slots && sweep_next_run(sw, &index)) {
			char err[MPI_MAX_ERROR_STRING];
			int rc = send_run(sw, r, index);

			if (rc != MPI_SUCCESS) {
				sw->next--;	/* it never left: it goes to someone else */
				lose_rank(sw, r, mpi_strerror(rc, err));
				return;	/* lose_rank handed it out again */
			}
			m->owner[index] = r;
			p->busy++;
			sw->remote++;
		}
	}
}

static void rank0_handle(struct sweep *sw, int r, int tag, const uint8_t *buf, int len)
{
	struct sweep_mpi *m = sw->m;
	struct peer *p = &m->peers[r];

	if (r <= 0 || r >= m->size || p->lost)
		return;	/* a lost rank's late words: its runs were already reported */
	if (tag == TAG_HELLO && len >= 4 && !p->hello) {
		unsigned slots = (unsigned)buf[0] | (unsigned)buf[1] << 8 | (unsigned)buf[2] << 16 |
				 (unsigned)buf[3] << 24;

		p->slots = slots < 1 ? 1 : slots > MAX_SLOTS ? MAX_SLOTS : slots;
		snprintf(p->host, sizeof(p->host), "%.*s", len - 4, (const char *)buf + 4);
		p->hello = true;
		if (!sw->rn.interrupted)
			rank0_more(sw);
	} else if (tag == TAG_OUTCOME && len >= 9) {
		size_t index = (size_t)get_u64(buf);

		if (index >= sw->total || m->owner[index] != r)
			return;
		m->owner[index] = 0;
		p->busy--;
		sw->remote--;
		sweep_collect(sw, index, buf[8] != 0, buf + 9, (size_t)len - 9);
		if (!sw->rn.interrupted)
			rank0_more(sw);
		sweep_progress(sw);
	}
}

static void rank0_stop(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;

	if (m->stopped)
		return;
	m->stopped = true;
	for (int r = 1; r < m->size; r++) {
		uint8_t *lost = malloc(1);

		if (!lost) {
			fprintf(stderr, "mmemu: out of memory\n");
			exit(2);
		}
		*lost = m->lost;
		send_msg(m, r, TAG_STOP, lost, 1);
	}
}

static void rank0_on_poll(uv_timer_t *t)
{
	struct sweep *sw = t->data;
	struct sweep_mpi *m = sw->m;

	inbox_poll(sw);
	outbox_reap(m);
	if (sw->rn.interrupted || sw->done == sw->total) {
		/* the loop ends when this rank's children are closed */
		stop_timers(m);
		rank0_stop(sw);
	}
}

static void rank0_on_beat(uv_timer_t *t)
{
	struct sweep *sw = t->data;
	struct sweep_mpi *m = sw->m;
	uint64_t now = uv_now(&sw->rn.loop), limit = (uint64_t)(sw->rank_timeout_s * 1000);

	for (int r = 1; r < m->size; r++) {
		struct peer *p = &m->peers[r];
		char why[64];

		if (p->lost)
			continue;
		if (now - p->heard_ms > limit) {
			snprintf(why, sizeof(why), "silent for %gs", sw->rank_timeout_s);
			lose_rank(sw, r, why);
			continue;
		}
		send_msg(m, r, TAG_BEAT, NULL, 0);
	}
}

static const struct sweep_ops rank0_ops = {
	.outcome = sweep_collect,
	.more = rank0_more,
};

void sweep_mpi_run(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;
	uint64_t now;

	m->peers = calloc((size_t)m->size, sizeof(*m->peers));
	m->owner = calloc(sw->total, sizeof(*m->owner));
	if (!m->peers || !m->owner) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	sw->ops = &rank0_ops;
	uv_update_time(&sw->rn.loop);
	now = uv_now(&sw->rn.loop);
	for (int r = 1; r < m->size; r++)
		m->peers[r].heard_ms = now;	/* each has --rank-timeout to say hello */
	uv_timer_init(&sw->rn.loop, &m->poll);
	uv_timer_init(&sw->rn.loop, &m->beat);
	m->poll.data = m->beat.data = sw;
	m->timers = true;
	uv_timer_start(&m->poll, rank0_on_poll, POLL_MS, POLL_MS);
	uv_timer_start(&m->beat, rank0_on_beat, BEAT_MS, BEAT_MS);
	rank0_more(sw);
	sweep_progress(sw);
	uv_run(&sw->rn.loop, UV_RUN_DEFAULT);
	rank0_stop(sw);
	close_timers(m);
	uv_run(&sw->rn.loop, UV_RUN_DEFAULT);	/* the timers live in m: closed before it goes */
}

void sweep_mpi_finish(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;

	rank0_stop(sw);
	close_timers(m);
	outbox_drain(m);
	finalize(m);
	free(m->peers);
	free(m->owner);
	free(m);
	sw->m = NULL;
}

/* ---- the other ranks: workers ---- */

static void worker_give_up(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;

	m->stopped = true;
	sw->rn.interrupted = true;	/* the children's ends are not reported */
	sweep_kill_children(sw);
	stop_timers(m);
}

static void worker_outcome(struct sweep *sw, size_t index, bool ok, const uint8_t *data,
			   size_t len)
{
	struct sweep_mpi *m = sw->m;
	char err[MPI_MAX_ERROR_STRING];
	uint8_t *buf;
	int rc;

	if (m->stopped || sw->rn.interrupted)
		return;
	if (len > (size_t)INT_MAX - 9) {
		static const char msg[] = "a result larger than 2 GiB does not fit one MPI message";

		ok = false;
		data = (const uint8_t *)msg;
		len = sizeof(msg) - 1;
	}
	buf = malloc(9 + len);
	if (!buf) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	put_u64(buf, index);
	buf[8] = ok;
	if (len)
		memcpy(buf + 9, data, len);
	rc = send_msg(m, 0, TAG_OUTCOME, buf, 9 + len);
	if (rc != MPI_SUCCESS) {
		sweep_report(sw, "rank %d: cannot reach rank 0: %s", m->rank, mpi_strerror(rc, err));
		m->status = 2;
		m->lost = true;
		worker_give_up(sw);
	}
}

static void worker_run(struct sweep *sw, const uint8_t *buf, int len)
{
	const char *p = (const char *)buf + 8, *end = (const char *)buf + len;
	size_t index = (size_t)get_u64(buf), nargs = 0;
	char **args, *params;

	if (end[-1] != '\0')
		return;	/* not ours */
	for (const char *q = p; q < end; q += strlen(q) + 1)
		nargs++;
	if (nargs < 2)
		return;
	args = calloc(nargs, sizeof(*args));
	params = strdup(p);
	if (!args || !params) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	p += strlen(p) + 1;
	for (size_t i = 0; p < end; p += strlen(p) + 1, i++)
		if (!(args[i] = strdup(p))) {
			fprintf(stderr, "mmemu: out of memory\n");
			exit(2);
		}
	sweep_job_start(sw, index, args, params);
}

static void worker_handle(struct sweep *sw, int source, int tag, const uint8_t *buf, int len)
{
	if (source != 0 || sw->m->stopped)
		return;
	if (tag == TAG_RUN && len > 8)
		worker_run(sw, buf, len);
	else if (tag == TAG_STOP) {
		sw->m->lost = len > 0 && buf[0];
		worker_give_up(sw);
	}
}

static void handle(struct sweep *sw, int source, int tag, const uint8_t *buf, int len)
{
	if (sw->m->rank == 0)
		rank0_handle(sw, source, tag, buf, len);
	else
		worker_handle(sw, source, tag, buf, len);
}

static void worker_on_poll(uv_timer_t *t)
{
	struct sweep *sw = t->data;

	inbox_poll(sw);
	outbox_reap(sw->m);
	if (sw->rn.interrupted && !sw->m->stopped) {
		sw->m->status = 130;	/* a signal: the launcher is ending the job */
		worker_give_up(sw);
	}
}

static void worker_on_beat(uv_timer_t *t)
{
	struct sweep *sw = t->data;
	struct sweep_mpi *m = sw->m;
	uint64_t now = uv_now(&sw->rn.loop);

	if (m->heard0_ms && now - m->heard0_ms > (uint64_t)(sw->rank_timeout_s * 1000)) {
		sweep_report(sw, "rank %d: nothing from rank 0 for %gs: stopping", m->rank,
			     sw->rank_timeout_s);
		m->status = 2;
		m->lost = true;
		worker_give_up(sw);
		return;
	}
	send_msg(m, 0, TAG_BEAT, NULL, 0);
}

static const struct sweep_ops worker_ops = {
	.outcome = worker_outcome,
	.more = NULL,
};

static int worker_main(struct sweep *sw)
{
	struct sweep_mpi *m = sw->m;
	size_t hl = strlen(m->host);
	uint8_t *hello = malloc(4 + hl);
	int status;

	if (!hello) {
		fprintf(stderr, "mmemu: out of memory\n");
		exit(2);
	}
	sw->ops = &worker_ops;
	sw->rn.tty = false;
	for (int i = 0; i < 4; i++)
		hello[i] = (uint8_t)(sw->rn.jobs >> (8 * i));
	memcpy(hello + 4, m->host, hl);
	send_msg(m, 0, TAG_HELLO, hello, 4 + hl);
	uv_timer_init(&sw->rn.loop, &m->poll);
	uv_timer_init(&sw->rn.loop, &m->beat);
	m->poll.data = m->beat.data = sw;
	m->timers = true;
	uv_timer_start(&m->poll, worker_on_poll, POLL_MS, POLL_MS);
	uv_timer_start(&m->beat, worker_on_beat, BEAT_MS, BEAT_MS);
	uv_run(&sw->rn.loop, UV_RUN_DEFAULT);
	close_timers(m);
	uv_run(&sw->rn.loop, UV_RUN_DEFAULT);
	outbox_drain(m);
	finalize(m);
	status = m->status;
	free(m);
	sw->m = NULL;
	return status;
}

int sweep_mpi_start(struct sweep *sw)
{
	struct sweep_mpi *m = calloc(1, sizeof(*m));
	char err[MPI_MAX_ERROR_STRING];
	int rc;

	if (!m) {
		fprintf(stderr, "mmemu: out of memory\n");
		return 2;
	}
	rc = MPI_Init(NULL, NULL);
	if (rc != MPI_SUCCESS) {
		fprintf(stderr, "mmemu: sweep: --mpi: MPI_Init: %s\n", mpi_strerror(rc, err));
		free(m);
		return 2;
	}
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &m->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m->size);
	if (gethostname(m->host, sizeof(m->host) - 1))
		m->host[0] = '\0';
	sw->m = m;
	if (m->rank == 0)
		return -1;
	return worker_main(sw);
}
