#!/bin/bash
# SPDX-License-Identifier: MIT
# The report's verdicts are health's (issues 34 and 38): a fault stream with a
# known truth (tests/diag/fault-tree, skx driver_detail) replayed by rasd --once;
# report --json holds every part health --json lists, with the same verdict,
# rule, reasons, evidence, faults and history, and its parts' counts are still
# summary's; each part row carries its verdict, fault mode and evidence.
# --part narrows the verdicts to the part's.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
tap() { while IFS= read -r l; do case $l in "ok - "*) ok 0 "${l#ok - }";; "not ok - "*) ok 1 "${l#not ok - }";; *) echo "# $l";; esac; done; }
WORK=$(mktemp -d /tmp/ras-fdr-report-verdicts-XXXXXX)
tree=""
trap 'rm -rf "$WORK" $tree' EXIT
DB=$WORK/ras.db
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }
printf 'sysfs_root = %s\n' "$WORK/sys" > "$WORK/rasd.conf"
tree=$("$top_builddir/tests/diag/fault-tree" skx 0 600) || { echo "Bail out! no fault tree"; exit 99; }
"$top_builddir/rasd/rasd" --config "$WORK/rasd.conf" --tracing-dir "$tree" --db "$DB" \
	--lock-dir "$WORK/lock" --once > "$WORK/rasd.log" 2>&1
ok $? "rasd --once replays the fault stream"
ctl health --json > "$WORK/h.json"
ctl report --json > "$WORK/r.json"; ok $? "report --json exits 0"
ctl summary --json > "$WORK/s.json"
ctl crashes --json > "$WORK/c.jsonl" 2>/dev/null
tap < <($PY "$top_srcdir/tests/report/check-report.py" "$WORK/r.json" "$WORK/s.json" "$WORK/c.jsonl")
tap < <($PY - "$WORK/h.json" "$WORK/r.json" <<'PYEOF'
import json, sys
h = json.load(open(sys.argv[1]))["parts"]
r = json.load(open(sys.argv[2]))["verdicts"]
def key(p, faults):
    return (p["kind"], p["part"], p["label"], p["verdict"], p["rule"], p["why"], p["advice"], p["since"],
            p["records"], p["corrected"], p["uncorrected"], p["fatal"], p["mode"], p["permanent"],
            tuple(f["description"] for f in p["faults"]),
            tuple((c["verdict"], c["rule"]) for c in p["history"]))
print(("ok" if [key(p, 1) for p in h] == [key(p, 1) for p in r] else "not ok") +
      " - every part health lists, in its order, with its verdict, rule, reasons, advice, evidence, faults and history (%d parts, %d to replace)"
      % (len(h), sum(p["verdict"] == "replace" for p in h)))
print(("ok" if any(p["verdict"] == "replace" for p in r) else "not ok") + " - the stream's failing parts are to be replaced")
PYEOF
)
# Parts and verdicts joined: each part row carries health's verdict of the DIMM it names.
tap < <($PY - "$WORK/h.json" "$WORK/r.json" <<'PYEOF'
import json, sys
h = {p["part"]: p for p in json.load(open(sys.argv[1]))["parts"]}
parts = json.load(open(sys.argv[2]))["parts"]
joined = [p for p in parts if p["verdict"]]
print(("ok" if len(joined) == len(parts) == len(h) else "not ok") +
      " - every part row is joined to a verdict (%d rows, %d joined, %d judged)" % (len(parts), len(joined), len(h)))
bad = [p["name"] for p in joined if p["verdict"]["label"] not in p["name"] or
       (p["verdict"]["verdict"], p["verdict"]["mode"], p["verdict"]["evidence"], p["verdict"]["rule"]) !=
       (h[p["verdict"]["part"]]["verdict"], h[p["verdict"]["part"]]["mode"], h[p["verdict"]["part"]]["why"],
        h[p["verdict"]["part"]]["rule"])]
print(("ok" if not bad else "not ok") + " - each row's verdict, fault mode, evidence and rule are health's for the DIMM its location names " + repr(bad))
print(("ok" if len({p["verdict"]["part"] for p in joined}) == len(joined) else "not ok") + " - no two rows share a verdict")
PYEOF
)
ctl report -o "$WORK/r.html"
if $PY -c 'import jsonschema' 2>/dev/null; then
	$PY -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$top_srcdir/doc/schema/report.schema.json" "$WORK/r.json"
	ok $? "the bundle with joined verdicts is valid against doc/schema/report.schema.json"
