#!/bin/bash
# SPDX-License-Identifier: MIT
# Metrics a fleet can alert on (issue 33): 400 DIMMs enter in twelve imports,
# the busiest changing from one import to the next (top-N series churned:
# "other" dropped, newcomers appeared at their whole count). After every
# import each series is there again with a value at least as high: no counter
# goes back, no series vanishes; the corrected series named are the first 64
# DIMMs to appear, for good; uncorrected errors always have their DIMM's
# series. import rewrites metrics_textfile with what ras-fdr-ctl metrics says.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
PARSE="$top_srcdir/tests/fleet/parse-metrics.py"
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
$PY -c 'import prometheus_client.parser' 2>/dev/null || { echo "1..0 # SKIP no python3-prometheus-client"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-churn-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db RD=$WORK/rd.db TEXT=$WORK/ras-fdr.prom
mkdir -m 0755 "$WORK/lock"
printf 'database = %s\nlock_dir = %s/lock\ninstance = rasdc_%s\nmetrics_textfile = %s\ncrash_harvest = no\nboot_instance =\npersistent_instance =\n' "$DB" "$WORK" $$ "$TEXT" > "$WORK/rasd.conf"
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
samples() { grep -v '_timestamp_seconds' | $PY "$PARSE" prometheus | cut -d'|' -f1-3; }

sqlite3 "$RD" < "$top_srcdir/tests/fleet/rasdaemon-0.8.sql"
bad=0 vanished=0 named_moved=0
: > "$WORK/prev"
for p in $(seq 0 11); do
	# 250 records: phase p's busy DIMMs are 30p..30p+29 (seen again later, less), a new one in
	# three records, now and then an uncorrected error on any of them.
	sqlite3 "$RD" "WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 250)
	INSERT INTO mc_event SELECT NULL, strftime('%Y-%m-%d %H:%M:%S +0000', 1700000000 + $p * 1000 + i, 'unixepoch'),
	1, CASE WHEN (i * 7 + $p) % 41 = 0 THEN 'Uncorrected' ELSE 'Corrected' END, 'read error',
	'DIMM_' || CASE WHEN i % 3 = 0 THEN ($p * 37 + i) % 400 ELSE $p * 30 + i % 30 END,
	0, 0, 0, -1, i * 4096, 6, 0, '' FROM k"
	ctl import rasdaemon "$RD" > /dev/null || bad=1
	ctl metrics --format prometheus | samples | sort > "$WORK/now"
	# Every series of the last import is there, none lower.
	r=$($PY - "$WORK/prev" "$WORK/now" <<'PYEOF'
import sys
prev = dict((l.rsplit("|", 1)[0], float(l.rsplit("|", 1)[1])) for l in open(sys.argv[1]) if l.strip())
now = dict((l.rsplit("|", 1)[0], float(l.rsplit("|", 1)[1])) for l in open(sys.argv[2]) if l.strip())
gone = [k for k in prev if k not in now]
lower = [k for k in prev if k in now and now[k] < prev[k] and "_up|" not in k]
for k in gone[:3] + lower[:3]:
    print("# %s: %s -> %s" % (k, prev[k], now.get(k)), file=sys.stderr)
print(len(gone), len(lower))
PYEOF
)
	read -r g l <<<"$r"
	vanished=$((vanished + g)); bad=$((bad + l))
	# The textfile import rewrote says the same (but for its timestamps).
	cmp -s <(samples < "$TEXT" | sort) "$WORK/now" || { echo "# import $p: textfile differs"; bad=$((bad + 1)); }
	cp "$WORK/now" "$WORK/prev"
done
ndimm=$(q "SELECT count(DISTINCT dec_label) FROM mc_event_decoded")
ok "$([ "$ndimm" -ge 350 ] && echo 0 || echo 1)" "$ndimm DIMMs entered in 12 imports"
is "$vanished" 0 "no series vanished after any import"
is "$bad" 0 "no counter went back after any import, and the textfile import wrote said the same each time"
named=$(grep '^ras_fdr_dimm_errors_total|' "$WORK/now" | grep 'severity=corrected' | grep -v 'dimm=other' | sed 's/.*dimm=\([^,]*\),.*/\1/' | sort)
first64=$(q "SELECT key FROM metrics_subjects WHERE tbl = 'mc_event' ORDER BY id LIMIT 64" | sort)
is "$(echo "$named" | wc -l)/$([ "$named" = "$first64" ] && echo same)" "64/same" "the 64 named DIMMs are the first 64 to appear"
is "$(grep '^ras_fdr_dimm_errors_total|' "$WORK/now" | grep 'severity=uncorrected' | grep -vc 'dimm=other')" \
	"$(q "SELECT count(DISTINCT dec_label) FROM mc_event_decoded WHERE severity = 'uncorrected'")" \
	"every DIMM with an uncorrected error has its own series"
is "$(grep '^ras_fdr_dimm_errors_total|' "$WORK/now" | awk -F'|' '{ s += $3 } END { print s }')" \
	"$(q "SELECT sum(max(error_count, 1)) FROM mc_event")" "the DIMM series add up to every error"
echo "1..$n"
[ $failed = 0 ]
