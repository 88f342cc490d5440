#!/bin/bash
# SPDX-License-Identifier: MIT
# The command lines: rasd --check-config on good and bad files, usage errors,
# and that every rasd option and ctl command is in --help and the man pages.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
RASD=$top_builddir/rasd/rasd
CTL=$top_builddir/ctl/ras-fdr-ctl
D=$top_srcdir/tests/data/config
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }

out=$("$RASD" --config "$D/good.conf" --check-config 2>&1); rc=$?
ok $([ $rc = 0 ] && [ "$out" = "configuration OK" ] && echo 0 || echo 1) "good file: configuration OK, exit 0"
out=$("$RASD" -c "$D/bad.conf" -n 2>&1); rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "bad file: exit 1"
for line in 2 3 4 5 6 7 8 9; do
	grep -q "bad.conf:$line: " <<<"$out"; ok $? "bad file: error reported as file:$line: reason"
done
grep -q "unknown key 'bogus_key'" <<<"$out"; ok $? "an unknown key is named"
out=$("$RASD" --config /nonexistent/rasd.conf -n 2>&1); rc=$?
ok $([ $rc != 0 ] && grep -q "No such file" <<<"$out" && echo 0 || echo 1) "a named missing file is an error"
"$RASD" --no-such-option >/dev/null 2>&1; ok $([ $? = 2 ] && echo 0 || echo 1) "unknown option: exit 2"
out=$("$RASD" --config /dev/null --buffer-size-kb 3 -n 2>&1)
grep -q "command line: buffer_size_kb" <<<"$out"; ok $? "a bad command-line value is reported"

help=$("$RASD" --help)
for o in $(sed -n 's/^\t{ "\([a-z-]*\)", .*_argument.*/\1/p' "$top_srcdir/rasd/rasd.c"); do
	grep -q -- "--$o" <<<"$help"; ok $? "rasd --help lists --$o"
	grep -q -- "\\\\-\\\\-${o//-/\\\\-}" "$top_srcdir/man/rasd.8"; ok $? "rasd(8) documents --$o"
done
for k in $(sed -n 's/^\t\(STR\|UINT\|BOOL\)("\([a-z_]*\)".*/\2/p' "$top_srcdir/lib/config.c"); do
	grep -q "^\.BR $k\b\|^\.BR \"$k\"\|^\.B $k\b\|^\.BR $k \"" "$top_srcdir/man/rasd.conf.5"; ok $? "rasd.conf(5) documents $k"
done
chelp=$("$CTL" help)
for c in summary errors status inject decode edac layout labels reset snapshot boot-cmdline; do
	grep -q "^  $c" <<<"$chelp"; ok $? "ras-fdr-ctl help lists $c"
	grep -q "^\.SS.*$c\|^\.SS \"$c" "$top_srcdir/man/ras-fdr-ctl.8"; ok $? "ras-fdr-ctl(8) has a section for $c"
done
"$CTL" --config /dev/null nonsense >/dev/null 2>&1; ok $([ $? = 2 ] && echo 0 || echo 1) "unknown command: exit 2"

echo "1..$n"
[ $failed = 0 ]
