/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cxl.h"
#include "other_util.h"

static const char *const cxl_field_names[CXL_F_N] = {
	[CXL_F_SERIAL] = "serial", [CXL_F_STATUS] = "status",
	[CXL_F_FIRST_ERROR] = "first_error", [CXL_F_LOG] = "log",
	[CXL_F_HDR_FLAGS] = "hdr_flags", [CXL_F_HDR_HANDLE] = "hdr_handle",
	[CXL_F_HDR_TIMESTAMP] = "hdr_timestamp",
	[CXL_F_HDR_MAINT_OP_CLASS] = "hdr_maint_op_class",
	[CXL_F_DPA] = "dpa", [CXL_F_DPA_FLAGS] = "dpa_flags", [CXL_F_HPA] = "hpa",
	[CXL_F_DESCRIPTOR] = "descriptor", [CXL_F_TYPE] = "type",
	[CXL_F_SUB_TYPE] = "sub_type",
	[CXL_F_TRANSACTION_TYPE] = "transaction_type",
	[CXL_F_CHANNEL] = "channel", [CXL_F_RANK] = "rank",
	[CXL_F_DEVICE] = "device", [CXL_F_VALIDITY_FLAGS] = "validity_flags",
	[CXL_F_NIBBLE_MASK] = "nibble_mask", [CXL_F_BANK_GROUP] = "bank_group",
	[CXL_F_BANK] = "bank", [CXL_F_ROW] = "row", [CXL_F_COLUMN] = "column",
	[CXL_F_EVENT_TYPE] = "event_type", [CXL_F_HEALTH_STATUS] = "health_status",
	[CXL_F_MEDIA_STATUS] = "media_status", [CXL_F_LIFE_USED] = "life_used",
	[CXL_F_DIRTY_SHUTDOWN_CNT] = "dirty_shutdown_cnt",
	[CXL_F_COR_VOL_ERR_CNT] = "cor_vol_err_cnt",
	[CXL_F_COR_PER_ERR_CNT] = "cor_per_err_cnt",
	[CXL_F_DEVICE_TEMP] = "device_temp", [CXL_F_ADD_STATUS] = "add_status",
	[CXL_F_TRACE_TYPE] = "trace_type", [CXL_F_SOURCE] = "source",
	[CXL_F_FLAGS] = "flags", [CXL_F_DPA_LENGTH] = "dpa_length",
	[CXL_F_OVERFLOW_TS] = "overflow_ts", [CXL_F_COUNT] = "count",
	[CXL_F_FIRST_TS] = "first_ts", [CXL_F_LAST_TS] = "last_ts",
	[CXL_F_CME_THRESHOLD_EV_FLAGS] = "cme_threshold_ev_flags",
	[CXL_F_SUB_CHANNEL] = "sub_channel",
	[CXL_F_HDR_MAINT_OP_SUB_CLASS] = "hdr_maint_op_sub_class",
	[CXL_F_RESULT] = "result", [CXL_F_RES_AVAIL] = "res_avail",
};
_Static_assert(CXL_F_N <= 64, "struct cxl_in has one presence bit per field");

const char *cxl_field_name(enum cxl_field f)
{
	return (unsigned)f < CXL_F_N ? cxl_field_names[f] : NULL;
}

int cxl_in_set(struct cxl_in *in, const char *field, int64_t value)
{
	if (!in || !field)
		return -EINVAL;
	for (unsigned i = 0; i < CXL_F_N; i++) {
		if (strcmp(cxl_field_names[i], field) == 0) {
			in->value[i] = value;
			in->has |= UINT64_C(1) << i;
			return 0;
		}
	}
	return -ENOENT;
}

