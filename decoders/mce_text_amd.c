/* SPDX-License-Identifier: MIT */
/*
 * AMD decoded machine-check block parser (see mce_text_amd.h). Facts about
 * the format from Linux drivers/edac/mce_amd.c (amd_decode_mce,
 * decode_smca_error, smca_long_names): the header prints the CPU number in
 * decimal, family:model:stepping and the status in hex, and bank flags
 * Over, UE/CE, MiscV, AddrV, PCC for STATUS bits 62, 61, 59, 58, 57; the
 * extended error code is decimal; "TSC:" is decimal, the other registers hex.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "mce_internal.h"
#include "mce_text_amd.h"
#include "text_num.h"

struct amd_state {
	mce_text_record_fn on_record;
	mce_text_error_fn on_error;
	void *ctx;
	struct mce_in rec;
	bool open, bad;
	unsigned first_line, line;
	int count, stop;
};

/*
 * Kernel bank type names (smca_long_names) -> MCA_IPID HardwareID and
 * McaType (AMD PPR "MCA_IPID", arch/x86/kernel/cpu/mce/amd.c
 * smca_hwid_mcatypes). Names the kernel gives to two types (Load Store
 * Unit, Coherent Slave, Platform Security Processor, System Management
 * Unit, PCI Express Unit: v1 and v2 have different code tables) are left
 * out: their bank type stays unknown rather than guessed.
 */
static const struct {
	const char *name;
	uint16_t hwid, mcatype;
} kernel_bank_types[] = {
	{ "Instruction Fetch Unit", 0xb0, 0x01 },
	{ "L2 Cache", 0xb0, 0x02 },
	{ "Decode Unit", 0xb0, 0x03 },
	{ "Execution Unit", 0xb0, 0x05 },
	{ "Floating Point Unit", 0xb0, 0x06 },
	{ "L3 Cache", 0xb0, 0x07 },
	{ "Power, Interrupts, etc.", 0x2e, 0x01 },
	{ "Unified Memory Controller", 0x96, 0x00 },
	{ "Unified Memory Controller v2", 0x96, 0x01 },
	{ "Parameter Block", 0x05, 0x00 },
	{ "Microprocessor 5 Unit", 0x01, 0x02 },
	{ "MPDMA Unit", 0x01, 0x03 },
	{ "Northbridge IO Unit", 0x18, 0x00 },
	{ "Ext Global Memory Interconnect PCS Unit", 0x50, 0x00 },
	{ "NBIF Unit", 0x6c, 0x00 },
	{ "System Hub Unit", 0x80, 0x00 },
	{ "SATA Unit", 0xa8, 0x00 },
	{ "USB Unit", 0xaa, 0x00 },
	{ "Global Memory Interconnect PCS Unit", 0x241, 0x00 },
	{ "Ext Global Memory Interconnect PHY Unit", 0x259, 0x00 },
	{ "WAFL PHY Unit", 0x267, 0x00 },
	{ "Global Memory Interconnect PHY Unit", 0x269, 0x00 },
};

static void report(struct amd_state *st, const char *reason)
{
	if (st->on_error)
		st->on_error(st->ctx, st->line, reason);
	st->bad = true;
}

bool mce_amd_bank_type_ipid(const char *name, size_t len, uint64_t *ipid)
{
	for (size_t i = 0; i < MCE_ARRAY_SIZE(kernel_bank_types); i++) {
		if (strlen(kernel_bank_types[i].name) == len &&
		    strncmp(name, kernel_bank_types[i].name, len) == 0) {
			*ipid = (uint64_t)kernel_bank_types[i].hwid << 32 |
				(uint64_t)kernel_bank_types[i].mcatype << 48;
			return true;
		}
	}
	return false;
}

/* "<kernel bank type name> Ext. Error Code: <n>[, text]": the bank type when no IPID line came. */
static void bank_type_from_name(struct amd_state *st, const char *s)
{
	const char *ext = strstr(s, " Ext. Error Code");

	if (!st->rec.has_ipid && ext && mce_amd_bank_type_ipid(s, (size_t)(ext - s), &st->rec.ipid))
		st->rec.ipid_type_only = 1;
}

static void flush(struct amd_state *st)
{
	if (st->open && !st->bad && !st->stop) {
		int rc = st->on_record(st->ctx, &st->rec, st->first_line);
		if (rc < 0)
			st->stop = rc;
		else
			st->count++;
	}
	st->open = st->bad = false;
}

