# SPDX-License-Identifier: MIT
# check.sh - host-side checks of one guest run (sourced by run.sh, after
# values.sh). Every scenario names the rows it expects by their identifying
# fields, requires exactly the number the kernel emitted (the witness
# instance's count), and compares each stored column with a SQL predicate.
# Needs: pass, fail (run.sh), sqlite3.

# sqlite3 on a copy of the database; prints the result, or "ERROR: ..."
q() { # DB SQL
    sqlite3 -batch -noheader "$1" "$2" 2>&1 | head -n 1 | sed 's/^Error: /ERROR: /; s/^Parse error: /ERROR: /; s/in prepare, //'
}

fact_of() { # KEY -> last value in facts.env
    sed -n "s/^$1='\(.*\)'\$/\1/p" "$D/facts.env" 2>/dev/null | tail -1
}

# Predicates every event row must satisfy.
common_preds() {
    COMMON=("boot = (SELECT id FROM boots WHERE boot_id = '$(fact_of BOOT_ID)')"
        "wall_ns BETWEEN $(fact_of WALL_START_NS) AND $(fact_of WALL_END_NS)"
        "trace_ts > 0" "trace_cpu IN (0, 1)" "source <> ''" "rec_hash IS NOT NULL"
        "severity IS NOT NULL")
}

