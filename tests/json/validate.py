#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Validates ras-fdr-ctl --json output against a JSON Schema (draft 2020-12).

Usage: validate.py SCHEMA FILE [FILE...]

FILE holds one JSON document, or JSON Lines (one value per line; "-" reads
standard input). Every value is validated against SCHEMA; the schemas beside
SCHEMA (every *.schema.json of its directory) are loaded by their $id, so
relative $refs between them resolve without a network. Beyond the schema,
every line must parse on its own (a newline in data would split it), hold no
raw control character, and each top-level object must begin with "version".
Prints one line per problem and exits 1 when there is any, 0 otherwise.
Runs with python3-jsonschema 4.10 (Debian 12) and later.
"""
import json
import os
import sys

import jsonschema


def load_schemas(schema_path):
    """Every schema of the directory by its $id, and the one asked for."""
    store = {}
    folder = os.path.dirname(os.path.abspath(schema_path))
    for name in sorted(os.listdir(folder)):
        if name.endswith(".schema.json"):
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                doc = json.load(f)
            store[doc.get("$id", name)] = doc
    with open(schema_path, encoding="utf-8") as f:
        main = json.load(f)
    return main, store


def make_validator(main, store):
    cls = jsonschema.Draft202012Validator
    cls.check_schema(main)
    try:
        from referencing import Registry, Resource  # jsonschema >= 4.18

        registry = Registry().with_resources(
            (uri, Resource.from_contents(doc)) for uri, doc in store.items())
        return cls(main, registry=registry)
    except ImportError:
        resolver = jsonschema.RefResolver.from_schema(main, store=store)
        return cls(main, resolver=resolver)


def first_key(pairs):
    """object_pairs_hook: keeps the key order to check where "version" stands."""
    obj = dict(pairs)
    if pairs:
        obj = KeyedDict(obj)
        obj.first = pairs[0][0]
    return obj


class KeyedDict(dict):
    first = None


def values_of(text, name):
    """(where, value) for the whole text as one document, else for each line."""
    stripped = text.strip()
    try:
        return [(name, json.loads(stripped, object_pairs_hook=first_key))]
    except ValueError:
        pass
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        if line.strip():
            out.append(("%s:%d" % (name, n), json.loads(line, object_pairs_hook=first_key)))
    return out


def check_text(text, name):
    problems = []
    for n, line in enumerate(text.split("\n"), 1):
        bad = [c for c in line if ord(c) < 0x20 or 0x7f <= ord(c) <= 0x9f]
        if bad:
            problems.append("%s:%d: raw control character %r" % (name, n, bad[0]))
    return problems


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    main_schema, store = load_schemas(argv[1])
    validator = make_validator(main_schema, store)
    problems = []
    count = 0
    for path in argv[2:]:
        if path == "-":
            raw, name = sys.stdin.buffer.read(), "<stdin>"
        else:
            with open(path, "rb") as f:
                raw, name = f.read(), path
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            problems.append("%s: not UTF-8: %s" % (name, e))
            text = raw.decode("utf-8", errors="replace")
        problems += check_text(text, name)
        try:
            values = values_of(text, name)
        except ValueError as e:
            problems.append("%s: not JSON or JSON Lines: %s" % (name, e))
            continue
        for where, value in values:
            count += 1
            if isinstance(value, KeyedDict) and value.first != "version":
                problems.append("%s: the first key is %r, not \"version\"" % (where, value.first))
            for err in sorted(validator.iter_errors(value), key=lambda e: list(e.path)):
                path_text = "/".join(str(p) for p in err.absolute_path)
                problems.append("%s: %s: %s" % (where, path_text or "(top)", err.message[:300]))
    for p in problems:
        print(p)
    if not count and not problems:
        print("%s: no JSON value" % " ".join(argv[2:]))
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
