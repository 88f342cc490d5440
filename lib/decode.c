/* SPDX-License-Identifier: MIT */
/*
 * Adapters: extracted tracepoint fields (event_fields.h order) → the pure
 * decoders' input structs. Whatever needs the machine (PCI names, DIMM
 * labels, the kernel's memory-failure symbol table) is looked up here, never
 * in decoders/.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decode.h"
#include "decoders/aer.h"
#include "decoders/blockerr.h"
#include "decoders/cper.h"
#include "decoders/cxl.h"
#include "decoders/devlink.h"
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "decoders/netdev.h"
#include "decoders/sigbus.h"
#include "event_fields.h"
#include "formats.h"
#include "cpu_map.h"
#include "dimm_labels.h"
#include "pci_names.h"

#define U(v, idx) ((uint64_t)(v)[idx].i)
#define STR(v, idx) ((const char *)(v)[idx].p)
#define LEN(v, idx) ((size_t)(v)[idx].len)

void ras_decode_ctx_init(struct ras_decode_ctx *ctx)
{
	memset(ctx, 0, sizeof(*ctx));
}

void ras_decode_ctx_release(struct ras_decode_ctx *ctx)
{
	ras_cpu_map_free(ctx->cpu_map);
	ctx->cpu_map = NULL;
	ctx->cpu_map_read = false;
}

int ras_decode_ctx_cpu_of_mpidr(struct ras_decode_ctx *ctx, uint64_t mpidr)
{
	if (!ctx->cpu_sysfs_root)
		return -1;
	/* Read once: CPU numbers stay for the boot; an x86 machine reads an empty map. */
	if (!ctx->cpu_map_read) {
		ctx->cpu_map_read = true;
		if (ras_cpu_map_load(&ctx->cpu_map, ctx->cpu_sysfs_root) < 0)
			ctx->cpu_map = NULL;
	}
	return ras_cpu_map_lookup(ctx->cpu_map, mpidr);
}

void ras_decode_ctx_set_memfail_format(struct ras_decode_ctx *ctx, const char *text, size_t len)
{
	ctx->have_memfail = memfail_symtab_parse(text, len, &ctx->memfail) == 0;
}

void ras_decode_ctx_load_memfail(struct ras_decode_ctx *ctx, const struct ras_formats *f)
{
	const struct ras_event_type *t = ras_event_type_find("ras:memory_failure_event");
	const struct ras_type_format *tf = &f->type[t - ras_event_types];
	char *text;
	size_t len;

	if (tf->event && tf->path[0] && ras_read_file(tf->path, &text, &len) == 0) {
		ras_decode_ctx_set_memfail_format(ctx, text, len);
		free(text);
	}
}

void ras_decode_ctx_load_soc(struct ras_decode_ctx *ctx, const char *sysfs_root)
{
	char path[4200], *text;
	size_t len;

	ctx->soc_id[0] = '\0';
	snprintf(path, sizeof(path), "%s/devices/soc0/soc_id", sysfs_root);
	if (ras_read_file(path, &text, &len) < 0)
		return;
	/* One line of printable ASCII; anything else is not an id. */
	len = strcspn(text, "\n");
	if (len < sizeof(ctx->soc_id) && strspn(text, "0123456789abcdefjep:") >= len) {
		memcpy(ctx->soc_id, text, len);
		ctx->soc_id[len] = '\0';
	}
	free(text);
}

void ras_decode_ctx_set_layers(struct ras_decode_ctx *ctx, const struct edac_topology *t)
{
	memset(&ctx->layers, 0, sizeof(ctx->layers));
	ctx->have_layers = true;
	for (unsigned i = 0; i < t->n_mcs; i++) {
		const struct edac_mc *mc = &t->mcs[i];

		if (mc->index >= RAS_DECODE_MAX_MCS)
			continue;
		for (unsigned l = 0; l < mc->n_layers && l < EDAC_MAX_LAYERS; l++)
			snprintf(ctx->layers.name[mc->index][l], EDAC_NAME_LEN, "%s", mc->layer_name[l]);
	}
}

