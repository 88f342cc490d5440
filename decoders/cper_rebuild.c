/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon's vendor tables back to the sections they were decoded from, so
 * "ras-fdr-ctl import rasdaemon" stores each as a non_standard_event that
 * today's decoders read. Column names and the text rasdaemon writes into them
 * (module names, "NAME=0x1 NAME2=0x2" register dumps, space-separated) as
 * its sources write them: events-arch-arm/non-standard-hisi_hip08.c,
 * non-standard-hisilicon.c, non-standard-yitian.c, non-standard-jaguarmicro.c,
 * non-standard-nvidia.c and non-standard-ampere.c. The bytes follow the
 * layouts the vendor files of this folder cite. A field rasdaemon did not
 * store (a validity bit it left out) is left out of the section too.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "cper.h"
#include "other_util.h"

struct rb {
	const struct cper_rebuild_col *cols;
	size_t n;
	uint8_t *out;
	size_t cap;
};

static const struct cper_rebuild_col *col(const struct rb *r, const char *name)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->cols[i].name && !strcmp(r->cols[i].name, name))
			return &r->cols[i];
	return NULL;
}

static bool num(const struct rb *r, const char *name, uint64_t *v)
{
	const struct cper_rebuild_col *c = col(r, name);
	char *end;

	if (!c)
		return false;
	if (c->is_int) {
		*v = (uint64_t)c->i;
		return true;
	}
	if (!c->text || !*c->text)
		return false;
	*v = strtoull(c->text, &end, 0);
	return *end == '\0';
}

static const char *text(const struct rb *r, const char *name)
{
	const struct cper_rebuild_col *c = col(r, name);

	return c && c->text ? c->text : NULL;
}

/*
 * A register of a dump: NAME, then '=' or ':' and spaces, then its value.
 * NAME is a whole word: at the start or after a space, '[' or ','.
 */
static bool reg(const char *dump, const char *name, uint64_t *v)
{
	size_t len = strlen(name);

	for (const char *p = dump; p && (p = strstr(p, name)); p += len) {
		const char *q = p + len;
		char *end;

		if (p != dump && !strchr(" [,", p[-1]))
			continue;
		if (*q != '=' && *q != ':')
			continue;
		while (*++q == ' ')
			;
		*v = strtoull(q, &end, 0);
		if (end != q)
			return true;
	}
	return false;
}

