/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu run --live [ADDR:]PORT: the page of mmemu view served over HTTP
 * (libuv) while the runs go, fed by server-sent events.
 *
 * Each run's child (`mmemu run --cell --cell-live`, tools/cmd_run.c) streams
 * its sample rows through a pipe of its own (its fd 4) as the
 * sampler makes them (run_opts.on_sample, one JSON row per line); the
 * parent appends each, as one event, to one log in the order they arrive,
 * and when a run's result is back, an event with what the saved view has
 * besides the samples (sim_seconds, the dump, the memcgs' limits); after
 * the last run, an "end" event. A browser's EventSource reads the log from
 * the start (or from Last-Event-ID + 1 when it reconnects), so a client that
 * comes mid-run gets everything so far, then what follows. Each client
 * keeps only its place in the log and one write in flight: memory grows
 * with the samples, not with the clients or their speed.
 */
#ifndef MMEMU_TOOLS_LIVE_H
#define MMEMU_TOOLS_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "scenarios/result.h"
#include "scenarios/scenario.h"

struct live;

/*
 * Listens on addr (arg: the option's text, for messages) and prints the
 * page's address on stderr. The runs are policy[i] under seed[i], i <
 * nr_runs. NULL with why.
 */
struct live *live_start(const struct sockaddr_storage *addr, const char *arg,
			const struct scenario *s, const char *const *policy, const uint64_t *seed,
			size_t nr_runs, char *why, size_t whylen);

/* Run i's sample rows arrive on fd (the read end of its child's pipe; the server closes it). */
int live_add_stream(struct live *lv, size_t run, int fd);

/* Serves until a page has asked for the event stream (--live-wait). */
void live_wait_page(struct live *lv);

/*
 * Serves until run i's rows have ended (its child closed the pipe: the run
 * is over, or failed), calling tick(ctx) every 250 ms if tick is not NULL.
 */
void live_wait(struct live *lv, size_t run, void (*tick)(void *ctx), void *ctx);

/* Run i's result is back: its sim_seconds, dump and limits as the saved view has them. */
int live_run_done(struct live *lv, size_t run, const char *scenario, const Mmemu__Run *r);

/*
 * Every run is done: the "end" event, then serves the final state until
 * SIGINT or SIGTERM. 0.
 */
int live_serve_final(struct live *lv);

/* Closes every connection and frees the server; NULL is fine. */
void live_free(struct live *lv);

#endif
