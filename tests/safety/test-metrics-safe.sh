#!/bin/bash
# SPDX-License-Identifier: MIT
# The metrics textfile is never written through a link (issue 31; root and
# tracefs, else exit 77). An unprivileged user (nobody) plants a link to a
# root-only file at the textfile's temporary name (PATH.<pid>.tmp until
# now): in a directory nobody can write, rasd refuses the directory, says so
# once and in ras-fdr-ctl status (exit 3); where the directory is root's but
# sits in nobody's (Debian's /var/lib/prometheus), rasd writes it, and when
# nobody puts a directory of its own in its place, with links at every name,
# rasd refuses that. The linked file keeps its content and mode throughout.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"
command -v runuser >/dev/null || { echo "1..0 # SKIP no runuser"; exit 77; }

live_setup msafe
chmod 0755 "$WORK"
CONF=$WORK/rasd.conf
cp "$CONF" "$CONF.base"
as_nobody() { runuser -u nobody -- sh -c "$1"; }
ctl() { "$CTL" --config "$CONF" "$@"; }
echo precious > "$WORK/victim"; chmod 0600 "$WORK/victim"
victim_intact() { [ "$(cat "$WORK/victim")" = precious ] && [ "$(stat -c %a "$WORK/victim")" = 600 ]; }
status_refuses() { local out; out=$(ctl status 2>&1); [ $? = 3 ] && printf '%s\n' "$out" | grep -qF "Refused: $1"; }
record() { # TAG: a corrected record, stored (the textfile is written after its commit)
	ctl inject --synthetic ras:mc_event error_type=0 "msg=m-$1" mc_index=0 top_layer=0 \
		middle_layer=0 lower_layer=-1 >/dev/null &&
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg='m-$1'\")\" = 1 ]"
}
start() { # TEXTFILE
	{ cat "$CONF.base"; echo "metrics_textfile = $1"; } > "$CONF"
	: > "$WORK/rasd.log"
	"$RASD" --config "$CONF" 2>"$WORK/rasd.log" &
	PID=$!
	wait_for 30 grep -q "recording" "$WORK/rasd.log"
}
stop() { kill "$PID"; wait "$PID"; PID=; }

# A directory nobody can write (0777); the link where the temporary file was.
mkdir -m 0777 "$WORK/open"
start "$WORK/open/ras.prom"; ok $? "rasd runs, metrics_textfile in a world-writable directory"
as_nobody "ln -s $WORK/victim $WORK/open/ras.prom.$PID.tmp; ln -s $WORK/victim $WORK/open/ras.prom"
record open1; ok $? "a record is stored"
wait_for 30 status_refuses "metrics_textfile: directory $WORK/open is writable by other users"
ok $? "status says the textfile's directory is refused, exit 3"
record open2
ok "$(victim_intact && echo 0 || echo 1)" "the file linked from the temporary name is untouched (content, mode $(stat -c %a "$WORK/victim"))"
ok "$([ "$(grep -c "refusing metrics_textfile" "$WORK/rasd.log")" = 1 ] && echo 0 || echo 1)" \
	"two records, the refusal logged once"
stop

# A root directory in nobody's (RAS_SAFE_OTHERS_ABOVE): written, 0644.
mkdir -m 0755 "$WORK/theirs"; chown nobody "$WORK/theirs"
mkdir -m 0755 "$WORK/theirs/node-exporter"
start "$WORK/theirs/node-exporter/ras.prom"; ok $? "rasd runs, the textfile's directory root's, in nobody's"
record above1
wait_for 30 grep -q "^ras_fdr_records_total" "$WORK/theirs/node-exporter/ras.prom"
ok $? "the textfile is written"
ok "$([ "$(stat -c %a "$WORK/theirs/node-exporter/ras.prom")" = 644 ] && echo 0 || echo 1)" "mode 0644"
# rasd rewrites the textfile on its heartbeat too, so a temporary file may be
# there for a moment: what must not be is one that stays.
only_textfile() { ! ls -A "$WORK/theirs/node-exporter" | grep -qv '^ras.prom$'; }
wait_for 30 only_textfile
ok $? "and no temporary file is left"
ok "$(ctl status 2>&1 | grep -q "^Refused:" && echo 1 || echo 0)" "status shows no refusal"
# nobody swaps in a directory of its own, links at the textfile's and every temporary name
as_nobody "mv $WORK/theirs/node-exporter $WORK/theirs/old && mkdir $WORK/theirs/node-exporter &&
	ln -s $WORK/victim $WORK/theirs/node-exporter/ras.prom &&
	ln -s $WORK/victim $WORK/theirs/node-exporter/ras.prom.$PID.tmp"
record above2
wait_for 30 status_refuses "metrics_textfile: directory $WORK/theirs/node-exporter belongs to another user (uid 65534)"
ok $? "nobody's directory put in its place is refused, status exit 3"
ok "$(victim_intact && echo 0 || echo 1)" "the linked file is untouched (content, mode $(stat -c %a "$WORK/victim"))"
stop

# ras-fdr-ctl metrics --output: the same rule, the refusal said.
out=$(ctl metrics --output "$WORK/open/ctl.prom" 2>&1); rc=$?
ok "$([ $rc = 1 ] && echo "$out" | grep -q "writable by other users" && echo 0 || echo 1)" \
	"ras-fdr-ctl metrics --output into a world-writable directory is refused: $out"
ctl metrics --output "$WORK/ctl.prom"; ok $? "and into a good one written"
done_testing
