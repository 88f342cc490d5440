#!/bin/sh
# SPDX-License-Identifier: MIT
# ras-fdr built for arm64 with Debian's cross toolchain and its tests run under
# user-mode QEMU (binfmt_misc), where the alignment, char signedness and page
# size of an arm64 machine are the real ones.
#   tests/arm64/run.sh [BUILDDIR] [all]
# BUILDDIR defaults to ./build-arm64. Needs gcc-aarch64-linux-gnu, qemu-user,
# qemu-user-binfmt and the arm64 -dev libraries (contrib/bootstrap.sh --test
# installs them). The live tests skip (RAS_TEST_NO_LIVE): an arm64 rasd on
# this machine's kernel records nothing real.
#
# Without "all" it runs the subset that fits CI's budget under emulation (a
# few minutes): every decoder's golden vectors, the event table, formats,
# configuration and database units, the replay of real 6.1/6.18 pages, the
# reader with 64 KiB sub-buffers, the vendor sections through rasd, and
# ras-fdr-ctl decode. Left out: the storm, crash, fault-injection, folding and
# actions tests (minutes each under QEMU), which exercise the same code on more
# records; test-cli.sh (its 270 checks of option handling start ras-fdr-ctl
# hundreds of times: half the subset's time under QEMU); test-layout.sh (it
# reads the sources, not the binaries); the fuzz and sanitizer runs.
# With "all" (make check-arm64-full) it runs every test, outside CI: see HACKING.md
# for its time; test-layout.sh skips there (RAS_TEST_CROSS), the live tests too.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$top/build-arm64}
mode=${2:-subset}
host=aarch64-linux-gnu
jobs=$(nproc 2>/dev/null || echo 2)

SUBSET="tests/decoders/test-cper tests/decoders/test-cper-vendor tests/decoders/test-mce-arch
	tests/decoders/test-mce-intel tests/decoders/test-mce-amd tests/decoders/test-mce-amd-mem
	tests/decoders/test-mce-text tests/decoders/test-mce-amd-text tests/decoders/test-aer
	tests/decoders/test-edac tests/decoders/test-edac-text tests/decoders/test-ghes-text
	tests/decoders/test-rasd-text tests/decoders/test-other tests/test-str tests/test-config
	tests/test-event-table tests/test-db tests/test-subject tests/test-threshold
	tests/test-replay tests/arm64/test-reader-64k tests/test-replay-vendor
	tests/test-ctl-decode.sh"

# The whole run's longest tests under QEMU, slowest first (seconds measured on two cores
# shared at a load of 18, niced: malformed 2025, rollup 1107, rollup-edac 707,
# replay-crash 676, export-folds 355, actions-limits 271, export 248, actions 245,
# metrics-churn 207, report-browser 156, crash 128, metrics 124, report-verdicts 120).
SLOW_FIRST="tests/test-malformed tests/test-rollup tests/test-rollup-edac tests/test-replay-crash
	tests/fleet/test-export-folds.sh tests/test-actions-limits tests/fleet/test-export.sh
	tests/test-actions tests/fleet/test-metrics-churn.sh tests/report/test-report-browser.sh
	tests/test-crash tests/fleet/test-metrics.sh tests/report/test-report-verdicts.sh
	tests/test-cli.sh"

command -v $host-gcc >/dev/null || { echo "arm64: no $host-gcc (gcc-aarch64-linux-gnu)" >&2; exit 1; }

# An aarch64 ELF runs through qemu-aarch64 once binfmt_misc knows it (qemu-user-binfmt's
# entry; systemd-binfmt registers it at boot where systemd runs, here it may not).
if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
	[ -e /proc/sys/fs/binfmt_misc/register ] ||
		mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
	conf=/usr/lib/binfmt.d/qemu-aarch64.conf
	if [ -w /proc/sys/fs/binfmt_misc/register ] && [ -f $conf ]; then
		grep -v '^#' $conf > /proc/sys/fs/binfmt_misc/register || true
	fi
fi
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || {
	echo "arm64: binfmt_misc has no qemu-aarch64 entry (qemu-user-binfmt, root)" >&2; exit 1; }

mkdir -p "$build"
if [ ! -f "$build/Makefile" ]; then
	[ -x "$top/configure" ] || (cd "$top" && ./autogen.sh >/dev/null 2>&1)
	(cd "$build" && PKG_CONFIG_LIBDIR=/usr/lib/$host/pkgconfig:/usr/share/pkgconfig \
		"$top/configure" --host=$host --prefix=/usr/local --sysconfdir=/etc \
		--localstatedir=/var --enable-werror >/dev/null)
fi
make -C "$build" -j"$jobs" >/dev/null
# e_machine 0xb7 (EM_AARCH64) at byte 18 of the ELF header.
[ "$(od -An -tx1 -j18 -N2 "$build/rasd/rasd" | tr -d ' ')" = b700 ] ||
	{ echo "arm64: rasd is not an aarch64 binary" >&2; exit 1; }
if [ "$mode" = all ]; then
	# Every test, the longest first so that the jobs finish together: an emulated test
	# takes 4 to 80 times its native time (test-replay-crash's 24 growing replays take
	# minutes alone); left last, one would run on a single core while the other idles.
	rest=$(make -s --no-print-directory -C "$build" arm64-list-tests | tr ' ' '\n' |
		grep -vxF -e "$(echo $SLOW_FIRST | tr ' ' '\n')")
	# shellcheck disable=SC2086 # the lists are words
	RAS_TEST_NO_LIVE=1 RAS_TEST_CROSS=arm64 make -C "$build" -j"$jobs" check \
		TESTS="$(echo $SLOW_FIRST $rest)"
else
	# Only the subset's programs are built: make check would otherwise cross-compile
	# every check program (storm, crash, fault and lastwords tests) that does not run.
	progs=$(for t in $SUBSET; do case $t in *.sh) ;; *) echo "$t" ;; esac; done)
	# shellcheck disable=SC2086 # the lists are words
	RAS_TEST_NO_LIVE=1 make -C "$build" -j"$jobs" check TESTS="$(echo $SUBSET)" \
		check_PROGRAMS="$(echo $progs)"
fi
