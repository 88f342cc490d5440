/* SPDX-License-Identifier: MIT */
/*
 * Alibaba Yitian 710 error section a6980811-16ea-4e4d-b936-fb00a23ff29c.
 * Layout as Alibaba published it with rasdaemon (non-standard-yitian.h):
 * a 4-byte header (type u8, 0x50 for DDR; sub-type u8; instance u16), then
 * for DDR the 31 32-bit ECC registers of the DDR controller from byte 4, in
 * this order. The register names are those of Synopsys' DesignWare DDR
 * controller (uMCTL); their fields as Linux drivers/edac/synopsys_edac.c
 * reads them: ECCSTAT[6:0] corrected bit, [15:8] corrected, [23:16]
 * uncorrected; ECCERRCNT[15:0] corrected and [31:16] uncorrected counts;
 * ECC{C,U}ADDR0[17:0] row, [27:24] rank; ECC{C,U}ADDR1[11:0] column,
 * [23:16] bank, [25:24] bank group. Words ours.
 */
#include <errno.h>
#include <stdio.h>
#include "cper_vendor.h"
#include "other_util.h"

#define YITIAN_DDR 0x50
#define YITIAN_DDR_LEN 128

static const char *const ddr_regs[] = {
	"ECCCFG0", "ECCCFG1", "ECCSTAT", "ECCERRCNT", "ECCCADDR0", "ECCCADDR1", "ECCCSYN0",
	"ECCCSYN1", "ECCCSYN2", "ECCUADDR0", "ECCUADDR1", "ECCUSYN0", "ECCUSYN1", "ECCUSYN2",
	"ECCBITMASK0", "ECCBITMASK1", "ECCBITMASK2", "ADVECCSTAT", "ECCAPSTAT", "ECCCDATA0",
	"ECCCDATA1", "ECCUDATA0", "ECCUDATA1", "ECCSYMBOL", "ECCERRCNTCTL", "ECCERRCNTSTAT",
	"ECCERRCNT0", "ECCERRCNT1", "RESERVED0", "RESERVED1", "RESERVED2",
};

/* Byte offset of register i (ddr_regs order). */
#define REG(p, i) ou_le32((p) + 4 + 4 * (i))
enum { ECCSTAT = 2, ECCERRCNT = 3, ECCCADDR0 = 4, ECCCADDR1 = 5, ECCUADDR0 = 9, ECCUADDR1 = 10 };

/* The DRAM address of the error the status reports: uncorrected first. */
static void ddr_address(const uint8_t *p, struct cper_vendor *v)
{
	uint32_t stat = REG(p, ECCSTAT), cnt = REG(p, ECCERRCNT);
	int ue = ((stat >> 16) & 0xff) != 0, ce = ((stat >> 8) & 0xff) != 0;
	uint32_t a0 = REG(p, ue ? ECCUADDR0 : ECCCADDR0), a1 = REG(p, ue ? ECCUADDR1 : ECCCADDR1);

	/* The severity is the record's; the status says only which address register holds it. */
	cper_vendor_detail(v, "%sECC error", ue ? "uncorrected " : "");
	cper_vendor_detail(v, "rank %u, bank group %u, bank %u, row 0x%x, column 0x%x",
			   (a0 >> 24) & 0xf, (a1 >> 24) & 3, (a1 >> 16) & 0xff, a0 & 0x3ffff,
			   a1 & 0xfff);
	if (ce && !ue)
		cper_vendor_detail(v, "bit %u", stat & 0x7f);
	if (cnt)
		cper_vendor_detail(v, "%u corrected and %u uncorrected counted", cnt & 0xffff,
				   cnt >> 16);
}

int cper_yitian_ddr(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	snprintf(v->vendor, sizeof(v->vendor), "Alibaba");
	snprintf(v->platform, sizeof(v->platform), "Yitian 710");
	snprintf(v->section, sizeof(v->section), "DDR register dump");
	if (n < 4)
		return cper_vendor_short(v, n, YITIAN_DDR_LEN);
	v->err_type = p[0];
	if (p[0] != YITIAN_DDR) {
		cper_vendor_detail(v, "payload type 0x%02x not published", p[0]);
		return -ENOTSUP;
	}
	snprintf(v->module, sizeof(v->module), "DDRC");
	v->instance = ou_le16(p + 2);
	snprintf(v->sub_module, sizeof(v->sub_module), "%u", ou_le16(p + 2));
	snprintf(v->part_class, sizeof(v->part_class), "memory");
	cper_vendor_reg(v, "subtype", p[1]);
	cper_vendor_finish(v, NULL);
	if (n < YITIAN_DDR_LEN)
		return cper_vendor_short(v, n, YITIAN_DDR_LEN);
	for (unsigned i = 0; i < OU_ARRAY_SIZE(ddr_regs); i++)
		cper_vendor_reg(v, ddr_regs[i], REG(p, i));
	ddr_address(p, v);
	return 0;
}
