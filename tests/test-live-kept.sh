#!/bin/bash
# SPDX-License-Identifier: MIT
# Live test on the running kernel's tracefs (root only; exit 77 otherwise):
# an instance rasd left behind, removed before the next rasd of the same boot
# starts, went with what it held. rasd says at its stop whether it removed its
# instance or kept it (keep_instance, a failing database); the next rasd that
# finds a kept instance gone stores a gap of unknown size and logs it, as for
# a killed rasd's. A clean removal, an instance taken back, or a kept one of
# another boot are no gap. A kept instance of a rasd whose database never
# opened (no drop counters of this boot to judge by) is one gap for the whole
# instance.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
[ -r /proc/sys/kernel/random/boot_id ] || { echo "1..0 # SKIP no boot id"; exit 77; }

live_setup kept
STATE=$WORK/lock/rasd-$INST.state
gaps() { q "SELECT count(*) FROM lost_events WHERE count IS NULL AND instance = '$INST'"; }
# One rasd run: started (its options the arguments), recording, then stopped (SIGTERM).
start() {
	LOG=$WORK/rasd.$((++runs)).log
	"$RASD" --config "$WORK/rasd.conf" "$@" 2>"$LOG" &
	PID=$!
	wait_for 30 grep -q "recording" "$LOG"
}
stop() { kill -TERM "$PID"; wait "$PID"; local rc=$?; PID=; return $rc; }
runs=0

start --keep-instance; ok $? "rasd records (keep_instance)"
stop; ok $? "and stops"
ok "$([ -d $T/instances/$INST ] && echo 0 || echo 1)" "its instance is kept"
before=$(gaps)

# Taken back by the next rasd: nothing went with it.
start --keep-instance; ok $? "the next rasd takes the kept instance back"
stop
is_gaps() { [ "$(gaps)" = "$1" ]; }
ok "$(is_gaps "$before" && echo 0 || echo 1)" "no gap for an instance taken back ($(gaps))"

# Removed (a cleanup) before the next rasd: what it held went with it.
rmdir $T/instances/$INST
start; ok $? "the next rasd makes the instance anew"
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM lost_events WHERE count IS NULL AND instance = '$INST'\")\" -gt $before ]"
ok $? "the kept instance removed is a gap of unknown size ($(gaps), was $before)"
grep -q "kept at its stop .* is gone" "$LOG"; ok $? "and the log says so"
stop; ok $? "rasd stops and removes its instance"
ok "$([ ! -d $T/instances/$INST ] && echo 0 || echo 1)" "its instance is removed"
before=$(gaps)

# Removed cleanly by rasd itself: the next one's new instance is no gap.
start; ok $? "rasd after a clean stop"
stop
ok "$(is_gaps "$before" && echo 0 || echo 1)" "no gap after rasd removed its own instance ($(gaps))"
grep -q "is gone" "$LOG"; ok "$([ $? != 0 ] && echo 0 || echo 1)" "and nothing logged"

# Kept, removed and made again by someone else before the next rasd: another inode, a gap.
start --keep-instance; stop
rmdir $T/instances/$INST && mkdir $T/instances/$INST
start; ok $? "rasd takes back an instance made again"
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM lost_events WHERE count IS NULL AND instance = '$INST'\")\" -gt $before ]"
ok $? "the kept instance made again is a gap ($(gaps), was $before)"
grep -q "is gone (made again since)" "$LOG"; ok $? "and the log says so"
stop
before=$(gaps)

# Kept in another boot (its buffer is the previous boot's, harvested otherwise): no gap.
start --keep-instance; stop
grep -q "^instance_boot=$(cat /proc/sys/kernel/random/boot_id)$" "$STATE"
ok $? "the state file says in which boot the instance was kept"
rmdir $T/instances/$INST
sed -i 's/^instance_boot=.*/instance_boot=00000000-0000-0000-0000-000000000000/' "$STATE"
start; stop
ok "$(is_gaps "$before" && echo 0 || echo 1)" "no gap for an instance kept in another boot ($(gaps))"

# Killed (it never said), its instance removed by a cleanup: a gap, as before.
start; kill -KILL "$PID"; wait "$PID" 2>/dev/null; PID=
rmdir $T/instances/$INST
start; ok $? "rasd after a killed one"
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM lost_events WHERE count IS NULL AND instance = '$INST'\")\" -gt $before ]"
ok $? "a killed rasd's instance removed is a gap too ($(gaps), was $before)"
stop
before=$(gaps)

