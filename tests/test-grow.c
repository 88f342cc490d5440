/* SPDX-License-Identifier: MIT */
/*
 * lib/grow.h: room for len + need bytes, the capacity doubled from first;
 * nothing done when it fits (exactly too); the growth reported; a size past
 * size_t refused, never wrapped, with the buffer as it was.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lib/grow.h"
#include "tap.h"

/* Room asked of a uint8_t buffer: the result, the capacity after and what it grew by. */
struct try {
	int r;
	size_t cap, grown;
	bool moved_or_kept;          /* the buffer as it was, or a new one holding its bytes */
};

static struct try room(uint8_t **buf, size_t *cap, size_t len, size_t need, size_t first)
{
	struct try t = { .grown = 12345 };
	uint8_t *was = *buf;
	size_t was_cap = *cap;

	t.r = ras_grow_room(buf, cap, len, need, first, &t.grown);
	t.cap = *cap;
	t.moved_or_kept = t.r == 0 ? *buf != NULL || (len + need == 0 && !was) : *buf == was && *cap == was_cap;
	return t;
}

static void nothing_needed(void)
{
	uint8_t *buf = NULL;
	size_t cap = 0;
	struct try t = room(&buf, &cap, 0, 0, 64);

	tap_ok(t.r == 0 && t.cap == 0 && t.grown == 0 && !buf,
	       "need 0 of an empty buffer: 0, nothing allocated, grown 0 (cap %zu)", t.cap);
}

static void first_and_fit(void)
{
	uint8_t *buf = NULL, *kept;
	size_t cap = 0;
	struct try t = room(&buf, &cap, 0, 10, 64);

	tap_ok(t.r == 0 && t.cap == 64 && t.grown == 64 && buf, "the first room: first's 64 bytes, grown 64");
	memset(buf, 0xab, 64);
	kept = buf;
	t = room(&buf, &cap, 54, 10, 64);
	tap_ok(t.r == 0 && t.cap == 64 && t.grown == 0 && buf == kept,
	       "len + need exactly the capacity: nothing done, grown 0");
	t = room(&buf, &cap, 64, 0, 64);
	tap_ok(t.r == 0 && t.cap == 64 && t.grown == 0 && buf == kept, "need 0 of a full buffer: nothing done");
	t = room(&buf, &cap, 55, 10, 64);
	tap_ok(t.r == 0 && t.cap == 128 && t.grown == 64, "one byte past: doubled once (cap %zu, grown %zu)",
	       t.cap, t.grown);
	bool same = true;

	for (size_t i = 0; i < 64; i++)
		same = same && buf[i] == 0xab;
	tap_ok(same, "the bytes held are kept");
	t = room(&buf, &cap, 100, 1000, 64);
	tap_ok(t.r == 0 && t.cap == 2048 && t.grown == 1920, "doubled until it holds 1100 (cap %zu, grown %zu)",
	       t.cap, t.grown);
	free(buf);
}

static void first_zero(void)
{
	char *text = NULL;           /* a char * too, as the roll-up's location text */
	size_t cap = 0, grown = 0;
	int r = ras_grow_room(&text, &cap, 0, 3, 0, &grown);

	tap_ok(r == 0 && cap == 4 && grown == 4 && text, "first 0: from 1, doubled to 4 for 3 bytes");
	r = ras_grow_room(&text, &cap, 4, 1, 0, NULL);
	tap_ok(r == 0 && cap == 8, "grown NULL: not written (cap %zu)", cap);
	free(text);
}

static void past_size_t(void)
{
	static uint8_t held[16];
	uint8_t *buf = held;
	size_t cap = sizeof(held);
	struct try t = room(&buf, &cap, SIZE_MAX - 5, 10, 64);

	tap_ok(t.r == -ENOMEM && t.moved_or_kept, "len + need past SIZE_MAX: -ENOMEM, not wrapped, buffer as it was");
	t = room(&buf, &cap, 8, SIZE_MAX, 64);
	tap_ok(t.r == -ENOMEM && t.moved_or_kept, "need SIZE_MAX: -ENOMEM, buffer as it was");
	/* A capacity past half of size_t cannot double: refused before realloc is asked (held is static). */
	cap = SIZE_MAX / 2 + 1;
	t = room(&buf, &cap, SIZE_MAX / 2 + 1, 1, 64);
	tap_ok(t.r == -ENOMEM && t.moved_or_kept && buf == held,
	       "a capacity that would double past SIZE_MAX: -ENOMEM, buffer and capacity as they were");
	cap = SIZE_MAX;
	t = room(&buf, &cap, SIZE_MAX - 1, 1, 64);
	tap_ok(t.r == 0 && t.grown == 0 && buf == held, "len + need exactly SIZE_MAX of a SIZE_MAX capacity: fits");
}

int main(void)
{
	nothing_needed();
	first_and_fit();
	first_zero();
	past_size_t();
	return tap_done();
}
