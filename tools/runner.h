/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runner: child processes of this same binary under libuv, -j at a
 * time. Each child is started with uv_spawn in a process group of its own
 * (so that a kill reaches what it forks too), with MMEMU_PARENT_PID in its
 * environment (it then dies with this process, even a SIGKILLed one), its
 * stdout (and stderr, unless inherit_stderr) read through pipes, and killed
 * past the runner's
 * timeout; what it reads on stdin, and fds 3 and 4, are the caller's
 * (runner_spawn_io()). SIGINT, SIGTERM and SIGHUP kill every child and mark
 * the runner interrupted; a SIGPIPE (a child gone before it read its stdin)
 * is a failed write while the runner is open, not the end of this process. When a child has exited and both its pipes are drained, its
 * end (struct runner_exit) goes to the runner's on_exit.
 *
 * The progress line's ETA is written by runner_fmt_eta() for every command
 * that draws one.
 */
#ifndef MMEMU_TOOLS_RUNNER_H
#define MMEMU_TOOLS_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>
#include <uv.h>

struct runner;
struct runner_job;

/* How a child ended, with what it wrote. */
struct runner_exit {
	size_t index;		/* as given to runner_spawn() */
	const char *label;	/* as given to runner_spawn(), for messages */
	bool timed_out;		/* killed past the timeout */
	int term_signal;	/* the signal that ended it, or 0 */
	int64_t exit_status;
	const uint8_t *out;	/* its stdout, whole (empty after a read error) */
	size_t out_len;
	bool wrote_err;		/* it wrote something on stderr */
	const char *err_line;	/* the last non-empty line of that, without "mmemu: " */
};

struct runner {
	uv_loop_t loop;
	uv_timer_t progress;		/* redraws the progress line (a terminal only) */
	uv_signal_t sigint, sigterm, sighup;
	const char *exe;		/* this binary, as the children are started */
	char exe_buf[4096];
	char **env;			/* ours, and MMEMU_PARENT_PID=<our pid> */
	unsigned jobs;			/* children at a time */
	double timeout_s;		/* host seconds a child may run */
	size_t running;			/* children running now */
	bool tty;			/* stderr is a terminal: draw the progress line */
	bool inherit_stderr;		/* the children write on our stderr, not to a pipe */
	bool interrupted;		/* by SIGINT, SIGTERM or SIGHUP: every child killed */
	int interrupt_signal;		/* which */
	uint64_t start_ns;		/* uv_hrtime() at runner_open() */
	struct runner_job **slot;	/* [jobs], the children running */
	void *ctx;			/* the caller's, for its callbacks */
	void (*progress_fn)(struct runner *r);	/* what the progress timer calls */
	struct sigaction old_sigpipe;	/* SIGPIPE's action before runner_open() */
	/*
	 * A child ended; its handles close after this returns. Its slot is
	 * free already: on_exit may start the next child (runner_spawn()),
	 * which the same runner_run() then runs.
	 */
	void (*on_exit)(struct runner *r, const struct runner_exit *e);
};

/*
 * The loop, the signal handlers, this binary's path, the children's
 * environment and jobs slots. 0, or -1 (nothing to close).
 */
int runner_open(struct runner *r, unsigned jobs, double timeout_s);
/* Runs the loop until no child runs and nothing else is pending. */
void runner_run(struct runner *r);
/* Closes what runner_open() opened (after the children have ended). */
void runner_close(struct runner *r);

/* What a child gets besides its arguments (runner_spawn_io()). */
struct runner_io {
	const char *in;		/* written to its stdin, then closed (NULL: no stdin) */
	size_t in_len;
	int fds[2];		/* its fds 3 and 4 (-1: none), e.g. a memfd, a pipe's end */
};

/* Whether a slot is free (not while interrupted). */
bool runner_can_spawn(const struct runner *r);
/*
 * Starts this binary with args (after argv[0], NULL-terminated) as child
 * index, for messages label. 0, args and label taken over; else a libuv
 * error (negative), args and label still the caller's, nothing started.
 */
int runner_spawn(struct runner *r, size_t index, char **args, char *label);
/* runner_spawn() with io (copied: the caller's may go at once). */
int runner_spawn_io(struct runner *r, size_t index, char **args, char *label,
		    const struct runner_io *io);
/* SIGKILL to every child's process group (their ends still arrive). */
void runner_kill_all(struct runner *r);
/*
 * SIGKILL to the process group of the children started as index (their
 * ends still arrive, term_signal SIGKILL). How many were running.
 */
unsigned runner_kill(struct runner *r, size_t index);
/* runner_kill() of every child whose index is past index: later work not wanted. */
unsigned runner_kill_past(struct runner *r, size_t index);
/* Redraws with fn(r) every half second on a terminal, until runner_close(). */
void runner_progress_every(struct runner *r, void (*fn)(struct runner *r));
/* Host seconds since runner_open(). */
double runner_elapsed_s(const struct runner *r);

/* "42s", "3m05s" or "2.5h": an ETA for a progress line. */
void runner_fmt_eta(char *buf, size_t len, double s);

#endif
