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

#include <stddef.h>
#include <stdint.h>

#define RAS_DF_NONE INT64_MIN

/*
 * Every decoder's output struct has these three members, which the daemon
 * stores in columns common to all event tables:
 *   enum ras_severity severity;
 *   char summary[RAS_SUMMARY_LEN];   one sentence a technician can act on
 *   char location[RAS_LOCATION_LEN]; where, most specific part last, e.g.
 *                                    "socket 0, IMC 1, channel 2, DIMM 0"
 * The rest of its structured output is listed in its ras_dfield table.
 */
#define RAS_SUMMARY_LEN 384
#define RAS_LOCATION_LEN 128

enum ras_dtype {
	RAS_DF_INT,
	RAS_DF_STR,
};

struct ras_dfield {
	const char *name;   /* column / JSON key: lower_snake_case, unique per decoder */
	enum ras_dtype type;
	size_t offset;      /* offsetof(output struct, member) */
	size_t size;        /* sizeof the member: a string's capacity with its NUL */
};

#define RAS_DF_I(s, m) { #m, RAS_DF_INT, offsetof(s, m), sizeof(((s *)0)->m) }
#define RAS_DF_S(s, m) { #m, RAS_DF_STR, offsetof(s, m), sizeof(((s *)0)->m) }

static inline int64_t ras_dfield_int(const void *out, const struct ras_dfield *f)
{
	return *(const int64_t *)((const char *)out + f->offset);
}

static inline const char *ras_dfield_str(const void *out, const struct ras_dfield *f)
{
	return (const char *)out + f->offset;
}

#endif
