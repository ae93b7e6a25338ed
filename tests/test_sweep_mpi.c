/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * $MMEMU sweep --mpi under $MPIRUN on localhost (built with -Dmpi): the
 * same sweep locally with -j 1 and -j 2 and under mpirun with 1, 2 and 3
 * ranks prints the same summary byte for byte and saves the same runs
 * (host_seconds aside); failed runs are named and the sweep exits 1 under
 * MPI too; a rank killed (SIGKILL) while it has a run in flight loses only
 * that run: rank 0 names it, the other ranks finish the rest, and the saved
 * file holds every other run, each identical to the local sweep's.
 */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "tests/cli.h"

static const char *mpirun(void)
{
	const char *m = getenv("MPIRUN");

	ck_assert_msg(m && *m, "MPIRUN is not set (run through meson test)");
	return m;
}

/* argv: MPIRUN, mpi_args (NULL-terminated), MMEMU, args (NULL-terminated). */
static void mpi_argv(const char **argv, size_t cap, const char *const *mpi_args,
		     const char *const *args)
{
	size_t n = 0;

	argv[n++] = mpirun();
	for (; *mpi_args; mpi_args++)
		argv[n++] = *mpi_args;
	argv[n++] = cli_mmemu();
	for (; *args; args++) {
		ck_assert_uint_lt(n, cap - 1);
		argv[n++] = *args;
	}
	argv[n] = NULL;
}

static struct cli_out mpi_run(const char *ranks, const char *const *args)
{
	const char *mpi_args[] = { "--oversubscribe", "-n", ranks, NULL };
	const char *argv[64];
	struct cli_out o;

	mpi_argv(argv, 64, mpi_args, args);
	o.status = harness_exec(argv, &o.out, &o.err);
	return o;
}

/* A saved file with every run's host_seconds zeroed, packed again: the bytes to compare. */
static uint8_t *normalised(const char *path, size_t *len, size_t *nr_runs)
{
	char why[256];
	FILE *f = fopen(path, "rb");
	Mmemu__Invocation *inv;
	uint8_t *buf;

	ck_assert_ptr_nonnull(f);
	inv = result_file_read(f, why, sizeof(why));
	fclose(f);
	ck_assert_msg(inv, "%s: %s", path, why);
	for (size_t i = 0; i < inv->n_runs; i++)
		inv->runs[i]->host_seconds = 0;
	*nr_runs = inv->n_runs;
	*len = mmemu__invocation__get_packed_size(inv);
	buf = malloc(*len);
	ck_assert_ptr_nonnull(buf);
	mmemu__invocation__pack(inv, buf);
	mmemu__invocation__free_unpacked(inv, NULL);
	return buf;
}

/*
 * 2 policies x 2 values: 4 runs, small. The heap's ops change the cost
 * estimate, so the runs go out in another order than they merge in.
 */
#define SWEEP_ARGS(pb)                                                                     \
	"sweep", cli_quickstart(), "--policy", "classic,mglru-budget", "--set",            \
		"workload.heap.ops=1000000,2000000", "--scale", "1/64", "--out", pb

START_TEST(test_mpi_same_output_any_layout)
{
	static const char *const layouts[] = { "-j 1", "-j 2", "1 rank", "2 ranks", "3 ranks" };
	char *pb[5];
	struct cli_out o[5];
	uint8_t *bytes[5];
	size_t len[5], nr[5];

	for (int i = 0; i < 5; i++)
		pb[i] = cli_temp_file(".pb");
	{
		const char *j1[] = { SWEEP_ARGS(pb[0]), "-j", "1", NULL };
		const char *j2[] = { SWEEP_ARGS(pb[1]), "-j", "2", NULL };
		const char *m1[] = { SWEEP_ARGS(pb[2]), "--mpi", NULL };
		const char *m2[] = { SWEEP_ARGS(pb[3]), "--mpi", NULL };
		const char *m3[] = { SWEEP_ARGS(pb[4]), "--mpi", NULL };

		o[0] = cli_run(j1);
		o[1] = cli_run(j2);
		o[2] = mpi_run("1", m1);
		o[3] = mpi_run("2", m2);
		o[4] = mpi_run("3", m3);
	}
	for (int i = 0; i < 5; i++) {
		ck_assert_msg(o[i].status == 0, "%s: status %d: %s", layouts[i], o[i].status,
			      o[i].err);
		bytes[i] = normalised(pb[i], &len[i], &nr[i]);
		ck_assert_uint_eq(nr[i], 4);
	}
	ck_assert_ptr_nonnull(strstr(o[0].out, "4 runs in 4 groups"));
	for (int i = 1; i < 5; i++) {
		ck_assert_msg(!strcmp(o[i].out, o[0].out), "%s: the summary differs from -j 1's",
			      layouts[i]);
		ck_assert_msg(len[i] == len[0] && !memcmp(bytes[i], bytes[0], len[0]),
			      "%s: the saved runs differ from -j 1's", layouts[i]);
	}
	for (int i = 0; i < 5; i++) {
		free(bytes[i]);
		cli_out_free(&o[i]);
		cli_remove_temp(pb[i]);
	}
}
END_TEST

