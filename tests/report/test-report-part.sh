#!/bin/bash
# SPDX-License-Identifier: MIT
# report --part reads only the part's rows, selected in SQL by their
# decodings (db/db_locations.c): its report must be the one the full scan
# gives, where every row was decoded and tested against the kept parts
# (RAS_FDR_REPORT_SCAN=1 keeps that path as the reference; it also counts
# every part and its timeline and narrows them in C, where --part reads only
# the roll-ups of the locations holding its name). Compared on the
# report tests' database (a folded storm, several boots, an imported
# rasdaemon database, no EDAC topology): every part alone, names that hold
# several parts, a window, a boot's records, JSON and HTML.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
WORK=$(mktemp -d /tmp/ras-fdr-report-part-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }

. "$top_srcdir/tests/report/report-db.sh"
make_report_db "$WORK" "$DB" || { echo "Bail out! cannot build the database"; exit 99; }
# A folded period of memory failures, as rasd stores one: at its first page's
# location ("memory page pfn 0x5678"), keyed by its decoding, whose summary
# location (the part) names no page; counted in the roll-ups as rasd does.
sqlite3 "$DB" "
INSERT INTO folds (tbl, subject, hour, boot, source, synthetic, severity, location, dec, dims, fresh,
  records, errors, first_ns, last_ns, times, last_s)
 SELECT 'memory_failure_event', 'page 0x5678', 474840, boot, source, 0, severity, 'memory page pfn 0x5678',
  dec, '', 1, 5, 5, 1709424006000000000, 1709424009000000000, x'', 1709424009
 FROM memory_failure_event;
UPDATE rollup_hourly SET records = records + 5, last_ns = 1709424009000000000
 WHERE tbl = 'memory_failure_event';" || { echo "Bail out! cannot add the folded period"; exit 99; }

# Both reports of the same arguments, the selected and the scanned, equal but
# for the time they were made; at least min_records records attached.
same() {
	local what=$1 min=$2
	shift 2
	ctl report --json "$@" > "$WORK/sel.json" 2> "$WORK/sel.err"
	local rs=$?
	RAS_FDR_REPORT_SCAN=1 ctl report --json "$@" > "$WORK/scan.json" 2> "$WORK/scan.err"
	local rc=$?
	$PY - "$WORK/sel.json" "$WORK/scan.json" "$min" "$rs" "$rc" <<'PYEOF'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("generated")
recs = len(a["records"] or [])
sys.exit(0 if a == b and recs >= int(sys.argv[3]) and sys.argv[4] == sys.argv[5] == "0" else 1)
PYEOF
	ok $? "$what: the JSON bundle is the full scan's ($($PY -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["records"] or []))' "$WORK/sel.json") records)"
	# The HTML (the same model written otherwise) where several parts are kept.
	[ "${HTML:-}" = 1 ] || return
	ctl report -o "$WORK/sel.html" "$@" 2>/dev/null
	RAS_FDR_REPORT_SCAN=1 ctl report -o "$WORK/scan.html" "$@" 2>/dev/null
	cmp -s <(sed 's/[0-9-]*T[0-9:.]*Z\. Window/GENERATED. Window/' "$WORK/sel.html") \
		<(sed 's/[0-9-]*T[0-9:.]*Z\. Window/GENERATED. Window/' "$WORK/scan.html")
	ok $? "$what: the HTML is the full scan's"
}

# Every part alone, by its whole name.
$PY -c 'import json,sys
for p in json.load(sys.stdin)["parts"]: print(p["name"])' < <(ctl report --json) > "$WORK/parts"
[ "$(wc -l < "$WORK/parts")" -ge 9 ]; ok $? "the database has its 9 parts or more ($(wc -l < "$WORK/parts"))"
while IFS= read -r part; do
	same "--part '$part'" 1 --part "$part"
done < "$WORK/parts"
# The folded memory failures are the part's records (its summary location is
# the period's cut location and decoding, not the location it is stored at).
ctl report --json --part 'memory page, type -1, recovery Recovered' > "$WORK/mf.json"
$PY - "$WORK/mf.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
recs = d["records"] or []
folded = [r for r in recs if r.get("kind") == "folded"]
part = [p for p in d["parts"] if p["name"] == "memory page, type -1, recovery Recovered"]
sys.exit(0 if len(folded) == 1 and folded[0]["records"] == 5 and len(recs) == 2
         and part and part[0]["records"] == 6 else 1)
PYEOF
ok $? "the memory failures' folded period (stored at its page) is attached to its part"
# Names that hold several parts, of one type and of several.
HTML=1 same "--part DIMM_A1 (two parts, folded storm and imported)" 38 --part DIMM_A1
same "--part 'layers' (every DIMM)" 300 --part layers
HTML=1 same "--part 'e' (parts of three types)" 300 --part e
# A window, and one boot's records with synthetic records asked for.
same "--part DIMM_A1 in a window" 1 --part DIMM_A1 --since 2026-01-01T00:00:00Z --until 2026-01-01T00:10:00Z
same "--part DIMM_B1 with synthetic records" 1 --part DIMM_B1 --include-synthetic
echo "1..$n"
[ $failed = 0 ]
