/* SPDX-License-Identifier: MIT */
/*
 * A folded record packed again in a fresh chunk (db/db_insert.c
 * defer_folded): with storm folding on and a writer thread, the event loop
 * packs a record's job straight into the writer thread's chunk being filled
 * (ras_db_defer_vals_room, ras_db_fold_pack, ras_db_defer_vals_put); when it
 * does not fit the rest of the chunk, the chunk is handed over and the
 * record packed again at the start of the next. A stream of six DIMMs'
 * mc_event records of every size (their texts as long as the kernel's, so
 * that jobs of every size meet a chunk's end; some carry their decoded
 * struct, which the second packing must carry too) is stored with the
 * writer thread, and the same stream without it.
 *
 * The writer thread is held inside a job (tests/writer_fixture.c) while a
 * batch's records are packed: it runs nothing and never waits for work, so
 * no chunk is handed over early (db_writer.c job_done) and where each chunk
 * ends depends on the records alone, not on the machine's speed. Around each
 * record the test reads the event loop's own side of the queue (chunks
 * handed over, the bytes of the chunk being filled; db_writer_internal.h):
 * a record packed in place is one job after the last, within the chunk; a
 * record packed again leaves the chunk it did not fit as it was (its bytes
 * of the failed try not counted), hands it over, and is the first job of the
 * next. Every chunk handed over while the records are packed must be so, and
 * many must be. Then both databases hold the same rows, table by table.
 */
#include <sqlite3.h>
#include <stdalign.h>
#include <stdio.h>
#include <string.h>
#include "db/db.h"
#include "db/db_fold.h"
#include "db/db_internal.h"
#include "db/db_writer_internal.h"
#include "decoders/edac.h"
#include "lib/decode.h"
#include "lib/event_fields.h"
#include "tap.h"
#include "test_util.h"
#include "writer_fixture.h"

#define SEC 1000000000LL
#define HOUR (3600 * SEC)
#define DIMMS 6
#define BATCH 4000
#define BATCHES 4
/*
 * A DIMM's label at most (a subject's key the roll-ups keep in memory:
 * db_metrics.c writes a longer one at once, a job of its own).
 */
#define LABEL_MAX 180
/* A DIMM's grains, a decoding each. */
#define GRAINS 60
/* An hour's start: fixed, so nothing depends on the clock. */
#define T0 (472223LL * 3600 * SEC)

static char dir[256];
static struct ras_decode_ctx dctx;
static const struct ras_db_limits limits = {
	.fold_threshold = 40, .fold_period_ns = HOUR, .fold_keep = 3, .page_size = 4096,
};

/* A number of record i's, spread over 0..n - 1 and unlike its neighbours'. */
static unsigned spread(unsigned i, unsigned salt, unsigned n)
{
	uint32_t x = (i + salt * 0x9e3779b9u) * 2654435761u;

	x ^= x >> 15;
	x *= 2246822519u;
	x ^= x >> 13;
	return x % n;
}

/* n bytes of text for record i. */
static void fill(char *out, unsigned i, unsigned n)
{
	for (unsigned k = 0; k < n; k++)
		out[k] = (char)('a' + (i + k) % 26);
	out[n] = 0;
}

/*
 * Record i: DIMM (i % DIMMS), one each 300 ms (a batch over an hour's end),
 * its texts of every length the kernel hands over (the driver detail up to
 * 1,023 bytes, the message up to 255; the DIMMs' labels from 7 to 180: a
 * job of some 100 to 1,700 bytes, more when it carries its decoding), its
 * grain one of GRAINS (a decoding each, so some records carry theirs).
 */
