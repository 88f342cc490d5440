/* SPDX-License-Identifier: MIT */
/*
 * Golden vectors of the vendor CPER sections (decoders/cper_<vendor>.c),
 * through nonstd_decode as ras:non_standard_event carries them and through
 * arm_decode for Ampere's ARM vendor data. Each vector's bytes follow the
 * layout its decoder's header cites; the comments say which field is which.
 */
#include <errno.h>
#include <string.h>
#include "decoders/cper.h"
#include "decoders/other_util.h"
#include "tests/decoders/said.h"
#include "tests/decoders/vendor_vectors.h"
#include "tests/tap.h"

static struct nonstd_decoded d;

static void decode(const char *guid, uint8_t sev, const uint8_t *buf, size_t n)
{
	struct nonstd_in in = { .sev = sev, .len = (uint32_t)n, .buf = buf, .buf_len = n };

	vv_guid(guid, in.sec_type);
	nonstd_decode(&in, &d);
}

/* The sentence from the stored fields alone equals the one from the decoding. */
static void check_rebuilt(const char *what)
{
	static struct nonstd_decoded copy;
	char a[RAS_SUMMARY_LEN], b[RAS_SUMMARY_LEN];

	memset(&copy, 0, sizeof(copy));
	copy.head = d.head;
	for (size_t i = 0; i < nonstd_n_dfields; i++)
		memcpy((char *)&copy + nonstd_dfields[i].offset, (const char *)&d + nonstd_dfields[i].offset,
		       nonstd_dfields[i].size);
	nonstd_render(&d, a, sizeof(a));
	nonstd_render(&copy, b, sizeof(b));
	tap_is_str(b, a, "%s: the stored fields say the same sentence", what);
}

static void test_hisi_oem1(void)
{
	uint8_t b[40] = { 0 };

	/* val_bits: socket, nimbus, module, sub-module, severity, MISC0 and ADDR (1-6, 11). */
	vv_put32(b, 0x87e);
	b[4] = 1, b[6] = 0, b[7] = 1, b[8] = 1 /* PLL */, b[9] = 4 /* TA_PLL0 */, b[10] = 0;
	vv_put32(b + 12, 0xdead);
	vv_put64(b + 32, 0x4000);
	decode(VV_HISI_OEM1, 0, b, sizeof(b));
	tap_is_str(d.sec_type_name, "HiSilicon OEM Type 1", "OEM1: section named");
	tap_is_str(d.v.vendor, "HiSilicon", "OEM1: vendor");
	tap_is_str(d.v.platform, "Kunpeng 920", "OEM1: HIP08 is the Kunpeng 920");
	tap_is_str(d.v.module, "PLL", "OEM1: module 1 is the PLL");
	tap_is_str(d.v.sub_module, "TA_PLL0", "OEM1: PLL sub-module 4 is TA_PLL0");
	tap_is_str(d.v.vendor_severity, "recoverable", "OEM1: err_severity 0 is non-fatal");
	tap_is_int(d.v.socket, 0, "OEM1: socket");
	tap_is_int(d.v.die, 1, "OEM1: nimbus");
	tap_is_str(d.v.registers, "version 0x1, ERR_MISC0 0xdead, ERR_ADDR 0x4000",
		   "OEM1: only the valid registers, named");
	tap_is_str(d.location, "HiSilicon Kunpeng 920 socket 0, nimbus 1, TA_PLL0", "OEM1: location");
	tap_is_str(d.v.part, "", "OEM1: a PLL is not a part thresholds count against");
	tap_is_str(SAID(d), "HiSilicon Kunpeng 920 socket 0, nimbus 1, TA_PLL0: recoverable clock PLL"
		   " error, address 0x4000 (HiSilicon HIP08 OEM type 1 section)", "OEM1: sentence");
	check_rebuilt("OEM1");
	/* Module 6 is not in type 1's table. */
	b[8] = 6;
	decode(VV_HISI_OEM1, 2, b, sizeof(b));
	tap_is_str(d.v.module, "module 6", "OEM1: an unknown module keeps its number");
}

