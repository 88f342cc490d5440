/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "metrics_file.h"
#include "db/db_crashes.h"
#include "db/db_metrics.h"
#include "db/db_parts.h"
#include "lib/clock.h"
#include "log.h"
#include "storage.h"
#include "refusals.h"

/* The running counts, kept between batches; tied to one database handle. */
static struct ras_metrics *counts;
static const struct ras_db *counts_db;
static int last_error;
static const struct rasd_storage *storage;
static int64_t written_ms;     /* CLOCK_MONOTONIC of the last write; 0: none */

void rasd_metrics_file_set_storage(const struct rasd_storage *s)
{
	storage = s;
}

static int write_file(struct ras_db *db, const struct rasd_config *cfg, bool up)
{
	enum ras_metrics_storage state = RAS_MSTORE_WORKING;
	char why[PATH_MAX + 300] = "";
	int r = 0;

	if (!cfg->metrics_textfile[0] || (!db && !counts_db))
		return 0;
	if (!counts && !(counts = calloc(1, sizeof(*counts))))
		return -ENOMEM;
	if (db && counts_db != db) {
		/* A new handle (rasd reopened the database): count it whole again. */
		ras_metrics_reset_counts(counts);
		counts_db = db;
	}
	/* Without a database (it fails, it is being replaced) the last counts stand. */
	if (db) {
		r = ras_db_metrics_collect(db, counts);
		ras_db_crash_metrics(db, counts);
		/* The diagnosis's series: its parts, read whole (at most 4096 rows). */
		if (r == 0 && ras_db_parts_metrics(db, counts) == -ENOMEM)
			r = -ENOMEM;
	}
	ras_metrics_read_info(counts, cfg->tracing_dir, cfg->instance);
	if (!up)
		state = RAS_MSTORE_STOPPED;
	else if (storage && storage->failing)
		state = RAS_MSTORE_FAILING;
	/* rasd holds the lock itself: it is up while it writes, by definition. */
	ras_metrics_set_liveness(counts, up, state, storage ? storage->start_ns : 0,
				 storage ? storage->replaced_ns : 0,
				 storage && storage->db_path[0] ? storage->db_path : cfg->database);
	if (r == 0) {
		r = ras_metrics_write_file(counts, RAS_METRICS_NAMED_DEFAULT, RAS_MFMT_PROMETHEUS,
					   cfg->metrics_textfile, why, sizeof(why));
		/* A directory the path rule refuses is said once and shown by ras-fdr-ctl status. */
		if (r == -EPERM || r == -ELOOP)
			rasd_refuse("metrics_textfile", why);
		else if (r == 0)
			rasd_refusal_clear("metrics_textfile");
	}
	if (r < 0 && r != last_error && r != -EPERM && r != -ELOOP)
		ras_log(LOG_WARNING, "cannot write metrics_textfile %s: %s", cfg->metrics_textfile,
			why[0] ? why : strerror(-r));
	last_error = r;
	written_ms = ras_clock_ns(CLOCK_MONOTONIC) / 1000000;
	return r;
}

int rasd_metrics_file_update(struct ras_db *db, const struct rasd_config *cfg)
{
	return write_file(db, cfg, true);
}

void rasd_metrics_file_heartbeat(struct ras_db *db, const struct rasd_config *cfg)
{
	if (cfg->metrics_textfile[0] &&
	    ras_clock_ns(CLOCK_MONOTONIC) / 1000000 - written_ms >= RASD_METRICS_HEARTBEAT_MS)
		write_file(db, cfg, true);
}

void rasd_metrics_file_stop(struct ras_db *db, const struct rasd_config *cfg)
{
	/* Without counts read (the database never worked), zeros would read as counters reset. */
	if (db || counts_db)
		write_file(db, cfg, false);
	if (counts) {
		ras_metrics_free(counts);
		free(counts);
		counts = NULL;
	}
	counts_db = NULL;
}
