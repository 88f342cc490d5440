/* SPDX-License-Identifier: MIT */
/* Field extraction from one raw trace record, checked against its format. */
#ifndef RAS_RECORD_H
#define RAS_RECORD_H

#include "formats.h"

/*
 * Fills values[0..type->n_fields) from the record. Every offset and length
 * read from the record is checked against its size. Returns 0, or -EBADMSG
 * when the record is shorter than its format says (values then undefined).
 */
int ras_record_extract(struct tep_handle *tep, const struct ras_event_type *type,
		       const struct ras_type_format *tf, const void *data,
		       uint32_t size, struct ras_value *values);
/*
 * The same with the byte order known: swap is ras_record_swap(tep), which a
 * caller asks once per tep rather than twice a record (two library calls).
 */
bool ras_record_swap(struct tep_handle *tep);
int ras_record_extract_as(bool swap, const struct ras_event_type *type,
			  const struct ras_type_format *tf, const void *data,
			  uint32_t size, struct ras_value *values);

/* 64-bit FNV-1a of a byte range; used as the record's identity hash. */
uint64_t ras_hash_bytes(const void *p, size_t n);

#endif