static void test_hisi_oem2(void)
{
	uint8_t b[64];
	size_t n = vv_hisi_oem2(b);

	decode(VV_HISI_OEM2, 2, b, n);
	tap_is_str(d.v.module, "DDRC", "OEM2: module 4 is the DDR controller");
	tap_is_str(d.v.sub_module, "TA_DDRC1", "OEM2: DDRC sub-module 5 is TA_DDRC1");
	tap_is_str(d.v.vendor_severity, "corrected", "OEM2: err_severity 2");
	tap_is_str(d.v.detail, "DDR memory controller error, external memory (DRAM) data error,"
		   " address 0x123440", "OEM2: the RAS record's status and address in words");
	tap_is_str(d.v.registers, "version 0x1, ERR_FR 0x1122, ERR_CTLR 0x3344, ERR_STATUS 0xc100000c,"
		   " ERR_ADDR 0x8000000000123440, ERR_MISC0 0x55, ERR_MISC1 0x66",
		   "OEM2: registers joined from their 32-bit halves");
	tap_is_str(d.v.part_class, "memory", "OEM2: a DDRC is memory");
	tap_is_str(d.v.part, "HiSilicon Kunpeng 920 socket 1, nimbus 0, TA_DDRC1",
		   "OEM2: the part is the DDRC");
	tap_is_int(d.severity, RAS_SEV_CORRECTED, "OEM2: the record's CPER severity");
	check_rebuilt("OEM2");
	/* Cut short: the header still names the place, and says what is missing. */
	decode(VV_HISI_OEM2, 2, b, 30);
	tap_ok(strstr(d.v.detail, "section too short: 30 of 60 bytes") != NULL,
	       "OEM2: a short section says so (%s)", d.v.detail);
	tap_is_str(d.v.registers, "version 0x1", "OEM2: no register read past the end");
	decode(VV_HISI_OEM2, 2, b, 5);
	tap_is_str(d.location, "platform", "OEM2: 5 bytes name nothing");
}

static void test_hisi_pcie_local(void)
{
	uint8_t b[152] = { 0 };

	/* val_bits: version, soc, socket, nimbus, sub-module, core, port, type, severity (0-8), MISC 0 and 32 (9, 41). */
	vv_put64(b, 0x1ff | 1ULL << 9 | 1ULL << 41);
	b[8] = 2, b[9] = 1, b[10] = 1, b[11] = 0, b[12] = 1 /* TL */, b[13] = 2, b[14] = 3, b[15] = 1;
	vv_put16(b + 16, 0x4);
	vv_put32(b + 20, 0xa);
	vv_put32(b + 20 + 4 * 32, 0xb);
	decode(VV_HISI_PCIE, 1, b, sizeof(b));
	tap_is_str(d.v.module, "PCIe local", "PCIe local: module");
	tap_is_str(d.v.sub_module, "transaction layer", "PCIe local: sub-module 1 is the transaction layer");
	tap_is_int(d.v.core, 2, "PCIe local: core");
	tap_is_int(d.v.port, 3, "PCIe local: port");
	tap_is_int(d.v.err_type, 4, "PCIe local: error type");
	tap_is_str(d.v.vendor_severity, "fatal", "PCIe local: err_severity 1");
	tap_is_str(d.v.registers, "version 0x2, SOC_ID 0x1, ERR_MISC_0 0xa, ERR_MISC_32 0xb",
		   "PCIe local: the 33 misc registers by their valid bits");
	tap_is_str(d.v.part, "HiSilicon socket 1 nimbus 0 PCIe core 2 port 3", "PCIe local: the port is the part");
	tap_is_str(d.location, "HiSilicon Kunpeng 920 socket 1, nimbus 0, PCIe local transaction layer,"
		   " core 2, port 3", "PCIe local: location");
	check_rebuilt("PCIe local");
}

static void common(uint8_t *b, uint32_t valid, uint8_t module, uint8_t sub)
{
	memset(b, 0, 40);
	vv_put32(b, valid);
	b[4] = 1, b[5] = 1 /* Kunpeng 920 */, b[6] = 1, b[7] = 0, b[8] = 2, b[10] = module, b[11] = sub;
	b[24] = 2;
	vv_put32(b + 28, 8);
	vv_put32(b + 32, 0x11);
	vv_put32(b + 36, 0x22);
}