const struct ras_dfield cxl_dfields[] = {
	RAS_DF_S(struct cxl_decoded, event), RAS_DF_S(struct cxl_decoded, memdev),
	RAS_DF_S(struct cxl_decoded, host), RAS_DF_S(struct cxl_decoded, region),
	RAS_DF_X(struct cxl_decoded, serial), RAS_DF_I(struct cxl_decoded, log),
	RAS_DF_S(struct cxl_decoded, log_name), RAS_DF_X(struct cxl_decoded, status),
	RAS_DF_S(struct cxl_decoded, errors), RAS_DF_S(struct cxl_decoded, first_error_name),
	RAS_DF_X(struct cxl_decoded, dpa), RAS_DF_X(struct cxl_decoded, hpa),
	RAS_DF_S(struct cxl_decoded, record_type),
	RAS_DF_S(struct cxl_decoded, descriptor_names),
	RAS_DF_S(struct cxl_decoded, transaction_name),
	RAS_DF_I(struct cxl_decoded, channel), RAS_DF_I(struct cxl_decoded, rank),
	RAS_DF_I(struct cxl_decoded, device), RAS_DF_I(struct cxl_decoded, bank_group),
	RAS_DF_I(struct cxl_decoded, bank), RAS_DF_I(struct cxl_decoded, row),
	RAS_DF_I(struct cxl_decoded, column),
	RAS_DF_S(struct cxl_decoded, health_status_names),
	RAS_DF_S(struct cxl_decoded, media_status_name),
	RAS_DF_I(struct cxl_decoded, life_used), RAS_DF_I(struct cxl_decoded, device_temp),
	RAS_DF_S(struct cxl_decoded, hdr_flag_names),
	RAS_DF_S(struct cxl_decoded, poison_source),
	RAS_DF_S(struct cxl_decoded, detail),
	RAS_DF_I(struct cxl_decoded, device_threshold),
	RAS_DF_I(struct cxl_decoded, spares),
};
const size_t cxl_n_dfields = OU_ARRAY_SIZE(cxl_dfields);

/* CXL r3.1 8.2.4.17.1 Uncorrectable Error Status Register (RAS capability). */
static const char *const cxl_uc_bits[] = {
	"Cache Data Parity Error", "Cache Address Parity Error",
	"Cache Byte Enable Parity Error", "Cache Data ECC Error",
	"Memory Data Parity Error", "Memory Address Parity Error",
	"Memory Byte Enable Parity Error", "Memory Data ECC Error",
	"REINIT Threshold Hit", "Received Unrecognized Encoding",
	"Received Poison From Peer", "Receiver Overflow", NULL, NULL,
	"Component Specific Error", "IDE Tx Error", "IDE Rx Error",
};
/* CXL r3.1 8.2.4.17.4 Correctable Error Status Register. */
static const char *const cxl_ce_bits[] = {
	"Cache Data ECC Error", "Memory Data ECC Error", "CRC Threshold Hit",
	"Retry Threshold", "Received Cache Poison From Peer",
	"Received Memory Poison From Peer", "Received Error From Physical Layer",
};

int cxl_decode_status(uint32_t status, int correctable, char *out, size_t len)
{
	if (!out || len == 0)
		return -EINVAL;
	if (correctable)
		ou_bit_names(out, len, status, cxl_ce_bits, OU_ARRAY_SIZE(cxl_ce_bits), ", ");
	else
		ou_bit_names(out, len, status, cxl_uc_bits, OU_ARRAY_SIZE(cxl_uc_bits), ", ");
	return 0;
}

/* Event log types, CXL r3.1 8.2.9.2.2 Get Event Records (Event Log). */
static const struct {
	const char *name;
	enum ras_severity severity;
} cxl_logs[] = {
	{ "Informational", RAS_SEV_INFO }, { "Warning", RAS_SEV_CORRECTED },
	{ "Failure", RAS_SEV_UNCORRECTED }, { "Fatal", RAS_SEV_FATAL },
	{ "Dynamic Capacity", RAS_SEV_INFO },
};

/* Common Event Record Flags, CXL r3.1 8.2.9.2.1 Table 8-43 (bits 2-5). */
static const char *const cxl_hdr_flag_bits[] = {
	NULL, NULL, "permanent condition", "maintenance needed",
	"performance degraded", "hardware replacement needed",
};

