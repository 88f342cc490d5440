/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "state.h"

static const uint8_t magic[4] = { 'R', 'F', 'D', 'H' };

struct header {
	uint8_t magic[4];
	uint16_t version;
	uint16_t order;            /* 0x0102 as this machine writes it */
	uint32_t part_size;
	uint32_t cells_size;       /* 0: no cells follow */
};

size_t diag_state_pack(const struct diag_part *p, const struct diag_cells *cells, uint8_t *out)
{
	struct header h = {
		.version = DIAG_STATE_VERSION, .order = 0x0102,
		.part_size = (uint32_t)sizeof(*p), .cells_size = cells ? (uint32_t)sizeof(*cells) : 0,
	};
	size_t n = sizeof(h);

	memcpy(h.magic, magic, sizeof(magic));
	memcpy(out, &h, sizeof(h));
	memcpy(out + n, p, sizeof(*p));
	n += sizeof(*p);
	if (cells) {
		memcpy(out + n, cells, sizeof(*cells));
		n += sizeof(*cells);
	}
	return n;
}

int diag_state_unpack(const uint8_t *in, size_t len, struct diag_part *p, struct diag_cells *cells)
{
	struct header h;

	if (len < sizeof(h))
		return -1;
	memcpy(&h, in, sizeof(h));
	if (memcmp(h.magic, magic, sizeof(magic)) || h.version != DIAG_STATE_VERSION ||
	    h.order != 0x0102 || h.part_size != sizeof(*p) ||
	    (h.cells_size && h.cells_size != sizeof(*cells)) ||
	    len != sizeof(h) + h.part_size + h.cells_size)
		return -1;
	memcpy(p, in + sizeof(h), sizeof(*p));
	if (p->kind >= DIAG_K_N)
		return -1;
	if (!h.cells_size)
		return 0;
	memcpy(cells, in + sizeof(h) + sizeof(*p), sizeof(*cells));
	return cells->n <= DIAG_CELLS && cells->n_faults <= DIAG_FAULTS ? 1 : -1;
}
