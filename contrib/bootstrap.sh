#!/bin/sh
# SPDX-License-Identifier: MIT
# Sets up a fresh Debian 12 machine for ras-fdr and builds it in ./build.
#   contrib/bootstrap.sh            install the build dependencies, build, install under /usr/local
#   contrib/bootstrap.sh --test     the same set-up, then the whole test suite: make check with
#                                   -Werror, again under ASan+UBSan, a short fuzzing run, the
#                                   arm64 cross build and its tests under user-mode QEMU
#                                   (tests/arm64/run.sh), the Debian package built and checked
#                                   by lintian (make deb), and the RPM built and checked by
#                                   rpmlint (make rpm), installing the same files
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
mode=${1:-install}
jobs=$(nproc 2>/dev/null || echo 2)
# Each part's seconds, for --test's last lines: CI's whole run must stay under its limit.
# (sh has no $SECONDS.)
times="" t0=$(date +%s)
took() { # what
	t1=$(date +%s)
	times="$times${times:+, }$1 $((t1 - t0)) s"
	t0=$t1
}

# Build dependencies of the product, plus what its tests use (sqlite3 CLI, clang for fuzzing,
# the Prometheus parser, node_exporter and promtool for the metrics tests and the alerting
# rules, python3-jsonschema for the JSON Schemas of every command's output, doc/schema/,
# zsh for its completion, rpm and rpmlint, the arm64 cross toolchain, qemu-user and the
# arm64 -dev libraries, chromium, a font and poppler-utils (pdftotext: what a printed page holds)
# for the report's real-browser test, ipmitool
# for the QEMU events session, which reads rasd's entries back from the BMC's SEL).
deps="build-essential autoconf automake pkg-config libtraceevent-dev libtracefs-dev
      libsqlite3-dev libpci-dev pci.ids libsystemd-dev zlib1g-dev"
[ "$mode" = --test ] && deps="$deps sqlite3 python3 clang libclang-rt-14-dev debhelper lintian
	python3-prometheus-client prometheus-node-exporter prometheus python3-jsonschema zsh rpm rpmlint file
	gcc-aarch64-linux-gnu qemu-user qemu-user-binfmt libtraceevent-dev:arm64 libtracefs-dev:arm64
	libsqlite3-dev:arm64 libpci-dev:arm64 libsystemd-dev:arm64 zlib1g-dev:arm64
	chromium fonts-dejavu-core poppler-utils ipmitool"
