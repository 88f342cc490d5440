#!/bin/sh
# SPDX-License-Identifier: MIT
# scenarios.sh - runs inside the QEMU guest (busybox sh, started by guest/init).
#
# Starts the host-built rasd in a chroot of the host's root, injects errors
# through ras-fdr-ctl inject, QEMU's monitor and the test module, stops rasd
# and copies its database to the results share. The host (run.sh) checks the
# rows. A second tracefs instance, the "witness", records every RAS event the
# kernel emits, so the host knows what rasd should have seen.
#
# Requests to the host go out on /dev/ttyS1, one per line:
#   @@HMP <command>     run a QEMU human-monitor command
set -u
RES=/mnt/results HR=/mnt/hostroot
. "$RES/params.env"
. "$HR$QT_SRCDIR/tests/qemu/values.sh"
T=/sys/kernel/tracing
W=$T/instances/rasfdr_witness
FACTS=$RES/facts.env
MCI=/sys/kernel/debug/rasfdr_testmod/cmd
RASD_PID=
GC=/run/rasfdr          # rasd's files, as the chroot sees them (guest tmpfs)
G=$HR$GC                # the same, as this script sees them
export TMPDIR=$GC

up() { cut -d' ' -f1 /proc/uptime; }
log() { echo "[$(up)] $*"; }
fact() { echo "$1='$2'" >> "$FACTS"; }
hmp() { log "HMP> $*"; echo "@@HMP $*" > /dev/ttyS1; }
chr() { chroot "$HR" "$@"; }

# ras-fdr-ctl inject ...; output and exit code go to the facts as CTL_<tag>
ctl_inject() { # TAG ARGS...
    tag=$1; shift
    out=$(chr "$QT_CTL" inject "$@" 2>&1); rc=$?
    log "ras-fdr-ctl inject $* -> rc=$rc: $out"
    fact "CTL_RC_$tag" "$rc"
    fact "CTL_OUT_$tag" "$(echo "$out" | tr -d "'\n")"
    CTL_WAIT=10; [ "$rc" = 0 ] || CTL_WAIT=0
    return $rc
}

# number of witness records matching an extended regex
wcount() { grep -v '^#' "$W/trace" | grep -c -E "$1"; }

# wait up to SECS for at least N witness records matching RE; saves the count
wait_w() { # TAG RE N SECS
    i=0 n=$(wcount "$2")
    while [ "$n" -lt "$3" ] && [ $i -lt $(($4 * 5)) ]; do
        sleep 0.2; i=$((i + 1))
        n=$(wcount "$2")
    done
    fact "W_$1" "$n"
    [ "$n" -ge "$3" ] || log "timeout: $1 saw $n/$3 witness records for /$2/"
}

setup_witness() {
    mkdir -p "$W"
    echo 4096 > "$W/buffer_size_kb"
    for ev in mce/mce_record ras/mc_event ras/aer_event ras/extlog_mem_event \
              ras/non_standard_event ras/arm_event ras/memory_failure_event \
              devlink/devlink_health_report block/block_rq_error; do
        [ -f "$W/events/$ev/enable" ] && echo 1 > "$W/events/$ev/enable"
    done
}

guest_facts() {
    : > "$FACTS"
    fact CPU_LABEL "$QT_CPU"
    fact BOOT_ID "$(cat /proc/sys/kernel/random/boot_id)"
    # mce-inject keeps an injected IPID only on CPUs with Scalable MCA.
    if grep -qw smca /proc/cpuinfo; then fact SMCA 1; else fact SMCA 0; fi
    fact KVER "$(uname -r)"
    fact VENDOR "$(grep -m1 vendor_id /proc/cpuinfo | sed 's/.*: //')"
    fact FAMILY "$(grep -m1 'cpu family' /proc/cpuinfo | sed 's/.*: //')"
    fact MODEL "$(grep -m1 '^model[[:space:]]*:' /proc/cpuinfo | sed 's/.*: //')"
    fact STEPPING "$(grep -m1 stepping /proc/cpuinfo | sed 's/.*: //')"
    fact WALL_START_NS "$(date +%s)000000000"
}

# ---- rasd ------------------------------------------------------------------

