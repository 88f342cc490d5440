#!/bin/bash
# SPDX-License-Identifier: MIT
# rasd and the files it writes (root and tracefs, else exit 77), issue 10:
# a corrupt or truncated database is moved aside and recording goes on; a
# foreign or newer one is left untouched and rasd records beside it; links
# planted where the database or lock will be, and directories other users can
# write, are refused; files are 0640 under umask 022; SIGHUP with the
# configuration deleted or broken keeps the running configuration.
set -u
. "${top_srcdir:-.}/tests/live-lib.sh"

INST=rasdt_files_$$
WORK=$(mktemp -d /tmp/ras-fdr-files-XXXXXX)
chmod 0755 "$WORK"
FORMATS=$(cd "$top_srcdir" && pwd)/formats
cleanup() {
	[ -n "${PID:-}" ] && kill "$PID" 2>/dev/null; wait 2>/dev/null
	[ -d $T/instances/$INST ] && rmdir $T/instances/$INST 2>/dev/null
	rm -rf "$WORK"
}
trap cleanup EXIT
conf() { cat > "$WORK/rasd.conf" <<CONF
crash_harvest = no
boot_instance =
persistent_instance =
database = $1
instance = $INST
lock_dir = ${2:-$WORK/lock}
formats_dir = $FORMATS
allow_synthetic = yes
CONF
}
start() { : > "$WORK/rasd.log"; (umask 022; exec "$RASD" --config "$WORK/rasd.conf" 2>"$WORK/rasd.log") & PID=$!
	wait_for 30 grep -q "RAS tracepoints in instance" "$WORK/rasd.log"; }
stop() { kill -TERM $PID; wait $PID; PID=; }
ctl() { "$CTL" --config "$WORK/rasd.conf" "$@"; }
inject_and_find() { ctl inject --synthetic ras:mc_event "msg=$2" >/dev/null ||
	{ echo "# instances: $(ls $T/instances | tr '\n' ' ')"; sed 's/^/# /' "$WORK/rasd.log"; ps -p ${PID:-0} >/dev/null && echo "# rasd alive"; false; } &&
	wait_for 30 sh -c "[ \"\$(sqlite3 'file:$1?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg='$2'\")\" = 1 ]"; }
mkdir -p "$WORK/d" "$WORK/lock"

# --- corrupt: page 1's b-tree header damaged, with a -wal beside it
# The schema version names the file rasd records into beside a foreign or newer one.
SCHEMA=$(sed -n "s/^#define RAS_DB_SCHEMA_VERSION \\([0-9]*\\)/\\1/p" "$top_srcdir/db/db.h")
DB=$WORK/d/corrupt.db
"$top_builddir/tests/make-db" "$DB"
printf '\xff\xff\xff\xff\xff\xff\xff\xff' | dd of="$DB" bs=1 seek=100 conv=notrunc 2>/dev/null
echo "wal bytes" > "$DB-wal"
conf "$DB"; start; ok $? "rasd starts on a corrupt database"
grep -q "corrupt.*moved to $DB.corrupt-" "$WORK/rasd.log"; ok $? "it says it moved the file aside: $(grep -o 'moved to [^,]*' "$WORK/rasd.log")"
aside=$(ls "$DB".corrupt-*Z 2>/dev/null | head -1)
ok "$([ -n "$aside" ] && [ -f "$aside-wal" ] && echo 0 || echo 1)" "the file and its -wal are kept as $aside"
inject_and_find "$DB" after-corrupt; ok $? "recording goes on into a fresh database" || cat "$WORK/rasd.log" >&2
ok "$([ "$(q "SELECT count(*) FROM storage_events WHERE what='corrupt-moved-aside'")" = 1 ] && echo 0 || echo 1)" "a row records the move"
stop

