#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl decode: register values, text records (dmesg, mcelog, AER), bad input.
set -u
# shellcheck source=tests/decode-lib.sh
. "${top_srcdir:-.}/tests/decode-lib.sh"
D=$top_srcdir/tests/data
# Files the test makes go here, never into the source tree (read-only under make distcheck).
W=$(mktemp -d /tmp/ras-fdr-decode-XXXXXX)
trap 'rm -rf "$W"' EXIT

# Intel SDM vol. 3B 16.x: Skylake-SP bank 7 (M2M), MCACOD 0x0090 = memory read, channel 0.
out=$($CTL decode mce --vendor intel --family 6 --model 0x55 --bank 7 --status 0x8c00004000010090 --misc 0x8c)
ok $? "decode mce exits 0"
has "$out" "^corrected: Corrected memory read error"; ok $? "mce sentence says corrected memory read error"
has "$out" "bank_name  *M2M"; ok $? "mce bank named M2M"
out=$($CTL decode mce --vendor intel --family 6 --model 0x55 --bank 7 --status 0x8c00004000010090 --json)
has "$out" '"severity":"corrected"'; ok $? "mce --json severity"
has "$out" '"error_class":"memory"'; ok $? "mce --json error class"
# Registers are unsigned 64-bit: hex strings in JSON, never negative numbers.
out=$($CTL decode mce --vendor amd --family 0x19 --model 0x21 --bank 18 --status 0xbd80000010100134 --json)
has "$out" '"raw_status":"0xbd80000010100134"'; ok $? "--json register as an unsigned hex string"
has "$out" '"bank":18'; ok $? "--json small integers stay numbers"
# AMD SMCA without --ipid: the bank type is not guessed.
out=$($CTL decode mce --vendor amd --family 0x19 --model 0x21 --bank 18 --status 0x9c2040000000011b)
has "$out" "decode_note.*bank type unknown"; ok $? "SMCA record without IPID says the bank type is unknown"
# PCC (bit 57) with UC (bit 61) clear: contradictory, and said so.
out=$($CTL decode mce --vendor amd --family 0x19 --model 0x21 --bank 3 --status 0x9200000000000136 --ipid 0x000700b000000000)
has "$out" "decode_note.*contradictory status: PCC set with UC clear"; ok $? "PCC without UC flagged as contradictory"
# PCIe Base Spec 7.8.4.5: bit 0 Receiver Error, bit 6 Bad TLP.
out=$($CTL decode aer --cor-status 0x41 --dev 0000:00:1c.0)
has "$out" "Receiver Error, Bad TLP"; ok $? "aer corrected bits named"
out=$($CTL decode aer --uncor-status 0x100000 --fatal --json)
has "$out" '"severity":"fatal"'; ok $? "aer fatal severity"
has "$out" "Unsupported Request"; ok $? "aer bit 20 named Unsupported Request"
$CTL decode aer 2>/dev/null; ok $([ $? = 2 ] && echo 0 || echo 1) "aer without status is a usage error"

out=$($CTL decode "$D/decode/mixed.txt")
ok $? "dmesg machine check + AER block decode"
has "$out" "mixed.txt:2: corrected:"; ok $? "machine-check block from line 2"
has "$out" "mixed.txt:6: corrected: PCIe corrected error at 0000:03:00.0 \[8086:10d3\]: Receiver Error"; ok $? "AER block decoded after the MCE, device and bit named"
out=$($CTL decode < "$D/decode/mixed.txt")
has "$out" "<stdin>:2:"; ok $? "standard input read"

decode_file bad-then-good.mcelog
ok $([ $rc = 0 ] && echo 0 || echo 1) "malformed record then a good one: exit 0 (a record was decoded)"
has "$err" "bad-then-good.mcelog:2:"; ok $? "malformed record reported as file:line"
has "$out" "bad-then-good.mcelog:5: corrected"; ok $? "the next record is still decoded"

head -3 "$D/decode/bad-then-good.mcelog" > "$W/only-bad"
$CTL decode "$W/only-bad" >/dev/null 2>&1; rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "only a malformed record: exit 1 (nothing decoded)"

