/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The table of workload types; adding one is a file (wl_*.c with its
 * `const struct workload_ops`), a line here and a line in meson.build.
 * The first is the type of a [workload.*] section that names none.
 */
#include <string.h>

#include "scenarios/workload.h"

/* each defined in its wl_*.c */
extern const struct workload_ops file_zipf_ops, anon_ops, dd_ops, file_scan_ops, anon_rounds_ops,
	trace_ops, ycsb_ops, fio_ops, sysbench_ops, app_launch_ops, proactive_reclaim_ops,
	chrome_node_ops, kbuild_ops, psi_agent_ops;

const struct workload_ops *const workload_types[] = {
	&file_zipf_ops,
	&anon_ops,
	&dd_ops,
	&file_scan_ops,
	&anon_rounds_ops,
	&trace_ops,
	&ycsb_ops,
	&fio_ops,
	&sysbench_ops,
	&app_launch_ops,
	&proactive_reclaim_ops,
	&chrome_node_ops,
	&kbuild_ops,
	&psi_agent_ops,
	NULL,
};

const struct workload_ops *workload_type_find(const char *name)
{
	for (int i = 0; workload_types[i]; i++)
		if (!strcmp(workload_types[i]->name, name))
			return workload_types[i];
	return NULL;
}
