/* SPDX-License-Identifier: MIT */
/* The counts behind the metrics (lib/metrics.h). */
#ifndef RAS_DB_METRICS_H
#define RAS_DB_METRICS_H

#include "db.h"
#include "lib/metrics.h"

/*
 * Adds to m what was stored since the last call with the same m (m->seen_id
 * per table; a zeroed m reads everything), in one read transaction so every
 * count describes the same moment. Lost records (every origin), the
 * malformed counter and the actions are totals, read whole each time (the
 * actions from their roll-up, a row per action and result); the subjects'
 * places in the order they appeared (metrics_subjects) are read from the
 * last one seen. 0 or -errno.
 */
int ras_db_metrics_collect(struct ras_db *db, struct ras_metrics *m);
/*
 * The metrics' subject of a row of table as SQL over its <table>_decoded view
 * (key, char(31), key2), and the errors a row stands for; "''" and "1" for a
 * table without subjects. Folded records keep both (db_fold.c).
 */
void ras_db_metrics_subject_sql(const char *table, char *dims, size_t len, const char **weight);
/* Table idx's subject: its dimension and those expressions, key and key2 apart; false: none. */
bool ras_db_metrics_subject_exprs(unsigned idx, enum ras_metrics_dim *dim, const char **table,
				  const char **key, const char **key2, const char **weight);

#endif
