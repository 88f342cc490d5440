/* SPDX-License-Identifier: MIT */
/* Tests of the EDAC ras:mc_event decoder. */
#include <errno.h>
#include <string.h>
#include "decoders/edac.h"
#include "tests/decoders/said.h"
#include "tests/tap.h"

#define S(x) x, sizeof(x) - 1

static struct edac_in base(void)
{
	struct edac_in in = {
		.error_type = EDAC_ERR_CORRECTED,
		.msg = S("read error"),
		.label = S("DIMM_A1"),
		.error_count = 1,
		.mc_index = 0,
		.top_layer = 2, .middle_layer = 1, .lower_layer = -1,
		.address = 0x12345000,
		.grain_bits = 6,
		.syndrome = 0x5a,
		.driver_detail = S("ProcessorSocketId:0x0 MemoryControllerId:0x0"),
	};
	return in;
}

/* Error type values: Linux include/linux/edac.h enum hw_event_mc_err_type. */
static void test_types(void)
{
	static const struct { uint32_t t; const char *name; enum ras_severity sev; } golden[] = {
		{ 0, "corrected", RAS_SEV_CORRECTED },
		{ 1, "uncorrected", RAS_SEV_UNCORRECTED },
		{ 2, "deferred", RAS_SEV_DEFERRED },
		{ 3, "fatal", RAS_SEV_FATAL },
		{ 4, "info", RAS_SEV_INFO },
	};
	struct edac_in in = base();
	struct edac_decoded d;

	for (size_t i = 0; i < sizeof(golden) / sizeof(golden[0]); i++) {
		in.error_type = golden[i].t;
		tap_is_int(edac_decode(&in, &d), 0, "decode type %u", golden[i].t);
		tap_is_str(d.error_type_name, golden[i].name, "type %u name", golden[i].t);
		tap_is_int(d.severity, golden[i].sev, "type %u severity", golden[i].t);
	}
	in.error_type = 9;
	edac_decode(&in, &d);
	tap_is_int(d.severity, RAS_SEV_UNKNOWN, "type 9 unknown");
	tap_is_str(d.error_type_name, "", "type 9 has no name");
	tap_is_int(d.error_type, 9, "type 9 raw kept");
	tap_ok(strncmp(SAID(d), "Memory error of type 9", 22) == 0, "type 9 summary: %s", SAID(d));
}

static void test_layers(void)
{
	struct edac_in in = base();
	struct edac_decoded d;

	edac_decode(&in, &d);
	tap_is_str(d.location, "mc0, layers 2:1 (DIMM_A1)", "unnamed layers");
	tap_is_int(d.top_layer, 2, "top layer");
	tap_is_int(d.lower_layer, RAS_DF_NONE, "lower -1 is none");
	in.layer_name[0] = "csrow";
	in.layer_name[1] = "channel";
	edac_decode(&in, &d);
	tap_is_str(d.location, "mc0, csrow 2, channel 1 (DIMM_A1)", "named layers");
	in.top_layer = in.middle_layer = in.lower_layer = -1;
	in.label = "any memory";
	in.label_len = 10;
	in.mc_index = 3;
	edac_decode(&in, &d);
	tap_is_str(d.location, "mc3", "no layer, no DIMM");
	tap_is_str(d.label, "any memory", "placeholder label kept raw");
	in.layer_name[0] = NULL;
	in.top_layer = -1;
	in.middle_layer = 3;
	edac_decode(&in, &d);
	tap_is_str(d.location, "mc3, layers -1:3", "gap in layers");
	in.layer_name[0] = "branch";
	in.layer_name[1] = "channel";
	in.layer_name[2] = "slot";
	in.top_layer = 0;
	in.middle_layer = -1;
	in.lower_layer = 1;
	edac_decode(&in, &d);
	tap_is_str(d.location, "mc3, branch 0, slot 1", "named with a gap");
}

static void test_fields(void)
{
	struct edac_in in = base();
	struct edac_decoded d;
	char longlabel[300];

	edac_decode(&in, &d);
	tap_is_int(d.grain, 64, "grain 1 << 6");
	tap_is_int(d.address, 0x12345000, "address");
	tap_is_int(d.syndrome, 0x5a, "syndrome");
	tap_is_str(d.msg, "read error", "msg");
	tap_is_str(d.driver_detail, "ProcessorSocketId:0x0 MemoryControllerId:0x0", "driver detail");
	tap_is_str(SAID(d),
		   "Corrected memory error at mc0, layers 2:1 (DIMM_A1): 1 error, address 0x12345000, grain 64 bytes, "
		   "syndrome 0x5a, read error [ProcessorSocketId:0x0 MemoryControllerId:0x0]; "
		   "no data lost; replace the DIMM if its corrected count keeps rising",
		   "summary");
	in.grain_bits = 200;
	in.error_count = 3;
	in.msg_len = 4;
	edac_decode(&in, &d);
	tap_is_int(d.grain, RAS_DF_NONE, "absurd grain bits give no grain");
	tap_is_str(d.msg, "read", "msg bounded by its length");
	tap_is_int(d.error_count, 3, "count");
	memset(longlabel, 'X', sizeof(longlabel));
	in.label = longlabel;
	in.label_len = sizeof(longlabel);
	tap_is_int(edac_decode(&in, &d), 0, "unterminated long label");
	tap_is_int(strlen(d.label), sizeof(d.label) - 1, "label truncated");
	tap_is_int(edac_decode(NULL, &d), -EINVAL, "NULL input");
	tap_ok(edac_n_dfields == 13, "dfield count");
}

/* Rendering is pure: it changes nothing and reads nothing but the struct. */
static void test_render_pure(void)
{
	static struct edac_decoded d, copy;
	struct edac_in in = { .error_type = 0, .msg = "read error", .msg_len = 10, .label = "DIMM_A1",
			      .label_len = 7, .error_count = 2, .top_layer = 1, .middle_layer = 0,
			      .lower_layer = -1, .grain_bits = 6 };
	char first[RAS_SUMMARY_LEN];

	edac_decode(&in, &d);
	copy = d;
	edac_render(&d, first, sizeof(first));
	tap_ok(first[0] && memcmp(&d, &copy, sizeof(d)) == 0, "render leaves the struct as it was");
	tap_is_str(SAID(copy), first, "a copy renders the same sentence");
}

int main(void)
{
	test_render_pure();
	test_types();
	test_layers();
	test_fields();
	return tap_done();
}
