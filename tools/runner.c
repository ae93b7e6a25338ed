/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runner (tools/runner.h): children of this binary under libuv. What
 * a child is for, how its output reads and what its end means are the
 * caller's (sweep: a saved result on stdout; its messages name the run).
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/runner.h"
#include "tools/sweep.h"	/* MMEMU_PARENT_PID_ENV */

/* What a child wrote on one of its pipes. */
struct runner_buf {
	char *p;
	size_t len, cap;
};

struct runner_job {
	struct runner *r;
	size_t index;		/* as given to runner_spawn() */
	char *label;		/* as given to runner_spawn() */
	char **argv;		/* r->exe, then the caller's args (taken over) */
	uv_process_t proc;
	uv_pipe_t in, out, err;
	uv_write_t write_req;	/* its stdin's one write */
	char *in_buf;		/* what it is written (a copy) */
	bool in_closed;		/* uv_close() called on in */
	uv_timer_t timer;
	struct runner_buf obuf, ebuf;
	int open_handles;	/* handles not closed yet; the job is freed at 0 */
	bool exited, out_eof, err_eof, timed_out, finished;
	int64_t exit_status;
	int term_signal;
};

void runner_fmt_eta(char *buf, size_t len, double s)
{
	if (s < 100)
		snprintf(buf, len, "%.0fs", s);
	else if (s < 6000)
		snprintf(buf, len, "%.0fm%02.0fs", floor(s / 60), fmod(s, 60));
	else
		snprintf(buf, len, "%.1fh", s / 3600);
}

double runner_elapsed_s(const struct runner *r)
{
	return (double)(uv_hrtime() - r->start_ns) / 1e9;
}

static int buf_reserve(struct runner_buf *b, size_t more)
{
	if (b->cap - b->len >= more)
		return 0;
	size_t cap = b->cap ? b->cap : 65536;

	while (cap - b->len < more)
		cap *= 2;
	char *p = realloc(b->p, cap);

	if (!p)
		return -1;
	b->p = p;
	b->cap = cap;
	return 0;
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *out)
{
	struct runner_job *j = h->data;
	struct runner_buf *b = h == (uv_handle_t *)&j->out ? &j->obuf : &j->ebuf;

	if (buf_reserve(b, suggested)) {
		*out = uv_buf_init(NULL, 0);	/* read_cb gets UV_ENOBUFS */
		return;
	}
	*out = uv_buf_init(b->p + b->len, (unsigned)(b->cap - b->len));
}

static void job_free(struct runner_job *j)
{
	for (char **a = j->argv + 1; *a; a++)
		free(*a);
	free(j->argv);
	free(j->label);
	free(j->obuf.p);
	free(j->ebuf.p);
	free(j->in_buf);
	free(j);
}

static void on_close(uv_handle_t *h)
{
	struct runner_job *j = h->data;

	if (--j->open_handles == 0)
		job_free(j);
}

static void job_close_in(struct runner_job *j)
{
	if (!j->in_closed) {
		j->in_closed = true;
		uv_close((uv_handle_t *)&j->in, on_close);
	}
}

static void job_close(struct runner_job *j)
{
	job_close_in(j);
	uv_close((uv_handle_t *)&j->proc, on_close);
	uv_close((uv_handle_t *)&j->out, on_close);
	uv_close((uv_handle_t *)&j->err, on_close);
	uv_close((uv_handle_t *)&j->timer, on_close);
}

/* The last non-empty line of the child's stderr, without "mmemu: ". */
static const char *last_line(struct runner_buf *b)
{
	char *s, *nl;

	if (buf_reserve(b, 1))
		return "";
	b->p[b->len] = '\0';
	while (b->len && (b->p[b->len - 1] == '\n' || b->p[b->len - 1] == '\r'))
		b->p[--b->len] = '\0';
	nl = strrchr(b->p, '\n');
	s = nl ? nl + 1 : b->p;
	if (!strncmp(s, "mmemu: ", 7))
		s += 7;
	return s;
}

