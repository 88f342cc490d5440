# SPDX-License-Identifier: MIT
# check-crash.sh - host checks of the crash pair (guest/crash.sh), sourced by
# run.sh after check.sh (reuses q, fact_of, rows_ok, verdict).
#
#   crash1/crash.B1.db   the database of boot 1, copied just before the crash
#   crash2/crash.S1.db   after boot 2's first rasd (pstore_remove = no)
#   crash2/crash.db      after its second (pstore_remove = yes)

crash_wanted() { [ -z "$SESSIONS" ] || [[ " $SESSIONS " == *" crash "* ]]; }
# the set's own boots: unless only the crash session was asked for
main_set_wanted() {
    [ -n "$SET" ] || [ -z "$SESSIONS" ] || [ -n "$(echo " $SESSIONS " | sed 's/ crash / /g' | tr -d ' ')" ]
}

crash_fact_is() { # KEY VALUE -> WHY += mismatch
    local v
    v=$(fact_of "$1")
    [ "$v" = "$2" ] || WHY="${WHY:+$WHY; }$1 = '$v', expected '$2'"
}

# "N M" rows: crashes and erst machine checks in DB
crash_counts() { # DB
    echo "$(q "$1" "SELECT count(*) FROM crashes") $(q "$1" "SELECT count(*) FROM mce_record WHERE source = 'erst'")"
}

