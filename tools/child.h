/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * What the commands share about child processes: a policy plug-in is loaded
 * and tried in a child before mmemu loads it, a child's stdout is not the
 * parent's, and a child that dies of a signal is reported by its name.
 */
#ifndef MMEMU_TOOLS_CHILD_H
#define MMEMU_TOOLS_CHILD_H

#include <stddef.h>
#include <sys/types.h>

struct reclaim_policy;

/*
 * reclaim_policy_get() for a --policy argument or a machine.policy value. A
 * plug-in (a file) is first loaded and its lruvec_init tried in a child, so
 * that one whose constructor or lruvec_init crashes, or hangs for
 * CHILD_PROBE_SECONDS, is an error naming it, not a dead mmemu; then in this
 * process, with whatever the plug-in prints on stdout sent to stderr. A path
 * that is not a regular file is refused first. NULL with a message naming
 * the plug-in in err.
 */
const struct reclaim_policy *child_policy_get(const char *arg, char *err, size_t len);
/*
 * Loads the files of a --policy list (child_policy_get()) before the
 * scenario is read, so that it takes their knobs' sections ([s3fifo]);
 * the built-in names are left for later. 0, or -1 with "--policy: why".
 */
int child_preload_policies(const char *list, char *err, size_t len);

/* A probe that takes longer than this has hung (an estimate: a load takes milliseconds). */
#define CHILD_PROBE_SECONDS 30

/*
 * In a child just forked: its stdout becomes its stderr, so that what a
 * plug-in prints cannot land in the parent's table, JSON or saved result.
 */
void child_stdout_to_stderr(void);

/*
 * In a child: SIGKILL when parent exits (PR_SET_PDEATHSIG); exits at once
 * when it has exited already (this process was reparented).
 */
void child_die_with_parent(pid_t parent);
/*
 * MMEMU_PARENT_PID (set by the runner and tools/reproduce): die with that
 * parent, as child_die_with_parent(). 0, or 2 when it is not a process id.
 */
int child_follow_parent_env(void);

/* "SIGSEGV", or "signal 77" for a number without a name. */
const char *child_signal_name(int sig);

struct scenario;

/*
 * The message for a machine.policy value that names no policy (why, from
 * child_policy_get()): where it was given, the last --set machine.policy=
 * of sets, else the scenario file's line and key.
 */
void child_machine_policy_error(const struct scenario *s, const char *const *sets, int nr_sets,
				const char *why, char *err, size_t len);

#endif