# The database failing at the stop: the instance is kept with what it holds for the next
# rasd; removed before it starts, that is a gap too.
SHIM=$(cd "$top_builddir" && pwd)/tests/fault-shim.so
if [ -f "$SHIM" ]; then
	shim_allow_asan
	CTLF=$WORK/fault
	: > "$CTLF"
	RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM start; ok $? "rasd under the fault shim"
	echo "pwrite -wal 28" > "$CTLF"
	"$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" held 0 20 >/dev/null
	wait_for 30 grep -q "storage failing since" "$LOG"; ok $? "its database fails"
	stop
	ok "$([ -d $T/instances/$INST ] && echo 0 || echo 1)" "stopped failing: its instance is kept"
	: > "$CTLF"
	rmdir $T/instances/$INST
	start; ok $? "the next rasd, the database working again"
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM lost_events WHERE count IS NULL AND instance = '$INST'\")\" -gt $before ]"
	ok $? "the instance kept for the failed records, removed, is a gap ($(gaps), was $before)"
	grep -q "kept at its stop .* is gone" "$LOG"; ok $? "and the log says so"
	stop

	# The first rasd of the boot for a database whose open never succeeds: no drop
	# counters of the instance stored in this boot to judge each CPU against. Kept,
	# removed, the next rasd stores one gap of unknown size for the whole instance
	# (cpu -1), and every view counts it.
	DB=$WORK/first.db
	sed -i "s|^database = .*|database = $DB|" "$WORK/rasd.conf"
	echo "pwrite -wal 28" > "$CTLF"
	LOG=$WORK/rasd.$((++runs)).log
	RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM "$RASD" --config "$WORK/rasd.conf" 2>"$LOG" &
	PID=$!
	wait_for 30 grep -q "storage failing since" "$LOG"; ok $? "a rasd whose database never opens"
	w=$("$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" never 0 20)
	stop
	ok "$([ -d $T/instances/$INST ] && grep -q "^instance=kept$" "$STATE" && echo 0 || echo 1)" \
		"stopped before its database opened: its instance is kept"
	# It has no reader: the records it left unread are counted from the instance's stats.
	grep -q "^instance_unread=20$" "$STATE"
	ok $? "the state file counts the 20 records it left unread ($w written, $(grep ^instance_unread= "$STATE"))"
	: > "$CTLF"
	rmdir $T/instances/$INST
	start; ok $? "the next rasd opens the database, no counters of this boot in it"
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM lost_events WHERE count IS NULL AND instance = '$INST'\")\" = 1 ]"
	ok $? "the instance kept, removed, is one gap of unknown size ($(gaps))"
	is_one() { [ "$(q "SELECT cpu || ' ' || origin FROM lost_events WHERE count IS NULL AND instance = '$INST'")" = "-1 stats" ]; }
	ok "$(is_one && echo 0 || echo 1)" "for the whole instance, origin stats ($(q "SELECT cpu, origin FROM lost_events WHERE count IS NULL"))"
	grep -q "kept at its stop .* is gone" "$LOG"; ok $? "and the log says so"
	grep -q "kept at its stop .*, 20 records unread then), is gone" "$LOG"
	ok $? "with the 20 records it held unread"
	stop
	ctlq() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
	views=$(ctlq summary --json | python3 -c 'import json, sys; d = json.load(sys.stdin); print(d["lost_unknown_gaps"])')
	views="$views $(ctlq status --json | python3 -c 'import json, sys; print(json.load(sys.stdin)["database"]["lost_unknown_gaps"])')"
	views="$views $(ctlq metrics | sed -n 's/^ras_fdr_lost_gaps_total{origin="stats"} //p')"
	ok "$([ "$views" = "1 1 1" ] && echo 0 || echo 1)" "summary, status and metrics count that gap ($views)"
	ctlq summary | grep -q "by origin: .*stats .*1 gap of unknown size"
	ok $? "summary's text names it"

	# The same, the next rasd's first commit failing (its WAL writes fail once it has read
	# a drop counter): the gap is rolled back with it and stored once by the retry.
	DB=$WORK/retry.db
	sed -i "s|^database = .*|database = $DB|" "$WORK/rasd.conf"
	echo "pwrite -wal 28" > "$CTLF"
	LOG=$WORK/rasd.$((++runs)).log
	RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM "$RASD" --config "$WORK/rasd.conf" 2>"$LOG" &
	PID=$!
	wait_for 30 grep -q "storage failing since" "$LOG"; ok $? "again a rasd whose database never opens"
	stop
	rmdir $T/instances/$INST
	# A count the stopping rasd could not read (a CPU's stats unreadable) is said as unknown.
	sed -i 's/^instance_unread=.*/instance_unread=unknown/' "$STATE"
	echo "pwrite -wal 28 /stats" > "$CTLF"
	LOG=$WORK/rasd.$((++runs)).log
	RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM "$RASD" --config "$WORK/rasd.conf" 2>"$LOG" &
	PID=$!
	wait_for 30 grep -q "storage failing since" "$LOG"; ok $? "the next rasd's first commit fails"
	: > "$CTLF"
	wait_for 30 grep -q "storage works again" "$LOG"; ok $? "and is made once the fault clears"
	grep -q "kept at its stop .*, an unknown number of records unread then), is gone" "$LOG"
	ok $? "an unread count not known is logged as unknown"
	stop
	ok "$([ "$(q "SELECT count(*) || ' ' || min(cpu) FROM lost_events WHERE count IS NULL AND instance = '$INST'")" = "1 -1" ] && echo 0 || echo 1)" \
		"the whole instance's gap stored once ($(q "SELECT count(*), min(cpu) FROM lost_events WHERE count IS NULL"))"
fi

done_testing
