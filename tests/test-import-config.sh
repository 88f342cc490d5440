#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl import-config: rasdaemon's settings read as rasdaemon 0.8.5
# reads them (its shipped rasdaemon.env and variants: units, case, export,
# absent keys, rows, triggers, DISABLE, empty keys) and mcelog's daemon-test
# configurations read as mcelog reads them. Every conversion goes through the
# built rasd --check-config; an invalid value is exit 1 naming what is
# allowed; no trigger directory is made up, and an unsafe one is warned
# about; --json parses, and names every line of the file.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=${IMPORT_CTL:-$top_builddir/ctl/ras-fdr-ctl}
RASD=$top_builddir/rasd/rasd
D=$(cd "$top_srcdir/tests/data/import" && pwd)
WORK=$(mktemp -d /tmp/ras-fdr-import-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }

# convert NAME FILE [ARGS]: FILE's conversion in $WORK/NAME.out and .err, its status in $rc;
# a conversion that succeeds must pass rasd --check-config.
convert() {
	local name=$1 file=$2
	shift 2
	"$CTL" -c /dev/null import-config "$@" "$file" > "$WORK/$name.out" 2> "$WORK/$name.err"
	rc=$?
	if [ $rc = 0 ] && [ "$*" != --json ]; then
		"$RASD" --config "$WORK/$name.out" --check-config > "$WORK/$name.check" 2>&1
		ok $? "$name: rasd --check-config accepts the conversion $(head -c 300 "$WORK/$name.check")"
	fi
}
# rd NAME TEXT [ARGS]: TEXT (printf %b) as a rasdaemon file, converted; it must succeed.
rd() {
	local name=$1
	printf '%b' "$2" > "$WORK/$name.env"
	shift 2
	convert "$name" "$WORK/$name.env" "$@"
	ok $rc "$name: exit 0 $(head -c 300 "$WORK/$name.err")"
}
has() { grep -qxF -- "$2" "$WORK/$1.out"; ok $? "$1: has '$2'"; }
contains() { grep -qF -- "$2" "$WORK/$1.${3:-out}"; ok $? "$1: ${3:-out} contains '$2'"; }
lacks() { ! grep -qE -- "$2" "$WORK/$1.out"; ok $? "$1: no line matching '$2'"; }
# refused NAME TEXT ALLOWED [mcelog]: exit 1, nothing on stdout, the error names ALLOWED.
refused() {
	local f=$WORK/$1.${4:-env}
	printf '%b' "$2" > "$f"
	convert "$1" "$f"
	ok $([ $rc = 1 ] && [ ! -s "$WORK/$1.out" ] && echo 0 || echo 1) "$1: exit 1 and nothing on stdout (rc $rc)"
	contains "$1" "$3" err
}

# ---- rasdaemon's shipped rasdaemon.env: rasdaemon's defaults, no path made up ----
convert shipped "$D/rasdaemon.env"; ok $rc "shipped: exit 0"
has shipped "page_ce_threshold = 50/24h"
has shipped "page_ce_action = soft"
has shipped "row_ce_threshold = off"
has shipped "cpu_ce_threshold = 18/24h"
has shipped "cpu_ce_action = account"
lacks shipped '^trigger_dir'
lacks shipped 'ln -s|install -o'
contains shipped "TRIGGER_DIR=: empty: rasdaemon then runs /NAME for each trigger NAME"
contains shipped "MC_UE_TRIGGER=: empty: rasdaemon runs no trigger"
contains shipped "CPU_ISOLATION_LIMIT=10: rasdaemon reads it only with CPU_ISOLATION_ENABLE=yes"
contains shipped "rasdaemon 0.8.5's parser multiplies by the unit's own step only"
# The statistics (2000 a second, 102400 kB): more than N is N+1 in rasd's terms.
has shipped "ce_rate_threshold = 2001/1s"
has shipped "poison_threshold_kb = 102401"
contains shipped "rasdaemon warns at more than 2000 corrected errors in one calendar second"
contains shipped "rasd warns when it reaches 102401 kB and again each time it grows"
rd stathex 'MC_CE_STAT_THRESHOLD=0x10\nPOISON_STAT_THRESHOLD=0\n'
has stathex "ce_rate_threshold = 17/1s"
has stathex "poison_threshold_kb = 1"
rd statzero 'MC_CE_STAT_THRESHOLD=0\n'
lacks statzero '^ce_rate_threshold'
contains statzero "MC_CE_STAT_THRESHOLD=0: 0 or empty: rasdaemon logs a line at every corrected memory error"
refused statbad 'MC_CE_STAT_THRESHOLD=2000/s\n' "expected a number of corrected errors a second"
refused poisonbad 'POISON_STAT_THRESHOLD=100MB\n' "expected a number of kB below 1073741824"
# The same file where anyone may write (issue 31: its folder became trigger_dir).
cp "$D/rasdaemon.env" "$WORK/rasdaemon"
convert intmp "$WORK/rasdaemon"; ok $rc "shipped file in /tmp: exit 0"
lacks intmp '^trigger_dir'

