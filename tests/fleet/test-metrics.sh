#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl metrics: the output parses with the reference parser of Debian's
# python3-prometheus-client (OpenMetrics and the 0.0.4 text format) and with
# promtool, and every value equals what the database says (sqlite3 CLI):
# records per type x severity x source (the main ones at 0 from the start),
# DIMM/CPU/PCIe subjects (the first N to appear named, the later ones'
# corrected errors in "other", worse errors always named), losses per origin,
# malformed records, actions once the table exists, the last error time per
# source, rasd's liveness; --json as JSON of a fixed schema.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
PARSE="$top_srcdir/tests/fleet/parse-metrics.py"
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
$PY -c 'import prometheus_client.openmetrics.parser' 2>/dev/null ||
	{ echo "1..0 # SKIP no python3-prometheus-client"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-metrics-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
RD=$WORK/rd.db
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }
# Value of one sample in the parsed output: NAME LABELS (k=v,... sorted).
val() { awk -F'|' -v n="$1" -v l="$2" '$1 == n && $2 == l { print $3 }' "$WORK/parsed"; }

# 24 DIMMs with different counts, 3 CPUs, 2 PCIe devices: imported, so not synthetic.
sqlite3 "$RD" < "$top_srcdir/tests/fleet/rasdaemon-0.8.sql"
sqlite3 "$RD" <<'SQL'
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 300)
INSERT INTO mc_event SELECT NULL, strftime('%Y-%m-%d %H:%M:%S +0000', 1700000000 + i, 'unixepoch'),
	1 + i % 3, CASE WHEN i % 10 = 0 THEN 'Uncorrected' ELSE 'Corrected' END, 'memory read error',
	'DIMM_' || (i % 17), i % 2, 0, i % 6, -1, i * 4096, 6, 0, '' FROM k;
WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 30)
INSERT INTO mce_record (timestamp, mcgcap, mcgstatus, status, addr, misc, ip, tsc, walltime, cpu, cpuid, apicid, socketid, cs, bank, cpuvendor)
	SELECT strftime('%Y-%m-%d %H:%M:%S +0000', 1700100000 + i, 'unixepoch'), 0, 0, -8358680633521667952,
	0, 0, 0, 0, 0, i % 3, 329300, i % 3, i % 3 / 2, 0, 7, 0 FROM k;
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:00 +0000', '0000:00:1c.0', 'Corrected', 'Receiver Error');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:01 +0000', '0000:00:1c.0', 'Uncorrected (Fatal)', 'Surprise Down Error');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:02 +0000', '0000:3b:00.0', 'Corrected', 'Bad TLP');
SQL
ctl import rasdaemon "$RD" >/dev/null; ok $? "test database made by importing a rasdaemon database"
sqlite3 "$DB" "INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin) VALUES (1, 'rasd', 0, 17, 0, 1, 'stats'), (1, 'rasd', 1, NULL, 0, 2, 'subbuffer'), (1, 'rasd', 1, 5, 0, 3, 'stats');
INSERT INTO counters (name, value) VALUES ('malformed_records', 4);"

ctl metrics > "$WORK/om"; is $? 0 "metrics exits 0"
tail -1 "$WORK/om" | grep -qx "# EOF"; ok $? "OpenMetrics output ends with # EOF"
$PY "$PARSE" openmetrics < "$WORK/om" > "$WORK/parsed"; ok $? "the OpenMetrics parser accepts the output"

# Records: every (type, severity, source) group of the database, and nothing else but zeros.
want=$(for t in mc_event mce_record aer_event; do
	q "SELECT 'ras_fdr_records_total|severity=' || severity || ',source=' || source || ',type=$t|' || count(*) FROM $t GROUP BY severity, source"
done | sort)
got=$(awk -F'|' '$1 == "ras_fdr_records_total" && $3 != 0 { print $1 "|" $2 "|" $3 }' "$WORK/parsed" | sort)
is "$got" "$want" "ras_fdr_records_total equals the database's counts per type x severity x source"
grep -q '^ras_fdr_records_total|.*|counter$' "$WORK/parsed"; ok $? "records is a counter family"
for t in mc_event mce_record aer_event cxl_poison; do
	for sev in corrected uncorrected fatal; do
		[ -n "$(val ras_fdr_records_total "severity=$sev,source=live,type=$t")" ] || { echo "# no $t $sev live"; false; }
	done
