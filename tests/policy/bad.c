/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policies the loader must refuse, one per -DBAD_*: built against another
 * ABI (a future one, or ABI 1 of the plug-ins before policy knobs), with
 * knobs mmemu cannot read or in another policy's section, without a required op, with a lruvec_init that fails, or without
 * the mmemu_policy symbol at all; or that crash mmemu's process, in a
 * constructor (as dlopen() runs it), in lruvec_init or in shrink_lruvec.
 */
#include <signal.h>

#include <mmemu/policy.h>

#ifdef BAD_CRASH
__attribute__((constructor)) static void crash_on_load(void)
{
	raise(SIGSEGV);
}
#endif

#ifdef BAD_INIT_CRASH
static int init_crashes(struct lruvec *lruvec)
{
	(void)lruvec;
	raise(SIGSEGV);
	return 0;
}
#endif

#ifdef BAD_INIT
static int init_fails(struct lruvec *lruvec)
{
	(void)lruvec;
	return -1;
}
#endif

static void add(struct lruvec *lruvec, struct folio *folio)
{
	(void)lruvec;
	(void)folio;
}

static void accessed(struct folio *folio)
{
	(void)folio;
}

#ifndef BAD_NO_OP
static void shrink(struct lruvec *lruvec, struct scan_control *sc)
{
	(void)lruvec;
	(void)sc;
#ifdef BAD_SHRINK_CRASH
	raise(SIGSEGV);	/* in a run, after every load-time check passed */
#endif
}
#endif

static int check(struct lruvec *lruvec, uint64_t nr_listed[NR_LRU_LISTS], char *err, size_t len)
{
	(void)lruvec;
	(void)nr_listed;
	(void)err;
	(void)len;
	return 0;
}

#if defined(BAD_KNOBS) || defined(BAD_KNOBS_SECTION)
struct bad_knobs {
	int x;
};

static const struct bad_knobs bad_defaults;

static void knobs_set(const void *values)
{
	(void)values;
}

static const struct key_desc bad_keys[] = {
#ifdef BAD_KNOBS
	/* a field past the end of struct bad_knobs */
	{ "x", KT_INT, KEY_UNSCALED, sizeof(struct bad_knobs), sizeof(int), 0, 1, "0 or 1", "x",
	  NULL, NULL },
#else
	SCN_KEY("x", KT_INT, KEY_UNSCALED, struct bad_knobs, x, 0, 1, "0 or 1", "x"),
#endif
	{ 0 }
};

static const struct policy_knobs bad_knobs = {
#ifdef BAD_KNOBS
	.section = "bad",
#else
	.section = "mglru",	/* the MGLRU policies' */
#endif
	.desc = "bad",
	.keys = bad_keys,
	.size = sizeof(struct bad_knobs),
	.defaults = &bad_defaults,
	.set = knobs_set,
};
#endif

#ifdef BAD_NO_SYMBOL
#define SYMBOL not_the_policy
#else
#define SYMBOL mmemu_policy
#endif

const struct reclaim_policy SYMBOL = {
#ifdef BAD_ABI
	.abi = 999,
#elif defined(BAD_ABI1)
	.abi = 1,	/* as a plug-in built before ABI 2 (knobs) has it: the first field */
#else
	.abi = MMEMU_POLICY_ABI,
#endif
	.name = "bad",
#ifdef BAD_INIT
	.lruvec_init = init_fails,
#endif
#ifdef BAD_INIT_CRASH
	.lruvec_init = init_crashes,
#endif
	.folio_add = add,
	.folio_del = add,
	.folio_putback = add,
	.folio_rotate = add,
	.folio_mark_accessed = accessed,
#ifndef BAD_NO_OP
	.shrink_lruvec = shrink,
#endif
	.check_lruvec = check,
#if defined(BAD_KNOBS) || defined(BAD_KNOBS_SECTION)
	.knobs = &bad_knobs,
#endif
};