static void put(uint8_t *p, uint64_t v, unsigned bytes)
{
	for (unsigned i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

static int severity_index(const char *t)
{
	static const char *const names[] = { "recoverable", "fatal", "corrected", "none" };

	for (int i = 0; t && i < 4; i++)
		if (!strcasecmp(t, names[i]))
			return i;
	return -1;
}

/* An id column into its byte at off, its validity bit set when present. */
static void id_byte(const struct rb *r, const char *name, unsigned off, uint64_t bit, uint64_t *valid)
{
	uint64_t v;

	if (num(r, name, &v)) {
		r->out[off] = (uint8_t)v;
		*valid |= bit;
	}
}

/* The HiSilicon severity byte and the CPER severity it stands for (the same numbering). */
static void hisi_severity(const struct rb *r, unsigned off, uint64_t bit, uint64_t *valid, uint8_t *sev)
{
	int s = severity_index(text(r, "err_severity"));

	if (s < 0)
		return;
	r->out[off] = (uint8_t)s;
	*valid |= bit;
	*sev = (uint8_t)s;
}

/* HIP08 OEM type 1 and 2 (cper_hisi.c): 12-byte header, then registers. */
static int hisi_oem(const struct rb *r, unsigned type, uint8_t *sev)
{
	static const char *const oem1[] = { "ERR_MISC0", "ERR_MISC1", "ERR_MISC2", "ERR_MISC3", "ERR_MISC4" };
	static const char *const oem2[] = { "ERR_FR", "ERR_CTRL", "ERR_STATUS", "ERR_ADDR", "ERR_MISC0",
					    "ERR_MISC1" };
	size_t len = type == 1 ? 40 : 60;
	const char *dump = text(r, "regs_dump");
	uint64_t valid = 0, v, hi;
	int m, s;
	char name[24];

	if (r->cap < len)
		return -EINVAL;
	memset(r->out, 0, len);
	id_byte(r, "version", 4, 0, &valid);
	id_byte(r, "soc_id", 5, 1 << 0, &valid);
	id_byte(r, "socket_id", 6, 1 << 1, &valid);
	id_byte(r, "nimbus_id", 7, 1 << 2, &valid);
	if ((m = cper_hisi_module_id(type, text(r, "module_id"))) >= 0) {
		r->out[8] = (uint8_t)m;
		valid |= 1 << 3;
		if ((s = cper_hisi_sub_id(type, (unsigned)m, text(r, "sub_module_id"))) >= 0) {
			r->out[9] = (uint8_t)s;
			valid |= 1 << 4;
		}
	}
	hisi_severity(r, 10, 1 << 5, &valid, sev);
	for (unsigned i = 0; type == 1 && i < 5; i++)
		if (reg(dump, oem1[i], &v)) {
			put(r->out + 12 + 4 * i, v, 4);
			valid |= 1u << (6 + i);
		}
	if (type == 1 && reg(dump, "ERR_ADDR", &v)) {
		put(r->out + 32, v, 8);
		valid |= 1u << 11;
	}
	/* Type 2 dumps each register as its halves, NAME_0 and NAME_1. */
	for (unsigned i = 0; type == 2 && i < 6; i++) {
		snprintf(name, sizeof(name), "%s_0", oem2[i]);
		if (!reg(dump, name, &v))
			continue;
		snprintf(name, sizeof(name), "%s_1", oem2[i]);
		hi = 0;
		reg(dump, name, &hi);
		put(r->out + 12 + 8 * i, v, 4);
		put(r->out + 16 + 8 * i, hi, 4);
		valid |= 1u << (6 + i);
	}
	put(r->out, valid, 4);
	return (int)len;
}

/* HIP08 PCIe local: rasdaemon names the layers AP_Layer ... SDI_Layer. */
static int hisi_pcie(const struct rb *r, uint8_t *sev)
{
	static const char *const layers[] = { "AP_Layer", "TL_Layer", "MAC_Layer", "DL_Layer", "SDI_Layer" };
	const char *dump = text(r, "regs_dump"), *layer = text(r, "sub_module_id");
	uint64_t valid = 0, v;
	char name[24];

	if (r->cap < 152)
		return -EINVAL;
	memset(r->out, 0, 152);
	id_byte(r, "version", 8, 1 << 0, &valid);
	id_byte(r, "soc_id", 9, 1 << 1, &valid);
	id_byte(r, "socket_id", 10, 1 << 2, &valid);
	id_byte(r, "nimbus_id", 11, 1 << 3, &valid);
	for (unsigned i = 0; layer && i < 5; i++)
		if (!strcasecmp(layer, layers[i])) {
			r->out[12] = (uint8_t)i;
			valid |= 1 << 4;
		}
	id_byte(r, "core_id", 13, 1 << 5, &valid);
	id_byte(r, "port_id", 14, 1 << 6, &valid);
	hisi_severity(r, 15, 1 << 8, &valid, sev);
	if (num(r, "err_type", &v)) {
		put(r->out + 16, v, 2);
		valid |= 1 << 7;
	}
	for (unsigned i = 0; i < 33; i++) {
		snprintf(name, sizeof(name), "ERR_MISC_%u", i);
		if (reg(dump, name, &v)) {
			put(r->out + 20 + 4 * i, v, 4);
			valid |= 1ULL << (9 + i);
		}
	}
	put(r->out, valid, 8);
	return 152;
}

/* The common section: header of 32 bytes, then "regNN=0x..." registers. */
static int hisi_common(const struct rb *r, uint8_t *sev)
{
	const char *dump = text(r, "regs_dump"), *pcie = text(r, "pcie_info");
	uint64_t valid = 0, v;
	unsigned seg, bus, dev, fn, count = 0;
	int m;
	char name[16];

	if (r->cap < 32)
		return -EINVAL;
	memset(r->out, 0, 32);
	id_byte(r, "version", 4, 0, &valid);
	id_byte(r, "soc_id", 5, 1 << 0, &valid);
	id_byte(r, "socket_id", 6, 1 << 1, &valid);
	id_byte(r, "totem_id", 7, 1 << 2, &valid);
	id_byte(r, "nimbus_id", 8, 1 << 3, &valid);
	id_byte(r, "sub_system_id", 9, 1 << 4, &valid);
	if ((m = cper_hisi_module_id(0, text(r, "module_id"))) >= 0) {
		r->out[10] = (uint8_t)m;
		valid |= 1 << 5;
	}
	id_byte(r, "sub_module_id", 11, 1 << 6, &valid);
	id_byte(r, "core_id", 12, 1 << 7, &valid);
	id_byte(r, "port_id", 13, 1 << 8, &valid);
	if (num(r, "err_type", &v)) {
		put(r->out + 14, v, 2);
		valid |= 1 << 9;
	}
	if (pcie && sscanf(pcie, "%x:%x:%x.%x", &seg, &bus, &dev, &fn) == 4) {
		r->out[16] = (uint8_t)fn, r->out[17] = (uint8_t)dev, r->out[20] = (uint8_t)bus;
		put(r->out + 18, seg, 2);
		valid |= 1 << 10;
	}
	hisi_severity(r, 24, 1 << 11, &valid, sev);
	for (unsigned i = 0; i < 256; i++) {
		snprintf(name, sizeof(name), "reg%02u", i);
		if (!reg(dump, name, &v) || 32 + 4 * (size_t)i + 4 > r->cap)
			break;
		put(r->out + 32 + 4 * i, v, 4);
		count++;
	}
	if (count) {
		put(r->out + 28, 4 * count, 4);
		valid |= 1 << 12;
	}
	put(r->out, valid, 4);
	return (int)(32 + 4 * count);
}

/* Yitian DDR: "Error Type: DDR, ..., Error Instance: 0x3, ECCCFG0: 0x0 ...". */
static int yitian(const struct rb *r)
{
	static const char *const regs[] = {
		"ECCCFG0", "ECCCFG1", "ECCSTAT", "ECCERRCNT", "ECCCADDR0", "ECCCADDR1", "ECCCSYN0",
		"ECCCSYN1", "ECCCSYN2", "ECCUADDR0", "ECCUADDR1", "ECCUSYN0", "ECCUSYN1", "ECCUSYN2",
		"ECCBITMASK0", "ECCBITMASK1", "ECCBITMASK2", "ADVECCSTAT", "ECCAPSTAT", "ECCCDATA0",
		"ECCCDATA1", "ECCUDATA0", "ECCUDATA1", "ECCSYMBOL", "ECCERRCNTCTL", "ECCERRCNTSTAT",
		"ECCERRCNT0", "ECCERRCNT1", "RESERVED0", "RESERVED1", "RESERVED2",
	};
	const char *dump = text(r, "regs_dump");
	uint64_t v;

	if (r->cap < 128 || !dump || !strstr(dump, "Error Type: DDR"))
		return -EINVAL;
	memset(r->out, 0, 128);
	r->out[0] = 0x50;
	if (reg(dump, "Instance", &v))
		put(r->out + 2, v, 2);
	for (unsigned i = 0; i < OU_ARRAY_SIZE(regs); i++)
		if (reg(dump, regs[i], &v))
			put(r->out + 4 + 4 * i, v, 4);
	return 128;
}

/* JaguarMicro: one table for every payload; its registers tell which payload. */
static const struct {
	const char *first;      /* the payload's first register */
	const char *guid;
	unsigned count, width;
	const char *const names[15];
} jm_payloads[] = {
	{ "LOCK_CONTROL", "82d78ba3-fa14-407a-ba0e-f3ba8170013c", 15, 4,
	  { "LOCK_CONTROL", "LOCK_FUNCTION", "CFG_RAM_ID", "ERR_FR_LOW32", "ERR_FR_HIGH32",
	    "ERR_CTLR_LOW32", "ECC_STATUS_LOW32", "ECC_ADDR_LOW32", "ECC_ADDR_HIGH32",
	    "ECC_MISC0_LOW32", "ECC_MISC0_HIGH32", "ECC_MISC1_LOW32", "ECC_MISC1_HIGH32",
	    "ECC_MISC2_LOW32", "ECC_MISC2_HIGH32" } },
	{ "CSR_INT_STATUS", "f9723053-2558-49b1-b58a-1c1a82492a62", 5, 4,
	  { "CSR_INT_STATUS", "ERR_FR", "ERR_CTLR", "ERR_STATUS", "ERR_GEN" } },
	{ "ECC_1BIT_INFO_LOW32", "2d31de54-3037-4f24-a283-f69ca1ec0b9a", 4, 4,
	  { "ECC_1BIT_INFO_LOW32", "ECC_1BIT_INFO_HIGH32", "ECC_2BIT_INFO_LOW32",
	    "ECC_2BIT_INFO_HIGH32" } },
	{ "CFGM_MXP_0", "dac80d69-0a72-4eba-8114-148ee344af06", 14, 8,
	  { "CFGM_MXP_0", "CFGM_HNF_0", "CFGM_HNI_0", "CFGM_SBSX_0", "ERR_FR_NS", "ERR_CTLRR_NS",
	    "ERR_STATUSR_NS", "ERR_ADDRR_NS", "ERR_MISCR_NS", "ERR_FR", "ERR_CTLR", "ERR_STATUS",
	    "ERR_ADDR", "ERR_MISC" } },
	{ "RECORD_ID", "746f06fe-405e-451f-8d09-02e802ed984a", 8, 8,
	  { "RECORD_ID", "GICT_ERR_FR", "GICT_ERR_CTLR", "GICT_ERR_STATUS", "GICT_ERR_ADDR",
	    "GICT_ERR_MISC0", "GICT_ERR_MISC1", "GICT_ERRGSR" } },
};

static int jm(const struct rb *r, uint8_t guid[16], uint8_t *sev)
{
	const char *dump = text(r, "regs_dump");
	uint64_t valid = 0, v;
	uint8_t ids[3] = { 0 };
	size_t p = 0, at, count = 0;
	int found;
	char name[16];

	while (p < OU_ARRAY_SIZE(jm_payloads) && !reg(dump, jm_payloads[p].first, &v))
		p++;
	if (p == OU_ARRAY_SIZE(jm_payloads))
		return -EINVAL;
	at = 16 + (size_t)jm_payloads[p].count * jm_payloads[p].width;
	if (r->cap < at + 4 + 4 * 64)
		return -EINVAL;
	cper_guid_parse(jm_payloads[p].guid, guid);
	memset(r->out, 0, at + 4);
	id_byte(r, "version", 4, 1 << 0, &valid);
	id_byte(r, "soc_id", 5, 1 << 1, &valid);
	found = cper_jm_ids(text(r, "subsystem"), text(r, "module"), text(r, "sub_module"), ids);
	for (unsigned i = 0; i < 3; i++)
		if (found & (1 << i)) {
			r->out[6 + i] = ids[i];
			valid |= 1u << (2 + i);
		}
	id_byte(r, "dev_id", 9, 1 << 5, &valid);
	if (num(r, "err_type", &v)) {
		put(r->out + 10, v, 2);
		valid |= 1 << 6;
	}
	hisi_severity(r, 12, 1 << 7, &valid, sev);
	for (unsigned i = 0; i < jm_payloads[p].count; i++)
		if (reg(dump, jm_payloads[p].names[i], &v))
			put(r->out + 16 + (size_t)jm_payloads[p].width * i, v, jm_payloads[p].width);
	for (; count < 64; count++) {
		snprintf(name, sizeof(name), "reg%02zu", count);
		if (!reg(dump, name, &v))
			break;
		put(r->out + at + 4 + 4 * count, v, 4);
	}
	if (count) {
		put(r->out + at, count, 4);
		valid |= 1 << 11;
	}
	put(r->out, valid, 4);
	return (int)(at + 4 + 4 * count);
}

/* NVIDIA keeps the whole section as raw_data. */
static int nvidia(const struct rb *r, bool vera, uint8_t *sev)
{
	const struct cper_rebuild_col *c = col(r, "raw_data");
	uint64_t v;

	if (!c || !c->blob || !c->blob_len || c->blob_len > r->cap)
		return -EINVAL;
	memcpy(r->out, c->blob, c->blob_len);
	if (!vera && num(r, "severity", &v) && v < 4)
		*sev = (uint8_t)v;
	return (int)c->blob_len;
}

/* Ampere: rasdaemon's type and sub-type names back to their numbers. */
static int ampere_type(const char *t)
{
	static const struct { const char *name; uint8_t id; } types[] = {
		{ "CPM", 0 }, { "MCU", 1 }, { "MESH", 2 }, { "2P Link(Altra)", 3 },
		{ "2P Link(Altra Max)", 4 }, { "GIC", 5 }, { "SMMU", 6 }, { "PCIe AER", 7 },
		{ "PCIe RASDP", 8 }, { "OCM", 9 }, { "SMPRO", 10 }, { "PMPRO", 11 }, { "ATF FW", 12 },
		{ "SMPRO FW", 13 }, { "PMPRO FW", 14 }, { "BERT", 63 },
	};

	for (size_t i = 0; t && i < OU_ARRAY_SIZE(types); i++)
		if (!strcasecmp(t, types[i].name))
			return types[i].id;
	return -1;
}

static unsigned ampere_subtype(const char *t)
{
	static const struct { const char *name; uint8_t id; } subs[] = {
		{ "Snoop-Logic", 0 }, { "ARMv8 Core 0", 1 }, { "ARMv8 Core 1", 2 }, { "Link Error", 7 },
		{ "Cross Point", 0 }, { "Home Node(IO)", 1 }, { "Home Node(Memory)", 2 },
		{ "CCIX Node", 3 }, { "TCU", 0x64 }, { "Root Port", 0 }, { "Device", 1 },
		{ "RCA HB Error", 0 }, { "RCB HB Error", 1 }, { "RASDP Error", 8 }, { "MPA_ERR", 2 },
		{ "EL3", 0 }, { "SPM", 1 }, { "Secure Partition(SEL0/SEL1)", 2 }, { "RAS_MSG_ERR", 0 },
		{ "Default", 0 }, { "Watchdog", 1 }, { "ATF Fatal", 2 }, { "SMPRO Fatal", 3 },
		{ "PMPRO Fatal", 4 },
	};

	if (!t)
		return 0;
	/* "ERR3", "ERR13(GIC ITS 0)", "TBU5": the number is in the name. */
	if (!strncmp(t, "ERR", 3) || !strncmp(t, "TBU", 3))
		return (unsigned)strtoul(t + 3, NULL, 10);
	for (size_t i = 0; i < OU_ARRAY_SIZE(subs); i++)
		if (!strcasecmp(t, subs[i].name))
			return subs[i].id;
	return 0;
}

static int ampere(const struct rb *r, unsigned payload)
{
	static const char *const cols[4][10] = {
		{ "status_reg", "addr_reg", "misc0", "misc1", "misc2", "misc3" },
		{ "uncore_err_status", "uncore_err_mask", "uncore_err_sev", "core_err_status",
		  "core_err_mask", "root_err_cmd", "root_err_status", "src_id", "reserved1", "reserverd2" },
		{ "ce_report_reg", "ce_location", "ce_addr", "ue_report_reg", "ue_location", "ue_addr",
		  "reserved1", "reserved2", "reserved3" },
		{ "fw_spec_data0", "fw_spec_data1", "fw_spec_data2", "fw_spec_data3", "fw_spec_data4",
		  "fw_spec_data5" },
	};
	/* Where each column goes, and its width (the layouts of cper_ampere.c). */
	static const uint8_t off[4][10] = {
		{ 4, 8, 16, 24, 32, 40 }, { 4, 8, 12, 16, 20, 24, 28, 32, 36, 40 },
		{ 4, 8, 12, 16, 20, 24, 28, 32, 40 }, { 4, 8, 16, 24, 32, 40 },
	};
	int type = ampere_type(text(r, "type"));
	uint64_t inst = 0, socket = 0, v;

	if (r->cap < 48 || type < 0)
		return -EINVAL;
	memset(r->out, 0, 48);
	r->out[0] = (uint8_t)(payload << 6 | (unsigned)type);
	r->out[1] = (uint8_t)ampere_subtype(text(r, "subtype"));
	num(r, "instance", &inst);
	num(r, "socket_num", &socket);
	put(r->out + 2, (socket & 3) << 14 | (inst & 0x3fff), 2);
	for (unsigned i = 0; i < 10 && cols[payload][i]; i++) {
		unsigned width = (i + 1 < 10 && off[payload][i + 1] ? off[payload][i + 1] : 48) -
				 off[payload][i];

		if (num(r, cols[payload][i], &v))
			put(r->out + off[payload][i], v, width > 8 ? 8 : width);
	}
	return 48;
}

static const struct {
	const char *table, *guid;
	int kind;   /* 1, 2 HIP08 OEM; 3 PCIe local; 4 common; 5 Yitian; 6 JM; 7 Grace; 8 Vera; 10-13 Ampere */
} tables[] = {
	{ "hip08_oem_type1_event_v2", "1f8161e1-55d6-41e6-bd10-7afd1dc5f7c5", 1 },
	{ "hip08_oem_type2_event_v2", "45534ea6-ce23-4115-8535-e07ab3aef91d", 2 },
	{ "hip08_pcie_local_event_v2", "b2889fc9-e7d7-4f9d-a867-af42e98be772", 3 },
	{ "hisi_common_section_v2", "c8b328a8-9917-4af6-9a13-2e08ab2e7586", 4 },
	{ "yitian_ddr_reg_dump_event", "a6980811-16ea-4e4d-b936-fb00a23ff29c", 5 },
	{ "jm_payload0_event", NULL, 6 },
	{ "nvidia_ns_event", "6d5244f2-2712-11ec-bea7-cb3fdb95c786", 7 },
	{ "nvidia_vera_ns_event", "9068e568-6ca0-11f0-aeaf-159343591eac", 8 },
	{ "amp_payload0_event", "e8ed898d-df16-43cc-8ecc-54f060ef157f", 10 },
	{ "amp_payload1_event", "e8ed898d-df16-43cc-8ecc-54f060ef157f", 11 },
	{ "amp_payload2_event", "e8ed898d-df16-43cc-8ecc-54f060ef157f", 12 },
	{ "amp_payload3_event", "e8ed898d-df16-43cc-8ecc-54f060ef157f", 13 },
};

bool cper_rebuild_knows(const char *table)
{
	for (size_t i = 0; table && i < OU_ARRAY_SIZE(tables); i++)
		if (!strcmp(tables[i].table, table))
			return true;
	return false;
}

int cper_rebuild_rasdaemon(const char *table, const struct cper_rebuild_col *cols, size_t n,
			   uint8_t guid[16], uint8_t *sev, uint8_t *out, size_t cap)
{
	struct rb r = { .cols = cols, .n = n, .out = out, .cap = cap };
	size_t t = 0;

	while (t < OU_ARRAY_SIZE(tables) && (!table || strcmp(tables[t].table, table)))
		t++;
	if (t == OU_ARRAY_SIZE(tables))
		return -ENOENT;
	*sev = 0xff;
	if (tables[t].guid)
		cper_guid_parse(tables[t].guid, guid);
	switch (tables[t].kind) {
	case 1: case 2: return hisi_oem(&r, (unsigned)tables[t].kind, sev);
	case 3: return hisi_pcie(&r, sev);
	case 4: return hisi_common(&r, sev);
	case 5: return yitian(&r);
	case 6: return jm(&r, guid, sev);
	case 7: case 8: return nvidia(&r, tables[t].kind == 8, sev);
	default: return ampere(&r, (unsigned)tables[t].kind - 10);
	}
}