rasd_start() { # NAME INSTANCE KEEP BUFKB
    mkdir -p "$G"
    cat > "$G/$1.conf" <<EOF
database = $GC/$1.db
lock_dir = $GC
instance = $2
keep_instance = $3
buffer_size_kb = $4
EOF
    [ -z "${RASD_CONF_EXTRA:-}" ] || printf '%s\n' "$RASD_CONF_EXTRA" >> "$G/$1.conf"
    if [ ! -x "$HR$QT_RASD" ]; then log "no rasd at $QT_RASD"; fact "RASD_START_$1" missing; return 1; fi
    # Not through chr(): a function in the background is a subshell, and the
    # signal meant for rasd would end the subshell instead.
    # Ready when this rasd says it records: a kept instance has its events
    # enabled before the new rasd has even set up (and handles SIGTERM).
    ready=$(grep -c "RAS tracepoints in instance" "$G/$1.rasd.log" 2>/dev/null)
    chroot "$HR" "$QT_RASD" --config "$GC/$1.conf" -v >> "$G/$1.rasd.log" 2>&1 &
    RASD_PID=$!
    i=0
    while [ $i -lt 150 ]; do
        kill -0 "$RASD_PID" 2>/dev/null || { log "rasd $1 exited early"; fact "RASD_START_$1" dead; return 1; }
        n=$(grep -c "RAS tracepoints in instance" "$G/$1.rasd.log" 2>/dev/null)
        [ "${n:-0}" -gt "${ready:-0}" ] && break
        sleep 0.2; i=$((i + 1))
    done
    sleep 1   # the reader opens its per-CPU buffers after enabling
    log "rasd $1 running (pid $RASD_PID, instance $2)"
    fact "RASD_START_$1" ok
}

rasd_stop() { # NAME
    [ -n "$RASD_PID" ] || return 0
    sleep 1
    kill -TERM "$RASD_PID" 2>/dev/null
    wait "$RASD_PID"; rc=$?
    RASD_PID=
GC=/run/rasfdr          # rasd's files, as the chroot sees them (guest tmpfs)
G=$HR$GC                # the same, as this script sees them
export TMPDIR=$GC
    log "rasd $1 stopped rc=$rc"
    fact "RASD_RC_$1" "$rc"
}

collect() { # NAME
    for f in "$G/$1.db" "$G/$1.db-wal" "$G/$1.db-shm" "$G/$1.rasd.log" "$G/$1.conf"; do
        [ -f "$f" ] && cp "$f" "$RES/"
    done
}

# ---- main session: one scenario per injection -------------------------------

mce_qemu_ce() {
    for c in /sys/devices/system/machinecheck/machinecheck*; do echo 1 > "$c/check_interval"; done
    hmp "mce $QCE_CPU $QCE_BANK $QCE_STATUS $QCE_MCG $QCE_ADDR $QCE_MISC"
    wait_w mce_qemu_ce "MC$QCE_BANK: ${QCE_STATUS#0x}" 1 30
}

mce_inject_sw() {
    ctl_inject mce_sw mce --bank "$SW_BANK" --status "$SW_STATUS" --addr "$SW_ADDR" \
        --misc "$SW_MISC" --synd "$SW_SYND" --ipid "$SW_IPID" --cpu "$SW_CPU" --sw --yes
    wait_w mce_inject_sw "MC$SW_BANK: .*SYND: 0*${SW_ADDR#0x}/" 1 "$CTL_WAIT"
}

aer_qemu() {
    echo "ereport $AERQ_DEV" > "$MCI" || log "ereport $AERQ_DEV failed"
    hmp "pcie_aer_inject_error vnet0 $AERQ_STATUS $AERQ_TLP"
    wait_w aer_qemu "aer_event: $AERQ_DEV" 1 20
}

aer_inject() { # TAG BDF ARGS...
    tag=$1 bdf=$2; shift 2
    before=$(wcount "aer_event: $bdf")
    ctl_inject "$tag" aer "$bdf" "$@" --yes
    wait_w "$tag" "aer_event: $bdf" $((before + 1)) "$CTL_WAIT"
    fact "W0_$tag" "$before"
}

memory_failure_madv() {
    ctl_inject mf memory-failure --yes
    pfn=$(grep "^CTL_OUT_mf=" "$FACTS" | tail -1 | sed -n 's/.*pfn \(0x[0-9a-f]*\).*/\1/p')
    fact MF_PFN "$pfn"
    wait_w memory_failure_madv "memory_failure_event: pfn ${pfn:-none}:" 1 "$CTL_WAIT"
}

