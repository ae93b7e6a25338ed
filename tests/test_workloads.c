/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The workload registry (scenarios/workloads.c): every type is complete
 * and its keys are declared once; the parser takes a type's keys wherever
 * `type` is in the section and names the type's keys when one is unknown;
 * `mmemu list` and the README's table say what the table says.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "scenarios/scenario.h"
#include "scenarios/wl_access.h"
#include "scenarios/workload.h"
#include "tests/cli.h"

static int nr_keys(const struct key_desc *tab)
{
	int n = 0;

	while (tab && tab[n].key)
		n++;
	return n;
}

static void check_key(const char *type, const struct key_desc *k, size_t params_size)
{
	ck_assert_msg(k->doc && *k->doc, "%s: key '%s' has no documentation", type, k->key);
	ck_assert_msg(k->what && *k->what, "%s: key '%s' has no value name", type, k->key);
	ck_assert_msg(!strchr(k->key, '|') && !strchr(k->doc, '\n'), "%s: key '%s'", type, k->key);
	ck_assert_msg(k->scale == KEY_UNSCALED || k->scale == KEY_SCALED ||
		      k->scale == KEY_SCALED_PAGES || k->scale == KEY_PERIOD,
		      "%s: key '%s' does not say what --scale does to it", type, k->key);
	ck_assert_msg(k->scale != KEY_PERIOD || k->type == KT_TIME,
		      "%s: key '%s' is a period but not a duration", type, k->key);
	ck_assert_msg(k->type != KT_CHOICE || (k->choices && k->choices[0]),
		      "%s: choice key '%s' has no choices", type, k->key);
	if (params_size)
		ck_assert_msg(k->offset + k->size <= params_size,
			      "%s: key '%s' lies outside the type's params", type, k->key);
}

START_TEST(test_every_type_is_complete)
{
	int n = 0;

	for (int t = 0; workload_types[t]; t++, n++) {
		const struct workload_ops *o = workload_types[t];

		ck_assert_msg(o->name && *o->name, "type %d has no name", t);
		ck_assert_msg(o->desc && *o->desc, "%s has no description", o->name);
		ck_assert_msg(!strchr(o->desc, '|') && !strchr(o->desc, '\n'), "%s: desc", o->name);
		ck_assert_msg(o->start, "%s has no start", o->name);
		ck_assert_msg(!o->reports_all || o->report, "%s reports all with no report", o->name);
		ck_assert_msg(!nr_keys(o->keys) || o->params_size, "%s: keys without params", o->name);
		ck_assert_msg(!o->params_free || o->params_size, "%s: params_free without params",
			      o->name);
		ck_assert_ptr_eq(workload_type_find(o->name), o);
		for (int u = 0; u < t; u++)
			ck_assert_msg(strcmp(workload_types[u]->name, o->name),
				      "two types named '%s'", o->name);
	}
	ck_assert_int_ge(n, 13);
	ck_assert_ptr_null(workload_type_find("no-such-type"));
}
END_TEST

START_TEST(test_keys_declared_once)
{
	const struct key_desc *common = scn_workload_keys;

	ck_assert_int_ge(nr_keys(common), 9);
	for (int i = 0; common[i].key; i++) {
		check_key("every type", &common[i], sizeof(struct scn_workload));
		for (int j = 0; j < i; j++)
			ck_assert_str_ne(common[i].key, common[j].key);
	}
	for (int t = 0; workload_types[t]; t++) {
		const struct workload_ops *o = workload_types[t];
		const struct key_desc *k = o->keys;

		for (int i = 0; k && k[i].key; i++) {
			check_key(o->name, &k[i], o->params_size);
			for (int j = 0; j < i; j++)
				ck_assert_msg(strcmp(k[i].key, k[j].key), "%s: key '%s' twice", o->name,
					      k[i].key);
			for (int j = 0; common[j].key; j++)
				ck_assert_msg(strcmp(k[i].key, common[j].key),
					      "%s: key '%s' is already every type's", o->name, k[i].key);
		}
	}
}
END_TEST

/* Loads text (with sets); returns the status, the message in err. */
static int load(const char *text, const char *const *sets, int nr_sets, char **path, char *err,
		size_t errlen, struct scenario *s)
{
	int rc;

	*path = harness_write_temp(text);
	err[0] = '\0';
	rc = scenario_load(s, *path, sets, nr_sets, 1.0, err, errlen);
	return rc;
}

