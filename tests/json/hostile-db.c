/* SPDX-License-Identifier: MIT */
/*
 * Test helper: hostile-db PATH writes a ras-fdr database whose every text is
 * an attack on a terminal or a JSON reader (an OSC title and BEL, a screen
 * clear, a raw and a UTF-8 C1 CSI, a bidirectional override, quotes,
 * backslashes, a newline followed by a forged JSON line, invalid UTF-8) and
 * whose every register is extreme (all ones, 0xfffffffffffff000, 2^63,
 * 2^63 - 1), through the same functions rasd stores with: records of every
 * event type decoded by the real decoders, a lost-records row, an EDAC
 * topology, threshold decisions and buckets, and a flight-recorder snapshot
 * whose records carry a process name with escapes, and a crash of the boot
 * before whose every text and link is hostile too. test-json.py adds what
 * only SQL can make (NULs, folds, hostile column names) and reads it back
 * with every command.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "db/db_crashes.h"
#include "db/db_edac.h"
#include "db/db_snapshot.h"
#include "lib/decode.h"
#include "lib/event_table.h"
#include "lib/fdr_blob.h"

#define HOSTILE "\x1b]0;pwned\x07\x1b[2J\x9b" "31m\xc2\x9b" "1m \"q\" \\b\xe2\x80\xae\xff" \
	"\n{\"forged\":1}"
#define SHORT "\x1b[2J\"\\\n\xff"

static const char *const texts[] = { HOSTILE, SHORT "DIMM_A1", "caf\xc3\xa9 \x1b]8;;http://x\x1b\\" };
static const uint64_t regs[] = {
	UINT64_MAX, 0xfffffffffffff000ULL, 0x8000000000000001ULL, 0x7fffffffffffffffULL,
};

static void set_values(const struct ras_event_type *t, unsigned row, struct ras_value *v,
		       uint8_t *blob)
{
	for (unsigned i = 0; i < t->n_fields; i++) {
		const struct ras_field *f = &t->fields[i];

		v[i] = (struct ras_value){ .present = true };
		if (f->type == RAS_FT_TEXT) {
			v[i].p = texts[(row + i) % 3];
			v[i].len = (uint32_t)strlen(v[i].p);
		} else if (f->type == RAS_FT_BLOB) {
			v[i].p = blob;
			v[i].len = 32;
		} else if (f->flags & (RAS_F_HEX | RAS_F_WIDE)) {
			v[i].i = (int64_t)regs[(row + i) % 4];
		} else {
			/* Small fields get small values in one row, so the decoders go deep. */
			v[i].i = row ? (int64_t)regs[(row + i) % 4] : (int64_t)(i % 3) - 1;
		}
	}
}

static int insert_records(struct ras_db *db)
{
	static alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS];
	struct ras_decode_ctx *dctx = calloc(1, sizeof(*dctx));
	uint8_t blob[32];
	int r = 0;

	if (!dctx)
		return -1;
	ras_decode_ctx_init(dctx);
	memset(blob, 0xff, sizeof(blob));
	memcpy(blob, "\x1b[2J\n", 5);
	for (unsigned t = 0; t < ras_n_event_types && r == 0; t++) {
		for (unsigned row = 0; row < 2 && r == 0; row++) {
			struct ras_db_event ev = {
				.type_idx = t, .wall_ns = 1700000000000000000LL + t * 1000000000LL + row,
				.trace_ts = UINT64_MAX - row, .trace_cpu = (int)row,
				.source = row ? HOSTILE : "live", .synthetic = row == 1,
				.rec_hash = t * 2 + row, .values = v, .decoded = decoded,
			};

			set_values(&ras_event_types[t], row, v, blob);
			ras_decode_values(&ras_event_types[t], v, dctx, decoded);
			r = ras_db_insert_event(db, &ev) == 1 ? 0 : -1;
		}
	}
	free(dctx);
	return r;
}

