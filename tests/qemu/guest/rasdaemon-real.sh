# SPDX-License-Identifier: MIT
# rasdaemon-real.sh - the import_rasdaemon_real scenario, sourced by
# scenarios.sh (busybox sh) after the other sessions; needs its helpers
# (log, fact, chr, ctl_inject, wait_w, collect) and the test module.
#
# Debian's rasdaemon (run.sh unpacks the package into its build directory:
# QT_RASDAEMON) runs in the chroot of the host's root with --foreground
# --record and stores what the kernel emits: mc_event and extlog_mem_event
# from the test module, aer_event from aer_inject, mce_record from
# mce-inject. Once it is stopped, ras-fdr-ctl imports its database twice into
# a fresh one (rdm.db). The host (check-rasdaemon.sh) compares the rows.

RDM_DB=/var/lib/rasdaemon/ras-mc_event.db   # rasdaemon 0.6.8's built-in path
RDM_PID=

# rasdaemon writes under /var/lib, read-only in the chroot: an overlay on a
# guest tmpfs makes it writable (nothing reaches the host)
rdm_overlay() {
    modprobe overlay
    mkdir -p /tmp/rdm/upper /tmp/rdm/work
    mount -t overlay overlay \
        -o "lowerdir=$HR/var/lib,upperdir=/tmp/rdm/upper,workdir=/tmp/rdm/work" "$HR/var/lib"
}

rdm_sql() { # SQL -> its answer on rasdaemon's database (-1 if unreadable)
    chr sqlite3 -batch -noheader "file:$RDM_DB?mode=ro" "$1" 2>/dev/null || echo -1
}

RDM_TABLES="mc_event extlog_event aer_event mce_record"
rdm_total() {
    rdm_sql "SELECT (SELECT count(*) FROM mc_event) + (SELECT count(*) FROM extlog_event) +
             (SELECT count(*) FROM aer_event) + (SELECT count(*) FROM mce_record)"
}

# one query a second (sqlite3 takes a while to start under TCG), at most SECS
rdm_wait_rows() { # N SECS
    i=0
    while [ "$(rdm_total)" -lt "$1" ] && [ $i -lt "$2" ]; do sleep 1; i=$((i + 1)); done
    for t in $RDM_TABLES; do fact "RDM_ROWS_$t" "$(rdm_sql "SELECT count(*) FROM $t")"; done
}

# Linux 6.1 made poll() on trace_pipe_raw wait until the buffer is
# buffer_percent (default 50) full; rasdaemon 0.6.8 predates that and would
# record nothing until then (rasdaemon fixed it in 2023 by setting
# buffer_percent to 0, "Fix poll() on per_cpu trace_pipe_raw"). A Debian 12
# operator does the same: the instance is made beforehand with 0.
rdm_start() {
    mkdir -p "$T/instances/rasdaemon"
    echo 0 > "$T/instances/rasdaemon/buffer_percent" || log "no buffer_percent"
    chroot "$HR" "$QT_RASDAEMON" --foreground --record > "$RES/rasdaemon.log" 2>&1 &
    RDM_PID=$!
    i=0
    # ready once its instance has every event on and its database exists
    while [ $i -lt 200 ]; do
        kill -0 "$RDM_PID" 2>/dev/null || { log "rasdaemon exited early"; return 1; }
        [ "$(cat "$T/instances/rasdaemon/events/mce/mce_record/enable" 2>/dev/null)" = 1 ] &&
            [ "$(cat "$T/instances/rasdaemon/events/ras/aer_event/enable" 2>/dev/null)" = 1 ] &&
            [ -f "$HR$RDM_DB" ] && break
        sleep 0.2; i=$((i + 1))
    done
    sleep 2   # its per-CPU readers start after enabling
    log "rasdaemon running (pid $RDM_PID): $(tr '\n' ' ' < "$RES/rasdaemon.log" | cut -c1-300)"
}

rdm_inject() {
    echo "mc $RDM_MC_CE" > "$MCI"; wait_w rdm_mc_ce "mc_event: .*rdm ce read" 1 10
    echo "mc $RDM_MC_UE" > "$MCI"; wait_w rdm_mc_ue "mc_event: .*rdm ue write" 1 10
    before=$(wcount "extlog_mem_event:")
    echo "extlog $RDM_EXTLOG" > "$MCI"; wait_w rdm_extlog "extlog_mem_event:" $((before + 1)) 10
    fact W0_rdm_extlog "$before"
    before=$(wcount "aer_event: $AER_EP")
    ctl_inject rdm_aer aer "$AER_EP" --cor "$RDM_AER_STATUS" --yes
    wait_w rdm_aer "aer_event: $AER_EP" $((before + 1)) "$CTL_WAIT"
    fact W0_rdm_aer "$before"
    ctl_inject rdm_mce mce --bank "$RDM_MCE_BANK" --status "$RDM_MCE_STATUS" \
        --addr "$RDM_MCE_ADDR" --misc "$RDM_MCE_MISC" --cpu "$RDM_MCE_CPU" --sw --yes
    wait_w rdm_mce "MC$RDM_MCE_BANK: ${RDM_MCE_STATUS#0x}" 1 "$CTL_WAIT"
    rdm_wait_rows 5 20
}

rdm_import() { # N: the Nth import into rdm.db
    chr "$QT_CTL" --db "$GC/rdm.db" import rasdaemon "$RDM_DB" > "$RES/rdm-import$1.txt" 2>&1
    fact "RDM_IMPORT_RC_$1" "$?"
}

session_rasdaemon_real() {
    # one CPU model is enough (and keeps CI time small)
    [ "$QT_CPU" = intel ] || { fact RDM_RUN "not on $QT_CPU"; return 0; }
    if [ -z "${QT_RASDAEMON:-}" ] || [ ! -x "$HR$QT_RASDAEMON" ]; then
        fact RDM_RUN "no rasdaemon at ${QT_RASDAEMON:-?}"; return 0
    fi
    [ -e "$MCI" ] || { fact RDM_RUN "no test module"; return 0; }
    rdm_overlay || { fact RDM_RUN "no overlay on /var/lib"; return 0; }
    fact RDM_VERSION "$(chr "$QT_RASDAEMON" --version 2>&1 | head -n 1)"
    rdm_start || { fact RDM_RUN "rasdaemon did not start"; return 0; }
    fact RDM_RUN ok
    rdm_inject
    kill -TERM "$RDM_PID"; wait "$RDM_PID"; fact RDM_RC "$?"
    rdm_import 1
    rdm_import 2
    cp "$HR$RDM_DB" "$RES/rasdaemon.db"
    collect rdm
    umount "$HR/var/lib"
    rmdir "$T/instances/rasdaemon" 2>/dev/null
}