# Checks rows of TABLE matching WHERE: exactly N of them, each satisfying
# every predicate. Sets WHY to the first problems found; returns 0 if none.
rows_ok() { # DBNAME TABLE WHERE N PRED...
    local dbn=$1 db="$D/$1.db" t=$2 where=$3 n=$4 got p bad col val
    shift 4
    WHY=""
    [ -f "$db" ] || { WHY="no database $dbn.db (rasd $(fact_of "RASD_START_$dbn"))"; return 1; }
    got=$(q "$db" "SELECT count(*) FROM ${t}_decoded WHERE $where")
    if [ "$got" != "$n" ]; then
        WHY="$t: $got rows where $where, expected $n"
        return 1
    fi
    for p in "${COMMON[@]}" "$@"; do
        bad=$(q "$db" "SELECT count(*) FROM ${t}_decoded WHERE ($where) AND NOT coalesce(($p), 0)")
        [ "$bad" = 0 ] && continue
        col=${p%% *}
        val=$(q "$db" "SELECT CASE typeof($col) WHEN 'integer' THEN printf('0x%x', $col)
                 WHEN 'blob' THEN 'x''' || hex($col) || '''' ELSE quote($col) END
                 FROM ${t}_decoded WHERE ($where) AND NOT coalesce(($p), 0) LIMIT 1")
        WHY="${WHY:+$WHY; }$t: not ($p): $col = $val"
        [ ${#WHY} -gt 600 ] && break
    done
    [ -z "$WHY" ]
}

verdict() { # NAME (uses WHY)
    if [ -z "$WHY" ]; then pass "$1"; else fail "$1" "$WHY"; fi
}

# checks one scenario: NAME DBNAME TABLE WHERE WITNESS-KEY PRED...
scenario() {
    local name=$1 dbn=$2 t=$3 where=$4 wkey=$5 n
    shift 5
    n=$(fact_of "W_$wkey")
    if [ -z "$n" ] || [ "$n" = 0 ]; then
        fail "$name/$CPU" "the kernel emitted no record (witness: 0)$(ctl_note "$wkey")"
        return
    fi
    rows_ok "$dbn" "$t" "$where" "$n" "$@" || true
    verdict "$name/$CPU"
}

ctl_note() { # TAG
    local rc out
    rc=$(fact_of "CTL_RC_$1")
    out=$(fact_of "CTL_OUT_$1")
    [ -n "$rc" ] && [ "$rc" != 0 ] && echo "; ras-fdr-ctl inject rc=$rc: $out"
}

# ---- expectations ------------------------------------------------------------

cpu_facts() {
    local f m s
    f=$(fact_of FAMILY) m=$(fact_of MODEL) s=$(fact_of STEPPING)
    case "$(fact_of VENDOR)" in
    GenuineIntel) VENDOR_NR=0 VENDOR_NAME=Intel ;;
    AuthenticAMD) VENDOR_NR=2 VENDOR_NAME=AMD ;;
    *) VENDOR_NR=-1 VENDOR_NAME=unknown ;;
    esac
    # CPUID.1.EAX from display family/model/stepping
    CPUID=$(( s | (m & 0xf) << 4 | (f < 15 ? f : 15) << 8 | ((m >> 4) & 0xf) << 16 |
              (f > 15 ? f - 15 : 0) << 20 ))
    FAMILY=$f MODEL=$m STEPPING=$s
}

mce_preds() { # BANK STATUS ADDR MISC MCGSTATUS -> MP
    MP=("bank = $1" "status = $2" "addr = $3" "misc = $4" "mcgstatus = $5"
        "cpuvendor = $VENDOR_NR" "cpuid = $CPUID" "socketid = 0"
        "mcacod = ($2 & 0xffff)" "vendor = '$VENDOR_NAME'" "family = $FAMILY"
        "model = $MODEL" "uc = (($2 >> 61) & 1)" "addr_valid = (($2 >> 58) & 1)")
}

check_mce() {
    mce_preds "$QCE_BANK" "$QCE_STATUS" "$QCE_ADDR" "$QCE_MISC" "$QCE_MCG"
    scenario mce_qemu_ce main mce_record "bank = $QCE_BANK AND status = $QCE_STATUS" \
        mce_qemu_ce "${MP[@]}" "cpu = $QCE_CPU" "mcgcap <> 0" "severity = 'corrected'"
    # mce-inject sets SYNDV itself when synd is non-zero
    local st=$((SW_STATUS | 1 << 53))
    mce_preds "$SW_BANK" "$st" "$SW_ADDR" "$SW_MISC" 0
    scenario mce_inject_sw main mce_record "bank = $SW_BANK AND addr = $SW_ADDR" \
        mce_inject_sw "${MP[@]}" "cpu = $SW_CPU" "synd = $SW_SYND" \
        "ipid = $([ "$(fact_of SMCA)" = 1 ] && echo "$SW_IPID" || echo 0)" \
        "mcgcap = 0" "ip = 0" "severity = 'corrected'"
    if [ "$VENDOR_NR" != 0 ]; then
        echo "   mce_qemu_srao/$CPU: not run: 6.1 panics on an uncorrected #MC from QEMU on AMD"
        return 0
    fi
    mce_preds "$QSRAO_BANK" "$QSRAO_STATUS" "$QSRAO_ADDR" "$QSRAO_MISC" "$QSRAO_MCG"
    scenario mce_qemu_srao main mce_record "bank = $QSRAO_BANK AND status = $QSRAO_STATUS" \
        mce_qemu_srao "${MP[@]}" "cpu = $QSRAO_CPU" "ip <> 0" "mcg_ripv = 1" "mcg_mcip = 1" \
        "severity IN ('srao', 'uncorrected')"
    # What memory_failure() makes of the page depends on what the guest had
    # put there (a free buddy page, or one in use): the expected names are the
    # ones the kernel itself printed for this pfn in the witness instance.
    local mf mf_type mf_result
    mf=$(grep -h "memory_failure_event: pfn $QSRAO_PFN:" "$D/witness.trace" 2>/dev/null | head -n 1)
    mf_type=$(sed -n 's/.*recovery action for \(.*\): [A-Za-z]*$/\1/p' <<<"$mf")
    mf_result=${mf##*: }
    scenario mce_qemu_srao_memory_failure main memory_failure_event "pfn = $QSRAO_PFN" \
        mce_qemu_srao_mf "type_name = '${mf_type:-?}'" "result_name = '${mf_result:-?}'" \
        "location = 'memory page pfn $QSRAO_PFN'"
}

aer_preds() { # STATUS SEVERITY(0/1/2) -> AP
    AP=("status = $1" "raw_severity = $2" "aer_severity = $2" "location = 'PCIe ' || dev_name")
}

check_aer() {
    aer_preds "$AERQ_STATUS" 0
    scenario aer_qemu main aer_event "dev_name = '$AERQ_DEV'" aer_qemu "${AP[@]}" \
        "tlp_header_valid = 1" "tlp_header = x'400000010000000ffee0000000000000'" \
        "errors LIKE '%Unsupported Request%'" "error_class = 'uncorrected non-fatal'"
    aer_preds "$AER_COR_STATUS" 2
    scenario aer_inject_cor main aer_event "dev_name = '$AER_EP' AND status = $AER_COR_STATUS" \
        aer_inject_cor "${AP[@]}" "tlp_header_valid = 0" "errors LIKE '%Receiver Error%'" \
        "severity = 'corrected'"
    aer_preds "$AER_RP_COR_STATUS" 2
    scenario aer_inject_rootport main aer_event "dev_name = '$AER_RP'" aer_inject_rp_cor \
        "${AP[@]}" "errors LIKE '%Bad TLP%'" "severity = 'corrected'"
    aer_preds "$AER_NF_STATUS" 0
    rows_ok main aer_event "dev_name = '$AER_EP' AND status = $AER_NF_STATUS" 1 "${AP[@]}" \
        "tlp_header_valid = 1" "tlp_header = x'0100004a0f00000198badcfe00000000'" \
        "errors LIKE '%Unsupported Request%'" || true
    verdict "aer_inject_nonfatal_tlp/$CPU"
    # 6.1 does not read the endpoint's status for fatal errors: status 0
    rows_ok main aer_event "dev_name = '$AER_EP' AND raw_severity = 1" 1 "status = 0" \
        "tlp_header_valid = 0" "severity = 'fatal'" || true
    verdict "aer_inject_fatal/$CPU"
}

check_memory_failure() {
    local pfn
    pfn=$(fact_of MF_PFN)
    [ -n "$pfn" ] || { fail "memory_failure_madv/$CPU" "no pfn$(ctl_note mf)"; return; }
    scenario memory_failure_madv main memory_failure_event "pfn = $pfn" memory_failure_madv \
        "type = 13" "result = 3" "type_name = 'dirty LRU page'" "result_name = 'Recovered'"
}

check_module_events() {
    [ "$(fact_of MODULE)" = ok ] || { fail "module/$CPU" "test module did not load"; return; }
    scenario mc_event_ce main mc_event "error_type = 0" mc_event_ce \
        "error_count = 1" "mc_index = 0" "top_layer = 1" "middle_layer = 0" "lower_layer = -1" \
        "address = 0x12345678" "grain_bits = 5" "syndrome = 0x55" "msg = 'rasfdr ce read'" \
        "label = 'RASFDR_CH1_DIMM0'" "driver_detail = 'rasfdr_testmod'" "severity = 'corrected'"
    scenario mc_event_ue main mc_event "error_type = 1" mc_event_ue \
        "error_count = 2" "top_layer = 0" "middle_layer = 1" "address = 0x23456000" \
        "msg = 'rasfdr ue write'" "label = 'RASFDR_CH0_DIMM1'" "severity = 'uncorrected'"
    scenario extlog_mem_event main extlog_mem_event "err_seq = 7" extlog_mem_event \
        "sev = 2" "pa = 0x12345678" "etype = 2" "pa_mask_lsb = 12" "fru_text = 'RASFDR FRU'" \
        "fru_id = x'67452301ab89de4c8f0123456789abcd'" "severity = 'corrected'"
    scenario non_standard_event main non_standard_event "len = 16" non_standard_event \
        "sev = 1" "buf = x'a0a1a2a3a4a5a6a7a8a9aaabacadaeaf'" "fru_text = 'RASFDR FRU'" \
        "sec_type = x'6d5b4a3c8f7e9140a2b3c4d5e6f70819'"
    # 6.1's arm_event has no severity field and no error-information buffer,
    # so the decoder cannot know one: it must say unknown, not guess.
    scenario arm_event main arm_event "mpidr = 0x80000101" arm_event \
        "midr = 0x410fd0c0" "running_state = 1" "psci_state = 0" "affinity = 1" \
        "severity = 'unknown'" "location LIKE 'MPIDR 0x80000101%'"
    scenario devlink_health_report main devlink_health_report "msg = '$DEVLINK_MSG'" \
        devlink_health_report "bus_name = 'platform'" "dev_name = 'rasfdr_testmod'" \
        "driver_name = 'rasfdr_testmod'" "reporter_name = 'rasfdr_reporter'" \
        "severity = 'unknown'" "location = 'platform/rasfdr_testmod'"
}

# ras-fdr-ctl inject's refusals, as the guest recorded them
check_ctl() {
    local rc out
    rc=$(fact_of CTL_RC_edac) out=$(fact_of CTL_OUT_edac)
    if [ "$rc" = 1 ] && [[ "$out" == *CONFIG_EDAC_DEBUG* ]]; then pass "inject_edac_refused/$CPU"
    elif [ "$rc" = 0 ] && [ "$(fact_of W_inject_edac)" -gt 0 ]; then pass "inject_edac/$CPU"
    else fail "inject_edac/$CPU" "rc=$rc: $out"; fi
    rc=$(fact_of CTL_RC_noyes)
    if [ "$rc" = 2 ]; then pass "inject_needs_yes/$CPU"
    else fail "inject_needs_yes/$CPU" "without --yes: rc=$rc, expected 2"; fi
}

check_restart() {
    local x addr why=""
    for x in A B C D; do
        eval "addr=\$RST_ADDR_$x"
        mce_preds "$RST_BANK" "$RST_STATUS" "$addr" 0 0
        rows_ok restart mce_record "bank = $RST_BANK AND addr = $addr" 1 "${MP[@]}" ||
            why="${why:+$why; }$x: $WHY"
    done
    [ "$(fact_of RST_KEPT)" = yes ] || why="${why:+$why; }instance not kept while rasd was stopped"
    WHY=$why
    verdict "restart_keep_instance/$CPU"
}

check_storm() {
    local w rows raw folded lost unknown db="$D/storm.db"
    w=$(fact_of W_storm)
    [ -f "$db" ] || { fail "storm/$CPU" "no database storm.db"; return; }
    # A storm past fold_threshold keeps its first and last raw rows; the rest are counted in folds.
    raw=$(q "$db" "SELECT count(*) FROM mce_record WHERE bank = $STORM_BANK AND status = $STORM_STATUS")
    folded=$(q "$db" "SELECT coalesce(sum(records), 0) FROM folds WHERE tbl = 'mce_record'" 2>/dev/null)
    rows=$raw
    [[ "$raw" =~ ^[0-9]+$ && "${folded:-0}" =~ ^[0-9]+$ ]] && rows=$((raw + ${folded:-0}))
    lost=$(q "$db" "SELECT coalesce(sum(count), 0) FROM lost_events WHERE count > 0")
    unknown=$(q "$db" "SELECT count(*) FROM lost_events WHERE count IS NULL OR count < 0")
    echo "   storm/$CPU: injected $STORM_COUNT, kernel traced $w, stored $rows ($raw raw, ${folded:-0} folded), counted lost $lost (+$unknown unknown-size losses)"
    if ! [[ "$rows" =~ ^[0-9]+$ && "$lost" =~ ^[0-9]+$ ]]; then fail "storm/$CPU" "query: $rows $lost"
    elif [ "$rows" -gt "$w" ]; then fail "storm/$CPU" "stored $rows > traced $w (duplicates)"
    elif [ "$rows" = 0 ]; then fail "storm/$CPU" "nothing stored"
    elif [ $((rows + lost)) -lt "$w" ]; then
        fail "storm/$CPU" "$((w - rows - lost)) of $w records neither stored nor counted lost"
    else pass "storm/$CPU"; fi
}

check_rasd_exits() {
    local bad
    bad=$(grep -E "^RASD_(RC|START)_" "$D/facts.env" | grep -v -E "='(0|ok)'$" | tr '\n' ' ')
    WHY=${bad:+rasd start/exit problems: $bad}
    verdict "rasd_sigterm_clean/$CPU"
}

# ---- actions ----------------------------------------------------------------

# the one actions row of KIND SUBJECT with ACTION; WHY says what differs
action_ok() { # KIND SUBJECT ACTION
    local db="$D/actions.db" n row
    [ -f "$db" ] || { WHY="no database actions.db (rasd $(fact_of RASD_START_actions))"; return 1; }
    n=$(q "$db" "SELECT count(*) FROM actions WHERE kind = '$1'")
    row=$(q "$db" "SELECT subject || ' ' || action || ' ' || result || ' errno ' || coalesce(errno, 0)
                   || ' count ' || count || ' ' || threshold || ' ' || event_table
                   FROM actions WHERE kind = '$1'")
    [ "$n" = 1 ] && [ "$row" = "$2 $3 done errno 0 count $4 $ACT_THRESHOLD $5" ] && return 0
    WHY="$n $1 actions, first: '$row'; expected '$2 $3 done errno 0 count $4 $ACT_THRESHOLD $5'"
    return 1
}

# the trigger's environment (trigger-COND.env) holds each NAME=VALUE given
trigger_ok() { # COND NAME=VALUE...
    local f="$D/trigger-$1.env" kv
    shift
    [ -f "$f" ] || { WHY="no output from the $1 trigger"; return 1; }
    for kv in "$@"; do
        grep -qxF "$kv" "$f" || WHY="${WHY:+$WHY; }$kv not in its environment ($(grep "^${kv%%=*}=" "$f"))"
    done
    [ -z "$WHY" ]
}

check_actions() {
    local pfn page after hwc db="$D/actions.db" id
    pfn=$(fact_of ACT_PFN)
    [ -n "$pfn" ] || { fail "actions_page_soft_offline/$CPU" "pagehold gave no frame"; return; }
    page=$(printf '0x%x' $((pfn << 12)))
    after=$(fact_of ACT_PAGE_AFTER)
    hwc=$(( $(fact_of ACT_HWC_AFTER) - $(fact_of ACT_HWC_BEFORE) ))
    WHY=""
    action_ok page "$page" soft "$ACT_PAGE_ERRORS" mc_event || true
    [ "$(fact_of ACT_POISON_BEFORE)/$(fact_of ACT_POISON_AFTER)" = 0/1 ] ||
        WHY="${WHY:+$WHY; }frame $pfn HWPOISON before/after: $(fact_of ACT_POISON_BEFORE)/$(fact_of ACT_POISON_AFTER), expected 0/1"
    [ "$hwc" = 4 ] || WHY="${WHY:+$WHY; }HardwareCorrupted grew by $hwc kB, expected 4"
    # soft offline migrates the page: pagehold's content moved to another frame intact
    [[ "$after" =~ ^pfn=0x[0-9a-f]+\ intact=1$ && "${after%% *}" != "pfn=$pfn" ]] ||
        WHY="${WHY:+$WHY; }pagehold after the offline: '$after' (was pfn=$pfn)"
    # (6.1 logs nothing when a soft offline succeeds: kpageflags and meminfo are its word)
    echo "   actions_page_soft_offline/$CPU: frame $pfn HWPOISON, HardwareCorrupted +$hwc kB, pagehold now $after"
    verdict "actions_page_soft_offline/$CPU"

    WHY=""
    action_ok cpu "cpu $ACT_CPU" offline "$ACT_CPU_ERRORS" mce_record || true
    [ "$(fact_of ACT_CPU_BEFORE)/$(fact_of ACT_CPU_AFTER)" = 1/0 ] ||
        WHY="${WHY:+$WHY; }cpu$ACT_CPU/online before/after: $(fact_of ACT_CPU_BEFORE)/$(fact_of ACT_CPU_AFTER), expected 1/0"
    [ "$(fact_of ACT_ONLINE_AFTER)" = 0 ] ||
        WHY="${WHY:+$WHY; }online CPUs after: '$(fact_of ACT_ONLINE_AFTER)', expected 0"
    verdict "actions_cpu_offline/$CPU"

    WHY=""
    id=$(q "$db" "SELECT event_id FROM actions WHERE kind = 'page'")
    [ "$(q "$db" "SELECT count(*) FROM mc_event WHERE id = '$id' AND address = $((pfn << 12 | ACT_PAGE_OFFSET))
                  AND error_count = $ACT_PAGE_ERRORS")" = 1 ] ||
        WHY="the page action's record $id is not the injected mc_event"
    trigger_ok page-threshold RAS_CONDITION=page-threshold RAS_EVENT=ras:mc_event \
        RAS_TABLE=mc_event "RAS_RECORD_ID=$id" RAS_SEVERITY=corrected RAS_SUBJECT_KIND=page \
        "RAS_SUBJECT=$page" "RAS_ADDRESS=$page" "RAS_COUNT=$ACT_PAGE_ERRORS" \
        "RAS_THRESHOLD=$ACT_THRESHOLD" RAS_ACTION=soft RAS_RESULT=done RAS_ERRNO=0 \
        RAS_SYNTHETIC=0 RAS_DIMM_LABEL=RASFDR_CH1_DIMM0 \
        "RAS_TARGET=$page > /sys/devices/system/memory/soft_offline_page" || true
    trigger_ok cpu-threshold RAS_CONDITION=cpu-threshold RAS_EVENT=mce:mce_record \
        RAS_SUBJECT_KIND=cpu "RAS_SUBJECT=cpu $ACT_CPU" "RAS_CPU=$ACT_CPU" RAS_ACTION=offline \
        RAS_RESULT=done "RAS_COUNT=$ACT_CPU_ERRORS" RAS_SYNTHETIC=0 || true
    verdict "actions_trigger_env/$CPU"
}

# ---- health -------------------------------------------------------------------

# the part's row of "ras-fdr-ctl health --json" as "verdict rule mode permanent label"
health_part() { # JSON PART
    python3 -c 'import json, sys
d = json.loads(sys.argv[1])
for p in d["parts"]:
    if p["part"] == sys.argv[2]:
        print(p["verdict"], p["rule"], p["mode"], p["permanent"], p["label"])' "$1" "$2"
}

check_health() {
    local db="$D/health.db" n json got want text rc=0
    n=$(( $(fact_of W_health) - $(fact_of W0_health) ))
    WHY=""
    [ "$n" -ge 14 ] || WHY="the kernel emitted $n of the 14 mc_events"
    if [ -z "$WHY" ]; then
        json=$("$CTL" --config /dev/null --db "$db" health --json 2>&1) || rc=$?
        [ "$rc" = 3 ] || WHY="health --json: exit $rc, not 3 (a part to replace)"
        got=$(health_part "$json" "mc0 0:1:-1")
        want="replace mem-single-bank single-bank True RASFDR_CH0_DIMM1"
        [ "$got" = "$want" ] || WHY="${WHY:+$WHY; }bank DIMM: '$got', expected '$want'"
        got=$(health_part "$json" "mc0 1:0:-1")
        want="watch mem-row-column single-row True RASFDR_CH1_DIMM0"
        [ "$got" = "$want" ] || WHY="${WHY:+$WHY; }row DIMM: '$got', expected '$want'"
        text=$("$CTL" --config /dev/null --db "$db" health) || true
        grep -q '^REPLACE  dimm mc0 0:1:-1 (RASFDR_CH0_DIMM1)$' <<<"$text" ||
            WHY="${WHY:+$WHY; }health does not name the bank DIMM to replace"
    fi
    verdict "health_parts/$CPU"
    WHY=""
    cp "$D/verdict-replace-mc0_0_1_-1.env" "$D/trigger-verdict-replace.env" 2>/dev/null
    cp "$D/verdict-watch-mc0_1_0_-1.env" "$D/trigger-verdict-watch.env" 2>/dev/null
    trigger_ok verdict-replace RAS_CONDITION=verdict-change RAS_PART_KIND=dimm \
        "RAS_PART=mc0 0:1:-1" RAS_PART_LABEL=RASFDR_CH0_DIMM1 RAS_VERDICT=replace \
        RAS_RULE=mem-single-bank RAS_FAULT_MODE=single-bank RAS_FAULT_PERMANENT=1 \
        RAS_UNCORRECTED=0 RAS_SYNTHETIC=0 || true
    trigger_ok verdict-watch RAS_CONDITION=verdict-change "RAS_PART=mc0 1:0:-1" \
        RAS_VERDICT=watch RAS_VERDICT_WAS=ok RAS_FAULT_MODE=single-row || true
    verdict "health_trigger/$CPU"
}

# the sessions run.sh --sessions chose (all when none)
session_on() { [ -z "${SESSIONS:-}" ] || [[ " $SESSIONS " == *" $1 "* ]]; }

check_all() { # CPU-LABEL
    CPU=$1 D="$OUT/$1"
    if [ ! -f "$D/facts.env" ] || ! grep -q SCENARIOS_DONE "$D/console.log" 2>/dev/null; then
        fail "guest/$CPU" "the guest did not finish its scenarios $(cat "$D/problems" 2>/dev/null)"
        [ -f "$D/facts.env" ] || return 0
    fi
    common_preds
    cpu_facts
    check_rasd_exits
    if session_on main; then
        check_mce
        check_aer
        check_memory_failure
        check_module_events
        check_ctl
    fi
    session_on restart && check_restart
    session_on storm && check_storm
    session_on actions && check_actions
    session_on health && check_health
    session_on rasdaemon && check_rasdaemon_real
    session_on events && [ "$CPU" = intel ] && check_events
    return 0
}
