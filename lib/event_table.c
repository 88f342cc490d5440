/* SPDX-License-Identifier: MIT */
/*
 * The RAS tracepoints ras-fdr records. Field lists follow the kernel's
 * format files (include/trace/events/mce.h, include/ras/ras_event.h,
 * include/trace/events/devlink.h, include/trace/events/block.h,
 * include/trace/events/signal.h, include/trace/events/net.h,
 * drivers/cxl/core/trace.h); fields added in later kernels are optional.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "event_table.h"
#include "event_fields.h"
#include "decode.h"
#include "decoders/edac.h"
#include "decoders/sigbus.h"

#define F(n, t) { #n, RAS_FT_##t, 0 }
#define OPT(n, t) { #n, RAS_FT_##t, RAS_F_OPTIONAL }
/* Registers and addresses (hex), 64-bit counters and timestamps (decimal), for --json. */
#define HEX(n) { #n, RAS_FT_INT, RAS_F_HEX }
#define OPT_HEX(n) { #n, RAS_FT_INT, RAS_F_OPTIONAL | RAS_F_HEX }
#define WIDE(n) { #n, RAS_FT_INT, RAS_F_WIDE }
#define OPT_WIDE(n) { #n, RAS_FT_INT, RAS_F_OPTIONAL | RAS_F_WIDE }

static const struct ras_field mce_fields[MCE_F_COUNT] = {
	[MCE_F_MCGCAP] = HEX(mcgcap), [MCE_F_MCGSTATUS] = HEX(mcgstatus),
	[MCE_F_STATUS] = HEX(status), [MCE_F_ADDR] = HEX(addr),
	[MCE_F_MISC] = HEX(misc),
	/* synd and ipid arrived with AMD SMCA (v4.x); ppin and microcode in v6.10;
	 * v_data (vendor data, variable length) around v6.14. */
	[MCE_F_SYND] = OPT_HEX(synd), [MCE_F_IPID] = OPT_HEX(ipid),
	[MCE_F_IP] = HEX(ip), [MCE_F_TSC] = WIDE(tsc),
	[MCE_F_PPIN] = OPT_HEX(ppin), [MCE_F_WALLTIME] = WIDE(walltime),
	[MCE_F_CPU] = F(cpu, INT), [MCE_F_CPUID] = F(cpuid, INT),
	[MCE_F_APICID] = F(apicid, INT), [MCE_F_SOCKETID] = F(socketid, INT),
	[MCE_F_CS] = F(cs, INT), [MCE_F_BANK] = F(bank, INT),
	[MCE_F_CPUVENDOR] = F(cpuvendor, INT),
	[MCE_F_MICROCODE] = OPT(microcode, INT), [MCE_F_V_DATA] = OPT(v_data, BLOB),
};

static const struct ras_field mc_fields[MC_F_COUNT] = {
	[MC_F_ERROR_TYPE] = F(error_type, INT), [MC_F_MSG] = F(msg, TEXT),
	[MC_F_LABEL] = F(label, TEXT), [MC_F_ERROR_COUNT] = F(error_count, INT),
	[MC_F_MC_INDEX] = F(mc_index, INT), [MC_F_TOP_LAYER] = F(top_layer, INT),
	[MC_F_MIDDLE_LAYER] = F(middle_layer, INT),
	[MC_F_LOWER_LAYER] = F(lower_layer, INT), [MC_F_ADDRESS] = HEX(address),
	[MC_F_GRAIN_BITS] = F(grain_bits, INT), [MC_F_SYNDROME] = HEX(syndrome),
	[MC_F_DRIVER_DETAIL] = F(driver_detail, TEXT),
};

static const struct ras_field aer_fields[AER_F_COUNT] = {
	[AER_F_DEV_NAME] = F(dev_name, TEXT), [AER_F_STATUS] = HEX(status),
	[AER_F_SEVERITY] = F(severity, INT),
	/* The TLP header log arrived around v4.16. */
	[AER_F_TLP_HEADER_VALID] = OPT(tlp_header_valid, INT),
	[AER_F_TLP_HEADER] = OPT(tlp_header, BLOB),
};

static const struct ras_field extlog_fields[EXTLOG_F_COUNT] = {
	[EXTLOG_F_ERR_SEQ] = F(err_seq, INT), [EXTLOG_F_ETYPE] = F(etype, INT),
	[EXTLOG_F_SEV] = F(sev, INT), [EXTLOG_F_PA] = HEX(pa),
	[EXTLOG_F_PA_MASK_LSB] = F(pa_mask_lsb, INT),
	[EXTLOG_F_FRU_ID] = F(fru_id, BLOB), [EXTLOG_F_FRU_TEXT] = F(fru_text, TEXT),
	[EXTLOG_F_DATA] = F(data, BLOB),
};

