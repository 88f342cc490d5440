#!/bin/sh
# SPDX-License-Identifier: MIT
# The layout's rules, checked on the source tree: dependencies point one way
# (decoders/, lastwords/ <- diag/ <- lib/ <- db/ <- rasd/, ctl/; diag/ may read
# decoders/), and decoders/, lastwords/ and diag/ stay pure.
top=${top_srcdir:-.}
# The arm64 run (tests/arm64/run.sh all) tests the cross-built binaries; this test reads
# only the sources, which the native make check has already checked. Exit 0: the tap
# driver reports a skip plan as SKIP only when the script then succeeds.
if [ -n "${RAS_TEST_CROSS:-}" ]; then
	echo "1..0 # SKIP reads the sources, not the $RAS_TEST_CROSS binaries: the native make check runs it"; exit 0
fi
cd "$top" || exit 99
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }

# Prints "file: #include line" for every include in $1's sources naming one of the folders $2...
includes_of() {
	dir=$1; shift
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		for bad in "$@"; do
			grep -n "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$bad/" "$f" | sed "s|^|$f:|"
		done
	done
}

check() { # folder, what it may not include..., as "name: reason"
	dir=$1; shift
	found=$(includes_of "$dir" "$@")
	[ -z "$found" ]; ok $? "$dir/ includes nothing of $(echo "$@" | sed 's/ /, /g')${found:+: $found}"
}

check decoders diag lib db rasd ctl tests lastwords report bmc
# bmc/ (the BMC's SEL entry) is pure and stands alone: rasd/ uses it.
check bmc decoders diag lib db rasd ctl tests lastwords report
check lastwords decoders diag lib db rasd ctl tests report bmc
check diag lastwords lib db rasd ctl tests report bmc
# report/ renders a model: lib/ (the text rule, the JSON encoder, times) and nothing above it.
check report diag db rasd ctl tests lastwords decoders
check lib db rasd ctl tests report bmc
check db rasd ctl tests report bmc
check rasd ctl tests report
# ras-fdr-ctl and rasd share lib/ and db/, not each other.
check ctl rasd tests bmc

# A bare include names a header of the same folder; anything else is folder-qualified.
for dir in decoders lastwords diag lib db rasd ctl report bmc; do
	stray=""
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -f "$f" ] || continue
		for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' "$f"); do
			[ -f "$dir/$h" ] || stray="$stray $f:$h"
		done
	done
	[ -z "$stray" ]; ok $? "$dir/: bare includes are its own headers${stray:+:$stray}"
done

# decoders/, lastwords/, diag/ and bmc/ are pure: no I/O, no logging, no allocation, no mutable globals.
for dir in decoders lastwords diag bmc; do
	io=$(grep -nE '\b(fopen|fprintf|printf|puts|syslog|malloc|calloc|realloc|free|getenv|open|read|write|close)[[:space:]]*\(' $dir/*.c |
		grep -vE 'snprintf|vsnprintf')
	[ -z "$io" ]; ok $? "$dir/ do no I/O, logging or allocation${io:+: $io}"
	globals=$(grep -nE '^(static[[:space:]]+)?[a-z_][a-z_0-9 ]*[[:space:]\*]+[a-z_][a-z_0-9]*(\[[^]]*\])*[[:space:]]*(=|;)' $dir/*.c |
		grep -v 'const')
	[ -z "$globals" ]; ok $? "$dir/ have no mutable globals${globals:+: $globals}"
done

echo "1..$n"
[ $failed = 0 ]
