/* SPDX-License-Identifier: GPL-2.0-only */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/cli.h"
#include "tests/harness.h"

const char *cli_mmemu(void)
{
	const char *m = getenv("MMEMU");

#ifdef MMEMU_BIN
	if (!m || !*m)
		m = MMEMU_BIN;
#endif
	ck_assert_msg(m && *m, "MMEMU is not set (run through meson test)");
	return m;
}

const char *cli_quickstart(void)
{
	static char qs[4096];

	snprintf(qs, sizeof(qs), "%s", harness_src_path("scenarios/quickstart.ini"));
	return qs;
}

struct cli_out cli_run_to(const char *const *args, const char *stdout_path,
			  unsigned long fsize_limit)
{
	const char *argv[40];
	struct cli_out o;
	int n = 0;

	argv[n++] = cli_mmemu();
	for (; *args; args++) {
		ck_assert_int_lt(n, 39);
		argv[n++] = *args;
	}
	argv[n] = NULL;
	o.status = harness_exec_to(argv, stdout_path, fsize_limit, &o.out, &o.err);
	return o;
}

struct cli_out cli_run(const char *const *args)
{
	return cli_run_to(args, NULL, 0);
}

void cli_out_free(struct cli_out *o)
{
	free(o->out);
	free(o->err);
}

char *cli_temp_file(const char *suffix)
{
	const char *dir = getenv("TMPDIR");
	char *path;
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	ck_assert_int_gt(asprintf(&path, "%s/mmemu-test-XXXXXX%s", dir, suffix), 0);
	fd = mkstemps(path, (int)strlen(suffix));
	ck_assert_int_ge(fd, 0);
	close(fd);
	return path;
}

void cli_remove_temp(char *path)
{
	unlink(path);
	free(path);
}

void cli_strip_host_seconds(char *s)
{
	static const char key[] = "\"host_seconds\":";
	char *p = s;

	while ((p = strstr(p, key))) {
		char *v = p + sizeof(key) - 1, *end = v;

		while (*end && *end != ',' && *end != '}' && *end != '\n')
			end++;
		memmove(v, end, strlen(end) + 1);
		p = v;
	}
}

void cli_signals_as_signals(void)
{
	const char *old = getenv("ASAN_OPTIONS");
	char opts[1024];

	snprintf(opts, sizeof(opts), "%s%shandle_segv=0:handle_abort=0", old ? old : "",
		 old && *old ? ":" : "");
	setenv("ASAN_OPTIONS", opts, 1);
}