static void test_hisi_common(void)
{
	/* Module names of the common section, ids 0-59 (rasdaemon non-standard-hisilicon.c). */
	static const struct { uint8_t id; const char *name; } mods[] = {
		{ 0, "MN" }, { 13, "SMMU" }, { 16, "DDRC" }, { 17, "L3TAG" }, { 18, "L3DATA" },
		{ 20, "HHA" }, { 21, "PCIe Local" }, { 27, "ZIP" }, { 40, "HBMC" }, { 59, "LC300" },
	};
	uint8_t b[40];

	/* soc, socket, totem, nimbus, module, sub-module, severity, register array (0-3, 5, 6, 11, 12). */
	common(b, 0x186f, 16, 3);
	decode(VV_HISI_COMMON, 2, b, sizeof(b));
	tap_is_str(d.sec_type_name, "HiSilicon Common", "common: section named");
	tap_is_str(d.v.platform, "Kunpeng 920", "common: soc_id 1");
	tap_is_str(d.location, "HiSilicon Kunpeng 920 socket 1, totem 0, DDRC 3",
		   "common: the compute die and the DDRC");
	tap_is_str(d.v.registers, "version 0x1, nimbus 0x2, totem 0x0, reg00 0x11, reg01 0x22",
		   "common: register array of 8 bytes is 2 registers");
	tap_is_str(d.v.part_class, "memory", "common: DDRC is memory");
	check_rebuilt("common");
	for (size_t i = 0; i < OU_ARRAY_SIZE(mods); i++) {
		common(b, 0x20, mods[i].id, 0);
		decode(VV_HISI_COMMON, 2, b, sizeof(b));
		tap_is_str(d.v.module, mods[i].name, "common: module %u", mods[i].id);
	}
	for (unsigned id = 0; id < 60; id++) {
		common(b, 0x20, (uint8_t)id, 0);
		decode(VV_HISI_COMMON, 2, b, sizeof(b));
		if (!strncmp(d.v.module, "module ", 7))
			tap_ok(0, "common: module %u has a name", id);
	}
	common(b, 0x20, 60, 0);
	decode(VV_HISI_COMMON, 2, b, sizeof(b));
	tap_is_str(d.v.module, "module 60", "common: module 60 unnamed");
	/* PCIe Local with its function: segment 0, bus 0x7c, device 0, function 1. */
	common(b, 0x420, 21, 0);
	b[16] = 1, b[17] = 0, b[20] = 0x7c;
	decode(VV_HISI_COMMON, 2, b, sizeof(b));
	tap_is_str(d.v.pci_dev, "0000:7c:00.1", "common: PCIe function");
	tap_is_str(d.v.part_class, "pcie", "common: a PCIe error's part class");
	/* A register array longer than the section: what is there, and a note. */
	common(b, 0x1020, 16, 0);
	vv_put32(b + 28, 400);
	decode(VV_HISI_COMMON, 2, b, sizeof(b));
	tap_ok(strstr(d.v.detail, "section too short: 40 of 432 bytes") != NULL,
	       "common: array past the end noted (%s)", d.v.detail);
}

