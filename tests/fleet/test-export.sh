#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl export --cursor-file: JSON Lines of everything after the cursor
# (event tables, lost records, actions). Killed with SIGKILL at random points
# and run again: to a file every record is delivered exactly once; to a pipe
# every record at least once, a repeat only for a kill between a line and its
# cursor update (at most one per kill), and a cut line only from a kill.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
CHECK="$top_srcdir/tests/fleet/check-export.py"
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-export-XXXXXX)
cleanup() { [ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
DB=$WORK/ras.db
RD=$WORK/rd.db
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
RANDOM=2024   # the kill points: the same on every machine
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }
expected() {
	for t in mc_event aer_event mce_record; do q "SELECT '$t', id FROM $t" | tr '|' ' '; done
	q "SELECT 'lost', id FROM lost_events" | tr '|' ' '
	q "SELECT 'action', id FROM actions" | tr '|' ' '
}
add_rows() {   # $1: how many mc_event rows to add to the rasdaemon database, then import
	sqlite3 "$RD" "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < $1)
	INSERT INTO mc_event SELECT NULL, strftime('%Y-%m-%d %H:%M:%S +0000', 1700000000 + i, 'unixepoch'), 1,
	'Corrected', 'memory read error \"quoted\"', 'DIMM_' || (i % 8), 0, 0, i % 6, -1, i * 4096, 6, 0, '' FROM k"
	ctl import rasdaemon "$RD" >/dev/null
}

sqlite3 "$RD" < "$top_srcdir/tests/fleet/rasdaemon-0.8.sql"
sqlite3 "$RD" "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 400)
	INSERT INTO aer_event SELECT NULL, strftime('%Y-%m-%d %H:%M:%S +0000', 1600000000 + i, 'unixepoch'), '0000:00:1c.0', 'Corrected', 'Receiver Error' FROM k;
	INSERT INTO mce_record (timestamp, status, cpu, cpuid, socketid, bank, cpuvendor) VALUES ('2024-01-01 00:00:00 +0000', -8358680633521667952, 1, 329300, 0, 7, 0);"
add_rows 3000
# Records of another table with older wall times arrive later: the cursor is per table.
sqlite3 "$DB" "INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin) VALUES (1, 'rasd', 0, 17, 0, 1, 'stats'), (1, 'rasd', 1, NULL, 0, 2, 'subbuffer');
INSERT INTO actions (wall_ns, kind, subject, count, threshold, action, result) VALUES (1, 'page', 'page 0x1000', 10, '10/24h', 'soft', 'done');"
expected > "$WORK/want"
total=$(wc -l < "$WORK/want")

# One whole run.
ctl export --cursor-file "$WORK/c0" --json > "$WORK/all"; is $? 0 "export exits 0"
read -r lines invalid uniq dups missing extra max < <($PY "$CHECK" "$WORK/all" "$WORK/want")
is "$lines/$invalid/$uniq/$missing/$extra" "$total/0/$total/0/0" "one run delivers the $total records, each a JSON line"
grep -q '^{"version":2,"type":"mc_event","id":1,"time":"2023-11-14T22:13:21.000000Z",.*"source":"imported","synthetic":false,"severity":"corrected","location":.*"summary":.*"fields":{.*"decoded":{' "$WORK/all"
ok $? "lines are the errors --json format"
grep -q '^{"version":2,"type":"lost","id":2,"time":"1970-01-01T00:00:00.000000Z","boot_id":"[^"]*","instance":"rasd","cpu":1,"origin":"subbuffer","count":null,"from":null,"to":"1970-01-01T00:00:00.000000Z","from_ns":"0","to_ns":"2"}$' "$WORK/all"
ok $? "lost-record rows are exported, 64-bit times as strings"
grep -q '^{"version":2,"type":"action","id":1,"time":"1970-01-01T00:00:00.000000Z","wall_ns":"1",.*"subject":"page 0x1000","count":10,"threshold":"10/24h","action":"soft",.*"result":"done",.*"synthetic":false,' "$WORK/all"; ok $? "actions rows are exported"
# The documented shape: every line begins {"version":2,"type":"T","id":N.
is "$(grep -cv '^{"version":2,"type":"[a-z_]*","id":[0-9]*,"time":"' "$WORK/all")" 0 "every line begins with version, type, id and time"
ctl export --cursor-file "$WORK/c0" > "$WORK/again"; is "$(wc -c < "$WORK/again")" 0 "a second run finds nothing new"

# Kills the exporter $1 when its output $2 has grown a random 4 to 300 KiB past $3 bytes (or
# when it is done): a random point of the export, not of the clock, so it dies mid-way however
# fast the machine (a random delay outlived the whole export on a fast one, and the loop then
# found nothing left to kill), and never twice in a row at the same line.
kill_midway() {
	local past=$(($3 + (RANDOM % 75 + 1) * 4096))
	while [ "$(stat -c %s "$2")" -le $past ] && kill -0 "$1" 2>/dev/null; do sleep 0.001; done
	kill -9 "$1" 2>/dev/null
}

# To a file, killed at random points: exactly once.
kills=0 runs=0
: > "$WORK/file"
while [ $runs -lt 60 ]; do
	runs=$((runs + 1))
	start=$(stat -c %s "$WORK/file")
	# The program itself, not a shell function, so that the kill reaches it.
	"$CTL" --config /dev/null --db "$DB" export --cursor-file "$WORK/c1" --batch $((RANDOM % 200 + 1)) \
		>> "$WORK/file" 2>/dev/null & pid=$!
	kill_midway $pid "$WORK/file" "$start"
	wait $pid 2>/dev/null; rc=$?; pid=
	[ $rc = 137 ] && kills=$((kills + 1))
	# A run that got to the end before its kill point (a loaded machine polls late) leaves
	# nothing to kill in: new records give the next runs something to die in.
	[ $rc = 0 ] && { [ $kills -ge 5 ] && break; add_rows 3000; }
done
ctl export --cursor-file "$WORK/c1" >> "$WORK/file"; is $? 0 "a last run completes"
expected > "$WORK/want"; total=$(wc -l < "$WORK/want")
ok "$([ $kills -ge 5 ] && echo 0 || echo 1)" "the exporter was killed mid-way $kills times"
read -r lines invalid uniq dups missing extra max < <($PY "$CHECK" "$WORK/file" "$WORK/want")
is "$lines/$invalid/$uniq/$dups/$missing/$extra" "$total/0/$total/0/0/0" "file: every record exactly once, no cut line ($kills kills)"
add_rows 100
expected > "$WORK/want"
ctl export --cursor-file "$WORK/c1" >> "$WORK/file"
read -r lines invalid uniq dups missing extra max < <($PY "$CHECK" "$WORK/file" "$WORK/want")
is "$lines/$dups/$missing" "$((total + 100))/0/0" "records stored later are delivered once by the next run"
total=$((total + 100))

# To a pipe, killed at random points: at least once, repeats bounded by the kills.
SLOW_CAT='
import sys, time
while True:
    b = sys.stdin.buffer.read1(8192)
    if not b:
        break
    sys.stdout.buffer.write(b)
    sys.stdout.buffer.flush()
    time.sleep(0.002)
'
mkfifo "$WORK/fifo"
kills=0 runs=0
: > "$WORK/piped"
while [ $runs -lt 60 ]; do
	runs=$((runs + 1))
	# A reader of at most 4 MB/s: the exporter waits on the pipe, so the kill's poll keeps up.
	$PY -c "$SLOW_CAT" < "$WORK/fifo" >> "$WORK/piped" & reader=$!
	start=$(stat -c %s "$WORK/piped")
	"$CTL" --config /dev/null --db "$DB" export --cursor-file "$WORK/c2" > "$WORK/fifo" 2>/dev/null & pid=$!
	kill_midway $pid "$WORK/piped" "$start"
	wait $pid 2>/dev/null; rc=$?; pid=
	# Killed before it opened the fifo: the reader still waits for a writer.
	kill -0 $reader 2>/dev/null && timeout 2 bash -c ': > "$1"' _ "$WORK/fifo"
	wait $reader
	[ $rc = 137 ] && kills=$((kills + 1))
	[ $rc = 0 ] && [ $kills -ge 5 ] && break
done
ctl export --cursor-file "$WORK/c2" | cat >> "$WORK/piped"
ok "$([ $kills -ge 5 ] && echo 0 || echo 1)" "the exporter was killed mid-way $kills times"
read -r lines invalid uniq dups missing extra max < <($PY "$CHECK" "$WORK/piped" "$WORK/want")
is "$uniq/$missing/$extra" "$total/0/0" "pipe: every record delivered"
ok "$([ "$dups" -le "$kills" ] && [ "$max" -le 2 ] && echo 0 || echo 1)" "pipe: $dups repeats for $kills kills, none more than twice"
ok "$([ "$invalid" -le "$kills" ] && echo 0 || echo 1)" "pipe: $invalid cut lines for $kills kills"

# Errors: a closed pipe and an unwritable cursor keep the cursor where it was.
"$CTL" --config /dev/null --db "$DB" export --cursor-file "$WORK/c4" 2>"$WORK/err" | head -1 >/dev/null
ok "$(grep -q "Broken pipe" "$WORK/err" && echo 0 || echo 1)" "a closed pipe is reported (EPIPE)"
# What head took and what the pipe buffer held before it closed: far from all of it.
pos() { sed -n "s/^db [^ ]* .*\b$2=\([0-9]*\).*/\1/p" "$1" | head -1; }
ok "$([ "$(pos "$WORK/c4" mc_event)" -lt 1000 ] && [ -z "$(pos "$WORK/c4" aer_event)" ] && echo 0 || echo 1)" \
	"the cursor stops where the pipe closed"
"$CTL" --config /dev/null --db "$DB" export --cursor-file "$WORK/c4" 2>/dev/null | head -c 1 > "$WORK/first"
is "$(od -An -c "$WORK/first" | tr -d ' ')" "{" "after a closed pipe the next export begins with a record, not an empty line"

exec 9>"$WORK/c0.lock"; flock 9
ctl export --cursor-file "$WORK/c0" >/dev/null 2>"$WORK/err"; rc=$?
ok "$([ $rc = 1 ] && grep -q "another export" "$WORK/err" && echo 0 || echo 1)" "a second export on the same cursor is refused while one runs"
exec 9>&-
# A crafted database: a column of the actions table named to close the key and forge another,
# text with quotes, backslashes and newlines. Lines keep their fixed keys, every value escaped.
sqlite3 "$DB" "ALTER TABLE actions ADD COLUMN \"x\"\":1,\"\"type\"\":\"\"mc_event\"\"\";
UPDATE actions SET \"x\"\":1,\"\"type\"\":\"\"mc_event\"\"\" = 'forged';
INSERT INTO actions (wall_ns, kind, subject, count, threshold, action, result) VALUES (3, 'page', 'a \"quoted\" \\ subject' || char(10) || '{\"type\":\"lost\"}', 1, '1/1h', 'soft', 'done');
INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin) VALUES (1, 'ra\"sd' || char(10), 0, 1, 0, 3, 'str\"ange' || char(13) || char(10) || 'origin')"
# Extreme values: a folded period at all-ones and negative-looking addresses and details, a loss
# ending at 2^63 - 1, a decision with a 64-bit event id: hex strings and decimal strings, exact.
sqlite3 "$DB" "INSERT INTO folds (tbl, subject, hour, boot, source, synthetic, severity, location, dec, dims, fresh,
	records, errors, first_ns, last_ns, addr_lo, addr_hi, detail_name, details, details_more, times, last_s, ekey)
	VALUES ('mc_event', 'dimm mc9 0:0:-1', 0, 1, 'live', 0, 'corrected', 'mc9', 0, '', 1, 2, 2, 1000000000,
	2000000000, -4096, -1, 'syndrome', x'ffffffffffffffff0000000000000080', 0, x'0202', 2, '');
