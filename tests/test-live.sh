#!/bin/bash
# SPDX-License-Identifier: MIT
# Live test on the running kernel's tracefs (root only; exit 77 otherwise):
# rasd creates and removes its own instance, refuses a second copy, stores a
# synthetic record of every event type, applies a reloaded events list,
# drains on SIGTERM, and counts the
# records a flooded tiny buffer dropped while it was stopped.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

INST=rasdt_$$
WORK=$(mktemp -d /tmp/ras-fdr-live-XXXXXX)
DB=$WORK/ras.db
cleanup() {
	[ -n "${PID:-}" ] && kill -CONT "$PID" 2>/dev/null; [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null
	wait 2>/dev/null
	for i in $INST ${INST}_b; do [ -d $T/instances/$i ] && rmdir $T/instances/$i 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT

write_conf() {
	cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
boot_instance =
persistent_instance =
database = $DB
instance = $INST
lock_dir = $WORK/lock
formats_dir = $(cd "$top_srcdir" && pwd)/formats
allow_synthetic = yes
CONF
}
write_conf
rasd_args=(--config "$WORK/rasd.conf")
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }

"$RASD" "${rasd_args[@]}" 2>"$WORK/rasd.log" &
PID=$!
wait_for 30 test -e $T/instances/$INST/per_cpu/cpu0/trace_pipe_raw; ok $? "rasd creates instance $INST"
wait_for 30 grep -q "recording" "$WORK/rasd.log"; ok $? "rasd reports the tracepoints it records"
ok "$([ "$(cat $T/instances/$INST/buffer_percent)" = 0 ] && echo 0 || echo 1)" "buffer_percent is 0"
ok "$(grep -q '\[boot\]' $T/instances/$INST/trace_clock && echo 0 || echo 1)" "trace clock is boot"
ok "$([ "$(cat $T/instances/$INST/options/overwrite)" = 0 ] && echo 0 || echo 1)" "overwrite is off"

"$RASD" "${rasd_args[@]}" 2>"$WORK/second.log"; rc=$?
ok "$([ $rc != 0 ] && grep -q "already records" "$WORK/second.log" && echo 0 || echo 1)" "a second rasd is refused with a clear message"

# One synthetic record of every event type the table knows.
types=$(sed -n 's/^\t{ "\([a-z_]*\)", "\([a-z_]*\)".*/\1:\2/p' "$top_srcdir/lib/event_table.c")
# A type whose keep terms leave a record of zeros out gets values they keep;
# a stand-in is not stored where this kernel has what it stands in for.
kept_values() {
	case $1 in
	signal:signal_generate) echo "sig=$(kill -l BUS) code=4" ;;
	block:block_rq_complete) echo "error=-5" ;;
	esac
}
idle_standin() { [ "$1" = block:block_rq_complete ] && [ -d $T/events/block/block_rq_error ]; }
count=0
for t in $types; do
	# shellcheck disable=SC2046
	ctl inject --synthetic "$t" $(kept_values "$t") >/dev/null 2>"$WORK/inject.err"; rc=$?
	ok $rc "inject --synthetic $t $(head -c 200 "$WORK/inject.err")"
	idle_standin "$t" || count=$((count+1))