/* Unsigned number in base 10 or 16 ("0x" optional, and selects 16); *end past it. */
static bool read_num(const char *s, unsigned base, uint64_t *v, const char **end)
{
	return text_num_prefix(s, base, v, end);
}

/* The flags the kernel prints must agree with the status value they describe. */
static bool flags_agree(const char *flags, size_t len, uint64_t status)
{
	static const struct { const char *word; uint64_t bit; } words[] = {
		{ "Over", MCI_STATUS_OVER }, { "UE", MCI_STATUS_UC }, { "MiscV", MCI_STATUS_MISCV },
		{ "AddrV", MCI_STATUS_ADDRV }, { "PCC", MCI_STATUS_PCC },
	};

	for (size_t i = 0; i < MCE_ARRAY_SIZE(words); i++) {
		size_t n = strlen(words[i].word);
		bool shown = false;

		for (size_t j = 0; j + n <= len; j++)
			if ((j == 0 || flags[j - 1] == '|') && strncmp(flags + j, words[i].word, n) == 0 &&
			    (j + n == len || flags[j + n] == '|'))
				shown = true;
		if (shown != !!(status & words[i].bit))
			return false;
	}
	return true;
}

/* "CPU:<n> (<fam>:<model>:<step>) MC<bank>_STATUS[<flags>]: 0x<status>" */
static void parse_header(struct amd_state *st, const char *s)
{
	uint64_t cpu, fms[3], bank;
	const char *flags, *close;

	flush(st);
	memset(&st->rec, 0, sizeof(st->rec));
	st->rec.no_socketid = 1;
	st->open = true;
	st->first_line = st->line;
	if (!read_num(s + 4, 10, &cpu, &s) || cpu > UINT32_MAX || strncmp(s, " (", 2) != 0) {
		report(st, "AMD machine-check header without CPU family (want CPU:n (ff:mm:ss))");
		return;
	}
	s += 2;
	for (int i = 0; i < 3; i++)
		if (!read_num(s, 16, &fms[i], &s) || fms[i] > 0xff || *s++ != (i < 2 ? ':' : ')')) {
			report(st, "bad family:model:stepping in AMD machine-check header");
			return;
		}
	if (strncmp(s, " MC", 3) != 0 || !read_num(s + 3, 10, &bank, &s) || bank > UINT8_MAX ||
	    strncmp(s, "_STATUS[", 8) != 0 || !(close = strchr(s + 8, ']')) ||
	    strncmp(close, "]: ", 3) != 0 || !read_num(close + 3, 16, &st->rec.status, &flags)) {
		report(st, "malformed AMD machine-check header");
		return;
	}
	flags = s + 8;
	if (!flags_agree(flags, (size_t)(close - flags), st->rec.status)) {
		report(st, "MCx_STATUS flags disagree with the status value");
		return;
	}
	st->rec.cpu = (uint32_t)cpu;
	st->rec.bank = (uint8_t)bank;
	/* Family 18h is Hygon's (Dhyana); the kernel's AMD decoder serves both. */
	st->rec.cpuvendor = fms[0] == 0x18 ? MCE_VENDOR_HYGON : MCE_VENDOR_AMD;
	st->rec.cpuid = mce_cpuid_signature((unsigned)fms[0], (unsigned)fms[1], (unsigned)fms[2]);
}

static bool hex_after(const char *s, const char *key, uint64_t *v)
{
	const char *p = strstr(s, key), *end;

	return p && read_num(p + strlen(key), 16, v, &end);
}

/* "Syndrome1: 0x<SYND1>, Syndrome2: 0x<SYND2>" (the SYND1/SYND2 patch series' amd_decode_mce). */
static void parse_synd12(struct amd_state *st, const char *s)
{
	uint64_t synd1, synd2;

	if (!hex_after(s, "Syndrome1: ", &synd1) || !hex_after(s, "Syndrome2: ", &synd2)) {
		report(st, "bad Syndrome1/Syndrome2 values");
		return;
	}
	mce_vendor_word_set(&st->rec, 0, synd1);
	mce_vendor_word_set(&st->rec, 1, synd2);
}

/*
 * "FRU Text: <text>": the kernel prints the 16 bytes of SYND1..SYND2 as a
 * string only when MCA_CONFIG[9] McaFruTextInMca is set (drivers/edac/
 * mce_amd.c), so the bytes go back into SYND1/SYND2, NUL-padded, and the
 * third vendor-data word records just that known MCA_CONFIG bit.
 */
