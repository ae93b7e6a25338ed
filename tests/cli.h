/* SPDX-License-Identifier: GPL-2.0-only */
/* Running the mmemu binary from the CLI tests (test_cli, report, plot, sweep). */
#ifndef MMEMU_TESTS_CLI_H
#define MMEMU_TESTS_CLI_H

struct cli_out {
	int status;	/* exit status, -1 if it did not exit */
	char *out;	/* stdout */
	char *err;	/* stderr */
};

/* The binary: $MMEMU, else the one meson built (MMEMU_BIN). */
const char *cli_mmemu(void);
/* $SRCDIR/scenarios/quickstart.ini */
const char *cli_quickstart(void);
/* Runs mmemu with args (NULL-terminated), capturing its output. */
struct cli_out cli_run(const char *const *args);
/* The same with stdout to stdout_path and a file size limit (see harness_exec_to). */
struct cli_out cli_run_to(const char *const *args, const char *stdout_path,
			  unsigned long fsize_limit);
void cli_out_free(struct cli_out *o);
/* A new empty temporary file ending in suffix (e.g. ".pb"); malloc'ed path. */
char *cli_temp_file(const char *suffix);
/* Unlinks and frees a path from cli_temp_file(). */
void cli_remove_temp(char *path);
/*
 * Lets a child's SIGSEGV and SIGABRT (the crashing plug-ins) end it by the
 * signal under AddressSanitizer too, whose handlers would make them exit 1.
 */
void cli_signals_as_signals(void);
/* Blanks the values of "host_seconds": keys (the only host-dependent field). */
void cli_strip_host_seconds(char *s);

#endif