INSERT INTO fold_growth (fold, records, errors, first_ns, last_ns, times_from, times_to, prev_s, ids)
	VALUES (last_insert_rowid(), 2, 2, 1000000000, 2000000000, 0, 2, 0, NULL);
INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin) VALUES (1, 'rasd', 0, NULL, 1, 9223372036854775807, 'stats');
INSERT INTO actions (wall_ns, kind, subject, count, threshold, action, result, errno, event_table, event_id)
	VALUES (9223372036854775807, 'page', 'page 0xfffffffffffff000', 1, '1/1h', 'soft', 'failed', -22, 'mc_event', 9007199254740992)"
ctl export --cursor-file "$WORK/c5" > "$WORK/crafted"; is $? 0 "export of a crafted database exits 0"
$PY - "$WORK/crafted" <<'PYEOF'; ok $? "extreme values exact: all-ones addresses and details in hex, 2^63 - 1 ns as a string"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
f = [d for d in lines if d["type"] == "fold" and d["subject"] == "dimm mc9 0:0:-1"][0]
assert f["address_min"] == "0xfffffffffffff000" and f["address_max"] == "0xffffffffffffffff", f
assert f["distinct"] == ["0xffffffffffffffff", "0x8000000000000000"], f["distinct"]
assert f["seconds"] == [1, 2] and f["records"] == 2, f
l = [d for d in lines if d["type"] == "lost" and d["to_ns"] == "9223372036854775807"][0]
assert l["to"] == "2262-04-11T23:47:16.854775Z" and l["count"] is None, l
a = [d for d in lines if d["type"] == "action" and d["wall_ns"] == "9223372036854775807"][0]
assert a["errno"] == -22 and a["event_id"] == 9007199254740992, a
PYEOF
$PY - "$WORK/crafted" "$(q 'SELECT count(*) FROM mc_event')" <<'PYEOF'; ok $? "every line parses, no forged key, the text kept: $(tail -2 "$WORK/crafted" | cut -c1-140 | tr '\n' ' ')"
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
acts = [d for d in lines if d["type"] == "action"]
assert all("x" not in d and not any(k.startswith("x\"") for k in d) for d in acts), "forged key"
assert any(d["subject"] == 'a "quoted" \\ subject\n{"type":"lost"}' for d in acts), "subject text"
assert any(d["type"] == "lost" and d["origin"] == 'str"ange\r\norigin' for d in lines), "origin text"
assert sum(1 for d in lines if d["type"] == "mc_event") == int(sys.argv[2]), "records"
PYEOF
if $PY -c 'import jsonschema' 2>/dev/null; then
	$PY "$top_srcdir/tests/fleet/validate-export.py" "$top_srcdir/doc/schema" "$WORK/crafted" 2>/dev/null
	ok $? "the crafted database's lines validate against their schemas"
fi
ctl export --cursor-file /nonexistent/dir/cursor >/dev/null 2>&1; is $? 1 "an unwritable cursor is an error"
ctl export >/dev/null 2>&1; is $? 2 "--cursor-file is required"

echo "1..$n"
[ $failed = 0 ]