module_events() {
    echo "mc $MC_CE" > "$MCI"; wait_w mc_event_ce "mc_event: .*Corrected" 1 10
    echo "mc $MC_UE" > "$MCI"; wait_w mc_event_ue "mc_event: .*Uncorrected" 1 10
    echo "extlog $EXTLOG" > "$MCI"; wait_w extlog_mem_event "extlog_mem_event:" 1 10
    echo "nonstd $NONSTD" > "$MCI"; wait_w non_standard_event "non_standard_event:" 1 10
    echo "arm $ARM" > "$MCI"; wait_w arm_event "arm_event:" 1 10
    echo "devlink $DEVLINK_MSG" > "$MCI"; wait_w devlink_health_report "devlink_health_report:" 1 10
}

inject_edac() {
    ctl_inject edac edac --mc 0 --type ce --layers 1,0 --yes
    wait_w inject_edac "mc_event: .*rasfdr" 0 2
    ctl_inject noyes mce --bank 1 --status 0x1
}

mce_qemu_srao() {
    # AMD: 6.1 grades QEMU's uncorrected bank as fatal ("Fatal local machine
    # check") and panics, so the SRAO path exists only on Intel.
    grep -q GenuineIntel /proc/cpuinfo || { log "mce_qemu_srao: skipped on AMD"; return 0; }
    hmp "mce -b $QSRAO_CPU $QSRAO_BANK $QSRAO_STATUS $QSRAO_MCG $QSRAO_ADDR $QSRAO_MISC"
    wait_w mce_qemu_srao "MC$QSRAO_BANK: ${QSRAO_STATUS#0x}" 1 30
    wait_w mce_qemu_srao_mf "memory_failure_event: pfn $QSRAO_PFN:" 1 15
}

session_main() {
    rasd_start main rasfdr_main no 256
    if insmod "$HR$QT_MODULE"; then fact MODULE ok; else fact MODULE failed; fi
    mce_qemu_ce
    mce_inject_sw
    aer_qemu
    aer_inject aer_inject_cor "$AER_EP" --cor "$AER_COR_STATUS"
    aer_inject aer_inject_rp_cor "$AER_RP" --cor "$AER_RP_COR_STATUS"
    aer_inject aer_inject_nonfatal_tlp "$AER_EP" --uncor "$AER_NF_STATUS" --tlp "$AER_NF_TLP"
    aer_inject aer_inject_fatal "$AER_EP" --uncor "$AER_FATAL_STATUS"
    memory_failure_madv
    [ -e "$MCI" ] && module_events
    inject_edac
    mce_qemu_srao
    rasd_stop main
    collect main
}

# ---- restart: records buffered while rasd is down are not lost ---------------

rst_inject() { # LETTER ADDR
    ctl_inject "rst_$1" mce --bank "$RST_BANK" --status "$RST_STATUS" --addr "$2" --cpu 0 --yes
    wait_w "rst_$1" "MC$RST_BANK: ${RST_STATUS#0x}" "$3" "$CTL_WAIT"
}

session_restart() {
    rasd_start restart rasfdr_rst yes 256
    rst_inject A "$RST_ADDR_A" 1
    rasd_stop restart
    rst_inject B "$RST_ADDR_B" 2
    rst_inject C "$RST_ADDR_C" 3
    fact RST_KEPT "$([ -d $T/instances/rasfdr_rst ] && echo yes || echo no)"
    rasd_start restart rasfdr_rst yes 256
    rst_inject D "$RST_ADDR_D" 4
    rasd_stop restart
    collect restart
}

# ---- storm: a burst into a small buffer; every record stored or counted lost -

session_storm() {
    rasd_start storm rasfdr_storm no "$STORM_BUF_KB"
    ctl_inject storm mce --bank "$STORM_BANK" --status "$STORM_STATUS" --cpu 0 \
        --count "$STORM_COUNT" --yes
    re="MC$STORM_BANK: ${STORM_STATUS#0x}"
    last=-1 n=0
    while [ "$n" != "$last" ]; do last=$n; sleep 2; n=$(wcount "$re"); done
    fact W_storm "$n"
    fact STORM_POOL_FULL "$(dmesg | grep -c 'MCE records pool full')"
    for c in $T/instances/rasfdr_storm/per_cpu/cpu*; do
        log "storm instance $(basename "$c"): $(grep -E 'entries|overrun|dropped' "$c/stats" | tr '\n' ' ')"
    done
    rasd_stop storm
    collect storm
}

