# SPDX-License-Identifier: MIT
# check-k612.sh - host checks of run.sh --kernel 6.12 (guest/k612.sh), sourced
# by run.sh after check.sh (reuses q, fact_of, rows_ok, verdict).
#
#   k612.B1.db   the database after boot 1 (rasd stopped, before the reboot)
#   k612.B2.db   the same database after boot 2

k612_fact_is() { # KEY VALUE -> WHY += mismatch
    local v
    v=$(fact_of "$1")
    [ "$v" = "$2" ] || WHY="${WHY:+$WHY; }$1 = '$v', expected '$2'"
}

# why the persistent buffer did not come back, as the guest recorded it
k612_persist_reason() {
    echo "boot 2: instance exists=$(fact_of B2_P_EXISTS), records=$(fact_of B2_P_RECORDS)," \
        "late records=$(fact_of B2_P_LATE) of $(fact_of B1_P_LATE)," \
        "last_boot_info='$(fact_of B2_P_LAST_BOOT_INFO)'," \
        "dmesg: $(fact_of B2_DMESG_TRACE | cut -c1-400)"
}

# The kernel put the persistent buffer at another physical address in boot 2
# than in boot 1 (a reserve_mem= reservation that KASLR displaced): boot 1's
# buffer is out of reach, and the kernel says so ("mismatch of magic"). Prints
# the reason, or nothing if the buffer stayed where it was.
k612_buffer_moved() {
    local a b
    a=$(fact_of B1_P_PHYS) b=$(fact_of B2_P_PHYS)
    [ -n "$a" ] && [ -n "$b" ] && [ "$a" != "$b" ] || return 0
    echo "the kernel mapped rasd_persist at $a in boot 1 and at $b in boot 2, so boot 1's buffer" \
        "was not there to find (reserve_mem moved by KASLR; use memmap=SIZE\$ADDR)"
}

# verdict, unless the buffer moved: then a SKIP with that reason
k612_verdict_unless_moved() { # NAME
    if [ -n "$MOVED" ]; then skip "$1" "$MOVED"; else verdict "$1"; fi
}

