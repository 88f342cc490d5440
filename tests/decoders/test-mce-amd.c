/* SPDX-License-Identifier: MIT */
/*
 * AMD / Hygon golden vectors. Bank types: AMD family 17h/19h/1Ah PPRs,
 * "MCA Banks" (MCA_IPID HardwareID/McaType) and each bank's MCA_STATUS
 * ErrorCodeExt table; register bits: AMD APM Vol. 2 section 9.3; UMC channel
 * and chip select: Linux drivers/edac/amd64_edac.c; pre-SMCA northbridge:
 * BKDG for family 10h, MC4_STATUS extended error codes.
 */
#include <string.h>
#include "decoders/mce.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

#define VAL   (1ULL << 63)
#define UC    (1ULL << 61)
#define EN    (1ULL << 60)
#define MISCV (1ULL << 59)
#define ADDRV (1ULL << 58)
#define PCC   (1ULL << 57)
#define TCC   (1ULL << 55)
#define SYNDV (1ULL << 53)
#define CECC  (1ULL << 46)
#define DEFERRED (1ULL << 44)
#define POISON (1ULL << 43)
#define XEC(x) ((uint64_t)(x) << 16)
#define IPID(hwid, mcatype, inst) (((uint64_t)(mcatype) << 48) | ((uint64_t)(hwid) << 32) | (inst))

static struct mce_in amd_rec(uint32_t cpuid, unsigned bank, uint64_t status, uint64_t ipid)
{
	struct mce_in in;

	memset(&in, 0, sizeof(in));
	in.cpuvendor = 2;
	in.cpuid = cpuid;
	in.bank = (uint8_t)bank;
	in.status = status;
	in.ipid = ipid;
	in.has_ipid = 1;
	in.has_synd = 1;
	return in;
}

/* PPR "MCA Banks" HardwareID/McaType and the ErrorCodeExt=0 meaning of each type. */
static const struct {
	unsigned hwid, mcatype;
	const char *name, *xec0;
} bank_types[] = {
	{ 0xb0, 0x00, "LS", "load queue parity error" },
	{ 0xb0, 0x10, "LS", "data cache ECC error on a probe or victim read" },
	{ 0xb0, 0x01, "IF", "microtag probe port parity error" },
	{ 0xb0, 0x02, "L2", "L2 tag multiple-way hit" },
	{ 0xb0, 0x03, "DE", "micro-op cache tag parity error" },
	{ 0xb0, 0x05, "EX", "watchdog timeout" },
	{ 0xb0, 0x06, "FP", "physical register file parity error" },
	{ 0xb0, 0x07, "L3", "shadow tag ECC error" },
	{ 0x2e, 0x00, "CS", "illegal request" },
	{ 0x2e, 0x01, "PIE", "hardware assertion" },
	{ 0x2e, 0x02, "CS", "illegal request" },
	{ 0x2e, 0x04, "MA_LLC", "counter overflow" },
	{ 0x96, 0x00, "UMC", "DRAM ECC error" },
	{ 0x96, 0x01, "UMC_V2", "DRAM ECC error" },
	{ 0x05, 0x00, "PB", "parameter block RAM ECC error" },
	{ 0xff, 0x00, "PSP", "PSP RAM ECC or parity error" },
	{ 0xff, 0x01, "PSP", "high SRAM ECC or parity error" },
	{ 0x01, 0x00, "SMU", "SMU RAM ECC or parity error" },
	{ 0x01, 0x01, "SMU", "high SRAM ECC or parity error" },
	{ 0x01, 0x02, "MP5", "high SRAM ECC or parity error" },
	{ 0x01, 0x03, "MPDMA", "main SRAM [31:0] bank ECC or parity error" },
	{ 0x18, 0x00, "NBIO", "ECC or parity error" },
	{ 0x46, 0x00, "PCIE", "CCIX PER message logged" },
	{ 0x46, 0x01, "PCIE", "SDP data parity error" },
	{ 0x50, 0x00, "XGMI_PCS", "data loss" },
	{ 0x6c, 0x00, "NBIF", "timeout from GMI" },
	{ 0x80, 0x00, "SHUB", "timeout from GMI" },
	{ 0xa8, 0x00, "SATA", "parity error, port 0" },
	{ 0xaa, 0x00, "USB", "S0 RAM0 parity or ECC error" },
	{ 0x170, 0x00, "USR_DP", "master command error" },
	{ 0x180, 0x00, "USR_CP", "packet type error" },
	{ 0x241, 0x00, "GMI_PCS", "data loss" },
	{ 0x259, 0x00, "XGMI_PHY", "RAM ECC error" },
	{ 0x267, 0x00, "WAFL_PHY", "RAM ECC error" },
	{ 0x269, 0x00, "GMI_PHY", "RAM ECC error" },
};

