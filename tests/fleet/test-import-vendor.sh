#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl import rasdaemon: rasdaemon's vendor tables (HiSilicon HIP08 OEM
# type 1/2, PCIe local, common; Alibaba Yitian; JaguarMicro; NVIDIA; Ampere),
# their columns and the text rasdaemon writes into them as its
# events-arch-arm/non-standard-*.c sources write it, come back as the
# sections they were decoded from: stored as non_standard_event and read by
# today's decoders, the same words as the live section (tests/decoders/
# vendor_vectors.h) gives.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-import-vendor-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
RD=$WORK/ras-mc_event.db
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }

# rasdaemon's schema (mc_event marks a rasdaemon database) and one row per table.
sqlite3 "$RD" <<'SQL'
CREATE TABLE mc_event (id INTEGER PRIMARY KEY, timestamp TEXT, err_count INTEGER, err_type TEXT, err_msg TEXT, label TEXT, mc INTEGER, top_layer INTEGER, middle_layer INTEGER, lower_layer INTEGER, address INTEGER, grain INTEGER, syndrome INTEGER, driver_detail TEXT);
CREATE TABLE hip08_oem_type1_event_v2 (id INTEGER PRIMARY KEY, timestamp TEXT, version INTEGER, soc_id INTEGER, socket_id INTEGER, nimbus_id INTEGER, module_id TEXT, sub_module_id TEXT, err_severity TEXT, regs_dump TEXT);
CREATE TABLE hip08_oem_type2_event_v2 (id INTEGER PRIMARY KEY, timestamp TEXT, version INTEGER, soc_id INTEGER, socket_id INTEGER, nimbus_id INTEGER, module_id TEXT, sub_module_id TEXT, err_severity TEXT, regs_dump TEXT);
CREATE TABLE hip08_pcie_local_event_v2 (id INTEGER PRIMARY KEY, timestamp TEXT, version INTEGER, soc_id INTEGER, socket_id INTEGER, nimbus_id INTEGER, sub_module_id TEXT, core_id INTEGER, port_id INTEGER, err_severity TEXT, err_type INTEGER, regs_dump TEXT);
CREATE TABLE hisi_common_section_v2 (id INTEGER PRIMARY KEY, timestamp TEXT, version INTEGER, soc_id INTEGER, socket_id INTEGER, totem_id INTEGER, nimbus_id INTEGER, sub_system_id INTEGER, module_id TEXT, sub_module_id INTEGER, core_id INTEGER, port_id INTEGER, err_type INTEGER, pcie_info TEXT, err_severity TEXT, regs_dump TEXT);
CREATE TABLE yitian_ddr_reg_dump_event (id INTEGER PRIMARY KEY, timestamp TEXT, address INTEGER, regs_dump TEXT);
CREATE TABLE jm_payload0_event (id INTEGER PRIMARY KEY, timestamp TEXT, version INTEGER, soc_id INTEGER, subsystem TEXT, module TEXT, module_id INTEGER, sub_module TEXT, submodule_id INTEGER, dev TEXT, dev_id INTEGER, err_type INTEGER, err_severity TEXT, regs_dump TEXT);
CREATE TABLE nvidia_ns_event (id INTEGER PRIMARY KEY, timestamp TEXT, signature TEXT, error_type INTEGER, error_instance INTEGER, severity INTEGER, socket INTEGER, number_regs INTEGER, instance_base INTEGER, reg_data BLOB, raw_data BLOB);
CREATE TABLE amp_payload0_event (id INTEGER PRIMARY KEY, timestamp TEXT, type TEXT, subtype TEXT, instance INTEGER, socket_num INTEGER, status_reg INTEGER, addr_reg INTEGER, misc0 INTEGER, misc1 INTEGER, misc2 INTEGER, misc3 INTEGER);
CREATE TABLE amp_payload1_event (id INTEGER PRIMARY KEY, timestamp TEXT, type TEXT, subtype TEXT, instance INTEGER, socket_num INTEGER, uncore_err_status INTEGER, uncore_err_mask INTEGER, uncore_err_sev INTEGER, core_err_status INTEGER, core_err_mask INTEGER, root_err_cmd INTEGER, root_err_status INTEGER, src_id INTEGER, reserved1 INTEGER, reserverd2 INTEGER);
INSERT INTO hip08_oem_type1_event_v2 VALUES (NULL, '2025-01-01 00:00:01 +0000', 1, NULL, 0, 1, 'PLL', 'TA_PLL0', 'recoverable', 'ERR_MISC0=0xdead ERR_ADDR=0x4000');
INSERT INTO hip08_oem_type2_event_v2 VALUES (NULL, '2025-01-01 00:00:02 +0000', 1, NULL, 1, 0, 'DDRC', 'TA_DDRC1', 'corrected', 'ERR_FR_0=0x1122 ERR_FR_1=0x0 ERR_CTRL_0=0x3344 ERR_CTRL_1=0x0 ERR_STATUS_0=0xc100000c ERR_STATUS_1=0x0 ERR_ADDR_0=0x123440 ERR_ADDR_1=0x80000000 ERR_MISC0_0=0x55 ERR_MISC0_1=0x0 ERR_MISC1_0=0x66 ERR_MISC1_1=0x0');
INSERT INTO hip08_pcie_local_event_v2 VALUES (NULL, '2025-01-01 00:00:03 +0000', 2, 1, 1, 0, 'TL_Layer', 2, 3, 'fatal', 4, 'ERR_MISC_0=0xa ERR_MISC_32=0xb');
INSERT INTO hisi_common_section_v2 VALUES (NULL, '2025-01-01 00:00:04 +0000', 1, 1, 1, 0, 2, NULL, 'DDRC', 3, NULL, NULL, NULL, NULL, 'corrected', 'reg00=0x00000011 reg01=0x00000022');
INSERT INTO yitian_ddr_reg_dump_event VALUES (NULL, '2025-01-01 00:00:05 +0000', 0, ' Error Type: DDR, Error SubType: DDR, Error Instance: 0x3, ECCCFG0: 0x0  ECCCFG1: 0x0  ECCSTAT: 0x105  ECCERRCNT: 0x2  ECCCADDR0: 0x1001a2b  ECCCADDR1: 0x2030040  ECCCSYN0: 0x0');
INSERT INTO jm_payload0_event VALUES (NULL, '2025-01-01 00:00:06 +0000', 1, 0, 'DDRH', 'DDRCtrl', 0, 'unknown', NULL, 'CHNL', 1, 5, 'corrected', '[ LOCK_CONTROL: 0x0 LOCK_FUNCTION: 0x0 CFG_RAM_ID: 0x0 ERR_FR_LOW32: 0x0 ERR_FR_HIGH32: 0x0 ERR_CTLR_LOW32: 0x0 ECC_STATUS_LOW32: 0xc100000c ECC_ADDR_LOW32: 0x0 ECC_ADDR_HIGH32: 0x0 ECC_MISC0_LOW32: 0x0 ECC_MISC0_HIGH32: 0x0 ECC_MISC1_LOW32: 0x0 ECC_MISC1_HIGH32: 0x0 ECC_MISC2_LOW32: 0x0 ECC_MISC2_HIGH32: 0x0 ]');
-- Grace: the section rasdaemon keeps whole in raw_data (the bytes of vv_grace()).
INSERT INTO nvidia_ns_event VALUES (NULL, '2025-01-01 00:00:07 +0000', 'CMET-INFO', 3, 2, 2, 1, 2, 82903040, NULL, x'434d45542d494e464f0000000000000003000200020102000000f104000000000800f1040000000019200000000000001000f104000000000700000000000000');
INSERT INTO amp_payload0_event VALUES (NULL, '2025-01-01 00:00:08 +0000', 'MCU', 'ERR2', 3, 1, 3238002700, 141971456, 16, 32, 48, 64);
INSERT INTO amp_payload1_event VALUES (NULL, '2025-01-01 00:00:09 +0000', 'PCIe AER', 'Root Port', 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0);
SQL

