/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "record.h"

static int extract_dynamic(const struct tep_format_field *f, const uint8_t *d,
			   uint32_t size, struct ras_value *v)
{
	uint32_t word, off, len;

	if (f->size < 4)
		return -EBADMSG;
	memcpy(&word, d + f->offset, 4);
	off = word & 0xffff;
	len = word >> 16;
	/* __rel_loc offsets count from the end of the field itself. */
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (uint32_t)f->offset + (uint32_t)f->size;
	if (off > size || len > size - off)
		return -EBADMSG;
	v->p = d + off;
	v->len = len;
	return 0;
}

/*
 * What tep_read_number() returns, inline: it is called for every integer
 * field of every record. Sizes other than 1, 2, 4 and 8 read as 0, as there.
 */
static unsigned long long read_number(const uint8_t *p, int size, bool swap)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		return *p;
	case 2:
		memcpy(&v16, p, 2);
		return swap ? __builtin_bswap16(v16) : v16;
	case 4:
		memcpy(&v32, p, 4);
		return swap ? __builtin_bswap32(v32) : v32;
	case 8:
		memcpy(&v64, p, 8);
		return swap ? __builtin_bswap64(v64) : v64;
	default:
		return 0;
	}
}

static int extract_int(const struct tep_format_field *f, const uint8_t *d, bool swap,
		       struct ras_value *v)
{
	unsigned long long raw;
	unsigned bits;

	if (f->size <= 0 || f->size > 8)
		return -EBADMSG;
	raw = read_number(d + f->offset, f->size, swap);
	bits = (unsigned)f->size * 8;
	if ((f->flags & TEP_FIELD_IS_SIGNED) && bits < 64 && (raw >> (bits - 1)) & 1)
		raw |= ~0ULL << bits;
	v->i = (int64_t)raw;
	return 0;
}

static int extract_one(bool swap, const struct ras_field *rf,
		       const struct tep_format_field *f, const uint8_t *d,
		       uint32_t size, struct ras_value *v)
{
	int r;

	if ((uint32_t)f->offset > size || (uint32_t)f->size > size - (uint32_t)f->offset)
		return -EBADMSG;
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		r = extract_dynamic(f, d, size, v);
	else if (rf->type == RAS_FT_INT)
		r = extract_int(f, d, swap, v);
	else {
		v->p = d + f->offset;
		v->len = (uint32_t)f->size;
		r = 0;
	}
	if (r < 0)
		return r;
	/* Text is stored without its terminating NULs. */
	if (rf->type == RAS_FT_TEXT && v->p)
		v->len = (uint32_t)strnlen(v->p, v->len);
	v->present = true;
	return 0;
}

int ras_record_extract(struct tep_handle *tep, const struct ras_event_type *type,
		       const struct ras_type_format *tf, const void *data,
		       uint32_t size, struct ras_value *values)
{
	/* The file's byte order against the host's, asked once a record, not once a field. */
	bool swap = tep && tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);

	for (unsigned i = 0; i < type->n_fields; i++) {
		struct ras_value *v = &values[i];

		v->present = false;
		v->i = 0;
		v->p = NULL;
		v->len = 0;
		if (!tf->field[i])
			continue;
		if (extract_one(swap, &type->fields[i], tf->field[i], data, size, v) < 0)
			return -EBADMSG;
	}
	return 0;
}

uint64_t ras_hash_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;

	/* Eight bytes at a time with a multiply-xorshift mix; identity, not security. */
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
