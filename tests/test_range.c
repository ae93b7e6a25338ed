/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Range operations (issue 38): a workload that touches pages in a row by
 * ranges (filemap_map_hit_range, anon_access_range, the batched frees of
 * anon_region_zap) must give what the page loop gives, every counter of the
 * run. Each scenario runs both ways (mm_range_ops set in the parent,
 * inherited by the forked run) and the results, host seconds aside, must be
 * the same text; a small machine driven to each of the range's stops
 * (memory.high, memory.max, the low watermark, swapped-out pages, the
 * quantum), in a row and by a prefault's stripes, must end in the same
 * state, folio by folio.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "models/swap.h"
#include "scenarios/result.h"
#include "scenarios/workload.h"

/* The run's result_write() text with host_seconds zeroed (the host's, not the model's). */
static char *run_text(const char *scenario, const char *const *sets, int nr_sets, double scale,
		      const char *policy, bool ranges)
{
	char err[1024], *out = NULL, *text = NULL;
	struct run_result r;
	size_t len = 0;
	FILE *f;
	int rc;

	mm_range_ops = ranges;
	rc = harness_run_scenario(harness_src_path(scenario), sets, nr_sets, scale, 1, policy, false,
				  &out, err, sizeof(err));
	mm_range_ops = true;
	ck_assert_msg(rc == 0, "%s %s (%s): %s", scenario, policy, ranges ? "ranges" : "page loop",
		      err);
	result_init(&r);
	ck_assert_int_eq(harness_parse_result(out, &r), 0);
	r.host_seconds = 0;
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(result_write(&r, f), 0);
	fclose(f);
	result_free(&r);
	free(out);
	return text;
}

/* The scenario with its keys changed by sets (section.key=value), both ways. */
static void same_both_ways_set(const char *scenario, const char *const *sets, int nr_sets,
			       double scale, const char *policy)
{
	char *loop = run_text(scenario, sets, nr_sets, scale, policy, false);
	char *ranges = run_text(scenario, sets, nr_sets, scale, policy, true);
	const char *a = loop, *b = ranges;
	int values = 0;

	for (const char *p = loop; (p = strstr(p, "\nv\t")); p++)
		values++;
	/* a result with its counters, not an empty one on both sides */
	ck_assert_msg(values > 50, "%s: only %d values", scenario, values);
	while (*a && *a == *b)
		a++, b++;
	if (*a || *b) {
		const char *line = a;

		while (line > loop && line[-1] != '\n')
			line--;
		ck_abort_msg("%s %s: ranges differ from the page loop at \"%.120s\"", scenario,
			     policy, line);
	}
	free(loop);
	free(ranges);
}

static void same_both_ways(const char *scenario, double scale, const char *policy)
{
	same_both_ways_set(scenario, NULL, 0, scale, policy);
}

START_TEST(test_file_scan_classic)
{
	/* 96 reader processes scanning an 8G mapping: hits, faults, waits on reads */
	same_both_ways("scenarios/file-anon-mix.ini", 1.0 / 256, "classic");
}
END_TEST

START_TEST(test_file_scan_mglru)
{
	/* MGLRU's aging walks the young bits the ranges set */
	same_both_ways("scenarios/file-anon-mix.ini", 1.0 / 512, "mglru-budget");
}
END_TEST

START_TEST(test_file_scan_two_nodes)
{
	/* nodes of 6G cannot hold the 8G file on the readers' node: its folios
	 * spill to the other one, where a hit costs a remote access (a run of
	 * the hit range ends where the PTEs' node changes); smaller workers fit
	 * beside */
	static const char *const sets[] = { "machine.node_memory=6G", "workload.workers.size=2G" };

	same_both_ways_set("scenarios/file-anon-mix.ini", sets, 2, 1.0 / 256, "mglru-budget");
}
END_TEST

START_TEST(test_file_scan_proactive)
{
	/* four file-scan workloads under memory.reclaim */
	same_both_ways("scenarios/proactive-reclaim.ini", 1.0 / 64, "classic");
}
END_TEST

START_TEST(test_anon_rounds_mglru)
{
	/* workers fault in their regions and zap them, under the memcg's limit */
	same_both_ways("scenarios/file-anon-mix.ini", 1.0 / 256, "mglru-old");
}
END_TEST

START_TEST(test_chrome_memset_zap)
{
	/* buffers and clients written page by page with the store's CPU, clients zapped */
	same_both_ways("scenarios/chrome-node.ini", 1.0 / 1024, "mglru-old");
}
END_TEST