/* The child is gone and its pipes are drained: its end goes to on_exit. */
static void job_finish(struct runner_job *j)
{
	struct runner *r = j->r;
	struct runner_exit e = {
		.index = j->index,
		.label = j->label,
		.timed_out = j->timed_out,
		.term_signal = j->term_signal,
		.exit_status = j->exit_status,
		.out = (const uint8_t *)j->obuf.p,
		.out_len = j->obuf.len,
		.wrote_err = j->ebuf.len != 0,
	};

	j->finished = true;
	e.err_line = last_line(&j->ebuf);
	r->running--;
	for (unsigned s = 0; s < r->jobs; s++)
		if (r->slot[s] == j)
			r->slot[s] = NULL;
	r->on_exit(r, &e);
	job_close(j);
}

static void job_maybe_finish(struct runner_job *j)
{
	if (j->exited && j->out_eof && j->err_eof && !j->finished)
		job_finish(j);
}

static void on_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct runner_job *j = s->data;
	bool is_out = s == (uv_stream_t *)&j->out;

	(void)b;
	if (n > 0) {
		(is_out ? &j->obuf : &j->ebuf)->len += (size_t)n;
		return;
	}
	if (n == 0)
		return;	/* EAGAIN */
	/* EOF, or an error (the output will not parse, or the status tells) */
	uv_read_stop(s);
	if (n != UV_EOF && is_out)
		j->obuf.len = 0;
	*(is_out ? &j->out_eof : &j->err_eof) = true;
	job_maybe_finish(j);
}

static void on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	struct runner_job *j = p->data;

	j->exited = true;
	j->exit_status = status;
	j->term_signal = sig;
	job_maybe_finish(j);
}

static void on_timeout(uv_timer_t *t)
{
	struct runner_job *j = t->data;

	j->timed_out = true;
	kill(-j->proc.pid, SIGKILL);	/* the run and the process it forks */
}

/* Its stdin written (or the child gone): closed, so that it reads an end. */
static void on_written(uv_write_t *req, int status)
{
	struct runner_job *j = req->data;

	(void)status;
	job_close_in(j);
}

