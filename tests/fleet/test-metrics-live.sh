#!/bin/bash
# SPDX-License-Identifier: MIT
# metrics_textfile under a real rasd (root, tracefs): the file is rewritten
# after each committed batch with the database's counts, and a real
# prometheus-node-exporter (Debian's package), started on 127.0.0.1 with only
# its textfile collector, serves the series back from /metrics. rasd's
# liveness reaches it: up and working while rasd runs; after a kill -9, the
# refresh a timer runs (ras-fdr-ctl metrics --output) says down and killed;
# a rasd that stops says so itself.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
NODE_EXPORTER=$(command -v prometheus-node-exporter || echo /usr/bin/prometheus-node-exporter)
[ -x "$NODE_EXPORTER" ] || { echo "1..0 # SKIP prometheus-node-exporter not installed"; exit 77; }
PY=/usr/bin/python3
$PY -c 'import prometheus_client.parser' 2>/dev/null || { echo "1..0 # SKIP no python3-prometheus-client"; exit 77; }

INST=rasdm_$$
WORK=$(mktemp -d /tmp/ras-fdr-mlive-XXXXXX)
DB=$WORK/ras.db
TEXT=$WORK/textfile/ras-fdr.prom
mkdir -p "$WORK/textfile"
cleanup() {
	[ -n "${NE:-}" ] && kill "$NE" 2>/dev/null
	[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null
	wait 2>/dev/null
	[ -d $T/instances/$INST ] && rmdir $T/instances/$INST 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
boot_instance =
persistent_instance =
database = $DB
instance = $INST
lock_dir = $WORK/lock
formats_dir = $(cd "$top_srcdir" && pwd)/formats
allow_synthetic = yes
metrics_textfile = $TEXT
CONF
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
sample() { grep "^$1 " "$2" | awk '{ print $2 }'; }
key='ras_fdr_records_total{type="mc_event",severity="corrected",source="synthetic"}'

"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" &
PID=$!
# Ready when it says it records: the instance exists before its buffer is sized and its events enabled.
wait_for 30 grep -q "recording .* RAS tracepoints" "$WORK/rasd.log"; ok $? "rasd runs with instance $INST"
for i in 1 2 3; do
	ctl inject --synthetic ras:mc_event error_type=0 msg="read error" label=DIMM_A1 mc_index=0 \
		top_layer=0 middle_layer=1 lower_layer=-1 >/dev/null
done
wait_for 30 grep -q "^$key 3$" "$TEXT"; ok $? "metrics_textfile counts the 3 records after their batch"
is_db=$(q "SELECT count(*) FROM mc_event WHERE severity = 'corrected' AND source = 'synthetic'")
ok "$([ "$(sample "$key" "$TEXT")" = "$is_db" ] && echo 0 || echo 1)" "the file's count equals the database's ($is_db)"
$PY "$top_srcdir/tests/fleet/parse-metrics.py" prometheus < "$TEXT" > /dev/null; ok $? "the file parses as the Prometheus text format"
ls "$WORK/textfile" | grep -q '\.tmp$'; ok "$([ $? = 1 ] && echo 0 || echo 1)" "no temporary file is left in the directory"
grep -q 'ras_fdr_event_info{event="ras:mc_event",type="mc_event",state="enabled"} 1' "$TEXT"
ok $? "the info series says ras:mc_event is enabled in rasd's instance"
ctl inject --synthetic ras:mc_event error_type=1 msg="scrub" label=DIMM_B2 mc_index=0 \
	top_layer=0 middle_layer=2 lower_layer=-1 >/dev/null
wait_for 30 grep -q '^ras_fdr_records_total{type="mc_event",severity="uncorrected",source="synthetic"} 1$' "$TEXT"
ok $? "a later batch rewrites the file"

# A free port on 127.0.0.1 for the exporter.
PORT=$($PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NODE_EXPORTER" --web.listen-address=127.0.0.1:$PORT --collector.disable-defaults \
	--collector.textfile --collector.textfile.directory="$WORK/textfile" 2>"$WORK/ne.log" &
NE=$!
fetch() { $PY -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())' \
	"http://127.0.0.1:$PORT/metrics" > "$WORK/scrape" 2>/dev/null; }
wait_for 30 fetch; ok $? "node_exporter serves /metrics on 127.0.0.1:$PORT"
# node_exporter prints the labels sorted by name.
grep -q '^ras_fdr_records_total{severity="corrected",source="synthetic",type="mc_event"} 3$' "$WORK/scrape"
ok $? "node_exporter serves ras_fdr_records_total from the textfile"
grep -q '^node_textfile_scrape_error 0$' "$WORK/scrape"; ok $? "node_exporter read the textfile without error"
grep -q '^ras_fdr_build_info{kernel="'"$(uname -r)"'",version="' "$WORK/scrape"; ok $? "the info series reaches Prometheus"
$PY "$top_srcdir/tests/fleet/parse-metrics.py" prometheus < "$WORK/scrape" > /dev/null; ok $? "the scrape parses"
grep -q '^ras_fdr_up 1$' "$WORK/scrape" && grep -q '^ras_fdr_storage_state{state="working"} 1$' "$WORK/scrape" &&
	grep -q '^ras_fdr_metrics_timestamp_seconds [0-9]' "$WORK/scrape"
ok $? "liveness: up 1, storage working, the time the file was written"
grep -q '^ras_fdr_dimm_errors_total{dimm="DIMM_A1",severity="corrected",source="synthetic"} 3$' "$WORK/scrape"
ok $? "synthetic records are in the DIMM series, source=\"synthetic\""

# kill -9: the file rasd left is stale (its timestamp stops); the refresh says why.
kill -9 "$PID"; wait "$PID" 2>/dev/null; PID=
ctl metrics --format prometheus --output "$TEXT"; ok $? "ras-fdr-ctl metrics --output refreshes the textfile"
wait_for 30 sh -c "fetch() { $PY -c 'import sys, urllib.request; sys.stdout.write(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())' http://127.0.0.1:$PORT/metrics; }; fetch | grep -q '^ras_fdr_up 0\$'"
fetch
grep -q '^ras_fdr_up 0$' "$WORK/scrape" && grep -q '^ras_fdr_storage_state{state="killed"} 1$' "$WORK/scrape" &&
	grep -q '^ras_fdr_storage_state{state="working"} 0$' "$WORK/scrape"
ok $? "after kill -9 node_exporter serves up 0 and storage state killed"

# A stop: rasd writes the file once more itself.
"$RASD" --config "$WORK/rasd.conf" 2>>"$WORK/rasd.log" & PID=$!
wait_for 30 sh -c "[ \$(grep -c 'recording .* RAS tracepoints' '$WORK/rasd.log') = 2 ]"; ok $? "rasd starts again"
wait_for 30 grep -q '^ras_fdr_up 1$' "$TEXT"; ok $? "its textfile says up 1"
kill -TERM "$PID"; wait "$PID"; PID=
grep -q '^ras_fdr_up 0$' "$TEXT" && grep -q '^ras_fdr_storage_state{state="stopped"} 1$' "$TEXT"
ok $? "stopped: the textfile says up 0, storage stopped"
kill "$NE"; wait "$NE" 2>/dev/null; NE=
done_testing
