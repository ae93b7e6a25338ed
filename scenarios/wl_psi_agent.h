/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * psi-agent: a senpai-style proactive-reclaim agent (scenarios/wl_psi_agent.c):
 * the section's own keys, for the tests.
 */
#ifndef MMEMU_SCENARIOS_WL_PSI_AGENT_H
#define MMEMU_SCENARIOS_WL_PSI_AGENT_H

#include <stdbool.h>
#include <stdint.h>

#include "scenarios/scenario.h"

struct psi_agent_params {
	char target[SCN_NAME_LEN];	/* the memcg it watches and reclaims from, or "root" */
	bool enable;			/* writes memory.reclaim (no: only reads the pressure) */
	uint64_t interval_ns;		/* between two reads */
	double pressure;		/* target: some avg10, percent */
	double step;			/* the largest write, a fraction of memory.current */
	double coeff_probe;		/* pressure / target where the step is the largest */
	uint64_t min_size;		/* no reclaim below this memory.current, bytes */
	char trigger[64];		/* "some|full THRESHOLD_US WINDOW_US", or "none" */
};

#endif
