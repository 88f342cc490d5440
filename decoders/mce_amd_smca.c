/* SPDX-License-Identifier: MIT */
/*
 * AMD Scalable MCA (Zen, family 17h and later; Hygon family 18h) bank types
 * and their extended error code (MCA_STATUS[21:16]) names.
 *
 * Facts: AMD PPRs for families 17h/19h/1Ah ("MCA Banks", MCA_IPID HardwareID
 * and McaType, per-bank MCA_STATUS ErrorCodeExt tables), as also tabulated
 * in Linux arch/x86/kernel/cpu/mce/amd.c (smca_hwid_mcatypes) and
 * drivers/edac/mce_amd.c (per-type error descriptions). Re-worded here.
 */
#include "mce_amd.h"

#define XEC(t) t, MCE_ARRAY_SIZE(t)

static const char *const ls_xec[] = {
	"load queue parity error", "store queue parity error",
	"miss address buffer payload parity error", "L1 TLB parity error",
	"data cache tag error (type 5)", "data cache tag error (type 6)",
	"data cache tag error (type 1)", "internal error (type 1)", "internal error (type 2)",
	"system read data error, thread 0", "system read data error, thread 1",
	"data cache tag error (type 2)", "data cache data error (type 1, poison consumed)",
	"data cache data error (type 2)", "data cache data error (type 3)",
	"data cache tag error (type 4)", "L2 TLB parity error", "page directory cache parity error",
	"data cache tag error (type 3)", "data cache tag error (type 5)", "L2 fill data error",
	"store commit buffer state/address error", "store commit buffer data error, commit pipe 0",
	"store commit buffer data error, commit pipe 1",
	"store commit buffer data error for non-cacheable DRAM or I/O",
	"system read data error seen by the write-combining buffer", "hardware assertion",
};

static const char *const ls2_xec[] = {
	"data cache ECC error on a probe or victim read", "data cache ECC error or L2 poison on a load",
	"data cache ECC error on a store read-modify-write",
	"data cache tag ECC or poison mismatch on a probe or victim read",
	"data cache tag ECC or poison mismatch on a load",
	"data cache tag ECC or poison mismatch on a store", "EMEM ECC error on a load",
	"EMEM ECC error on a store read-modify-write", "L1 TLB parity error", "L2 TLB parity error",
	"page walk cache parity error", "store queue parity error", "load queue parity error",
	"miss address buffer parity error", "store commit buffer state parity error",
	"store commit buffer address parity error", "store commit buffer data parity error",
	"write-combining buffer parity error", "poisoned line in the store commit buffer",
	"system read data error on L2 data for a load",
	"system read data error on L2 data for a store commit buffer store",
	"system read data error on L2 data for a write-combining store", "hardware assertion",
	"store-to-load forward, EMEM, store mask or store data parity error",
};

static const char *const if_xec[] = {
	"microtag probe port parity error", "instruction cache microtag or full tag multi-hit",
	"instruction cache full tag parity error", "instruction cache data array parity error",
	"prefetch request queue parity error", "L0 ITLB parity error", "L1 ITLB parity error",
	"L2 ITLB parity error", "branch prediction queue snoop parity, thread 0",
	"branch prediction queue snoop parity, thread 1", "L1 branch target buffer multi-hit",
	"L2 branch target buffer multi-hit", "L2 cache response poison", "system read data error",
	"hardware assertion", "L1 TLB multi-hit", "L2 TLB multi-hit", "BSR parity error",
	"CT machine check",
};

static const char *const l2_xec[] = {
	"L2 tag multiple-way hit", "L2 tag or state array ECC error", "L2 data array ECC error",
	"hardware assertion", "SDP read response parity error",
	"error raised by the programmable state machine",
};

static const char *const de_xec[] = {
	"micro-op cache tag parity error", "micro-op cache data parity error",
	"instruction byte buffer register file parity error", "micro-op queue parity error",
	"instruction dispatch queue parity error", "fetch address FIFO parity error",
	"patch RAM data parity error", "patch RAM sequencer parity error",
	"micro-op fetch queue parity error", "hardware assertion",
};

static const char *const ex_xec[] = {
	"watchdog timeout", "physical register file parity error", "flag register file parity error",
	"immediate/displacement register file parity error", "address generator payload parity error",
	"execution payload parity error", "checkpoint queue parity error",
	"retire dispatch queue parity error", "retire status queue parity error",
	"scheduler queue parity error", "branch buffer queue parity error", "hardware assertion",
	"speculative map parity error", "retire map parity error",
};

