/* SPDX-License-Identifier: MIT */
/*
 * A held record's fold columns computed in C (db/db_fold_row.c) against the
 * SQL that folds a stored row (db_fold.c table_sql, over <table>_decoded).
 * One varied stream (bench/stream.c: machine checks, EDAC, PCIe, platform
 * records, every field varied) goes through rasd twice: from its own
 * instance, where a
 * storm's records are held and folded in C, and from the boot instance,
 * whose records may be duplicates, so are stored and folded by SQL. The
 * folds rows must be the same, column by column, but for the source and the
 * times (each run converts the trace clock to wall time anew, a few
 * nanoseconds apart).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench/stream.h"
#include "lib/event_table.h"
#include "tap.h"
#include "test_util.h"

#define STREAM 6000
#define EXTLOG_STORM 600

/*
 * Corrected extlog records on four pages of two DIMMs, the rest of each
 * record varied: a table without a metrics subject, folded by the same
 * generic path (the bench stream's extlog records are all on different
 * pages, so never storm). Half name their DIMM (validation bits node, card,
 * module, bank, row: folded per DIMM), half only the address (per page).
 * They come after the stream has named more subjects in the hour than rasd
 * has slots for (db_fold.c subject_slot): they fold only because the
 * one-offs give up their slots.
 */
static int add_extlog_storm(struct fake_tree *t, long i0, uint64_t *seed)
{
	static const uint64_t pages[] = { 0x12345000, 0x12346000, 0x7f0000000, 0x7f0001000 };
	char text[5][160], *assign[5];
	uint8_t rec[512];

	for (long i = i0; i < i0 + EXTLOG_STORM; i++) {
		unsigned r = (unsigned)((*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL) >> 33);
		bool dimm = i % 2;
		int len;

		snprintf(text[0], sizeof(text[0]), "err_seq=%ld", i);
		snprintf(text[1], sizeof(text[1]), "etype=%u", 2 + r % 12);
		snprintf(text[2], sizeof(text[2]), "sev=2");
		snprintf(text[3], sizeof(text[3]), "pa=0x%llx",
			 (unsigned long long)(pages[r % 4] + (r >> 8) % 64 * 64));
		/* validation bits, node 1, card 0|1, module 3, bank 5, device 0, row r */
		snprintf(text[4], sizeof(text[4]),
			 "data=%s0100%02x000300050000%02x%02x%0*d", dimm ? "7801000000000000" : "0000000000000000",
			 r % 4 / 2, (r >> 4) & 0xff, (r >> 12) & 3, 2 * (55 - 20), 0);
		for (int k = 0; k < 5; k++)
			assign[k] = text[k];
		if ((len = fake_record(t, "ras:extlog_mem_event", assign, 5, rec, sizeof(rec))) < 0 ||
		    fake_add(t, (unsigned)(i % t->ncpus), 1000000000ULL + (uint64_t)i * 1000, rec,
			     (uint32_t)len) < 0)
			return -1;
	}
	return 0;
}

/* The stream in instance name of a new tree under dir; 0 or -1. */
static int build(struct fake_tree *t, const char *instance)
{
	char formats[1024];
	uint64_t seed = 0x9e3779b97f4a7c15ULL;

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(t, formats, 2, "rasd", "boot") < 0)
		return -1;
	if (strcmp(instance, "rasd") && fake_tree_instance(t, instance, "boot") < 0)
		return -1;
	for (long i = 0; i < STREAM; i++)
		if (bench_stream_add(t, i, &seed) < 0)
			return -1;
	if (add_extlog_storm(t, STREAM, &seed) < 0)
		return -1;
	return fake_tree_finish(t);
}

static int run(const char *tree, const char *dir, const char *name)
{
	char rasd[1024], conf[600], db[600], lock[600], log[600];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", (char *)tree, "--db", db,
			 "--lock-dir", lock, "--once", NULL };
	FILE *f;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(conf, sizeof(conf), "%s/%s.conf", dir, name);
	snprintf(db, sizeof(db), "%s/%s.db", dir, name);
	snprintf(lock, sizeof(lock), "%s/lock-%s", dir, name);
	snprintf(log, sizeof(log), "%s/%s.log", dir, name);
	if (!(f = fopen(conf, "we")))
		return -1;
	fprintf(f, "fold_threshold = 8/1h\nfold_keep = 2\nboot_instance = rasd_boot\n");
	fclose(f);
	return test_run(argv, log);
}