START_TEST(test_kbuild_heaps)
{
	/* each job's heap grows by slices (no resched inside) and goes at its exit */
	same_both_ways("scenarios/kbuild.ini", 1.0 / 32, "classic");
}
END_TEST

START_TEST(test_kbuild_tmpfs_zram)
{
	/* the tree unpacked into tmpfs, heaps swapped to zram and zapped swapped out */
	same_both_ways("scenarios/kbuild-zram.ini", 1.0 / 32, "mglru-budget");
}
END_TEST

START_TEST(test_anon_prefault_stripes)
{
	/* two threads of an anon workload prefault their stripes of the heap into
	 * a memcg that swaps to zram while they do (wl_access's prefault) */
	same_both_ways("scenarios/swap-zram.ini", 1.0 / 64, "classic");
	same_both_ways("scenarios/psi-agent.ini", 1.0 / 64, "mglru-budget");
}
END_TEST

START_TEST(test_sysbench_prepare)
{
	/* 48 threads fill the buffer pool by stripes on two nodes, then the run */
	same_both_ways("scenarios/mysql-ro.ini", 1.0 / 64, "mglru-budget");
}
END_TEST

START_TEST(test_app_launch_heap)
{
	/* each launch writes its new heap (one run), each pass in front writes a
	 * share of it (runs of writes and reads); heaps of 750 pages, several
	 * quanta a pass, the others' heaps swapped out */
	static const char *const sets[] = { "workload.launch.apps=6", "workload.launch.rounds=12",
					     "workload.launch.heap_size=1500M" };

	same_both_ways_set("scenarios/app-launch.ini", sets, 3, 1.0 / 512, "mglru-budget");
}
END_TEST

/* ---- a small machine at each of the range's stops, both ways ---- */

#define PAGES_PER_NODE 4096
#define APP_MAX 700
#define APP_HIGH 600
#define FILE_PAGES 200
#define HEAP_PAGES 900
#define HEAP2_PAGES 300
#define HEAP3_PAGES 500
#define NR_STRIPES 3
#define HOG_PAGES 3900
/* the store's CPU per page, as chrome charges it (a quantum every 100 or so pages) */
#define STORE_NS 1000

static struct {
	struct blockdev nvme;
	uint64_t nr[ACCESS_NEW + 1];	/* outcomes */
	uint64_t nr_ranged;		/* pages done by ranges */
	uint64_t nr_ranged_stripes;	/* ... of them by stripes */
	char err[256];			/* the first failure ("": none) */
} ax;

/*
 * Touches first, first + step, ... below end as the workloads do (step 1: a
 * memset; more: one thread's stripe of a prefault): ranges where they go,
 * the page loop elsewhere.
 */
static int touch_stride(struct actor *a, struct task *t, struct address_space *as,
			uint64_t first, uint64_t end, uint64_t step, bool write, uint64_t user_ns,
			bool resched)
{
	for (uint64_t p = first; p < end;) {
		uint64_t nr_new, n = mm_range_ops ?
			anon_access_stride(a, t, as, p, end, step, write, user_ns, resched,
					   &nr_new) : 0;
		int ret;

		if (n) {
			ax.nr[ACCESS_NEW] += nr_new;
			ax.nr[ACCESS_HIT] += n - nr_new;
			ax.nr_ranged += n;
			ax.nr_ranged_stripes += step > 1 ? n : 0;
			p += n * step;
			if (resched)
				actor_cond_resched(a);
			continue;
		}
		ret = anon_access(a, t, as, p, write);
		if (ret < 0) {
			snprintf(ax.err, sizeof(ax.err), "'%s' page %llu: %d", as->name,
				 (unsigned long long)p, ret);
			return ret;
		}
		ax.nr[ret]++;
		actor_charge_user(a, user_ns);
		if (resched)
			actor_cond_resched(a);
		p += step;
	}
	return 0;
}

static int touch(struct actor *a, struct task *t, struct address_space *as, uint64_t first,
		 uint64_t end, bool write, uint64_t user_ns, bool resched)
{
	return touch_stride(a, t, as, first, end, 1, write, user_ns, resched);
}

/* Each of nr_threads stripes of as in turn, as a prefault's threads would do them. */
static int touch_stripes(struct actor *a, struct task *t, struct address_space *as, int nr_threads)
{
	for (int tid = 0; tid < nr_threads; tid++)
		if (touch_stride(a, t, as, (uint64_t)tid, as->nr_pages, (uint64_t)nr_threads, true, 0,
				 true))
			return -EINTR;
	return 0;
}

