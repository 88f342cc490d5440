/* SPDX-License-Identifier: MIT */
/*
 * What a text record said that its decoder's input has no field for (the
 * firmware's error_status words, rasdaemon's timestamp, ...): passed on
 * beside the decoder input so a reader can show the source's own words.
 */
#ifndef RAS_TEXT_NOTE_H
#define RAS_TEXT_NOTE_H

#include <stddef.h>

#define TEXT_NOTES 3

struct text_note {
	const char *key;        /* a static string ("error_status"); NULL: unused */
	const char *value;      /* not necessarily NUL-terminated */
	size_t value_len;
};

#endif
