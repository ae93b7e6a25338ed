/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Result writers: a side-by-side text table like a patch cover letter,
 * JSON in the layout of the README, and CSV (one value per row). They read
 * the mmemu.Invocation message only, whether it came from the runs' pipes
 * or from a saved file.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/output.h"

/* ---- lookups ---- */

static const Mmemu__Group *find_group(const Mmemu__Run *r, const char *name)
{
	for (size_t i = 0; i < r->n_groups; i++)
		if (!strcmp(r->groups[i]->name, name))
			return r->groups[i];
	return NULL;
}

static const Mmemu__Value *find_value(const Mmemu__Run *r, const char *group, const char *key)
{
	const Mmemu__Group *g = find_group(r, group);

	if (!g)
		return NULL;
	for (size_t k = 0; k < g->n_values; k++)
		if (!strcmp(g->values[k]->key, key))
			return g->values[k];
	return NULL;
}

/* ---- text ---- */

static void fmt_value(char *buf, size_t len, const Mmemu__Value *v)
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

static bool row_nonzero(Mmemu__Run *const *runs, size_t nr, const char *group, const char *key)
{
	for (size_t i = 0; i < nr; i++) {
		const Mmemu__Value *v = find_value(runs[i], group, key);

		if (v && v->value != 0)
			return true;
	}
	return false;
}

static void print_row(FILE *f, Mmemu__Run *const *runs, size_t nr, const char *group,
		      const char *key)
{
	const Mmemu__Value *base = find_value(runs[0], group, key);
	char buf[48];

	fprintf(f, "  %-30s", key);
	for (size_t i = 0; i < nr; i++) {
		fmt_value(buf, sizeof(buf), find_value(runs[i], group, key));
		fprintf(f, " %16s", buf);
	}
	for (size_t i = 1; i < nr; i++) {
		const Mmemu__Value *v = find_value(runs[i], group, key);

		if (!base || !v)
			fprintf(f, " %9s", "");
		else if (base->value == 0)
			fprintf(f, " %9s", v->value == 0 ? "" : "new");
		else
			fprintf(f, " %+8.1f%%", (v->value - base->value) / fabs(base->value) * 100);
	}
	fputc('\n', f);
}

