# SPDX-License-Identifier: MIT
# k612.sh - the early-boot set of run.sh --kernel 6.12, sourced by
# scenarios.sh (its functions and variables are in scope).
#
# The kernel command line (run.sh) makes two instances before user space:
#   rasd_boot     trace_instance=rasd_boot,ras:mc_event          (tracing on)
#   rasd_persist  memmap=16M$ADDR and
#                 trace_instance=rasd_persist^traceoff@ADDR:16M,ras:mc_event
# Boot 1: mc_events before rasd (-> rasd_boot), rasd start/stop, tracing on
#         in rasd_persist, more mc_events (-> rasd_persist only), DB to the
#         share, warm reboot (reboot -f; QEMU runs without -no-reboot).
# Boot 2: DB back from the share, rasd start -> the boot-1 late records must
#         come back as 'previous-boot'. Then power off (guest/init).
# Facts go to facts.env with a B1_/B2_ prefix; the host checks them
# (check-k612.sh).

P=$T/instances/rasd_persist
B=$T/instances/rasd_boot
K612_EARLY=3 K612_LATE=2
RASD_CONF_EXTRA="boot_instance = rasd_boot
boot_instance_adopt = no
persistent_instance = rasd_persist"

# mc_event records in an instance (non-consuming read) whose text matches RE
kcount() { # DIR RE
    [ -f "$1/trace" ] || { echo -1; return; }
    grep -v '^#' "$1/trace" | grep -c -E "mc_event: .*$2"
}
krecords() { # DIR -> number of records of any kind
    [ -f "$1/trace" ] || { echo -1; return; }
    grep -v '^#' "$1/trace" | grep -c .
}
oneline() { tr '\n' ' ' | tr -d "'" | sed 's/ *$//'; }

k_facts() { # Bn
    fact "$1_BOOT_ID" "$(cat /proc/sys/kernel/random/boot_id)"
    fact "$1_KVER" "$(uname -r)"
    fact "$1_CMDLINE" "$(oneline < /proc/cmdline)"
    fact "$1_UPTIME" "$(up)"
    fact "$1_P_EXISTS" "$([ -d "$P" ] && echo yes || echo no)"
    fact "$1_B_EXISTS" "$([ -d "$B" ] && echo yes || echo no)"
    fact "$1_P_TRACING_ON" "$(cat "$P/tracing_on" 2>/dev/null)"
    fact "$1_P_MC_ENABLE" "$(cat "$P/events/ras/mc_event/enable" 2>/dev/null)"
    fact "$1_P_LAST_BOOT_INFO" "$(oneline < "$P/last_boot_info" 2>/dev/null)"
    fact "$1_P_BUFFER_KB" "$(cat "$P/buffer_size_kb" 2>/dev/null)"
    fact "$1_P_RECORDS" "$(krecords "$P")"
    # what the kernel said about reserve_mem and the boot-mapped buffer
    dmesg | grep -i -E 'reserve_mem|memmap|rasdtrace|rasd_persist|rasd_boot|ring.?buffer|boot.?map|trace_instance|tracing' \
        > "$RES/k612.$1.dmesg-trace.txt" 2>/dev/null
    fact "$1_DMESG_TRACE" "$(head -n 12 "$RES/k612.$1.dmesg-trace.txt" | oneline | cut -c1-900)"
    # where the kernel put rasd_persist's ring buffer ("mapped boot instance
    # NAME at physical memory ADDR"), and whether it found a previous boot's
    # buffer there ("is from previous boot") or a fresh one ("mismatch")
    fact "$1_P_PHYS" "$(sed -n 's/.*mapped boot instance rasd_persist at physical memory \(0x[0-9a-f]*\).*/\1/p' \
        "$RES/k612.$1.dmesg-trace.txt" | head -n 1)"
    fact "$1_P_META_PREV" "$(grep -c 'is from previous boot' "$RES/k612.$1.dmesg-trace.txt")"
    [ -f "$P/trace" ] && cat "$P/trace" > "$RES/k612.$1.persist-at-start.trace"
    [ -f "$P/last_boot_info" ] && cat "$P/last_boot_info" > "$RES/k612.$1.last_boot_info"
}

