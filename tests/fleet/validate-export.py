#!/usr/bin/python3
# SPDX-License-Identifier: MIT
# Validates every line of ras-fdr-ctl export output against the JSON Schema of
# its kind (doc/schema/export-<kind>.schema.json, draft 2020-12), and checks
# that each line is one JSON object beginning {"version":N,"type":"T","id":N.
# Usage: validate-export.py SCHEMA_DIR FILE... ; prints each problem, exit 1 if any.
import json, os, re, sys
import jsonschema

KINDS = {"fold": "fold", "lost": "lost", "action": "action", "action_repeat": "action-repeat"}
folder = sys.argv[1]
validators = {}
for kind in list(KINDS.values()) + ["record"]:
    with open(os.path.join(folder, "export-%s.schema.json" % kind), encoding="utf-8") as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validators[kind] = jsonschema.Draft202012Validator(schema)
HEAD = re.compile(r'^\{"version":[0-9]+,"type":"[a-z0-9_]+","id":[0-9]+[,}]')
problems = lines = 0
for path in sys.argv[2:]:
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            if not line.strip():
                continue
            lines += 1
            try:
                obj = json.loads(line)
            except ValueError as e:
                print("%s:%d: not JSON: %s" % (path, no, e))
                problems += 1
                continue
            if not HEAD.match(line):
                print("%s:%d: does not begin with version, type and id" % (path, no))
                problems += 1
            kind = KINDS.get(obj.get("type"), "record")
            for err in validators[kind].iter_errors(obj):
                print("%s:%d: %s: %s" % (path, no, "/".join(map(str, err.path)), err.message))
                problems += 1
print("# %d lines, %d problems" % (lines, problems), file=sys.stderr)
sys.exit(1 if problems else 0)
