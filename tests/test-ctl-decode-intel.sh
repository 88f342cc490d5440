#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl decode of Intel model-specific codes from registers and from
# kernel text: Denverton, Snow Ridge, Broadwell-DE, Skylake-SP PCU/CHA, and the
# corrected-error count of a kernel line (which carries no MCG_CAP).
set -u
# shellcheck source=tests/decode-lib.sh
. "${top_srcdir:-.}/tests/decode-lib.sh"
D=$top_srcdir/tests/data/decode

# SDM 06_5FH "Intel IMC MC Error Codes for IA32_MCi_STATUS (i = 6, 7)": bit 19, demand read, channel 1.
out=$($CTL decode mce --vendor intel --family 6 --model 0x5f --stepping 1 --bank 7 --status 0xb580000000080091 --mcgcap 0x1000c08)
ok $? "Denverton registers decode"
has "$out" "^srar: .*Denverton (Atom C3000), bank 7 IMC): uncorrected demand read error"; ok $? "Denverton bank 7 IMC: SRAR, MSCOD bit 19 named"
# SDM 06_56H MC4 MCACOD 0406H.
out=$($CTL decode mce --vendor intel --family 6 --model 0x56 --bank 4 --status 0xb200000000000406 --json)
has "$out" '"model_text":"Intel TXT error"'; ok $? "Broadwell-DE MC4 MCACOD 0406H named (--json)"
has "$out" '"bank_name":"PCU"'; ok $? "Broadwell-DE bank 4 is the PCU"
# Skylake-SP CHA: the SDM has no MSCOD table for it, and the decode says so.
out=$($CTL decode mce --vendor intel --family 6 --model 0x55 --stepping 4 --bank 9 --status 0xb2000000000c0400)
has "$out" "model_text *MSCOD 0x000c has no public meaning for this bank"; ok $? "CHA MSCOD: no meaning invented, said so"
# Skylake-SP MC4 holding the MLC status after a 3-strike: the PCU MSCOD table is not applied.
out=$($CTL decode mce --vendor intel --family 6 --model 0x55 --stepping 7 --bank 4 --status 0xb20000000d000136)
has "$out" "model_text *MLC status copied to the PCU bank after a core 3-strike"; ok $? "MC4 cache code read as the copied MLC status"
! has "$out" "MCA_DMI_TRAINING_TIMEOUT"; ok $? "and its MSCOD is not read as a PCU code"

out=$($CTL decode "$D/intel-models.txt")
ok $? "kernel text with three Intel records decodes"
has "$out" "intel-models.txt:2: srao: .*Denverton (Atom C3000), bank 6 IMC): uncorrected patrol scrub error"; ok $? "Denverton kernel record: SRAO patrol scrub, MSCOD named"
has "$out" "intel-models.txt:6: corrected: .*memory controller 0, channel 0, DIMM 1, rank 2 (Snow Ridge (Atom P5900), bank 13 IMC): corrected read error"; ok $? "Snow Ridge kernel record: IMC 0 channel 0, MISC rank, MSCOD named"
has "$out" "intel-models.txt:10: corrected: .*(Westmere-EP, bank 8 IMC): memory read ECC error"; ok $? "Westmere-EP kernel record decoded"
has "$out" "corrected_count *3 (0x3)"; ok $? "kernel line without MCG_CAP: corrected count from STATUS[52:38]"
has "$out" "decode_note *MCG_CAP not recorded: STATUS\[52:38\] read as the corrected-error count"; ok $? "and the note says why"
out=$($CTL decode --json "$D/intel-models.txt")
has "$out" '"corrected_count":3'; ok $? "--json carries the count"

echo "1..$n"
[ "$failed" = 0 ]
