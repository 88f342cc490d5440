/* SPDX-License-Identifier: MIT */
/*
 * The ARM processor error section lines of the firmware-first text parser
 * (see ghes_text.h): Linux drivers/firmware/efi/cper-arm.c
 * (cper_print_proc_arm) prints each error information structure of UEFI
 * 2.10 N.2.4.4.1; they are rebuilt here as the 32-byte entries arm_decode
 * reads from the ras:arm_event tracepoint.
 */
#include <stdio.h>
#include <string.h>
#include "ghes_text_internal.h"
#include "text_num.h"


static void on_midr(struct ghes_parser *p, const char *v)
{
	if (!ghes_hex_value(v, &p->arm.midr))
		ghes_malformed(p, "malformed MIDR");
}

static void on_mpidr(struct ghes_parser *p, const char *v)
{
	if (!ghes_hex_value(v, &p->arm.mpidr))
		ghes_malformed(p, "malformed MPIDR");
}

static bool small_value(struct ghes_parser *p, const char *v, unsigned base, uint64_t max,
			uint64_t *out, const char *what)
{
	if (text_num_whole(v, base, out) && *out <= max)
		return true;
	ghes_malformed(p, what);
	return false;
}

static void on_affinity(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	if (small_value(p, v, 10, 0xfe, &n, "malformed error affinity level"))
		p->arm.affinity = (uint8_t)n;
}

static void on_running(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	if (small_value(p, v, 16, UINT32_MAX, &n, "malformed running state"))
		p->arm.running_state = (uint32_t)n;
}

static void on_psci(struct ghes_parser *p, const char *v)
{
	uint64_t n;

	if (small_value(p, v, 10, UINT32_MAX, &n, "malformed PSCI state"))
		p->arm.psci_state = (uint32_t)n;
}

/* The entry the lines after "Error info structure N:" describe, or NULL. */
static uint8_t *arm_entry(struct ghes_parser *p)
{
	return p->n_pei ? p->pei + (p->n_pei - 1) * ARM_ERR_INFO_LEN : NULL;
}

static void on_err_info_start(struct ghes_parser *p, const char *v)
{
	uint8_t *e;

	(void)v;
	p->dump = DUMP_NONE;
	if (p->n_pei == GHES_ARM_ENTRIES) {
		ghes_malformed(p, "more ARM error information structures than decode keeps");
		return;
	}
	e = p->pei + p->n_pei++ * ARM_ERR_INFO_LEN;
	memset(e, 0, ARM_ERR_INFO_LEN);
	e[1] = ARM_ERR_INFO_LEN;
}

/* Sets bits of the current entry's validation (bytes 2-3), or says there is no entry. */
static uint8_t *arm_entry_for(struct ghes_parser *p, unsigned valid)
{
	uint8_t *e = arm_entry(p);

	if (!e) {
		ghes_malformed(p, "ARM error information line outside an error information structure");
		return NULL;
	}
	e[2] |= (uint8_t)valid;
	return e;
}

static void on_num_errors(struct ghes_parser *p, const char *v)
{
	uint8_t *e = arm_entry_for(p, AV_MULTI);
	uint64_t n;

	/* The kernel prints multiple_error + 1. */
	if (e && small_value(p, v, 10, 0x10000, &n, "malformed num errors") && n)
		ghes_put_le(e + 5, n - 1, 2);
}

static void on_arm_flag(struct ghes_parser *p, unsigned bit)
{
	uint8_t *e = arm_entry_for(p, AV_FLAGS);

	if (e)
		e[7] |= (uint8_t)bit;
}

static void on_first(struct ghes_parser *p, const char *v) { (void)v; on_arm_flag(p, 1); }
static void on_last(struct ghes_parser *p, const char *v) { (void)v; on_arm_flag(p, 2); }
static void on_propagated(struct ghes_parser *p, const char *v) { (void)v; on_arm_flag(p, 4); }
static void on_overflow(struct ghes_parser *p, const char *v) { (void)v; on_arm_flag(p, 8); }

/* Old kernels' type index -> the UEFI 2.9A type bit (cache 1, TLB 2, bus 3, micro-arch 4). */
static const char *const arm_type_words[] = {
	"cache error", "TLB error", "bus error", "micro-architectural error",
};

