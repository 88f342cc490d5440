#!/bin/bash
# SPDX-License-Identifier: MIT
# The database file removed or replaced while rasd records (a clean-up script,
# an operator's rm or mv), on the live kernel (root and tracefs, else exit 77).
# Without a check rasd goes on committing into the unlinked file: every record
# "stored" where nobody can read it. Asserted: each record written after the
# change is stored once at the database's path, and the change is recorded.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

live_setup moved
"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" & PID=$!
wait_for 30 grep -q 'RAS tracepoints in instance' "$WORK/rasd.log"; ok $? "rasd starts"
emit() { "$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" "$1" 0 "$2" >/dev/null; }
# TAG [FILE] -> "rows distinct" of that tag in FILE (default: the database's path)
count() { sqlite3 "file:${2:-$DB}?mode=ro" "SELECT count(*) || ' ' || count(DISTINCT msg) FROM mc_event WHERE msg LIKE '$1-%'" 2>/dev/null; }
wait_count() { wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE '$1-%'\" 2>/dev/null)\" = $2 ]"; }

emit a 100; wait_count a 100; ok $? "100 records stored"

# rm: the file and its WAL go; the next records make a fresh database at the path.
rm -f "$DB" "$DB-wal" "$DB-shm"
emit b 100; wait_count b 100
ok "$([ "$(count b)" = "100 100" ] && echo 0 || echo 1)" "database removed: the next 100 records are stored at its path ($(count b))"
ok "$(grep -q 'was removed or replaced while in use; recording into .* again, a fresh database' "$WORK/rasd.log" && echo 0 || echo 1)" \
	"and rasd says so: $(grep -m1 'removed or replaced' "$WORK/rasd.log" | tail -c 150)"
ok "$([ "$(q "SELECT count(*) FROM storage_events WHERE what = 'moved-reopened'")" = 1 ] && echo 0 || echo 1)" \
	"the new database records what happened"

# mv aside (an archive; the WAL left behind is folded into it when rasd lets go):
# the old file keeps its records, new ones go to the path.
mv "$DB" "$WORK/archive.db"
emit c 50; wait_count c 50
ok "$([ "$(count c)" = "50 50" ] && [ "$(count b "$WORK/archive.db")" = "100 100" ] && echo 0 || echo 1)" \
	"moved aside: the 50 new records are at the path ($(count c)), the archive keeps its 100 ($(count b "$WORK/archive.db"))"

# Replaced by another copy (a restored backup): rasd records into the file now there.
cp "$WORK/archive.db" "$WORK/restore.db"; mv "$WORK/restore.db" "$DB"
emit d 20; wait_count d 20
ok "$([ "$(count d)" = "20 20" ] && [ "$(count b)" = "100 100" ] && echo 0 || echo 1)" \
	"replaced by a copy: the 20 new records join it ($(count d)), its own are kept ($(count b))"
ok "$(grep -q 'recording into .* again, the file now there' "$WORK/rasd.log" && echo 0 || echo 1)" "and rasd says it records into the file now there"
ok "$(kill -0 $PID && echo 0 || echo 1)" "rasd kept running throughout"
kill -TERM $PID; wait $PID; ok $? "rasd stops cleanly"; PID=
ok "$([ "$(q "PRAGMA integrity_check")" = ok ] && echo 0 || echo 1)" "integrity_check: ok"
done_testing
