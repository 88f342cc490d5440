# SPDX-License-Identifier: MIT
# events.sh - issue 36's events in the guest, sourced by scenarios.sh (the
# 6.1 set, Intel only) and run by k612.sh in its second boot (6.12): a
# process killed by a poisoned page, a disk's medium error, the same error
# from block_rq_complete where block_rq_error is treated as absent, a NIC
# transmit timeout; the poisoned pages' SEL entries in QEMU's simulated BMC. The host checks them (check-events.sh).
#
# A witness instance of its own records the same events with the filters
# rasd sets, so the host knows how many records rasd should have stored.

EVW=$T/instances/rasfdr_evw
EV_SIG_FILTER="sig == 7 && (code == 4 || code == 5)"

ev_witness() {
    mkdir -p "$EVW"
    echo 1024 > "$EVW/buffer_size_kb"
    echo "$EV_SIG_FILTER" > "$EVW/events/signal/signal_generate/filter"
    echo "error != 0" > "$EVW/events/block/block_rq_complete/filter"
    for ev in signal/signal_generate ras/memory_failure_event block/block_rq_error \
              block/block_rq_complete net/net_dev_xmit_timeout; do
        echo 1 > "$EVW/events/$ev/enable"
    done
}

# witness records matching an extended regex
ev_wcount() { grep -v '^#' "$EVW/trace" | grep -c -E "$1"; }

# wait up to SECS for N witness records matching RE; the count goes to W_ev_TAG
ev_wait() { # TAG RE N SECS
    i=0 n=$(ev_wcount "$2")
    while [ "$n" -lt "$3" ] && [ $i -lt $(($4 * 5)) ]; do
        sleep 0.2; i=$((i + 1)); n=$(ev_wcount "$2")
    done
    fact "W_ev_$1" "$n"
    [ "$n" -ge "$3" ] || log "timeout: $1 saw $n/$3 witness records for /$2/"
}

