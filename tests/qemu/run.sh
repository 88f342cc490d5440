#!/bin/bash
# SPDX-License-Identifier: MIT
# run.sh - ras-fdr's real-kernel test: boots Debian's kernel under QEMU (TCG,
# no KVM needed) with an Intel and an AMD CPU model, runs the host-built rasd
# in the guest, injects real errors through the kernel's injectors, QEMU's
# monitor and tests/qemu/module, and checks every stored row from the host.
#
#   tests/qemu/run.sh --builddir DIR [--cpu intel|amd|both] [--out DIR]
#                     [--timeout SECS] [--rasd PATH] [--ctl PATH] [--keep]
#                     [--kernel 6.1|6.12] [--set systemd] [--sessions "NAME..."]
#
# --sessions runs and checks only the named sessions of the 6.1 set (main,
# restart, storm, actions, rasdaemon, events, crash; default all), e.g. --sessions
# actions; of the 6.12 set: k612, crash. events (guest/events.sh) runs on the
# Intel model only, and in the 6.12 set's second boot (part of k612).
#
# The crash session (6.1 and 6.12 sets; guest/crash.sh, check-crash.sh) is a
# pair of QEMU runs of its own, one CPU model (intel), sharing an ACPI ERST
# backing file: a fatal machine check ends the first, the second's rasd
# harvests what ERST and pstore kept.
#
# --kernel 6.12 (opt-in; default 6.1) installs Debian's 6.12 kernel and
# headers and runs instead the early-boot set (guest/k612.sh, check-k612.sh):
# one CPU model (intel), boot instance + persistent ring buffer
# (reserve_mem=, trace_instance=) across a warm reboot.
#
# --set systemd boots Debian's 6.1 kernel with systemd as PID 1 on a writable
# overlay of the host's root (guest/systemd-root.sh), installs the package
# from DIR/deb (make deb builds it if missing) and checks rasd.service under
# systemd (guest/systemd-tests.sh, check-systemd.sh): one CPU model (intel).
# Then it purges the package and follows the README's from-source steps
# (make install in DIR, which must be configured as the README says).
#
# The environment: QT_BOOT_LIMIT (seconds to reach /init, default 180, else
# booted once more); for --set systemd, QT_STEP_LIMIT (seconds a step may take,
# 420) and QT_SILENT_LIMIT (seconds without a console line, 300), past which
# the guest is reported hung and booted once more (a second hang fails).
# QT_APPEND: more kernel parameters for every boot (e.g. rdinit=/none, a
# panic before /init, to see that retry run).
#
# DIR holds the built rasd/rasd and ctl/ras-fdr-ctl. Prints "PASS <scenario>"
# or "FAIL <scenario>: <reason>" per scenario and CPU model, then
# "N passed, M failed (T s)", T the seconds it took. Exit 0 if all passed, 1 if not, 77 (skip) only when
# the packages it needs cannot be installed.
set -eu

QT_DIR="$(cd "$(dirname "$0")" && pwd)"
SRCDIR="$(cd "$QT_DIR/../.." && pwd)"
SESSIONS="" BUILDDIR="" OUT="" CPUS=both TIMEOUT="" RASD="" CTL="" KEEP=0 KSERIES=6.1 SET="" DEB=""
PASSED=0 FAILED=0 SKIPPED=0

die() { echo "run.sh: $*" >&2; exit 1; }
note() { echo "== $*"; }

