#!/bin/bash
# SPDX-License-Identifier: MIT
# A corrected trickle that folds, on the live kernel (root and tracefs, else
# exit 77). Rows committed past the storm's last fold_keep wait to be folded
# 64 at a time, so a trickle's commit deletes none (rasd.conf(5)
# fold_threshold); rasd's stop folds the ones still waiting. Before the stop
# and after, every record written is a raw row or in a folds count.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

# Each record committed on its own (commit_delay_ms = 0): how many a group holds
# would decide how many rows fold in their own transaction rather than wait,
# and N puts the rows waiting at the end near 32, never at a multiple of 64.
KEEP=2 N=230
live_setup foldlive "fold_threshold = 5/1h" "fold_keep = $KEEP" "commit_delay_ms = 0"
"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" & PID=$!
wait_for 10 grep -q 'RAS tracepoints in instance' "$WORK/rasd.log"; ok $? "rasd starts"
raw() { q "SELECT count(*) FROM mc_event WHERE msg LIKE 'fl-%'"; }
folded() { q "SELECT coalesce(sum(records), 0) FROM folds WHERE tbl = 'mc_event'"; }
all_counted() { [ $(( $(raw) + $(folded) )) = $N ]; }

acc=$("$top_builddir/tests/synth-writer" "$T" "$INST" "$FORMATS" fl 0 $N 100 corrected)
ok "$([ "$acc" = $N ] && echo 0 || echo 1)" "$N corrected records of one DIMM written at 100/s ($acc accepted)"
wait_for 20 all_counted; ok $? "each is a raw row or folded ($(raw) raw, $(folded) folded)"
before=$(raw)
ok "$([ "$before" -gt $((2 * KEEP)) ] && [ "$before" -lt $((2 * KEEP + 64)) ] && echo 0 || echo 1)" \
	"rasd running: the first and last $KEEP in full, and $((before - 2 * KEEP)) waiting to fold (at most 63)"
kill -TERM $PID; wait $PID; rc=$?; PID=
ok $rc "rasd stops cleanly"
ok "$([ "$(raw)" = $((2 * KEEP)) ] && all_counted && echo 0 || echo 1)" \
	"stopped: the waiting rows are folded ($(raw) raw, $(folded) folded)"
ok "$(grep -q 'stay in full' "$WORK/rasd.log" && echo 1 || echo 0)" "no fold left undone at the stop"
done_testing
