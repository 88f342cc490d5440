/* SPDX-License-Identifier: MIT */
/*
 * The decoders' hot routines against the ones they replaced (frozen below,
 * as they were at integ 7e6fe69), on random input: kernel text of every
 * length with NULs, controls, DEL and high bytes anywhere, cut by either
 * bound. Both must leave every byte of the destination the same. And the
 * MCE decoder with its lookups kept from record to record against the
 * decoder looking them up again.
 * A fixed seed: the same inputs at every run.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "decoders/other_util.h"
#include "tests/rng.h"
#include "tests/tap.h"

#define ROUNDS 200000

static uint64_t rng = 0x2545f4914f6cdd1dULL;

static uint64_t next(void)
{
	return rng_next(&rng);
}

static unsigned below(unsigned n)
{
	return rng_below(&rng, n);
}

/* ---- frozen: decoders/other_util.c ou_copy at 7e6fe69 ---- */
static inline int ref_word_has_unsafe(uint64_t w)
{
	const uint64_t ones = 0x0101010101010101ULL, high = 0x8080808080808080ULL;
	uint64_t below = (w - 0x20 * ones) & ~w & high;
	uint64_t above = ((w + ones) | w) & high;

	return (below | above) != 0;
}

static void ref_ou_copy(char *dst, size_t len, const char *src, size_t src_len)
{
	size_t n = 0, i = 0;

	if (!dst || len == 0)
		return;
	if (src)
		n = strnlen(src, src_len < len - 1 ? src_len : len - 1);
	memcpy(dst, src ? src : "", n);
	for (; i + 8 <= n; i += 8) {
		uint64_t w;

		memcpy(&w, dst + i, 8);
		if (!ref_word_has_unsafe(w))
			continue;
		for (size_t j = i; j < i + 8; j++) {
			unsigned char c = (unsigned char)dst[j];

			dst[j] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
		}
	}
	if (i < n && n >= 8) {
		uint64_t w;

		memcpy(&w, dst + n - 8, 8);
		if (!ref_word_has_unsafe(w))
			i = n;
	}
	for (; i < n; i++) {
		unsigned char c = (unsigned char)dst[i];

		dst[i] = (c < 0x20 || c >= 0x7f) ? '?' : (char)c;
	}
	dst[n] = '\0';
}
/* ---- end of frozen code ---- */

/* ---- frozen: decoders/edac.c edac_decode at 7e6fe69 (ou_reset, write_location) ---- */
static const struct {
	const char *name;
	enum ras_severity severity;
} ref_edac_types[] = {
	[EDAC_ERR_CORRECTED] = { "corrected", RAS_SEV_CORRECTED },
	[EDAC_ERR_UNCORRECTED] = { "uncorrected", RAS_SEV_UNCORRECTED },
	[EDAC_ERR_DEFERRED] = { "deferred", RAS_SEV_DEFERRED },
	[EDAC_ERR_FATAL] = { "fatal", RAS_SEV_FATAL },
	[EDAC_ERR_INFO] = { "info", RAS_SEV_INFO },
};

static void ref_ou_reset(void *out, size_t size, const struct ras_dfield *fields, size_t n)
{
	memset(out, 0, size);
	for (size_t i = 0; i < n; i++) {
		if (fields[i].type != RAS_DF_INT)
			continue;
		*(int64_t *)((char *)out + fields[i].offset) = RAS_DF_NONE;
	}
}

