/* SPDX-License-Identifier: MIT */
/*
 * Describes the structured output of a decoder, so that the database schema,
 * inserts, JSON output and log fields are all driven from one static table
 * per decoder instead of hand-written per-type code.
 *
 * A decoder's output struct holds int64_t members (RAS_DF_INT) and
 * NUL-terminated char arrays (RAS_DF_STR). An int member equal to
 * RAS_DF_NONE, or an empty string, means "not known" and is stored as NULL.
 */
#ifndef RAS_DFIELD_H
#define RAS_DFIELD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RAS_DF_NONE INT64_MIN

#include "severity.h"

/*
 * A rendered sentence (X_render) fits in this, with every kernel text the
 * record holds whole: an mc_event's label (295), msg (255) and driver_detail
 * (1023, decoders/edac.h) make the longest (test-text-limits checks them all).
 */
#define RAS_SUMMARY_LEN 2048
#define RAS_LOCATION_LEN 128
#define RAS_DECODED_MAX 8192  /* upper bound of any decoder's output struct */

/*
 * What every decoder's output struct starts with, stored in columns common
 * to all event tables:
 *   severity  the decoder's classification
 *   location  where, most specific part last, e.g.
 *             "socket 0, IMC 1, channel 2, DIMM 0"
 * The rest of its structured output is listed in its ras_dfield table. The
 * one-sentence description is not stored: X_render() builds it from the head
 * and the dfield members alone, so a struct rebuilt from a database row
 * renders the same sentence on any machine.
 */
struct ras_decoded_head {
	enum ras_severity severity;
	char location[RAS_LOCATION_LEN];
};

/*
 * The first member of every decoded struct: the head both as one member
 * (out->head, for generic code) and as its own members (out->severity,
 * out->location), like the Linux kernel's struct_group_tagged(). The two
 * views share storage; the member lists must stay identical.
 */
#define RAS_DECODED_HEAD                                                      \
	union {                                                               \
		struct ras_decoded_head head;                                  \
		struct {                                                      \
			enum ras_severity severity;                           \
			char location[RAS_LOCATION_LEN];                      \
		};                                                            \
	}

/* Checks that a decoded struct starts with its head and fits RAS_DECODED_MAX. */
#define RAS_DECODED_CHECK(type)                                               \
	_Static_assert(offsetof(type, head) == 0, #type " must start with RAS_DECODED_HEAD"); \
	_Static_assert(offsetof(type, location) ==                            \
		       offsetof(struct ras_decoded_head, location),           \
		       #type ": head views disagree");                        \
	_Static_assert(sizeof(type) <= RAS_DECODED_MAX, #type " exceeds RAS_DECODED_MAX")

enum ras_dtype {
	RAS_DF_INT,
	RAS_DF_STR,
};

/*
 * How an int member is written in JSON, whatever its value: a key keeps one
 * type in every record and every command (ras-fdr-ctl(8), JSON).
 */
enum ras_djson {
	RAS_DJ_NUMBER,   /* a small integer (an index, a count, a code): a JSON number */
	RAS_DJ_HEX,      /* a register, address, syndrome or mask: its 64 bits as "0x..." */
	RAS_DJ_U64,      /* a 64-bit position or count (a sector): unsigned decimal in a string */
};

struct ras_dfield {
	const char *name;   /* column / JSON key: lower_snake_case, unique per decoder */
	enum ras_dtype type;
	size_t offset;      /* offsetof(output struct, member) */
	size_t size;        /* sizeof the member: 8, or the char array's capacity */
	/*
	 * A value that differs from record to record of one error (a running
	 * count, a syndrome): stored with the record, so that the rest of the
	 * decoding, stored once per distinct one, is shared by a storm.
	 */
	bool per_record;
	enum ras_djson json;   /* RAS_DF_INT only */
};

#define RAS_DF_MEMBER_SIZE(s, m) sizeof(((s *)0)->m)
#define RAS_DF_ENTRY(s, m, t, rec, j) { #m, t, offsetof(s, m), RAS_DF_MEMBER_SIZE(s, m), rec, j }
#define RAS_DF_I(s, m) RAS_DF_ENTRY(s, m, RAS_DF_INT, false, RAS_DJ_NUMBER)
#define RAS_DF_S(s, m) RAS_DF_ENTRY(s, m, RAS_DF_STR, false, RAS_DJ_NUMBER)
#define RAS_DF_I_REC(s, m) RAS_DF_ENTRY(s, m, RAS_DF_INT, true, RAS_DJ_NUMBER)
/* Registers, addresses, syndromes and masks (RAS_DJ_HEX); 64-bit positions (RAS_DJ_U64). */
#define RAS_DF_X(s, m) RAS_DF_ENTRY(s, m, RAS_DF_INT, false, RAS_DJ_HEX)
#define RAS_DF_X_REC(s, m) RAS_DF_ENTRY(s, m, RAS_DF_INT, true, RAS_DJ_HEX)
#define RAS_DF_U(s, m) RAS_DF_ENTRY(s, m, RAS_DF_INT, false, RAS_DJ_U64)

static inline int64_t ras_dfield_int(const void *out, const struct ras_dfield *f)
{
	return *(const int64_t *)((const char *)out + f->offset);
}

static inline const char *ras_dfield_str(const void *out, const struct ras_dfield *f)
{
	return (const char *)out + f->offset;
}

#endif
