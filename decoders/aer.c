/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "aer.h"
#include "other_util.h"

/*
 * PCI Express Base Specification r6.0, 7.8.4.2 "Uncorrectable Error Status
 * Register (Offset 04h)". Bits 1-3 and 6-11 are reserved. Bit 0 was
 * "Training Error" in r1.0a and is "Undefined" since.
 */
static const char *const aer_uncor_names[32] = {
	[0] = "Undefined",
	[4] = "Data Link Protocol Error",
	[5] = "Surprise Down Error",
	[12] = "Poisoned TLP Received",
	[13] = "Flow Control Protocol Error",
	[14] = "Completion Timeout",
	[15] = "Completer Abort",
	[16] = "Unexpected Completion",
	[17] = "Receiver Overflow",
	[18] = "Malformed TLP",
	[19] = "ECRC Error",
	[20] = "Unsupported Request Error",
	[21] = "ACS Violation",
	[22] = "Uncorrectable Internal Error",
	[23] = "MC Blocked TLP",
	[24] = "AtomicOp Egress Blocked",
	[25] = "TLP Prefix Blocked Error",
	[26] = "Poisoned TLP Egress Blocked",
	[27] = "DMWr Request Egress Blocked",
	[28] = "IDE Check Failed",
	[29] = "Misrouted IDE TLP",
	[30] = "PCRC Check Failed",
	[31] = "TLP Translation Egress Blocked",
};

/* PCI Express Base Specification r6.0, 7.8.4.5 "Correctable Error Status Register". */
static const char *const aer_cor_names[32] = {
	[0] = "Receiver Error",
	[6] = "Bad TLP",
	[7] = "Bad DLLP",
	[8] = "REPLAY_NUM Rollover",
	[12] = "Replay Timer Timeout",
	[13] = "Advisory Non-Fatal Error",
	[14] = "Corrected Internal Error",
	[15] = "Header Log Overflow",
};

/*
 * The short names Linux prints in dmesg for the same bits
 * (drivers/pci/pcie/aer.c, aer_{un,}correctable_error_string); facts only,
 * used to cross-check "[ 0] RxErr" lines.
 */
static const char *const aer_uncor_short[32] = {
	[0] = "Undefined", [4] = "DLP", [5] = "SDES", [12] = "TLP",
	[13] = "FCP", [14] = "CmpltTO", [15] = "CmpltAbrt", [16] = "UnxCmplt",
	[17] = "RxOF", [18] = "MalfTLP", [19] = "ECRC", [20] = "UnsupReq",
	[21] = "ACSViol", [22] = "UncorrIntErr", [23] = "BlockedTLP",
	[24] = "AtomicOpBlocked", [25] = "TLPBlockedErr",
	[26] = "PoisonTLPBlocked", [27] = "DMWrReqBlocked", [28] = "IDECheck",
	[29] = "MisIDETLP", [30] = "PCRC_CHECK", [31] = "TLPXlatBlocked",
};

static const char *const aer_cor_short[32] = {
	[0] = "RxErr", [6] = "BadTLP", [7] = "BadDLLP", [8] = "Rollover",
	[12] = "Timeout", [13] = "NonFatalErr", [14] = "CorrIntErr",
	[15] = "HeaderOF",
};

const char *aer_status_bit_name(unsigned bit, int correctable)
{
	if (bit >= 32)
		return NULL;
	return correctable ? aer_cor_names[bit] : aer_uncor_names[bit];
}

const char *aer_status_bit_short(unsigned bit, int correctable)
{
	if (bit >= 32)
		return NULL;
	return correctable ? aer_cor_short[bit] : aer_uncor_short[bit];
}

int aer_decode_status(uint32_t status, int correctable, char *out, size_t len)
{
	if (!out || len == 0)
		return -EINVAL;
	ou_bit_names(out, len, status,
		     correctable ? aer_cor_names : aer_uncor_names, 32, ", ");
	return 0;
}

