# SPDX-License-Identifier: MIT
# Shared by the live shell tests: skip without root/tracefs, TAP output,
# polling with a deadline, read-only queries. Source it; set DB first for q().
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
RASD=$top_builddir/rasd/rasd
CTL=$top_builddir/ctl/ras-fdr-ctl
T=/sys/kernel/tracing

if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root"; exit 77; fi
[ -d $T/instances ] || mount -t tracefs nodev $T 2>/dev/null
if [ ! -d $T/instances ]; then echo "1..0 # SKIP no tracefs"; exit 77; fi
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }

n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
# Polls a command until it succeeds or the deadline (seconds) passes; never a sleep as the assertion.
wait_for() { local deadline=$(( $(date +%s) + $1 )); shift
	until "$@" >/dev/null 2>&1; do [ "$(date +%s)" -ge $deadline ] && return 1; sleep 0.05; done; }
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
done_testing() { echo "1..$n"; [ $failed = 0 ]; }
