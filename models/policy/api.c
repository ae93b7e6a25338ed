/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The policy API's functions (include/mmemu/policy.h) that are not the
 * kernel's own, and the loader of policies from shared objects.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/costs.h"
#include "models/memory.h"
#include "models/policy/loader.h"
#include "models/vmscan.h"
#include "models/workingset.h"

/* The layout MMEMU_POLICY_ABI 3 promises: change one, bump the ABI and these. */
_Static_assert(MMEMU_POLICY_ABI == 4, "a new ABI: update the sizes below");
_Static_assert(sizeof(struct folio) == 32, "struct folio changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct lruvec) == 376, "struct lruvec changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct scan_control) == 120,
	       "struct scan_control changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct reclaim_policy) == 192,
	       "struct reclaim_policy changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct reclaim_stat) == 40,
	       "struct reclaim_stat changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct policy_knobs) == 48,
	       "struct policy_knobs changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct key_desc) == 80, "struct key_desc changed: bump MMEMU_POLICY_ABI");
_Static_assert(sizeof(struct policy_gens_sample) == 32 + 32 * MMEMU_SAMPLE_MAX_GENS,
	       "struct policy_gens_sample changed: bump MMEMU_POLICY_ABI");
_Static_assert(KT_RETIRED == 17, "enum key_type changed: bump MMEMU_POLICY_ABI");
_Static_assert(NR_LRU_LISTS == 5 && NR_NODE_STAT_ITEMS == 19 && NR_VM_EVENT_ITEMS == 28 &&
	       NR_PAGEFLAGS == 13, "an enum of the policy API changed: bump MMEMU_POLICY_ABI");

/* ---- out-of-line versions of mm.h's inline helpers, for plug-ins ---- */

struct pglist_data *mmemu_lruvec_pgdat(const struct lruvec *lruvec)
{
	return lruvec_pgdat(lruvec);
}

struct lruvec *mmemu_folio_lruvec(const struct folio *folio)
{
	return folio_lruvec(folio);
}

struct mem_cgroup *mmemu_folio_memcg(const struct folio *folio)
{
	return folio_memcg(folio);
}

void mmemu_mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx, int64_t val)
{
	mod_lruvec_state(lruvec, idx, val);
}

void mmemu_count_vm_events(enum vm_event_item item, uint64_t n)
{
	count_vm_events(item, n);
}

void mmemu_count_memcg_events(struct mem_cgroup *memcg, enum vm_event_item item, uint64_t n)
{
	count_memcg_events(memcg, item, n);
}

bool mmemu_root_reclaim(const struct scan_control *sc)
{
	return root_reclaim(sc);
}

void sc_charge_isolate(struct scan_control *sc, uint64_t nr)
{
	actor_charge_sys(sc->actor, nr * COST_ISOLATE_NS);
}

void sc_charge_lru_move(struct scan_control *sc, uint64_t nr)
{
	actor_charge_sys(sc->actor, nr * COST_LRU_MOVE_NS);
}

void sc_cond_resched(struct scan_control *sc)
{
	actor_cond_resched(sc->actor);
}

unsigned short mem_cgroup_id(const struct mem_cgroup *memcg)
{
	return memcg->id;
}

const char *mem_cgroup_name(const struct mem_cgroup *memcg)
{
	return memcg->name;
}

bool mem_cgroup_online(const struct mem_cgroup *memcg)
{
	return memcg->online;
}

uint64_t workingset_refault_distance(uint64_t shadow, struct lruvec **eviction_lruvec,
				     bool *workingset)
{
	struct mem_cgroup *memcg;
	unsigned short memcgid;
	uint64_t eviction;
	int nid;

	unpack_shadow(shadow, &memcgid, &nid, &eviction, workingset);
	eviction <<= mm.bucket_order;
	memcg = memcgid && memcgid <= mm.nr_memcgs ? mm.memcgs[memcgid] : NULL;
	*eviction_lruvec = NULL;
	if (!memcg || nid >= mm.machine.nr_nodes)
		return UINT64_MAX;
	*eviction_lruvec = memcg->lruvec[nid];
	/* the clock wraps at the bits a shadow keeps (times the bucket size) */
	return ((*eviction_lruvec)->nonresident_age - eviction) &
	       ((1ULL << (WORKINGSET_EVICTION_BITS + mm.bucket_order)) - 1);
}

