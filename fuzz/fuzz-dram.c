/* SPDX-License-Identifier: MIT */
/*
 * libFuzzer target for diag/: driver_detail text in any spelling, the
 * coordinates it gives fed as a stream of errors into a part's cells, then
 * classified, judged and described; a part's state read from the same bytes.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "diag/cells.h"
#include "diag/dram.h"
#include "diag/rules.h"
#include "diag/state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct diag_cells cells, other;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diag_rules rules;
	struct diag_part part, back;
	struct diag_judgement j;
	char text[200];
	size_t at = 0;

	diag_rules_defaults(&rules);
	rules.wide_cells = size ? 2 + data[0] % 8 : 4;
	diag_part_init(&part, DIAG_K_DIMM);
	diag_cells_init(&cells);
	/* Each NUL-separated piece is one error's driver_detail, a second apart. */
	while (at < size) {
		const char *p = (const char *)data + at;
		size_t n = strnlen(p, size - at);
		struct diag_obs o = { .wall_ns = (int64_t)at * 1000000000, .n = 1,
				      .sev = RAS_SEV_CORRECTED, .flags = DIAG_OBS_COORDS };

		if (diag_dram_from_edac_detail(p, n, &o.dram) != DIAG_SP_NONE) {
			diag_part_count(&part, &o);
			diag_rules_observe(&rules, &part, &o);
			diag_cells_add(&cells, &o, 3000000000LL);
		}
		at += n + 1;
	}
	diag_cells_classify(&cells, rules.wide_cells, 3000000000LL);
	diag_judge(&rules, &part, &cells, &j);
	for (unsigned i = 0; i < cells.n_faults; i++)
		diag_fault_describe(&cells.fault[i], text, sizeof(text));
	diag_state_unpack(data, size, &back, &other);
	return 0;
}
