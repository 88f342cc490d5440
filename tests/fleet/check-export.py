#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Compares export output with the records the database holds.
# Usage: check-export.py OUTPUT EXPECTED (EXPECTED: one "type id" per line).
# Prints: lines invalid unique duplicates missing extra maxrepeat
import collections, json, sys

seen = collections.Counter()
lines = invalid = 0
with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
    for line in f:
        if not line.strip():
            continue
        lines += 1
        try:
            rec = json.loads(line)
            seen[(rec["type"], int(rec["id"]))] += 1
        except (ValueError, KeyError):
            invalid += 1
with open(sys.argv[2]) as f:
    want = {(t, int(i)) for t, i in (l.split() for l in f if l.strip())}
dups = sum(c - 1 for c in seen.values())
print(lines, invalid, len(seen), dups, len(want - set(seen)), len(set(seen) - want),
      max(seen.values(), default=0))