out=$(ctl import rasdaemon "$RD"); rc=$?
is "$rc" 0 "import exits 0"
is "$(q "SELECT count(*) FROM non_standard_event WHERE source = 'imported'")" 9 "every vendor row stored as a non_standard_event"
is "$(q "SELECT count(*) FROM imported_rows WHERE dst_table = 'non_standard_event'")" 9 "each linked to its source row"
for t in hip08_oem_type1_event_v2 hip08_oem_type2_event_v2 hip08_pcie_local_event_v2 hisi_common_section_v2 \
	yitian_ddr_reg_dump_event jm_payload0_event nvidia_ns_event amp_payload0_event amp_payload1_event; do
	grep -q "^$t .*1 imported" <<<"$out"; ok $? "$t reported as imported"
done

row() { q "SELECT $1 FROM non_standard_event_decoded WHERE id = (SELECT dst_id FROM imported_rows WHERE src_table = '$2')"; }
is "$(row "location || ' | ' || registers" hip08_oem_type2_event_v2)" \
	"HiSilicon Kunpeng 920 socket 1, nimbus 0, TA_DDRC1 | version 0x1, ERR_FR 0x1122, ERR_CTLR 0x3344, ERR_STATUS 0xc100000c, ERR_ADDR 0x8000000000123440, ERR_MISC0 0x55, ERR_MISC1 0x66" \
	"OEM type 2: the live section's location and registers"