static int insert_edac(struct ras_db *db)
{
	struct edac_dimm dimm = { .index = 0, .pos = { 0, 0, -1 }, .size_mb = UINT64_MAX / 2,
				  .csrow = -1, .cschannel = -1 };
	struct edac_mc mc = { .index = 0, .size_mb = 16384, .n_layers = 2, .layer_size = { 1, 1 },
			      .dimms = &dimm, .n_dimms = 1 };
	struct edac_topology t = { .mcs = &mc, .n_mcs = 1 };

	snprintf(mc.mc_name, sizeof(mc.mc_name), "%s", SHORT "IMC");
	snprintf(mc.max_location, sizeof(mc.max_location), "%s", SHORT "ch 0");
	snprintf(mc.layer_name[0], sizeof(mc.layer_name[0]), "%s", "\x1b[31mchannel");
	snprintf(mc.layer_name[1], sizeof(mc.layer_name[1]), "%s", "slot\n");
	snprintf(dimm.location, sizeof(dimm.location), "%s", SHORT "channel 0 slot 0");
	snprintf(dimm.label, sizeof(dimm.label), "%s", SHORT "DIMM_A1");
	snprintf(dimm.mem_type, sizeof(dimm.mem_type), "%s", "DDR\x1b[5m");
	return ras_db_edac_store_snapshot(db, &t, edac_topology_digest(&t), HOSTILE,
					  1700000000000000000LL);
}

static int insert_actions(struct ras_db *db)
{
	struct ras_db_action a = {
		.wall_ns = 1700000001000000000LL, .count = 11, .error = 5, .synthetic = true,
		.event_id = 1, .repeats = 1,
	};
	struct ras_db_bucket b = { .level = 9, .total = 12, .last_ns = 1700000001000000000LL };
	struct ras_db_actions *acts;
	int r;

	if (ras_db_actions_open(db, &acts) < 0 || ras_db_begin(db) < 0)
		return -1;
	snprintf(a.kind, sizeof(a.kind), "%s", "dimm\x1b[2J");
	snprintf(a.subject, sizeof(a.subject), "%s", HOSTILE);
	snprintf(a.threshold, sizeof(a.threshold), "%s", "10/1d\n");
	snprintf(a.action, sizeof(a.action), "%s", "soft\x9b");
	snprintf(a.target, sizeof(a.target), "%s", HOSTILE);
	snprintf(a.result, sizeof(a.result), "%s", "done\"}\n{");
	snprintf(a.event_table, sizeof(a.event_table), "%s", "mc_event\x07");
	r = ras_db_action_insert(acts, &a, false);
	if (r == 0)
		r = ras_db_bucket_put(acts, "dimm\x1b[2J", HOSTILE, &b, HOSTILE);
	if (r == 0)
		r = ras_db_actions_flush(acts);
	if (r == 0)
		r = ras_db_commit(db);
	ras_db_actions_close(acts);
	return r;
}

/* The sched_process_exit format of 6.x kernels (tests/fdr/test-fdr-offline.c). */
static const char exit_format[] =
	"sched\0name: sched_process_exit\nID: 369\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio,"
	" REC->group_dead ? \"true\" : \"false\"\n";

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";

/* One sub-buffer of two process exits; the names are what prctl(PR_SET_NAME) accepts. */
static void exit_page(uint8_t *page)
{
	static const char *const comms[] = { "\x1b]0;x\x07\x1b[2J\n", "\xc2\x9b" "6n\x9b" "1m" };
	uint64_t ts = 1000000000, commit = 80;

	for (unsigned i = 0; i < 2; i++) {
		uint8_t *ev = page + 16 + 40 * i;
		uint32_t head = 9u | (i ? 1000u : 0u) << 5, pid = 100 + i, prio = 120;

		memcpy(ev, &head, 4);
		ev[4] = 369 & 0xff;
		ev[5] = 369 >> 8;
		memcpy(ev + 8, &pid, 4);
		memcpy(ev + 12, comms[i], strlen(comms[i]));
		memcpy(ev + 28, &pid, 4);
		memcpy(ev + 32, &prio, 4);
		ev[36] = 1;
	}
	memcpy(page, &ts, 8);
	memcpy(page + 8, &commit, 8);
}