static void test_nvidia(void)
{
	uint8_t b[160] = { 0 };
	size_t n = vv_grace(b);

	decode(VV_NVIDIA_GRACE, 2, b, n);
	tap_is_str(d.v.module, "CMET-INFO", "Grace: signature");
	tap_is_str(d.v.vendor_severity, "corrected", "Grace: severity 2");
	tap_is_int(d.v.socket, 1, "Grace: socket");
	tap_is_int(d.v.err_type, 3, "Grace: error type");
	tap_is_str(d.v.registers, "instance_base 0x4f10000, @0x4f10008 0x2019, @0x4f10010 0x7",
		   "Grace: register pairs by address");
	tap_is_str(d.location, "NVIDIA Grace socket 1, CMET-INFO instance 2", "Grace: location");
	check_rebuilt("Grace");
	b[21] = 0xff;
	b[22] = 9;
	decode(VV_NVIDIA_GRACE, 2, b, n);
	tap_ok(d.v.socket == RAS_DF_NONE, "Grace: socket 255 is none");
	tap_ok(strstr(d.v.detail, "section too short: 64 of 176 bytes") != NULL,
	       "Grace: more registers claimed than carried (%s)", d.v.detail);

	/* Vera: event (version 1, 2 contexts, CPU), CPU info of 32 bytes, two contexts. */
	memset(b, 0, sizeof(b));
	b[0] = 1, b[1] = 2, b[2] = 0;
	vv_put16(b + 4, 7), vv_put16(b + 6, 1);
	vv_put64(b + 8, 0x99);
	memcpy(b + 16, "L1-RESET", 8);
	vv_put16(b + 32, 0x0001), b[34] = 32, b[35] = 1;
	vv_put32(b + 36, 0xd0c);
	vv_put64(b + 56, 0x5000);
	/* Context 0: format 1, one (u64, u64) pair; size 32. */
	vv_put32(b + 64, 32), vv_put16(b + 72, 1), vv_put32(b + 76, 16);
	vv_put64(b + 80, 0x100), vv_put64(b + 88, 0x1);
	/* Context 1: format 4, two u32 values; size 32 (padded). */
	vv_put32(b + 96, 32), vv_put16(b + 104, 4), vv_put32(b + 108, 8);
	vv_put32(b + 112, 0xa), vv_put32(b + 116, 0xb);
	decode(VV_NVIDIA_VERA, 3, b, 128);
	tap_is_str(d.v.module, "L1-RESET", "Vera: signature");
	tap_is_int(d.v.socket, 1, "Vera: socket");
	tap_is_str(d.v.registers, "event_link_id 0x99, architecture 0xd0c, instance_base 0x5000,"
		   " ctx0@0x100 0x1, ctx1[0] 0xa, ctx1[1] 0xb", "Vera: contexts by format");
	check_rebuilt("Vera");
	b[0] = 2;
	decode(VV_NVIDIA_VERA, 3, b, 128);
	tap_ok(strstr(d.v.detail, "not published") != NULL, "Vera: version 2 is not decoded");
	b[0] = 1;
	vv_put32(b + 108, 9);
	decode(VV_NVIDIA_VERA, 3, b, 128);
	tap_ok(strstr(d.v.detail, "context 1 malformed") != NULL, "Vera: data not whole u32 values");
}

static void test_yitian(void)
{
	uint8_t b[128];
	size_t n = vv_yitian(b);

	decode(VV_YITIAN, 2, b, n);
	tap_is_str(d.location, "Alibaba Yitian 710, DDRC 3", "Yitian: location");
	tap_is_str(d.v.detail, "ECC error, rank 1, bank group 2, bank 3, row 0x1a2b, column 0x40, bit 5,"
		   " 2 corrected and 0 uncorrected counted", "Yitian: DRAM address from ECCCADDR0/1");
	tap_is_str(d.v.part, "Alibaba Yitian 710, DDRC 3", "Yitian: the DDR controller is the part");
	tap_ok(strstr(d.v.registers, "ECCSTAT 0x105, ECCERRCNT 0x2, ECCCADDR0 0x1001a2b") != NULL,
	       "Yitian: registers named");
	tap_is_str(SAID(d), "Alibaba Yitian 710, DDRC 3: corrected ECC error, rank 1, bank group 2,"
		   " bank 3, row 0x1a2b, column 0x40, bit 5, 2 corrected and 0 uncorrected counted"
		   " (Alibaba DDR register dump section)", "Yitian: sentence");
	check_rebuilt("Yitian");
	b[0] = 0x51;
	decode(VV_YITIAN, 2, b, n);
	tap_ok(strstr(d.v.detail, "payload type 0x51 not published") != NULL, "Yitian: other payloads named only");
}

static void jm_head(uint8_t *b, uint8_t subsys, uint8_t mod, uint8_t sub, uint8_t dev)
{
	/* version, soc, subsystem, module, sub-module, device, type, severity, register array (0-7, 11). */
	vv_put32(b, 0x8ff);
	b[4] = 1, b[5] = 0, b[6] = subsys, b[7] = mod, b[8] = sub, b[9] = dev;
	vv_put16(b + 10, 5);
	b[12] = 2;
}

