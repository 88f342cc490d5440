/* SPDX-License-Identifier: MIT */
/* The once-spill tests' fixture: see spill_fixture.h. */
#include <stdint.h>
#include <stdio.h>
#include "db/db_actions.h"
#include "spill_fixture.h"

struct ras_subject page(unsigned i)
{
	struct ras_subject s = { .kind = RAS_SUBJ_PAGE, .n = 1, .have_addr = true, .cpu = -1 };

	s.addr = 0x100000000ULL + (uint64_t)i * 4096;
	snprintf(s.key, sizeof(s.key), "0x%llx", (unsigned long long)s.addr);
	return s;
}

static void count_key(void *ctx, uint64_t key)
{
	(void)key;
	(*(int *)ctx)++;
}

int spilled(struct ras_actions *a)
{
	int n = 0;

	return ras_db_once_spill_keys(a->dba, count_key, &n) < 0 ? -1 : n;
}
