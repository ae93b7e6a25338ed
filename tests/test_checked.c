/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Every shipped scenario, at a small scale, for its first simulated 200 ms,
 * under each policy it names, with the model's invariants checked every
 * CHECK_EVERY quiescent points of the engine (a run checks about every
 * 45 000 by default on quickstart): none may break. A scenario case per
 * file (CK_RUN_CASE=quickstart.ini runs one).
 */
#include <check.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"
#include "scenarios/scenario.h"

#define CHECK_EVERY 2000
#define SCALE (1.0 / 64)

static char names[64][256];
static int nr_names;

START_TEST(test_scenario_checked)
{
	static const char *const sets[] = { "machine.duration=200ms" };
	char path[4096], err[1024], policies[256], *save = NULL;
	struct scenario s;
	int nr = 0;

	snprintf(path, sizeof(path), "%s/scenarios/%s", harness_srcdir(), names[_i]);
	ck_assert_msg(!scenario_load(&s, path, sets, 1, SCALE, err, sizeof(err)), "%s", err);
	snprintf(policies, sizeof(policies), "%s", s.machine.policy ? s.machine.policy : "classic");
	scenario_free(&s);
	for (char *p = strtok_r(policies, ",", &save); p; p = strtok_r(NULL, ",", &save), nr++) {
		char *text = NULL;
		int rc = harness_run_scenario_checked(path, sets, 1, SCALE, 1, p, CHECK_EVERY, &text,
						      err, sizeof(err));

		ck_assert_msg(rc == 0, "%s under %s (status %d): %s", names[_i], p, rc, err);
		free(text);
	}
	ck_assert_int_gt(nr, 0);
}
END_TEST

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

int main(void)
{
	Suite *s = suite_create("checked");
	DIR *d = opendir(harness_src_path("scenarios"));
	struct dirent *e;
	SRunner *sr;
	int failed;

	if (!d)
		return EXIT_FAILURE;
	while ((e = readdir(d)) && nr_names < 64) {
		size_t n = strlen(e->d_name);

		if (n > 4 && !strcmp(e->d_name + n - 4, ".ini"))
			snprintf(names[nr_names++], sizeof(names[0]), "%s", e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)nr_names, sizeof(names[0]), cmp_names);
	for (int i = 0; i < nr_names; i++) {
		TCase *tc = tcase_create(names[i]);

		tcase_set_timeout(tc, 600);
		tcase_add_loop_test(tc, test_scenario_checked, i, i + 1);
		suite_add_tcase(s, tc);
	}
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	/* the scenarios folder holds the shipped ones: at least these */
	return failed || nr_names < 15 ? EXIT_FAILURE : EXIT_SUCCESS;
}
