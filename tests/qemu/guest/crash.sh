# SPDX-License-Identifier: MIT
# crash.sh - the last-words set (issue 35), sourced by scenarios.sh when run.sh
# boots the crash pair: two QEMU runs sharing one ACPI ERST backing file.
#
# Boot 1: rasd records a corrected machine check, its database is copied to
#         the share, then QEMU's monitor raises a fatal machine check: the
#         kernel writes it to ERST (apei_write_mce), pstore keeps the panic's
#         log in ERST, and the panic ends the run (-no-reboot).
# Boot 2: the database comes back; rasd starts with pstore_remove = no (it
#         stores the crash, the fatal MCE and the log, and leaves pstore as it
#         is), again with pstore_remove = yes (nothing new is stored; the
#         records leave pstore, so ERST), and pstore is mounted again to see
#         what ERST still holds. ras-fdr-ctl crashes tells the story.
# Facts go to facts.env with a C1_/C2_ prefix; check-crash.sh checks them.

PS=/sys/fs/pstore

# pstore at /sys/fs/pstore, and again where rasd's chroot sees it (guest/init
# bound /sys there before: a later mount does not show through the bind)
mount_pstore() {
    mkdir -p $PS
    mount -t pstore pstore $PS 2>/dev/null
    mount -t pstore pstore "$HR$PS" 2>/dev/null
}
umount_pstore() { umount "$HR$PS" 2>/dev/null; umount $PS 2>/dev/null; }
# "name:size name:size ..." of the pstore files
pstore_list() { for f in $PS/*; do [ -f "$f" ] && printf '%s:%s ' "${f##*/}" "$(wc -c < "$f")"; done; }
# "name:mtime ..." (the records' times as pstore gives them)
pstore_times() { for f in $PS/*; do [ -f "$f" ] && printf '%s:%s ' "${f##*/}" "$(stat -c %Y "$f")"; done; }

crash_conf() { # REMOVE
    RASD_CONF_EXTRA="pstore_dir = $PS
pstore_archive_dir =
mcelog_device =
pstore_remove = $1
trigger_dir = $GC/triggers"
}

crash_trigger() {
    mkdir -p "$G/triggers"
    printf '#!/bin/sh\nenv > %s/trigger-crash.tmp && mv %s/trigger-crash.tmp %s/trigger-crash.env\n' \
        "$GC" "$GC" "$GC" > "$G/triggers/crash"
    chmod 755 "$G/triggers/crash"
}

# an online copy of rasd's database (rasd may be running) to the share as NAME.db
crash_backup() { # NAME
    chr sqlite3 "$GC/crash.db" ".backup $GC/$1.db" && cp "$G/$1.db" "$RES/$1.db"
}

crash_facts() { # Cn
    fact "$1_BOOT_ID" "$(cat /proc/sys/kernel/random/boot_id)"
    fact "$1_KVER" "$(uname -r)"
    fact "$1_ERST_INIT" "$(dmesg | grep -c 'Error Record Serialization Table (ERST) support is initialized')"
    fact "$1_PSTORE_BACKEND" "$(cat /sys/module/pstore/parameters/backend 2>/dev/null)"
    fact "$1_PSTORE_FILES" "$(pstore_list)"
    fact "$1_PSTORE_TIMES" "$(pstore_times)"
    fact "$1_PSTORE_IN_CHROOT" "$(ls "$HR$PS" 2>/dev/null | wc -l)"
    fact "$1_WALL_NS" "$(date +%s)000000000"
}

crash_boot1() {
    : > "$FACTS"
    fact CPU_LABEL "$QT_CPU"
    mount_pstore
    crash_facts C1
    setup_witness
    crash_conf no
    rasd_start crash rasfdr_crash no 256
    # a corrected error of this boot, stored before the crash: one of its last records
    for c in /sys/devices/system/machinecheck/machinecheck*; do echo 1 > "$c/check_interval"; done
    hmp "mce $QCE_CPU $QCE_BANK $QCE_STATUS $QCE_MCG $QCE_ADDR $QCE_MISC"
    wait_w crash_ce "MC$QCE_BANK: ${QCE_STATUS#0x}" 1 30
    sleep 2
    crash_backup crash.B1 && fact C1_DB ok
    fact C1_WALL_CRASH_NS "$(date +%s)000000000"
    log "@@CRASH: a fatal machine check now"
    sync
    hmp "mce -b $CRASH_CPU $CRASH_BANK $CRASH_STATUS $CRASH_MCG $CRASH_ADDR $CRASH_MISC"
    sleep 60
    log "crash: the kernel is still alive 60 s after the fatal machine check"
}

crash_ctl() { # NAME ARGS...
    n=$1; shift
    chr "$QT_CTL" --db "$GC/crash.db" "$@" > "$RES/ctl-$n.out" 2>&1
    fact "C2_CTL_RC_$n" "$?"
}

crash_boot2() {
    fact C2_START 1
    mount_pstore
    crash_facts C2
    mkdir -p "$RES/pstore" "$G"
    cp $PS/* "$RES/pstore/" 2>/dev/null
    cp "$HR$QT_CRASH_PREV/crash.B1.db" "$G/crash.db" || log "crash: no database from boot 1"
    crash_trigger
    crash_conf no
    rasd_start crash rasfdr_crash no 256; fact C2_START1 "$?"
    rasd_stop crash; fact C2_RC1 "$(fact_last RASD_RC_crash)"
    fact C2_PSTORE_AFTER1 "$(pstore_list)"
    crash_backup crash.S1
    cp "$G/trigger-crash.env" "$RES/" 2>/dev/null
    crash_conf yes
    rasd_start crash rasfdr_crash no 256; fact C2_START2 "$?"
    rasd_stop crash; fact C2_RC2 "$(fact_last RASD_RC_crash)"
    fact C2_PSTORE_AFTER2 "$(pstore_list)"
    umount_pstore; mount_pstore
    fact C2_PSTORE_REMOUNT "$(pstore_list)"
    # each ras-fdr-ctl run costs seconds under TCG: the text list, the whole story in JSON
    crash_ctl crashes crashes
    crash_ctl show_json crashes show 1 --json
    crash_ctl status status --json
    crash_ctl metrics metrics
    collect crash
    dmesg > "$RES/dmesg.txt"
    log "@@SCENARIOS_DONE"
}

fact_last() { sed -n "s/^$1='\(.*\)'\$/\1/p" "$FACTS" | tail -n 1; }

main_crash() {
    RASD_CONF_EXTRA=
    case "${QT_CRASH_BOOT:-}" in
    1) crash_boot1 ;;
    2) crash_boot2 ;;
    *) log "crash: no QT_CRASH_BOOT" ;;
    esac
}
