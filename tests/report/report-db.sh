# SPDX-License-Identifier: MIT
# Sourced by the report tests: builds the database they read and a fake sysfs.
#   make_report_db WORK DB: storm-writer's folded storm (boot test-boot, from
#     2026-01-01T00:00:01Z, DIMM_A1 the stormy one, uncorrected errors on each
#     DIMM), a rasdaemon 0.8 database imported (boot imported:rasdaemon, no EDAC
#     topology; one DIMM label is hostile HTML), two decisions (an offline done on a DIMM_A1 record, a dry run on
#     DIMM_B0's), a crash of test-boot with an address in its log, losses, and
#     the diagnosis's verdicts on DIMM_A1 (replace) and DIMM_B0 (watch).
#   make_fake_dmi DIR: DIR/class/dmi/id and DIR/firmware/dmi/tables/DMI with
#     serials (DIMM_A1's DIMMSER-A1-9999; DIMM_B0, DIMM_B1's; system, board, chassis),
#     and the same DIMMs as DIR/firmware/dmi/entries/17-N/raw (where health and
#     the report's part rows find a label's device).
make_report_db() {
	local work=$1 db=$2 rd=$1/rasdaemon.db
	"$top_builddir/tests/fleet/storm-writer" "$db" 1 1500 7 > /dev/null || return 1
	sqlite3 "$rd" < "$top_srcdir/tests/fleet/rasdaemon-0.8.sql" || return 1
	sqlite3 "$rd" "
INSERT INTO mc_event VALUES (NULL, '2024-03-01 10:00:00 +0100', 2, 'Corrected', 'memory read error', 'DIMM_A1', 0, 0, 1, -1, 4096, 6, 0, '');
INSERT INTO mc_event VALUES (NULL, '2024-03-01 10:01:00 +0000', 1, 'Uncorrected', 'memory scrub error', 'DIMM_C2', 1, 0, 2, -1, 8192, 12, 7, 'detail');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:00 +0000', '0000:00:1c.0', 'Corrected', 'Receiver Error');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:01 +0000', '0000:00:1c.0', 'Uncorrected (Fatal)', 'Surprise Down Error');
INSERT INTO memory_failure_event VALUES (NULL, '2024-03-03 00:00:05 +0000', '0x1234', 'free buddy page', 'Recovered');
INSERT INTO mc_event VALUES (NULL, '2024-03-04 00:00:00 +0000', 1, 'Corrected', 'read',
 'DIMM_<script>alert(1)</script>&\"' || char(1) || '''x', 2, 0, 0, -1, 64, 6, 0, '');" || return 1
	"$CTL" --config /dev/null --db "$db" import rasdaemon "$rd" > /dev/null || return 1
	sqlite3 "$db" "
INSERT INTO actions (boot, wall_ns, kind, subject, count, threshold, action, target, result, errno, synthetic, event_table, event_id)
 VALUES (1, 1767225900000000000, 'page', 'page 0x7e5a1000', 10, '10/1d', 'soft', '/sys/devices/system/memory/soft_offline_page 0x7e5a1000', 'done', 0, 0, 'mc_event',
  (SELECT min(id) FROM mc_event WHERE label = 'DIMM_A1' AND boot = 1)),
 (1, 1767226200000000000, 'page', 'page 0x7e5a2000', 10, '10/1d', 'soft', '/sys/devices/system/memory/soft_offline_page 0x7e5a2000', 'dry-run', 0, 0, 'mc_event',
  (SELECT min(id) FROM mc_event WHERE label = 'DIMM_B0' AND boot = 1));
INSERT INTO crashes (boot, found_ns, crash_ns, uptime_ns, backend, kind, cause, reason, detail, hw_lines, explained, ident)
 VALUES (1, 1767229000000000000, 1767227200000000000, 5000000000, 'efi', 'dmesg', 'mce',
  'Kernel panic - not syncing: Fatal machine check', 'mce: [Hardware Error]: Machine check: Processor context corrupt',
  'mce: [Hardware Error]: CPU 2: Machine Check: 0 Bank 7: bc00000000010090 ADDR 0xdead4b1d000', 1, 42);
INSERT INTO lost_events (boot, instance, cpu, count, from_ns, to_ns, origin) VALUES
 (1, 'rasd', 0, 17, 1767225600000000000, 1767225700000000000, 'stats'),
 (1, 'rasd', 1, NULL, 1767225600000000000, 1767225700000000000, 'subbuffer'),
 (1, 'rasd', -1, 12, 1767225600000000000, 1767225800000000000, 'storage');
INSERT INTO parts (kind, part, synthetic, label, first_ns, last_ns, records, corrected, uncorrected, fatal,
  coord_records, verdict, rule, since_ns, why) VALUES
 ('dimm', 'mc0 1:0:-1', 0, 'DIMM_A1', 1767225601000000000, 1767227000000000000, 1000, 990, 10, 0, 0,
  'replace', 'mem-uncorrected', 1767225700000000000, 'uncorrected errors on the DIMM'),
 ('dimm', 'mc1 0:0:-1', 0, 'DIMM_B0', 1767225601000000000, 1767227000000000000, 100, 99, 1, 0, 0,
  'watch', 'mem-storm', 1767225700000000000, 'a storm of corrected errors');" || return 1
}

make_fake_dmi() {
	local sys=$1
	mkdir -p "$sys/class/dmi/id" "$sys/firmware/dmi/tables"
	echo 'Example Computers' > "$sys/class/dmi/id/sys_vendor"
	echo 'Model 9000' > "$sys/class/dmi/id/product_name"
	echo 'SYSSERIAL-4711' > "$sys/class/dmi/id/product_serial"
	echo 'BOARDSER-0815' > "$sys/class/dmi/id/board_serial"
	echo 'CHASSIS-77Q' > "$sys/class/dmi/id/chassis_serial"
	echo '2.14.1' > "$sys/class/dmi/id/bios_version"
	echo '05/06/2025' > "$sys/class/dmi/id/bios_date"
	$PY - "$sys/firmware/dmi/tables/DMI" <<'PYEOF'
import struct, sys
# SMBIOS type 17 (DSP0134 3.x, 0x28 bytes): locator, bank, manufacturer, serial, part number as strings 1-5.
def t17(handle, loc, serial):
    body = struct.pack("<HHHHHBBBBBHHBBBBBIHH", 0x1000, 0xfffe, 72, 64, 16384, 0x09, 0, 1, 2, 0x1a,
                       0x80, 3200, 3, 4, 0, 5, 2, 0, 3200, 1200)
    strings = [loc, "P0_CHANNEL", "Samsung", serial, "M393A2K43DB3-CWE"]
    return struct.pack("<BBH", 17, 4 + len(body), handle) + body + \
        b"".join(s.encode() + b"\0" for s in strings) + b"\0"
blob = t17(0x1100, "DIMM_A1", "DIMMSER-A1-9999") + t17(0x1101, "DIMM_B0", "DIMMSER-B0-1234") + \
    t17(0x1102, "DIMM_B1", "DIMMSER-B1-5678") + struct.pack("<BBH", 127, 4, 0xffff) + b"\0\0"
open(sys.argv[1], "wb").write(blob)
# The same structures one per file, as /sys/firmware/dmi/entries/17-N/raw holds them.
import os
at = 0
for n in range(3):
    end = blob.index(b"\0\0", at + blob[at + 1]) + 2
    os.makedirs("%s/../entries/17-%d" % (os.path.dirname(sys.argv[1]), n), exist_ok=True)
    open("%s/../entries/17-%d/raw" % (os.path.dirname(sys.argv[1]), n), "wb").write(blob[at:end])
    at = end
PYEOF
}
