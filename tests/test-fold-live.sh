#!/bin/bash
# SPDX-License-Identifier: MIT
# A corrected storm that folds in several commits, on the live kernel (root and tracefs, else
# exit 77). Rows committed past the storm's last fold_keep wait to be folded
# 64 at a time, so a trickle's commit deletes none (rasd.conf(5)
# fold_threshold); rasd's stop folds the ones still waiting. Before the stop
# and after, every record written is a raw row or in a folds count.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

# Written in three bursts of 40, each once the one before is counted, with
# commit_delay_ms = 1000: a burst is one group, so there are three commits (a
# few more if rasd reads a burst in pieces) however slowly rasd runs. Each
# commit's last fold_keep rows wait once the next commits: 2 per commit, far
# from the 64 that would fold them. (One commit of everything would fold its
# middle at once and leave nothing waiting; with the group sizes left to the
# machine's speed the rows waiting could reach a multiple of 64.)
KEEP=2 BURST=40 N=120
# Fold periods are clock hours: every figure below holds for a storm inside one. A storm that
# met the turn of an hour (a start near it, or a slow machine: a guard of 30 s before the hour
# assumed the run was shorter) is run again, output and all, once (now well inside the next).
if [ -z "${RAS_FOLD_LIVE_TRY:-}" ]; then
	out=$(mktemp /tmp/ras-fdr-foldlive-out-XXXXXX)
	for try in 1 2; do
		RAS_FOLD_LIVE_TRY=$try "${BASH:-bash}" "$0" > "$out"; rc=$?
		[ $rc = 3 ] && [ $try = 1 ] && continue
		break
	done
	cat "$out"; rm -f "$out"
	[ $rc = 3 ] && rc=1
	exit $rc
fi
live_setup foldlive "fold_threshold = 5/1h" "fold_keep = $KEEP" "commit_delay_ms = 1000"
"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" & PID=$!
wait_for 30 grep -q 'RAS tracepoints in instance' "$WORK/rasd.log"; ok $? "rasd starts"
# The hour of a record, as rasd's fold period (db_rollup.h RAS_DB_HOUR_SQL; times are positive).
HOUR='wall_ns / 3600000000000'
raw() { q "SELECT count(*) FROM mc_event WHERE msg LIKE 'fl-%'"; }
folded() { q "SELECT coalesce(sum(records), 0) FROM folds WHERE tbl = 'mc_event'"; }
counted() { [ $(( $(raw) + $(folded) )) = "$1" ]; }
all_counted() { counted $N; }

acc=0 fail=0
for first in 0 $BURST $((2 * BURST)); do
	a=$("$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" fl $first $BURST 0 corrected)
	acc=$((acc + a))
	wait_for 30 counted $((first + BURST)) || fail=1
done
ok "$([ "$acc" = $N ] && [ $fail = 0 ] && echo 0 || echo 1)" \
	"$N corrected records of one DIMM written in three bursts, each counted before the next ($acc accepted)"
wait_for 30 all_counted; ok $? "each is a raw row or folded ($(raw) raw, $(folded) folded)"
before=$(raw)
ok "$([ "$before" -gt $((2 * KEEP)) ] && [ "$before" -lt $((2 * KEEP + 64)) ] && echo 0 || echo 1)" \
	"rasd running: the first and last $KEEP in full, and $((before - 2 * KEEP)) waiting to fold (at most 63)"
kill -TERM $PID; wait $PID; rc=$?; PID=
hours=$(q "SELECT count(DISTINCT h) FROM (SELECT $HOUR AS h FROM mc_event WHERE msg LIKE 'fl-%'
	UNION SELECT hour FROM folds WHERE tbl = 'mc_event')")
if [ "$hours" != 1 ] && [ "$RAS_FOLD_LIVE_TRY" = 1 ]; then exit 3; fi
ok "$([ "$hours" = 1 ] && echo 0 || echo 1)" "the storm lies inside one clock hour ($hours)"
ok $rc "rasd stops cleanly"
ok "$([ "$(raw)" = $((2 * KEEP)) ] && all_counted && echo 0 || echo 1)" \
	"stopped: the waiting rows are folded ($(raw) raw, $(folded) folded)"
ok "$(grep -q 'stay in full' "$WORK/rasd.log" && echo 1 || echo 0)" "no fold left undone at the stop"
done_testing