usage() {
    sed -n '2,/^set -eu/p' "$0" | sed -n 's/^# \{0,1\}//p' | sed '/^SPDX/d'
    exit "${1:-2}"
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
        --builddir) BUILDDIR=$2; shift ;;
        --cpu) CPUS=$2; shift ;;
        --out) OUT=$2; shift ;;
        --timeout) TIMEOUT=$2; shift ;;
        --rasd) RASD=$2; shift ;;
        --ctl) CTL=$2; shift ;;
        --keep) KEEP=1 ;;
        --kernel) KSERIES=$2; shift ;;
        --set) SET=$2; shift ;;
        --sessions) SESSIONS=$2; shift ;;
        -h|--help) usage 0 ;;
        *) echo "run.sh: unknown option $1" >&2; usage 2 ;;
        esac
        shift
    done
    [ -n "$BUILDDIR" ] || { echo "run.sh: --builddir is required" >&2; usage 2; }
    BUILDDIR="$(cd "$BUILDDIR" && pwd)" || die "no build dir $BUILDDIR"
    RASD="$(realpath -m "${RASD:-$BUILDDIR/rasd/rasd}")"
    CTL="$(realpath -m "${CTL:-$BUILDDIR/ctl/ras-fdr-ctl}")"
    OUT="$(realpath -m "${OUT:-$BUILDDIR/tests/qemu-out${SET:+-$SET}}")"
    case "$CPUS" in intel|amd) ;; both) CPUS="intel amd" ;; *) usage 2 ;; esac
    case "$KSERIES" in 6.1) ;; 6.12) CPUS=intel ;; *) usage 2 ;; esac
    case "$SET" in "") ;; systemd) KSERIES=6.1 CPUS=intel ;; *) usage 2 ;; esac
    # the systemd set installs the package and then runs make install: longer
    [ -n "$TIMEOUT" ] || TIMEOUT=$([ "$SET" = systemd ] && echo 1200 || echo 900)
    # /init comes at 2-3 s of guest time; TCG on a loaded host: 10-20 s
    BOOT_LIMIT=${QT_BOOT_LIMIT:-180}
    # the systemd set's guest prints a line at least every 30 s (a step's
    # start, or its heartbeat, guest/systemd-tests.sh): silence this long is a
    # guest that stopped
    SILENT_LIMIT=${QT_SILENT_LIMIT:-300}
    # and each of its steps has this long (guest/systemd-tests.sh)
    STEP_LIMIT=${QT_STEP_LIMIT:-420}
}

# ---- host packages -------------------------------------------------------

# the newest installed kernel of series $KSERIES (6.1: the newest of any
# series if there is no 6.1 one, as before --kernel existed)
newest_kernel() {
    local v best="" any=""
    for v in $(ls /lib/modules 2>/dev/null | sort -V); do
        [ -f "/boot/vmlinuz-$v" ] || continue
        any=$v
        case "$v" in "$KSERIES".*) best=$v ;; esac
    done
    [ -z "$best" ] && [ "$KSERIES" = 6.1 ] && best=$any
    echo "$best"
}

apt_install() {
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@" \
        >> "$OUT/apt.log" 2>&1
}

ensure_packages() {
    local need=0
    for c in qemu-system-x86_64 busybox cpio depmod sqlite3 make gcc ipmitool; do
        command -v "$c" >/dev/null || need=1
    done
    [ -x /bin/busybox ] && /bin/busybox --list | grep -qx chroot || need=1
    KVER="$(newest_kernel)"
    [ -n "$KVER" ] && [ -d "/lib/modules/$KVER/build" ] || need=1
    # --set systemd builds the package (make deb)
    if [ "$SET" = systemd ] && ! { command -v dpkg-buildpackage && command -v dh &&
                                  command -v lintian; } >/dev/null; then
        note "installing debhelper and lintian (log: $OUT/apt.log)"
        apt_install debhelper lintian || { apt-get update >> "$OUT/apt.log" 2>&1 &&
            apt_install debhelper lintian; } ||
            { echo "run.sh: cannot install debhelper and lintian; skipping" >&2; exit 77; }
    fi
    [ "$need" = 0 ] && return 0
    note "installing packages (log: $OUT/apt.log)"
    local image=linux-image-amd64
    [ "$KSERIES" = 6.1 ] || image=linux-image-$KSERIES-amd64
    if ! { apt-get update >> "$OUT/apt.log" 2>&1 &&
           apt_install qemu-system-x86 "$image" busybox-static cpio kmod \
               sqlite3 make gcc libc6-dev ipmitool; }; then
        echo "run.sh: cannot install the packages; skipping" >&2; exit 77
    fi
    KVER="$(newest_kernel)"
    [ -n "$KVER" ] || { echo "run.sh: no kernel in /boot; skipping" >&2; exit 77; }
    apt_install "linux-headers-$KVER" ||
        { echo "run.sh: cannot install linux-headers-$KVER; skipping" >&2; exit 77; }
}

