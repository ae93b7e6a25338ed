/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Output that is checked to the end. A command prints into a memory stream
 * and then hands it out in one go: every write(2) and the close(2) are
 * checked, a failure is a message naming the file and strerror(errno), and
 * a file that could not be written whole is removed (a regular file is
 * written under a temporary name and renamed over the target, so what was
 * there before survives a failed write).
 */
#ifndef MMEMU_TOOLS_SINK_H
#define MMEMU_TOOLS_SINK_H

#include <stdio.h>

struct sink {
	FILE *f;	/* print here */
	char *buf;	/* what was printed, after sink_commit()/sink_discard() */
	size_t len;
};

/* 0, or -1 when out of memory. */
int sink_open(struct sink *s);
/* Drops what was printed. */
void sink_discard(struct sink *s);

/*
 * Writes what was printed to path, or to standard output when path is NULL
 * or "-", and frees the stream. what names the option in messages ("--out",
 * "-o"; NULL: none). Returns 0; 2 when the file cannot be created (a bad
 * path); 1 when it cannot be written (a full disk, a file size limit, EIO).
 */
int sink_commit(struct sink *s, const char *path, const char *what);

/* The same for bytes already in memory. */
int sink_write_bytes(const void *buf, size_t len, const char *path, const char *what);

/*
 * Flushes and checks standard output at the end of a command that printed
 * with stdio: 0, or 1 with a message.
 */
int sink_close_stdout(void);

#endif
