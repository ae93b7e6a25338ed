/* SPDX-License-Identifier: GPL-2.0-only */
/* The table of reclaim policies; adding one is a file and a line here. */
#include <string.h>

#include "models/policy.h"

const struct reclaim_policy *const reclaim_policies[] = {
	&classic_policy,
	&mglru_old_policy,
	&mglru_budget_policy,
	&mglru_72_policy,
	NULL,
};

const struct reclaim_policy *reclaim_policy_find(const char *name)
{
	for (int i = 0; reclaim_policies[i]; i++)
		if (!strcmp(reclaim_policies[i]->name, name))
			return reclaim_policies[i];
	return NULL;
}
