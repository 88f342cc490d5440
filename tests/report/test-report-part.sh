#!/bin/bash
# SPDX-License-Identifier: MIT
# report --part reads only the part's rows, selected in SQL by their
# decodings (db/db_locations.c): its report must be the one the full scan
# gives, where every row was decoded and tested against the kept parts
# (RAS_FDR_REPORT_SCAN=1 keeps that path as the reference). Compared on the
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
# Names that hold several parts, of one type and of several.
HTML=1 same "--part DIMM_A1 (two parts, folded storm and imported)" 38 --part DIMM_A1
same "--part 'layers' (every DIMM)" 300 --part layers
HTML=1 same "--part 'e' (parts of three types)" 300 --part e
# A window, and one boot's records with synthetic records asked for.
same "--part DIMM_A1 in a window" 1 --part DIMM_A1 --since 2026-01-01T00:00:00Z --until 2026-01-01T00:10:00Z
same "--part DIMM_B1 with synthetic records" 1 --part DIMM_B1 --include-synthetic
echo "1..$n"
[ $failed = 0 ]
