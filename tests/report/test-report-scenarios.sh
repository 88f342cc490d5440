#!/bin/bash
# SPDX-License-Identifier: MIT
# Realistic reports kept as test data (issue 38): each scenario of
# tests/report/scenarios/ is record text (NAME.records, replayed by rasd
# --once through scenario-tree, with NAME.sql applied after when there is
# one) or a rasdaemon database as SQL (rasdaemon.sql, imported); its report's
# key facts (NAME.expect: counts, verdicts, fault modes, crashes, DIMM map,
# words of the HTML) are checked, and its counts are summary's and crashes'.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
export top_srcdir
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
SC=$top_srcdir/tests/report/scenarios
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
tap() { while IFS= read -r l; do case $l in "ok - "*) ok 0 "${l#ok - }";; "not ok - "*) ok 1 "${l#not ok - }";; *) echo "# $l";; esac; done; }
WORK=$(mktemp -d /tmp/ras-fdr-report-scenarios-XXXXXX)
tree=""
trap 'rm -rf "$WORK" $tree' EXIT

replay() { # name db
	local w=$WORK/$1
	mkdir -p "$w"
	printf 'sysfs_root = %s\n' "$w/sys" > "$w/rasd.conf"
	tree=$("$top_builddir/tests/report/scenario-tree" "$SC/$1.records") || return 1
	"$top_builddir/rasd/rasd" --config "$w/rasd.conf" --tracing-dir "$tree" --db "$2" \
		--lock-dir "$w/lock" --once > "$w/rasd.log" 2>&1 || return 1
	rm -rf "$tree"
	tree=""
	[ ! -f "$SC/$1.sql" ] || sqlite3 "$2" < "$SC/$1.sql"
}

imported() { # db
	sqlite3 "$WORK/rd.db" < "$top_srcdir/tests/fleet/rasdaemon-0.8.sql" &&
	sqlite3 "$WORK/rd.db" < "$SC/rasdaemon.sql" &&
	"$top_builddir/tests/make-db" "$1" &&
	"$CTL" --config /dev/null --db "$1" import rasdaemon "$WORK/rd.db" > /dev/null
}

for s in row-dimm multi-rank pcie-storm fatal-mce rasdaemon; do
	db=$WORK/$s.db
	if [ $s = rasdaemon ]; then imported "$db"; else replay $s "$db"; fi
	ok $? "$s: the database is made"
	ctl() { "$CTL" --config /dev/null --db "$db" "$@"; }
	ctl report --json > "$WORK/$s.json" && ctl report -o "$WORK/$s.html"
	ok $? "$s: report --json and -o FILE exit 0"
	ctl summary --json > "$WORK/$s.s.json"
	ctl crashes --json > "$WORK/$s.c.jsonl" 2>/dev/null
	tap < <($PY "$top_srcdir/tests/report/check-scenario.py" "$SC/$s.expect" "$WORK/$s.json" "$WORK/$s.html")
	tap < <($PY "$top_srcdir/tests/report/check-report.py" "$WORK/$s.json" "$WORK/$s.s.json" "$WORK/$s.c.jsonl" |
		sed "s/\$/ ($s)/")
done
echo "1..$n"
[ $failed = 0 ]