# Debian's rasdaemon for import_rasdaemon_real (6.1 set): the package is
# unpacked into the build directory, not installed, so its postinst never
# enables or starts a rasdaemon on the host (with or without systemd, with or
# without a policy-rc.d). The guest runs the binary in its chroot of the host's
# root; it needs only libsqlite3, which the build already uses.
RASDAEMON=""
fetch_rasdaemon() {
    local d="$OUT/rasdaemon-pkg" deb
    [ "$KSERIES" = 6.1 ] && [ -z "$SET" ] || return 0
    RASDAEMON="$d/root/usr/sbin/rasdaemon"
    [ -x "$RASDAEMON" ] && return 0
    rm -rf "$d"; mkdir -p "$d"
    if ! (cd "$d" && apt-get download rasdaemon >> "$OUT/apt.log" 2>&1); then
        apt-get update >> "$OUT/apt.log" 2>&1
        (cd "$d" && apt-get download rasdaemon >> "$OUT/apt.log" 2>&1) || true
    fi
    deb=$(ls "$d"/rasdaemon_*.deb 2>/dev/null | tail -n 1)
    if [ -z "$deb" ] || ! dpkg-deb -x "$deb" "$d/root"; then
        echo "run.sh: cannot fetch Debian's rasdaemon (import_rasdaemon_real will fail)" >&2
        RASDAEMON=""
    fi
}

# ---- build: test module and initramfs ---------------------------------------

build_module() {
    local b="$OUT/build/module"
    rm -rf "$b"; mkdir -p "$b"
    cp "$QT_DIR/module/rasfdr_testmod.c" "$QT_DIR/module/Kbuild" "$b/"
    make -C "/lib/modules/$KVER/build" M="$b" modules > "$OUT/build/module.log" 2>&1 ||
        die "module build failed: see $OUT/build/module.log"
    MODULE="$b/rasfdr_testmod.ko"
}

# the actions session's page holder and the events session's poisoned
# process, run in the guest through the host root
build_pagehold() {
    PAGEHOLD="$OUT/build/pagehold"
    gcc -O2 -Wall -o "$PAGEHOLD" "$QT_DIR/guest/pagehold.c" > "$OUT/build/pagehold.log" 2>&1 ||
        die "pagehold build failed: see $OUT/build/pagehold.log"
    SIGBUS="$OUT/build/sigbus"
    gcc -O2 -Wall -o "$SIGBUS" "$QT_DIR/guest/sigbus.c" > "$OUT/build/sigbus.log" 2>&1 ||
        die "sigbus build failed: see $OUT/build/sigbus.log"
}

GUEST_MODULES="virtio_pci 9p 9pnet_virtio e1000e overlay"

# --set systemd: the package from make deb (built now if there is none, or
# if rasd was rebuilt since)
find_deb() {
    DEB=$(ls "$BUILDDIR"/deb/ras-fdr_*_amd64.deb 2>/dev/null | tail -n 1)
    [ -n "$DEB" ] && ! [ "$RASD" -nt "$DEB" ] && return 0
    note "building the package (make deb; log: $OUT/deb.log)"
    make -C "$BUILDDIR" deb > "$OUT/deb.log" 2>&1 || die "make deb failed: see $OUT/deb.log"
    DEB=$(ls "$BUILDDIR"/deb/ras-fdr_*_amd64.deb 2>/dev/null | tail -n 1)
    [ -n "$DEB" ] || die "make deb made no package"
}

build_initramfs() {
    local root="$OUT/build/root" m f
    rm -rf "$root"; mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,mnt,lib/modules/"$KVER"}
    cp /bin/busybox "$root/bin/busybox"
    cp "$QT_DIR/guest/init" "$root/init"; chmod 755 "$root/init"
    for m in $GUEST_MODULES; do
        for f in $(modprobe -S "$KVER" -D "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }'); do
            mkdir -p "$root$(dirname "$f")"; cp -n "$f" "$root$f"
        done
    done
    cp /lib/modules/"$KVER"/modules.{order,builtin,builtin.modinfo} "$root/lib/modules/$KVER/"
    depmod -b "$root" "$KVER"
    (cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet | gzip -1) \
        > "$OUT/build/initramfs.gz"
}

# ---- one boot ----------------------------------------------------------------

