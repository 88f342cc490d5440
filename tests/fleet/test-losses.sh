#!/bin/bash
# SPDX-License-Identifier: MIT
# Every loss shows (issue 32 item 1): lost_events rows of every origin rasd
# writes (stats, subbuffer, storage, crash, malformed) and of one a later
# ras-fdr might add, records of a known count and gaps of unknown size, in
# this boot and an earlier one. summary, status and metrics give each origin
# what the table holds, origin by origin, and the same totals; status asks
# for attention until ras-fdr-ctl ack, then again at the next loss.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
[ -r /proc/sys/kernel/random/boot_id ] || { echo "1..0 # SKIP no boot id"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-losses-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
mkdir -m 0755 "$WORK/lock"
printf 'database = %s\nlock_dir = %s/lock\ninstance = rasdl_%s\ncrash_harvest = no\nboot_instance =\npersistent_instance =\n' "$DB" "$WORK" $$ > "$WORK/rasd.conf"
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }

"$top_builddir/tests/make-db" "$DB" || exit 1
BOOT=$(cat /proc/sys/kernel/random/boot_id)
sqlite3 "$DB" "INSERT INTO boots (boot_id, first_seen_ns) VALUES ('$BOOT', 2), ('an-earlier-boot', 1);
INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin) VALUES
 ((SELECT id FROM boots WHERE boot_id = 'an-earlier-boot'), 'rasd', 0, 17, 0, 100, 'stats'),
 ((SELECT id FROM boots WHERE boot_id = 'an-earlier-boot'), 'rasd', 1, 40, 0, 100, 'crash'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 0, 5, 0, 200, 'stats'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 0, 5, 150, 200, 'subbuffer'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 1, NULL, 150, 200, 'subbuffer'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', -1, 12, 0, 300, 'storage'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', -1, NULL, 0, 300, 'stats'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 0, 1484, 0, 400, 'crash'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 1, 16, 0, 400, 'crash'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 0, NULL, 500, 500, 'malformed'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 1, 3, 500, 500, 'malformed'),
 ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 1, 7, 600, 600, 'martian');"

# The table, origin by origin: "origin records gaps".
table() { q "SELECT origin || ' ' || coalesce(sum(count), 0) || ' ' || sum(count IS NULL) FROM lost_events GROUP BY origin ORDER BY origin"; }
by_origin() { $PY -c 'import json, sys
d = json.load(sys.stdin)
d = d.get("database", d)
for o in sorted(d["lost_by_origin"], key=lambda o: o["origin"]):
    if o["rows"]:
        print(o["origin"], o["records"], o["gaps"])'; }
want=$(table)
is "$(ctl summary --json --include-synthetic | by_origin)" "$want" "summary --json: every origin as the table has it"
is "$(ctl status --json | by_origin)" "$want" "status --json: every origin as the table has it"
got=$(ctl metrics | $PY "$top_srcdir/tests/fleet/parse-metrics.py" openmetrics | $PY -c 'import sys
r, g = {}, {}
for l in sys.stdin:
    name, labels, value = l.split("|")[:3]
    if name in ("ras_fdr_lost_records_total", "ras_fdr_lost_gaps_total"):
        (r if "records" in name else g)[labels.split("=", 1)[1]] = int(value)
for o in sorted(r):
    if r[o] or g[o]:
        print(o, r[o], g[o])')
is "$got" "$want" "metrics: ras_fdr_lost_records_total and _gaps_total per origin as the table has them"

# The totals: every origin's records (a subbuffer count is the same drops as stats, not added
# again) and every gap.
total=$(q "SELECT sum(count) FROM lost_events WHERE origin <> 'subbuffer'")/$(q "SELECT count(*) FROM lost_events WHERE count IS NULL")
is "$(ctl summary --json | $PY -c 'import json, sys; d = json.load(sys.stdin); print("%d/%d" % (d["lost"], d["lost_unknown_gaps"]))')" \
	"$total" "summary: the totals count every origin"
is "$(ctl status --json | $PY -c 'import json, sys; d = json.load(sys.stdin)["database"]; print("%d/%d" % (d["lost"], d["lost_unknown_gaps"]))')" \
	"$total" "status: the same totals"
ctl summary > "$WORK/summary.txt"
bad=0
for o in "stats 22 records and 1 gap of unknown size" "storage 12 records" "crash 1540 records" "martian 7 records" \
	"malformed 3 records and 1 gap of unknown size" "subbuffer 5 records (the kernel's counters count them: not added) and 1 gap"; do
	grep -q "by origin: .*$o" "$WORK/summary.txt" || { bad=1; echo "# no '$o'"; }
done
ok $bad "summary's text names each origin"
is "$(ctl status --json | $PY -c 'import json, sys; d = json.load(sys.stdin)["database"]["last_crash"]; print(d["records"])')" \
	1500 "status: the last crash cost 1500 records (its rows of one accounting)"

# Attention: a loss in this boot until acknowledged; the next one asks again.
ctl status > /dev/null; is $? 3 "losses in this boot: exit 3"
ctl status | grep -q "^Attention: .*records lost in this boot"; ok $? "status says why"
ctl ack > "$WORK/ack.out"; is $? 0 "ras-fdr-ctl ack: $(cat "$WORK/ack.out")"
ctl status --json | $PY -c 'import json, sys
a = json.load(sys.stdin)["attention"]
sys.exit(0 if not any("lost" in x for x in a) else 1)'; ok $? "acknowledged: no attention for the losses (rasd not running stays)"
sqlite3 "$DB" "INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin)
	VALUES ((SELECT id FROM boots WHERE boot_id = '$BOOT'), 'rasd', 0, 2, 0, 700, 'stats')"
ctl status | grep -q "^Attention: .*records lost in this boot"; ok $? "a loss after the ack asks for attention again"
is "$(ctl status --json | $PY -c 'import json, sys; d = json.load(sys.stdin)["database"]; print(d["lost_unacknowledged"])')" 2 \
	"status: 2 records lost since the ack"

# Exit status 3 for a database status cannot read, as documented.
"$CTL" --config /dev/null --db "$WORK/none.db" status > /dev/null 2>&1; is $? 3 "status of a missing database: exit 3"
echo "not a database" > "$WORK/bad.db"
"$CTL" --config /dev/null --db "$WORK/bad.db" status > /dev/null 2>&1; is $? 3 "status of an unreadable database: exit 3"
grep -q "the database unreadable (missing, damaged" "$top_srcdir/man/ras-fdr-ctl.8"
ok $? "ras-fdr-ctl(8) gives 3 for it"
echo "1..$n"
[ $failed = 0 ]
