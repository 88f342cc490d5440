#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl report on a full disk (/dev/full: every write fails with ENOSPC),
# on the report tests' database (tests/report/report-db.sh): to -o /dev/full
# and to a standard output that is /dev/full, HTML and --json, the whole
# machine and --part (its records copied from their spool). Each exits 1 with
# the file and the system's words on stderr, writes nothing to standard output
# instead, and leaves nothing behind: /dev/full stays the device (a report
# written aside and renamed over it would replace it), no file beside it, in
# the working directory or in TMPDIR.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
[ -c /dev/full ] || { echo "1..0 # SKIP no /dev/full"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-report-full-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }

. "$top_srcdir/tests/report/report-db.sh"
make_report_db "$WORK" "$DB" || { echo "Bail out! cannot build the database"; exit 99; }
# The runs below start in an empty directory with an empty TMPDIR: both must stay empty.
mkdir "$WORK/cwd" "$WORK/tmp"
beside=$(echo /dev/*full*)

# A report run in the empty directory; its exit status, stdout and stderr kept.
run() {
	(cd "$WORK/cwd" && TMPDIR=$WORK/tmp ctl report "$@" > "$WORK/out" 2> "$WORK/err"); echo $?
}
# What a run left: the device, the files beside it, the directory and TMPDIR.
left() { [ -c /dev/full ] || echo "/dev/full is no longer a device"
	[ "$(echo /dev/*full*)" = "$beside" ] || echo "beside /dev/full: $(echo /dev/*full*)"
	find "$WORK/cwd" "$WORK/tmp" -mindepth 1; }

for part in "" "--part DIMM_A1"; do
	for fmt in html json; do
		what="$fmt${part:+ $part}"
		# shellcheck disable=SC2206 # $part is two words or none
		args=($part)
		[ $fmt = json ] && args+=(--json)
		is "$(run "${args[@]}" -o /dev/full)" 1 "-o /dev/full ($what) exits 1"
		is "$(cat "$WORK/err")" "ras-fdr-ctl report: /dev/full: No space left on device" \
			"-o /dev/full ($what): the file and the system's words on stderr"
		[ ! -s "$WORK/out" ]; ok $? "-o /dev/full ($what): nothing on standard output instead"
		is "$(left)" "" "-o /dev/full ($what): nothing left behind"
		# The same report to standard output, which is /dev/full.
		is "$( (cd "$WORK/cwd" && TMPDIR=$WORK/tmp ctl report "${args[@]}" > /dev/full 2> "$WORK/err")
			echo $?)" 1 "standard output /dev/full ($what) exits 1"
		is "$(cat "$WORK/err")" "ras-fdr-ctl report: standard output: No space left on device" \
			"standard output /dev/full ($what): said on stderr"
		is "$(left)" "" "standard output /dev/full ($what): nothing left behind"
	done
done
# The same database and arguments write a whole report where there is room: the failure was the disk's.
is "$(run --part DIMM_A1 --json -o "$WORK/r.json")" 0 "the same report to a file with room exits 0"
grep -q '"parts"' "$WORK/r.json"; ok $? "and holds the report"
echo "1..$n"
[ $failed = 0 ]