static void ref_write_location(const struct edac_in *in, struct edac_decoded *out)
{
	const int8_t layer[3] = { in->top_layer, in->middle_layer, in->lower_layer };
	struct ou_buf loc = ou_start(out->location, sizeof(out->location));
	int named = in->layer_name[0] != NULL, last = -1;

	for (int i = 0; i < 3; i++)
		if (layer[i] >= 0)
			last = i;
	if (in->no_mc) {
		ou_put(&loc, out->label[0] ? out->label : "unknown memory");
		return;
	}
	ou_put_lit(&loc, "mc");
	ou_put_int(&loc, in->mc_index);
	for (int i = 0; i <= last; i++) {
		if (named && layer[i] < 0)
			continue;
		if (named) {
			ou_put_lit(&loc, ", ");
			ou_put(&loc, in->layer_name[i] ? in->layer_name[i] : "layer");
			ou_put_lit(&loc, " ");
		} else if (i) {
			ou_put_lit(&loc, ":");
		} else {
			ou_put_lit(&loc, ", layers ");
		}
		ou_put_int(&loc, layer[i]);
	}
	if (edac_label_is_specific(out->label)) {
		size_t n = strlen(out->label);

		if (loc.at + n + 3 < sizeof(out->location)) {
			ou_put_lit(&loc, " (");
			ou_put_n(&loc, out->label, n);
			ou_put_lit(&loc, ")");
		}
	}
}

static int ref_edac_decode(const struct edac_in *in, struct edac_decoded *out)
{
	if (!out)
		return -1;
	ref_ou_reset(out, sizeof(*out), edac_dfields, edac_n_dfields);
	if (!in)
		return -1;
	out->error_type = in->error_type;
	out->severity = RAS_SEV_UNKNOWN;
	if (in->error_type < 5) {
		struct ou_buf name = ou_start(out->error_type_name, sizeof(out->error_type_name));

		ou_put(&name, ref_edac_types[in->error_type].name);
		out->severity = ref_edac_types[in->error_type].severity;
	}
	out->error_count = in->error_count;
	out->mc_index = in->mc_index;
	out->top_layer = in->top_layer >= 0 ? in->top_layer : RAS_DF_NONE;
	out->middle_layer = in->middle_layer >= 0 ? in->middle_layer : RAS_DF_NONE;
	out->lower_layer = in->lower_layer >= 0 ? in->lower_layer : RAS_DF_NONE;
	ref_ou_copy(out->label, sizeof(out->label), in->label, in->label_len);
	if (in->no_mc)
		out->mc_index = out->top_layer = out->middle_layer = out->lower_layer = RAS_DF_NONE;
	if (!in->no_address) {
		out->address = in->address;
		if (in->grain_bits < 63)
			out->grain = INT64_C(1) << in->grain_bits;
		out->syndrome = in->syndrome;
	}
	ref_ou_copy(out->msg, sizeof(out->msg), in->msg, in->msg_len);
	ref_ou_copy(out->driver_detail, sizeof(out->driver_detail), in->driver_detail,
		    in->driver_detail_len);
	ref_write_location(in, out);
	return 0;
}
/* ---- end of frozen code ---- */

/* A byte of kernel text: mostly printable, now and then one of each kind that is not. */
static char text_byte(unsigned odd)
{
	unsigned r = below(1000);

	if (r < odd)
		return (char)(below(4) == 0 ? 0 : below(3) == 0 ? 0x7f : below(2) ? below(0x20) : 0x80 + below(0x80));
	return (char)(0x20 + below(0x5f));
}

static void fill_text(char *s, size_t n)
{
	/* Some texts all printable, some with a bad byte in a few hundred, some full of them. */
	unsigned odd = below(3) == 0 ? 0 : below(2) ? 5 : 300;

	for (size_t i = 0; i < n; i++)
		s[i] = text_byte(odd);
	/* Most end with their NUL, as a tracepoint's __string does. */
	if (n && below(4))
		s[below((unsigned)n)] = '\0';
}

