#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Text from records and databases is data, never control; JSON with fixed types.

A database of hostile texts and extreme registers (tests/json/hostile-db,
then SQL for what only SQL makes: a NUL inside a text, a folded period,
column names that are JSON and escape sequences) is read by every command of
ras-fdr-ctl that prints data. Every --json output is validated against its
schema in doc/schema/ (validate.py); every output, text or JSON, standard
output and error alike, must be UTF-8 holding no control character but
newline and tab, no C1 control and no bidirectional override. A rasdaemon
database with hostile column names, a view, a virtual table, a huge row, a
FIFO and a text file is imported. Prints TAP.
"""
import codecs
import hashlib
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import validate  # noqa: E402

SRC = os.path.abspath(os.environ.get("top_srcdir", os.path.join(HERE, "..", "..")))
BUILD = os.path.abspath(os.environ.get("top_builddir", "."))
# RAS_FDR_CTL: another build's ras-fdr-ctl to hold to the same rules (to see a test fail on it).
CTL = os.environ.get("RAS_FDR_CTL", os.path.join(BUILD, "ctl", "ras-fdr-ctl"))
SCHEMAS = os.path.join(SRC, "doc", "schema")

HOSTILE = (b"\x1b]0;pwned\x07\x1b[2J\x9b" b"31m\xc2\x9b" b"1m \"q\" \\b\xe2\x80\xae\xff\n{\"forged\":1}")
COL_NAMES = ['x","forged":"1', "esc\x1b[2J\x07", "nl\nname", "bidi\u202ename"]

count = 0
failed = 0


def ok(cond, what):
    global count, failed
    count += 1
    if not cond:
        failed += 1
    print("%sok %d - %s" % ("" if cond else "not ", count, what.replace("\n", "\\n")))
    sys.stdout.flush()
    return cond


def diag(text):
    for line in str(text).splitlines()[:20]:
        print("# " + line)


def byteval(err):
    """The JSON encoder's rule for an invalid byte: its value as a code point."""
    return "".join(chr(b) for b in err.object[err.start:err.end]), err.end


codecs.register_error("byteval", byteval)


def json_text(raw):
    return raw.decode("utf-8", errors="byteval")


BAD_CHARS = set(range(0x00, 0x20)) - {0x0a, 0x09} | set(range(0x7f, 0xa0)) | \
    {0x2028, 0x2029} | set(range(0x202a, 0x202f)) | set(range(0x2066, 0x206a))