static int insert(struct ras_db *db, unsigned i)
{
	const struct ras_event_type *type = ras_event_type_find("mc_event");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	char detail[EDAC_DETAIL_MAX], msg[EDAC_MSG_MAX], label[EDAC_LABEL_MAX];
	unsigned dimm = i % DIMMS;
	int64_t ints[][2] = {
		{ MC_F_ERROR_TYPE, spread(i, 4, 8) == 0 }, { MC_F_ERROR_COUNT, 1 + i % 3 }, { MC_F_MC_INDEX, 0 },
		{ MC_F_TOP_LAYER, dimm }, { MC_F_MIDDLE_LAYER, 0 }, { MC_F_LOWER_LAYER, -1 },
		{ MC_F_ADDRESS, 0x4000 + 0x40 * (int64_t)i }, { MC_F_GRAIN_BITS, spread(i, 1, GRAINS) },
		{ MC_F_SYNDROME, i % 5 },
	};
	struct ras_db_event ev = {
		.type_idx = (unsigned)(type - ras_event_types), .wall_ns = T0 + (int64_t)i * 300000000,
		.trace_ts = i, .source = "live", .rec_hash = i, .values = v, .decoded = decoded,
		.limits = &limits,
	};
	int n = snprintf(label, sizeof(label), "DIMM_%u ", dimm);

	fill(detail, i, spread(i, 2, sizeof(detail)));
	fill(msg, i, spread(i, 3, sizeof(msg)));
	fill(label + n, dimm, (LABEL_MAX - (size_t)n) * dimm / (DIMMS - 1));
	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		v[ints[k][0]] = (struct ras_value){ .present = true, .i = ints[k][1] };
	v[MC_F_MSG] = (struct ras_value){ .present = true, .p = msg, .len = (uint32_t)strlen(msg) };
	v[MC_F_LABEL] = (struct ras_value){ .present = true, .p = label, .len = (uint32_t)strlen(label) };
	v[MC_F_DRIVER_DETAIL] = (struct ras_value){ .present = true, .p = detail, .len = (uint32_t)strlen(detail) };
	ras_decode_values(type, v, &dctx, decoded);
	return ras_db_insert_event(db, &ev);
}

/* What the records of the held batches did to the queue. */
struct seen {
	unsigned in_place, again, again_decoded, odd;
	size_t least_left, most_left;   /* a chunk's bytes left when a record did not fit them */
	size_t most_spare;              /* the most of them past its job (the packer asks for more) */
};

/* The chunk's job at off: its head, and whether it is one folded record's (JOB_CALLV of mc_event). */
static bool folded_job_at(const struct wb_chunk *c, size_t off, struct job_head *h)
{
	/* Nothing there (the writer thread let go, a chunk run and freed): not one. */
	if (!c->buf || off + sizeof(*h) > c->len)
		return false;
	memcpy(h, c->buf + off, sizeof(*h));
	return h->kind == JOB_CALLV && h->idx == (uint16_t)(ras_event_type_find("mc_event") - ras_event_types);
}

/* Record i inserted, what it did to the queue noted in *s: 0 or -1. */
static int insert_seen(struct ras_db *db, unsigned i, struct seen *s)
{
	struct ras_db_wb *wb = db->wb;
	uint64_t sent = wb->submitted;
	const struct wb_chunk *was = &wb->chunk[sent % WB_CHUNKS], *now;
	size_t before = was->len;
	struct job_head h;

	if (insert(db, i) != 1)
		return -1;
	now = &wb->chunk[wb->submitted % WB_CHUNKS];
	if (wb->submitted == sent && now->len > before && now->len <= WB_CHUNK_BYTES &&
	    folded_job_at(now, before, &h) && h.len == now->len - before) {
		s->in_place++;
	} else if (wb->submitted == sent + 1 && before > 0 && was->len == before &&
		   folded_job_at(now, 0, &h) && h.len == now->len) {
		const void *decoded;
		unsigned idx;
		uint64_t sig;
		size_t left = WB_CHUNK_BYTES - before;

		s->again++;
		ras_db_fold_packed_of(now->buf + sizeof(h), &idx, &sig, &decoded);
		s->again_decoded += decoded != NULL;
		s->least_left = left < s->least_left ? left : s->least_left;
		s->most_left = left > s->most_left ? left : s->most_left;
		/*
		 * It did not fit: what was left is less than its job, or than the
		 * little more the packer asks for (db_fold_job.c: room for the
		 * longest key; db_hold_pack.c: an integer's 9 bytes for each value
		 * yet to come): well under 1,024 bytes more.
		 */
		if (left > h.len && left - h.len > s->most_spare)
			s->most_spare = left - h.len;
		if (left >= h.len + 1024)
			s->odd++;
	} else {
		s->odd++;
	}
	return 0;
}

