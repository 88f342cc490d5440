/* SPDX-License-Identifier: MIT */
/*
 * The older Intel parts and the Xeon Phi: their model-specific STATUS fields,
 * from Intel SDM Vol. 3B "Interpreting Machine Check Error Codes" (appendix E
 * in editions up to 2011, chapter 16 after, chapter 17 from 2023):
 *   Processor Family 06H (P6 family and Intel Core microarchitecture),
 *     the bus error fields of STATUS[63:16];
 *   06_1DH, Intel Xeon 7400 (Dunnington): bus errors (MC6) and the cache bus
 *     controller codes of MC4 (E.2.2, tables E-6 and E-7);
 *   Family 0FH (Pentium 4, Xeon): the FSB bits of STATUS[23:16];
 *   Intel Xeon MP 7100 (Tulsa, 0F_06H): MC4, the main error bank (E.4.1,
 *     table E-15 onwards): bus, internal and ECC codes, corrected count and
 *     ECC syndrome;
 *   06_57H/06_85H, Intel Xeon Phi 7200 (Knights Landing, Knights Mill):
 *     UBOX codes of MC5, the memory controllers' MSCOD flags and MISC ranks
 *     of MC7-16.
 * As tabulated by mcelog's p4.c, core2.c, dunnington.c, tulsa.c and knl.c;
 * the words are ours.
 */
#include <stdio.h>
#include <string.h>
#include "mce_intel_models.h"
#include "other_util.h"

static void say(struct mce_decoded *out, const char *text)
{
	if (text)
		mce_append_item(out->model_text, sizeof(out->model_text), "; ", text);
}

/* Each set bit of STATUS[hi:lo] that the table names. */
static void bits(uint64_t status, unsigned lo, unsigned hi, const struct mce_code_text *t,
		 struct mce_decoded *out)
{
	for (unsigned b = lo; b <= hi; b++)
		if ((status >> b) & 1)
			say(out, mce_code_lookup(t, b));
}

/* ---- P6 family and Intel Core microarchitecture -------------------------- */

/* STATUS[24:19], the bus queue request type. */
static const struct mce_code_text bq_request[] = {
	{ 0x00, "bus queue: data cache read" }, { 0x02, "bus queue: instruction fetch" },
	{ 0x03, "bus queue: uncached instruction fetch" }, { 0x04, "bus queue: read for ownership" },
	{ 0x05, "bus queue: locked read for ownership" }, { 0x06, "bus queue: invalidate to modified" },
	{ 0x08, "bus queue: writeback" }, { 0x0a, "bus queue: write-combining eviction" },
	{ 0x0b, "bus queue: write-combining line" }, { 0x0c, "bus queue: branch trace message" },
	{ 0x0d, "bus queue: interrupt acknowledge" }, { 0x0e, "bus queue: L2 invalidate" },
	{ 0x0f, "bus queue: L2 flush" }, { 0x10, "bus queue: partial read" },
	{ 0x12, "bus queue: partial write" }, { 0x14, "bus queue: special cycle" },
	{ 0x18, "bus queue: I/O read" }, { 0x19, "bus queue: I/O write" },
	{ 0x1c, "bus queue: locked read" }, { 0x1d, "bus queue: locked write" },
	{ 0x1e, "bus queue: split-lock read" }, { 0, NULL },
};

/* STATUS[27:25], the bus queue error type. */
static const struct mce_code_text bq_error[] = {
	{ 0, "hard error" }, { 1, "double error" }, { 2, "address parity error (AERR) twice" },
	{ 4, "single error" }, { 5, "address parity error (AERR) once" }, { 0, NULL },
};

/* The fields both generations share. */
static const struct mce_code_text p6_shared_bits[] = {
	{ 30, "internal BINIT" }, { 36, "parity error on a response transaction" },
	{ 38, "timeout BINIT: no micro-instruction retired for some time" },
	{ 42, "hard error response to a bus transaction" }, { 43, "the failure that caused IERR" },
	{ 44, "two failing bus transactions with address parity errors" },
	{ 45, "uncorrectable ECC error" }, { 46, "correctable ECC error" }, { 0, NULL },
};

static const struct mce_code_text p6old_bits[] = {
	{ 28, "FRC error" }, { 29, "BERR on this processor" },
	{ 35, "BINIT received from the external bus" },
	{ 37, "hard error response on a split transaction (bus BINIT)" }, { 0, NULL },
};

static const struct mce_code_text core2_bits[] = {
	{ 28, "MCE driven" }, { 29, "MCE observed" }, { 31, "BINIT observed" },
	{ 34, "PIC or FSB data parity error" }, { 37, "FSB address parity error" }, { 0, NULL },
};

static bool is_bus(const struct mce_decoded *out)
{
	return !strcmp(out->error_class, "bus");
}

