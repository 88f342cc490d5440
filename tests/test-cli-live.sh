#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl against a live rasd (root and tracefs; exit 77 otherwise): every
# data command's --json parsed by a JSON parser, 64-bit values as strings,
# registers as hex, UTF-8 kept, --limit and JSON, options after positionals,
# status as a health check (exit 0, then 3 once rasd is stopped), inject
# naming what it wrote, summary --by dimm without an EDAC topology.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }

INST=rasdcli_$$
WORK=$(mktemp -d /tmp/ras-fdr-cli-XXXXXX)
DB=$WORK/ras.db
cleanup() {
	[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null
	wait 2>/dev/null
	for i in $INST ${INST}_fdr; do [ -d $T/instances/$i ] && rmdir $T/instances/$i 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT
# Boot and previous-boot instances of the test's own (none exists, so nothing
# is harvested; boot-cmdline prints them; the persistent one at most 15 characters).
cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
boot_instance = ${INST}_boot
persistent_instance = rcp_$$
database = $DB
instance = $INST
lock_dir = $WORK/lock
formats_dir = $(cd "$top_srcdir" && pwd)/formats
allow_synthetic = yes
fdr_enable = yes
fdr_instance = ${INST}_fdr
CONF
ctl() { "$CTL" --config "$WORK/rasd.conf" --sysfs-root "$WORK/sys" "$@"; }
# json EXPR: the standard input parsed as one JSON document (or JSON Lines with -l), EXPR true.
json() { python3 -c 'import json, sys
lines = sys.argv[1] == "-l"
expr = sys.argv[2] if lines else sys.argv[1]
text = sys.stdin.read()
d = [json.loads(l) for l in text.splitlines()] if lines else json.loads(text)
sys.exit(0 if eval(expr) else 1)' "$@"; }
mkdir -p "$WORK/sys/devices/system/edac/mc"

"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" &
PID=$!
# Records written before rasd sizes its buffer would be cleared with it.
wait_for 30 grep -q "recording .* RAS tracepoints" "$WORK/rasd.log"; ok $? "rasd runs"

out=$(ctl inject --synthetic ras:mc_event error_type=0 msg=$'caf\xc3\xa9 \xe2\x9c\x93 bad\xff' \
	error_count=2 label=DIMM_A1 mc_index=7 top_layer=0 middle_layer=1 lower_layer=-1 address=0xfedcba9876543210); rc=$?
ok $([ $rc = 0 ] && grep -q "wrote a synthetic ras:mc_event record" <<<"$out" && echo 0 || echo 1) \
	"inject --synthetic says what it wrote ($out)"
ctl inject --synthetic mce:mce_record status=0x8c00004000010090 bank=7 cpuvendor=0 >/dev/null
ok $? "inject an mce_record"
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' 'SELECT count(*) FROM mce_record')\" -ge 1 ]"
ok $? "both stored"

# errors --json: one object per line, version 2, 64-bit values as strings.
out=$(ctl errors --json)
json -l 'len(d) == 2 and all(r["version"] == 2 for r in d)' <<<"$out"; ok $? "errors --json: JSON Lines with version 2"
json -l 'all(isinstance(r["wall_ns"], str) and int(r["wall_ns"]) // 10**9 == r["wall_s"] for r in d)' <<<"$out"
ok $? "errors --json: wall_ns a string, wall_s its seconds"
json -l 'all(isinstance(r["trace_ts"], str) for r in d)' <<<"$out"; ok $? "errors --json: trace_ts a string"
json -l '[r for r in d if r["type"] == "mce_record"][0]["fields"]["status"] == "0x8c00004000010090"' <<<"$out"
ok $? "errors --json: a register above 2^63 as a hex string, unsigned"
json -l '[r for r in d if r["type"] == "mc_event"][0]["fields"]["address"] == "0xfedcba9876543210"' <<<"$out"
ok $? "errors --json: an address as a hex string"
json -l '[r for r in d if r["type"] == "mc_event"][0]["fields"]["mc_index"] == 7' <<<"$out"
ok $? "errors --json: small integers stay numbers"
json -l '[r for r in d if r["type"] == "mc_event"][0]["fields"]["msg"] == "caf\u00e9 \u2713 bad\u00ff"' <<<"$out"
ok $? "errors --json: UTF-8 kept, the invalid byte escaped"
grep -q 'café ✓ bad\\u00ff' <<<"$out"; ok $? "errors --json: the characters themselves, not \\u escapes"
json -l '[r for r in d if r["type"] == "mc_event"][0]["decoded"]["address"] == "0xfedcba9876543210"' <<<"$out"
ok $? "errors --json: a decoded integer past 2^53 as its hex bits"

line=$(ctl errors --type mc_event)
ok $([ "$(grep -o 'mc7, layers 0:1 (DIMM_A1)' <<<"$line" | wc -l)" = 1 ] && echo 0 || echo 1) "errors: the location stated once"
grep -q '^20[0-9-]*T[0-9:]*Z corrected mc_event: ' <<<"$line"; ok $? "errors: time to the second, severity, type"

# --limit: the text shows 50 by default, JSON all unless --limit is given.
for i in $(seq 1 53); do ctl inject --synthetic ras:aer_event dev_name=0000:00:1c.0 status=1 >/dev/null; done
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' 'SELECT count(*) FROM aer_event')\" = 53 ]"
ok $? "53 more records stored"
ok $([ "$(ctl errors | wc -l)" = 50 ] && echo 0 || echo 1) "errors: the newest 50 by default"
ok $([ "$(ctl errors --json | wc -l)" = 55 ] && echo 0 || echo 1) "errors --json: all 55 without --limit"
ok $([ "$(ctl errors --json --limit 3 | wc -l)" = 3 ] && echo 0 || echo 1) "errors --json --limit 3: 3"
ok $([ "$(ctl errors --limit 0 | wc -l)" = 55 ] && echo 0 || echo 1) "errors --limit 0: all"
ok $([ "$(ctl errors --type mc_event --limit 1 | wc -l)" = 1 ] && echo 0 || echo 1) "errors --type --limit"
ok $([ "$(ctl errors --limit 1 --type mc_event | wc -l)" = 1 ] && echo 0 || echo 1) "option order does not matter"

# Every data command: --json parsed, version 2.
for args in "summary" "summary --include-synthetic" "summary --by dimm" "status" "edac" "edac --report" \
	    "snapshot list" "boot-cmdline" "boot-cmdline --persistent"; do
	out=$(ctl $args --json); rc=$?
	json 'd["version"] == 2' <<<"$out"; ok $? "$args --json parses, version 2 (rc $rc)"
done
out=$(ctl summary --include-synthetic --json)
json 'd["total"] == 55 and d["synthetic_included"]' <<<"$out"; ok $? "summary --json counts"
out=$(ctl status --json); rc=$?
ok $([ $rc = 0 ] && echo 0 || echo 1) "status: exit 0 while rasd runs (rc $rc)"
json 'd["rasd"]["running"] and d["rasd"]["pid"] == '"$PID"' and d["tracing"]["present"] and d["attention"] == []' <<<"$out"
ok $? "status --json: running, pid, instance, no attention"
json 'all(isinstance(c["read"], str) for c in d["tracing"]["cpus"])' <<<"$out"; ok $? "status --json: buffer counters as strings"
ctl status | grep -q "^Attention: none"; ok $? "status: Attention: none."
out=$(ctl boot-cmdline --json)
json '"trace_instance=" in d["parameters"]' <<<"$out"; ok $? "boot-cmdline --json: the parameters"

# summary --by dimm of an mc_event without EDAC topology (this VM has none).
out=$(ctl summary --by dimm --include-synthetic)
ok $(grep -q "No memory controller errors" <<<"$out" && echo 1 || echo 0) "summary --by dimm: does not say 'No memory controller errors' ($out)"
grep -q "^DIMM_A1 *2 *0  mc7 0:1:-1 (by label)$" <<<"$out"; ok $? "summary --by dimm: the error placed by its record's label, counted twice"

# A flight-recorder snapshot shown as JSON.
# (The uncorrected AER records above may have triggered captures of their own.)
ctl snapshot take --reason cli-test >/dev/null; ok $? "snapshot take"
id=$(ctl snapshot --json list | python3 -c 'import json, sys
print([s["id"] for s in json.load(sys.stdin)["snapshots"] if s["reason"] == "cli-test"][0])')
ok $? "snapshot --json list (option before the action) lists it"
out=$(ctl snapshot show "$id" --json)
json 'd["version"] == 2 and d["id"] == '"${id:-0}"' and d["reason"] == "cli-test" and isinstance(d["wall_ns"], str) and isinstance(d["lines"], list)' <<<"$out"
ok $? "snapshot show ID --json (option after the id)"

# A fake EDAC tree for layout and labels.
mc=$WORK/sys/devices/system/edac/mc/mc0
mkdir -p $mc/dimm0 $mc/dimm1
echo "Skylake Socket#0 IMC#0" > $mc/mc_name; echo 16384 > $mc/size_mb
for f in seconds_since_reset ce_count ue_count ce_noinfo_count ue_noinfo_count; do echo 0 > $mc/$f; done
echo 0 > $mc/max_location
for d in 0 1; do
	echo "CPU_SrcID#0_MC#0_Chan#0_DIMM#$d" > $mc/dimm$d/dimm_label
	echo "channel 0 slot $d" > $mc/dimm$d/dimm_location
	echo 8192 > $mc/dimm$d/size; echo Registered-DDR4 > $mc/dimm$d/dimm_mem_type
	echo x4 > $mc/dimm$d/dimm_dev_type; echo S4ECD4ED > $mc/dimm$d/dimm_edac_mode
	echo 0 > $mc/dimm$d/dimm_ce_count; echo 0 > $mc/dimm$d/dimm_ue_count
done
out=$(ctl layout --live --json); rc=$?
json 'd["version"] == 2 and d["source"] == "kernel" and len(d["controllers"][0]["dimms"]) == 2' <<<"$out"
ok $? "layout --live --json (rc $rc)"
out=$(ctl labels print --json); rc=$?
json 'd["version"] == 2 and len(d["slots"]) == 2 and d["slots"][0]["sysfs"].startswith("CPU_SrcID")' <<<"$out"
ok $? "labels print --json (rc $rc)"
out=$(ctl labels print)
w1=$(sed -n 3p <<<"$out" | awk '{print index($0, "not configured")}')
w2=$(sed -n 4p <<<"$out" | awk '{print index($0, "not configured")}')
ok $([ "$w1" -gt 0 ] && [ "$w1" = "$w2" ] && echo 0 || echo 1) "labels print: columns aligned past a 30-character label"
ctl labels --json guess >/dev/null 2>&1; ok $([ $? = 2 ] && echo 0 || echo 1) "labels guess --json: usage error"

# Health check: stopped rasd is "attention needed".
kill "$PID"; wait "$PID" 2>/dev/null; PID=
ctl status >"$WORK/status.txt"; rc=$?
ok $([ $rc = 3 ] && echo 0 || echo 1) "status: exit 3 when rasd is not running (rc $rc)"
grep -q "^Attention: rasd is not running" "$WORK/status.txt"; ok $? "status: says why"
out=$(ctl status --json); rc=$?
json '"rasd is not running" in d["attention"] and not d["rasd"]["running"]' <<<"$out"
ok $([ $? = 0 ] && [ $rc = 3 ] && echo 0 || echo 1) "status --json: attention listed, exit 3"
"$CTL" --config /dev/null --db "$WORK/none.db" status >/dev/null 2>&1; rc=$?
ok $([ $rc = 3 ] && echo 0 || echo 1) "status of a missing database: exit 3"

done_testing