/* General Media / DRAM Event Record fields, CXL r3.1 Tables 8-45 and 8-46. */
static const char *const cxl_descriptor_bits[] = {
	"uncorrectable event", "threshold event", "poison list overflow",
};
static const char *const cxl_gmer_types[] = {
	"ECC Error", "Invalid Address", "Data Path Error", "TE State Violation",
	"Scrub Media ECC Error", "Adv Prog CME Counter Expiration", "CKID Violation",
};
/*
 * DRAM record types as renumbered by CXL r3.1 (Linux since the 2025 update);
 * older kernels printed the General Media values for this field.
 */
static const char *const cxl_dram_types[] = {
	"ECC Error", "Scrub Media ECC Error", "Invalid Address", "Data Path Error",
	"TE State Violation", "Adv Prog CME Counter Expiration", "CKID Violation",
};
static const char *const cxl_transactions[] = {
	"Unknown", "Host Read", "Host Write", "Host Scan Media",
	"Host Inject Poison", "Internal Media Scrub", "Internal Media Management",
	"Internal Media Error Check Scrub", "Media Initialization",
};
/* Memory Module Event Record, CXL r3.1 Table 8-47; Health Info Table 8-133. */
static const char *const cxl_mmer_types[] = {
	"Health Status Change", "Media Status Change", "Life Used Change",
	"Temperature Change", "Data Path Error", "LSA Error",
};
static const char *const cxl_health_bits[] = {
	"maintenance needed", "performance degraded", "replacement needed",
};
static const char *const cxl_media_status[] = {
	"Normal", "Not Ready", "Write Persistency Lost", "All Data Lost",
	"Write Persistency Loss in the Event of Power Loss",
	"Write Persistency Loss in Event of Shutdown",
	"Write Persistency Loss Imminent", "All Data Loss in Event of Power Loss",
	"All Data Loss in the Event of Shutdown", "All Data Loss Imminent",
};
/* Poison: Linux enum cxl_poison_trace_type; source and flags, CXL r3.1 Table 8-140. */
static const char *const cxl_poison_trace[] = { "List", "Inject", "Clear" };
static const char *const cxl_poison_sources[] = {
	"Unknown", "External", "Internal", "Injected", NULL, NULL, NULL, "Vendor",
};
static const char *const cxl_poison_flag_bits[] = { "more", "overflow", "scanning" };

#define HAS(in, f) (((in)->has >> (f)) & 1)
#define VAL(in, f) ((in)->value[f])

static const char *table_name(const char *const *t, size_t n, int64_t v)
{
	return v >= 0 && (uint64_t)v < n ? t[v] : NULL;
}

/* Copies a named value, or "type N" for one the tables do not know. */
static void name_into(char *out, size_t len, const char *const *t, size_t n, int64_t v)
{
	const char *name = table_name(t, n, v);

	if (name)
		snprintf(out, len, "%s", name);
	else
		snprintf(out, len, "type %lld", (long long)v);
}

static void opt_int(const struct cxl_in *in, enum cxl_field f, int64_t *dst)
{
	if (HAS(in, f))
		*dst = VAL(in, f);
}

static enum ras_severity log_severity(const struct cxl_in *in, struct cxl_decoded *out)
{
	const char *name;

	if (!HAS(in, CXL_F_LOG))
		return RAS_SEV_UNKNOWN;
	out->log = VAL(in, CXL_F_LOG);
	if (out->log < 0 || (uint64_t)out->log >= OU_ARRAY_SIZE(cxl_logs)) {
		snprintf(out->log_name, sizeof(out->log_name), "log %lld", (long long)out->log);
		return RAS_SEV_UNKNOWN;
	}
	name = cxl_logs[out->log].name;
	snprintf(out->log_name, sizeof(out->log_name), "%s", name);
	return cxl_logs[out->log].severity;
}