static const char *const fp_xec[] = {
	"physical register file parity error", "free list parity error",
	"schedule queue parity error", "NSQ parity error", "retire queue parity error",
	"status register file parity error", "hardware assertion",
	"mask register file parity error",
};

static const char *const l3_xec[] = {
	"shadow tag ECC error", "shadow tag multi-way hit", "L3 tag ECC error",
	"L3 tag multi-way hit", "L3 data ECC error", "SDP parity error from XI",
	"L3 victim queue data fabric error", "hardware assertion",
	"XI write-combining parity poison created", "machine check raised by DSM action",
};

static const char *const cs_xec[] = {
	"illegal request", "address violation", "security violation", "illegal response",
	"unexpected response", "request or probe parity error", "read response parity error",
	"atomic request parity error", "probe filter ECC error",
};

static const char *const cs2_xec[] = {
	"illegal request", "address violation", "security violation", "illegal response",
	"unexpected response", "request or probe parity error", "read response parity error",
	"atomic request parity error", "SDP read response without a matching CS queue entry",
	"probe filter protocol error", "probe filter ECC error",
	"SDP read response with an unexpected RETRY", "counter overflow", "counter underflow",
	"illegal request on the no-data channel", "address violation on the no-data channel",
	"security violation on the no-data channel", "hardware assertion",
	"shadow tag array protocol error", "shadow tag ECC error", "shadow tag transaction error",
};

/* Family 19h Genoa revision guide, erratum 1384: CS codes re-assigned. */
static const char *const cs2_quirk_xec[] = {
	"illegal request", "address violation", "security violation", "illegal response",
	"unexpected response", "request or probe parity error", "read response parity error",
	"atomic request parity error", "SDP read response without a matching CS queue entry",
	"SDP read response with an unexpected RETRY", "counter overflow", "counter underflow",
	"probe filter protocol error", "probe filter ECC error",
	"illegal request on the no-data channel", "address violation on the no-data channel",
	"security violation on the no-data channel", "hardware assertion",
};

static const char *const pie_xec[] = {
	"hardware assertion", "register security violation", "link error",
	"poison data consumed", "deferred error detected in the data fabric", "watchdog timer",
	"CNLI SRAM ECC error", "register access during data fabric C-state", "DSM error",
};

static const char *const umc_xec[] = {
	"DRAM ECC error", "DRAM data poison error", "SDP parity error",
	"advanced peripheral bus error", "command/address parity error", "write data CRC error",
	"DCQ SRAM ECC error", "AES SRAM ECC error", "ECS row error", "ECS error",
	"UMC throttling error", "read CRC error", NULL, NULL, NULL, NULL, "RFM SRAM ECC error",
};

/* Family 19h models 90h-9Fh (MI300) UMC. */
static const char *const umc_quirk_xec[] = {
	"DRAM on-die ECC error", "data poison error", "SDP parity error", NULL,
	"address/command parity error", "HBM write data parity error",
	"consolidated SRAM ECC error", NULL, NULL, "RDB SRAM ECC error", "thermal throttling",
	"HBM read data parity error", NULL, "UMC firmware error", "SRAM parity error",
	"HBM CRC error",
};

static const char *const umc2_xec[] = {
	"DRAM ECC error", "data poison error", "SDP parity error", NULL,
	"address/command parity error", "write data parity error", "DCQ SRAM ECC error", NULL,
	"read data parity error", "RDB SRAM ECC error", "read response SRAM ECC error",
	"LM32 microprocessor error",
};

static const char *const mall_xec[] = {
	"counter overflow", "counter underflow", "write data parity error",
	"read response parity error", "cache tag ECC error, macro 0",
	"cache tag ECC error, macro 1", "cache data ECC error",
};

static const char *const pb_xec[] = { "parameter block RAM ECC error" };
static const char *const psp_xec[] = { "PSP RAM ECC or parity error" };

static const char *const psp2_xec[] = {
	"high SRAM ECC or parity error", "low SRAM ECC or parity error",
	"instruction cache bank 0 ECC or parity error", "instruction cache bank 1 ECC or parity error",
	"instruction tag RAM 0 parity error", "instruction tag RAM 1 parity error",
	"data cache bank 0 ECC or parity error", "data cache bank 1 ECC or parity error",
	"data cache bank 2 ECC or parity error", "data cache bank 3 ECC or parity error",
	"data tag bank 0 parity error", "data tag bank 1 parity error",
	"data tag bank 2 parity error", "data tag bank 3 parity error",
	"dirty data RAM parity error", "TLB bank 0 parity error", "TLB bank 1 parity error",
	"system hub read buffer ECC or parity error", "fuse IP SRAM ECC or parity error",
	"PCRU fuse SRAM ECC or parity error", "SIB SRAM parity error", "mpASP SECEMC error",
	"mpASP A5 hang", "SIB watchdog timeout",
};

