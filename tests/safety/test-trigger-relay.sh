#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl trigger-relay (a trigger's way out of rasd's sandbox, rasd(8)):
# the serving side keeps only RAS_* variables with printable values, runs
# DIR/RAS_CONDITION only for a known condition and a path the rule accepts,
# and says how it ended; the trigger's side sends its variables over a socket
# and exits as the relayed program did. The socket activation of
# rasd-trigger.socket is played by a few lines of Python here (systemd does
# it under QEMU: tests/qemu/guest/systemd-tests.sh).
set -u
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
W=$(mktemp -d /tmp/ras-fdr-relay-XXXXXX)
trap 'kill ${SRV:-} 2>/dev/null; rm -rf "$W"' EXIT
mkdir -m 0755 "$W/relayed"
printf '#!/bin/sh\necho "relayed $0 as uid $(id -u)"\nenv | sort\nexit ${RAS_EXIT:-0}\n' > "$W/relayed/uncorrected"
chmod 0755 "$W/relayed/uncorrected"
serve() { "$CTL" trigger-relay --serve --dir "${1:-$W/relayed}" > "$W/out"; }

printf 'RAS_CONDITION=uncorrected\nRAS_SUBJECT=page 0x1000\nLD_PRELOAD=/tmp/evil.so\nRAS_lower=1\nRAS_ESC=a\033]0;x\007b\nPATH=/tmp/evil\n' | serve
rc=$?
ok "$([ $rc = 0 ] && grep -q "^relayed $W/relayed/uncorrected as uid" "$W/out" && echo 0 || echo 1)" \
	"--serve runs DIR/RAS_CONDITION: $(head -1 "$W/out")"
grep -qx "RAS_SUBJECT=page 0x1000" "$W/out"; ok $? "  with the RAS_ variables"
ok "$(grep -qE '^(LD_PRELOAD|RAS_lower|RAS_ESC)=' "$W/out" && echo 1 || echo 0)" \
	"  and nothing else: no LD_PRELOAD, no lower-case name, no value with an escape"
grep -qx "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$W/out"; ok $? "  its own PATH"
[ "$(tail -n 1 "$W/out")" = "relayed trigger $W/relayed/uncorrected exited with 0" ]
ok $? "  and says how it ended: $(tail -n 1 "$W/out")"

for cond in ../relayed/uncorrected nosuch; do
	printf 'RAS_CONDITION=%s\n' "$cond" | serve; rc=$?
	ok "$([ $rc = 1 ] && grep -q "refused: no RAS_CONDITION naming a known condition" "$W/out" && echo 0 || echo 1)" \
		"RAS_CONDITION=$cond is refused: $(cat "$W/out")"
done
chmod 0777 "$W/relayed"
printf 'RAS_CONDITION=uncorrected\n' | serve; rc=$?
ok "$([ $rc = 1 ] && grep -q "refusing uncorrected: directory $W/relayed is writable by other users" "$W/out" && echo 0 || echo 1)" \
	"a relayed-triggers directory others can write is refused: $(cat "$W/out")"
chmod 0755 "$W/relayed"
printf 'RAS_CONDITION=lost-records\n' | serve; rc=$?
ok "$([ $rc = 1 ] && grep -q "refusing lost-records: .*lost-records: No such file" "$W/out" && echo 0 || echo 1)" \
	"no relayed trigger for the condition: $(cat "$W/out")"
# Every condition rasd runs a trigger for crosses, crash (lastwords) too.
cp "$W/relayed/uncorrected" "$W/relayed/crash"
printf 'RAS_CONDITION=crash\nRAS_CAUSE=mce\n' | serve; rc=$?
ok "$([ $rc = 0 ] && grep -q "^relayed $W/relayed/crash as uid" "$W/out" && grep -qx "RAS_CAUSE=mce" "$W/out" && echo 0 || echo 1)" \
	"RAS_CONDITION=crash is relayed: $(head -1 "$W/out")"
# verdict-change (rasd/health.c) too: the relay once refused it as unknown.
cp "$W/relayed/uncorrected" "$W/relayed/verdict-change"
printf 'RAS_CONDITION=verdict-change\nRAS_VERDICT=replace\n' | serve; rc=$?
ok "$([ $rc = 0 ] && grep -q "^relayed $W/relayed/verdict-change as uid" "$W/out" && grep -qx "RAS_VERDICT=replace" "$W/out" && echo 0 || echo 1)" \
	"RAS_CONDITION=verdict-change is relayed: $(head -1 "$W/out")"

# The trigger's side over a socket, each connection served as systemd's Accept=yes would.
if command -v python3 >/dev/null; then
	python3 -c 'import os, socket, subprocess, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.bind(sys.argv[1]); s.listen(4)
open(sys.argv[1] + ".ready", "w").close()
while True:
    c, _ = s.accept()
    subprocess.run(sys.argv[2:], stdin=c.fileno(), stdout=c.fileno()); c.close()' \
		"$W/sock" "$CTL" trigger-relay --serve --dir "$W/relayed" & SRV=$!
	# Up to 60 s: at a load of 15 python3 took more than 5 s to start (tests/live-lib.sh).
	i=0; while [ ! -e "$W/sock.ready" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
	out=$(env -i RAS_CONDITION=uncorrected RAS_SUBJECT=cpu1 "$CTL" trigger-relay --socket "$W/sock"); rc=$?
	ok "$([ $rc = 0 ] && echo "$out" | grep -qx "RAS_SUBJECT=cpu1" && echo 0 || echo 1)" \
		"trigger-relay sends its RAS_ variables and prints what came back (exit $rc)"
	env -i RAS_CONDITION=uncorrected RAS_EXIT=3 "$CTL" trigger-relay --socket "$W/sock" >/dev/null; rc=$?
	ok "$([ $rc = 1 ] && echo 0 || echo 1)" "a relayed trigger that fails: exit 1"
	kill $SRV; SRV=
fi
"$CTL" trigger-relay --socket "$W/none" 2>"$W/err"; rc=$?
ok "$([ $rc = 1 ] && grep -q "cannot connect to $W/none" "$W/err" && echo 0 || echo 1)" "no socket: exit 1, said: $(cat "$W/err")"
echo "1..$n"
[ $failed = 0 ]
