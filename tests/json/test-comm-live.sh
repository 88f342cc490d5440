#!/bin/bash
# SPDX-License-Identifier: MIT
# A process name is anyone's text (issue 31): a real rasd records with its
# flight recorder on, a process that names itself with an OSC title, a
# screen clear, a newline and a C1 CSI exits, its sched_process_exit record
# is captured, and snapshot show prints the name with \xNN escapes (never
# the bytes), snapshot show --json keeps it whole and valid against
# doc/schema/snapshot.schema.json. Needs root, tracefs and the kernel's
# sched:sched_process_exit (exit 77 otherwise).
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
[ -d $T/events/sched/sched_process_exit ] || { echo "1..0 # SKIP no sched:sched_process_exit"; exit 77; }
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
python3 -c 'import jsonschema' 2>/dev/null || { echo "1..0 # SKIP no python3-jsonschema"; exit 77; }

INST=rasdcomm_$$
WORK=$(mktemp -d /tmp/ras-fdr-comm-XXXXXX)
DB=$WORK/ras.db
cleanup() {
	[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null
	wait 2>/dev/null
	for i in $INST ${INST}_fdr; do [ -d $T/instances/$i ] && rmdir $T/instances/$i 2>/dev/null; done
	rm -rf "$WORK"
}
trap cleanup EXIT
cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
boot_instance =
persistent_instance =
database = $DB
instance = $INST
lock_dir = $WORK/lock
formats_dir = $(cd "$top_srcdir" && pwd)/formats
fdr_enable = yes
fdr_instance = ${INST}_fdr
CONF
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }

"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" &
PID=$!
wait_for 30 grep -q "recording .* RAS tracepoints" "$WORK/rasd.log"; ok $? "rasd runs"
wait_for 30 test -d "$T/instances/${INST}_fdr"; ok $? "its flight recorder's instance is there"

# The name: ESC ] 0 ; t BEL, ESC [ 2 J, a newline, U+009B (15 bytes, what the kernel keeps).
python3 - <<'PY'
import ctypes, os
pid = os.fork()
if pid == 0:
    libc = ctypes.CDLL(None)
    libc.prctl(15, b"\x1b]0;t\x07\x1b[2J\n\xc2\x9bX", 0, 0, 0)   # PR_SET_NAME
    os._exit(0)
os.waitpid(pid, 0)
PY
ok $? "a process named with escape sequences exited"
out=$(ctl snapshot take --reason comm-test); ok $? "snapshot take: $out"
id=$(sed -n 's/^snapshot \([0-9]*\):.*/\1/p' <<<"$out")

ctl snapshot show "$id" > "$WORK/show.txt" 2>&1; ok $? "snapshot show $id"
grep -q 'comm=\\x1b\]0;t\\x07\\x1b\[2J\\x0a\\xc2\\x9bX pid=' "$WORK/show.txt"
ok $? "snapshot show: the process name with its escapes as \\xNN"
python3 - "$WORK/show.txt" <<'PY'
import sys
raw = open(sys.argv[1], "rb").read()
text = raw.decode("utf-8")
bad = [c for c in text if (ord(c) < 0x20 and c not in "\n\t") or 0x7f <= ord(c) <= 0x9f]
sys.exit(1 if bad else 0)
PY
ok $? "snapshot show: no control byte reaches the terminal"
ctl snapshot show "$id" --json > "$WORK/show.json"; ok $? "snapshot show $id --json"
python3 "$top_srcdir/tests/json/validate.py" "$top_srcdir/doc/schema/snapshot.schema.json" "$WORK/show.json"
ok $? "snapshot show --json: valid against snapshot.schema.json"
python3 - "$WORK/show.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if any("comm=\x1b]0;t\x07\x1b[2J\n\x9bX pid=" in l for l in d["lines"]) else 1)
PY
ok $? "snapshot show --json: the name kept whole, escaped by the JSON encoder"
done_testing
