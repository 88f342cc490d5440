/* SPDX-License-Identifier: MIT */
/*
 * rasd's own tracing instance: tracefs found, the instance created or taken
 * back from an earlier rasd, every tracepoint format loaded (the shipped
 * copies for events this kernel lacks) and reported, and the configured
 * events the kernel offers enabled. The instances rasd only reads (boot,
 * previous boot) are adopted in daemon.c.
 */
#ifndef RAS_INSTANCE_H
#define RAS_INSTANCE_H

#include "lib/config.h"
#include "lib/decode.h"
#include "lib/formats.h"
#include "lib/tracing.h"

/*
 * Opens the instance named in cfg into tr and loads its formats into *fmt;
 * dctx learns the kernel's memory-failure symbols and, on a real tracefs,
 * where PCI devices are named. 0, or -errno (logged).
 */
int rasd_instance_open(struct ras_tracing *tr, struct ras_formats **fmt,
		       struct ras_decode_ctx *dctx, const struct rasd_config *cfg);
/*
 * Enables the wanted events the kernel has and disables the others (at start
 * and reload); returns how many are on. The caller says so once it is ready.
 */
unsigned rasd_instance_enable_events(struct ras_tracing *tr, const struct ras_formats *fmt,
				     const struct rasd_config *cfg);
void rasd_instance_log_recording(const struct ras_tracing *tr, unsigned enabled,
				 const char *more);
/*
 * Sets back what something else changed in the instance (the wanted events or
 * tracing_on off, overwrite on), saying so; since: when all was last seen right.
 */
void rasd_instance_check(struct ras_tracing *tr, const struct ras_formats *fmt,
			 const struct rasd_config *cfg, const char *since);

#endif
