#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench-live's harness (bench/bench-live.c) at a rate no machine drops at:
# a fresh rasd on its own instance, about 200 of the benchmark's varied records
# through trace_marker_raw (fewer than one default buffer holds, however slow
# rasd is), every one stored, the instance removed. Root and tracefs, else skip.
# Its instances are named after its process (rasdb_live_<pid>_<step>): only
# those are looked for, so another run or test's instances, made or removed
# meanwhile, count for nothing.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
"$top_builddir/bench/bench-live" --smoke &
pid=$!
wait $pid; rc=$?
# Skipped (no trace_marker_raw): its plan said so, nothing more to say.
[ "$rc" = 77 ] && exit 0
left=$(ls $T/instances | grep -c "^rasdb_live_${pid}_" || true)
[ "$left" = 0 ] && echo "ok 2 - the benchmark's instances are removed (rasdb_live_${pid}_*)" ||
	{ echo "not ok 2 - the benchmark left $left instances behind (rasdb_live_${pid}_*)"; rc=1; }
echo "1..2"
exit $rc
