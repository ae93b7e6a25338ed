/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A killed parent leaves no simulation behind: `mmemu run` (its `mmemu run
 * --cell` children), `mmemu sweep` (its `mmemu run` children and theirs), `mmemu
 * check-policy` (its `mmemu run --cell` children), `mmemu bench --trace`
 * (its `--cell` replays), `mmemu fuzz` (its `mmemu fuzz --cell` cases),
 * `mmemu batch` (its `mmemu run --cell` children) and tools/reproduce (its
 * one `mmemu batch`, and below it) are each started on
 * a long scenario, killed with SIGKILL, SIGTERM, SIGHUP and SIGINT once the
 * simulations are running, and every process below them must be gone (or a
 * zombie waiting for init) within a bounded wait. An exec'ed mmemu whose
 * MMEMU_PARENT_PID is not its parent (the parent died before it could ask
 * for its death signal) does not start.
 */
#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tests/cli.h"

#define MAX_PROCS 256
#define DEATH_WAIT_S 5	/* bound on the wait for the children to die */
#define START_WAIT_S 60	/* bound on the wait for the simulations to start */

struct proc {
	pid_t pid, ppid;
	unsigned long long start;	/* starttime, field 22: tells a reused pid apart */
	char state;
};

/* Every process in /proc; a process exiting during the scan is skipped. */
static int scan_procs(struct proc *p, int max)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && n < max) {
		char path[300], buf[1024], *rp;
		ssize_t len;
		int fd;

		if (e->d_name[0] < '0' || e->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/stat", e->d_name);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			continue;
		len = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (len <= 0)
			continue;
		buf[len] = '\0';
		rp = strrchr(buf, ')');	/* comm may hold spaces and parentheses */
		if (!rp)
			continue;
		p[n].pid = (pid_t)atol(buf);
		/* ") S ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt
		 * utime stime cutime cstime priority nice threads itrealvalue starttime" */
		if (sscanf(rp + 1, " %c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d "
			   "%*d %*d %*d %llu", &p[n].state, &p[n].ppid, &p[n].start) == 3)
			n++;
	}
	closedir(d);
	return n;
}

/* The descendants of root (not root), each with its depth below root. */
static int descendants(pid_t root, struct proc *out, int *depth, int max)
{
	static struct proc all[4096];
	int nr_all = scan_procs(all, 4096), n = 0;

	for (int level = 1, from = 0, to = 0;; level++) {
		for (int i = 0; i < nr_all && n < max; i++) {
			bool child = level == 1 ? all[i].ppid == root : false;

			for (int k = from; k < to && !child; k++)
				child = all[i].ppid == out[k].pid;
			if (child) {
				depth[n] = level;
				out[n++] = all[i];
			}
		}
		if (n == to)
			return n;
		from = to;
		to = n;
	}
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static bool is_alive(const struct proc *p)
{
	char path[64];
	FILE *f;
	char buf[1024], *rp;
	bool alive = false;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)p->pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && (rp = strrchr(buf, ')'))) {
		char state;
		unsigned long long start;

		if (sscanf(rp + 1, " %c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d "
			   "%*d %*d %*d %*d %llu", &state, &start) == 2)
			alive = start == p->start && state != 'Z' && state != 'X';
	}
	fclose(f);
	return alive;
}

static const int signals[] = { SIGKILL, SIGTERM, SIGHUP, SIGINT };

static pid_t start(const char *const *argv)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		sigset_t none;

		/*
		 * The signals this test sends act as their defaults: a test run
		 * under nohup, or as a background job of a shell without job
		 * control, inherits SIGHUP or SIGINT ignored, and an mmemu that
		 * ignores them (as it should, then) never dies (issue 36 point 6).
		 */
		for (size_t i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
			if (signals[i] != SIGKILL)
				signal(signals[i], SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);

		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	return pid;
}

/* Every process in p[] is gone within DEATH_WAIT_S, else the test fails naming what. */
static void all_gone(const struct proc *p, int n, const char *what)
{
	for (double t0 = now_s(); now_s() - t0 < DEATH_WAIT_S;) {
		bool alive = false;

		for (int i = 0; i < n; i++)
			alive |= is_alive(&p[i]);
		if (!alive)
			return;
		usleep(20 * 1000);
	}
	ck_abort_msg("a cell of %s outlived it", what);
}

/*
 * Starts argv, waits for processes depth levels below it (the simulations),
 * kills it with sig, and checks that every process that was below it dies.
 */