# ---- actions: a real soft offline, a real CPU offline, their triggers ---------

# /proc/kpageflags bit 19: KPF_HWPOISON, the kernel's mark of an offlined frame
kpf_poison() { # PFN
    v=$(dd if=/proc/kpageflags bs=8 skip=$(($1)) count=1 2>/dev/null | od -An -tx8 | tr -d ' \n')
    [ -n "$v" ] && echo $(((0x$v >> 19) & 1)) || echo "?"
}
hw_corrupted_kb() { sed -n 's/^HardwareCorrupted: *\([0-9]*\) kB/\1/p' /proc/meminfo; }

# until FILE holds VALUE (or SECS pass); prints what it holds at the end
wait_value() { # FILE VALUE SECS
    i=0
    while [ "$(cat "$1" 2>/dev/null)" != "$2" ] && [ $i -lt $(($3 * 5)) ]; do sleep 0.2; i=$((i + 1)); done
    cat "$1" 2>/dev/null
}

# each trigger writes its environment to trigger-CONDITION.env (atomically)
actions_triggers() {
    mkdir -p "$G/triggers"
    for c in page-threshold cpu-threshold; do
        printf '#!/bin/sh\nenv > %s/trigger-%s.tmp && mv %s/trigger-%s.tmp %s/trigger-%s.env\n' \
            "$GC" "$c" "$GC" "$c" "$GC" "$c" > "$G/triggers/$c"
        chmod 755 "$G/triggers/$c"
    done
}

