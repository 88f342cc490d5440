#!/bin/bash
# SPDX-License-Identifier: MIT
# Schema 26 (db/db_upgrades.h): a database of schema 24, its hourly roll-up a
# WITHOUT ROWID table keyed by its PRIMARY KEY, is migrated to a rowid table
# with a UNIQUE key, every roll-up row kept; summary and metrics answer the
# same before and after, the step run again (user_version set back) changes
# nothing, and records stored after it add to the rows it kept. The records: fault streams (tests/diag/fault-tree) replayed by
# rasd --once. Needs only the sqlite3 CLI (no root, no tracefs).
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
same() { cmp -s "$1" "$2" && echo 0 || echo 1; }
W=$(mktemp -d /tmp/ras-fdr-rollup-rowid-XXXXXX)
trees=""
trap '[ -n "${KEEP:-}" ] || rm -rf "$W" $trees' EXIT
DB=$W/ras.db
q() { sqlite3 "$DB" "$1"; }

for sp in skx extlog; do
	tree=$("$top_builddir/tests/diag/fault-tree" $sp 0 200) || { echo "Bail out! no fault tree"; exit 99; }
	trees="$trees $tree"
	"$top_builddir/rasd/rasd" --config /dev/null --tracing-dir "$tree" --db "$DB" --lock-dir "$W" \
		--once > "$W/rasd-$sp.log" 2>&1
	ok $? "rasd --once replays the $sp stream"
done

# The roll-ups' rows in key order, and what summary and metrics answer
# (metrics less its clock's and the last commit's times: the migration is a commit).
rows() {
	q "SELECT * FROM rollup_hourly ORDER BY tbl, hour, boot, source, synthetic, severity, location;
	   SELECT * FROM rollup_edac ORDER BY hour, boot, mc, top, mid, low, error_type, source, synthetic;
	   SELECT * FROM rollup_subjects ORDER BY tbl, key, key2, severity, source, synthetic;
	   SELECT * FROM rollup_totals ORDER BY tbl, source, synthetic, severity;
	   SELECT * FROM metrics_subjects ORDER BY id;" > "$W/$1.rows"
	"$CTL" --config /dev/null --db "$DB" summary --include-synthetic > "$W/$1.summary"
	"$CTL" --config /dev/null --db "$DB" summary --json > "$W/$1.summary.json"
	"$CTL" --config /dev/null --db "$DB" metrics --subjects 4 | grep -v '^ras_fdr_\(metrics\|last_commit\)_timestamp_seconds' \
		> "$W/$1.metrics"
}
without_rowid() { q "SELECT count(*) FROM sqlite_master WHERE name = 'rollup_hourly' AND sql LIKE '%WITHOUT ROWID'"; }

ok "$([ "$(q "PRAGMA user_version")" = 26 ] && [ "$(without_rowid)" = 0 ] && echo 0 || echo 1)" \
	"a new database: schema $(q "PRAGMA user_version"), its hourly roll-up a rowid table"
rows new

# Back to schema 24: the hourly roll-up as step 6 made it, its rows copied.
sqlite3 "$DB" "BEGIN;
ALTER TABLE rollup_hourly RENAME TO was_hourly;
CREATE TABLE rollup_hourly ( tbl TEXT NOT NULL, hour INTEGER NOT NULL, boot INTEGER NOT NULL,
 source TEXT NOT NULL, synthetic INTEGER NOT NULL, severity TEXT NOT NULL, location TEXT NOT NULL,
 records INTEGER NOT NULL, first_ns INTEGER NOT NULL, last_ns INTEGER NOT NULL,
 PRIMARY KEY (tbl, hour, boot, source, synthetic, severity, location)) WITHOUT ROWID;
INSERT INTO rollup_hourly SELECT * FROM was_hourly; DROP TABLE was_hourly;
PRAGMA user_version = 24; COMMIT;"
ok "$([ "$(q "PRAGMA user_version")" = 24 ] && [ "$(without_rowid)" = 1 ] && echo 0 || echo 1)" \
	"made schema 24 again: the hourly roll-up WITHOUT ROWID"
rows v24
ok "$(same "$W/new.rows" "$W/v24.rows")" "schema 24: the same roll-up rows ($(wc -l < "$W/v24.rows") lines)"
ok "$(same "$W/new.summary" "$W/v24.summary")" "schema 24 read: summary as before ($(wc -l < "$W/v24.summary") lines)"

"$top_builddir/tests/make-db" "$DB"
ok $? "migrated by a writer's open"
ok "$([ "$(q "PRAGMA user_version")" = 26 ] && [ "$(without_rowid)" = 0 ] && echo 0 || echo 1)" \
	"schema $(q "PRAGMA user_version"), the hourly roll-up a rowid table"
ok "$([ "$(q "SELECT group_concat(name) FROM sqlite_master WHERE tbl_name = 'rollup_hourly'")" = \
	rollup_hourly,sqlite_autoindex_rollup_hourly_1 ] && echo 0 || echo 1)" "with its UNIQUE key's index, and nothing else"
rows v26
for f in rows summary summary.json metrics; do
	ok "$(same "$W/v24.$f" "$W/v26.$f")" "migrated: $f the same as schema 24's ($(wc -l < "$W/v26.$f") lines)"
done
ok "$([ -s "$W/v26.metrics" ] && grep -q '^ras_fdr_' "$W/v26.metrics" && [ "$(wc -l < "$W/v26.rows")" -gt 20 ] &&
	echo 0 || echo 1)" "and they are not empty"

# The step run again (user_version set back to 25): the rows stay.
q "PRAGMA user_version = 25"
"$top_builddir/tests/make-db" "$DB"
rows again
ok "$([ "$(q "PRAGMA user_version")" = 26 ] && [ "$(same "$W/v26.rows" "$W/again.rows")" = 0 ] &&
	[ "$(same "$W/v26.summary" "$W/again.summary")" = 0 ] && echo 0 || echo 1)" \
	"step 26 run again: the same rows and summary"

# Records stored after the migration add to the migrated rows (the upserts find their keys).
before=$(q "SELECT sum(records) FROM rollup_hourly")
tree=$("$top_builddir/tests/diag/fault-tree" skx 200 400) || { echo "Bail out! no fault tree"; exit 99; }
trees="$trees $tree"
"$top_builddir/rasd/rasd" --config /dev/null --tracing-dir "$tree" --db "$DB" --lock-dir "$W" --once \
	> "$W/rasd-more.log" 2>&1
ok $? "rasd --once stores more records"
after=$(q "SELECT sum(records) FROM rollup_hourly")
ok "$([ "$after" -gt "$before" ] && [ "$(q "SELECT sum(records) FROM rollup_totals")" = "$after" ] &&
	[ "$(q "SELECT count(*) FROM (SELECT 1 FROM rollup_hourly GROUP BY tbl, hour, boot, source, synthetic,
	severity, location HAVING count(*) > 1)")" = 0 ] && echo 0 || echo 1)" \
	"the hourly roll-up grows from $before to $after records, one row a key, as the totals count"
ok "$([ "$(q "PRAGMA integrity_check")" = ok ] && echo 0 || echo 1)" "integrity_check: ok"
echo "1..$n"
[ $failed = 0 ]
