/* SPDX-License-Identifier: MIT */
/*
 * Golden vendor CPER sections, built byte by byte from the published layouts
 * (the sources named in each decoders/cper_<vendor>.c and per vector below).
 * Shared by the decoder test (tests/decoders/test-cper-vendor.c) and the
 * replay test (tests/test-replay-vendor.c), which stores the same bytes
 * through rasd and checks what it decoded.
 */
#ifndef RAS_TEST_VENDOR_VECTORS_H
#define RAS_TEST_VENDOR_VECTORS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static inline void vv_put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void vv_put32(uint8_t *p, uint32_t v)
{
	vv_put16(p, (uint16_t)v);
	vv_put16(p + 2, (uint16_t)(v >> 16));
}
static inline void vv_put64(uint8_t *p, uint64_t v)
{
	vv_put32(p, (uint32_t)v);
	vv_put32(p + 4, (uint32_t)(v >> 32));
}

/* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into guid_t byte order (first three parts LE). */
static inline void vv_guid(const char *t, uint8_t g[16])
{
	unsigned v[11];

	sscanf(t, "%8x-%4x-%4x-%2x%2x-%2x%2x%2x%2x%2x%2x", &v[0], &v[1], &v[2], &v[3], &v[4],
	       &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]);
	vv_put32(g, v[0]);
	vv_put16(g + 4, (uint16_t)v[1]);
	vv_put16(g + 6, (uint16_t)v[2]);
	for (int i = 0; i < 8; i++)
		g[8 + i] = (uint8_t)v[3 + i];
}

/* Section GUIDs as the vendors published them (rasdaemon non-standard-*.c, ghes-nvidia.c). */
#define VV_HISI_OEM1 "1f8161e1-55d6-41e6-bd10-7afd1dc5f7c5"
#define VV_HISI_OEM2 "45534ea6-ce23-4115-8535-e07ab3aef91d"
#define VV_HISI_PCIE "b2889fc9-e7d7-4f9d-a867-af42e98be772"
#define VV_HISI_COMMON "c8b328a8-9917-4af6-9a13-2e08ab2e7586"
#define VV_NVIDIA_GRACE "6d5244f2-2712-11ec-bea7-cb3fdb95c786"
#define VV_NVIDIA_VERA "9068e568-6ca0-11f0-aeaf-159343591eac"
#define VV_YITIAN "a6980811-16ea-4e4d-b936-fb00a23ff29c"
#define VV_JM0 "82d78ba3-fa14-407a-ba0e-f3ba8170013c"
#define VV_JM1 "f9723053-2558-49b1-b58a-1c1a82492a62"
#define VV_JM2 "2d31de54-3037-4f24-a283-f69ca1ec0b9a"
#define VV_JM5 "dac80d69-0a72-4eba-8114-148ee344af06"
#define VV_JM6 "746f06fe-405e-451f-8d09-02e802ed984a"
#define VV_AMPERE "e8ed898d-df16-43cc-8ecc-54f060ef157f"

/*
 * ERR<n>STATUS (Arm RAS DDI 0587): V (30), AV (31), CE 0b01 (25:24) and SERR
 * 0x0c, "data value from (non-associative) external memory".
 */
#define VV_STATUS_CE_DRAM (UINT64_C(1) << 31 | UINT64_C(1) << 30 | UINT64_C(1) << 24 | 0x0c)

/*
 * HiSilicon HIP08 OEM type 2, 60 bytes: val_bits (all of socket, nimbus,
 * module, sub-module, severity, FR, CTRL, STATUS, ADDR, MISC0, MISC1: bits
 * 1-11), version 1, socket 1, nimbus 0, module 4 (DDRC), sub-module 5
 * (TA_DDRC1), severity 2 (corrected); then ERR_FR, CTRL, STATUS, ADDR,
 * MISC0, MISC1 as low/high 32-bit halves from byte 12.
 */
