#!/bin/bash
# SPDX-License-Identifier: MIT
# Actions on a live rasd (root and tracefs; exit 77 otherwise): synthetic
# storms injected with ras-fdr-ctl cross the page and DIMM thresholds; with
# synthetic_actions = yes the page is written to a fake sysfs, a trigger sees
# the facts, ras-fdr-ctl actions/summary/status report the decisions; a
# trigger past its time limit is killed without holding up the reading loop;
# a flooded buffer runs the lost-records trigger.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

INST=rasdact_$$
WORK=$(mktemp -d /tmp/ras-fdr-act-XXXXXX)
DB=$WORK/ras.db
SYS=$WORK/sys
TRIG=$WORK/triggers
cleanup() {
	[ -n "${PID:-}" ] && kill -CONT "$PID" 2>/dev/null; [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null
	wait 2>/dev/null
	[ -d $T/instances/$INST ] && rmdir $T/instances/$INST 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
[ -n "${RAS_TEST_KEEP:-}" ] && trap - EXIT

mkdir -p "$SYS/devices/system/memory" "$TRIG"
: > "$SYS/devices/system/memory/soft_offline_page"
: > "$SYS/devices/system/memory/hard_offline_page"
cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
boot_instance =
persistent_instance =
database = $DB
instance = $INST
lock_dir = $WORK/lock
formats_dir = $(cd "$top_srcdir" && pwd)/formats
allow_synthetic = yes
synthetic_actions = yes
sysfs_root = $SYS
proc_root = $WORK/proc
trigger_dir = $TRIG
trigger_timeout_s = 20
page_ce_threshold = 4/1h
page_ce_action = soft-then-hard
dimm_ce_threshold = 6/1h
action_min_interval_s = 0
CONF
# Each trigger writes its RAS_ environment. dimm-threshold polls the database (read-only)
# until it sees the record injected while it runs, notes that it saw it, then outlives its
# time limit: rasd stored a record while the trigger ran, however slowly either went
# (a limit of 1 s and a wait of 2 s for the row assumed a fast machine).
for t in page-threshold lost-records; do
	printf '#!/bin/sh\nenv | grep "^RAS_" | sort > "$0.env.tmp" && mv "$0.env.tmp" "$0.env"\n' > "$TRIG/$t"
done
cat > "$TRIG/dimm-threshold" <<TRIGGER
#!/bin/sh
echo started
until [ "\$(sqlite3 'file:$DB?mode=ro' "SELECT count(*) FROM mc_event WHERE msg='while-trigger-runs'" 2>/dev/null)" = 1 ]; do
	sleep 0.05
done
echo seen > "\$0.seen"
exec sleep 3600
TRIGGER
chmod +x "$TRIG"/*
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
inject_mc() { ctl inject --synthetic ras:mc_event error_type=0 "msg=read error" label=DIMM_B1 \
	mc_index=0 top_layer=0 middle_layer=3 lower_layer=-1 address=0x3fe8a000 grain_bits=6 "$@" >/dev/null; }

"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" &
PID=$!
wait_for 30 grep -q "recording" "$WORK/rasd.log"; ok $? "rasd records into $INST"

inject_mc error_count=1; inject_mc error_count=1; inject_mc error_count=2
wait_for 30 test -s "$TRIG/page-threshold.env"; ok $? "four errors on one page run page-threshold"
ok "$([ "$(cat "$SYS/devices/system/memory/soft_offline_page")" = 0x3fe8a000 ] && echo 0 || echo 1)" \
	"soft_offline_page holds 0x3fe8a000"
ok "$([ ! -s "$SYS/devices/system/memory/hard_offline_page" ] && echo 0 || echo 1)" \
	"soft succeeded: hard_offline_page untouched"
env=$TRIG/page-threshold.env
for line in RAS_CONDITION=page-threshold RAS_SUBJECT_KIND=page RAS_SUBJECT=0x3fe8a000 RAS_COUNT=4 \
	RAS_THRESHOLD=4/1h RAS_ACTION=soft-then-hard RAS_RESULT=done RAS_SYNTHETIC=1 \
	RAS_EVENT=ras:mc_event RAS_SEVERITY=corrected RAS_DIMM_LABEL=DIMM_B1 RAS_RECORD_ID=3; do
	grep -qx "$line" "$env"; ok $? "trigger environment has $line"
done
grep -q '^RAS_LOCATION=.*' "$env"; ok $? "and the location"
# The row is committed with its group (commit_delay_ms), possibly just after the write.
page_row() { [ "$(q "SELECT count(*) FROM actions WHERE kind='page' AND result='done' AND synthetic=1 AND count=4")" = 1 ]; }
wait_for 30 page_row; ok $? "actions row: page, done, synthetic, count 4"

# Two more errors: the DIMM reaches 6; its trigger runs past the 20 s limit.
inject_mc error_count=2
wait_for 30 grep -q "trigger dimm-threshold.*started" "$WORK/rasd.log"; ok $? "dimm-threshold runs, its output in the log"
inject_mc error_count=1 msg=while-trigger-runs
wait_for 30 test -e "$TRIG/dimm-threshold.seen"; ok $? "records are stored while the trigger runs: it saw the row"
wait_for 60 grep -q "trigger dimm-threshold.*killed by signal 9 (time limit)" "$WORK/rasd.log"
ok $? "the trigger is killed at its time limit"

ctl actions | grep -q "0x3fe8a000.*soft-then-hard *done \[synthetic\]"; ok $? "ras-fdr-ctl actions lists the page decision"
ctl actions --json | grep -q '"kind":"dimm","subject":"mc0 0:3:-1","count":6,"threshold":"6/1h","action":"account","result":"done"'
ok $? "ras-fdr-ctl actions --json lists the DIMM decision"
ctl actions --buckets | grep -Eq "^dimm +mc0 0:3:-1 +1 +7  DIMM_B1$"; ok $? "actions --buckets: the DIMM bucket emptied at 6 holds the 7th error, 7 in all"
ctl actions --since -1h --json | grep -c '"kind"' | grep -qx 2; ok $? "actions --since -1h: both (the relative form; an hour whatever the machine's speed)"
ctl actions --since 2000-01-01 | grep -q "0x3fe8a000"; ok $? "actions --since a date"
ctl summary | grep -q "Actions: 2 decided (done 2)"; ok $? "summary counts the decisions"
ctl summary --json | grep -q '"actions":{"done":2}'; ok $? "summary --json counts them"
ctl status | grep -q "Actions: 2 decided"; ok $? "status counts them"

# SIGHUP applies new thresholds and actions; what a subject holds is kept: one
# error on a page before the reload (4/1h: not crossed) and one after (2/1h)
# cross it with a count of 2.
inject_mc error_count=1 address=0x5a5a5000 middle_layer=1
# Seen once, the page is held in memory without a bucket row (rasd.conf(5)).
first_stored() { [ "$(q "SELECT count(*) FROM mc_event WHERE address = 0x5a5a5000")" = 1 ]; }
wait_for 30 first_stored; ok $? "one error on 0x5a5a5000 stored (4/1h: not crossed)"
! ctl actions --buckets | grep -q '^page  *0x5a5a5000 '; ok $? "a page seen once has no bucket row"
sed -i 's|^page_ce_threshold = .*|page_ce_threshold = 2/1h|; s|^page_ce_action = .*|page_ce_action = hard|' "$WORK/rasd.conf"
kill -HUP $PID
wait_for 30 grep -q "page threshold 2/1h, was 4/1h; buckets kept" "$WORK/rasd.log"; ok $? "the reload logs the new page threshold"
inject_mc error_count=1 address=0x5a5a5000 middle_layer=1
wait_for 30 sh -c "[ \"\$(cat '$SYS/devices/system/memory/hard_offline_page')\" = 0x5a5a5000 ]"
ok $? "after the reload the second error crosses 2/1h: hard_offline_page holds 0x5a5a5000"
row_is() { [ "$(q "SELECT count || ' ' || threshold || ' ' || action || ' ' || result FROM actions WHERE subject='$1'")" = "$2" ]; }
wait_for 30 row_is 0x5a5a5000 "2 2/1h hard done"; ok $? \
	"actions row: count 2 (the level before the reload kept), 2/1h, hard, done"

# A flooded 8 KiB buffer while rasd is stopped: the lost-records trigger.
kill -TERM $PID; wait $PID; PID=
"$RASD" --config "$WORK/rasd.conf" --buffer-size-kb 8 2>"$WORK/rasd2.log" &
PID=$!
wait_for 30 grep -q "recording" "$WORK/rasd2.log"; ok $? "rasd restarts with an 8 KiB buffer"
kill -STOP $PID
for i in $(seq 1 400); do printf 'RDFRxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' > $T/instances/$INST/trace_marker_raw 2>/dev/null; done
kill -CONT $PID
wait_for 30 test -s "$TRIG/lost-records.env"; ok $? "lost records run lost-records"
grep -q '^RAS_LOST_COUNT=[1-9]' "$TRIG/lost-records.env"; ok $? "with the count in RAS_LOST_COUNT"
kill -TERM $PID; wait $PID; ok $? "rasd exits 0"; PID=

done_testing
