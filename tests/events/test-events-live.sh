#!/bin/bash
# SPDX-License-Identifier: MIT
# Live test on the running kernel's tracefs (root only; exit 77 otherwise):
# rasd sets signal_generate's filter in its instance, so the kernel itself
# keeps only the memory-failure SIGBUS; a process that sends itself SIGBUS
# with BUS_MCEERR_AR or _AO (tests/events/selfbus.c: nothing is poisoned) is
# recorded, its SIGBUS BUS_ADRERR and SIGUSR1 are not even read. Where the
# kernel has block_rq_error, block_rq_complete stays off; with
# pretend_absent = block:block_rq_error it is enabled, filtered on error.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
SELFBUS=$top_builddir/tests/events/selfbus
[ -d $T/events/signal/signal_generate ] || { echo "1..0 # SKIP no signal:signal_generate"; exit 77; }
live_setup events
E=$T/instances/$INST/events
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
start() { # LOG
	LOG=$WORK/$1.log
	"$RASD" --config "$WORK/rasd.conf" 2>"$LOG" & PID=$!
	wait_for 30 grep -q "RAS tracepoints in instance" "$LOG"
}
stop() { kill "$PID"; wait "$PID"; PID=; }
bus=$(kill -l BUS)

start first; ok $? "rasd starts"
want="sig == $bus && (code == 4 || code == 5)"
is_filter() { [ "$(cat "$E/$1/filter")" = "$2" ]; }
is_filter signal/signal_generate "$want"; ok $? "signal_generate's filter in the instance: $want"
ok "$([ "$(cat $E/signal/signal_generate/enable)" = 1 ] && echo 0 || echo 1)" "signal_generate enabled"
grep -q "signal:signal_generate filtered in the kernel: $want" "$LOG"; ok $? "rasd says so"
if [ -d $T/events/block/block_rq_error ]; then
	ok "$([ "$(cat $E/block/block_rq_complete/enable)" = 0 ] && echo 0 || echo 1)" \
		"block_rq_complete stays off where block_rq_error is there"
fi

# AddressSanitizer would catch the SIGBUS itself and exit 1: the kernel's default action is wanted.
for k in ar ao adrerr usr1; do ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_sigbus=0" "$SELFBUS" $k; echo "$k $?" >> "$WORK/selfbus.rc"; done
grep -q "^ar 135$" "$WORK/selfbus.rc"; ok $? "selfbus died of SIGBUS (128 + 7)"
stored() { [ "$(q "SELECT count(*) FROM signal_generate")" = "$1" ]; }
wait_for 30 stored 2; ok $? "the two memory-failure SIGBUS are stored"
ok "$([ "$(q "SELECT group_concat(code_name || '/' || severity || '/' || comm, ' ') FROM (SELECT * FROM signal_generate_decoded ORDER BY id)")" = \
	"BUS_MCEERR_AR/srar/rasfdr-selfbus BUS_MCEERR_AO/srao/rasfdr-selfbus" ] && echo 0 || echo 1)" \
	"as BUS_MCEERR_AR (srar) and BUS_MCEERR_AO (srao) of rasfdr-selfbus"
ok "$([ "$(q "SELECT coalesce(sum(value), 0) FROM counters WHERE name = 'filtered_records'")" = 0 ] && echo 0 || echo 1)" \
	"BUS_ADRERR and SIGUSR1 never reached rasd: the kernel filtered them"
ctl errors --type signal_generate | grep -q 'Process `rasfdr-selfbus` (pid [0-9]*) was killed: it consumed poisoned memory; SIGBUS (BUS_MCEERR_AR)'
ok $? "errors names the process"
out=$(ctl status)
grep -Eq "^  signal_generate +enabled, filtered in the kernel$" <<<"$out"; ok $? "status: filtered in the kernel"
if [ -d $T/events/block/block_rq_error ]; then
	grep -Eq "^  block_rq_complete +present, not enabled: block_rq_error records these$" <<<"$out"
	ok $? "status: block_rq_complete not enabled, block_rq_error records"
fi
ctl status --json > "$WORK/status.json"
/usr/bin/python3 - "$WORK/status.json" "$top_srcdir/doc/schema/status.schema.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = {e["type"]: e for e in d["tracing"]["events"]}
assert ev["signal_generate"].get("filter") == "kernel", ev["signal_generate"]
try:
    import jsonschema
except ImportError:
    sys.exit(0)
jsonschema.Draft202012Validator(json.load(open(sys.argv[2]))).validate(d)
PY
ok $? "status --json: signal_generate's filter is kernel, and it validates against status.schema.json"

# Something clears the filter; a reload sets it again.
echo 0 > "$E/signal/signal_generate/filter"
kill -HUP "$PID"
wait_for 30 is_filter signal/signal_generate "$want"; ok $? "a reload sets the cleared filter again"
stop

# Tests only: block_rq_error treated as absent, block_rq_complete stands in.
echo "pretend_absent = block:block_rq_error" >> "$WORK/rasd.conf"
start second; ok $? "rasd starts with pretend_absent"
grep -q "block:block_rq_error (pretend_absent)" "$LOG"; ok $? "it names the event it treats as absent"
ok "$([ "$(cat $E/block/block_rq_complete/enable)/$(cat $E/block/block_rq_error/enable)" = 1/0 ] && echo 0 || echo 1)" \
	"block_rq_complete enabled in place of block_rq_error"
is_filter block/block_rq_complete "error != 0"; ok $? "filtered on error != 0"
stop

done_testing
