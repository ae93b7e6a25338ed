/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * `mmemu report FILE...`: saved results printed byte for byte as run
 * printed them, the runs of several files side by side; and the printer
 * run shares (cmd_print_invocation()). What it prints goes out through
 * tools/sink.h: a write that fails is an error, never a silent truncation.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenarios/result.h"
#include "tools/cmd.h"
#include "tools/help.h"
#include "tools/options.h"
#include "tools/output.h"
#include "tools/resultset.h"
#include "tools/sink.h"
#include "tools/summary.h"

/* The invocation in format (a summary over seeds when seeds > 1) to standard output. */
int cmd_print_invocation(const Mmemu__Invocation *inv, const struct output_opts *o,
			    bool summary)
{
	struct sink out;
	char err[512] = "";
	int rc;

	if (sink_open(&out))
		return cmd_die("out of memory");
	rc = summary ? summary_write(out.f, o, inv, err, sizeof(err))
		     : output_write(out.f, o, inv, err, sizeof(err));
	if (rc) {
		sink_discard(&out);
		fprintf(stderr, "mmemu: %s\n", err);
		return 2;
	}
	return sink_commit(&out, NULL, NULL);
}

/* Reads a saved invocation; a message naming the file when it is not one. */
static Mmemu__Invocation *load_invocation(const char *path)
{
	FILE *f = fopen(path, "rb");
	Mmemu__Invocation *inv;
	char why[256];

	if (!f) {
		fprintf(stderr, "mmemu: report: cannot open '%s': %s\n", path, strerror(errno));
		return NULL;
	}
	inv = result_file_read(f, why, sizeof(why));
	fclose(f);
	if (inv && !inv->n_runs) {
		mmemu__invocation__free_unpacked(inv, NULL);
		inv = NULL;
		snprintf(why, sizeof(why), "holds no runs");
	}
	if (!inv)
		fprintf(stderr, "mmemu: report: '%s': %s\n", path, why);
	return inv;
}

int cmd_report(int argc, char **argv)
{
	struct output_opts oo = { .format = "text" };
	Mmemu__Invocation **files, all = MMEMU__INVOCATION__INIT;
	char err[512];
	int nr_files, opt, rc = 0;
	bool summary = false, force = false;

	optind = 1;
	while ((opt = cli_getopt(CMD_REPORT, argc, argv)) != -1) {
		switch (opt) {
		case OPT_FORMAT:
			oo.format = optarg;
			if (!output_format_known(oo.format)) {
				snprintf(err, sizeof(err), "--format '%s': expected text, json or csv",
					 optarg);
				return cmd_die(err);
			}
			break;
		case OPT_SUMMARY:
			summary = true;
			break;
		case OPT_ALL:
			oo.all = true;
			break;
		case OPT_FORCE:
			force = true;
			break;
		case OPT_HELP:
			help_command(stdout, "report");
			return 0;
		default:
			return cmd_bad_usage("report");
		}
	}
	nr_files = argc - optind;
	if (nr_files < 1)
		return cmd_bad_usage("report");
	files = calloc((size_t)nr_files, sizeof(*files));
	if (!files)
		return cmd_die("out of memory");
	for (int i = 0; i < nr_files; i++) {
		Mmemu__Run **runs;

		files[i] = load_invocation(argv[optind + i]);
		if (!files[i]) {
			rc = 2;
			break;
		}
		/* JSON carries the samples: a bad one is named with its file */
		if (!strcmp(oo.format, "json") &&
		    result_check_samples(files[i], argv[optind + i], err, sizeof(err))) {
			fprintf(stderr, "mmemu: report: %s\n", err);
			rc = 2;
			break;
		}
		if (i && !force &&
		    result_same_experiment(files[0], argv[optind], files[i], argv[optind + i],
					   "report", err, sizeof(err))) {
			fprintf(stderr, "mmemu: %s\n", err);
			rc = 2;
			break;
		}
		runs = realloc(all.runs, (all.n_runs + files[i]->n_runs) * sizeof(*runs));
		if (!runs) {
			rc = cmd_die("out of memory");
			break;
		}
		memcpy(runs + all.n_runs, files[i]->runs, files[i]->n_runs * sizeof(*runs));
		all.runs = runs;
		all.n_runs += files[i]->n_runs;
	}
	/* the runs of every file side by side, under the first file's scenario and scale */
	if (!rc) {
		all.scenario_name = files[0]->scenario_name;
		all.scenario_path = files[0]->scenario_path;
		all.scenario_text = files[0]->scenario_text;
		all.scale = files[0]->scale;
		all.mmemu_version = files[0]->mmemu_version;
		rc = cmd_print_invocation(&all, &oo, summary);
	}
	free(all.runs);
	for (int i = 0; i < nr_files; i++)
		if (files[i])
			mmemu__invocation__free_unpacked(files[i], NULL);
	free(files);
	return rc;
}
