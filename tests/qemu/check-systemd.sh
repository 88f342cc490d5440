# SPDX-License-Identifier: MIT
# check-systemd.sh - host checks of run.sh --set systemd (guest/systemd-tests.sh),
# sourced by run.sh after check.sh (reuses q, fact_of, rows_ok, verdict).
# Every PASS line names systemd.
#
#   sd.db                       rasd's database after systemctl stop
#   journal-rasd.json           journalctl -u rasd -o json
#   journal-rasd-x.txt          journalctl -x -u rasd
#   rasd-journal.txt            journalctl -u rasd -o cat
#   security.txt                systemd-analyze security rasd.service

MC_ID=92567467f2704b979ef87cefdf3072a0   # lib/event_table.c, ras:mc_event

sd_fact_is() { # KEY VALUE -> WHY += mismatch
    local v
    v=$(fact_of "$1")
    [ "$v" = "$2" ] || WHY="${WHY:+$WHY; }$1 = '$v', expected '$2'"
}

# journal entries of rasd for mc_event with every structured field rasd sends;
# prints "entries-with-id entries-with-all-fields"
sd_journal_fields() {
    python3 - "$D/journal-rasd.json" "$MC_ID" <<'PY'
import json, sys
with_id = full = 0
need = ("RAS_EVENT", "RAS_SEVERITY", "RAS_CPU", "RAS_LOCATION", "RAS_SOURCE", "PRIORITY")
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        e = json.loads(line)
    except ValueError:
        continue
    if e.get("MESSAGE_ID") != sys.argv[2]:
        continue
    with_id += 1
    if all(k in e for k in need) and e["RAS_EVENT"] == "ras:mc_event" \
            and e["RAS_SEVERITY"] in ("corrected", "uncorrected") and e["RAS_SOURCE"] == "live" \
            and e.get("_SYSTEMD_UNIT") == "rasd.service":
        full += 1
print(with_id, full)
PY
}

