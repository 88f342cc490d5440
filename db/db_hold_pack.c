/* SPDX-License-Identifier: MIT */
/*
 * A held record's copy packed and unpacked (db_hold_pack.h): what the event
 * loop hands the writer thread for a record folding decides on, a few bytes
 * per value, and the struct held the thread that holds or stores it unpacks
 * it into (db_fold_hold.c). Moved out of db_fold_hold.c whole.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "db_hold_pack.h"

/*
 * A held record packed (ras_db_hold_pack, the event loop's side): this head,
 * then each value as a tag and what it says, integers in 8 bytes, text and
 * blobs as their length and bytes. The writer thread unpacks it into a
 * struct held (held_unpack) when it holds or stores it.
 */
struct held_head {
	int64_t wall_ns, boot;
	uint64_t trace_ts, rec_hash;
	int32_t trace_cpu, severity;
	uint32_t data;              /* the values' bytes (text and blobs) */
	uint16_t nvals;
	bool synthetic;
	char source[24];
};

/* A value's tag: absent; an integer; bytes (p); present without bytes (p NULL, len kept). */
enum { V_ABSENT, V_INT, V_BYTES, V_NOBYTES };

/*
 * Packing into *buf from at, grown as needed: the first failure to grow
 * stays in err. Every room taken also keeps slack bytes free after it, room
 * for every value's tag and integer, so that those are written unchecked.
 */
struct packer {
	uint8_t **buf;
	size_t *cap, at, slack;
	uint32_t data;
	int err;
	bool fixed;                 /* *buf never grown: -ENOSPC when full */
};

/* *buf grown for n more bytes at pk->at and the slack after them, or NULL (-ENOMEM or, fixed, -ENOSPC kept). */
static __attribute__((noinline)) uint8_t *room_grow(struct packer *pk, size_t n)
{
	size_t need = pk->at + n + pk->slack, cap;
	uint8_t *grown;

	if (pk->fixed && !pk->err)
		pk->err = -ENOSPC;
	cap = 2 * *pk->cap > need + 4096 ? 2 * *pk->cap : need + 4096;
	if (pk->err || !(grown = realloc(*pk->buf, cap))) {
		pk->err = pk->err ? pk->err : -ENOMEM;
		return NULL;
	}
	*pk->buf = grown;
	*pk->cap = cap;
	return grown + pk->at;
}

/*
 * Room for n more bytes at pk->at and the slack after them, or NULL (-ENOMEM
 * kept): inline, as the bytes it packs are (a call each was 56 instructions
 * a text value on make bench's stream, 2.8 million of them).
 */
static inline uint8_t *room(struct packer *pk, size_t n)
{
	if (pk->at + n + pk->slack <= *pk->cap)
		return *pk->buf + pk->at;
	return room_grow(pk, n);
}

/* An integer (within the slack: unchecked). */
static inline void put_int(struct packer *pk, int64_t i)
{
	uint8_t *p = *pk->buf + pk->at;

	*p = V_INT;
	memcpy(p + 1, &i, sizeof(i));
	pk->at += 1 + sizeof(i);
}

/* Bytes at s (V_BYTES), or present without any (s NULL: V_NOBYTES, len kept). */
static inline void put_bytes(struct packer *pk, const void *s, uint32_t len)
{
	size_t n = 1 + sizeof(len) + (s ? len : 0);
	uint8_t *p = room(pk, n);

	if (!p)
		return;
	*p = s ? V_BYTES : V_NOBYTES;
	memcpy(p + 1, &len, sizeof(len));
	if (s && len)
		memcpy(p + 1 + sizeof(len), s, len);
	pk->data += s ? len : 0;
	pk->at += n;
}

static inline void put_absent(struct packer *pk)
{
	(*pk->buf)[pk->at++] = V_ABSENT;
}

/* A decoded field of ev: an integer (RAS_DF_NONE absent) or its text, as the row binds it. */
static void put_dfield(struct packer *pk, const struct ras_dfield *f, const void *decoded)
{
	if (f->type == RAS_DF_INT) {
		int64_t v = ras_dfield_int(decoded, f);

		if (v == RAS_DF_NONE)
			put_absent(pk);
		else
			put_int(pk, v);
		return;
	}
	put_bytes(pk, ras_dfield_str(decoded, f), (uint32_t)strnlen(ras_dfield_str(decoded, f), f->size - 1));
}

/*
 * The raw values, most of them integers or absent: written through a
 * cursor kept in registers (through pk, every byte written made the compiler
 * load *pk->buf and pk->at again, a char store may alias them), within the
 * slack unchecked; only bytes go through put_bytes, which may grow *pk->buf.
 */
static int pack_raw(struct packer *pk, const struct ras_event_type *type, const struct ras_value *values)
{
	const struct ras_field *fields = type->fields;
	const unsigned n = type->n_fields;
	uint8_t *b = *pk->buf;
	size_t at = pk->at;

	for (unsigned i = 0; i < n; i++) {
		const struct ras_value *v = &values[i];

		if (!v->present) {
			b[at++] = V_ABSENT;
		} else if (fields[i].type == RAS_FT_INT) {
			int64_t x = v->i;

			b[at] = V_INT;
			memcpy(b + at + 1, &x, sizeof(x));
			at += 1 + sizeof(x);
		} else {
			pk->at = at;
			put_bytes(pk, v->p, v->len);
			if (__builtin_expect(pk->err != 0, 0))
				return pk->err;
			b = *pk->buf;
			at = pk->at;
		}
	}
	pk->at = at;
	return 0;
}

