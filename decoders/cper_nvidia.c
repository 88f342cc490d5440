/* SPDX-License-Identifier: MIT */
/*
 * NVIDIA Grace and Vera error sections. Layouts (byte offsets, little-endian)
 * as NVIDIA published them in Linux drivers/acpi/apei/ghes-nvidia.c (2026),
 * OpenBMC libcper (cper-section-nvidia.c, which names the severity byte with
 * the CPER severities) and rasdaemon's non-standard-nvidia.c; words ours.
 *
 * Grace 6d5244f2-2712-11ec-bea7-cb3fdb95c786: signature[16], error_type u16
 * at 16, error_instance u16 at 18, severity u8 at 20, socket u8 at 21,
 * number_regs u8 at 22, instance_base u64 at 24, then number_regs pairs of
 * (address u64, value u64) from 32.
 *
 * Vera 9068e568-6ca0-11f0-aeaf-159343591eac: an event header of 32 bytes
 * (version 1, context count, source device type 0 for the CPU, event type
 * and sub-type u16 at 4 and 6, link id u64 at 8, source module signature[16]
 * at 16), CPU information (info_version u16 whose high byte is 0, info_size
 * u8 >= 32, socket u8, architecture u32, chip serial number[16], instance
 * base u64), then event_context_count contexts: a 16-byte header
 * (context_size u32, version u16, reserved u16, data format u16, format
 * version u16, data_size u32) and data_size bytes of data in format 0
 * opaque, 1 (address u64, value u64) pairs, 2 (address u32, value u32)
 * pairs, 3 u64 values, 4 u32 values.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "cper_vendor.h"
#include "other_util.h"

/* UEFI N.2.1 severities, which NVIDIA's severity byte uses. */
static const char *const cper_sev[] = { "recoverable", "fatal", "corrected", "informational" };

/* A signature of 16 characters, not always NUL-terminated; control bytes replaced. */
static void signature(char *out, size_t len, const uint8_t *p)
{
	ou_copy(out, len, (const char *)p, 16);
	for (size_t i = strlen(out); i > 0 && out[i - 1] == ' '; i--)
		out[i - 1] = '\0';
}

#define GRACE_LEN 32

int cper_nvidia_grace(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	unsigned regs;
	char name[24];

	snprintf(v->vendor, sizeof(v->vendor), "NVIDIA");
	snprintf(v->platform, sizeof(v->platform), "Grace");
	snprintf(v->section, sizeof(v->section), "Grace error");
	if (n < GRACE_LEN)
		return cper_vendor_short(v, n, GRACE_LEN);
	signature(v->module, sizeof(v->module), p);
	v->err_type = ou_le16(p + 16);
	v->instance = ou_le16(p + 18);
	snprintf(v->sub_module, sizeof(v->sub_module), "instance %u", ou_le16(p + 18));
	snprintf(v->vendor_severity, sizeof(v->vendor_severity), "%s",
		 p[20] < 4 ? cper_sev[p[20]] : "unknown");
	/* 0xff: the error belongs to no one socket. */
	if (p[21] != 0xff)
		v->socket = p[21];
	regs = p[22];
	cper_vendor_reg(v, "instance_base", ou_le64(p + 24));
	cper_vendor_detail(v, "error of type %u", ou_le16(p + 16));
	cper_vendor_finish(v, NULL);
	for (unsigned i = 0; i < regs; i++) {
		const uint8_t *r = p + GRACE_LEN + 16 * (size_t)i;

		if (GRACE_LEN + 16 * (size_t)(i + 1) > n)
			return cper_vendor_short(v, n, GRACE_LEN + 16 * (size_t)regs);
		snprintf(name, sizeof(name), "@0x%llx", (unsigned long long)ou_le64(r));
		cper_vendor_reg(v, name, ou_le64(r + 8));
	}
	return 0;
}

#define VERA_EVENT_LEN 32
#define VERA_CPU_LEN 32
#define VERA_CTX_LEN 16