/* ---- the loader ---- */

#define MAX_POLICY_FILES 32

static struct policy_file files[MAX_POLICY_FILES];
static int nr_files;

/* The ops mmemu calls without a NULL check: a policy must have them. */
static const struct {
	const char *name;
	size_t off;
} required_ops[] = {
	{ "folio_add", offsetof(struct reclaim_policy, folio_add) },
	{ "folio_del", offsetof(struct reclaim_policy, folio_del) },
	{ "folio_putback", offsetof(struct reclaim_policy, folio_putback) },
	{ "folio_rotate", offsetof(struct reclaim_policy, folio_rotate) },
	{ "folio_mark_accessed", offsetof(struct reclaim_policy, folio_mark_accessed) },
	{ "shrink_lruvec", offsetof(struct reclaim_policy, shrink_lruvec) },
	/* without it the invariant checks find every listed folio unaccounted */
	{ "check_lruvec", offsetof(struct reclaim_policy, check_lruvec) },
};

bool reclaim_policy_arg_is_file(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') || (n > 3 && !strcmp(arg + n - 3, ".so"));
}

static int hash_file(const char *path, char out[65], char *err, size_t len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long size;

	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc((size_t)size + 1)) || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		snprintf(err, len, "policy '%s': cannot read it: %s", path, strerror(errno));
		free(buf);
		if (f)
			fclose(f);
		return -1;
	}
	fclose(f);
	sha256_hex(buf, (size_t)size, out);
	free(buf);
	return 0;
}

/*
 * A plug-in's knobs, before a scenario's parser trusts them: a section
 * name of letters, digits, '-' and '_' that no other policy's knobs use,
 * the ops and defaults, and each key's field inside the struct.
 */
