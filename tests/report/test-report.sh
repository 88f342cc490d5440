#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl report (issue 38) on a database as rasd leaves them: a folded
# storm on one DIMM with uncorrected errors (storm-writer), a rasdaemon
# database imported into it (a second boot, no EDAC topology), a threshold's
# decisions taken and refused, a crash of an earlier boot, losses of several
# origins. The bundle's counts are summary's and crashes', its timelines add
# up, --part attaches the part's records, the bundle is valid against
# doc/schema/report.schema.json, and --redact leaves no host name, no serial
# but the failing DIMM's and no address outside the part, in HTML or JSON.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
# TAP lines of a checker, renumbered here.
tap() { while IFS= read -r l; do case $l in "ok - "*) ok 0 "${l#ok - }";; "not ok - "*) ok 1 "${l#not ok - }";; *) echo "# $l";; esac; done; }
WORK=$(mktemp -d /tmp/ras-fdr-report-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }

. "$top_srcdir/tests/report/report-db.sh"
make_report_db "$WORK" "$DB" || { echo "Bail out! cannot build the database"; exit 99; }

ctl report --json > "$WORK/r.json"; is $? 0 "report --json exits 0"
ctl report -o "$WORK/r.html"; is $? 0 "report -o FILE exits 0"
ctl summary --json > "$WORK/s.json"
ctl crashes --json > "$WORK/c.jsonl"
ctl report --json --part DIMM_A1 > "$WORK/p.json"; is $? 0 "report --part DIMM_A1 exits 0"
ctl report --part 'mc1, layers 0:0' -o "$WORK/p2.html"
tap < <($PY "$top_srcdir/tests/report/check-report.py" "$WORK/r.json" "$WORK/s.json" "$WORK/c.jsonl" "$WORK/p.json")
# What the page says the bundle says too, in the same words (check-html-json.py).
tap < <($PY "$top_srcdir/tests/report/check-html-json.py" "$WORK/r.json" "$WORK/r.html" "the whole machine")

# The same counts with a window: the part of the storm's first ten minutes.
ctl report --json --since 2026-01-01T00:00:00Z --until 2026-01-01T00:10:00Z > "$WORK/rw.json"
ctl summary --json --since 2026-01-01T00:00:00Z --until 2026-01-01T00:10:00Z > "$WORK/sw.json"
tap < <($PY "$top_srcdir/tests/report/check-report.py" "$WORK/rw.json" "$WORK/sw.json" /dev/null | grep -v crashes | sed 's/$/ (a window)/')

# Run where the database was recorded (it holds the running boot), the report holds the
# machine's identity without --machine; a copy of another machine's database does not.
cp "$DB" "$WORK/here.db"
sqlite3 "$WORK/here.db" "DELETE FROM boots WHERE boot_id = '$(cat /proc/sys/kernel/random/boot_id)'"
mkdir -p "$WORK/sys-here/class/dmi/id"; echo 'Here Computers' > "$WORK/sys-here/class/dmi/id/sys_vendor"
away() { "$CTL" --config /dev/null --db "$WORK/here.db" --sysfs-root "$WORK/sys-here" report --json "$@" |
	$PY -c 'import json,sys; m = json.load(sys.stdin)["machine"]; print(m and m["dmi"].get("sys_vendor"))'; }
is "$(away)" None "a database without this machine's running boot: no identity unless asked"
is "$(away --machine)" "Here Computers" "--machine reads the identity anyway"
# Each of the three reasons: the bundle's machine_read says the page's sentence, --machine's too.
both() { # label, then report's options
	local l=$1; shift
	"$CTL" --config /dev/null --db "$WORK/here.db" --sysfs-root "$WORK/sys-here" report --json "$@" > "$WORK/$l.json"
	"$CTL" --config /dev/null --db "$WORK/here.db" --sysfs-root "$WORK/sys-here" report -o "$WORK/$l.html" "$@"
	is "$($PY -c 'import json,sys; print(json.load(sys.stdin)["machine_read"]["reason"])' < "$WORK/$l.json")" "$l" \
		"machine_read.reason is $l"
	tap < <($PY "$top_srcdir/tests/report/check-html-json.py" "$WORK/$l.json" "$WORK/$l.html" "$l" | grep machine_read)
}
both not_read
both asked --machine
grep -q 'id="machine"><h2>Machine</h2><p class="muted">Read from this machine: <code>--machine</code> was given.</p>' "$WORK/asked.html"
ok $? "HTML: says the identity was read because --machine was given (as code)"
is "$($PY -c 'import json,sys; print(json.load(sys.stdin)["machine_read"]["why"])' < "$WORK/asked.json")" \
	"Read from this machine: --machine was given." "JSON: machine_read.why says --machine was given"
