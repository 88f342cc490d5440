#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds every fuzz/fuzz-*.c with libFuzzer + ASan + UBSan against all
# decoders/*.c and lastwords/*.c (fuzz-page.c also against the lib/ sources of the page reader
# and libtraceevent, fuzz-cpu-map.c against lib/cpu_map.c) and runs each for $1 seconds
# (default 20).
# Seeds: tests/data/mcelog, tests/data/lastwords/linux-6.1-erst, and tests/data/pages for fuzz-page.
# Usage: fuzz/run.sh [seconds] [build-dir] [target-name]
set -eu
secs=${1:-20}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-${TMPDIR:-/tmp}/ras-fdr-fuzz}
only=${3:-}
CC=${CC:-clang}
# The page reader: sub-buffer checks, kbuffer, field extraction, synthetic unwrapping.
page_srcs="reader record formats event_table synthetic decode pci_names dimm_labels edac_sysfs config health_config tracing fileio threshold safe_path cpu_map timeline"
# Word-split unquoted below, so the double quotes reach the compiler (paths without spaces).
page_defs='-DSYSCONFDIR="/etc" -DLOCALSTATEDIR="/var" -DRUNSTATEDIR="/run" -DPKGDATADIR="/usr/share/ras-fdr"'
mkdir -p "$out"
status=0
for src in "$top"/fuzz/fuzz-*.c; do
	name=$(basename "$src" .c)
	if [ -n "$only" ] && [ "$name" != "$only" ]; then
		continue
	fi
	bin="$out/$name"
	extra=""
	max_len=4096
	corpus="$out/$name.corpus"
	mkdir -p "$corpus"
	# tests/data/fuzz: inputs that once crashed a target, kept as seeds.
	for seeds in "$top"/tests/data/mcelog "$top"/tests/data/decode "$top"/tests/data/fuzz \
		"$top"/tests/data/lastwords/linux-6.1-erst; do
		[ -d "$seeds" ] && cp "$seeds"/* "$corpus"/ 2>/dev/null || true
	done
	if [ "$name" = fuzz-page ]; then
		cp "$top"/tests/data/pages/* "$corpus"/ 2>/dev/null || true
		for f in $page_srcs; do
			extra="$extra $top/lib/$f.c"
		done
		extra="$extra $page_defs -DRAS_FUZZ_FORMATS=\"$top/tests/formats/linux-6.18\""
		extra="$extra $(pkg-config --cflags --libs libtraceevent libtracefs libpci)"
		max_len=16384
	fi
	# The diagnosis's target: diag/ beside the decoders.
	[ "$name" = fuzz-dram ] && extra="$extra $(echo "$top"/diag/*.c)"
	# The page reader reads rasd.conf, whose health rules are diag's.
	[ "$name" = fuzz-page ] && extra="$extra $(echo "$top"/diag/*.c)"
	if [ "$name" = fuzz-cpu-map ]; then
		extra="$top/lib/cpu_map.c $top/lib/fileio.c"
	fi
	echo "== building $name"
	# A target that does not build is a failure (reported, never skipped silently).
	# shellcheck disable=SC2086 # $extra is a list of words
	if ! $CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$top" "$src" "$top"/decoders/*.c "$top"/lastwords/*.c $extra -o "$bin" >"$out/$name.build.log" 2>&1; then
		echo "!! $name does not build, see $out/$name.build.log"
		grep -v warning "$out/$name.build.log" | tail -n 20
		status=1
		continue
	fi
	echo "== running $name for ${secs}s"
	if ! "$bin" -max_total_time="$secs" -max_len=$max_len -artifact_prefix="$out/$name-" "$corpus" \
		>"$out/$name.log" 2>&1; then
		echo "!! $name failed, see $out/$name.log"
		tail -n 30 "$out/$name.log"
		status=1
	else
		tail -n 1 "$out/$name.log"
	fi
done
exit $status
