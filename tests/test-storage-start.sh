#!/bin/bash
# SPDX-License-Identifier: MIT
# A database that cannot be written when rasd starts (a full disk at boot),
# on the live kernel (root and tracefs, else exit 77), with the fault shim
# (tests/fault-shim.c) failing every WAL write with ENOSPC:
# - rasd's instance records at once, so what arrives waits in the kernel buffer;
# - systemd hears READY=1 and the failure in STATUS=, rather than waiting for
#   the database (its start timeout would kill rasd and hold up the boot);
# - when the fault clears, records stored + kernel drops counted = emitted,
#   exactly, over two runs in one boot (a new instance's drop counters start
#   at zero, whatever the last instance of that name left in the database);
# - stopped while the open still fails, rasd keeps its instance and the next
#   rasd stores what it holds;
# - a schema upgrade that cannot be written is rolled back whole and retried.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

command -v taskset >/dev/null || { echo "1..0 # SKIP no taskset"; exit 77; }
# A small buffer, so a burst overflows it while nothing reads it.
live_setup start "buffer_size_kb = 8"
fault_shim_setup
notify_listen "$WORK/notify.log"
launch() { NOTIFY_SOCKET=$NS RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM "$RASD" --config "$WORK/rasd.conf" 2>>"$WORK/rasd.log" & PID=$!; }
# "recording N RAS tracepoints" is said once rasd is ready, the database open.
ready_lines() { grep -c 'RAS tracepoints in instance' "$WORK/rasd.log"; }
# One CPU, so each run's drops land on the same per-CPU counter.
emit() { taskset -c 0 "$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" "$1" 0 "$2"; }
stored() { q "SELECT count(*) || ' ' || count(DISTINCT msg) FROM mc_event WHERE msg LIKE '$1-%'"; }
lost() { q "SELECT coalesce(sum(count), 0) FROM lost_events WHERE origin = 'stats'"; }
failures() { grep -c "storage failing since" "$WORK/rasd.log"; }
recoveries() { grep -c "storage works again" "$WORK/rasd.log"; }
readies() { local c; c=$(grep -c '^READY=1' "$WORK/notify.log" 2>/dev/null); echo "${c:-0}"; }
stop() { kill -TERM $PID; wait $PID; local rc=$?; PID=; return $rc; }

refused=0
for run in 1 2; do
	burst=$((run * 600))
	echo "pwrite -wal 28" > "$CTLF"
	r0=$(readies)
	launch
	wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = $run ]"
	ok $? "run $run: the failure is reported: $(grep 'storage failing since' "$WORK/rasd.log" | tail -1 | cut -c1-110)"
	ok "$([ "$(cat "$T/instances/$INST/events/ras/mc_event/enable" 2>/dev/null)" = 1 ] && echo 0 || echo 1)" \
		"run $run: the instance records (ras:mc_event on) although the database cannot be written"
	if [ -n "${LISTENER:-}" ]; then
		wait_for 30 sh -c "[ \$(grep -c '^READY=1' '$WORK/notify.log') -gt $r0 ]"
		ok $? "run $run: READY=1 while the database fails ($(grep -m1 '^STATUS=storage failing' "$WORK/notify.log" | cut -c1-90))"
	fi
	accepted=$(emit r$run $burst)
	refused=$((refused + burst - accepted))
	ok "$([ "$accepted" -gt 0 ] && [ "$accepted" -lt $burst ] && echo 0 || echo 1)" \
		"run $run: $burst records written while the database fails: $accepted kept by the kernel, the rest refused"
	ok "$([ -d "$T/instances/$INST" ] && kill -0 $PID && echo 0 || echo 1)" "run $run: rasd and its instance stay"
	: > "$CTLF"
	wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = $run ]"
	ok $? "run $run: recovered once the fault clears"
	wait_for 30 sh -c "[ \$(grep -c 'RAS tracepoints in instance' '$WORK/rasd.log') = $run ]"
	ok $? "run $run: and only then says it is recording ($(ready_lines) such lines)"
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE 'r$run-%'\")\" = $accepted ]"
	ok "$([ "$(stored r$run)" = "$accepted $accepted" ] && echo 0 || echo 1)" \
		"run $run: every record the kernel kept is stored once ($(stored r$run))"
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT coalesce(sum(count), 0) FROM lost_events WHERE origin = 'stats'\")\" = $refused ]"
	ok $? "run $run: the kernel's drops are counted exactly: $(lost) counted, $refused refused so far"
	ok "$([ "$(q "SELECT count(*) FROM storage_events WHERE what = 'recovered'")" = $run ] && echo 0 || echo 1)" \
		"run $run: the recovery is recorded"
	stop; ok $? "run $run: rasd stops cleanly"
done

# Stopped while the database still cannot be written: the instance keeps the records.
echo "pwrite -wal 28" > "$CTLF"
launch; wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = 3 ]"
ok $? "a third start meets the fault"
accepted=$(emit kept 100)
stop
ok "$([ -d "$T/instances/$INST" ] && echo 0 || echo 1)" "stopped while failing, rasd keeps its instance"
: > "$CTLF"
launch; wait_for 30 sh -c "[ \$(grep -c 'RAS tracepoints in instance' '$WORK/rasd.log') = 3 ]"
ok $? "the next rasd takes the instance back"
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE 'kept-%'\")\" = $accepted ]"
ok "$([ "$(stored kept)" = "$accepted $accepted" ] && echo 0 || echo 1)" "and stores the $accepted records it held ($(stored kept))"
stop

# An upgrade that cannot be written: the database of an older rasd (schema 9,
# before the roll-ups, so the upgrade rebuilds them) on a disk that is full.
# It is rolled back whole and retried; once space comes back it completes.
rows=$(q "SELECT count(*) FROM mc_event")
version=$(q "PRAGMA user_version")
sqlite3 "$DB" "DELETE FROM rollup_hourly; PRAGMA user_version = 9" && ok 0 "made the database schema 9 ($rows records)"
echo "pwrite -wal 28" > "$CTLF"
launch; wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = 4 ]"
ok $? "the upgrade on a full disk is reported as a storage failure"
ok "$([ "$(q "PRAGMA user_version")" = 9 ] && echo 0 || echo 1)" "and leaves the database as it was (schema $(q "PRAGMA user_version"))"
accepted=$(emit upgrade 50)
: > "$CTLF"
wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = 3 ]"
ok $? "the upgrade completes once the fault clears"
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE 'upgrade-%'\")\" = $accepted ]"
ok "$([ "$(q "PRAGMA user_version")" = "$version" ] && [ "$(stored upgrade)" = "$accepted $accepted" ] && echo 0 || echo 1)" \
	"schema $(q "PRAGMA user_version"), and the $accepted records of the wait are stored ($(stored upgrade))"
ok "$([ "$(q "SELECT sum(records) FROM rollup_hourly WHERE tbl = 'mc_event'")" = "$(q "SELECT count(*) FROM mc_event")" ] && echo 0 || echo 1)" \
	"the rebuilt roll-ups count every record: $(q "SELECT sum(records) FROM rollup_hourly WHERE tbl = 'mc_event'") of $(q "SELECT count(*) FROM mc_event")"
stop
ok "$([ "$(q "PRAGMA integrity_check")" = ok ] && echo 0 || echo 1)" "integrity_check: ok"
done_testing
