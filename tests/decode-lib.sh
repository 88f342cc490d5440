# SPDX-License-Identifier: MIT
# Sourced by the ras-fdr-ctl decode tests: the command, TAP counters and helpers.
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL="$top_builddir/ctl/ras-fdr-ctl --config /dev/null"
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
has() { grep -q -- "$2" <<<"$1"; }
# decode_file FILE: decodes tests/data/decode/FILE; sets out, err and rc.
decode_file() {
	local e
	e=$(mktemp) || exit 99
	out=$($CTL decode "$top_srcdir/tests/data/decode/$1" 2>"$e"); rc=$?
	err=$(cat "$e"); rm -f "$e"
}