static const char folds_sql[] =
	"SELECT tbl, subject, hour, boot, synthetic, severity, location, dec, dims, fresh, records,"
	" errors, addr_lo, addr_hi, detail_name, hex(details), details_more, length(times), ekey"
	" FROM folds ORDER BY tbl, subject, hour, location, dec, dims, fresh, ekey";

/* The folds rows of db as text, one line each; NULL on error. */
static char *folds_text(const char *db, long *rows)
{
	sqlite3 *h = NULL;
	sqlite3_stmt *st = NULL;
	size_t cap = 1 << 20, n = 0;
	char *out = malloc(cap);

	*rows = 0;
	if (!out || sqlite3_open_v2(db, &h, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, folds_sql, -1, &st, NULL) != SQLITE_OK) {
		sqlite3_close(h);
		free(out);
		return NULL;
	}
	out[0] = '\0';
	while (out && sqlite3_step(st) == SQLITE_ROW) {
		for (int c = 0; out && c < sqlite3_column_count(st); c++) {
			const char *v = (const char *)sqlite3_column_text(st, c);
			size_t need = (v ? strlen(v) : 4) + 2;
			char *grown;

			while (n + need >= cap) {
				if (!(grown = realloc(out, cap *= 2))) {
					free(out);
					out = NULL;
					break;
				}
				out = grown;
			}
			if (out)
				n += (size_t)snprintf(out + n, cap - n, "%s%c", v ? v : "NULL",
						      c + 1 < sqlite3_column_count(st) ? '|' : '\n');
		}
		(*rows)++;
	}
	sqlite3_finalize(st);
	sqlite3_close(h);
	return out;
}

/* The first line where a and b differ, for the diagnostic. */
static void show_difference(const char *a, const char *b)
{
	while (*a && *b) {
		const char *ea = strchr(a, '\n'), *eb = strchr(b, '\n');

		if (!ea || !eb || ea - a != eb - b || memcmp(a, b, (size_t)(ea - a))) {
			tap_diag("held:   %.*s", ea ? (int)(ea - a) : (int)strlen(a), a);
			tap_diag("stored: %.*s", eb ? (int)(eb - b) : (int)strlen(b), b);
			return;
		}
		a = ea + 1;
		b = eb + 1;
	}
}

int main(void)
{
	struct fake_tree held, stored;
	char dir[256], db[600];
	char *a, *b;
	long ra, rb;

	test_tmpdir(dir, sizeof(dir));
	tap_ok(build(&held, "rasd") == 0, "stream written to rasd's own instance");
	tap_ok(build(&stored, "rasd_boot") == 0, "the same stream written to the boot instance");
	tap_is_int(run(held.root, dir, "held"), 0, "rasd folds the held records");
	tap_is_int(run(stored.root, dir, "stored"), 0, "rasd folds the stored records");
	snprintf(db, sizeof(db), "%s/held.db", dir);
	a = folds_text(db, &ra);
	snprintf(db, sizeof(db), "%s/stored.db", dir);
	b = folds_text(db, &rb);
	tap_ok(a && b && ra > 100, "%ld folds rows from held records, %ld from stored ones", ra, rb);
	tap_is_int(test_sql_int(db, "SELECT count(DISTINCT tbl) FROM folds"), 4,
		   "folds of mc_event, mce_record and aer_event (each with its metrics subject)"
		   " and extlog_mem_event (none)");
	tap_is_int(test_sql_int(db, "SELECT count(DISTINCT substr(subject, 1, 4)) FROM folds"
				" WHERE tbl = 'extlog_mem_event'"), 2, "extlog folded per DIMM and per page");
	tap_ok(test_sql_int(db, "SELECT count(*) FROM folds WHERE tbl = 'mce_record'"
				" AND subject LIKE 'bank %'") > 0 &&
	       test_sql_int(db, "SELECT count(*) FROM folds WHERE tbl = 'mce_record'"
				" AND subject LIKE 'page %'") == 0,
	       "machine-check memory errors, every page new, fold under their bank");
	if (!tap_ok(a && b && !strcmp(a, b), "every folds row the same, column by column") && a && b)
		show_difference(a, b);
	free(a);
	free(b);
	fake_tree_destroy(&held);
	fake_tree_destroy(&stored);
	test_rmtree(dir);
	return tap_done();
}
