/* SPDX-License-Identifier: MIT */
/*
 * EDAC core error lines as the drivers produce them. Formats: Linux
 * drivers/edac/edac_mc.c (edac_ce_error, edac_ue_error, edac_layer_name);
 * driver details: sb_edac.c ("area:DRAM err_code:... socket:... channel_mask:
 * ... rank:..."), skx_common.c ("err_code:0x%04x:0x%04x socket:%d imc:%d
 * rank:%d bg:%d ba:%d row:0x%x col:0x%x"), amd64_edac.c (labels
 * "mc#0csrow#1channel#0", csrow/channel layers), ghes_edac.c (firmware
 * location text). The sb_edac line is the example of the kernel's
 * Documentation/firmware-guide/acpi/apei/einj.rst.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "decoders/edac.h"
#include "decoders/edac_text.h"
#include "tests/decoders/text_got.h"
#include "tests/tap.h"

#define MAX TEXT_GOT_MAX

struct got {
	struct text_got t;   /* first: the parser's ctx */
	struct edac_in rec[MAX];
	char msg[MAX][64], label[MAX][64], detail[MAX][256], names[MAX][3][16];
};

static void keep(char *dst, size_t size, const char *s, size_t len)
{
	snprintf(dst, size, "%.*s", (int)len, s ? s : "");
}

static int on_rec(void *ctx, const struct edac_in *rec, unsigned line)
{
	struct got *g = ctx;
	int i = text_got_add(&g->t, line);

	if (i < 0)
		return i;
	g->rec[i] = *rec;
	keep(g->msg[i], 64, rec->msg, rec->msg_len);
	keep(g->label[i], 64, rec->label, rec->label_len);
	keep(g->detail[i], 256, rec->driver_detail, rec->driver_detail_len);
	for (int k = 0; k < 3; k++)
		keep(g->names[i][k], 16, rec->layer_name[k], rec->layer_name[k] ? strlen(rec->layer_name[k]) : 0);
	return 0;
}

#define on_err text_got_error

static const char lines[] =
	/* 1: sb_edac (einj.rst) */
	"[22716.616173] EDAC MC3: 1 CE memory read error on CPU_SrcID#0_Channel#0_DIMM#0 (channel:0 slot:0 page:0x12345 offset:0x0 grain:32 syndrome:0x0 -  area:DRAM err_code:0001:0090 socket:0 channel_mask:1 rank:0)\n"
	/* 2: skx/i10nm */
	"EDAC MC0: 1 CE memory read error on CPU_SrcID#0_MC#0_Chan#1_DIMM#0 (channel:1 slot:0 page:0x4f3c7 offset:0x6c0 grain:32 syndrome:0x0 - err_code:0x0000:0x009f socket:0 imc:0 rank:0 bg:2 ba:1 row:0x1e7a col:0x3d8)\n"
	/* 3: amd64_edac, no message */
	"Nov 22 10:00:00 host kernel: EDAC MC0: 1 CE on mc#0csrow#1channel#0 (csrow:1 channel:0 page:0x5c4f3 offset:0x8c0 grain:64 syndrome:0x4b40)\n"
	/* 4: UE, no syndrome */
	"EDAC MC1: 2 UE memory read error on CPU_SrcID#1_MC#0_Chan#0_DIMM#1 (channel:0 slot:1 page:0x1234 offset:0x40 grain:32 - err_code:0x0000:0x009f socket:1 imc:0 rank:0 bg:0 ba:0 row:0x2 col:0x8)\n"
	/* 5: a DIMM label with spaces */
	"EDAC MC0: 1 CE memory scrubbing error on CPU1 DIMM A1 (channel:0 slot:0 page:0x10 offset:0x0 grain:32 syndrome:0x0 - scrub)\n"
	/* 6: ghes_edac, the firmware's location instead of layers */
	"EDAC MC0: 1 CE Single-bit ECC on unknown memory (node:0 card:0 module:0 rank:1 bank:3 row:4 column:8 page:0x1f1e4 offset:0xc80 grain:1 syndrome:0x0 - APEI location: node:0 rank:1 status(0x0000000000000400): Storage error in DRAM memory)\n"
	/* 7: amd64_edac, address it could not decode */
	"EDAC MC0: 1 CE Cannot decode normalized address on mc#0csrow#-1channel#-1 (csrow:-1 channel:-1 page:0x0 offset:0x0 grain:64 syndrome:0x0)\n"
	/* 8: recognised, malformed */
	"EDAC MC0: 1 CE memory read error on DIMM_A1 (channel:0 slot:0 page:0xZZ offset:0x0 grain:32 syndrome:0x0)\n"
	/* 9: recognised, no location at all */
	"EDAC MC0: 1 UE memory read error\n"
	/* 10: recognised, its only ')' before page: (the location never closes) */
	"EDAC MC0: 1 CE memory read error on CPU_SrcID#0 MC0: PROCESSOR )0 (channel:0 slot:0 page:0x1 offset:0x0 grain:32 syndrome:0x0 -  area:DRAM\n"
	/* not records */
	"EDAC MC: Ver: 3.0.0\n"
	"EDAC MC0: Giving out device to module skx_edac controller Skylake Socket#0 IMC#0: DEV 0000:3a:0a.0 (INTERRUPT)\n"
	"EDAC skx: ECC is enabled\n"
	"EDAC amd64: F19h_M10h detected (node 0).\n";