qemu_cpu() { case "$1" in intel) echo Skylake-Server ;; amd) echo EPYC ;; esac; }
# a boot's CPU model: its label, but for the crash pair's boots (intel)
cpu_of() { if [ -n "${CRASH_BOOT:-}" ]; then echo intel; else echo "$1"; fi; }

write_params() { # DIR LABEL
    cat > "$1/params.env" <<EOF
QT_CPU='$(cpu_of "$2")'
QT_SRCDIR='$SRCDIR'
QT_RASD='$RASD'
QT_CTL='$CTL'
QT_MODULE='$MODULE'
QT_PAGEHOLD='$PAGEHOLD'
QT_SIGBUS='$SIGBUS'
QT_SESSIONS='$SESSIONS'
QT_RASDAEMON='$RASDAEMON'
EOF
    if [ -n "${CRASH_BOOT:-}" ]; then
        printf "QT_SET='crash'\nQT_CRASH_BOOT='%s'\nQT_CRASH_PREV='%s'\n" "$CRASH_BOOT" \
            "$OUT/crash1" >> "$1/params.env"
        return 0
    fi
    [ "$KSERIES" = 6.1 ] || echo "QT_SET='k612'" >> "$1/params.env"
    [ -z "$SET" ] || write_params_set "$1"
}

# --set systemd: the package and the module go into the results share (the
# guest's systemd hides the host's /tmp, where build directories often are)
write_params_set() { # DIR
    cp "$DEB" "$MODULE" "$1/"
    cat >> "$1/params.env" <<EOF
QT_SET='$SET'
QT_DEB='/mnt/results/$(basename "$DEB")'
QT_BUILDDIR='$BUILDDIR'
QT_MODULE='/mnt/results/$(basename "$MODULE")'
QT_STEP_LIMIT='$STEP_LIMIT'
EOF
}

# --kernel 6.12: the guest reboots itself once (warm), so no -no-reboot; the
# boot-made instances and the persistent buffer come from the command line
# (the environment's K612_APPEND replaces it; guest/k612.sh expects the
# instance names rasd_persist, rasd_boot).
# The persistent buffer sits at a fixed physical address set aside with
# memmap=SIZE$ADDR: x86's KASLR decompressor never places the kernel in a
# memmap= range, so the buffer is at the same place after the reboot. With
# reserve_mem= the kernel may land on the old reservation and the new one is
# made elsewhere, losing the buffer (commit 29a02ec66556, "tracing: Allow boot
# instances to use reserve_mem boot memory"); seen here as 0x3c000000 in boot
# 1 and 0x38000000 in boot 2. check-k612.sh reports such a move as a SKIP.
K612_APPEND=${K612_APPEND:-'memmap=16M$0x30000000 trace_instance=rasd_persist^traceoff@0x30000000:16M,ras:mc_event trace_instance=rasd_boot,ras:mc_event'}


qemu_args() { # DIR LABEL
    local d=$1 noreboot=-no-reboot append="console=ttyS0 panic=-1 loglevel=4" erst=() bmc=()
    [ "$KSERIES" = 6.1 ] || [ -n "${CRASH_BOOT:-}" ] || { noreboot=""; append="$append $K612_APPEND"; }
    # the crash pair: ACPI ERST backed by one file across its two runs (QEMU 7.2's acpi-erst)
    [ -z "${CRASH_BOOT:-}" ] || erst=(-object "memory-backend-file,id=erstnvram,mem-path=$CRASH_BACKING,size=0x10000,share=on"
        -device acpi-erst,memdev=erstnvram)
    # a BMC for the events session's SEL entries (guest/events.sh; rasd's bmc_sel):
    # QEMU's simulated one behind a KCS interface, in the boots that run events,
    # and the systemd set's (guest/systemd-tests.sh bmc_sel_dropin)
    [ -n "${CRASH_BOOT:-}" ] || [ "$(cpu_of "$2")" != intel ] ||
        bmc=(-device ipmi-bmc-sim,id=bmc0 -device isa-ipmi-kcs,bmc=bmc0,ioport=0xca2)
    # systemd boots only the test's target; the host's fstab does not apply
    [ "$SET" != systemd ] || append="$append systemd.unit=rasfdr-test.target fstab=no systemd.show_status=0"
    append="$append${QT_APPEND:+ $QT_APPEND}"
    QARGS=(-machine q35 -cpu "$(qemu_cpu "$(cpu_of "$2")")" -smp 2 -m 1G -accel tcg
        -display none $noreboot -nic none -monitor none
        -kernel "/boot/vmlinuz-$KVER" -initrd "$OUT/build/initramfs.gz"
        -append "$append"
        -serial "file:$d/console.log" -serial "file:$d/ctl.log"
        -chardev "pipe,id=qmp0,path=$d/qmp" -mon chardev=qmp0,mode=control
        -device pcie-root-port,id=rp1,bus=pcie.0,chassis=1,slot=1,addr=0x1c
        -device e1000e,bus=rp1,id=nic0,romfile=
        -device pcie-root-port,id=rp2,bus=pcie.0,chassis=2,slot=2,addr=0x1d
        -device virtio-net-pci,bus=rp2,id=vnet0,aer=on,romfile=
        -virtfs "local,path=$d,mount_tag=results,security_model=none,id=res"
        -virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hr"
        "${erst[@]}" "${bmc[@]}")
}

