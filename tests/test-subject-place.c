/* SPDX-License-Identifier: MIT */
/*
 * An EDAC record's place ("mc0 2:0:-1", the DIMM's key and the start of its
 * row's) is found in its thread's cache, its label measured once for the
 * record's feeds, a row's small numbers written without a call
 * (lib/subject.c). The subjects must be those of the general way, every
 * place built at its record: here on random mc_event records whose
 * controller and layers change from record to record (few of them, so places
 * come back, in slots other places took meanwhile; and any int64, the edges
 * too), with labels empty, short and past the subject's size, and details
 * of every spelling with numbers small and large; in the main thread and in
 * a second one, each with its own cache. The keys and labels are also
 * checked against printf's spelling of the same numbers and text.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "decoders/dfield.h"
#include "decoders/edac.h"
#include "diag/dram.h"
#include "lib/event_table.h"
#include "lib/subject.h"
#include "rng.h"
#include "tap.h"

#define RUNS 4000

/* A layer or controller number: mostly a few, so places repeat; sometimes any. */
static int64_t place_number(uint64_t *r)
{
	static const int64_t edge[] = { RAS_DF_NONE, -1, -2, 0, 9, 10, 99, 100, INT64_MAX,
					INT64_MIN + 1, 123456789012345LL };

	if (rng_next(r) % 4)
		return (int64_t)(rng_next(r) % 4);
	return edge[rng_next(r) % (sizeof(edge) / sizeof(edge[0]))];
}

/* A DRAM number as a detail spells it: small mostly, -1 to past two digits. */
static long long small(uint64_t *r)
{
	static const long long edge[] = { 0, 9, 10, 99, 100, 101, 4095, 65536, 2147483647LL };

	if (rng_next(r) % 3)
		return (long long)(rng_next(r) % 16);
	return edge[rng_next(r) % (sizeof(edge) / sizeof(edge[0]))];
}

static void detail_of(uint64_t *r, char *buf, size_t len)
{
	static const long long edge_rows[] = { 0, 1, 15, 16, 255, 256, 0xffff, 0x10000 };
	long long a = small(r), b = small(r), c = small(r), row = (long long)(rng_next(r) % 0x40000);

	if (rng_next(r) % 4 == 0)
		row = edge_rows[rng_next(r) % (sizeof(edge_rows) / sizeof(edge_rows[0]))];

	switch (rng_next(r) % 5) {
	case 0:
		snprintf(buf, len, " socket:0 imc:1 rank:%lld bg:%lld ba:%lld row:0x%llx col:0x3f8", a, b,
			 c, row);
		break;
	case 1:
		snprintf(buf, len, " err_code:0x0000:0x009f PhysicalRankId:%lld Row:0x%llx Column:0x8 "
			 "Bank:0x%llx BankGroup:0x%llx", a, row, c, b);
		break;
	case 2:
		snprintf(buf, len, "APEI location: node:%lld card:%lld module:%lld rank:%lld "
			 "bank_group:%lld bank_address:%lld row:%lld", small(r), small(r), small(r), a, b,
			 c, row);
		break;
	case 3:
		snprintf(buf, len, "APEI location: node:%lld rank:%lld bank:%lld row:%lld", small(r), a,
			 c, row);
		break;
	default:
		snprintf(buf, len, "rasfdr_testmod");
		break;
	}
}

static void record_of(uint64_t *r, struct edac_decoded *d, char *detail, size_t len)
{
	static char long_label[400];
	static const char *const labels[] = { "", "DIMM_B1", "CPU_SrcID#0_MC#1_Chan#2_DIMM#0",
					      long_label };
	const char *label = labels[rng_next(r) % 4];
	struct edac_in in = {
		.error_type = EDAC_ERR_CORRECTED, .msg = "memory read error", .msg_len = 17,
		.error_count = (uint16_t)(rng_next(r) % 3), .address = (int64_t)(rng_next(r) >> 16),
		.grain_bits = (uint8_t)(rng_next(r) % 14), .driver_detail = detail,
	};

	memset(long_label, 'L', sizeof(long_label) - 1);
	detail_of(r, detail, len);
	in.driver_detail_len = strlen(detail);
	in.label = label;
	in.label_len = strlen(label);
	edac_decode(&in, d);
	d->mc_index = place_number(r);
	d->top_layer = place_number(r);
	d->middle_layer = place_number(r);
	d->lower_layer = place_number(r);
	/* Any grain, not only a power of two: a page only when it is at most the page. */
	if (rng_next(r) % 4 == 0) {
		static const int64_t grains[] = { RAS_DF_NONE, -5, 0, 1, 2, 3, 4095, 4096, 4097,
						  INT64_MAX };

		d->grain = grains[rng_next(r) % (sizeof(grains) / sizeof(grains[0]))];
	}
}

static bool same(const struct ras_subject *a, const struct ras_subject *b)
{
	return a->kind == b->kind && !strcmp(a->key, b->key) && a->n == b->n &&
	       a->have_addr == b->have_addr && a->addr == b->addr && a->cpu == b->cpu &&
	       a->cache_level == b->cache_level && a->instruction == b->instruction &&
	       !strcmp(a->device, b->device) && !strcmp(a->label, b->label) && a->hbm == b->hbm &&
	       !memcmp(&a->dram, &b->dram, sizeof(a->dram)) && a->at_once == b->at_once &&
	       a->uncorrected == b->uncorrected;
}

