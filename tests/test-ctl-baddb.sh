#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl on databases it must not read as empty (issue 10): corrupt,
# truncated, not SQLite, empty, another application's, a newer ras-fdr's, a
# directory and a symbolic link. Every command that reads the database says
# so and exits non-zero; with --json an {"version":2,"error":...} object is on stdout.
# Needs only the sqlite3 CLI (no root, no tracefs).
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
W=$(mktemp -d /tmp/ras-fdr-baddb-XXXXXX)
trap 'rm -rf "$W"' EXIT
mkdir "$W/empty-sysfs" "$W/lock"

# A ras-fdr database of the current schema, spread over several pages.
good() { "$top_builddir/tests/make-db" "$1" && sqlite3 "$1" "
	WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM k WHERE i < 2000)
	  INSERT INTO mc_event (wall_ns, trace_ts, trace_cpu, boot, source, rec_hash, severity, synthetic, msg)
	  SELECT 1700000000000000000 + i, i, 0, 1, 'live', i, 'corrected', 0, printf('row %d padding', i) FROM k;
	-- rasd counts each row in its hourly roll-up as it inserts it; rows made here by hand are counted here.
	INSERT INTO rollup_hourly SELECT 'mc_event', wall_ns / 3600000000000, boot, source, synthetic,
	  severity, '', count(*), min(wall_ns), max(wall_ns) FROM mc_event GROUP BY 2, 3, 4, 5, 6;
	PRAGMA wal_checkpoint(TRUNCATE);"; }

good "$W/good.db" >/dev/null || { echo "Bail out! cannot make a database"; exit 1; }
cp "$W/good.db" "$W/corrupt.db"      # page 1's b-tree header damaged: the schema cannot be read
printf '\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$W/corrupt.db" bs=1 seek=100 conv=notrunc 2>/dev/null
cp "$W/good.db" "$W/truncated.db"    # a copy cut short
truncate -s $(( $(stat -c %s "$W/good.db") / 2 / 4096 * 4096 )) "$W/truncated.db"
head -c 60 "$W/good.db" > "$W/stub.db"
echo "this is not a database" > "$W/text.db"
: > "$W/zero.db"
sqlite3 "$W/foreign.db" "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL); INSERT INTO invoices VALUES (1, 9.5);"
good "$W/future.db" >/dev/null; sqlite3 "$W/future.db" "PRAGMA user_version = 99"
mkdir "$W/dir.db"
ln -s "$W/good.db" "$W/link.db"

cmds=("summary" "summary --json" "summary --by dimm" "errors" "errors --json" "status"
      "edac" "edac --json" "snapshot list" "snapshot list --json" "reset --yes mc0")
ctl() { "$CTL" --config /dev/null --sysfs-root "$W/empty-sysfs" -d "$1" -t "$W" -i none "${@:2}"; }

ctl "$W/good.db" summary >"$W/out" 2>&1; ok $? "a good database reads"
grep -q "mc_event .* 2000 " "$W/out"; ok $? "summary counts its 2000 rows: $(head -c 200 "$W/out" | tr '\n' ' ')"
ctl "$W/good.db" errors --limit 1 --json | grep -q '"msg":"row 2000 padding"'; ok $? "errors reads the newest row"

for bad in corrupt truncated stub text zero foreign future dir link; do
	for cmd in "${cmds[@]}"; do
		# shellcheck disable=SC2086
		ctl "$W/$bad.db" $cmd >"$W/out" 2>"$W/err"; rc=$?
		bogus=$(grep -cE 'No records|"total":0|Total: 0' "$W/out")
		good_json=0
		case "$cmd" in *--json*) grep -q '^{"version":2,"error":' "$W/out" || good_json=1 ;; esac
		ok "$([ $rc != 0 ] && [ "$bogus" = 0 ] && [ $good_json = 0 ] && [ -s "$W/err" ] && echo 0 || echo 1)" \
			"$bad: '$cmd' exits $rc and says: $(head -c 140 "$W/err" | tr '\n' ' ')"
	done
done
# Damage past the schema passes the cheap open check; the query that meets it fails loudly.
cp "$W/good.db" "$W/deep.db"
psize=$(sqlite3 "$W/good.db" "PRAGMA page_size")
pages=$(( $(stat -c %s "$W/good.db") / psize ))
# The mc_event table's own pages (not the roll-ups'), where errors must meet the damage.
for p in $(sqlite3 "$W/good.db" "SELECT pageno FROM dbstat WHERE name = 'mc_event' ORDER BY pageno DESC LIMIT 4" 2>/dev/null ||
	   seq $((pages - 4)) $((pages - 1))); do
	head -c 64 /dev/zero | tr '\0' '\377' | dd of="$W/deep.db" bs=1 seek=$(( (p - 1) * psize )) conv=notrunc 2>/dev/null
done
for cmd in "errors --limit 0" "errors --json --limit 0"; do
	# shellcheck disable=SC2086
	ctl "$W/deep.db" $cmd >"$W/out" 2>"$W/err"; rc=$?
	ok "$([ $rc != 0 ] && ! grep -qE 'No records|"total":0' "$W/out" && echo 0 || echo 1)" \
		"damaged data pages: '$cmd' exits $rc: $(head -c 140 "$W/err" | tr '\n' ' ')"
done
# summary answers from the roll-ups, which the damage did not reach: the full count, or an error.
for cmd in "summary" "summary --json"; do
	# shellcheck disable=SC2086
	ctl "$W/deep.db" $cmd >"$W/out" 2>"$W/err"; rc=$?
	ok "$({ [ $rc != 0 ] && [ -s "$W/err" ]; } || grep -qE 'mc_event .* 2000 |"count":2000' "$W/out" && echo 0 || echo 1)" \
		"damaged data pages: '$cmd' gives the whole count or an error (exit $rc)"
done
grep -q "corrupt" <(ctl "$W/truncated.db" errors 2>&1); ok $? "a truncated copy is called corrupt"
grep -q "newer than this ras-fdr" <(ctl "$W/future.db" errors 2>&1); ok $? "a newer schema says so"
grep -q "not a ras-fdr database" <(ctl "$W/foreign.db" errors 2>&1); ok $? "a foreign database says so"
grep -q "symbolic link" <(ctl "$W/link.db" errors 2>&1); ok $? "a symbolic link is not followed"
echo "1..$n"
[ $failed = 0 ]
