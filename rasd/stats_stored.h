/* SPDX-License-Identifier: MIT */
/*
 * The drop counters a pipeline's instance has stored (cpu_stats), per CPU, as
 * the writer's connection sees them (issue 39). Reading them from the
 * database (ras_db_cpu_stats_get) waits for the writer thread's whole queue,
 * a commit behind included: once the kernel has dropped, every check before
 * a commit did, and a failing step failed much harder.
 *
 * rasd is the only writer of its instance's rows, so what it last stored
 * equals what the writer's connection would return, the open transaction's
 * writes included: each CPU's figures are read once (with a sync) and then
 * kept as written (rasd_stats_stored_set). A rollback takes the database
 * back to the last commit made: every rollback on the connection (counted by
 * ras_db_rollbacks: the pipeline's own, a failed commit behind's, another
 * user's of the shared transaction) and a database replaced drop the copy,
 * so the next check reads the committed figures again.
 */
#ifndef RASD_STATS_STORED_H
#define RASD_STATS_STORED_H

#include <stdint.h>
#include "db/db.h"

/* CPUs whose stored figures are kept; above: always read from the database. */
#define RASD_STATS_STORED_CPUS 1024

struct rasd_stats_stored {
	const struct ras_db *db;        /* the database the copy is of; NULL: none */
	unsigned long rollbacks;        /* its ras_db_rollbacks when the copy was started */
	uint64_t known[RASD_STATS_STORED_CPUS / 64];
	struct ras_db_cpu_stats cpu[RASD_STATS_STORED_CPUS];
	uint64_t loads;                 /* figures read from the database (tests count them) */
};

/* cpu's stored figures for instance: the copy, or read from db (0, -EIO). */
int rasd_stats_stored_get(struct rasd_stats_stored *s, struct ras_db *db, const char *instance,
			  int cpu, struct ras_db_cpu_stats *out);
/* in was written for cpu (ras_db_cpu_stats_set succeeded) in db's open transaction. */
void rasd_stats_stored_set(struct rasd_stats_stored *s, const struct ras_db *db, int cpu,
			   const struct ras_db_cpu_stats *in);
/* The database went back (a rollback, a failed commit): read every CPU again. */
void rasd_stats_stored_drop(struct rasd_stats_stored *s);

#endif