sqlite3 "$WORK/here.db" "INSERT INTO boots (boot_id, first_seen_ns) VALUES ('$(cat /proc/sys/kernel/random/boot_id)', 1)"
is "$(away)" "Here Computers" "a database holding this machine's running boot: its identity without --machine"
both running_boot
"$CTL" --config /dev/null --db "$WORK/here.db" --sysfs-root "$WORK/sys-here" report -o "$WORK/here.html"
grep -q 'id="machine"><h2>Machine</h2><p class="muted">Read from this machine: the database records its running boot' "$WORK/here.html"
ok $? "HTML: says why the identity was read"
! grep -q 'this machine was not read' "$WORK/here.html"
ok $? "HTML: and the DIMMs' SMBIOS devices are looked up on it too"

# The whole machine's report attaches the newest records (at most 1000) as errors --json lists
# them, folded periods as one line each, in the window too; the HTML says how many and that
# --part attaches all of a part's.
newest() { $PY -c 'import json, sys
d = json.load(open(sys.argv[1])); e = [json.loads(l) for l in open(sys.argv[2])]
print(d["records_limit"], d["records"] == e, len(e), sum(r.get("kind") == "folded" for r in e))' "$@"; }
ctl errors --json --limit 1000 > "$WORK/newest.jsonl"
is "$(newest "$WORK/r.json" "$WORK/newest.jsonl")" "1000 True 343 4" "the whole machine's bundle attaches errors --json --limit 1000's records"
ctl errors --json --limit 1000 --since 2026-01-01T00:00:00Z --until 2026-01-01T00:10:00Z > "$WORK/newest-w.jsonl"
is "$(newest "$WORK/rw.json" "$WORK/newest-w.jsonl")" "1000 True 140 4" "the window's bundle attaches the window's newest records"
is "$($PY -c 'import json,sys; print(json.load(sys.stdin)["records_limit"])' < "$WORK/p.json")" None \
	"--part: no limit on the records attached"
grep -q '<section id="records"><h2>Records</h2>.*The newest 343 records.*--part' <(tr -d '\n' < "$WORK/r.html")
ok $? "HTML: the whole machine's records attached, and how many"

# Several boots, the imported one among them; the decisions, taken and refused.
is "$($PY -c 'import json,sys; print(" ".join(b["boot_id"] for b in json.load(sys.stdin)["boots"][:2]))' < "$WORK/r.json")" \
	"imported:rasdaemon test-boot" "boots in crashes' order, the imported one first (never seen start)"
is "$($PY -c 'import json,sys; print(" ".join(a["result"] for a in json.load(sys.stdin)["actions"]))' < "$WORK/r.json")" \
	"done dry-run" "actions: the offline done and the dry run, in time order"
is "$($PY -c 'import json,sys; print(sum(1 for a in json.load(sys.stdin)["actions"]))' < "$WORK/p.json")" 1 \
	"--part DIMM_A1: only the decision on its record"
grep -q 'id="actions".*Taken.*0x7e5a1000.*Refused or not done.*0x7e5a2000' <(tr -d '\n' < "$WORK/r.html"); ok $? "HTML: the done decision under Taken, the dry run under Refused"
# A threshold only counted (action account, result done) left the machine as it was (actions(8)).
cp "$DB" "$WORK/account.db"
sqlite3 "$WORK/account.db" "INSERT INTO actions (boot, wall_ns, kind, subject, count, threshold, action, target, result,
 errno, synthetic, event_table, event_id) VALUES (1, 1767226300000000000, 'row', 'mc0 1:0:-1 rank 0 row 0x2b4c', 20, '20/1d',
 'account', '', 'done', 0, 0, 'mc_event', (SELECT min(id) FROM mc_event WHERE label = 'DIMM_A1' AND boot = 1))"
