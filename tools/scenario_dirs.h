/* SPDX-License-Identifier: GPL-2.0-only */
/* Where a bare scenario name ("ycsb-b") is looked up: args_scenario(). */
#ifndef MMEMU_TOOLS_SCENARIO_DIRS_H
#define MMEMU_TOOLS_SCENARIO_DIRS_H

#ifndef MMEMU_SCENARIO_DIR
#define MMEMU_SCENARIO_DIR "scenarios"
#endif
#ifndef MMEMU_INSTALLED_SCENARIO_DIR
#define MMEMU_INSTALLED_SCENARIO_DIR "/usr/local/share/mmemu/scenarios"
#endif

/* the source tree this mmemu was built from, then the copies meson install made */
static const char *const mmemu_scenario_dirs[] = {
	MMEMU_SCENARIO_DIR, MMEMU_INSTALLED_SCENARIO_DIR, NULL
};

#endif