# ---- units, case, multipliers, export, absent keys ----
rd cycle24 'PAGE_CE_REFRESH_CYCLE="24"\n'
has cycle24 "page_ce_threshold = 50/24h"
contains cycle24 "PAGE_CE_REFRESH_CYCLE=24 has no unit: hours"
rd soft 'PAGE_CE_ACTION="Soft"\n'
has soft "page_ce_action = soft"
rd hours 'PAGE_CE_REFRESH_CYCLE=24H\n'
has hours "page_ce_threshold = 50/24h"
rd day "PAGE_CE_REFRESH_CYCLE='1D'\n"
has day "page_ce_threshold = 50/24h"
rd minutes 'PAGE_CE_REFRESH_CYCLE=90M\nPAGE_CE_THRESHOLD=7\n'
has minutes "page_ce_threshold = 7/90m"
rd kilo 'PAGE_CE_THRESHOLD=5k\n'
has kilo "page_ce_threshold = 5000/24h"
rd mega 'PAGE_CE_THRESHOLD="2M"\n'
has mega "page_ce_threshold = 2000000/24h"
contains mega "rasdaemon 0.8.5's parser multiplies m by 1000 only (2000)"
rd export 'export PAGE_CE_ACTION=hard\n  export  PAGE_CE_THRESHOLD=9\n'
has export "page_ce_action = hard"
has export "page_ce_threshold = 9/24h"
contains export "line 1 is written 'export PAGE_CE_ACTION=...'"
rd absent '# nothing set: rasdaemon runs on its code defaults\n'
has absent "page_ce_threshold = 50/24h"
has absent "page_ce_action = soft"
has absent "row_ce_threshold = off"
has absent "cpu_ce_action = account"
contains absent "# PAGE_CE_ACTION absent (default soft)"
rd quoted 'PAGE_CE_ACTION = "soft-THEN-hard"\nPAGE_CE_THRESHOLD=\\\n12\n'
has quoted "page_ce_action = soft-then-hard"
has quoted "page_ce_threshold = 12/24h"
rd last 'PAGE_CE_ACTION=hard\nPAGE_CE_ACTION=account\n'
has last "page_ce_action = account"
contains last "line 1: PAGE_CE_ACTION=hard: overridden by line 2"

# ---- CPU isolation: the cycle alone, bare seconds, the limit ----
rd cpucycle 'CPU_ISOLATION_CYCLE=1h\n'
has cpucycle "cpu_ce_threshold = 18/1h"
rd cpuseconds 'CPU_ISOLATION_CYCLE=7200\n'
has cpuseconds "cpu_ce_threshold = 18/2h"
rd cpuon 'CPU_ISOLATION_ENABLE=Yes\nCPU_CE_THRESHOLD=20000\nCPU_ISOLATION_LIMIT=2\n'
has cpuon "cpu_ce_action = offline"
has cpuon "cpu_offline_limit = 2"
has cpuon "cpu_ue_offline = yes"
lacks shipped '^cpu_ue_offline'
has cpuon "cpu_ce_threshold = 10000/24h"
contains cpuon "ARM processor errors (arm_event) per CPU, and no RISC-V one"
rd cpunolimit 'CPU_ISOLATION_ENABLE=yes\n'
has cpunolimit "cpu_ce_action = account"
contains cpunolimit "rasdaemon 0.8.5 then offlines no CPU"