static void test_jm(void)
{
	uint8_t b[160] = { 0 };

	jm_head(b, 2 /* DDRH */, 0 /* DDRCtrl */, 0, 1);
	vv_put32(b + 16 + 4 * 6, (uint32_t)VV_STATUS_CE_DRAM);  /* ECC_STATUS_LOW32 */
	vv_put32(b + 76, 1);
	vv_put32(b + 80, 0xab);
	decode(VV_JM0, 2, b, 84);
	tap_is_str(d.location, "JaguarMicro Corsica 1.0, DDRH DDRCtrl channel 1", "JM0: location");
	tap_is_str(d.v.vendor_severity, "corrected", "JM0: severity");
	tap_is_str(d.v.detail, "DDRH DDRCtrl error, external memory (DRAM) data error", "JM0: status in words");
	tap_ok(strstr(d.v.registers, "ECC_STATUS_LOW32 0xc100000c") && strstr(d.v.registers, "reg00 0xab"),
	       "JM0: payload and extra registers");
	tap_is_str(d.v.part_class, "memory", "JM0: a DDR controller is memory");
	check_rebuilt("JM0");

	memset(b, 0, sizeof(b));
	jm_head(b, 5 /* IOSUB */, 0 /* SMMU */, 1 /* TCU */, 0);
	decode(VV_JM1, 1, b, 40);
	tap_is_str(d.location, "JaguarMicro Corsica 1.0, IOSUB SMMU TCU device 0", "JM1: IOSUB SMMU TCU");
	tap_is_str(d.v.section, "payload type 1", "JM1: section");

	memset(b, 0, sizeof(b));
	jm_head(b, 12 /* HAC */, 0 /* SRAM */, 0, 0);
	vv_put32(b + 16, 4);
	decode(VV_JM2, 2, b, 36);
	tap_ok(strstr(d.v.detail, "single-bit SRAM ECC error") != NULL, "JM2: single-bit SRAM");

	memset(b, 0, sizeof(b));
	jm_head(b, 1 /* CMN */, 2 /* HNF */, 0, 7);
	vv_put64(b + 16 + 8 * 11, VV_STATUS_CE_DRAM);
	decode(VV_JM5, 2, b, 132);
	tap_is_str(d.location, "JaguarMicro Corsica 1.0, CMN HNF node 7", "JM5: mesh node");
	tap_ok(strstr(d.v.detail, "external memory (DRAM) data error") != NULL, "JM5: secure record decoded");

	memset(b, 0, sizeof(b));
	jm_head(b, 4 /* GIC */, 0, 0, 0);
	decode(VV_JM6, 0, b, 84);
	tap_is_str(d.v.module, "GIC GICIP", "JM6: GIC");
	tap_ok(strstr(d.v.detail, "error record not valid") != NULL, "JM6: a record without V says so");
	decode(VV_JM6, 0, b, 20);
	tap_ok(strstr(d.v.detail, "section too short: 20 of 80 bytes") != NULL, "JM6: short");
}

static void test_ampere(void)
{
	uint8_t b[48];
	size_t n = vv_ampere_mcu(b);

	decode(VV_AMPERE, 2, b, n);
	tap_is_str(d.location, "Ampere Altra socket 1, MCU 3 ERR2", "Ampere: MCU 3 record ERR2 on socket 1");
	tap_is_str(d.v.part, "Ampere Altra socket 1, MCU 3", "Ampere: the part is the MCU");
	tap_is_str(d.v.detail, "memory controller error, external memory (DRAM) data error, address 0x8765000",
		   "Ampere: the record in words");
	check_rebuilt("Ampere 0");
	/* CPM sub-type 2 of instance 5: core 11 (instance * 2 + sub-type - 1). */
	b[0] = 0, b[1] = 2;
	vv_put16(b + 2, 5);
	decode(VV_AMPERE, 2, b, n);
	tap_is_int(d.v.core, 11, "Ampere: CPM core number");
	/* Payload 1, PCIe AER root port: uncorrectable status bit 4 (data link protocol). */
	memset(b, 0, sizeof(b));
	b[0] = 1 << 6 | 7, b[1] = 0;
	vv_put32(b + 4, 1u << 4);
	decode(VV_AMPERE, 0, b, n);
	tap_is_str(d.location, "Ampere Altra socket 0, PCIe AER 0 root port", "Ampere: PCIe AER");
	tap_ok(strstr(d.v.detail, "uncorrectable: Data Link Protocol Error") != NULL,
	       "Ampere: AER status in words (%s)", d.v.detail);
	/* Payload 2, RASDP sub-type 8; payload 3, BERT watchdog. */
	b[0] = 2 << 6 | 8, b[1] = 8;
	decode(VV_AMPERE, 0, b, n);
	tap_is_str(d.v.sub_module, "RAS data path", "Ampere: RASDP sub-type 8");
	b[0] = 3 << 6 | 63, b[1] = 1;
	decode(VV_AMPERE, 1, b, n);
	tap_is_str(d.location, "Ampere Altra socket 0, BERT 0 watchdog", "Ampere: BERT watchdog");
	tap_ok(strstr(d.v.registers, "FW_DATA5 0x0") != NULL, "Ampere: firmware data");
	b[0] = 6, b[1] = 0x64;
	decode(VV_AMPERE, 1, b, n);
	tap_is_str(d.v.sub_module, "TCU", "Ampere: SMMU sub-type 0x64 is the TCU");
}

