#!/bin/bash
# SPDX-License-Identifier: MIT
# Live test of the early-boot, previous-boot and flight-recorder paths on the
# running kernel (root only; exit 77 otherwise). The boot and persistent
# instances are made by hand the way the kernel would make them from its
# command line; records are put into them with trace_marker_raw.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

P=rasdtb_$$
INST=${P}_live BOOT=${P}_boot PERSIST=${P}_prev FDR=${P}_fdr
WORK=$(mktemp -d /tmp/ras-fdr-live-XXXXXX)
DB=$WORK/ras.db
PID=
cleanup() {
	[ -n "$PID" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null
	for i in $INST $BOOT $PERSIST $FDR; do [ -d $T/instances/$i ] && rmdir $T/instances/$i 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT
is() { [ "$(q "$1")" = "$2" ] && echo 0 || { echo "# $1 -> $(q "$1") (want $2)" >&2; echo 1; }; }
cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
database = $DB
instance = $INST
lock_dir = $WORK/lock
formats_dir = $(cd "$top_srcdir" && pwd)/formats
allow_synthetic = yes
boot_instance = $BOOT
persistent_instance = $PERSIST
fdr_enable = yes
fdr_instance = $FDR
fdr_events = sched:sched_process_exit
fdr_min_interval_s = 3600
CONF
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
starts=0
# Each start logs to its own file, so the wait sees this start's "recording" line.
start() { starts=$((starts+1)); "$RASD" --config "$WORK/rasd.conf" "$@" 2>"$WORK/rasd.$starts.log" & PID=$!
	wait_for 30 grep -q "recording" "$WORK/rasd.$starts.log"; }
stop() { kill -TERM "$PID"; wait "$PID"; local rc=$?; PID=; return $rc; }

# The previous boot's persistent buffer and this boot's early buffer, made by hand.
mkdir $T/instances/$PERSIST $T/instances/$BOOT
for i in 1 2; do ctl -i $PERSIST inject --synthetic ras:mc_event error_type=1 msg=prev-$i >/dev/null; done
for i in 1 2 3; do ctl -i $BOOT inject --synthetic ras:mc_event error_type=0 msg=boot-$i >/dev/null; done

start; ok $? "rasd starts with a boot and a persistent instance present"
ok "$(is "SELECT count(*) FROM mc_event WHERE source = 'boot' AND synthetic = 1 AND msg LIKE 'boot-%'" 3)" \
	"the boot instance's 3 records are stored with source boot"
ok "$(is "SELECT count(*) FROM mc_event WHERE source = 'previous-boot' AND msg LIKE 'prev-%'" 2)" \
	"the persistent instance's 2 records are stored with source previous-boot"
ok "$(is "SELECT count(DISTINCT boot) FROM mc_event WHERE source = 'previous-boot' AND boot <> (SELECT id FROM boots WHERE boot_id = '$(cat /proc/sys/kernel/random/boot_id)')" 1)" \
	"previous-boot records carry another boot than this one"
ok "$([ -d $T/instances/$BOOT ] && echo 0 || echo 1)" "the boot instance, not rasd's, is left in place"
ok "$([ "$(cat $T/instances/$BOOT/events/enable)" = 0 ] && echo 0 || echo 1)" "its events are stopped (not adopted)"
ok "$(grep -h "^entries:" $T/instances/$PERSIST/per_cpu/cpu*/stats | grep -qv "entries: 0" && echo 1 || echo 0)" "the persistent buffer is emptied"
ctl errors --boot -1 | grep -q "previous-boot"; ok $? "errors --boot -1 shows the previous boot's records"
ok "$([ -d $T/instances/$FDR ] && echo 0 || echo 1)" "the flight-recorder instance exists"

# Before the error the machine does something the recorder sees: processes exit.
for i in 1 2 3 4 5; do /bin/true; done
ctl inject --synthetic ras:mc_event error_type=1 msg=first-ue >/dev/null
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' 'SELECT count(*) FROM snapshots')\" = 1 ]"
ok $? "an uncorrected error takes one flight-recorder snapshot"
id=$(q "SELECT id FROM snapshots LIMIT 1")
ctl snapshot show "$id" > "$WORK/snap.txt" 2>&1; head -5 "$WORK/snap.txt" | sed "s/^/# /"
grep -q "sched_process_exit" "$WORK/snap.txt"; ok $? "the snapshot holds real kernel records from before the error"
grep -qE "^-[0-9]+\.[0-9]+ " "$WORK/snap.txt"; ok $? "with timestamps relative to the error"
for i in $(seq 1 1000); do printf '%s\n' "error_type=1 msg=storm-$i"; done | while read -r a b; do ctl inject --synthetic ras:mc_event "$a" "$b" >/dev/null; done
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE 'storm-%'\")\" = 1000 ]"
ok $? "1000 uncorrected errors are all stored"
ok "$(is "SELECT count(*) FROM snapshots" 1)" "and the rate limit holds: still one snapshot"

# Restart: nothing from the boot buffer is stored twice.
stop; ok $? "rasd stops"
start; ok $? "rasd starts again"
ok "$(is "SELECT count(*) FROM mc_event WHERE source = 'boot'" 3)" "boot records not stored twice across a restart"
ok "$(is "SELECT count(*) FROM mc_event WHERE source = 'previous-boot'" 2)" "previous-boot records not imported twice"
ctl status | grep -q "rasd: running"; ok $? "status while running"
stop

done_testing