# The BMC (QEMU's ipmi-bmc-sim behind isa-ipmi-kcs, run.sh): its modules from
# the host's tree, then /dev/ipmi0 for rasd's SEL entries (bmc_sel).
ev_ipmi() {
    chroot "$HR" modprobe ipmi_devintf
    chroot "$HR" modprobe ipmi_si
    i=0
    while [ ! -c /dev/ipmi0 ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
    fact EV_IPMI_DEV "$([ -c /dev/ipmi0 ] && echo yes || echo no)"
}

# The BMC's SEL read back with ipmitool (the host's, in the chroot): the list
# and every entry's fields.
ev_sel_read() {
    [ -c /dev/ipmi0 ] || return 0
    chroot "$HR" ipmitool sel list > "$RES/events-sel-list.txt" 2>&1
    fact EV_SEL_LIST_RC "$?"
    # One ipmitool for every entry: each start reads its libraries over 9p.
    ids=$(awk -F'|' '{ gsub(/ /, "", $1); if ($1 ~ /^[0-9a-fA-F]+$/) print "0x" $1 }' \
        "$RES/events-sel-list.txt")
    : > "$RES/events-sel-get.txt"
    # shellcheck disable=SC2086
    [ -z "$ids" ] || chroot "$HR" ipmitool sel get $ids > "$RES/events-sel-get.txt" 2>&1
    log "the BMC's SEL read back: $(echo $ids | wc -w) entries"
}

# a process poisons its own page and dies of SIGBUS (guest/sigbus.c)
ev_sigbus() { # late|early
    chroot "$HR" "$QT_SIGBUS" "$1" "$GC/sigbus-$1" >> "$G/sigbus.log" 2>&1
    fact "EV_SIGBUS_RC_$1" "$?"
    fact "EV_SIGBUS_PFN_$1" "$(sed -n 's/^pfn=//p' "$G/sigbus-$1" 2>/dev/null)"
}

# scsi_debug's medium error (opts=2): reading sector 0x1234 fails; the
# device's name goes to EV_DISK
ev_scsi_debug() {
    chroot "$HR" modprobe sd_mod
    chroot "$HR" modprobe scsi_debug opts=2 dev_size_mb=8 || { log "scsi_debug did not load"; return 1; }
    i=0
    while [ -z "$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block 2>/dev/null)" ] &&
          [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
    EV_DISK=$(ls /sys/bus/pseudo/drivers/scsi_debug/adapter0/host*/target*/*/block 2>/dev/null | head -n 1)
    fact EV_DISK "$EV_DISK"
    fact EV_DISK_DEV "$(cat "/sys/block/$EV_DISK/dev" 2>/dev/null)"
    [ -n "$EV_DISK" ]
}

# one direct read of 512 bytes at SECTOR (the page cache would read ahead)
ev_read() { # SECTOR
    chroot "$HR" dd if="/dev/$EV_DISK" of=/dev/null bs=512 skip="$1" count=1 iflag=direct \
        >> "$G/dd.log" 2>&1
}

ev_instance_facts() { # TAG INSTANCE
    for ev in signal/signal_generate block/block_rq_error block/block_rq_complete; do
        name=$(echo "${ev#*/}" | tr a-z A-Z)
        fact "EV_$1_${name}_ON" "$(cat "$T/instances/$2/events/$ev/enable" 2>/dev/null)"
        fact "EV_$1_${name}_FILTER" "$(head -n 1 "$T/instances/$2/events/$ev/filter" 2>/dev/null)"
    done
}

session_events() {
    ev_witness
    ev_ipmi
    # The poisoned pages' records (uncorrected) become SEL entries.
    RASD_CONF_EXTRA="bmc_sel = yes"
    rasd_start events rasfdr_ev no 256
    RASD_CONF_EXTRA=
    ev_instance_facts MAIN rasfdr_ev
    ev_sigbus late
    ev_wait sigbus_late "signal_generate: sig=7 .*comm=sigbus" 1 10
    ev_sigbus early
    ev_wait sigbus_early "signal_generate: sig=7 .*comm=sigbus" 2 10
    ev_wait sigbus_mf "memory_failure_event:" 2 10
    [ -e "$MCI" ] || insmod "$HR$QT_MODULE" || log "events: test module did not load"
    # No IPv6 on the module's new device: its autoconfiguration would send
    # packets of its own, each one more timeout; the test's one packet is all.
    echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6 2>/dev/null
    echo xmit_timeout > "$MCI" || log "events: xmit_timeout failed"
    ev_wait xmit_timeout "net_dev_xmit_timeout: dev=rasfdr" 1 15
    if ev_scsi_debug; then
        ev_read 4660
        ev_wait blk_error "block_rq_error: .* 4660 \+ 1 .*\[-61\]" 1 10
    fi
    rasd_stop events
    collect events
    ev_sel_read

    # The stand-in: block_rq_error treated as absent (tests only).
    RASD_CONF_EXTRA="pretend_absent = block:block_rq_error"
    rasd_start events_fb rasfdr_evfb no 256
    RASD_CONF_EXTRA=
    ev_instance_facts FB rasfdr_evfb
    if [ -n "${EV_DISK:-}" ]; then
        re="block_rq_complete: .* 4660 \+ 1 .*\[-61\]"
        before=$(ev_wcount "$re")
        fact EV_W_COMPLETE_BEFORE "$before"
        ev_read 0
        ev_read 4660
        ev_wait blk_complete "$re" $((before + 1)) 10
    fi
    rasd_stop events_fb
    collect events_fb
    grep -v '^#' "$EVW/trace" > "$RES/events-witness.trace"
    dmesg | grep -E 'Memory failure|Killing|NETDEV WATCHDOG|medium error|sigbus' > "$RES/events-dmesg.txt"
    echo 0 > "$EVW/tracing_on"
}
