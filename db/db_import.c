/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl import rasdaemon. rasdaemon (0.6 to 0.8) keeps one SQLite
 * table per event, each with "id INTEGER PRIMARY KEY" and "timestamp TEXT"
 * ("%Y-%m-%d %H:%M:%S %z") followed by the event's fields, mostly under the
 * tracepoint's own names (ras-record.c). Each of its tables maps to one of
 * ours: a field takes the column of its own name unless a rename below says
 * otherwise; fields without a column stay NULL. The whole source row is kept
 * as JSON in imported_rows, so nothing rasdaemon said is lost (its texts,
 * such as an AER error's names, have no tracepoint field to go to). A table
 * whose rows are of two kinds maps once per kind, each with its rows chosen
 * (chosen_rows below).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "db_internal.h"
#include "db_import.h"
#include "db_snapshot.h"
#include "lib/decode.h"
#include "lib/json.h"
#include "decoders/aer.h"
#include "decoders/cper.h"
#include "lib/event_fields.h"

/* How a source column becomes a field value. */
enum conv {
	CV_SAME,       /* the value (a numeric text such as "0x1234" counts as a number) */
	CV_EDAC_TYPE,  /* "Corrected"... → enum hw_event_mc_err_type (include/linux/edac.h) */
	CV_AER_SEV,    /* "Uncorrected (Non-Fatal)"... → AER_NONFATAL 0, AER_FATAL 1, AER_CORRECTABLE 2 */
	CV_CPER_SEV,   /* CPER severity names → 0 recoverable, 1 fatal, 2 corrected, 3 informational */
	CV_MF_TYPE,    /* memory-failure page type name → the running kernel's MF_MSG_* value */
	CV_MF_RESULT,  /* "Ignored", "Failed", "Delayed", "Recovered" → enum mf_result */
	CV_DEV,        /* "major:minor" → the kernel's dev_t (major << 20 | minor) */
	CV_LEN_OF,     /* the length of a blob column */
	CV_AER_STATUS, /* rasdaemon's names of the AER status bits → the status register */
	CV_CXL_LOG,    /* "Informational", "Warning", "Failure", "Fatal" → CXL event log type */
	CV_TX_QUEUE,   /* "TX timeout on queue: N" → N */
};

struct rename {
	const char *field, *column;
	enum conv conv;
};

struct table_map {
	const char *src, *dst;
	struct rename renames[8];
};

/*
 * rasdaemon stores a NIC transmit timeout (net_dev_xmit_timeout) as a
 * devlink_event with empty bus and reporter names, the device's name in
 * dev_name, its driver in driver_name, and msg "TX timeout on queue: N".
 * coalesce(): a NULL column must not drop a row from both maps.
 */
#define TX_TIMEOUT_ROW "coalesce(bus_name, '') = '' AND coalesce(reporter_name, '') = ''" \
		       " AND coalesce(msg, '') LIKE 'TX timeout on queue: %'"

/*
 * rasdaemon's vendor tables: each row is rebuilt into the section it was
 * decoded from (decoders/cper_rebuild.c) and stored as that non_standard_event.
 */
#define VENDOR(name) { name, "non_standard_event", { { NULL, NULL, CV_SAME } } }

static const struct table_map maps[] = {
	{ "mc_event", "mc_event", {
		{ "error_count", "err_count", CV_SAME }, { "error_type", "err_type", CV_EDAC_TYPE },
		{ "msg", "err_msg", CV_SAME }, { "mc_index", "mc", CV_SAME },
		{ "grain_bits", "grain", CV_SAME } } },    /* rasdaemon stores grain_bits as "grain" */
	{ "aer_event", "aer_event", {
		{ "severity", "err_type", CV_AER_SEV }, { "status", "err_msg", CV_AER_STATUS } } },
	{ "extlog_event", "extlog_mem_event", {
		{ "err_seq", "error_count", CV_SAME }, { "sev", "severity", CV_SAME },
		{ "pa", "address", CV_SAME }, { "data", "cper_data", CV_SAME } } },
	{ "mce_record", "mce_record", { { NULL, NULL, CV_SAME } } },
	{ "arm_event", "arm_event", {
		{ "pei_buf", "err_info", CV_SAME }, { "pei_len", "err_info", CV_LEN_OF },
		{ "ctx_buf", "context_info", CV_SAME }, { "ctx_len", "context_info", CV_LEN_OF },
		{ "oem_buf", "vendor_info", CV_SAME }, { "oem_len", "vendor_info", CV_LEN_OF } } },
	{ "non_standard_event", "non_standard_event", {
		{ "sev", "severity", CV_CPER_SEV }, { "buf", "error", CV_SAME },
		{ "len", "error", CV_LEN_OF } } },
	{ "devlink_event", "devlink_health_report", { { NULL, NULL, CV_SAME } } },
	{ "devlink_event", "net_dev_xmit_timeout", {
		{ "name", "dev_name", CV_SAME }, { "driver", "driver_name", CV_SAME },
		{ "queue_index", "msg", CV_TX_QUEUE } } },
	{ "disk_errors", "block_rq_error", { { "dev", "dev", CV_DEV } } },
	{ "memory_failure_event", "memory_failure_event", {
		{ "type", "page_type", CV_MF_TYPE }, { "result", "action_result", CV_MF_RESULT } } },
	{ "cxl_poison_event", "cxl_poison", { { NULL, NULL, CV_SAME } } },
	{ "cxl_aer_ue_event", "cxl_aer_uncorrectable_error", { { "status", "error_status", CV_SAME } } },
	{ "cxl_aer_ce_event", "cxl_aer_correctable_error", { { "status", "error_status", CV_SAME } } },
	{ "cxl_overflow_event", "cxl_overflow", { { "log", "log_type", CV_CXL_LOG } } },
	{ "cxl_generic_event", "cxl_generic_event", { { "log", "log_type", CV_CXL_LOG } } },
	{ "cxl_general_media_event", "cxl_general_media", { { "log", "log_type", CV_CXL_LOG } } },
	{ "cxl_dram_event", "cxl_dram", { { "log", "log_type", CV_CXL_LOG } } },
	{ "cxl_memory_module_event", "cxl_memory_module", { { "log", "log_type", CV_CXL_LOG } } },
	/* Newer rasdaemons (after 0.8.5): the CXL sparing events named as its other CXL tables are. */
	{ "cxl_memory_sparing_event", "cxl_memory_sparing", { { "log", "log_type", CV_CXL_LOG } } },
	/* rasdaemon's SIGBUS of a memory failure (its own kernel filter; other signals kept too). */
	{ "signal_event", "signal_generate", {
		{ "errno", "errorno", CV_SAME }, { "group", "grp", CV_SAME },
		{ "result", "res", CV_SAME } } },
	VENDOR("hip08_oem_type1_event_v2"), VENDOR("hip08_oem_type2_event_v2"),
	VENDOR("hip08_pcie_local_event_v2"), VENDOR("hisi_common_section_v2"),
	VENDOR("yitian_ddr_reg_dump_event"), VENDOR("jm_payload0_event"),
	VENDOR("nvidia_ns_event"), VENDOR("nvidia_vera_ns_event"),
	VENDOR("amp_payload0_event"), VENDOR("amp_payload1_event"),
	VENDOR("amp_payload2_event"), VENDOR("amp_payload3_event"),
};

/* The largest value a rasdaemon row holds is a CPER section of a few KiB. */
#define FOREIGN_MAX_VALUE (1 << 20)
/* The maps that take only some rows of their source table (SQL of this file); others take all. */
static const struct {
	const char *src, *dst, *where;
} chosen_rows[] = {
	{ "devlink_event", "devlink_health_report", "NOT (" TX_TIMEOUT_ROW ")" },
	{ "devlink_event", "net_dev_xmit_timeout", TX_TIMEOUT_ROW },
};

static const char *rows_of(const struct table_map *map)
{
	for (size_t i = 0; i < sizeof(chosen_rows) / sizeof(chosen_rows[0]); i++)
		if (!strcmp(chosen_rows[i].src, map->src) && !strcmp(chosen_rows[i].dst, map->dst))
			return chosen_rows[i].where;
	return NULL;
}

static const char schema_imported[] =
	"CREATE TABLE IF NOT EXISTS imported_rows ("
	" origin TEXT NOT NULL, src_table TEXT NOT NULL, src_id INTEGER NOT NULL,"
	" src_time TEXT NOT NULL, dst_table TEXT, dst_id INTEGER, details TEXT,"
	" PRIMARY KEY (origin, src_table, src_id, src_time));";

/* Names matched case-insensitively by prefix, in value order. */
static int name_index(const char *text, const char *const *names, int n)
{
	for (int i = 0; text && i < n; i++)
		if (!strncasecmp(text, names[i], strlen(names[i])))
			return i;
	return -1;
}

static bool parse_number(const char *s, int64_t *out)
{
	char *end;

	if (!s || !*s)
		return false;
	errno = 0;
	*out = (int64_t)strtoull(s, &end, 0);
	if (*s == '-')
		*out = strtoll(s, &end, 0);
	return errno == 0 && *end == 0;
}

static int64_t convert_text(enum conv conv, const char *t, const struct ras_decode_ctx *dctx)
{
	static const char *const edac[] = { "Corrected", "Uncorrected", "Deferred", "Fatal", "Info" };
	/* "Uncorrected (Fatal)" is tested before the non-fatal prefix. */
	static const char *const aer_fatal[] = { "Uncorrected (Fatal)", "Fatal" };
	static const char *const cper[] = { "Recoverable", "Fatal", "Corrected", "Info" };
	static const char *const mf_result[] = { "Ignored", "Failed", "Delayed", "Recovered" };
	/* CXL r3.1 8.2.9.2.2 Get Event Records: the event log types, in value order. */
	static const char *const cxl_log[] = { "Informational", "Warning", "Failure", "Fatal" };
	unsigned maj, min;
	int queue;

	switch (conv) {
	case CV_EDAC_TYPE: return name_index(t, edac, 5);
	case CV_AER_SEV:
		if (name_index(t, aer_fatal, 2) >= 0)
			return 1;
		return !strncasecmp(t, "Corrected", 9) ? 2 : !strncasecmp(t, "Uncorrected", 11) ? 0 : -1;
	case CV_CPER_SEV: return name_index(t, cper, 4);
	case CV_MF_RESULT: return name_index(t, mf_result, 4);
	case CV_CXL_LOG: return name_index(t, cxl_log, 4);
	case CV_DEV: return sscanf(t, "%u:%u", &maj, &min) == 2 ? (int64_t)maj << 20 | min : -1;
	case CV_TX_QUEUE: return t && sscanf(t, "TX timeout on queue: %d", &queue) == 1 ? queue : -1;
	case CV_MF_TYPE:
		for (size_t i = 0; dctx && dctx->have_memfail && i < dctx->memfail.n_types; i++)
			if (!strcasecmp(t, dctx->memfail.types[i].name))
				return dctx->memfail.types[i].value;
		return -1;
	default: return -1;
	}
}

static int column_of(sqlite3_stmt *st, const char *name)
{
	for (int c = 0; c < sqlite3_column_count(st); c++)
		if (!strcmp(sqlite3_column_name(st, c), name))
			return c;
	return -1;
}

/*
 * The status register from the names of its bits (PCIe r6.0 7.8.4.2 and
 * 7.8.4.5, the names Linux prints). Longer names are matched first and
 * blanked, so "Poisoned TLP Egress Blocked" is not also "Poisoned TLP".
 */
static int64_t aer_status_from_names(sqlite3_stmt *st, const char *msg)
{
	int type_col = column_of(st, "err_type");
	const char *type = type_col >= 0 ? (const char *)sqlite3_column_text(st, type_col) : NULL;
	int correctable = type && !strncasecmp(type, "Corrected", 9);
	char copy[1024];
	int64_t status = 0;

	snprintf(copy, sizeof(copy), "%s", msg ? msg : "");
	for (size_t len = 64; len > 0; len--) {
		for (unsigned bit = 0; bit < 32; bit++) {
			const char *name = aer_status_bit_name(bit, correctable);
			char *at;

			if (!name || strlen(name) != len || !(at = strstr(copy, name)))
				continue;
			status |= (int64_t)1 << bit;
			memset(at, '#', len);
		}
	}
	return status ? status : -1;
}

/* One field's value from its source column; absent when there is nothing to say. */
static void convert(sqlite3_stmt *st, int col, enum conv conv, const struct ras_field *f,
		    const struct ras_decode_ctx *dctx, struct ras_value *v)
{
	int type = sqlite3_column_type(st, col);
	/* Only a text is read as text: converting a blob would move the bytes another field points to. */
	const char *text = type == SQLITE_TEXT ? (const char *)sqlite3_column_text(st, col) : NULL;

	memset(v, 0, sizeof(*v));
	if (type == SQLITE_NULL)
		return;
	if (conv == CV_LEN_OF) {
		v->present = true;
		v->i = sqlite3_column_bytes(st, col);
		return;
	}
	if (conv == CV_AER_STATUS) {
		v->i = aer_status_from_names(st, text);
		v->present = v->i >= 0;
		return;
	}
	if (conv != CV_SAME) {
		v->i = type == SQLITE_INTEGER ? sqlite3_column_int64(st, col) : convert_text(conv, text, dctx);
		v->present = v->i >= 0;
		return;
	}
	if (f->type == RAS_FT_INT) {
		v->present = type == SQLITE_INTEGER ? (v->i = sqlite3_column_int64(st, col), true)
						    : parse_number(text, &v->i);
		return;
	}
	if (f->type == RAS_FT_BLOB && type != SQLITE_BLOB)
		return;   /* a text where the kernel has bytes (CXL UUIDs as text): kept in details */
	v->present = true;
	v->p = f->type == RAS_FT_BLOB ? sqlite3_column_blob(st, col) : text ? (const void *)text
		: (const void *)sqlite3_column_text(st, col);
	v->len = (uint32_t)sqlite3_column_bytes(st, col);
}


static void fill_values(sqlite3_stmt *st, const struct table_map *map,
			const struct ras_event_type *type, const struct ras_decode_ctx *dctx,
			struct ras_value *values)
{
	for (unsigned i = 0; i < type->n_fields; i++) {
		const char *column = type->fields[i].name;
		enum conv conv = CV_SAME;

		for (size_t r = 0; r < 8 && map->renames[r].field; r++) {
			if (!strcmp(map->renames[r].field, column)) {
				column = map->renames[r].column;
				conv = map->renames[r].conv;
				break;
			}
		}
		convert(st, column_of(st, column), conv, &type->fields[i], dctx, &values[i]);
	}
}

/* rasdaemon's "2024-03-01 10:00:00 +0100"; a time without a zone is taken as UTC. */
static int64_t parse_timestamp(const char *s)
{
	struct tm tm = { 0 };
	const char *end;
	long off = 0;

	if (!s || !(end = strptime(s, "%Y-%m-%d %H:%M:%S", &tm)))
		return 0;
	while (*end == ' ')
		end++;
	if ((*end == '+' || *end == '-') && strlen(end) >= 5) {
		int hh = (end[1] - '0') * 10 + (end[2] - '0'), mm = (end[3] - '0') * 10 + (end[4] - '0');

		off = (hh * 3600L + mm * 60L) * (*end == '-' ? -1 : 1);
	}
	return ((int64_t)timegm(&tm) - off) * 1000000000;
}

/*
 * The source row as a JSON object; blobs as hex. Column names and texts are
 * the source file's: every key and string goes through the one encoder, so
 * a crafted column name cannot add keys or end the object. Caller frees.
 */
static char *row_json(sqlite3_stmt *st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	putc('{', f);
	for (int c = 0; c < sqlite3_column_count(st); c++) {
		const unsigned char *p;
		const char *name = sqlite3_column_name(st, c);
		int n = sqlite3_column_bytes(st, c);
		double d;

		if (c)
			putc(',', f);
		ras_json_key(f, name ? name : "");
		switch (sqlite3_column_type(st, c)) {
		case SQLITE_INTEGER: fprintf(f, "%lld", (long long)sqlite3_column_int64(st, c)); break;
		case SQLITE_FLOAT:
			/* JSON has no infinity: say it in a string. */
			d = sqlite3_column_double(st, c);
			fprintf(f, isfinite(d) ? "%.17g" : "\"%g\"", d);
			break;
		case SQLITE_NULL: fputs("null", f); break;
		case SQLITE_BLOB:
			p = sqlite3_column_blob(st, c);
			putc('"', f);
			for (int i = 0; p && i < n; i++)
				fprintf(f, "%02x", p[i]);
			putc('"', f);
			break;
		default:
			p = sqlite3_column_text(st, c);
			ras_json_string(f, (const char *)p, p ? (size_t)n : 0);
		}
	}
	putc('}', f);
	fclose(f);
	return buf;
}

struct import_run {
	struct ras_db *db;
	struct ras_decode_ctx *dctx;
	int64_t boot;
	sqlite3_stmt *claim, *link;
	struct ras_value values[RAS_MAX_FIELDS];
	uint8_t guid[16], section[2048];   /* a vendor row's section, rebuilt */
	uint8_t decoded[RAS_DECODED_MAX] __attribute__((aligned(16)));
};

/*
 * A vendor table's row: the section rebuilt from its columns, as the
 * non_standard_event that carried it (no FRU; the severity where the row
 * says it, else absent). A row that does not rebuild keeps its GUID and no
 * bytes; imported_rows keeps every column all the same.
 */
static void fill_vendor(struct import_run *run, sqlite3_stmt *st, const struct table_map *map,
			const struct ras_event_type *type)
{
	struct cper_rebuild_col cols[48];
	int n = sqlite3_column_count(st), len;
	uint8_t sev = 0xff;

	if (n > 48)
		n = 48;
	for (int c = 0; c < n; c++) {
		int t = sqlite3_column_type(st, c);

		cols[c] = (struct cper_rebuild_col){ .name = sqlite3_column_name(st, c) };
		if (t == SQLITE_INTEGER) {
			cols[c].is_int = true;
			cols[c].i = sqlite3_column_int64(st, c);
		} else if (t == SQLITE_BLOB) {
			cols[c].blob = sqlite3_column_blob(st, c);
			cols[c].blob_len = (size_t)sqlite3_column_bytes(st, c);
		} else if (t == SQLITE_TEXT) {
			cols[c].text = (const char *)sqlite3_column_text(st, c);
		}
	}
	memset(run->guid, 0, sizeof(run->guid));
	len = cper_rebuild_rasdaemon(map->src, cols, (size_t)n, run->guid, &sev, run->section,
				     sizeof(run->section));
	for (unsigned i = 0; i < type->n_fields; i++)
		memset(&run->values[i], 0, sizeof(run->values[i]));
	run->values[NONSTD_F_SEC_TYPE] = (struct ras_value){ .present = true, .p = run->guid, .len = 16 };
	run->values[NONSTD_F_LEN] = (struct ras_value){ .present = true, .i = len > 0 ? len : 0 };
	run->values[NONSTD_F_BUF] = (struct ras_value){ .present = true, .p = run->section,
							.len = len > 0 ? (uint32_t)len : 0 };
	if (sev != 0xff)
		run->values[NONSTD_F_SEV] = (struct ras_value){ .present = true, .i = sev };
}

/* Stores one source row unless an earlier import did. 1 stored, 0 present, -errno. */
static int import_row(struct import_run *run, sqlite3_stmt *src, const struct table_map *map,
		      unsigned type_idx)
{
	const struct ras_event_type *type = &ras_event_types[type_idx];
	int ts_col = column_of(src, "timestamp"), id_col = column_of(src, "id");
	const char *stamp = ts_col >= 0 ? (const char *)sqlite3_column_text(src, ts_col) : NULL;
	int64_t src_id = id_col >= 0 ? sqlite3_column_int64(src, id_col) : 0;
	struct ras_db_event ev = {
		.type_idx = type_idx, .wall_ns = parse_timestamp(stamp), .trace_ts = (uint64_t)src_id,
		.trace_cpu = -1, .source = "imported", .boot = run->boot,
		.rec_hash = (uint64_t)src_id, .values = run->values, .decoded = run->decoded,
	};
	char *details;
	int r;

	sqlite3_bind_text(run->claim, 1, map->src, -1, SQLITE_STATIC);
	sqlite3_bind_int64(run->claim, 2, src_id);
	sqlite3_bind_text(run->claim, 3, stamp ? stamp : "", -1, SQLITE_TRANSIENT);
	r = sqlite3_step(run->claim);
	sqlite3_reset(run->claim);
	if (r != SQLITE_DONE)
		return -EIO;
	if (sqlite3_changes(run->db->h) == 0)
		return 0;
	if (cper_rebuild_knows(map->src))
		fill_vendor(run, src, map, type);
	else
		fill_values(src, map, type, run->dctx, run->values);
	/* Machine checks and the rest decode exactly as live records do. */
	ras_decode_values(type, run->values, run->dctx, run->decoded);
	if (ras_db_insert_event(run->db, &ev) < 0)
		return -EIO;
	details = row_json(src);
	sqlite3_bind_text(run->link, 1, map->dst, -1, SQLITE_STATIC);
	sqlite3_bind_int64(run->link, 2, ras_db_last_row_id(run->db));
	sqlite3_bind_text(run->link, 3, details, -1, free);
	sqlite3_bind_text(run->link, 4, map->src, -1, SQLITE_STATIC);
	sqlite3_bind_int64(run->link, 5, src_id);
	sqlite3_bind_text(run->link, 6, stamp ? stamp : "", -1, SQLITE_TRANSIENT);
	r = sqlite3_step(run->link);
	sqlite3_reset(run->link);
	return r == SQLITE_DONE ? 1 : -EIO;
}

/* An ordinary table of that name: a view or a virtual table is not read. */
static bool source_has_table(sqlite3 *src, const char *table)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(src, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
			       " AND sql LIKE 'CREATE TABLE %'", -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

/* A table or a view of that name, of any kind. */
static bool source_has_name(sqlite3 *src, const char *name)
{
	sqlite3_stmt *st;
	bool found;

	if (sqlite3_prepare_v2(src, "SELECT 1 FROM sqlite_master WHERE name = ?"
			       " AND type IN ('table', 'view')", -1, &st, NULL) != SQLITE_OK)
		return false;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static int import_table(struct import_run *run, sqlite3 *src, const struct table_map *map,
			struct ras_import_count *c, char *err, size_t errlen)
{
	const struct ras_event_type *type = ras_event_type_find(map->dst);
	const char *where = rows_of(map);
	char sql[320];
	sqlite3_stmt *st;
	int r = 0, step, n;

	if (!type)
		return -EINVAL;
	/* The source names and conditions come from the table above, never from the file. */
	n = snprintf(sql, sizeof(sql), "SELECT * FROM \"%s\"%s%s ORDER BY rowid", map->src,
		     where ? " WHERE " : "", where ? where : "");
	if (n < 0 || (size_t)n >= sizeof(sql)) {
		snprintf(err, errlen, "%s: the query does not fit", map->src);
		return -EIO;
	}
	if (sqlite3_prepare_v2(src, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", map->src, sqlite3_errmsg(src));
		return -EIO;
	}
	while ((step = sqlite3_step(st)) == SQLITE_ROW) {
		c->rows++;
		r = import_row(run, st, map, (unsigned)(type - ras_event_types));
		if (r < 0) {
			c->failed++;
			break;
		}
		if (r)
			c->imported++;
		else
			c->present++;
	}
	/* A row the source cannot give (damaged, past FOREIGN_MAX_VALUE) fails the import. */
	if (r >= 0 && step != SQLITE_DONE) {
		c->failed++;
		snprintf(err, errlen, "%s: %s", map->src, sqlite3_errmsg(src));
		r = -EIO;
	}
	sqlite3_finalize(st);
	return r < 0 ? r : 0;
}

static int import_boot(struct ras_db *db, int64_t *boot)
{
	sqlite3_stmt *st;
	int r = -EIO;

	/* rasdaemon records no boot id: every imported row belongs to this one boots row. */
	if (ras_db_exec(db, "INSERT OR IGNORE INTO boots (boot_id, first_seen_ns)"
			" VALUES ('imported:rasdaemon', 0)") < 0 ||
	    sqlite3_prepare_v2(db->h, "SELECT id FROM boots WHERE boot_id = 'imported:rasdaemon'",
			       -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*boot = sqlite3_column_int64(st, 0);
		r = 0;
	}
	sqlite3_finalize(st);
	return r;
}

/* Tables of the source that no map covers are reported too, as not imported. */
static void report_unknown(sqlite3 *src, ras_import_report_fn report, void *ctx)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(src, "SELECT name FROM sqlite_master WHERE type = 'table'"
			       " AND name NOT LIKE 'sqlite_%' ORDER BY name", -1, &st, NULL) != SQLITE_OK)
		return;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		struct ras_import_count c = { .src_table = name };
		bool known = false;

		for (size_t i = 0; i < sizeof(maps) / sizeof(maps[0]); i++)
			known |= !strcmp(maps[i].src, name);
		if (!known)
			report(ctx, &c);
	}
	sqlite3_finalize(st);
}

static int prepare_run(struct import_run *run, char *err, size_t errlen)
{
	if (ras_db_exec(run->db, schema_imported) < 0 || import_boot(run->db, &run->boot) < 0 ||
	    sqlite3_prepare_v2(run->db->h, "INSERT OR IGNORE INTO imported_rows"
			       " (origin, src_table, src_id, src_time) VALUES ('rasdaemon', ?, ?, ?)",
			       -1, &run->claim, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(run->db->h, "UPDATE imported_rows SET dst_table = ?, dst_id = ?,"
			       " details = ? WHERE origin = 'rasdaemon' AND src_table = ? AND src_id = ?"
			       " AND src_time = ?", -1, &run->link, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s", ras_db_errmsg(run->db));
		return -EIO;
	}
	return 0;
}

/* A regular file (not a FIFO, a device or a directory) that begins with SQLite's header. */
static int check_foreign_file(const char *path, char *err, size_t errlen)
{
	static const char magic[16] = "SQLite format 3";
	char head[sizeof(magic)];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		close(fd);
		return -EINVAL;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, magic, sizeof(magic))) {
		snprintf(err, errlen, "%s: not an SQLite database", path);
		return -EINVAL;
	}
	return 0;
}

/* "file:PATH?mode=ro", the path percent-encoded so that '?', '#' and '%' in it stay the path's. */
static char *foreign_uri(const char *path)
{
	static const char keep[] = "/-._~";
	char *uri = malloc(5 + 3 * strlen(path) + 9), *p = uri;

	if (!uri)
		return NULL;
	p += sprintf(p, "file:");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++)
		p += isalnum(*c) || strchr(keep, *c) ? sprintf(p, "%c", *c) : sprintf(p, "%%%02X", *c);
	sprintf(p, "?mode=ro");
	return uri;
}

/*
 * Another program's database is anyone's file, handed to root. It is opened
 * read-only (no hot journal rolled back, no -wal or -shm made beside it),
 * with SQLite's defensive settings: no writes to the schema, functions in
 * its schema (views, triggers, defaults, generated columns) limited to the
 * harmless ones, triggers and views off, no extension loading, a page's
 * cells checked against its size, and values of at most FOREIGN_MAX_VALUE
 * bytes (a larger one fails the import instead of filling memory).
 */
static int open_foreign(const char *path, sqlite3 **out, char *err, size_t errlen)
{
	char *uri;
	sqlite3 *src = NULL;
	int r;

	if (check_foreign_file(path, err, errlen) < 0)
		return -EINVAL;
	uri = foreign_uri(path);
	if (!uri)
		return -ENOMEM;
	ras_db_sqlite_setup();
	r = sqlite3_open_v2(uri, &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (r == SQLITE_OK &&
	    (sqlite3_db_config(src, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL) != SQLITE_OK ||
	     sqlite3_db_config(src, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL) != SQLITE_OK ||
	     sqlite3_db_config(src, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL) != SQLITE_OK ||
	     sqlite3_db_config(src, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL) != SQLITE_OK ||
	     sqlite3_db_config(src, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL) != SQLITE_OK))
		r = SQLITE_ERROR;
	if (r == SQLITE_OK) {
		sqlite3_limit(src, SQLITE_LIMIT_LENGTH, FOREIGN_MAX_VALUE);
		sqlite3_limit(src, SQLITE_LIMIT_ATTACHED, 0);
		r = sqlite3_exec(src, "PRAGMA query_only = ON; PRAGMA cell_size_check = ON;"
				 " PRAGMA mmap_size = 0; SELECT count(*) FROM sqlite_master",
				 NULL, NULL, NULL);
	}
	if (r != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", path, src ? sqlite3_errmsg(src) : "out of memory");
		sqlite3_close(src);
		return -EINVAL;
	}
	*out = src;
	return 0;
}

int ras_db_import_rasdaemon(struct ras_db *db, const char *path, struct ras_decode_ctx *dctx,
			    ras_import_report_fn report, void *ctx, char *err, size_t errlen)
{
	struct import_run *run = calloc(1, sizeof(*run));
	sqlite3 *src = NULL;
	int r = 0;

	if (!run)
		return -ENOMEM;
	run->db = db;
	run->dctx = dctx;
	if (open_foreign(path, &src, err, errlen) < 0) {
		free(run);
		return -EINVAL;
	}
	if (!source_has_table(src, "mc_event")) {
		/* Every rasdaemon database has mc_event: rasdaemon creates it first. */
		snprintf(err, errlen, "%s: %s", path, sqlite3_errcode(src) != SQLITE_OK ?
			 sqlite3_errmsg(src) : "not a rasdaemon database (no mc_event table)");
		sqlite3_close(src);
		free(run);
		return -EINVAL;
	}
	if (ras_db_begin(db) < 0 || prepare_run(run, err, errlen) < 0)
		r = -EIO;
	for (size_t i = 0; r == 0 && i < sizeof(maps) / sizeof(maps[0]); i++) {
		struct ras_import_count c = { .src_table = maps[i].src, .dst_table = maps[i].dst };

		if (!source_has_table(src, maps[i].src)) {
			/* A view or a virtual table runs the file's own code: not read, and said. */
			c.not_a_table = source_has_name(src, maps[i].src);
			if (c.not_a_table)
				report(ctx, &c);
			continue;
		}
		r = import_table(run, src, &maps[i], &c, err, errlen);
		report(ctx, &c);
	}
	if (r == 0)
		report_unknown(src, report, ctx);
	sqlite3_finalize(run->claim);
	sqlite3_finalize(run->link);
	if (r == 0 && ras_db_commit(db) < 0)
		r = -EIO;
	if (r < 0 && db->in_txn) {
		/* All or nothing: a failed import leaves the database as it was. */
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		db->in_txn = false;
	}
	if (r < 0 && !err[0])
		snprintf(err, errlen, "%s", ras_db_errmsg(db));
	sqlite3_close(src);
	free(run);
	return r;
}
