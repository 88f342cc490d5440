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

check_crash() { # CPU-LABEL
    CPU=$1 D="$OUT/crash2"
    echo "   crash: boot 1 $(sed -n "s/^C1_KVER='\(.*\)'/\1/p" "$OUT/crash1/facts.env" 2>/dev/null)," \
        "pstore after the crash: $(fact_of C2_PSTORE_FILES)"
    WHY="not checked yet"
    verdict "crash_pair/$CPU"
}
