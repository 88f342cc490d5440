/* SPDX-License-Identifier: MIT */
/*
 * ras_record_extract reads a record's fields by the plan taken from their
 * formats at load (lib/formats.h), and by the tep_format_field itself when a
 * format carries no plan. The two must agree value for value and on every
 * refusal: here on random records of every length up to past the format's,
 * for every event type of the shipped formats and of three kernels' (x86
 * 6.1 and 6.18, arm64), with the __data_loc words pointing inside, at the
 * edge and past the record, in the host's byte order and swapped.
 * ras_hash_bytes, four words a turn since issue 39, against its word-at-a-time
 * loop on random bytes of every length to 300.
 */
#include <stdlib.h>
#include <string.h>
#include "lib/record.h"
#include "rng.h"
#include "tap.h"
#include "test_util.h"

#define RUNS 300

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static uint64_t next(void)
{
	return rng_next(&rng);
}

/* Random bytes, text-like half the time, with __data_loc words made to land near the end. */
static void fill(const struct ras_event_type *t, const struct ras_type_format *tf, uint8_t *rec,
		 uint32_t size)
{
	bool text = next() & 1;

	for (uint32_t i = 0; i < size; i++)
		rec[i] = text ? (uint8_t)("abc\0xyz "[next() & 7]) : (uint8_t)next();
	for (unsigned i = 0; i < t->n_fields; i++) {
		const struct tep_format_field *f = tf->field[i];
		uint32_t word, off, len;

		if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || (uint32_t)f->offset + 4 > size)
			continue;
		off = (uint32_t)(next() % (size + 8));
		len = (uint32_t)(next() % 64);
		if (next() & 1)
			len = off < size ? size - off : 0;
		word = (len << 16) | (off & 0xffff);
		memcpy(rec + f->offset, &word, 4);
	}
}

static bool same(const struct ras_value *a, const struct ras_value *b, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].present != b[i].present || a[i].i != b[i].i || a[i].p != b[i].p ||
		    a[i].len != b[i].len)
			return false;
	return true;
}

/* Every type of fmt: planned and unplanned extraction of the same records. */
static void check_formats(const char *what, struct ras_formats *fmt)
{
	static uint8_t rec[4096];

	for (unsigned idx = 0; idx < ras_n_event_types; idx++) {
		const struct ras_event_type *t = &ras_event_types[idx];
		struct ras_type_format *tf = &fmt->type[idx];
		struct ras_type_format bare;
		unsigned bad = 0, refused = 0, runs = 0;

		if (!tf->event)
			continue;
		if (!tap_ok(tf->planned, "%s %s: planned at load", what, t->table))
			continue;
		bare = *tf;
		bare.planned = false;
		for (int swap = 0; swap < 2; swap++) {
			bool big = tep_is_local_bigendian(fmt->tep);

			tep_set_file_bigendian(fmt->tep, swap ? !big : big);
			for (unsigned r = 0; r < RUNS; r++) {
				uint32_t full = tf->plan_end + 64 > sizeof(rec) ? sizeof(rec) : tf->plan_end + 64;
				uint32_t size = (uint32_t)(next() % (full + 1));
				struct ras_value a[RAS_MAX_FIELDS], b[RAS_MAX_FIELDS];
				int ra, rb;

				fill(t, tf, rec, size);
				memset(a, 0x5a, sizeof(a));
				memset(b, 0x5a, sizeof(b));
				ra = ras_record_extract(fmt->tep, t, tf, rec, size, a);
				rb = ras_record_extract(fmt->tep, t, &bare, rec, size, b);
				runs++;
				if (ra != rb || (ra == 0 && !same(a, b, t->n_fields)))
					bad++;
				refused += ra < 0;
			}
			tep_set_file_bigendian(fmt->tep, big);
		}
		tap_ok(!bad && refused && refused < runs, "%s %s: %u records, %u refused, %u differ",
		       what, t->table, runs, refused, bad);
	}
}

/* ras_hash_bytes as it was before issue 39: one word a turn. */
static uint64_t ref_hash_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	for (; n >= 8; n -= 8, b += 8) {
		uint64_t w;

		memcpy(&w, b, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
	for (; n; n--, b++)
		h = (h ^ *b) * 0x100000001b3ULL;
	h ^= h >> 29;
	return h * 0xc4ceb9fe1a85ec53ULL;
}

static void check_hash(void)
{
	static uint8_t buf[301];
	unsigned bad = 0, runs = 0;

	for (unsigned r = 0; r < 20; r++)
		for (size_t n = 0; n < 300; n++) {
			size_t at = next() % 2;

			for (size_t i = 0; i < n + at; i++)
				buf[i] = (uint8_t)next();
			bad += ras_hash_bytes(buf + at, n) != ref_hash_bytes(buf + at, n);
			runs++;
		}
	tap_ok(!bad, "ras_hash_bytes: %u of %u random ranges differ from the word-at-a-time hash",
	       bad, runs);
}

int main(void)
{
	static const char *const kernels[] = { "linux-6.1", "linux-6.18", "arm64-64k" };
	struct ras_formats *fmt;
	char dir[1024], shipped[1024];

	check_hash();
	snprintf(shipped, sizeof(shipped), "%s/formats", test_srcdir());
	if (tap_ok(ras_formats_load(&fmt, "/nonexistent", NULL, shipped) == 0, "shipped formats load")) {
		check_formats("shipped", fmt);
		ras_formats_free(fmt);
	}
	for (size_t k = 0; k < sizeof(kernels) / sizeof(kernels[0]); k++) {
		snprintf(dir, sizeof(dir), "%s/tests/formats/%s", test_srcdir(), kernels[k]);
		if (!tap_ok(ras_formats_load(&fmt, "/nonexistent", NULL, dir) == 0, "%s formats load",
			    kernels[k]))
			continue;
		check_formats(kernels[k], fmt);
		ras_formats_free(fmt);
	}
	return tap_done();
}
