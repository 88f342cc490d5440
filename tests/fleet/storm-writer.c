/* SPDX-License-Identifier: MIT */
/*
 * Test helper: stores COUNT mc_event records numbered FIRST.. into DB with
 * storm folding as rasd's default configuration has it (past 100 a DIMM in an
 * hour, the first and last 10 kept), in commits whose sizes a fixed SEED
 * draws (1 to 40 records: trickles whose rows fold after they were committed,
 * and batches that fold records never committed). Record n is at second
 * T0 + n, so a second names a record; its msg is "st-n". Most are one DIMM's
 * corrected errors (the storm), every fifth another DIMM's, every 97th an
 * uncorrected error (never folded). At the end the rows waiting to fold are
 * folded, as at rasd's stop, unless "nosettle" is given (a killed rasd).
 * "age" applies a raw-record age limit of two hours as well. "pace" says
 * "committed N" on stdout after each commit and waits for a line on stdin,
 * so that a test runs an export between two commits of one writer.
 *   storm-writer DB FIRST COUNT SEED [nosettle] [age] [pace]
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "lib/decode.h"
#include "lib/event_fields.h"

#define SEC 1000000000LL
#define T0 1767225600LL         /* 2026-01-01T00:00:00Z */

static struct ras_decode_ctx dctx;

static int store(struct ras_db *db, unsigned n, const struct ras_db_limits *limits)
{
	const struct ras_event_type *type = ras_event_type_find("mc_event");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	char label[32], msg[32];
	bool other = n % 5 == 2, uncorrected = n % 97 == 13;
	int64_t ints[][2] = {
		{ MC_F_ERROR_TYPE, uncorrected }, { MC_F_ERROR_COUNT, 1 + (n % 4 == 0) },
		{ MC_F_MC_INDEX, other }, { MC_F_TOP_LAYER, other ? (int64_t)(n % 3) : 1 },
		{ MC_F_MIDDLE_LAYER, 0 }, { MC_F_LOWER_LAYER, -1 },
		{ MC_F_ADDRESS, 0x12345000 + (int64_t)(n % 16) * 0x40 }, { MC_F_GRAIN_BITS, 6 },
		{ MC_F_SYNDROME, 0x10 + n % 3 },
	};
	struct ras_db_event ev = {
		.type_idx = (unsigned)(type - ras_event_types), .wall_ns = (T0 + n) * SEC + 12345,
		.trace_ts = n, .source = "live", .rec_hash = n, .values = v, .decoded = decoded,
		.limits = limits,
	};

	snprintf(label, sizeof(label), "DIMM_%c%lld", other ? 'B' : 'A', (long long)ints[3][1]);
	snprintf(msg, sizeof(msg), "st-%u", n);
	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		v[ints[k][0]] = (struct ras_value){ .present = true, .i = ints[k][1] };
	v[MC_F_MSG] = (struct ras_value){ .present = true, .p = msg, .len = (uint32_t)strlen(msg) };
	v[MC_F_LABEL] = (struct ras_value){ .present = true, .p = label, .len = (uint32_t)strlen(label) };
	v[MC_F_DRIVER_DETAIL] = (struct ras_value){ .present = true, .p = "", .len = 0 };
	ras_decode_values(type, v, &dctx, decoded);
	return ras_db_begin(db) < 0 || ras_db_insert_event(db, &ev) < 0 ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct ras_db_limits limits = {
		.fold_threshold = 100, .fold_period_ns = 3600 * SEC, .fold_keep = 10,
		.page_size = 4096,
	};
	struct ras_db *db;
	char err[1024];
	unsigned first, count, seed, left = 0;
	bool settle = true, pace = false;
	char line[64];

	if (argc < 5)
		return 2;
	first = (unsigned)strtoul(argv[2], NULL, 10);
	count = (unsigned)strtoul(argv[3], NULL, 10);
	seed = (unsigned)strtoul(argv[4], NULL, 10);
	for (int i = 5; i < argc; i++) {
		if (!strcmp(argv[i], "nosettle"))
			settle = false;
		else if (!strcmp(argv[i], "age"))
			limits.keep_raw_ns = 2 * 3600 * SEC;
		else if (!strcmp(argv[i], "pace"))
			pace = true;
	}
	if (ras_db_open_writer(&db, argv[1], "test-boot", err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	for (unsigned n = first; n < first + count; n++) {
		if (!left) {
			seed = seed * 1103515245u + 12345u;
			left = 1 + (seed >> 16) % 40;
		}
		if (store(db, n, &limits) < 0 || (--left == 0 && ras_db_commit(db) < 0)) {
			fprintf(stderr, "record %u: %s\n", n, ras_db_errmsg(db));
			return 1;
		}
		if (!left && pace) {
			printf("committed %u\n", n);
			fflush(stdout);
			if (!fgets(line, sizeof(line), stdin))
				pace = false;
		}
	}
	if ((left && ras_db_commit(db) < 0) || (settle && ras_db_fold_settle(db) < 0)) {
		fprintf(stderr, "commit: %s\n", ras_db_errmsg(db));
		return 1;
	}
	ras_db_close(db);
	return 0;
}
