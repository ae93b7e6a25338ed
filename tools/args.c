/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/args.h"

/* A plain decimal number ("0.5", "8", "1e-3"): no sign, space, hex, inf or nan. */
static int plain_double(const char *s, size_t len, double *v)
{
	char buf[64], *end;

	if (!len || len >= sizeof(buf) || !(isdigit((unsigned char)s[0]) || s[0] == '.'))
		return -1;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]) && !strchr(".eE+-", s[i]))
			return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	errno = 0;
	*v = strtod(buf, &end);
	return errno || *end || !isfinite(*v) ? -1 : 0;
}

int args_scale(const char *s, double *scale)
{
	const char *slash = strchr(s, '/');
	double a, b = 1;

	if (plain_double(s, slash ? (size_t)(slash - s) : strlen(s), &a) ||
	    (slash && plain_double(slash + 1, strlen(slash + 1), &b)) || b == 0)
		return -1;
	*scale = a / b;
	return *scale > 0 && *scale <= 1 ? 0 : -1;
}

int args_long(const char *s, long lo, long hi, long *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || *end || *v < lo || *v > hi ? -1 : 0;
}

int args_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!isdigit((unsigned char)s[0]))
		return -1;
	errno = 0;
	/* decimal, or hex after 0x: a leading 0 is not octal ("010" is ten) */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -1;
		*v = strtoull(s + 2, &end, 16);
	} else {
		*v = strtoull(s, &end, 10);
	}
	return errno || *end ? -1 : 0;
}

bool args_list_has_empty(const char *s)
{
	size_t n = strlen(s);

	return !n || s[0] == ',' || s[n - 1] == ',' || strstr(s, ",,");
}

int args_seeds(const char *s, size_t max, uint64_t **seeds, size_t *nr)
{
	const char *dots = strstr(s, "..");
	char *copy = strdup(s), *save = NULL;
	uint64_t a, b;

	*seeds = NULL;
	*nr = 0;
	if (!copy)
		return -1;
	if (dots) {
		copy[dots - s] = '\0';
		if (args_u64(copy, &a) || args_u64(copy + (dots - s) + 2, &b) || b < a ||
		    b - a >= max)
			goto bad;
		*seeds = calloc((size_t)(b - a + 1), sizeof(**seeds));
		if (!*seeds)
			goto bad;
		for (uint64_t x = a; x <= b; x++)
			(*seeds)[(*nr)++] = x;
		free(copy);
		return 0;
	}
	*seeds = calloc(strlen(s) / 2 + 1, sizeof(**seeds));
	if (!*seeds || args_list_has_empty(s))
		goto bad;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (args_u64(t, &a) || *nr == max)
			goto bad;
		(*seeds)[(*nr)++] = a;
	}
	if (!*nr)
		goto bad;
	free(copy);
	return 0;
bad:
	free(copy);
	free(*seeds);
	*seeds = NULL;
	*nr = 0;
	return -1;
}

static bool is_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

char *args_scenario(const char *arg, const char *const *dirs)
{
	static const char *const suffix[] = { "", ".ini" };
	char *path;

	if (is_file(arg) || strchr(arg, '/') || !*arg)
		return strdup(arg);
	for (size_t d = 0; dirs[d]; d++)
		for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
			if (asprintf(&path, "%s/%s%s", dirs[d], arg, suffix[i]) < 0)
				return NULL;
			if (is_file(path))
				return path;
			free(path);
		}
	return strdup(arg);
}
