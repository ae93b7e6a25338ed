/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The runner of tools/runner.h on children of this test binary itself
 * (argv[1] says what a child does): -j at a time and no more, each child's
 * stdout whole and its last stderr line, its exit status, a child past the
 * timeout killed and said so; one child killed by its index, or those
 * past an index, and work started from on_exit in the same loop; and the
 * progress line's ETA.
 */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/runner.h"

#define NR_CHILDREN 5

struct seen {
	size_t started, ended, most_running;
	struct runner_exit e[NR_CHILDREN];
	char out[NR_CHILDREN][64], err[NR_CHILDREN][64];
};

static char **child_args(size_t i)
{
	char **a = calloc(4, sizeof(*a));

	ck_assert_ptr_nonnull(a);
	if (i == 3) {
		a[0] = strdup("sleep");
	} else {
		a[0] = strdup("echo");
		ck_assert_int_ge(asprintf(&a[1], "out %zu", i), 0);
		ck_assert_int_ge(asprintf(&a[2], "%zu", i), 0);	/* its exit status */
	}
	return a;
}

static void start_more(struct runner *r)
{
	struct seen *s = r->ctx;

	while (s->started < NR_CHILDREN && runner_can_spawn(r)) {
		char *label;

		ck_assert_int_ge(asprintf(&label, "child %zu", s->started), 0);
		ck_assert_int_eq(runner_spawn(r, s->started, child_args(s->started), label), 0);
		s->started++;
		if (r->running > s->most_running)
			s->most_running = r->running;
	}
}

static void on_exit_rec(struct runner *r, const struct runner_exit *e)
{
	struct seen *s = r->ctx;

	ck_assert_uint_lt(e->index, NR_CHILDREN);
	s->e[e->index] = *e;
	snprintf(s->out[e->index], sizeof(s->out[0]), "%.*s", (int)e->out_len, (const char *)e->out);
	snprintf(s->err[e->index], sizeof(s->err[0]), "%s", e->err_line);
	s->ended++;
	start_more(r);
}

START_TEST(test_runner_children)
{
	static struct runner r;
	struct seen s = { 0 };

	ck_assert_int_eq(runner_open(&r, 2, 1.0), 0);
	r.ctx = &s;
	r.on_exit = on_exit_rec;
	start_more(&r);
	ck_assert(!runner_can_spawn(&r));	/* two running: no third slot */
	runner_run(&r);
	runner_close(&r);
	ck_assert_uint_eq(s.ended, NR_CHILDREN);
	ck_assert_uint_eq(s.most_running, 2);
	for (size_t i = 0; i < NR_CHILDREN; i++) {
		char want[32];

		if (i == 3) {
			ck_assert(s.e[i].timed_out);
			ck_assert_int_eq(s.e[i].term_signal, SIGKILL);
			continue;
		}
		snprintf(want, sizeof(want), "out %zu", i);
		ck_assert(!s.e[i].timed_out);
		ck_assert_int_eq(s.e[i].exit_status, (int64_t)i);
		ck_assert_str_eq(s.out[i], want);
		ck_assert(s.e[i].wrote_err);
		ck_assert_str_eq(s.err[i], "oops");	/* "mmemu: " cut */
	}
}
END_TEST

static void on_exit_cat(struct runner *r, const struct runner_exit *e)
{
	char *out = r->ctx;

	snprintf(out, 64, "%d %.*s", (int)e->exit_status, (int)e->out_len, (const char *)e->out);
}

/* What a child reads on stdin, and its fd 4: the caller's (runner_spawn_io()). */
START_TEST(test_runner_io)
{
	static struct runner r;
	struct runner_io io = { .in = "from stdin", .in_len = 10, .fds = { -1, -1 } };
	char out[64] = "", from4[32] = "", **args = calloc(2, sizeof(*args));
	int p[2];
	ssize_t n;

	ck_assert_int_eq(pipe(p), 0);
	io.fds[1] = p[1];
	args[0] = strdup("cat");
	ck_assert_int_eq(runner_open(&r, 1, 10.0), 0);
	r.ctx = out;
	r.on_exit = on_exit_cat;
	ck_assert_int_eq(runner_spawn_io(&r, 0, args, strdup("cat"), &io), 0);
	close(p[1]);
	runner_run(&r);
	runner_close(&r);
	ck_assert_str_eq(out, "0 from stdin");
	n = read(p[0], from4, sizeof(from4) - 1);
	ck_assert_int_eq(n, 7);
	from4[n] = '\0';
	ck_assert_str_eq(from4, "to fd 4");
	close(p[0]);
}
END_TEST

/* What test_runner_kill saw: each child's end, in order. */
struct killed {
	int ended[5];		/* 1 + the order it ended in, 0: not yet */
	int nr_ended;
	struct runner_exit e[5];
	char out[5][16];
	unsigned killed_late;	/* runner_kill*() from the on_exit of child 4 */
};