static void on_arm_error_type(struct ghes_parser *p, const char *v)
{
	uint8_t *e = arm_entry_for(p, 0);
	uint64_t t;
	const char *end;

	if (!e)
		return;
	if (!text_num_prefix(v, 10, &t, &end) || t > 0xff || (*end != ':' && *end != ',')) {
		ghes_malformed(p, "malformed ARM error_type");
		return;
	}
	e[4] = (uint8_t)t;   /* "0xNN: names" since 6.x: the bit mask itself */
	if (*end == ':')
		return;
	/* "N, name": what the kernel understood N to be, written as its bit. */
	for (unsigned i = 0; i < 4; i++)
		if (strcmp(end + 1 + (end[1] == ' '), arm_type_words[i]) == 0)
			e[4] = (uint8_t)(1u << (i + 1));
}

static void on_arm_u64(struct ghes_parser *p, const char *v, unsigned valid, unsigned off)
{
	uint8_t *e = arm_entry_for(p, valid);
	uint64_t x;

	if (!e)
		return;
	if (!ghes_hex_value(v, &x))
		ghes_malformed(p, "malformed ARM error information value");
	ghes_put_le(e + off, x, 8);
}

static void on_error_info(struct ghes_parser *p, const char *v) { on_arm_u64(p, v, AV_INFO, 8); }
static void on_virt_addr(struct ghes_parser *p, const char *v) { on_arm_u64(p, v, AV_VA, 16); }
static void on_phys_fault(struct ghes_parser *p, const char *v) { on_arm_u64(p, v, AV_PA, 24); }

static void on_ctx_type(struct ghes_parser *p, const char *v)
{
	size_t n = strlen(p->ctx_names);

	snprintf(p->ctx_names + n, sizeof(p->ctx_names) - n, "%s%s", n ? ", " : "", v);
}

static void on_vendor_info(struct ghes_parser *p, const char *v)
{
	uint64_t n;
	const char *end;

	if (!text_num_prefix(v, 10, &n, &end) || strcmp(end, " bytes:") != 0 || n > UINT32_MAX) {
		ghes_malformed(p, "malformed vendor specific error info line");
		return;
	}
	p->arm.oem_len = (uint32_t)n;
	p->dump = DUMP_OEM;
	p->dump_off = 0;
	p->data_got = 0;
}

static void on_kernel_refused(struct ghes_parser *p, const char *v)
{
	(void)v;
	ghes_malformed(p, "the kernel found this firmware error section malformed");
}


const struct ghes_key ghes_arm_keys[] = {
	{ "MIDR: ", GHES_TEXT_ARM, on_midr },
	{ "Multiprocessor Affinity Register (MPIDR): ", GHES_TEXT_ARM, on_mpidr },
	{ "error affinity level: ", GHES_TEXT_ARM, on_affinity },
	{ "running state: ", GHES_TEXT_ARM, on_running },
	{ "Power State Coordination Interface state: ", GHES_TEXT_ARM, on_psci },
	{ "Error info structure ", GHES_TEXT_ARM, on_err_info_start },
	{ "num errors: ", GHES_TEXT_ARM, on_num_errors },
	{ "first error captured", GHES_TEXT_ARM, on_first },
	{ "last error captured", GHES_TEXT_ARM, on_last },
	{ "propagated error captured", GHES_TEXT_ARM, on_propagated },
	{ "overflow occurred", GHES_TEXT_ARM, on_overflow },
	{ "error_type: ", GHES_TEXT_ARM, on_arm_error_type },
	{ "error_info: ", GHES_TEXT_ARM, on_error_info },
	{ "virtual fault address: ", GHES_TEXT_ARM, on_virt_addr },
	{ "physical fault address: ", GHES_TEXT_ARM, on_phys_fault },
	{ "register context type: ", GHES_TEXT_ARM, on_ctx_type },
	{ "Vendor specific error info has ", GHES_TEXT_ARM, on_vendor_info },
	{ "section length is too ", GHES_TEXT_ARM, on_kernel_refused },
	{ "Invalid context type", GHES_TEXT_ARM, on_kernel_refused },
};
const size_t ghes_n_arm_keys = sizeof(ghes_arm_keys) / sizeof(ghes_arm_keys[0]);