# A healthy Intel server's boot log (PCI enumeration, AER/DPC/EDAC/GHES set-up
# lines, no error): nothing to decode, exit 1, and not one warning.
out=$($CTL decode "$D/decode/dmesg-healthy.txt" 2>&1 >/dev/null); rc=$?
ok $([ $rc = 1 ] && echo 0 || echo 1) "healthy dmesg: exit 1, no record"
warn=$(grep -v "no machine-check, AER, EDAC, firmware (GHES) or rasdaemon record found" <<<"$out" | head -3)
[ -z "$warn" ]; ok $? "healthy dmesg: no warning${warn:+ (got: $warn)}"

# 40 AER blocks: more records than the first allocation of the record list (a
# use-after-free once printed garbage device names here).
out=$($CTL decode "$D/decode/aer-40.txt"); rc=$?
ok $rc "40 AER blocks decode"
missing=0
for i in $(seq 16 55); do
	dev=$(printf '0000:%02x:00.0' "$i")
	grep -q "PCIe corrected error at $dev \\[144d:a808\\]: Receiver Error" <<<"$out" || missing=$((missing+1))
done
ok $missing "each of the 40 AER records names its own device"
ok $([ "$(grep -c 'PCIe corrected error at' <<<"$out")" = 40 ] && echo 0 || echo 1) "exactly 40 AER records"

# Current kernels' AER spellings, a joined report, an inaccessible device.
decode_file aer-kernel6.txt
has "$out" "aer-kernel6.txt:2: corrected: PCIe corrected error at 0000:00:1c.0 \\[8086:a110\\]: Receiver Error, Bad TLP"; ok $? "severity=Correctable read"
has "$out" "kernel_names  *RxErr, BadTLP"; ok $? "kernel short bit names next to the spec's words"
has "$err" "aer-kernel6.txt:6: PCIe Bus Error on an inaccessible device"; ok $? "inaccessible device refused as file:line"
has "$out" "aer-kernel6.txt:7: uncorrected: .*Unsupported Request Error; TLP MWr .*address 0xf7c00000"; ok $? "joined report read, TLP header decoded"
ok $rc "a refused record beside decoded ones: exit status 0"

# AMD's decoded machine-check blocks (drivers/edac/mce_amd.c format).
out=$($CTL decode "$D/decode/amd-smca.txt")
has "$out" "amd-smca.txt:2: corrected: Corrected DRAM ECC error on CPU 0, channel 1, chip select 1"; ok $? "AMD SMCA block: UMC channel and chip select"
has "$out" "amd-smca.txt:9: corrected: .*bank 17 UMC"; ok $? "AMD block without IPID: bank type from the Ext. Error Code line"
has "$out" "decode_note  *no MCA_IPID: bank type from the kernel's text"; ok $? "AMD block without IPID: says what is unknown"

# sb_edac's HANDLING MCE MEMORY ERROR block and the EDAC core line after it
# (the example of the kernel's Documentation/firmware-guide/acpi/apei/einj.rst).
out=$($CTL decode "$D/decode/edac-sbridge.txt"); rc=$?
ok $rc "sbridge block and EDAC line decode"
has "$out" "edac-sbridge.txt:2: corrected: Corrected memory read error on socket 0"; ok $? "HANDLING block read as a machine check"
has "$out" "raw_misc  *0x144780c86"; ok $? "MISC from the message sharing the ADDR line"
has "$out" "edac-sbridge.txt:6: corrected: Corrected memory error at mc3, channel 0, slot 0 (CPU_SrcID#0_Channel#0_DIMM#0)"; ok $? "EDAC line: controller, layers and label"
has "$out" "driver_detail  *area:DRAM err_code:0001:0090"; ok $? "EDAC line: the driver's detail"

# --json strings: valid UTF-8 passes through, a byte that is not UTF-8 is
# escaped as \u00XX (here in the input's name, which JSON repeats).
cp "$D/decode/mixed.txt" "$W/dmesg-$(printf '\303\274')-\"q\".txt"
cp "$D/decode/mixed.txt" "$W/dmesg-$(printf '\377\300\257').txt"
out=$($CTL decode --json "$W"/dmesg-*.txt 2>&1)
has "$out" "\"input\":\"[^\"]*/dmesg-$(printf '\303\274')-\\\\\"q\\\\\".txt:2\""; ok $? "--json: UTF-8 kept, quotes escaped"
has "$out" '/dmesg-\\u00ff\\u00c0\\u00af.txt:2"'; ok $? "--json: bytes that are not UTF-8 (and an overlong form) escaped"

