/* SPDX-License-Identifier: MIT */
/*
 * What an AMD machine-check record itself says about the memory behind an
 * error: UMC channel and chip select on CPU nodes, HBM controller and
 * channel on accelerator (UMC v2, MI200/MI300-class) nodes, the DRAM ECC
 * syndrome, the pre-SMCA northbridge's DRAM ECC fields, and the SMCA
 * MCA_SYND1/MCA_SYND2 registers (with "FRU Text in MCA").
 *
 * Only register facts: whatever needs the node's DRAM configuration
 * registers (read by the kernel's amd64_edac at run time) is said to be
 * unknown, never guessed.
 */
#include <string.h>
#include "mce_amd.h"

#define STATUS_CECC (1ULL << 46) /* AMD: corrected ECC error */
#define STATUS_UECC (1ULL << 45) /* AMD: uncorrected ECC error */

/*
 * MCA_SYND of a UMC DRAM ECC error (AMD PPR family 17h/19h, MCA_SYND_UMC:
 * [63:32] Syndrome, [23:18] Length of the syndrome in bits, [2:0] the chip
 * select on CPU nodes), read only for a corrected ECC error as Linux
 * amd64_edac (decode_umc_error) does: an uncorrected one has no usable
 * syndrome to match against a symbol.
 */
static void umc_syndrome(const struct mce_in *in, struct mce_decoded *out)
{
	unsigned length = (unsigned)mce_bits(in->synd, 18, 23);
	uint64_t syndrome;

	if (!(in->status & MCI_STATUS_SYNDV) || !in->has_synd ||
	    (in->status & (STATUS_CECC | STATUS_UECC | MCI_STATUS_DEFERRED)) != STATUS_CECC)
		return;
	if (!length || length > 32) {
		ou_appendf(out->decode_note, sizeof(out->decode_note),
			   "%sno ECC syndrome (MCA_SYND length %u)", out->decode_note[0] ? "; " : "",
			   length);
		return;
	}
	syndrome = mce_bits(in->synd, 32, 32 + length - 1);
	ou_appendf(out->model_text, sizeof(out->model_text), "%sECC syndrome 0x%llx (%u bits)",
		   out->model_text[0] ? "; " : "", (unsigned long long)syndrome, length);
}

/*
 * HBM UMC instance layout (Linux amd64_edac.c, gpu_get_umc_base and
 * gpu_get_err_info; AMD's MI200 and MI300 UMC register map): each UMC runs
 * eight HBM channels; the InstanceId is the UMC channel's register base,
 * 0x0005_0000 (MI200) or 0x0009_0000 (MI300) + (2 * UMC + channel / 4) << 20
 * + (channel % 4) << 12. Any other InstanceId is not this layout.
 */
static void hbm_location(const struct mce_in *in, struct mce_decoded *out)
{
	uint64_t inst = mce_bits(in->ipid, 0, 31);
	unsigned base = (unsigned)mce_bits(inst, 16, 19);
	unsigned pair = (unsigned)mce_bits(inst, 20, 31);

	if ((base != 0x5 && base != 0x9) || mce_bits(inst, 0, 11) || mce_bits(inst, 14, 15)) {
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"HBM UMC InstanceId outside the known layout: channel not derived");
		return;
	}
	out->mem_ctrl = pair >> 1;
	out->channel = (int64_t)(mce_bits(inst, 12, 13) + 4 * (pair & 1));
	ou_appendf(out->model_text, sizeof(out->model_text), "%sHBM: UMC %u, channel %lld of 8",
		   out->model_text[0] ? "; " : "", pair >> 1, (long long)out->channel);
}

void amd_umc_location(const struct mce_in *in, bool hbm, struct mce_decoded *out)
{
	if (in->ipid_type_only)
		return; /* the instance (hence the channel) is unknown */
	if (hbm) {
		hbm_location(in, out);
	} else {
		/* CPU node: one channel per UMC, the UMC number in InstanceId[31:20] (amd64_edac.c). */
		out->channel = (int64_t)(mce_bits(in->ipid, 0, 31) >> 20);
		if (out->xec == 0 && (in->status & MCI_STATUS_SYNDV) && in->has_synd)
			out->chip_select = (int64_t)mce_bits(in->synd, 0, 2);
	}
	if (out->xec == 0)
		umc_syndrome(in, out);
}

