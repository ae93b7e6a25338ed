/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>

#include "scenarios/result.h"

void result_init(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
}

void result_free(struct run_result *r)
{
	if (!r)
		return;
	for (int i = 0; i < r->nr; i++)
		free(r->g[i].v);
	free(r->g);
	free(r->dump);
	for (int i = 0; i < r->nr_samples; i++)
		free(r->samples[i]);
	free(r->samples);
	memset(r, 0, sizeof(*r));
}

struct result_group *result_group(struct run_result *r, const char *name)
{
	struct result_group *g;

	for (int i = 0; i < r->nr; i++)
		if (!strcmp(r->g[i].name, name))
			return &r->g[i];
	if (r->nr == r->cap) {
		int cap = r->cap ? 2 * r->cap : 16;
		struct result_group *n = realloc(r->g, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		r->g = n;
		r->cap = cap;
	}
	g = &r->g[r->nr++];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", name);
	return g;
}

void result_add(struct result_group *g, const char *key, double value, bool is_int)
{
	struct result_value *v;

	if (g->nr == g->cap) {
		int cap = g->cap ? 2 * g->cap : 32;
		struct result_value *n = realloc(g->v, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		g->v = n;
		g->cap = cap;
	}
	v = &g->v[g->nr++];
	snprintf(v->key, sizeof(v->key), "%s", key);
	v->value = value;
	v->is_int = is_int;
}

void result_dump_append(struct run_result *r, const char *line)
{
	size_t n = strlen(line);
	char *d = realloc(r->dump, r->dump_len + n + 2);

	if (!d)
		abort();	/* host out of memory */
	memcpy(d + r->dump_len, line, n);
	d[r->dump_len + n] = '\n';
	d[r->dump_len + n + 1] = '\0';
	r->dump = d;
	r->dump_len += n + 1;
}

void result_add_sample(struct run_result *r, const char *json)
{
	if (r->nr_samples == r->cap_samples) {
		int cap = r->cap_samples ? 2 * r->cap_samples : 64;
		char **n = realloc(r->samples, (size_t)cap * sizeof(*n));

		if (!n)
			abort();	/* host out of memory */
		r->samples = n;
		r->cap_samples = cap;
	}
	r->samples[r->nr_samples] = strdup(json);
	if (!r->samples[r->nr_samples])
		abort();
	r->nr_samples++;
}

const struct result_group *result_find_group(const struct run_result *r, const char *name)
{
	for (int i = 0; i < r->nr; i++)
		if (!strcmp(r->g[i].name, name))
			return &r->g[i];
	return NULL;
}

const struct result_value *result_find(const struct result_group *g, const char *key)
{
	if (!g)
		return NULL;
	for (int i = 0; i < g->nr; i++)
		if (!strcmp(g->v[i].key, key))
			return &g->v[i];
	return NULL;
}

int result_write(const struct run_result *r, FILE *f)
{
	fprintf(f, "run\t%s\t%llu\t%a\t%a\t%s\n", r->policy, (unsigned long long)r->seed,
		r->sim_seconds, r->host_seconds, r->options);
	for (int i = 0; i < r->nr; i++)
		for (int j = 0; j < r->g[i].nr; j++)
			fprintf(f, "v\t%s\t%s\t%a\t%d\n", r->g[i].name, r->g[i].v[j].key,
				r->g[i].v[j].value, r->g[i].v[j].is_int);
	for (int i = 0; i < r->nr_samples; i++)
		fprintf(f, "s\t%s\n", r->samples[i]);
	if (r->dump) {
		const char *p = r->dump;

		while (*p) {
			const char *nl = strchr(p, '\n');
			size_t n = nl ? (size_t)(nl - p) : strlen(p);

			fprintf(f, "d\t%.*s\n", (int)n, p);
			p += n + (nl ? 1 : 0);
		}
	}
	fprintf(f, "end\n");
	return ferror(f) ? -1 : 0;
}

int result_read(struct run_result *r, FILE *f)
{
	char line[4096];
	bool ended = false;

	result_init(r);
	while (fgets(line, sizeof(line), f)) {
		char *save, *tag;

		if (!strncmp(line, "d\t", 2)) {
			line[strcspn(line, "\n")] = '\0';
			result_dump_append(r, line + 2);
			continue;
		}
		if (!strncmp(line, "s\t", 2)) {
			line[strcspn(line, "\n")] = '\0';
			result_add_sample(r, line + 2);
			continue;
		}
		tag = strtok_r(line, "\t\n", &save);
		if (!tag)
			continue;
		if (!strcmp(tag, "run")) {
			char *p = strtok_r(NULL, "\t\n", &save);
			char *seed = strtok_r(NULL, "\t\n", &save);
			char *sim = strtok_r(NULL, "\t\n", &save);
			char *host = strtok_r(NULL, "\t\n", &save);
			char *opts = strtok_r(NULL, "\n", &save);

			if (!p || !seed || !sim || !host)
				return -1;
			snprintf(r->policy, sizeof(r->policy), "%s", p);
			r->seed = strtoull(seed, NULL, 10);
			r->sim_seconds = strtod(sim, NULL);
			r->host_seconds = strtod(host, NULL);
			snprintf(r->options, sizeof(r->options), "%s", opts ? opts : "");
		} else if (!strcmp(tag, "v")) {
			char *g = strtok_r(NULL, "\t\n", &save);
			char *k = strtok_r(NULL, "\t\n", &save);
			char *v = strtok_r(NULL, "\t\n", &save);
			char *i = strtok_r(NULL, "\t\n", &save);

			if (!g || !k || !v || !i)
				return -1;
			result_add(result_group(r, g), k, strtod(v, NULL), atoi(i));
		} else if (!strcmp(tag, "end")) {
			ended = true;
			break;
		}
	}
	return ended ? 0 : -1;
}