/* The child's stdin (a pipe when it is written something), stdout, stderr, fds 3 and 4. */
static void job_stdio(struct runner_job *j, const struct runner_io *io,
		      uv_stdio_container_t stdio[5])
{
	memset(stdio, 0, 5 * sizeof(*stdio));
	stdio[0].flags = UV_IGNORE;
	if (j->in_buf) {
		stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
		stdio[0].data.stream = (uv_stream_t *)&j->in;
	}
	stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	stdio[1].data.stream = (uv_stream_t *)&j->out;
	if (j->r->inherit_stderr) {
		stdio[2].flags = UV_INHERIT_FD;
		stdio[2].data.fd = STDERR_FILENO;
	} else {
		stdio[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
		stdio[2].data.stream = (uv_stream_t *)&j->err;
	}
	for (int k = 0; k < 2; k++) {
		stdio[3 + k].flags = io && io->fds[k] >= 0 ? UV_INHERIT_FD : UV_IGNORE;
		stdio[3 + k].data.fd = io ? io->fds[k] : -1;
	}
}

bool runner_can_spawn(const struct runner *r)
{
	if (r->interrupted)
		return false;
	for (unsigned s = 0; s < r->jobs; s++)
		if (!r->slot[s])
			return true;
	return false;
}

int runner_spawn(struct runner *r, size_t index, char **args, char *label)
{
	return runner_spawn_io(r, index, args, label, NULL);
}

int runner_spawn_io(struct runner *r, size_t index, char **args, char *label,
		    const struct runner_io *io)
{
	struct runner_job *j;
	uv_process_options_t o;
	uv_stdio_container_t stdio[5];
	size_t nargs = 0;
	unsigned slot;
	int rc;

	for (slot = 0; slot < r->jobs && r->slot[slot]; slot++)
		;
	if (slot == r->jobs || r->interrupted)
		return UV_EBUSY;
	while (args[nargs])
		nargs++;
	j = calloc(1, sizeof(*j));
	if (j)
		j->argv = calloc(nargs + 2, sizeof(*j->argv));
	if (!j || !j->argv) {
		free(j);
		return UV_ENOMEM;
	}
	j->argv[0] = (char *)r->exe;
	memcpy(j->argv + 1, args, (nargs + 1) * sizeof(*args));
	if (io && io->in) {
		j->in_buf = malloc(io->in_len ? io->in_len : 1);
		if (!j->in_buf) {
			free(j->argv);
			free(j);
			return UV_ENOMEM;
		}
		memcpy(j->in_buf, io->in, io->in_len);
	}
	j->r = r;
	j->index = index;
	uv_pipe_init(&r->loop, &j->in, 0);
	uv_pipe_init(&r->loop, &j->out, 0);
	uv_pipe_init(&r->loop, &j->err, 0);
	uv_timer_init(&r->loop, &j->timer);
	j->proc.data = j->in.data = j->out.data = j->err.data = j->timer.data = j;
	j->write_req.data = j;
	j->open_handles = 5;

	memset(&o, 0, sizeof(o));
	job_stdio(j, io, stdio);
	o.file = r->exe;
	o.args = j->argv;
	o.env = r->env;
	o.exit_cb = on_exit_cb;
	o.stdio = stdio;
	o.stdio_count = io && (io->fds[0] >= 0 || io->fds[1] >= 0) ? 5 : 3;
	o.flags = UV_PROCESS_DETACHED;	/* its own process group, killed as one */

	rc = uv_spawn(&r->loop, &j->proc, &o);
	j->proc.data = j;
	if (rc) {
		/* the caller's args stay the caller's: the job frees only its own */
		j->argv[1] = NULL;
		j->exited = j->out_eof = j->err_eof = j->finished = true;
		job_close(j);
		return rc;
	}
	free(args);
	j->label = label;
	r->running++;
	r->slot[slot] = j;
	uv_read_start((uv_stream_t *)&j->out, on_alloc, on_read);
	if (r->inherit_stderr)
		j->err_eof = true;	/* nothing to read */
	else
		uv_read_start((uv_stream_t *)&j->err, on_alloc, on_read);
	uv_timer_start(&j->timer, on_timeout, (uint64_t)(r->timeout_s * 1000), 0);
	if (j->in_buf) {
		uv_buf_t b = uv_buf_init(j->in_buf, (unsigned)io->in_len);

		if (uv_write(&j->write_req, (uv_stream_t *)&j->in, &b, 1, on_written))
			job_close_in(j);
	} else {
		job_close_in(j);
	}
	return 0;
}

void runner_kill_all(struct runner *r)
{
	for (unsigned s = 0; s < r->jobs; s++)
		if (r->slot[s])
			kill(-r->slot[s]->proc.pid, SIGKILL);
}

unsigned runner_kill(struct runner *r, size_t index)
{
	unsigned n = 0;

	for (unsigned s = 0; s < r->jobs; s++)
		if (r->slot[s] && r->slot[s]->index == index) {
			kill(-r->slot[s]->proc.pid, SIGKILL);
			n++;
		}
	return n;
}

unsigned runner_kill_past(struct runner *r, size_t index)
{
	unsigned n = 0;

	for (unsigned s = 0; s < r->jobs; s++)
		if (r->slot[s] && r->slot[s]->index > index) {
			kill(-r->slot[s]->proc.pid, SIGKILL);
			n++;
		}
	return n;
}

static void on_signal(uv_signal_t *h, int sig)
{
	struct runner *r = h->data;

	r->interrupted = true;
	r->interrupt_signal = sig;
	runner_kill_all(r);
}

static void on_progress_timer(uv_timer_t *t)
{
	struct runner *r = t->data;

	r->progress_fn(r);
}

void runner_progress_every(struct runner *r, void (*fn)(struct runner *r))
{
	if (!r->tty)
		return;
	r->progress_fn = fn;
	uv_timer_start(&r->progress, on_progress_timer, 500, 500);
	uv_unref((uv_handle_t *)&r->progress);
}

/*
 * This process's environment plus MMEMU_PARENT_PID=<our pid>: each child
 * then dies with this process (or its MPI rank), even when that is
 * SIGKILLed (child_follow_parent_env(), tools/child.c).
 */
static char **child_env(void)
{
	extern char **environ;
	size_t n = 0, k = 0;
	char **env;

	while (environ[n])
		n++;
	env = calloc(n + 2, sizeof(*env));
	if (!env)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strncmp(environ[i], MMEMU_PARENT_PID_ENV "=", sizeof(MMEMU_PARENT_PID_ENV)))
			env[k++] = environ[i];
	if (asprintf(&env[k], MMEMU_PARENT_PID_ENV "=%ld", (long)getpid()) < 0) {
		free(env);
		return NULL;
	}
	env[++k] = NULL;
	return env;
}