const char *ras_decode_layer_name(const struct ras_decode_ctx *ctx, int mc, int layer)
{
	if (!ctx || !ctx->have_layers || mc < 0 || mc >= RAS_DECODE_MAX_MCS || layer < 0 ||
	    layer >= EDAC_MAX_LAYERS || !ctx->layers.name[mc][layer][0])
		return NULL;
	return ctx->layers.name[mc][layer];
}

int ras_decode_values(const struct ras_event_type *type, const struct ras_value *values,
		      struct ras_decode_ctx *ctx, void *out)
{
	/*
	 * Nothing is cleared here: every decoder clears its whole output struct
	 * first (ou_reset, mce's init_out), and every adapter calls its decoder.
	 * tests/test-render checks that a decoding does not depend on what out held.
	 */
	return type->decode(type, values, ctx, out);
}

void ras_render(const struct ras_event_type *t, const void *decoded, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	buf[0] = '\0';
	if (decoded && t->render)
		t->render(decoded, buf, len);
	if (!buf[0])
		snprintf(buf, len, "%s (could not be decoded)", t->title);
}

/* One line per decoder: the event table's render column. */
#define RAS_RENDERER(name)                                                     \
	void render_##name(const void *decoded, char *buf, size_t len)          \
	{                                                                       \
		name##_render(decoded, buf, len);                               \
	}

RAS_RENDERER(mce)
RAS_RENDERER(edac)
RAS_RENDERER(aer)
RAS_RENDERER(extlog)
RAS_RENDERER(nonstd)
RAS_RENDERER(arm)
RAS_RENDERER(memfail)
RAS_RENDERER(devlink)
RAS_RENDERER(blockerr)
RAS_RENDERER(cxl)
RAS_RENDERER(sigbus)
RAS_RENDERER(netdev)

static void copy_bytes(uint8_t *dst, size_t cap, const struct ras_value *v)
{
	memset(dst, 0, cap);
	if (v->present && v->p)
		memcpy(dst, v->p, v->len < cap ? v->len : cap);
}

int adapt_mce(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct mce_in in = {
		.mcgcap = U(v, MCE_F_MCGCAP), .mcgstatus = U(v, MCE_F_MCGSTATUS),
		.status = U(v, MCE_F_STATUS), .addr = U(v, MCE_F_ADDR), .misc = U(v, MCE_F_MISC),
		.synd = U(v, MCE_F_SYND), .ipid = U(v, MCE_F_IPID), .ip = U(v, MCE_F_IP),
		.tsc = U(v, MCE_F_TSC), .ppin = U(v, MCE_F_PPIN), .walltime = U(v, MCE_F_WALLTIME),
		.cpu = (uint32_t)U(v, MCE_F_CPU), .cpuid = (uint32_t)U(v, MCE_F_CPUID),
		.apicid = (uint32_t)U(v, MCE_F_APICID), .socketid = (uint32_t)U(v, MCE_F_SOCKETID),
		.microcode = (uint32_t)U(v, MCE_F_MICROCODE), .cs = (uint8_t)U(v, MCE_F_CS),
		.bank = (uint8_t)U(v, MCE_F_BANK), .cpuvendor = (uint8_t)U(v, MCE_F_CPUVENDOR),
		.has_synd = v[MCE_F_SYND].present, .has_ipid = v[MCE_F_IPID].present,
		.has_ppin = v[MCE_F_PPIN].present, .has_microcode = v[MCE_F_MICROCODE].present,
	};

	if (v[MCE_F_V_DATA].present) {
		in.v_data_len = v[MCE_F_V_DATA].len < sizeof(in.v_data) ? v[MCE_F_V_DATA].len
									 : sizeof(in.v_data);
		memcpy(in.v_data, v[MCE_F_V_DATA].p, in.v_data_len);
	}
	return mce_decode_memo(&in, ctx ? &ctx->mce_memo : NULL, out);
}

