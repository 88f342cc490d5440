# SPDX-License-Identifier: MIT
# The key facts of a scenario's report (tests/report/scenarios/NAME.expect)
# against its bundle and its HTML: TAP lines "ok - ..." / "not ok - ...".
#   check-scenario.py NAME.expect REPORT.json REPORT.html
import json
import sys

want = json.load(open(sys.argv[1]))
got = json.load(open(sys.argv[2]))
html = open(sys.argv[3]).read()
name = sys.argv[1].rsplit("/", 1)[-1].rsplit(".", 1)[0]


def say(ok, what):
    print(("ok" if ok else "not ok") + " - %s: %s" % (name, what))


say(got["total"] == want["total"], "%d records in all (got %d)" % (want["total"], got["total"]))
parts = {p["name"]: p for p in got["parts"]}
for w in want["parts"]:
    p = parts.get(w["name"])
    if not p:
        say(False, "part %s (not in the report: %s)" % (w["name"], sorted(parts)))
        continue
    say((p["corrected"], p["uncorrected"]) == (w["corrected"], w["uncorrected"]),
        "%s: %d corrected, %d uncorrected (got %d, %d)" % (w["name"], w["corrected"], w["uncorrected"],
                                                          p["corrected"], p["uncorrected"]))
    v = p["verdict"]
    if w["verdict"] is None:
        say(v is None, "%s: not judged (got %s)" % (w["name"], v and v["verdict"]))
        continue
    ok = v is not None and v["verdict"] == w["verdict"] and v["mode"] == w.get("mode")
    ok = ok and w.get("evidence", "") in v["evidence"]
    say(ok, "%s: %s, %s, evidence '%s' (got %s)" % (w["name"], w["verdict"], w.get("mode"),
                                                   w.get("evidence", ""), v and (v["verdict"], v["mode"], v["evidence"])))
say(len(got["crashes"]) == len(want["crashes"]), "%d crashes (got %d)" % (len(want["crashes"]), len(got["crashes"])))
for w, c in zip(want["crashes"], got["crashes"]):
    say(c["cause"] == w["cause"] and w["summary"] in c["summary"], "crash: %s, '%s'" % (w["cause"], w["summary"]))
for b in want.get("boots", []):
    say(b in [x["boot_id"] for x in got["boots"]], "boot %s" % b)
m = got["dimm_map"]
slots = {"%d %d:%d:%d" % (s["mc"], *s["layers"]): s["state"] for s in m["slots"]}
say(m["source"] == want["map"]["source"] and slots == want["map"]["slots"],
    "DIMM map from %s, slots %s (got %s, %s)" % (want["map"]["source"], want["map"]["slots"], m["source"], slots))
for s in want["html"]:
    say(s in html, "the HTML says '%s'" % s)