static void parse_fru_text(struct amd_state *st, const char *s)
{
	size_t n = strlen(s);
	uint8_t bytes[16] = { 0 };
	uint64_t synd1 = 0, synd2 = 0;

	while (n && s[n - 1] == ' ')
		n--;
	if (!n || n > sizeof(bytes)) {
		report(st, "FRU Text is empty or longer than SYND1/SYND2's 16 bytes");
		return;
	}
	memcpy(bytes, s, n);
	for (int i = 7; i >= 0; i--) {
		synd1 = synd1 << 8 | bytes[i];
		synd2 = synd2 << 8 | bytes[8 + i];
	}
	mce_vendor_word_set(&st->rec, 0, synd1);
	mce_vendor_word_set(&st->rec, 1, synd2);
	mce_vendor_word_set(&st->rec, 2, 1ULL << 9);
}

/* The lines of an open block after its header. */
static void parse_field(struct amd_state *st, const char *s)
{
	const char *end;

	if (strncmp(s, "Error Addr: ", 12) == 0 || (strncmp(s, "MC", 2) == 0 && strstr(s, "_ADDR: "))) {
		if (!hex_after(s, ": ", &st->rec.addr))
			report(st, "bad Error Addr value");
	} else if (strncmp(s, "PPIN: ", 6) == 0) {
		st->rec.has_ppin = 1;
		if (!hex_after(s, ": ", &st->rec.ppin))
			report(st, "bad PPIN value");
	} else if (strncmp(s, "IPID: ", 6) == 0) {
		st->rec.has_ipid = 1;
		st->rec.ipid_type_only = 0;
		if (!hex_after(s, "IPID: ", &st->rec.ipid))
			report(st, "bad IPID value");
		if (strstr(s, "Syndrome: ")) {
			st->rec.has_synd = 1;
			if (!hex_after(s, "Syndrome: ", &st->rec.synd))
				report(st, "bad Syndrome value");
		}
	} else if (strncmp(s, "Syndrome1: ", 11) == 0) {
		parse_synd12(st, s);
	} else if (strncmp(s, "FRU Text: ", 10) == 0) {
		parse_fru_text(st, s + 10);
	} else if (strncmp(s, "TSC: ", 5) == 0) {
		if (!read_num(s + 5, 10, &st->rec.tsc, &end))
			report(st, "bad TSC value");
	} else if (strstr(s, " Ext. Error Code: ")) {
		bank_type_from_name(st, s);
	}
}

/* The first line of a block (decode_error_status) ends the previous one. */
static bool is_block_start(const char *s)
{
	static const char *const starts[] = {
		"Corrected error", "Deferred error", "Uncorrected, ", "System Fatal error",
	};

	for (size_t i = 0; i < MCE_ARRAY_SIZE(starts); i++)
		if (strncmp(s, starts[i], strlen(starts[i])) == 0)
			return true;
	return false;
}

static void parse_line(struct amd_state *st, char *line)
{
	static const char tag[] = "[Hardware Error]:";
	char *s = strstr(line, tag);

	if (!s)
		return;
	s += sizeof(tag) - 1;
	while (*s == ' ' || *s == '\t')
		s++;
	if (strncmp(s, "CPU:", 4) == 0 && strstr(s, "_STATUS[")) {
		parse_header(st, s);
	} else if (is_block_start(s)) {
		flush(st);
	} else if (st->open && !st->bad) {
		parse_field(st, s);
	}
}

int mce_amd_text_parse(const char *buf, size_t len, mce_text_record_fn on_record,
		       mce_text_error_fn on_error, void *ctx)
{
	struct amd_state st = { .on_record = on_record, .on_error = on_error, .ctx = ctx };
	char line[MCE_TEXT_MAX_LINE];
	size_t pos = 0;

	if ((!buf && len) || !on_record)
		return -EINVAL;
	while (pos < len && !st.stop) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos, keep;

		st.line++;
		/* Only the start of a line matters; a long tail (symbolised text) is cut. */
		keep = n < sizeof(line) ? n : sizeof(line) - 1;
		memcpy(line, buf + pos, keep);
		line[keep] = '\0';
		for (size_t i = 0; i < keep; i++)
			if (!line[i] || line[i] == '\r')
				line[i] = ' ';
		parse_line(&st, line);
		pos += n + (nl ? 1 : 0);
	}
	flush(&st);
	return st.stop ? st.stop : st.count;
}