fi
grep -q '<td class="verdict v-replace">replace</td><td>multi-rank</td><td>permanent multi-rank fault' "$WORK/r.html"
ok $? "HTML: the parts table has the multi-rank DIMM's verdict, fault mode and evidence on its row"
# The DIMM map: without a stored topology, the slots the records name; with
# one (stored here as rasd stores a snapshot: four controllers; the fourth holds
# only the failing data pin's DIMM, its five other slots are without errors),
# every slot, each in its verdict.
ctl report -o "$WORK/r.html"
grep -q 'holds no EDAC topology' "$WORK/r.html" && [ "$(grep -o '<g class="slot"' "$WORK/r.html" | wc -l)" = 19 ]
ok $? "DIMM map without a topology: says so, and draws the 19 slots the records name"
$PY -c 'import json,sys
c = json.load(sys.stdin)["dimm_map"]["controllers"]
sys.exit(0 if [(x["mc"], x["socket"]) for x in c] == [(0, 0), (1, 0), (2, 1), (3, 1)] else 1)' < "$WORK/r.json"
ok $? "DIMM map without a topology: each controller on the socket all its slots' labels name (CPU_SrcID#N)"
$PY - "$DB" <<'PYEOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO edac_snapshots (boot, taken_ns, digest) VALUES ((SELECT min(id) FROM boots), 1, 1)")
snap = db.execute("SELECT max(id) FROM edac_snapshots").fetchone()[0]
for mc in range(4):
    db.execute("INSERT INTO edac_mcs VALUES (?, ?, 'Skylake Socket#%d IMC#%d', 196608, 'channel 2 dimm 1')" % (mc // 2, mc % 2), (snap, mc))
    for ch in range(3):
        for d in range(2):
            db.execute("INSERT INTO edac_dimms VALUES (?, ?, ?, 0, ?, ?, -1, ?, ?, '', 32768, 'Registered-DDR4', 'x4', 'S4ECD4ED', -1, -1)",
                       (snap, mc, ch * 2 + d, ch, d, "channel %d dimm %d" % (ch, d),
                        "CPU_SrcID#%d_MC#%d_Chan#%d_DIMM#%d" % (mc // 2, mc % 2, ch, d)))
db.commit()
PYEOF
ctl report -o "$WORK/m.html"
ctl report --json > "$WORK/m.json"
tap < <($PY - "$WORK/m.html" "$WORK/h.json" <<'PYEOF'
import json, re, sys
html = open(sys.argv[1]).read()
h = {p["label"]: p["verdict"] for p in json.load(open(sys.argv[2]))["parts"]}
slots = re.findall(r'<g class="slot" data-state="([a-z]+)" data-layers="[^"]*"[^>]*>.*?<title>([^<]*)</title>', html)
print(("ok" if "EDAC topology the database holds" in html and len(slots) == 24 else "not ok") +
      " - DIMM map from the stored topology: 4 controllers x 3 channels x 2 slots drawn (%d)" % len(slots))
bad = [(l, s) for s, l in slots if s != h.get(l, "none")]
print(("ok" if not bad else "not ok") + " - each slot in health's verdict of its DIMM, the slots without errors in none " + repr(bad[:3]))
print(("ok" if all(w in html for w in ("REPLACE", "WATCH", ">ok<", "no errors")) else "not ok") +
      " - the verdict is written in each slot and the legend (readable printed in grey)")
# sockets x controllers: each socket's box holds the controllers its name says.
boxes = [(s, re.findall(r'<div class="mc"><b>mc([0-9]+)</b>', body))
         for s, body in re.findall(r'<div class="socket" data-socket="([^"]+)"><h3>(.*?)(?=<div class="socket"|</section>)', html, re.S)]
print(("ok" if boxes == [("0", ["0", "1"]), ("1", ["2", "3"])] else "not ok") +
      " - the map groups the controllers by the socket their names say: %r" % boxes)
PYEOF
)
$PY - "$WORK/m.json" "$top_srcdir/doc/schema/report.schema.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))["dimm_map"]
states = sorted(s["state"] for s in d["slots"])
ok = d["source"] == "edac" and len(d["controllers"]) == 4 and len(d["slots"]) == 24 and states.count("none") == 5
ok = ok and [l["name"] for l in d["controllers"][0]["layers"]] == ["channel", "dimm"]
ok = ok and [(c["mc"], c["socket"]) for c in d["controllers"]] == [(0, 0), (1, 0), (2, 1), (3, 1)]
sys.exit(0 if ok else 1)
PYEOF
ok $? "JSON: dimm_map from the stored topology (4 controllers of channel x dimm on sockets 0, 0, 1, 1; 24 slots, 5 without errors)"
if $PY -c 'import jsonschema' 2>/dev/null; then
	$PY -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$top_srcdir/doc/schema/report.schema.json" "$WORK/m.json"
	ok $? "the bundle with a DIMM map is valid against doc/schema/report.schema.json"
fi
# sb_edac's names (drivers/edac/sb_edac.c): a controller per home agent,
# "<family> SrcID#N_Ha#M", its slots "CPU_SrcID#N_Ha#M_Chan#C_DIMM#D"; a newer
# snapshot of a Broadwell machine with two sockets of two home agents each.
$PY - "$DB" <<'PYEOF'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("INSERT INTO edac_snapshots (boot, taken_ns, digest) VALUES ((SELECT min(id) FROM boots), 2, 2)")
snap = db.execute("SELECT max(id) FROM edac_snapshots").fetchone()[0]
for mc in range(4):
    db.execute("INSERT INTO edac_mcs VALUES (?, ?, 'Broadwell SrcID#%d_Ha#%d', 196608, 'channel 2 slot 1')" % (mc // 2, mc % 2), (snap, mc))
    for ch in range(3):
        for d in range(2):
            db.execute("INSERT INTO edac_dimms VALUES (?, ?, ?, 0, ?, ?, -1, ?, ?, '', 32768, 'Registered-DDR4', 'x4', 'S4ECD4ED', -1, -1)",
                       (snap, mc, ch * 2 + d, ch, d, "channel %d slot %d" % (ch, d),
                        "CPU_SrcID#%d_Ha#%d_Chan#%d_DIMM#%d" % (mc // 2, mc % 2, ch, d)))
db.commit()
PYEOF
ctl report --json > "$WORK/sb.json"
$PY -c 'import json,sys
c = json.load(sys.stdin)["dimm_map"]["controllers"]
sys.exit(0 if [(x["mc"], x["socket"]) for x in c] == [(0, 0), (1, 0), (2, 1), (3, 1)] else 1)' < "$WORK/sb.json"
ok $? "DIMM map of sb_edac's controllers (Broadwell SrcID#N_Ha#M): each on the socket its SrcID says"
label=$($PY -c 'import json,sys; print([p["label"] for p in json.load(sys.stdin)["verdicts"] if p["verdict"] == "replace" and p["label"]][0])' < "$WORK/r.json")
ctl report --json --part "$label" > "$WORK/p.json"; ok $? "report --part $label exits 0"
$PY -c 'import json,sys
v = json.load(sys.stdin)["verdicts"]
sys.exit(0 if v and all(sys.argv[1] in p["label"] or sys.argv[1] in p["part"] for p in v) else 1)' "$label" < "$WORK/p.json"
ok $? "--part $label: only its verdicts"
grep -q '<section id="verdicts">.*replace' <(tr -d '\n' < "$WORK/r.html"); ok $? "HTML: the verdicts section names a part to replace"
echo "1..$n"
[ $failed = 0 ]