# Firmware-first (GHES/BERT) sections: memory, ARM processor, unknown and
# named ones (drivers/firmware/efi/cper.c, cper-arm.c); the blocks are real
# kernel output quoted on the kernel mailing lists (see tests/decoders/test-ghes-text.c).
decode_file ghes-memory.txt
ok $rc "GHES memory sections decode"
has "$out" "ghes-memory.txt:4: corrected: Corrected memory error (single-symbol ChipKill ECC) at physical address 0x898b86020: node 0, card 0, module 0, rank 0, bank 513, bank group 2, bank address 1"; ok $? "GHES memory: type, address and location"
has "$out" "ghes-memory.txt:15: uncorrected: Recoverable memory error (multi-bit ECC) at physical address 0x40272d5080 (mask lsb 12)"; ok $? "GHES memory: 6.x name:value location, recoverable"
has "$out" "ghes-memory.txt:24: fatal: Fatal memory error .*FRU Card03, ChnB, DIMM0"; ok $? "GHES memory: fatal with the firmware's FRU text"
has "$out" "dimm_location  *CPU 1 DIMM 8"; ok $? "GHES memory: the DIMM location the kernel printed"
has "$out" "error_source  *784"; ok $? "GHES memory: the error source"
has "$err" "ghes-memory.txt:47: malformed physical_address"; ok $? "GHES memory: a malformed field reported as file:line"
out=$($CTL decode --json "$D/decode/ghes-memory.txt" 2>/dev/null | head -1)
has "$out" '"type":"extlog".*"source":{"error_status":"0x0000000000000000","error_source":"2"}}$'; ok $? "GHES memory --json: the source's own fields under source"

decode_file ghes-arm.txt
ok $rc "GHES ARM sections decode"
has "$out" "ghes-arm.txt:3: uncorrected: Uncorrected ARM processor error on MPIDR 0x81080000 (HiSilicon TSV110 (Kunpeng 920) r1p0): cache error, transaction instruction"; ok $? "GHES ARM: old 'N, name' error type"
has "$out" "ghes-arm.txt:21: .*cache error, transaction data access, operation data write, level 2, multiple errors, physical address 0xdeadbeef"; ok $? "GHES ARM: 6.x '0xNN:' error type"
has "$out" "oem_len  *48"; ok $? "GHES ARM: vendor bytes from the hex dump"
has "$err" "ghes-arm.txt:64: the kernel found this firmware error section malformed"; ok $? "GHES ARM: the kernel's own refusal passed on"

out=$($CTL decode "$D/decode/ghes-unknown.txt"); rc=$?
ok $rc "GHES unknown sections decode"
# An Ampere Altra section (once unknown here): GIC record ERR0, ERR_STATUS 0xec30000e (V, AV, UE
# recoverable, overflow, SERR 0x0e illegal access), ERR_ADDR with its NS bit.
has "$out" "ghes-unknown.txt:5: uncorrected: Ampere Altra socket 0, GIC 0 ERR0: recoverable interrupt controller error, uncorrected (recoverable), illegal access (software fault), more errors overflowed the record, address 0x100100080110 (Ampere payload type 0 section)"; ok $? "GHES Ampere section: decoded by the vendor decoder"
has "$out" "raw_hex  *050000000e0030ec"; ok $? "GHES unknown section: bytes from the 32-bit hex dump groups"
has "$out" "ghes-unknown.txt:13: fatal: Fatal platform error in a Firmware Error Record Reference section: SOC Firmware Error Record Type1 (Legacy CrashLog Support), revision 0, record identifier 0x2000200000000, 656 bytes of data (only partly received)"; ok $? "BERT block without {N}: named GUID, its reference read, dump partly received"

