# SPDX-License-Identifier: MIT
# check-events.sh - host checks of guest/events.sh (sourced by run.sh after
# check.sh; reuses q, fact_of, rows_ok, verdict, COMMON). Databases:
#   events.db     rasd with the defaults: filters set, block_rq_error
#   events_fb.db  rasd with pretend_absent = block:block_rq_error
# The witness instance's trace (events-witness.trace) says what the kernel
# emitted; events-sel-list.txt and events-sel-get.txt what the BMC's SEL holds.

# witness records matching an extended regex
ev_wlines() { grep -E "$1" "$D/events-witness.trace" 2>/dev/null; }
ev_errors() { # DBNAME TYPE
    "$CTL" --config /dev/null --db "$D/$1.db" errors --type "$2" 2>&1
}

check_events_filters() {
    local sig="sig == 7 && (code == 4 || code == 5)"
    WHY=""
    [ "$(fact_of EV_MAIN_SIGNAL_GENERATE_ON)/$(fact_of EV_MAIN_SIGNAL_GENERATE_FILTER)" = "1/$sig" ] ||
        WHY="signal_generate in rasd's instance: on=$(fact_of EV_MAIN_SIGNAL_GENERATE_ON) filter='$(fact_of EV_MAIN_SIGNAL_GENERATE_FILTER)'"
    [ "$(fact_of EV_MAIN_BLOCK_RQ_ERROR_ON)/$(fact_of EV_MAIN_BLOCK_RQ_COMPLETE_ON)" = 1/0 ] ||
        WHY="${WHY:+$WHY; }block_rq_error/block_rq_complete on: $(fact_of EV_MAIN_BLOCK_RQ_ERROR_ON)/$(fact_of EV_MAIN_BLOCK_RQ_COMPLETE_ON), expected 1/0"
    [ "$(fact_of EV_FB_BLOCK_RQ_ERROR_ON)/$(fact_of EV_FB_BLOCK_RQ_COMPLETE_ON)/$(fact_of EV_FB_BLOCK_RQ_COMPLETE_FILTER)" = "0/1/error != 0" ] ||
        WHY="${WHY:+$WHY; }pretend_absent: block_rq_error/block_rq_complete on, filter: $(fact_of EV_FB_BLOCK_RQ_ERROR_ON)/$(fact_of EV_FB_BLOCK_RQ_COMPLETE_ON)/'$(fact_of EV_FB_BLOCK_RQ_COMPLETE_FILTER)'"
    verdict "events_kernel_filters/$CPU"
}

# The two poisoned processes: stored as the kernel sent them, each linked to its own page.
check_events_sigbus() {
    local w late early pl pe line code words n
    w=$(ev_wlines 'signal_generate: sig=7 .*comm=sigbus' | wc -l)
    late=$(fact_of EV_SIGBUS_PFN_late) early=$(fact_of EV_SIGBUS_PFN_early)
    WHY=""
    [ "$(fact_of EV_SIGBUS_RC_late)/$(fact_of EV_SIGBUS_RC_early)" = 135/135 ] ||
        WHY="sigbus exit statuses $(fact_of EV_SIGBUS_RC_late)/$(fact_of EV_SIGBUS_RC_early), expected 135/135 (SIGBUS)"
    [ -n "$late" ] && [ -n "$early" ] || WHY="${WHY:+$WHY; }no page frames ($late, $early)"
    [ "$w" = 2 ] || WHY="${WHY:+$WHY; }the kernel sent $w SIGBUS, expected 2"
    [ -n "$WHY" ] || rows_ok events signal_generate "comm = 'sigbus'" 2 "sig = 7" "code IN (4, 5)" \
        "severity = CASE code WHEN 4 THEN 'srar' ELSE 'srao' END" "result = 0" \
        "location = 'process sigbus, pid ' || pid" || true
    [ -n "$WHY" ] || rows_ok events memory_failure_event "pfn IN ($late, $early)" 2 \
        "type_name = 'dirty LRU page'" "result_name = 'Recovered'" || true
    n=0
    for pfn in $late $early; do
        n=$((n + 1))
        line=$(ev_wlines 'signal_generate: sig=7 .*comm=sigbus' | sed -n "${n}p")
        code=$(sed -n 's/.* code=\([0-9]*\) .*/\1/p' <<<"$line")
        pid=$(sed -n 's/.* pid=\([0-9]*\) .*/\1/p' <<<"$line")
        [ "$code" = 4 ] && words="was killed: it consumed poisoned memory" ||
            words="was sent SIGBUS: poisoned memory was taken out of its address space"
        ev_errors events signal_generate | grep -qF "Process \`sigbus\` (pid $pid) $words at pfn $pfn (dirty LRU page, recovery Recovered)" ||
            WHY="${WHY:+$WHY; }errors does not say 'Process \`sigbus\` (pid $pid) $words at pfn $pfn': $(ev_errors events signal_generate | grep "pid $pid" | cut -c1-200)"
        echo "   events_sigbus/$CPU: $([ $n = 1 ] && echo late || echo early) kill: code $code, pid $pid, pfn $pfn"
    done
    verdict "events_sigbus_names_the_process/$CPU"
}

