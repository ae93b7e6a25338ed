/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu fuzz: random machines, memcg trees, workload mixes and policies,
 * each case a scenario file run as `mmemu run` runs it, with the model's
 * invariants checked; a failing case is shrunk and saved (issue 33).
 * Not tests/fuzz/, which holds libFuzzer targets of the parsers.
 */
#ifndef MMEMU_TOOLS_FUZZ_H
#define MMEMU_TOOLS_FUZZ_H

int cmd_fuzz(int argc, char **argv);

#endif
