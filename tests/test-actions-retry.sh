#!/bin/bash
# SPDX-License-Identifier: MIT
# Buckets count a record once although its transaction is retried (root and
# tracefs, else exit 77): with the fault shim (tests/fault-shim.c) failing the
# WAL sync at commit, every attempt to store the held records fails and is
# rolled back; once it clears they are stored once, and each bucket holds each
# error once. A threshold crossed in a failed attempt acts and runs its
# trigger once; the retried record gets that decision, stored once; a DRAM
# row crossed in a failed attempt acts on each of its pages once.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

INST=rasdt_aretry_$$
WORK=$(mktemp -d /tmp/ras-fdr-aretry-XXXXXX)
DB=$WORK/ras.db
CTLF=$WORK/fault
SYS=$WORK/sys
TRIG=$WORK/triggers
SHIM=$(cd "$top_builddir" && pwd)/tests/fault-shim.so
[ -f "$SHIM" ] || { echo "1..0 # SKIP no fault shim"; exit 77; }
cleanup() {
	[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null
	[ -d $T/instances/$INST ] && rmdir $T/instances/$INST 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$SYS/devices/system/memory" "$TRIG"
: > "$SYS/devices/system/memory/soft_offline_page"
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
page_ce_threshold = 3/1h
page_ce_action = soft
row_ce_threshold = 2/1h
memory_repair = no
action_min_interval_s = 0
CONF
# Each run of the trigger adds a line.
printf '#!/bin/sh\necho "$RAS_SUBJECT $RAS_RESULT" >> "$0.runs"\n' > "$TRIG/page-threshold"
chmod +x "$TRIG/page-threshold"
: > "$CTLF"
shim_allow_asan
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
inject_mc() { ctl inject --synthetic ras:mc_event error_type=0 "msg=retry $1" label=DIMM_R \
	mc_index=0 top_layer=0 middle_layer=2 lower_layer=-1 "address=$1" grain_bits=6 error_count=1 >/dev/null; }
failures() { grep -c "storage failing since" "$WORK/rasd.log"; }
recoveries() { grep -c "storage works again" "$WORK/rasd.log"; }
bucket() { q "SELECT level || ' ' || total FROM buckets WHERE kind = 'page' AND subject = '$1'"; }
bucket_is() { [ "$(bucket "$1")" = "$2" ]; }

RAS_FAULT_CTL=$CTLF LD_PRELOAD=$SHIM "$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" &
PID=$!
wait_for 30 grep -q "recording" "$WORK/rasd.log"; ok $? "rasd records into $INST under the fault shim"

# Two errors on a page while every commit fails: held, retried, then stored once.
echo "fsync -wal 5" > "$CTLF"
inject_mc 0x6100000; inject_mc 0x6100000
wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = 1 ]"; ok $? "the commit fails"
sleep 1.5   # a few retries (0.25 s, 0.5 s, ...) fail too
: > "$CTLF"
wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = 1 ]"; ok $? "stored once the fault clears"
ok "$([ "$(q "SELECT count(*) FROM mc_event WHERE msg = 'retry 0x6100000'")" = 2 ] && echo 0 || echo 1)" "both records stored once"
ok "$([ "$(bucket 0x6100000)" = "2 2" ] && echo 0 || echo 1)" "the page's bucket holds 2 of 2 errors, not one per attempt ($(bucket 0x6100000))"
ok "$([ "$(q "SELECT count(*) FROM actions")" = 0 ] && echo 0 || echo 1)" "so 3/1h is not crossed"

# One error on a page while commits fail: held as seen once, without a row; undone with
# each rolled-back attempt, so when its second error comes the bucket holds two, not one per attempt.
echo "fsync -wal 5" > "$CTLF"
inject_mc 0x6300000
wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = 2 ]"; ok $? "the commit fails for a page seen once"
sleep 1.5
: > "$CTLF"
wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = 2 ]"; ok $? "stored once the fault clears"
ok "$([ -z "$(bucket 0x6300000)" ] && echo 0 || echo 1)" "a page seen once has no bucket row ($(bucket 0x6300000))"
inject_mc 0x6300000
wait_for 30 bucket_is 0x6300000 "2 2"
ok $? "its second error makes a bucket of 2 of 2 errors ($(bucket 0x6300000))"