int main(void)
{
	struct got g;
	struct edac_decoded d;

	memset(&g, 0, sizeof(g));
	tap_is_int(edac_text_parse(lines, strlen(lines), on_rec, on_err, &g), 7, "seven records");
	tap_is_int(g.t.n_err, 3, "three malformed lines");
	tap_is_int(g.t.err_line[0], 8, "bad page reported at its line");
	tap_is_int(g.t.err_line[1], 9, "line without location reported");
	tap_is_int(g.t.err_line[2], 10, "a ')' only before page: reported, no detail of negative length");

	tap_is_int(g.rec[0].mc_index, 3, "sb_edac: MC3");
	tap_is_int(g.rec[0].error_type, EDAC_ERR_CORRECTED, "sb_edac: CE");
	tap_is_str(g.msg[0], "memory read error", "sb_edac: message");
	tap_is_str(g.label[0], "CPU_SrcID#0_Channel#0_DIMM#0", "sb_edac: label");
	tap_is_int(g.rec[0].address, 0x12345000, "sb_edac: address page << 12 | offset");
	tap_is_int(g.rec[0].grain_bits, 5, "sb_edac: grain 32 = 2^5");
	tap_is_str(g.names[0][0], "channel", "sb_edac: first layer channel");
	tap_is_str(g.names[0][1], "slot", "sb_edac: second layer slot");
	tap_is_str(g.detail[0], "area:DRAM err_code:0001:0090 socket:0 channel_mask:1 rank:0", "sb_edac: detail");

	tap_is_int(g.rec[1].top_layer, 1, "skx: channel 1");
	tap_is_int(g.rec[1].address, 0x4f3c76c0, "skx: address");
	tap_ok(strstr(g.detail[1], "row:0x1e7a col:0x3d8") != NULL, "skx: row and column in the detail");

	tap_is_str(g.msg[2], "", "amd64: empty message");
	tap_is_str(g.label[2], "mc#0csrow#1channel#0", "amd64: label");
	tap_is_str(g.names[2][0], "csrow", "amd64: csrow layer");
	tap_is_int(g.rec[2].syndrome, 0x4b40, "amd64: syndrome");
	tap_is_int(g.rec[2].grain_bits, 6, "amd64: grain 64");

	tap_is_int(g.rec[3].error_type, EDAC_ERR_UNCORRECTED, "UE");
	tap_is_int(g.rec[3].error_count, 2, "UE: count 2");
	tap_is_int(g.rec[3].syndrome, 0, "UE: no syndrome printed");
	tap_is_int(g.rec[3].middle_layer, 1, "UE: slot 1");

	tap_is_str(g.label[4], "CPU1 DIMM A1", "label with spaces");
	tap_is_int(g.rec[5].top_layer, -1, "ghes: no layer claimed");
	tap_ok(strncmp(g.detail[5], "location node:0 card:0 module:0 rank:1 bank:3 row:4 column:8; APEI", 66) == 0,
	       "ghes: firmware location kept in the detail");
	tap_is_int(g.rec[6].top_layer, -1, "amd64: csrow -1");
	tap_is_str(g.msg[6], "Cannot decode normalized address", "amd64: message");

	edac_decode(&g.rec[3], &d);
	tap_is_int(d.severity, RAS_SEV_UNCORRECTED, "UE decodes as uncorrected");
	tap_is_int(d.grain, 32, "decoded grain in bytes");
	tap_is_int(edac_text_parse(NULL, 1, on_rec, NULL, NULL), -EINVAL, "NULL buffer");
	return tap_done();
}