check_events_block() {
    local before after dev
    dev=$(fact_of EV_DISK_DEV)
    if [ -z "$(fact_of EV_DISK)" ]; then
        fail "events_block_rq_error/$CPU" "no scsi_debug disk in the guest"
        return
    fi
    scenario events_block_rq_error events block_rq_error "sector = 4660" ev_blk_error \
        "error = -61" "nr_sector = 1" "status_name = 'critical medium error'" "operation = 'read'" \
        "severity = 'uncorrected'" "location = 'block $dev'"
    WHY=""
    [ "$(q "$D/events.db" "SELECT count(*) FROM block_rq_complete")" = 0 ] ||
        WHY="block_rq_complete rows where block_rq_error is recorded"
    verdict "events_block_rq_complete_idle/$CPU"
    before=$(fact_of EV_W_COMPLETE_BEFORE) after=$(fact_of W_ev_blk_complete)
    WHY=""
    rows_ok events_fb block_rq_complete "sector = 4660" $((after - before)) "error = -61" \
        "nr_sector = 1" "status_name = 'critical medium error'" "operation = 'read'" \
        "severity = 'uncorrected'" "location = 'block $dev'" || true
    [ "$(q "$D/events_fb.db" "SELECT count(*) FROM block_rq_complete WHERE error = 0")" = 0 ] ||
        WHY="${WHY:+$WHY; }a completion without an error was stored"
    ev_errors events_fb block_rq_complete | grep -qF "Critical medium error on $dev, read of 1 sectors at sector 4660" ||
        WHY="${WHY:+$WHY; }errors: $(ev_errors events_fb block_rq_complete | head -n 1 | cut -c1-200)"
    verdict "events_block_rq_complete_stand_in/$CPU"
}

check_events_xmit() {
    local w rows
    w=$(ev_wlines 'net_dev_xmit_timeout: dev=rasfdr' | wc -l)
    rows=$(( $(q "$D/events.db" "SELECT count(*) FROM net_dev_xmit_timeout") +
             $(q "$D/events_fb.db" "SELECT count(*) FROM net_dev_xmit_timeout") ))
    WHY=""
    [ "$w" -ge 1 ] || WHY="the kernel raised no transmit timeout"
    [ "$rows" = "$w" ] || WHY="${WHY:+$WHY; }$rows rows stored, the kernel traced $w"
    [ -n "$WHY" ] || rows_ok events net_dev_xmit_timeout "name LIKE 'rasfdr%'" \
        "$(q "$D/events.db" "SELECT count(*) FROM net_dev_xmit_timeout")" \
        "driver = 'rasfdr_testmod'" "queue_index = 0" "severity = 'uncorrected'" \
        "location = 'net ' || name || ' (rasfdr_testmod)'" || true
    verdict "events_net_dev_xmit_timeout/$CPU"
}

# The poisoned pages' SEL entries (bmc_sel = yes), read back from QEMU's
# simulated BMC with ipmitool: one per uncorrected memory record, each as
# rasd's actions row says, field by field (rasd(8), "The BMC's event log").
ev_sel_field() { # RECORD_ID FIELD: the field of that entry in ipmitool sel get's output
    awk -v id="$1" -v f="$2" -F' *: *' '
        /^SEL Record ID/ { cur = tolower($2) }
        cur == tolower(id) && $1 ~ "^ *" f "$" { print $2; exit }' "$D/events-sel-get.txt"
}

check_events_sel() {
    local n_mf n_done n_list row id target ref f want got
    WHY=""
    if [ "$(fact_of EV_IPMI_DEV)" != yes ]; then
        fail "events_bmc_sel/$CPU" "no /dev/ipmi0 in the guest (ipmi_si, ipmi_devintf)"
        return
    fi
    n_mf=$(q "$D/events.db" "SELECT count(*) FROM memory_failure_event")
    n_done=$(q "$D/events.db" "SELECT count(*) FROM actions WHERE action = 'bmc-sel' AND result = 'done'")
    # grep -c exits 1 on no match: the count (0) is the check's, not set -e's.
    n_list=$(grep -c 'Memory.*Uncorrectable ECC.*Asserted' "$D/events-sel-list.txt" 2>/dev/null || true)
    [ "$n_mf" -ge 1 ] || WHY="no memory_failure_event rows"
    [ "$n_done" = "$n_mf" ] ||
        WHY="${WHY:+$WHY; }$n_done SEL entries done for $n_mf uncorrected memory records: $(q "$D/events.db" "SELECT result || ' ' || target FROM actions WHERE action = 'bmc-sel' LIMIT 2")"
    [ "$n_list" = "$n_mf" ] ||
        WHY="${WHY:+$WHY; }ipmitool sel list shows $n_list memory entries: $(head -n 3 "$D/events-sel-list.txt" 2>/dev/null)"
    while IFS='|' read -r row target; do
        [ -n "$row" ] || continue
        id=$(sed -n 's/^SEL record 0x\([0-9a-f]*\):.*/\1/p' <<<"$target")
        ref=$(printf 'a1%04x' $((row & 0xffff)))
        for f in "Record Type=02" "Generator ID=0041" "EvM Revision=04" "Sensor Type=Memory" \
                 "Sensor Number=ff" "Event Type=Sensor-specific Discrete" \
                 "Event Direction=Assertion Event" "Event Data=$ref" "Description=Uncorrectable ECC"; do
            want=${f#*=} got=$(ev_sel_field "$id" "${f%%=*}")
            [ "$(tr A-Z a-z <<<"$got")" = "$(tr A-Z a-z <<<"$want")" ] ||
                WHY="${WHY:+$WHY; }entry 0x$id (row $row): ${f%%=*} '$got', expected '$want'"
        done
        echo "   events_bmc_sel/$CPU: memory_failure_event row $row -> SEL record 0x$id, event data $ref"
    done <<<"$(sqlite3 -batch -noheader "$D/events.db" \
        "SELECT event_id || '|' || target FROM actions WHERE action = 'bmc-sel' AND result = 'done' ORDER BY id")"
    verdict "events_bmc_sel/$CPU"
}

check_events() {
    if [ ! -f "$D/events.db" ]; then
        fail "events/$CPU" "no events.db (rasd $(fact_of RASD_START_events))"
        return
    fi
    check_events_filters
    check_events_sigbus
    check_events_block
    check_events_xmit
    check_events_sel
}