# Processor and CXL protocol error sections (cper.c cper_print_proc_generic,
# cper-x86.c, cper_cxl.c), rebuilt and read by the non-standard section decoder.
decode_file ghes-processor.txt
ok $rc "GHES processor and CXL sections decode"
has "$out" "ghes-processor.txt:3: uncorrected: Recoverable platform error in a Processor Generic section: processor_type IA32/X64, processor_isa X64, error_type micro-architectural error"; ok $? "GHES general processor: the kernel's field names"
has "$out" "ghes-processor.txt:15: fatal: .*IA32/X64 section: Local APIC_ID 0x3c: cache error (Transaction Type Generic, .*Processor Context Corrupt, Uncorrected); .*MCA_STATUS 0xb2a0000000090108"; ok $? "GHES IA32/X64: check information and the MSR context's bank"
has "$out" "ghes-processor.txt:68: uncorrected: .*CXL Protocol Error section: CXL Device 0000:0d:00.0 \\[8086:0d93\\].*uncorrectable: Received Poison From Peer"; ok $? "GHES CXL protocol error: agent and RAS status"
has "$out" "ghes-processor.txt:57: fatal: .*Firmware Error Record Reference section: SOC Firmware Error Record Type2, revision 2, record identifier 8f87f311-c998-4d9e-a0c4-6065518c4f6d"; ok $? "GHES firmware error record reference: the kernel's fields"
has "$err" "ghes-processor.txt:65: IA32/X64 context line outside a context information structure"; ok $? "GHES IA32/X64: a misplaced line reported as file:line"
has "$err" "ghes-processor.txt:106: malformed CXL agent_address"; ok $? "GHES CXL: a malformed address reported as file:line"
! has "$err" "field outside a record"; ok $? "GHES IA32/X64: the CPUID Info line is not taken for mcelog's CPUID line"
has "$out" "ghes-processor.txt:109: uncorrected: .*DPA 0x12345000"; ok $? "GHES CXL component event: read by the CXL tracepoint decoder"
has "$out" "transaction_name  *Host Read"; ok $? "GHES CXL component event: the record's fields"

# rasdaemon's own output (util/ras-mc-ctl.in, ras-mc-handler.c,
# ras-aer-handler.c): --errors, --summary and --error-count rows, log lines.
# Rows quoted in public reports (see tests/decoders/test-rasd-text.c).
decode_file rasdaemon.txt
ok $rc "rasdaemon output decodes"
has "$out" "rasdaemon.txt:2: corrected: Corrected memory error at mc3, layers 1:0 (CPU_SrcID#1_MC#1_Chan#1_DIMM#0): 1 error, address 0x6e23d67fc0, grain 32 bytes"; ok $? "ras-mc-ctl memory row: location, decimal address, grain bits"
has "$out" "rasdaemon.txt:7: corrected: PCIe corrected error at 0000:d9:01.0: Advisory Non-Fatal Error, Header Log Overflow"; ok $? "ras-mc-ctl AER row: names and BIT15"
has "$out" "rasdaemon.txt:10: corrected: Corrected DRAM ECC error on socket 0 (Zen/Zen 2 (family 17h), bank 17 UMC)"; ok $? "ras-mc-ctl MCE row: registers, CPUID and the bank's name"
has "$out" "rasdaemon_message  *Corrected error, no action required."; ok $? "ras-mc-ctl MCE row: rasdaemon's words kept"
has "$out" "rasdaemon.txt:20: corrected: Corrected memory error at mc#0csrow#2channel#0: 4 errors; no data lost"; ok $? "--error-count row: a count at a label, no address claimed"
has "$out" "rasdaemon.txt:21: uncorrected: Uncorrected memory error at mc0: 1 error, address 0xe53218400"; ok $? "rasdaemon mc_event log line"
has "$out" "rasdaemon.txt:23: corrected: .*53 errors"; ok $? "--summary memory row: its count"
has "$out" "rasdaemon.txt:24: corrected: PCIe corrected error at 0000:00:1c.0 (Cannon Lake PCH PCI Express Root Port #5): Receiver Error, Bad TLP"; ok $? "rasdaemon aer_event log line"
has "$out" "rasdaemon.txt:25: corrected: Corrected memory read error on socket 0, memory controller 0, channel 0 (Skylake-SP, bank 7 M2M)"; ok $? "rasdaemon mce_record log line: model from its cpu_type"
has "$err" "rasdaemon.txt:15: rasdaemon AER record naming no error bit"; ok $? "a summary row naming no bit refused as file:line"