done
ok $? "every type's corrected, uncorrected and fatal live series is there from the first scrape"
is "$(val ras_fdr_records_total "severity=fatal,source=live,type=cxl_poison")" 0 "a type without records: 0"

# DIMMs: every one named while there are fewer than --subjects (64), with the database's error count.
q "SELECT dec_label, severity, sum(max(error_count, 1)) FROM mc_event_decoded GROUP BY 1, 2" > "$WORK/dimm"
ndimm=$(q "SELECT count(DISTINCT dec_label) FROM mc_event_decoded")
bad=0
while IFS='|' read -r d sev w; do
	g=$(val ras_fdr_dimm_errors_total "dimm=$d,severity=$sev,source=imported")
	[ "$w" = "$g" ] || { bad=1; echo "# $d $sev: want '$w' got '$g'"; }
done < "$WORK/dimm"
is $bad 0 "each of the $ndimm DIMMs has its own series with the database's error count"
ok "$(grep -q 'dimm=other' "$WORK/parsed" && echo 1 || echo 0)" "no \"other\" with fewer DIMMs than --subjects"
# --subjects 3: the first 3 DIMMs to appear keep their corrected series; the others' are summed in
# "other"; uncorrected errors keep their DIMM's series whatever its place.
ctl metrics --subjects 3 | $PY "$PARSE" openmetrics > "$WORK/parsed3"
first3=$(q "SELECT key FROM metrics_subjects WHERE tbl = 'mc_event' ORDER BY id LIMIT 3" | sort | tr '\n' ' ')
got3=$(awk -F'|' '$1 == "ras_fdr_dimm_errors_total" && $2 ~ /severity=corrected/ && $2 !~ /dimm=other/ { split($2, a, ","); sub("dimm=", "", a[1]); print a[1] }' "$WORK/parsed3" | sort | tr '\n' ' ')
is "$got3" "$first3" "--subjects 3: the corrected series of the first 3 DIMMs to appear"
is "$(awk -F'|' '$1 == "ras_fdr_dimm_errors_total" && $2 == "dimm=other,severity=corrected,source=imported" { print $3 }' "$WORK/parsed3")" \
	"$(q "SELECT sum(max(error_count, 1)) FROM mc_event_decoded WHERE severity = 'corrected' AND dec_label NOT IN (SELECT key FROM metrics_subjects WHERE tbl = 'mc_event' ORDER BY id LIMIT 3)")" \
	"dimm=\"other\" holds the corrected errors of the later DIMMs"
is "$(awk -F'|' '$1 == "ras_fdr_dimm_errors_total" && $2 ~ /severity=uncorrected/ && $2 !~ /dimm=other/' "$WORK/parsed3" | wc -l)" \
	"$(q "SELECT count(DISTINCT dec_label) FROM mc_event_decoded WHERE severity = 'uncorrected'")" \
	"--subjects 3: every DIMM with uncorrected errors keeps its own series"
is "$(awk -F'|' '$1 == "ras_fdr_dimm_errors_total" { s += $3 } END { print s }' "$WORK/parsed3")" \
	"$(q "SELECT sum(max(error_count, 1)) FROM mc_event")" "with --subjects 3 the DIMM series still sum to every error"
ctl metrics --top 3 | $PY "$PARSE" openmetrics | grep -v '_timestamp_seconds|' > "$WORK/top3"
cmp -s "$WORK/top3" <(grep -v '_timestamp_seconds|' "$WORK/parsed3"); ok $? "--top is the older name of --subjects"