static const struct ras_field nonstd_fields[NONSTD_F_COUNT] = {
	[NONSTD_F_SEC_TYPE] = F(sec_type, BLOB), [NONSTD_F_FRU_ID] = F(fru_id, BLOB),
	[NONSTD_F_FRU_TEXT] = F(fru_text, TEXT), [NONSTD_F_SEV] = F(sev, INT),
	[NONSTD_F_LEN] = F(len, INT), [NONSTD_F_BUF] = F(buf, BLOB),
};

static const struct ras_field arm_fields[ARM_F_COUNT] = {
	[ARM_F_MPIDR] = HEX(mpidr), [ARM_F_MIDR] = HEX(midr),
	[ARM_F_RUNNING_STATE] = F(running_state, INT),
	[ARM_F_PSCI_STATE] = F(psci_state, INT), [ARM_F_AFFINITY] = F(affinity, INT),
	/* The error-information, context and vendor buffers, sev and cpu came
	 * with the 2025 "report all ARM processor CPER information" work. */
	[ARM_F_PEI_LEN] = OPT(pei_len, INT), [ARM_F_PEI_BUF] = OPT(pei_buf, BLOB),
	[ARM_F_CTX_LEN] = OPT(ctx_len, INT), [ARM_F_CTX_BUF] = OPT(ctx_buf, BLOB),
	[ARM_F_OEM_LEN] = OPT(oem_len, INT), [ARM_F_OEM_BUF] = OPT(oem_buf, BLOB),
	[ARM_F_SEV] = OPT(sev, INT), [ARM_F_CPU] = OPT(cpu, INT),
};

static const struct ras_field memfail_fields[MF_F_COUNT] = {
	[MF_F_PFN] = HEX(pfn), [MF_F_TYPE] = F(type, INT),
	[MF_F_RESULT] = F(result, INT),
};

static const struct ras_field devlink_fields[DL_F_COUNT] = {
	[DL_F_BUS_NAME] = F(bus_name, TEXT), [DL_F_DEV_NAME] = F(dev_name, TEXT),
	[DL_F_DRIVER_NAME] = F(driver_name, TEXT),
	[DL_F_REPORTER_NAME] = F(reporter_name, TEXT), [DL_F_MSG] = F(msg, TEXT),
};

static const struct ras_field blockerr_fields[BLK_F_COUNT] = {
	[BLK_F_DEV] = F(dev, INT), [BLK_F_SECTOR] = WIDE(sector),
	[BLK_F_NR_SECTOR] = F(nr_sector, INT), [BLK_F_ERROR] = F(error, INT),
	[BLK_F_IOPRIO] = OPT(ioprio, INT), [BLK_F_RWBS] = F(rwbs, TEXT),
	[BLK_F_CMD] = F(cmd, TEXT),
};

/* signal_generate: every signal the kernel sends; rasd keeps the memory-failure SIGBUS. */
static const struct ras_field sigbus_fields[SIG_F_COUNT] = {
	[SIG_F_SIG] = F(sig, INT), [SIG_F_ERRNO] = F(errno, INT), [SIG_F_CODE] = F(code, INT),
	[SIG_F_COMM] = F(comm, TEXT), [SIG_F_PID] = F(pid, INT), [SIG_F_GROUP] = F(group, INT),
	[SIG_F_RESULT] = F(result, INT),
};

static const struct ras_field netdev_fields[NET_F_COUNT] = {
	[NET_F_NAME] = F(name, TEXT), [NET_F_DRIVER] = F(driver, TEXT),
	[NET_F_QUEUE_INDEX] = F(queue_index, INT),
};

/*
 * SIGBUS is the number of this machine's architecture (7 on x86 and arm64,
 * 10 on a few others), as the running kernel's; the BUS_MCEERR_* codes are
 * the same everywhere.
 */
static const struct ras_keep sigbus_keep = {
	2, { { "sig", false, 1, { SIGBUS } },
	     { "code", false, 2, { SIGBUS_MCEERR_AR, SIGBUS_MCEERR_AO } } },
};
/* A completion with an error; block_rq_error reports nothing else. */
static const struct ras_keep failed_request = { 1, { { "error", true, 1, { 0 } } } };

/*
 * CXL: drivers/cxl/core/trace.h (module cxl_core, Linux 6.2 and later). The
 * CXL r3.1 fields, the memory-module r3.1 fields and hpa_alias0 came later
 * (up to 6.18) and are optional.
 */
