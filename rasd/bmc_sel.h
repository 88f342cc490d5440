/* SPDX-License-Identifier: MIT */
/*
 * Telling the BMC (bmc_sel = yes): an uncorrected error and a crossed
 * corrected-error threshold (bmc_sel_events) become an entry of its System
 * Event Log (bmc/sel_entry.h, 16 bytes), added through the kernel's IPMI
 * device (bmc_ipmi.h), at most bmc_sel_limit of them a period: the others are
 * counted and said at the period's end. Every attempt is a row of the actions
 * table (action "bmc-sel"): done with the BMC's record ID, failed with the
 * completion code or errno, rate-limited, unsupported (no IPMI device), or
 * dry-run (dry_run, or a synthetic record without synthetic_actions).
 *
 * Nothing waits for the BMC: an entry is sent (at most BMC_IN_FLIGHT at
 * once, the others queued, past the queue dropped, and a row says so), and
 * its row is written when the event loop sees the answer on the device's fd
 * (rasd_bmc_sel_handle) or its deadline pass (rasd_bmc_sel_expire).
 */
#ifndef RASD_BMC_SEL_H
#define RASD_BMC_SEL_H

#include <stddef.h>
#include <stdint.h>
#include "bmc/sel_entry.h"
#include "db/db.h"
#include "db/db_actions.h"
#include "lib/config.h"
#include "lib/event_table.h"
#include "bmc_transport.h"

struct rasd_bmc_sel;

/*
 * A test's BMC that answers at once: add returns 0 and *record_id, a
 * completion code (> 0), or -errno. (The device answers later: bmc_transport.h.)
 */
struct rasd_bmc_transport {
	void *ctx;
	int (*add)(void *ctx, const uint8_t entry[BMC_SEL_ENTRY_LEN], uint16_t *record_id);
};

/* With bmc_sel = yes the device is looked for now (absent: said once). 0 or -ENOMEM. */
int rasd_bmc_sel_open(struct rasd_bmc_sel **out, const struct rasd_config *cfg);
/* The configuration was read again: the device is looked for again when it changed. */
void rasd_bmc_sel_reload(struct rasd_bmc_sel *s);
void rasd_bmc_sel_close(struct rasd_bmc_sel *s);
/* Tests: this transport instead of the device, and this CLOCK_MONOTONIC for the limit. */
void rasd_bmc_sel_set_transport(struct rasd_bmc_sel *s, const struct rasd_bmc_transport *t);
/* Tests: t as the IPMI device (answering later), named name in the state line. */
void rasd_bmc_sel_set_device(struct rasd_bmc_sel *s, const struct bmc_transport *t,
			     const char *name);
void rasd_bmc_sel_set_clock(struct rasd_bmc_sel *s, int64_t (*mono_ns)(void));
/* One line for the state file (ras-fdr-ctl status): "off", the device and counts, or why none. */
const char *rasd_bmc_sel_state(const struct rasd_bmc_sel *s);

/* A stored uncorrected record (row_id its row): its entry, when wanted. */
void rasd_bmc_sel_record(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
			 const struct ras_event_type *type, const void *decoded,
			 const struct ras_db_event *ev, int64_t row_id);
/* A crossed threshold, as decided (rasd/actions.c): its entry, when wanted. */
void rasd_bmc_sel_crossing(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
			   const struct ras_db_action *decision);


/* The loop's epoll: the device's fd is watched with tag, now and whenever it is opened again. */
void rasd_bmc_sel_watch(struct rasd_bmc_sel *s, int epfd, uint64_t tag);
/* The fd is readable: every answer waiting becomes its row. The rows written. */
int rasd_bmc_sel_handle(struct rasd_bmc_sel *s, struct ras_db_actions *dba);
/* Every loop turn: a request past its deadline fails (timed out); what waits is sent. The rows written. */
int rasd_bmc_sel_expire(struct rasd_bmc_sel *s, struct ras_db_actions *dba);
/* Milliseconds to the first deadline (0: passed), or -1 when nothing is out. */
int rasd_bmc_sel_timeout_ms(const struct rasd_bmc_sel *s);
/* At the stop: what was sent or waits, unanswered, fails (ECANCELED) as rows. The rows written. */
int rasd_bmc_sel_settle(struct rasd_bmc_sel *s, struct ras_db_actions *dba);
/* rasd --once, which has no loop: waits for the answers (each up to its deadline), then settles. */
int rasd_bmc_sel_finish(struct rasd_bmc_sel *s, struct ras_db_actions *dba);

#endif
