/* SPDX-License-Identifier: MIT */
/*
 * Synthetic records: a tracepoint record laid out exactly as its format
 * says, wrapped in a trace_marker_raw write with a reserved id so rasd can
 * tell it from anything else written there:
 *   u32 id = RAS_SYNTH_ID, u16 version, u16 name_len, u32 rec_len,
 *   char name[name_len] ("system:event"), u8 rec[rec_len]
 */
#ifndef RAS_SYNTHETIC_H
#define RAS_SYNTHETIC_H

#include <stddef.h>
#include <stdint.h>
#include <traceevent/event-parse.h>

#define RAS_SYNTH_ID 0x52464452u   /* "RDFR" */
#define RAS_SYNTH_VERSION 1
#define RAS_SYNTH_MAX 3072         /* stays well inside one sub-buffer */

/*
 * Builds the record of event ev from "field=value" assignments (integers in
 * any C base; strings; byte arrays as hex) and wraps it for trace_marker_raw.
 * Returns the wrapped length or -errno with err explaining.
 */
int ras_synth_build(struct tep_event *ev, const char *system, char **assignments, int n,
		    uint8_t *out, size_t cap, char *err, size_t errlen);

/* Builds only the record (no wrapper), as the kernel would lay it out. Length or -errno. */
int ras_synth_record(struct tep_event *ev, char **assignments, int n, uint8_t *out, size_t cap,
		     char *err, size_t errlen);

/* Splits the payload of an ftrace:raw_data record (after its id). 0 or -EBADMSG. */
int ras_synth_unwrap(const uint8_t *buf, uint32_t len, const char **name, uint16_t *name_len,
		     const uint8_t **rec, uint32_t *rec_len);

#endif
