#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Checks an export of storm-writer's records (record n at second T0 + n):
# every record delivered once, as a row or as a second of a fold line.
# Usage: check-storm.py OUTPUT COUNT
# Prints: records-as-rows seconds-in-folds missing twice extra invalid fold-lines
import collections, json, sys

T0 = 1767225600
seen = collections.Counter()
rows = folded = invalid = folds = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    for line in f:
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError:
            invalid += 1
            continue
        if rec.get("type") == "mc_event":
            rows += 1
            seen[int(rec["wall_ns"]) // 1000000000 - T0] += 1
        elif rec.get("type") == "fold" and rec.get("event_type") == "mc_event":
            folds += 1
            if len(rec["seconds"]) != rec["records"]:
                invalid += 1
            for s in rec["seconds"]:
                folded += 1
                seen[s - T0] += 1
want = set(range(int(sys.argv[2])))
print(rows, folded, len(want - set(seen)), sum(c - 1 for c in seen.values() if c > 1),
      len(set(seen) - want), invalid, folds)