static const struct ras_field cxl_aer_ue_fields[] = {
	F(memdev, TEXT), F(host, TEXT), HEX(serial), HEX(status),
	HEX(first_error), F(header_log, BLOB),
};

static const struct ras_field cxl_aer_ce_fields[] = {
	F(memdev, TEXT), F(host, TEXT), HEX(serial), HEX(status),
};

static const struct ras_field cxl_overflow_fields[] = {
	F(memdev, TEXT), F(host, TEXT), F(log, INT), HEX(serial),
	WIDE(first_ts), WIDE(last_ts), F(count, INT),
};

#define CXL_HDR_FIELDS \
	F(memdev, TEXT), F(host, TEXT), F(log, INT), F(hdr_uuid, BLOB), \
	HEX(serial), F(hdr_flags, INT), F(hdr_handle, INT), \
	F(hdr_related_handle, INT), WIDE(hdr_timestamp), F(hdr_length, INT), \
	F(hdr_maint_op_class, INT), OPT(hdr_maint_op_sub_class, INT)

static const struct ras_field cxl_generic_fields[] = {
	CXL_HDR_FIELDS, F(data, BLOB),
};

#define CXL_MEDIA_COMMON \
	HEX(dpa), F(descriptor, INT), F(type, INT), F(transaction_type, INT), \
	F(channel, INT), F(rank, INT), OPT(dpa_flags, INT), OPT_HEX(hpa), \
	OPT_HEX(hpa_alias0), OPT(region_uuid, BLOB), OPT(region_name, TEXT), \
	F(validity_flags, INT), OPT(sub_type, INT), OPT(cme_threshold_ev_flags, INT)

static const struct ras_field cxl_media_fields[] = {
	CXL_HDR_FIELDS, CXL_MEDIA_COMMON, F(device, INT), F(comp_id, BLOB), OPT(cme_count, INT),
};

static const struct ras_field cxl_dram_fields[] = {
	CXL_HDR_FIELDS, CXL_MEDIA_COMMON, F(nibble_mask, INT), F(bank_group, INT),
	F(bank, INT), F(row, INT), F(column, INT), F(cor_mask, BLOB),
	OPT(sub_channel, INT), OPT(comp_id, BLOB), OPT(cvme_count, INT),
};

static const struct ras_field cxl_module_fields[] = {
	CXL_HDR_FIELDS, F(event_type, INT), F(health_status, INT),
	F(media_status, INT), F(life_used, INT), F(dirty_shutdown_cnt, INT),
	F(cor_vol_err_cnt, INT), F(cor_per_err_cnt, INT), F(device_temp, INT),
	F(add_status, INT), OPT(event_sub_type, INT), OPT(comp_id, BLOB),
	OPT(validity_flags, INT),
};

/* Added after 6.18 (the memory sparing series of the CXL tree). */
static const struct ras_field cxl_sparing_fields[] = {
	CXL_HDR_FIELDS, F(flags, INT), F(result, INT), F(validity_flags, INT), F(res_avail, INT),
	F(channel, INT), F(rank, INT), F(nibble_mask, INT), F(bank_group, INT), F(bank, INT),
	F(row, INT), F(column, INT), F(sub_channel, INT), F(comp_id, BLOB),
};

static const struct ras_field cxl_poison_fields[] = {
	F(memdev, TEXT), F(host, TEXT), HEX(serial), F(trace_type, INT),
	F(region, TEXT), WIDE(overflow_ts), HEX(hpa), OPT_HEX(hpa_alias0), HEX(dpa),
	F(dpa_length, INT), F(uuid, BLOB), F(source, INT), F(flags, INT),
};

/*
 * Summary locations of the types whose location names an address. A memory
 * failure's location is its page: summarised by what the page held and what
 * the kernel did (the tracepoint names no node or DIMM). A CXL media, DRAM or
 * poison record's location ends with its DPA: summarised per device and region.
 */
static const struct ras_sumloc memfail_sumloc = {
	" pfn ", { { ", ", "type_name" }, { ", recovery ", "result_name" } },
};
static const struct ras_sumloc cxl_dpa_sumloc = { ", DPA ", { { NULL } } };
/* A killed process is counted by its name, not by each pid it had. */
static const struct ras_sumloc process_sumloc = { ", pid ", { { NULL } } };

#define N(a) (unsigned)(sizeof(a) / sizeof((a)[0]))
/* A field list longer than RAS_MAX_FIELDS does not compile. */
#define FIELDS(a) a, (N(a) + 0 * sizeof(char[N(a) <= RAS_MAX_FIELDS ? 1 : -1]))
#define DECODER(name) name##_dfields, &name##_n_dfields, adapt_##name, render_##name