void output_text(FILE *f, const Mmemu__Invocation *inv)
{
	Mmemu__Run *const *runs = inv->runs;
	size_t nr = inv->n_runs;

	fprintf(f, "scenario %s, scale %g, seed %llu\n\n", inv->scenario_name, inv->scale,
		(unsigned long long)runs[0]->seed);
	fprintf(f, "  %-30s", "");
	for (size_t i = 0; i < nr; i++)
		fprintf(f, " %16s", runs[i]->policy);
	for (size_t i = 1; i < nr; i++)
		fprintf(f, " %9s", "change");
	fputc('\n', f);
	{
		Mmemu__Value sim = MMEMU__VALUE__INIT;

		fprintf(f, "  %-30s", "sim_seconds");
		for (size_t i = 0; i < nr; i++) {
			char buf[48];

			sim.value = runs[i]->sim_seconds;
			fmt_value(buf, sizeof(buf), &sim);
			fprintf(f, " %16s", buf);
		}
		fputc('\n', f);
	}
	/* groups in the order of the first run; each row once */
	for (size_t gi = 0; gi < runs[0]->n_groups; gi++) {
		const Mmemu__Group *g = runs[0]->groups[gi];
		bool header = false;

		for (size_t k = 0; k < g->n_values; k++) {
			if (!row_nonzero(runs, nr, g->name, g->values[k]->key))
				continue;
			if (!header) {
				fprintf(f, "\n%s\n", g->name);
				header = true;
			}
			print_row(f, runs, nr, g->name, g->values[k]->key);
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

static void json_number(FILE *f, const Mmemu__Value *v)
{
	if (!isfinite(v->value))
		fprintf(f, "null");
	else if (v->is_int)
		fprintf(f, "%.0f", v->value);
	else
		fprintf(f, "%.9g", v->value);
}

static void json_values(FILE *f, const Mmemu__Group *g, const char *indent)
{
	for (size_t k = 0; k < g->n_values; k++) {
		fprintf(f, "%s%s", k ? ",\n" : "", indent);
		json_string(f, g->values[k]->key);
		fprintf(f, ": ");
		json_number(f, g->values[k]);
	}
}

/* Groups whose name starts with prefix and has no further dot after it. */
static bool is_top_group(const char *name, const char *prefix)
{
	size_t n = strlen(prefix);

	return !strncmp(name, prefix, n) && !strchr(name + n, '.');
}

static void json_run(FILE *f, const Mmemu__Run *r)
{
	const Mmemu__Group *g;
	bool first;

	fprintf(f, "    {\"policy\": ");
	json_string(f, r->policy);
	fprintf(f, ", \"options\": ");
	json_string(f, r->options);
	fprintf(f, ", \"seed\": %llu, \"sim_seconds\": %.9g,\n     \"host_seconds\": %.3f,\n",
		(unsigned long long)r->seed, r->sim_seconds, r->host_seconds);

	fprintf(f, "     \"vmstat\": {\n");
	if ((g = find_group(r, "vmstat")))
		json_values(f, g, "       ");
	fprintf(f, "},\n     \"nodes\": [");
	first = true;
	for (size_t i = 0; i < r->n_groups; i++) {
		if (!is_top_group(r->groups[i]->name, "node."))
			continue;
		fprintf(f, "%s{\n", first ? "" : ", ");
		json_values(f, r->groups[i], "       ");
		fprintf(f, "}");
		first = false;
	}
	fprintf(f, "],\n     \"memcgs\": {");
	first = true;
	for (size_t i = 0; i < r->n_groups; i++) {
		const char *name = r->groups[i]->name;
		char sub[160];

		if (!is_top_group(name, "memcg."))
			continue;
		fprintf(f, "%s\n       ", first ? "" : ",");
		json_string(f, name + 6);
		fprintf(f, ": {\n");
		json_values(f, r->groups[i], "         ");
		snprintf(sub, sizeof(sub), "%s.memory.stat", name);
		if ((g = find_group(r, sub))) {
			fprintf(f, ",\n         \"memory.stat\": {\n");
			json_values(f, g, "           ");
			fprintf(f, "}");
		}
		snprintf(sub, sizeof(sub), "%s.memory.events", name);
		if ((g = find_group(r, sub))) {
			fprintf(f, ",\n         \"memory.events\": {\n");
			json_values(f, g, "           ");
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
			for (size_t i = 0; i < r->n_groups; i++) {
				if (!is_top_group(r->groups[i]->name, kinds[k][1]))
					continue;
				fprintf(f, "%s\n       ", first ? "" : ",");
				json_string(f, r->groups[i]->name + strlen(kinds[k][1]));
				fprintf(f, ": {\n");
				json_values(f, r->groups[i], "         ");
				fprintf(f, "}");
				first = false;
			}
			fprintf(f, "},\n");
		}
	}
	fprintf(f, "     \"lru_gen_samples\": [");
	for (size_t i = 0; i < r->n_samples; i++)
		fprintf(f, "%s\n       %s", i ? "," : "", r->samples[i]);
	fprintf(f, "]");
	if (*r->dump) {
		fprintf(f, ",\n     \"lru_gen_dump\": ");
		json_string(f, r->dump);
	}
	fprintf(f, "\n    }");
}

void output_json(FILE *f, const Mmemu__Invocation *inv)
{
	fprintf(f, "{\"scenario\": ");
	json_string(f, inv->scenario_name);
	fprintf(f, ", \"scale\": %.9g,\n  \"runs\": [\n", inv->scale);
	for (size_t i = 0; i < inv->n_runs; i++) {
		json_run(f, inv->runs[i]);
		fprintf(f, "%s\n", i + 1 < inv->n_runs ? "," : "");
	}
	fprintf(f, "  ]\n}\n");
}

/* ---- CSV ---- */

void output_csv(FILE *f, const Mmemu__Invocation *inv)
{
	const char *scenario = inv->scenario_name;
	double scale = inv->scale;

	fprintf(f, "scenario,scale,policy,seed,group,key,value\n");
	for (size_t i = 0; i < inv->n_runs; i++) {
		const Mmemu__Run *r = inv->runs[i];

		fprintf(f, "%s,%g,%s,%llu,run,sim_seconds,%.9g\n", scenario, scale, r->policy,
			(unsigned long long)r->seed, r->sim_seconds);
		fprintf(f, "%s,%g,%s,%llu,run,host_seconds,%.3f\n", scenario, scale, r->policy,
			(unsigned long long)r->seed, r->host_seconds);
		for (size_t g = 0; g < r->n_groups; g++) {
			const Mmemu__Group *grp = r->groups[g];

			for (size_t k = 0; k < grp->n_values; k++) {
				fprintf(f, "%s,%g,%s,%llu,%s,%s,", scenario, scale, r->policy,
					(unsigned long long)r->seed, grp->name, grp->values[k]->key);
				json_number(f, grp->values[k]);
				fputc('\n', f);
			}
		}
	}
}

/* ---- any format ---- */

bool output_format_known(const char *format)
{
	return !strcmp(format, "text") || !strcmp(format, "json") || !strcmp(format, "csv");
}

void output_write(FILE *f, const char *format, const Mmemu__Invocation *inv)
{
	bool dump = false;

	if (!strcmp(format, "json")) {
		output_json(f, inv);
		return;	/* the dumps are in the runs' lru_gen_dump */
	}
	if (!strcmp(format, "csv"))
		output_csv(f, inv);
	else
		output_text(f, inv);
	/* --dump lru_gen gives every run a dump, at least its heading */
	for (size_t i = 0; i < inv->n_runs; i++)
		dump = dump || *inv->runs[i]->dump;
	if (dump)
		for (size_t i = 0; i < inv->n_runs; i++)
			fprintf(f, "\n# lru_gen, policy %s\n%s", inv->runs[i]->policy,
				inv->runs[i]->dump);
}
