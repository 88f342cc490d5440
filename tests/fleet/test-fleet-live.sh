#!/bin/bash
# SPDX-License-Identifier: MIT
# The fleet's contracts under a real rasd (root and tracefs, else exit 77),
# issue 33: the database removed, moved aside and put back while rasd records
# and an export follows it: every record delivered once, the replacement told
# on export's stderr and by status until ras-fdr-ctl ack; status after a
# kill -9 (never "working"), the cost of that crash in the next start-up line,
# status, summary and metrics; status after rasd stopped on a read-only
# database directory; inject into a full ring buffer. status --json and every
# export line validate against their schemas.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
PY=/usr/bin/python3
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }

live_setup fleet
fault_shim_setup
start() { "$@" "$RASD" --config "$WORK/rasd.conf" 2>>"$WORK/rasd.log" & PID=$!
	starts=$((${starts:-0} + 1))
	wait_for 30 sh -c "[ \$(grep -c 'RAS tracepoints in instance' '$WORK/rasd.log') = $starts ]"; }
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
emit() { "$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" "$1" 0 "$2" >/dev/null; }
wait_count() { wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg LIKE '$1-%'\" 2>/dev/null)\" = $2 ]"; }
export_run() { ctl export --cursor-file "$WORK/cursor" >> "$WORK/out" 2>>"$WORK/export.err"; }
# "N M": lines of records with tag $1 in the output, distinct ones.
delivered() { $PY -c 'import json, sys
seen = [json.loads(l)["fields"]["msg"] for l in open(sys.argv[1]) if l.strip() and json.loads(l).get("type") == "mc_event"]
tagged = [m for m in seen if m.startswith(sys.argv[2] + "-")]
print(len(tagged), len(set(tagged)))' "$WORK/out" "$1"; }
status_json() { ctl status --json > "$WORK/status.json"; echo $? > "$WORK/status.rc"; }
sj() { $PY -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$WORK/status.json" "$1"; }
validate() { $PY -c 'import jsonschema' 2>/dev/null || return 0
	$PY -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$top_srcdir/doc/schema/status.schema.json" "$WORK/status.json"; }

start; ok $? "rasd starts"
emit a 100; wait_count a 100; ok $? "100 records stored"
export_run; ok $? "exported"
status_json; ok "$([ "$(cat "$WORK/status.rc")" = 0 ] && [ "$(sj 'd["storage"]["state"]')" = working ] && echo 0 || echo 1)" \
	"status: rasd running, storage working, exit 0"
validate; ok $? "status --json validates against status.schema.json"
first_id=$(sj 'd["database"]["id"]')

# Removed: rasd records into a fresh database at the path; export starts it from its start.
rm -f "$DB" "$DB-wal" "$DB-shm"
export_run; ok "$([ $? = 1 ] && echo 0 || echo 1)" "an export while the database is gone fails, cursor kept"
emit b 100; wait_count b 100; ok $? "database removed: the next 100 records are in a fresh one"
export_run; ok $? "exported"
grep -q "is a different database .*exported from its start" "$WORK/export.err"; ok $? "export says the database was replaced"
status_json
ok "$([ "$(cat "$WORK/status.rc")" = 3 ] && [ "$(sj 'd["database"]["replaced"]["was"]')" = "$first_id" ] && \
	$PY -c 'import json, sys; sys.exit(0 if any("replaced" in a for a in json.load(open(sys.argv[1]))["attention"]) else 1)' "$WORK/status.json" && echo 0 || echo 1)" \
	"status: the database was replaced (it was $first_id), exit 3"
validate; ok $? "status --json validates"
ctl ack >/dev/null; ok $? "ras-fdr-ctl ack"
ctl status >/dev/null; ok $? "after ack status exits 0 again"
b_id=$(ctl status --json | $PY -c 'import json, sys; print(json.load(sys.stdin)["database"]["id"])')

# Moved aside, then put back: the fresh one in between is exported from its start, the one
# put back resumes where its export stopped.
mv "$DB" "$WORK/aside.db"
emit c 100; wait_count c 100; ok $? "moved aside: 100 records in a fresh database"
export_run; ok $? "exported"
mv "$WORK/aside.db" "$DB"
emit d 100; wait_count d 100; ok $? "put back: 100 more records in it"
ok "$([ "$(ctl status --json | $PY -c 'import json, sys; print(json.load(sys.stdin)["database"]["id"])')" = "$b_id" ] && echo 0 || echo 1)" \
	"the database put back is the one removed-and-remade before ($b_id)"
export_run; ok $? "exported"
grep -q "is database $b_id again .*resumes where it stopped" "$WORK/export.err"; ok $? "export says it resumes the database put back"
for t in a b c d; do
	is "$(delivered $t)" "100 100" "records $t: every one delivered once"
done
$PY "$top_srcdir/tests/fleet/validate-export.py" "$top_srcdir/doc/schema" "$WORK/out" 2>/dev/null
ok $? "every export line validates against its schema"

# A crash: rasd holds records it read while its storage fails, and is killed.
kill -TERM $PID; wait $PID; PID=
ctl status --json > "$WORK/status.json"
is "$(sj 'd["storage"]["state"]')" stopped "a clean stop: storage stopped"
start env RAS_FAULT_CTL="$CTLF" LD_PRELOAD="$SHIM"; ok $? "rasd starts under the fault shim"
echo "pwrite -wal 28" > "$CTLF"
emit e 50
wait_for 30 sh -c "'$CTL' --config '$WORK/rasd.conf' status | grep -q 'Storage: failing since .*(50 records held'"
ok $? "storage fails: 50 records read and held"
kill -9 $PID; wait $PID 2>/dev/null; PID=
: > "$CTLF"
status_json
ok "$([ "$(cat "$WORK/status.rc")" = 3 ] && [ "$(sj 'd["storage"]["state"]')" = killed ] && echo 0 || echo 1)" \
	"after kill -9 status says storage state killed, not working, exit 3"
ctl status | grep -q "^Storage: working"; ok "$([ $? = 1 ] && echo 0 || echo 1)" "and never 'Storage: working'"
validate; ok $? "status --json validates"
ctl metrics > "$WORK/metrics"
grep -q '^ras_fdr_up 0$' "$WORK/metrics" && grep -q '^ras_fdr_storage_state{state="killed"} 1$' "$WORK/metrics"
ok $? "metrics: ras_fdr_up 0, storage state killed"
start; ok $? "rasd starts again"
grep -q "the last rasd did not stop cleanly: it cost 50 records (counted as lost, origin crash)" "$WORK/rasd.log"
ok $? "its start-up line says what the crash cost: $(grep -o 'the last rasd did not stop.*' "$WORK/rasd.log" | tail -1)"
status_json
is "$(sj 'd["database"]["last_crash"]["records"]')" 50 "status: the last crash cost 50 records"
is "$(sj '[o["records"] for o in d["database"]["lost_by_origin"] if o["origin"] == "crash"][0]')" 50 "status: lost by origin crash 50"
ok "$([ "$(cat "$WORK/status.rc")" = 3 ] && echo 0 || echo 1)" "the loss needs attention (exit 3)"
is "$(ctl summary --json | $PY -c 'import json, sys; d = json.load(sys.stdin); print(d["lost"], [o["records"] for o in d["lost_by_origin"] if o["origin"] == "crash"][0])')" \
	"50 50" "summary counts the crash: 50 lost"
ctl metrics | grep -q '^ras_fdr_lost_records_total{origin="crash"} 50$'; ok $? "metrics: lost records of origin crash 50"
ctl ack >/dev/null && ctl status >/dev/null; ok $? "acknowledged: status exits 0"

# rasd stops on a database directory it cannot write: status says so.
kill -TERM $PID; wait $PID; PID=
mkdir -p "$WORK/ro"
if mount --bind "$WORK/ro" "$WORK/ro" 2>/dev/null && mount -o remount,ro,bind "$WORK/ro" 2>/dev/null; then
	sed -i "s|^database = .*|database = $WORK/ro/ras.db|" "$WORK/rasd.conf"
	"$RASD" --config "$WORK/rasd.conf" 2>>"$WORK/rasd.log"; rc=$?
	umount "$WORK/ro"
	ok "$([ $rc != 0 ] && echo 0 || echo 1)" "rasd stops on a read-only database directory"
	ctl status > "$WORK/status.txt"; rc=$?
	grep -q "^Storage: rasd (pid [0-9]*) stopped at .*: .*ead-only" "$WORK/status.txt"
	ok "$([ $? = 0 ] && [ $rc = 3 ] && echo 0 || echo 1)" "status says rasd stopped and why: $(grep '^Storage' "$WORK/status.txt" | cut -c1-120)"
	sed -i "s|^database = .*|database = $DB|" "$WORK/rasd.conf"
else
	echo "# no read-only bind mount here: skipped"
fi

# inject into a ring buffer nobody reads, full with overwrite off: a message that says so.
FULL=rasdfull_$$
mkdir "$T/instances/$FULL" && echo 4 > "$T/instances/$FULL/buffer_size_kb" && echo 0 > "$T/instances/$FULL/options/overwrite"
for i in $(seq 1 2000); do
	ctl --instance "$FULL" inject --synthetic ras:mc_event error_type=1 msg=fill label=X >/dev/null 2>"$WORK/inject.err" || break
done
rmdir "$T/instances/$FULL"
grep -q "refused the record: the instance's ring buffer is full" "$WORK/inject.err"
ok $? "inject into a full buffer: $(head -c 150 "$WORK/inject.err")"
done_testing
