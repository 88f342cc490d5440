/* SPDX-License-Identifier: MIT */
/*
 * The diagnosis's work at each commit is what the commit changed (issue 39):
 * rasd judges every part a batch touched at each commit, and the words of a
 * verdict (its why: formatted counts, a fault described) were most of that.
 * Counted through rasd_health_work, never timed: a commit whose records add
 * no cell and change no verdict classifies nothing and writes no words; the
 * words are written when a flush reads them. And the parts judged over many
 * commits end as the same parts judged at once: verdict, rule, why, the row.
 */
#include <stdio.h>
#include <string.h>
#include "rasd/health_internal.h"
#include "lib/config.h"
#include "tests/tap.h"

#define WARM_COMMITS 8
#define QUIET_COMMITS 50
#define T0 1000000000000LL

enum { DIMM, CACHE, PCIE, N_PARTS };

static const struct { enum diag_kind kind; const char *key; } parts[N_PARTS] = {
	{ DIAG_K_DIMM, "mc0 0:1:-1" }, { DIAG_K_CACHE, "cpu 3 L2 cache" }, { DIAG_K_PCIE, "0000:3b:00.0" },
};

/* Observation i of part k: a DIMM's new cell on one row, a cache's corrected error, a device's uncorrected one. */
static struct diag_obs obs_of(int k, int i)
{
	struct diag_obs o;

	memset(&o, 0, sizeof(o));
	o.wall_ns = T0 + (int64_t)i * 1000000;
	o.n = 1;
	o.sev = k == PCIE ? RAS_SEV_UNCORRECTED : RAS_SEV_CORRECTED;
	if (k == DIMM) {
		diag_dram_clear(&o.dram);
		o.flags = DIAG_OBS_COORDS;
		o.dram.rank = 1;
		o.dram.bank_group = 2;
		o.dram.bank = 3;
		o.dram.row = 0x1a2b;
		o.dram.column = 8 * i;   /* a new cell each time */
	}
	return o;
}

static void hold(struct rasd_health *h, int k, int i)
{
	struct diag_obs o = obs_of(k, i);
	uint32_t part = (uint32_t)health_part(h, parts[k].kind, parts[k].key, false, true);

	/* No event table's type: no mark. */
	health_hold(h, part, RAS_MAX_EVENT_TYPES, 0, &o);
}

static struct rasd_health *open_health(struct rasd_config *cfg)
{
	struct rasd_health *h = NULL;

	rasd_config_defaults(cfg);
	if (rasd_health_open(&h, cfg, NULL, NULL) < 0 || !h)
		return NULL;
	return h;
}

/* What a flush writes of part k (its verdict's time aside: it depends on the commits). */
static void row_of(struct rasd_health *h, int k, struct ras_db_part *row)
{
	int slot = health_part(h, parts[k].kind, parts[k].key, false, false);

	memset(row, 0, sizeof(*row));
	if (slot >= 0)
		health_entry_row(h, h->slot[slot], row, NULL);
	row->since_ns = 0;
}

/* Observations [0, n) of the stream: WARM_COMMITS of every part, then the cache's and the device's. */
static void hold_stream(struct rasd_health *h, int from, int to)
{
	for (int j = from; j < to && j < WARM_COMMITS; j++) {
		for (int k = 0; k < N_PARTS; k++)
			hold(h, k, j);
		hold(h, CACHE, 1000 + j);
	}
	for (int j = from > WARM_COMMITS ? from : WARM_COMMITS; j < to; j++) {
		hold(h, CACHE, j);
		hold(h, PCIE, j);
	}
}

/* Each part as h1 (many commits) and h2 (at once) would write it. */
static void compare(struct rasd_health *h1, struct rasd_health *h2)
{
	for (int k = 0; k < N_PARTS; k++) {
		struct ras_db_part r1, r2;

		row_of(h1, k, &r1);
		row_of(h2, k, &r2);
		tap_is_str(r1.verdict, r2.verdict, "%s: the verdict over many commits is the one judged at once",
			   parts[k].key);
		tap_is_str(r1.rule, r2.rule, "%s: the rule too", parts[k].key);
		tap_is_str(r1.why, r2.why, "%s: and the why", parts[k].key);
		tap_ok(r1.records && !strcmp(r1.mode, r2.mode) && r1.records == r2.records &&
		       r1.cells == r2.cells && r1.rows == r2.rows && r1.banks == r2.banks &&
		       r1.ranks == r2.ranks && r1.permanent == r2.permanent &&
		       r1.corrected == r2.corrected && r1.uncorrected == r2.uncorrected,
		       "%s: and its row (%lld records, mode '%s')", parts[k].key, (long long)r1.records,
		       r1.mode);
	}
}

/*
 * Errors at cells that are kept already (issue 39's follow-up): a commit that
 * adds no cell still changes the faults' errors and times, the order of the
 * faults (more errors is worse) and so the fault the why describes. Two row
 * faults: bank 0's leads with 5 errors to bank 1's 4; then bank 1's cells
 * take 12 more, bank 0's one.
 */