# Runs each "@@HMP <cmd>" the guest writes to its second serial port through
# QMP human-monitor-command, until QEMU exits. A guest that has not reached
# /init within BOOT_LIMIT seconds hung in the kernel's own boot, before any
# code under test ran (seen once in CI: TCG, Skylake-Server, silent after the
# RETBleed line): it is stopped and boot-hung says so.
serve_monitor() { # DIR QEMU_PID
    local d=$1 qpid=$2 served=0 n cmd t0=$SECONDS booted=0 size=0 grew=$SECONDS
    while kill -0 "$qpid" 2>/dev/null; do
        if [ "$booted" = 0 ]; then
            if grep -q '^INIT: reached /init' "$d/console.log" 2>/dev/null; then
                booted=1
            elif [ $((SECONDS - t0)) -ge "$BOOT_LIMIT" ]; then
                echo "$((SECONDS - t0))" > "$d/boot-hung"
                kill "$qpid" 2>/dev/null || true
            fi
        elif [ "$SET" = systemd ]; then
            n=$(stat -c %s "$d/console.log" 2>/dev/null || echo 0)
            [ "$n" = "$size" ] || { size=$n; grew=$SECONDS; }
            if [ $((SECONDS - grew)) -ge "$SILENT_LIMIT" ]; then
                echo "the guest printed nothing for $SILENT_LIMIT s after $((grew - t0)) s" \
                    "(last console line: $(tail -n 1 "$d/console.log" | tr -d '\r'))" > "$d/step-hung"
                silent_cpus "$d"
                kill "$qpid" 2>/dev/null || true
            fi
        fi
        n=$(grep -c '^@@HMP ' "$d/ctl.log" 2>/dev/null || true)
        while [ "$served" -lt "${n:-0}" ]; do
            served=$((served + 1))
            cmd=$(grep '^@@HMP ' "$d/ctl.log" | sed -n "${served}p" | tr -d '\r"\\')
            cmd=${cmd#@@HMP }
            echo "$cmd" >> "$d/hmp.log"
            printf '{"execute":"human-monitor-command","arguments":{"command-line":"%s"}}\n' \
                "$cmd" >&7
        done
        sleep 0.2
    done
}

# Where a silent guest's vCPUs are, into qmp.log, before QEMU is stopped: each
# vCPU's registers (RIP, RFL's IF, CPL), and the first IDT gate, whose handler
# (asm_exc_divide_error) gives the kernel's KASLR offset against the symbols
# of Debian's linux-image-*-dbg.
silent_cpus() { # DIR
    local c
    for c in "info registers -a" "x /2gx 0xfffffe0000000000"; do
        printf '{"execute":"human-monitor-command","arguments":{"command-line":"%s"}}\n' "$c" >&7
    done
    sleep 2
    sed 's/\\r\\n/\n/g' "$1/qmp.log" | grep -E '^(CPU#|RIP=|fffffe0000000000:)' > "$1/silent-cpus.txt"
}

boot_once() { # LABEL
    local d="$OUT/$1" qpid rc=0 t0=$SECONDS
    rm -rf "$d"; mkdir -p "$d"
    write_params "$d" "$1"
    qemu_args "$d" "$1"
    mkfifo "$d/qmp.in" "$d/qmp.out"
    cat "$d/qmp.out" > "$d/qmp.log" &
    exec 7<>"$d/qmp.in"   # O_RDWR: opening a FIFO this way never blocks
    echo '{"execute":"qmp_capabilities"}' >&7
    timeout "$TIMEOUT" qemu-system-x86_64 "${QARGS[@]}" > "$d/qemu.log" 2>&1 &
    qpid=$!
    serve_monitor "$d" "$qpid"
    wait "$qpid" || rc=$?
    exec 7>&-
    rm -f "$d/qmp.in" "$d/qmp.out"
    echo "$((SECONDS - t0))" > "$d/boot-seconds"
    note "$1: guest ran $((SECONDS - t0)) s, qemu rc=$rc"
    # QEMU itself killed by a signal before the guest reached /init: its TCG,
    # not code under test (seen once in CI: SIGSEGV 4 s in, after the same
    # RETBleed line as the hangs). Tried again like a hang.
    if [ "$rc" -gt 128 ] && [ ! -f "$d/boot-hung" ] &&
        ! grep -q '^INIT: reached /init' "$d/console.log" 2>/dev/null; then
        echo "$((SECONDS - t0))" > "$d/boot-hung"
        echo "QEMU died of signal $((rc - 128)) before the kernel reached /init" > "$d/boot-hung-why"
    fi
    # The guest kernel panicked before /init, so before anything under test
    # ran (seen once in CI: 6.12's crash1 boot, "Oops: int3" in
    # sched_clock_idle_wakeup_event at 1.0 s on both CPUs under TCG). The
    # crash pair's own panic comes after /init. Tried again like a hang.
    if [ ! -f "$d/boot-hung" ] && grep -q 'Kernel panic' "$d/console.log" 2>/dev/null &&
        ! grep -q '^INIT: reached /init' "$d/console.log" 2>/dev/null; then
        echo "$((SECONDS - t0))" > "$d/boot-hung"
        echo "the kernel panicked before /init ($(grep -m1 -E 'Oops|BUG|Kernel panic' \
            "$d/console.log" | tr -d '\r' | cut -c1-120))" > "$d/boot-hung-why"
    fi
    [ -f "$d/boot-hung" ] && return 0
    # a systemd-set step past its deadline: the guest reported it and powered off
    [ ! -f "$d/facts.env" ] || ! grep -q '^STEP_HUNG=' "$d/facts.env" ||
        echo "step $(sed -n "s/^STEP_HUNG='\(.*\)'$/\1/p" "$d/facts.env") had not ended after" \
            "$STEP_LIMIT s; the guest's hang report is hung-*.txt" > "$d/step-hung"
    [ -f "$d/step-hung" ] && return 0
    [ "$rc" = 0 ] || echo "qemu exited with $rc (124 = timeout after ${TIMEOUT}s)" >> "$d/problems"
}

# A boot that hangs before /init is tried once more, and says so; a second
# hang is a failure. The hung boot's console is kept as console-hung.log.
boot_guest() { # LABEL
    local d="$OUT/$1" hung="$OUT/$1.console-hung.log"
    rm -f "$hung"
    boot_once "$1"
    if [ -f "$d/boot-hung" ]; then
        note "$1: RETRY: $(cat "$d/boot-hung-why" 2>/dev/null ||
            echo "the kernel had not reached /init") after $(cat "$d/boot-hung") s" \
            "(last console line: $(tail -n 1 "$d/console.log" | tr -d '\r')); booting it again"
        cp "$d/console.log" "$hung"
        boot_once "$1"
        cp "$hung" "$d/console-hung.log"
        rm -f "$hung"
        [ ! -f "$d/boot-hung" ] ||
            echo "the kernel hung or panicked, or QEMU died, before /init twice (after $(cat "$d/boot-hung") s)" >> "$d/problems"
    fi
    step_hung_retry "$1"
}