# CPUs and PCIe devices.
for c in 0 1 2; do
	is "$(val ras_fdr_cpu_errors_total "cpu=$c,severity=corrected,socket=$(q "SELECT DISTINCT socketid FROM mce_record WHERE cpu = $c"),source=imported")" \
		"$(q "SELECT count(*) FROM mce_record WHERE cpu = $c")" "CPU $c: machine checks with its socket"
done
is "$(val ras_fdr_pcie_errors_total "device=0000:00:1c.0,severity=fatal,source=imported")" 1 "PCIe 0000:00:1c.0: one fatal error"
is "$(val ras_fdr_pcie_errors_total "device=0000:3b:00.0,severity=corrected,source=imported")" \
	"$(q "SELECT count(*) FROM aer_event WHERE dev_name = '0000:3b:00.0'")" "PCIe 0000:3b:00.0: corrected errors"

# Losses per origin, every origin there is, the known ones at 0 from the start.
for o in stats subbuffer storage crash malformed; do
	is "$(val ras_fdr_lost_records_total "origin=$o")" \
		"$(q "SELECT coalesce(sum(count), 0) FROM lost_events WHERE origin = '$o' AND count IS NOT NULL")" "lost records of origin $o"
	is "$(val ras_fdr_lost_gaps_total "origin=$o")" \
		"$(q "SELECT count(*) FROM lost_events WHERE origin = '$o' AND count IS NULL")" "losses of unknown size of origin $o"
done
is "$(val ras_fdr_malformed_records_total "")" 4 "malformed records from the counters table"
last=$(q "SELECT max(m) FROM (SELECT max(wall_ns) AS m FROM mc_event UNION SELECT max(wall_ns) FROM mce_record UNION SELECT max(wall_ns) FROM aer_event)")
is "$(val ras_fdr_last_error_timestamp_seconds "source=imported")" "$((last / 1000000000))" "last error time is the newest record's"
is "$(val ras_fdr_last_error_timestamp_seconds "source=live")" 0 "no live record: 0"
grep -q '^ras_fdr_build_info|kernel='"$(uname -r)"',version=.*|1|gauge$' "$WORK/parsed"; ok $? "info series: version and kernel"
is "$(grep -c '^ras_fdr_event_info|event=.*state=\(enabled\|disabled\|absent\|unknown\),type=' "$WORK/parsed")" \
	"$(grep -c '^	{ "[a-z_]*", "[a-z_]*", ' "$top_srcdir/lib/event_table.c")" "one event info series per event type"
grep -q '^ras_fdr_actions_total' "$WORK/parsed"; ok "$([ $? = 1 ] && echo 0 || echo 1)" "no actions series while no action was taken"
# rasd is not running here: the liveness series say so.
is "$(val ras_fdr_up "")" 0 "ras_fdr_up 0: no rasd holds the lock"
is "$(val ras_fdr_storage_state "state=unknown")/$(val ras_fdr_storage_state "state=working")" "1/0" "storage state unknown, not working"
ok "$([ "$(val ras_fdr_last_commit_timestamp_seconds "" | cut -d. -f1)" -gt 0 ] && echo 0 || echo 1)" "the database's last write is given"

# Actions (rasd's actions table, schema step 8).
sqlite3 "$DB" "INSERT INTO actions (wall_ns, kind, subject, count, threshold, action, result) VALUES (1, 'page', 'page 0x1000', 10, '10/24h', 'soft', 'done'), (2, 'page', 'page 0x2000', 10, '10/24h', 'soft', 'done'), (3, 'cpu', 'cpu 2', 5, '5/1h', 'offline', 'dry-run');"
ctl metrics | $PY "$PARSE" openmetrics > "$WORK/parsed"
is "$(val ras_fdr_actions_total "action=soft,result=done")" 2 "actions per action x result"
is "$(val ras_fdr_actions_total "action=offline,result=dry-run")" 1 "a dry-run action"