/*
 * Batch b: its first record before the writer thread is held (folding made
 * ready: that syncs), its second to settle where the holding jobs left the
 * chunk being filled (handed over early or not), the rest seen one by one.
 */
static int store_batch(struct ras_db *db, unsigned b, bool behind, struct seen *s)
{
	unsigned i = b * BATCH, end = (b + 1) * BATCH;
	int r = ras_db_begin(db);

	if (r < 0 || insert(db, i++) != 1)
		return -1;
	if (!behind) {
		while (i < end)
			if (insert(db, i++) != 1)
				return -1;
		return ras_db_commit(db);
	}
	if (writer_hold_start(db) < 0 || insert(db, i++) != 1)
		return -1;
	while (i < end && r == 0)
		r = insert_seen(db, i++, s);
	if (!writer_hold_release())
		r = -1;
	return r < 0 ? r : ras_db_commit(db);
}

static int store(const char *path, bool behind, struct seen *s)
{
	struct ras_db *db = open_db(path, behind);
	int r = 0;

	if (!db)
		return -1;
	for (unsigned b = 0; b < BATCHES && r == 0; b++)
		r = store_batch(db, b, behind, s);
	ras_db_close(db);
	return r;
}

int main(void)
{
	static const char *const tables[] = {
		"mc_event", "mc_event_dec", "folds", "fold_growth", "rollup_hourly", "rollup_totals",
		"rollup_edac", "rollup_subjects",
	};
	struct seen s = { .least_left = WB_CHUNK_BYTES }, none = s;
	char plain[512], behind[512];
	unsigned observed = BATCHES * (BATCH - 2);

	test_tmpdir(dir, sizeof(dir));
	ras_decode_ctx_init(&dctx);
	snprintf(plain, sizeof(plain), "%s/inline.db", dir);
	snprintf(behind, sizeof(behind), "%s/behind.db", dir);
	tap_is_int(store(plain, false, &none), 0, "%d batches stored without the writer thread", BATCHES);
	tap_is_int(store(behind, true, &s), 0, "%d batches stored with the writer thread, held while packed",
		   BATCHES);
	tap_is_int(s.in_place + s.again, observed,
		   "each record seen is one folded record's job: %u packed in place, %u packed again", s.in_place,
		   s.again);
	tap_is_int(s.odd, 0, "no chunk handed over but by a record that did not fit it");
	tap_ok(s.again >= 20,
	       "records packed again in a fresh chunk: %u (%u carrying their decoding), the chunk's"
	       " bytes left %zu to %zu, at most %zu past the job", s.again, s.again_decoded, s.least_left,
	       s.most_left, s.most_spare);
	tap_ok(s.again_decoded > 0 && s.again_decoded < s.again,
	       "packed again with and without their decoding: %u and %u", s.again_decoded,
	       s.again - s.again_decoded);
	tap_ok(test_sql_int(behind, "SELECT count(*) FROM mc_event") > 0 &&
	       test_sql_int(behind, "SELECT sum(records) FROM folds") > 0,
	       "the storms folded: %lld raw rows, %lld records folded",
	       (long long)test_sql_int(behind, "SELECT count(*) FROM mc_event"),
	       (long long)test_sql_int(behind, "SELECT sum(records) FROM folds"));
	tap_is_int(test_sql_int(behind, "SELECT (SELECT count(*) FROM mc_event) + (SELECT sum(records) FROM folds)"),
		   BATCH * BATCHES, "raw rows and folded records add up to every record");
	for (size_t t = 0; t < sizeof(tables) / sizeof(tables[0]); t++)
		tap_is_int(differing(behind, plain, tables[t]), 0, "%s the same as without the writer thread",
			   tables[t]);
	test_rmtree(dir);
	return tap_done();
}