# A systemd-set guest that hung in a step, or went silent, is booted once more,
# and says so with what it saw (the first hang's files are kept in DIR.hung/);
# a second hang is a failure.
step_hung_retry() { # LABEL
    local d="$OUT/$1"
    [ -f "$d/step-hung" ] || return 0
    note "$1: RETRY: $(cat "$d/step-hung"); booting it again. The hang report:"
    [ ! -s "$d/silent-cpus.txt" ] || cat "$d/silent-cpus.txt"
    if ls "$d"/hung-*.txt >/dev/null 2>&1; then
        cat "$d"/hung-*.txt | tr -d '\r' | head -n 400
    else
        tail -n 80 "$d/console.log" | tr -d '\r'
    fi
    rm -rf "$d.hung"
    cp -r "$d" "$d.hung"
    boot_once "$1"
    [ ! -f "$d/step-hung" ] || echo "hung twice: $(cat "$d/step-hung") (the first: $d.hung)" >> "$d/problems"
}

# ---- results -----------------------------------------------------------------

pass() { echo "PASS $1"; PASSED=$((PASSED + 1)); }
fail() { echo "FAIL $1: $2"; FAILED=$((FAILED + 1)); }
# a check the kernel made impossible on this run (the reason says which fact)
skip() { echo "SKIP $1: $2"; SKIPPED=$((SKIPPED + 1)); }

