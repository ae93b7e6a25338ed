/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/sink.h"

int sink_open(struct sink *s)
{
	s->buf = NULL;
	s->len = 0;
	s->f = open_memstream(&s->buf, &s->len);
	return s->f ? 0 : -1;
}

void sink_discard(struct sink *s)
{
	if (s->f)
		fclose(s->f);
	free(s->buf);
	s->f = NULL;
	s->buf = NULL;
	s->len = 0;
}

/* Every byte to fd: 0 or -errno. */
static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static void complain(const char *what, const char *path, int err)
{
	if (!path)
		fprintf(stderr, "mmemu: cannot write standard output: %s\n", strerror(err));
	else
		fprintf(stderr, "mmemu: %s%s'%s': %s\n", what ? what : "", what ? " " : "", path,
			strerror(err));
}

int sink_write_bytes(const void *buf, size_t len, const char *path, const char *what)
{
	struct stat st;
	char *tmp = NULL;
	int fd, rc = 0;

	if (!path || !strcmp(path, "-")) {
		rc = write_all(STDOUT_FILENO, buf, len);
		if (rc) {
			complain(NULL, NULL, -rc);
			return 1;
		}
		return 0;
	}
	/* a device, FIFO or symlink is written in place; a regular file is replaced */
	if (!lstat(path, &st) && !S_ISREG(st.st_mode)) {
		fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	} else {
		if (asprintf(&tmp, "%s.tmp-XXXXXX", path) < 0) {
			complain(what, path, ENOMEM);
			return 1;
		}
		fd = mkostemp(tmp, O_CLOEXEC);
	}
	if (fd < 0) {
		/* the name given cannot be a file here: a bad path */
		complain(what, path, errno);
		free(tmp);
		return 2;
	}
	if (tmp) {
		/* mkostemp() makes it 0600: give it what open(path, ..., 0666) would */
		mode_t mask = umask(0);

		umask(mask);
		if (fchmod(fd, 0666 & ~mask))
			rc = -errno;
	}
	if (!rc)
		rc = write_all(fd, buf, len);
	if (close(fd) && !rc)
		rc = -errno;
	if (!rc && tmp && rename(tmp, path))
		rc = -errno;
	if (rc && tmp)
		unlink(tmp);
	free(tmp);
	if (rc) {
		complain(what, path, -rc);
		return 1;
	}
	return 0;
}

int sink_commit(struct sink *s, const char *path, const char *what)
{
	int rc;

	if (fclose(s->f)) {
		s->f = NULL;
		free(s->buf);
		s->buf = NULL;
		complain(what, path && strcmp(path, "-") ? path : NULL, ENOMEM);
		return 1;
	}
	s->f = NULL;
	rc = sink_write_bytes(s->buf, s->len, path, what);
	free(s->buf);
	s->buf = NULL;
	s->len = 0;
	return rc;
}

int sink_close_stdout(void)
{
	int err;

	if (!fflush(stdout) && !ferror(stdout))
		return 0;
	err = errno ? errno : EIO;
	complain(NULL, NULL, err);
	return 1;
}
