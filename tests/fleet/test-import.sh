#!/bin/bash
# SPDX-License-Identifier: MIT
# ras-fdr-ctl import rasdaemon: databases built with rasdaemon's own schema (0.8
# with every table, 0.6 as Debian 12 ships it) are imported with source
# "imported", the fields land where the tracepoint has them, machine checks
# decode exactly as ras-fdr-ctl decode does, and a second import adds nothing.
set -u
top_srcdir=${top_srcdir:-.}
top_builddir=${top_builddir:-.}
CTL=$top_builddir/ctl/ras-fdr-ctl
command -v sqlite3 >/dev/null || { echo "1..0 # SKIP no sqlite3 CLI"; exit 77; }
n=0 failed=0
ok() { n=$((n+1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed+1)); fi; }
is() { ok "$([ "$1" = "$2" ] && echo 0 || echo 1)" "$3 (got '$1', want '$2')"; }
WORK=$(mktemp -d /tmp/ras-fdr-import-XXXXXX)
trap 'rm -rf "$WORK"' EXIT
DB=$WORK/ras.db
RD=$WORK/ras-mc_event.db
q() { sqlite3 "file:$DB?mode=ro" "$1" 2>/dev/null; }
ctl() { "$CTL" --config /dev/null --db "$DB" "$@"; }

sqlite3 "$RD" < "$top_srcdir/tests/fleet/rasdaemon-0.8.sql"
sqlite3 "$RD" <<'SQL'
INSERT INTO mc_event VALUES (NULL, '2024-03-01 10:00:00 +0100', 2, 'Corrected', 'memory read error', 'DIMM_A1', 0, 0, 1, -1, 4096, 6, 0, '');
INSERT INTO mc_event VALUES (NULL, '2024-03-01 10:01:00 +0000', 1, 'Uncorrected', 'memory scrub error', 'DIMM_B2', 1, 0, 2, -1, 8192, 12, 7, 'detail');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:00 +0000', '0000:00:1c.0', 'Corrected', 'Receiver Error');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:01 +0000', '0000:00:1c.0', 'Uncorrected (Fatal)', 'Surprise Down Error');
INSERT INTO aer_event VALUES (NULL, '2024-03-02 09:00:02 +0000', '0000:3b:00.0', 'Uncorrected (Non-Fatal)', 'Poisoned TLP Egress Blocked');
-- Intel Skylake-SP (CPUID 0x50654), bank 7, the README's corrected memory read error.
INSERT INTO mce_record (timestamp, mcgcap, mcgstatus, status, addr, misc, ip, tsc, walltime, ppin, cpu, cpuid, apicid, socketid, cs, bank, cpuvendor, microcode, bank_name, error_msg)
  VALUES ('2024-03-01 11:00:00 +0000', 0, 0, -8358680633521667952, 0, 0, 0, 0, 1709290800, 0, 2, 329300, 4, 0, 0, 7, 0, 0, 'M2M', 'rasdaemon words');
