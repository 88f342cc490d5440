#!/bin/bash
# SPDX-License-Identifier: MIT
# Storage faults injected at chosen points with an LD_PRELOAD shim
# (tests/fault-shim.c), on the live kernel (root and tracefs, else exit 77):
# ENOSPC and EIO on the WAL write and EIO on the WAL sync at commit, and EIO on
# the database file during the checkpoint at stop. (The insert point is covered
# by test-storage.sh: a held lock makes the first INSERT of a batch fail.)
# After each fault clears: emitted = stored, no duplicates, no gap.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

live_setup fault
fault_shim_setup
# systemd's notify socket stood in for, to see STATUS=.
notify_listen "$WORK/notify.log"
starts=0
start() { NOTIFY_SOCKET=$NS RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM "$RASD" --config "$WORK/rasd.conf" 2>>"$WORK/rasd.log" & PID=$!
	starts=$((starts + 1))
	wait_for 30 sh -c "[ \$(grep -c 'RAS tracepoints in instance' '$WORK/rasd.log') = $starts ]"; }
emit() { "$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" "$1" 0 "$2" >/dev/null; }
count() { q "SELECT count(*) || ' ' || count(DISTINCT msg) FROM mc_event WHERE msg LIKE '$1-%'"; }
failures() { grep -c "storage failing since" "$WORK/rasd.log"; }
recoveries() { grep -c "storage works again" "$WORK/rasd.log"; }

start; ok $? "rasd starts under the fault shim"
i=0
for fault in "pwrite -wal 28" "pwrite -wal 5" "fsync -wal 5"; do
	i=$((i + 1)); tag=f$i
	echo "$fault" > "$CTLF"
	emit $tag 400; ok $? "400 records written with '$fault' on"
	wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = $i ]"; ok $? "'$fault': failure reported: $(grep 'storage failing' "$WORK/rasd.log" | tail -1 | cut -c1-120)"
	ok "$([ -d $T/instances/$INST ] && kill -0 $PID && echo 0 || echo 1)" "'$fault': rasd and its instance stay"
	: > "$CTLF"
	wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = $i ]"; ok $? "'$fault': recovered once the fault clears"
	ok "$([ "$(count $tag)" = "400 400" ] && echo 0 || echo 1)" "'$fault': 400 emitted = 400 stored, no duplicates ($(count $tag))"
done
if [ -n "${LISTENER:-}" ]; then
	# rasd logs before it notifies, and the listener writes what it received when it is
	# next scheduled: wait for the file to catch up rather than read it once.
	wait_for 30 sh -c "[ \$(grep -c '^STATUS=storage failing since' '$WORK/notify.log') = 3 ]"
	ok $? "sd_notify STATUS= once per failure: $(grep -m1 '^STATUS=storage' "$WORK/notify.log" | cut -c1-100)"
	wait_for 30 sh -c "[ \$(grep -c '^STATUS=recording' '$WORK/notify.log') = 3 ]"
	ok $? "and STATUS=recording once per recovery ($(grep -c '^STATUS=recording' "$WORK/notify.log"))"
fi

# The checkpoint at stop cannot write the database file: the WAL keeps the records.
emit ckpt 300; wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE 'ckpt-%'\")\" = 300 ]"
ok $? "300 more records stored"
echo "pwrite ras.db 5" > "$CTLF"
kill -TERM $PID; wait $PID; rc=$?; PID=
ok $rc "rasd stops cleanly although the checkpoint fails"
ok "$([ -s "$DB-wal" ] && echo 0 || echo 1)" "the WAL was kept ($(stat -c %s "$DB-wal" 2>/dev/null) bytes)"
: > "$CTLF"
ok "$([ "$(count ckpt)" = "300 300" ] && [ "$(count f1)" = "400 400" ] && echo 0 || echo 1)" "after the failed checkpoint every record is there once"
start; ok $? "rasd starts again on that database"
emit after 10; wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE 'after-%'\")\" = 10 ]"
ok $? "and records"
ok "$([ "$(q "PRAGMA integrity_check")" = ok ] && echo 0 || echo 1)" "integrity_check: ok"
kill -TERM $PID; wait $PID; PID=
ok "$([ "$(q "SELECT count(*) FROM mc_event")" = "$(q "SELECT count(DISTINCT msg) FROM mc_event")" ] && echo 0 || echo 1)" "no duplicate anywhere ($(q "SELECT count(*) FROM mc_event") rows)"
done_testing
