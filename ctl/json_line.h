/* SPDX-License-Identifier: MIT */
/*
 * errors --json's record and folded-period lines, built in memory: one
 * writer for errors --json and the report's --part attachment (100,000
 * lines for one DIMM, where fprintf per field was half the report's time).
 * Numbers, hex and times are formatted by hand, strings copied in runs and
 * escaped exactly as lib/json.c's ras_json_string does, so the bytes are the
 * same as that encoder's; the caller writes the line with one fwrite.
 */
#ifndef CTL_JSON_LINE_H
#define CTL_JSON_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "db/db_query.h"
#include "db/db_link.h"
#include "decoders/dfield.h"

/* A growing buffer; a failed allocation sets failed and drops what follows. */
struct ctl_jbuf {
	char *p;
	size_t len, cap;
	bool failed;
	/*
	 * HTML mode (ctl_jbuf_html): every byte as rpt_html_text would write the
	 * JSON's, written so at once (markup as entities: the JSON's quotes are
	 * most of them), so the report's HTML does not scan each line again.
	 */
	bool html;
	struct ctl_jkey *keys;   /* keys (and HTML literals) as written, kept by ctl_json_row */
	/* ctl_jbuf_time's last second, "2026-11-29T14:03:40" (a storm's records share it) */
	bool second_kept;
	int64_t second;
	char second_text[19];
};

/*
 * Sets HTML mode (or JSON, as a zeroed buffer starts). The JSON lines are
 * valid UTF-8 without control characters but their newline, so their HTML
 * text differs only by the entities of & < > " and '.
 */
void ctl_jbuf_html(struct ctl_jbuf *b, bool html);
/* Empties the buffer (its memory and keys kept) and clears failed. */
void ctl_jbuf_reset(struct ctl_jbuf *b);
void ctl_jbuf_free(struct ctl_jbuf *b);

/* Appended as lib/json.c writes them (json.h says what each is). */
void ctl_jbuf_raw(struct ctl_jbuf *b, const char *s, size_t len);
void ctl_jbuf_string(struct ctl_jbuf *b, const char *s, size_t len);
void ctl_jbuf_key(struct ctl_jbuf *b, const char *name);
void ctl_jbuf_hex(struct ctl_jbuf *b, uint64_t v);       /* "0x1f" */
void ctl_jbuf_u64(struct ctl_jbuf *b, uint64_t v);       /* "18446744073709551615" */
void ctl_jbuf_i64(struct ctl_jbuf *b, int64_t v);        /* "-5" */
void ctl_jbuf_int(struct ctl_jbuf *b, int64_t v);        /* -5, a JSON number */
void ctl_jbuf_dfield(struct ctl_jbuf *b, const struct ras_dfield *df, const void *decoded);
/* ras_format_time's text: 2026-11-29T14:03:40.123456Z. */
void ctl_jbuf_time(struct ctl_jbuf *b, int64_t wall_ns);

/* What a record line says of its link (ctl.h's struct ctl_link, without ctl.h). */
struct ctl_json_link {
	bool applies, found;
	const struct ras_db_memfail_link *mf;
};

/*
 * A record's line, "\n" included: its decoding decoded (a ras_decoded_head
 * first), its sentence summary (ctl_render_row's), its link l (NULL: none).
 */
void ctl_json_row(struct ctl_jbuf *b, const struct ras_db_row *row, const void *decoded,
		  const char *summary, const struct ctl_json_link *l);
/* A folded storm period's line (row->fold set), "\n" included. */
void ctl_json_fold(struct ctl_jbuf *b, const struct ras_db_row *row);

#endif
