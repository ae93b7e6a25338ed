/* SPDX-License-Identifier: GPL-2.0-only */
/* `mmemu batch PLAN`: a plan's runs, each `mmemu run`, on the runner (tools/batch.c). */
#ifndef MMEMU_TOOLS_BATCH_H
#define MMEMU_TOOLS_BATCH_H

int cmd_batch(int argc, char **argv);

#endif