check_crash() { # CPU-LABEL
    CPU=$1 D="$OUT/crash2"
    local b1 b1id why n kv
    # Without boot 1's facts (it never reached /init) these are empty and the
    # checks below fail one by one; sed's status must not end run.sh (set -e).
    b1id=$(sed -n "s/^C1_BOOT_ID='\(.*\)'/\1/p" "$OUT/crash1/facts.env" 2>/dev/null || true)
    kv=$(sed -n "s/^C1_KVER='\(.*\)'/\1/p" "$OUT/crash1/facts.env" 2>/dev/null || true)
    b1="(SELECT id FROM boots WHERE boot_id = '$b1id')"
    echo "   crash/$CPU: boot 1 $kv, pstore after the crash: $(fact_of C2_PSTORE_FILES)"

    # boot 1 crashed on the fatal machine check, and ERST and pstore kept it
    WHY=""
    grep -q 'Kernel panic - not syncing: Fatal machine check' "$OUT/crash1/console.log" 2>/dev/null ||
        WHY="boot 1 did not panic on the machine check: $(cat "$OUT/crash1/problems" 2>/dev/null || true)"
    [ -f "$OUT/crash1/crash.B1.db" ] || WHY="${WHY:+$WHY; }boot 1's database was not copied"
    crash_fact_is C2_ERST_INIT 1; crash_fact_is C2_PSTORE_BACKEND erst
    case "$(fact_of C2_PSTORE_FILES)" in *mce-erst-*:128*dmesg-erst-*|*dmesg-erst-*mce-erst-*:128*) ;;
    *) WHY="${WHY:+$WHY; }pstore at boot 2: '$(fact_of C2_PSTORE_FILES)', expected dmesg-erst-* and a 128-byte mce-erst-*" ;; esac
    verdict "crash_erst_kept/$CPU"

    # the fatal machine check from ERST: decoded, source erst, on boot 1's row
    COMMON=("source = 'erst'" "boot = $b1" "rec_hash IS NOT NULL")
    rows_ok crash mce_record "source = 'erst'" 1 "bank = $CRASH_BANK" "status = $CRASH_STATUS" \
        "addr = $CRASH_ADDR" "misc = $CRASH_MISC" "mcgstatus = $CRASH_MCG" "cpu = $CRASH_CPU" \
        "severity = 'fatal'" "uc = 1" "pcc = 1" "mcacod = ($CRASH_STATUS & 0xffff)" "vendor = 'Intel'" \
        "cpuvendor = 0" "wall_ns = walltime * 1000000000" "trace_ts = tsc" || true
    verdict "crash_erst_mce_stored/$CPU"

    # the panic's log from pstore: one crash of boot 1, its cause, reason and record
    WHY=""
    COMMON=()
    n=$(q "$D/crash.db" "SELECT count(*) FROM crashes WHERE boot = $b1 AND backend = 'erst' AND kind = 'dmesg'
        AND cause = 'mce' AND explained = 1 AND dump_reason = 'Panic' AND parts >= 2 AND parts_missing = 0
        AND reason LIKE '%Kernel panic - not syncing: Fatal machine check' AND hw_lines LIKE '%Machine Check Exception%'
        AND length(raw) > 0 AND raw_size > length(raw) AND uptime_ns > 0 AND crash_ns > 0")
    [ "$n" = 1 ] || WHY="crashes: $n rows of boot 1 with the panic's log as expected: $(q "$D/crash.db" \
        "SELECT boot || ' ' || backend || ' ' || cause || ' ' || coalesce(reason, '') FROM crashes")"
    verdict "crash_pstore_log/$CPU"

    # linked: the ERST machine check and boot 1's corrected error (its last record)
    WHY=""
    n=$(q "$D/crash.db" "SELECT count(*) FROM crash_links l JOIN mce_record m ON m.id = l.row_id
        WHERE l.tbl = 'mce_record' AND ((l.role = 'erst' AND m.source = 'erst') OR
        (l.role = 'last' AND m.source = 'live' AND m.bank = $QCE_BANK AND m.boot = $b1))")
    [ "$n" = 2 ] || WHY="crash_links: $n of the 2 expected (the erst machine check, boot 1's corrected one)"
    verdict "crash_linked/$CPU"

    # the story, in one sentence and in full
    WHY=""
    grep -q "^crash 1: boot 1 ended in a fatal machine check: Fatal memory read error on socket 0, memory controller 0, channel 3 .*; panic at " \
        "$D/ctl-crashes.out" 2>/dev/null || WHY="crashes said: $(head -c 300 "$D/ctl-crashes.out" 2>/dev/null || true)"
    grep -q '"cause":"mce","crash":true,"explained":true' "$D/ctl-show_json.out" 2>/dev/null ||
        WHY="${WHY:+$WHY; }crashes show 1 --json: not an explained machine check"
    grep -q '{"role":"erst","table":"mce_record","id":[0-9]*,"time":"[^"]*","severity":"fatal","source":"erst"' \
        "$D/ctl-show_json.out" 2>/dev/null || WHY="${WHY:+$WHY; }crashes show 1 --json does not link the erst machine check"
    crash_fact_is C2_CTL_RC_show_json 0
    grep -q '"last_boot_crash":{"id":1,"cause":"mce","explained":true' "$D/ctl-status.out" 2>/dev/null ||
        WHY="${WHY:+$WHY; }status --json: $(grep -o '"last_boot_crash":[^}]*' "$D/ctl-status.out" 2>/dev/null || true)"
    grep -q '^ras_fdr_crashes_total{cause="mce"} 1$' "$D/ctl-metrics.out" 2>/dev/null ||
        WHY="${WHY:+$WHY; }metrics: no ras_fdr_crashes_total{cause=\"mce\"} 1"
    grep -q '^RAS_CRASH_CAUSE=mce$' "$D/trigger-crash.env" 2>/dev/null || WHY="${WHY:+$WHY; }the crash trigger did not run"
    verdict "crash_story/$CPU"

    # pstore_remove = no left pstore as it was; the second start stored nothing again
    WHY=""
    [ "$(fact_of C2_PSTORE_AFTER1)" = "$(fact_of C2_PSTORE_FILES)" ] ||
        WHY="pstore_remove = no changed pstore: '$(fact_of C2_PSTORE_AFTER1)'"
    [ "$(crash_counts "$D/crash.S1.db")" = "1 1" ] || WHY="${WHY:+$WHY; }after the first start: $(crash_counts "$D/crash.S1.db")"
    [ "$(crash_counts "$D/crash.db")" = "1 1" ] || WHY="${WHY:+$WHY; }after the second: $(crash_counts "$D/crash.db") (crashes, erst rows)"
    [ "$(q "$D/crash.db" "SELECT count(*) FROM crash_links")" = 2 ] || WHY="${WHY:+$WHY; }links stored twice"
    verdict "crash_stored_once/$CPU"

    # pstore_remove = yes: the records left pstore after the commit, so ERST
    WHY=""
    [ -z "$(fact_of C2_PSTORE_AFTER2)" ] || WHY="pstore after removal: '$(fact_of C2_PSTORE_AFTER2)'"
    [ -z "$(fact_of C2_PSTORE_REMOUNT)" ] || WHY="${WHY:+$WHY; }ERST still holds: '$(fact_of C2_PSTORE_REMOUNT)'"
    # QEMU's ERST store (hw/acpi/erst.c): "ERSTSTOR", then the record count at offset 20
    n=$(od -An -tu4 -j20 -N4 "$OUT/crash2/erst.backing.after" 2>/dev/null | tr -d ' ')
    [ "$(head -c 8 "$OUT/crash2/erst.backing.after" 2>/dev/null)" = ERSTSTOR ] && [ "$n" = 0 ] ||
        WHY="${WHY:+$WHY; }QEMU's ERST store still counts '$n' records (boot 1 left $(od -An -tu4 -j20 -N4 \
            "$OUT/crash1/erst.backing.after" 2>/dev/null | tr -d ' '))"
    verdict "crash_erst_emptied/$CPU"

    WHY=""
    crash_fact_is C2_START1 0; crash_fact_is C2_START2 0; crash_fact_is C2_RC1 0; crash_fact_is C2_RC2 0
    grep -q SCENARIOS_DONE "$D/console.log" 2>/dev/null || WHY="${WHY:+$WHY; }boot 2 did not finish"
    verdict "crash_rasd_clean/$CPU"
}