is "$(row "severity || ' ' || vendor_detail" hip08_oem_type2_event_v2)" \
	"corrected DDR memory controller error, external memory (DRAM) data error, address 0x123440" \
	"OEM type 2: severity from err_severity, the status in words"
is "$(row "location || ' | ' || registers || ' | ' || severity" hip08_oem_type1_event_v2)" \
	"HiSilicon Kunpeng 920 socket 0, nimbus 1, TA_PLL0 | version 0x1, ERR_MISC0 0xdead, ERR_ADDR 0x4000 | uncorrected" \
	"OEM type 1: PLL sub-module and valid registers only"
is "$(row "sub_module || ', core ' || core || ', port ' || port || ', ' || vendor_severity || ' | ' || registers" hip08_pcie_local_event_v2)" \
	"transaction layer, core 2, port 3, fatal | version 0x2, SOC_ID 0x1, ERR_MISC_0 0xa, ERR_MISC_32 0xb" \
	"PCIe local: rasdaemon's TL_Layer is the transaction layer"
is "$(row "location || ' | ' || registers" hisi_common_section_v2)" \
	"HiSilicon Kunpeng 920 socket 1, totem 0, DDRC 3 | version 0x1, nimbus 0x2, totem 0x0, reg00 0x11, reg01 0x22" \
	"common: the DDRC and its register array"
is "$(row "location || ' | ' || vendor_detail" yitian_ddr_reg_dump_event)" \
	"Alibaba Yitian 710, DDRC 3 | ECC error, rank 1, bank group 2, bank 3, row 0x1a2b, column 0x40, bit 5, 2 corrected and 0 uncorrected counted" \
	"Yitian: the DRAM address from the dumped registers"
is "$(row "location || ' | ' || vendor_detail" jm_payload0_event)" \
	"JaguarMicro Corsica 1.0, DDRH DDRCtrl channel 1 | DDRH DDRCtrl error, external memory (DRAM) data error" \
	"JaguarMicro: payload 0 known by its registers"
is "$(row "location || ' | ' || registers || ' | ' || severity" nvidia_ns_event)" \
	"NVIDIA Grace socket 1, CMET-INFO instance 2 | instance_base 0x4f10000, @0x4f10008 0x2019, @0x4f10010 0x7 | corrected" \
	"NVIDIA: the raw section"
is "$(row "failing_part || ' | ' || vendor_detail" amp_payload0_event)" \
	"Ampere Altra socket 1, MCU 3 | memory controller error, external memory (DRAM) data error, address 0x8765000" \
	"Ampere payload 0: MCU 3 ERR2 on socket 1"
is "$(row "location || ' | ' || vendor_detail" amp_payload1_event)" \
	"Ampere Altra socket 0, PCIe AER 0 root port | PCIe port error, uncorrectable: Data Link Protocol Error" \
	"Ampere payload 1: the AER status in words"
out=$(ctl summary --by vendor)
grep -q "^HiSilicon    Kunpeng 920  DDRC           TA_DDRC1         corrected         1" <<<"$out"
ok $? "summary --by vendor lists the imported rows"
out=$(ctl import rasdaemon "$RD")
is "$(q "SELECT count(*) FROM non_standard_event")" 9 "a second import adds nothing"

echo "1..$n"
[ $failed = 0 ]
