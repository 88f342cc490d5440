#!/bin/bash
# SPDX-License-Identifier: MIT
# make bench-live's harness (bench/bench-live.c) at a rate no machine drops at:
# a fresh rasd on its own instance, about 200 of the benchmark's varied records
# through trace_marker_raw (fewer than one default buffer holds, however slow
# rasd is), every one stored, the instance removed. Root and tracefs, else skip.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
before=$(ls $T/instances | grep -c '^rasdb_live_' || true)
"$top_builddir/bench/bench-live" --smoke; rc=$?
after=$(ls $T/instances | grep -c '^rasdb_live_' || true)
[ "$after" -le "$before" ] && echo "ok 2 - the benchmark's instance is removed" ||
	{ echo "not ok 2 - the benchmark left an instance behind"; rc=1; }
echo "1..2"
exit $rc