int adapt_edac(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct edac_in in = {
		.error_type = (uint32_t)U(v, MC_F_ERROR_TYPE),
		.msg = STR(v, MC_F_MSG), .msg_len = LEN(v, MC_F_MSG),
		.label = STR(v, MC_F_LABEL), .label_len = LEN(v, MC_F_LABEL),
		.error_count = (uint16_t)U(v, MC_F_ERROR_COUNT), .mc_index = (uint8_t)U(v, MC_F_MC_INDEX),
		.top_layer = (int8_t)v[MC_F_TOP_LAYER].i, .middle_layer = (int8_t)v[MC_F_MIDDLE_LAYER].i,
		.lower_layer = (int8_t)v[MC_F_LOWER_LAYER].i, .address = v[MC_F_ADDRESS].i,
		.grain_bits = (uint8_t)U(v, MC_F_GRAIN_BITS), .syndrome = v[MC_F_SYNDROME].i,
		.driver_detail = STR(v, MC_F_DRIVER_DETAIL), .driver_detail_len = LEN(v, MC_F_DRIVER_DETAIL),
	};
	const char *configured;
	char kernel_label[128];
	size_t label_len;

	/* "channel 1, slot 0" reads better than "layers 1:0" where sysfs names them (none read: NULL). */
	if (ctx && ctx->have_layers)
		for (int l = 0; l < 3; l++)
			in.layer_name[l] = ras_decode_layer_name(ctx, in.mc_index, l);
	if (!ctx || !ctx->labels)
		return edac_decode(&in, out);
	/* Asked first: where no label is configured for the slot, the kernel's is not looked at. */
	configured = dimm_labels_lookup(ctx->labels, NULL, in.mc_index, in.top_layer,
					in.middle_layer, in.lower_layer);
	if (!configured)
		return edac_decode(&in, out);
	/* snprintf's "%.*s", at a fraction of its cost. */
	label_len = in.label ? strnlen(in.label, in.label_len < sizeof(kernel_label) - 1 ?
					       in.label_len : sizeof(kernel_label) - 1) : 0;
	memcpy(kernel_label, in.label ? in.label : "", label_len);
	kernel_label[label_len] = '\0';
	/* The kernel often says "any memory" or a driver default; the label files know the slot. */
	if (dimm_label_is_placeholder(kernel_label)) {
		in.label = configured;
		in.label_len = strlen(configured);
	}
	return edac_decode(&in, out);
}

int adapt_aer(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct aer_in in = {
		.dev_name = STR(v, AER_F_DEV_NAME), .dev_name_len = LEN(v, AER_F_DEV_NAME),
		.status = (uint32_t)U(v, AER_F_STATUS), .severity = (uint8_t)U(v, AER_F_SEVERITY),
		.tlp_header_valid = (uint8_t)U(v, AER_F_TLP_HEADER_VALID),
	};

	copy_bytes((uint8_t *)in.tlp_header, sizeof(in.tlp_header), &v[AER_F_TLP_HEADER]);
	/* Device names come from pci.ids and sysfs, asked once per device for a while (pci_names.h). */
	if (ctx && ctx->pci_sysfs_root && in.dev_name) {
		const char *desc;

		if (pci_describe_cached(&ctx->pci_cache, ctx->pci_sysfs_root, in.dev_name,
					in.dev_name_len, ctx->now_ns, &desc) == 0) {
			in.dev_desc = desc;
			in.dev_desc_len = strlen(desc);
		}
	}
	return aer_decode(&in, out);
}