static void do_aer(const struct cxl_in *in, struct cxl_decoded *out, int correctable)
{
	uint32_t fe;

	out->severity = correctable ? RAS_SEV_CORRECTED : RAS_SEV_UNCORRECTED;
	snprintf(out->record_type, sizeof(out->record_type), "%s protocol error",
		 correctable ? "correctable" : "uncorrectable");
	if (HAS(in, CXL_F_STATUS)) {
		out->status = VAL(in, CXL_F_STATUS);
		cxl_decode_status((uint32_t)out->status, correctable, out->errors,
				  sizeof(out->errors));
	}
	/* Linux passes the First Error Pointer as a one-bit mask. */
	if (!correctable && HAS(in, CXL_F_FIRST_ERROR) && (fe = (uint32_t)VAL(in, CXL_F_FIRST_ERROR)))
		cxl_decode_status(fe, 0, out->first_error_name, sizeof(out->first_error_name));
	if (out->errors[0])
		snprintf(out->detail, sizeof(out->detail), "%s", out->errors);
	if (out->first_error_name[0])
		ou_appendf(out->detail, sizeof(out->detail), " (first: %s)", out->first_error_name);
}

static void do_overflow(const struct cxl_in *in, struct cxl_decoded *out)
{
	out->severity = log_severity(in, out);
	snprintf(out->record_type, sizeof(out->record_type), "event log overflow");
	snprintf(out->detail, sizeof(out->detail), "%lld records of the %s log were lost",
		 HAS(in, CXL_F_COUNT) ? (long long)VAL(in, CXL_F_COUNT) : -1LL,
		 out->log_name[0] ? out->log_name : "unknown");
	if (HAS(in, CXL_F_FIRST_TS) && HAS(in, CXL_F_LAST_TS))
		ou_appendf(out->detail, sizeof(out->detail), " between timestamps %llu and %llu",
			   (unsigned long long)VAL(in, CXL_F_FIRST_TS),
			   (unsigned long long)VAL(in, CXL_F_LAST_TS));
}

static void do_header(const struct cxl_in *in, struct cxl_decoded *out)
{
	out->severity = log_severity(in, out);
	if (HAS(in, CXL_F_HDR_FLAGS))
		ou_bit_names(out->hdr_flag_names, sizeof(out->hdr_flag_names),
			     (uint64_t)VAL(in, CXL_F_HDR_FLAGS) & 0x3c, cxl_hdr_flag_bits,
			     OU_ARRAY_SIZE(cxl_hdr_flag_bits), ", ");
}

/* Location fields gated by the record's Validity Flags when present. */
static void media_location(const struct cxl_in *in, struct cxl_decoded *out, int dram)
{
	static const struct { enum cxl_field f; size_t off; unsigned gm_bit, dram_bit; } loc[] = {
		{ CXL_F_CHANNEL, offsetof(struct cxl_decoded, channel), 0, 0 },
		{ CXL_F_RANK, offsetof(struct cxl_decoded, rank), 1, 1 },
		{ CXL_F_DEVICE, offsetof(struct cxl_decoded, device), 2, 99 },
		{ CXL_F_BANK_GROUP, offsetof(struct cxl_decoded, bank_group), 99, 3 },
		{ CXL_F_BANK, offsetof(struct cxl_decoded, bank), 99, 4 },
		{ CXL_F_ROW, offsetof(struct cxl_decoded, row), 99, 5 },
		{ CXL_F_COLUMN, offsetof(struct cxl_decoded, column), 99, 6 },
	};
	int gated = HAS(in, CXL_F_VALIDITY_FLAGS);
	uint64_t valid = (uint64_t)VAL(in, CXL_F_VALIDITY_FLAGS);

	for (size_t i = 0; i < OU_ARRAY_SIZE(loc); i++) {
		unsigned bit = dram ? loc[i].dram_bit : loc[i].gm_bit;

		if (!HAS(in, loc[i].f) || (gated && (bit > 63 || !((valid >> bit) & 1))))
			continue;
		*(int64_t *)((char *)out + loc[i].off) = VAL(in, loc[i].f);
		ou_appendf(out->detail, sizeof(out->detail), "%s%s %lld",
			   out->detail[0] ? ", " : "", cxl_field_names[loc[i].f],
			   (long long)VAL(in, loc[i].f));
	}
}

/*
 * The device's own corrected-error threshold: the Threshold Event descriptor
 * bit of a correctable record (CXL r3.1 Tables 8-45/8-46, bit 1; bit 0 is
 * Uncorrectable Event), or Exceeded Programmable Threshold in the CME
 * threshold event flags (CXL r3.2; Linux's cme_threshold_ev_flags, bit 1).
 * Such a record reports corrected errors: at least corrected, whatever log
 * it came in.
 */