static const char *const smu_xec[] = { "SMU RAM ECC or parity error" };

/* Shared by SMU v2 (first 12 codes) and MP5. */
static const char *const mp5_xec[] = {
	"high SRAM ECC or parity error", "low SRAM ECC or parity error",
	"data cache bank A ECC or parity error", "data cache bank B ECC or parity error",
	"data tag cache bank A ECC or parity error", "data tag cache bank B ECC or parity error",
	"instruction cache bank A ECC or parity error", "instruction cache bank B ECC or parity error",
	"instruction tag cache bank A ECC or parity error",
	"instruction tag cache bank B ECC or parity error", "fuse SRAM ECC or parity error",
};

static const char *const smu2_xec[] = {
	"high SRAM ECC or parity error", "low SRAM ECC or parity error",
	"data cache bank A ECC or parity error", "data cache bank B ECC or parity error",
	"data tag cache bank A ECC or parity error", "data tag cache bank B ECC or parity error",
	"instruction cache bank A ECC or parity error", "instruction cache bank B ECC or parity error",
	"instruction tag cache bank A ECC or parity error",
	"instruction tag cache bank B ECC or parity error",
	"system hub read buffer ECC or parity error", "PHY RAS ECC error",
	[58] = "correctable error from a graphics sub-IP", [59] = "fatal error from a graphics sub-IP",
	[62] = "poison error from a graphics sub-IP",
};

#define MPDMA_CACHE_XEC                                                                        \
	"data cache bank A ECC or parity error", "data cache bank B ECC or parity error",          \
	"data tag cache bank A ECC or parity error", "data tag cache bank B ECC or parity error",  \
	"instruction cache bank A ECC or parity error",                                           \
	"instruction cache bank B ECC or parity error",                                           \
	"instruction tag cache bank A ECC or parity error",                                       \
	"instruction tag cache bank B ECC or parity error"

static const char *const mpdma_xec[] = {
	"main SRAM [31:0] bank ECC or parity error", "main SRAM [63:32] bank ECC or parity error",
	"main SRAM [95:64] bank ECC or parity error", "main SRAM [127:96] bank ECC or parity error",
	MPDMA_CACHE_XEC, MPDMA_CACHE_XEC, MPDMA_CACHE_XEC,
	"system hub read buffer ECC or parity error", "TVF DVSEC memory ECC or parity error",
	"TVF MMIO mailbox 0 ECC or parity error", "TVF MMIO mailbox 1 ECC or parity error",
	"TVF doorbell memory ECC or parity error", "TVF SDP slave memory 0 ECC or parity error",
	"TVF SDP slave memory 1 ECC or parity error", "TVF SDP slave memory 2 ECC or parity error",
	"TVF SDP master memory 0 ECC or parity error", "TVF SDP master memory 1 ECC or parity error",
	"TVF SDP master memory 2 ECC or parity error", "TVF SDP master memory 3 ECC or parity error",
	"TVF SDP master memory 4 ECC or parity error", "TVF SDP master memory 5 ECC or parity error",
	"TVF SDP master memory 6 ECC or parity error", "SDP watchdog timer expired",
	"PTE command FIFO ECC or parity error", "PTE hub data FIFO ECC or parity error",
	"PTE internal data FIFO ECC or parity error", "PTE command memory DMA ECC or parity error",
	"PTE command memory internal ECC or parity error",
	"TVF SDP master memory 7 ECC or parity error",
};

static const char *const nbio_xec[] = {
	"ECC or parity error", "PCIe error", "external SDP error event", "SDP egress poison",
	"internal poison", "internal system fatal error event",
};

static const char *const pcie_xec[] = {
	"CCIX PER message logged", "CCIX read response with non-data error status",
	"CCIX write response with non-data error status", "CCIX read response with data error status",
	"CCIX non-okay write response with data error",
};

static const char *const pcie2_xec[] = { "SDP data parity error" };