static inline size_t vv_hisi_oem2(uint8_t *b)
{
	memset(b, 0, 60);
	vv_put32(b, 0xffe);
	b[4] = 1, b[6] = 1, b[7] = 0, b[8] = 4, b[9] = 5, b[10] = 2;
	vv_put64(b + 12, 0x1122);                        /* ERR_FR */
	vv_put64(b + 20, 0x3344);                        /* ERR_CTLR */
	vv_put64(b + 28, VV_STATUS_CE_DRAM);             /* ERR_STATUS */
	vv_put64(b + 36, UINT64_C(0x8000000000123440));  /* ERR_ADDR: NS (63) + PA 0x123440 */
	vv_put64(b + 44, 0x55);                          /* ERR_MISC0 */
	vv_put64(b + 52, 0x66);                          /* ERR_MISC1 */
	return 60;
}

/*
 * Alibaba Yitian 710 DDR, 128 bytes: type 0x50 (DDR), sub-type 1, instance 3,
 * then the 31 DesignWare ECC registers: ECCSTAT (reg 2) corrected (bit 8) of
 * bit 5; ECCERRCNT (3) 2 corrected; ECCCADDR0 (4) rank 1 (27:24), row
 * 0x1a2b (17:0); ECCCADDR1 (5) bank group 2 (25:24), bank 3 (23:16), column
 * 0x40 (11:0). Field positions as Linux synopsys_edac.c reads them.
 */
static inline size_t vv_yitian(uint8_t *b)
{
	memset(b, 0, 128);
	b[0] = 0x50, b[1] = 1;
	vv_put16(b + 2, 3);
	vv_put32(b + 4 + 4 * 2, 1u << 8 | 5);
	vv_put32(b + 4 + 4 * 3, 2);
	vv_put32(b + 4 + 4 * 4, 1u << 24 | 0x1a2b);
	vv_put32(b + 4 + 4 * 5, 2u << 24 | 3u << 16 | 0x40);
	return 128;
}

/*
 * Ampere Altra payload type 0 (ARMv8 RAS record), 48 bytes: byte 0 payload 0
 * (7:6) error type 1 (MCU); sub-type 2 (ERR2); instance word socket 1
 * (15:14), instance 3; ERR_STATUS[31:0] V, AV, CE and SERR 0x0c (bits 31:0
 * of VV_STATUS_CE_DRAM); ERR_ADDR 0x8765000; MISC0-3.
 */
static inline size_t vv_ampere_mcu(uint8_t *b)
{
	memset(b, 0, 48);
	b[0] = 1, b[1] = 2;
	vv_put16(b + 2, 1u << 14 | 3);
	vv_put32(b + 4, (uint32_t)VV_STATUS_CE_DRAM);
	vv_put64(b + 8, 0x8765000);
	vv_put64(b + 16, 0x10);
	vv_put64(b + 24, 0x20);
	vv_put64(b + 32, 0x30);
	vv_put64(b + 40, 0x40);
	return 48;
}

/*
 * NVIDIA Grace, 64 bytes: signature "CMET-INFO", error type 3, instance 2,
 * severity 2 (corrected, UEFI N.2.1 numbering), socket 1, 2 registers,
 * instance base 0x4f10000; pairs (0x4f10008, 0x2019), (0x4f10010, 0x7).
 */
static inline size_t vv_grace(uint8_t *b)
{
	memset(b, 0, 64);
	memcpy(b, "CMET-INFO", 9);
	vv_put16(b + 16, 3);
	vv_put16(b + 18, 2);
	b[20] = 2, b[21] = 1, b[22] = 2;
	vv_put64(b + 24, 0x4f10000);
	vv_put64(b + 32, 0x4f10008);
	vv_put64(b + 40, 0x2019);
	vv_put64(b + 48, 0x4f10010);
	vv_put64(b + 56, 0x7);
	return 64;
}

#endif
