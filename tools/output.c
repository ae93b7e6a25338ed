/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Result writers: a side-by-side text table like a patch cover letter,
 * JSON in the layout of the README, and CSV (one value per row).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/output.h"

/* ---- text ---- */

static void fmt_value(char *buf, size_t len, const struct result_value *v)
{
	if (!v)
		snprintf(buf, len, "-");
	else if (v->is_int)
		snprintf(buf, len, "%.0f", v->value);
	else if (v->value != 0 && fabs(v->value) < 0.01)
		snprintf(buf, len, "%.3g", v->value);
	else
		snprintf(buf, len, "%.2f", v->value);
}

static bool row_nonzero(const struct run_result *runs, int nr, const char *group, const char *key)
{
	for (int i = 0; i < nr; i++) {
		const struct result_value *v = result_find(result_find_group(&runs[i], group), key);

		if (v && v->value != 0)
			return true;
	}
	return false;
}

static void print_row(FILE *f, const struct run_result *runs, int nr, const char *group,
		      const char *key)
{
	const struct result_value *base = result_find(result_find_group(&runs[0], group), key);
	char buf[48];

	fprintf(f, "  %-30s", key);
	for (int i = 0; i < nr; i++) {
		fmt_value(buf, sizeof(buf), result_find(result_find_group(&runs[i], group), key));
		fprintf(f, " %16s", buf);
	}
	for (int i = 1; i < nr; i++) {
		const struct result_value *v = result_find(result_find_group(&runs[i], group), key);

		if (!base || !v)
			fprintf(f, " %9s", "");
		else if (base->value == 0)
			fprintf(f, " %9s", v->value == 0 ? "" : "new");
		else
			fprintf(f, " %+8.1f%%", (v->value - base->value) / fabs(base->value) * 100);
	}
	fputc('\n', f);
}

void output_text(FILE *f, const char *scenario, double scale, const struct run_result *runs,
		 int nr)
{
	fprintf(f, "scenario %s, scale %g, seed %llu\n\n", scenario, scale,
		(unsigned long long)runs[0].seed);
	fprintf(f, "  %-30s", "");
	for (int i = 0; i < nr; i++)
		fprintf(f, " %16s", runs[i].policy);
	for (int i = 1; i < nr; i++)
		fprintf(f, " %9s", i == 1 ? "change" : "");
	fputc('\n', f);
	{
		struct result_value sim = { "sim_seconds", 0, false };

		fprintf(f, "  %-30s", "sim_seconds");
		for (int i = 0; i < nr; i++) {
			char buf[48];

			sim.value = runs[i].sim_seconds;
			fmt_value(buf, sizeof(buf), &sim);
			fprintf(f, " %16s", buf);
		}
		fputc('\n', f);
	}
	/* groups in the order of the first run; each row once */
	for (int gi = 0; gi < runs[0].nr; gi++) {
		const struct result_group *g = &runs[0].g[gi];
		bool header = false;

		for (int k = 0; k < g->nr; k++) {
			if (!row_nonzero(runs, nr, g->name, g->v[k].key))
				continue;
			if (!header) {
				fprintf(f, "\n%s\n", g->name);
				header = true;
			}
			print_row(f, runs, nr, g->name, g->v[k].key);
		}
	}
}

/* ---- JSON ---- */

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

static void json_number(FILE *f, const struct result_value *v)
{
	if (!isfinite(v->value))
		fprintf(f, "null");
	else if (v->is_int)
		fprintf(f, "%.0f", v->value);
	else
		fprintf(f, "%.9g", v->value);
}

static void json_values(FILE *f, const struct result_group *g, const char *indent)
{
	for (int k = 0; k < g->nr; k++) {
		fprintf(f, "%s%s", k ? ",\n" : "", indent);
		json_string(f, g->v[k].key);
		fprintf(f, ": ");
		json_number(f, &g->v[k]);
	}
}

/* Groups whose name starts with prefix and has no further dot after it. */
static bool is_top_group(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && !strchr(name + n, '.');
}

