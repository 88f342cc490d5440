/* SPDX-License-Identifier: MIT */
/*
 * Tracepoint formats: one libtraceevent handle holding the formats of every
 * event in the event table, read from the running kernel's tracefs (the
 * instance's own events/ directory first) or, for tracepoints the kernel
 * lacks, from the formats the project ships (used only for synthetic records).
 */
#ifndef RAS_FORMATS_H
#define RAS_FORMATS_H

#include <traceevent/event-parse.h>
#include "event_table.h"
#include "fileio.h"

enum ras_fmt_state {
	RAS_FMT_ABSENT = 0, /* neither the kernel nor the shipped formats have it */
	RAS_FMT_KERNEL,     /* the running kernel has it: enabled and recorded */
	RAS_FMT_SHIPPED,    /* only the project's copy: synthetic records only */
	RAS_FMT_MALFORMED,  /* the kernel's format lacks a required field */
};

/* Largest sub-buffer accepted: a sanity bound far above what kernels make. */
#define RAS_MAX_PAGE_SIZE (64u << 20)

/*
 * How one field is read from a record (lib/record.c), taken from its
 * tep_format_field once when the formats are loaded, so that extracting a
 * record reads one small array instead of every field's libtraceevent struct.
 */
enum ras_field_read {
	RAS_FR_ABSENT = 0,  /* no such field in the format */
	RAS_FR_U8, RAS_FR_S8, RAS_FR_U16, RAS_FR_S16, RAS_FR_U32, RAS_FR_S32,
	RAS_FR_U64,         /* integers of 1, 2, 4 or 8 bytes, unsigned or sign-extended */
	RAS_FR_INT_ODD,     /* an integer of another size up to 8: reads as 0 */
	RAS_FR_FIXED,       /* a fixed array at offset, size bytes */
	RAS_FR_DYNAMIC,     /* a __data_loc word at offset */
	RAS_FR_RELATIVE,    /* a __rel_loc word at offset, counted from offset + size */
	RAS_FR_BAD,         /* a size the field cannot have: the record is malformed */
};

struct ras_field_plan {
	uint32_t offset, size;
	uint8_t read;       /* enum ras_field_read */
	bool is_signed;     /* an integer: sign-extended from size bytes */
	bool text;          /* the field is text (RAS_FT_TEXT): stored up to its first NUL */
};

struct ras_type_format {
	enum ras_fmt_state state;
	const char *system;            /* the system it was found under */
	struct tep_event *event;
	struct tep_format_field *field[RAS_MAX_FIELDS];
	/* field[] as ras_record_extract reads it; planned false: read field[] itself. */
	struct ras_field_plan plan[RAS_MAX_FIELDS];
	uint32_t plan_end;             /* a record this long holds every field's offset + size */
	bool planned;
	char problem[128];             /* why it is malformed */
	char path[320];                /* the format file it came from */
};

struct ras_formats {
	struct tep_handle *tep;
	struct ras_type_format type[RAS_MAX_EVENT_TYPES];
	struct tep_event *raw_data;    /* ftrace:raw_data, carrier of synthetic records */
	struct tep_format_field *raw_id, *raw_buf;
	unsigned page_size;            /* ring-buffer sub-buffer size in bytes */
};

/*
 * Loads the formats. instance_dir may be NULL (top level only); shipped_dir
 * may be NULL. Returns 0 or -errno (no header_page, or libtraceevent failed).
 */
int ras_formats_load(struct ras_formats **out, const char *tracing_dir,
		     const char *instance_dir, const char *shipped_dir);
void ras_formats_free(struct ras_formats *f);

/* The type whose kernel or shipped event has this id, or -1. */
int ras_formats_type_of(const struct ras_formats *f, int event_id);

/*
 * Treats the tracepoints named in list ("system:event" or table names,
 * separated by spaces or commas) as absent from the kernel: they are not
 * enabled, their records not stored, and a type standing in for one is used.
 * For tests only (rasd.conf pretend_absent): kernels that lack a tracepoint
 * cannot be made on demand.
 */
void ras_formats_pretend_absent(struct ras_formats *f, const char *list);
/*
 * True when type idx stands in for another type (event_table.h
 * fallback_for) that this kernel has: it is then not enabled, and its
 * records are not stored (a failed request would be stored twice).
 */
bool ras_formats_fallback_unneeded(const struct ras_formats *f, unsigned idx);


#endif
