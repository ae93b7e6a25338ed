/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmemu ablate: an MGLRU policy with each of its mechanisms removed in
 * turn and all at once, over seeds, against the kernel's (issue 33).
 */
#ifndef MMEMU_TOOLS_ABLATE_H
#define MMEMU_TOOLS_ABLATE_H

int cmd_ablate(int argc, char **argv);

#endif