static void test_bank_types(void)
{
	struct mce_decoded out;

	for (size_t i = 0; i < sizeof(bank_types) / sizeof(bank_types[0]); i++) {
		struct mce_in in = amd_rec(0xa00f11, 5, VAL | EN | 0x0000,
					   IPID(bank_types[i].hwid, bank_types[i].mcatype, 0));

		mce_decode(&in, &out);
		tap_is_str(out.bank_name, bank_types[i].name, "HWID 0x%x McaType 0x%x bank type",
			   bank_types[i].hwid, bank_types[i].mcatype);
		tap_is_str(out.error_text, bank_types[i].xec0, "HWID 0x%x McaType 0x%x code 0",
			   bank_types[i].hwid, bank_types[i].mcatype);
		tap_ok(out.smca_bank_type[0] != '\0', "HWID 0x%x McaType 0x%x long name %s",
		       bank_types[i].hwid, bank_types[i].mcatype, out.smca_bank_type);
	}
}

static void test_umc(void)
{
	/* Zen 3 (19h/01h) UMC corrected DRAM ECC: a common real-world status value. */
	struct mce_in in = amd_rec(0xa00f11, 16, VAL | EN | MISCV | ADDRV | SYNDV | CECC | 0x011b,
				   IPID(0x96, 0, 0x00350f00));
	struct mce_decoded out;

	in.synd = 0x5a000002;
	in.addr = (12ULL << 56) | 0x1234567000ULL;
	in.socketid = 1;
	mce_decode(&in, &out);
	tap_is_str(out.vendor, "AMD", "vendor");
	tap_is_str(out.cpu_model_name, "Zen 3/Zen 4 (family 19h)", "family name");
	tap_is_str(ras_severity_name(out.severity), "corrected", "UMC CE severity");
	tap_is_str(out.error_class, "memory", "UMC class");
	tap_is_str(out.error_text, "DRAM ECC error", "UMC code 0");
	tap_is_int(out.channel, 3, "channel = IPID InstanceId[31:20]");
	tap_is_int(out.chip_select, 2, "chip select = SYND[2:0] with SyndV");
	tap_is_int(out.socket, 1, "socket from the record");
	tap_is_int(out.smca_hwid, 0x96, "HWID");
	tap_is_int(out.smca_instance, 0x00350f00, "InstanceId");
	tap_is_int(out.smca_instance_hi, 0, "InstanceIdHi");
	tap_is_int(out.addr_lsb, 12, "MCA_ADDR[61:56] address LSB");
	tap_is_int(out.addr, 0x1234567000LL, "address without the LSB field");
	tap_is_str(SAID(out),
		   "Corrected DRAM ECC error on socket 1, channel 3, chip select 2 (Zen 3/Zen 4 (family 19h), bank 16 UMC)",
		   "summary sentence");

	in.status = VAL | MISCV | ADDRV | SYNDV | DEFERRED | 0x011b;
	mce_decode(&in, &out);
	tap_is_str(ras_severity_name(out.severity), "deferred", "Deferred=1 UC=0: deferred");
	tap_is_int(out.deferred, 1, "deferred flag");

	in.status = VAL | EN | 0x011b;
	in.has_synd = 0;
	mce_decode(&in, &out);
	tap_is_int(out.chip_select, RAS_DF_NONE, "no chip select without SyndV");
}