static char **args_of(const char *a0, const char *a1, const char *a2)
{
	char **a = calloc(4, sizeof(*a));

	ck_assert_ptr_nonnull(a);
	a[0] = strdup(a0);
	a[1] = a1 ? strdup(a1) : NULL;
	a[2] = a2 ? strdup(a2) : NULL;
	return a;
}

static void on_exit_kill(struct runner *r, const struct runner_exit *e)
{
	struct killed *k = r->ctx;

	ck_assert_uint_lt(e->index, 5);
	k->e[e->index] = *e;
	k->ended[e->index] = ++k->nr_ended;
	snprintf(k->out[e->index], sizeof(k->out[0]), "%.*s", (int)e->out_len,
		 (const char *)e->out);
	/* 1 and 3 killed: new work from on_exit, in this same loop */
	if (k->ended[1] && k->ended[3] && !k->ended[4] && (e->index == 1 || e->index == 3)) {
		ck_assert(runner_can_spawn(r));
		ck_assert_int_eq(runner_spawn(r, 4, args_of("echo", "out 4", "4"),
					      strdup("child 4")), 0);
	}
	/* it ended: 0 and 2 still sleep; now them, one by its index, one as past 0 */
	if (e->index == 4) {
		ck_assert(!k->ended[0] && !k->ended[2]);
		k->killed_late = runner_kill_past(r, 0) * 10 + runner_kill(r, 0);
	}
}

/*
 * runner_kill() ends the one child of an index, runner_kill_past() those
 * after an index, and the others run on; a child started from on_exit runs
 * in the same runner_run().
 */
START_TEST(test_runner_kill)
{
	static struct runner r;
	struct killed k = { 0 };

	ck_assert_int_eq(runner_open(&r, 4, 30.0), 0);
	r.ctx = &k;
	r.on_exit = on_exit_kill;
	for (size_t i = 0; i < 4; i++)
		ck_assert_int_eq(runner_spawn(&r, i, args_of("sleep", NULL, NULL), strdup("sleep")), 0);
	ck_assert_uint_eq(runner_kill(&r, 1), 1);
	ck_assert_uint_eq(runner_kill_past(&r, 2), 1);	/* 3 */
	ck_assert_uint_eq(runner_kill(&r, 9), 0);
	runner_run(&r);
	ck_assert_double_lt(runner_elapsed_s(&r), 20.0);	/* killed, not timed out */
	runner_close(&r);
	ck_assert_int_eq(k.nr_ended, 5);
	ck_assert_uint_eq(k.killed_late, 11);	/* 2 past 0, then 0 */
	for (size_t i = 0; i < 4; i++) {
		ck_assert_int_eq(k.e[i].term_signal, SIGKILL);
		ck_assert(!k.e[i].timed_out);
	}
	ck_assert_int_gt(k.ended[4], k.ended[1]);
	ck_assert_int_gt(k.ended[4], k.ended[3]);
	ck_assert_int_gt(k.ended[0], k.ended[4]);
	ck_assert_int_gt(k.ended[2], k.ended[4]);
	ck_assert_int_eq(k.e[4].exit_status, 4);
	ck_assert_str_eq(k.out[4], "out 4");
}
END_TEST

START_TEST(test_runner_eta)
{
	char buf[32];

	runner_fmt_eta(buf, sizeof(buf), 42);
	ck_assert_str_eq(buf, "42s");
	runner_fmt_eta(buf, sizeof(buf), 185);
	ck_assert_str_eq(buf, "3m05s");
	runner_fmt_eta(buf, sizeof(buf), 9000);
	ck_assert_str_eq(buf, "2.5h");
}
END_TEST

int main(int argc, char **argv)
{
	Suite *s;
	TCase *tc;
	SRunner *sr;
	int failed;

	/* a child of the runner: this binary again */
	if (argc == 4 && !strcmp(argv[1], "echo")) {
		fputs(argv[2], stdout);
		fputs("mmemu: first\nmmemu: oops\n", stderr);
		return atoi(argv[3]);
	}
	if (argc == 2 && !strcmp(argv[1], "cat")) {
		char buf[64];
		size_t n = fread(buf, 1, sizeof(buf), stdin);

		fwrite(buf, 1, n, stdout);
		return write(4, "to fd 4", 7) == 7 ? 0 : 1;
	}
	if (argc == 2 && !strcmp(argv[1], "sleep")) {
		sleep(60);
		return 0;
	}
	s = suite_create("runner");
	tc = tcase_create("runner");
	tcase_add_test(tc, test_runner_children);
	tcase_add_test(tc, test_runner_io);
	tcase_add_test(tc, test_runner_kill);
	tcase_add_test(tc, test_runner_eta);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
