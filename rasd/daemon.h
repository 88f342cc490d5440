/* SPDX-License-Identifier: MIT */
#ifndef RAS_DAEMON_H
#define RAS_DAEMON_H

#include "lib/config.h"

struct rasd_options {
	const char *config_path;
	bool config_explicit;
	bool once;            /* drain what is buffered, then exit */
	bool rebuild_buckets; /* recompute threshold buckets from the records, then exit */
	bool journal;
	int verbosity;
	/* Command-line settings, applied over the file at start and at every reload. */
	const char *const *override_key;
	const char *const *override_value;
	int n_overrides;
};

/* Runs the daemon until SIGTERM/SIGINT (or, with once, until drained). Exit status. */
int rasd_run(struct rasd_config *cfg, const struct rasd_options *opt);

#endif
