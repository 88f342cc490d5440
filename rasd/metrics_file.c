/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "metrics_file.h"
#include "db/db_crashes.h"
#include "db/db_metrics.h"
#include "log.h"

/* The running counts, kept between batches; tied to one database handle. */
static struct ras_metrics *counts;
static const struct ras_db *counts_db;
static int last_error;

int rasd_metrics_file_update(struct ras_db *db, const struct rasd_config *cfg)
{
	int r;

	if (!cfg->metrics_textfile[0])
		return 0;
	if (!counts && !(counts = calloc(1, sizeof(*counts))))
		return -ENOMEM;
	if (counts_db != db) {
		/* A new handle (rasd reopened the database): count it whole again. */
		ras_metrics_reset_counts(counts);
		counts_db = db;
	}
	r = ras_db_metrics_collect(db, counts);
	ras_db_crash_metrics(db, counts);
	ras_metrics_read_info(counts, cfg->tracing_dir, cfg->instance);
	if (r == 0)
		r = ras_metrics_write_file(counts, RAS_METRICS_TOP_DEFAULT, RAS_MFMT_PROMETHEUS,
					   cfg->metrics_textfile);
	if (r < 0 && r != last_error)
		ras_log(LOG_WARNING, "cannot write metrics_textfile %s: %s", cfg->metrics_textfile,
			strerror(-r));
	last_error = r;
	return r;
}