# --- truncated: a copy cut short
DB=$WORK/d/truncated.db
"$top_builddir/tests/make-db" "$DB"
truncate -s $(( $(stat -c %s "$DB") / 2 / 32768 * 32768 )) "$DB"
conf "$DB"; start; ok $? "rasd starts on a truncated database"
grep -q "truncated" "$WORK/rasd.log" && ls "$DB".corrupt-*Z >/dev/null 2>&1; ok $? "moved aside as corrupt (truncated)"
inject_and_find "$DB" after-truncated; ok $? "and records" || cat "$WORK/rasd.log" >&2
stop

# --- damage the cheap open check cannot see (the mc_event b-tree pages), met by the first insert
DB=$WORK/d/deep.db
"$top_builddir/tests/make-db" "$DB"
for p in $(sqlite3 "$DB" "SELECT pageno FROM dbstat WHERE name IN ('mc_event', 'mc_event_time', 'mc_event_dec')"); do
	head -c 16 /dev/zero | tr '\0' '\377' | dd of="$DB" bs=1 seek=$(( (p - 1) * $(sqlite3 "$DB" "PRAGMA page_size") )) conv=notrunc 2>/dev/null
done
conf "$DB"; start; ok $? "rasd starts on a database damaged past its schema"
inject_and_find "$DB" after-deep; ok $? "the record that met the damage is stored in a fresh database"
grep -q "turned out corrupt" "$WORK/rasd.log"; ok $? "rasd says it moved the database aside in use: $(grep -o 'turned out corrupt ([^)]*)' "$WORK/rasd.log")"
ok "$([ "$(q "SELECT count(*) FROM storage_events WHERE what='corrupt-moved-aside'")" = 1 ] && echo 0 || echo 1)" "and records it"
ok "$(kill -0 $PID 2>/dev/null && echo 0 || echo 1)" "and keeps running"
stop

# --- foreign and newer: left untouched, recording beside them
for kind in foreign newer; do
	DB=$WORK/d/$kind.db
	if [ $kind = foreign ]; then sqlite3 "$DB" "CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)"
	else "$top_builddir/tests/make-db" "$DB"; sqlite3 "$DB" "PRAGMA user_version = 99"; fi
	sum=$(sha256sum < "$DB")
	conf "$DB"; start; ok $? "rasd starts beside a $kind database"
	inject_and_find "$DB.v$SCHEMA" "beside-$kind"; ok $? "it records into $kind.db.v$SCHEMA" || cat "$WORK/rasd.log" >&2
	grep -q "left untouched, recording into $DB.v$SCHEMA" "$WORK/rasd.log"; ok $? "and says so"
	# (A WAL database gets an empty -wal/-shm from any reader, ras-fdr-ctl too; the file itself is unchanged.)
	ok "$([ "$(sha256sum < "$DB")" = "$sum" ] && { [ $kind = newer ] || [ ! -e "$DB-wal" ]; } && echo 0 || echo 1)" "the $kind file is unchanged"
	ctl status | grep -q "rasd records into $DB.v$SCHEMA"; ok $? "status names the file rasd uses"
	ctl errors 2>&1 >/dev/null | grep -q "use --db $DB.v$SCHEMA"; ok $? "errors on the configured file points there"
	stop
done

# --- file modes under umask 022
DB=$WORK/d/modes.db
conf "$DB"; start; ok $? "rasd starts under umask 022"
inject_and_find "$DB" modes; ok $? "a record is stored"
for f in "$DB" "$DB-wal" "$DB-shm" "$WORK/lock/rasd-$INST.lock" "$WORK/lock/rasd-$INST.state"; do
	ok "$([ "$(stat -c %a "$f")" = 640 ] && echo 0 || echo 1)" "$(basename "$f") is $(stat -c %a "$f") (0640 wanted)"
done