check_systemd() { # CPU-LABEL
    CPU=$1 D="$OUT/$1"
    local n f
    if [ ! -f "$D/facts.env" ] || ! grep -q '^DONE=' "$D/facts.env"; then
        fail "systemd_guest/$CPU" "the systemd scenario did not finish $(cat "$D/problems" "$D/systemd-root.failed" 2>/dev/null)"
        [ -f "$D/facts.env" ] || return 0
    fi
    COMMON=("trace_ts > 0" "trace_cpu IN (0, 1)" "rec_hash IS NOT NULL"
        "boot = (SELECT id FROM boots WHERE boot_id = '$(fact_of BOOT_ID)')")
    echo "   systemd/$CPU: $(fact_of SYSTEMD_VERSION), kernel $(fact_of KVER), PID 1 $(fact_of PID1)," \
        "booted to the test at $(fact_of BOOTED_AT) s, rasd start $(fact_of START_SECONDS) s," \
        "watchdog restart $(fact_of WD_RESTART_SECONDS) s, exposure $(fact_of EXPOSURE)"

    # the package: installed, unit enabled and started by its postinst
    WHY=""
    sd_fact_is PID1 systemd; sd_fact_is DPKG_RC 0; sd_fact_is ENABLED enabled
    sd_fact_is ACTIVE_AFTER_INSTALL active; sd_fact_is CONFFILE /etc/ras-fdr/rasd.conf
    verdict "systemd_package_installs_enables_starts/$CPU"

    # systemctl start returns once READY=1 arrived (Type=notify) and the unit is active
    WHY=""
    sd_fact_is START_RC 0; sd_fact_is TYPE notify; sd_fact_is ACTIVE active/running
    sd_fact_is NOTIFY_ACCESS main; sd_fact_is WATCHDOG_USEC 1min
    verdict "systemd_active_after_ready/$CPU"

    # errors injected while rasd runs under systemd are stored, with the EDAC
    # label read from sysfs inside the sandbox
    WHY=""
    sd_fact_is MODULE ok
    rows_ok sd mc_event "msg LIKE 'sd live %'" 3 "source = 'live'" "error_type = 0" \
        "severity = 'corrected'" "label = 'RASFDR_CH1_DIMM0'" || true
    verdict "systemd_errors_stored/$CPU"

    # the reader first: the unit's Nice=-5 on the event loop, the writer thread at 0
    WHY=""
    sd_fact_is NICE_READER -5; sd_fact_is NICE_WRITER 0
    verdict "systemd_reader_before_writer/$CPU"

    # the journal: MESSAGE_ID and the structured fields on every error's entry
    WHY=""
    read -r n f <<<"$(sd_journal_fields)"
    [ "${n:-0}" -ge 3 ] || WHY="$n journal entries of rasd.service with MESSAGE_ID=$MC_ID, expected at least 3"
    [ -n "$WHY" ] || [ "$f" = "$n" ] || WHY="only $f of $n entries carry RAS_EVENT=ras:mc_event, RAS_SEVERITY=(un)corrected, RAS_CPU, RAS_LOCATION, RAS_SOURCE=live, PRIORITY, _SYSTEMD_UNIT=rasd.service"
    verdict "systemd_journal_message_id_fields/$CPU"

    # journalctl -x: the catalog's text under the error's line
    WHY=""
    sd_fact_is CATALOG_LISTED 1
    grep -q 'Subject: Memory controller error recorded (corrected) at ' "$D/journal-rasd-x.txt" ||
        WHY="${WHY:+$WHY; }journalctl -x shows no catalog Subject for mc_event"
    grep -q 'schedule its' "$D/journal-rasd-x.txt" ||
        WHY="${WHY:+$WHY; }journalctl -x shows no catalog advice for mc_event"
    verdict "systemd_journal_catalog/$CPU"

    # the watchdog: SIGSTOP -> systemd kills and restarts rasd; what the kernel
    # buffered meanwhile is stored by the new rasd
    WHY=""
    sd_fact_is WD_WATCHDOG_USEC 4s; sd_fact_is WD_BUFFERED_WHILE_STOPPED 2
    sd_fact_is WD_OLD_PID_GONE yes; sd_fact_is WD_RESTARTS 1; sd_fact_is WD_ACTIVE active
    [ "$(fact_of WD_NEW_PID)" != "$(fact_of WD_OLD_PID)" ] || WHY="${WHY:+$WHY; }MainPID unchanged"
    [ "$(fact_of WD_JOURNAL_TIMEOUT)" -ge 1 ] 2>/dev/null ||
        WHY="${WHY:+$WHY; }systemd logged no 'Watchdog timeout' for rasd.service"
    sd_fact_is STORED_stopped 2
    [ -n "$WHY" ] || rows_ok sd mc_event "msg LIKE 'sd stopped %'" 2 "source = 'live'" \
        "error_type = 1" "severity = 'uncorrected'" || true
    verdict "systemd_watchdog_restart_keeps_buffered/$CPU"

    # a full disk at start: systemctl start returns at once with the failure in
    # STATUS=, nothing restarts, and the errors of the wait are stored once space is freed
    WHY=""
    sd_fact_is FULL_FREE_KB 0; sd_fact_is FULL_START_RC 0; sd_fact_is FULL_ACTIVE active/running
    sd_fact_is FULL_ACTIVE_LATER active/running; sd_fact_is FULL_RESTARTS 0
    sd_fact_is STORED_full 2; sd_fact_is FULL_STATUS_AFTER recording; sd_fact_is FULL_RECOVERED_ROWS 1
    sd_fact_is FULL_ACTIVE_BACK active
    case "$(fact_of FULL_STATUS)" in "storage failing since "*"disk is full"*) ;;
        *) WHY="${WHY:+$WHY; }STATUS while the disk is full: '$(fact_of FULL_STATUS)'" ;; esac
    awk -v s="$(fact_of FULL_START_SECONDS)" 'BEGIN { exit !(s != "" && s + 0 < 30) }' ||
        WHY="${WHY:+$WHY; }systemctl start took $(fact_of FULL_START_SECONDS) s"
    echo "   systemd/$CPU: full disk at start: systemctl start returned in $(fact_of FULL_START_SECONDS) s, status '$(fact_of FULL_STATUS | cut -c1-80)'"
    verdict "systemd_full_disk_at_start_ready_and_stored/$CPU"

    # systemctl reload re-reads rasd.conf: events without ras:mc_event turn it off
    WHY=""
    sd_fact_is RELOAD_RC 0; sd_fact_is RELOAD2_RC 0; sd_fact_is RELOAD_ACTIVE active
    sd_fact_is RELOAD_MC_ENABLE_OFF 0; sd_fact_is RELOAD_MC_ENABLE_ON 1
    sd_fact_is STORED_reloadoff 0; sd_fact_is STORED_reloadon 1; sd_fact_is RELOAD_LOGGED 2
    verdict "systemd_reload_rereads_config/$CPU"

    # the sandbox: nothing rasd did was refused
    WHY=""
    n=$(grep -c -i -E 'permission denied|operation not permitted|EACCES|EPERM|read-only file system' \
        "$D/rasd-journal.txt" 2>/dev/null || true)
    [ -s "$D/rasd-journal.txt" ] || WHY="no journal of rasd.service"
    [ "$n" = 0 ] || WHY="$n refused operations in rasd's journal: $(grep -i -m 2 -E 'permission denied|operation not permitted|EACCES|EPERM|read-only' "$D/rasd-journal.txt" | tr '\n' ' ')"
    verdict "systemd_sandbox_no_eacces_eperm/$CPU"

    check_systemd_sandbox_writes "$CPU"
    check_systemd_bmc_sel "$CPU"
    check_systemd_sandbox_holds "$CPU"

    # a storm of 1,500 uncorrected records under journald: all stored; every
    # one either logged or counted as not logged; at most 600 logged a minute
    # (two minutes at most here), with a notice; nothing suppressed by journald
    WHY=""
    sd_fact_is STORED_storm 1500; sd_fact_is STORM_SUPPRESSED 0
    local lines nl
    lines=$(fact_of STORM_RECORD_LINES); nl=$(fact_of STORM_NOT_LOGGED)
    [ "$((lines + nl))" -eq 1500 ] 2>/dev/null ||
        WHY="${WHY:+$WHY; }$lines record lines + $nl counted as not logged, not 1500"
    [ "${lines:-0}" -ge 600 ] && [ "${lines:-0}" -le 1200 ] 2>/dev/null ||
        WHY="${WHY:+$WHY; }$lines record lines, expected 600 (up to 1200 across two minutes)"
    [ "$(fact_of STORM_NOTICES)" -ge 1 ] 2>/dev/null || WHY="${WHY:+$WHY; }no 'more than 600' notice"
    verdict "systemd_storm_journal_bounded/$CPU"
    check_systemd_readme "$CPU"

    # systemd-analyze security: 1.8 before issue 31, 1.1 with tracefs mounted by
    # systemd, no @mount or @privileged, /proc/sys read-only, CAP_SYS_ADMIN alone
    WHY=""
    n=$(fact_of EXPOSURE)
    echo "   systemd/$CPU: systemd-analyze security rasd.service: exposure $n"
    awk -v e="$n" 'BEGIN { exit !(e != "" && e + 0 <= 1.2) }' ||
        WHY="exposure '$n', expected 1.2 or less (see $D/security.txt)"
    verdict "systemd_security_exposure/$CPU"

    # systemctl stop: inactive, no rasd left, no instance left
    WHY=""
    sd_fact_is STOP_RC 0; sd_fact_is ACTIVE_AFTER_STOP inactive; sd_fact_is RASD_PROCS_AFTER_STOP 0
    case " $(fact_of INSTANCES_AFTER_STOP) " in *" rasd "*) WHY="${WHY:+$WHY; }instance rasd left: $(fact_of INSTANCES_AFTER_STOP)" ;; esac
    verdict "systemd_stop_leaves_no_instance/$CPU"
}

