/* SPDX-License-Identifier: GPL-2.0-only */
#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "scenarios/run.h"
#include "scenarios/scenario.h"

#ifndef MMEMU_SRCDIR
#define MMEMU_SRCDIR "."
#endif

struct machine harness_machine;

/*
 * Seconds a child (a run, or the CLI) may take before it counts as hung:
 * $MMEMU_TEST_TIMEOUT, default 60. A hang guard, not a speed test: the
 * slowest child takes about 5 s on an idle 2-core machine, and a loaded one
 * (parallel builds, other test suites) must not fail the suite.
 */
static double child_timeout(void)
{
	const char *s = getenv("MMEMU_TEST_TIMEOUT");
	double t = s ? atof(s) : 0;

	return t > 0 ? t : 60;
}

/*
 * waitpid() with a deadline. The child leads its own process group; on
 * timeout the whole group is killed (the CLI forks its runs) and -1 is
 * returned with *status untouched.
 */
static int wait_child(pid_t pid, int *status)
{
	struct timespec start, now, nap = { 0, 2 * 1000 * 1000 };
	double limit = child_timeout();

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		pid_t r = waitpid(pid, status, WNOHANG);

		if (r == pid)
			return 0;
		ck_assert_int_eq(r, 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((double)(now.tv_sec - start.tv_sec) +
		    (double)(now.tv_nsec - start.tv_nsec) / 1e9 > limit) {
			kill(-pid, SIGKILL);
			waitpid(pid, status, 0);
			return -1;
		}
		nanosleep(&nap, NULL);
	}
}

void harness_boot_engine(const struct machine *m)
{
	char *xml = numa_platform_xml(m);

	ck_assert_ptr_nonnull(xml);
	ck_assert_int_eq(engine_init(xml, 1), 0);
	free(xml);
}

void harness_boot(int nr_nodes, uint64_t pages_per_node, const struct reclaim_policy *p)
{
	uint64_t pages[MAX_NUMNODES];
	int cpus[MAX_NUMNODES];

	for (int i = 0; i < nr_nodes; i++) {
		pages[i] = pages_per_node;
		cpus[i] = HARNESS_CPUS;
	}
	ck_assert_int_eq(machine_init(&harness_machine, nr_nodes, pages, cpus, 10), 0);
	harness_boot_engine(&harness_machine);
	ck_assert_int_eq(mm_init(&harness_machine, p, 60, 1), 0);
	/* flush_memcg_stats_dwork(), as a booted kernel has it */
	ck_assert_int_eq(mem_cgroup_stats_flusher_start(), 0);
}

void harness_run_actor(void (*fn)(struct actor *, void *), void *arg)
{
	ck_assert_ptr_nonnull(actor_create("test", 0, fn, arg, false));
	engine_run(0);
}

void harness_nvme(struct blockdev *d)
{
	struct bdev_params p;

	blockdev_default_params(BDEV_NVME, &p);
	blockdev_init(d, "nvme0", &p, 1);
}

const char *harness_srcdir(void)
{
	const char *s = getenv("SRCDIR");

	return s && *s ? s : MMEMU_SRCDIR;
}

const char *harness_src_path(const char *rel)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s/%s", harness_srcdir(), rel);
	return buf;
}

