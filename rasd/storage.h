/* SPDX-License-Identifier: MIT */
/*
 * rasd's view of its database as storage that can fail: opening it (moving a
 * corrupt file aside, leaving another application's or a newer ras-fdr's file
 * alone), the back-off between retries of a failed commit, and the one report
 * per change of state: a log line, sd_notify STATUS= and the state file that
 * ras-fdr-ctl status reads (it is written even when the database cannot be).
 */
#ifndef RASD_STORAGE_H
#define RASD_STORAGE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include "db/db.h"
#include "durability.h"

#define RASD_RETRY_FIRST_MS 250
#define RASD_RETRY_MAX_MS 10000

struct rasd_bmc_sel;

/*
 * What became of the live instance at a stop (the state file's instance=
 * lines): kept in tracefs with what it holds (keep_instance, a failing
 * database), in a boot, with its identity (ras_tracing_instance_ident) and
 * the records it held unread then (RAS_UNREAD_UNKNOWN: a CPU's count could
 * not be read); or removed. UNSAID: nothing is known.
 */
enum rasd_instance_fate { RASD_INSTANCE_UNSAID, RASD_INSTANCE_KEPT, RASD_INSTANCE_REMOVED };
struct rasd_instance_stop {
	enum rasd_instance_fate fate;
	char boot_id[40];
	uint64_t ident, unread;
};

struct rasd_storage {
	char state_dir[PATH_MAX];
	char state_name[128];          /* rasd-<instance>.state */
	char db_path[PATH_MAX];        /* the file rasd records into */
	bool failing;                  /* as last reported */
	int64_t since_ns;
	char reason[256];
	unsigned backoff_ms;
	int64_t retry_at_ms;           /* CLOCK_MONOTONIC */
	uint64_t waiting;              /* records held in memory */
	uint64_t unstored;             /* records a stop had to leave unstored */
	const struct rasd_durability *durability; /* reported in the state file, or NULL */
	int64_t start_ns;              /* CLOCK_REALTIME of rasd's start */
	char database_id[48];          /* the identity of the database rasd records into */
	int64_t replaced_ns;           /* when it found another database than before; 0 never */
	char replaced_from[48];        /* the identity it had before */
	char moved_log[PATH_MAX + 64]; /* the moved database's log kept aside then ("" none) */
	bool moved_log_now;            /* set by this reopen: the replacement found next is its */
	bool stopped;                  /* rasd is stopping: the state file says so */
	char exit_reason[512];         /* why it stops, when on an error */
	bool previous_killed;          /* the last rasd's state file says it runs: it did not stop */
	/* The last rasd's instance at its stop, and this one's (the last one's until it has its own). */
	struct rasd_instance_stop previous_instance, instance;
	uint64_t durability_written;   /* its count when the state file was last written */
	int64_t written_ms;            /* CLOCK_MONOTONIC of that write */
	/* The BMC's SEL line of the state file (rasd/bmc_sel.h), or NULL: none. */
	const char *(*bmc_sel)(const struct rasd_bmc_sel *ctx);
	const struct rasd_bmc_sel *bmc_sel_ctx;
};

/* With rasd's lock taken: reads what the last rasd's state file says, for the new one. */
void rasd_storage_init(struct rasd_storage *s, const char *state_dir, const char *instance);
/* The unstored count a previous rasd left in the state file (0 if none). */
uint64_t rasd_storage_previous_unstored(const struct rasd_storage *s);
/*
 * Opens path for writing. A corrupt file is moved aside (with its -wal and
 * -shm) and a fresh one made; a foreign or newer file is left as it is and
 * rasd records into "<path>.v<schema>" beside it. A storage error (full disk,
 * lock) is reported as a failure (rasd_storage_set) and retried with back-off;
 * give_up() runs between attempts and says when to stop trying. 0 or -errno.
 */
int rasd_storage_open(struct rasd_storage *s, const char *path, const char *boot_id,
		      struct ras_db **db, bool (*give_up)(void *), void *ctx);
/*
 * The open database turned out corrupt while in use (SQLITE_CORRUPT from an
 * insert or commit): close it, move it aside, and open a fresh one at the same
 * path. 0 or -errno (then *db is NULL and rasd keeps holding its records).
 */
int rasd_storage_replace_corrupt(struct rasd_storage *s, const char *boot_id, struct ras_db **db,
				 const char *reason);
/*
 * The open database's file was removed or replaced while in use: close it
 * and open the path again (a fresh database when nothing is there), so the
 * held records go where ras-fdr-ctl reads. 0 or -errno (then *db is NULL).
 */
int rasd_storage_reopen_moved(struct rasd_storage *s, const char *boot_id, struct ras_db **db,
			      const char *reason);
/*
 * The database just opened (or opened again): its identity goes into the
 * state file; another one than rasd recorded into before (a database
 * removed, moved aside, replaced while rasd ran or was stopped) is logged
 * and kept as replaced_ns, shown by ras-fdr-ctl status until acknowledged.
 */
void rasd_storage_note_db(struct rasd_storage *s, struct ras_db *db);
/* rasd stops: the state file says so, and why when reason is not "" (then it is logged by the caller). */
void rasd_storage_stop(struct rasd_storage *s, const char *reason);
/* Reports a change between working and failing (nothing when unchanged). */
void rasd_storage_set(struct rasd_storage *s, bool failing, int64_t since_ns, const char *reason,
		      uint64_t waiting);
/* Rewrites the state file with the current figures. */
void rasd_storage_write(struct rasd_storage *s);
/* Rewrites it when the durability figures changed, at most once per RASD_STATE_INTERVAL_MS. */
void rasd_storage_tick(struct rasd_storage *s);
#define RASD_STATE_INTERVAL_MS 10000
/* Milliseconds until the next retry is due (0: now), or -1 when nothing fails. */
int rasd_storage_timeout_ms(const struct rasd_storage *s);
/* After a failed retry: wait twice as long next time, up to RASD_RETRY_MAX_MS. */
void rasd_storage_backoff(struct rasd_storage *s);

#endif
