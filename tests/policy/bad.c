/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Policies the loader must refuse, one per -DBAD_*: built against another
 * ABI (a future one, or ABI 1 of the plug-ins before policy knobs), without a required op, with a lruvec_init that fails, or without
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

#ifdef BAD_NO_SYMBOL
#define SYMBOL not_the_policy
#else
#define SYMBOL mmemu_policy
#endif

const struct reclaim_policy SYMBOL = {
#ifdef BAD_ABI
	.abi = MMEMU_POLICY_ABI + 997,
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
};