static void json_run(FILE *f, const struct run_result *r)
{
	bool first;

	fprintf(f, "    {\"policy\": ");
	json_string(f, r->policy);
	fprintf(f, ", \"options\": ");
	json_string(f, r->options);
	fprintf(f, ", \"seed\": %llu, \"sim_seconds\": %.9g,\n     \"host_seconds\": %.3f,\n",
		(unsigned long long)r->seed, r->sim_seconds, r->host_seconds);

	fprintf(f, "     \"vmstat\": {\n");
	if (result_find_group(r, "vmstat"))
		json_values(f, result_find_group(r, "vmstat"), "       ");
	fprintf(f, "},\n     \"nodes\": [");
	first = true;
	for (int i = 0; i < r->nr; i++) {
		if (!is_top_group(r->g[i].name, "node."))
			continue;
		fprintf(f, "%s{\n", first ? "" : ", ");
		json_values(f, &r->g[i], "       ");
		fprintf(f, "}");
		first = false;
	}
	fprintf(f, "],\n     \"memcgs\": {");
	first = true;
	for (int i = 0; i < r->nr; i++) {
		const char *name = r->g[i].name;
		char sub[160];

		if (!is_top_group(name, "memcg."))
			continue;
		fprintf(f, "%s\n       ", first ? "" : ",");
		json_string(f, name + 6);
		fprintf(f, ": {\n");
		json_values(f, &r->g[i], "         ");
		snprintf(sub, sizeof(sub), "%s.memory.stat", name);
		if (result_find_group(r, sub)) {
			fprintf(f, ",\n         \"memory.stat\": {\n");
			json_values(f, result_find_group(r, sub), "           ");
			fprintf(f, "}");
		}
		snprintf(sub, sizeof(sub), "%s.memory.events", name);
		if (result_find_group(r, sub)) {
			fprintf(f, ",\n         \"memory.events\": {\n");
			json_values(f, result_find_group(r, sub), "           ");
			fprintf(f, "}");
		}
		fprintf(f, "}");
		first = false;
	}
	fprintf(f, "},\n");
	{
		static const char *const kinds[][2] = {
			{ "workloads", "workload." }, { "devices", "device." },
		};

		for (int k = 0; k < 2; k++) {
			fprintf(f, "     \"%s\": {", kinds[k][0]);
			first = true;
			for (int i = 0; i < r->nr; i++) {
				if (!is_top_group(r->g[i].name, kinds[k][1]))
					continue;
				fprintf(f, "%s\n       ", first ? "" : ",");
				json_string(f, r->g[i].name + strlen(kinds[k][1]));
				fprintf(f, ": {\n");
				json_values(f, &r->g[i], "         ");
				fprintf(f, "}");
				first = false;
			}
			fprintf(f, "},\n");
		}
	}
	fprintf(f, "     \"lru_gen_samples\": [");
	for (int i = 0; i < r->nr_samples; i++)
		fprintf(f, "%s\n       %s", i ? "," : "", r->samples[i]);
	fprintf(f, "]");
	if (r->dump) {
		fprintf(f, ",\n     \"lru_gen_dump\": ");
		json_string(f, r->dump);
	}
	fprintf(f, "\n    }");
}

void output_json(FILE *f, const char *scenario, double scale, const struct run_result *runs,
		 int nr)
{
	fprintf(f, "{\"scenario\": ");
	json_string(f, scenario);
	fprintf(f, ", \"scale\": %.9g,\n  \"runs\": [\n", scale);
	for (int i = 0; i < nr; i++) {
		json_run(f, &runs[i]);
		fprintf(f, "%s\n", i + 1 < nr ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}

/* ---- CSV ---- */

void output_csv(FILE *f, const char *scenario, double scale, const struct run_result *runs,
		int nr)
{
	fprintf(f, "scenario,scale,policy,seed,group,key,value\n");
	for (int i = 0; i < nr; i++) {
		const struct run_result *r = &runs[i];

		fprintf(f, "%s,%g,%s,%llu,run,sim_seconds,%.9g\n", scenario, scale, r->policy,
			(unsigned long long)r->seed, r->sim_seconds);
		fprintf(f, "%s,%g,%s,%llu,run,host_seconds,%.3f\n", scenario, scale, r->policy,
			(unsigned long long)r->seed, r->host_seconds);
		for (int g = 0; g < r->nr; g++) {
			for (int k = 0; k < r->g[g].nr; k++) {
				fprintf(f, "%s,%g,%s,%llu,%s,%s,", scenario, scale, r->policy,
					(unsigned long long)r->seed, r->g[g].name, r->g[g].v[k].key);
				json_number(f, &r->g[g].v[k]);
				fputc('\n', f);
			}
		}
	}
}
