/* SPDX-License-Identifier: MIT */
/*
 * FUZZ_RENDER_CHECK(name) defines check_render_<name>(d, must_say), which
 * aborts unless <name>_render() of a decoded struct stays inside its buffer,
 * says something when must_say, truncates safely into a small buffer, and
 * gives the same sentence for a zeroed struct holding only the head and the
 * members of <name>_dfields (what the database stores).
 */
#ifndef RAS_FUZZ_RENDER_CHECK_H
#define RAS_FUZZ_RENDER_CHECK_H

#include <stdlib.h>
#include <string.h>

#define FUZZ_RENDER_CHECK(name)                                                        \
	static void check_render_##name(const struct name##_decoded *d, int must_say)  \
	{                                                                              \
		static struct name##_decoded copy;                                     \
		char full[RAS_SUMMARY_LEN + 1], again[RAS_SUMMARY_LEN], small[8];      \
                                                                                       \
		memset(&copy, 0, sizeof(copy));                                        \
		copy.head = d->head;                                                   \
		for (size_t i = 0; i < name##_n_dfields; i++)                          \
			memcpy((char *)&copy + name##_dfields[i].offset,               \
			       (const char *)d + name##_dfields[i].offset,             \
			       name##_dfields[i].size);                                \
		full[RAS_SUMMARY_LEN] = 0x5a;                                          \
		name##_render(d, full, RAS_SUMMARY_LEN);                               \
		if (full[RAS_SUMMARY_LEN] != 0x5a || !memchr(full, 0, RAS_SUMMARY_LEN) || \
		    (must_say && !full[0]))                                            \
			abort();                                                       \
		name##_render(&copy, again, sizeof(again));                            \
		if (strcmp(full, again) != 0)                                          \
			abort();                                                       \
		name##_render(d, small, sizeof(small));                                \
		if (!memchr(small, 0, sizeof(small)))                                  \
			abort();                                                       \
	}

#endif