def control_problem(raw):
    """None when raw is UTF-8 holding nothing that acts on a terminal, else what it holds."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return "not UTF-8 at byte %d: %r" % (e.start, raw[max(0, e.start - 20):e.start + 20])
    for i, c in enumerate(text):
        if ord(c) in BAD_CHARS:
            return "U+%04X at %d: %r" % (ord(c), i, text[max(0, i - 30):i + 30])
    return None


def ctl(args, db=None, config="/dev/null", extra=(), timeout=60, stdin=None):
    argv = [CTL, "--config", config]
    if db:
        argv += ["--db", db]
    argv += list(extra) + list(args)
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                       input=stdin)
    return p.returncode, p.stdout, p.stderr


def check_output(name, rc, out, err, schema=None, want_rc=(0,)):
    ok(rc in want_rc, "%s: exit %d" % (name, rc)) or diag(err.decode("utf-8", "replace"))
    for what, raw in (("stdout", out), ("stderr", err)):
        problem = control_problem(raw)
        ok(problem is None, "%s: %s shows no control character%s" %
           (name, what, "" if problem is None else ": " + problem))
    if schema is None:
        return None
    path = os.path.join(WORK, "out.json")
    with open(path, "wb") as f:
        f.write(out)
    main, store = validate.load_schemas(os.path.join(SCHEMAS, schema))
    validator = validate.make_validator(main, store)
    problems, values = [], []
    for n, line in enumerate(out.split(b"\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line.decode("utf-8"), object_pairs_hook=validate.first_key)
        except ValueError as e:
            problems.append("line %d does not parse on its own: %s" % (n, e))
            continue
        values.append(value)
        if getattr(value, "first", "version") != "version":
            problems.append("line %d begins with %r" % (n, value.first))
        for e in validator.iter_errors(value):
            problems.append("line %d: %s: %s" % (n, "/".join(map(str, e.absolute_path)),
                                                  e.message[:200]))
    ok(values and not problems, "%s: %d JSON value(s) valid against %s" % (name, len(values), schema))
    for p in problems[:10]:
        diag(p)
    return values


def build_db(path):
    rc = subprocess.run([os.path.join(BUILD, "tests", "json", "hostile-db"), path]).returncode
    if rc:
        print("Bail out! hostile-db failed")
        sys.exit(1)
    db = sqlite3.connect(path)
    hostile = json_text(HOSTILE)
    # A NUL inside a text; what SQLite keeps, the encoder keeps.
    db.execute("UPDATE mc_event SET msg = ? WHERE id = 1", ("nul\x00inside \x1b[2J",))
    # A text that is not UTF-8, and a severity from nowhere in the roll-up summary reads.
    db.execute("UPDATE mc_event SET driver_detail = CAST(x'ff41fe0a1b5b324a' AS TEXT) WHERE id = 2")
    db.execute("UPDATE rollup_hourly SET severity = ? WHERE tbl = 'aer_event'", (hostile,))
    # Columns nothing asked for, named to break JSON and terminals.
    for name in COL_NAMES:
        db.execute('ALTER TABLE mc_event ADD COLUMN "%s" TEXT' % name.replace('"', '""'))
    # A folded storm period of every kind of hostile text and register.
    details = b"".join(v.to_bytes(8, "little") for v in (2**64 - 1, 2**63, 0xfffffffffffff000))
    db.execute("INSERT INTO folds (tbl, subject, hour, boot, source, synthetic, severity, location,"
               " dec, dims, fresh, records, errors, first_ns, last_ns, addr_lo, addr_hi,"
               " detail_name, details, details_more, times, last_s, ekey)"
               " VALUES ('mc_event', ?, 472222, 1, ?, 0, ?, ?, 1, '', 0, 300, 301,"
               " 1700000000000000000, 1700000100000000000, -4096, -1, ?, ?, 1, x'80', 1700000100, '')",
               (hostile, hostile, "corrected\x1b[2J", hostile, "syndrome\x07", details))
    db.commit()
    db.close()


def rows_in(path):
    db = sqlite3.connect(path)
    tables = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name || '_dec' IN"
        " (SELECT name FROM sqlite_master WHERE type = 'table')")]
    n = sum(db.execute('SELECT count(*) FROM "%s"' % t).fetchone()[0] for t in tables)
    n += db.execute("SELECT count(*) FROM folds").fetchone()[0]
    db.close()
    return n


def fake_trees():
    """A sysfs with one EDAC controller of hostile labels, a tracing tree for boot-cmdline."""
    mc = os.path.join(WORK, "sys", "devices", "system", "edac", "mc", "mc0")
    os.makedirs(os.path.join(mc, "dimm0"))
    files = {"mc_name": b"IMC\x1b[2J\n", "size_mb": b"8192\n", "seconds_since_reset": b"10\n",
             "ce_count": b"0\n", "ue_count": b"0\n", "ce_noinfo_count": b"0\n",
             "ue_noinfo_count": b"0\n", "max_location": b"channel 0 slot 0\n",
             "dimm0/dimm_label": b"DIMM\x1b]0;x\x07\x9b\n", "dimm0/dimm_location": b"channel 0 slot 0\n",
             "dimm0/size": b"8192\n", "dimm0/dimm_mem_type": b"DDR4\xe2\x80\xae\n",
             "dimm0/dimm_dev_type": b"x4\n", "dimm0/dimm_edac_mode": b"SECDED\n",
             "dimm0/dimm_ce_count": b"0\n", "dimm0/dimm_ue_count": b"0\n"}
    for name, data in files.items():
        with open(os.path.join(mc, name), "wb") as f:
            f.write(data)
    tracing = os.path.join(WORK, "tracing")
    for ev in ("ras/mc_event", "ras/aer_event", "mce/mce_record"):
        os.makedirs(os.path.join(tracing, "events", ev))
    return os.path.join(WORK, "sys"), tracing


def test_fleet_outputs(db):
    """status, metrics and export (their schemas came with the fleet) on the hostile database."""
    check_output("status --json", *ctl(["status", "--json"], db), schema="status.schema.json",
                 want_rc=(0, 3))
    check_output("status", *ctl(["status"], db), want_rc=(0, 3))
    check_output("metrics --json", *ctl(["metrics", "--json"], db), schema="metrics.schema.json")
    # The exposition formats have no escape for a control character: the label's safe form.
    for fmt in ("openmetrics", "prometheus"):
        rc, out, err = ctl(["metrics", "--format", fmt], db)
        check_output("metrics --format " + fmt, rc, out, err)
        try:
            from prometheus_client import parser
        except ImportError:
            continue
        try:
            if fmt == "openmetrics":
                from prometheus_client.openmetrics import parser as omparser
                fams = list(omparser.text_string_to_metric_families(out.decode("utf-8")))
            else:
                fams = list(parser.text_string_to_metric_families(out.decode("utf-8")))
            ok(bool(fams), "metrics --format %s parses (%d families)" % (fmt, len(fams)))
        except Exception as e:  # noqa: BLE001 - any parse failure is the finding
            ok(False, "metrics --format %s parses: %s" % (fmt, e))
    rc, out, err = ctl(["export", "--cursor-file", os.path.join(WORK, "export.cursor")], db)
    check_output("export", rc, out, err)
    path = os.path.join(WORK, "export.jsonl")
    with open(path, "wb") as f:
        f.write(out)
    p = subprocess.run([sys.executable, os.path.join(SRC, "tests", "fleet", "validate-export.py"),
                        SCHEMAS, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    ok(p.returncode == 0 and out.count(b"\n") > 30,
       "export: %d lines, each valid against the schema of its kind" % out.count(b"\n"))
    for line in p.stdout.decode("utf-8", "replace").splitlines()[:10]:
        diag(line)


def test_commands(db):
    sysfs, tracing = fake_trees()
    rows = rows_in(db)
    values = check_output("errors --json", *ctl(["errors", "--json"], db), schema="errors.schema.json")
    ok(values is not None and len(values) == rows,
       "errors --json: one line per record and folded period, none split (%d of %d)" %
       (len(values or []), rows))
    test_record_values(values or [])
    check_output("errors --json --redecode", *ctl(["errors", "--json", "--redecode"], db),
                 schema="errors.schema.json")
    for args, schema in ((["summary", "--json"], "summary.schema.json"),
                         (["summary", "--json", "--include-synthetic"], "summary.schema.json"),
                         (["summary", "--by", "dimm", "--json", "--include-synthetic"], "summary.schema.json"),
                         (["edac", "--json", "--include-synthetic"], "edac.schema.json"),
                         (["edac", "--report", "--json"], "edac.schema.json"),
                         (["layout", "--json"], "layout.schema.json"),
                         (["actions", "--json"], "actions.schema.json"),
                         (["actions", "--buckets", "--json"], "actions.schema.json"),
                         (["snapshot", "list", "--json"], "snapshot.schema.json"),
                         (["crashes", "--json"], "crashes.schema.json"),
                         (["report", "--json", "--include-synthetic"], "report.schema.json"),
                         (["report", "--json", "--redact"], "report.schema.json")):
        check_output(" ".join(args), *ctl(args, db), schema=schema)
    # The report's HTML holds the hostile text as references, never as control characters.
    check_output("report (HTML)", *ctl(["report", "--include-synthetic"], db))
    snap = check_output("snapshot show 1 --json", *ctl(["snapshot", "show", "1", "--json"], db),
                        schema="snapshot.schema.json")
    lines = snap[0]["lines"] if snap else []
    ok(any("comm=\x1b]0;x\x07\x1b[2J\n pid=100" in l for l in lines),
       "snapshot show --json: the process name kept whole, escaped by JSON alone")
    crash = check_output("crashes show 1 --raw --json",
                         *ctl(["crashes", "show", "1", "--raw", "--json"], db), schema="crashes.schema.json")
    crash = crash[0] if crash else {}
    ok("Comm: \x1b]0;x\x07\x1b[2J Not" in crash.get("record", "") and
       any(l["table"].startswith("gone\x1b]0;pwned") for l in crash.get("links", [])),
       "crashes show --json: the kernel's record and the links' names kept whole")
    rc, out, err = ctl(["crashes", "show", "1", "--raw"], db)
    check_output("crashes show 1 --raw", rc, out, err)
    ok(b"Comm: \\x1b]0;x\\x07\\x1b[2J Not tainted\n" in out,
       "crashes show --raw: the record's lines kept, their escapes shown as \\xNN")
    rc, out, err = ctl(["edac", "--live", "--json"], db, extra=["-s", sysfs])
    check_output("edac --live --json", rc, out, err, schema="edac.schema.json", want_rc=(0, 3))
    check_output("layout --live --json", *ctl(["layout", "--live", "--json"], db, extra=["-s", sysfs]),
                 schema="layout.schema.json")
    check_output("labels print --json", *ctl(["labels", "print", "--json"], db, extra=["-s", sysfs]),
                 schema="labels.schema.json", want_rc=(0, 1))
    for persistent in ([], ["--persistent"]):
        args = ["boot-cmdline", "--json"] + persistent
        check_output(" ".join(args), *ctl(args, db, extra=["-t", tracing]),
                     schema="boot-cmdline.schema.json")
    text = [["errors"], ["errors", "--redecode", "--limit", "0"], ["summary"],
            ["summary", "--include-synthetic"], ["summary", "--by", "dimm", "--include-synthetic"],
            ["edac"], ["edac", "--report"], ["layout"], ["actions"], ["actions", "--buckets"],
            ["snapshot", "list"], ["snapshot", "show", "1"], ["crashes"]]
    for args in text:
        check_output(" ".join(args), *ctl(args, db))
    for args in (["edac", "--live"], ["layout", "--live"], ["labels", "print"]):
        rc, out, err = ctl(args, db, extra=["-s", sysfs])
        check_output(" ".join(args), rc, out, err, want_rc=(0, 1, 3))
    test_fleet_outputs(db)
    rc, out, err = ctl(["snapshot", "show", "1"], db)
    ok(b"comm=\\x1b]0;x\\x07\\x1b[2J\\x0a pid=100" in out and b"comm=\\xc2\\x9b6n\\x9b1m" in out,
       "snapshot show: the process names' escapes are shown as \\xNN")
    rc, out, err = ctl(["errors", "--limit", "0"], db)
    ok(b"  [\\x1b]0;pwned\\x07" in out, "errors: a hostile source is shown with its escapes visible")
    test_errors_paths(db)


def test_record_values(values):
    """The values themselves: registers unsigned hex, texts whole, booleans, every time a string."""
    boot = "boot-" + json_text(HOSTILE)
    records = [v for v in values if "kind" not in v]
    folds = [v for v in values if v.get("kind") == "folded"]
    ok(records and all(r["boot_id"] == boot for r in records),
       "errors --json: boot_id round-trips, quotes, newline and escapes included")
    ok(any(r["source"] == json_text(HOSTILE) and r["synthetic"] is True for r in records) and
       any(r["source"] == "live" and r["synthetic"] is False for r in records),
       "errors --json: source whole, synthetic a boolean")
    mc = [r for r in records if r["type"] == "mc_event"]
    ok(any(r["fields"]["msg"] == "nul\x00inside \x1b[2J" for r in mc), "a NUL inside a text is kept")
    ok(any(r["fields"]["driver_detail"] == "\u00ffA\u00fe\n\x1b[2J" for r in mc),
       "bytes that are not UTF-8 come as \\u00XX")
    ok(all(isinstance(r["decoded"]["address"], str) and isinstance(r["decoded"]["syndrome"], str)
           for r in mc), "decoded.address and decoded.syndrome are strings in every mc_event")
    regs = [v for r in mc for k, v in list(r["fields"].items()) + list(r["decoded"].items())
            if k in ("address", "syndrome")]
    ok("0xffffffffffffffff" in regs and "0xfffffffffffff000" in regs,
       "all-ones and 0xfffffffffffff000 registers, unsigned: %s" % regs)
    mce = [r for r in records if r["type"] == "mce_record"]
    ok(mce and all(isinstance(r["decoded"]["addr"], str) for r in mce), "decoded.addr of mce_record a string")
    regs += [v for r in mce for k, v in list(r["fields"].items()) + list(r["decoded"].items())
             if k in ("addr", "status", "misc", "synd", "ipid") or k.startswith("raw_")]
    ok(all(v is None or (isinstance(v, str) and v.startswith("0x")) for v in regs),
       "no register reads as a number, let alone a negative one")
    blk = [r for r in records if r["type"] == "block_rq_error"]
    ok(any(int(r["fields"]["sector"]) >= 2**63 and r["decoded"]["sector"] == r["fields"]["sector"]
           for r in blk), "a sector past 2^63: an unsigned decimal string, raw and decoded alike")
    ok(len(folds) == 1 and folds[0]["address_min"] == "0xfffffffffffff000" and
       folds[0]["distinct"] == ["0xffffffffffffffff", "0x8000000000000000", "0xfffffffffffff000"] and
       folds[0]["subject"] == json_text(HOSTILE) and folds[0]["detail"] == "syndrome\x07",
       "the folded period: addresses and syndromes unsigned hex, texts whole")


def test_errors_paths(db):
    """Text echoed back from arguments and the kernel's refusals: shown, never obeyed."""
    bad = "\x1b]0;x\x07\x1b[2J\n"
    for args in (["errors", "--boot", bad], ["errors", "--type", bad], ["reset", "--yes", bad],
                 ["snapshot", "show", bad], ["edac", "mc0/" + bad], [bad],
                 ["inject", "--synthetic", bad], ["errors", "--since", bad]):
        rc, out, err = ctl(args, db)
        check_output("usage error echoing %r" % args, rc, out, err, want_rc=(1, 2))
    rc, out, err = ctl(["errors", "--json"], os.path.join(WORK, "no\x1b[2Jdb", "x.db"))
    check_output("errors --json of a database that is not there", rc, out, err,
                 schema="errors.schema.json", want_rc=(1,))
    conf = os.path.join(WORK, "inject.conf")
    with open(conf, "w") as f:
        f.write("formats_dir = %s\n" % os.path.join(SRC, "formats"))
    rc, out, err = ctl(["inject", "--synthetic", "ras:mc_event", "msg\x1b[2J=1"], db, config=conf,
                       extra=["-t", os.path.join(WORK, "tracing")])
    check_output("inject: a bad assignment echoed", rc, out, err, want_rc=(1, 2))
    ok(b"\\x1b[2J" in err, "inject: the assignment's escape shown as \\x1b")