/*
 * Runs that fail are named by rank 0 and the sweep exits 1, as locally: a run
 * of 4e10 reader ops is killed by --timeout, one of 4e6 finishes.
 * (A value that does not load is exit 2 before any run; tests/test_sweep.c.)
 */
START_TEST(test_mpi_failed_runs_named)
{
	char *a = cli_temp_file(".pb"), *b = cli_temp_file(".pb");
	const char *local[] = { "sweep", cli_quickstart(), "--policy", "classic", "--set",
				"workload.reader.ops=4000000,40000000000", "--seeds", "1,2", "--scale", "1/64",
				"--timeout", "8", "-j", "2", "--out", a, NULL };
	const char *mpi[] = { "sweep", cli_quickstart(), "--policy", "classic", "--set",
			      "workload.reader.ops=4000000,40000000000", "--seeds", "1,2", "--scale", "1/64",
			      "--timeout", "8", "--out", b, "--mpi", NULL };
	struct cli_out l = cli_run(local), m = mpi_run("2", mpi);
	uint8_t *la, *mb;
	size_t la_len, mb_len, la_nr, mb_nr;

	ck_assert_msg(l.status == 1, "local: status %d: %s", l.status, l.err);
	ck_assert_msg(m.status == 1, "mpi: status %d: %s", m.status, m.err);
	ck_assert_msg(strstr(m.err, "run policy=classic seed=1 workload.reader.ops=40000000000 timed out"),
		      "stderr: %s", m.err);
	ck_assert_msg(strstr(m.err, "run policy=classic seed=2 workload.reader.ops=40000000000 timed out"),
		      "stderr: %s", m.err);
	ck_assert_msg(!strstr(m.err, "=4000000 failed") &&
		      !strstr(m.err, "=4000000 timed out"),
		      "stderr: %s", m.err);
	ck_assert_msg(strstr(m.err, "mmemu: sweep: 2 of 4 runs failed"), "stderr: %s", m.err);
	ck_assert_str_eq(m.out, l.out);
	la = normalised(a, &la_len, &la_nr);
	mb = normalised(b, &mb_len, &mb_nr);
	ck_assert_uint_eq(la_nr, 2);
	ck_assert_uint_eq(mb_nr, 2);
	ck_assert(la_len == mb_len && !memcmp(la, mb, la_len));
	free(la);
	free(mb);
	cli_out_free(&l);
	cli_out_free(&m);
	cli_remove_temp(a);
	cli_remove_temp(b);
}
END_TEST

/* ---- a rank killed mid-sweep ---- */

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	p = strrchr(buf, ')');	/* after the command name, which may hold spaces */
	if (!p || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return (pid_t)ppid;
}

static bool is_descendant(pid_t pid, pid_t ancestor)
{
	for (int depth = 0; pid > 1 && depth < 64; depth++) {
		pid = parent_of(pid);
		if (pid == ancestor)
			return true;
	}
	return false;
}

/* Whether pid's environment holds the string var (e.g. "OMPI_COMM_WORLD_RANK=1"). */
static bool has_env(pid_t pid, const char *var)
{
	char path[64], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	for (size_t off = 0; off < n; off += strlen(buf + off) + 1)
		if (!strcmp(buf + off, var))
			return true;
	return false;
}