# ---- rows: rasdaemon's ROW_* keys, and the page threshold off while rows act ----
rd rows 'ROW_CE_ACTION=Soft\nROW_CE_THRESHOLD=10\nROW_CE_REFRESH_CYCLE=12h\nPAGE_CE_ACTION=hard\n'
has rows "row_ce_threshold = 10/12h"
has rows "page_ce_action = soft"
has rows "page_ce_threshold = off"
contains rows "line 4: PAGE_CE_ACTION=hard: rasdaemon ignores it while ROW_CE_ACTION is not off"
rd rowsoff 'PAGE_CE_ACTION=soft\nROW_CE_THRESHOLD=10\n'
has rowsoff "row_ce_threshold = off"
contains rowsoff "ROW_CE_THRESHOLD=10: rasdaemon reads it only when ROW_CE_ACTION is not off"

# ---- triggers: each key to its condition, or none said precisely ----
rd triggers 'TRIGGER_DIR=/etc/rasdaemon/triggers\nMC_CE_TRIGGER=mc_ce\nMC_UE_TRIGGER=mc_ue\nAER_CE_TRIGGER=aer_ce\nAER_UE_TRIGGER=aer_ue\nMEM_FAIL_TRIGGER=mem_fail\n'
has triggers "trigger_dir = /etc/rasdaemon/triggers"
has triggers "#   uncorrected: install -o root -g root -m 0755 /etc/rasdaemon/triggers/mc_ue /etc/rasdaemon/triggers/uncorrected"
contains triggers "rasdaemon runs it at every corrected memory controller error (mc_event); rasd runs no program per corrected error: the nearest is dimm-threshold"
contains triggers "rasdaemon runs it at every corrected PCIe AER error; rasd runs no program per corrected error: the nearest is device-threshold"
contains triggers "uncorrected already takes /etc/rasdaemon/triggers/mc_ue"
"$CTL" -c /dev/null import-config --json "$WORK/triggers.env" > "$WORK/triggers.json"
rd emptyue 'TRIGGER_DIR=/etc/rasdaemon/triggers\nMC_UE_TRIGGER=\n'
lacks emptyue 'ln -s|install -o|<trigger_dir>'
contains emptyue "MC_UE_TRIGGER=: empty: rasdaemon runs no trigger"
rd emptydir 'TRIGGER_DIR=\nMC_UE_TRIGGER=mc_event_trigger\n'
lacks emptydir '^trigger_dir|install -o'
contains emptydir "TRIGGER_DIR is empty, so rasdaemon ran /mc_event_trigger"
contains emptydir "#   uncorrected: install the program as /etc/ras-fdr/triggers/uncorrected"
rd reldir 'TRIGGER_DIR=triggers\nMC_UE_TRIGGER=x\n'
lacks reldir '^trigger_dir'
contains reldir "TRIGGER_DIR=triggers: not an absolute path"
# A trigger directory rasd's safe-path rule refuses (sec may make the rule stricter still).
mkdir -m 0777 "$WORK/open" && chmod 0777 "$WORK/open"
rd unsafe "TRIGGER_DIR=$WORK/open\nMC_UE_TRIGGER=x\n"
has unsafe "trigger_dir = $WORK/open"
contains unsafe "# WARNING: trigger_dir $WORK/open: directory $WORK/open is writable by other users"
contains unsafe "warning: trigger_dir $WORK/open: directory $WORK/open is writable by other users" err
rd missingdir 'TRIGGER_DIR=/nonexistent/ras-fdr-import/triggers\n'
contains missingdir "# WARNING: trigger_dir /nonexistent/ras-fdr-import/triggers does not exist"

