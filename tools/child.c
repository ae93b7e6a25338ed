// SPDX-License-Identifier: GPL-2.0-only
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "models/policy/loader.h"
#include "scenarios/scenario.h"
#include "tools/child.h"
#include "tools/sweep.h"	/* MMEMU_PARENT_PID_ENV */

const char *child_signal_name(int sig)
{
	static _Thread_local char buf[32];
	const char *abbrev = sigabbrev_np(sig);	/* glibc 2.32 */

	if (abbrev)
		snprintf(buf, sizeof(buf), "SIG%s", abbrev);
	else
		snprintf(buf, sizeof(buf), "signal %d", sig);
	return buf;
}

void child_stdout_to_stderr(void)
{
	fflush(stdout);
	dup2(STDERR_FILENO, STDOUT_FILENO);
}

/* Loads and tries arg in a child; 0, or -1 with why. */
static int probe(const char *arg, char *err, size_t len)
{
	int fds[2], status, devnull;
	pid_t pid;
	ssize_t got;
	size_t n = 0;

	if (pipe(fds)) {
		snprintf(err, len, "policy '%s': cannot try it: %s", arg, strerror(errno));
		return -1;
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "policy '%s': cannot try it: %s", arg, strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!pid) {
		char msg[512];

		close(fds[0]);
		/* what it prints is printed again when this process loads it: once is enough */
		devnull = open("/dev/null", O_WRONLY);
		if (devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		signal(SIGALRM, SIG_DFL);
		alarm(CHILD_PROBE_SECONDS);
		if (!reclaim_policy_get(arg, msg, sizeof(msg))) {
			if (write(fds[1], msg, strlen(msg)) < 0)
				_exit(2);
			_exit(1);
		}
		_exit(0);
	}
	close(fds[1]);
	while (n + 1 < len) {
		got = read(fds[0], err + n, len - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	err[n] = '\0';
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, len, "policy '%s': cannot try it: %s", arg, strerror(errno));
			return -1;
		}
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
		snprintf(err, len, "policy '%s': loading it and trying its lruvec_init took more "
			 "than %d s (a constructor or lruvec_init that does not return?)", arg,
			 CHILD_PROBE_SECONDS);
		return -1;
	}
	if (WIFSIGNALED(status)) {
		snprintf(err, len, "policy '%s': loading it and trying its lruvec_init killed the "
			 "process with %s (%s): a crash in the plug-in", arg,
			 child_signal_name(WTERMSIG(status)), strsignal(WTERMSIG(status)));
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		if (!n)
			snprintf(err, len, "policy '%s': trying it failed (exit status %d)", arg,
				 WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -1;
	}
	return 0;
}

const struct reclaim_policy *child_policy_get(const char *arg, char *err, size_t len)
{
	const struct reclaim_policy *p;
	struct stat st;
	int saved;

	if (!reclaim_policy_arg_is_file(arg) || reclaim_policy_file(arg))
		return reclaim_policy_get(arg, err, len);
	if (!stat(arg, &st) && !S_ISREG(st.st_mode)) {
		snprintf(err, len, "policy '%s': not a regular file (%s)", arg,
			 S_ISDIR(st.st_mode) ? "a directory" : "a device, FIFO or socket");
		return NULL;
	}
	if (probe(arg, err, len))
		return NULL;
	/* loaded here too: what its constructor or lruvec_init prints goes to stderr */
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	p = reclaim_policy_get(arg, err, len);
	fflush(stdout);
	if (saved >= 0) {
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	return p;
}

int child_preload_policies(const char *list, char *err, size_t len)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ",");
		char arg[4096], msg[400];

		if (n && n < sizeof(arg)) {
			memcpy(arg, p, n);
			arg[n] = '\0';
			if (reclaim_policy_arg_is_file(arg) && !child_policy_get(arg, msg, sizeof(msg))) {
				snprintf(err, len, "--policy: %s", msg);
				return -1;
			}
		}
		p += n + (p[n] == ',');
	}
	return 0;
}

/* [b, e) with the blanks at both ends cut off */
static void trim(const char **b, const char **e)
{
	while (*b < *e && isspace((unsigned char)**b))
		(*b)++;
	while (*e > *b && isspace((unsigned char)(*e)[-1]))
		(*e)--;
}

/* The line of the last "key = value" in [section] of an INI text (inih's syntax), or 0. */
static int ini_key_line(const char *text, const char *section, const char *key)
{
	bool in = false;
	int line = 0, found = 0;

	for (const char *p = text; p && *p; line++) {
		const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p), *b = p;

		p = nl ? nl + 1 : NULL;
		trim(&b, &e);
		if (b < e && *b == '[') {
			const char *rb = memchr(b, ']', (size_t)(e - b)), *sb = b + 1;

			if (rb) {
				trim(&sb, &rb);
				in = (size_t)(rb - sb) == strlen(section) &&
				     !strncmp(sb, section, (size_t)(rb - sb));
			}
		} else if (in && b < e && *b != ';' && *b != '#') {
			const char *eq = b;

			while (eq < e && *eq != '=' && *eq != ':')
				eq++;
			if (eq < e) {
				const char *kb = b, *ke = eq;

				trim(&kb, &ke);
				if ((size_t)(ke - kb) == strlen(key) && !strncmp(kb, key, strlen(key)))
					found = line + 1;
			}
		}
	}
	return found;
}

void child_machine_policy_error(const struct scenario *s, const char *const *sets, int nr_sets,
				const char *why, char *err, size_t len)
{
	static const char set_key[] = "machine.policy=";
	int line;

	for (int i = nr_sets - 1; i >= 0; i--)
		if (!strncmp(sets[i], set_key, sizeof(set_key) - 1)) {
			snprintf(err, len, "--set '%s': %s", sets[i], why);
			return;
		}
	line = s->text ? ini_key_line(s->text, "machine", "policy") : 0;
	if (line)
		snprintf(err, len, "scenario '%s' line %d: [machine] policy: %s", s->path, line, why);
	else
		snprintf(err, len, "scenario '%s': [machine] policy: %s", s->path, why);
}

/*
 * SIGKILL when parent exits. The getppid() check closes the race with a
 * parent that died before prctl(): this process was reparented already.
 */
void child_die_with_parent(pid_t parent)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL)) {
		fprintf(stderr, "mmemu: cannot follow the parent process: %s\n", strerror(errno));
		_exit(1);
	}
	if (getppid() != parent) {
		fprintf(stderr, "mmemu: parent process %ld has exited\n", (long)parent);
		_exit(1);
	}
}

/* MMEMU_PARENT_PID (set by the runner and tools/reproduce): die with that parent. */
int child_follow_parent_env(void)
{
	const char *v = getenv(MMEMU_PARENT_PID_ENV);
	char *end;
	long pid;

	if (!v)
		return 0;
	errno = 0;
	pid = strtol(v, &end, 10);
	if (errno || *v < '1' || *v > '9' || *end || (pid_t)pid != pid) {
		fprintf(stderr, "mmemu: %s '%s' is not a process id\n", MMEMU_PARENT_PID_ENV, v);
		return 2;
	}
	unsetenv(MMEMU_PARENT_PID_ENV);
	child_die_with_parent((pid_t)pid);
	return 0;
}
