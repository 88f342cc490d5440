/* SPDX-License-Identifier: MIT */
/*
 * Which records of a type are kept (struct ras_keep, event_table.h): the
 * kernel's event filter that asks for them, and the same test on a record's
 * extracted fields, for records no filter stood before.
 */
#ifndef RAS_KEEP_H
#define RAS_KEEP_H

#include <stdbool.h>
#include <stddef.h>
#include "event_table.h"

/* Longest filter text a struct ras_keep makes (test-event-table checks). */
#define RAS_KEEP_FILTER_LEN 256

/*
 * The tracefs filter of the type's keep terms, e.g.
 * "sig == 7 && (code == 4 || code == 5)", into buf; "" when it keeps every
 * record. 0, or -ENOSPC when buf is too small.
 */
int ras_keep_filter(const struct ras_event_type *type, char *buf, size_t len);
/*
 * Whether a record with these extracted values (type->fields order) is kept.
 * A term's field the record lacks fails it: a kernel without the field
 * cannot be asked the question.
 */
bool ras_keep_match(const struct ras_event_type *type, const struct ras_value *values);

#endif