static void spell(char *buf, size_t len, const char *what, int64_t v)
{
	size_t at = strlen(buf);

	snprintf(buf + at, len - at, "%s%lld", what, v == RAS_DF_NONE ? -1LL : (long long)v);
}

/* The key as printf spells it, from the record's numbers and the row's coordinates. */
static void expected_key(const struct edac_decoded *d, const struct ras_subject *s, char *buf,
			 size_t len, bool ghes)
{
	snprintf(buf, len, "mc%lld", (long long)d->mc_index);
	spell(buf, len, " ", d->top_layer);
	spell(buf, len, ":", d->middle_layer);
	spell(buf, len, ":", d->lower_layer);
	if (s->kind != RAS_SUBJ_ROW)
		return;
	if (ghes) {
		spell(buf, len, " node ", s->dram.socket);
		spell(buf, len, " card ", s->dram.mc);
		spell(buf, len, " module ", s->dram.dimm);
	}
	spell(buf, len, " rank ", s->dram.rank);
	spell(buf, len, " bank group ", s->dram.bank_group);
	spell(buf, len, " bank ", s->dram.bank);
	snprintf(buf + strlen(buf), len - strlen(buf), " row 0x%llx", (unsigned long long)s->dram.row);
}

/* An EDAC record's address names a page when its grain is unknown or at most the page. */
static bool page_expected(const struct edac_decoded *d)
{
	return d->address && (d->grain == RAS_DF_NONE || (d->grain > 0 && d->grain <= 4096));
}

struct run {
	uint64_t seed;
	int differ, misspelled, rows, dimms, pages;
};

static void *compare(void *arg)
{
	const struct ras_event_type *t = ras_event_type_find("ras:mc_event");
	struct run *run = arg;
	uint64_t r = run->seed;
	static _Thread_local struct edac_decoded d;
	struct ras_subject fast[RAS_SUBJECTS_MAX], general[RAS_SUBJECTS_MAX];
	char detail[256], want[512];

	for (int i = 0; i < RUNS; i++) {
		int n, m;

		record_of(&r, &d, detail, sizeof(detail));
		ras_subject_place_cache(true);
		n = ras_subjects_of(t, NULL, &d, 4096, ~0u, fast);
		ras_subject_place_cache(false);
		m = ras_subjects_of(t, NULL, &d, 4096, ~0u, general);
		ras_subject_place_cache(true);
		if (n != m) {
			run->differ++;
			continue;
		}
		if (page_expected(&d) != (n > 0 && fast[0].kind == RAS_SUBJ_PAGE))
			run->misspelled++;
		for (int k = 0; k < n; k++) {
			if (!same(&fast[k], &general[k]))
				run->differ++;
			snprintf(want, sizeof(fast[k].label), "%s", d.label);
			if (strcmp(fast[k].label, want))
				run->misspelled++;
			if (fast[k].kind == RAS_SUBJ_PAGE) {
				run->pages++;
				snprintf(want, sizeof(want), "0x%llx", (unsigned long long)fast[k].addr);
				if (!fast[k].have_addr || strcmp(fast[k].key, want) ||
				    fast[k].addr != ((uint64_t)d.address & ~UINT64_C(4095)))
					run->misspelled++;
			}
			if (fast[k].kind != RAS_SUBJ_ROW && fast[k].kind != RAS_SUBJ_DIMM)
				continue;
			run->rows += fast[k].kind == RAS_SUBJ_ROW;
			run->dimms += fast[k].kind == RAS_SUBJ_DIMM;
			expected_key(&d, &fast[k], want, sizeof(fast[k].key), !strncmp(detail, "APEI", 4));
			if (strcmp(fast[k].key, want)) {
				if (!run->misspelled)
					tap_diag("key \"%s\", printf \"%s\"", fast[k].key, want);
				run->misspelled++;
			}
		}
	}
	return NULL;
}

int main(void)
{
	struct run main_run = { .seed = 0x9e3779b97f4a7c15ULL };
	struct run other = { .seed = 0x2545f4914f6cdd1dULL };
	pthread_t th;

	compare(&main_run);
	tap_ok(main_run.differ == 0,
	       "%d records: the cached places give the general way's subjects (%d differ)", RUNS,
	       main_run.differ);
	tap_ok(main_run.misspelled == 0 && main_run.rows > RUNS / 4 && main_run.dimms > RUNS / 2 &&
	       main_run.pages > RUNS / 2,
	       "their keys and labels as printf spells them (%d rows, %d DIMMs, %d pages, %d not)",
	       main_run.rows, main_run.dimms, main_run.pages, main_run.misspelled);
	if (tap_ok(pthread_create(&th, NULL, compare, &other) == 0, "a second thread"))
		pthread_join(th, NULL);
	tap_ok(other.differ == 0 && other.misspelled == 0 && other.rows > RUNS / 4,
	       "a second thread's own cache: the same (%d differ, %d misspelled)", other.differ,
	       other.misspelled);
	return tap_done();
}
