/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef MMEMU_TOOLS_CHECK_POLICY_H
#define MMEMU_TOOLS_CHECK_POLICY_H

/* `mmemu check-policy POLICY [SCENARIO...]`: the invariant suite for one policy. */
int cmd_check_policy(int argc, char **argv);

#endif