static int check_knobs(const struct policy_knobs *k, const char *arg, char *err, size_t len)
{
	const struct policy_knobs *known[16];
	int nr = reclaim_policy_knobs_known(known, 16);

	if (!k->section || !*k->section || strspn(k->section, "abcdefghijklmnopqrstuvwxyz"
		"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != strlen(k->section)) {
		snprintf(err, len, "policy '%s': its knobs' section is not a name (letters, digits, "
			 "'-' and '_')", arg);
		return -1;
	}
	for (int i = 0; i < nr; i++)
		if (!strcmp(known[i]->section, k->section)) {
			snprintf(err, len, "policy '%s': its knobs' section [%s] is another "
				 "policy's", arg, k->section);
			return -1;
		}
	if (!k->keys || !k->size || !k->defaults || !k->set) {
		snprintf(err, len, "policy '%s': its knobs need keys, size, defaults and set", arg);
		return -1;
	}
	for (const struct key_desc *d = k->keys; d->key; d++) {
		bool field = d->type != KT_RETIRED;

		if ((unsigned)d->type > KT_RETIRED || d->type == KT_WORKLOAD_TYPE ||
		    d->type == KT_TEXT || (field && (d->offset + d->size > k->size || !d->size)) ||
		    (d->type == KT_PARSE && !d->parse) || (d->type == KT_CHOICE && !d->choices) ||
		    !d->what || (field && !d->doc)) {
			snprintf(err, len, "policy '%s': [%s] %s: not a key mmemu can read (its type, "
				 "field, what or doc)", arg, k->section, d->key);
			return -1;
		}
	}
	return 0;
}

/* The policy's own lruvec_init on a scratch lruvec, so that a failing one
 * is found before any run. */
static int trial_init(const struct reclaim_policy *p)
{
	struct mem_cgroup memcg = { .online = true };
	struct lruvec lruvec = { .memcg = &memcg };

	if (!p->lruvec_init)
		return 0;
	if (p->lruvec_init(&lruvec))
		return -1;
	if (p->lruvec_exit)
		p->lruvec_exit(&lruvec);
	return 0;
}

static const struct reclaim_policy *load(const char *arg, char *err, size_t len)
{
	struct policy_file *pf;
	const struct reclaim_policy *p;
	char *path = realpath(arg, NULL), hash[65];
	void *handle;

	if (!path) {
		snprintf(err, len, "policy '%s': %s", arg, strerror(errno));
		return NULL;
	}
	if (nr_files == MAX_POLICY_FILES) {
		snprintf(err, len, "policy '%s': more than %d policy files", arg, MAX_POLICY_FILES);
		goto fail;
	}
	if (hash_file(path, hash, err, len))
		goto fail;
	handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle) {
		snprintf(err, len, "policy '%s': cannot load it: %s", arg, dlerror());
		goto fail;
	}
	p = dlsym(handle, MMEMU_POLICY_SYMBOL);
	if (!p) {
		snprintf(err, len, "policy '%s': no symbol '%s' (a policy defines "
			 "const struct reclaim_policy %s)", arg, MMEMU_POLICY_SYMBOL,
			 MMEMU_POLICY_SYMBOL);
		goto fail_close;
	}
	if (p->abi != MMEMU_POLICY_ABI) {
		snprintf(err, len, "policy '%s': built against policy ABI %u, this mmemu has ABI %u "
			 "(rebuild it against this mmemu's mmemu/policy.h)", arg, (unsigned)p->abi,
			 (unsigned)MMEMU_POLICY_ABI);
		goto fail_close;
	}
	if (!p->name || !*p->name) {
		snprintf(err, len, "policy '%s': %s has no name", arg, MMEMU_POLICY_SYMBOL);
		goto fail_close;
	}
	for (size_t i = 0; i < sizeof(required_ops) / sizeof(required_ops[0]); i++) {
		void *op;

		memcpy(&op, (const char *)p + required_ops[i].off, sizeof(op));
		if (!op) {
			snprintf(err, len, "policy '%s': no %s op (every policy needs one)", arg,
				 required_ops[i].name);
			goto fail_close;
		}
	}
	if (p->knobs && check_knobs(p->knobs, arg, err, len))
		goto fail_close;
	/* the names a run gives what they report */
	if ((p->report_stats && (!p->stats_name || !*p->stats_name)) ||
	    (p->sample_state && (!p->sample_kind || !*p->sample_kind))) {
		snprintf(err, len, "policy '%s': report_stats needs a stats_name, sample_state a "
			 "sample_kind", arg);
		goto fail_close;
	}
	if (trial_init(p)) {
		snprintf(err, len, "policy '%s': its lruvec_init failed", arg);
		goto fail_close;
	}
	pf = &files[nr_files++];
	pf->arg = strdup(arg);
	pf->path = path;
	memcpy(pf->sha256, hash, sizeof(hash));
	pf->policy = p;
	if (!pf->arg) {
		nr_files--;
		snprintf(err, len, "out of memory");
		goto fail_close;
	}
	return p;

fail_close:
	dlclose(handle);
fail:
	free(path);
	return NULL;
}

const struct policy_file *reclaim_policy_file(const char *arg)
{
	for (int i = 0; i < nr_files; i++)
		if (!strcmp(files[i].arg, arg))
			return &files[i];
	return NULL;
}

const struct reclaim_policy *reclaim_policy_get(const char *arg, char *err, size_t len)
{
	const struct reclaim_policy *p;
	const struct policy_file *pf;

	if (!reclaim_policy_arg_is_file(arg)) {
		p = reclaim_policy_find(arg);
		if (!p)
			snprintf(err, len, "unknown policy '%s' (see mmemu list)", arg);
		return p;
	}
	pf = reclaim_policy_file(arg);
	return pf ? pf->policy : load(arg, err, len);
}

static int add_knobs(const struct policy_knobs **out, int nr, int max,
		     const struct policy_knobs *knobs)
{
	if (!knobs || nr == max)
		return nr;
	for (int i = 0; i < nr; i++)
		if (out[i] == knobs || !strcmp(out[i]->section, knobs->section))
			return nr;
	out[nr] = knobs;
	return nr + 1;
}

int reclaim_policy_knobs_known(const struct policy_knobs **out, int max)
{
	int nr = 0;

	for (int i = 0; reclaim_policies[i]; i++)
		nr = add_knobs(out, nr, max, reclaim_policies[i]->knobs);
	for (int i = 0; i < nr_files; i++)
		nr = add_knobs(out, nr, max, files[i].policy->knobs);
	return nr;
}
