# SPDX-License-Identifier: MIT
# The bundle says what the page says: why the machine's identity was read
# (machine_read) and why each origin's records were lost, the same text in
# both. TAP lines "ok - ..." / "not ok - ...".
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


m = re.match(r'<h2>Machine</h2>(?:<p class="muted">(.*?)</p>)?', section("machine"), re.S)
said = text(m.group(1)) if m and m.group(1) is not None else None
mr = rep["machine_read"]
say(mr["why"] == said, "machine_read.why is the Machine section's sentence (%s: %r)" % (mr["reason"], said))
say((mr["reason"] == "not_read") == (rep["machine"] is None), "machine_read.reason %s, machine %s" %
    (mr["reason"], "null" if rep["machine"] is None else "read"))

lost = [(r[0], r[-1]) for r in rows(section("losses"))]
say(lost == [(o["origin"], o["why"]) for o in rep["lost"]["by_origin"]],
    "lost.by_origin's why is the page's, origin by origin (%d)" % len(lost))