const struct ras_dfield aer_dfields[] = {
	RAS_DF_S(struct aer_decoded, dev_name),
	RAS_DF_S(struct aer_decoded, bus_type),
	RAS_DF_I(struct aer_decoded, aer_severity),
	RAS_DF_S(struct aer_decoded, error_class),
	RAS_DF_X(struct aer_decoded, status),
	RAS_DF_S(struct aer_decoded, errors),
	RAS_DF_S(struct aer_decoded, kernel_names),
	RAS_DF_X(struct aer_decoded, mask),
	RAS_DF_S(struct aer_decoded, masked_errors),
	RAS_DF_I(struct aer_decoded, first_error),
	RAS_DF_I(struct aer_decoded, vendor_id),
	RAS_DF_I(struct aer_decoded, device_id),
	RAS_DF_S(struct aer_decoded, tlp_header_text),
	RAS_DF_S(struct aer_decoded, tlp_type),
	RAS_DF_S(struct aer_decoded, tlp_requester),
	RAS_DF_I(struct aer_decoded, tlp_tag),
	RAS_DF_X(struct aer_decoded, tlp_address),
	RAS_DF_S(struct aer_decoded, tlp_completer),
	RAS_DF_S(struct aer_decoded, tlp_detail),
	RAS_DF_S(struct aer_decoded, dev_desc),     /* JSON keys: new ones go last */
};
const size_t aer_n_dfields = OU_ARRAY_SIZE(aer_dfields);

/* ---- TLP header ---------------------------------------------------- */

struct tlp_row {
	uint8_t fmt_mask, fmt, type_mask, type;
	enum aer_tlp_kind kind;
	const char *name;
};

/*
 * PCI Express Base Specification r6.0, Table 2-3 "Fmt[2:0] and Type[4:0]
 * Field Encodings" (non-Flit mode). Fmt bit 0 selects a 4 DW header, bit 1
 * "with data", Fmt 100b a TLP prefix. Type 11011b was TCfgRd/TCfgWr
 * (deprecated) and is DMWr with data since r6.0.
 */
static const struct tlp_row tlp_rows[] = {
	{ 6, 0, 0x1f, 0x00, AER_TLP_MEM, "MRd" },
	{ 6, 0, 0x1f, 0x01, AER_TLP_MEM, "MRdLk" },
	{ 6, 2, 0x1f, 0x00, AER_TLP_MEM, "MWr" },
	{ 7, 0, 0x1f, 0x02, AER_TLP_IO, "IORd" },
	{ 7, 2, 0x1f, 0x02, AER_TLP_IO, "IOWr" },
	{ 7, 0, 0x1f, 0x04, AER_TLP_CFG, "CfgRd0" },
	{ 7, 2, 0x1f, 0x04, AER_TLP_CFG, "CfgWr0" },
	{ 7, 0, 0x1f, 0x05, AER_TLP_CFG, "CfgRd1" },
	{ 7, 2, 0x1f, 0x05, AER_TLP_CFG, "CfgWr1" },
	{ 7, 0, 0x1f, 0x1b, AER_TLP_CFG, "TCfgRd" },
	{ 6, 2, 0x1f, 0x1b, AER_TLP_MEM, "DMWr" },
	{ 7, 1, 0x18, 0x10, AER_TLP_MSG, "Msg" },
	{ 7, 3, 0x18, 0x10, AER_TLP_MSG, "MsgD" },
	{ 7, 0, 0x1f, 0x0a, AER_TLP_CPL, "Cpl" },
	{ 7, 2, 0x1f, 0x0a, AER_TLP_CPL, "CplD" },
	{ 7, 0, 0x1f, 0x0b, AER_TLP_CPL, "CplLk" },
	{ 7, 2, 0x1f, 0x0b, AER_TLP_CPL, "CplDLk" },
	{ 6, 2, 0x1f, 0x0c, AER_TLP_ATOMIC, "FetchAdd" },
	{ 6, 2, 0x1f, 0x0d, AER_TLP_ATOMIC, "Swap" },
	{ 6, 2, 0x1f, 0x0e, AER_TLP_ATOMIC, "CAS" },
	{ 7, 4, 0x10, 0x00, AER_TLP_PREFIX, "LPrfx" },
	{ 7, 4, 0x10, 0x10, AER_TLP_PREFIX, "EPrfx" },
};

/* PCIe Base Spec r6.0, 2.2.9.1 Completion Status field. */
static const struct ou_name cpl_status_names[] = {
	{ 0, "Successful Completion" },
	{ 1, "Unsupported Request" },
	{ 2, "Request Retry Status" },
	{ 4, "Completer Abort" },
};

/*
 * PCIe Base Spec r6.0, 2.2.8 message code values (the common ones); ATS
 * (10.2-10.4: invalidation, page requests) and PTM (6.21.3) messages too.
 */
