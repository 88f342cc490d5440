#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Checks a report bundle against summary --json and crashes --json of the same
# database: TAP lines on stdout ("ok"/"not ok" and a description), numbered by
# the calling shell script.
#   check-report.py REPORT.json SUMMARY.json CRASHES.jsonl [PART-REPORT.json]
import json
import sys

rep = json.load(open(sys.argv[1]))
summ = json.load(open(sys.argv[2]))
crashes = [json.loads(l) for l in open(sys.argv[3]) if l.strip()]
part = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else None


def check(cond, what):
    print(("ok" if cond else "not ok") + " - " + what)


# Summary's lines summed per (type, location): a part each, with its classes.
want = {}
for c in summ["counts"]:
    k = (c["type"], c["location"])
    w = want.setdefault(k, {"corrected": 0, "uncorrected": 0, "other": 0})
    cls = "corrected" if c["severity"] == "corrected" else \
        "other" if c["severity"] in ("info", "unknown") else "uncorrected"
    w[cls] += c["count"]
got = {(p["type"], p["name"]): {k: p[k] for k in ("corrected", "uncorrected", "other")}
       for p in rep["parts"]}
check(got == want, "every part's corrected/uncorrected/other counts are summary's (%d parts)" % len(want))
check(rep["total"] == summ["total"], "total %d is summary's %d" % (rep["total"], summ["total"]))
check(all(p["records"] == p["corrected"] + p["uncorrected"] + p["other"] for p in rep["parts"]),
      "each part's records are its classes' sum")
bad = [p["name"] for p in rep["parts"]
       if sum(p["timeline_corrected"]) != p["corrected"] or sum(p["timeline_uncorrected"]) != p["uncorrected"]
       or sum(p["timeline_other"]) != p["other"]]
check(not bad, "each timeline's columns add up to its part's counts" + (": " + ", ".join(bad) if bad else ""))
check(rep["lost"]["records"] == summ["lost"] and rep["lost"]["unknown_gaps"] == summ["lost_unknown_gaps"],
      "lost records and gaps are summary's")
check(sorted((o["origin"], o["records"], o["gaps"]) for o in summ["lost_by_origin"]) ==
      sorted((o["origin"], o["records"], o["unknown_gaps"]) for o in rep["lost"]["by_origin"]),
      "losses by origin are summary's")
check([c["summary"] for c in rep["crashes"]] == [c["summary"] for c in crashes],
      "crashes in crashes' order with its sentences (%d)" % len(crashes))
if part is not None:
    p = part["parts"]
    recs = part["records"]
    n = sum(r.get("records", 1) if r.get("kind") == "folded" else 1 for r in recs)
    check(n == sum(x["records"] for x in p),
          "--part: the attached records (folded periods counted whole) are the part's %d" % n)
    check(any(r.get("kind") == "folded" for r in recs), "--part: folded storm periods are attached")
    check(all(r["location"] in [x["name"] for x in p] or r.get("kind") == "folded" for r in recs),
          "--part: every attached row is of the part")
    check(part["total"] == sum(x["records"] for x in p), "--part: the total is the part's")