static bool is_exe(pid_t pid, const char *exe)
{
	char path[64], target[PATH_MAX], want[PATH_MAX];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, target, sizeof(target) - 1);
	if (n <= 0 || !realpath(exe, want))
		return false;
	target[n] = '\0';
	return !strcmp(target, want);
}

/* The mmemu process of MPI rank `rank` under mpirun process `root` (not one of its runs), or 0. */
static pid_t find_rank(pid_t root, const char *rank)
{
	char var[64];
	DIR *d = opendir("/proc");
	struct dirent *e;
	pid_t found = 0;

	snprintf(var, sizeof(var), "OMPI_COMM_WORLD_RANK=%s", rank);
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) && !found) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid > 0 && is_exe(pid, cli_mmemu()) && has_env(pid, var) &&
		    is_descendant(pid, root) && !is_exe(parent_of(pid), cli_mmemu()))
			found = pid;
	}
	closedir(d);
	return found;
}

/* Whether pid has a child process now (a run in flight, for a rank). */
static bool has_child(pid_t pid)
{
	char path[64], buf[64];
	FILE *f;
	bool any;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)pid, (int)pid);
	f = fopen(path, "r");
	ck_assert_msg(f, "%s: %s (rank 1 ended without a run?)", path, strerror(errno));
	any = fgets(buf, sizeof(buf), f) && buf[0] >= '0' && buf[0] <= '9';
	fclose(f);
	return any;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static char *slurp_path(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	s = calloc(1, (size_t)n + 1);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(fread(s, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	return s;
}

static int rank_status(const char *prefix, int rank)
{
	char path[PATH_MAX], *s;
	int status;

	snprintf(path, sizeof(path), "%s.%d", prefix, rank);
	s = slurp_path(path);
	status = atoi(s);
	free(s);
	unlink(path);
	return status;
}

START_TEST(test_mpi_rank_killed)
{
	char *local_pb = cli_temp_file(".pb"), *mpi_pb = cli_temp_file(".pb");
	char *out_path = cli_temp_file(".out"), *err_path = cli_temp_file(".err");
	char *status_prefix = cli_temp_file(".status");
	/* 8 runs: rank 1 surely gets one, and some are left for the others after it dies */
	const char *local[] = { SWEEP_ARGS(local_pb), "--seeds", "1,2", "-j", "2", NULL };
	const char *sweep[] = { SWEEP_ARGS(mpi_pb), "--seeds", "1,2", "--mpi", "--rank-timeout",
				"2", NULL };
	/* each rank's exit status in a file: Open MPI 4.1's mpirun exits 0 under recovery */
	const char *mpi_args[] = {
		"--enable-recovery", "--oversubscribe", "-n", "3", "/bin/sh", "-c",
		"p=$1; shift; \"$@\"; s=$?; echo $s > \"$p.$OMPI_COMM_WORLD_RANK\"; exit $s",
		"sh", status_prefix, NULL,
	};
	const char *argv[64];
	struct cli_out l = cli_run(local);
	char *out, *err, failed_run[256] = "";
	pid_t pid, victim = 0;
	double start = now_s();
	int status, nr_failed = 0;
	Mmemu__Invocation *li, *mi;
	char why[256];
	FILE *f;

	ck_assert_msg(l.status == 0, "local: %s", l.err);
	mpi_argv(argv, 64, mpi_args, sweep);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		setpgid(0, 0);
		if (!freopen(out_path, "w", stdout) || !freopen(err_path, "w", stderr))
			_exit(127);
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid);
	/* kill rank 1 the moment it has a child: a run of its is in flight */
	while (!victim && now_s() - start < 60 && waitpid(pid, &status, WNOHANG) == 0) {
		victim = find_rank(pid, "1");
		if (!victim)
			usleep(2000);
	}
	ck_assert_msg(victim, "rank 1 did not start");
	while (!has_child(victim) && now_s() - start < 60)
		usleep(500);
	ck_assert_msg(kill(victim, SIGKILL) == 0, "rank 1 ended without a run");
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_s() - start > 120) {
			kill(-pid, SIGKILL);
			waitpid(pid, &status, 0);
			ck_abort_msg("the sweep did not end after rank 1 was killed");
		}
		usleep(10000);
	}
	out = slurp_path(out_path);
	err = slurp_path(err_path);

	/* rank 0 exits 1 (a run failed); rank 2 finished */
	ck_assert_msg(rank_status(status_prefix, 0) == 1, "rank 0's status; stderr: %s", err);
	ck_assert_msg(rank_status(status_prefix, 2) == 0, "rank 2's status; stderr: %s", err);
	ck_assert_int_eq(rank_status(status_prefix, 1), 128 + SIGKILL);
	ck_assert_msg(strstr(err, "mmemu: sweep: rank 1 ("), "stderr: %s", err);
	ck_assert_msg(strstr(err, "lost: silent for 2s"), "stderr: %s", err);
	ck_assert_msg(strstr(err, "mmemu: sweep: 1 of 8 runs failed"), "stderr: %s", err);
	/* exactly one run failed, named with its parameters */
	for (const char *p = err; (p = strstr(p, "mmemu: sweep: run ")); p++) {
		const char *end = strstr(p, " failed: rank 1 lost");

		ck_assert_msg(end && !memchr(p, '\n', (size_t)(end - p)), "stderr: %s", err);
		snprintf(failed_run, sizeof(failed_run), "%.*s", (int)(end - p - 18), p + 18);
		nr_failed++;
	}
	ck_assert_int_eq(nr_failed, 1);
	ck_assert_ptr_nonnull(strstr(out, "7 runs in 4 groups"));

	/* the 7 saved runs are the local sweep's, in its order, less the failed one */
	f = fopen(local_pb, "rb");
	li = result_file_read(f, why, sizeof(why));
	fclose(f);
	f = fopen(mpi_pb, "rb");
	mi = result_file_read(f, why, sizeof(why));
	fclose(f);
	ck_assert_msg(li && mi, "%s", why);
	ck_assert_uint_eq(li->n_runs, 8);
	ck_assert_uint_eq(mi->n_runs, 7);
	for (size_t i = 0, k = 0; i < li->n_runs; i++) {
		char params[256];
		size_t la, lm;
		uint8_t *pa, *pm;

		char *options = result_options_text(li->runs[i]);

		ck_assert_ptr_nonnull(options);
		snprintf(params, sizeof(params), "policy=%s seed=%llu %s", li->runs[i]->policy,
			 (unsigned long long)li->runs[i]->seed, options);
		free(options);
		if (!strcmp(params, failed_run))
			continue;
		ck_assert_uint_lt(k, mi->n_runs);
		li->runs[i]->host_seconds = mi->runs[k]->host_seconds = 0;
		la = mmemu__run__get_packed_size(li->runs[i]);
		lm = mmemu__run__get_packed_size(mi->runs[k]);
		pa = malloc(la);
		pm = malloc(lm);
		mmemu__run__pack(li->runs[i], pa);
		mmemu__run__pack(mi->runs[k], pm);
		ck_assert_msg(la == lm && !memcmp(pa, pm, la), "run %s differs from the local one",
			      params);
		free(pa);
		free(pm);
		k++;
	}
	mmemu__invocation__free_unpacked(li, NULL);
	mmemu__invocation__free_unpacked(mi, NULL);
	free(out);
	free(err);
	cli_out_free(&l);
	cli_remove_temp(local_pb);
	cli_remove_temp(mpi_pb);
	cli_remove_temp(out_path);
	cli_remove_temp(err_path);
	cli_remove_temp(status_prefix);
}
END_TEST

static Suite *sweep_mpi_suite(void)
{
	Suite *s = suite_create("sweep-mpi");
	TCase *tc = tcase_create("sweep-mpi");

	tcase_set_timeout(tc, 240);
	tcase_add_test(tc, test_mpi_same_output_any_layout);
	tcase_add_test(tc, test_mpi_failed_runs_named);
	tcase_add_test(tc, test_mpi_rank_killed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sweep_mpi_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