/*
 * Maps pages first, first + step, ... of f in t (a read, or a write every
 * third page: dirty PTEs) through t's mapping of f.
 */
static int map_pages(struct actor *a, struct task *t, struct address_space *f, uint64_t first,
		     uint64_t step)
{
	for (uint64_t p = first; p < f->nr_pages; p += step) {
		int ret = filemap_map_access(a, t, f, p, p % 3 == 0);

		if (ret < 0) {
			snprintf(ax.err, sizeof(ax.err), "'%s' map page %llu: %d", f->name,
				 (unsigned long long)p, ret);
			return ret;
		}
		ax.nr[ret]++;
		actor_cond_resched(a);
	}
	return 0;
}

/*
 * In memcg app (memory.high below memory.max, file pages charged first): a
 * heap written past memory.high (reclaim, swap-out to zram), written again
 * (hits, swap-ins), a second region read without resched; in the root, a
 * hog that takes node 0 below its low watermark (node 1, or kswapd and
 * direct reclaim). Then every region is zapped, resident and swapped out.
 * Two more tasks map the files (data, charged to app; libs, half to app and
 * half to the root: one mapping over two lruvecs), one of them twice:
 * their mappings are torn down at their exits (unmap_vma()), one after the
 * reclaim above (PTEs unmapped, young bits cleared), one at the end.
 */
static void anon_fn(struct actor *a, void *arg)
{
	struct mem_cgroup *app = mem_cgroup_create(mm.root_mem_cgroup, "app");
	struct address_space *file = file_create("data", FILE_PAGES, &ax.nvme, 0, false);
	struct task *t = app ? task_create("t", app, 0) : NULL;
	struct task *big = task_create("big", mm.root_mem_cgroup, 0);
	struct address_space *libs = file_create("libs", FILE_PAGES, &ax.nvme, FILE_PAGES, false);
	struct task *m1 = app ? task_create("m1", app, 0) : NULL;
	struct task *m2 = task_create("m2", mm.root_mem_cgroup, 0);
	struct address_space *heap, *heap2, *heap3, *hog;

	(void)arg;
	if (!file || !libs || !t || !big || !m1 || !m2) {
		snprintf(ax.err, sizeof(ax.err), "no memory");
		return;
	}
	app->max = APP_MAX;
	app->high = APP_HIGH;
	heap = anon_region_create(t, "heap", HEAP_PAGES);
	heap2 = anon_region_create(t, "heap2", HEAP2_PAGES);
	heap3 = anon_region_create(t, "heap3", HEAP3_PAGES);
	hog = anon_region_create(big, "hog", HOG_PAGES);
	if (!heap || !heap2 || !heap3 || !hog) {
		snprintf(ax.err, sizeof(ax.err), "no memory");
		return;
	}
	if (filemap_read_pages(a, t, file, 0, FILE_PAGES) < 0 ||
	    filemap_read_pages(a, t, libs, 0, FILE_PAGES / 2) < 0 ||
	    filemap_read_pages(a, big, libs, FILE_PAGES / 2, FILE_PAGES / 2) < 0 ||
	    map_pages(a, m1, file, 0, 1) || map_pages(a, m1, libs, 0, 1) ||
	    map_pages(a, m2, file, 0, 2) || map_pages(a, m2, libs, 1, 3) ||
	    touch(a, t, heap, 0, HEAP_PAGES, true, STORE_NS, true) ||
	    touch(a, t, heap, 0, HEAP_PAGES, true, STORE_NS, true) ||
	    touch(a, t, heap2, 0, HEAP2_PAGES, false, 0, false) ||
	    touch(a, t, heap, HEAP_PAGES / 3, HEAP_PAGES, false, 0, true) ||
	    touch_stripes(a, t, heap3, NR_STRIPES) || touch_stripes(a, t, heap3, NR_STRIPES))
		return;
	task_exit(a, m1);
	if (map_pages(a, m2, file, 1, 4) ||
	    touch(a, big, hog, 0, HOG_PAGES, true, 0, true) ||
	    touch(a, big, hog, 0, HOG_PAGES, true, 0, true))
		return;
	anon_region_zap(heap2);
	anon_region_zap(hog);
	if (touch(a, t, heap2, 0, HEAP2_PAGES, true, STORE_NS, true))
		return;
	anon_region_zap(heap);
	task_exit(a, m2);
	task_exit(a, t);
	actor_flush_cpu(a);
}

