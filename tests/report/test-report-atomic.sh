#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl report -o FILE appears whole or not at all (ctl/out_file.h), on
# the report tests' database (tests/report/report-db.sh). A write that fails
# midway (ulimit -f, with SIGXFSZ ignored so that write() says EFBIG) exits 1
# with the file and the system's words on stderr, and leaves FILE as it was:
# absent, or the previous file byte for byte with its mode; and no temporary
# beside it. A run that succeeds replaces FILE (a file of ours keeps its mode,
# a new one gets 0644 less the umask). A symbolic link is refused as
# O_NOFOLLOW always refused it, /dev/null is written straight and stays the
# device, a database that cannot be read leaves no file. With /proc hidden (no
# O_TMPFILE link) the named temporary takes its place, with the same results.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
skip() { n=$((n+1)); echo "ok $n # SKIP $1"; }
WORK=$(mktemp -d /tmp/ras-fdr-report-atomic-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
OUT=$WORK/out
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }

. "$top_srcdir/tests/report/report-db.sh"
make_report_db "$WORK" "$DB" || { echo "Bail out! cannot build the database"; exit 99; }
# Without the running boot: with /proc hidden the report cannot tell it runs where the
# database was recorded, so the machine's identity would be read in one run and not the other.
sqlite3 "$DB" "DELETE FROM boots WHERE boot_id = '$(cat /proc/sys/kernel/random/boot_id)'" || exit 99
mkdir "$OUT"

# --part's HTML (the records attached) is the biggest report of this database.
# The limit cuts it well inside, and stays above what SQLite writes beside the
# database (its 32 KiB -shm), so that it is the report's write that fails.
ctl report --part DIMM_A1 > "$WORK/whole.html"
size=$(wc -c < "$WORK/whole.html")
limit=$((size / 1024 - 8))
[ $limit -ge 40 ] || { echo "Bail out! the report ($size bytes) is too small to cut above 40 KiB"; exit 99; }

# A report cut by the file size limit: its exit status, stderr in $WORK/err.
cut_run() {
	(trap '' XFSZ; ulimit -f $limit; ctl report --part DIMM_A1 -o "$1" 2> "$WORK/err"); echo $?
}
# What the output directory holds besides the names given.
others() { local keep=" $* "; for f in "$OUT"/* "$OUT"/.[!.]*; do
	[ -e "$f" ] || [ -L "$f" ] || continue; case $keep in *" ${f##*/} "*) ;; *) echo "${f##*/}";; esac; done; }

# The checks, run once as things are, once with /proc hidden (the named temporary).
checks() {
	local how=$1 F=$OUT/r.html
	rm -rf "${OUT:?}"/* "$OUT"/.[!.]*
	is "$(cut_run "$F")" 1 "$how: a write cut by ulimit -f exits 1"
	is "$(cat "$WORK/err")" "ras-fdr-ctl report: $F: File too large" "$how: the file and the system's words on stderr"
	[ ! -e "$F" ]; ok $? "$how: no file where there was none"
	is "$(others)" "" "$how: no temporary left in the directory"

	printf 'the previous report\n' > "$F"; chmod 600 "$F"; cp -p "$F" "$WORK/prev"
	is "$(cut_run "$F")" 1 "$how: a write cut over a previous file exits 1"
	cmp -s "$F" "$WORK/prev"; ok $? "$how: the previous file is left byte for byte"
	is "$(stat -c %a "$F")" 600 "$how: and with its mode"
	is "$(others r.html)" "" "$how: no temporary left beside it"

	is "$(ctl report --part DIMM_A1 -o "$F"; echo $?)" 0 "$how: a run with room exits 0"
	# The same report as on standard output, but the time it was made at (files: /dev/fd may be hidden).
	grep -v 'id="about"' "$F" > "$WORK/got"
	grep -v 'id="about"' "$WORK/whole.html" | cmp -s - "$WORK/got"
	ok $? "$how: and replaces the file with the whole report"
	is "$(stat -c %a "$F")" 600 "$how: a file of ours replaced keeps its mode"
	is "$(others r.html)" "" "$how: nothing else in the directory"
	rm "$F"
	(umask 027; ctl report -o "$F")
	is "$(stat -c %a "$F")" 640 "$how: a new file gets 0644 less the umask, as before"
}
checks "O_TMPFILE"
# /proc hidden in a mount namespace of its own: no /proc/self/fd to link the unnamed file by.
# AddressSanitizer reads /proc/self/maps at start and cannot run without /proc: the plain build
# takes this half.
if ldd "$CTL" 2>/dev/null | grep -q libasan; then
	skip "the named temporary: a build with AddressSanitizer cannot run without /proc"
elif [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	export -f checks cut_run others ctl ok is
	export CTL DB OUT WORK limit n failed
	# The counters come back from the namespace's shell through a file.
	unshare -m --propagation private bash -c 'mount -t tmpfs none /proc || exit 1
		checks "no /proc (a named temporary)"; echo "$n $failed" > "$WORK/counts"' ||
		echo "Bail out! cannot hide /proc"
	read -r n failed < "$WORK/counts"
else
	skip "the named temporary: hiding /proc needs root and unshare -m"
fi

rm -rf "${OUT:?}"/*
# A symbolic link is refused, as O_NOFOLLOW refused it; neither it nor its target is touched.
ln -s "$WORK/target" "$OUT/link"
is "$(ctl report -o "$OUT/link" 2> "$WORK/err"; echo $?)" 1 "-o a symbolic link exits 1"
is "$(cat "$WORK/err")" "ras-fdr-ctl report: $OUT/link: Too many levels of symbolic links" "-o a symbolic link: refused (ELOOP)"
[ -L "$OUT/link" ] && [ ! -e "$WORK/target" ]; ok $? "-o a symbolic link: the link stays, nothing written where it points"
printf 'not ours to write\n' > "$WORK/target"
is "$(ctl report -o "$OUT/link" 2> /dev/null; echo $?)" 1 "-o a link to an existing file exits 1"
is "$(cat "$WORK/target")" "not ours to write" "-o a link to an existing file: the file is untouched"
is "$(others link)" "" "-o a symbolic link: no temporary left"
rm "$OUT/link" "$WORK/target"

# A character device is written straight (renamed over, it would be replaced).
is "$(ctl report -o /dev/null; echo $?)" 0 "-o /dev/null exits 0"
[ -c /dev/null ]; ok $? "/dev/null stays the device"

# A database that cannot be read: no file, and a previous one kept.
printf 'not a database, but longer than a header of one would be.%0100d\n' 0 > "$WORK/bad.db"
is "$("$CTL" --config /dev/null --db "$WORK/bad.db" report -o "$OUT/b.html" 2> /dev/null; echo $?)" 1 \
	"a database that cannot be read exits 1"
[ ! -e "$OUT/b.html" ]; ok $? "a database that cannot be read leaves no file"
printf 'the previous report\n' > "$OUT/b.html"
"$CTL" --config /dev/null --db "$WORK/bad.db" report -o "$OUT/b.html" 2> /dev/null
is "$(cat "$OUT/b.html")" "the previous report" "a database that cannot be read keeps the previous file"
is "$(others b.html)" "" "a database that cannot be read: nothing else in the directory"
echo "1..$n"
[ $failed = 0 ]
