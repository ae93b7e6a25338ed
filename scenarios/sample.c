/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The time series of a run (--sample T): every T of simulated time a
 * "stats" row (free pages per node, the machine's and each memcg's reclaim
 * and refault counters, memory.current, memory.pressure, swap and zram use,
 * each workload's operations so far), then a row per lruvec (the policy's
 * generations, or the four LRU list sizes), and a row per OOM kill when it
 * happens. Each row is an mmemu.Sample message filled from the model's
 * counters directly; the JSON the writers print is rendered from it
 * (result_sample_json()).
 */
#include <stdlib.h>
#include <string.h>

#include "models/memory.h"
#include "models/policy.h"
#include "models/swap.h"
#include "scenarios/sample.h"

static void dump_line(void *ctx, const char *line)
{
	result_dump_append(ctx, line);
}

void dump_lruvecs(struct run_result *r, uint64_t now)
{
	char head[64];
	int nid;

	snprintf(head, sizeof(head), "# t=%.3f s", (double)now / 1e9);
	result_dump_append(r, head);
	for (int id = 1; id <= mm.nr_memcgs; id++)
		for_each_node(nid)
			if (mm.policy->print_state)
				mm.policy->print_state(mm.memcgs[id]->lruvec[nid], dump_line, r);
}

/* ---- the rows ---- */

/* One row per lruvec: the policy's generations (MGLRU), else the list sizes. */
static void sample_lruvecs(struct run_result *r, uint64_t now)
{
	int nid;

	for (int id = 1; id <= mm.nr_memcgs; id++) {
		for_each_node(nid) {
			struct lruvec *lruvec = mm.memcgs[id]->lruvec[nid];
			Mmemu__Sample s = MMEMU__SAMPLE__INIT;
			Mmemu__LruvecRow row = MMEMU__LRUVEC_ROW__INIT;
			Mmemu__ListSizes lists = MMEMU__LIST_SIZES__INIT;
			Mmemu__Generations gens = MMEMU__GENERATIONS__INIT;
			Mmemu__Generation gen[MMEMU_SAMPLE_MAX_GENS], *genp[MMEMU_SAMPLE_MAX_GENS];
			struct policy_gens_sample st;

			s.t_ns = now;
			s.row_case = MMEMU__SAMPLE__ROW_LRUVEC;
			s.lruvec = &row;
			row.memcg = mm.memcgs[id]->name;
			row.node = nid;
			if (!mm.policy->sample_state) {
				row.kind = "lists";
				lists.inactive_anon = lruvec_lru_size(lruvec, LRU_INACTIVE_ANON);
				lists.active_anon = lruvec_lru_size(lruvec, LRU_ACTIVE_ANON);
				lists.inactive_file = lruvec_lru_size(lruvec, LRU_INACTIVE_FILE);
				lists.active_file = lruvec_lru_size(lruvec, LRU_ACTIVE_FILE);
				row.lists = &lists;
				result_add_sample(r, &s);
				continue;
			}
			memset(&st, 0, sizeof(st));
			mm.policy->sample_state(lruvec, now, &st);
			row.kind = (char *)mm.policy->sample_kind;
			gens.max_seq = st.max_seq;
			gens.min_seq_anon = st.min_seq[0];
			gens.min_seq_file = st.min_seq[1];
			for (int g = 0; g < st.nr_gens && g < MMEMU_SAMPLE_MAX_GENS; g++) {
				mmemu__generation__init(&gen[g]);
				gen[g].seq = st.gen[g].seq;
				gen[g].age_ms = st.gen[g].age_ms;
				gen[g].anon = st.gen[g].anon;
				gen[g].file = st.gen[g].file;
				genp[g] = &gen[g];
				gens.n_gens++;
			}
			gens.gens = genp;
			row.gens = &gens;
			result_add_sample(r, &s);
		}
	}
}

/*
 * A memcg's counters of a stats row: memory.current, its memory.stat
 * reclaim counters and memory.events oom_kill (cumulative and hierarchical
 * as the files are: report_memcg() prints the same at the end), and its
 * memory.pressure at now.
 */