static void p6_bus(const struct mce_in *in, struct mce_decoded *out, const struct mce_code_text *own)
{
	char syn[40];

	if (!is_bus(out))
		return;
	say(out, mce_code_lookup(bq_request, (uint32_t)mce_bits(in->status, 19, 24)));
	say(out, mce_code_lookup(bq_error, (uint32_t)mce_bits(in->status, 25, 27)));
	/* In bit order, the generation's own meaning of a bit before the shared one. */
	for (unsigned b = 28; b <= 46; b++) {
		if (!((in->status >> b) & 1))
			continue;
		say(out, mce_code_lookup(own, b));
		say(out, mce_code_lookup(p6_shared_bits, b));
	}
	if (in->status & (3ULL << 45)) {
		snprintf(syn, sizeof(syn), "ECC syndrome 0x%02x", (unsigned)mce_bits(in->status, 47, 54));
		say(out, syn);
	}
}

static void misc_p6old(const struct mce_in *in, struct mce_decoded *out)
{
	p6_bus(in, out, p6old_bits);
}

static void misc_core2(const struct mce_in *in, struct mce_decoded *out)
{
	p6_bus(in, out, core2_bits);
}

/* No bank of its own: the fields apply to a bus error in any bank. */
const struct platform p6old_platform = { NULL, 0, misc_p6old };
const struct platform core2_platform = { NULL, 0, misc_core2 };

/* ---- Family 0FH ---------------------------------------------------------- */

static const struct mce_code_text p4_bits[] = {
	{ 16, "FSB address parity error" }, { 17, "hard fail response" },
	{ 18, "response parity error" }, { 19, "PIC and FSB data parity error" },
	{ 20, "invalid PIC request (signature 0F04H)" }, { 21, "pad state machine error" },
	{ 22, "pad strobe glitch" }, { 23, "pad address glitch" }, { 0, NULL },
};

static void misc_p4(const struct mce_in *in, struct mce_decoded *out)
{
	bits(in->status, 16, 23, p4_bits, out);
}

const struct platform p4_platform = { NULL, 0, misc_p4 };

/* ---- Xeon 7400 (Dunnington) and Xeon MP 7100 (Tulsa): MC4's codes -------- */

/* MSCOD 000xH: errors of the front side; Tulsa and Dunnington share codes 1-8. */
static const struct mce_code_text front_codes[] = {
	{ 0x1, "inclusion error from core 0" }, { 0x2, "inclusion error from core 1" },
	{ 0x3, "write exclusive error from core 0" }, { 0x4, "write exclusive error from core 1" },
	{ 0x5, "inclusion error from the FSB" }, { 0x6, "snoop stall error from the FSB" },
	{ 0x7, "write stall error from the FSB" }, { 0x8, "FSB arbiter timeout" },
	{ 0x9, "CBC OOD queue underflow or overflow" },   /* Tulsa */
	{ 0xa, "inclusion error from core 2" },           /* Dunnington */
	{ 0xb, "write exclusive error from core 2" },     /* Dunnington */
	{ 0, NULL },
};

/* MSCOD 0x00H: internal errors, x the code. */
static const struct mce_code_text internal_codes[] = {
	{ 0x1, "Enhanced SpeedStep TM1-TM2 error" }, { 0x2, "internal timeout" },
	{ 0x3, "internal timeout" },
	{ 0x4, "Cache Safe Technology queue full, or disabled ways in a set overflowed" },
	{ 0x5, "quiet cycle timeout (correctable)" }, { 0, NULL },
};

/* MSCOD C00xH (corrected) and E00xH (uncorrected): ECC on outgoing data, by bit. */
static const struct mce_code_text ecc_outgoing[] = {
	{ 0, "ECC event on outgoing FSB data" }, { 1, "ECC event on outgoing core 0 data" },
	{ 2, "ECC event on outgoing core 1 data" }, { 3, "ECC event on outgoing core 2 data" },
	{ 0, NULL },
};

/* MCACOD 0400H (internal) in MC4: the code in MSCOD. */
static void cache_bus_controller(uint64_t status, struct mce_decoded *out)
{
	uint32_t ms = (uint32_t)mce_bits(status, 16, 31);

	if ((ms & 0xfff0) == 0) {
		say(out, mce_code_lookup(front_codes, ms & 0xf));
	} else if ((ms & 0xf0ff) == 0) {
		say(out, mce_code_lookup(internal_codes, (ms >> 8) & 0xf));
	} else if ((ms & 0xfff0) == 0xc000 || (ms & 0xfff0) == 0xe000) {
		for (unsigned b = 0; b < 4; b++) {
			char text[64];

			if (!((ms >> b) & 1))
				continue;
			snprintf(text, sizeof(text), "%s %s", (ms & 0xfff0) == 0xc000 ? "correctable" :
				 "uncorrectable", mce_code_lookup(ecc_outgoing, b));
			say(out, text);
		}
	}
}

