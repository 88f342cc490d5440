#!/bin/sh
# SPDX-License-Identifier: MIT
# Builds every fuzz/fuzz-*.c with libFuzzer + ASan + UBSan against all
# decoders/*.c and runs each for $1 seconds (default 20). Seeds: tests/data.
# Usage: fuzz/run.sh [seconds] [build-dir]
set -eu
secs=${1:-20}
top=$(cd "$(dirname "$0")/.." && pwd)
out=${2:-${TMPDIR:-/tmp}/ras-fdr-fuzz}
CC=${CC:-clang}
mkdir -p "$out"
status=0
for src in "$top"/fuzz/fuzz-*.c; do
	name=$(basename "$src" .c)
	bin="$out/$name"
	corpus="$out/$name.corpus"
	mkdir -p "$corpus"
	for seeds in "$top"/tests/data/mcelog "$top"/tests/data/decode; do
		[ -d "$seeds" ] && cp "$seeds"/* "$corpus"/ 2>/dev/null || true
	done
	echo "== building $name"
	$CC -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-I"$top" "$src" "$top"/decoders/*.c -o "$bin"
	echo "== running $name for ${secs}s"
	if ! "$bin" -max_total_time="$secs" -max_len=4096 -artifact_prefix="$out/$name-" "$corpus" \
		>"$out/$name.log" 2>&1; then
		echo "!! $name failed, see $out/$name.log"
		tail -n 30 "$out/$name.log"
		status=1
	else
		tail -n 1 "$out/$name.log"
	fi
done
exit $status
