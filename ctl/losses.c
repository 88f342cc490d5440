/* SPDX-License-Identifier: MIT */
/* Losses as summary and status print them: the totals and each origin (db_query.h ras_db_losses). */
#include <stdio.h>
#include "ctl.h"

void ctl_print_losses(const struct ras_db_losses *l, bool json)
{
	unsigned shown = 0;

	if (json) {
		printf("\"lost_by_origin\":[");
		for (unsigned i = 0; i < l->n; i++)
			printf("%s{\"origin\":\"%s\",\"records\":%lld,\"gaps\":%lld,\"rows\":%lld,"
			       "\"in_total\":%s}", i ? "," : "", l->o[i].origin, (long long)l->o[i].records,
			       (long long)l->o[i].gaps, (long long)l->o[i].rows,
			       l->o[i].in_total ? "true" : "false");
		printf("]");
		return;
	}
	/* Text: only the origins that lost something, "(none)" when none did. */
	for (unsigned i = 0; i < l->n; i++) {
		const struct ras_db_loss_origin *o = &l->o[i];

		if (!o->rows)
			continue;
		printf("%s%s", shown++ ? ", " : "", o->origin);
		if (o->records || !o->gaps)
			printf(" %lld record%s%s", (long long)o->records, o->records == 1 ? "" : "s",
			       o->in_total ? "" : " (the kernel's counters count them: not added)");
		if (o->gaps)
			printf("%s %lld gap%s of unknown size", o->records ? " and" : "",
			       (long long)o->gaps, o->gaps == 1 ? "" : "s");
	}
	if (!shown)
		printf("none");
}