static uint64_t le64_at(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A NUL-padded string of printable ASCII: the shape of FRU text. */
static bool fru_shaped(const uint8_t *p, size_t n)
{
	size_t i = 0;

	while (i < n && p[i] >= 0x20 && p[i] < 0x7f)
		i++;
	if (i == 0)
		return false;
	for (; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * SMCA MCA_SYND1/MCA_SYND2 (Zen 4 and later), in the mce_record tracepoint's
 * vendor data (Linux 6.14+, include/trace/events/mce.h: v_data = SYND1,
 * SYND2 as little-endian u64; a third u64, MCA_CONFIG, in the layout some
 * tools use). When MCA_CONFIG[9] McaFruTextInMca is set the two registers
 * hold the FRU text, 16 bytes (Linux drivers/edac/mce_amd.c). Without
 * MCA_CONFIG the kernel's authors read them as FRU text in user space; here
 * only when the bytes have the shape of a string, and the note says so.
 */
void amd_vendor_data(const struct mce_in *in, struct mce_decoded *out)
{
	const uint8_t *v = in->v_data;
	bool fru;

	if (in->v_data_len < 16)
		return;
	out->raw_synd1 = (int64_t)le64_at(v);
	out->raw_synd2 = (int64_t)le64_at(v + 8);
	if (in->v_data_len >= 24)
		fru = (le64_at(v + 16) & (1ULL << 9)) && fru_shaped(v, 16);
	else
		fru = fru_shaped(v, 16);
	if (!fru)
		return;
	memcpy(out->fru_text, v, 16);
	out->fru_text[16] = '\0';
	ou_appendf(out->model_text, sizeof(out->model_text), "%sFRU \"%s\"",
		   out->model_text[0] ? "; " : "", out->fru_text);
	if (in->v_data_len < 24)
		mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
				"SYND1/SYND2 read as FRU text (printable; MCA_CONFIG not recorded)");
}

/*
 * Pre-SMCA northbridge (bank 4) DRAM ECC, families 0Fh-16h. What MC4_STATUS
 * and MC4_ADDR carry (BKDG for AMD family 10h, 31116, MSR0000_0410
 * MC4_STATUS and MSR0000_0412 MC4_ADDR; family 15h BKDG 42301 likewise):
 *   [46] CECC, [45] UECC;
 *   ECC syndrome: Syndrome[7:0] = STATUS[54:47], Syndrome[15:8] = STATUS[31:24]
 *   (the high byte is used by chipkill x4/x8 ECC);
 *   MC4_ADDR: the physical address, bits [47:1] (K8: [39:3]).
 * The channel, DIMM and chip select are not in the record: the kernel maps
 * the address through the node's DCT select (F2x110), chip-select base and
 * mask (F2x40/F2x60) registers, and in ganged mode the channel from the
 * syndrome's x4/x8 symbol, whose size is in F3x180.
 */
void amd_nb_dram_ecc(const struct mce_in *in, struct mce_decoded *out)
{
	uint64_t st = in->status;
	unsigned syndrome = (unsigned)(mce_bits(st, 47, 54) | mce_bits(st, 24, 31) << 8);
	const char *ecc = (st & STATUS_CECC) && (st & STATUS_UECC) ? "CECC and UECC both set"
			  : (st & STATUS_CECC) ? "corrected ECC (CECC)"
			  : (st & STATUS_UECC) ? "uncorrected ECC (UECC)" : "neither CECC nor UECC set";

	ou_appendf(out->model_text, sizeof(out->model_text), "%s%s, ECC syndrome 0x%04x",
		   out->model_text[0] ? "; " : "", ecc, syndrome);
	if (st & MCI_STATUS_ADDRV) {
		unsigned lo = out->family == 0x0f ? 3 : 1, hi = out->family == 0x0f ? 39 : 47;

		out->addr = (int64_t)(mce_bits(in->addr, lo, hi) << lo);
		out->addr_lsb = lo;
		/* Family 15h erratum 637: an address in the CC6 save area stands for another. */
		if (out->family == 0x15 && mce_bits(in->addr, 24, 47) == 0x00fdf7)
			mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
					"CC6 save area address (erratum 637): DRAM address needs F1x120/124");
	}
	/* MC4_MISC0 is the DRAM error threshold counter: [63] Valid, [62] CntP, [48] Ovrflw. */
	if ((st & MCI_STATUS_MISCV) && mce_bits(in->misc, 62, 63) == 3 && mce_bits(in->misc, 48, 48))
		mce_append_item(out->model_text, sizeof(out->model_text), "; ",
				"DRAM error threshold reached (MC4_MISC Ovrflw)");
	mce_append_item(out->decode_note, sizeof(out->decode_note), "; ",
			"channel, DIMM, chip select need the DRAM config (F2x110, F2x40/60, F3x180)");
}
