/* SPDX-License-Identifier: MIT */
/*
 * Issue 39: the queue of records read but not committed (rasd/pending.c).
 * A commit behind's records are sealed at the hand-over and dropped whole
 * once it is made; a failed one keeps every record, in order, for the retry,
 * and a drop of any other size still forgets exactly its first bytes.
 */
#include <stdio.h>
#include <string.h>
#include "tap.h"
#include "rasd/pending.h"

struct seen {
	char text[512];
	size_t records, losses;
};

static int note(void *ctx, const struct ras_pending_entry *e)
{
	struct seen *s = ctx;
	size_t n = strlen(s->text);

	if (e->kind == RAS_PENDING_RECORD) {
		snprintf(s->text + n, sizeof(s->text) - n, "%.*s ", (int)e->size, (const char *)e->data);
		s->records++;
	} else {
		snprintf(s->text + n, sizeof(s->text) - n, "lost%lld ", e->count);
		s->losses++;
	}
	return 0;
}

static const char *all(const struct ras_pending *q)
{
	static struct seen s;

	memset(&s, 0, sizeof(s));
	ras_pending_each(q, note, &s);
	return s.text;
}

static void add(struct ras_pending *q, const char *text)
{
	struct ras_pending_entry e = { .kind = RAS_PENDING_RECORD, .source = "live",
				       .data = (const uint8_t *)text, .size = (uint32_t)strlen(text) };

	ras_pending_add(q, &e);
}

static void lose(struct ras_pending *q, long long n)
{
	struct ras_pending_entry e = { .kind = RAS_PENDING_LOSS, .count = n, .origin = "test" };

	ras_pending_add(q, &e);
}

/* Handed over, more read, the commit made: only the later records are left. */
static void behind_made(void)
{
	struct ras_pending q = { 0 };
	size_t handed;

	add(&q, "a");
	lose(&q, 3);
	add(&q, "bb");
	handed = q.len;
	ras_pending_seal(&q);
	add(&q, "ccc");
	add(&q, "d");
	tap_is_str(all(&q), "a lost3 bb ccc d ", "sealed and later records, in order");
	tap_is_int((long long)q.records, 4, "four records held");
	tap_is_int((long long)q.losses, 1, "one loss held");
	ras_pending_drop_front(&q, handed);
	tap_is_str(all(&q), "ccc d ", "the commit made: its records dropped, the later ones kept");
	tap_is_int((long long)q.records, 2, "two records held");
	tap_is_int((long long)q.losses, 0, "no loss held");
	handed = q.len;
	ras_pending_seal(&q);
	add(&q, "e");
	ras_pending_drop_front(&q, handed);
	tap_is_str(all(&q), "e ", "the next commit behind alike");
	ras_pending_drop_front(&q, q.len);
	tap_is_int((long long)q.len, 0, "everything dropped: empty");
	ras_pending_free(&q);
}

/* A failed commit behind: everything goes again; the next hand-over seals it all. */
static void behind_failed(void)
{
	struct ras_pending q = { 0 };
	struct seen until = { 0 };
	size_t first, second;

	add(&q, "a");
	add(&q, "b");
	first = q.len;
	ras_pending_seal(&q);
	add(&q, "c");
	tap_is_str(all(&q), "a b c ", "after a failure every record is there for the retry");
	ras_pending_each_until(&q, first, note, &until);
	tap_is_str(until.text, "a b ", "each_until visits the handed-over bytes only");
	add(&q, "d");
	second = q.len;
	ras_pending_seal(&q);
	add(&q, "e");
	tap_is_str(all(&q), "a b c d e ", "a second seal keeps the order");
	ras_pending_drop_front(&q, first);
	tap_is_str(all(&q), "c d e ", "a drop of other bytes than the sealed run's");
	tap_is_int((long long)q.records, 3, "three records held");
	ras_pending_drop_front(&q, second - first);
	tap_is_str(all(&q), "e ", "then the rest of the first hand-over");
	tap_is_int((long long)q.records, 1, "one record held");
	ras_pending_clear(&q);
	tap_is_int((long long)(q.len + q.records + q.losses), 0, "cleared");
	add(&q, "f");
	tap_is_str(all(&q), "f ", "used again after a clear");
	ras_pending_free(&q);
}

/* Many records through many hand-overs: counts and bytes always agree. */
static void many(void)
{
	struct ras_pending q = { 0 };
	char rec[64];
	size_t handed = 0, bad = 0;
	uint64_t held = 0;

	for (int i = 0; i < 20000; i++) {
		snprintf(rec, sizeof(rec), "record %d with some bytes", i);
		add(&q, rec);
		held++;
		if (i % 997 == 996) {
			if (handed) {
				struct seen s = { 0 };

				ras_pending_each_until(&q, handed, note, &s);
				held -= s.records;
				ras_pending_drop_front(&q, handed);
			}
			handed = q.len;
			ras_pending_seal(&q);
		}
		bad += q.records != held;
	}
	tap_is_int((long long)bad, 0, "the record count follows every hand-over");
	ras_pending_free(&q);
}

/* Records of about 1 KiB until the run holds more than bytes. */
static void fill(struct ras_pending *q, size_t bytes, int *n)
{
	char rec[1024];

	while (q->run.len <= bytes) {
		snprintf(rec, sizeof(rec), "%0*d", (int)sizeof(rec) - 1, (*n)++);
		add(q, rec);
	}
}

/*
 * A storm's batches: the sealed run is dropped as the next one is sealed,
 * both a batch's size, and its buffer becomes the next run's instead of a
 * fresh one grown again (faulted in anew). Once the storm is over (a small
 * run at the drop), the storm's buffer is given back.
 */
static void storm_buffers(void)
{
	struct ras_pending q = { 0 };
	size_t storm = (size_t)5 << 20, handed;
	const uint8_t *sealed_buf;
	int n = 0;

	fill(&q, storm, &n);
	handed = q.len;
	ras_pending_seal(&q);
	fill(&q, storm, &n);
	sealed_buf = q.sealed.buf;
	ras_pending_drop_front(&q, handed);
	handed = q.len;
	ras_pending_seal(&q);
	tap_ok(q.run.buf == sealed_buf && q.run.cap > storm && !q.run.len,
	       "in a storm, the dropped run's buffer is the next run's (%zu bytes)", q.run.cap);
	tap_is_int((long long)q.records, n / 2, "the sealed batch still holds its records");
	add(&q, "after");
	ras_pending_drop_front(&q, handed);
	tap_is_str(all(&q), "after ", "the storm over: one record left");
	handed = q.len;
	ras_pending_seal(&q);
	ras_pending_drop_front(&q, handed);
	tap_ok(q.run.cap <= storm && q.sealed.cap <= storm && !q.len,
	       "a small run at the drop: the storm's buffers are given back (%zu, %zu)", q.run.cap,
	       q.sealed.cap);
	ras_pending_free(&q);
}

int main(void)
{
	behind_made();
	behind_failed();
	many();
	storm_buffers();
	return tap_done();
}
