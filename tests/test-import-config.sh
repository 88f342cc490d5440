#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl import-config: mcelog's own daemon-test configurations and a
# rasdaemon settings file become rasd.conf lines that rasd --check-config
# accepts, with a comment for each setting that has no equivalent.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
RASD=$top_builddir/rasd/rasd
D=$(cd "$top_srcdir/tests/data/import" && pwd)
WORK=$(mktemp -d /tmp/ras-fdr-import-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
has() { grep -qxF -- "$2" "$1"; ok $? "$(basename "$1" .out): $2"; }

for f in mcelog-page-soft-then-hard.conf mcelog-cache.conf mcelog-socket-1.conf rasdaemon.env; do
	"$CTL" -c /dev/null import-config "$D/$f" > "$WORK/$f.out"; ok $? "import-config $f exits 0"
	# What it prints is a configuration rasd accepts as is.
	"$RASD" --config "$WORK/$f.out" --check-config > "$WORK/$f.check" 2>&1
	ok $? "rasd --check-config accepts the lines from $f $(head -c 200 "$WORK/$f.check")"
done
o=$WORK/mcelog-page-soft-then-hard.conf.out
has "$o" "page_ce_threshold = 1/1h"
has "$o" "page_ce_action = soft-then-hard"
has "$o" "trigger_dir = $D"
has "$o" "# page.memory-ce-trigger = ../trigger: rasd runs trigger_dir/page-threshold (facts in RAS_* variables, rasd.conf(5)); install it there: ln -s ../trigger <trigger_dir>/page-threshold"
has "$o" "# num-errors = 6: no equivalent in rasd.conf"
o=$WORK/mcelog-cache.conf.out
has "$o" "trigger_max_children = 3"
grep -q "trigger_dir/cpu-threshold" "$o"; ok $? "cache-threshold-trigger becomes the cpu-threshold trigger"
o=$WORK/mcelog-socket-1.conf.out
has "$o" "# socket.mem-ce-error-threshold = 1 / 1min: no equivalent in rasd.conf"
has "$o" "# dmi = yes: no equivalent in rasd.conf"
grep -q "trigger_dir/uncorrected" "$o"; ok $? "mem-uc-error-trigger becomes the uncorrected trigger"
o=$WORK/rasdaemon.env.out
has "$o" "page_ce_threshold = 50/24h"
has "$o" "page_ce_action = soft"
has "$o" "cpu_ce_threshold = 18/24h"
has "$o" "cpu_ce_action = offline"
has "$o" "trigger_dir = /etc/rasdaemon/triggers"
has "$o" "# MEM_CE_TRIGGER=mem_ce_trigger: no equivalent in rasd.conf"
"$CTL" -c /dev/null import-config /nonexistent 2>/dev/null; [ $? = 1 ]; ok $? "a missing file is an error"
echo "1..$n"
[ $failed = 0 ]