INSERT INTO extlog_event VALUES (NULL, '2024-03-03 00:00:00 +0000', 2, 77, 1, 305419896, x'00112233445566778899aabbccddeeff', 'DIMM 3', x'0102');
INSERT INTO non_standard_event VALUES (NULL, '2024-03-03 00:00:01 +0000', x'0102030405060708090a0b0c0d0e0f10', x'00', 'fru', 'Fatal', x'deadbeef00');
INSERT INTO arm_event (timestamp, error_count, affinity, mpidr, running_state, psci_state, err_info, context_info, vendor_info) VALUES ('2024-03-03 00:00:02 +0000', 1, 0, 257, 1, 0, x'00112233', x'aabb', NULL);
INSERT INTO devlink_event VALUES (NULL, '2024-03-03 00:00:03 +0000', 'pci', '0000:af:00.0', 'mlx5_core', 'fw_fatal', 'firmware fatal');
-- rasdaemon's net_dev_xmit_timeout: a devlink_event without bus or reporter.
INSERT INTO devlink_event VALUES (NULL, '2024-03-03 00:00:16 +0000', '', 'eth0', 'e1000e', '', 'TX timeout on queue: 3' || char(10));
INSERT INTO disk_errors VALUES (NULL, '2024-03-03 00:00:04 +0000', '8:16', 2048, 8, 'I/O error', 'R', '');
INSERT INTO memory_failure_event VALUES (NULL, '2024-03-03 00:00:05 +0000', '0x1234', 'free buddy page', 'Recovered');
INSERT INTO cxl_poison_event (timestamp, memdev, host, serial, trace_type, region, dpa, dpa_length, source, flags) VALUES ('2024-03-03 00:00:06 +0000', 'mem0', '0000:0d:00.0', 5, 'List', 'region0', 4096, 64, 'Injected', 0);
INSERT INTO cxl_aer_ue_event VALUES (NULL, '2024-03-03 00:00:07 +0000', 'mem0', '0000:0d:00.0', 5, 256, 8, x'00');
INSERT INTO cxl_aer_ce_event VALUES (NULL, '2024-03-03 00:00:08 +0000', 'mem0', '0000:0d:00.0', 5, 1);
INSERT INTO cxl_overflow_event VALUES (NULL, '2024-03-03 00:00:09 +0000', 'mem0', '0000:0d:00.0', 5, 'Failure', 3, '', '');
INSERT INTO cxl_generic_event (timestamp, memdev, host, serial, log_type, hdr_flags, data) VALUES ('2024-03-03 00:00:10 +0000', 'mem0', '0000:0d:00.0', 5, 'Warning', 1, x'00');
INSERT INTO cxl_general_media_event (timestamp, memdev, host, serial, log_type, dpa, descriptor, type, transaction_type, channel, rank, device) VALUES ('2024-03-03 00:00:11 +0000', 'mem0', '0000:0d:00.0', 5, 'Informational', 8192, 1, 0, 1, 0, 0, 0);
INSERT INTO cxl_dram_event (timestamp, memdev, host, serial, log_type, dpa, bank, row, column) VALUES ('2024-03-03 00:00:12 +0000', 'mem0', '0000:0d:00.0', 5, 'Fatal', 8192, 3, 100, 7);
INSERT INTO cxl_memory_module_event (timestamp, memdev, host, serial, log_type, event_type, health_status, device_temp) VALUES ('2024-03-03 00:00:13 +0000', 'mem0', '0000:0d:00.0', 5, 'Warning', 1, 2, 45);
INSERT INTO signal_event VALUES (NULL, '2024-03-03 00:00:14 +0000', 7, 0, 4, 'a.out', 42, 0, 0);
-- Column names as rasdaemon gives its other CXL tables (tracepoint names, log as log_type).
CREATE TABLE cxl_memory_sparing_event (id INTEGER PRIMARY KEY, timestamp TEXT, memdev TEXT, host TEXT, serial INTEGER, log_type TEXT, hdr_flags INTEGER, hdr_maint_op_class INTEGER, hdr_maint_op_sub_class INTEGER, flags INTEGER, result INTEGER, validity_flags INTEGER, res_avail INTEGER, channel INTEGER, rank INTEGER, nibble_mask INTEGER, bank_group INTEGER, bank INTEGER, row INTEGER, column INTEGER, sub_channel INTEGER, comp_id BLOB);
INSERT INTO cxl_memory_sparing_event (timestamp, memdev, host, serial, log_type, hdr_maint_op_class, hdr_maint_op_sub_class, flags, result, validity_flags, res_avail, channel, rank, bank_group, bank, row, column) VALUES ('2024-03-03 00:00:15 +0000', 'mem0', '0000:0d:00.0', 5, 'Informational', 2, 1, 6, 0, 123, 1, 2, 5, 2, 4, 13, 23);
-- A table of a rasdaemon newer than this ras-fdr.
CREATE TABLE some_future_event (id INTEGER PRIMARY KEY, timestamp TEXT, x INTEGER);
SQL