static void sample_memcg(Mmemu__MemcgSample *m, struct mem_cgroup *memcg, uint64_t now)
{
	struct psi_group *psi = &memcg->psi;

	mmemu__memcg_sample__init(m);
	m->name = memcg->name;
	m->has_parent = memcg->parent != NULL;
	m->parent = memcg->parent ? memcg->parent->name : "";
	m->memory_current = memcg->usage * 4096;
	m->pgscan = memcg_events(memcg, PGSCAN_KSWAPD) + memcg_events(memcg, PGSCAN_DIRECT);
	m->pgsteal = memcg_events(memcg, PGSTEAL_KSWAPD) + memcg_events(memcg, PGSTEAL_DIRECT);
	m->workingset_refault_anon = memcg_page_state(memcg, WORKINGSET_REFAULT_ANON);
	m->workingset_refault_file = memcg_page_state(memcg, WORKINGSET_REFAULT_FILE);
	m->oom_kill = memcg_memory_events(memcg, MEMCG_OOM_KILL);
	psi_group_update(psi, now);
	m->some_avg10 = psi_avg_pct(psi->avg[PSI_MEM_SOME][0]);
	m->some_total = psi_total_us(psi, PSI_MEM_SOME);
	m->full_avg10 = psi_avg_pct(psi->avg[PSI_MEM_FULL][0]);
	m->full_total = psi_total_us(psi, PSI_MEM_FULL);
}

/*
 * Swap in use (pages in slots) and, for zram, the pages it holds and the
 * pool pages they take (zram's orig_data_size and mem_used_total, in
 * pages): NULL when the run has no swap.
 */
static Mmemu__SwapSample *sample_swap(Mmemu__SwapSample *swap, Mmemu__ZramSample *zram)
{
	const struct swap_info *si = mm.swap;
	int nid;

	if (!si)
		return NULL;
	swap->used = si->nr_slots - si->nr_free;
	if (si->type != SWAP_ZRAM)
		return swap;
	zram->stored = si->zram.nr_stored;
	for_each_node(nid)
		zram->pool += si->pool_pages[nid];
	swap->zram = zram;
	return swap;
}

/*
 * One "stats" row per sample: memory use per memcg and each memcg's
 * parent, free pages per node, cumulative reclaim and refault counters,
 * the machine's and each memcg's, memory.pressure, swap and zram use, and
 * each workload's operations so far (rates are differences between rows).
 */
static void sample_stats(struct sampler *sm, uint64_t now)
{
	Mmemu__Sample s = MMEMU__SAMPLE__INIT;
	Mmemu__StatsRow row = MMEMU__STATS_ROW__INIT;
	Mmemu__SwapSample swap = MMEMU__SWAP_SAMPLE__INIT;
	Mmemu__ZramSample zram = MMEMU__ZRAM_SAMPLE__INIT;
	uint64_t free_pages[MAX_NUMNODES];
	Mmemu__MemcgSample *memcgs = calloc((size_t)mm.nr_memcgs + 1, sizeof(*memcgs));
	Mmemu__MemcgSample **memcgp = calloc((size_t)mm.nr_memcgs + 1, sizeof(*memcgp));
	Mmemu__WorkloadOps *ops = calloc((size_t)sm->nr_wls + 1, sizeof(*ops));
	Mmemu__WorkloadOps **opsp = calloc((size_t)sm->nr_wls + 1, sizeof(*opsp));
	int nid;

	if (!memcgs || !memcgp || !ops || !opsp)
		abort();	/* host out of memory */
	s.t_ns = now;
	s.row_case = MMEMU__SAMPLE__ROW_STATS;
	s.stats = &row;
	for_each_node(nid)
		free_pages[row.n_free_pages++] = mm.machine.node[nid].nr_free;
	row.free_pages = free_pages;
	row.pgscan = mm.vm_events[PGSCAN_ANON] + mm.vm_events[PGSCAN_FILE];
	row.pgsteal = mm.vm_events[PGSTEAL_ANON] + mm.vm_events[PGSTEAL_FILE];
	row.workingset_refault_anon = memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_ANON);
	row.workingset_refault_file = memcg_page_state(mm.root_mem_cgroup, WORKINGSET_REFAULT_FILE);
	for (int id = 1; id <= mm.nr_memcgs; id++) {
		sample_memcg(&memcgs[id - 1], mm.memcgs[id], now);
		memcgp[id - 1] = &memcgs[id - 1];
	}
	row.n_memcgs = (size_t)mm.nr_memcgs;
	row.memcgs = memcgp;
	row.swap = sample_swap(&swap, &zram);
	for (int i = 0; i < sm->nr_wls; i++) {
		mmemu__workload_ops__init(&ops[i]);
		ops[i].name = (char *)sm->wls[i].cfg->name;
		ops[i].ops = sm->wls[i].ops_done;
		opsp[i] = &ops[i];
	}
	row.n_ops = (size_t)sm->nr_wls;
	row.ops = opsp;
	result_add_sample(sm->r, &s);
	free(memcgs);
	free(memcgp);
	free(ops);
	free(opsp);
	sm->last_sample_ns = now;
}

