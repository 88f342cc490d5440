/* SPDX-License-Identifier: MIT */
/* What the vendor decoders share: clearing, register lists, locations, the platform list. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "cper_vendor.h"
#include "other_util.h"

void cper_vendor_reset(struct cper_vendor *v)
{
	memset(v, 0, sizeof(*v));
	v->socket = v->die = v->instance = v->core = v->port = v->err_type = RAS_DF_NONE;
}

void cper_vendor_reg(struct cper_vendor *v, const char *name, uint64_t value)
{
	struct ou_buf b = { .p = v->registers, .len = sizeof(v->registers),
			    .at = strnlen(v->registers, sizeof(v->registers)) };

	if (b.at)
		ou_put_lit(&b, ", ");
	ou_put(&b, name);
	ou_put_lit(&b, " ");
	ou_put_hex(&b, value);
}

void cper_vendor_detail(struct cper_vendor *v, const char *fmt, ...)
{
	size_t at = strnlen(v->detail, sizeof(v->detail));
	va_list ap;

	if (at + 3 >= sizeof(v->detail))
		return;
	if (at) {
		memcpy(v->detail + at, ", ", 3);
		at += 2;
	}
	va_start(ap, fmt);
	vsnprintf(v->detail + at, sizeof(v->detail) - at, fmt, ap);
	va_end(ap);
}

/*
 * err_severity of HiSilicon's sections (and JaguarMicro's, which copied the
 * layout): 0 non-fatal (recoverable), 1 fatal, 2 corrected, 3 none, as
 * rasdaemon's non-standard-hisilicon.h and non-standard-jaguarmicro.c name them.
 */
const char *cper_vendor_hisi_severity(unsigned sev)
{
	static const char *const names[] = { "recoverable", "fatal", "corrected", "none" };

	return sev < OU_ARRAY_SIZE(names) ? names[sev] : "unknown";
}

int cper_vendor_short(struct cper_vendor *v, size_t n, size_t need)
{
	cper_vendor_detail(v, "section too short: %zu of %zu bytes", n, need);
	return -EBADMSG;
}

static void put_num(struct ou_buf *b, const char *label, int64_t v)
{
	if (v == RAS_DF_NONE)
		return;
	ou_put_lit(b, ", ");
	ou_put(b, label);
	ou_put_lit(b, " ");
	ou_put_int(b, (long long)v);
}

void cper_vendor_location(const struct cper_vendor *v, const char *die_name, char *out, size_t len)
{
	struct ou_buf b = ou_start(out, len);

	ou_put(&b, v->vendor);
	if (v->platform[0]) {
		ou_put_lit(&b, " ");
		ou_put(&b, v->platform);
	}
	if (v->socket != RAS_DF_NONE) {
		ou_put_lit(&b, " socket ");
		ou_put_int(&b, (long long)v->socket);
	}
	if (die_name)
		put_num(&b, die_name, v->die);
	if (v->pci_dev[0]) {
		ou_put_lit(&b, ", PCIe ");
		ou_put(&b, v->pci_dev);
	}
	if (v->module[0] || v->sub_module[0]) {
		ou_put_lit(&b, ", ");
		/* "TB_DDRC0" says its module already; "ERR3" needs it ("MCU ERR3"). */
		if (v->sub_module[0] && v->module[0] && strcasestr(v->sub_module, v->module)) {
			ou_put(&b, v->sub_module);
		} else {
			ou_put(&b, v->module[0] ? v->module : v->sub_module);
			if (v->module[0] && v->sub_module[0]) {
				ou_put_lit(&b, " ");
				ou_put(&b, v->sub_module);
			}
		}
	}
	put_num(&b, "core", v->core);
	put_num(&b, "port", v->port);
}

void cper_vendor_finish(struct cper_vendor *v, const char *die_name)
{
	cper_vendor_location(v, die_name, v->location, sizeof(v->location));
	if (v->part_class[0] && !v->part[0])
		snprintf(v->part, sizeof(v->part), "%s", v->location);
}