out=$(ctl import rasdaemon "$RD"); rc=$?
is "$rc" 0 "import exits 0"
declare -A dst=([mc_event]=mc_event [aer_event]=aer_event [mce_record]=mce_record
	[extlog_event]=extlog_mem_event [non_standard_event]=non_standard_event [arm_event]=arm_event
	[devlink_event]=devlink_health_report [disk_errors]=block_rq_error
	[memory_failure_event]=memory_failure_event [cxl_poison_event]=cxl_poison
	[cxl_aer_ue_event]=cxl_aer_uncorrectable_error [cxl_aer_ce_event]=cxl_aer_correctable_error
	[cxl_overflow_event]=cxl_overflow [cxl_generic_event]=cxl_generic_event
	[cxl_general_media_event]=cxl_general_media [cxl_dram_event]=cxl_dram
	[cxl_memory_module_event]=cxl_memory_module [cxl_memory_sparing_event]=cxl_memory_sparing
	[signal_event]=signal_generate)
# devlink_event's transmit timeouts go to net_dev_xmit_timeout (below).
declare -A where=([devlink_event]="WHERE msg NOT LIKE 'TX timeout on queue: %'")
total=0
for src in "${!dst[@]}"; do
	rows=$(sqlite3 "$RD" "SELECT count(*) FROM $src ${where[$src]:-}")
	total=$((total + rows))
	grep -Eq "^$src +-> ${dst[$src]} +$rows rows: $rows imported, 0 already present$" <<<"$out"
	ok $? "import prints $src -> ${dst[$src]}: $rows imported"
	is "$(q "SELECT count(*) FROM ${dst[$src]} WHERE source = 'imported'")" "$rows" "${dst[$src]} holds the $rows rows of $src"
done
grep -Eq "^devlink_event +-> net_dev_xmit_timeout +1 rows: 1 imported, 0 already present$" <<<"$out"
ok $? "import prints devlink_event -> net_dev_xmit_timeout: 1 imported"
total=$((total + 1))
is "$(q "SELECT name || '/' || driver || '/' || queue_index || '/' || severity FROM net_dev_xmit_timeout_decoded")" \
	"eth0/e1000e/3/uncorrected" "devlink_event's 'TX timeout on queue: 3' is a net_dev_xmit_timeout of eth0 (e1000e), queue 3"
grep -q "^some_future_event .*not imported" <<<"$out"; ok $? "a table without an equivalent is named as not imported"
grep -q "^Total: $total imported, 0 already present.$" <<<"$out"; ok $? "total line: $total imported"

# Times, boots and severities.
is "$(q "SELECT wall_ns FROM mc_event ORDER BY id LIMIT 1")" 1709283600000000000 "'10:00:00 +0100' is 09:00:00 UTC"
is "$(q "SELECT DISTINCT b.boot_id FROM mc_event e JOIN boots b ON b.id = e.boot")" "imported:rasdaemon" "imported rows belong to the boot 'imported:rasdaemon'"
is "$(q "SELECT group_concat(error_type || '/' || severity || '/' || grain_bits || '/' || mc_index || '/' || error_count, ' ') FROM mc_event")" \
	"0/corrected/6/0/2 1/uncorrected/12/1/1" "mc_event: err_type, grain, mc and err_count land in error_type, grain_bits, mc_index, error_count"
is "$(q "SELECT group_concat(severity || '/' || status || '/' || severity, ' ') FROM (SELECT e.severity AS severity, e.status AS status FROM aer_event e ORDER BY e.id)")" \
	"corrected/1/corrected fatal/32/fatal uncorrected/67108864/uncorrected" \
	"aer_event: status rebuilt from the bit names (RxErr bit 0, SDES bit 5, Poisoned TLP Egress Blocked bit 26)"
