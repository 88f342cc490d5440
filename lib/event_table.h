/* SPDX-License-Identifier: MIT */
/*
 * The event table: one row per RAS tracepoint that ras-fdr knows. Enabling,
 * dispatch, the database schema and inserts are all driven from it; adding
 * an event is adding a row here and a decoder adapter, not a handler.
 */
#ifndef RAS_EVENT_TABLE_H
#define RAS_EVENT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "decoders/severity.h"
#include "decoders/dfield.h"

enum ras_ftype {
	RAS_FT_INT,  /* any integer field, stored as a signed 64-bit INTEGER */
	RAS_FT_TEXT, /* char arrays and __data_loc char[] */
	RAS_FT_BLOB, /* binary arrays, GUIDs, structs, __data_loc u8[] */
};

/* The field may be absent on some kernels; its column is then NULL. */
#define RAS_F_OPTIONAL 1u
/* A register or address: shown as a hex string in --json (may exceed 2^53). */
#define RAS_F_HEX 2u
/* A 64-bit counter or timestamp: shown as an unsigned decimal string in --json. */
#define RAS_F_WIDE 4u

struct ras_field {
	const char *name;
	enum ras_ftype type;
	unsigned flags;
};

/* One extracted field value; pointers point into the record being handled. */
struct ras_value {
	bool present;
	int64_t i;
	const void *p;
	uint32_t len;
};

/* Bounds of the event table, checked at compile time in event_table.c. */
#define RAS_MAX_FIELDS 40        /* fields of one tracepoint (cxl_dram has 35) */
#define RAS_MAX_EVENT_TYPES 32   /* rows of the event table; sizes every per-type array */
struct ras_event_type;
struct ras_decode_ctx;

/*
 * Adapter from extracted tracepoint fields (in the order of the type's
 * field list) to the decoder's output struct, which starts with a
 * struct ras_decoded_head (decoders/dfield.h). Returns 0 or -errno; on
 * error the head is still filled with what could be said.
 */
typedef int (*ras_decode_fn)(const struct ras_event_type *type,
			     const struct ras_value *values, struct ras_decode_ctx *ctx, void *out);
/*
 * The decoder's sentence for its output struct, built from the head and the
 * dfield members alone (pure: no lookups, no state). Always NUL-terminates.
 */
typedef void (*ras_render_fn)(const void *decoded, char *buf, size_t len);

/*
 * The location a summary counts by, for a type whose location names one
 * address (a page, a device physical address): counted per address, a
 * storm's summary would be a list of pages. It is the location up to `cut`
 * (all of it when cut does not occur), then each part whose decoded string
 * field is known, after its words. `errors` still shows the full location.
 * The database builds the same key in SQL from the stored columns
 * (db/db_rollup.c), so the words hold no quote.
 */
#define RAS_SUMLOC_PARTS 3
#define RAS_SUMLOC_LEN 256       /* any summary location fits (test-event-table checks) */
struct ras_sumloc_part {
	const char *before;      /* words before the value, e.g. ", recovery " */
	const char *dfield;      /* a RAS_DF_STR decoded field */
};
struct ras_sumloc {
	const char *cut;
	struct ras_sumloc_part parts[RAS_SUMLOC_PARTS];
};

/*
 * The records of a type worth keeping, when the tracepoint fires for far more
 * than RAS (signal_generate for every signal): each term is a field in (or,
 * negated, not in) a set of values, and a record is kept when every term
 * holds. rasd writes the terms to the instance's tracefs filter file, so the
 * kernel drops the rest; it checks them again on every record (lib/keep.c),
 * since a kernel may refuse the filter and a boot or adopted instance has
 * none.
 */
#define RAS_KEEP_TERMS 4
#define RAS_KEEP_VALUES 4
struct ras_keep_term {
	const char *field;
	bool negate;              /* the field is none of the values */
	unsigned n;
	int64_t v[RAS_KEEP_VALUES];
};
struct ras_keep {
	unsigned n;
	struct ras_keep_term t[RAS_KEEP_TERMS];
};

struct ras_event_type {
	const char *system;
	const char *event;
	const char *alt_system;   /* the same event under another system name, or NULL */
	const char *table;        /* SQLite table name */
	const char *title;        /* words for log lines: "machine check" */
	const struct ras_field *fields;
	unsigned n_fields;
	const struct ras_dfield *dfields; /* decoded columns, after the raw ones */
	const size_t *n_dfields;
	ras_decode_fn decode;
	ras_render_fn render;
	const char *keep_decoded; /* a decoded field stored although named like a raw one */
	const char *message_id;   /* journal MESSAGE_ID, 32 hex digits */
	const struct ras_sumloc *sumloc; /* the summary's coarser location, or NULL: the location */
	/* The decoded count of errors a record stands for (a stored column too), or NULL: one. */
	const struct ras_dfield *errors;
	/* Which records are kept (see struct ras_keep), or NULL: all. */
	const struct ras_keep *keep;
	/*
	 * The table name of the type this one stands in for on kernels without
	 * it (block_rq_complete for block_rq_error before 5.18), or NULL. It is
	 * enabled, and its records stored, only where that type is absent.
	 */
	const char *fallback_for;
};

extern const struct ras_event_type ras_event_types[];
extern const unsigned ras_n_event_types;

/* Finds a type by "system:event", bare event name or table name; NULL if unknown. */
const struct ras_event_type *ras_event_type_find(const char *name);
/* Index of a field in type->fields, or -1. */
int ras_event_field_index(const struct ras_event_type *type, const char *name);
/* A decoded field by name, or NULL. */
const struct ras_dfield *ras_event_dfield(const struct ras_event_type *type, const char *name);
/*
 * The location a summary counts a decoded record by (see struct ras_sumloc):
 * the record's own location for most types, else the coarser key built in
 * buf (RAS_SUMLOC_LEN bytes). Never NULL.
 */
const char *ras_summary_location(const struct ras_event_type *type, const void *decoded, char *buf,
				 size_t len);

#endif