/* The entries of one context's data, by its format. */
static void vera_entries(struct cper_vendor *v, unsigned ctx, unsigned format, const uint8_t *d,
			 uint32_t size)
{
	static const uint8_t width[] = { 0, 16, 8, 8, 4 };
	char name[32];

	if (format == 0 || format >= sizeof(width)) {
		snprintf(name, sizeof(name), "ctx%u.bytes", ctx);
		cper_vendor_reg(v, name, size);
		return;
	}
	for (uint32_t off = 0; off + width[format] <= size; off += width[format]) {
		if (format == 1) {
			snprintf(name, sizeof(name), "ctx%u@0x%llx", ctx, (unsigned long long)ou_le64(d + off));
			cper_vendor_reg(v, name, ou_le64(d + off + 8));
		} else if (format == 2) {
			snprintf(name, sizeof(name), "ctx%u@0x%x", ctx, ou_le32(d + off));
			cper_vendor_reg(v, name, ou_le32(d + off + 4));
		} else {
			snprintf(name, sizeof(name), "ctx%u[%u]", ctx, off / width[format]);
			cper_vendor_reg(v, name, format == 3 ? ou_le64(d + off) : ou_le32(d + off));
		}
	}
}

/* Walks the contexts; -EBADMSG where one does not fit or has a format not published. */
static int vera_contexts(const uint8_t *p, size_t n, size_t off, unsigned count,
			 struct cper_vendor *v)
{
	static const uint8_t unit[] = { 1, 16, 8, 8, 4 };

	for (unsigned c = 0; c < count; c++) {
		uint32_t csize, dsize;
		unsigned format;
		size_t advance;

		if (n - off < VERA_CTX_LEN)
			return cper_vendor_short(v, n, off + VERA_CTX_LEN);
		csize = ou_le32(p + off);
		format = ou_le16(p + off + 8);
		dsize = ou_le32(p + off + 12);
		if (csize < VERA_CTX_LEN || format >= sizeof(unit) || dsize % unit[format] ||
		    dsize > n - off - VERA_CTX_LEN) {
			cper_vendor_detail(v, "context %u malformed", c);
			return -EBADMSG;
		}
		/* context_size covers header, data and padding; old opaque ones the header only. */
		advance = format == 0 && csize == VERA_CTX_LEN ? VERA_CTX_LEN + (size_t)dsize : csize;
		if (advance < VERA_CTX_LEN + (size_t)dsize || advance > n - off) {
			cper_vendor_detail(v, "context %u malformed", c);
			return -EBADMSG;
		}
		vera_entries(v, c, format, p + off + VERA_CTX_LEN, dsize);
		off += advance;
	}
	return 0;
}

int cper_nvidia_vera(const uint8_t *p, size_t n, struct cper_vendor *v)
{
	unsigned info_size;
	char serial[40];

	snprintf(v->vendor, sizeof(v->vendor), "NVIDIA");
	snprintf(v->platform, sizeof(v->platform), "Vera");
	snprintf(v->section, sizeof(v->section), "Vera event");
	if (n < VERA_EVENT_LEN + VERA_CPU_LEN)
		return cper_vendor_short(v, n, VERA_EVENT_LEN + VERA_CPU_LEN);
	/* Version 1, from the CPU (source device type 0), CPU info major version 0. */
	if (p[0] != 1 || p[2] != 0 || p[VERA_EVENT_LEN + 1] != 0) {
		cper_vendor_detail(v, "event version %u, source device type %u: not published",
				   p[0], p[2]);
		return -ENOTSUP;
	}
	signature(v->module, sizeof(v->module), p + 16);
	v->err_type = ou_le16(p + 4);
	cper_vendor_detail(v, "event of type %u, sub-type %u", ou_le16(p + 4), ou_le16(p + 6));
	cper_vendor_reg(v, "event_link_id", ou_le64(p + 8));
	info_size = p[VERA_EVENT_LEN + 2];
	v->socket = p[VERA_EVENT_LEN + 3];
	cper_vendor_reg(v, "architecture", ou_le32(p + VERA_EVENT_LEN + 4));
	ou_hex(serial, sizeof(serial), p + VERA_EVENT_LEN + 8, 16);
	cper_vendor_detail(v, "chip serial %s", serial);
	cper_vendor_reg(v, "instance_base", ou_le64(p + VERA_EVENT_LEN + 24));
	cper_vendor_finish(v, NULL);
	if (info_size < VERA_CPU_LEN || info_size > n - VERA_EVENT_LEN) {
		cper_vendor_detail(v, "CPU information size %u malformed", info_size);
		return -EBADMSG;
	}
	return vera_contexts(p, n, VERA_EVENT_LEN + info_size, p[1], v);
}
