/* SPDX-License-Identifier: MIT */
/*
 * Every schema step since the first release, in order, as literal SQL. A
 * database at PRAGMA user_version N runs the steps above N, in one
 * transaction, then the event tables are brought up to the event table's
 * column set (db_schema.c). Steps are never edited once released: a change
 * is a new step at the end.
 */
#ifndef RAS_DB_UPGRADES_H
#define RAS_DB_UPGRADES_H

#include "db_internal.h"   /* struct ras_db_col */

struct ras_db_upgrade {
	int version;
	const char *what;
	const char *sql;      /* NULL: nothing but the event-table sync */
};

static const struct ras_db_upgrade ras_db_upgrades[] = {
	{ 1, "bookkeeping: boots, lost records, counters",
	  "CREATE TABLE IF NOT EXISTS boots ("
	  " id INTEGER PRIMARY KEY, boot_id TEXT NOT NULL UNIQUE, first_seen_ns INTEGER);"
	  "CREATE TABLE IF NOT EXISTS lost_events ("
	  " id INTEGER PRIMARY KEY, boot INTEGER, instance TEXT, cpu INTEGER,"
	  " count INTEGER, from_ns INTEGER, to_ns INTEGER, origin TEXT NOT NULL);"
	  "CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);" },
	{ 2, "per-CPU loss counters remembered across restarts",
	  "CREATE TABLE IF NOT EXISTS cpu_stats ("
	  " boot INTEGER, instance TEXT, cpu INTEGER, overrun INTEGER, dropped INTEGER,"
	  " PRIMARY KEY (boot, instance, cpu));"
	  "CREATE INDEX IF NOT EXISTS lost_events_time ON lost_events (to_ns);" },
	{ 3, "EDAC topology snapshots and counting windows",
	  "CREATE TABLE IF NOT EXISTS edac_snapshots ("
	  " id INTEGER PRIMARY KEY, boot INTEGER NOT NULL, taken_ns INTEGER NOT NULL,"
	  " digest INTEGER NOT NULL, board TEXT);"
	  "CREATE INDEX IF NOT EXISTS edac_snapshots_boot ON edac_snapshots (boot, taken_ns);"
	  "CREATE TABLE IF NOT EXISTS edac_mcs ("
	  " snapshot INTEGER NOT NULL, mc INTEGER NOT NULL, mc_name TEXT, size_mb INTEGER,"
	  " max_location TEXT, PRIMARY KEY (snapshot, mc));"
	  "CREATE TABLE IF NOT EXISTS edac_dimms ("
	  " snapshot INTEGER NOT NULL, mc INTEGER NOT NULL, idx INTEGER NOT NULL,"
	  " is_rank INTEGER NOT NULL, top INTEGER NOT NULL, mid INTEGER NOT NULL,"
	  " low INTEGER NOT NULL, location TEXT, label TEXT, configured_label TEXT,"
	  " size_mb INTEGER, mem_type TEXT, dev_type TEXT, edac_mode TEXT,"
	  " csrow INTEGER, cschannel INTEGER, PRIMARY KEY (snapshot, mc, idx));"
	  "CREATE TABLE IF NOT EXISTS edac_csrows ("
	  " snapshot INTEGER NOT NULL, mc INTEGER NOT NULL, csrow INTEGER NOT NULL,"
	  " channel INTEGER NOT NULL, size_mb INTEGER, mem_type TEXT, dev_type TEXT,"
	  " edac_mode TEXT, dimm_label TEXT, configured_label TEXT,"
	  " top INTEGER NOT NULL, mid INTEGER NOT NULL, low INTEGER NOT NULL,"
	  " PRIMARY KEY (snapshot, mc, csrow, channel));"
	  "CREATE TABLE IF NOT EXISTS edac_windows ("
	  " id INTEGER PRIMARY KEY, scope TEXT NOT NULL, start_ns INTEGER NOT NULL);" },
	{ 4, "flight-recorder snapshots",
	  "CREATE TABLE IF NOT EXISTS snapshots ("
	  " id INTEGER PRIMARY KEY, boot INTEGER, wall_ns INTEGER NOT NULL, reason TEXT,"
	  " trigger_table TEXT, trigger_row_id INTEGER, trigger_trace_ts INTEGER,"
	  " trigger_wall_ns INTEGER, instance TEXT, data BLOB NOT NULL,"
	  " raw_size INTEGER NOT NULL, record_count INTEGER, missed INTEGER, ncpus INTEGER);"
	  "CREATE INDEX IF NOT EXISTS snapshots_time ON snapshots (wall_ns);" },
	/*
	 * Decodings move out of the event tables into <table>_dec, one row per
	 * distinct decoding, with the <table>_decoded views. Both are generated
	 * from the event table by the sync that follows every upgrade, so the
	 * step itself has no SQL; the decoded columns version 4 kept inline in
	 * the event tables stay, unused (dropping them would rewrite every row).
	 */
	{ 5, "decodings in <table>_dec (made by the event-table sync)", NULL },
	/*
	 * Hourly roll-ups (db_rollup.c), filled from the stored rows when the
	 * database is upgraded, then kept in the same transaction as each batch.
	 */
	{ 6, "hourly roll-ups of every event table",
	  "CREATE TABLE IF NOT EXISTS rollup_hourly ("
	  " tbl TEXT NOT NULL, hour INTEGER NOT NULL, boot INTEGER NOT NULL, source TEXT NOT NULL,"
	  " synthetic INTEGER NOT NULL, severity TEXT NOT NULL, location TEXT NOT NULL,"
	  " records INTEGER NOT NULL, first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,"
	  " PRIMARY KEY (tbl, hour, boot, source, synthetic, severity, location)) WITHOUT ROWID;" },
	/* What happened to the database itself: moved aside, failing, recovered (rasd/storage.c). */
	{ 7, "storage events",
	  "CREATE TABLE IF NOT EXISTS storage_events (id INTEGER PRIMARY KEY,"
	  " boot INTEGER, at_ns INTEGER NOT NULL, what TEXT NOT NULL, detail TEXT);" },
	/* Threshold buckets and action decisions (db_actions.c, rasd/actions.c). */
	{ 8, "threshold buckets and actions",
	  "CREATE TABLE IF NOT EXISTS buckets ("
	  " kind TEXT NOT NULL, subject TEXT NOT NULL, level INTEGER NOT NULL,"
	  " last_ns INTEGER NOT NULL, total INTEGER NOT NULL, label TEXT,"
	  " PRIMARY KEY (kind, subject)) WITHOUT ROWID;"
	  "CREATE TABLE IF NOT EXISTS actions ("
	  " id INTEGER PRIMARY KEY, boot INTEGER, wall_ns INTEGER NOT NULL, kind TEXT NOT NULL,"
	  " subject TEXT NOT NULL, count INTEGER, threshold TEXT, action TEXT NOT NULL,"
	  " target TEXT, result TEXT NOT NULL, errno INTEGER, synthetic INTEGER NOT NULL DEFAULT 0,"
	  " event_table TEXT, event_id INTEGER);"
	  "CREATE INDEX IF NOT EXISTS actions_time ON actions (wall_ns);" },
	/*
	 * Each CPU's kernel "read events" figure matching what is committed, so
	 * the next rasd can count what a killed one read and lost (origin crash).
	 */
	{ 9, "read marks for crash accounting",
	  "CREATE TABLE IF NOT EXISTS read_marks ("
	  " boot INTEGER, instance TEXT, cpu INTEGER, read_events INTEGER NOT NULL,"
	  " PRIMARY KEY (boot, instance, cpu));" },
	/*
	 * Roll-ups for the EDAC counts (db_edac_rollup.c: mc_event per hour x
	 * boot x controller x layers x error type x source x synthetic, errors
	 * summed), for the metrics' subject series (db_metrics.c: totals per
	 * DIMM, CPU, PCIe device) and for each table's totals (status, metrics). Filled from the stored rows by the upgrade,
	 * then kept in the same transaction as each batch.
	 */
	{ 10, "EDAC, metrics-subject and total roll-ups",
	  "CREATE TABLE IF NOT EXISTS rollup_edac ("
	  " hour INTEGER NOT NULL, boot INTEGER NOT NULL, mc INTEGER NOT NULL,"
	  " top INTEGER NOT NULL, mid INTEGER NOT NULL, low INTEGER NOT NULL,"
	  " error_type INTEGER NOT NULL, source TEXT NOT NULL, synthetic INTEGER NOT NULL,"
	  " errors INTEGER NOT NULL, records INTEGER NOT NULL,"
	  " first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,"
	  " PRIMARY KEY (hour, boot, mc, top, mid, low, error_type, source, synthetic)) WITHOUT ROWID;"
	  "CREATE TABLE IF NOT EXISTS rollup_subjects ("
	  " tbl TEXT NOT NULL, key NOT NULL, key2 NOT NULL, severity TEXT NOT NULL,"
	  " weight INTEGER NOT NULL, PRIMARY KEY (tbl, key, key2, severity)) WITHOUT ROWID;"
	  "CREATE TABLE IF NOT EXISTS rollup_totals ("
	  " tbl TEXT NOT NULL, source TEXT NOT NULL, synthetic INTEGER NOT NULL,"
	  " severity TEXT NOT NULL, records INTEGER NOT NULL, last_ns INTEGER NOT NULL,"
	  " PRIMARY KEY (tbl, source, synthetic, severity)) WITHOUT ROWID;" },
	/*
	 * Storm folding (db_fold.c): the records a subject reports beyond its
	 * first and last fold_keep of a period, and raw rows removed by the size
	 * and age limits, kept as exact counts per hour and roll-up key. times:
	 * each record's second, zigzag-varint deltas (about a byte a record).
	 * fresh: folded in the transaction that stored them (no reader saw them raw).
	 */
	{ 11, "folded storm records",
	  "CREATE TABLE IF NOT EXISTS folds (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL,"
	  " subject TEXT NOT NULL, hour INTEGER NOT NULL, boot INTEGER NOT NULL,"
	  " source TEXT NOT NULL, synthetic INTEGER NOT NULL, severity TEXT NOT NULL,"
	  " location TEXT NOT NULL, dec INTEGER NOT NULL, dims TEXT NOT NULL, fresh INTEGER NOT NULL,"
	  " records INTEGER NOT NULL, errors INTEGER NOT NULL, first_ns INTEGER NOT NULL,"
	  " last_ns INTEGER NOT NULL, addr_lo INTEGER, addr_hi INTEGER, detail_name TEXT,"
	  " details BLOB, details_more INTEGER NOT NULL DEFAULT 0, times BLOB NOT NULL,"
	  " last_s INTEGER NOT NULL, ekey TEXT NOT NULL DEFAULT '',"
	  " UNIQUE (tbl, hour, subject, boot, source, synthetic, severity, location, dec, dims, fresh,"
	  " ekey));"
	  "CREATE INDEX IF NOT EXISTS folds_last ON folds (last_ns);" },
	/*
	 * Summary locations (lib/event_table.c struct ras_sumloc): a memory
	 * failure is summarised by page type and recovery result, a CXL media,
	 * DRAM or poison record by device and region, no longer per page or DPA.
	 * Their hourly roll-ups are counted again from the rows and folds by the
	 * migration (db_rollup.c ras_db_rollup_rekey_sumloc), so the step itself
	 * has no SQL; the records are untouched.
	 */
	{ 12, "summary locations: hourly roll-ups re-keyed (made by the migration)", NULL },
	/*
	 * Repeated decisions folded (db_actions.c): a decision identical to the
	 * subject's latest row (a storm crossing an "account" threshold again and
	 * again) adds to that row's repeats, last_ns and last_event_id instead of
	 * a new row; rows from before count once. rollup_actions keeps the
	 * decisions per action and result for status and metrics, kept by these
	 * triggers in the statement's own transaction, whoever writes the rows.
	 * actions_time gives way to actions_last: windows go by the last decision.
	 * The roll-up is recounted from the rows, so running the step again is exact.
	 */
	{ 13, "folded action decisions and their roll-up",
	  "UPDATE actions SET last_ns = wall_ns, last_event_id = event_id WHERE last_ns IS NULL;"
	  "DROP INDEX IF EXISTS actions_time;"
	  "CREATE INDEX IF NOT EXISTS actions_last ON actions (last_ns);"
	  "CREATE INDEX IF NOT EXISTS actions_subject ON actions (kind, subject);"
	  "CREATE TABLE IF NOT EXISTS rollup_actions (action TEXT NOT NULL, result TEXT NOT NULL,"
	  " decisions INTEGER NOT NULL, nrows INTEGER NOT NULL, PRIMARY KEY (action, result))"
	  " WITHOUT ROWID;"
	  "DELETE FROM rollup_actions;"
	  "INSERT INTO rollup_actions (action, result, decisions, nrows)"
	  " SELECT action, result, sum(repeats), count(*) FROM actions GROUP BY action, result;"
	  "CREATE TRIGGER IF NOT EXISTS actions_rollup_insert AFTER INSERT ON actions BEGIN"
	  " INSERT INTO rollup_actions (action, result, decisions, nrows)"
	  " VALUES (new.action, new.result, new.repeats, 1) ON CONFLICT (action, result) DO UPDATE"
	  " SET decisions = decisions + excluded.decisions, nrows = nrows + 1; END;"
	  "CREATE TRIGGER IF NOT EXISTS actions_last_fill AFTER INSERT ON actions"
	  " WHEN new.last_ns IS NULL BEGIN"
	  " UPDATE actions SET last_ns = new.wall_ns, last_event_id = new.event_id"
	  " WHERE id = new.id; END;"
	  "CREATE TRIGGER IF NOT EXISTS actions_rollup_update"
	  " AFTER UPDATE OF repeats, action, result ON actions BEGIN"
	  " UPDATE rollup_actions SET decisions = decisions - old.repeats, nrows = nrows - 1"
	  " WHERE action = old.action AND result = old.result;"
	  " INSERT INTO rollup_actions (action, result, decisions, nrows)"
	  " VALUES (new.action, new.result, new.repeats, 1) ON CONFLICT (action, result) DO UPDATE"
	  " SET decisions = decisions + excluded.decisions, nrows = nrows + 1; END;"
	  "CREATE TRIGGER IF NOT EXISTS actions_rollup_delete AFTER DELETE ON actions BEGIN"
	  " UPDATE rollup_actions SET decisions = decisions - old.repeats, nrows = nrows - 1"
	  " WHERE action = old.action AND result = old.result;"
	  " DELETE FROM rollup_actions WHERE nrows <= 0; END;" },
	/*
	 * Decoded values that differ per record (struct ras_dfield per_record: a
	 * machine check's corrected count and syndromes) move to the event rows,
	 * so that a storm's records share one <table>_dec row. The sync adds the
	 * columns; db_schema.c copies the stored rows' values from their
	 * decodings. The <table>_dec columns stay, unused.
	 */
	{ 14, "per-record decoded values in the event rows (copied by the event-table sync)", NULL },
	/*
	 * folds.times is stored with room to grow, its tail padded (db_fold_times.c).
	 * Nothing to change in the rows; the version keeps an earlier writer, which
	 * would append after the padding where no reader looks, off the database.
	 */
	{ 15, "folded records' seconds stored with room to grow", NULL },
	/*
	 * What killed a boot (issue 35, db_crashes.c): one row per kernel log the
	 * kernel left in pstore at a panic or an oops (or per fatal machine check
	 * the firmware kept without one), with the boot it ended, its cause and
	 * the whole record zlib-compressed; ident keeps a record read again (a
	 * second start, systemd-pstore's copy) from being stored twice. Its links
	 * name the records that explain it: the firmware's machine check, the
	 * boot's last records, its flight-recorder snapshots.
	 */
	{ 16, "crashes and the records that explain them",
	  "CREATE TABLE IF NOT EXISTS crashes ("
	  " id INTEGER PRIMARY KEY, boot INTEGER, found_boot INTEGER, found_ns INTEGER NOT NULL,"
	  " crash_ns INTEGER, uptime_ns INTEGER, backend TEXT NOT NULL, kind TEXT NOT NULL,"
	  " dump_reason TEXT, dump_count INTEGER, parts INTEGER, parts_missing INTEGER,"
	  " cause TEXT NOT NULL, reason TEXT, detail TEXT, hw_lines TEXT, hw_dropped INTEGER,"
	  " explained INTEGER NOT NULL DEFAULT 0, problems INTEGER NOT NULL DEFAULT 0, files TEXT,"
	  " ident INTEGER NOT NULL UNIQUE, raw BLOB, raw_size INTEGER);"
	  "CREATE INDEX IF NOT EXISTS crashes_boot ON crashes (boot);"
	  "CREATE TABLE IF NOT EXISTS crash_links ("
	  " crash INTEGER NOT NULL, tbl TEXT NOT NULL, row_id INTEGER NOT NULL, role TEXT NOT NULL,"
	  " PRIMARY KEY (crash, tbl, row_id));" },
	/*
	 * Machine-check cache levels as Linux and lscpu number the caches (Intel's
	 * LL + 1): stored decodings, and the roll-ups and folds of their old
	 * locations, rewritten by db_migrate_levels.c after the event-table sync.
	 * An mc_event of error_count 0 counts one error: the EDAC roll-up adds
	 * one per such record (db_edac_rollup.c ras_db_edac_rollup_count_zero).
	 */
	{ 17, "machine-check cache levels as Linux numbers caches; error_count 0 is one error (made by the migration)", NULL },
	/*
	 * What export needs to deliver every record once (db_export.c):
	 * meta holds the database's identity, a random id made with it (a
	 * cursor belongs to one database), and each event table's id floor (the
	 * highest id a purge or the size and age limits took away: ids are
	 * never handed out twice). fold_growth logs each write to a folds row:
	 * how many records it added, where their seconds are in its times blob
	 * (bytes times_from to times_to, the deltas counted from prev_s), and,
	 * for records that were committed rows before (folds.fresh = 0), their
	 * row ids and errors (zigzag varints: the id's difference to the one
	 * before, the errors less one; in the order of the seconds), so an
	 * export tells the ones it delivered as rows from the others. Rows folded
	 * before this step are logged whole (times_to -1: to the end).
	 * action_growth logs the repeats a folded decision gains after its row
	 * was written (db_actions.c adds to a row instead of writing a new one),
	 * kept by a trigger whoever writes them.
	 */
	{ 18, "database identity, id floors, the growth of folds and of decisions",
	  "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID;"
	  "INSERT OR IGNORE INTO meta (key, value) VALUES ('database_id', lower(hex(randomblob(16))));"
	  "CREATE TABLE IF NOT EXISTS fold_growth (seq INTEGER PRIMARY KEY, fold INTEGER NOT NULL,"
	  " records INTEGER NOT NULL, errors INTEGER NOT NULL, first_ns INTEGER NOT NULL,"
	  " last_ns INTEGER NOT NULL, times_from INTEGER NOT NULL, times_to INTEGER NOT NULL,"
	  " prev_s INTEGER NOT NULL, ids BLOB);"
	  "INSERT INTO fold_growth (fold, records, errors, first_ns, last_ns, times_from, times_to,"
	  " prev_s, ids) SELECT id, records, errors, first_ns, last_ns, 0, -1, 0, NULL FROM folds"
	  " WHERE NOT EXISTS (SELECT 1 FROM fold_growth) ORDER BY id;"
	  "CREATE TABLE IF NOT EXISTS action_growth (seq INTEGER PRIMARY KEY,"
	  " action INTEGER NOT NULL, repeats INTEGER NOT NULL, last_ns INTEGER, last_event_id INTEGER);"
	  "CREATE TRIGGER IF NOT EXISTS actions_growth AFTER UPDATE OF repeats ON actions"
	  " WHEN new.repeats > old.repeats BEGIN"
	  " INSERT INTO action_growth (action, repeats, last_ns, last_event_id)"
	  " VALUES (new.id, new.repeats - old.repeats, new.last_ns, new.last_event_id); END;" },
	/*
	 * The metrics' subject series (db_metrics.c, lib/metrics.c) count
	 * synthetic records too, under their source, and keep each subject's
	 * place in the order subjects appeared (metrics_subjects, filled by a
	 * trigger at a subject's first roll-up row, never emptied): the first
	 * ones named have corrected-error series of their own, for good. The
	 * roll-up is recounted from the rows and folded records by the
	 * migration (ras_db_metrics_rollup_rebuild_all).
	 */
	{ 19, "metrics subjects by source, in the order they appeared",
	  "DROP TABLE IF EXISTS rollup_subjects;"
	  "CREATE TABLE rollup_subjects (tbl TEXT NOT NULL, key NOT NULL, key2 NOT NULL,"
	  " severity TEXT NOT NULL, source TEXT NOT NULL, synthetic INTEGER NOT NULL,"
	  " weight INTEGER NOT NULL, PRIMARY KEY (tbl, key, key2, severity, source, synthetic))"
	  " WITHOUT ROWID;"
	  "CREATE TABLE IF NOT EXISTS metrics_subjects (id INTEGER PRIMARY KEY, tbl TEXT NOT NULL,"
	  " key NOT NULL, key2 NOT NULL, UNIQUE (tbl, key, key2));"
	  "CREATE TRIGGER IF NOT EXISTS rollup_subjects_rank AFTER INSERT ON rollup_subjects BEGIN"
	  " INSERT OR IGNORE INTO metrics_subjects (tbl, key, key2)"
	  " VALUES (new.tbl, new.key, new.key2); END;" },
	/*
	 * The diagnosis (db_parts.c, issue 34): a row per part with its counts,
	 * worst fault mode, verdict and rasd's classifier state; its faults; the
	 * history of its verdicts; the event rows its stored state has counted.
	 */
	{ 20, "parts, their faults, verdicts and verdict history",
	  "CREATE TABLE IF NOT EXISTS parts ("
	  " id INTEGER PRIMARY KEY, kind TEXT NOT NULL, part TEXT NOT NULL,"
	  " synthetic INTEGER NOT NULL, label TEXT, first_ns INTEGER, last_ns INTEGER,"
	  " records INTEGER NOT NULL, corrected INTEGER NOT NULL, uncorrected INTEGER NOT NULL,"
	  " fatal INTEGER NOT NULL, coord_records INTEGER NOT NULL, cells INTEGER, beyond INTEGER,"
	  " dram_rows INTEGER, banks INTEGER, ranks INTEGER, mode TEXT, permanent INTEGER,"
	  " link TEXT, verdict TEXT NOT NULL, rule TEXT, since_ns INTEGER, why TEXT, state BLOB,"
	  " UNIQUE (kind, part, synthetic));"
	  "CREATE TABLE IF NOT EXISTS part_faults ("
	  " part INTEGER NOT NULL, idx INTEGER NOT NULL, mode TEXT NOT NULL,"
	  " permanent INTEGER NOT NULL, dram_rank INTEGER, bank_group INTEGER, bank INTEGER,"
	  " dram_row INTEGER, dram_column INTEGER, cells INTEGER NOT NULL, ranks INTEGER NOT NULL,"
	  " banks INTEGER NOT NULL, dram_rows INTEGER NOT NULL, dram_columns INTEGER NOT NULL,"
	  " errors INTEGER NOT NULL, first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,"
	  " description TEXT, PRIMARY KEY (part, idx)) WITHOUT ROWID;"
	  "CREATE TABLE IF NOT EXISTS verdicts ("
	  " id INTEGER PRIMARY KEY, part INTEGER NOT NULL, at_ns INTEGER NOT NULL,"
	  " decided_ns INTEGER NOT NULL, boot INTEGER, was TEXT NOT NULL, verdict TEXT NOT NULL,"
	  " rule TEXT, mode TEXT, why TEXT);"
	  "CREATE INDEX IF NOT EXISTS verdicts_part ON verdicts (part, id);"
	  "CREATE TABLE IF NOT EXISTS health_marks ("
	  " tbl TEXT PRIMARY KEY, last_id INTEGER NOT NULL) WITHOUT ROWID;" },
	/*
	 * The pages seen in each DRAM row (db_row_pages.c, issue 36): a crossed
	 * row acts on every page recorded in it. At most row_pages_max pages a
	 * row; the pages past it counted in row_state.over.
	 */
	{ 21, "the pages of each DRAM row, for a crossed row to act on all of them",
	  "CREATE TABLE IF NOT EXISTS row_pages ("
	  " row TEXT NOT NULL, page INTEGER NOT NULL, seen_ns INTEGER NOT NULL,"
	  " event_table TEXT, event_id INTEGER, acted TEXT,"
	  " PRIMARY KEY (row, page)) WITHOUT ROWID;"
	  "CREATE TABLE IF NOT EXISTS row_state ("
	  " row TEXT PRIMARY KEY, crossed_ns INTEGER, over INTEGER NOT NULL DEFAULT 0,"
	  " over_told INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;" },
	/*
	 * Each event table's rows by their decoding (<table>_by_dec), for
	 * report --part to read one part's rows only (db_locations.c). An
	 * event table is made after the steps run (db_schema.c), so the index
	 * is made there with the table's others; this step marks it.
	 */
	{ 22, "each event table's rows by their decoding, for one part's records", NULL },
	/*
	 * The boot a row's page was acted on in (row_pages.acted_boot, added
	 * below): page offlining is not kept across a reboot, so a "done" of
	 * an earlier boot is as no action (db_row_pages.c); and the pages done,
	 * by page, for a page's own decision to find a row's offline. A page
	 * done before takes the boot of the write on record for it: the row's
	 * action naming it, else its own decision (a page marked done as its
	 * own threshold's). Neither: NULL, an earlier boot.
	 */
	{ 23, "the boot of each row page's action",
	  "UPDATE row_pages SET acted_boot = coalesce("
	  " (SELECT a.boot FROM actions a WHERE a.kind = 'row' AND a.subject = row_pages.row"
	  "  AND a.result = 'done' AND substr(a.target, 1, length(printf('0x%x ', row_pages.page)))"
	  "  = printf('0x%x ', row_pages.page) ORDER BY a.id DESC LIMIT 1),"
	  " (SELECT a.boot FROM actions a WHERE a.kind = 'page'"
	  "  AND a.subject = printf('0x%x', row_pages.page) AND a.result = 'done'"
	  "  AND a.action <> 'account' ORDER BY a.id DESC LIMIT 1))"
	  " WHERE acted = 'done' AND acted_boot IS NULL;"
	  "CREATE INDEX IF NOT EXISTS row_pages_done ON row_pages (page, acted_boot)"
	  " WHERE acted = 'done';" },
	/*
	 * The identity of the instance whose drop counters cpu_stats holds (its
	 * tracefs directory's inode; 0 unknown): an instance made again starts
	 * its counters at 0, and must not have the old one's subtracted
	 * (rasd/pipeline.c). The column is added by ras_db_upgrade_columns.
	 */
	{ 24, "the identity of the instance behind each CPU's stored drop counters", NULL },
	/*
	 * folds ids never handed out again (AUTOINCREMENT): a writer remembers
	 * the id of each folds row it wrote (db_fold_write.c) and updates it by
	 * id alone, and a purge (db_edac.c), a rollback or another writer may
	 * have removed that row; without AUTOINCREMENT the next new row could
	 * take its id. SQLite cannot add AUTOINCREMENT to a table, so folds is
	 * made again beside itself, its rows copied with their ids (fold_growth
	 * and export name them), and renamed; the UNIQUE key and folds_last as
	 * step 11 made them. The ids used start at the highest id stored, or
	 * the highest one used before, when the step runs again on a table
	 * that has them (user_version set back).
	 * fold_growth's seq likewise: export's cursor is the last seq it
	 * delivered, and reset --purge deletes the purged folds' growth; the
	 * next growth took the purged seqs again and export, finding the
	 * database behind its cursor, skipped their records. A database purged
	 * before this step continues from the highest seq it still holds.
	 */
	{ 25, "folds ids and fold_growth seqs never handed out again",
	  "CREATE TABLE folds_new (id INTEGER PRIMARY KEY AUTOINCREMENT, tbl TEXT NOT NULL,"
	  " subject TEXT NOT NULL, hour INTEGER NOT NULL, boot INTEGER NOT NULL,"
	  " source TEXT NOT NULL, synthetic INTEGER NOT NULL, severity TEXT NOT NULL,"
	  " location TEXT NOT NULL, dec INTEGER NOT NULL, dims TEXT NOT NULL, fresh INTEGER NOT NULL,"
	  " records INTEGER NOT NULL, errors INTEGER NOT NULL, first_ns INTEGER NOT NULL,"
	  " last_ns INTEGER NOT NULL, addr_lo INTEGER, addr_hi INTEGER, detail_name TEXT,"
	  " details BLOB, details_more INTEGER NOT NULL DEFAULT 0, times BLOB NOT NULL,"
	  " last_s INTEGER NOT NULL, ekey TEXT NOT NULL DEFAULT '',"
	  " UNIQUE (tbl, hour, subject, boot, source, synthetic, severity, location, dec, dims, fresh,"
	  " ekey));"
	  "INSERT INTO folds_new (id, tbl, subject, hour, boot, source, synthetic, severity,"
	  " location, dec, dims, fresh, records, errors, first_ns, last_ns, addr_lo, addr_hi,"
	  " detail_name, details, details_more, times, last_s, ekey)"
	  " SELECT id, tbl, subject, hour, boot, source, synthetic, severity, location, dec, dims,"
	  " fresh, records, errors, first_ns, last_ns, addr_lo, addr_hi, detail_name, details,"
	  " details_more, times, last_s, ekey FROM folds ORDER BY id;"
	  "DELETE FROM sqlite_sequence WHERE name = 'folds_new';"
	  "INSERT INTO sqlite_sequence (name, seq) SELECT 'folds_new', max(seq) FROM"
	  " (SELECT seq FROM sqlite_sequence WHERE name = 'folds' UNION ALL SELECT max(id) FROM folds)"
	  " HAVING max(seq) IS NOT NULL;"
	  "DROP TABLE folds;"
	  "ALTER TABLE folds_new RENAME TO folds;"
	  "CREATE INDEX IF NOT EXISTS folds_last ON folds (last_ns);"
	  "CREATE TABLE fold_growth_new (seq INTEGER PRIMARY KEY AUTOINCREMENT,"
	  " fold INTEGER NOT NULL, records INTEGER NOT NULL, errors INTEGER NOT NULL,"
	  " first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL, times_from INTEGER NOT NULL,"
	  " times_to INTEGER NOT NULL, prev_s INTEGER NOT NULL, ids BLOB);"
	  "INSERT INTO fold_growth_new (seq, fold, records, errors, first_ns, last_ns, times_from,"
	  " times_to, prev_s, ids) SELECT seq, fold, records, errors, first_ns, last_ns, times_from,"
	  " times_to, prev_s, ids FROM fold_growth ORDER BY seq;"
	  "DELETE FROM sqlite_sequence WHERE name = 'fold_growth_new';"
	  "INSERT INTO sqlite_sequence (name, seq) SELECT 'fold_growth_new', max(seq) FROM"
	  " (SELECT seq FROM sqlite_sequence WHERE name = 'fold_growth'"
	  " UNION ALL SELECT max(seq) FROM fold_growth) HAVING max(seq) IS NOT NULL;"
	  "DROP TABLE fold_growth;"
	  "ALTER TABLE fold_growth_new RENAME TO fold_growth;" },
	/*
	 * The hourly roll-up (db_rollup.c) as a rowid table with a UNIQUE key
	 * instead of WITHOUT ROWID: a storm's commit upserts mostly stored keys,
	 * and such an upsert rewrites a short row found through the key's index
	 * instead of the key's whole row in the key's B-tree (callgrind, make
	 * bench's 1,000,000-record stream: 16.9k instructions a key instead of
	 * 23.8k, the writer thread 3.5 % less). The same columns and key; the
	 * rows copied in key order inside the migration's transaction. The
	 * EDAC, subject and total roll-ups stay: a few thousand upserts a
	 * stream, 7 M instructions of 17 G to gain.
	 */
	{ 26, "the hourly roll-up as a rowid table with a UNIQUE key",
	  "DROP TABLE IF EXISTS rollup_hourly_new;"
	  "CREATE TABLE rollup_hourly_new ("
	  " tbl TEXT NOT NULL, hour INTEGER NOT NULL, boot INTEGER NOT NULL, source TEXT NOT NULL,"
	  " synthetic INTEGER NOT NULL, severity TEXT NOT NULL, location TEXT NOT NULL,"
	  " records INTEGER NOT NULL, first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,"
	  " UNIQUE (tbl, hour, boot, source, synthetic, severity, location));"
	  "INSERT INTO rollup_hourly_new SELECT * FROM rollup_hourly"
	  " ORDER BY tbl, hour, boot, source, synthetic, severity, location;"
	  "DROP TABLE rollup_hourly;"
	  "ALTER TABLE rollup_hourly_new RENAME TO rollup_hourly;" },
};