static void kill_and_check(const char *const *argv, int depth, int sig)
{
	struct proc below[MAX_PROCS];
	int level[MAX_PROCS], n = 0, status;
	pid_t root = start(argv);
	double t0 = now_s();
	bool deep = false;

	while (!deep) {
		ck_assert_msg(now_s() - t0 < START_WAIT_S, "'%s' started no simulation in %d s",
			      argv[0], START_WAIT_S);
		ck_assert_msg(waitpid(root, &status, WNOHANG) == 0, "'%s %s' ended before it was killed",
			      argv[0], argv[1]);
		usleep(50 * 1000);
		n = descendants(root, below, level, MAX_PROCS);
		for (int i = 0; i < n; i++)
			deep |= level[i] >= depth;
	}
	usleep(200 * 1000);	/* let the simulations get going */
	n = descendants(root, below, level, MAX_PROCS);
	ck_assert_int_gt(n, 0);
	ck_assert_int_eq(kill(root, sig), 0);
	ck_assert_int_eq(waitpid(root, &status, 0), root);
	for (t0 = now_s();;) {
		int alive = -1;

		for (int i = 0; i < n && alive < 0; i++)
			if (is_alive(&below[i]))
				alive = i;
		if (alive < 0)
			break;
		if (now_s() - t0 > DEATH_WAIT_S) {
			for (int i = 0; i < n; i++)
				if (is_alive(&below[i]))
					kill(below[i].pid, SIGKILL);	/* leave nothing behind */
			ck_abort_msg("'%s %s' killed by signal %d: process %d (depth %d) still runs "
				     "after %d s", argv[0], argv[1], sig, (int)below[alive].pid,
				     level[alive], DEATH_WAIT_S);
		}
		usleep(20 * 1000);
	}
}

/*
 * quickstart with 1000 times the reader's operations: minutes per run here
 * (100 times: 18 s), far beyond DEATH_WAIT_S, so no simulation ends by itself
 */
#define LONG_SET "workload.reader.ops=4000000000"

START_TEST(test_run_killed)
{
	const char *argv[] = { cli_mmemu(), "run", cli_quickstart(), "--set", LONG_SET,
			       "--policy", "classic,mglru-old", "-j", "2", NULL };

	kill_and_check(argv, 1, signals[_i]);
}
END_TEST

START_TEST(test_sweep_killed)
{
	const char *argv[] = { cli_mmemu(), "sweep", cli_quickstart(), "--set", LONG_SET,
			       "--policy", "classic", "--seeds", "1..4", "-j", "2", NULL };

	kill_and_check(argv, 2, signals[_i]);
}
END_TEST

/* The command line of pid, its NUL separators as blanks. */
static void cmdline(pid_t pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY);
	n = fd < 0 ? -1 : read(fd, buf, len - 1);
	if (fd >= 0)
		close(fd);
	n = n < 0 ? 0 : n;
	for (ssize_t i = 0; i < n; i++)
		if (!buf[i])
			buf[i] = ' ';
	buf[n] = '\0';
}

/*
 * run is a sweep of one cell: each run a child on the runner, `mmemu run
 * PATH --policy P --seed S ... --cell --cell-stdin` (an exec'd mmemu, not
 * a fork of run), dying with it as the others do.
 */
START_TEST(test_run_children_are_cells)
{
	const char *argv[] = { cli_mmemu(), "run", cli_quickstart(), "--set", LONG_SET,
			       "--policy", "classic,mglru-old", "-j", "2", NULL };
	struct proc below[MAX_PROCS];
	int level[MAX_PROCS], n = 0, status, cells = 0;
	pid_t root = start(argv);
	double t0 = now_s();
	char line[4096];

	while (cells < 2) {
		ck_assert_msg(now_s() - t0 < START_WAIT_S, "run started %d cells in %d s", cells,
			      START_WAIT_S);
		usleep(50 * 1000);
		n = descendants(root, below, level, MAX_PROCS);
		cells = 0;
		for (int i = 0; i < n; i++) {
			if (level[i] != 1)
				continue;
			cmdline(below[i].pid, line, sizeof(line));
			cells += strstr(line, " run ") && strstr(line, " --cell --cell-stdin") &&
				 strstr(line, " --seed 1 --set " LONG_SET);
		}
	}
	ck_assert_int_eq(kill(root, SIGKILL), 0);
	ck_assert_int_eq(waitpid(root, &status, 0), root);
	all_gone(below, n, "run");
}
END_TEST