# What rasd writes outside its own directories under the unit's sandbox: the
# metrics textfile in node_exporter's directory, and an enabled page action
# (soft_offline_page). The kernel may refuse to offline the page (EBUSY, EIO):
# that is its answer, not the sandbox's; EPERM, EACCES and EROFS are the sandbox's.
check_systemd_sandbox_writes() { # CPU-LABEL
    local row kind action result err target
    WHY=""
    sd_fact_is ACT_RESTART_RC 0; sd_fact_is STORED_act 3
    sd_fact_is PROM_EXISTS yes; sd_fact_is PROM_MODE 644; sd_fact_is PROM_HAS_ACT yes
    [ -z "$(fact_of PROM_READ_AS_PROMETHEUS)" ] || sd_fact_is PROM_READ_AS_PROMETHEUS yes
    verdict "systemd_sandbox_metrics_textfile/$1"

    WHY=""
    row=$(fact_of ACT_ROW)
    IFS='|' read -r kind action result err target <<<"$row"
    echo "   systemd/$1: page action under the sandbox: $row; kernel: $(fact_of ACT_DMESG)"
    [ "$kind/$action" = page/soft ] || WHY="no page action 'soft' in the actions table (row: '$row')"
    case "$target" in *"> /sys/devices/system/memory/soft_offline_page"*) ;;
    *) WHY="${WHY:+$WHY; }target '$target' is not soft_offline_page" ;; esac
    case "$result/$err" in
    done/|done/0) ;;
    failed/1|failed/13|failed/30) WHY="${WHY:+$WHY; }the sandbox refused the write: errno $err" ;;
    failed/*) echo "   systemd/$1: the kernel itself refused the soft offline (errno $err)" ;;
    *) WHY="${WHY:+$WHY; }result '$result' errno '$err', expected done (or the kernel's refusal)" ;;
    esac
    verdict "systemd_sandbox_page_action/$1"
}

# bmc_sel under the unit (guest/systemd-tests.sh bmc_sel_dropin): without the
# drop-in the row says PrivateDevices= hid /dev/ipmi0; with the package's
# example drop-in the entry is done and ipmitool reads it back from the BMC.
check_systemd_bmc_sel() { # CPU-LABEL
    local row
    WHY=""
    sd_fact_is SEL_DEV yes
    sd_fact_is SEL_EXAMPLE /usr/share/doc/ras-fdr/examples/rasd.service.d/bmc-sel.conf
    sd_fact_is SEL_nodropin_RESTART_RC 0; sd_fact_is STORED_selnodropin 1
    row=$(fact_of SEL_nodropin_ROW)
    echo "   systemd/$1: bmc_sel without the drop-in: $row"
    case "$row" in "unsupported|19|cannot open /dev/ipmi0: hidden from rasd by PrivateDevices="*) ;;
    *) WHY="${WHY:+$WHY; }row '$row', expected unsupported, ENODEV, hidden by PrivateDevices=" ;; esac
    verdict "systemd_bmc_sel_hidden_without_dropin/$1"

    WHY=""
    sd_fact_is SEL_dropin_RESTART_RC 0; sd_fact_is STORED_seldropin 1
    row=$(fact_of SEL_dropin_ROW)
    echo "   systemd/$1: bmc_sel with the drop-in: $row; ipmitool: $(head -n 2 "$D/sel-list.txt" 2>/dev/null | tr '\n' ' ')"
    case "$row" in "done||SEL record 0x"*"(memory: uncorrectable ECC)"|"done|0|SEL record 0x"*"(memory: uncorrectable ECC)") ;;
    *) WHY="${WHY:+$WHY; }row '$row', expected done with the BMC's record ID" ;; esac
    sd_fact_is SEL_LIST_RC 0; sd_fact_is SEL_LIST_ECC 1
    verdict "systemd_bmc_sel_dropin_reaches_bmc/$1"
}

# The sandbox holds (guest/systemd-tests.sh sandbox_escapes, trigger_way_out):
# from rasd.service's context every escape fails while what rasd needs works;
# a trigger cannot write /etc, and its way out (rasd-trigger.socket) runs the
# relayed trigger outside the sandbox with the record's facts.
check_systemd_sandbox_holds() { # CPU-LABEL
    local k v
    WHY=""
    sd_fact_is ESC_RC 0
    for k in REMOUNT BIND MOUNT CORE ETC SDRUN DBUS UNSHARE; do
        v=$(fact_of "ESC_$k")
        [ -n "$v" ] && [ "$v" != 0 ] || WHY="${WHY:+$WHY; }escape $k: exit '$v', expected a failure"
    done
    sd_fact_is ESC_INSTANCE 0; sd_fact_is ESC_CAPS 0; sd_fact_is ESC_ETC_FILE no
    case "$(fact_of ESC_PSTORE)" in 0|absent) ;; *) WHY="${WHY:+$WHY; }pstore read-only in the unit: '$(fact_of ESC_PSTORE)'" ;; esac
    [ "$(fact_of ESC_CORE_AFTER)" = "$(fact_of ESC_CORE_BEFORE)" ] ||
        WHY="${WHY:+$WHY; }core_pattern changed: '$(fact_of ESC_CORE_AFTER)'"
    echo "   systemd/$1: escapes from rasd.service's context (exit status): $(for k in REMOUNT BIND MOUNT CORE ETC SDRUN DBUS UNSHARE; do printf '%s %s, ' "$k" "$(fact_of "ESC_$k")"; done)tracing instance $(fact_of ESC_INSTANCE), pstore writable $(fact_of ESC_PSTORE)"
    verdict "systemd_sandbox_escapes_fail/$1"

    WHY=""
    sd_fact_is RELAY_SOCKET_ACTIVE active; sd_fact_is RELAY_ENV_CONDITION uncorrected
    sd_fact_is RELAY_ENV_EVENT ras:mc_event; sd_fact_is RELAY_INSIDE_FILE no
    sd_fact_is RELAY_INSIDE_SAID 1; sd_fact_is RELAY_RAN_SAID 1; sd_fact_is RELAY_EXIT_SAID 1
    verdict "systemd_trigger_way_out/$1"
}

# The README's from-source install (guest/systemd-tests.sh readme_install):
# package purged, make install in the build directory, then the README's own
# commands under "Under systemd:" as written; rasd runs from /usr/local.
check_systemd_readme() { # CPU-LABEL
    local i n out
    WHY=""
    sd_fact_is RM_PURGE_RC 0; sd_fact_is RM_UNIT_AFTER_PURGE not-found
    sd_fact_is RM_CONFIGURED "prefix=/usr/local sysconfdir=/etc localstatedir=/var"
    sd_fact_is RM_MAKE_INSTALL_RC 0; sd_fact_is RM_CONF_INSTALLED yes; sd_fact_is RM_LABELS_DIR yes
    n=$(fact_of RM_STEPS)
    [ "${n:-0}" -ge 3 ] || WHY="${WHY:+$WHY; }found ${n:-0} commands in the README's systemd block, expected 3"
    for i in $(seq 1 "${n:-0}"); do
        [ "$(fact_of "RM_STEP_${i}_RC")" = 0 ] ||
            WHY="${WHY:+$WHY; }'$(fact_of "RM_STEP_${i}_CMD")' exited $(fact_of "RM_STEP_${i}_RC"): $(fact_of "RM_STEP_${i}_OUT")"
    done
    out=$(grep -h "^RM_STEP_[0-9]*_OUT=" "$D/facts.env" | head -n 1)
    [[ "$out" == *"configuration OK (read /etc/ras-fdr/rasd.conf)"* ]] ||
        WHY="${WHY:+$WHY; }rasd --check-config did not say it read /etc/ras-fdr/rasd.conf: $out"
    sd_fact_is RM_ACTIVE active; sd_fact_is RM_ENABLED enabled
    sd_fact_is RM_FRAGMENT /usr/local/lib/systemd/system/rasd.service
    sd_fact_is RM_EXE /usr/local/sbin/rasd; sd_fact_is RM_CTL /usr/local/bin/ras-fdr-ctl
    sd_fact_is STORED_readme 1; sd_fact_is RM_DISABLE_RC 0
    case " $(fact_of RM_INSTANCES_AFTER) " in *" rasd "*) WHY="${WHY:+$WHY; }instance rasd left after disable --now" ;; esac
    echo "   systemd/$1: README install: make install $(fact_of RM_MAKE_INSTALL_SECONDS) s;" \
        "$(grep -h '^RM_STEP_[0-9]*_CMD=' "$D/facts.env" | sed "s/^[^=]*='\(.*\)'$/\1/" | paste -sd ';')"
    verdict "systemd_readme_make_install_runs_rasd/$1"
}
