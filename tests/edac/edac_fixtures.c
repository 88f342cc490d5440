/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "edac_fixtures.h"

#define EDAC_MC "devices/system/edac/mc"

int fx_write(const char *root, const char *rel, const char *content)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + 1; (p = strchr(p, '/')); p++) {
		*p = 0;
		if (mkdir(path, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(content, f);
	return fclose(f) == 0 ? 0 : -EIO;
}

/* A literal format keeps the arguments checked. */
#define fx_printf(root, value, fmt, a, b) ({ char rel_[256];                  \
	snprintf(rel_, sizeof(rel_), fmt, a, b); fx_write(root, rel_, value); })

static int mc_files(const char *root, unsigned mc, const char *name, const char *size,
		    const char *max_location)
{
	char rel[256];
	static const char *const counters[] = {
		"ce_count", "ue_count", "ce_noinfo_count", "ue_noinfo_count",
	};
	int r = 0;

	snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/mc_name", mc);
	r |= fx_write(root, rel, name);
	snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/size_mb", mc);
	r |= fx_write(root, rel, size);
	snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/seconds_since_reset", mc);
	r |= fx_write(root, rel, "86400\n");
	for (size_t i = 0; i < 4; i++) {
		snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/%s", mc, counters[i]);
		r |= fx_write(root, rel, "0\n");
	}
	if (max_location) {
		snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/max_location", mc);
		r |= fx_write(root, rel, max_location);
	}
	return r;
}

static int dimm_dir(const char *root, unsigned mc, const char *kind, unsigned idx,
		    const char *location, const char *label, const char *size, const char *mem)
{
	static const char *const files[] = {
		"dimm_location", "dimm_label", "size", "dimm_mem_type", "dimm_dev_type",
		"dimm_edac_mode", "dimm_ce_count", "dimm_ue_count",
	};
	const char *values[] = { location, label, size, mem, "x4\n", "S4ECD4ED\n", "0\n", "0\n" };
	char rel[256];
	int r = 0;

	for (size_t i = 0; i < 8; i++) {
		snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/%s%u/%s", mc, kind, idx, files[i]);
		r |= fx_write(root, rel, values[i]);
	}
	return r;
}

static int csrow_dir(const char *root, unsigned mc, unsigned row, unsigned channels_mask,
		     const char *size, const char *mem)
{
	char rel[256];
	int r = 0;

	r |= fx_printf(root, size, EDAC_MC "/mc%u/csrow%u/size_mb", mc, row);
	r |= fx_printf(root, mem, EDAC_MC "/mc%u/csrow%u/mem_type", mc, row);
	r |= fx_printf(root, "x4\n", EDAC_MC "/mc%u/csrow%u/dev_type", mc, row);
	r |= fx_printf(root, "S4ECD4ED\n", EDAC_MC "/mc%u/csrow%u/edac_mode", mc, row);
	r |= fx_printf(root, "0\n", EDAC_MC "/mc%u/csrow%u/ce_count", mc, row);
	r |= fx_printf(root, "0\n", EDAC_MC "/mc%u/csrow%u/ue_count", mc, row);
	for (unsigned ch = 0; ch < 8; ch++) {
		if (!(channels_mask & (1u << ch)))
			continue;
		snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/csrow%u/ch%u_ce_count", mc, row, ch);
		r |= fx_write(root, rel, "0\n");
		snprintf(rel, sizeof(rel), EDAC_MC "/mc%u/csrow%u/ch%u_dimm_label", mc, row, ch);
		r |= fx_write(root, rel, "\n");
	}
	return r;
}

static int dmi_id(const char *root, const char *vendor, const char *board, const char *product)
{
	return fx_write(root, "class/dmi/id/board_vendor", vendor) |
	       fx_write(root, "class/dmi/id/board_name", board) |
	       fx_write(root, "class/dmi/id/product_name", product) |
	       fx_write(root, "class/dmi/id/sys_vendor", vendor);
}

int fx_intel_tree(const char *root)
{
	static const struct { unsigned mc, idx; const char *loc, *label; } dimms[] = {
		{ 0, 0, "channel 0 slot 0 \n", "CPU_SrcID#0_MC#0_Chan#0_DIMM#0\n" },
		{ 0, 1, "channel 0 slot 1 \n", "CPU_SrcID#0_MC#0_Chan#0_DIMM#1\n" },
		{ 0, 2, "channel 1 slot 0 \n", "CPU_SrcID#0_MC#0_Chan#1_DIMM#0\n" },
		{ 0, 4, "channel 2 slot 0 \n", "CPU_SrcID#0_MC#0_Chan#2_DIMM#0\n" },
		{ 1, 0, "channel 0 slot 0 \n", "CPU_SrcID#1_MC#0_Chan#0_DIMM#0\n" },
	};
	int r = mc_files(root, 0, "Skylake Socket#0 IMC#0\n", "65536\n", "channel 2 slot 1 \n") |
		mc_files(root, 1, "Skylake Socket#1 IMC#0\n", "16384\n", "channel 2 slot 1 \n");

	for (size_t i = 0; i < sizeof(dimms) / sizeof(dimms[0]); i++)
		r |= dimm_dir(root, dimms[i].mc, "dimm", dimms[i].idx, dimms[i].loc, dimms[i].label,
			      "16384\n", "Registered-DDR4\n");
	/* Slots are the csrows and channels the channels: row 0 has all three, row 1 only ch0. */
	r |= csrow_dir(root, 0, 0, 0x7, "49152\n", "Registered-DDR4\n");
	r |= csrow_dir(root, 0, 1, 0x1, "16384\n", "Registered-DDR4\n");
	r |= csrow_dir(root, 1, 0, 0x1, "16384\n", "Registered-DDR4\n");
	return r | dmi_id(root, "Supermicro\n", "X11DPi-N\n", "SYS-6029P-TRT\n");
}