/*
 * check-policy's runs are children on the runner (`mmemu run --cell`): a
 * plug-in whose shrink_lruvec never returns keeps one running until the
 * kill, with a --timeout far past DEATH_WAIT_S.
 */
START_TEST(test_check_policy_killed)
{
	const char *argv[] = { cli_mmemu(), "check-policy", POLICY_DIR "/s3fifo-loops.so",
			       "--timeout", "600", cli_quickstart(), NULL };

	kill_and_check(argv, 1, signals[_i]);
}
END_TEST

/*
 * bench --trace replays each (policy, size) in a child on the runner
 * (`mmemu bench --trace ... --cell`); under the looping plug-in the replay
 * never ends.
 */
START_TEST(test_bench_trace_killed)
{
	char *text = malloc(20000 * 24 + 32), *trace;
	const char *argv[] = { cli_mmemu(), "bench", "--trace", NULL, "--policy",
			       POLICY_DIR "/s3fifo-loops.so", "--cache", "10%", NULL };
	size_t n = 0;

	ck_assert_ptr_nonnull(text);
	n += (size_t)sprintf(text, "time,obj_id,size,op\n");
	for (int i = 0; i < 20000; i++)
		n += (size_t)sprintf(text + n, "%d,%d,4096,read\n", i, (i * 7919) % 12000);
	trace = harness_write_temp(text);
	argv[3] = trace;
	kill_and_check(argv, 1, signals[_i]);
	unlink(trace);
	free(trace);
	free(text);
}
END_TEST

/*
 * fuzz's cases are children on the runner (`mmemu fuzz --cell`): under the
 * looping plug-in a case that reclaims never ends, and --case-timeout is
 * far past DEATH_WAIT_S.
 */
#define FUZZ_LOOPS(out) { cli_mmemu(), "fuzz", "--policy", POLICY_DIR "/s3fifo-loops.so", \
			  "--runs", "50", "-j", "2", "--case-timeout", "600", "--out", out, NULL }

START_TEST(test_fuzz_killed)
{
	const char *argv[] = FUZZ_LOOPS("/nonexistent/fuzz-findings");

	kill_and_check(argv, 1, signals[_i]);
}
END_TEST

/*
 * A plan of two long runs (malloc'ed path), for batch and reproduce; their
 * results (devices, written in place) are never written: killed first.
 */
static char *long_plan(void)
{
	char text[2048];

	snprintf(text, sizeof(text),
		 "/dev/null %s --policy classic --set " LONG_SET "\n"
		 "/dev/zero %s --policy mglru-old --set " LONG_SET "\n",
		 cli_quickstart(), cli_quickstart());
	return harness_write_temp(text);
}

/* batch's runs are children on the runner (`mmemu run --cell`). */
START_TEST(test_batch_killed)
{
	char *plan = long_plan();
	const char *argv[] = { cli_mmemu(), "batch", plan, "-j", "2", NULL };

	kill_and_check(argv, 1, signals[_i]);
	unlink(plan);
	free(plan);
}
END_TEST

/*
 * The cells are `mmemu fuzz --cell --policy P --seed S` (exec'd, not forks
 * of fuzz); a SIGTERM ends them, and fuzz dies of it.
 */
START_TEST(test_fuzz_children_are_cells)
{
	const char *argv[] = FUZZ_LOOPS("/nonexistent/fuzz-findings");
	struct proc below[MAX_PROCS];
	int level[MAX_PROCS], n = 0, status, cells = 0;
	pid_t root = start(argv);
	double t0 = now_s();
	char line[4096];

	while (cells < 2) {
		ck_assert_msg(now_s() - t0 < START_WAIT_S, "fuzz started %d cells in %d s", cells,
			      START_WAIT_S);
		usleep(50 * 1000);
		n = descendants(root, below, level, MAX_PROCS);
		cells = 0;
		for (int i = 0; i < n; i++) {
			if (level[i] != 1)
				continue;
			cmdline(below[i].pid, line, sizeof(line));
			cells += strstr(line, " fuzz --cell --policy " POLICY_DIR "/s3fifo-loops.so "
					"--seed ") != NULL;
		}
	}
	ck_assert_int_eq(kill(root, SIGTERM), 0);
	ck_assert_int_eq(waitpid(root, &status, 0), root);
	ck_assert_msg(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM, "fuzz: status %#x",
		      status);
	all_gone(below, n, "fuzz");
}
END_TEST

