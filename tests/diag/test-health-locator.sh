#!/bin/bash
# SPDX-License-Identifier: MIT
# health names a DIMM's SMBIOS type 17 device (locator, bank locator, part
# number, serial) only where a label says which one it is: a fault stream
# replayed by rasd --once, then health read against a fake sysfs whose
# firmware/dmi/entries/17-N/raw hold structures in the kernel's format (one
# structure each: formatted area, strings, double NUL). A locator repeated per
# bank, an empty socket, a label naming no socket, and no DMI at all: "locator
# not known". An EDAC label set since the errors (sysfs dimm_label) counts too.
# The report (--machine) gives every judged DIMM and its part rows the same
# answer as health, in JSON and in the HTML's rows.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
command -v python3 >/dev/null || { echo "1..0 # SKIP no python3"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
WORK=$(mktemp -d /tmp/ras-fdr-locator-XXXXXX)
trees=()
trap 'rm -rf "$WORK" "${trees[@]}"' EXIT
CTL=$top_builddir/ctl/ras-fdr-ctl

replay() { # spelling, database
	local tree
	tree=$("$top_builddir/tests/diag/fault-tree" "$1" 0 1000) || return 1
	trees+=("$tree")
	printf 'sysfs_root = %s\n' "$WORK/nosys" > "$WORK/rasd.conf"
	"$top_builddir/rasd/rasd" --config "$WORK/rasd.conf" --tracing-dir "$tree" --db "$2" \
		--lock-dir "$WORK/lock" --once >> "$WORK/rasd.log" 2>&1
}
health() { "$CTL" --config /dev/null --db "$1" --sysfs-root "$2" health "${@:3}"; }
report() { "$CTL" --config /dev/null --db "$1" --sysfs-root "$2" report "${@:3}"; }

# Type 17 structures as /sys/firmware/dmi/entries/17-N/raw holds them (SMBIOS 3.2, 0x54 bytes:
# formatted area, strings, double NUL); one python3 for all (it starts slowly on a busy machine).
python3 - "$WORK/sys/firmware/dmi/entries" <<'EOF'
import os, struct, sys
root = sys.argv[1]
entries = [  # N, handle, size MB, locator, bank locator, manufacturer, serial, part number
    (0, 0x1100, 16384, "DIMM0", "NODE 0", "Samsung", "S0A1", "M393A2K43BB1-CTD"),
    (1, 0x1101, 16384, "DIMM1", "NODE 0", "Hynix", "H1", "HMA82GR7"),
    (10, 0x110a, 16384, "DIMM1", "NODE 1", "Hynix", "H2", "HMA82GR7"),
    (2, 0x1102, 0, "DIMM2", "NODE 0", "", "", ""),             # an empty socket
]
for n, handle, size, *strings in entries:
    f = bytearray(0x54)
    f[0], f[1] = 17, 0x54
    struct.pack_into('<H', f, 2, handle)
    struct.pack_into('<HHHH', f, 4, 0x1000, 0xfffe, 72, 64)   # array, no error info, widths
    struct.pack_into('<H', f, 0x0c, size)
    f[0x0e], f[0x12] = 0x09, 0x1a                              # DIMM, DDR4
    idx, text = [], b''
    for s in strings:                                          # "": string number 0
        if s:
            text += s.encode() + b'\0'
            idx.append(text.count(b'\0'))
        else:
            idx.append(0)
    f[0x10], f[0x11], f[0x17], f[0x18], f[0x1a] = idx
    struct.pack_into('<H', f, 0x15, 3200)
    f[0x1b] = 2
    os.makedirs(f'{root}/17-{n}', exist_ok=True)
    open(f'{root}/17-{n}/raw', 'wb').write(bytes(f) + (text or b'\0') + b'\0')
EOF
ok $? "four type 17 entries written"
mkdir -p "$WORK/sys/firmware/dmi/entries/16-0"; printf '\x10\x17\x00\x10' > "$WORK/sys/firmware/dmi/entries/16-0/raw"

replay ghes "$WORK/ghes.db"; ok $? "the ghes_edac stream replayed"
health "$WORK/ghes.db" "$WORK/sys" --json > "$WORK/ghes.json"
report "$WORK/ghes.db" "$WORK/sys" --machine --json > "$WORK/ghes-report.json"
# Without --machine, a copy read on another machine: its boots are not the running one
# (a database recorded here would have the identity read unasked).
cp "$WORK/ghes.db" "$WORK/ghes-other.db"
sqlite3 "$WORK/ghes-other.db" "DELETE FROM boots WHERE boot_id = '$(cat /proc/sys/kernel/random/boot_id)'"
report "$WORK/ghes-other.db" "$WORK/sys" --json > "$WORK/ghes-nomachine.json"
report "$WORK/ghes.db" "$WORK/sys" --machine -o "$WORK/ghes.html"
grep -q '<td>mc[0-9]*, [^<]*(DIMM0)<br><span class="smbios">socket: DIMM0 (bank NODE 0), Samsung, part M393A2K43BB1-CTD, serial S0A1; <span class="muted">SMBIOS: the EDAC label names its locator' "$WORK/ghes.html"
ok $? "report HTML: DIMM0's part row names its socket, part number and serial as health does"
grep -q '(DIMM1)<br><span class="smbios muted">socket: locator not known (the EDAC label names more than one SMBIOS device)' "$WORK/ghes.html"
ok $? "report HTML: DIMM1's part row says its locator is not known, and why"
text=$(health "$WORK/ghes.db" "$WORK/sys")
grep -A1 ' (DIMM0)' <<<"$text" | grep -q '^ *socket: DIMM0 (bank NODE 0), Samsung, part M393A2K43BB1-CTD, serial S0A1; SMBIOS: the EDAC label names its locator$'
ok $? "the text names DIMM0's socket, part number and serial under the part"
grep -A1 ' (DIMM1)' <<<"$text" | grep -q '^ *socket: locator not known (the EDAC label names more than one SMBIOS device)$'
ok $? "the text says DIMM1's locator is not known, and why"
text=$(health "$WORK/ghes.db" "$WORK/nosys")
grep -A1 ' (DIMM0)' <<<"$text" | grep -q '^ *socket: locator not known (SMBIOS type 17 entries not readable: No such file or directory)$'
ok $? "without DMI in sysfs: not known, and why"

# skx_edac's labels name no socket; EDAC's dimm_label set since (sysfs) can.
replay skx "$WORK/skx.db"; ok $? "the skx_edac stream replayed"
health "$WORK/skx.db" "$WORK/sys" --json > "$WORK/skx.json"
key=$(grep -o '"part":"mc0 [0-9]*:[0-9]*:-1"' "$WORK/skx.json" | head -1 | sed 's/^"part":"\(.*\)"$/\1/')
ch=$(sed 's/^mc0 \([0-9]*\):.*/\1/' <<<"$key"); slot=$(sed 's/^mc0 [0-9]*:\([0-9]*\):.*/\1/' <<<"$key")
label="CPU_SrcID#0_MC#0_Chan#${ch}_DIMM#${slot}"
d=$WORK/sys/devices/system/edac/mc/mc0/dimm0
mkdir -p "$d"
printf 'channel %s slot %s \n' "$ch" "$slot" > "$d/dimm_location"
printf '16384\n' > "$d/size"
printf 'Skylake Socket#0 IMC#0\n' > "$WORK/sys/devices/system/edac/mc/mc0/mc_name"
printf 'NODE 1 DIMM1\n' > "$d/dimm_label"       # ghes_edac's spelling: bank locator, locator
health "$WORK/skx.db" "$WORK/sys" --json > "$WORK/skx-bank.json"
report "$WORK/skx.db" "$WORK/sys" --machine --json > "$WORK/skx-bank-report.json"
printf 'unknown memory (handle: 0x1100)\n' > "$d/dimm_label"   # ghes_edac's, without strings
health "$WORK/skx.db" "$WORK/sys" --json > "$WORK/skx-handle.json"

# Every JSON check in one python3: "0 what" or "1 what" per check.
before=$n
while read -r rc what; do ok "$rc" "$what"; done < <(python3 - "$WORK" "$label" <<'EOF'
import json, sys
work, label = sys.argv[1], sys.argv[2]
def part(doc, lab):
    try:
        for p in json.load(open(f'{work}/{doc}.json'))['parts']:
            if p['kind'] == 'dimm' and p['label'] == lab:
                return p.get('smbios')
    except (OSError, ValueError, KeyError) as e:
        return {'unreadable': str(e)}
    return {}
def check(what, test, s):
    try:
        good = test(s)
    except (KeyError, TypeError):
        good = False
    print(0 if good else 1, f'{what} ({json.dumps(s, sort_keys=True)})')
check("DIMM0's label is its locator: locator, bank, part number, serial and handle in health --json",
      lambda s: s['known'] and s['locator'] == 'DIMM0' and s['bank_locator'] == 'NODE 0' and
      s['part_number'] == 'M393A2K43BB1-CTD' and s['serial'] == 'S0A1' and
      s['manufacturer'] == 'Samsung' and s['handle'] == '0x1100' and 'locator' in s['matched_by'],
      part('ghes', 'DIMM0'))
check("DIMM1's locator is in two banks: not known, and why",
      lambda s: not s['known'] and 'more than one' in s['why'] and 'locator' not in s, part('ghes', 'DIMM1'))
check("DIMM2's socket is empty in SMBIOS: not known", lambda s: not s['known'], part('ghes', 'DIMM2'))
check("DIMM3 names no socket: not known",
      lambda s: not s['known'] and 'no SMBIOS device' in s['why'], part('ghes', 'DIMM3'))
check(f"skx_edac's label {label} names no socket: not known", lambda s: not s['known'], part('skx', label))
check('EDAC\'s dimm_label now "NODE 1 DIMM1" (ghes_edac\'s spelling) picks the one in bank NODE 1',
      lambda s: s['known'] and s['locator'] == 'DIMM1' and s['bank_locator'] == 'NODE 1' and
      s['serial'] == 'H2' and 'bank locator' in s['matched_by'], part('skx-bank', label))
check('EDAC\'s dimm_label "unknown memory (handle: 0x1100)": the device with that handle',
      lambda s: s['known'] and s['locator'] == 'DIMM0' and 'handle' in s['matched_by'],
      part('skx-handle', label))
def agree(doc):
    """health's answer for each DIMM, the report's verdicts' and their part rows'"""
    try:
        h = {p['part']: p['smbios'] for p in json.load(open(f'{work}/{doc}.json'))['parts']}
        r = json.load(open(f'{work}/{doc}-report.json'))
    except (OSError, ValueError, KeyError) as e:
        return {'unreadable': str(e)}
    rv = {v['part']: v['smbios'] for v in r['verdicts']}
    rows = [(p['verdict']['part'], p['smbios']) for p in r['parts'] if p['verdict']]
    return {'health': h, 'verdicts': rv, 'rows_differ': [k for k, s in rows if s != rv.get(k)],
            'rows': len(rows)}
check("report --machine: every verdict's SMBIOS answer is health's, and each part row its verdict's (ghes)",
      lambda s: s['health'] == s['verdicts'] and any(v['known'] for v in s['health'].values()) and
      not s['rows_differ'] and s['rows'] >= len(s['health']), agree('ghes'))
check("report --machine: health's answer by the label EDAC gives now too (skx, NODE 1 DIMM1)",
      lambda s: s['health'] == s['verdicts'] and s['verdicts'] and not s['rows_differ'] and
      any(v and v['known'] and v['serial'] == 'H2' for v in s['verdicts'].values()), agree('skx-bank'))
def nomachine():
    r = json.load(open(f'{work}/ghes-nomachine.json'))
    return [p['smbios'] for p in r['parts'] if p['kind'] == 'dimm']
check("report of another machine's copy without --machine: no DIMM's locator is known, and it says --machine reads it",
      lambda s: s and all(not x['known'] and '--machine' in x['why'] for x in s), nomachine())
EOF
)
[ $((n - before)) = 10 ] || ok 1 "the JSON checks ran: $((n - before)) of 10"

echo "1..$n"
[ "$failed" = 0 ]
