/* SPDX-License-Identifier: MIT */
/*
 * EDAC building blocks without a database: the sysfs reader on the three
 * layouts, the csrow linkage, the SMBIOS type 17 parser (and its bounds
 * checks), and the DIMM label files with their error reporting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lib/dimm_labels.h"
#include "edac_fixtures.h"
#include "lib/edac_sysfs.h"
#include "lib/smbios.h"
#include "tests/tap.h"
#include "tests/test_util.h"

static void test_intel(const char *root)
{
	struct edac_topology t;
	const struct edac_mc *mc;
	const struct edac_dimm *d;
	unsigned row = 99, ch = 99;

	tap_is_int(edac_sysfs_read(root, &t), 0, "intel: tree read");
	tap_is_int(t.n_mcs, 2, "intel: two controllers");
	mc = edac_topology_mc(&t, 0);
	if (!tap_ok(mc != NULL, "intel: mc0 present"))
		return;
	tap_is_str(mc->mc_name, "Skylake Socket#0 IMC#0", "intel: mc_name");
	tap_is_int(mc->n_layers, 2, "intel: two layers from max_location");
	tap_is_int(mc->layer_size[0] * 10 + mc->layer_size[1], 32, "intel: 3 channels x 2 slots");
	tap_is_int(mc->n_dimms, 4, "intel: four DIMMs");
	d = edac_mc_dimm_at(mc, 1, 0, -1);
	tap_ok(d && d->index == 2, "intel: channel 1 slot 0 is dimm2");
	tap_ok(d && d->csrow == 0 && d->cschannel == 1, "intel: dimm2 sits in csrow0 ch1");
	tap_is_str(d ? d->location : NULL, "channel 1 slot 0", "intel: location trimmed");
	tap_is_int(d ? (long long)d->size_mb : -1, 16384, "intel: DIMM size");
	tap_ok(edac_mc_dimm_at(mc, 1, 1, -1) == NULL, "intel: empty slot has no DIMM");
	tap_ok(edac_mc_dimm_at(mc, 0, -1, -1) == NULL, "intel: partial location matches no DIMM");
	tap_ok(edac_mc_csrow_at(mc, 0, 1, -1, &row, &ch) && mc->csrows[row].index == 1 && ch == 0,
	       "intel: channel 0 slot 1 is csrow1 ch0");
	tap_is_int(mc->n_csrows, 2, "intel: two csrows");
	tap_is_int(mc->csrows[0].n_channels, 3, "intel: csrow0 has three channels");
	edac_topology_free(&t);
}

static void test_amd_and_csrow(const char *amd, const char *old)
{
	struct edac_topology t;
	const struct edac_dimm *d;
	unsigned row = 99, ch = 99;

	tap_is_int(edac_sysfs_read(amd, &t), 0, "amd: tree read");
	tap_ok(t.n_mcs == 1 && t.mcs[0].n_dimms == 4 && t.mcs[0].dimms[0].is_rank,
	       "amd: four rank directories");
	d = t.n_mcs ? edac_mc_dimm_at(&t.mcs[0], 1, 1, -1) : NULL;
	tap_ok(d && d->index == 3 && d->csrow == 1 && d->cschannel == 1,
	       "amd: csrow 1 channel 1 is rank3 in csrow1 ch1");
	edac_topology_free(&t);

	tap_is_int(edac_sysfs_read(old, &t), 0, "csrow: tree read");
	tap_ok(t.n_mcs == 1 && t.mcs[0].n_dimms == 0 && t.mcs[0].n_csrows == 2,
	       "csrow: two csrows, no DIMM directories");
	tap_ok(t.n_mcs && edac_mc_csrow_at(&t.mcs[0], 1, 0, -1, &row, &ch) && row == 1 && ch == 0,
	       "csrow: top = csrow, middle = channel");
	edac_topology_free(&t);
	tap_is_int(edac_sysfs_read("/nonexistent-root", &t), -2, "no EDAC tree: -ENOENT");
}

static void test_smbios(void)
{
	uint8_t blob[4096];
	struct smbios_memory_device dev[8];
	size_t len = fx_smbios_blob(blob, sizeof(blob));
	int n = smbios_memory_devices(blob, len, dev, 8);

	tap_is_int(n, 6, "smbios: six type 17 records");
	tap_is_str(dev[0].locator, "P1-DIMMA1", "smbios: locator string");
	tap_is_str(dev[0].bank_locator, "P0_Node0_Channel0_Dimm0", "smbios: bank locator");
	tap_is_str(dev[0].part_number, "M393A2K43CB2-CTD", "smbios: part number");
	tap_is_int(dev[0].size_mb, 16384, "smbios: size");
	tap_is_int(dev[3].size_mb, 0, "smbios: empty socket");
	tap_is_str(smbios_memory_type_name(dev[0].memory_type), "DDR4", "smbios: memory type");
	tap_is_int(dev[0].speed_mts, 3200, "smbios: speed");
	tap_is_int(dev[0].rank, 2, "smbios: rank");
	/* Every truncation must end the walk cleanly, never read past the blob. */
	for (size_t cut = 0; cut < len; cut += 7) {
		uint8_t *copy = malloc(cut ? cut : 1);

		memcpy(copy, blob, cut);
		n = smbios_memory_devices(copy, cut, dev, 8);
		free(copy);
		if (n > 6 || n < -22)
			break;
	}
	tap_ok(n <= 6, "smbios: truncated tables parse within bounds");
	blob[1] = 2;  /* structure shorter than its header */
	tap_is_int(smbios_memory_devices(blob, len, dev, 8), -22, "smbios: malformed first structure");
}