# --- SIGHUP with the file deleted, then broken: the running configuration stays
mv "$WORK/rasd.conf" "$WORK/rasd.conf.away"
kill -HUP $PID
wait_for 30 grep -q "cannot be read.*keeping the running one" "$WORK/rasd.log"; ok $? "SIGHUP with the file deleted says why it keeps the running configuration"
"$CTL" --config "$WORK/rasd.conf.away" inject --synthetic ras:mc_event msg=after-hup-deleted >/dev/null
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg='after-hup-deleted'\")\" = 1 ]"
ok $? "allow_synthetic is still on (not reverted to its default)"
cp "$WORK/rasd.conf.away" "$WORK/rasd.conf"; echo "this line is broken" >> "$WORK/rasd.conf"
sed -i 's/allow_synthetic = yes/allow_synthetic = no/' "$WORK/rasd.conf"
kill -HUP $PID
wait_for 30 grep -q "has 1 error; keeping the running one" "$WORK/rasd.log"; ok $? "SIGHUP with a broken file keeps the running configuration"
grep -q "rasd.conf:$(wc -l < "$WORK/rasd.conf"): expected key = value" "$WORK/rasd.log"; ok $? "and names the line"
ctl inject --synthetic ras:mc_event msg=after-hup-broken >/dev/null
wait_for 30 sh -c "[ \"\$(sqlite3 'file:$DB?mode=ro' \"SELECT count(*) FROM mc_event WHERE msg='after-hup-broken'\")\" = 1 ]"
ok $? "still on: the broken file's allow_synthetic = no was not applied"
stop

# --- hostile paths: links and directories others can write
echo "precious" > "$WORK/target"; chmod 600 "$WORK/target"
ln -s "$WORK/target" "$WORK/d/link.db"
conf "$WORK/d/link.db"; "$RASD" --config "$WORK/rasd.conf" --once 2>"$WORK/rasd.log"; rc=$?
ok "$([ $rc != 0 ] && grep -q "symbolic link" "$WORK/rasd.log" && echo 0 || echo 1)" "a database path that is a link is refused: $(head -c 150 "$WORK/rasd.log")"
mkdir "$WORK/open"; chmod 1777 "$WORK/open"
conf "$WORK/open/ras.db"; "$RASD" --config "$WORK/rasd.conf" --once 2>"$WORK/rasd.log"; rc=$?
ok "$([ $rc != 0 ] && grep -q "writable by other users" "$WORK/rasd.log" && [ ! -e "$WORK/open/ras.db" ] && echo 0 || echo 1)" \
	"a database directory others can write (even sticky) is refused: $(head -c 150 "$WORK/rasd.log")"
conf "$WORK/d/ok.db" "$WORK/open"; "$RASD" --config "$WORK/rasd.conf" --once 2>"$WORK/rasd.log"; rc=$?
ok "$([ $rc != 0 ] && grep -q "refusing lock directory" "$WORK/rasd.log" && echo 0 || echo 1)" "so is such a lock directory"
mkdir "$WORK/lock2"; ln -s "$WORK/target" "$WORK/lock2/rasd-$INST.lock"
conf "$WORK/d/ok.db" "$WORK/lock2"; "$RASD" --config "$WORK/rasd.conf" --once 2>"$WORK/rasd.log"; rc=$?
ok "$([ $rc != 0 ] && echo 0 || echo 1)" "a link planted as the lock file is refused: $(head -c 150 "$WORK/rasd.log")"
ok "$([ "$(cat "$WORK/target")" = precious ] && [ "$(stat -c %a "$WORK/target")" = 600 ] && echo 0 || echo 1)" "the link's target is untouched"
"$top_builddir/tests/make-db" "$WORK/d/wal.db"; ln -s "$WORK/target" "$WORK/d/wal.db-wal"
conf "$WORK/d/wal.db"; "$RASD" --config "$WORK/rasd.conf" --once 2>"$WORK/rasd.log"; rc=$?
ok "$([ "$(cat "$WORK/target")" = precious ] && echo 0 || echo 1)" "a link planted as the -wal is not written through (rasd exit $rc)"
done_testing
