#!/bin/bash
# SPDX-License-Identifier: MIT
# Text from a record never becomes more than one path component (issue 31;
# root and tracefs, else exit 77): CXL DRAM records whose memdev is
# "../../../../evil" cross row_ce_threshold with memory_repair = yes. Until
# now the repair looked up sysfs_root/bus/edac/devices/../../../../evil and
# wrote the row there; now the decision is refused, recorded in the actions
# table with the reason, and nothing outside sysfs_root is touched. A plain
# memdev is still repaired.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

live_setup rpath "synthetic_actions = yes" "row_ce_threshold = 2/1h" "memory_repair = yes" \
	"action_min_interval_s = 0"
SYS=$WORK/sys
echo "sysfs_root = $SYS" >> "$WORK/rasd.conf"
# sysfs_root/bus/edac/devices/../../../.. is $WORK: a repair function the traversal would find.
for d in "$WORK/evil/mem_repair0" "$SYS/bus/edac/devices/mem0/mem_repair0"; do
	mkdir -p "$d"
	for a in dpa channel rank bank_group bank row repair; do : > "$d/$a"; done
	echo ppr > "$d/repair_type"
done
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
cxl() { # MEMDEV TAG
	ctl inject --synthetic cxl:cxl_dram "memdev=$1" host=0000:0d:00.0 log=1 serial=7 dpa=0x8000 \
		hpa=0x4080001000 channel=1 rank=0 bank_group=2 bank=3 row=0x1234 column=8 \
		validity_flags=0x3b descriptor=0 type=0 >/dev/null
}
decided() { [ "$(q "SELECT count(*) FROM actions WHERE kind = 'row' AND $1")" -ge 1 ]; }

"$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log" &
PID=$!
wait_for 30 grep -q "recording" "$WORK/rasd.log"; ok $? "rasd records into $INST"

cxl ../../../../evil; cxl ../../../../evil
wait_for 30 decided "subject LIKE '../../../../evil %'"; ok $? "two errors on the row of memdev ../../../../evil cross the threshold"
ok "$(decided "subject LIKE '../../../../evil %' AND result = 'refused' AND errno = $(printf '%d' 22)" && echo 0 || echo 1)" \
	"the decision is refused (EINVAL): $(q "SELECT action, result, errno FROM actions WHERE kind = 'row'")"
ok "$(decided "target LIKE 'refused: device name \"../../../../evil\" from the record is not a plain file name'" && echo 0 || echo 1)" \
	"its target says why: $(q "SELECT target FROM actions WHERE kind = 'row'")"
ok "$([ ! -s "$WORK/evil/mem_repair0/row" ] && [ ! -s "$WORK/evil/mem_repair0/repair" ] && echo 0 || echo 1)" \
	"nothing written outside sysfs_root ($WORK/evil/mem_repair0/row: '$(cat "$WORK/evil/mem_repair0/row")')"
ctl actions 2>&1 | grep -q "refused"; ok $? "ras-fdr-ctl actions shows it refused"
grep -q "repair: refused" "$WORK/rasd.log"; ok $? "and the log: $(grep -m1 "repair: refused" "$WORK/rasd.log")"

cxl mem0; cxl mem0
wait_for 30 decided "subject LIKE 'mem0 %' AND result = 'done'"; ok $? "a plain memdev's row is repaired"
ok "$([ "$(cat "$SYS/bus/edac/devices/mem0/mem_repair0/row")" = 4660 ] && echo 0 || echo 1)" \
	"  its row written under sysfs_root: $(cat "$SYS/bus/edac/devices/mem0/mem_repair0/row")"
kill "$PID"; wait "$PID"; PID=
done_testing