static void print_memcg(FILE *f, const struct mem_cgroup *memcg)
{
	fprintf(f, "memcg '%s' usage %llu watermark %llu swap %llu inflight %llu updates %llu\n",
		memcg->name, (unsigned long long)memcg->usage, (unsigned long long)memcg->watermark,
		(unsigned long long)memcg->swap_usage, (unsigned long long)memcg->nr_charge_inflight,
		(unsigned long long)memcg->stats_updates);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		fprintf(f, "memcg '%s' %s %llu\n", memcg->name, vm_event_name[i],
			(unsigned long long)memcg->events[i]);
	for (int i = 0; i < MEMCG_NR_MEMORY_EVENTS; i++)
		fprintf(f, "memcg '%s' events.%s %llu\n", memcg->name, memcg_event_name[i],
			(unsigned long long)memcg->memory_events[i]);
	for (int nid = 0; nid < mm.machine.nr_nodes; nid++)
		for (int i = 0; i < NR_NODE_STAT_ITEMS; i++)
			fprintf(f, "memcg '%s' node %d stat %d %lld\n", memcg->name, nid, i,
				(long long)memcg->lruvec[nid]->stat[i]);
}

/* Every counter, every node, every folio, every page of every mapping, the clock. */
static void print_state(FILE *f)
{
	char why[512];

	for (int i = 0; i < ACCESS_NEW + 1; i++)
		fprintf(f, "outcome %d %llu\n", i, (unsigned long long)ax.nr[i]);
	for (int i = 0; i < NR_VM_EVENT_ITEMS; i++)
		fprintf(f, "vmstat %s %llu\n", vm_event_name[i], (unsigned long long)mm.vm_events[i]);
	for (int id = 1; id <= mm.nr_memcgs; id++)
		print_memcg(f, mm.memcgs[id]);
	for (int nid = 0; nid < mm.machine.nr_nodes; nid++) {
		const struct numa_node *n = &mm.machine.node[nid];

		fprintf(f, "node %d free %llu local %llu foreign %llu reserved %llu\n", nid,
			(unsigned long long)n->nr_free, (unsigned long long)n->nr_alloc_local,
			(unsigned long long)n->nr_alloc_foreign, (unsigned long long)n->nr_reserved);
	}
	fprintf(f, "folios free %llu fresh %u stacked", (unsigned long long)folio_table.nr_free,
		folio_table.nr_fresh);
	for (uint64_t i = 0; i < folio_table.nr_stacked; i++)
		fprintf(f, " %u", folio_table.free_stack[i]);
	fputc('\n', f);
	for (uint32_t i = 1; i < folio_table.nr_fresh; i++) {
		const struct folio *fo = folio_of(i);

		fprintf(f, "folio %u next %u prev %u flags %#x mapping %u index %u private %u "
			"memcg %u nid %u lru %u version %u\n", i, fo->lru_next, fo->lru_prev,
			fo->flags, fo->mapping, fo->index, fo->private, fo->memcg_id, fo->nid,
			fo->lru, fo->version);
	}
	for (uint32_t id = 1; id < mm.nr_mappings; id++) {
		const struct address_space *as = mm.mappings[id];

		fprintf(f, "mapping '%s' resident %llu dirty %llu\n", as->name,
			(unsigned long long)as->nr_resident, (unsigned long long)as->nr_dirty);
		for (uint64_t p = 0; as->type == AS_FILE && p < as->nr_pages; p++)
			fprintf(f, "mapping '%s' page %llu mapcount %u\n", as->name,
				(unsigned long long)p, lazy_u16(&as->mapcount, p));
		for (uint64_t p = 0; as->slots && p < as->nr_pages; p++)
			fprintf(f, "mapping '%s' page %llu slot %#llx pte %u version %u\n", as->name,
				(unsigned long long)p, (unsigned long long)as->slots[p],
				as->ptes ? as->ptes[p] : 0, as->page_version[p]);
	}
	fprintf(f, "clock %llu quiescent %llu\n", (unsigned long long)engine_clock_ns(),
		(unsigned long long)engine_nr_quiescent());
	fprintf(f, "invariants %s\n", mm_check_invariants(why, sizeof(why)) ? why : "hold");
}

/*
 * Boots the machine in a child (the engine boots once per process), runs
 * anon_fn with or without ranges and returns print_state()'s text; the
 * pages done by ranges in *nr_ranged, by stripes in *nr_stripes.
 */