static const char *const xgmi_pcs_xec[] = {
	"data loss", "training error", "flow control acknowledge error", "receive FIFO underflow",
	"receive FIFO overflow", "CRC error", "bit error rate exceeded", "transmit VCID data error",
	"replay buffer parity error", "data parity error", "replay FIFO overflow",
	"replay FIFO underflow", "elastic FIFO overflow", "deskew error",
	"flow control CRC error", "data startup limit error", "flow control init timeout",
	"recovery timeout", "ready serial timeout", "ready serial attempt error",
	"recovery attempt error", "recovery relock attempt error", "replay attempt error",
	"sync header error", "transmit replay timeout", "receive replay timeout",
	"link sub-transmit timeout", "link sub-receive timeout", "receive command packet error",
};

static const char *const phy_xec[] = {
	"RAM ECC error", "ARC instruction buffer parity error", "ARC data buffer parity error",
	"PHY APB error",
};

static const char *const nbif_xec[] = {
	"timeout from GMI", "SRAM ECC error", "NTB error event", "SDP parity error",
};

static const char *const sata_xec[] = {
	"parity error, port 0", "parity error, port 1", "parity error, port 2",
	"parity error, port 3", "parity error, port 4", "parity error, port 5",
	"parity error, port 6", "parity error, port 7",
};

static const char *const usb_xec[] = {
	"S0 RAM0 parity or ECC error", "S0 RAM1 parity or ECC error", "S0 RAM2 parity or ECC error",
	"PHY RAM0 parity error", "PHY RAM1 parity error", "AXI slave response error",
};

static const char *const usr_dp_xec[] = {
	"master command error", "master receive FIFO error", "master deskew error",
	"master detect timeout", "master flow control error", "master data-valid FIFO error",
	"MAC link state error", "deskew error", "init timeout", "init attempt error",
	"recovery timeout", "recovery attempt error", "eye training timeout",
	"data startup limit error", "LS0 exit error", "PLL power state update timeout",
	"receive FIFO error", "LCU error", "conversion corrected ECC error",
	"conversion uncorrected ECC error", NULL, "receive data loss", "replay corrected ECC error",
	"replay uncorrected ECC error", "CRC error", "bit error rate exceeded",
	"flow control init timeout", "flow control init attempt error", "replay timeout",
	"replay attempt error", "replay underflow", "replay overflow",
};

static const char *const usr_cp_xec[] = {
	"packet type error", "receive FIFO error", "deskew error", "receive detect timeout",
	"data parity error", "data loss", "LCU error", "HB1 handshake timeout",
	"HB2 handshake timeout", "clock sleep response timeout", "clock wake response timeout",
	"reset attack error", "remote link fatal error",
};

static const char *const gmi_pcs_xec[] = {
	"data loss", "training error", "replay parity error", "receive FIFO underflow",
	"receive FIFO overflow", "CRC error", "bit error rate exceeded", "transmit FIFO underflow",
	"replay buffer parity error", "transmit overflow", "replay FIFO overflow",
	"replay FIFO underflow", "elastic FIFO overflow", "deskew error", "offline error",
	"data startup limit error", "flow control init timeout", "recovery timeout",
	"ready serial timeout", "ready serial attempt error", "recovery attempt error",
	"recovery relock attempt error", "deskew abort error", "receive buffer error",
	"receive LFDS FIFO overflow", "receive LFDS FIFO underflow", "link sub-transmit timeout",
	"link sub-receive timeout", "receive command packet error", "LFDS training timeout",
	"LFDS flow control init timeout", "data loss",
};