static void child_env_free(char **env)
{
	size_t k = 0;

	if (!env)
		return;
	while (env[k + 1])
		k++;
	free(env[k]);	/* the MMEMU_PARENT_PID= we printed, always last */
	free(env);
}

/* The children are this binary: its path, else /proc/self/exe. */
static void find_exe(struct runner *r)
{
	ssize_t n = readlink("/proc/self/exe", r->exe_buf, sizeof(r->exe_buf) - 1);

	r->exe = "/proc/self/exe";
	if (n > 0) {
		r->exe_buf[n] = '\0';
		if (access(r->exe_buf, X_OK) == 0)
			r->exe = r->exe_buf;
	}
}

/* A write to a child's stdin that it will not read fails; the process goes on. */
static void on_sigpipe(int sig)
{
	(void)sig;
}

int runner_open(struct runner *r, unsigned jobs, double timeout_s)
{
	/* a handler, not SIG_IGN: the children (exec) get SIGPIPE's default back */
	struct sigaction sa = { .sa_handler = on_sigpipe };

	r->jobs = jobs;
	r->timeout_s = timeout_s;
	find_exe(r);
	r->slot = calloc(jobs, sizeof(*r->slot));
	r->env = child_env();
	if (!r->slot || !r->env || uv_loop_init(&r->loop)) {
		free(r->slot);
		child_env_free(r->env);
		r->slot = NULL;
		r->env = NULL;
		return -1;
	}
	fflush(NULL);
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, &r->old_sigpipe);
	uv_timer_init(&r->loop, &r->progress);
	r->progress.data = r;
	uv_signal_init(&r->loop, &r->sigint);
	uv_signal_init(&r->loop, &r->sigterm);
	uv_signal_init(&r->loop, &r->sighup);
	r->sigint.data = r->sigterm.data = r->sighup.data = r;
	uv_signal_start(&r->sigint, on_signal, SIGINT);
	uv_signal_start(&r->sigterm, on_signal, SIGTERM);
	uv_signal_start(&r->sighup, on_signal, SIGHUP);
	uv_unref((uv_handle_t *)&r->sigint);
	uv_unref((uv_handle_t *)&r->sigterm);
	uv_unref((uv_handle_t *)&r->sighup);
	r->tty = isatty(STDERR_FILENO);
	r->start_ns = uv_hrtime();
	return 0;
}

void runner_run(struct runner *r)
{
	uv_run(&r->loop, UV_RUN_DEFAULT);
}

void runner_close(struct runner *r)
{
	uv_close((uv_handle_t *)&r->progress, NULL);
	uv_close((uv_handle_t *)&r->sigint, NULL);
	uv_close((uv_handle_t *)&r->sigterm, NULL);
	uv_close((uv_handle_t *)&r->sighup, NULL);
	uv_run(&r->loop, UV_RUN_DEFAULT);
	uv_loop_close(&r->loop);
	sigaction(SIGPIPE, &r->old_sigpipe, NULL);
	child_env_free(r->env);
	free(r->slot);
}