# ---- DISABLE: an events list of everything else ----
rd disable 'DISABLE="ras:mc_event,ras:aer_event ras:erst"\n'
lacks disable '^events = .*ras:(mc|aer)_event'
grep -q '^events = mce:mce_record ras:extlog_mem_event' "$WORK/disable.out"; ok $? "disable: events lists the others"
contains disable "ras:erst: rasd has no such event"

# ---- invalid values: exit 1, naming what is allowed ----
refused badaction 'PAGE_CE_ACTION=sofft\n' "not one of off, account, soft, hard or soft-then-hard, in any case"
refused badrow 'ROW_CE_ACTION=on\n' "not one of off, account, soft, hard or soft-then-hard"
refused badcount 'PAGE_CE_THRESHOLD=5g\n' "digits, then optionally k (x1000) or m (x1000000)"
refused zero 'PAGE_CE_THRESHOLD=0\n' "expected a count above 0"
refused badcycle 'PAGE_CE_REFRESH_CYCLE=24x\n' "then optionally d, h, m (minutes) or s"
refused badenable 'CPU_ISOLATION_ENABLE=true\n' "write yes or no"
refused badcpu 'CPU_CE_THRESHOLD=5k\n' "digits only, no unit"
refused hash 'PAGE_CE_ACTION=soft # the default\n' "put the comment on a line of its own"
"$CTL" -c /dev/null import-config --json "$WORK/badaction.env" > "$WORK/badaction.json"
ok $([ $? = 1 ] && echo 0 || echo 1) "badaction --json: exit 1 (the errors are checked below)"

# ---- mcelog's daemon-test configurations ----
for f in "$D"/mcelog-*.conf; do
	b=$(basename "$f" .conf)
	convert "$b" "$f"; ok $rc "$b: exit 0"
	lacks "$b" '^trigger_dir'   # their "directory = ." is relative: no path made up
done
has mcelog-page-soft-then-hard "page_ce_threshold = 1/1h"
has mcelog-page-soft-then-hard "page_ce_action = soft-then-hard"
has mcelog-page-soft-then-hard "row_ce_threshold = off"
has mcelog-page-soft-then-hard "#   page-threshold: install the program as /etc/ras-fdr/triggers/page-threshold"
has mcelog-page-soft-then-hard "# line 2: num-errors = 6: an mcelog test setting"
contains mcelog-page-soft-then-hard "[trigger] directory = .: not an absolute path"
has mcelog-cache "trigger_max_children = 3"
has mcelog-cache "page_ce_action = off"
contains mcelog-cache "#   cpu-threshold: install the program as"
contains mcelog-socket-1 "[socket] mem-ce-error-trigger = ../trigger"
contains mcelog-socket-1 "#   uncorrected: install the program as"
has mcelog-socket-1 "# line 4: dmi = yes: no equivalent in rasd.conf"
has mcelog-page-off "page_ce_action = off"
contains mcelog-page-off "[page] memory-ce-trigger = ../trigger: mcelog never runs it: memory-ce-action is off"
has mcelog-memdb-1 "dimm_ce_threshold = 1/1m"
contains mcelog-memdb-1 "#   dimm-threshold: install the program as"
contains mcelog-socket-memdb "[dimm] dimm-tracking-enabled = yes: mcelog reads the first, line 8"
contains mcelog-unknown "no rasd condition: mcelog runs it at each machine check it cannot decode"
mkdir -m 0755 "$WORK/safe"
printf '[page]\nmemory-ce-threshold = 2K / 1D\nmemory-ce-action = SOFT\nmemory-ce-trigger = /usr/local/sbin/page-trigger # absolute\n[trigger]\ndirectory = %s\nchildren-max = 0\n' "$WORK/safe" > "$WORK/mcelog.conf"
convert mcelog "$WORK/mcelog.conf"; ok $rc "mcelog: exit 0"
has mcelog "page_ce_threshold = 2000/24h"
has mcelog "page_ce_action = soft"
has mcelog "trigger_dir = $WORK/safe"
has mcelog "trigger_max_children = 64"
has mcelog "#   page-threshold: install -o root -g root -m 0755 /usr/local/sbin/page-trigger $WORK/safe/page-threshold"
contains mcelog "# WARNING: trigger_dir $WORK/safe: directory /tmp is writable by other users"
refused mcquoted '[page]\nmemory-ce-action = "soft"\n' "not one of off, account, soft, hard or soft-then-hard" conf
refused mcseconds '[page]\nmemory-ce-threshold = 10 / 24s\n' "a period with optionally d, h or m (minutes)" conf
refused mcunits '[page]\nmemory-ce-threshold = 10k / 24\n' "expected count / period as mcelog reads it" conf
refused mcsection '[page\nmemory-ce-action = soft\n' "a section without its ']'" conf
refused mcbool '[dimm]\ndimm-tracking-enabled = maybe\n' "expected yes, true, 1, on, no, false, 0 or off" conf

