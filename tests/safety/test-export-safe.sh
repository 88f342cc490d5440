#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl export's cursor, its .tmp and its .lock are never opened through
# a link (issue 31; root, else exit 77). A log shipper's user (nobody here)
# that can write the cursor's directory plants links at FILE.tmp (to a
# root-only file) and FILE.lock (to a file that does not exist yet): export
# run as root refuses the directory and leaves both alone, content and mode.
# A cursor that is itself a link is refused too; a good directory works.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
if [ "$(id -u)" != 0 ]; then echo "1..0 # SKIP needs root"; exit 77; fi
command -v runuser >/dev/null || { echo "1..0 # SKIP no runuser"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
WORK=$(mktemp -d /tmp/ras-fdr-xsafe-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
chmod 0755 "$WORK"
DB=$WORK/ras.db
"$top_builddir/tests/make-db" "$DB"
as_nobody() { runuser -u nobody -- sh -c "$1"; }
export_to() { "$CTL" --config /dev/null --db "$DB" export --cursor-file "$1" > "$WORK/out" 2> "$WORK/err"; }
echo precious > "$WORK/victim"; chmod 0600 "$WORK/victim"
victim_intact() { [ "$(cat "$WORK/victim")" = precious ] && [ "$(stat -c %a "$WORK/victim")" = 600 ]; }

for kind in world nobodys; do
	D=$WORK/ship-$kind
	if [ $kind = world ]; then mkdir -m 0777 "$D"; else mkdir -m 0755 "$D"; chown nobody "$D"; fi
	as_nobody "ln -s $WORK/victim $D/c.tmp; ln -s $WORK/created-$kind $D/c.lock"
	export_to "$D/c"; rc=$?
	ok "$([ $rc = 1 ] && grep -q "refusing cursor $D/c: directory $D" "$WORK/err" && echo 0 || echo 1)" \
		"export with its cursor in a directory $kind: refused: $(cat "$WORK/err")"
	ok "$(victim_intact && echo 0 || echo 1)" "  the file linked from c.tmp is untouched (content, mode $(stat -c %a "$WORK/victim"))"
	ok "$([ ! -e "$WORK/created-$kind" ] && echo 0 || echo 1)" "  the link at c.lock made no file"
	ok "$([ ! -e "$D/c" ] && echo 0 || echo 1)" "  no cursor written"
done

# A good directory: root's. The cursor itself a link (root's own mistake or not): refused.
mkdir -m 0755 "$WORK/good"
export_to "$WORK/good/c"; ok $? "export into a good directory works"
ok "$([ -f "$WORK/good/c" ] && [ ! -e "$WORK/good/c.tmp" ] && echo 0 || echo 1)" "  the cursor is there, no .tmp left"
ln -s "$WORK/victim" "$WORK/good/l"
export_to "$WORK/good/l"; rc=$?
ok "$([ $rc = 1 ] && grep -q "is a symbolic link" "$WORK/err" && echo 0 || echo 1)" \
	"a cursor that is a link is refused: $(cat "$WORK/err")"
ok "$(victim_intact && echo 0 || echo 1)" "  and its target untouched"
ln -s "$WORK/victim" "$WORK/good/m.lock"
export_to "$WORK/good/m"; rc=$?
ok "$([ $rc = 1 ] && grep -q "m.lock: is a symbolic link" "$WORK/err" && echo 0 || echo 1)" \
	"a lock that is a link is refused: $(cat "$WORK/err")"
echo "1..$n"
[ $failed = 0 ]
