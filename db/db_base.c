/* SPDX-License-Identifier: MIT */
/*
 * The leaf of db/: pure helpers that touch no connection and call no other
 * db/ file (SQLite's codes as -errno, hours of the roll-ups' keys), so
 * every db/ file may call them without closing a circle
 * (tests/test-db-calls.sh).
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include "db_internal.h"
#include "db_rollup.h"

/*
 * No allocation statistics: kept, they take a global mutex and update four
 * counters around every malloc and free SQLite makes (about 4.6 % of the
 * writer thread's instructions in a storm). Nothing in ras-fdr reads them.
 */
static void sqlite_settings(void)
{
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

void ras_db_sqlite_setup(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, sqlite_settings);
}

int ras_db_errno_of(int code)
{
	switch (code) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return -EBADMSG;
	default:
		return -EIO;
	}
}

int64_t ras_db_hour_of(int64_t wall_ns)
{
	/* Floor division: times before 1970 fall in the hour before, not after. */
	return wall_ns >= 0 ? wall_ns / RAS_DB_HOUR_NS : -((-wall_ns + RAS_DB_HOUR_NS - 1) / RAS_DB_HOUR_NS);
}

int64_t ras_db_first_hour(int64_t since_ns)
{
	return since_ns ? ras_db_hour_of(since_ns) : INT64_MIN;
}

int64_t ras_db_last_hour(int64_t until_ns)
{
	return until_ns ? ras_db_hour_of(until_ns - 1) : INT64_MAX;
}