static const struct ou_name msg_code_names[] = {
	{ 0x00, "Unlock" }, { 0x01, "ATS Invalidate Request" }, { 0x02, "ATS Invalidate Completion" },
	{ 0x04, "Page Request" }, { 0x05, "PRG Response" }, { 0x10, "LTR" }, { 0x12, "OBFF" },
	{ 0x14, "PM_Active_State_Nak" }, { 0x18, "PM_PME" },
	{ 0x19, "PME_Turn_Off" }, { 0x1b, "PME_TO_Ack" },
	{ 0x20, "Assert_INTA" }, { 0x21, "Assert_INTB" },
	{ 0x22, "Assert_INTC" }, { 0x23, "Assert_INTD" },
	{ 0x24, "Deassert_INTA" }, { 0x25, "Deassert_INTB" },
	{ 0x26, "Deassert_INTC" }, { 0x27, "Deassert_INTD" },
	{ 0x30, "ERR_COR" }, { 0x31, "ERR_NONFATAL" }, { 0x33, "ERR_FATAL" },
	{ 0x50, "Set_Slot_Power_Limit" }, { 0x52, "PTM Request" }, { 0x53, "PTM Response" },
	{ 0x7e, "Vendor_Defined Type 0" }, { 0x7f, "Vendor_Defined Type 1" },
};

static void tlp_requester_fields(const uint32_t *t, struct aer_tlp *out)
{
	out->requester_id = (uint16_t)(t[1] >> 16);
	out->tag |= (uint16_t)((t[1] >> 8) & 0xff);
	out->last_be = (t[1] >> 4) & 0xf;
	out->first_be = t[1] & 0xf;
}

static void tlp_kind_fields(const uint32_t *t, struct aer_tlp *out)
{
	switch (out->kind) {
	case AER_TLP_MEM:
	case AER_TLP_IO:
	case AER_TLP_ATOMIC:
		tlp_requester_fields(t, out);
		out->has_address = 1;
		if (out->header_dw == 4)
			out->address = (uint64_t)t[2] << 32 | (t[3] & ~3u);
		else
			out->address = t[2] & ~3u;
		break;
	case AER_TLP_CFG:
		tlp_requester_fields(t, out);
		out->cfg_target_id = (uint16_t)(t[2] >> 16);
		out->cfg_register = t[2] & 0xffc;
		break;
	case AER_TLP_MSG:
		tlp_requester_fields(t, out);
		out->first_be = out->last_be = 0;
		out->msg_code = t[1] & 0xff;
		out->msg_name = ou_lookup(msg_code_names,
					  OU_ARRAY_SIZE(msg_code_names),
					  out->msg_code);
		break;
	case AER_TLP_CPL:
		out->completer_id = (uint16_t)(t[1] >> 16);
		out->cpl_status = (t[1] >> 13) & 7;
		out->cpl_status_name = ou_lookup(cpl_status_names,
						 OU_ARRAY_SIZE(cpl_status_names),
						 out->cpl_status);
		out->byte_count = t[1] & 0xfff;
		out->requester_id = (uint16_t)(t[2] >> 16);
		out->tag |= (uint16_t)((t[2] >> 8) & 0xff);
		out->lower_address = t[2] & 0x7f;
		break;
	default:
		break;
	}
}

int aer_tlp_decode(const uint32_t tlp[4], struct aer_tlp *out)
{
	uint32_t dw0 = tlp[0];

	memset(out, 0, sizeof(*out));
	/* Header Log DW0 holds TLP byte 0 in bits 31:24 (PCIe r6.0 7.8.4.8). */
	out->fmt = dw0 >> 29;
	out->type = (dw0 >> 24) & 0x1f;
	out->header_dw = (out->fmt & 1) ? 4 : 3;
	out->tc = (dw0 >> 20) & 7;
	out->attr = (uint8_t)(((dw0 >> 16) & 4) | ((dw0 >> 12) & 3));
	out->td = (dw0 >> 15) & 1;
	out->ep = (dw0 >> 14) & 1;
	out->at = (dw0 >> 10) & 3;
	out->length_dw = dw0 & 0x3ff;
	if (out->length_dw == 0)
		out->length_dw = 1024;
	/* 10-bit tags: T9 is DW0 bit 23, T8 is DW0 bit 19 (PCIe r6.0 2.2.6.2). */
	out->tag = (uint16_t)(((dw0 >> 23) & 1) << 9 | ((dw0 >> 19) & 1) << 8);
	out->name = "unknown";
	for (size_t i = 0; i < OU_ARRAY_SIZE(tlp_rows); i++) {
		const struct tlp_row *r = &tlp_rows[i];

		if ((out->fmt & r->fmt_mask) == r->fmt &&
		    (out->type & r->type_mask) == r->type) {
			out->kind = r->kind;
			out->name = r->name;
			break;
		}
	}
	tlp_kind_fields(tlp, out);
	return 0;
}