is "$(q "SELECT group_concat(raw_severity, ' ') FROM aer_event")" "2 1 0" \
	"aer_event: 'Corrected', 'Uncorrected (Fatal)', 'Uncorrected (Non-Fatal)' are AER_CORRECTABLE 2, AER_FATAL 1, AER_NONFATAL 0"
is "$(q "SELECT pfn || '/' || result FROM memory_failure_event")" "4660/3" "memory_failure_event: pfn '0x1234' and 'Recovered' (MF_RECOVERED 3)"
is "$(q "SELECT dev FROM block_rq_error")" $(( (8 << 20) | 16 )) "disk_errors: dev '8:16' becomes the kernel's dev_t"
is "$(q "SELECT sev || '/' || len || '/' || hex(buf) FROM non_standard_event")" "1/5/DEADBEEF00" "non_standard_event: 'Fatal' is CPER 1, len is the blob's length"
is "$(q "SELECT pei_len || '/' || ctx_len || '/' || hex(pei_buf) FROM arm_event")" "4/2/00112233" "arm_event: the error-information and context buffers"
is "$(q "SELECT err_seq || '/' || sev || '/' || pa FROM extlog_mem_event")" "77/1/305419896" "extlog_event: error_count, severity, address to err_seq, sev, pa"
is "$(q "SELECT status FROM cxl_aer_uncorrectable_error")" 256 "cxl_aer_ue_event: error_status to status"
is "$(q "SELECT group_concat(log, ' ') FROM (SELECT log FROM cxl_overflow UNION ALL SELECT log FROM cxl_generic_event UNION ALL SELECT log FROM cxl_general_media UNION ALL SELECT log FROM cxl_dram UNION ALL SELECT log FROM cxl_memory_module)")" \
	"2 1 0 3 1" "CXL log_type names become the event log numbers"
is "$(q "SELECT sig || '/' || errno || '/' || code || '/' || comm || '/' || pid || '/' || \"group\" || '/' || result || '/' || severity FROM signal_generate_decoded")" \
	"7/0/4/a.out/42/0/0/srar" "signal_event: errorno, grp and res to errno, group and result; BUS_MCEERR_AR is srar"
# (the page type's name comes from the installed memory_failure_event format, if there is one)
ctl errors --type signal_generate | grep -q 'Process `a.out` (pid 42) was killed: it consumed poisoned memory at pfn 0x1234 (.*recovery Recovered, 9 s before)'
ok $? "the imported SIGBUS names the process and the imported memory failure's page"
# Every imported record exports, the SIGBUS with its linked memory failure, in the export schema.
ctl export --cursor-file "$WORK/cursor" > "$WORK/export" 2>/dev/null
grep '"type":"signal_generate"' "$WORK/export" | grep -q '"memory_failure":{"id":[0-9]*,.*"pfn":"0x1234"'
ok $? "export: the SIGBUS line carries its memory failure (pfn 0x1234)"
if /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	/usr/bin/python3 "$top_srcdir/tests/fleet/validate-export.py" "$top_srcdir/doc/schema" "$WORK/export" 2>/dev/null
	ok $? "every imported record's export line validates against doc/schema (memory_failure included)"
fi
is "$(q "SELECT record_type || '; ' || detail FROM cxl_memory_sparing_decoded")" \
	"row sparing (hard, device initiated); channel 2, rank 5, bank group 2, bank 4, row 13, column 23; the sparing succeeded; spare resources available: 1" \
	"cxl_memory_sparing_event: decoded as the tracepoint's record"

# The machine check decodes as ras-fdr-ctl decode mce says for the same registers.
want=$("$CTL" --config /dev/null decode mce --vendor intel --family 6 --model 0x55 --stepping 4 --bank 7 \
	--status 0x8c00004000010090 --cpu 2 --socket 0 | head -1)
