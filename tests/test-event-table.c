/* SPDX-License-Identifier: MIT */
/*
 * The event table against the real format files: every field it names exists
 * (or is marked optional) with a compatible type, names are unique, and the
 * formats the project ships cover every entry that has a known format.
 */
#include <stdalign.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "db/db_internal.h"
#include "lib/decode.h"
#include "lib/formats.h"
#include "tap.h"
#include "test_util.h"

static bool type_compatible(const struct ras_field *rf, const struct tep_format_field *f)
{
	bool dyn = f->flags & TEP_FIELD_IS_DYNAMIC, arr = f->flags & TEP_FIELD_IS_ARRAY;

	switch (rf->type) {
	case RAS_FT_INT: return !dyn && !arr && f->size <= 8;
	case RAS_FT_TEXT: return strstr(f->type, "char") != NULL;
	default: return dyn || arr || f->size > 8;
	}
}

static void check_kernel(const char *kernel)
{
	struct ras_formats *fmt;
	char dir[1024];

	snprintf(dir, sizeof(dir), "%s/tests/formats/%s", test_srcdir(), kernel);
	if (!tap_ok(ras_formats_load(&fmt, dir, NULL, dir) == 0, "%s formats load", kernel))
		return;
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		const struct ras_type_format *tf = &fmt->type[i];

		if (!tf->event)
			continue;
		tap_ok(tf->state != RAS_FMT_MALFORMED, "%s %s:%s has every required field %s", kernel,
		       t->system, t->event, tf->problem);
		for (unsigned f = 0; f < t->n_fields; f++) {
			if (!tf->field[f])
				tap_ok(t->fields[f].flags & RAS_F_OPTIONAL, "%s %s.%s absent and optional",
				       kernel, t->event, t->fields[f].name);
			else
				tap_ok(type_compatible(&t->fields[f], tf->field[f]), "%s %s.%s type %s fits",
				       kernel, t->event, t->fields[f].name, tf->field[f]->type);
		}
	}
	tap_ok(fmt->raw_data || !strcmp(kernel, "linux-6.1"), "%s: ftrace:raw_data present", kernel);
	ras_formats_free(fmt);
}

static void check_table(void)
{
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		char name[128];

		tap_ok(t->n_fields > 0 && t->n_fields <= RAS_MAX_FIELDS, "%s has 1..%d fields", t->table,
		       RAS_MAX_FIELDS);
		tap_ok(strlen(t->message_id) == 32 && strspn(t->message_id, "0123456789abcdef") == 32,
		       "%s message id is 32 hex digits", t->table);
		snprintf(name, sizeof(name), "%s:%s", t->system, t->event);
		tap_ok(ras_event_type_find(name) == t && ras_event_type_find(t->table) == t,
		       "%s found by system:event and table name", t->table);
		for (unsigned j = 0; j < i; j++) {
			tap_ok(strcmp(ras_event_types[j].table, t->table) != 0 &&
			       strcmp(ras_event_types[j].message_id, t->message_id) != 0,
			       "%s and %s differ in table and message id", t->table, ras_event_types[j].table);
		}
		tap_ok(ras_db_column_count(i) > t->n_fields, "%s has common, raw and decoded columns",
		       t->table);
	}
	tap_ok(ras_event_type_find("memory_failure:memory_failure_event") != NULL,
	       "memory_failure_event also found under its newer system name");
	tap_ok(ras_event_type_find("ras:nope") == NULL, "unknown name not found");
}

/* Whether Makefile.am's shipped_formats lists path (so make install and dist carry it). */
static bool listed_in_makefile(const char *makefile, const char *path)
{
	const char *p = makefile;
	size_t n = strlen(path);

	while ((p = strstr(p, path)) != NULL) {
		if (p[n] == ' ' || p[n] == '\t' || p[n] == '\n' || p[n] == '\\' || !p[n])
			return true;
		p += n;
	}
	return false;
}

/*
 * Every row of the event table has a shipped format, listed for install, so
 * synthetic injection works on any kernel; the list is checked against the
 * table, not restated here.
 */
static void check_shipped(void)
{
	struct ras_formats *fmt;
	char dir[1024], path[1200], *makefile = NULL;

	snprintf(dir, sizeof(dir), "%s/formats", test_srcdir());
	snprintf(path, sizeof(path), "%s/Makefile.am", test_srcdir());
	tap_is_int(ras_read_file(path, &makefile, NULL), 0, "Makefile.am read");
	/* An empty tracing dir: everything comes from the shipped copies. */
	if (!tap_ok(ras_formats_load(&fmt, "/nonexistent", NULL, dir) == 0, "shipped formats load")) {
		free(makefile);
		return;
	}
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		const struct ras_type_format *tf = &fmt->type[i];

		snprintf(path, sizeof(path), "formats/%s/%s/format", t->system, t->event);
		tap_ok(makefile && listed_in_makefile(makefile, path), "%s in shipped_formats", path);
		tap_ok(tf->state == RAS_FMT_SHIPPED, "%s:%s shipped", t->system, t->event);
		for (unsigned f = 0; tf->event && f < t->n_fields; f++)
			tap_ok(tf->field[f] || (t->fields[f].flags & RAS_F_OPTIONAL),
			       "%s.%s in the shipped format or optional", t->event, t->fields[f].name);
	}
	tap_ok(fmt->raw_data != NULL, "ftrace:raw_data shipped");
	ras_formats_free(fmt);
	free(makefile);
}