kemit() { # TAG N TYPE
    i=1
    while [ "$i" -le "$2" ]; do
        echo "mc $3 1 0x12345 0x678 0x55 1 0 -1 k612 $1 $i" > "$MCI" ||
            log "mc_event $1 $i: write failed"
        i=$((i + 1))
    done
    sleep 1
}

# copies rasd's database (and its WAL) to the share as k612.Bn.db
k_collect() { # Bn
    for x in db db-wal db-shm; do
        [ -f "$G/k612.$x" ] && cp "$G/k612.$x" "$RES/k612.$1.$x"
    done
    for x in rasd.log conf; do
        [ -f "$G/k612.$x" ] && cp "$G/k612.$x" "$RES/k612.$1.$x"
    done
}

k_boot1() {
    K_BOOT=B1
    : > "$FACTS"
    fact CPU_LABEL "$QT_CPU"
    k_facts B1
    if insmod "$HR$QT_MODULE"; then fact MODULE ok; else fact MODULE failed; fi
    kemit early "$K612_EARLY" 0
    fact B1_B_EARLY "$(kcount "$B" 'k612 early')"
    fact B1_P_EARLY "$(kcount "$P" 'k612 early')"
    rasd_start k612 rasfdr_k612 no 256; fact "${K_BOOT}_RASD_START" "$?"
    fact B1_B_MC_ENABLE_AFTER "$(cat "$B/events/ras/mc_event/enable" 2>/dev/null)"
    fact B1_P_TRACING_ON_AFTER "$(cat "$P/tracing_on" 2>/dev/null)"
    fact B1_P_RECORDS_AFTER "$(krecords "$P")"
    rasd_stop B1
    kemit late "$K612_LATE" 1
    fact B1_P_LATE "$(kcount "$P" 'k612 late')"
    fact B1_B_LATE "$(kcount "$B" 'k612 late')"
    k_collect B1
    dmesg > "$RES/k612.B1.dmesg.txt"
    log "@@K612_BOOT1_DONE: warm reboot"
    sync
    umount "$HR$RES" 2>/dev/null; umount "$RES" 2>/dev/null
    reboot -f
    sleep 30
}

k_boot2() {
    K_BOOT=B2
    k_facts B2
    fact B2_P_LATE "$(kcount "$P" 'k612 late')"
    fact B2_P_EARLY "$(kcount "$P" 'k612 early')"
    mkdir -p "$G"
    for x in db db-wal db-shm; do
        [ -f "$RES/k612.B1.$x" ] && cp "$RES/k612.B1.$x" "$G/k612.$x"
    done
    rasd_start k612 rasfdr_k612 no 256; fact "${K_BOOT}_RASD_START" "$?"
    fact B2_P_RECORDS_AFTER "$(krecords "$P")"
    fact B2_P_LATE_AFTER "$(kcount "$P" 'k612 late')"
    fact B2_P_TRACING_ON_AFTER "$(cat "$P/tracing_on" 2>/dev/null)"
    rasd_stop B2
    k_collect B2
    dmesg > "$RES/k612.B2.dmesg.txt"
    # issue 36's events on 6.12 (guest/events.sh)
    . "$HR$QT_SRCDIR/tests/qemu/guest/events.sh"
    RASD_PID=
    session_events
    log "@@SCENARIOS_DONE"
}

main_k612() {
    n=$(cat "$RES/k612.boots" 2>/dev/null || echo 0)
    n=$((n + 1))
    echo "$n" > "$RES/k612.boots"; sync
    log "k612: boot $n, $(uname -r): $(cat /proc/cmdline)"
    case "$n" in
    1) k_boot1 ;;
    2) k_boot2 ;;
    *) log "k612: unexpected boot $n (a panic or a failed step rebooted the guest); stopping" ;;
    esac
}