def test_decode():
    path = os.path.join(WORK, "pasted\x1b[2J.txt")
    with open(path, "wb") as f:
        f.write(b"EDAC MC0: 1 CE memory read error on DIMM\x1b]0;x\x07\x9b (channel:0 slot:0 page:0x1 "
                b"offset:0x0 grain:32 syndrome:0xfffffffffffff000 - area:DRAM err_code:0101:0090 "
                b"\x1b[2J\xe2\x80\xae)\n")
    values = check_output("decode --json FILE", *ctl(["decode", "--json", path]), schema="decode.schema.json")
    ok(values and values[0]["decoded"]["syndrome"] == "0xfffffffffffff000",
       "decode --json: decoded.syndrome unsigned hex")
    check_output("decode FILE", *ctl(["decode", path]))
    values = check_output("decode mce --json", *ctl(
        ["decode", "mce", "--vendor", "intel", "--family", "6", "--model", "0x55", "--bank", "7",
         "--status", "0x8c00004000010090", "--addr", "0x1000", "--json"]), schema="decode.schema.json")
    ok(values and values[0]["decoded"]["addr"] == "0x1000",
       "decode --json: decoded.addr 0x1000 a hex string, as in errors --json")


RD_SCHEMA = os.path.join(SRC, "tests", "fleet", "rasdaemon-0.8.sql")