check_k612() { # CPU-LABEL
    CPU=$1 D="$OUT/$1"
    local b1 b2 why n
    if [ ! -f "$D/facts.env" ] || ! grep -q SCENARIOS_DONE "$D/console.log" 2>/dev/null; then
        fail "k612_guest/$CPU" "the guest did not finish both boots (boots: $(cat "$D/k612.boots" 2>/dev/null)) $(cat "$D/problems" 2>/dev/null)"
        [ -f "$D/facts.env" ] || return 0
    fi
    b1="(SELECT id FROM boots WHERE boot_id = '$(fact_of B1_BOOT_ID)')"
    b2="(SELECT id FROM boots WHERE boot_id = '$(fact_of B2_BOOT_ID)')"
    COMMON=("trace_ts > 0" "trace_cpu IN (0, 1)" "rec_hash IS NOT NULL")
    MOVED=$(k612_buffer_moved)
    echo "   k612/$CPU: persistent buffer at $(fact_of B1_P_PHYS) (boot 1), $(fact_of B2_P_PHYS) (boot 2)," \
        "boot 2 found the previous boot's meta on $(fact_of B2_P_META_PREV) CPUs"
    echo "   k612/$CPU: boot 1 $(fact_of B1_KVER), last_boot_info at boot 1: '$(fact_of B1_P_LAST_BOOT_INFO)', at boot 2: '$(fact_of B2_P_LAST_BOOT_INFO)'"

    # the kernel made both instances from the command line, on both boots
    WHY=""
    k612_fact_is B1_P_EXISTS yes; k612_fact_is B1_B_EXISTS yes
    k612_fact_is B2_P_EXISTS yes; k612_fact_is B2_B_EXISTS yes
    k612_fact_is B1_P_MC_ENABLE 1; k612_fact_is B1_P_TRACING_ON 0
    k612_fact_is MODULE ok
    case "$(fact_of B1_KVER)" in 6.12.*) ;; *) WHY="${WHY:+$WHY; }guest kernel $(fact_of B1_KVER)" ;; esac
    verdict "k612_boot_made_instances/$CPU"

    # boot 1: the records from before rasd, stored once with source 'boot'
    WHY=""
    k612_fact_is B1_B_EARLY 3
    k612_fact_is B1_P_EARLY 0
    [ -n "$WHY" ] || rows_ok k612.B1 mc_event "msg LIKE 'k612 early%'" 3 "source = 'boot'" \
        "boot = $b1" "error_type = 0" "severity = 'corrected'" "label = 'RASFDR_CH1_DIMM0'" || true
    verdict "k612_boot_instance/$CPU"

    # boot_instance_adopt = no: rasd stopped the boot instance's events
    WHY=""
    k612_fact_is B1_B_MC_ENABLE_AFTER 0
    k612_fact_is B1_B_LATE 0
    verdict "k612_boot_instance_released/$CPU"

    # the persistent buffer came back after the warm reboot with boot 1's late records
    WHY=""
    n=$(fact_of B1_P_LATE)
    [ "$n" = 2 ] || WHY="boot 1: the persistent instance traced $n late records, expected 2"
    [ -n "$WHY" ] || [ "$(fact_of B2_P_LATE)" = "$n" ] || WHY="$(k612_persist_reason)"
    [ -n "$WHY" ] || [ "$(fact_of B2_P_META_PREV)" = 2 ] ||
        WHY="boot 2: the kernel found the previous boot's meta on $(fact_of B2_P_META_PREV) of 2 CPUs"
    k612_verdict_unless_moved "k612_persist_survives_warm_reboot/$CPU"

    # boot 2: rasd stored them as 'previous-boot', on boot 1's row, once
    WHY=""
    rows_ok k612.B2 mc_event "msg LIKE 'k612 late%'" 2 "source = 'previous-boot'" \
        "boot = $b1" "boot <> $b2" "error_type = 1" "severity = 'uncorrected'" || true
    [ -n "$WHY" ] && [ "$(fact_of B2_P_LATE)" != 2 ] && WHY="$WHY (the buffer did not survive)"
    k612_verdict_unless_moved "k612_previous_boot/$CPU"

    # nothing stored twice: boot 1's early rows unchanged, no other k612 rows
    # (the 2 late ones only if the buffer could come back)
    WHY=""
    rows_ok k612.B2 mc_event "msg LIKE 'k612 early%'" 3 "source = 'boot'" "boot = $b1" || true
    why=$WHY
    local want=5
    [ -z "$MOVED" ] || want=3
    n=$(q "$D/k612.B2.db" "SELECT count(*) FROM mc_event_decoded WHERE msg LIKE 'k612%'")
    [ "$n" = "$want" ] || why="${why:+$why; }$n k612 rows in all, expected $want"
    WHY=$why
    verdict "k612_stored_once/$CPU"

    # rasd emptied the persistent buffer after importing it
    WHY=""
    k612_fact_is B2_P_RECORDS_AFTER 0
    verdict "k612_persist_emptied/$CPU"

    WHY=""
    k612_fact_is B1_RASD_START 0; k612_fact_is B2_RASD_START 0
    k612_fact_is RASD_RC_B1 0; k612_fact_is RASD_RC_B2 0
    verdict "k612_rasd_clean/$CPU"

    # The instance is made ^traceoff so two boots never mix; once rasd has
    # read and emptied it, rasd turns it on to record this boot for the next.
    WHY=""
    k612_fact_is B1_P_TRACING_ON_AFTER 1; k612_fact_is B2_P_TRACING_ON_AFTER 1
    verdict "k612_persist_rearmed/$CPU"

    # issue 36's events, in boot 2 (check-events.sh)
    COMMON=("trace_ts > 0" "trace_cpu IN (0, 1)" "rec_hash IS NOT NULL" "boot = $b2")
    check_events
}