/*
 * tools/reproduce runs its experiments as one `mmemu batch` through --mmemu:
 * here a script that execs mmemu (same process, so MMEMU_PARENT_PID still
 * names its parent) on a plan of long quickstart runs in place of the
 * experiment's plan it was given.
 */
START_TEST(test_reproduce_killed)
{
	char *dir = cli_temp_file(""), *wrapper = cli_temp_file(".sh"), *md, *commit;
	char *plan = long_plan();
	char reproduce[4096];
	const char *argv[] = { "/usr/bin/python3", reproduce, "--only", "A1", "-j", "2",
			       "--mmemu", wrapper, "--results", dir, "--out", NULL, NULL };
	FILE *f = fopen(wrapper, "w");

	ck_assert_ptr_nonnull(f);
	fprintf(f, "#!/bin/sh\nexec '%s' batch '%s' -j 2\n", cli_mmemu(), plan);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(wrapper, 0700), 0);
	ck_assert_int_eq(unlink(dir), 0);
	ck_assert_int_eq(mkdir(dir, 0700), 0);
	ck_assert_int_gt(asprintf(&md, "%s/r.md", dir), 0);
	ck_assert_int_gt(asprintf(&commit, "%s/commit", dir), 0);
	argv[11] = md;
	snprintf(reproduce, sizeof(reproduce), "%s", harness_src_path("tools/reproduce"));
	kill_and_check(argv, 2, signals[_i]);
	unlink(plan);
	free(plan);
	ck_assert_int_gt(asprintf(&plan, "%s/plan", dir), 0);
	unlink(plan);	/* the plan reproduce gave its batch */
	free(plan);
	unlink(commit);	/* written only once every run has ended */
	unlink(md);
	ck_assert_int_eq(rmdir(dir), 0);
	cli_remove_temp(wrapper);
	free(commit);
	free(md);
	free(dir);
}
END_TEST

/* The race check: the parent named is not ours, so it died before we could follow it. */
START_TEST(test_parent_gone)
{
	char pid[24];
	const char *args[] = { "list", NULL };
	struct cli_out o;

	snprintf(pid, sizeof(pid), "%d", (int)getppid());	/* the Check runner, not mmemu's parent */
	setenv("MMEMU_PARENT_PID", pid, 1);
	o = cli_run(args);
	ck_assert_int_eq(o.status, 1);
	ck_assert_ptr_nonnull(strstr(o.err, "has exited"));
	ck_assert_str_eq(o.out, "");
	cli_out_free(&o);

	for (int i = 0; i < 5; i++) {
		static const char *const bad[] = { "12x", " 12", "0", "-5", "99999999999" };
		char want[64];

		setenv("MMEMU_PARENT_PID", bad[i], 1);
		o = cli_run(args);
		ck_assert_int_eq(o.status, 2);
		snprintf(want, sizeof(want), "MMEMU_PARENT_PID '%s' is not a process id", bad[i]);
		ck_assert_msg(strstr(o.err, want), "'%s' expected in: %s", want, o.err);
		cli_out_free(&o);
	}

	snprintf(pid, sizeof(pid), "%d", (int)getpid());	/* ours: it runs */
	setenv("MMEMU_PARENT_PID", pid, 1);
	o = cli_run(args);
	ck_assert_int_eq(o.status, 0);
	ck_assert_ptr_nonnull(strstr(o.out, "policies:"));
	cli_out_free(&o);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("orphans");
	TCase *tc = tcase_create("orphans");
	int nr = (int)(sizeof(signals) / sizeof(signals[0]));

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_parent_gone);
	tcase_add_loop_test(tc, test_run_killed, 0, nr);
	tcase_add_loop_test(tc, test_sweep_killed, 0, nr);
	tcase_add_loop_test(tc, test_batch_killed, 0, nr);
	tcase_add_loop_test(tc, test_reproduce_killed, 0, nr);
	tcase_add_loop_test(tc, test_check_policy_killed, 0, nr);
	tcase_add_test(tc, test_run_children_are_cells);
	tcase_add_loop_test(tc, test_bench_trace_killed, 0, nr);
	tcase_add_loop_test(tc, test_fuzz_killed, 0, nr);
	tcase_add_test(tc, test_fuzz_children_are_cells);
	suite_add_tcase(s, tc);
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