static void test_arm_vendor_data(void)
{
	static struct arm_decoded a;
	uint8_t oem[48];
	size_t n = vv_ampere_mcu(oem);
	/* Neoverse-N1 r3p1 (MIDR 0x413fd0c1): Altra's cores say Arm, not Ampere. */
	struct arm_in in = { .midr = 0x413fd0c1, .running_state = 1, .has_buffers = 1, .has_sev = 1,
			     .sev = 2, .oem_len = (uint32_t)n, .oem_buf = oem, .oem_buf_len = n };

	arm_decode(&in, &a);
	tap_is_str(a.v.vendor, "", "ARM vendor data: not decoded without the SoC id");
	in.soc_id = "jep106:0a16:0001";
	arm_decode(&in, &a);
	tap_is_str(a.v.module, "MCU 3", "ARM vendor data: Altra's record decoded");
	tap_ok(strstr(SAID(a), "; Ampere Altra vendor data, socket 1, MCU 3 ERR2: memory controller error,"
		      " external memory (DRAM) data error") != NULL, "ARM vendor data: in the sentence (%s)",
	       SAID(a));
	in.soc_id = "jep106:036b:0001";
	arm_decode(&in, &a);
	tap_is_str(a.v.vendor, "", "ARM vendor data: another SoC's is left in hex");
}

static void test_unknown_and_matching(void)
{
	uint8_t b[64];
	size_t n = vv_ampere_mcu(b);
	struct cper_vendor v;

	decode("00112233-4455-6677-8899-aabbccddeeff", 2, b, n);
	tap_is_str(d.v.vendor, "", "unknown GUID: no vendor fields");
	tap_ok(strstr(SAID(d), "vendor-specific section (00112233-4455-6677-8899-aabbccddeeff)") != NULL,
	       "unknown GUID: GUID and bytes as before");
	for (size_t i = 0; i < 48; i++) {
		decode(VV_HISI_COMMON, 2, b, i);
		decode(VV_NVIDIA_VERA, 2, b, i);
		decode(VV_JM5, 2, b, i);
	}
	tap_ok(1, "every vendor decoder takes every short length");
	cper_vendor_reset(&v);
	tap_ok(!cper_vendor_matches(&v, "hisilicon"), "match: an empty decoding matches nothing");
	decode(VV_AMPERE, 2, b, n);
	tap_ok(cper_vendor_matches(&d.v, "ampere") && cper_vendor_matches(&d.v, "Altra") &&
	       !cper_vendor_matches(&d.v, "KunPeng9xx"), "match: by vendor, platform and platform id");
	decode(VV_HISI_OEM2, 2, b, vv_hisi_oem2(b));
	tap_ok(cper_vendor_matches(&d.v, "KunPeng9xx") && cper_vendor_matches(&d.v, "kunpeng 920"),
	       "match: rasdaemon's platform id");
}

int main(void)
{
	test_hisi_oem1();
	test_hisi_oem2();
	test_hisi_pcie_local();
	test_hisi_common();
	test_nvidia();
	test_yitian();
	test_jm();
	test_ampere();
	test_arm_vendor_data();
	test_unknown_and_matching();
	return tap_done();
}
