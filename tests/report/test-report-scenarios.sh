#!/bin/bash
# SPDX-License-Identifier: MIT
# Realistic reports kept as test data (issue 38): each scenario of
# tests/report/scenarios/ is record text (NAME.records, replayed by rasd
# --once through scenario-tree, with NAME.sql applied after when there is
# one) or a rasdaemon database as SQL (rasdaemon.sql, imported); its report's
# key facts (NAME.expect: counts, verdicts, fault modes, crashes, DIMM map,
# words of the HTML) are checked, and its counts are summary's and crashes'; with chromium,
# each is loaded with the network cut, drawn to PNG and printed to PDF.
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
# Debian's chromium, when there: each report loaded with the network cut (tests/report/browse.sh).
BROWSER=$(command -v chromium || true)
. "$top_srcdir/tests/report/browse.sh"
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
	tap < <($PY "$top_srcdir/tests/report/check-html-json.py" "$WORK/$s.json" "$WORK/$s.html" "$s")
	# In the real browser, the network cut: every section built, nothing fetched, drawn, printed.
	if [ -n "$BROWSER" ]; then
		browse --dump-dom --log-net-log="$WORK/$s.net.json" "file://$WORK/$s.html" > "$WORK/$s.dom"
		missing=""
		for id in about machine verdicts parts timelines dimm-map actions crashes losses config records; do
			grep -q "id=\"$id\"" "$WORK/$s.dom" || missing="$missing $id"
		done
		ok "$([ -z "$missing" ] && echo 0 || echo 1)" "$s: chromium builds every section${missing:+ (missing:$missing)}"
		got=$(page_requests "$WORK/$s.net.json" 2>&1)
		ok "$([ -z "$got" ] && echo 0 || echo 1)" "$s: no request left the page${got:+: $got}"
		# The page's head, its timelines among it (a smaller picture: less to decode).
		browse --window-size=1000,2000 --screenshot="$WORK/$s.png" "file://$WORK/$s.html" > /dev/null
		read -r pixels inked blue red < <($PY "$top_srcdir/tests/report/check-png.py" "$WORK/$s.png" 2>/dev/null)
		ok "$([ "${inked:-0}" -gt $((${pixels:-0} / 100)) ] && [ $((${blue:-0} + ${red:-0})) -gt 20 ] && echo 0 || echo 1)" \
			"$s: the screenshot is not blank, its timelines drawn (${inked:-?} of ${pixels:-?} pixels inked, ${blue:-?} blue, ${red:-?} red)"
		browse --print-to-pdf="$WORK/$s.pdf" --no-pdf-header-footer "file://$WORK/$s.html" > /dev/null
		head -c 5 "$WORK/$s.pdf" 2>/dev/null | grep -q '%PDF-'; ok $? "$s: it prints to a PDF"
	fi
	[ $s = fatal-mce ] || continue
	# The failing CPU's PPIN is its serial: --redact --part of a part on socket 0 keeps socket
	# 0's (the machine's CPUs from this machine's /proc/cpuinfo, their PPIN from a fake sysfs).
	sock=$(awk -F': ' '/^physical id/ {print $2; exit}' /proc/cpuinfo)
	cpu=$(awk -F': ' '/^processor/ {print $2; exit}' /proc/cpuinfo)
	mkdir -p "$WORK/sys/devices/system/cpu/cpu${cpu:-0}/topology"
	echo 0x5ec0ffee5ec0ffee > "$WORK/sys/devices/system/cpu/cpu${cpu:-0}/topology/ppin"
	ctl --sysfs-root "$WORK/sys" report --machine --redact --json > "$WORK/ppin-all.json"
	! grep -q 5ec0ffee5ec0ffee "$WORK/ppin-all.json"; ok $? "$s: --redact of the whole machine takes the PPIN out"
	# Registers are evidence, not addresses: the records' status and capability stay, the
	# machine's microcode too; the records' physical addresses go.
	$PY -c 'import json, sys
d = json.load(open(sys.argv[1]))
f = [r["fields"] for r in d["records"] if r["type"] == "mce_record"]
ok = f and all(x["status"].startswith("0x") and x["mcgcap"].startswith("0x") and "redacted" in x["addr"] for x in f)
ok = ok and all(not c["microcode"] or "redacted" not in c["microcode"] for c in d["machine"]["cpus"])
sys.exit(0 if ok else 1)' "$WORK/ppin-all.json"
	ok $? "$s: --redact keeps the machine-check registers and the microcode, takes the addresses out"
	ctl --sysfs-root "$WORK/sys" report --machine --redact --json --part "socket ${sock:-0}, CPU 2" > "$WORK/ppin-part.json"
	if [ "${sock:-0}" = 0 ]; then
		grep -q '"ppin":"0x5ec0ffee5ec0ffee"' "$WORK/ppin-part.json"
		ok $? "$s: --redact --part of a part on socket 0 keeps that socket's PPIN (its serial)"
	fi
done
echo "1..$n"
[ $failed = 0 ]
