// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmemu view FILE.pb... -o view.html: the runs saved with run --out as one
 * HTML page that opens without network access. The chart library is
 * Debian's libjs-chart.js, embedded at build time (tools/meson.build turns
 * chart.min.js and tools/view.js into byte arrays with xxd -i); this file
 * only writes the page and the runs as JSON: each run's samples as they
 * were saved (the rows plot reads), its final lru_gen dump and its memcgs'
 * limits. tools/view.js draws the panels from them.
 */
#include <errno.h>
#include <stdbool.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "tools/help.h"
#include "tools/options.h"
#include "tools/palette.h"
#include "tools/resultset.h"
#include "tools/sink.h"
#include "tools/view.h"

static const unsigned char chartjs[] = {
#include "chartjs.inc"
	, 0
};
static const unsigned char viewjs[] = {
#include "viewjs.inc"
	, 0
};

/* The memcg limits a panel draws against, by the key the result gives them. */
static const char *const limit_keys[] = { "memory.max", "memory.high" };

json_t *view_run_json(const char *scenario, const Mmemu__Run *run, char *why, size_t whylen)
{
	json_t *o = json_object(), *samples = json_array(), *limits = json_object();

	json_object_set_new(o, "scenario", json_string(scenario));
	json_object_set_new(o, "policy", json_string(run->policy));
	json_object_set_new(o, "seed", json_integer((json_int_t)run->seed));
	json_object_set_new(o, "sim_seconds", json_real(run->sim_seconds));
	json_object_set_new(o, "dump", json_string(run->dump ? run->dump : ""));
	for (size_t s = 0; s < run->n_samples; s++) {
		json_error_t jerr;
		char *text = result_sample_text(run->samples[s]);
		json_t *row = text ? json_loads(text, 0, &jerr) : NULL;

		free(text);
		if (!row) {
			snprintf(why, whylen, "run '%s' sample %zu is not JSON: %s", run->policy,
				 s + 1, jerr.text);
			goto fail;
		}
		json_array_append_new(samples, row);
	}
	/* groups "memcg.X": the memcg's own values (not .memory.stat or .memory.events) */
	for (size_t g = 0; g < run->n_groups; g++) {
		const Mmemu__Group *grp = run->groups[g];
		const char *name = grp->name;
		size_t len;
		json_t *lim;
		char *path;

		if (strncmp(name, "memcg.", 6) || strchr(name + 6, '.'))
			continue;
		/* the memcg's path as the page names it: "/" and the name, never cut */
		len = strlen(name + 6) + 2;
		path = malloc(len);
		if (!path) {
			snprintf(why, whylen, "out of memory");
			goto fail;
		}
		snprintf(path, len, "/%s", name + 6);
		lim = json_object();
		for (size_t v = 0; v < grp->n_values; v++)
			for (size_t k = 0; k < sizeof(limit_keys) / sizeof(limit_keys[0]); k++)
				if (!strcmp(grp->values[v]->key, limit_keys[k]))
					json_object_set_new(lim, limit_keys[k],
							    json_real(grp->values[v]->value));
		json_object_set_new(limits, path, lim);
		free(path);
	}
	json_object_set_new(o, "samples", samples);
	json_object_set_new(o, "limits", limits);
	return o;
fail:
	json_decref(o);
	json_decref(samples);
	json_decref(limits);
	return NULL;
}

/* s inside a <script>: "</" written "<\/" so that no text ends the element. */
static void put_script_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '<' && s[1] == '/') {
			fputs("<\\/", f);
			s++;
		} else {
			fputc(*s, f);
		}
	}
}