/* MCA_IPID HardwareID [43:32] and McaType [63:48] -> bank type. */
const struct smca_type smca_types[] = {
	{ 0xb0, 0x00, "LS", "load-store unit", "cache", XEC(ls_xec) },
	{ 0xb0, 0x10, "LS", "load-store unit (v2)", "cache", XEC(ls2_xec) },
	{ 0xb0, 0x01, "IF", "instruction fetch unit", "cache", XEC(if_xec) },
	{ 0xb0, 0x02, "L2", "L2 cache", "cache", XEC(l2_xec) },
	{ 0xb0, 0x03, "DE", "decode unit", "internal", XEC(de_xec) },
	{ 0xb0, 0x05, "EX", "execution unit", "internal", XEC(ex_xec) },
	{ 0xb0, 0x06, "FP", "floating-point unit", "internal", XEC(fp_xec) },
	{ 0xb0, 0x07, "L3", "L3 cache", "cache", XEC(l3_xec) },
	{ 0x2e, 0x00, "CS", "data fabric coherent slave", "bus", XEC(cs_xec) },
	{ 0x2e, 0x01, "PIE", "data fabric power, interrupts, etc.", "bus", XEC(pie_xec) },
	{ 0x2e, 0x02, "CS", "data fabric coherent station (v2)", "bus", XEC(cs2_xec) },
	{ 0x2e, 0x04, "MA_LLC", "memory-attached last level cache", "cache", XEC(mall_xec) },
	{ 0x96, 0x00, "UMC", "unified memory controller", "memory", XEC(umc_xec) },
	{ 0x96, 0x01, "UMC_V2", "unified memory controller (v2)", "memory", XEC(umc2_xec) },
	{ 0x05, 0x00, "PB", "parameter block", "internal", XEC(pb_xec) },
	{ 0xff, 0x00, "PSP", "platform security processor", "internal", XEC(psp_xec) },
	{ 0xff, 0x01, "PSP", "platform security processor (v2)", "internal", XEC(psp2_xec) },
	{ 0x01, 0x00, "SMU", "system management unit", "internal", XEC(smu_xec) },
	{ 0x01, 0x01, "SMU", "system management unit (v2)", "internal", XEC(smu2_xec) },
	{ 0x01, 0x02, "MP5", "microprocessor 5 unit", "internal", XEC(mp5_xec) },
	{ 0x01, 0x03, "MPDMA", "MPDMA unit", "internal", XEC(mpdma_xec) },
	{ 0x18, 0x00, "NBIO", "northbridge I/O unit", "bus", XEC(nbio_xec) },
	{ 0x46, 0x00, "PCIE", "PCI Express unit", "bus", XEC(pcie_xec) },
	{ 0x46, 0x01, "PCIE", "PCI Express unit (v2)", "bus", XEC(pcie2_xec) },
	{ 0x50, 0x00, "XGMI_PCS", "xGMI PCS unit", "bus", XEC(xgmi_pcs_xec) },
	{ 0x6c, 0x00, "NBIF", "NBIF unit", "bus", XEC(nbif_xec) },
	{ 0x80, 0x00, "SHUB", "system hub unit", "bus", XEC(nbif_xec) },
	{ 0xa8, 0x00, "SATA", "SATA unit", "bus", XEC(sata_xec) },
	{ 0xaa, 0x00, "USB", "USB unit", "bus", XEC(usb_xec) },
	{ 0x170, 0x00, "USR_DP", "ultra-short-reach data plane controller", "bus", XEC(usr_dp_xec) },
	{ 0x180, 0x00, "USR_CP", "ultra-short-reach control plane controller", "bus", XEC(usr_cp_xec) },
	{ 0x241, 0x00, "GMI_PCS", "GMI PCS unit", "bus", XEC(gmi_pcs_xec) },
	{ 0x259, 0x00, "XGMI_PHY", "xGMI PHY unit", "bus", XEC(phy_xec) },
	{ 0x267, 0x00, "WAFL_PHY", "WAFL PHY unit", "bus", XEC(phy_xec) },
	{ 0x269, 0x00, "GMI_PHY", "GMI PHY unit", "bus", XEC(phy_xec) },
	/* Synthetic IDs (HardwareID 0 is reserved) for the erratum variants below. */
	{ 0x00, 0x01, "CS", "data fabric coherent station (erratum 1384 codes)", "bus", XEC(cs2_quirk_xec) },
	{ 0x00, 0x02, "UMC", "unified memory controller (MI300 codes)", "memory", XEC(umc_quirk_xec) },
};
const size_t smca_n_types = MCE_ARRAY_SIZE(smca_types);

/*
 * Bank types whose code table differs on some models (AMD revision guides:
 * family 19h models 10h-1Fh/60h-7Bh/A0h-AFh and family 1Ah models 40h-4Fh,
 * erratum 1384 for CS; family 19h models 90h-9Fh UMC).
 */
const struct smca_quirk smca_quirks[] = {
	{ 0x19, 0x10, 0x1f, 0x2e, 0x02, 0x00, 0x01 },
	{ 0x19, 0x60, 0x7b, 0x2e, 0x02, 0x00, 0x01 },
	{ 0x19, 0xa0, 0xaf, 0x2e, 0x02, 0x00, 0x01 },
	{ 0x1a, 0x40, 0x4f, 0x2e, 0x02, 0x00, 0x01 },
	{ 0x19, 0x90, 0x9f, 0x96, 0x00, 0x00, 0x02 },
};
const size_t smca_n_quirks = MCE_ARRAY_SIZE(smca_quirks);