static void device_threshold(const struct cxl_in *in, struct cxl_decoded *out)
{
	bool said = HAS(in, CXL_F_DESCRIPTOR) || HAS(in, CXL_F_CME_THRESHOLD_EV_FLAGS);
	int64_t desc = HAS(in, CXL_F_DESCRIPTOR) ? VAL(in, CXL_F_DESCRIPTOR) : 0;
	int64_t cme = HAS(in, CXL_F_CME_THRESHOLD_EV_FLAGS) ? VAL(in, CXL_F_CME_THRESHOLD_EV_FLAGS) : 0;

	if (!said)
		return;
	out->device_threshold = !(desc & 1) && ((desc & 2) || (cme & 2));
	if (cme & 2)
		ou_appendf(out->detail, sizeof(out->detail), "%sexceeded the programmable threshold",
			   out->detail[0] ? ", " : "");
	if (out->device_threshold && out->severity < RAS_SEV_CORRECTED)
		out->severity = RAS_SEV_CORRECTED;
}

static void do_media(const struct cxl_in *in, struct cxl_decoded *out, int dram)
{
	do_header(in, out);
	opt_int(in, CXL_F_DPA, &out->dpa);
	/* An unmapped DPA has hpa ULLONG_MAX, i.e. -1 here. */
	if (HAS(in, CXL_F_HPA) && VAL(in, CXL_F_HPA) != -1)
		out->hpa = VAL(in, CXL_F_HPA);
	if (HAS(in, CXL_F_TYPE)) {
		if (dram)
			name_into(out->record_type, sizeof(out->record_type), cxl_dram_types,
				  OU_ARRAY_SIZE(cxl_dram_types), VAL(in, CXL_F_TYPE));
		else
			name_into(out->record_type, sizeof(out->record_type), cxl_gmer_types,
				  OU_ARRAY_SIZE(cxl_gmer_types), VAL(in, CXL_F_TYPE));
	}
	if (HAS(in, CXL_F_DESCRIPTOR)) {
		ou_bit_names(out->descriptor_names, sizeof(out->descriptor_names),
			     (uint64_t)VAL(in, CXL_F_DESCRIPTOR) & 0xff, cxl_descriptor_bits,
			     OU_ARRAY_SIZE(cxl_descriptor_bits), ", ");
		if ((VAL(in, CXL_F_DESCRIPTOR) & 1) && out->severity < RAS_SEV_UNCORRECTED)
			out->severity = RAS_SEV_UNCORRECTED;
	}
	if (HAS(in, CXL_F_TRANSACTION_TYPE))
		name_into(out->transaction_name, sizeof(out->transaction_name), cxl_transactions,
			  OU_ARRAY_SIZE(cxl_transactions), VAL(in, CXL_F_TRANSACTION_TYPE));
	device_threshold(in, out);
	media_location(in, out, dram);
}

static void do_module(const struct cxl_in *in, struct cxl_decoded *out)
{
	static const char *const alarm[] = { "normal", "warning", "critical" };
	int64_t as;

	do_header(in, out);
	if (HAS(in, CXL_F_EVENT_TYPE))
		name_into(out->record_type, sizeof(out->record_type), cxl_mmer_types,
			  OU_ARRAY_SIZE(cxl_mmer_types), VAL(in, CXL_F_EVENT_TYPE));
	if (HAS(in, CXL_F_HEALTH_STATUS))
		ou_bit_names(out->health_status_names, sizeof(out->health_status_names),
			     (uint64_t)VAL(in, CXL_F_HEALTH_STATUS) & 0xff, cxl_health_bits,
			     OU_ARRAY_SIZE(cxl_health_bits), ", ");
	if (HAS(in, CXL_F_MEDIA_STATUS))
		name_into(out->media_status_name, sizeof(out->media_status_name), cxl_media_status,
			  OU_ARRAY_SIZE(cxl_media_status), VAL(in, CXL_F_MEDIA_STATUS));
	opt_int(in, CXL_F_LIFE_USED, &out->life_used);
	opt_int(in, CXL_F_DEVICE_TEMP, &out->device_temp);
	if (HAS(in, CXL_F_ADD_STATUS)) {
		/* Additional Status: life used 1:0, temperature 3:2 (Table 8-133). */
		as = VAL(in, CXL_F_ADD_STATUS);
		ou_appendf(out->detail, sizeof(out->detail), "life used alarm %s, temperature alarm %s",
			   table_name(alarm, 3, as & 3) ? alarm[as & 3] : "reserved",
			   table_name(alarm, 3, (as >> 2) & 3) ? alarm[(as >> 2) & 3] : "reserved");
	}
	if (HAS(in, CXL_F_DIRTY_SHUTDOWN_CNT))
		ou_appendf(out->detail, sizeof(out->detail), "%sdirty shutdowns %lld",
			   out->detail[0] ? ", " : "", (long long)VAL(in, CXL_F_DIRTY_SHUTDOWN_CNT));
}

