# SPDX-License-Identifier: MIT
# Shared by the live shell tests: skip without root/tracefs, TAP output,
# polling with a deadline, read-only queries. Source it; set DB first for q().
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
RASD=$top_builddir/rasd/rasd
CTL=$top_builddir/ctl/ras-fdr-ctl
T=/sys/kernel/tracing

if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root"; exit 77; fi
# The arm64 run under user-mode QEMU (contrib/bootstrap.sh): its binaries are not this
# kernel's architecture, so they record nothing real here. Exit 0: the tap driver
# reports a skip plan as SKIP only when the script then succeeds (77 is an ERROR there).
if [ -n "${RAS_TEST_NO_LIVE:-}" ]; then echo "1..0 # SKIP live tests off (RAS_TEST_NO_LIVE)"; exit 0; fi
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
# A stand-in for systemd's notify socket (when python3 is there): NS is its path,
# each message is appended to $1; LISTENER is its pid, for the test's cleanup.
notify_listen() {
	NS=$WORK/notify.sock
	command -v python3 >/dev/null || return 0
	python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(sys.argv[1])
with open(sys.argv[2], "a") as f:
    f.write("LISTENING\n"); f.flush()
    while True:
        f.write(s.recv(4096).decode(errors="replace") + "\n"); f.flush()' "$NS" "$1" & LISTENER=$!
	# Bound before rasd starts, or its first messages go nowhere: at a load of 15 or more
	# python3 took longer than the 5 s this used to wait, and the first STATUS= was lost.
	wait_for 60 grep -q '^LISTENING$' "$1" ||
		{ echo "Bail out! the notify listener did not start in 60 s"; exit 1; }
}
# Under AddressSanitizer a preloaded fault shim comes before its runtime: allow that.
shim_allow_asan() {
	ldd "$RASD" 2>/dev/null | grep -q libasan &&
		export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0"
	return 0
}
# RAS_TEST_WRITE_BEHIND (the *-behind.sh wrappers): rasd.conf lines that put
# rasd's records on its writer thread (storm folding off) and commit small
# batches behind, so the same faults meet a commit made on that thread.
behind_conf() {
	[ -n "${RAS_TEST_WRITE_BEHIND:-}" ] && printf 'fold_threshold = off\nbatch_max_records = 64\n'
	return 0
}
# A test of rasd on synthetic records: its own instance, work directory,
# database and rasd.conf (each further argument one more line of it), all
# removed at exit with rasd ($PID) and the notify listener. Sets INST, WORK,
# DB and FORMATS.
live_setup() { # NAME [CONF-LINE...]
	INST=rasdt_$1_$$
	WORK=$(mktemp -d "/tmp/ras-fdr-$1-XXXXXX")
	DB=$WORK/ras.db
	FORMATS=$(cd "$top_srcdir" && pwd)/formats
	shift
	trap live_cleanup EXIT
	{
		printf 'database = %s\ninstance = %s\nlock_dir = %s/lock\n' "$DB" "$INST" "$WORK"
		printf 'formats_dir = %s\nallow_synthetic = yes\n' "$FORMATS"
		# This machine's pstore records, and its boot and previous-boot
		# instances, are its own rasd's to harvest (and remove).
		printf 'crash_harvest = no\nboot_instance =\npersistent_instance =\n'
		behind_conf
		[ $# = 0 ] || printf '%s\n' "$@"
	} > "$WORK/rasd.conf"
}
live_cleanup() {
	[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null
	[ -n "${LISTENER:-}" ] && kill "$LISTENER" 2>/dev/null
	wait 2>/dev/null
	[ -d "$T/instances/$INST" ] && rmdir "$T/instances/$INST" 2>/dev/null
	# RAS_TEST_KEEP_LOG=FILE: rasd's log kept there, to read a failure after the fact.
	[ -z "${RAS_TEST_KEEP_LOG:-}" ] || cp "$WORK/rasd.log" "$RAS_TEST_KEEP_LOG" 2>/dev/null
	rm -rf "$WORK"
}
# The storage fault shim (tests/fault-shim.c), or a skip: SHIM, and CTLF its
# control file, empty (no fault yet).
fault_shim_setup() {
	SHIM=$(cd "$top_builddir" && pwd)/tests/fault-shim.so
	[ -f "$SHIM" ] || { echo "1..0 # SKIP no fault shim"; exit 77; }
	CTLF=$WORK/fault
	: > "$CTLF"
	shim_allow_asan
}
