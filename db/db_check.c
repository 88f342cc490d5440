/* SPDX-License-Identifier: MIT */
/*
 * Is this file a ras-fdr database we may read or write? Cheap checks only,
 * so that every ras-fdr-ctl call can afford them on a multi-gigabyte file:
 *
 *  - the 100-byte SQLite header: magic string, a valid page size, a file
 *    length that is a whole number of pages and at least the page count the
 *    header records (a truncated copy or a cut-short restore fails here);
 *  - the schema: sqlite_master is read in full and PRAGMA user_version, which
 *    parses page 1 and every schema page (header or schema damage fails here);
 *  - whose tables they are: a schema version above ours means a newer
 *    ras-fdr; tables without a schema version, or without the boots table
 *    every ras-fdr database has, mean someone else's.
 *
 * Not caught: damage inside data or index pages beyond the schema (only
 * PRAGMA quick_check, which reads every page, finds that up front). Those
 * surface as SQLITE_CORRUPT from the query or insert that touches the page:
 * ras-fdr-ctl reports it as an error, rasd as a storage failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "db_internal.h"

static const char *const own_tables[] = {
	"boots", "lost_events", "counters", "cpu_stats", "edac_csrows", "edac_dimms", "edac_mcs",
	"edac_snapshots", "edac_windows", "snapshots", "storage_events", "rollup_hourly", "buckets", "actions", "read_marks",
	"folds", "rollup_edac", "rollup_subjects", "rollup_totals", "rollup_actions",
	"meta", "fold_growth", "action_growth", "metrics_subjects",
	"parts", "part_faults", "verdicts", "health_marks", "row_pages", "row_state",
};

const char *ras_db_state_name(enum ras_db_state s)
{
	static const char *const names[] = {
		[RAS_DB_GOOD] = "good", [RAS_DB_MISSING] = "missing", [RAS_DB_EMPTY] = "empty",
		[RAS_DB_CORRUPT] = "corrupt", [RAS_DB_FOREIGN] = "foreign",
		[RAS_DB_NEWER] = "newer", [RAS_DB_UNREADABLE] = "unreadable",
	};
	return names[s];
}

static bool own_table(const char *name)
{
	char dec[160];

	if (!strncmp(name, "sqlite_", 7))
		return true;
	for (size_t i = 0; i < sizeof(own_tables) / sizeof(own_tables[0]); i++)
		if (!strcmp(name, own_tables[i]))
			return true;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		snprintf(dec, sizeof(dec), "%s_dec", ras_event_types[i].table);
		if (!strcmp(name, ras_event_types[i].table) || !strcmp(name, dec))
			return true;
	}
	return false;
}

static uint32_t be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/*
 * A checkpoint writes page 1, with the new page count, before the pages past
 * the file's end: a writer killed in one leaves a file shorter than its header
 * says, which SQLite completes from the WAL at the next open. Short with a WAL
 * that holds frames (more than its 32-byte header) is that, not a truncation.
 */
static bool wal_has_frames(const char *path)
{
	char wal[4096];
	struct stat st;

	if ((size_t)snprintf(wal, sizeof(wal), "%s-wal", path) >= sizeof(wal))
		return false;
	return lstat(wal, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 32;
}

/* The file itself: a regular file, and a header that agrees with its length. */
static enum ras_db_state check_file(const char *path, char *why, size_t whylen)
{
	uint8_t h[100];
	struct stat st;
	uint32_t page, pages;
	ssize_t n;
	int fd;

	if (lstat(path, &st) != 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return errno == ENOENT ? RAS_DB_MISSING : RAS_DB_UNREADABLE;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(why, whylen, "%s", S_ISLNK(st.st_mode) ? "is a symbolic link" : "is not a regular file");
		return RAS_DB_UNREADABLE;
	}
	if (st.st_size == 0)
		return RAS_DB_EMPTY;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "%s", strerror(errno));
		return RAS_DB_UNREADABLE;
	}
	n = read(fd, h, sizeof(h));
	close(fd);
	if (n < (ssize_t)sizeof(h) || memcmp(h, "SQLite format 3", 16)) {
		snprintf(why, whylen, "%s", n < (ssize_t)sizeof(h) ? "truncated: shorter than the SQLite header"
			 : "not an SQLite database (bad header)");
		return RAS_DB_CORRUPT;
	}
	page = (uint32_t)h[16] << 8 | h[17];
	page = page == 1 ? 65536 : page;
	if (page < 512 || (page & (page - 1))) {
		snprintf(why, whylen, "damaged header: page size %u", page);
		return RAS_DB_CORRUPT;
	}
	/* The page count is valid when the change counter matches version-valid-for. */
	pages = be32(h + 28);
	if ((uint64_t)st.st_size % page ||
	    (be32(h + 24) == be32(h + 92) && (uint64_t)st.st_size < (uint64_t)pages * page &&
	     !wal_has_frames(path))) {
		snprintf(why, whylen, "truncated: %lld bytes, the header records %u pages of %u bytes",
			 (long long)st.st_size, pages, page);
		return RAS_DB_CORRUPT;
	}
	return RAS_DB_GOOD;
}

static int read_user_version(sqlite3 *h, int *v)
{
	sqlite3_stmt *st;
	int r;

	if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return sqlite3_errcode(h);
	r = sqlite3_step(st);
	if (r == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return r == SQLITE_ROW ? SQLITE_OK : r;
}

/* The schema, read through an open handle: whose is it? */
static enum ras_db_state check_schema(sqlite3 *h, char *why, size_t whylen)
{
	sqlite3_stmt *st;
	char foreign[64] = "";
	bool boots = false;
	int tables = 0, v = 0, r;

	r = read_user_version(h, &v);
	if (r == SQLITE_OK)
		r = sqlite3_prepare_v2(h, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &st, NULL);
	if (r != SQLITE_OK) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(h));
		return r == SQLITE_BUSY || r == SQLITE_CANTOPEN || r == SQLITE_PERM ? RAS_DB_UNREADABLE
										   : RAS_DB_CORRUPT;
	}
	while ((r = sqlite3_step(st)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);

		tables++;
		boots |= name && !strcmp(name, "boots");
		if (name && !own_table(name) && !foreign[0])
			snprintf(foreign, sizeof(foreign), "%s", name);
	}
	sqlite3_finalize(st);
	if (r != SQLITE_DONE) {
		snprintf(why, whylen, "%s", sqlite3_errmsg(h));
		return r == SQLITE_BUSY ? RAS_DB_UNREADABLE : RAS_DB_CORRUPT;
	}
	if (v > RAS_DB_SCHEMA_VERSION) {
		snprintf(why, whylen, "schema version %d is newer than this ras-fdr's (%d)", v,
			 RAS_DB_SCHEMA_VERSION);
		return RAS_DB_NEWER;
	}
	/*
	 * Ours: a schema version and the boots table every version makes. Tables
	 * this version does not know (a later one may add some) do not make it
	 * foreign; they only name the culprit when it is.
	 */
	if (tables && (v == 0 || !boots)) {
		snprintf(why, whylen, "not a ras-fdr database (table '%s', schema version %d)",
			 foreign[0] ? foreign : "boots missing", v);
		return RAS_DB_FOREIGN;
	}
	return tables ? RAS_DB_GOOD : RAS_DB_EMPTY;
}

enum ras_db_state ras_db_inspect(const char *path, sqlite3 *h, char *why, size_t whylen)
{
	enum ras_db_state s = check_file(path, why, whylen);

	if (s != RAS_DB_GOOD || !h)
		return s;
	return check_schema(h, why, whylen);
}