static void do_poison(const struct cxl_in *in, struct cxl_decoded *out)
{
	int64_t t = HAS(in, CXL_F_TRACE_TYPE) ? VAL(in, CXL_F_TRACE_TYPE) : -1;

	name_into(out->record_type, sizeof(out->record_type), cxl_poison_trace,
		  OU_ARRAY_SIZE(cxl_poison_trace), t);
	ou_appendf(out->record_type, sizeof(out->record_type), " poison");
	/* A listed poison is corrupted data not yet consumed. */
	out->severity = t == 0 ? RAS_SEV_DEFERRED : t > 0 ? RAS_SEV_INFO : RAS_SEV_UNKNOWN;
	opt_int(in, CXL_F_DPA, &out->dpa);
	if (HAS(in, CXL_F_HPA) && VAL(in, CXL_F_HPA) != -1)
		out->hpa = VAL(in, CXL_F_HPA);
	if (HAS(in, CXL_F_SOURCE))
		name_into(out->poison_source, sizeof(out->poison_source), cxl_poison_sources,
			  OU_ARRAY_SIZE(cxl_poison_sources), VAL(in, CXL_F_SOURCE));
	if (HAS(in, CXL_F_DPA_LENGTH))
		ou_appendf(out->detail, sizeof(out->detail), "%lld bytes",
			   (long long)VAL(in, CXL_F_DPA_LENGTH));
	if (out->poison_source[0])
		ou_appendf(out->detail, sizeof(out->detail), "%ssource %s",
			   out->detail[0] ? ", " : "", out->poison_source);
	if (HAS(in, CXL_F_FLAGS) && VAL(in, CXL_F_FLAGS)) {
		char flags[48];

		ou_bit_names(flags, sizeof(flags), (uint64_t)VAL(in, CXL_F_FLAGS) & 0xff,
			     cxl_poison_flag_bits, OU_ARRAY_SIZE(cxl_poison_flag_bits), " ");
		ou_appendf(out->detail, sizeof(out->detail), "%sflags %s",
			   out->detail[0] ? ", " : "", flags);
	}
}

/*
 * Memory Sparing Event Record, CXL r3.2 8.2.10.2.1.4 Table 8-60, as Linux
 * traces it (drivers/cxl/core/trace.h, TRACE_EVENT(cxl_memory_sparing)): the
 * device replaced a cacheline, row, bank or rank by a spare. The record's
 * maintenance operation class 2 is memory sparing, its subclasses 0-3 the
 * cacheline, row, bank and rank granularities (CXL r3.2 8.2.10.7, the values
 * of Linux's drivers/cxl/core/edac.c and QEMU's hw/cxl). Flags (trace.h
 * CXL_MSER_*_FLAG): bit 0 query resources, 1 hard sparing, 2 device
 * initiated; validity bits 0-6 channel, rank, nibble mask, bank group, bank,
 * row, column, bit 9 sub-channel (CXL_MSER_VALID_*).
 */
