/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Memory cgroups, as in mm/memcontrol.c: the page counter, charging with
 * reclaim and retries (try_charge_memcg), memory.high reclaim, protection
 * (memory.min/low), memory.reclaim, and the OOM killer (mm/oom_kill.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "models/internal.h"
#include "models/memory.h"
#include "models/policy.h"
#include "models/vmscan.h"

struct mem_cgroup *mem_cgroup_create(struct mem_cgroup *parent, const char *name)
{
	struct mem_cgroup *memcg;
	int nid;

	if (mm.nr_memcgs + 1 >= MAX_MEMCGS || strlen(name) >= sizeof(memcg->name))
		return NULL;	/* a cut name could be another memcg's */
	memcg = calloc(1, sizeof(*memcg));
	if (!memcg)
		return NULL;
	memcpy(memcg->name, name, strlen(name) + 1);
	memcg->id = (unsigned short)++mm.nr_memcgs;
	mm.memcgs[memcg->id] = memcg;
	memcg->parent = parent;
	memcg->max = memcg->high = memcg->swap_max = memcg->zswap_max = UINT64_MAX;
	memcg->swappiness = mm.vm_swappiness;
	memcg->online = true;
	/* group_init(): its averaging periods start now */
	psi_group_init(&memcg->psi, current_actor ? actor_now_ns(current_actor) : 0);
	if (parent) {
		struct mem_cgroup **c = realloc(parent->children,
			(size_t)(parent->nr_children + 1) * sizeof(*c));

		if (!c)
			return NULL;
		parent->children = c;
		c[parent->nr_children++] = memcg;
	}
	for_each_node(nid) {
		struct lruvec *lruvec = calloc(1, sizeof(*lruvec));

		if (!lruvec)
			return NULL;
		lruvec->memcg = memcg;
		lruvec->nid = nid;
		memcg->lruvec[nid] = lruvec;
		if (mm.policy->lruvec_init && mm.policy->lruvec_init(lruvec))
			return NULL;
	}
	return memcg;
}

struct mem_cgroup *mem_cgroup_find(const char *name)
{
	for (int i = 1; i <= mm.nr_memcgs; i++)
		if (!strcmp(mm.memcgs[i]->name, name))
			return mm.memcgs[i];
	return NULL;
}

void memcg_memory_event(struct mem_cgroup *memcg, enum memcg_memory_event event)
{
	memcg->memory_events[event]++;
}

/* page_counter_try_charge(): charge every ancestor or none; returns the one over its max. */
static struct mem_cgroup *page_counter_try_charge(struct mem_cgroup *memcg, uint64_t nr)
{
	struct mem_cgroup *pos;

	for (pos = memcg; pos; pos = pos->parent)
		if (pos->usage + nr > pos->max)
			return pos;
	for (pos = memcg; pos; pos = pos->parent) {
		pos->usage += nr;
		if (pos->usage > pos->watermark)
			pos->watermark = pos->usage;
	}
	return NULL;
}

bool mem_cgroup_try_charge_noreclaim(struct mem_cgroup *memcg)
{
	return !page_counter_try_charge(memcg, 1);
}

static void page_counter_charge(struct mem_cgroup *memcg, uint64_t nr)
{
	for (struct mem_cgroup *pos = memcg; pos; pos = pos->parent) {
		pos->usage += nr;
		if (pos->usage > pos->watermark)
			pos->watermark = pos->usage;
	}
}

void mem_cgroup_force_charge(struct mem_cgroup *memcg, uint64_t nr_pages)
{
	page_counter_charge(memcg, nr_pages);
}

void mem_cgroup_uncharge(struct mem_cgroup *memcg, uint64_t nr_pages)
{
	for (struct mem_cgroup *pos = memcg; pos; pos = pos->parent)
		pos->usage -= nr_pages;
}

uint64_t mem_cgroup_charge_budget(const struct mem_cgroup *memcg)
{
	uint64_t budget = UINT64_MAX;

	for (const struct mem_cgroup *pos = memcg; pos; pos = pos->parent) {
		uint64_t limit = pos->max < pos->high ? pos->max : pos->high;
		uint64_t room = pos->usage < limit ? limit - pos->usage : 0;

		if (room < budget)
			budget = room;
	}
	return budget;
}

static uint64_t mem_cgroup_margin(const struct mem_cgroup *memcg)
{
	return memcg->usage < memcg->max ? memcg->max - memcg->usage : 0;
}

/*
 * mem_cgroup_handle_over_high(), simplified: reclaim the excess over
 * memory.high right after the charge (the kernel does it on return to
 * user space and adds a penalty sleep, which is not modelled: the kernel
 * counts that sleep as a memory stall too).
 */
static void mem_cgroup_handle_over_high(struct actor *a, struct mem_cgroup *memcg)
{
	for (struct mem_cgroup *pos = memcg; pos; pos = pos->parent) {
		unsigned long pflags;

		if (pos->usage <= pos->high)
			continue;
		memcg_memory_event(pos, MEMCG_HIGH);
		/* reclaim_high(): a memory stall */
		psi_memstall_enter(a, &pflags);
		try_to_free_mem_cgroup_pages(pos, pos->usage - pos->high, true, -1,
					     false, a);
		psi_memstall_leave(a, &pflags);
	}
}

int mem_cgroup_charge(struct actor *a, struct task *t, struct mem_cgroup *memcg)
{
	int nr_retries = MAX_RECLAIM_RETRIES;
	bool passed_oom = false, drained = false;
	struct mem_cgroup *over;

retry:
	if (t && t->oom_killed)
		return -EINTR;
	over = page_counter_try_charge(memcg, 1);
	if (!over)
		goto done;
	memcg_memory_event(over, MEMCG_MAX);
	{
		unsigned long pflags;
		uint64_t nr_reclaimed;

		/*
		 * try_charge_memcg(): the reclaim is a memory stall of the
		 * charging task; a limit write or memory.reclaim is not
		 * ("mm: memcontrol: don't count limit-setting reclaim as
		 * memory pressure", 5.8)
		 */
		psi_memstall_enter(a, &pflags);
		nr_reclaimed = try_to_free_mem_cgroup_pages(over, 1, true, -1, false, a);
		psi_memstall_leave(a, &pflags);

		if (mem_cgroup_margin(over) >= 1)
			goto retry;
		/* drain_all_stock(): per-CPU charge caches give pages back, once */
		if (!drained) {
			drained = true;
			goto retry;
		}
		/* Reclaim freed something: retry without using up a retry. */
		if (nr_reclaimed)
			goto retry;
	}
	if (nr_retries--)
		goto retry;
	if (passed_oom && t && t->oom_killed)
		return -EINTR;
	/* mem_cgroup_oom(): keep retrying while the OOM killer makes progress */
	memcg_memory_event(over, MEMCG_OOM);
	if (out_of_memory(over, a)) {
		passed_oom = true;
		nr_retries = MAX_RECLAIM_RETRIES;
		goto retry;
	}
	/* No victim left: the charge is forced, as the kernel bypasses it. */
	page_counter_charge(memcg, 1);
done:
	/* a charge without its folio until the caller has one (alloc_charge_folio) */
	memcg->nr_charge_inflight++;
	mem_cgroup_handle_over_high(a, memcg);
	return 0;
}

/* ---- rstat: the statistics readers see (mem_cgroup_flush_stats) ---- */

/*
 * The rule of mm/memcontrol.c (2025-26): every stat change counts towards
 * the memcg's and its ancestors' pending updates (memcg_rstat_updated());
 * flush_memcg_stats_dwork() flushes everything every FLUSH_TIME = 2 * HZ,
 * whatever is pending; mem_cgroup_flush_stats(memcg) flushes memcg's
 * subtree only when more than MEMCG_CHARGE_BATCH * nr_cpus updates are
 * pending (memcg_vmstats_needs_flush()); mem_cgroup_wb_stats() calls
 * mem_cgroup_flush_stats_ratelimited(), which does so only when the
 * periodic flush is a full cycle late, so writeback sees stats up to 2 s
 * old. (The kernel's reclaim heuristics, prepare_scan_control() and
 * workingset_test_recent(), read the same stale lruvec stats; here they
 * read exact ones.)
 */
/* MEMCG_CHARGE_BATCH (include/linux/memcontrol.h) */
#define MEMCG_CHARGE_BATCH 64

uint64_t memcg_page_state_flushed(const struct mem_cgroup *memcg, enum node_stat_item idx)
{
	uint64_t sum = 0;
	int nid;

	for_each_node(nid)
		sum += lruvec_page_state_flushed(memcg->lruvec[nid], idx);
	return sum;
}

static bool memcg_vmstats_needs_flush(const struct mem_cgroup *memcg)
{
	uint64_t cpus = 0;
	int nid;

	for_each_node(nid)
		cpus += (uint64_t)mm.machine.node[nid].nr_cpus;
	return memcg->stats_updates > MEMCG_CHARGE_BATCH * cpus;
}

/* do_flush_stats(): memcg's subtree becomes what readers see */
void mem_cgroup_do_flush_stats(struct mem_cgroup *memcg)
{
	struct mem_cgroup *pos = NULL;

	if (!memcg)
		memcg = mm.root_mem_cgroup;
	while ((pos = mem_cgroup_iter(memcg, pos))) {
		int nid;

		for_each_node(nid) {
			struct lruvec *lruvec = pos->lruvec[nid];

			for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
				lruvec->stat_flushed[i] = (int64_t)lruvec_page_state(
					lruvec, (enum node_stat_item)i);
		}
		pos->stats_updates = 0;
	}
	if (memcg == mm.root_mem_cgroup)
		mm.stats_flush_last_ns = current_actor ? actor_now_ns(current_actor)
						       : engine_clock_ns();
	mm.nr_stats_flushes++;
}

void mem_cgroup_flush_stats(struct mem_cgroup *memcg)
{
	if (!memcg)
		memcg = mm.root_mem_cgroup;
	if (memcg_vmstats_needs_flush(memcg))
		mem_cgroup_do_flush_stats(memcg);
}

/* Only flush if the periodic flusher is one full cycle late (2 * FLUSH_TIME). */
void mem_cgroup_flush_stats_ratelimited(struct mem_cgroup *memcg)
{
	uint64_t now = current_actor ? actor_now_ns(current_actor) : engine_clock_ns();

	if (now > mm.stats_flush_last_ns + 2 * mm.memcg_flush_time_ns)
		mem_cgroup_flush_stats(memcg);
}

/* flush_memcg_stats_dwork(): queued FLUSH_TIME after boot, then every FLUSH_TIME */
static void stats_flusher_fn(struct actor *self, void *arg)
{
	(void)arg;
	for (;;) {
		actor_sleep_ns(self, mm.memcg_flush_time_ns);
		mem_cgroup_do_flush_stats(mm.root_mem_cgroup);
	}
}

int mem_cgroup_stats_flusher_start(void)
{
	return actor_create("memcg-flush", 0, stats_flusher_fn, NULL, true) ? 0 : -ENOMEM;
}

/* ---- protection: mem_cgroup_calculate_protection() ---- */

static uint64_t effective_protection(uint64_t usage, uint64_t parent_usage,
				     uint64_t setting, uint64_t parent_effective,
				     uint64_t siblings_protected)
{
	uint64_t protected = usage < setting ? usage : setting;

	(void)parent_usage;
	/* Siblings claim more than the parent has: share it in proportion. */
	if (siblings_protected > parent_effective)
		return siblings_protected ? protected * parent_effective / siblings_protected : 0;
	return protected;
}

static uint64_t siblings_protected(const struct mem_cgroup *parent, bool low)
{
	uint64_t sum = 0;

	for (int i = 0; i < parent->nr_children; i++) {
		const struct mem_cgroup *c = parent->children[i];
		uint64_t setting = low ? c->low : c->min;

		sum += c->usage < setting ? c->usage : setting;
	}
	return sum;
}

void mem_cgroup_calculate_protection(struct mem_cgroup *root, struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent;

	if (!root)
		root = mm.root_mem_cgroup;
	memcg->emin = memcg->elow = 0;
	if (memcg == root)
		return;
	parent = memcg->parent;
	if (parent == root) {
		memcg->emin = memcg->usage < memcg->min ? memcg->usage : memcg->min;
		memcg->elow = memcg->usage < memcg->low ? memcg->usage : memcg->low;
		return;
	}
	memcg->emin = effective_protection(memcg->usage, parent->usage, memcg->min,
					   parent->emin, siblings_protected(parent, false));
	memcg->elow = effective_protection(memcg->usage, parent->usage, memcg->low,
					   parent->elow, siblings_protected(parent, true));
}

bool mem_cgroup_below_min(const struct mem_cgroup *target, const struct mem_cgroup *memcg)
{
	if (memcg == target || memcg == mm.root_mem_cgroup)
		return false;
	return memcg->usage <= memcg->emin;
}

bool mem_cgroup_below_low(const struct mem_cgroup *target, const struct mem_cgroup *memcg)
{
	if (memcg == target || memcg == mm.root_mem_cgroup)
		return false;
	return memcg->usage <= memcg->elow;
}

void mem_cgroup_protection(const struct mem_cgroup *root, const struct mem_cgroup *memcg,
			   uint64_t *min, uint64_t *low)
{
	*min = *low = 0;
	if (memcg == root || memcg == mm.root_mem_cgroup)
		return;
	*min = memcg->emin;
	*low = memcg->elow;
}

/* ---- the OOM killer ---- */

/* oom_badness(): resident anon pages plus swap entries (MM_SWAPENTS) */
static uint64_t oom_badness(const struct task *t)
{
	return t->rss_anon + t->nr_swapents;
}

static void oom_kill_task(struct task *victim, struct mem_cgroup *oom_memcg, struct actor *a)
{
	victim->oom_killed = true;
	victim->oom_kill_ns = a ? actor_now_ns(a) : engine_clock_ns();
	memcg_memory_event(victim->memcg, MEMCG_OOM_KILL);
	count_vm_events(OOM_KILL, 1);
	mm.nr_oom_kills++;
	if (mm.oom_kill_notify)
		mm.oom_kill_notify(mm.oom_kill_ctx, victim, oom_memcg);
	/* the OOM reaper frees the victim's anonymous memory at once */
	task_free_anon(victim);
}

/*
 * mem_cgroup_get_oom_group(): the highest memcg with memory.oom.group set
 * from the victim's up to the OOM domain (memcg, or the root for a global
 * OOM; the domain itself counts, the root never), or NULL.
 */
static struct mem_cgroup *mem_cgroup_get_oom_group(const struct task *victim,
						   struct mem_cgroup *oom_domain)
{
	struct mem_cgroup *group = NULL;

	if (!oom_domain)
		oom_domain = mm.root_mem_cgroup;
	if (!mem_cgroup_is_descendant(victim->memcg, oom_domain))
		return NULL;
	for (struct mem_cgroup *m = victim->memcg; m && m != mm.root_mem_cgroup; m = m->parent) {
		if (m->oom_group)
			group = m;
		if (m == oom_domain)
			break;
	}
	return group;
}

/*
 * oom_kill_process() with an oom group: memory.events oom_group_kill, then
 * every other task of the group's subtree (mem_cgroup_scan_tasks() ->
 * oom_kill_memcg_member()).
 */
static void oom_kill_group(struct mem_cgroup *group, struct mem_cgroup *oom_memcg,
			   struct actor *a)
{
	if (!group)
		return;
	memcg_memory_event(group, MEMCG_OOM_GROUP_KILL);
	for (int i = 0; i < mm.nr_tasks; i++) {
		struct task *t = mm.tasks[i];

		if (!t->oom_killed && !t->exited && mem_cgroup_is_descendant(t->memcg, group))
			oom_kill_task(t, oom_memcg, a);
	}
}

bool out_of_memory(struct mem_cgroup *memcg, struct actor *a)
{
	struct task *victim = NULL;
	uint64_t best = 0;

	for (int i = 0; i < mm.nr_tasks; i++) {
		struct task *t = mm.tasks[i];
		uint64_t points;

		if (t->oom_killed)
			continue;
		if (memcg && !mem_cgroup_is_descendant(t->memcg, memcg))
			continue;
		points = oom_badness(t);
		if (!victim || points > best) {
			victim = t;
			best = points;
		}
	}
	if (!victim)
		return false;
	oom_kill_task(victim, memcg, a);
	oom_kill_group(mem_cgroup_get_oom_group(victim, memcg), memcg, a);
	return true;
}

/* ---- memory.reclaim ---- */

/* The batch one round of memory.reclaim asks for (mm.reclaim_batch). */
static uint64_t memory_reclaim_batch(uint64_t remaining)
{
	switch (mm.reclaim_batch) {
	case RECLAIM_BATCH_FULL:
		return remaining;
	case RECLAIM_BATCH_SWAP_CLUSTER_MAX:
		return remaining < SWAP_CLUSTER_MAX ? remaining : SWAP_CLUSTER_MAX;
	case RECLAIM_BATCH_DECAY4:
	default:
		/* converges on 0; try_to_free_mem_cgroup_pages() rounds up to 32 */
		return remaining / 4;
	}
}

/*
 * memory_reclaim(), now user_proactive_reclaim() in mm/vmscan.c: rounds of
 * try_to_free_mem_cgroup_pages(MAY_SWAP | PROACTIVE) until the request is
 * met; a round that frees nothing uses up one of MAX_RECLAIM_RETRIES (never
 * given back), then -EAGAIN. "Full" reclaim is a huge request that only
 * -EAGAIN ends. A fatal signal (here: the writer was OOM-killed) is -EINTR.
 * `reclaimed` is kept current after every round, so a caller cut off by the
 * end of the run still reads what was done.
 */
int memory_reclaim(struct mem_cgroup *memcg, uint64_t nr_pages, int swappiness,
		   struct actor *a, uint64_t *reclaimed)
{
	unsigned int nr_retries = MAX_RECLAIM_RETRIES;
	const struct task *t = a->task;

	*reclaimed = 0;
	while (*reclaimed < nr_pages) {
		uint64_t got;

		if (t && t->oom_killed)
			return -EINTR;
		/*
		 * The last attempt drains the per-CPU LRU batches
		 * (lru_add_drain_all()); folios join their LRU at once here,
		 * so there is nothing to drain.
		 */
		got = try_to_free_mem_cgroup_pages(memcg, memory_reclaim_batch(nr_pages - *reclaimed),
						   true, swappiness, true, a);
		if (!got && !nr_retries--)
			return -EAGAIN;
		*reclaimed += got;
	}
	return 0;
}
