#!/bin/bash
# SPDX-License-Identifier: MIT
# health names a DIMM's SMBIOS type 17 device (locator, bank locator, part
# number, serial) only where a label says which one it is: a fault stream
# replayed by rasd --once, then health read against a fake sysfs whose
# firmware/dmi/entries/17-N/raw hold structures in the kernel's format (one
# structure each: formatted area, strings, double NUL). A locator repeated per
# bank, an empty socket, a label naming no socket, and no DMI at all: "locator
# not known". An EDAC label set since the errors (sysfs dimm_label) counts too.
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

# A type 17 structure as /sys/firmware/dmi/entries/17-N/raw holds it (SMBIOS 3.2, 0x54 bytes):
# dmi17 N handle size_mb locator bank manufacturer serial part
dmi17() {
	mkdir -p "$WORK/sys/firmware/dmi/entries/17-$1"
	python3 - "$WORK/sys/firmware/dmi/entries/17-$1/raw" "${@:2}" <<'EOF'
import struct, sys
path, handle, size, strings = sys.argv[1], int(sys.argv[2], 0), int(sys.argv[3]), sys.argv[4:]
f = bytearray(0x54)
f[0], f[1] = 17, 0x54
struct.pack_into('<H', f, 2, handle)
struct.pack_into('<HHHH', f, 4, 0x1000, 0xfffe, 72, 64)   # array, no error info, widths
struct.pack_into('<H', f, 0x0c, size)
f[0x0e], f[0x12] = 0x09, 0x1a                              # DIMM, DDR4
idx, text = [], b''
for s in strings:                                          # empty string: number 0
    if s:
        text += s.encode() + b'\0'
        idx.append(text.count(b'\0'))
    else:
        idx.append(0)
f[0x10], f[0x11], f[0x17], f[0x18], f[0x1a] = idx
struct.pack_into('<H', f, 0x15, 3200)
f[0x1b] = 2
open(path, 'wb').write(bytes(f) + (text or b'\0') + b'\0')
EOF
}
json_part() { # database, sysfs root, part label -> the part's "smbios" object, one line
	"$CTL" --config /dev/null --db "$1" --sysfs-root "$2" health --json |
		python3 -c 'import json, sys
for p in json.load(sys.stdin)["parts"]:
    if p["kind"] == "dimm" and p["label"] == sys.argv[1]:
        print(json.dumps(p["smbios"], sort_keys=True))' "$3"
}

replay ghes "$WORK/ghes.db"; ok $? "the ghes_edac stream replayed"
dmi17 0 0x1100 16384 DIMM0 "NODE 0" Samsung S0A1 M393A2K43BB1-CTD
dmi17 1 0x1101 16384 DIMM1 "NODE 0" Hynix H1 HMA82GR7
dmi17 10 0x110a 16384 DIMM1 "NODE 1" Hynix H2 HMA82GR7
dmi17 2 0x1102 0 DIMM2 "NODE 0" "" "" ""
mkdir -p "$WORK/sys/firmware/dmi/entries/16-0"; printf '\x10\x17\x00\x10' > "$WORK/sys/firmware/dmi/entries/16-0/raw"

got=$(json_part "$WORK/ghes.db" "$WORK/sys" DIMM0)
python3 -c 'import json, sys; s = json.loads(sys.argv[1])
assert s["known"] and s["locator"] == "DIMM0" and s["bank_locator"] == "NODE 0", s
assert s["part_number"] == "M393A2K43BB1-CTD" and s["serial"] == "S0A1" and s["manufacturer"] == "Samsung", s
assert s["handle"] == "0x1100" and "locator" in s["matched_by"], s' "$got"
ok $? "DIMM0's label is its locator: locator, bank, part number, serial and handle in health --json ($got)"
got=$(json_part "$WORK/ghes.db" "$WORK/sys" DIMM1)
python3 -c 'import json, sys; s = json.loads(sys.argv[1])
assert not s["known"] and "more than one" in s["why"] and "locator" not in s, s' "$got"
ok $? "DIMM1's locator is in two banks: not known, and why ($got)"
got=$(json_part "$WORK/ghes.db" "$WORK/sys" DIMM2)
python3 -c 'import json, sys; s = json.loads(sys.argv[1]); assert not s["known"], s' "$got"
ok $? "DIMM2's socket is empty in SMBIOS: not known ($got)"
got=$(json_part "$WORK/ghes.db" "$WORK/sys" DIMM3)
python3 -c 'import json, sys; s = json.loads(sys.argv[1]); assert not s["known"] and "no SMBIOS device" in s["why"], s' "$got"
ok $? "DIMM3 names no socket: not known ($got)"

