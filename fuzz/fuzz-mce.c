/* SPDX-License-Identifier: MIT */
/* Fuzzes mce_decode() with arbitrary register contents and CPU identities. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/mce.h"
#include "fuzz/render_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

FUZZ_RENDER_CHECK(mce)

static void check_strings(const struct mce_decoded *out)
{
	if (strnlen(out->location, sizeof(out->location)) >= sizeof(out->location))
		abort();
	for (size_t i = 0; i < mce_n_dfields; i++) {
		const struct ras_dfield *f = &mce_dfields[i];

		/* Every string member must be terminated within the struct. */
		if (f->type == RAS_DF_STR &&
		    !memchr(ras_dfield_str(out, f), '\0', sizeof(*out) - f->offset))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct mce_in in;
	struct mce_decoded out;

	memset(&in, 0, sizeof(in));
	memcpy(&in, data, size < sizeof(in) ? size : sizeof(in));
	if (in.v_data_len > sizeof(in.v_data))
		in.v_data_len = sizeof(in.v_data);
	if (mce_decode(&in, &out) != 0)
		abort();
	check_strings(&out);
	/* A decoded record always has a sentence. */
	check_render_mce(&out, 1);
	if (!out.location[0] && (in.status >> 63))
		abort();
	return 0;
}