#define MEM_KEY "mc1 0:0:-1"

static void hold_cell(struct rasd_health *h, int bank, int column, int t, int n)
{
	struct diag_obs o;
	uint32_t part = (uint32_t)health_part(h, DIAG_K_DIMM, MEM_KEY, false, true);

	memset(&o, 0, sizeof(o));
	o.wall_ns = T0 + (int64_t)t * 1000000;
	o.n = n;
	o.sev = RAS_SEV_CORRECTED;
	o.flags = DIAG_OBS_COORDS;
	diag_dram_clear(&o.dram);
	o.dram.rank = 0;
	o.dram.bank_group = 0;
	o.dram.bank = bank;
	o.dram.row = 0x40;
	o.dram.column = 8 * column;
	o.dram.bit = 5;
	health_hold(h, part, RAS_MAX_EVENT_TYPES, 0, &o);
}

static void hold_new_cells(struct rasd_health *h)
{
	for (int col = 0; col < 4; col++) {
		hold_cell(h, 0, col, col, 1);
		hold_cell(h, 1, col, 10 + col, 1);
	}
	hold_cell(h, 0, 0, 20, 1);
}

static void hold_known_cells(struct rasd_health *h)
{
	for (int col = 0; col < 4; col++)
		hold_cell(h, 1, col, 30 + col, 3);
	hold_cell(h, 0, 1, 40, 1);
}

static struct part_entry *mem_entry(struct rasd_health *h)
{
	int slot = health_part(h, DIAG_K_DIMM, MEM_KEY, false, false);

	return slot >= 0 ? h->slot[slot] : NULL;
}

static void known_cells(void)
{
	struct rasd_config cfg3, cfg4;
	struct rasd_health *h3 = open_health(&cfg3), *h4 = open_health(&cfg4);
	struct rasd_health_work w0, w1;
	struct part_entry *e3, *e4;
	char why3[sizeof(e3->why)];
	bool same = true;

	if (!tap_ok(h3 && h4, "two more diagnoses open"))
		return;
	hold_new_cells(h3);
	rasd_health_committed(h3);
	health_judge_pending(h3);
	e3 = mem_entry(h3);
	snprintf(why3, sizeof(why3), "%s", health_why(h3, e3));
	e3->faults_changed = false;    /* as the flush's write of its faults leaves it */
	rasd_health_work(h3, &w0);
	hold_known_cells(h3);
	rasd_health_committed(h3);
	health_judge_pending(h3);
	rasd_health_work(h3, &w1);
	hold_new_cells(h4);
	hold_known_cells(h4);
	rasd_health_committed(h4);
	e4 = mem_entry(h4);
	tap_ok(e3->cells->n == 8 && e4->cells->n == 8 && e3->cells->n_faults == e4->cells->n_faults,
	       "errors at known cells: %u faults over commits, %u at once", e3->cells->n_faults,
	       e4->cells->n_faults);
	for (unsigned i = 0; i < e3->cells->n_faults && i < e4->cells->n_faults; i++) {
		const struct diag_fault *a = &e3->cells->fault[i], *b = &e4->cells->fault[i];

		same = same && a->mode == b->mode && a->bank == b->bank && a->errors == b->errors &&
		       a->first_ns == b->first_ns && a->last_ns == b->last_ns && a->cells == b->cells;
		tap_diag("fault %u: bank %d, %lld errors, last %lld (at once: bank %d, %lld errors, last %lld)",
			 i, a->bank, (long long)a->errors, (long long)a->last_ns, b->bank,
			 (long long)b->errors, (long long)b->last_ns);
	}
	tap_ok(same, "the stored faults (part_faults: errors, times, order) are those judged at once");
	tap_ok(e3->faults_changed, "and they are marked to be written again");
	tap_is_str(health_why(h3, e3), health_why(h4, e4), "the why is the one judged at once");
	tap_ok(strcmp(why3, health_why(h3, e3)), "and it changed from the first commit's");
	tap_ok(w1.classified == w0.classified,
	       "a commit adding errors at known cells classified %llu times (want 0)",
	       (unsigned long long)(w1.classified - w0.classified));
	rasd_health_close(h3, false);
	rasd_health_close(h4, false);
}

/* The packing as the first health_coords_put wrote it, a coordinate at a time: the reference. */
static size_t coords_put_ref(uint8_t *out, const int64_t *v)
{
	uint16_t mask[2] = { 0, 0 };
	size_t n = sizeof(mask);

	for (unsigned i = 0; i < 16; i++) {
		int32_t narrow = (int32_t)v[i];

		if (v[i] == RAS_DF_NONE)
			continue;
		mask[0] |= (uint16_t)(1u << i);
		if (narrow == v[i]) {
			memcpy(out + n, &narrow, sizeof(narrow));
			n += sizeof(narrow);
		} else {
			mask[1] |= (uint16_t)(1u << i);
			memcpy(out + n, &v[i], sizeof(v[i]));
			n += sizeof(v[i]);
		}
	}
	memcpy(out, mask, sizeof(mask));
	return n;
}