/*
 * An OOM kill as a row of kind "oom" when it happens, with the fields of
 * the kernel's "oom-kill:" line (dump_oom_victim()): constraint, oom_memcg
 * ("/" for a global OOM), task_memcg, task and pid.
 */
static void sample_oom_kill(void *ctx, const struct task *victim,
			    const struct mem_cgroup *oom_memcg)
{
	struct sampler *sm = ctx;
	Mmemu__Sample s = MMEMU__SAMPLE__INIT;
	Mmemu__OomKill oom = MMEMU__OOM_KILL__INIT;

	s.t_ns = victim->oom_kill_ns;
	s.row_case = MMEMU__SAMPLE__ROW_OOM;
	s.oom = &oom;
	oom.memcg_constraint = oom_memcg != NULL;
	oom.oom_memcg = oom_memcg ? (char *)oom_memcg->name : "";
	oom.task_memcg = (char *)victim->memcg->name;
	oom.task = (char *)victim->name;
	oom.pid = victim->id;
	result_add_sample(sm->r, &s);
}

/* ---- the sampler ---- */

/*
 * How much of the run is done: the larger of simulated time over the
 * scenario's duration and operations done over operations to do (the
 * workloads that end; a daemon type runs until the others are done).
 */
static double done_share(const struct sampler *sm, uint64_t now)
{
	uint64_t ops = 0, done = 0;
	double share = -1;

	for (int i = 0; i < sm->nr_wls; i++) {
		const struct workload *w = &sm->wls[i];

		if (w->cfg->type->daemon || !w->cfg->ops)
			continue;
		ops += w->cfg->ops;
		done += w->ops_done < w->cfg->ops ? w->ops_done : w->cfg->ops;
	}
	if (ops)
		share = (double)done / (double)ops;
	if (sm->duration_ns && (double)now / (double)sm->duration_ns > share)
		share = (double)now / (double)sm->duration_ns;
	return share > 1 ? 1 : share;
}

static void sampler_fn(struct actor *self, void *arg)
{
	struct sampler *sm = arg;
	uint64_t period = sm->o->sample_ns;

	if (sm->o->dump_every_ns && (!period || sm->o->dump_every_ns < period))
		period = sm->o->dump_every_ns;
	if (!period)
		period = 100 * NSEC_PER_MSEC;	/* progress only */
	for (;;) {
		uint64_t now;

		actor_sleep_ns(self, period);
		now = engine_clock_ns();
		if (sm->o->sample_ns && now % sm->o->sample_ns < period) {
			sample_stats(sm, now);
			sample_lruvecs(sm->r, now);
		}
		if (sm->o->progress)
			sm->o->progress(sm->o->progress_ctx, (double)now / 1e9, done_share(sm, now));
		if (sm->o->dump_every_ns && now >= sm->next_dump_ns) {
			dump_lruvecs(sm->r, now);
			sm->next_dump_ns += sm->o->dump_every_ns;
		}
	}
}

void sampler_start(struct sampler *sm, const struct run_opts *o, struct run_result *r,
		   struct workload *wls, int nr_wls, uint64_t duration_ns)
{
	sm->o = o;
	sm->r = r;
	sm->next_dump_ns = o->dump_every_ns;
	sm->wls = wls;
	sm->nr_wls = nr_wls;
	sm->duration_ns = duration_ns;
	sm->last_sample_ns = UINT64_MAX;
	/* the rows, as the sampler makes them, to whoever watches (run --live) */
	r->on_sample = o->on_sample;
	r->on_sample_ctx = o->on_sample_ctx;
	r->samples_unsaved = o->samples_unsaved;
	if (o->sample_ns || o->progress || (o->dump_lru_gen && o->dump_every_ns))
		actor_create("sampler", 0, sampler_fn, sm, true);
	if (o->sample_ns) {
		mm.oom_kill_notify = sample_oom_kill;
		mm.oom_kill_ctx = sm;
	}
}

void sampler_finish(struct sampler *sm, uint64_t end_ns)
{
	if (sm->o->sample_ns && sm->last_sample_ns != end_ns) {
		sample_stats(sm, end_ns);
		sample_lruvecs(sm->r, end_ns);
	}
}
