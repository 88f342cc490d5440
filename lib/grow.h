/* SPDX-License-Identifier: MIT */
/*
 * Room in a growing byte buffer: the run of pending records, the roll-up's
 * location text, health's held coordinates, a fold's growth ids. Each grows
 * by doubling to hold len + need bytes; the check that it already does is
 * inline, as it runs once a record.
 */
#ifndef RAS_GROW_H
#define RAS_GROW_H

#include <stddef.h>

/* ras_grow_room's growing: realloc'd to the doubled capacity (lib/grow.c). */
int ras_grow_realloc(void *bufp, size_t *cap, size_t len, size_t need, size_t first, size_t *grown);

/*
 * Makes room for need more bytes after the first len of the buffer at *bufp
 * (bufp: the address of a char * or uint8_t *, NULL while nothing is held)
 * whose capacity is *cap: nothing when len + need fits, else the capacity
 * doubled, from first when it is 0 (1 when first is 0 too), until it does,
 * and the buffer realloc'd, its len bytes kept. *grown (when not NULL): how
 * many bytes the capacity grew, 0 when it fit, for the caller's own count of
 * the memory it holds. 0, or -ENOMEM (len + need or the doubled capacity
 * past what size_t holds, or realloc failed) with *bufp, *cap as they were.
 */
static inline int ras_grow_room(void *bufp, size_t *cap, size_t len, size_t need, size_t first,
				size_t *grown)
{
	if (need <= *cap && len <= *cap - need) {
		if (grown)
			*grown = 0;
		return 0;
	}
	return ras_grow_realloc(bufp, cap, len, need, first, grown);
}

#endif