int adapt_extlog(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct extlog_in in = {
		.err_seq = (uint32_t)U(v, EXTLOG_F_ERR_SEQ), .etype = (uint8_t)U(v, EXTLOG_F_ETYPE),
		.sev = (uint8_t)U(v, EXTLOG_F_SEV), .pa = U(v, EXTLOG_F_PA),
		.pa_mask_lsb = (uint8_t)U(v, EXTLOG_F_PA_MASK_LSB),
		.fru_text = STR(v, EXTLOG_F_FRU_TEXT), .fru_text_len = LEN(v, EXTLOG_F_FRU_TEXT),
		.data = v[EXTLOG_F_DATA].p, .data_len = LEN(v, EXTLOG_F_DATA),
	};

	copy_bytes(in.fru_id, sizeof(in.fru_id), &v[EXTLOG_F_FRU_ID]);
	return extlog_decode(&in, out);
}

int adapt_nonstd(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct nonstd_in in = {
		.fru_text = STR(v, NONSTD_F_FRU_TEXT), .fru_text_len = LEN(v, NONSTD_F_FRU_TEXT),
		/* No severity (an imported rasdaemon vendor row that had none): unknown, not 0. */
		.sev = v[NONSTD_F_SEV].present ? (uint8_t)U(v, NONSTD_F_SEV) : 0xff,
		.len = (uint32_t)U(v, NONSTD_F_LEN),
		.buf = v[NONSTD_F_BUF].p, .buf_len = LEN(v, NONSTD_F_BUF),
	};

	copy_bytes(in.sec_type, sizeof(in.sec_type), &v[NONSTD_F_SEC_TYPE]);
	copy_bytes(in.fru_id, sizeof(in.fru_id), &v[NONSTD_F_FRU_ID]);
	return nonstd_decode(&in, out);
}

int adapt_arm(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct arm_in in = {
		.mpidr = U(v, ARM_F_MPIDR), .midr = U(v, ARM_F_MIDR),
		.running_state = (uint32_t)U(v, ARM_F_RUNNING_STATE),
		.psci_state = (uint32_t)U(v, ARM_F_PSCI_STATE), .affinity = (uint8_t)U(v, ARM_F_AFFINITY),
		.has_buffers = v[ARM_F_PEI_BUF].present, .has_sev = v[ARM_F_SEV].present,
		.has_cpu = v[ARM_F_CPU].present,
		.pei_len = (uint32_t)U(v, ARM_F_PEI_LEN), .pei_buf = v[ARM_F_PEI_BUF].p,
		.pei_buf_len = LEN(v, ARM_F_PEI_BUF),
		.ctx_len = (uint32_t)U(v, ARM_F_CTX_LEN), .ctx_buf = v[ARM_F_CTX_BUF].p,
		.ctx_buf_len = LEN(v, ARM_F_CTX_BUF),
		.oem_len = (uint32_t)U(v, ARM_F_OEM_LEN), .oem_buf = v[ARM_F_OEM_BUF].p,
		.oem_buf_len = LEN(v, ARM_F_OEM_BUF),
		/* The trace's sev is a GHES severity (ghes_handle_arm_hw_error), the decoder's CPER's. */
		.sev = (uint8_t)cper_severity_of_ghes((unsigned)U(v, ARM_F_SEV)),
		.cpu = (int32_t)v[ARM_F_CPU].i,
		.soc_id = ctx && ctx->soc_id[0] ? ctx->soc_id : NULL,
	};

	/* No CPU from the kernel (older layouts, or -EINVAL: its map lacks the MPIDR): this machine's. */
	if (ctx && (!in.has_cpu || in.cpu < 0)) {
		int cpu = ras_decode_ctx_cpu_of_mpidr(ctx, in.mpidr);

		in.has_mapped_cpu = cpu >= 0;
		in.mapped_cpu = cpu;
	}
	return arm_decode(&in, out);
}

int adapt_memfail(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct memfail_in in = {
		.pfn = U(v, MF_F_PFN), .type = (int32_t)v[MF_F_TYPE].i, .result = (int32_t)v[MF_F_RESULT].i,
		.symtab = ctx && ctx->have_memfail ? &ctx->memfail : NULL,
	};

	return memfail_decode(&in, out);
}

