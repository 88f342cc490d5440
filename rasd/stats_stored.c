/* SPDX-License-Identifier: MIT */
/* The stored drop counters kept in memory: rasd/stats_stored.h. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "stats_stored.h"

void rasd_stats_stored_drop(struct rasd_stats_stored *s)
{
	s->db = NULL;
	memset(s->known, 0, sizeof(s->known));
}

/* The copy describes db as it is now: same database, no rollback since. */
static bool current(const struct rasd_stats_stored *s, const struct ras_db *db)
{
	return s->db && s->db == db && s->rollbacks == ras_db_rollbacks(db);
}

static bool kept(int cpu)
{
	return cpu >= 0 && cpu < RASD_STATS_STORED_CPUS;
}

int rasd_stats_stored_get(struct rasd_stats_stored *s, struct ras_db *db, const char *instance,
			  int cpu, struct ras_db_cpu_stats *out)
{
	if (!current(s, db)) {
		rasd_stats_stored_drop(s);
		s->db = db;
		s->rollbacks = ras_db_rollbacks(db);
	}
	if (kept(cpu) && (s->known[cpu / 64] >> (cpu % 64) & 1)) {
		*out = s->cpu[cpu];
		return 0;
	}
	s->loads++;
	if (ras_db_cpu_stats_get(db, instance, cpu, out) < 0)
		return -EIO;
	rasd_stats_stored_set(s, db, cpu, out);
	return 0;
}

void rasd_stats_stored_set(struct rasd_stats_stored *s, const struct ras_db *db, int cpu,
			   const struct ras_db_cpu_stats *in)
{
	if (!kept(cpu) || !current(s, db))
		return;
	s->cpu[cpu] = *in;
	s->known[cpu / 64] |= 1ULL << (cpu % 64);
}