struct errors {
	unsigned n;
	char first[512];
	char all[4096];
};

static void on_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	struct errors *e = ctx;
	const char *base = strrchr(file, '/');
	size_t k = strlen(e->all);

	snprintf(e->all + k, sizeof(e->all) - k, "%s:%u: %s\n", base ? base + 1 : file, line, reason);
	if (!e->n++)
		snprintf(e->first, sizeof(e->first), "%s:%u: %s", base ? base + 1 : file, line, reason);
}

static void test_labels(const char *intel, const char *amd, const char *old)
{
	char dir[4096];
	struct errors e = { 0 };
	struct dimm_labels *l = dimm_labels_new();
	struct dmi_ident id;

	snprintf(dir, sizeof(dir), "%s/tests/edac/labels /nonexistent-dir", test_srcdir());
	tap_is_int(dimm_labels_load_dirs(l, dir, on_error, &e), 4, "labels: four problems reported");
	tap_is_str(e.first, "30-broken.conf:3: label 'P0-ORPHAN' before any Vendor: line",
		   "labels: first problem as file:line: reason");
	tap_ok(strstr(e.all, "30-broken.conf:6: bad location '0.zero.0'") != NULL, "labels: bad location");
	tap_ok(strstr(e.all, "30-broken.conf:7: expected 'NAME: value'") != NULL, "labels: missing colon");
	tap_ok(strstr(e.all, "30-broken.conf:8: bad location '0.0.1.2.3'") != NULL, "labels: too many layers");
	dmi_ident_read(intel, &id);
	dimm_labels_set_machine(l, &id);
	tap_is_str(dimm_labels_board_key(l), "Supermicro|X11DPi-N|SYS-6029P-TRT", "labels: DMI board key");
	tap_is_str(dimm_labels_lookup(l, NULL, 0, 1, 0, -1), "P1-DIMMB1", "labels: case-insensitive board match");
	tap_is_str(dimm_labels_lookup(l, NULL, 0, 0, 1, -1), "P1-DIMMA2", "labels: broken file did not apply");
	tap_is_str(dimm_labels_lookup(l, NULL, 1, 0, 0, -1), "P2-DIMMA1", "labels: second controller");
	tap_ok(dimm_labels_lookup(l, NULL, 0, 1, 1, -1) == NULL, "labels: unlabelled location");
	tap_is_int(dimm_labels_count_matching(l), 5, "labels: five entries for this board");
	tap_is_str(dimm_labels_lookup(l, "asrockrack|romed8-2t|x", 0, 1, 0, -1), "DIMM_A1",
		   "labels: explicit board key, several locations per label");
	dmi_ident_read(amd, &id);
	dimm_labels_set_machine(l, &id);
	tap_is_str(dimm_labels_lookup(l, NULL, 0, 1, 1, -1), "DIMM_B1", "labels: AMD rank label");
	dmi_ident_read(old, &id);
	dimm_labels_set_machine(l, &id);
	tap_is_str(dimm_labels_lookup(l, NULL, 0, 1, 0, -1), "CS1_CH0",
		   "labels: Product: after entries starts a new block of the same vendor");
	tap_ok(dimm_label_is_placeholder("mc#0csrow#1channel#0") &&
	       dimm_label_is_placeholder("CPU_SrcID#0_MC#0_Chan#0_DIMM#0") &&
	       dimm_label_is_placeholder("any memory") && !dimm_label_is_placeholder("P1-DIMMA1"),
	       "labels: kernel placeholders recognised");
	dimm_labels_free(l);
}

int main(void)
{
	char tmp[256], intel[300], amd[300], old[300];

	if (test_tmpdir(tmp, sizeof(tmp)) < 0)
		return 1;
	snprintf(intel, sizeof(intel), "%s/intel", tmp);
	snprintf(amd, sizeof(amd), "%s/amd", tmp);
	snprintf(old, sizeof(old), "%s/csrow", tmp);
	if (fx_intel_tree(intel) || fx_amd_tree(amd) || fx_csrow_tree(old)) {
		tap_skip_all("cannot build fixture trees");
	}
	test_intel(intel);
	test_amd_and_csrow(amd, old);
	test_smbios();
	test_labels(intel, amd, old);
	test_rmtree(tmp);
	return tap_done();
}
