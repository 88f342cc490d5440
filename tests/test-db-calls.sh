#!/bin/sh
# SPDX-License-Identifier: MIT
# db/'s files call one another one way only (issue 39). On the built objects:
# a file F calls G when F has an undefined symbol that G defines (nm). Checked:
#  - no two db/ files call each other (a mutual pair);
#  - no longer circle either (F -> G -> ... -> F), with tsort;
#  - the write path's files keep the order HACKING.md's storage walk gives them
#    (WRITE_PATH below, top first): a file calls only files below it.
# Reads the objects, so it runs after make builds them; under the arm64 cross
# build it reads the aarch64 objects with aarch64-linux-gnu-nm (or an nm that
# reads them), and skips when none does.
# A skip says "1..0 # SKIP" and exits 0: the tap driver reports a skip plan as
# SKIP only when the script then succeeds (77 is an ERROR there).
build=${top_builddir:-.}
skip() { echo "1..0 # SKIP $1"; exit 0; }

set -- "$build"/db/libdb_a-*.o
[ -f "$1" ] || skip "db/'s objects are not built in $build"
NM=${NM:-nm}
# e_machine 0xb7 (EM_AARCH64) at byte 18 of the ELF header: the cross build's objects.
if [ "$(od -An -tx1 -j18 -N2 "$1" 2>/dev/null | tr -d ' ')" = b700 ] &&
   command -v aarch64-linux-gnu-nm >/dev/null; then
	NM=aarch64-linux-gnu-nm
fi
command -v "$NM" >/dev/null || skip "no nm ($NM)"
"$NM" -P "$1" >/dev/null 2>&1 || skip "$NM cannot read $1"

# The write path, top first (HACKING.md, "The storage path"): opening (db.c),
# the transaction and its stages' table (db_txn.c) above the schema that
# rebuilds the stages, the
# stages (raw rows, folding, roll-ups, metrics subjects), the rows they store,
# then the writer thread and the leaf helpers.
WRITE_PATH="db db_txn db_schema db_insert db_fold_job db_fold db_fold_entries db_fold_limits db_fold_write
	db_fold_hold db_rows db_fold_row db_fold_times db_rollup db_edac_rollup db_metrics
	db_sql db_writer db_writer_rows db_columns db_base db_moved"
# Mutual pairs still allowed, "a:b" (none: keep it empty; it may only shrink).
ALLOWED=""

n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }

tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
# "caller callee symbol", one a line. One nm for every object: a process per
# object was a minute on a loaded machine.
"$NM" -A -P "$@" | awk '{ f = $1; sub(/:$/, "", f); sub(/.*libdb_a-/, "", f); sub(/\.o$/, "", f)
		if ($3 == "U") print "U", f, $2; else if ($3 ~ /^[TDRBVWC]$/) print "D", f, $2 }' |
	awk '$1 == "D" { def[$3] = $2; next } { use[++n] = $2 " " $3 }
	END { for (i = 1; i <= n; i++) { split(use[i], u, " ")
		if ((u[2] in def) && def[u[2]] != u[1]) print u[1], def[u[2]], u[2] } }' > "$tmp/edges"
awk '{ print $1, $2 }' "$tmp/edges" | sort -u > "$tmp/calls"

# A check that finds nothing must have had something to look at.
grep -qx "db_insert db_writer" "$tmp/calls"
ok $? "nm finds db/'s calls in $# objects ($(wc -l < "$tmp/calls") caller-callee pairs)"

mutual=""
while read -r a b; do
	[ "$a" \< "$b" ] || continue
	grep -qx "$b $a" "$tmp/calls" || continue
	case " $ALLOWED " in *" $a:$b "*) continue ;; esac
	syms=$(awk -v a="$a" -v b="$b" '($1 == a && $2 == b) || ($1 == b && $2 == a) { printf " %s->%s:%s", $1, $2, $3 }' "$tmp/edges")
	mutual="$mutual
	$a <-> $b:$syms"
done < "$tmp/calls"
[ -z "$mutual" ]; ok $? "no two db/ files call each other${mutual:+:$mutual}"

# tsort names the files of each circle on stderr: the first is enough to show.
loop=$(tsort "$tmp/calls" 2>&1 >/dev/null |
	awk '/input contains a loop/ { if (seen++) exit; next } { sub(/^tsort: /, ""); printf "%s ", $0 }')
[ -z "$loop" ]; ok $? "no circle of calls through db/${loop:+: $loop}"

down=""
for f in $WRITE_PATH; do
	[ -f "$build/db/libdb_a-$f.o" ] || down="$down $f(no object)"
done
rank=1
for f in $WRITE_PATH; do echo "$f $rank"; rank=$((rank + 1)); done > "$tmp/rank"
up=$(awk 'NR == FNR { r[$1] = $2; next } ($1 in r) && ($2 in r) && r[$2] <= r[$1] { printf " %s->%s(%s)", $1, $2, $3 }' \
	"$tmp/rank" "$tmp/edges")
[ -z "$down$up" ]; ok $? "the write path's files call only files below them${down:+:$down}${up:+:$up}"

echo "1..$n"
[ "$failed" = 0 ]