void aer_format_rid(uint16_t rid, char *out, size_t len)
{
	snprintf(out, len, "%02x:%02x.%u", rid >> 8, (rid >> 3) & 0x1f, rid & 7u);
}

/* ---- the event ------------------------------------------------------- */

/* Writes "dddd:bb:dd.f" using the PCI domain of dev_name when it has one. */
static void format_bdf(const char *dev_name, uint16_t rid, char *out, size_t len)
{
	char rid_text[12];
	size_t i = 0;

	aer_format_rid(rid, rid_text, sizeof(rid_text));
	while (i < 4 && dev_name[i] && strchr("0123456789abcdefABCDEF", dev_name[i]))
		i++;
	if (i == 4 && dev_name[4] == ':' && strchr(dev_name + 5, ':'))
		snprintf(out, len, "%.4s:%s", dev_name, rid_text);
	else
		snprintf(out, len, "%s", rid_text);
}

static void tlp_describe(const struct aer_tlp *t, struct aer_decoded *out)
{
	char *d = out->tlp_detail;
	size_t dl = sizeof(out->tlp_detail);
	char target[16];

	snprintf(out->tlp_type, sizeof(out->tlp_type), "%s%s", t->name,
		 t->kind == AER_TLP_MEM && t->header_dw == 4 ? " (64-bit)" : "");
	snprintf(d, dl, "%s", out->tlp_type);
	if (t->kind == AER_TLP_UNKNOWN || t->kind == AER_TLP_PREFIX) {
		ou_appendf(d, dl, " (Fmt %u, Type 0x%02x)", t->fmt, t->type);
		return;
	}
	format_bdf(out->dev_name, t->requester_id, out->tlp_requester,
		   sizeof(out->tlp_requester));
	out->tlp_tag = t->tag;
	/* A completion travels back to the requester named in it. */
	ou_appendf(d, dl, " %s %s tag 0x%03x",
		   t->kind == AER_TLP_CPL ? "for requester" : "from",
		   out->tlp_requester, t->tag);
	if (t->has_address) {
		out->tlp_address = (int64_t)t->address;
		ou_appendf(d, dl, " address 0x%llx", (unsigned long long)t->address);
	}
	if (t->kind == AER_TLP_CFG) {
		format_bdf(out->dev_name, t->cfg_target_id, target, sizeof(target));
		ou_appendf(d, dl, " to %s register 0x%03x", target, t->cfg_register);
	} else if (t->kind == AER_TLP_MSG) {
		ou_appendf(d, dl, " message 0x%02x%s%s", t->msg_code,
			   t->msg_name ? " " : "", t->msg_name ? t->msg_name : "");
	} else if (t->kind == AER_TLP_CPL) {
		format_bdf(out->dev_name, t->completer_id, out->tlp_completer,
			   sizeof(out->tlp_completer));
		ou_appendf(d, dl, " from completer %s status %s byte count %u",
			   out->tlp_completer,
			   t->cpl_status_name ? t->cpl_status_name : "reserved",
			   t->byte_count);
	}
	/* Length is reserved in a message without data (Fmt bit 1 clear, r6.0 2.2.8). */
	if (t->kind != AER_TLP_CPL && t->kind != AER_TLP_CFG && (t->kind != AER_TLP_MSG || (t->fmt & 2)))
		ou_appendf(d, dl, " length %u DW", t->length_dw);
}

static void set_class(struct aer_decoded *out, const char *name)
{
	struct ou_buf c = ou_start(out->error_class, sizeof(out->error_class));

	ou_put(&c, name);
}