static const char head[] =
	"[machine]\n"			/* 1 */
	"nodes = 1\n"			/* 2 */
	"node_memory = 256M\n"		/* 3 */
	"[device.d0]\n"			/* 4 */
	"type = nvme\n"			/* 5 */
	"[workload.w]\n";		/* 6 */

/* An unknown key in [workload.w] of each type: file, line, key, and every key it takes. */
START_TEST(test_unknown_key_lists_the_types_keys)
{
	for (int t = 0; workload_types[t]; t++) {
		const struct workload_ops *o = workload_types[t];
		char text[1024], err[1024], *path, line[32];
		struct scenario s;

		snprintf(text, sizeof(text), "%stype = %s\nno_such_key = 1\n", head, o->name);
		ck_assert_int_eq(load(text, NULL, 0, &path, err, sizeof(err), &s), -1);
		ck_assert_msg(strstr(err, path), "%s: no file in: %s", o->name, err);
		snprintf(line, sizeof(line), "line 8:");
		ck_assert_msg(strstr(err, line), "%s: no line in: %s", o->name, err);
		ck_assert_msg(strstr(err, "'no_such_key'"), "%s: no key in: %s", o->name, err);
		ck_assert_msg(strstr(err, o->name), "%s: no type in: %s", o->name, err);
		for (const struct key_desc *k = scn_workload_keys; k->key; k++)
			ck_assert_msg(strstr(err, k->key), "%s: '%s' missing from: %s", o->name, k->key,
				      err);
		for (const struct key_desc *k = o->keys; k && k->key; k++)
			ck_assert_msg(strstr(err, k->key), "%s: '%s' missing from: %s", o->name, k->key,
				      err);
		scenario_free(&s);
		unlink(path);
		free(path);
	}
}
END_TEST

/* One type's key in another's section is unknown there, from the file and from --set. */
START_TEST(test_other_types_key_rejected)
{
	static const char *const set[] = { "workload.w.cache_size=1G" };
	char text[1024], err[1024], *path;
	struct scenario s;

	snprintf(text, sizeof(text), "%stype = file-zipf\ndevice = d0\nsize = 16M\nops = 10\n"
		 "cache_size = 8M\n", head);
	ck_assert_int_eq(load(text, NULL, 0, &path, err, sizeof(err), &s), -1);
	ck_assert_msg(strstr(err, "line 11:") && strstr(err, "'cache_size'") &&
		      strstr(err, "a 'file-zipf' workload takes") && strstr(err, "zipf_theta"),
		      "%s", err);
	scenario_free(&s);
	unlink(path);
	free(path);

	snprintf(text, sizeof(text), "%stype = file-zipf\ndevice = d0\nsize = 16M\nops = 10\n",
		 head);
	ck_assert_int_eq(load(text, set, 1, &path, err, sizeof(err), &s), -1);
	ck_assert_msg(strstr(err, "--set 'workload.w.cache_size=1G'") &&
		      strstr(err, "a 'file-zipf' workload takes"), "%s", err);
	scenario_free(&s);
	unlink(path);
	free(path);
}
END_TEST

