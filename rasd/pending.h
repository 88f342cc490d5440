/* SPDX-License-Identifier: MIT */
/*
 * Records read from the kernel but not yet committed. Reading consumes a
 * record, so until its transaction commits its bytes are kept here: a failed
 * commit is rolled back and the same records are stored again later, in order,
 * each once. Cleared by every successful commit.
 */
#ifndef RAS_PENDING_H
#define RAS_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>


enum ras_pending_kind { RAS_PENDING_RECORD, RAS_PENDING_LOSS };

struct ras_pending_entry {
	enum ras_pending_kind kind;
	unsigned type_idx;           /* record: event table index */
	int cpu;
	bool synthetic;
	const char *source;          /* record: a string that outlives the pipeline */
	uint64_t ts;
	int64_t wall_ns;             /* record: as computed when read */
	long long count;             /* loss: records lost, -1 unknown */
	int64_t from_ns, to_ns;      /* loss */
	const char *origin;          /* loss: lost_events origin, a string literal */
	uint32_t size;               /* record: bytes of data */
	const uint8_t *data;         /* record: the raw record, valid until the next clear */
};

/*
 * Two runs of entries, in order: the sealed ones (a commit handed to the
 * writer thread) and those read since, appended to buf. Dropping the sealed
 * run once its commit is made frees nothing and moves nothing: its buffer
 * becomes the next run's.
 */
struct ras_pending_run {
	uint8_t *buf;
	size_t len, cap;
	uint64_t records, losses;
};

struct ras_pending {
	struct ras_pending_run run;    /* the entries after the sealed ones */
	struct ras_pending_run sealed;
	size_t len;                    /* bytes held in both */
	uint64_t records, losses;      /* in both */
	uint64_t nomem;              /* records that could not be kept: counted as lost */
};

/* Appends a copy of e (and e->data); -ENOMEM leaves the queue as it was. */
int ras_pending_add(struct ras_pending *q, const struct ras_pending_entry *e);
/* Calls fn for each entry in order until it returns non-zero; returns that value. */
int ras_pending_each(const struct ras_pending *q,
		     int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx);
void ras_pending_clear(struct ras_pending *q);
/*
 * A commit handed to the writer thread holds the first bytes of the queue
 * (q->len when it was handed over): each_until calls fn for those entries,
 * drop_front forgets them once it is made. ras_pending_seal at the hand-over
 * keeps them apart, so that dropping exactly them is O(1); any other drop
 * moves the later entries to the front.
 */
int ras_pending_each_until(const struct ras_pending *q, size_t bytes,
			   int (*fn)(void *ctx, const struct ras_pending_entry *e), void *ctx);
void ras_pending_seal(struct ras_pending *q);
void ras_pending_drop_front(struct ras_pending *q, size_t bytes);
/* Past max_bytes held in memory, rasd stops reading: records wait in the kernel instead. */
bool ras_pending_full(const struct ras_pending *q, size_t max_bytes);
/* Frees the buffer of an empty queue; its counters stay. */
void ras_pending_shrink(struct ras_pending *q);
void ras_pending_free(struct ras_pending *q);

#endif
