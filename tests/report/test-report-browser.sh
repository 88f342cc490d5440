#!/bin/bash
# SPDX-License-Identifier: MIT
# The report in a real browser (issue 38): Debian's chromium, headless, with
# the network cut (a proxy that refuses, every host name unresolvable) loads
# the report of tests/report/report-db.sh's database; the DOM it built has
# each section's content, its network log holds no request but the file
# itself, the screenshot is not blank (the timelines' colours are drawn), and
# it prints to a PDF. Nothing here is timed: chromium gets a generous limit.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
BROWSER=$(command -v chromium || true)
[ -n "$BROWSER" ] || { echo "1..0 # SKIP no chromium (Debian's chromium package)"; exit 77; }
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
WORK=$(mktemp -d /tmp/ras-fdr-report-browser-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
. "$top_srcdir/tests/report/report-db.sh"
make_report_db "$WORK" "$DB" || { echo "Bail out! cannot build the database"; exit 99; }
make_fake_dmi "$WORK/sys"
"$CTL" --config /dev/null --db "$DB" --sysfs-root "$WORK/sys" report --machine -o "$WORK/all.html" || exit 99
"$CTL" --config /dev/null --db "$DB" --sysfs-root "$WORK/sys" report --machine --part DIMM_A1 --redact \
	-o "$WORK/part.html" || exit 99

. "$top_srcdir/tests/report/browse.sh"

browse --dump-dom --log-net-log="$WORK/net.json" "file://$WORK/all.html" > "$WORK/all.dom"
ok $? "chromium loads the report and dumps its DOM"
dom() { grep -q -- "$1" "$WORK/all.dom"; ok $? "DOM: $2"; }
dom '<section id="machine">.*' "the machine section"
dom 'SYSSERIAL-4711' "the machine's serial (DMI)"
dom 'DIMMSER-A1-9999' "the DIMM inventory (SMBIOS type 17)"
dom 'mc0, layers 1:0 (DIMM_A1)' "the stormy DIMM among the parts"
grep -A1 'mc0, layers 1:0 (DIMM_A1)<br><span class="smbios">.*</td><td>mc_event</td>' "$WORK/all.dom" | grep -q '<td class="n">1187</td><td class="n">13</td>'
ok $? "DOM: its 1187 corrected and 13 uncorrected errors"
grep -q 'mc0, layers 1:0 (DIMM_A1)<br><span class="smbios">socket: DIMM_A1 (bank P0_CHANNEL), Samsung, part M393A2K43DB3-CWE, serial DIMMSER-A1-9999; <span class="muted">SMBIOS: the EDAC label names its locator</span></span></td>' "$WORK/all.dom"
ok $? "DOM: its row names the SMBIOS device health finds for its label (socket, part number, serial)"
grep -q 'mc1, layers 1:0 (DIMM_B1)<br><span class="smbios muted">socket: locator not known (no verdict names this part' "$WORK/all.dom"
ok $? "DOM: a DIMM no verdict names: locator not known, and why"
grep -q '<section id="verdicts">.*socket: DIMM_B0 (bank P0_CHANNEL), Samsung, part M393A2K43DB3-CWE, serial DIMMSER-B0-1234' "$WORK/all.dom"
ok $? "DOM: the verdicts section names each judged DIMM's device"
dom 'PCIe 0000:00:1c.0' "the PCIe device of the imported database"
dom '<svg class="timeline"' "the timelines"
dom 'class="act"' "an action marked on a timeline"
dom 'page 0x7e5a1000' "the action taken"
dom 'page 0x7e5a2000' "the action refused (dry run)"
dom 'ended in a fatal machine check' "the crash, in crashes' sentence"
dom '<td>stats</td><td class="n">17</td>' "the losses by origin"
dom '<section id="config">' "the configuration"
dom '<section id="dimm-map">.*holds no EDAC topology' "the DIMM map says the database holds no topology"
slots=$(grep -o '<g class="slot" data-state="[a-z]*" data-layers="[-0-9:]*" data-mc="[0-9]*"' "$WORK/all.dom" | sort -u | wc -l)
ok "$([ "$slots" -ge 6 ] && echo 0 || echo 1)" "DOM: the DIMM map's slots, as the browser built them ($slots, at least the 6 DIMMs the records name)"
grep -o '<g class="slot" data-state="replace" data-layers="1:0:-1" data-mc="0"><rect[^>]*>.\{0,200\}' "$WORK/all.dom" | grep -q 'DIMM_A1.*[0-9]* errors'
ok $? "DOM: DIMM_A1's slot in its verdict (replace) with its label and count"
dom '<section id="dimm-map">.*<div class="socket" data-socket="unknown"><h3>socket not known</h3>' \
	"the DIMM map says the labels DIMM_A1... name no socket"
# sockets x controllers x channels x slots: a stored topology of three controllers, two
# whose names say their socket (skx_edac's "Socket#N") and one that does not (ghes_edac).
cp "$DB" "$WORK/topo.db"
sqlite3 "$WORK/topo.db" "
INSERT INTO edac_snapshots (boot, taken_ns, digest) VALUES ((SELECT min(id) FROM boots), 1, 1);
INSERT INTO edac_mcs SELECT (SELECT max(id) FROM edac_snapshots), column1, column2, 32768, column3 FROM (VALUES
 (0, 'Skylake Socket#1 IMC#0', 'channel 1 dimm 0'), (1, 'Skylake Socket#0 IMC#0', 'channel 1 dimm 0'),
 (2, 'ghes_edac', 'channel 0 dimm 1'));
INSERT INTO edac_dimms SELECT (SELECT max(id) FROM edac_snapshots), column1, column2, 0, column3, column4, -1,
 'channel ' || column3 || ' dimm ' || column4, column5, '', 16384, 'Registered-DDR4', 'x4', 'S4ECD4ED', -1, -1 FROM (VALUES
 (0, 0, 0, 0, 'DIMM_A0'), (0, 1, 1, 0, 'DIMM_A1'), (1, 0, 0, 0, 'DIMM_B0'), (1, 1, 1, 0, 'DIMM_B1'),
 (2, 0, 0, 0, 'DIMM_C0'), (2, 1, 0, 1, 'DIMM_C1'));" || exit 99
"$CTL" --config /dev/null --db "$WORK/topo.db" report -o "$WORK/topo.html" || exit 99
browse --dump-dom "file://$WORK/topo.html" > "$WORK/topo.dom"
boxes=$($PY -c 'import re, sys
html = open(sys.argv[1]).read()
print(" ".join("%s:%s" % (s, ",".join(re.findall(r"<div class=\"mc\"><b>mc([0-9]+)</b>", body)))
      for s, body in re.findall(r"<div class=\"socket\" data-socket=\"([^\"]+)\">(.*?)(?=<div class=\"socket\"|</section>)", html, re.S)))' "$WORK/topo.dom")
ok "$([ "$boxes" = "0:1 1:0 unknown:2" ] && echo 0 || echo 1)" "DOM: the map's sockets hold their controllers, the one whose socket is not known apart (got '$boxes')"
grep -q '<h3>socket 0</h3>.*<h3>socket 1</h3>.*<h3>socket not known</h3>' "$WORK/topo.dom"
ok $? "DOM: socket 0, socket 1, then socket not known, as headings"
# Printed, a socket's box is not left empty at a page's foot, its controllers on the next page.
if command -v pdftotext >/dev/null; then
	browse --print-to-pdf="$WORK/topo.pdf" --no-pdf-header-footer "file://$WORK/topo.html" >/dev/null
	pages=$(pdfinfo "$WORK/topo.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
	split=""
	for ((i = 1; i <= ${pages:-0}; i++)); do
		pdftotext -f $i -l $i "$WORK/topo.pdf" - | $PY -c 'import sys
t = sys.stdin.read().split("\n")
for s in ("socket 0", "socket 1", "socket not known"):
    if s in t and not any(l.startswith("mc") for l in t[t.index(s):]):
        print(s)' >> "$WORK/split.txt"
	done
	split=$(tr '\n' ' ' < "$WORK/split.txt")
	ok "$([ -n "$pages" ] && [ -z "$split" ] && echo 0 || echo 1)" "printed, each socket's heading shares its page with its controllers${split:+ (alone: $split)}"
	# Nor the parts table's head alone at a page's foot, its rows on the next.
	orphan=""
	for f in topo part all; do
		[ -f "$WORK/$f.pdf" ] || browse --print-to-pdf="$WORK/$f.pdf" --no-pdf-header-footer "file://$WORK/$f.html" >/dev/null
		pages=$(pdfinfo "$WORK/$f.pdf" 2>/dev/null | awk '/^Pages:/ {print $2}')
		for ((i = 1; i <= ${pages:-0}; i++)); do
			[ "$(pdftotext -f $i -l $i "$WORK/$f.pdf" - | grep -v '^[[:space:]]*$' | tail -1)" != evidence ] ||
				orphan="$orphan $f:$i"
		done
	done
	ok "$([ -z "$orphan" ] && echo 0 || echo 1)" "printed, the parts table's head is never alone at a page's foot${orphan:+ (page$orphan)}"
else
	echo "# SKIP the printed DIMM map: no pdftotext (poppler-utils)"
fi
got=$(page_requests "$WORK/net.json" 2>&1)
ok "$([ -z "$got" ] && echo 0 || echo 1)" "no request left the page${got:+: $got}"
# The check sees a request when there is one: the same page without its
# Content-Security-Policy and with an image from the network.
sed 's|<meta http-equiv="Content-Security-Policy"[^>]*>||; s|</body>|<img src="http://example.org/x.png"></body>|' \
	"$WORK/all.html" > "$WORK/leaky.html"
browse --dump-dom --log-net-log="$WORK/leaky-net.json" "file://$WORK/leaky.html" > /dev/null
got=$(page_requests "$WORK/leaky-net.json" 2>&1)
ok "$([ "$got" = http://example.org/x.png ] && echo 0 || echo 1)" "the network check sees a page's request (got '$got')"

browse --screenshot="$WORK/all.png" "file://$WORK/all.html" >/dev/null
read -r pixels inked blue red < <($PY "$top_srcdir/tests/report/check-png.py" "$WORK/all.png" 2>/dev/null)
ok "$([ "${inked:-0}" -gt $((${pixels:-0} / 100)) ] && echo 0 || echo 1)" "the screenshot is not blank (${inked:-?} of ${pixels:-?} pixels inked)"
ok "$([ "${blue:-0}" -gt 50 ] && [ "${red:-0}" -gt 50 ] && echo 0 || echo 1)" "the timelines are drawn (${blue:-?} corrected-blue and ${red:-?} uncorrected-red pixels)"

browse --print-to-pdf="$WORK/all.pdf" --no-pdf-header-footer "file://$WORK/all.html" >/dev/null
head -c 5 "$WORK/all.pdf" 2>/dev/null | grep -q '%PDF-'; ok $? "it prints to a PDF ($(stat -c %s "$WORK/all.pdf" 2>/dev/null) bytes)"
# Nothing cut at the page's right edge: the parts table's last column is on the printed page.
if command -v pdftotext >/dev/null; then
	pdftotext "$WORK/all.pdf" "$WORK/all.txt"
	grep -q '^evidence$' "$WORK/all.txt" && grep -q '(rule' "$WORK/all.txt"
	ok $? "the printed parts table keeps its last column (evidence) on the page"
else
	echo "# SKIP the printed page's width: no pdftotext (poppler-utils)"
fi

browse --dump-dom "file://$WORK/part.html" > "$WORK/part.dom"
grep -q '<section id="records">' "$WORK/part.dom" && grep -q '"kind":"folded"' "$WORK/part.dom"
ok $? "--part: the records attached, folded periods among them"
grep -q '<section id="redacted">' "$WORK/part.dom" && ! grep -q 'DIMMSER-B0-1234\|SYSSERIAL-4711' "$WORK/part.dom"
ok $? "--redact: the browser shows no other serial and says what was taken out"
[ $failed = 0 ] || sed 's/^/# /' "$WORK/chromium.log" | tail -20
echo "1..$n"
[ $failed = 0 ]