#define RAS_DB_N_UPGRADES (sizeof(ras_db_upgrades) / sizeof(ras_db_upgrades[0]))

/*
 * Columns a step adds to a table, before its SQL runs, each only where
 * missing (ALTER TABLE has no IF NOT EXISTS): a step run again on a database
 * that has them (user_version set back) stays harmless, like the others.
 */
struct ras_db_upgrade_columns {
	int version;
	const char *table;
	const struct ras_db_col *cols;   /* ends with a NULL name */
};

/* Step 13: folded decisions (db_actions.c). */
static const struct ras_db_col ras_db_actions_fold_cols[] = {
	{ "repeats", "INTEGER NOT NULL DEFAULT 1" }, { "last_ns", "INTEGER" },
	{ "last_event_id", "INTEGER" }, { NULL, NULL },
};

/* Step 23: the boot of a row page's action (db_row_pages.c). */
static const struct ras_db_col ras_db_row_pages_boot_cols[] = {
	{ "acted_boot", "INTEGER" }, { NULL, NULL },
};

/* Step 24: the instance behind the stored drop counters. */
static const struct ras_db_col ras_db_cpu_stats_ident_cols[] = {
	{ "ident", "INTEGER NOT NULL DEFAULT 0" }, { NULL, NULL },
};

static const struct ras_db_upgrade_columns ras_db_upgrade_columns[] = {
	{ 13, "actions", ras_db_actions_fold_cols },
	{ 23, "row_pages", ras_db_row_pages_boot_cols },
	{ 24, "cpu_stats", ras_db_cpu_stats_ident_cols },
};

#define RAS_DB_N_UPGRADE_COLUMNS (sizeof(ras_db_upgrade_columns) / sizeof(ras_db_upgrade_columns[0]))

#endif