int fx_amd_tree(const char *root)
{
	int r = mc_files(root, 0, "F19h_M10h\n", "32768\n", "csrow 1 channel 1 \n");

	for (unsigned row = 0; row < 2; row++)
		for (unsigned ch = 0; ch < 2; ch++) {
			char loc[64], label[64];

			snprintf(loc, sizeof(loc), "csrow %u channel %u \n", row, ch);
			snprintf(label, sizeof(label), "mc#0csrow#%uchannel#%u\n", row, ch);
			r |= dimm_dir(root, 0, "rank", row * 2 + ch, loc, label, "8192\n",
				      "Unbuffered-DDR5\n");
		}
	r |= csrow_dir(root, 0, 0, 0x3, "16384\n", "Unbuffered-DDR5\n");
	r |= csrow_dir(root, 0, 1, 0x3, "16384\n", "Unbuffered-DDR5\n");
	return r | dmi_id(root, "ASRockRack\n", "ROMED8-2T\n", "Some Server\n");
}

int fx_csrow_tree(const char *root)
{
	int r = mc_files(root, 0, "E7520\n", "4096\n", NULL);

	r |= csrow_dir(root, 0, 0, 0x3, "2048\n", "Registered-DDR2\n");
	r |= csrow_dir(root, 0, 1, 0x3, "2048\n", "Registered-DDR2\n");
	return r | dmi_id(root, "ASRockRack\n", "Whatever\n", "old-csrow-box\n");
}

int fx_set_dimm_counts(const char *root, unsigned mc, unsigned dimm, unsigned ce, unsigned ue)
{
	char value[32];
	int r;

	snprintf(value, sizeof(value), "%u\n", ce);
	r = fx_printf(root, value, EDAC_MC "/mc%u/dimm%u/dimm_ce_count", mc, dimm);
	snprintf(value, sizeof(value), "%u\n", ue);
	return r | fx_printf(root, value, EDAC_MC "/mc%u/dimm%u/dimm_ue_count", mc, dimm);
}

/* One structure: formatted area of len bytes, then its strings and the double NUL. */
static size_t put_struct(uint8_t *out, size_t cap, const uint8_t *formatted, size_t len,
			 const char *const *strings, unsigned n)
{
	size_t k = len;

	if (cap < len + 2)
		return 0;
	memcpy(out, formatted, len);
	for (unsigned i = 0; i < n; i++) {
		size_t sl = strlen(strings[i]) + 1;

		if (k + sl + 1 > cap)
			return 0;
		memcpy(out + k, strings[i], sl);
		k += sl;
	}
	if (!n)
		out[k++] = 0;
	out[k++] = 0;
	return k;
}

static size_t put_memory_device(uint8_t *out, size_t cap, uint16_t handle, const char *locator,
				unsigned size_mb)
{
	uint8_t f[0x28] = { 17, 0x28, (uint8_t)handle, (uint8_t)(handle >> 8) };
	const char *const strings[] = { locator ? locator : "", "P0_Node0_Channel0_Dimm0",
					"Samsung", "S/N 0001", "M393A2K43CB2-CTD" };

	f[0x0c] = (uint8_t)size_mb;
	f[0x0d] = (uint8_t)(size_mb >> 8);
	f[0x0e] = 0x09;      /* DIMM */
	f[0x10] = 1;         /* locator */
	f[0x11] = 2;         /* bank locator */
	f[0x12] = 0x1a;      /* DDR4 */
	f[0x15] = 0x80;      /* 3200 MT/s */
	f[0x16] = 0x0c;
	f[0x17] = locator ? 3 : 0;
	f[0x18] = locator ? 4 : 0;
	f[0x1a] = locator ? 5 : 0;
	f[0x1b] = 2;         /* dual rank */
	return put_struct(out, cap, f, sizeof(f), strings, 5);
}

size_t fx_smbios_blob(uint8_t *out, size_t cap)
{
	static const uint8_t bios[0x12] = { 0, 0x12, 0, 0, 1, 2 };
	static const uint8_t end[4] = { 127, 4, 0xff, 0xff };
	const char *const bios_strings[] = { "American Megatrends", "3.4" };
	static const struct { const char *locator; unsigned size; } devs[] = {
		{ "P1-DIMMA1", 16384 }, { "P1-DIMMA2", 16384 }, { "P1-DIMMB1", 16384 },
		{ "P1-DIMMB2", 0 }, { "P1-DIMMC1", 16384 }, { "P2-DIMMA1", 16384 },
	};
	size_t n = put_struct(out, cap, bios, sizeof(bios), bios_strings, 2);

	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		n += put_memory_device(out + n, cap - n, (uint16_t)(0x1100 + i), devs[i].locator,
				       devs[i].size);
	n += put_struct(out + n, cap - n, end, sizeof(end), NULL, 0);
	return n;
}