got=$(ctl errors --type mce_record --json | sed -n 's/.*"severity":"\([a-z]*\)".*"summary":"\([^"]*\)".*/\1: \2/p')
is "$got" "$want" "the imported machine check decodes like 'decode mce' with its registers"
is "$(q "SELECT severity FROM mce_record")" corrected "mce_record severity column"

# Nothing rasdaemon said is lost: the source row is kept whole.
q "SELECT details FROM imported_rows WHERE src_table = 'mce_record'" | grep -q '"error_msg":"rasdaemon words"'
ok $? "imported_rows keeps the source row as JSON"

# Idempotent.
before=$(q "SELECT count(*) FROM imported_rows")
out=$(ctl import rasdaemon "$RD"); rc=$?
is "$rc" 0 "second import exits 0"
grep -q "^Total: 0 imported, $total already present.$" <<<"$out"; ok $? "second import adds nothing ($total already present)"
is "$(q "SELECT count(*) FROM imported_rows")" "$before" "imported_rows unchanged"
is "$(q "SELECT count(*) FROM mc_event")" 2 "mc_event still 2 rows"
sqlite3 "$RD" "INSERT INTO mc_event VALUES (NULL, '2024-04-01 00:00:00 +0000', 1, 'Fatal', 'x', 'DIMM_C3', 0, 0, 0, -1, 0, 6, 0, '')"
out=$(ctl import rasdaemon "$RD")
grep -q "^mc_event .* 3 rows: 1 imported, 2 already present$" <<<"$out"; ok $? "a row added to rasdaemon's database later is imported alone"
is "$(q "SELECT severity FROM mc_event ORDER BY id DESC LIMIT 1")" fatal "'Fatal' is HW_EVENT_ERR_FATAL"

# rasdaemon 0.6 (Debian 12): fewer columns; missing ones stay NULL.
RD6=$WORK/rd6.db
sqlite3 "$RD6" < "$top_srcdir/tests/fleet/rasdaemon-0.6.sql"
sqlite3 "$RD6" "INSERT INTO mce_record (timestamp, mcgcap, mcgstatus, status, addr, misc, ip, tsc, walltime, cpu, cpuid, apicid, socketid, cs, bank, cpuvendor) VALUES ('2023-01-01 00:00:00 +0000', 0, 0, -8358680633521667952, 0, 0, 0, 0, 0, 1, 329300, 2, 0, 0, 7, 0);
INSERT INTO arm_event VALUES (NULL, '2023-01-01 00:00:01 +0000', 1, 0, 257, 1, 0);"
out=$(ctl import rasdaemon "$RD6"); rc=$?
is "$rc" 0 "a rasdaemon 0.6 database imports"
grep -q "^Total: 2 imported, 0 already present.$" <<<"$out"; ok $? "0.6: 2 rows imported"
is "$(q "SELECT count(*) FROM mce_record WHERE ppin IS NULL AND severity = 'corrected'")" 1 "0.6 mce_record: no ppin column, decoded"
is "$(q "SELECT count(*) FROM arm_event WHERE pei_buf IS NULL AND mpidr = 257")" 1 "0.6 arm_event: no buffers"

# Refusals.
sqlite3 "$WORK/other.db" "CREATE TABLE t (x)"
ctl import rasdaemon "$WORK/other.db" 2>"$WORK/err" >/dev/null; rc=$?
ok "$([ $rc = 1 ] && grep -q "not a rasdaemon database" "$WORK/err" && echo 0 || echo 1)" "a database without mc_event is refused"
ctl import rasdaemon "$WORK/missing.db" >/dev/null 2>&1; rc=$?
is "$rc" 1 "a missing file is an error"
ctl import mcelog >/dev/null 2>&1; rc=$?
is "$rc" 2 "an unknown source is a usage error"

echo "1..$n"
[ $failed = 0 ]