/* Reads a whole stream from its start into a malloc'ed string. */
static char *slurp(FILE *f)
{
	size_t cap = 4096, len = 0, n;
	char *s = malloc(cap);

	ck_assert_ptr_nonnull(s);
	rewind(f);
	while ((n = fread(s + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len - 1 == 0) {
			cap *= 2;
			s = realloc(s, cap);
			ck_assert_ptr_nonnull(s);
		}
	}
	s[len] = '\0';
	return s;
}

static int run_scenario(const char *path, const char *const *sets, int nr_sets, double scale,
			uint64_t seed, const char *policy, bool check_invariants,
			uint64_t check_every, char **out, char *err, size_t errlen)
{
	FILE *fout = tmpfile(), *ferr = tmpfile();
	int status;
	pid_t pid;

	ck_assert_ptr_nonnull(fout);
	ck_assert_ptr_nonnull(ferr);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct scenario s;
		struct run_result r;
		struct run_opts o = {
			.policy = policy,
			.seed = seed,
			.options = "",
			.check_invariants = check_invariants,
			.check_every = check_every,
		};
		char msg[1024];

		setpgid(0, 0);
		if (scenario_load(&s, path, sets, nr_sets, scale, msg, sizeof(msg))) {
			fputs(msg, ferr);
			fflush(ferr);
			_exit(2);
		}
		result_init(&r);
		if (scenario_run(&s, &o, &r, msg, sizeof(msg))) {
			fputs(msg, ferr);
			fflush(ferr);
			_exit(1);
		}
		if (result_write(&r, fout) || fflush(fout))
			_exit(3);
		_exit(0);
	}
	setpgid(pid, pid);
	if (wait_child(pid, &status)) {
		*out = slurp(fout);
		fclose(fout);
		fclose(ferr);
		snprintf(err, errlen, "the run did not end within %g s (killed)", child_timeout());
		return -1;
	}
	*out = slurp(fout);
	{
		char *e = slurp(ferr);

		snprintf(err, errlen, "%s", e);
		free(e);
	}
	fclose(fout);
	fclose(ferr);
	if (!WIFEXITED(status)) {
		snprintf(err, errlen, "the run died with signal %d",
			 WIFSIGNALED(status) ? WTERMSIG(status) : -1);
		return -1;
	}
	return WEXITSTATUS(status);
}

int harness_run_scenario(const char *path, const char *const *sets, int nr_sets,
			 double scale, uint64_t seed, const char *policy,
			 bool check_invariants, char **out, char *err, size_t errlen)
{
	return run_scenario(path, sets, nr_sets, scale, seed, policy, check_invariants, 0, out,
			    err, errlen);
}

int harness_run_scenario_checked(const char *path, const char *const *sets, int nr_sets,
				 double scale, uint64_t seed, const char *policy,
				 uint64_t check_every, char **out, char *err, size_t errlen)
{
	return run_scenario(path, sets, nr_sets, scale, seed, policy, true, check_every, out,
			    err, errlen);
}

int harness_parse_result(const char *text, struct run_result *r)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int rc;

	if (!f)
		return -1;
	rc = result_read(r, f);
	fclose(f);
	return rc;
}

double harness_value(const struct run_result *r, const char *group, const char *key)
{
	const struct result_value *v = result_find(result_find_group(r, group), key);

	return v ? v->value : NAN;
}

int harness_exec(const char *const *argv, char **out, char **err)
{
	return harness_exec_to(argv, NULL, 0, out, err);
}

int harness_exec_to(const char *const *argv, const char *stdout_path, unsigned long fsize_limit,
		    char **out, char **err)
{
	FILE *fout = tmpfile(), *ferr = tmpfile();
	int status;
	pid_t pid;

	ck_assert_ptr_nonnull(fout);
	ck_assert_ptr_nonnull(ferr);
	fflush(NULL);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd = stdout_path ? open(stdout_path, O_WRONLY | O_CREAT | O_TRUNC, 0644)
				     : fileno(fout);

		setpgid(0, 0);
		if (fd < 0 || dup2(fd, 1) < 0 || dup2(fileno(ferr), 2) < 0)
			_exit(127);
		if (fsize_limit) {
			/* a full disk without root: writes past the limit fail with EFBIG */
			struct rlimit rl = { fsize_limit, fsize_limit };

			signal(SIGXFSZ, SIG_IGN);
			if (setrlimit(RLIMIT_FSIZE, &rl))
				_exit(127);
		}
		execv(argv[0], (char *const *)argv);
		_exit(127);
	}
	setpgid(pid, pid);
	if (wait_child(pid, &status)) {
		fprintf(ferr, "[harness: killed after %g s]\n", child_timeout());
		fflush(ferr);
		status = -1;
	}
	*out = slurp(fout);
	*err = slurp(ferr);
	fclose(fout);
	fclose(ferr);
	if (status == -1)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

char *harness_write_temp(const char *text)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	FILE *f;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert_int_gt(asprintf(&path, "%s/mmemu-test-XXXXXX.ini", dir), 0);
	fd = mkstemps(path, 4);
	ck_assert_int_ge(fd, 0);
	f = fdopen(fd, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

uint8_t *harness_file_pte(struct task *t, struct address_space *f, uint64_t index)
{
	struct vm_area *vma = task_mmap_file(t, f);

	return vma ? &vma->ptes[index] : NULL;
}
