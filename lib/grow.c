/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"

int ras_grow_realloc(void *bufp, size_t *cap, size_t len, size_t need, size_t first, size_t *grown)
{
	size_t c = *cap ? *cap : first ? first : 1;
	void *buf, *bigger;

	if (need > SIZE_MAX - len)
		return -ENOMEM;
	while (c < len + need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	/* The pointer is read and written as bytes: bufp holds a char * or a uint8_t *, not a void *. */
	memcpy(&buf, bufp, sizeof(buf));
	if (!(bigger = realloc(buf, c)))
		return -ENOMEM;
	memcpy(bufp, &bigger, sizeof(bigger));
	if (grown)
		*grown = c - *cap;
	*cap = c;
	return 0;
}