actions_page() {
    chroot "$HR" "$QT_PAGEHOLD" "$GC/page" &
    ph=$!
    i=0; while [ ! -f "$G/page" ] && [ $i -lt 150 ]; do sleep 0.2; i=$((i + 1)); done
    pfn=$(sed -n 's/^pfn=//p' "$G/page" 2>/dev/null)
    fact ACT_PFN "$pfn"
    [ -n "$pfn" ] || { log "actions_page: pagehold gave no frame"; kill $ph; return 1; }
    fact ACT_POISON_BEFORE "$(kpf_poison "$pfn")"
    fact ACT_HWC_BEFORE "$(hw_corrupted_kb)"
    echo "mc 0 $ACT_PAGE_ERRORS $pfn $ACT_PAGE_OFFSET 0x0 1 0 -1 rasfdr actions page" > "$MCI"
    wait_w actions_page "mc_event: .*rasfdr actions page" 1 10
    i=0; while [ "$(kpf_poison "$pfn")" != 1 ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
    fact ACT_POISON_AFTER "$(kpf_poison "$pfn")"
    fact ACT_HWC_AFTER "$(hw_corrupted_kb)"
    touch "$G/page.go"; wait $ph
    fact ACT_PAGE_AFTER "$(cat "$G/page.after" 2>/dev/null)"
}

actions_cpu() {
    on=/sys/devices/system/cpu/cpu$ACT_CPU/online
    fact ACT_CPU_BEFORE "$(cat $on)"
    ctl_inject act_cpu mce --bank "$ACT_CPU_BANK" --status "$ACT_CPU_STATUS" --cpu "$ACT_CPU" \
        --count "$ACT_CPU_ERRORS" --sw --yes
    wait_w actions_cpu "MC$ACT_CPU_BANK: ${ACT_CPU_STATUS#0x}" "$ACT_CPU_ERRORS" "$CTL_WAIT"
    fact ACT_CPU_AFTER "$(wait_value $on 0 20)"
    fact ACT_ONLINE_AFTER "$(cat /sys/devices/system/cpu/online)"
}

session_actions() {
    actions_triggers
    RASD_CONF_EXTRA="page_ce_threshold = $ACT_THRESHOLD
page_ce_action = soft
cpu_ce_threshold = $ACT_THRESHOLD
cpu_ce_action = offline
trigger_dir = $GC/triggers"
    rasd_start actions rasfdr_act no 256
    RASD_CONF_EXTRA=
    [ -e "$MCI" ] || insmod "$HR$QT_MODULE" || log "actions: test module did not load"
    actions_page
    actions_cpu
    for c in page-threshold cpu-threshold; do
        i=0; while [ ! -f "$G/trigger-$c.env" ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
        cp "$G/trigger-$c.env" "$RES/" 2>/dev/null || log "actions: no $c trigger output"
    done
    rasd_stop actions
    collect actions
    echo 1 > "/sys/devices/system/cpu/cpu$ACT_CPU/online" 2>/dev/null
}

# ---- health: skx-style driver_detail for a failing row and a failing bank ------

# one corrected mc_event on LAYERS (top mid low) with the 2022 skx spelling of ROW, COL, BANK
health_mc() { # LAYERS ROW COL BANK
    echo "mcd 0 1 0x$(printf '%x' $(($2 + 0x10000))) 0x40 0 $1 err_code:0x0000:0x0091 \
ProcessorSocketId:0x0 MemoryControllerId:0x0 PhysicalRankId:0x1 Row:$2 Column:$3 Bank:$4 BankGroup:0x2" > "$MCI"
}

health_burst() { # HALF (0: first cells, 1: the rest)
    i=0
    for c in $HEALTH_ROW_COLS; do
        [ $((i % 2)) = "$1" ] && health_mc "$HEALTH_ROW_LAYERS" "$HEALTH_ROW" "$c" 0x3
        i=$((i + 1))
    done
    i=0
    for rc in $HEALTH_BANK_CELLS; do
        [ $((i % 2)) = "$1" ] && health_mc "$HEALTH_BANK_LAYERS" "${rc%%:*}" "${rc##*:}" 0x1
        i=$((i + 1))
    done
}

session_health() {
    mkdir -p "$G/triggers"
    # the trigger writes its environment to verdict-VERDICT-PART.env (atomically)
    cat > "$G/triggers/verdict-change" <<EOF
#!/bin/sh
f=$GC/verdict-\$RAS_VERDICT-\$(echo "\$RAS_PART" | tr ' :' '__')
env > \$f.tmp && mv \$f.tmp \$f.env
EOF
    chmod 755 "$G/triggers/verdict-change"
    RASD_CONF_EXTRA="health_permanent_after = $HEALTH_PERMANENT
trigger_dir = $GC/triggers"
    rasd_start health rasfdr_health no 256
    RASD_CONF_EXTRA=
    [ -e "$MCI" ] || insmod "$HR$QT_MODULE" || log "health: test module did not load"
    before=$(wcount "mc_event: .*BankGroup:0x2")
    health_burst 0
    sleep "$HEALTH_GAP"
    health_burst 1
    wait_w health "mc_event: .*BankGroup:0x2" $((before + 14)) 20
    fact W0_health "$before"
    for f in verdict-watch-mc0_1_0_-1 verdict-replace-mc0_0_1_-1; do
        i=0; while [ ! -f "$G/$f.env" ] && [ $i -lt 50 ]; do sleep 0.2; i=$((i + 1)); done
        [ -f "$G/$f.env" ] || log "health: no $f trigger output"
    done
    cp "$G"/verdict-*.env "$RES/" 2>/dev/null
    rasd_stop health
    collect health
}

# QT_SESSIONS (run.sh --sessions) names the sessions to run; empty: all
want() { [ -z "${QT_SESSIONS:-}" ] || case " $QT_SESSIONS " in *" $1 "*) ;; *) return 1 ;; esac; }

main() {
    guest_facts
    setup_witness
    log "guest $(uname -r) $QT_CPU: $(grep -m1 'model name' /proc/cpuinfo)"
    log "rasd=$QT_RASD ctl=$QT_CTL"
    want main && session_main
    want restart && session_restart
    want storm && session_storm
    want actions && session_actions
    want health && session_health
    want rasdaemon && { . "$HR$QT_SRCDIR/tests/qemu/guest/rasdaemon-real.sh"; session_rasdaemon_real; }
    # CPU-independent: the Intel model's run only
    want events && [ "$QT_CPU" = intel ] && { . "$HR$QT_SRCDIR/tests/qemu/guest/events.sh"; session_events; }
    fact WALL_END_NS "$(date +%s)999999999"
    grep -v '^#' "$W/trace" > "$RES/witness.trace"
    dmesg > "$RES/dmesg.txt"
    log "@@SCENARIOS_DONE"
}

# run.sh --kernel 6.12 runs the early-boot / persistent-buffer set instead,
# and either kernel the crash pair (guest/crash.sh)
if [ "${QT_SET:-}" = crash ]; then
    . "$HR$QT_SRCDIR/tests/qemu/guest/crash.sh"
    main_crash
elif [ "${QT_SET:-}" = k612 ]; then
    . "$HR$QT_SRCDIR/tests/qemu/guest/k612.sh"
    main_k612
else
    main
fi