"$CTL" --config /dev/null --db "$WORK/account.db" report -o "$WORK/account.html"
grep -q 'id="actions".*Taken</h3><p>1 decision .*0x7e5a1000.*Refused or not done</h3><p>2 decisions.*0x2b4c' <(tr -d '\n' < "$WORK/account.html")
ok $? "HTML: a decision only counted (account, done) is not among those taken"
# The bundle says which decisions the page lists as taken (taken) and on which part's timeline
# each is marked (part_index), the account one among those not taken.
"$CTL" --config /dev/null --db "$WORK/account.db" report --json > "$WORK/account.json"
tap < <($PY "$top_srcdir/tests/report/check-html-json.py" "$WORK/account.json" "$WORK/account.html" "an account decision" |
	grep action)
is "$($PY -c 'import json,sys; print(" ".join("%s:%s" % (a["action"], a["taken"]) for a in json.load(sys.stdin)["actions"]))' < "$WORK/account.json")" \
	"soft:True soft:False account:False" "JSON: taken is true for the offline done only, not for the dry run or the account"
# One of a thing is said as one: "1 decision", "1 crash", "1 part".
grep -q 'Taken</h3><p>1 decision changed the machine.*Refused or not done</h3><p>1 decision changed nothing.*<p>1 crash of an earlier boot\.</p>' <(tr -d '\n' < "$WORK/r.html")
ok $? "HTML: a single decision and crash said in the singular"
grep -q '<p>1 part, [0-9]* records in all' <(tr -d '\n' < "$WORK/p2.html")
ok $? "HTML: a single part said in the singular"
grep -q '<td>stats</td>.*<td>the kernel&#39;s drop counters: its ring buffer was full</td>.*<td>storage</td>.*<td>a stop of rasd could not store them</td>' "$WORK/r.html"
ok $? "HTML: what was lost says why, origin by origin"
grep -q '<svg class="timeline"' "$WORK/r.html"; ok $? "HTML: inline SVG timelines"
# Printed, no tooltip shows a count: the tallest column's counts stand beside each part's name,
# and the section says how long a column is and that heights are logarithmic.
grep -q 'mc0, layers 1:0 (DIMM_A1)</b> <span class="muted">mc_event</span> <span class="peak">tallest column: 1187 corrected, 13 uncorrected</span>' "$WORK/r.html"
ok $? "HTML: each timeline says its tallest column's counts"
grep -q '<p id="columns">Each column spans [0-9]* days; bar heights grow with the logarithm of the count' "$WORK/r.html"
ok $? "HTML: the timelines' column span and scale are said"
grep -qF 'DIMM_&lt;script&gt;alert(1)&lt;/script&gt;&amp;&quot;?&#39;x' "$WORK/r.html"
ok $? "HTML: a hostile label is text (its control character was made '?' when decoded)"
! grep -Eqi '<script|<link|<img|@import|url\(' "$WORK/r.html"; ok $? "HTML: no script, no linked or fetched resource"
is "$(grep -o 'https\?://[^"]*' "$WORK/r.html" | sort -u | tr '\n' ' ')" "http://www.w3.org/2000/svg " "HTML: the only URL is SVG's namespace"

if $PY -c 'import jsonschema' 2>/dev/null; then
	for f in r p rw; do
		$PY -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
			"$top_srcdir/doc/schema/report.schema.json" "$WORK/$f.json"
		ok $? "$f.json is valid against doc/schema/report.schema.json"
	done
else
	echo "# SKIP schema validation: no python3-jsonschema"
fi