int view_write_page(FILE *f, const char *title, const json_t *doc, const char *extra_js,
		    char *why, size_t whylen)
{
	char *text = json_dumps(doc, VIEW_JSON_FLAGS);

	if (!text) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		   "<title>mmemu view: %s</title>\n<script>\n", title);
	fputs((const char *)chartjs, f);
	fputs("\n</script>\n<script id=\"mmemu-data\" type=\"application/json\">", f);
	put_script_text(f, text);
	fputs("</script>\n</head><body>\n<div id=\"mmemu-view\"></div>\n<script>\n", f);
	palette_write_js(f);	/* the generations' colours, those of mmemu plot */
	fputs((const char *)viewjs, f);
	if (extra_js) {
		fputs("\n</script>\n<script>\n", f);
		fputs(extra_js, f);
	}
	fputs("\n</script>\n</body></html>\n", f);
	free(text);
	return 0;
}

int view_write(FILE *f, Mmemu__Invocation *const *invs, int n, char *why, size_t whylen)
{
	json_t *doc = json_object(), *runs = json_array();
	int rc;

	for (int i = 0; i < n; i++)
		for (size_t r = 0; r < invs[i]->n_runs; r++) {
			json_t *o = view_run_json(invs[i]->scenario_name, invs[i]->runs[r], why,
						  whylen);

			if (!o) {
				json_decref(runs);
				json_decref(doc);
				return -1;
			}
			json_array_append_new(runs, o);
		}
	json_object_set_new(doc, "scenario", json_string(invs[0]->scenario_name));
	json_object_set_new(doc, "scale", json_real(invs[0]->scale));
	json_object_set_new(doc, "runs", runs);
	rc = view_write_page(f, invs[0]->scenario_name, doc, NULL, why, whylen);
	json_decref(doc);
	return rc;
}

static int usage(void)
{
	fprintf(stderr, "usage: mmemu view FILE.pb... -o OUT.html (see mmemu view --help)\n");
	return 2;
}

int cmd_view(int argc, char **argv)
{
	const char *out_path = NULL;
	Mmemu__Invocation **invs;
	struct sink out;
	char why[512];
	int opt, n, rc = 0;
	bool force = false;

	optind = 1;
	while ((opt = cli_getopt(CMD_VIEW, argc, argv)) != -1) {
		switch (opt) {
		case OPT_OUT:
			out_path = optarg;
			break;
		case OPT_FORCE:
			force = true;
			break;
		case OPT_HELP:
			return help_command(stdout, "view") ? 1 : 0;
		default:
			return usage();
		}
	}
	n = argc - optind;
	if (n < 1) {
		fprintf(stderr, "mmemu: view: no saved results given\n");
		return usage();
	}
	if (!out_path) {
		fprintf(stderr, "mmemu: view: -o OUT.html is required\n");
		return usage();
	}
	invs = calloc((size_t)n, sizeof(*invs));
	if (!invs)
		return 1;
	for (int i = 0; i < n && !rc; i++) {
		const char *path = argv[optind + i];
		FILE *in = fopen(path, "rb");

		if (!in) {
			fprintf(stderr, "mmemu: %s: %s\n", path, strerror(errno));
			rc = 2;
			break;
		}
		invs[i] = result_file_read(in, why, sizeof(why));
		fclose(in);
		if (!invs[i]) {
			fprintf(stderr, "mmemu: %s: %s\n", path, why);
			rc = 2;
		} else if (result_check_samples(invs[i], path, why, sizeof(why))) {
			fprintf(stderr, "mmemu: view: %s\n", why);
			rc = 2;
		}
	}
	/* side by side on shared axes: one scenario at one scale */
	for (int i = 1; i < n && !rc && !force; i++)
		if (result_same_experiment(invs[0], argv[optind], invs[i], argv[optind + i], "view",
					   why, sizeof(why))) {
			fprintf(stderr, "mmemu: %s\n", why);
			rc = 2;
		}
	if (!rc) {
		if (sink_open(&out))
			rc = 1;
		else if (view_write(out.f, invs, n, why, sizeof(why))) {
			sink_discard(&out);
			fprintf(stderr, "mmemu: view: %s\n", why);
			rc = 2;
		} else {
			rc = sink_commit(&out, out_path, "-o");
		}
	}
	for (int i = 0; i < n; i++)
		if (invs[i])
			mmemu__invocation__free_unpacked(invs[i], NULL);
	free(invs);
	return rc;
}