# ---- --json: parses, and every line of each file is named (converted or why not) ----
# One python for every check (it takes most of this test's time on a loaded machine).
: > "$WORK/cover.list"
for f in "$D"/rasdaemon.env "$D"/mcelog-*.conf "$WORK"/*.env "$WORK/mcelog.conf"; do
	j=$WORK/cover-$(basename "$f").json
	"$CTL" -c /dev/null import-config --json "$f" > "$j" 2>/dev/null && printf '%s\t%s\n' "$f" "$j" >> "$WORK/cover.list"
done
"$CTL" -c /dev/null import-config --json /nonexistent > "$WORK/missing.json" 2>/dev/null
ok $([ $? = 1 ] && echo 0 || echo 1) "--json with a missing file: exit 1 (its object is checked below)"
reported=0
while IFS=$'\t' read -r status what; do
	ok "$status" "$what"
	reported=$((reported + 1))
done < <(python3 - "$WORK" <<'EOF'
import json, os, sys
work = sys.argv[1]
def load(name):
    with open(os.path.join(work, name)) as f:
        return json.load(f)
def check(cond, what):
    print("%d\t%s" % (0 if cond else 1, what))
d = load("triggers.json")
got = {t["from"][0]["key"]: t["condition"] for t in d["triggers"]}
check(got == {"MC_CE_TRIGGER": None, "MC_UE_TRIGGER": "uncorrected", "AER_CE_TRIGGER": None,
              "AER_UE_TRIGGER": "uncorrected", "MEM_FAIL_TRIGGER": "uncorrected"},
      "triggers --json: each trigger key maps to its condition, or to none %s" % got)
d = load("badaction.json")
check(bool(d["errors"]) and "soft-then-hard" in d["errors"][0]["why"] and "settings" not in d,
      "badaction --json: the error in errors[], no settings")
check("error" in load("missing.json"), "--json with a missing file: an error object")
for entry in open(os.path.join(work, "cover.list")):
    src, out = entry.rstrip("\n").split("\t")
    d = json.load(open(out))
    named = {s["line"] for k in ("settings", "triggers", "not_converted") for i in d[k]
             for s in i["from"] if s["line"]}
    want = set()
    for n, line in enumerate(open(src).read().split("\n"), 1):
        line = line.split("#")[0] if d["format"] == "mcelog" else line
        s = line.strip()
        if s and not s.startswith(("#", ";", "[")) and "=" in s and not s.endswith("\\"):
            want.add(n)
    check(d["version"] == 2 and d["errors"] == [] and d["settings"] and want <= named,
          "%s --json: parses, every assignment line is named %s" % (os.path.basename(src),
                                                                  sorted(want - named)))
EOF
)
ok $([ $reported = $(($(wc -l < "$WORK/cover.list") + 3)) ] && echo 0 || echo 1) "python reported every JSON check ($reported)"
"$CTL" -c /dev/null import-config /nonexistent 2>/dev/null; [ $? = 1 ]; ok $? "a missing file is an error"
echo "1..$n"
[ $failed = 0 ]