done
# The tables are those of the event table's rows: the sum is built from $types, not restated.
sum_sql="SELECT 0"
for t in $types; do sum_sql="$sum_sql+(SELECT count(*) FROM ${t#*:})"; done
stored() { [ "$(q "$sum_sql")" = "$1" ]; }
wait_for 30 stored $count; ok $? "all $count synthetic records stored while rasd runs"
for t in $types; do
	table=${t#*:} want=1
	idle_standin "$t" && want=0
	ok "$([ "$(q "SELECT count(*) FROM $table WHERE source = 'synthetic'")" = $want ] && echo 0 || echo 1)" \
		"$table: $want row with source synthetic"
done
ctl summary | grep -q "No records"; ok $? "summary leaves synthetic records out"
ctl summary --include-synthetic | grep -q "mc_event"; ok $? "summary --include-synthetic counts them"
ctl errors --json --limit 1 | grep -q '"source":"synthetic"'; ok $? "errors --json shows the newest record"
ctl status | grep -q "rasd: running (pid $PID)"; ok $? "status sees rasd running"

# A database handed to someone else reads as it was stored: the PCI device name
# rasd looked up here is not looked up again on the reader's machine.
bdf=$(ls /sys/bus/pci/devices 2>/dev/null | head -n 1)
if [ -n "$bdf" ]; then
	ctl inject --synthetic ras:aer_event dev_name="$bdf" status=1 severity=2 >/dev/null
	aer_stored() { [ "$(q "SELECT count(*) FROM aer_event WHERE dev_name = '$bdf'")" = 1 ]; }
	wait_for 30 aer_stored; ok $? "aer_event of $bdf stored"
	sqlite3 "$DB" ".backup '$WORK/copied.db'"
	ctl errors --json --type aer_event > "$WORK/here.json"
	"$CTL" --config /dev/null --db "$WORK/copied.db" --sysfs-root /nonexistent \
		errors --json --type aer_event > "$WORK/there.json"
	grep -q "$(cat /sys/bus/pci/devices/$bdf/vendor | sed 's/^0x//')" "$WORK/here.json"
	ok $? "the stored decoding names the device from this machine's sysfs"
	cmp -s "$WORK/here.json" "$WORK/there.json"
	ok $? "a copy of the database read without that sysfs says the same"
fi
# SIGHUP re-reads events: one left out is turned off in the instance at once,
# and on again when the list has it back.
MCE_ON=$T/instances/$INST/events/ras/mc_event/enable
if [ -f "$MCE_ON" ]; then
	ok "$([ "$(cat "$MCE_ON")" = 1 ] && echo 0 || echo 1)" "ras:mc_event is enabled"
	echo "events = mce:mce_record ras:aer_event" >> "$WORK/rasd.conf"
	kill -HUP $PID
	wait_for 30 grep -qx 0 "$MCE_ON"; ok $? "SIGHUP with ras:mc_event left out of events turns it off"
	write_conf
	kill -HUP $PID
	wait_for 30 grep -qx 1 "$MCE_ON"; ok $? "SIGHUP with it back turns it on again"
	# Someone else turns the event and tracing off and overwrite on (trace-cmd
	# reset -a, a script): within rasd's 10-second check all are set back, and
	# the log says so.
	echo 0 > "$MCE_ON"; echo 0 > "$T/instances/$INST/tracing_on"; echo 1 > "$T/instances/$INST/options/overwrite"
	wait_for 30 grep -q "something changed instance .*: ras:mc_event off, overwrite on, tracing_on off, set back" "$WORK/rasd.log"
	ok $? "an event and tracing off, overwrite on, behind rasd's back, are noticed: $(grep -m1 'something changed' "$WORK/rasd.log" | tail -c 130)"
	ok "$([ "$(cat "$MCE_ON")" = 1 ] && [ "$(cat "$T/instances/$INST/tracing_on")" = 1 ] && [ "$(cat "$T/instances/$INST/options/overwrite")" = 0 ] && echo 0 || echo 1)" \
		"and set back"
	ctl inject --synthetic ras:mc_event msg=after-reset >/dev/null
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg = 'after-reset'\")\" = 1 ]"
	ok $? "records are stored again"
fi

# SIGTERM drains: a record written just before the signal is stored.
ctl inject --synthetic ras:mc_event msg=last-before-term >/dev/null
kill -TERM $PID; wait $PID; rc=$?; PID=
ok $rc "rasd exits 0 on SIGTERM"
ok "$([ "$(q "SELECT count(*) FROM mc_event WHERE msg = 'last-before-term'")" = 1 ] && echo 0 || echo 1)" "record written before SIGTERM is stored"
ok "$([ ! -d $T/instances/$INST ] && echo 0 || echo 1)" "instance removed at exit"

# A tiny buffer flooded while rasd is stopped: the loss is counted.
INST=${INST}_b
write_conf
"$RASD" "${rasd_args[@]}" --buffer-size-kb 8 2>"$WORK/rasd2.log" &
PID=$!
wait_for 30 grep -q "recording" "$WORK/rasd2.log"; ok $? "second run starts with an 8 KiB buffer"
kill -STOP $PID
for i in $(seq 1 400); do printf 'RDFRxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' > $T/instances/$INST/trace_marker_raw 2>/dev/null; done
kill -CONT $PID
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT coalesce(sum(count),0) FROM lost_events WHERE origin = 'stats' AND instance = '$INST'\")\" -gt 0 ]"
ok $? "records dropped by the flooded buffer are counted in lost_events"
grep -q "dropped" "$WORK/rasd2.log"; ok $? "and a warning is logged"
kill -TERM $PID; wait $PID; PID=

done_testing