static void test_ou_copy(void)
{
	static char src[1300], a[1100], b[1100];
	int differ = 0, len_wrong = 0;

	for (int round = 0; round < ROUNDS; round++) {
		size_t src_len = below(4) ? below(80) : below(1200);
		size_t len = below(3) ? 1 + below(64) : 1 + below(sizeof(a));
		unsigned at = below(16);
		/* The text alone in a block of its size: a sanitizer sees any read past it. */
		char *own = malloc(src_len ? src_len : 1);
		const char *from = below(50) ? own : NULL;
		size_t got;
		char pad = (char)below(256);

		fill_text(src + at, src_len);
		memcpy(own, src + at, src_len);
		memset(a, pad, sizeof(a));
		memset(b, pad, sizeof(b));
		ref_ou_copy(a, len, from, src_len);
		got = ou_copy(b, len, from, src_len);
		if (memcmp(a, b, sizeof(a)) && differ++ < 3)
			tap_diag("ou_copy differs: len %zu, src_len %zu, at %u", len, src_len, at);
		if (got != strlen(b) && len_wrong++ < 3)
			tap_diag("ou_copy returned %zu for \"%s\"", got, b);
		free(own);
	}
	tap_is_int(differ, 0, "ou_copy writes what the two-pass copy wrote (%d texts)", ROUNDS);
	tap_is_int(len_wrong, 0, "ou_copy returns the length it wrote");
	tap_is_int((long long)ou_copy(a, 0, "x", 1), 0, "ou_copy into no room writes nothing");
}


/* A label as drivers and the EDAC core give them: a placeholder, a DIMM name, or random text. */
static size_t pick_label(char *buf, size_t cap)
{
	static const char *const known[] = {
		"any memory", "unknown memory", "any memor", "any memory ", "", "DIMM_A1",
		"CPU_SrcID#0_MC#1_Chan#2_DIMM#0", "unknown memoryX", "any memory\x01",
	};
	size_t n;

	if (below(2)) {
		const char *k = known[below(sizeof(known) / sizeof(known[0]))];

		n = strlen(k) + below(2);   /* its NUL within the length, or not */
		memcpy(buf, k, n);
		return n;
	}
	n = below(4) ? below(40) : below((unsigned)cap);
	fill_text(buf, n);
	return n;
}

static void test_edac_decode(void)
{
	static char label[400], msg[300], detail[1100];
	static const char *const names[] = { "csrow", "channel", "slot", NULL, "a-rather-long-layer-name" };
	static _Alignas(16) struct edac_decoded a, b;
	int differ = 0, rc_differ = 0;

	for (int round = 0; round < ROUNDS / 4; round++) {
		struct edac_in in = {
			.error_type = below(8), .error_count = (uint16_t)next(), .mc_index = (uint8_t)below(300),
			.top_layer = (int8_t)(below(3) ? (int)below(4) : (int)below(256) - 128),
			.middle_layer = (int8_t)(below(3) ? (int)below(4) : -1),
			.lower_layer = (int8_t)(below(3) ? (int)below(4) : -1),
			.address = (int64_t)next(), .grain_bits = (uint8_t)below(70), .syndrome = (int64_t)next(),
			.no_address = below(8) == 0, .no_mc = below(8) == 0,
		};
		const struct edac_in *pin = below(200) ? &in : NULL;
		int ra, rb;

		in.label_len = pick_label(label, sizeof(label));
		in.label = below(30) ? label : NULL;
		in.msg_len = below(4) ? below(40) : below(sizeof(msg));
		fill_text(msg, in.msg_len);
		in.msg = below(30) ? msg : NULL;
		in.driver_detail_len = below(4) ? below(120) : below(sizeof(detail));
		fill_text(detail, in.driver_detail_len);
		in.driver_detail = below(30) ? detail : NULL;
		if (below(3) == 0)
			for (int l = 0; l < 3; l++)
				in.layer_name[l] = names[below(5)];
		memset(&a, (int)below(256), sizeof(a));
		memset(&b, (int)below(256), sizeof(b));
		ra = ref_edac_decode(pin, &a);
		rb = edac_decode(pin, &b);
		if ((ra == 0) != (rb == 0))
			rc_differ++;
		if (memcmp(&a, &b, sizeof(a)) && differ++ < 3)
			tap_diag("edac_decode differs: \"%s\" / \"%s\"", a.location, b.location);
	}
	tap_is_int(differ, 0, "edac_decode fills every byte as before (%d records)", ROUNDS / 4);
	tap_is_int(rc_differ, 0, "edac_decode fails where it did");
}

/*
 * The MCE decoder with a memo of its model and bank lookups kept from
 * record to record (as rasd keeps one) against the decoder looking them up
 * at every record: runs of records from one CPU, switches between CPU
 * models and vendors (a bank row kept for one model must not serve
 * another), banks past 64, records without a CPU identity.
 */