/*
 * ev packed at pk->at: its columns, its raw values, its per-record decoded
 * ones, the decoded ones plan's columns read, its location. 0 or -errno.
 */
static int pack_record(struct packer *pk, const struct ras_db_fold_plan *plan, const struct ras_db_event *ev,
		       size_t source_len)
{
	const struct ras_event_type *type = &ras_event_types[ev->type_idx];
	const struct ras_db_table *t = ras_db_table_of(ev->type_idx);
	const struct ras_decoded_head *head = ev->decoded;
	size_t at = pk->at;
	struct held_head hh;

	/* An integer's tag and value are the most a value takes besides its bytes. */
	pk->slack = (type->n_fields + t->nrec + plan->ndec + 1) * (1 + sizeof(int64_t));
	if (!room(pk, sizeof(hh)))
		return pk->err;
	pk->at += sizeof(hh);
	if (pack_raw(pk, type, ev->values) < 0)
		return pk->err;
	for (unsigned k = 0; k < t->nrec && !pk->err; k++)
		put_dfield(pk, &type->dfields[t->rfield[k]], ev->decoded);
	for (unsigned k = 0; k < plan->ndec && !pk->err; k++)
		put_dfield(pk, &type->dfields[plan->dec[k]], ev->decoded);
	put_bytes(pk, head->location, (uint32_t)strnlen(head->location, sizeof(head->location) - 1));
	if (pk->err)
		return pk->err;
	hh = (struct held_head){ .wall_ns = ev->wall_ns, .boot = ev->boot, .trace_ts = ev->trace_ts,
				 .rec_hash = ev->rec_hash, .trace_cpu = ev->trace_cpu,
				 .severity = (int32_t)head->severity, .data = pk->data,
				 .nvals = (uint16_t)(type->n_fields + t->nrec + plan->ndec + 1),
				 .synthetic = ev->synthetic };
	memcpy(hh.source, ev->source, source_len);   /* its NUL and the rest: hh's zeros */
	memcpy(*pk->buf + at, &hh, sizeof(hh));
	return 0;
}

size_t ras_db_held_bytes(const void *packed)
{
	struct held_head hh;

	memcpy(&hh, packed, sizeof(hh));
	return sizeof(struct held) + hh.nvals * sizeof(struct ras_value) + hh.data;
}

/*
 * A packed record unpacked into c, its values' bytes copied after them
 * (copy), or pointing into packed (which must then outlive c).
 */
static inline void held_unpack(struct held *c, int64_t dec, const void *packed, bool copy)
{
	const uint8_t *p = (const uint8_t *)packed + sizeof(struct held_head);
	struct held_head hh;
	uint8_t *data;

	memcpy(&hh, packed, sizeof(hh));
	*c = (struct held){ .bytes = ras_db_held_bytes(packed), .dec = dec, .wall_ns = hh.wall_ns, .boot = hh.boot, .trace_ts = hh.trace_ts,
			    .rec_hash = hh.rec_hash, .trace_cpu = hh.trace_cpu, .severity = hh.severity,
			    .synthetic = hh.synthetic, .nvals = hh.nvals };
	memcpy(c->source, hh.source, sizeof(c->source));
	data = (uint8_t *)&c->values[hh.nvals];
	for (unsigned i = 0; i < hh.nvals; i++) {
		struct ras_value *v = &c->values[i];
		uint8_t tag = *p++;
		int64_t x;
		uint32_t len;

		if (tag == V_INT) {
			memcpy(&x, p, sizeof(x));
			p += sizeof(x);
			*v = (struct ras_value){ .present = true, .i = x };
		} else if (tag == V_BYTES || tag == V_NOBYTES) {
			memcpy(&len, p, sizeof(len));
			p += sizeof(len);
			*v = (struct ras_value){ .present = true, .len = len };
			if (tag == V_NOBYTES)
				continue;
			if (copy) {
				memcpy(data, p, len);
				v->p = data;
				data += len;
			} else {
				v->p = p;
			}
			p += len;
		} else {
			*v = (struct ras_value){ .present = false };
		}
	}
}

void ras_db_held_read(struct held *c, int64_t dec, const void *packed)
{
	held_unpack(c, dec, packed, true);
}

void ras_db_held_view(struct held *c, int64_t dec, const void *packed)
{
	held_unpack(c, dec, packed, false);
}

static int held_pack(struct packer *pk, const struct ras_db_fold_plan *plan, const struct ras_db_event *ev,
		     size_t *bytes)
{
	size_t at = pk->at, source_len = strnlen(ev->source, sizeof(((struct held_head *)0)->source));
	int r;

	/* Measured once: the copy takes it whole or not at all. */
	if (source_len >= sizeof(((struct held_head *)0)->source))
		return -ENAMETOOLONG;
	if ((r = pack_record(pk, plan, ev, source_len)) < 0)
		return r;
	*bytes = pk->at - at;
	return 0;
}

int ras_db_held_pack(const struct ras_db_fold_plan *plan, const struct ras_db_event *ev, uint8_t **buf,
		     size_t *cap, size_t at, size_t *bytes)
{
	struct packer pk = { .buf = buf, .cap = cap, .at = at };

	return held_pack(&pk, plan, ev, bytes);
}

int ras_db_held_pack_in(const struct ras_db_fold_plan *plan, const struct ras_db_event *ev, uint8_t *buf,
			size_t cap, size_t at, size_t *bytes)
{
	struct packer pk = { .buf = &buf, .cap = &cap, .at = at, .fixed = true };

	return held_pack(&pk, plan, ev, bytes);
}