static void decode_class(const struct aer_in *in, struct aer_decoded *out, int *correctable)
{
	struct ou_buf class;

	*correctable = 0;
	switch (in->severity) {
	case AER_TP_CORRECTED:
		*correctable = 1;
		out->severity = RAS_SEV_CORRECTED;
		set_class(out, "corrected");
		break;
	case AER_TP_NONFATAL:
		out->severity = RAS_SEV_UNCORRECTED;
		set_class(out, "uncorrected non-fatal");
		break;
	case AER_TP_FATAL:
		out->severity = RAS_SEV_FATAL;
		set_class(out, "uncorrected fatal");
		break;
	default:
		out->severity = RAS_SEV_UNKNOWN;
		set_class(out, "severity ");
		class = (struct ou_buf){ .p = out->error_class, .len = sizeof(out->error_class),
					 .at = strlen(out->error_class) };
		ou_put_uint(&class, in->severity);
		break;
	}
}

static void decode_status(const struct aer_in *in, struct aer_decoded *out, int correctable)
{
	uint32_t active = in->status;

	out->status = in->status;
	if (in->has_mask) {
		out->mask = in->mask;
		active = in->status & ~in->mask;
		ou_bit_names(out->masked_errors, sizeof(out->masked_errors),
			     in->status & in->mask,
			     correctable ? aer_cor_names : aer_uncor_names, 32, ", ");
	}
	ou_bit_names(out->errors, sizeof(out->errors), active,
		     correctable ? aer_cor_names : aer_uncor_names, 32, ", ");
	ou_bit_names(out->kernel_names, sizeof(out->kernel_names), active,
		     correctable ? aer_cor_short : aer_uncor_short, 32, ", ");
	if (in->has_first_error)
		out->first_error = in->first_error;
	if (in->has_pci_id) {
		out->vendor_id = in->vendor_id;
		out->device_id = in->device_id;
	}
}

/* dev_name restates raw tracepoint text: filtered again as decoding did. */
void aer_render(const struct aer_decoded *d, char *buf, size_t len)
{
	char dev[sizeof(d->dev_name)];

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || !d->error_class[0])
		return;
	ou_copy(dev, sizeof(dev), d->dev_name, sizeof(d->dev_name));
	snprintf(buf, len, "%s %s error at %s", d->bus_type[0] ? d->bus_type : "PCIe",
		 d->error_class, dev[0] ? dev : "unknown device");
	if (d->dev_desc[0])
		ou_appendf(buf, len, " (%s)", d->dev_desc);
	else if (d->vendor_id != RAS_DF_NONE && d->device_id != RAS_DF_NONE)
		ou_appendf(buf, len, " [%04x:%04x]", (unsigned)d->vendor_id, (unsigned)d->device_id);
	ou_appendf(buf, len, ": %s", d->errors[0] ? d->errors : "no unmasked status bit set");
	if (d->tlp_detail[0])
		ou_appendf(buf, len, "; TLP %s", d->tlp_detail);
	if (d->severity == RAS_SEV_FATAL)
		ou_appendf(buf, len, "; the link or device needs recovery, check the slot, cable and device");
}

int aer_decode(const struct aer_in *in, struct aer_decoded *out)
{
	struct ou_buf loc;
	int correctable;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), aer_dfields, aer_n_dfields);
	if (!in)
		return -EINVAL;
	ou_copy(out->dev_name, sizeof(out->dev_name), in->dev_name, in->dev_name_len);
	ou_copy(out->dev_desc, sizeof(out->dev_desc), in->dev_desc, in->dev_desc_len);
	ou_copy(out->bus_type, sizeof(out->bus_type), in->bus_type, in->bus_type_len);
	out->aer_severity = in->severity;
	decode_class(in, out, &correctable);
	decode_status(in, out, correctable);
	if (in->tlp_header_valid) {
		struct aer_tlp t;

		/* "%08x %08x %08x %08x" */
		struct ou_buf h = ou_start(out->tlp_header_text, sizeof(out->tlp_header_text));

		for (int i = 0; i < 4; i++) {
			if (i)
				ou_put_lit(&h, " ");
			ou_put_hex_pad(&h, in->tlp_header[i], 8);
		}
		aer_tlp_decode(in->tlp_header, &t);
		tlp_describe(&t, out);
	}
	/* "%s %s", at every record */
	loc = ou_start(out->location, sizeof(out->location));
	ou_put(&loc, out->bus_type[0] ? out->bus_type : "PCIe");
	ou_put_lit(&loc, " ");
	ou_put(&loc, out->dev_name[0] ? out->dev_name : "unknown device");
	return 0;
}