static void test_mce_memo(void)
{
	static const uint32_t cpuids[] = {
		0x50654, 0x50657, 0x5065b, 0x606a6, 0x606c1, 0x806f8, 0xc06f2, 0xa06d1, 0x306f2,
		0x406f1, 0x206d7, 0x306e4, 0x106a5, 0x50662, 0x506f1, 0x80665, 0x50671, 0x7b0,
		0x00f29, 0x006d8, 0x1067a, 0x00f64, 0x800f12, 0xa10f11, 0x12345,
	};
	static const uint16_t mcacods[] = { 0x0090, 0x009f, 0x00c2, 0x0134, 0x017a, 0x0e0b, 0x0405,
					    0x0800, 0x0011, 0x0281 };
	static struct mce_model_memo memo;
	static _Alignas(16) struct mce_decoded a, b;
	struct mce_in in = { 0 };
	int differ = 0;

	for (int round = 0; round < ROUNDS / 4; round++) {
		/* A run of records from one CPU, then another now and then. */
		if (round == 0 || below(16) == 0) {
			in.cpuid = cpuids[below(sizeof(cpuids) / sizeof(cpuids[0]))];
			in.cpuvendor = (uint8_t)(below(8) ? 0 : below(12));
		}
		in.status = next() | 1ULL << 63;
		if (below(4))
			in.status = (in.status & ~0xffffULL) | mcacods[below(sizeof(mcacods) / sizeof(mcacods[0]))];
		in.misc = next();
		in.addr = next();
		in.mcgcap = below(2) ? 0 : next();
		in.bank = (uint8_t)(below(8) ? below(32) : below(256));
		in.cpu = below(256);
		in.socketid = below(4);
		in.no_cpuid = below(50) == 0;
		memset(&a, 0x5a, sizeof(a));
		mce_decode(&in, &a);
		memset(&b, 0xa5, sizeof(b));
		mce_decode_memo(&in, &memo, &b);
		if (memcmp(&a, &b, sizeof(a)) && differ++ < 3)
			tap_diag("mce_decode with a memo differs: cpuid 0x%x bank %u: \"%s\" / \"%s\"",
				 (unsigned)in.cpuid, in.bank, a.location, b.location);
	}
	tap_is_int(differ, 0, "mce_decode with a memo kept across %d records decodes each the same",
		   ROUNDS / 4);
}

/* ou_put_small against ou_put_int, and ou_member_len against strnlen, where each may cut. */
static void test_small_writers(void)
{
	static _Alignas(16) char a[64], b[64], m[80];
	int differ = 0, len_differ = 0;

	for (int round = 0; round < ROUNDS; round++) {
		long long v = below(4) ? (long long)below(120) - 10 : (long long)next();
		size_t len = below(3) ? 1 + below(8) : below(64);
		struct ou_buf x = { .p = a, .len = len, .at = len ? below((unsigned)len) : 0 };
		struct ou_buf y = { .p = b, .len = len, .at = x.at };
		size_t size = below(2) ? 16 * (1 + below(5)) : 1 + below(80);

		memset(a, '#', sizeof(a));
		memset(b, '#', sizeof(b));
		ou_put_int(&x, v);
		ou_put_small(&y, v);
		if ((memcmp(a, b, sizeof(a)) || x.at != y.at) && differ++ < 3)
			tap_diag("ou_put_small differs: %lld, len %zu", v, len);
		for (size_t i = 0; i < sizeof(m); i++)
			m[i] = below(8) ? (char)(1 + below(255)) : 0;
		if (ou_member_len(m, size) != strnlen(m, size) && len_differ++ < 3)
			tap_diag("ou_member_len differs: size %zu", size);
	}
	tap_is_int(differ, 0, "ou_put_small writes what ou_put_int writes (%d numbers)", ROUNDS);
	tap_is_int(len_differ, 0, "ou_member_len is strnlen");
}

int main(void)
{
	test_ou_copy();
	test_small_writers();
	test_edac_decode();
	test_mce_memo();
	return tap_done();
}
