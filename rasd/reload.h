/* SPDX-License-Identifier: MIT */
/*
 * SIGHUP: the configuration file is read again, with the command line over
 * it, and the settings that can change while rasd runs are taken from it.
 * The database, the instance and sysfs_root change only at a restart.
 */
#ifndef RAS_RELOAD_H
#define RAS_RELOAD_H

#include <stdbool.h>
#include "daemon.h"
#include "lib/config.h"

/*
 * Updates running from the file as it is now. Anything short of a file read
 * whole without an error keeps the running configuration (logged): a deleted
 * or unreadable file is not a request for the defaults. True when updated;
 * the caller then applies it (thresholds, events, DIMM labels).
 */
bool rasd_reload_config(struct rasd_config *running, const struct rasd_options *opt);

#endif