/* An EDAC driver reports how many errors one mc_event stands for. */
static const struct ras_dfield edac_errors = RAS_DF_I(struct edac_decoded, error_count);

const struct ras_event_type ras_event_types[] = {
	{ "mce", "mce_record", NULL, "mce_record", "machine check",
	  FIELDS(mce_fields), DECODER(mce), NULL,
	  "e41a1d8a091849f289861ebbcf4f253a", NULL, NULL, NULL, NULL },
	/* The decoded label is the configured one where the kernel had none. */
	{ "ras", "mc_event", NULL, "mc_event", "memory controller error",
	  FIELDS(mc_fields), DECODER(edac), "label",
	  "92567467f2704b979ef87cefdf3072a0", NULL, &edac_errors, NULL, NULL },
	{ "ras", "aer_event", NULL, "aer_event", "PCIe AER error",
	  FIELDS(aer_fields), DECODER(aer), NULL,
	  "c59606bc94b241a2966b9bd5278bd232", NULL, NULL, NULL, NULL },
	{ "ras", "extlog_mem_event", NULL, "extlog_mem_event", "extended log memory error",
	  FIELDS(extlog_fields), DECODER(extlog), NULL,
	  "db819a2a5c1e4ab4aba5042e8d36fdc4", NULL, NULL, NULL, NULL },
	{ "ras", "non_standard_event", NULL, "non_standard_event", "platform error (CPER)",
	  FIELDS(nonstd_fields), DECODER(nonstd), NULL,
	  "4d4b72deb0b241b78fe7d45b1a5b90d6", NULL, NULL, NULL, NULL },
	{ "ras", "arm_event", NULL, "arm_event", "ARM processor error",
	  FIELDS(arm_fields), DECODER(arm), NULL,
	  "5d8c01e139424546bb33f301bcffb96f", NULL, NULL, NULL, NULL },
	/* A late-2025 patch moves this event to its own system. */
	{ "ras", "memory_failure_event", "memory_failure", "memory_failure_event",
	  "memory failure", FIELDS(memfail_fields), DECODER(memfail), NULL,
	  "9e645356e0224ee19eb5c2e73be90cee", &memfail_sumloc, NULL, NULL, NULL },
	{ "devlink", "devlink_health_report", NULL, "devlink_health_report",
	  "device health report", FIELDS(devlink_fields), DECODER(devlink), NULL,
	  "88c9b4c681014a6e87e393dedd103b9d", NULL, NULL, NULL, NULL },
	{ "block", "block_rq_error", NULL, "block_rq_error", "block I/O error",
	  FIELDS(blockerr_fields), DECODER(blockerr), NULL,
	  "aef3631d984442e9a318219030082b1e", NULL, NULL, NULL, NULL },
	{ "cxl", "cxl_aer_uncorrectable_error", NULL, "cxl_aer_uncorrectable_error",
	  "CXL uncorrectable error", FIELDS(cxl_aer_ue_fields),
	  DECODER(cxl), NULL, "c2ed468202354c5ab0a9fdf310cef480", NULL, NULL, NULL, NULL },
	{ "cxl", "cxl_aer_correctable_error", NULL, "cxl_aer_correctable_error",
	  "CXL correctable error", FIELDS(cxl_aer_ce_fields),
	  DECODER(cxl), NULL, "be64aac98c294903a704d4c84495ef0a", NULL, NULL, NULL, NULL },
	{ "cxl", "cxl_overflow", NULL, "cxl_overflow", "CXL event log overflow",
	  FIELDS(cxl_overflow_fields), DECODER(cxl), NULL,
	  "ff1809ee988741a190dce56032ed6087", NULL, NULL, NULL, NULL },
	{ "cxl", "cxl_generic_event", NULL, "cxl_generic_event", "CXL event",
	  FIELDS(cxl_generic_fields), DECODER(cxl), NULL,
	  "a014c9971cf343b494afc81ea406ac49", NULL, NULL, NULL, NULL },
	{ "cxl", "cxl_general_media", NULL, "cxl_general_media", "CXL media error",
	  FIELDS(cxl_media_fields), DECODER(cxl), NULL,
	  "0b4809b603834021ba4c0b77c1d5a4fd", &cxl_dpa_sumloc, NULL, NULL, NULL },
	{ "cxl", "cxl_dram", NULL, "cxl_dram", "CXL DRAM error",
	  FIELDS(cxl_dram_fields), DECODER(cxl), NULL,
	  "69668f75cb5a40cf857646b3f41085ed", &cxl_dpa_sumloc, NULL, NULL, NULL },
	{ "cxl", "cxl_memory_module", NULL, "cxl_memory_module", "CXL memory module event",
	  FIELDS(cxl_module_fields), DECODER(cxl), NULL,
	  "869f001b01c54eabba51dd4df7defc92", NULL, NULL, NULL, NULL },
	{ "cxl", "cxl_poison", NULL, "cxl_poison", "CXL poison",
	  FIELDS(cxl_poison_fields), DECODER(cxl), NULL,
	  "bdc5e772a61c407f9bc36a9cfc89231a", &cxl_dpa_sumloc, NULL, NULL, NULL },
	{ "cxl", "cxl_memory_sparing", NULL, "cxl_memory_sparing", "CXL memory sparing",
	  FIELDS(cxl_sparing_fields), DECODER(cxl), NULL,
	  "f0174958869b42c9a79f2463a980ea00", NULL, NULL, NULL, NULL },
	/* The process a memory failure killed: only SIGBUS with BUS_MCEERR_AR or _AO is kept. */
	{ "signal", "signal_generate", NULL, "signal_generate", "memory-failure signal",
	  FIELDS(sigbus_fields), DECODER(sigbus), NULL,
	  "787f9bde4ee74473b2ce7a050b83ba66", &process_sumloc, NULL, &sigbus_keep, NULL },
	/*
	 * Disk errors before Linux 5.18 (RHEL 8, Debian 11), which has no
	 * block_rq_error: the completions with an error, in a table of their
	 * own (the tracepoint's own format and id), decoded as block_rq_error.
	 */
	{ "block", "block_rq_complete", NULL, "block_rq_complete", "block I/O error",
	  FIELDS(blockerr_fields), DECODER(blockerr), NULL,
	  "c90c2ee108b6405c87693810f8873f07", NULL, NULL, &failed_request, "block_rq_error" },
	{ "net", "net_dev_xmit_timeout", NULL, "net_dev_xmit_timeout", "network transmit timeout",
	  FIELDS(netdev_fields), DECODER(netdev), NULL,
	  "6a6fe77536634cba838a2b5c5ef36ea7", NULL, NULL, NULL, NULL },
};