/* A kernel whose mc_event lacks a required field: reported and skipped, never used. */
static void check_malformed(void)
{
	char dir[256], cmd[1400], *argv[] = { "sh", "-c", cmd, NULL };
	struct ras_formats *fmt;
	const struct ras_event_type *t = ras_event_type_find("ras:mc_event");

	test_tmpdir(dir, sizeof(dir));
	snprintf(cmd, sizeof(cmd),
		 "mkdir -p %s/events/ras/mc_event && cp %s/tests/formats/linux-6.18/header_page %s/events/ &&"
		 " grep -v 'char\\[\\] msg;' %s/tests/formats/linux-6.18/ras/mc_event/format"
		 " > %s/events/ras/mc_event/format",
		 dir, test_srcdir(), dir, test_srcdir(), dir);
	tap_is_int(test_run(argv, NULL), 0, "format without mc_event.msg written");
	if (tap_ok(ras_formats_load(&fmt, dir, NULL, NULL) == 0, "formats load despite it")) {
		const struct ras_type_format *tf = &fmt->type[t - ras_event_types];

		tap_is_int(tf->state, RAS_FMT_MALFORMED, "mc_event is marked malformed");
		tap_ok(strstr(tf->problem, "'msg'") != NULL, "and the missing field is named: %s", tf->problem);
		ras_formats_free(fmt);
	}
	test_rmtree(dir);
}

/*
 * Each summary location (struct ras_sumloc) names decoded strings the
 * database stores in a column of their own (so SQL builds the same key),
 * words without quotes, and fits RAS_SUMLOC_LEN at its longest, so the key
 * built in C is never cut where SQL's is not.
 */
static void check_sumloc(void)
{
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		size_t longest = RAS_LOCATION_LEN;
		bool ok = true;

		if (!t->sumloc)
			continue;
		ok &= !t->sumloc->cut || (*t->sumloc->cut && !strchr(t->sumloc->cut, '\''));
		for (unsigned k = 0; k < RAS_SUMLOC_PARTS && t->sumloc->parts[k].dfield; k++) {
			const struct ras_sumloc_part *p = &t->sumloc->parts[k];
			const struct ras_dfield *f = ras_event_dfield(t, p->dfield);

			ok &= f && f->type == RAS_DF_STR && ras_db_restated_raw(t, f) < 0 &&
			      !strchr(p->before, '\'');
			longest += strlen(p->before) + (f ? f->size - 1 : 0);
		}
		tap_ok(ok && longest <= RAS_SUMLOC_LEN, "%s summary location: stored decoded strings,"
		       " no quotes, at most %zu bytes", t->table, longest);
	}
}

/* What a summary counts a memory failure and a CXL DRAM error by, from their decoders. */
static void check_sumloc_words(void)
{
	const struct ras_event_type *mf = ras_event_type_find("memory_failure_event");
	const struct ras_event_type *cxl = ras_event_type_find("cxl_dram");
	const struct ras_event_type *mc = ras_event_type_find("mc_event");
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	struct ras_decode_ctx dctx = { 0 };
	alignas(16) uint8_t d[RAS_DECODED_MAX];
	char key[RAS_SUMLOC_LEN];

	v[ras_event_field_index(mf, "pfn")] = (struct ras_value){ .present = true, .i = 0x1234 };
	v[ras_event_field_index(mf, "type")] = (struct ras_value){ .present = true, .i = 3 };
	v[ras_event_field_index(mf, "result")] = (struct ras_value){ .present = true, .i = 3 };
	ras_decode_values(mf, v, &dctx, d);
	tap_is_str(ras_summary_location(mf, d, key, sizeof(key)), "memory page, type 3, recovery Recovered",
		"a memory failure is summarised by page type and result, not its page");
	memset(v, 0, sizeof(v));
	v[ras_event_field_index(cxl, "memdev")] = (struct ras_value){ .present = true, .p = "mem0", .len = 4 };
	v[ras_event_field_index(cxl, "host")] = (struct ras_value){ .present = true, .p = "cxl0", .len = 4 };
	v[ras_event_field_index(cxl, "dpa")] = (struct ras_value){ .present = true, .i = 0x40000 };
	ras_decode_values(cxl, v, &dctx, d);
	tap_ok(strstr(((struct ras_decoded_head *)d)->location, "DPA 0x40000") != NULL,
	       "the CXL DRAM location names its DPA: %s", ((struct ras_decoded_head *)d)->location);
	tap_is_str(ras_summary_location(cxl, d, key, sizeof(key)), "CXL mem0 (cxl0)",
		"its summary location is the device");
	strcpy(((struct ras_decoded_head *)d)->location, "mc0, layers 1:0");
	tap_ok(ras_summary_location(mc, d, key, sizeof(key)) == ((struct ras_decoded_head *)d)->location,
	       "other types are summarised by their own location");
}

int main(void)
{
	check_sumloc();
	check_sumloc_words();
	check_malformed();
	check_table();
	check_kernel("linux-6.1");
	check_kernel("linux-6.18");
	check_shipped();
	return tap_done();
}
