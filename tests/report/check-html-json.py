# SPDX-License-Identifier: MIT
# The bundle says what the page says: why the machine's identity was read
# (machine_read), why each origin's records were lost, which decisions were
# taken and on which part's timeline each is marked, and with --redact which
# serial files it could not read (the serial entry's unread), the same text
# or the same lists in both. TAP lines "ok - ..." / "not ok - ...".
#   check-html-json.py REPORT.json REPORT.html [LABEL]
import html
import json
import re
import sys

rep = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()
label = " (%s)" % sys.argv[3] if len(sys.argv) > 3 else ""


def say(ok, what):
    print(("ok" if ok else "not ok") + " - " + what + label)


def text(s):
    return html.unescape(re.sub(r"<[^>]+>", "", s))


def section(sid):
    m = re.search(r'<section id="%s">(.*?)</section>' % sid, page, re.S)
    return m.group(1) if m else ""


def rows(s):
    return [[text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)]
            for r in re.findall(r"<tr[^>]*>(.*?)</tr>", s, re.S) if "<td" in r]


# Every reason has its sentence, --machine given too: the page says it first, the bundle the same words.
m = re.match(r'<h2>Machine</h2><p class="muted">(.*?)</p>', section("machine"), re.S)
said = text(m.group(1)) if m else None
mr = rep["machine_read"]
say(said is not None and mr["why"] == said,
    "machine_read.why is the Machine section's sentence (%s: %r)" % (mr["reason"], said))
say((mr["reason"] == "not_read") == (rep["machine"] is None), "machine_read.reason %s, machine %s" %
    (mr["reason"], "null" if rep["machine"] is None else "read"))

lost = [(r[0], r[-1]) for r in rows(section("losses"))]
say(lost == [(o["origin"], o["why"]) for o in rep["lost"]["by_origin"]],
    "lost.by_origin's why is the page's, origin by origin (%d)" % len(lost))

acts = section("actions").split("<h3>Refused or not done</h3>")
if len(acts) == 2:
    for taken, part in ((True, acts[0]), (False, acts[1])):
        want = sorted(a["kind"] + " " + a["subject"] for a in rep["actions"] if a["taken"] == taken)
        say(sorted(r[3] for r in rows(part)) == want,
            "the actions with taken %s are those the page lists under %s (%d)" %
            (taken, "Taken" if taken else "Refused or not done", len(want)))
else:
    say(False, "the page's actions section has its two lists")

tl = rep["timeline"]
marks = [d.count('<path class="act"') for d in re.findall(r'<div class="part">(.*?)</div>',
                                                         section("timelines"), re.S)]
want = [sum(1 for a in rep["actions"] if a["part_index"] == i and tl["from"] and
            tl["from"] <= a["time"] < tl["until"]) for i in range(len(rep["parts"]))]
say(marks == want, "each part's timeline marks the actions whose part_index is the part (%d)" % sum(want))

# --redact's sentence of the serial files it could not read: the page's, or neither says one.
m = re.search(r'<p id="serials-unread">(.*?)</p>', section("redacted"), re.S)
said = text(m.group(1)) if m else None
unread = [r.get("unread") for r in rep["redacted"] or [] if r["what"] == "serial"]
unread = unread[0] if unread and unread[0] else None
say((unread and unread["why"]) == said and (rep["redacted"] is not None) == ('<section id="redacted">' in page),
    "redacted's serial unread.why is the Redacted section's sentence (%s)" %
    ("none" if said is None else "%d files" % len(unread["files"])))