# rasdaemon's extlog, devlink, disk and memory failure rows and log lines,
# each read by the decoder of its tracepoint (see tests/decoders/test-rasd-text.c).
decode_file rasdaemon-other.txt
ok $rc "rasdaemon extlog, devlink, disk and memory failure output decodes"
has "$out" "rasdaemon-other.txt:1: srao: Hardware memory error on page pfn 0x204000000 (free buddy page): recovery Delayed"; ok $? "memory failure row"
has "$out" "rasdaemon-other.txt:3: fatal: Fatal memory error (multi-bit ECC) at physical address 0x12345000: node 1, card 0, module 2, rank 1, bank 5, row 4887"; ok $? "extlog row: type, address, location"
has "$out" "rasdaemon-other.txt:5: fatal: Driver mlx5_core reported a health problem on pci/0000:3b:00.0 (reporter fw_fatal): Crdump taken"; ok $? "devlink row"
has "$out" "rasdaemon-other.txt:8: uncorrected: Critical medium error on 8:16, read of 8 sectors at sector 123456"; ok $? "disk row: the errno behind rasdaemon's name"
has "$out" "rasdaemon_message  *critical medium error"; ok $? "disk row: rasdaemon's name kept"
has "$out" "rasdaemon-other.txt:11: fatal: .*(mask lsb 12): node 1, card 0, rank 1, memory device handle 0x21; FRU DIMM_A1"; ok $? "extlog_mem_event log line"
has "$out" "rasdaemon-other.txt:13: uncorrected: Hardware memory error on page pfn 0x1a2b3 (kernel slab page): recovery Ignored"; ok $? "memory_failure_event log line"
has "$err" "rasdaemon-other.txt:9: rasdaemon disk error row whose error rasdaemon could not name"; ok $? "disk row without an errno refused as file:line"
has "$err" "rasdaemon-other.txt:15: malformed rasdaemon extlog_mem_event line"; ok $? "a malformed extlog log line refused as file:line"
out=$($CTL decode --json "$D/decode/rasdaemon-other.txt" 2>/dev/null)
has "$out" '"type":"memfail"'; ok $? "--json: memory failure type"
has "$out" '"type":"blockerr"'; ok $? "--json: block error type"
has "$out" '"type":"devlink"'; ok $? "--json: devlink type"

# Firmware-first PCIe errors: the GHES event severity, then the device's
# aer_status/aer_mask lines (drivers/firmware/efi/cper.c, drivers/pci/pcie/aer.c cper_print_aer).
out=$($CTL decode "$D/decode/ghes-aer.txt"); rc=$?
ok $rc "GHES AER records decode"
has "$out" "ghes-aer.txt:18: corrected: PCIe corrected error at 0000:3b:00.0: Receiver Error"; ok $? "GHES corrected: severity from the event, status from aer_status"
has "$out" "ghes-aer.txt:27: uncorrected: PCIe uncorrected non-fatal error at 0000:5e:00.0: Completion Timeout"; ok $? "GHES recoverable is non-fatal"
has "$out" "tlp_header_text  *00000001 0000000f 00001000 00000000"; ok $? "GHES: the device's TLP header, not the section's"
ok $([ "$(grep -c 'PCIe .* error at' <<<"$out")" = 2 ] && echo 0 || echo 1) "GHES: two records, no duplicate"

# A healthy machine's dmesg: no record, and not one warning about its lines.
$CTL decode "$D/decode/healthy-dmesg.txt" >/dev/null 2>"$W/decode.err"
err=$(cat "$W/decode.err")
! grep -q "healthy-dmesg.txt:[0-9]" <<<"$err"; ok $? "healthy dmesg: no file:line warning"

for f in "$D"/mcelog/*; do
	case "$f" in *README*|*.inject.txt) continue ;; esac
	out=$($CTL decode "$f" 2>&1); rc=$?
	ok $rc "public mcelog input $(basename "$f") decodes without error"
done

echo "1..$n"
[ $failed = 0 ]