static void test_core_severity(void)
{
	struct mce_in in = amd_rec(0xa00f11, 0, VAL | UC | EN | ADDRV | TCC | POISON | XEC(12) | 0x0136,
				   IPID(0xb0, 0, 0));
	struct mce_decoded out;

	mce_decode(&in, &out);
	tap_is_str(out.error_text, "data cache data error (type 1, poison consumed)", "LS code 12");
	tap_is_int(out.poison, 1, "poison flag");
	tap_is_str(ras_severity_name(out.severity), "srar", "UC without PCC on SMCA: action required");
	tap_is_str(out.error_class, "cache", "class from the error code");

	in.status |= PCC;
	mce_decode(&in, &out);
	tap_is_str(ras_severity_name(out.severity), "fatal", "PCC: fatal");

	in = amd_rec(0xa00f11, 0, VAL | EN | XEC(40), IPID(0xb0, 0, 0));
	mce_decode(&in, &out);
	tap_ok(strstr(out.error_text, "not documented") != NULL, "undocumented code is not invented: %s", out.error_text);
}

static void test_quirks_and_bad_input(void)
{
	struct mce_in in = amd_rec(mce_cpuid_signature(0x19, 0x11, 1), 20, VAL | EN | XEC(9),
				   IPID(0x2e, 2, 0));
	struct mce_decoded out;

	/* Genoa revision guide erratum 1384: CS code 9 re-assigned. */
	mce_decode(&in, &out);
	tap_is_str(out.error_text, "SDP read response with an unexpected RETRY", "family 19h model 11h CS code 9");
	in.cpuid = mce_cpuid_signature(0x19, 0x01, 1);
	mce_decode(&in, &out);
	tap_is_str(out.error_text, "probe filter protocol error", "family 19h model 01h CS code 9");

	in = amd_rec(mce_cpuid_signature(0x19, 0x90, 1), 16, VAL | EN, IPID(0x96, 0, 0));
	mce_decode(&in, &out);
	tap_is_str(out.error_text, "DRAM on-die ECC error", "family 19h model 90h UMC code table");

	in = amd_rec(0xa00f11, 9, VAL | EN | 0x011b, IPID(0x123, 0, 0));
	mce_decode(&in, &out);
	tap_is_str(out.decode_note, "unknown SMCA bank type (HardwareID 0x123, McaType 0x0000)", "unknown HWID note");
	tap_is_str(out.error_class, "cache", "unknown bank type keeps the architectural class");

	in = amd_rec(0xa00f11, 9, VAL | EN | 0x011b, 0);
	in.has_ipid = 0;
	mce_decode(&in, &out);
	tap_is_str(out.decode_note, "SMCA record without MCA_IPID: bank type unknown", "missing IPID note");

	in = amd_rec(mce_cpuid_signature(0x18, 0, 1), 16, VAL | EN | 0x011b, IPID(0x96, 0, 0x00150f00));
	in.cpuvendor = 9;
	mce_decode(&in, &out);
	tap_is_str(out.vendor, "Hygon", "Hygon vendor");
	tap_is_str(out.bank_name, "UMC", "Hygon decodes as SMCA");
	tap_is_int(out.channel, 1, "Hygon UMC channel");
}

static void test_legacy(void)
{
	struct mce_in in = amd_rec(mce_cpuid_signature(0x10, 4, 2), 4, VAL | EN | ADDRV | XEC(8) | 0x011b, 0);
	struct mce_decoded out;

	in.has_ipid = 0;
	mce_decode(&in, &out);
	tap_is_str(out.bank_name, "NB", "family 10h MC4 is the northbridge");
	tap_ok(strncmp(out.model_text, "DRAM ECC error detected by the northbridge;", 43) == 0,
	       "NB extended code 8: %s", out.model_text);
	tap_is_str(out.error_class, "memory", "NB DRAM ECC is a memory error");
	tap_is_str(ras_severity_name(out.severity), "corrected", "corrected");

	in = amd_rec(mce_cpuid_signature(0x15, 2, 0), 2, VAL | UC | EN | 0x0000, 0);
	mce_decode(&in, &out);
	tap_is_str(out.bank_name, "CU", "family 15h MC2 is the combined unit");
	tap_is_str(ras_severity_name(out.severity), "fatal", "pre-SMCA UC error is fatal (no recovery support)");

	in = amd_rec(mce_cpuid_signature(0x16, 0, 1), 2, VAL | EN, 0);
	mce_decode(&in, &out);
	tap_is_str(out.bank_name, "L2", "family 16h MC2 is the L2 cache");
}

int main(void)
{
	test_bank_types();
	test_umc();
	test_core_severity();
	test_quirks_and_bad_input();
	test_legacy();
	return tap_done();
}
