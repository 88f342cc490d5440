# SPDX-License-Identifier: MIT
# check-rasdaemon.sh - host checks of import_rasdaemon_real (guest/rasdaemon-real.sh),
# sourced by run.sh after check.sh (reuses q, fact_of, rows_ok, mce_preds, verdict).
#
#   rasdaemon.db        the database Debian's rasdaemon wrote in the guest
#   rdm.db              ras-fdr's database after two imports of it
#   rdm-import1.txt     ras-fdr-ctl import rasdaemon's output (the first import)
#   rdm-import2.txt     the same, again (must add nothing)

# rows of rasdaemon's TABLE = what the kernel emitted for the injection
rdm_recorded() { # TABLE EXPECTED
    local got
    got=$(q "$D/rasdaemon.db" "SELECT count(*) FROM $1")
    [ "$got" = "$2" ] || WHY="${WHY:+$WHY; }rasdaemon stored $got rows in $1, the kernel emitted $2"
}

# import's line for TABLE: "rows: N imported, M already present"
rdm_import_line() { # FILE SRC DST ROWS IMPORTED PRESENT
    local want
    want="^$2 +-> $3 +$4 rows: $5 imported, $6 already present\$"
    grep -Eq "$want" "$1" ||
        WHY="${WHY:+$WHY; }$(basename "$1"): no line /$want/ (got: $(grep -E "^$2 " "$1" | head -n 1))"
}

rdm_import_output() { # MC EXTLOG AER MCE
    local n=$(($1 + $2 + $3 + $4)) f
    for f in 1 2; do
        [ "$(fact_of "RDM_IMPORT_RC_$f")" = 0 ] ||
            WHY="${WHY:+$WHY; }import $f exited $(fact_of "RDM_IMPORT_RC_$f"): $(head -c 300 "$D/rdm-import$f.txt")"
    done
    rdm_import_line "$D/rdm-import1.txt" mc_event mc_event "$1" "$1" 0
    rdm_import_line "$D/rdm-import1.txt" extlog_event extlog_mem_event "$2" "$2" 0
    rdm_import_line "$D/rdm-import1.txt" aer_event aer_event "$3" "$3" 0
    rdm_import_line "$D/rdm-import1.txt" mce_record mce_record "$4" "$4" 0
    grep -qx "Total: $n imported, 0 already present." "$D/rdm-import1.txt" ||
        WHY="${WHY:+$WHY; }first import: no 'Total: $n imported, 0 already present.'"
    rdm_import_line "$D/rdm-import2.txt" mc_event mc_event "$1" 0 "$1"
    grep -qx "Total: 0 imported, $n already present." "$D/rdm-import2.txt" ||
        WHY="${WHY:+$WHY; }second import: no 'Total: 0 imported, $n already present.'"
}

# the imported rows, field by field, against what was injected
rdm_imported_rows() {
    local why=$WHY slack=120000000000
    COMMON=("source = 'imported'" "boot = (SELECT id FROM boots WHERE boot_id = 'imported:rasdaemon')"
        "wall_ns BETWEEN $(fact_of WALL_START_NS) - $slack AND $(date +%s)000000000"
        "severity IS NOT NULL")
    rows_ok rdm mc_event "msg = 'rdm ce read'" 1 "error_type = 0" "error_count = 1" \
        "mc_index = 0" "top_layer = 1" "middle_layer = 1" "lower_layer = -1" \
        "address = 0x4321100" "syndrome = 0x77" "label = 'RASFDR_CH1_DIMM1'" \
        "severity = 'corrected'" || why="${why:+$why; }$WHY"
    rows_ok rdm mc_event "msg = 'rdm ue write'" 1 "error_type = 1" "address = 0x5432000" \
        "top_layer = 0" "middle_layer = 0" "severity = 'uncorrected'" || why="${why:+$why; }$WHY"
    rows_ok rdm extlog_mem_event "err_seq = 9" 1 "sev = 2" "pa = 0x7654000" "etype = 2" \
        "severity = 'corrected'" || why="${why:+$why; }$WHY"
    rows_ok rdm aer_event "dev_name = '$AER_EP'" 1 "status = $RDM_AER_STATUS" \
        "aer_severity = 2" "severity = 'corrected'" "errors LIKE '%Bad DLLP%'" ||
        why="${why:+$why; }$WHY"
    mce_preds "$RDM_MCE_BANK" "$RDM_MCE_STATUS" "$RDM_MCE_ADDR" "$RDM_MCE_MISC" 0
    rows_ok rdm mce_record "bank = $RDM_MCE_BANK" 1 "${MP[@]}" "cpu = $RDM_MCE_CPU" \
        "severity = 'corrected'" || why="${why:+$why; }$WHY"
    WHY=$why
    common_preds
}

check_rasdaemon_real() {
    local run mc extlog aer mce
    run=$(fact_of RDM_RUN)
    case "$run" in "not on "*) return 0 ;; ok) ;;
    *) fail "import_rasdaemon_real/$CPU" "${run:-not run}"; return ;; esac
    mc=$(($(fact_of W_rdm_mc_ce) + $(fact_of W_rdm_mc_ue)))
    extlog=$(($(fact_of W_rdm_extlog) - $(fact_of W0_rdm_extlog)))
    aer=$(($(fact_of W_rdm_aer) - $(fact_of W0_rdm_aer)))
    mce=$(fact_of W_rdm_mce)
    echo "   import_rasdaemon_real/$CPU: $(fact_of RDM_VERSION); kernel emitted mc_event $mc," \
        "extlog $extlog, aer $aer, mce $mce; rasdaemon exit $(fact_of RDM_RC)"
    WHY=""
    [ -f "$D/rasdaemon.db" ] || { fail "import_rasdaemon_real/$CPU" "no rasdaemon.db"; return; }
    [ "$mc" = 2 ] && [ "$extlog" = 1 ] && [ "$aer" = 1 ] && [ "${mce:-0}" = 1 ] ||
        WHY="injections: mc_event $mc (2), extlog $extlog (1), aer $aer (1), mce ${mce:-0} (1)$(ctl_note rdm_aer)$(ctl_note rdm_mce)"
    rdm_recorded mc_event "$mc"; rdm_recorded extlog_event "$extlog"
    rdm_recorded aer_event "$aer"; rdm_recorded mce_record "$mce"
    rdm_import_output "$mc" "$extlog" "$aer" "$mce"
    rdm_imported_rows
    verdict "import_rasdaemon_real/$CPU"
}