static void do_sparing(const struct cxl_in *in, struct cxl_decoded *out)
{
	static const char *const grains[] = { "cacheline", "row", "bank", "rank" };
	static const char *const flag_bits[] = { "query resources", "hard", "device initiated" };
	static const struct { enum cxl_field f; unsigned bit; const char *word; } loc[] = {
		{ CXL_F_CHANNEL, 0, "channel" }, { CXL_F_RANK, 1, "rank" },
		{ CXL_F_BANK_GROUP, 3, "bank group" }, { CXL_F_BANK, 4, "bank" },
		{ CXL_F_ROW, 5, "row" }, { CXL_F_COLUMN, 6, "column" },
		{ CXL_F_SUB_CHANNEL, 9, "sub-channel" },
	};
	uint64_t valid = HAS(in, CXL_F_VALIDITY_FLAGS) ? (uint64_t)VAL(in, CXL_F_VALIDITY_FLAGS) : 0;
	int64_t sub = HAS(in, CXL_F_HDR_MAINT_OP_SUB_CLASS) ? VAL(in, CXL_F_HDR_MAINT_OP_SUB_CLASS) : -1;
	const char *grain = HAS(in, CXL_F_HDR_MAINT_OP_CLASS) && VAL(in, CXL_F_HDR_MAINT_OP_CLASS) == 2 ?
			    table_name(grains, OU_ARRAY_SIZE(grains), sub) : NULL;

	do_header(in, out);
	snprintf(out->record_type, sizeof(out->record_type), "%s%ssparing", grain ? grain : "",
		 grain ? " " : "");
	if (HAS(in, CXL_F_FLAGS) && (VAL(in, CXL_F_FLAGS) & 7)) {
		char flags[48];

		ou_bit_names(flags, sizeof(flags), (uint64_t)VAL(in, CXL_F_FLAGS) & 7, flag_bits,
			     OU_ARRAY_SIZE(flag_bits), ", ");
		ou_appendf(out->record_type, sizeof(out->record_type), " (%s)", flags);
	}
	for (size_t i = 0; i < OU_ARRAY_SIZE(loc); i++)
		if (HAS(in, loc[i].f) && ((valid >> loc[i].bit) & 1))
			ou_appendf(out->detail, sizeof(out->detail), "%s%s %lld",
				   out->detail[0] ? ", " : "", loc[i].word, (long long)VAL(in, loc[i].f));
	if (HAS(in, CXL_F_NIBBLE_MASK) && ((valid >> 2) & 1))
		ou_appendf(out->detail, sizeof(out->detail), "%snibble mask 0x%llx",
			   out->detail[0] ? ", " : "", (unsigned long long)VAL(in, CXL_F_NIBBLE_MASK));
	if (HAS(in, CXL_F_RESULT))
		ou_appendf(out->detail, sizeof(out->detail), "%s%s", out->detail[0] ? "; " : "",
			   VAL(in, CXL_F_RESULT) ? "the sparing failed" : "the sparing succeeded");
	if (HAS(in, CXL_F_RESULT) && VAL(in, CXL_F_RESULT))
		ou_appendf(out->detail, sizeof(out->detail), " (result %lld)", (long long)VAL(in, CXL_F_RESULT));
	opt_int(in, CXL_F_RES_AVAIL, &out->spares);
	if (out->spares != RAS_DF_NONE)
		ou_appendf(out->detail, sizeof(out->detail), "%sspare resources available: %lld%s",
			   out->detail[0] ? "; " : "", (long long)out->spares,
			   out->spares ? "" : " (the next failing one cannot be spared: plan to replace the device)");
}

static void do_aer_uc(const struct cxl_in *in, struct cxl_decoded *out) { do_aer(in, out, 0); }
static void do_aer_ce(const struct cxl_in *in, struct cxl_decoded *out) { do_aer(in, out, 1); }
static void do_gm(const struct cxl_in *in, struct cxl_decoded *out) { do_media(in, out, 0); }
static void do_dram(const struct cxl_in *in, struct cxl_decoded *out) { do_media(in, out, 1); }

static void do_generic(const struct cxl_in *in, struct cxl_decoded *out)
{
	do_header(in, out);
	snprintf(out->record_type, sizeof(out->record_type), "vendor or other event record");
}