# The arm64 -dev libraries install beside the amd64 ones (Debian multiarch).
if [ "$mode" = --test ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
	dpkg --add-architecture arm64
fi

missing=""
for p in $deps; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "bootstrap: installing$missing"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# rasd needs tracefs; mount it where the kernel has it but nothing mounted it.
if [ -d /sys/kernel/tracing ] && [ ! -e /sys/kernel/tracing/instances ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

./autogen.sh >/dev/null 2>&1
configure_build() { # dir, extra configure args...
	dir=$1; shift
	mkdir -p "$dir"
	(cd "$dir" && "$top/configure" --prefix=/usr/local --sysconfdir=/etc --localstatedir=/var \
		--enable-werror "$@" >/dev/null)
	make -C "$dir" -j"$jobs" >/dev/null
}
check() { # dir
	if ! make -C "$1" -j"$jobs" check; then
		for log in "$1"/tests/*.log "$1"/tests/*/*.log; do
			[ -f "$log" ] && grep -q "^not ok\|^ERROR\|FAIL" "$log" && { echo "=== $log"; tail -n 40 "$log"; }
		done
		return 1
	fi
}

# The last line of --test: what ran and how many passed, from automake's test-suite.log.
passed=0 failed=0 ran=""
tally() { # dir, what
	log=$1/test-suite.log
	if [ ! -f "$log" ]; then failed=$((failed + 1)); ran="$ran${ran:+, }$2 (did not run)"; return; fi
	for k in PASS FAIL ERROR XPASS; do
		v=$(sed -n "s/^# $k: *//p" "$log" | head -n 1)
		if [ $k = PASS ]; then passed=$((passed + ${v:-0})); else failed=$((failed + ${v:-0})); fi
	done
	ran="$ran${ran:+, }$2"
	# What failed, by name, kept for the last lines: CI shows a log's tail only.
	for trs in $(find "$1" -name '*.trs' 2>/dev/null); do
		grep -q '^:test-result: \(FAIL\|ERROR\|XPASS\)' "$trs" || continue
		t=${trs%.trs}
		bad_names="$bad_names
  $2: ${t#"$1"/}: $(grep -m 3 '^not ok\|^Bail out\|^ERROR' "$t.log" 2>/dev/null | tr '\n' ' ')"
	done
}
bad_names=""
took "set-up"
configure_build build
case "$mode" in
install)
	make -C build install >/dev/null
	echo "bootstrap: rasd and ras-fdr-ctl installed under /usr/local; start with: rasd"
	;;
--test)
	check build || true
	tally build "make check"
	took "build and make check"
	echo "bootstrap: the suite again under AddressSanitizer and UndefinedBehaviorSanitizer"
	configure_build build-asan CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined"
	ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 check build-asan || true
	tally build-asan "ASan+UBSan make check"
	took "ASan+UBSan"
	echo "bootstrap: fuzzing each parser briefly"
	targets=$(ls fuzz/fuzz-*.c | wc -l)
	FUZZ_SECONDS=${FUZZ_SECONDS:-15} sh fuzz/run.sh "${FUZZ_SECONDS:-15}" | tee build/fuzz.log || true
	bad=$(grep -c '^!! ' build/fuzz.log || true)
	[ "$bad" = 0 ] || bad_names="$bad_names
$(grep '^!! ' build/fuzz.log | sed 's/^!! /  fuzz: /')"
	passed=$((passed + targets - bad)) failed=$((failed + bad))
	ran="$ran, $targets fuzz targets"
	took "fuzz"
	echo "bootstrap: arm64, cross-built, its tests under user-mode QEMU (tests/arm64/run.sh)"
	sh tests/arm64/run.sh "$top/build-arm64" || true
	tally build-arm64 "arm64 make check under QEMU"
	took "arm64"
	echo "bootstrap: the Debian package (dpkg-buildpackage, lintian) in build/deb/"
	if make -C build deb >build/deb.log 2>&1; then
		passed=$((passed + 1))
	else
		tail -n 40 build/deb.log
		failed=$((failed + 1)) bad_names="$bad_names
  the Debian package: build/deb.log"
	fi
	ran="$ran, the Debian package"
	took "Debian package"
	# rpm on Debian knows none of the build dependencies (--nodeps), and its brp-compress
	# needs bash but says /bin/sh (dash): the man pages go uncompressed without the define.
	echo "bootstrap: the RPM (rpmbuild, rpmlint) in build/rpm/, its files against the Debian package's"
	if make -C build rpm \
		RPMBUILD_FLAGS="--nodeps --define '__brp_compress bash /usr/lib/rpm/brp-compress /usr'" >build/rpm.log 2>&1 &&
	   sh tests/packages/compare.sh build/deb/ras-fdr_*.deb build/rpm/RPMS/*/ras-fdr-[0-9]*.rpm; then
		passed=$((passed + 1))
	else
		tail -n 40 build/rpm.log
		failed=$((failed + 1)) bad_names="$bad_names
  the RPM: build/rpm.log"
	fi
	ran="$ran, the RPM"
	took "RPM"
	echo "bootstrap: time: $times"
	[ -n "$bad_names" ] && echo "bootstrap: what failed:$bad_names"
	echo "bootstrap: $passed passed, $failed failed ($ran)"
	[ "$failed" = 0 ]
	;;
*)
	echo "usage: contrib/bootstrap.sh [--test]" >&2
	exit 2
	;;
esac