/*
 * A held observation's coordinates packed and read back as they were: none,
 * narrow, negative and wider than 32 bits (a 4-byte copy of a wide one would
 * come back cut), and each a byte string of the size it says.
 */
static void coords_round_trip(void)
{
	static const int64_t edge[] = {
		0, 1, -2, 0x1a2b, INT32_MAX, INT32_MIN, (int64_t)INT32_MAX + 1, (int64_t)INT32_MIN - 1,
		(int64_t)1 << 32, ((int64_t)1 << 32) + 1, INT64_MAX, INT64_MIN + 1, -((int64_t)1 << 40),
	};
	const size_t n_edge = sizeof(edge) / sizeof(edge[0]);
	uint8_t buf[4 + sizeof(struct diag_dram) + 8], ref[sizeof(buf)];
	unsigned bad = 0, total = 0, differ = 0;

	for (size_t start = 0; start < n_edge; start++) {
		for (unsigned known = 0; known < 1u << 16; known += 4099) {
			struct diag_dram d, back;
			int64_t v[sizeof(d) / sizeof(int64_t)];
			size_t put, got;

			for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
				v[i] = known & (1u << i) ? edge[(start + i) % n_edge] : RAS_DF_NONE;
			memcpy(&d, v, sizeof(d));
			memset(buf, 0xa5, sizeof(buf));
			put = health_coords_put(buf, &d);
			got = health_coords_get(buf, &back);
			bad += put != got || put > 4 + sizeof(d) || memcmp(&d, &back, sizeof(d)) != 0;
			/* Byte for byte what the coordinate-at-a-time packing wrote. */
			differ += coords_put_ref(ref, v) != put || memcmp(ref, buf, put) != 0;
			total++;
		}
	}
	tap_ok(bad == 0, "held coordinates come back as held: %u of %u sets differ (none, narrow, negative, "
	       "wider than 32 bits)", bad, total);
	tap_ok(differ == 0, "and packed as the coordinate-at-a-time packing did: %u of %u differ", differ,
	       total);
}

int main(void)
{
	struct rasd_config cfg1, cfg2;
	struct rasd_health *h1 = open_health(&cfg1), *h2 = open_health(&cfg2);
	struct rasd_health_work w0, w1, w2;
	struct ras_db_part row;
	const int n = WARM_COMMITS + QUIET_COMMITS;

	if (!tap_ok(h1 && h2, "the diagnosis opens without a database"))
		return tap_done();
	/* Many commits, as a storm's small groups: new cells, a cache past its rate, a device's errors. */
	for (int c = 0; c < WARM_COMMITS; c++) {
		hold_stream(h1, c, c + 1);
		rasd_health_committed(h1);
	}
	/* A flush classifies what waits and reads every why. */
	health_judge_pending(h1);
	for (int k = 0; k < N_PARTS; k++)
		row_of(h1, k, &row);
	rasd_health_work(h1, &w0);
	/* Commits that add no cell and change no verdict: judged, nothing classified, no words. */
	for (int c = WARM_COMMITS; c < n; c++) {
		hold_stream(h1, c, c + 1);
		rasd_health_committed(h1);
	}
	rasd_health_work(h1, &w1);
	tap_ok(w1.decided - w0.decided == 2 * QUIET_COMMITS && w1.classified == w0.classified &&
	       w1.worded == w0.worded,
	       "%d commits without a new cell or verdict: %llu parts judged, %llu classified, %llu whys "
	       "written (want %d, 0, 0)", QUIET_COMMITS, (unsigned long long)(w1.decided - w0.decided),
	       (unsigned long long)(w1.classified - w0.classified),
	       (unsigned long long)(w1.worded - w0.worded), 2 * QUIET_COMMITS);

	/* The same observations, counted and judged at once. */
	hold_stream(h2, 0, n);
	rasd_health_committed(h2);
	health_judge_pending(h1);
	health_judge_pending(h2);
	compare(h1, h2);
	rasd_health_work(h1, &w1);
	rasd_health_work(h2, &w2);
	tap_ok(w1.worded - w0.worded == N_PARTS - 1,
	       "the flush's reads write the whys that waited: %llu (want %d: the DIMM's did not change)",
	       (unsigned long long)(w1.worded - w0.worded), N_PARTS - 1);
	tap_ok(w2.decided == N_PARTS && w2.classified == 1,
	       "judged at once: %llu parts judged, %llu classified (want %d, 1)",
	       (unsigned long long)w2.decided, (unsigned long long)w2.classified, N_PARTS);
	rasd_health_close(h1, false);
	rasd_health_close(h2, false);
	known_cells();
	coords_round_trip();
	return tap_done();
}