const unsigned ras_n_event_types = N(ras_event_types);
_Static_assert(N(ras_event_types) <= RAS_MAX_EVENT_TYPES, "raise RAS_MAX_EVENT_TYPES");

const struct ras_event_type *ras_event_type_find(const char *name)
{
	const char *colon = strchr(name, ':');

	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];

		if (!colon) {
			if (!strcmp(name, t->event) || !strcmp(name, t->table))
				return t;
			continue;
		}
		if (strcmp(colon + 1, t->event))
			continue;
		if (!strncmp(name, t->system, (size_t)(colon - name)) &&
		    strlen(t->system) == (size_t)(colon - name))
			return t;
		if (t->alt_system && !strncmp(name, t->alt_system, (size_t)(colon - name)) &&
		    strlen(t->alt_system) == (size_t)(colon - name))
			return t;
	}
	return NULL;
}

int ras_event_field_index(const struct ras_event_type *type, const char *name)
{
	for (unsigned i = 0; i < type->n_fields; i++)
		if (!strcmp(type->fields[i].name, name))
			return (int)i;
	return -1;
}

const struct ras_dfield *ras_event_dfield(const struct ras_event_type *type, const char *name)
{
	for (size_t i = 0; i < *type->n_dfields; i++)
		if (!strcmp(type->dfields[i].name, name))
			return &type->dfields[i];
	return NULL;
}

const char *ras_summary_location(const struct ras_event_type *type, const void *decoded, char *buf,
				 size_t len)
{
	const struct ras_sumloc *k = type->sumloc;
	const char *loc = ((const struct ras_decoded_head *)decoded)->location;
	const char *cut;
	size_t n;

	if (!k || !len)
		return loc;
	cut = k->cut ? strstr(loc, k->cut) : NULL;
	n = cut ? (size_t)(cut - loc) : strlen(loc);
	if (n >= len)
		n = len - 1;
	memcpy(buf, loc, n);
	buf[n] = 0;
	for (unsigned i = 0; i < RAS_SUMLOC_PARTS && k->parts[i].dfield; i++) {
		const struct ras_dfield *f = ras_event_dfield(type, k->parts[i].dfield);
		const char *v = f && f->type == RAS_DF_STR ? ras_dfield_str(decoded, f) : "";

		if (*v)
			snprintf(buf + n, len - n, "%s%s", k->parts[i].before, v);
		n += strlen(buf + n);
	}
	return buf;
}