def rasdaemon(name, extra_sql=(), params=()):
    path = os.path.join(WORK, name)
    db = sqlite3.connect(path)
    with open(RD_SCHEMA) as f:
        db.executescript(f.read())
    for sql in extra_sql:
        db.execute(sql, *params)
    db.commit()
    db.close()
    return path


def imported(db, sql):
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    try:
        return c.execute(sql).fetchall()
    finally:
        c.close()


def test_import():
    db = os.path.join(WORK, "import.db")
    subprocess.run([os.path.join(BUILD, "tests", "make-db"), db], check=True)
    cols = "".join(', "%s" TEXT' % n.replace('"', '""') for n in COL_NAMES)
    src = rasdaemon("hostile-rd.db")
    c = sqlite3.connect(src)
    c.execute("DROP TABLE mc_event")
    c.execute("CREATE TABLE mc_event (id INTEGER PRIMARY KEY, timestamp TEXT, err_count INTEGER,"
              " err_type TEXT, err_msg TEXT, label TEXT, mc INTEGER, top_layer INTEGER,"
              " middle_layer INTEGER, lower_layer INTEGER, address INTEGER, grain INTEGER,"
              " syndrome INTEGER, driver_detail TEXT%s)" % cols)
    hostile = json_text(HOSTILE)
    c.execute("INSERT INTO mc_event VALUES (NULL, '2024-03-01 10:00:00 +0000', 1, 'Corrected', ?, ?,"
              " 0, 0, 0, -1, -4096, 6, -1, ?, ?, ?, ?, ?)", (hostile, hostile, hostile, "a", "b\n", "c", "d"))
    c.execute('CREATE TABLE "evil\x1b]0;t\x07" (id INTEGER PRIMARY KEY)')
    c.execute("DROP TABLE aer_event")
    c.execute("CREATE VIEW aer_event AS SELECT 1 AS id, '2024-01-01 00:00:00' AS timestamp,"
              " 'x' AS dev_name, 'Corrected' AS err_type, 'Receiver Error' AS err_msg")
    try:
        c.execute("DROP TABLE devlink_event")
        c.execute("CREATE VIRTUAL TABLE devlink_event USING fts5(timestamp, bus_name, dev_name,"
                  " driver_name, reporter_name, msg)")
        c.execute("INSERT INTO devlink_event VALUES ('2024-01-01 00:00:00', 'pci', 'x', 'y', 'z', 'm')")
        vtab = True
    except sqlite3.OperationalError:
        vtab = False
    c.commit()
    c.close()
    before = hashlib.sha256(open(src, "rb").read()).hexdigest()
    rc, out, err = ctl(["import", "rasdaemon", src], db)
    check_output("import rasdaemon (hostile names and texts)", rc, out, err)
    after = hashlib.sha256(open(src, "rb").read()).hexdigest()
    ok(before == after and not [f for f in os.listdir(WORK) if f.startswith("hostile-rd.db-")],
       "the source is read only: unchanged, nothing made beside it")
    details = imported(db, "SELECT details FROM imported_rows WHERE src_table = 'mc_event'")
    parsed = []
    for (d,) in details:
        try:
            parsed.append(json.loads(d))
        except ValueError as e:
            diag("details do not parse: %s: %r" % (e, d[:200]))
    ok(len(parsed) == 1 and all(n in parsed[0] for n in COL_NAMES) and len(parsed[0]) == 14 + len(COL_NAMES)
       and "forged" not in parsed[0] and parsed[0]["err_msg"] == hostile,
       "import: the details JSON keeps every column name and text as it was, nothing forged")
    ok(not imported(db, "SELECT 1 FROM aer_event") and b"aer_event" in out and b"not read" in out,
       "import: a view named like a rasdaemon table is not read, and says so")
    if vtab:
        ok(not imported(db, "SELECT 1 FROM devlink_health_report") and b"devlink_event" in out,
           "import: a virtual table is not read")
    big = rasdaemon("big-rd.db", ["INSERT INTO mc_event VALUES (NULL, '2024-03-01 10:00:00 +0000', 1,"
                                  " 'Corrected', 'm', 'l', 0, 0, 0, -1, 1, 6, 1, ?)"], [("x" * (2 << 20),)])
    before = imported(db, "SELECT count(*) FROM mc_event")
    rc, out, err = ctl(["import", "rasdaemon", big], db)
    ok(rc == 1 and b"too big" in err and imported(db, "SELECT count(*) FROM mc_event") == before,
       "import: a row past 1 MiB fails the import, nothing stored (%s)" % err.decode("utf-8", "replace").strip())
    fifo = os.path.join(WORK, "fifo.db")
    os.mkfifo(fifo)
    try:
        rc, out, err = ctl(["import", "rasdaemon", fifo], db, timeout=20)
    except subprocess.TimeoutExpired:
        rc, err = -1, b"timed out"
    ok(rc == 1 and b"not a regular file" in err, "import: a FIFO is refused, not waited on (%s)" % err.strip())
    text = os.path.join(WORK, "text.db")
    with open(text, "w") as f:
        f.write("CREATE TABLE mc_event (id);\n")
    rc, out, err = ctl(["import", "rasdaemon", text], db)
    ok(rc == 1 and b"not an SQLite database" in err, "import: a text file is refused")
    odd = rasdaemon("odd?name#%41.db")
    rc, out, err = ctl(["import", "rasdaemon", odd], db)
    ok(rc == 0, "import: a path with ?, # and %% is the file's own name (%s)" % err.strip())


