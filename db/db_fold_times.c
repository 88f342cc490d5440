/* SPDX-License-Identifier: MIT */
/*
 * The folded records' seconds (folds.times): zigzag varints of each second's
 * difference to the one before, about a byte a record at a steady rate, and
 * the SQL functions and query that count them in a window (db_fold.c).
 *
 * A blob is stored with room to grow, its tail padded with 0x80 bytes:
 * they start a varint that never ends, so every reader (this one, and those
 * of earlier versions) stops where the seconds do. An append that fits keeps
 * the row's size, and SQLite then rewrites only the pages whose bytes changed,
 * not the whole blob: a storm's row an hour grew by a byte a record and was
 * written whole at every commit (at 50 records/s, 90 KB a commit by the
 * hour's middle). A blob outgrowing its room is written once at twice it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "db_fold.h"

#define SEC_NS 1000000000LL

size_t ras_db_fold_put_delta(uint8_t *out, int64_t delta)
{
	uint64_t z = ((uint64_t)delta << 1) ^ (uint64_t)(delta >> 63);
	size_t n = 0;

	do {
		out[n] = (uint8_t)(z & 0x7f);
		z >>= 7;
		out[n] |= z ? 0x80 : 0;
		n++;
	} while (z);
	return n;
}

#define PAD 0x80
#define MIN_ROOM 16

size_t ras_db_fold_times_used(const uint8_t *times, size_t len)
{
	/* A varint's last byte has its top bit clear; padding bytes have it set. */
	while (len && times[len - 1] == PAD)
		len--;
	return len;
}

size_t ras_db_fold_times_pad(uint8_t *times, size_t used, size_t stored_len)
{
	size_t room = stored_len >= MIN_ROOM ? stored_len : MIN_ROOM;

	while (room < used)
		room *= 2;
	memset(times + used, PAD, room - used);
	return room;
}

/* Next second from p (advancing it); false at the end or on a damaged blob. */
static bool next_second(const uint8_t **p, const uint8_t *end, int64_t *prev)
{
	uint64_t z = 0;

	for (unsigned shift = 0; *p < end && shift < 64; shift += 7) {
		uint8_t b = *(*p)++;

		z |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*prev += (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
			return true;
		}
	}
	return false;
}

bool ras_db_fold_next_delta(const uint8_t **p, const uint8_t *end, int64_t *acc)
{
	return next_second(p, end, acc);
}

enum { FN_COUNT, FN_FIRST, FN_LAST };

/* ras_fold_count/first/last(times, from_ns, to_ns): the folded seconds in [from, to). */
static void fold_times_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const uint8_t *p = sqlite3_value_blob(argv[0]);
	const uint8_t *end = p ? p + sqlite3_value_bytes(argv[0]) : NULL;
	int64_t from = sqlite3_value_int64(argv[1]), to = sqlite3_value_int64(argv[2]);
	int64_t s = 0, n = 0, first = INT64_MAX, last = INT64_MIN;
	int mode = (int)(intptr_t)sqlite3_user_data(ctx);

	(void)argc;
	while (p && next_second(&p, end, &s)) {
		int64_t ns = s * SEC_NS;

		if (ns < from || ns >= to)
			continue;
		n++;
		first = ns < first ? ns : first;
		last = ns > last ? ns : last;
	}
	if (mode == FN_COUNT)
		sqlite3_result_int64(ctx, n);
	else if (!n)
		sqlite3_result_null(ctx);
	else
		sqlite3_result_int64(ctx, mode == FN_FIRST ? first : last);
}

int ras_db_fold_register(sqlite3 *h)
{
	static const char *const names[] = { "ras_fold_count", "ras_fold_first", "ras_fold_last" };

	for (int i = 0; i < 3; i++)
		if (sqlite3_create_function_v2(h, names[i], 3, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
					       (void *)(intptr_t)i, fold_times_fn, NULL, NULL,
					       NULL) != SQLITE_OK)
			return -EIO;
	return 0;
}