# --redact: a fake sysfs with DMI serials and an SMBIOS table of three DIMMs.
make_fake_dmi "$WORK/sys"
for fmt in json html; do
	out=$WORK/red.$fmt
	"$CTL" --config /dev/null --db "$DB" --sysfs-root "$WORK/sys" report --machine --redact --part DIMM_A1 \
		$([ $fmt = json ] && echo --json) -o "$out"
	is $? 0 "report --redact --part DIMM_A1 ($fmt) exits 0"
	for secret in SYSSERIAL-4711 BOARDSER-0815 CHASSIS-77Q DIMMSER-B0-1234 DIMMSER-B1-5678 \
		0x7e5a2000 0xdead4b1d000; do
		! grep -q -- "$secret" "$out"; ok $? "$fmt: $secret is not in the redacted report"
	done
	grep -q DIMMSER-A1-9999 "$out"; ok $? "$fmt: the failing DIMM's serial stays"
	grep -q 0x7e5a1000 "$out"; ok $? "$fmt: the part's own address stays"
	host=$(uname -n)
	! grep -qwF -- "$host" "$out"; ok $? "$fmt: the host name ($host) is not in the redacted report"
	grep -q 'redacted serial' "$out"; ok $? "$fmt: says where a serial was taken out"
done
is "$($PY -c 'import json,sys; print(" ".join("%s:%d" % (r["what"], r["count"] > 0) for r in json.load(sys.stdin)["redacted"]))' < "$WORK/red.json")" \
	"host name:1 serial:1 address:1" "--redact says what it took out, by kind"
# The kernel prints a machine check's address as bare hex ("ADDR %llx"): a crash's log with
# another part's address so, and the failing part's own (its records' 0x7e5a1000) so too.
cp "$DB" "$WORK/addr.db"
sqlite3 "$WORK/addr.db" "UPDATE crashes SET hw_lines = hw_lines || char(10) ||
 'mce: [Hardware Error]: TSC 0 ADDR 3c0ffee1000 MISC d012000100000086' || char(10) ||
 'mce: [Hardware Error]: TSC 0 ADDR 7e5a1000 MISC 86'"
for fmt in json html; do
	"$CTL" --config /dev/null --db "$WORK/addr.db" report --redact --part DIMM_A1 \
		$([ $fmt = json ] && echo --json) -o "$WORK/addr.$fmt"
	! grep -q 3c0ffee1000 "$WORK/addr.$fmt"; ok $? "$fmt: an out-of-part address printed as the kernel prints MCE's ADDR is redacted"
	grep -q 'ADDR 7e5a1000' "$WORK/addr.$fmt"; ok $? "$fmt: the part's own address so printed stays"
done
# Host names know no case: a log line naming the host in capitals (a BMC's, a syslog's).
host=$(uname -n)
sqlite3 "$WORK/addr.db" "UPDATE crashes SET hw_lines = hw_lines || char(10) || '${host^^} kernel: Machine check'"
"$CTL" --config /dev/null --db "$WORK/addr.db" report --redact -o "$WORK/host.html"
! grep -qiwF -- "$host" "$WORK/host.html"; ok $? "the host name in capitals ($host) is redacted too"
# A record's own text naming another DIMM's serial and the system's: taken out, with
# --machine or without it (the serials to look for are read from the machine either way).
cp "$DB" "$WORK/text.db"
sqlite3 "$WORK/text.db" "UPDATE mc_event SET driver_detail = 'swapped with DIMMSER-B0-1234 of SYSSERIAL-4711'
 WHERE id = (SELECT max(id) FROM mc_event WHERE label = 'DIMM_A1')"
for m in --machine ""; do
	"$CTL" --config /dev/null --db "$WORK/text.db" --sysfs-root "$WORK/sys" report $m --redact --part DIMM_A1 --json \
		-o "$WORK/text.json"
	grep -q 'swapped with \[redacted serial\] of \[redacted serial\]' "$WORK/text.json"
	ok $? "a serial in the part's own record text is taken out (${m:-without --machine})"
