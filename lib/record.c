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

/* An integer read of a plan: its size and whether it is sign-extended. */
static int plan_int_size(uint8_t read, bool *is_signed)
{
	static const int8_t size[] = {
		[RAS_FR_U8] = 1, [RAS_FR_S8] = 1, [RAS_FR_U16] = 2, [RAS_FR_S16] = 2,
		[RAS_FR_U32] = 4, [RAS_FR_S32] = 4, [RAS_FR_U64] = 8,
	};

	*is_signed = read == RAS_FR_S8 || read == RAS_FR_S16 || read == RAS_FR_S32;
	return size[read];
}

/*
 * A __data_loc or __rel_loc field by its plan, the record's bounds checked
 * (the word itself is within them).
 */
static inline int extract_loc(const struct ras_field_plan *fp, const uint8_t *d, uint32_t size,
			      struct ras_value *v)
{
	uint32_t word, off, len;

	memcpy(&word, d + fp->offset, 4);
	off = word & 0xffff;
	len = word >> 16;
	/* __rel_loc offsets count from the end of the field itself. */
	if (fp->read == RAS_FR_RELATIVE)
		off += fp->offset + fp->size;
	if (off > size || len > size - off)
		return -EBADMSG;
	v->p = d + off;
	v->len = fp->text ? (uint32_t)strnlen((const char *)d + off, len) : len;
	v->present = true;
	return 0;
}

/*
 * One field by its plan (lib/formats.h), every bound checked: what
 * extract_one does with the field's tep_format_field.
 */
static int extract_planned(bool swap, const struct ras_field_plan *fp, const uint8_t *d,
			   uint32_t size, struct ras_value *v)
{
	unsigned long long raw;
	bool is_signed;
	unsigned bits;

	if (fp->offset > size || fp->size > size - fp->offset)
		return -EBADMSG;
	switch (fp->read) {
	case RAS_FR_INT_ODD:
		v->present = true;
		return 0;
	case RAS_FR_FIXED:
		v->p = d + fp->offset;
		v->len = fp->text ? (uint32_t)strnlen((const char *)v->p, fp->size) : fp->size;
		v->present = true;
		return 0;
	case RAS_FR_DYNAMIC:
	case RAS_FR_RELATIVE:
		return extract_loc(fp, d, size, v);
	case RAS_FR_BAD:
		return -EBADMSG;
	default:
		bits = (unsigned)plan_int_size(fp->read, &is_signed) * 8;
		raw = read_number(d + fp->offset, (int)(bits / 8), swap);
		if (is_signed && (raw >> (bits - 1)) & 1)
			raw |= ~0ULL << bits;
		v->i = (int64_t)raw;
		v->present = true;
		return 0;
	}
}

/*
 * The fast case: the host's byte order and a record long enough for every
 * field's offset and size (tf->plan_end), so only the __data_loc words'
 * targets need a check. The same values as extract_planned.
 */
static int extract_fast(const struct ras_type_format *tf, unsigned n, const uint8_t *d, uint32_t size,
			struct ras_value *values)
{
	for (unsigned i = 0; i < n; i++) {
		const struct ras_field_plan *fp = &tf->plan[i];
		/* In a local: the stores to *v could be to the plan, as far as the compiler knows. */
		const uint8_t read = fp->read;
		const uint8_t *at = d + fp->offset;
		struct ras_value *v = &values[i];
		uint16_t u16;
		uint32_t u32;
		uint64_t u64;

		*v = (struct ras_value){ .present = read != RAS_FR_ABSENT };
		switch (read) {
		case RAS_FR_ABSENT:
		case RAS_FR_INT_ODD:
			break;
		case RAS_FR_U8: v->i = *at; break;
		case RAS_FR_S8: v->i = (int8_t)*at; break;
		case RAS_FR_U16: memcpy(&u16, at, 2); v->i = u16; break;
		case RAS_FR_S16: memcpy(&u16, at, 2); v->i = (int16_t)u16; break;
		case RAS_FR_U32: memcpy(&u32, at, 4); v->i = u32; break;
		case RAS_FR_S32: memcpy(&u32, at, 4); v->i = (int32_t)u32; break;
		case RAS_FR_U64: memcpy(&u64, at, 8); v->i = (int64_t)u64; break;
		case RAS_FR_FIXED:
			v->p = at;
			v->len = fp->text ? (uint32_t)strnlen((const char *)at, fp->size) : fp->size;
			break;
		default:
			if (extract_loc(fp, d, size, v) < 0)
				return -EBADMSG;
			break;
		}
	}
	return 0;
}

bool ras_record_swap(struct tep_handle *tep)
{
	return tep && tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
}

int ras_record_extract(struct tep_handle *tep, const struct ras_event_type *type,
		       const struct ras_type_format *tf, const void *data,
		       uint32_t size, struct ras_value *values)
{
	/* The file's byte order against the host's, asked once a record, not once a field. */
	return ras_record_extract_as(ras_record_swap(tep), type, tf, data, size, values);
}

int ras_record_extract_as(bool swap, const struct ras_event_type *type,
			  const struct ras_type_format *tf, const void *data,
			  uint32_t size, struct ras_value *values)
{
	if (tf->planned && !swap && tf->plan_end <= size && tf->plan_end != UINT32_MAX)
		return extract_fast(tf, type->n_fields, data, size, values);
	if (tf->planned) {
		for (unsigned i = 0; i < type->n_fields; i++) {
			struct ras_value *v = &values[i];

			*v = (struct ras_value){ .present = false };
			if (tf->plan[i].read != RAS_FR_ABSENT &&
			    extract_planned(swap, &tf->plan[i], data, size, v) < 0)
				return -EBADMSG;
		}
		return 0;
	}
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

	/*
	 * Eight bytes at a time with a multiply-xorshift mix; identity, not
	 * security. Four words a turn first: the same chain of mixes, a quarter
	 * of the loop's own instructions (a record is a dozen words or more).
	 */
	for (; n >= 32; n -= 32, b += 32) {
		uint64_t w0, w1, w2, w3;

		memcpy(&w0, b, 8);
		memcpy(&w1, b + 8, 8);
		memcpy(&w2, b + 16, 8);
		memcpy(&w3, b + 24, 8);
		h = (h ^ w0) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		h = (h ^ w1) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		h = (h ^ w2) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
		h = (h ^ w3) * 0xff51afd7ed558ccdULL;
		h ^= h >> 32;
	}
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
