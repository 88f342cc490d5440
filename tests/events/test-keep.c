/* SPDX-License-Identifier: MIT */
/*
 * The keep terms of the event table (lib/keep.h): the tracefs filters rasd
 * writes, the same test on extracted values, and that every row's terms and
 * stand-in name fields and types that exist.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "lib/keep.h"
#include "tests/tap.h"

static void test_filters(void)
{
	const struct ras_event_type *sig = ras_event_type_find("signal:signal_generate");
	const struct ras_event_type *blk = ras_event_type_find("block:block_rq_complete");
	char buf[RAS_KEEP_FILTER_LEN], want[96], tiny[12];

	if (!tap_ok(sig && blk, "signal_generate and block_rq_complete are rows"))
		return;
	/* The filter the QEMU tests saw Debian's 6.1 and 6.12 accept, SIGBUS as this machine numbers it. */
	snprintf(want, sizeof(want), "sig == %d && (code == 4 || code == 5)", SIGBUS);
	tap_is_int(ras_keep_filter(sig, buf, sizeof(buf)), 0, "signal filter made");
	tap_is_str(buf, want, "signal filter");
	tap_is_int(ras_keep_filter(blk, buf, sizeof(buf)), 0, "block filter made");
	tap_is_str(buf, "error != 0", "block filter");
	tap_is_int(ras_keep_filter(sig, tiny, sizeof(tiny)), -ENOSPC, "too small a buffer is refused");
	tap_is_str(tiny, "", "and left empty");
	tap_is_int(ras_keep_filter(ras_event_type_find("ras:mc_event"), buf, sizeof(buf)), 0,
		   "a type without terms");
	tap_is_str(buf, "", "has no filter");
}

static void test_match(void)
{
	const struct ras_event_type *sig = ras_event_type_find("signal:signal_generate");
	const struct ras_event_type *blk = ras_event_type_find("block:block_rq_complete");
	struct ras_value v[RAS_MAX_FIELDS];
	int s = ras_event_field_index(sig, "sig"), c = ras_event_field_index(sig, "code");
	int e = ras_event_field_index(blk, "error");

	memset(v, 0, sizeof(v));
	v[s] = (struct ras_value){ .present = true, .i = SIGBUS };
	v[c] = (struct ras_value){ .present = true, .i = 4 };
	tap_ok(ras_keep_match(sig, v), "SIGBUS BUS_MCEERR_AR kept");
	v[c].i = 5;
	tap_ok(ras_keep_match(sig, v), "SIGBUS BUS_MCEERR_AO kept");
	v[c].i = 2;
	tap_ok(!ras_keep_match(sig, v), "SIGBUS BUS_ADRERR left out");
	v[c].i = 4;
	v[s].i = SIGCHLD;
	tap_ok(!ras_keep_match(sig, v), "SIGCHLD left out");
	v[s].present = false;
	tap_ok(!ras_keep_match(sig, v), "a record without the field is left out");
	memset(v, 0, sizeof(v));
	v[e] = (struct ras_value){ .present = true, .i = -61 };
	tap_ok(ras_keep_match(blk, v), "a failed completion kept");
	v[e].i = 0;
	tap_ok(!ras_keep_match(blk, v), "a completion without an error left out");
	tap_ok(ras_keep_match(ras_event_type_find("ras:mc_event"), v), "a type without terms keeps all");
}

/* Every row's terms name its integer fields; a stand-in names a row it shares fields with. */
static void test_table(void)
{
	for (unsigned i = 0; i < ras_n_event_types; i++) {
		const struct ras_event_type *t = &ras_event_types[i];
		char buf[RAS_KEEP_FILTER_LEN];

		for (unsigned k = 0; t->keep && k < t->keep->n; k++) {
			int f = ras_event_field_index(t, t->keep->t[k].field);

			tap_ok(f >= 0 && t->fields[f].type == RAS_FT_INT && t->keep->t[k].n >= 1 &&
			       t->keep->t[k].n <= RAS_KEEP_VALUES, "%s: term on %s", t->table,
			       t->keep->t[k].field);
		}
		if (t->keep)
			tap_ok(ras_keep_filter(t, buf, sizeof(buf)) == 0 && buf[0], "%s: filter fits",
			       t->table);
		if (t->fallback_for) {
			const struct ras_event_type *o = ras_event_type_find(t->fallback_for);

			tap_ok(o && o != t && !o->fallback_for, "%s stands in for %s", t->table,
			       t->fallback_for);
			for (unsigned f = 0; o && f < o->n_fields; f++)
				tap_ok(ras_event_field_index(t, o->fields[f].name) >= 0,
				       "%s has %s's field %s", t->table, o->table, o->fields[f].name);
		}
	}
}

int main(void)
{
	test_filters();
	test_match();
	test_table();
	return tap_done();
}