done
# Without --redact the same report holds them all (the search above can find them).
"$CTL" --config /dev/null --db "$DB" --sysfs-root "$WORK/sys" report --machine --part DIMM_A1 --json > "$WORK/plain.json"
for secret in SYSSERIAL-4711 DIMMSER-B0-1234 DIMMSER-A1-9999 0xdead4b1d000 "\"$(uname -n)\""; do
	grep -q -- "$secret" "$WORK/plain.json"; ok $? "without --redact the report holds $secret"
done

# The part rows' SMBIOS devices (health's, by the verdicts' labels) carry serials too: on a
# kernel with firmware/dmi/entries but no tables/DMI (before 4.2) only they name them, and
# --redact takes them out as well, but the failing part's.
cp -r "$WORK/sys" "$WORK/sys-entries"; rm -r "$WORK/sys-entries/firmware/dmi/tables"
rep() { "$CTL" --config /dev/null --db "$DB" --sysfs-root "$WORK/sys-entries" report --machine "$@"; }
rep --json > "$WORK/loc.json"
is "$($PY -c 'import json,sys; print(" ".join("%s=%s" % (p["verdict"]["label"], p["smbios"] and p["smbios"].get("serial")) for p in json.load(sys.stdin)["parts"] if p["kind"] == "dimm" and p["verdict"]))' < "$WORK/loc.json")" \
	"DIMM_A1=DIMMSER-A1-9999 DIMM_B0=DIMMSER-B0-1234 DIMM_A1=DIMMSER-A1-9999" \
	"without --redact the judged part rows name their devices' serials (entries only)"
for fmt in json html; do
	rep --redact $([ $fmt = json ] && echo --json) -o "$WORK/loc-red.$fmt"
	! grep -q 'DIMMSER-' "$WORK/loc-red.$fmt"; ok $? "$fmt: --redact of the whole machine: no DIMM serial the part rows named"
	rep --redact --part DIMM_A1 $([ $fmt = json ] && echo --json) -o "$WORK/loc-part.$fmt"
	grep -q 'DIMMSER-A1-9999' "$WORK/loc-part.$fmt" && ! grep -q 'DIMMSER-B' "$WORK/loc-part.$fmt"
	ok $? "$fmt: --redact --part DIMM_A1 keeps the failing DIMM's serial, and no other"
done
if $PY -c 'import jsonschema' 2>/dev/null; then
	$PY -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$top_srcdir/doc/schema/report.schema.json" "$WORK/loc.json"
	ok $? "the bundle with known SMBIOS devices is valid against doc/schema/report.schema.json"
	# The schema holds the records attached to their shape: one without its severity, or a
	# folded period without its count, is refused.
	for cut in 'r = next(x for x in d["records"] if "kind" not in x); del r["severity"]' \
		'r = next(x for x in d["records"] if x.get("kind") == "folded"); del r["records"]'; do
		$PY -c 'import json, sys, jsonschema
d = json.load(open(sys.argv[2]))
exec(sys.argv[3])
try:
    jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(d)
except jsonschema.ValidationError:
    sys.exit(0)
sys.exit(1)' "$top_srcdir/doc/schema/report.schema.json" "$WORK/p.json" "$cut"
		ok $? "the schema refuses an attached record cut short ($cut)"
	done
fi

ctl report --part no-such-part > /dev/null 2>&1; is $? 1 "--part naming no part exits 1"
# A database with nothing in it: a report that says so.
"$top_builddir/tests/make-db" "$WORK/empty.db"
"$CTL" --config /dev/null --db "$WORK/empty.db" report --json > "$WORK/e.json"; is $? 0 "an empty database's report exits 0"
is "$($PY -c 'import json,sys; d = json.load(sys.stdin); print(len(d["parts"]), d["total"], d["timeline"]["from"])' < "$WORK/e.json")" \
	"0 0 None" "an empty database: no parts, no records, no timeline"
"$CTL" --config /dev/null --db "$WORK/empty.db" report -o "$WORK/e.html"
grep -q '<section id="timelines"><h2>Timelines</h2>.*<p class="muted" id="no-timeline">No records in the window: no timeline to draw.</p></section>' "$WORK/e.html"
ok $? "an empty database's HTML says there is no timeline, not an empty section"
echo "1..$n"
[ $failed = 0 ]