static const struct {
	const char *event;
	const char *what;
	void (*decode)(const struct cxl_in *in, struct cxl_decoded *out);
} cxl_events[] = {
	{ "cxl_aer_uncorrectable_error", "uncorrectable protocol error", do_aer_uc },
	{ "cxl_aer_correctable_error", "correctable protocol error", do_aer_ce },
	{ "cxl_overflow", "event log overflow", do_overflow },
	{ "cxl_generic_event", "event", do_generic },
	{ "cxl_general_media", "media event", do_gm },
	{ "cxl_dram", "DRAM event", do_dram },
	{ "cxl_memory_module", "memory module event", do_module },
	{ "cxl_memory_sparing", "memory sparing", do_sparing },
	{ "cxl_poison", "poison record", do_poison },
};

static void cxl_location(struct cxl_decoded *out)
{
	snprintf(out->location, sizeof(out->location), "CXL %s",
		 out->memdev[0] ? out->memdev : "device");
	if (out->host[0])
		ou_appendf(out->location, sizeof(out->location), " (%s)", out->host);
	if (out->region[0])
		ou_appendf(out->location, sizeof(out->location), ", %s", out->region);
	if (out->dpa != RAS_DF_NONE)
		ou_appendf(out->location, sizeof(out->location), ", DPA 0x%llx",
			   (unsigned long long)out->dpa);
}

int cxl_decode(const struct cxl_in *in, struct cxl_decoded *out)
{
	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), cxl_dfields, cxl_n_dfields);
	if (!in)
		return -EINVAL;
	ou_copy(out->event, sizeof(out->event), in->event, in->event_len);
	ou_copy(out->memdev, sizeof(out->memdev), in->memdev, in->memdev_len);
	ou_copy(out->host, sizeof(out->host), in->host, in->host_len);
	ou_copy(out->region, sizeof(out->region), in->region, in->region_len);
	opt_int(in, CXL_F_SERIAL, &out->serial);
	for (size_t i = 0; i < OU_ARRAY_SIZE(cxl_events); i++) {
		if (strcmp(out->event, cxl_events[i].event) == 0) {
			cxl_events[i].decode(in, out);
			break;
		}
	}
	cxl_location(out);
	return 0;
}

/*
 * hpa restates the raw field, in which an unmapped address is all ones;
 * decoding stores that as RAS_DF_NONE. Both read as absent here.
 */
void cxl_render(const struct cxl_decoded *d, char *buf, size_t len)
{
	static const char prefix[] = "CXL ";
	const char *what = "event", *where;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || !d->event[0])
		return;
	for (size_t i = 0; i < OU_ARRAY_SIZE(cxl_events); i++)
		if (strcmp(d->event, cxl_events[i].event) == 0)
			what = cxl_events[i].what;
	where = strncmp(d->location, prefix, sizeof(prefix) - 1) ? d->location
								 : d->location + sizeof(prefix) - 1;
	snprintf(buf, len, "CXL %s on %s", what, where);
	if (d->record_type[0] && strcmp(d->record_type, what) != 0)
		ou_appendf(buf, len, ": %s", d->record_type);
	if (d->log_name[0])
		ou_appendf(buf, len, " [%s log]", d->log_name);
	if (d->descriptor_names[0])
		ou_appendf(buf, len, ", %s", d->descriptor_names);
	if (d->transaction_name[0])
		ou_appendf(buf, len, " during %s", d->transaction_name);
	if (d->hpa != RAS_DF_NONE && d->hpa != -1)
		ou_appendf(buf, len, " at HPA 0x%llx", (unsigned long long)d->hpa);
	if (d->health_status_names[0])
		ou_appendf(buf, len, ", health: %s", d->health_status_names);
	if (d->media_status_name[0])
		ou_appendf(buf, len, ", media %s", d->media_status_name);
	if (d->detail[0])
		ou_appendf(buf, len, "; %s", d->detail);
	if (d->hdr_flag_names[0])
		ou_appendf(buf, len, "; device says: %s", d->hdr_flag_names);
}