/* INI order is free: a type's keys may come before its `type` line. */
START_TEST(test_keys_before_type)
{
	char text[1024], err[1024], *path;
	const struct access_params *p;
	struct scenario s;

	snprintf(text, sizeof(text), "%sprefault = yes\nwrite_ratio = 0.25\nsize = 16M\n"
		 "ops = 10\ntype = anon\n", head);
	ck_assert_msg(load(text, NULL, 0, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_str_eq(s.workload[0].type->name, "anon");
	p = s.workload[0].params;
	ck_assert(p->prefault);
	ck_assert_double_eq_tol(p->write_ratio, 0.25, 1e-12);
	ck_assert_uint_eq(p->pages_per_op, 1);	/* the type's default */
	scenario_free(&s);
	unlink(path);
	free(path);

	/* a ycsb store loads only if cache_size reached the type's keys */
	snprintf(text, sizeof(text), "%scache_size = 4M\nrecord_size = 512\ndevice = d0\n"
		 "size = 16M\nops = 10\ntype = ycsb\n", head);
	ck_assert_msg(load(text, NULL, 0, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_str_eq(s.workload[0].type->name, "ycsb");
	scenario_free(&s);
	unlink(path);
	free(path);

	/* a bad value of a type's key before `type` names its own line */
	snprintf(text, sizeof(text), "%scache_size = lots\ndevice = d0\nsize = 16M\nops = 10\n"
		 "type = ycsb\n", head);
	ck_assert_int_eq(load(text, NULL, 0, &path, err, sizeof(err), &s), -1);
	ck_assert_msg(strstr(err, "line 7:") && strstr(err, "cache_size") && strstr(err, "lots"),
		      "%s", err);
	scenario_free(&s);
	unlink(path);
	free(path);
}
END_TEST

/* --set may give the type, and the section's keys follow it. */
START_TEST(test_type_from_set)
{
	static const char *const set[] = { "workload.w.type=anon", "workload.w.write_ratio=0.5" };
	char text[1024], err[1024], *path;
	struct scenario s;

	snprintf(text, sizeof(text), "%sprefault = 1\nsize = 16M\nops = 10\n", head);
	ck_assert_msg(load(text, set, 2, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_str_eq(s.workload[0].type->name, "anon");
	ck_assert(((const struct access_params *)s.workload[0].params)->prefault);
	ck_assert_double_eq_tol(((const struct access_params *)s.workload[0].params)->write_ratio,
				0.5, 1e-12);
	scenario_free(&s);
	unlink(path);
	free(path);
}
END_TEST

/*
 * --set's `type` counts over the file's, as for any key; a second `type`
 * line in the section is an error, as any key set twice is (issue 13.6).
 */
START_TEST(test_type_set_overrides_file)
{
	static const char *const set[] = { "workload.w.type=anon" };
	char text[1024], err[1024], *path;
	struct scenario s;

	snprintf(text, sizeof(text), "%stype = file-zipf\ndevice = d0\nsize = 16M\nops = 10\n"
		 "write_ratio = 0.5\n", head);
	ck_assert_msg(load(text, set, 1, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_str_eq(s.workload[0].type->name, "anon");
	ck_assert_double_eq_tol(((const struct access_params *)s.workload[0].params)->write_ratio,
				0.5, 1e-12);
	scenario_free(&s);
	unlink(path);
	free(path);

	snprintf(text, sizeof(text), "%stype = file-zipf\nsize = 16M\nops = 10\nprefault = 1\n"
		 "type = anon\n", head);
	ck_assert_int_ne(load(text, NULL, 0, &path, err, sizeof(err), &s), 0);
	ck_assert_msg(strstr(err, "type") && strstr(err, "set again"), "%s", err);
	scenario_free(&s);
	unlink(path);
	free(path);
}
END_TEST

/* A run's cost estimate (sweep's dispatch order) sees a page-access type's pages_per_op. */
START_TEST(test_pages_per_op)
{
	static const char *const set[] = { "workload.w.pages_per_op=4" };
	char text[1024], err[1024], *path;
	struct scenario s;

	snprintf(text, sizeof(text), "%stype = file-zipf\ndevice = d0\nsize = 16M\nops = 10\n",
		 head);
	ck_assert_msg(load(text, NULL, 0, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_uint_eq(workload_pages_per_op(&s.workload[0]), 1);
	scenario_free(&s);
	unlink(path);
	free(path);
	ck_assert_msg(load(text, set, 1, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_uint_eq(workload_pages_per_op(&s.workload[0]), 4);
	scenario_free(&s);
	unlink(path);
	free(path);

	/* a type without the key: one page an operation */
	snprintf(text, sizeof(text), "%stype = anon-rounds\nsize = 16M\nops = 10\nrounds = 2\n",
		 head);
	ck_assert_msg(load(text, NULL, 0, &path, err, sizeof(err), &s) == 0, "%s", err);
	ck_assert_uint_eq(workload_pages_per_op(&s.workload[0]), 1);
	scenario_free(&s);
	unlink(path);
	free(path);
}
END_TEST

START_TEST(test_bad_type_lists_types)
{
	char text[1024], err[1024], *path;
	struct scenario s;

	snprintf(text, sizeof(text), "%ssize = 16M\ntype = no-such\n", head);
	ck_assert_int_eq(load(text, NULL, 0, &path, err, sizeof(err), &s), -1);
	ck_assert_msg(strstr(err, "line 8:") && strstr(err, "'no-such'"), "%s", err);
	for (int t = 0; workload_types[t]; t++)
		ck_assert_msg(strstr(err, workload_types[t]->name), "%s", err);
	scenario_free(&s);
	unlink(path);
	free(path);
}
END_TEST

/* The README row of a type, as the table says it. */
static void readme_row(const struct workload_ops *o, char *row, size_t len)
{
	size_t n = (size_t)snprintf(row, len, "| `%s` | %s | ", o->name, o->desc);

	for (const struct key_desc *k = o->keys; k && k->key; k++)
		n += (size_t)snprintf(row + n, len - n, "%s%s", k == o->keys ? "" : ", ", k->key);
	snprintf(row + n, len - n, " |");
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	long len;

	ck_assert_msg(f != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	buf[len] = '\0';
	fclose(f);
	return buf;
}

/* The README's workload table has one row per type, in the table's order, as the table says. */
START_TEST(test_readme_table_matches_registry)
{
	char *readme = read_file(harness_src_path("README.md"));
	const char *at = strstr(readme, "| type | imitates | own keys |");
	char row[1024];

	ck_assert_msg(at != NULL, "README.md has no workload table");
	at = strchr(at, '\n') + 1;	/* the header */
	at = strchr(at, '\n') + 1;	/* |---| */
	for (int t = 0; workload_types[t]; t++) {
		const char *nl = strchr(at, '\n');

		readme_row(workload_types[t], row, sizeof(row));
		ck_assert_msg(nl && (size_t)(nl - at) == strlen(row) && !strncmp(at, row, strlen(row)),
			      "README.md row %d should read:\n%s\nnot:\n%.*s", t + 1, row,
			      nl ? (int)(nl - at) : 80, at);
		at = nl + 1;
	}
	ck_assert_msg(strncmp(at, "| ", 2), "README.md has a row for a type the table lacks");
	free(readme);
}
END_TEST

/* `mmemu list` prints every type with its description and its keys with theirs. */
START_TEST(test_list_prints_the_table)
{
	const char *args[] = { "list", NULL };
	struct cli_out o = cli_run(args);
	const char *at;
	char line[512];

	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	for (int t = 0; workload_types[t]; t++) {
		const struct workload_ops *w = workload_types[t];

		snprintf(line, sizeof(line), "\n  %-18s %s\n", w->name, w->desc);
		at = strstr(o.out, line);
		ck_assert_msg(at != NULL, "no line for %s in:\n%s", w->name, o.out);
		at += strlen(line) - 1;
		for (const struct key_desc *k = w->keys; k && k->key; k++) {
			snprintf(line, sizeof(line), "\n    %-18s %s", k->key, k->doc);
			ck_assert_msg(!strncmp(at, line, strlen(line)), "%s: no line for key %s",
				      w->name, k->key);
			at = strchr(at + 1, '\n');
		}
	}
	at = strstr(o.out, "\n  keys of every type:\n");
	ck_assert_msg(at != NULL, "no keys of every type in:\n%s", o.out);
	at += strlen("\n  keys of every type:");
	for (const struct key_desc *k = scn_workload_keys; k->key; k++) {
		snprintf(line, sizeof(line), "\n    %-18s %s", k->key, k->doc);
		ck_assert_msg(!strncmp(at, line, strlen(line)), "no line for key %s", k->key);
		at = strchr(at + 1, '\n');
	}
	cli_out_free(&o);
}
END_TEST

/* `mmemu list workloads`: the table's names, one per line, nothing else (for completion). */
START_TEST(test_list_workloads_names)
{
	const char *args[] = { "list", "workloads", NULL };
	struct cli_out o = cli_run(args);
	char want[1024] = "";

	ck_assert_msg(o.status == 0, "status %d: %s", o.status, o.err);
	for (int t = 0; workload_types[t]; t++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\n",
			 workload_types[t]->name);
	ck_assert_str_eq(o.out, want);
	cli_out_free(&o);
}
END_TEST

static Suite *workloads_suite(void)
{
	Suite *s = suite_create("workloads");
	TCase *tc = tcase_create("registry");

	tcase_add_test(tc, test_every_type_is_complete);
	tcase_add_test(tc, test_keys_declared_once);
	tcase_add_test(tc, test_unknown_key_lists_the_types_keys);
	tcase_add_test(tc, test_other_types_key_rejected);
	tcase_add_test(tc, test_keys_before_type);
	tcase_add_test(tc, test_type_from_set);
	tcase_add_test(tc, test_type_set_overrides_file);
	tcase_add_test(tc, test_pages_per_op);
	tcase_add_test(tc, test_bad_type_lists_types);
	tcase_add_test(tc, test_readme_table_matches_registry);
	tcase_add_test(tc, test_list_prints_the_table);
	tcase_add_test(tc, test_list_workloads_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(workloads_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
