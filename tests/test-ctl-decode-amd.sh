#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl decode on AMD text and registers: FRU text and SYND1/SYND2, HBM
# (UMC v2) controller and channel, pre-SMCA northbridge DRAM ECC, and what the
# decoder must say it does not know. Register layouts: see
# tests/decoders/test-mce-amd-mem.c.
set -u
# shellcheck source=tests/decode-lib.sh
. "${top_srcdir:-.}/tests/decode-lib.sh"
D=$top_srcdir/tests/data/decode

out=$($CTL decode "$D/amd-hbm-fru.txt")
ok $? "AMD blocks with FRU text, HBM and NB DRAM ECC: exit 0"
has "$out" 'amd-hbm-fru.txt:2: corrected: Corrected DRAM ECC error on CPU 2, channel 7, chip select 3 (.*bank 16 UMC): ECC syndrome 0xa24 (16 bits); FRU "P0 DIMM_A1"$'
ok $? "UMC block: channel, chip select, syndrome and FRU text in the sentence"
has "$out" 'amd-hbm-fru.txt:9: corrected: Corrected DRAM ECC error on CPU 0, memory controller 1, channel 6 (.*bank 22 UMC_V2): HBM: UMC 1, channel 6 of 8'
ok $? "UMC v2 block: HBM controller and channel"
has "$out" 'amd-hbm-fru.txt:13: corrected: Corrected DRAM ECC error on CPU 1 (family 10h, bank 4 NB): .*corrected ECC (CECC), ECC syndrome 0xa1b2'
ok $? "family 10h NB block: DRAM ECC, CECC and syndrome"
has "$out" "decode_note .*channel, DIMM, chip select need the DRAM config (F2x110, F2x40/60, F3x180)"
ok $? "NB block says the DRAM configuration registers are needed"

out=$($CTL decode --json "$D/amd-hbm-fru.txt")
has "$out" '"raw_synd1":"0x5f4d4d4944203050","raw_synd2":"0x3141","fru_text":"P0 DIMM_A1"'
ok $? "--json: SYND1/SYND2 as hex strings and the FRU text"
has "$out" '"addr":"0x123456789a","addr_lsb":1'
ok $? "--json: NB address MC4_ADDR[47:1]"

# Registers by hand: UMC v2 on an MI200-class node (InstanceId 0x352000 = UMC 1, channel 6).
out=$($CTL decode mce --vendor amd --family 0x19 --model 0x30 --bank 22 \
	--status 0x9c2040000000011b --ipid 0x0001409600352000 --synd 0x0000003300200005)
has "$out" "^corrected: Corrected DRAM ECC error on socket 0, memory controller 1, channel 6"
ok $? "decode mce: UMC v2 controller and channel"
has "$out" "smca_instance_hi  *4 "
ok $? "decode mce: the node from InstanceIdHi"

# Registers by hand with SYND1/SYND2 and MCA_CONFIG[9]: the same FRU text as the kernel's line.
args="--vendor amd --family 0x19 --model 0x11 --bank 16 --status 0x9c2040000000011b
	--ipid 0x0000009600750f00 --synd 0x00000a2400400003 --synd1 0x5f4d4d4944203050 --synd2 0x3141"
# shellcheck disable=SC2086 # $args is a list of words
out=$($CTL decode mce $args --mca-config 0x200 --json)
has "$out" '"raw_synd1":"0x5f4d4d4944203050","raw_synd2":"0x3141","fru_text":"P0 DIMM_A1"'
ok $? "decode mce --synd1/--synd2/--mca-config: FRU text from the registers"
# shellcheck disable=SC2086
out=$($CTL decode mce $args --mca-config 0 --json)
has "$out" '"fru_text":"P0 DIMM_A1"'
[ $? != 0 ]
ok $? "decode mce --mca-config without bit 9: SYND1/SYND2 are not read as text"
# shellcheck disable=SC2086
$CTL decode mce $args --synd1 1x2 >/dev/null 2>&1
[ $? = 2 ]
ok $? "decode mce --synd1 with a bad number: exit 2"

# SMCA without --ipid: the sentence says the bank type is unknown, not "cache".
out=$($CTL decode mce --vendor amd --family 0x19 --model 0x21 --bank 18 --status 0x9c2040000000011b)
has "$out" "^corrected: Corrected error in an SMCA bank of unknown type (no MCA_IPID; code 0x011b reads as"
ok $? "SMCA without IPID: the sentence names no unit"
# PCC (bit 57) with UC (bit 61) clear.
out=$($CTL decode mce --vendor amd --family 0x19 --model 0x21 --bank 3 --status 0x9200000000000136 --ipid 0x000700b000000000)
has "$out" "decode_note.*contradictory status: PCC set with UC clear"
ok $? "PCC without UC flagged as contradictory"

echo "1..$n"
[ "$failed" = 0 ]
