#!/bin/bash
# SPDX-License-Identifier: MIT
# make soak: rasd under a steady trickle of synthetic records for SOAK_MINUTES
# (default 10) at SOAK_RATE records/s (default 50), on the live kernel (root
# and tracefs). Prints, at the start and the end: resident memory, open fds,
# database size (with -wal), bytes written and write calls (/proc/PID/io),
# and the records written and stored; then the bytes and write calls per
# record stored in between and how long records waited to be durable (rasd's
# own histogram of commit time minus arrival, from its exit line).
# SOAK_COMMIT_DELAY_MS sets commit_delay_ms (default: rasd's).
# Not part of make check or CI: it measures, it does not assert beyond
# "every record written was stored or counted as lost".
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
MINUTES=${SOAK_MINUTES:-10}
RATE=${SOAK_RATE:-50}
T=/sys/kernel/tracing
[ "$(id -u)" = 0 ] && [ -d $T/instances ] || { echo "soak: needs root and tracefs"; exit 77; }
INST=rasd_soak_$$
W=$(mktemp -d /tmp/ras-fdr-soak-XXXXXX)
DB=$W/ras.db
FORMATS=$(cd "$top_srcdir" && pwd)/formats
cleanup() { [ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null
	[ -d $T/instances/$INST ] && rmdir $T/instances/$INST 2>/dev/null; rm -rf "$W"; }
trap cleanup EXIT
cat > "$W/rasd.conf" <<CONF
crash_harvest = no
boot_instance =
persistent_instance =
database = $DB
instance = $INST
lock_dir = $W/lock
formats_dir = $FORMATS
allow_synthetic = yes
CONF
[ -n "${SOAK_COMMIT_DELAY_MS:-}" ] && echo "commit_delay_ms = $SOAK_COMMIT_DELAY_MS" >> "$W/rasd.conf"
"$top_builddir/rasd/rasd" --config "$W/rasd.conf" 2>"$W/rasd.log" & PID=$!
for _ in $(seq 100); do grep -q recording "$W/rasd.log" && break; sleep 0.1; done
# Run as "nice make soak", the writer and the rest stay low; rasd runs as systemd runs it.
renice -n 0 -p "$PID" >/dev/null

figures() {
	local rss fds size wal
	rss=$(awk '/^VmRSS/ {print $2}' /proc/$PID/status)
	fds=$(ls /proc/$PID/fd | wc -l)
	wal=$( [ -e "$DB-wal" ] && stat -c %s "$DB-wal" || echo 0)
	size=$(( $(stat -c %s "$DB") + wal ))
	wbytes=$(awk '/^write_bytes/ {print $2}' /proc/$PID/io)
	wcalls=$(awk '/^syscw/ {print $2}' /proc/$PID/io)
	stored=$(sqlite3 "file:$DB?mode=ro" "SELECT (SELECT count(*) FROM mc_event) +
		(SELECT coalesce(sum(records), 0) FROM folds WHERE tbl = 'mc_event')" 2>/dev/null)
	printf '%-6s rss %6s KiB  fds %3s  database %10s bytes (wal %9s)  written %11s bytes in %8s calls  stored %7s records\n' \
		"$1" "$rss" "$fds" "$size" "$wal" "$wbytes" "$wcalls" "$stored"
}
echo "soak: $MINUTES minutes at $RATE records/s, rasd pid $PID, instance $INST"
sleep 2
figures start
b0=$wbytes c0=$wcalls s0=$stored
total=$((MINUTES * 60 * RATE))
t0=$(date +%s)
# SOAK_CORRECTED=1: corrected errors of one DIMM, which fold past fold_threshold.
accepted=$("$top_builddir/tests/synth-writer" $T "$INST" "$FORMATS" soak 0 "$total" "$RATE" \
	${SOAK_CORRECTED:+corrected})
sleep 2
figures end
n=$((stored - s0))
[ "$n" -gt 0 ] && echo "per record stored: $(( (wbytes - b0) / n )) bytes written, $(awk -v c=$((wcalls - c0)) -v n=$n 'BEGIN {printf "%.2f", c / n}') write calls"
lost=$(sqlite3 "file:$DB?mode=ro" "SELECT coalesce(sum(count),0) FROM lost_events")
distinct=$(sqlite3 "file:$DB?mode=ro" "SELECT count(DISTINCT msg) FROM mc_event WHERE msg LIKE 'soak-%'")
folded=$(sqlite3 "file:$DB?mode=ro" "SELECT coalesce(sum(records), 0) FROM folds WHERE tbl = 'mc_event'")
echo "elapsed $(( $(date +%s) - t0 )) s; written $total (kernel accepted $accepted), stored $distinct distinct" \
	"and $folded folded into storm counts, counted lost $lost"
kill -TERM $PID; wait $PID; PID=
grep -o -e 'durable after arrival.*' -e 'commit duration.*' "$W/rasd.log" ||
	echo "rasd reported no durability figures"
[ $((stored + lost)) = "$total" ]