# The 0.0.4 text format (node_exporter's textfile collector) carries the same samples.
ctl metrics --format prometheus > "$WORK/prom"
$PY "$PARSE" prometheus < "$WORK/prom" > "$WORK/pparsed"; ok $? "the Prometheus text parser accepts --format prometheus"
grep -q "^# EOF" "$WORK/prom"; ok "$([ $? = 1 ] && echo 0 || echo 1)" "no # EOF in the text format"
is "$(cut -d'|' -f1-3 "$WORK/pparsed" | grep -v '_info\|_timestamp_seconds|' | sort)" \
	"$(cut -d'|' -f1-3 "$WORK/parsed" | grep -v '_info\|_timestamp_seconds|' | sort)" "both formats carry the same samples"
ctl metrics --output "$WORK/out.prom" --format prometheus; is $? 0 "--output writes a file"
cmp -s <(grep -v '^ras_fdr_metrics_timestamp' "$WORK/out.prom") <(grep -v '^ras_fdr_metrics_timestamp' "$WORK/prom")
ok $? "--output holds what would be printed"
is "$(ls "$WORK" | grep -c '\.tmp$')" 0 "no temporary file left"
ctl metrics --format xml >/dev/null 2>&1; is $? 2 "an unknown format is a usage error"

# promtool (Debian's prometheus) lints the 0.0.4 text format: clean. It knows no OpenMetrics:
# the OpenMetrics output parses, and what it says is only that a counter's samples (family_total)
# are not the family it names in HELP (OpenMetrics names a counter family without _total).
if command -v promtool >/dev/null; then
	promtool check metrics < "$WORK/prom" > "$WORK/lint" 2>&1; rc=$?
	is "$rc/$(wc -l < "$WORK/lint")" "0/0" "promtool check metrics: the Prometheus format is clean"
	ctl metrics > "$WORK/om2"; promtool check metrics < "$WORK/om2" > "$WORK/lint" 2>&1; rc=$?
	bad=$(grep -v '_total no help text$' "$WORK/lint" | wc -l)
	for f in $(sed -n 's/ no help text$//p' "$WORK/lint"); do
		grep -q "^# TYPE ${f%_total} counter$" "$WORK/om2" || bad=$((bad + 1))
	done
	ok "$([ $rc != 1 ] && [ $bad = 0 ] && echo 0 || echo 1)" \
		"promtool check metrics: the OpenMetrics output parses (info as gauges); only counters' _total samples are noted ($rc)"
fi

# --json (and --format json): one object, every value a string (doc/schema/metrics.schema.json).
ctl metrics --json > "$WORK/json"; is $? 0 "metrics --json exits 0"
$PY - "$WORK/json" "$WORK/parsed" <<'PYEOF'; ok $? "--json carries the OpenMetrics samples"
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted("%s|%s|%s" % (s["name"], ",".join("%s=%s" % kv for kv in sorted(s["labels"].items())), s["value"].split(".")[0] if s["value"].endswith(".000000000") else s["value"])
             for f in d["families"] for s in f["samples"] if "timestamp_seconds" not in s["name"])
want = sorted("|".join(l.split("|")[:3]) for l in open(sys.argv[2]).read().split("\n") if l and "timestamp_seconds" not in l)
if got != want:
    print("# differ:", set(got) ^ set(want))
    sys.exit(1)
PYEOF
$PY -c 'import jsonschema' 2>/dev/null && {
	$PY - "$top_srcdir/doc/schema/metrics.schema.json" "$WORK/json" <<'PYEOF'; ok $? "--json validates against metrics.schema.json"
import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))
PYEOF
}

# Every fleet command is in the help and has its man page section.
for c in metrics export import; do
	"$CTL" help | grep -q "^  $c "; ok $? "ras-fdr-ctl help lists $c"
	grep -q "^\.SS $c\$" "$top_srcdir/man/ras-fdr-ctl.8"; ok $? "ras-fdr-ctl(8) has a section for $c"
done
grep -q '^\.BR metrics_textfile ' "$top_srcdir/man/rasd.conf.5"; ok $? "rasd.conf(5) documents metrics_textfile"

echo "1..$n"
[ $failed = 0 ]