show_failure_logs() { # LABEL
    local d="$OUT/$1"
    echo "---- $1: last 60 lines of the serial console ($d/console.log) ----"
    tail -n 60 "$d/console.log" 2>/dev/null | tr -d '\r' || true
    for f in "$d"/*.rasd.log; do
        [ -f "$f" ] || continue
        echo "---- $1: last 20 lines of $(basename "$f") ----"
        tail -n 20 "$f"
    done
}

# The crash pair (guest/crash.sh, check-crash.sh): a fatal machine check ends
# the first run; the second, on the same ERST backing file, harvests it.
crash_pair() {
    CRASH_BACKING="$OUT/crash-erst.backing"
    rm -f "$CRASH_BACKING"; truncate -s 64K "$CRASH_BACKING"
    CRASH_BOOT=1 boot_guest crash1
    cp "$CRASH_BACKING" "$OUT/crash1/erst.backing.after"
    CRASH_BOOT=2 boot_guest crash2
    cp "$CRASH_BACKING" "$OUT/crash2/erst.backing.after"
    check_crash intel
}

main() {
    parse_args "$@"
    mkdir -p "$OUT/build"
    ensure_packages
    fetch_rasdaemon
    note "kernel $KVER, rasd $RASD, ctl $CTL, results in $OUT"
    [ -x "$RASD" ] || echo "run.sh: warning: no rasd at $RASD; the database checks will fail" >&2
    [ -x "$CTL" ] || echo "run.sh: warning: no ras-fdr-ctl at $CTL; injections will fail" >&2
    build_module
    build_pagehold
    build_initramfs
    . "$QT_DIR/values.sh"
    . "$QT_DIR/check.sh"
    . "$QT_DIR/check-rasdaemon.sh"
    . "$QT_DIR/check-events.sh"
    [ "$KSERIES" = 6.1 ] || . "$QT_DIR/check-k612.sh"
    [ "$SET" != systemd ] || { . "$QT_DIR/check-systemd.sh"; find_deb; }
    . "$QT_DIR/check-crash.sh"
    local cpu before
    for cpu in $CPUS; do
        main_set_wanted || break
        boot_guest "$cpu"
        before=$FAILED
        if [ "$SET" = systemd ]; then check_systemd "$cpu"
        elif [ "$KSERIES" = 6.1 ]; then check_all "$cpu"; else check_k612 "$cpu"; fi
        [ "$FAILED" = "$before" ] || show_failure_logs "$cpu"
    done
    if [ -z "$SET" ] && crash_wanted; then
        before=$FAILED
        crash_pair
        [ "$FAILED" = "$before" ] || { show_failure_logs crash1; show_failure_logs crash2; }
    fi
    [ "$KEEP" = 1 ] || rm -rf "$OUT/build/root"
    local skipped=""
    [ "$SKIPPED" = 0 ] || skipped=", $SKIPPED skipped"
    echo "$PASSED passed, $FAILED failed$skipped ($SECONDS s)"
    [ "$FAILED" = 0 ]
}

main "$@"