/* Dunnington MC6 STATUS[31:16], type B bus and interconnect errors. */
static const struct mce_code_text dunnington_bus_bits[] = {
	{ 16, "parity error in the FSB request phase" },
	{ 20, "hard failure response to a local transaction" },
	{ 21, "parity error on the FSB response field" },
	{ 22, "FSB data parity error on inbound data" }, { 0, NULL },
};

static void misc_dunnington(const struct mce_in *in, struct mce_decoded *out)
{
	if ((in->status & 0xffff) == 0x0e0f)
		bits(in->status, 16, 22, dunnington_bus_bits, out);
	else if ((in->status & 0xffff) == 0x0400)
		cache_bus_controller(in->status, out);
}

static const struct bank_row dunnington_banks[] = {
	BANK(4, 4, "cache bus controller"), BANK(6, 6, "FSB"),
};
const struct platform dunnington_platform = PLATFORM(dunnington_banks, misc_dunnington);

/* Tulsa MC4 STATUS[27:16] for MCACOD 0E0FH, bus and interconnect errors. */
static const struct mce_code_text tulsa_bus_bits[] = {
	{ 16, "parity error in the FSB request phase" },
	{ 17, "parity error in core 0's request address" },
	{ 18, "parity error in core 1's request address" },
	{ 20, "parity error on the FSB response field" },
	{ 21, "FSB data parity error on inbound data" },
	{ 22, "data parity error on data from core 0" }, { 23, "data parity error on data from core 1" },
	{ 24, "enhanced defer parity error (phase A or B)" },
	{ 25, "data ECC error on inbound data" },
	{ 26, "pad logic: data strobe glitch or sequencing error" },
	{ 27, "pad logic: request strobe glitch or sequencing error" }, { 0, NULL },
};

static void misc_tulsa(const struct mce_in *in, struct mce_decoded *out)
{
	char text[48];

	if (in->bank != 4)
		return;
	/* STATUS[39:32] counts corrected events; [51:44] is the ECC syndrome when [52] is set. */
	if (mce_bits(in->status, 32, 39)) {
		snprintf(text, sizeof(text), "%u corrected events", (unsigned)mce_bits(in->status, 32, 39));
		say(out, text);
	}
	if (mce_bits(in->status, 52, 52)) {
		snprintf(text, sizeof(text), "ECC syndrome 0x%02x", (unsigned)mce_bits(in->status, 44, 51));
		say(out, text);
	}
	if ((in->status & 0xffff) == 0x0e0f)
		bits(in->status, 16, 27, tulsa_bus_bits, out);
	else if ((in->status & 0xffff) == 0x0400)
		cache_bus_controller(in->status, out);
}

static const struct bank_row tulsa_banks[] = { BANK(4, 4, "main error bank") };
const struct platform tulsa_platform = PLATFORM(tulsa_banks, misc_tulsa);

/* ---- Xeon Phi 7200 (06_57H) and Knights Mill (06_85H) -------------------- */

static const struct mce_code_text knl_ubox_codes[] = {
	{ 0x0402, "PCU internal error" }, { 0x0403, "VCU internal error" },
	{ 0x0407, "other UBOX internal error" }, { 0, NULL },
};

/* MC7-16 STATUS[23:16]: the memory controllers' (EDC and DDR) flags. */
static const struct mce_code_text knl_mc_bits[] = {
	{ 16, "command/address parity error" }, { 17, "internal parity error (not the write data buffer)" },
	{ 18, "internal parity error in the write data buffer" }, { 19, "corrected patrol scrub error" },
	{ 20, "uncorrected patrol scrub error" }, { 21, "spare corrected error" },
	{ 22, "spare uncorrected error" },
	{ 23, "corrected chip failure (DDR MC) or 4-bit burst error (EDC)" }, { 0, NULL },
};

static const struct mscod_desc mscod_knl_mc[] = {
	{ MS_BITS, 16, 23, knl_mc_bits },
	{ MS_END, 0, 0, NULL },
};

/* MISC of a corrected memory error: first failing rank [50:46] (valid [62]), second [55:51] ([63]). */
static void misc_knl_ranks(const struct mce_in *in, struct mce_decoded *out)
{
	char text[40];

	if (out->error_class[0] != 'm' || (in->status & MCI_STATUS_UC) || !(in->status & MCI_STATUS_MISCV))
		return;
	if (mce_bits(in->misc, 62, 62))
		out->rank = (int64_t)mce_bits(in->misc, 46, 50);
	if (mce_bits(in->misc, 63, 63)) {
		snprintf(text, sizeof(text), "second failing rank %u", (unsigned)mce_bits(in->misc, 51, 55));
		say(out, text);
	}
}

static const struct bank_row knl_banks[] = {
	{ 5, 5, "UBOX", -1, -1, NULL, NULL, knl_ubox_codes },
	{ 7, 16, "memory controller", -1, -1, mscod_knl_mc, misc_knl_ranks, NULL },
};
const struct platform knl_platform = PLATFORM(knl_banks, NULL);
