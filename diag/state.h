/* SPDX-License-Identifier: MIT */
/*
 * A part's state as bytes, for rasd to keep across restarts (the parts
 * table's state column): a header (magic, version, byte order, sizes), the
 * part, and its cells when it has them. A state of another version or
 * machine is refused, and rasd rebuilds it from the stored records. Pure.
 */
#ifndef RAS_DIAG_STATE_H
#define RAS_DIAG_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "cells.h"
#include "part.h"

#define DIAG_STATE_VERSION 2    /* 2: faults keep their bit and device */
#define DIAG_STATE_MAX (16 + sizeof(struct diag_part) + sizeof(struct diag_cells))

/* Writes the state to out (DIAG_STATE_MAX bytes); cells may be NULL. Returns its length. */
size_t diag_state_pack(const struct diag_part *p, const struct diag_cells *cells, uint8_t *out);
/*
 * Reads a state: 1 with cells (into *cells), 0 without, -1 when not one this
 * build wrote (other version, byte order or sizes, or cut short).
 */
int diag_state_unpack(const uint8_t *in, size_t len, struct diag_part *p, struct diag_cells *cells);

#endif
