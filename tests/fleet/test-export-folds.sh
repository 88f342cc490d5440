#!/bin/bash
# SPDX-License-Identifier: MIT
# export delivers every record once whatever storm folding did to it (issue
# 33): a storm folds (rasd's default configuration: past 100 a DIMM in an
# hour) while it is written in commits of seeded sizes, trickles whose rows
# fold after they were committed (and exported) and batches folded before any
# reader saw them, a folded period growing after it was exported; meanwhile
# exports append to a file and are killed at random points of their output
# (a fixed seed: the same points on any machine, whatever its speed). At the
# end every record is in the output once, as a row or as a second of a fold
# line, and the lines add up to what summary counts.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
WRITER=$top_builddir/tests/fleet/storm-writer
PY=/usr/bin/python3
[ -x $PY ] || { echo "1..0 # SKIP no /usr/bin/python3"; exit 77; }
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-export-folds-XXXXXX)
cleanup() { [ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null; [ -n "${wpid:-}" ] && kill "$wpid" 2>/dev/null
	wait 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
DB=$WORK/ras.db
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
export_to() { "$CTL" --config /dev/null --db "$DB" export --cursor-file "$WORK/$1" "${@:2}"; }
check() { $PY "$top_srcdir/tests/fleet/check-storm.py" "$@"; }
RANDOM=3317

# The exporter, killed when its output has grown a seeded 1 to 40 KiB (or when it is done).
kill_midway() {
	local past=$(($3 + (RANDOM % 40 + 1) * 1024))
	while [ "$(stat -c %s "$2")" -le $past ] && kill -0 "$1" 2>/dev/null; do sleep 0.001; done
	kill -9 "$1" 2>/dev/null
}

# 24 phases of 250 records; the writer stops without folding what waits (a killed rasd), but the last.
PHASES=24 PER=250 TOTAL=$((24 * 250))
"$WRITER" "$DB" 0 1 1 || { echo "1..0 # SKIP the writer cannot store"; exit 77; }
(
	for p in $(seq 0 $((PHASES - 1))); do
		first=$((p * PER)) count=$PER
		[ $p = 0 ] && first=1 count=$((PER - 1))
		[ $p = $((PHASES - 1)) ] && settle= || settle=nosettle
		"$WRITER" "$DB" $first $count $((p + 11)) $settle || exit 1
	done
) & wpid=$!
: > "$WORK/out"
kills=0 runs=0
while kill -0 $wpid 2>/dev/null || [ $runs -lt 3 ]; do
	runs=$((runs + 1))
	start=$(stat -c %s "$WORK/out")
	"$CTL" --config /dev/null --db "$DB" export --cursor-file "$WORK/c" --batch $((RANDOM % 50 + 1)) \
		>> "$WORK/out" 2>>"$WORK/err" & pid=$!
	kill_midway $pid "$WORK/out" "$start"
	wait $pid 2>/dev/null; rc=$?; pid=
	[ $rc = 137 ] && kills=$((kills + 1))
	[ $runs -gt 2000 ] && break
done
wait $wpid; is $? 0 "the storm is stored in $PHASES runs of the writer"
wpid=
export_to c >> "$WORK/out"; is $? 0 "a last export completes"
folded=$(q "SELECT sum(records) FROM folds")
ok "$([ "${folded:-0}" -gt $((TOTAL / 2)) ] && echo 0 || echo 1)" "the storm folded ($folded of $TOTAL records)"
ok "$([ "$(q "SELECT count(*) FROM fold_growth WHERE ids IS NOT NULL")" -gt 0 ] && echo 0 || echo 1)" \
	"rows folded after their commit are among them"
ok "$([ $kills -ge 5 ] && echo 0 || echo 1)" "the exports were killed mid-way $kills times in $runs runs"
read -r rows seconds missing twice extra invalid folds < <(check "$WORK/out" $TOTAL)
is "$missing/$twice/$extra/$invalid" "0/0/0/0" \
	"every record once: $rows as rows, $seconds in $folds fold lines ($kills kills)"
sum=$("$CTL" --config /dev/null --db "$DB" summary --json | $PY -c 'import json, sys; print(json.load(sys.stdin)["total"])')
is "$((rows + seconds))" "$sum" "the lines add up to what summary counts"

# A period still growing: exported, then more of the same hour folds into the same folds row.
before=$(q "SELECT max(seq) FROM fold_growth")
"$WRITER" "$DB" $TOTAL 300 99; is $? 0 "300 more records of the same storm"
export_to c >> "$WORK/out"
read -r rows seconds missing twice extra invalid folds < <(check "$WORK/out" $((TOTAL + 300)))
is "$missing/$twice/$extra/$invalid" "0/0/0/0" "a period that grew after it was exported: its growth once"
ok "$([ "$(q "SELECT count(DISTINCT fold) FROM fold_growth WHERE seq > $before AND fold IN (SELECT fold FROM fold_growth WHERE seq <= $before)")" -gt 0 ] && echo 0 || echo 1)" \
	"the growth went to a folds row exported before"
export_to c > "$WORK/again"; is "$(wc -c < "$WORK/again")" 0 "nothing new: nothing printed"

# The same stream exported whole by a fresh cursor gives the same records.
export_to c2 > "$WORK/whole"
read -r rows2 seconds2 missing twice extra invalid folds < <(check "$WORK/whole" $((TOTAL + 300)))
is "$missing/$twice/$extra/$invalid" "0/0/0/0" "a fresh cursor delivers every record once"

# One writer (one storm state, as one rasd) and an export after every third of its commits:
# rows committed, exported, then folded with the ones after them: their fold lines leave them
# out; rows committed and folded between two exports are in them.
DB=$WORK/paced.db
coproc W { "$WRITER" "$DB" 0 1500 5 pace; }
wpid=$W_PID lines=0
while read -r word _ <&"${W[0]}"; do
	[ "$word" = committed ] || break
	[ $((lines % 3)) = 0 ] && export_to c3 >> "$WORK/paced"
	lines=$((lines + 1))
	echo go >&"${W[1]}"
done
wait $wpid; is $? 0 "1500 records stored by one writer, exported after every third of its $lines commits"
export_to c3 >> "$WORK/paced"
read -r rows seconds missing twice extra invalid folds < <(check "$WORK/paced" 1500)
is "$missing/$twice/$extra/$invalid" "0/0/0/0" "every record once: $rows as rows, $seconds in $folds fold lines"
partial=$(grep -c '"delivered_as_records":[1-9]' "$WORK/paced")
skipped=$(( $(q "SELECT count(*) FROM fold_growth") - folds ))
wpid=
ok "$([ $((partial + skipped)) -gt 0 ] && echo 0 || echo 1)" \
	"rows exported, then folded: $partial fold lines without some, $skipped growths without a line"

# reset --purge deletes the purged folds' growth (the newest seqs among them) between two
# exports: the folds written after it are delivered, not taken for what the cursor has seen.
DB=$WORK/purged.db
"$WRITER" "$DB" 0 1 1 && "$WRITER" "$DB" 1 999 21; is $? 0 "1000 records of a storm stored"
export_to c4 > "$WORK/purged1"
"$CTL" --config /dev/null --db "$DB" reset --purge --yes > /dev/null; is $? 0 "reset --purge"
is "$(q "SELECT count(*) FROM fold_growth")" 0 "the purged folds' growth went with them"
"$WRITER" "$DB" 1000 500 22; is $? 0 "500 more records fold after the purge"
export_to c4 > "$WORK/purged2" 2> "$WORK/purged2.err"
read -r rows seconds missing twice extra invalid folds < <(check "$WORK/purged2" 1500)
is "$((rows + seconds))/$twice/$extra/$invalid" "500/0/0/0" \
	"every record stored after the purge exported once ($rows as rows, $seconds in $folds fold lines)"
is "$(wc -c < "$WORK/purged2.err")" 0 "and export saw no database behind its cursor"

# Every line kind has a fixed shape: JSON Schema per kind (doc/schema/export-*.schema.json).
$PY -c 'import jsonschema' 2>/dev/null && {
	$PY "$top_srcdir/tests/fleet/validate-export.py" "$top_srcdir/doc/schema" "$WORK/out" "$WORK/whole" "$WORK/paced" "$WORK/purged2"
	is $? 0 "every line validates against the schema of its kind"
}
echo "1..$n"
[ $failed = 0 ]