def test_import_config():
    path = os.path.join(WORK, "rasdaemon.env")
    with open(path, "wb") as f:
        f.write(b"PAGE_CE_THRESHOLD=\"50\x1b[2J\"\nBOGUS\x1b]0;x\x07=1\nnot a line \x9b31m\n"
                b"TRIGGER_DIR=/etc\x1b[2J\nPAGE_CE_ACTION=\"soft\xe2\x80\xae\"\n")
    rc, out, err = ctl(["import-config", path])
    check_output("import-config echoing hostile lines", rc, out, err, want_rc=(0, 1))


def test_schema_files():
    """Every schema is valid draft 2020-12; record-types is what the tables say today."""
    for name in sorted(os.listdir(SCHEMAS)):
        if name.endswith(".schema.json"):
            with open(os.path.join(SCHEMAS, name), encoding="utf-8") as f:
                doc = json.load(f)
            try:
                validate.jsonschema.Draft202012Validator.check_schema(doc)
                good = doc.get("$id", "").endswith("/" + name)
            except validate.jsonschema.SchemaError as e:
                diag(e)
                good = False
            ok(good, "doc/schema/%s is a draft 2020-12 schema with its own $id" % name)
    gen = subprocess.run([os.path.join(BUILD, "tests", "json", "record-types")], stdout=subprocess.PIPE,
                         check=True).stdout
    with open(os.path.join(SCHEMAS, "record-types.schema.json"), "rb") as f:
        ok(f.read() == gen, "doc/schema/record-types.schema.json matches the event and dfield tables"
           " (else: tests/json/record-types > doc/schema/record-types.schema.json)")


def main():
    global WORK
    WORK = tempfile.mkdtemp(prefix="ras-fdr-json-")
    os.chmod(WORK, stat.S_IRWXU)
    try:
        db = os.path.join(WORK, "hostile.db")
        test_schema_files()
        build_db(db)
        test_commands(db)
        test_decode()
        test_import()
        test_import_config()
    finally:
        shutil.rmtree(WORK, ignore_errors=True)
    print("1..%d" % count)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