/*
 * The platforms, with rasdaemon's platform ids (ras-mc-ctl --vendor-platforms:
 * KunPeng9xx, YiTian7XX, CorsicaDpu1xx), and the ids we give the others.
 */
const struct cper_vendor_platform cper_vendor_platforms[] = {
	{ "KunPeng9xx", "HiSilicon", "Kunpeng 916/920/930",
	  "HIP08 OEM type 1, HIP08 OEM type 2, HIP08 PCIe local, common" },
	{ "Grace", "NVIDIA", "Grace", "Grace error section" },
	{ "Vera", "NVIDIA", "Vera", "Vera event section" },
	{ "YiTian7XX", "Alibaba", "Yitian 710", "DDR register dump" },
	{ "CorsicaDpu1xx", "JaguarMicro", "Corsica", "payload types 0, 1, 2, 5, 6" },
	{ "Altra", "Ampere", "Altra", "payload types 0-3; ARM processor vendor data" },
};
const size_t cper_n_vendor_platforms = OU_ARRAY_SIZE(cper_vendor_platforms);

static int word_in(const char *field, const char *name)
{
	return field[0] && strcasestr(field, name) != NULL;
}

int cper_vendor_matches(const struct cper_vendor *v, const char *name)
{
	if (!v->vendor[0] || !name || !name[0])
		return 0;
	for (size_t i = 0; i < cper_n_vendor_platforms; i++)
		if (!strcasecmp(name, cper_vendor_platforms[i].id))
			return !strcasecmp(v->vendor, cper_vendor_platforms[i].vendor) &&
			       (strcasecmp(v->vendor, "NVIDIA") ||
				!strcasecmp(v->platform, cper_vendor_platforms[i].platform));
	return !strcasecmp(v->vendor, name) || word_in(v->platform, name);
}

/* ERR<n>STATUS.SERR, the architecturally defined primary error codes (DDI 0587). */
static const char *const serr_words[] = {
	"no error", "implementation-defined error", "error in on-chip memory data",
	"implementation-defined pin", "assertion failure", "error on an internal data path",
	"cache data error", "cache tag error", "TLB data error", "TLB tag error",
	"error in data from the requester", "error in address or control from the requester",
	"external memory (DRAM) data error", "illegal address (software fault)",
	"illegal access (software fault)", "illegal state (software fault)",
	"internal data register error", "internal control register error",
	"error response from the completer", "external timeout", "internal timeout",
	"deferred error the requester does not support",
};

/* ERR<n>STATUS.UET: the type of an uncorrected error. */
static const char *const uet_words[] = {
	"uncontainable", "unrecoverable", "restartable", "recoverable",
};

void cper_vendor_armras_status(struct cper_vendor *v, uint64_t status)
{
	unsigned serr = (unsigned)(status & 0xff), ce = (unsigned)(status >> 24) & 3;

	/* V (bit 30): nothing else in the register means anything without it. */
	if (!(status & (1u << 30))) {
		cper_vendor_detail(v, "error record not valid");
		return;
	}
	/* A plain corrected error says nothing the record's severity does not. */
	if (status & (1u << 29))
		cper_vendor_detail(v, "uncorrected (%s)", uet_words[(status >> 20) & 3]);
	else if (status & (1u << 23))
		cper_vendor_detail(v, "deferred");
	else if (ce == 3)
		cper_vendor_detail(v, "persistent");
	cper_vendor_detail(v, "%s", serr < OU_ARRAY_SIZE(serr_words) ? serr_words[serr]
			   : "reserved primary error code");
	if ((status >> 8) & 0xff)
		cper_vendor_detail(v, "implementation-defined code 0x%02x",
				   (unsigned)(status >> 8) & 0xff);
	if (status & (1u << 22))
		cper_vendor_detail(v, "poisoned");
	if (status & (1u << 27))
		cper_vendor_detail(v, "more errors overflowed the record");
}