static int insert_snapshot(struct ras_db *db)
{
	static const char meta[] = "version=1\nclock=boot\noffset_ns=0\nlong_size=8\nbig_endian=0\n";
	static uint8_t page[4096];
	struct ras_snapshot s = { .wall_ns = 1700000002000000000LL, .trigger_row_id = 1,
				  .trigger_trace_ts = 1000001000, .trigger_wall_ns = 1700000002000000000LL,
				  .record_count = 2, .missed = -1, .ncpus = 1 };
	struct fdr_blob b;
	uint8_t *z = NULL;
	size_t zlen = 0;
	int64_t id;
	int r;

	fdr_blob_init(&b);
	fdr_blob_add(&b, FDR_SEC_META, 0, meta, strlen(meta));
	fdr_blob_add(&b, FDR_SEC_HEADER_PAGE, 0, header_page, strlen(header_page));
	fdr_blob_add(&b, FDR_SEC_FORMAT, 0, exit_format, sizeof(exit_format) - 1);
	exit_page(page);
	fdr_blob_add(&b, FDR_SEC_PAGES, 0, page, sizeof(page));
	r = b.err ? -1 : fdr_blob_compress(&b, &z, &zlen);
	snprintf(s.reason, sizeof(s.reason), "%s", HOSTILE);
	snprintf(s.trigger_table, sizeof(s.trigger_table), "%s", "mce_record\x1b[2J");
	snprintf(s.instance, sizeof(s.instance), "%s", "rasd_fdr\x07");
	s.data = z;
	s.data_len = zlen;
	s.raw_size = b.len;
	if (r == 0)
		r = ras_db_snapshot_insert(db, &s, &id);
	free(z);
	fdr_blob_free(&b);
	return r;
}

/* What killed the boot before: a kernel log's lines are anyone's text (a process name, a message). */
static int insert_crash(struct ras_db *db)
{
	static const char raw[] = "Oops#1 Part1\n<0>Kernel panic - not syncing: " HOSTILE "\n"
				  "CPU: 1 PID: 7 Comm: \x1b]0;x\x07\x1b[2J Not tainted\n";
	struct ras_db_crash c = {
		.crash_ns = 1700000003000000000LL, .uptime_ns = 5000000000LL, .backend = "erst" SHORT,
		.kind = "dmesg" SHORT, .dump_reason = "Panic" SHORT, .dump_count = 1, .parts = 1,
		.cause = "panic" SHORT, .reason = "Kernel panic - not syncing: " HOSTILE,
		.detail = HOSTILE, .hw_lines = "mce: " HOSTILE "\nmce: [Hardware Error]" SHORT,
		.files = "dmesg-erst-1" SHORT, .ident = 0xffffffffffffffffULL, .raw = raw,
		.raw_len = sizeof(raw) - 1,
	};
	int64_t boot, id;
	int r = ras_db_crash_boot(db, 0, 0, &boot);

	c.boot = boot;
	if (r == 0)
		r = ras_db_crash_insert(db, &c, &id);
	if (r == 0)
		r = ras_db_crash_link(db, id, "mce_record", 1, RAS_CRASH_LINK_LAST);
	if (r == 0)
		r = ras_db_crash_link(db, id, "gone" HOSTILE, 2, "last" SHORT);
	return r;
}

int main(int argc, char **argv)
{
	struct ras_db_lost lost = { .cpu = 3, .count = 7, .from_ns = 1700000000000000000LL,
				    .to_ns = 1700000000000000001LL, .origin = "stats",
				    .instance = "rasd\x1b[2J" };
	struct ras_db *db;
	char err[1024];
	int r;

	if (argc != 2)
		return 2;
	if (ras_db_open_writer(&db, argv[1], "boot-" HOSTILE, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	r = ras_db_begin(db);
	if (r == 0)
		r = insert_records(db);
	if (r == 0)
		r = ras_db_insert_lost(db, &lost);
	if (r == 0)
		r = insert_edac(db);
	if (r == 0)
		r = insert_crash(db);
	if (r == 0)
		r = ras_db_commit(db);
	if (r == 0)
		r = insert_actions(db);
	if (r == 0)
		r = insert_snapshot(db);
	if (r < 0)
		fprintf(stderr, "hostile-db: %s\n", ras_db_errmsg(db));
	ras_db_close(db);
	return r < 0 ? 1 : 0;
}