# Three errors on another page while commits fail: crossed in a failed attempt.
echo "fsync -wal 5" > "$CTLF"
inject_mc 0x6200000; inject_mc 0x6200000; inject_mc 0x6200000
wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = 3 ]"; ok $? "the commit fails again"
wait_for 30 test -s "$TRIG/page-threshold.runs"; ok $? "the crossing acted in the failed attempt"
sleep 1.5
: > "$CTLF"
wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = 3 ]"; ok $? "stored once the fault clears"
ok "$([ "$(cat "$SYS/devices/system/memory/soft_offline_page")" = 0x6200000 ] && echo 0 || echo 1)" "soft_offline_page holds 0x6200000"
ok "$([ "$(q "SELECT count(*) || ' ' || min(count) || ' ' || min(result) FROM actions WHERE subject = '0x6200000'")" = "1 3 done" ] && echo 0 || echo 1)" \
	"one actions row for 0x6200000: count 3, done ($(q "SELECT count(*) FROM actions WHERE subject = '0x6200000'") rows)"
ok "$([ "$(q "SELECT count(*) FROM actions a JOIN mc_event m ON m.id = a.event_id WHERE m.msg = 'retry 0x6200000'")" = 1 ] && echo 0 || echo 1)" \
	"naming the stored record that crossed"
ok "$([ "$(cat "$TRIG/page-threshold.runs")" = "0x6200000 done" ] && echo 0 || echo 1)" "the trigger ran once ($(wc -l < "$TRIG/page-threshold.runs") runs)"
ok "$([ "$(bucket 0x6200000)" = "0 3" ] && echo 0 || echo 1)" "the bucket emptied at the crossing, 3 errors in all ($(bucket 0x6200000))"
ok "$([ "$(bucket 0x6100000)" = "2 2" ] && echo 0 || echo 1)" "the first page's bucket unchanged by the second failure"
# Two errors on two pages of one DRAM row (i10nm's driver_detail) while commits fail: the row
# crosses in a failed attempt and acts on both pages; the retried records get those decisions.
inject_row() { ctl inject --synthetic ras:mc_event error_type=0 "msg=row $1" label=DIMM_R \
	mc_index=0 top_layer=2 middle_layer=0 lower_layer=-1 "address=$1" grain_bits=6 error_count=1 \
	"driver_detail= err_code:0x0000:0x009f ProcessorSocketId:0x0 MemoryControllerId:0x0 PhysicalRankId:0x1 Row:0x77 Column:0x8 Bank:0x1 BankGroup:0x1" >/dev/null; }
echo "fsync -wal 5" > "$CTLF"
inject_row 0x7100040; inject_row 0x7200040
wait_for 30 sh -c "[ \$(grep -c 'storage failing since' '$WORK/rasd.log') = 4 ]"; ok $? "the commit fails for a crossing row"
wait_for 30 grep -q "soft on 1 more pages of the row" "$WORK/rasd.log"; ok $? "the row acted on its other page in the failed attempt"
sleep 1.5
: > "$CTLF"
wait_for 30 sh -c "[ \$(grep -c 'storage works again' '$WORK/rasd.log') = 4 ]"; ok $? "stored once the fault clears"
ok "$([ "$(grep -c 'more pages of the row' "$WORK/rasd.log")" = 1 ] && echo 0 || echo 1)" "the row's other page acted on once, not again at the retry"
ok "$([ "$(q "SELECT count(*) FROM actions WHERE kind = 'row' AND result = 'done'")" = 2 ] && echo 0 || echo 1)" \
	"two actions rows, one per page ($(q "SELECT group_concat(target, '; ') FROM actions WHERE kind = 'row'"))"
ok "$([ "$(q "SELECT count(*) FROM row_pages WHERE acted = 'done'")" = 2 ] && echo 0 || echo 1)" "both pages stored as offlined"
kill -TERM $PID; wait $PID; ok $? "rasd exits 0"; PID=
done_testing