static char *anon_run(const struct reclaim_policy *policy, int nr_nodes, bool ranges,
		      uint64_t *nr_ranged, uint64_t *nr_stripes)
{
	char *text = NULL, buf[65536];
	size_t len = 0;
	int fds[2], status;
	ssize_t n;
	FILE *f;
	pid_t pid;

	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		FILE *out = fdopen(fds[1], "w");

		close(fds[0]);
		mm_range_ops = ranges;
		harness_boot(nr_nodes, PAGES_PER_NODE, policy);
		harness_nvme(&ax.nvme);
		if (swap_init_zram(ZRAM_LZ4, 8192))
			_exit(3);
		harness_run_actor(anon_fn, NULL);
		fprintf(out, "ranged %llu %llu\n%s\n", (unsigned long long)ax.nr_ranged,
			(unsigned long long)ax.nr_ranged_stripes, ax.err);
		print_state(out);
		fclose(out);
		_exit(0);
	}
	close(fds[1]);
	f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	while ((n = read(fds[0], buf, sizeof(buf))) > 0)
		fwrite(buf, 1, (size_t)n, f);
	fclose(f);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && !WEXITSTATUS(status), "%s: the run failed (%#x)",
		      policy->name, status);
	ck_assert_int_eq(sscanf(text, "ranged %llu %llu", (unsigned long long *)nr_ranged,
				(unsigned long long *)nr_stripes), 2);
	return text;
}

static void anon_same_both_ways(const struct reclaim_policy *policy, int nr_nodes)
{
	uint64_t ranged_loop, ranged, stripes_loop, stripes;
	char *loop = anon_run(policy, nr_nodes, false, &ranged_loop, &stripes_loop);
	char *ranges = anon_run(policy, nr_nodes, true, &ranged, &stripes);
	const char *a = strchr(loop, '\n') + 1, *b = strchr(ranges, '\n') + 1;

	/* no failure, the machine sane, and most pages by ranges, not all */
	ck_assert_msg(*a == '\n', "%s: %.200s", policy->name, a);
	ck_assert_ptr_nonnull(strstr(loop, "invariants hold"));
	ck_assert_uint_eq(ranged_loop, 0);
	ck_assert_uint_eq(stripes_loop, 0);
	/* the stripes too: most of them by ranges, not all */
	ck_assert_msg(stripes > HEAP3_PAGES / 2 && stripes < 2 * HEAP3_PAGES,
		      "%s: %llu pages of stripes by ranges", policy->name,
		      (unsigned long long)stripes);
	ck_assert_msg(ranged > (HEAP_PAGES + HOG_PAGES) / 2, "%s: %llu pages by ranges",
		      policy->name, (unsigned long long)ranged);
	ck_assert_ptr_nonnull(strstr(loop, "vmstat pswpout "));
	ck_assert_ptr_null(strstr(loop, "vmstat pswpout 0\n"));
	ck_assert_ptr_null(strstr(loop, "memcg 'app' events.high 0\n"));
	while (*a && *a == *b)
		a++, b++;
	if (*a || *b) {
		const char *line = a;

		while (line > loop && line[-1] != '\n')
			line--;
		ck_abort_msg("%s, %d node(s): ranges differ from the page loop at \"%.160s\"",
			     policy->name, nr_nodes, line);
	}
	free(loop);
	free(ranges);
}

START_TEST(test_anon_stops_classic)
{
	anon_same_both_ways(&classic_policy, 1);
	anon_same_both_ways(&classic_policy, 2);
}
END_TEST

START_TEST(test_anon_stops_mglru)
{
	anon_same_both_ways(&mglru_old_policy, 2);
	anon_same_both_ways(&mglru_budget_policy, 1);
}
END_TEST

static Suite *range_suite(void)
{
	Suite *s = suite_create("range");
	TCase *tc = tcase_create("range");

	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_file_scan_classic);
	tcase_add_test(tc, test_file_scan_mglru);
	tcase_add_test(tc, test_file_scan_two_nodes);
	tcase_add_test(tc, test_file_scan_proactive);
	tcase_add_test(tc, test_anon_rounds_mglru);
	tcase_add_test(tc, test_chrome_memset_zap);
	tcase_add_test(tc, test_kbuild_heaps);
	tcase_add_test(tc, test_kbuild_tmpfs_zram);
	suite_add_tcase(s, tc);
	/* the small machine at the ranges' stops (a test entry of its own) */
	tc = tcase_create("stops");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_anon_stops_classic);
	tcase_add_test(tc, test_anon_stops_mglru);
	suite_add_tcase(s, tc);
	/* the prefaults' stripes and app-launch's heap (a test entry of their own) */
	tc = tcase_create("stripes");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_anon_prefault_stripes);
	tcase_add_test(tc, test_sysbench_prepare);
	tcase_add_test(tc, test_app_launch_heap);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(range_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
