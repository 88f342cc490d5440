#!/bin/bash
# SPDX-License-Identifier: MIT
# report --redact run by a user who is not root: the machine's serial files
# (DMI's product, board and chassis serials, the SMBIOS table, a PPIN) are
# root's alone, so their serials cannot be looked for in the records' and
# crashes' text. The report says so, naming the files, in the HTML and in the
# JSON (the serial entry's unread) in the same words; as root, or where the
# files are missing, it says nothing more. Run as root, the test drops to
# nobody with setpriv (exit 77 without it); run as another user, it is one.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
PY=/usr/bin/python3
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
if [ "$(id -u)" = 0 ]; then
	command -v setpriv >/dev/null && id nobody >/dev/null 2>&1 ||
		{ echo "1..0 # SKIP root, and no setpriv or no user nobody to drop to"; exit 77; }
	as_user() { setpriv --reuid="$(id -u nobody)" --regid="$(id -g nobody)" --clear-groups "$@"; }
else
	as_user() { "$@"; }
fi
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
tap() { while IFS= read -r l; do case $l in "ok - "*) ok 0 "${l#ok - }";; "not ok - "*) ok 1 "${l#not ok - }";; *) echo "# $l";; esac; done; }
WORK=$(mktemp -d /tmp/ras-fdr-unread-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db

. "$top_srcdir/tests/report/report-db.sh"
make_report_db "$WORK" "$DB" || { echo "Bail out! cannot build the database"; exit 99; }
# A record's text naming the system's serial: looked for only where it could be read.
sqlite3 "$DB" "UPDATE mc_event SET driver_detail = 'swapped with SYSSERIAL-4711'
 WHERE id = (SELECT max(id) FROM mc_event WHERE label = 'DIMM_A1')"
make_fake_dmi "$WORK/sys"
mkdir -p "$WORK/sys/devices/system/cpu/cpu0/topology"
echo 0x5ec0ffee5ec0ffee > "$WORK/sys/devices/system/cpu/cpu0/topology/ppin"
# What the kernel makes root's alone (0400); for a user who is not root, nobody's.
serials="class/dmi/id/product_serial class/dmi/id/board_serial class/dmi/id/chassis_serial
 firmware/dmi/tables/DMI devices/system/cpu/cpu0/topology/ppin"
for f in $serials; do chmod "$([ "$(id -u)" = 0 ] && echo 400 || echo 000)" "$WORK/sys/$f"; done
# The same machine without those files (a virtual machine's DMI has no serials).
cp -r "$WORK/sys" "$WORK/sys-none"
for f in $serials; do rm -f "$WORK/sys-none/$f"; done
# The user runs the program from a copy it may reach, on a database it may open
# (ras-fdr-ctl opens it for writing), writing into a directory of its own.
mkdir -p "$WORK/user"
cp "$CTL" "$WORK/ctl"
cp "$DB" "$WORK/user/ras.db"
cp "$DB" "$WORK/user/away.db"
sqlite3 "$WORK/user/away.db" "DELETE FROM boots WHERE boot_id = '$(cat /proc/sys/kernel/random/boot_id)'"
chmod a+rx "$WORK/ctl"
chmod a+rx "$WORK" "$WORK/sys" "$WORK/sys-none"
[ "$(id -u)" = 0 ] && chown -R nobody "$WORK/user"
run() { # out db sysfs [options]: the report as the user, --json for .json
	local out=$1 db=$2 sys=$3; shift 3
	as_user "$WORK/ctl" --config /dev/null --db "$WORK/user/$db" --sysfs-root "$WORK/$sys" report --redact \
		$([ "${out##*.}" = json ] && echo --json) -o "$WORK/user/$out" "$@"
}
run u.json ras.db sys; is $? 0 "report --redact --json by a user who is not root exits 0"
run u.html ras.db sys; is $? 0 "report --redact -o FILE.html by that user exits 0"
ok "$(as_user cat "$WORK/sys/class/dmi/id/product_serial" >/dev/null 2>&1 && echo 1 || echo 0)" \
	"that user cannot read the fixture's product_serial"

field() { $PY -c 'import json, sys
s = [r for r in json.load(open(sys.argv[1]))["redacted"] if r["what"] == "serial"][0]
exec(sys.argv[2])' "$@"; }
want=$(for f in $serials; do echo "$WORK/sys/$f"; done | tr '\n' ' ')
is "$(field "$WORK/user/u.json" 'print(" ".join(s["unread"]["files"]))' | tr '\n' ' ')" "$want" \
	"JSON: the serial entry's unread names each file refused (DMI serials, SMBIOS table, PPIN)"
why=$(field "$WORK/user/u.json" 'print(s["unread"]["why"])')
case $why in "This machine's serial numbers could not be read, so they were not looked for in the records' and crashes' text: only root may read $WORK/sys/class/dmi/id/product_serial, "*" and $WORK/sys/devices/system/cpu/cpu0/topology/ppin, and this report was not made by root. Run it as root to take them out.") r=0;; *) r=1;; esac
ok $r "JSON: unread.why says which files, why (not root) and to run as root ($why)"
tap < <($PY "$top_srcdir/tests/report/check-html-json.py" "$WORK/user/u.json" "$WORK/user/u.html" "not root" | grep unread)
grep -q '<section id="redacted">.*</ul><p id="serials-unread">This machine&#39;s serial numbers could not be read' "$WORK/user/u.html"
ok $? "HTML: the Redacted section says it after the counts"
grep -q 'swapped with SYSSERIAL-4711' "$WORK/user/u.json"
ok $? "the serial in a record's text is indeed still there (it could not be looked for)"
if $PY -c 'import jsonschema' 2>/dev/null; then
	$PY -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(json.load(open(sys.argv[2])))' \
		"$top_srcdir/doc/schema/report.schema.json" "$WORK/user/u.json"
	ok $? "the bundle with unread is valid against doc/schema/report.schema.json"
fi

# A database that records none of this machine's boots as running: this machine's serials were
# still tried (they were missed), and the sentence says another machine's cannot be read here.
run a.json away.db sys; run a.html away.db sys
case $(field "$WORK/user/a.json" 'print(s["unread"]["why"])') in
*"Run it as root to take them out. The database records none of this machine's boots as running: if it is another machine's, that machine's serials cannot be read here, by root or not.") r=0;; *) r=1;; esac
ok $r "JSON: away from the recorded machine, unread.why says another machine's serials are not here either"
tap < <($PY "$top_srcdir/tests/report/check-html-json.py" "$WORK/user/a.json" "$WORK/user/a.html" "away" | grep unread)

# Nothing missed, nothing said: the files missing, or read by root.
run n.json ras.db sys-none; run n.html ras.db sys-none
is "$(field "$WORK/user/n.json" 'print("unread" in s)')" False "JSON: files the machine lacks are not refused ones: no unread"
! grep -q 'serials-unread' "$WORK/user/n.html"; ok $? "HTML: nor a sentence"
if [ "$(id -u)" = 0 ]; then
	"$WORK/ctl" --config /dev/null --db "$WORK/user/ras.db" --sysfs-root "$WORK/sys" report --redact --json > "$WORK/root.json"
	is "$(field "$WORK/root.json" 'print("unread" in s)')" False "JSON: root reads them: no unread"
	! grep -q 'SYSSERIAL-4711' "$WORK/root.json"; ok $? "and root's report takes the serial out of the record's text"
fi
echo "1..$n"
[ $failed = 0 ]