text=$("$CTL" --config /dev/null --db "$WORK/ghes.db" --sysfs-root "$WORK/sys" health)
grep -A1 ' (DIMM0)' <<<"$text" | grep -q '^ *socket: DIMM0 (bank NODE 0), Samsung, part M393A2K43BB1-CTD, serial S0A1; SMBIOS: the EDAC label names its locator$'
ok $? "the text names DIMM0's socket, part number and serial under the part"
grep -A1 ' (DIMM1)' <<<"$text" | grep -q '^ *socket: locator not known (the EDAC label names more than one SMBIOS device)$'
ok $? "the text says DIMM1's locator is not known, and why"
text=$("$CTL" --config /dev/null --db "$WORK/ghes.db" --sysfs-root "$WORK/nosys" health)
grep -A1 ' (DIMM0)' <<<"$text" | grep -q '^ *socket: locator not known (SMBIOS type 17 entries not readable: No such file or directory)$'
ok $? "without DMI in sysfs: not known, and why"

# ghes_edac's own names: "BANK LOCATOR", and its handle when the strings were empty.
replay skx "$WORK/skx.db"; ok $? "the skx_edac stream replayed"
key=$("$CTL" --config /dev/null --db "$WORK/skx.db" health --json | python3 -c 'import json, sys
print([p for p in json.load(sys.stdin)["parts"] if p["kind"] == "dimm" and p["part"].startswith("mc0 ")][0]["part"])')
got=$(json_part "$WORK/skx.db" "$WORK/sys" "$(sed 's/^mc0 \([0-9]*\):\([0-9]*\).*/CPU_SrcID#0_MC#0_Chan#\1_DIMM#\2/' <<<"$key")")
python3 -c 'import json, sys; s = json.loads(sys.argv[1]); assert not s["known"], s' "$got"
ok $? "skx_edac's label CPU_SrcID#0_MC#0_Chan#.._DIMM#.. names no socket: not known ($got)"
# EDAC's dimm_label for that DIMM now (labels set since): the kernel's "bank locator" spelling.
ch=$(sed 's/^mc0 \([0-9]*\):.*/\1/' <<<"$key"); slot=$(sed 's/^mc0 [0-9]*:\([0-9]*\):.*/\1/' <<<"$key")
d=$WORK/sys/devices/system/edac/mc/mc0/dimm0
mkdir -p "$d"
printf 'channel %s slot %s \n' "$ch" "$slot" > "$d/dimm_location"
printf 'NODE 1 DIMM1\n' > "$d/dimm_label"
printf '16384\n' > "$d/size"
printf 'Skylake Socket#0 IMC#0\n' > "$WORK/sys/devices/system/edac/mc/mc0/mc_name"
label=$(sed 's/^mc0 \([0-9]*\):\([0-9]*\).*/CPU_SrcID#0_MC#0_Chan#\1_DIMM#\2/' <<<"$key")
got=$(json_part "$WORK/skx.db" "$WORK/sys" "$label")
python3 -c 'import json, sys; s = json.loads(sys.argv[1])
assert s["known"] and s["locator"] == "DIMM1" and s["bank_locator"] == "NODE 1" and s["serial"] == "H2", s
assert "bank locator" in s["matched_by"], s' "$got"
ok $? "EDAC's dimm_label now \"NODE 1 DIMM1\" (ghes_edac's spelling) picks the one in bank NODE 1 ($got)"
printf 'unknown memory (handle: 0x1100)\n' > "$d/dimm_label"
got=$(json_part "$WORK/skx.db" "$WORK/sys" "$label")
python3 -c 'import json, sys; s = json.loads(sys.argv[1])
assert s["known"] and s["locator"] == "DIMM0" and "handle" in s["matched_by"], s' "$got"
ok $? "ghes_edac's \"unknown memory (handle: 0x1100)\": the device with that handle ($got)"

echo "1..$n"
[ "$failed" = 0 ]