int adapt_devlink(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct devlink_in in = {
		.bus_name = STR(v, DL_F_BUS_NAME), .bus_name_len = LEN(v, DL_F_BUS_NAME),
		.dev_name = STR(v, DL_F_DEV_NAME), .dev_name_len = LEN(v, DL_F_DEV_NAME),
		.driver_name = STR(v, DL_F_DRIVER_NAME), .driver_name_len = LEN(v, DL_F_DRIVER_NAME),
		.reporter_name = STR(v, DL_F_REPORTER_NAME), .reporter_name_len = LEN(v, DL_F_REPORTER_NAME),
		.msg = STR(v, DL_F_MSG), .msg_len = LEN(v, DL_F_MSG),
	};

	return devlink_decode(&in, out);
}

int adapt_blockerr(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct blockerr_in in = {
		.dev = (uint32_t)U(v, BLK_F_DEV), .sector = U(v, BLK_F_SECTOR),
		.nr_sector = (uint32_t)U(v, BLK_F_NR_SECTOR), .error = (int32_t)v[BLK_F_ERROR].i,
		.has_ioprio = v[BLK_F_IOPRIO].present, .ioprio = (uint16_t)U(v, BLK_F_IOPRIO),
		.rwbs = STR(v, BLK_F_RWBS), .rwbs_len = LEN(v, BLK_F_RWBS),
		.cmd = STR(v, BLK_F_CMD), .cmd_len = LEN(v, BLK_F_CMD),
	};

	return blockerr_decode(&in, out);
}

/* The CXL events share one decoder fed by field name: the table lists what each has. */
int adapt_cxl(const struct ras_event_type *type, const struct ras_value *v,
		struct ras_decode_ctx *ctx, void *out)
{
	struct cxl_in in = { .event = type->event, .event_len = strlen(type->event) };

	for (unsigned i = 0; i < type->n_fields; i++) {
		const char *name = type->fields[i].name;

		if (!v[i].present)
			continue;
		if (!strcmp(name, "memdev")) {
			in.memdev = v[i].p;
			in.memdev_len = v[i].len;
		} else if (!strcmp(name, "host")) {
			in.host = v[i].p;
			in.host_len = v[i].len;
		} else if (!strcmp(name, "region") || !strcmp(name, "region_name")) {
			in.region = v[i].p;
			in.region_len = v[i].len;
		} else if (type->fields[i].type == RAS_FT_INT) {
			cxl_in_set(&in, name, v[i].i);
		}
	}
	return cxl_decode(&in, out);
}

int adapt_sigbus(const struct ras_event_type *type, const struct ras_value *v,
		 struct ras_decode_ctx *ctx, void *out)
{
	struct sigbus_in in = {
		.sig = (int32_t)v[SIG_F_SIG].i, .err = (int32_t)v[SIG_F_ERRNO].i,
		.code = (int32_t)v[SIG_F_CODE].i, .pid = (int32_t)v[SIG_F_PID].i,
		.group = (int32_t)v[SIG_F_GROUP].i, .result = (int32_t)v[SIG_F_RESULT].i,
		.comm = STR(v, SIG_F_COMM), .comm_len = LEN(v, SIG_F_COMM),
	};

	return sigbus_decode(&in, out);
}

int adapt_netdev(const struct ras_event_type *type, const struct ras_value *v,
		 struct ras_decode_ctx *ctx, void *out)
{
	struct netdev_in in = {
		.name = STR(v, NET_F_NAME), .name_len = LEN(v, NET_F_NAME),
		.driver = STR(v, NET_F_DRIVER), .driver_len = LEN(v, NET_F_DRIVER),
		.queue_index = (int32_t)v[NET_F_QUEUE_INDEX].i,
	};

	return netdev_decode(&in, out);
}
