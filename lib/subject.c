/* SPDX-License-Identifier: MIT */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "subject.h"
#include "decoders/mce.h"
#include "decoders/edac.h"
#include "decoders/aer.h"
#include "decoders/cper.h"
#include "decoders/cxl.h"
#include "decoders/other_util.h"
#include "diag/dram.h"
#include "event_fields.h"

#define KNOWN(v) ((v) != RAS_DF_NONE)

/*
 * An EDAC record's place, "mc<index> <top>:<middle>:<lower>" (-1 for a
 * layer not known): the DIMM's key and the start of its row's, and the
 * row's device ("mc<index>", its first mc_len bytes). Its longest, every
 * number 20 characters, fits. A pure function of the four integers, so
 * built once per place a thread meets (place_cache), not at every record.
 */
struct edac_place {
	int64_t mc, top, middle, lower; /* the record's, as decoded */
	uint8_t len;            /* 0: an empty slot */
	uint8_t mc_len;
	char text[96];
};
_Static_assert(sizeof(((struct edac_place *)0)->text) <= sizeof(((struct ras_subject *)0)->key),
	       "a place is written to a key whole");
_Static_assert(sizeof("mc-9223372036854775808") <= sizeof(((struct ras_subject *)0)->device),
	       "a controller's name is written to a device whole");

/*
 * The places a thread's records named last, found from a hash of the four
 * integers in one of PLACE_PROBES slots from it (a machine names tens of
 * DIMMs: make bench's stream 48, which one slot each thrashed). Per thread:
 * the event loop and the writer both derive subjects. Nothing the text
 * depends on can change, so nothing invalidates a slot.
 */
#define PLACE_CACHE_BITS 7
#define PLACE_PROBES 4
static _Thread_local struct edac_place place_cache[1u << PLACE_CACHE_BITS];
/* Tests: every place built at its record, the general way (ras_subject_place_cache), here. */
static bool place_cache_off;
static _Thread_local struct edac_place place_general;

/* What the feeds of one record share, found at the first feed that needs it. */
struct record_memo {
	const struct edac_place *place; /* NULL: not found yet */
	size_t label_len;               /* SIZE_MAX: not measured yet */
};

/*
 * What a feed reads: the decoded record, its raw fields (NULL in some
 * callers) and the page size; and what the record's feeds share.
 */
struct feed_in {
	const struct ras_event_type *type;
	const struct ras_value *values;
	const void *decoded;
	uint64_t ps;
	struct record_memo *memo;
};

/* Fills s for one kind from one decoded record; false when the record does not say. */
typedef bool (*subject_fn)(const struct feed_in *in, struct ras_subject *s);

static void set_label(struct ras_subject *s, const char *label)
{
	struct ou_buf b = ou_start(s->label, sizeof(s->label));

	ou_put(&b, label);
}

/*
 * A row key's tail is written to a local buffer with no bounds to check (its
 * longest, " node " to " row 0x" with every number 20 characters, 187, fits)
 * and put in the key at once, truncated as the pieces one by one would be.
 */
#define ROW_TAIL_MAX 192
#define put_lit(p, lit) (memcpy((p), (lit), sizeof(lit) - 1), (p) + sizeof(lit) - 1)

/* v at p as "%lld" writes it (ou_put_int), small numbers without a call; returns the end. */
static inline char *put_dec(char *p, long long v)
{
	char digits[24], *end = digits + sizeof(digits), *d;

	if (v >= 0 && v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v >= 10 && v < 100) {
		p[0] = (char)('0' + v / 10);
		p[1] = (char)('0' + v % 10);
		return p + 2;
	}
	d = ou_decimal_digits(end, v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v);
	if (v < 0)
		*--d = '-';
	memcpy(p, d, (size_t)(end - d));
	return p + (end - d);
}

/* v at p as "0x%llx" writes it (ou_put_hex); returns the end. */
static inline char *put_hex(char *p, unsigned long long v)
{
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;

	p = put_lit(p, "0x");
	for (int i = n - 1; i >= 0; i--, v >>= 4)
		p[i] = "0123456789abcdef"[v & 0xf];
	return p + n;
}

/* The record's DIMM label, as set_label writes it, measured once for its feeds. */
static void edac_label(const struct feed_in *in, const struct edac_decoded *e,
		       struct ras_subject *s)
{
	size_t n = in->memo->label_len;

	if (n == SIZE_MAX)
		n = in->memo->label_len = strnlen(e->label, sizeof(s->label) - 1);
	memcpy(s->label, e->label, n);
	s->label[n] = '\0';
}

static bool page_at(struct ras_subject *s, uint64_t addr, int64_t lsb, uint64_t page_size)
{
	/* The address must name a place within one page: granularity no coarser than a page. */
	if (!addr || !KNOWN(lsb) || lsb < 0 || lsb >= 64 || (UINT64_C(1) << lsb) > page_size)
		return false;
	s->have_addr = true;
	s->addr = addr & ~(page_size - 1);
	/* Keys are built at every corrected record, so without printf; "0x" and 16 digits fit. */
	*put_hex(s->key, s->addr) = '\0';
	return true;
}

static int64_t log2_of(int64_t grain)
{
	int64_t lsb;

	if (!KNOWN(grain) || grain <= 0)
		return RAS_DF_NONE;
	/* The least lsb with 1 << lsb >= grain, at most 62: at every EDAC record, without a loop. */
	lsb = grain == 1 ? 0 : 64 - __builtin_clzll((unsigned long long)grain - 1);
	return lsb < 62 ? lsb : 62;
}

static bool page_of_mce(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct mce_decoded *m = d;

	/* Only a physical address names a page (not a UMC's normalized one, nor a linear one). */
	return m->addr_usable == 1 && KNOWN(m->addr) && page_at(s, (uint64_t)m->addr, m->addr_lsb, ps);
}

static bool page_of_edac(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct edac_decoded *e = d;
	/* EDAC drivers that know no grain report one byte; no grain at all: trust the page. */
	int64_t lsb = KNOWN(e->grain) ? log2_of(e->grain) : 0;

	edac_label(in, e, s);
	return KNOWN(e->address) && page_at(s, (uint64_t)e->address, lsb, ps);
}

static bool page_of_extlog(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct extlog_decoded *x = d;

	return KNOWN(x->pa) && page_at(s, (uint64_t)x->pa, KNOWN(x->pa_mask_lsb) ? x->pa_mask_lsb : 0, ps);
}

static bool page_of_cxl(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct cxl_decoded *c = d;

	s->at_once = c->device_threshold == 1;
	return KNOWN(c->hpa) && page_at(s, (uint64_t)c->hpa, 0, ps);
}

static long long or_minus1(int64_t v)
{
	return KNOWN(v) ? (long long)v : -1LL;
}

static void place_build(const struct edac_decoded *e, struct edac_place *pl)
{
	struct ou_buf b = ou_start(pl->text, sizeof(pl->text));

	pl->mc = e->mc_index;
	pl->top = e->top_layer;
	pl->middle = e->middle_layer;
	pl->lower = e->lower_layer;
	ou_put_lit(&b, "mc");
	ou_put_int(&b, (long long)e->mc_index);
	pl->mc_len = (uint8_t)b.at;
	ou_put_lit(&b, " ");
	ou_put_int(&b, or_minus1(e->top_layer));
	ou_put_lit(&b, ":");
	ou_put_int(&b, or_minus1(e->middle_layer));
	ou_put_lit(&b, ":");
	ou_put_int(&b, or_minus1(e->lower_layer));
	pl->len = (uint8_t)b.at;
}

static bool place_is(const struct edac_place *pl, const struct edac_decoded *e)
{
	return pl->len && pl->mc == e->mc_index && pl->top == e->top_layer &&
	       pl->middle == e->middle_layer && pl->lower == e->lower_layer;
}

/*
 * The record's place (struct edac_place): its thread's cached one, else built
 * now, in the first empty slot of its probes or over the first of them.
 */
static const struct edac_place *place_of(struct record_memo *m, const struct edac_decoded *e)
{
	const unsigned mask = (1u << PLACE_CACHE_BITS) - 1;
	struct edac_place *pl = NULL;
	uint64_t h;

	if (m->place)
		return m->place;
	if (place_cache_off) {
		place_build(e, &place_general);
		return m->place = &place_general;
	}
	h = (((uint64_t)e->mc_index * 31 + (uint64_t)e->top_layer) * 31 +
	     (uint64_t)e->middle_layer) * 31 + (uint64_t)e->lower_layer;
	h = (h * UINT64_C(0x9e3779b97f4a7c15)) >> (64 - PLACE_CACHE_BITS);
	for (unsigned i = 0; i < PLACE_PROBES; i++) {
		struct edac_place *at = &place_cache[(h + i) & mask];

		if (place_is(at, e))
			return m->place = at;
		if (!pl && !at->len)
			pl = at;
	}
	if (!pl)
		pl = &place_cache[h];
	place_build(e, pl);
	return m->place = pl;
}

void ras_subject_place_cache(bool on)
{
	place_cache_off = !on;
}

/* The record's place, written to key, which it starts. */
static struct ou_buf edac_key(const struct feed_in *in, const struct edac_decoded *e,
			      struct ras_subject *s)
{
	char *key = s->key;
	size_t len = sizeof(s->key);
	const struct edac_place *pl = place_of(in->memo, e);

	/* Whole: the longest place is shorter than a key (the assertion below). */
	memcpy(key, pl->text, pl->len);
	key[pl->len] = '\0';
	return (struct ou_buf){ .p = key, .len = len, .at = pl->len };
}

static bool dimm_of_edac(const struct feed_in *in, struct ras_subject *s)
{
	const struct edac_decoded *e = in->decoded;

	if (!KNOWN(e->mc_index) || (!KNOWN(e->top_layer) && !e->label[0]))
		return false;
	/* "mc<index> <top>:<middle>:<lower>", -1 for a layer not known. */
	edac_key(in, e, s);
	edac_label(in, e, s);
	return true;
}

/*
 * An AMD UMC bank names its channel (the UMC) and, for a DRAM ECC error, the
 * chip select: a rank, the finest place its MCA registers tell (no row or
 * bank without the platform's address translation).
 */
static bool rank_of_umc(const struct mce_decoded *m, struct ras_subject *s)
{
	if (!KNOWN(m->channel) || !KNOWN(m->chip_select))
		return false;
	s->dram.channel = m->channel;
	s->dram.rank = m->chip_select;
	snprintf(s->key, sizeof(s->key), "socket %lld umc channel %lld chip select %lld",
		 KNOWN(m->socket) ? (long long)m->socket : -1LL, (long long)m->channel,
		 (long long)m->chip_select);
	return true;
}

/*
 * An AMD accelerator's HBM channel: on-package memory with no DIMM to name,
 * the unit its corrected errors accumulate on. Only the HBM UMC decoding
 * names a memory controller on AMD (a CPU's UMC is one channel).
 */
static bool hbm_of_umc(const struct mce_decoded *m, struct ras_subject *s)
{
	if (strcmp(m->vendor, "AMD") || !KNOWN(m->mem_ctrl) || !KNOWN(m->channel))
		return false;
	snprintf(s->key, sizeof(s->key), "socket %lld node %lld hbm umc %lld channel %lld",
		 KNOWN(m->socket) ? (long long)m->socket : -1LL,
		 KNOWN(m->smca_instance_hi) ? (long long)m->smca_instance_hi : -1LL,
		 (long long)m->mem_ctrl, (long long)m->channel);
	s->hbm = true;
	return true;
}

static bool dimm_of_mce(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct mce_decoded *m = d;
	struct ou_buf key;

	(void)ps;
	if (!KNOWN(m->mem_ctrl) || !KNOWN(m->channel) || !KNOWN(m->dimm))
		return hbm_of_umc(m, s) || rank_of_umc(m, s);
	/* "socket <s> mc <m> channel <c> dimm <d>", without printf: at every corrected record. */
	key = ou_start(s->key, sizeof(s->key));
	ou_put_lit(&key, "socket ");
	ou_put_int(&key, KNOWN(m->socket) ? (long long)m->socket : -1LL);
	ou_put_lit(&key, " mc ");
	ou_put_int(&key, (long long)m->mem_ctrl);
	ou_put_lit(&key, " channel ");
	ou_put_int(&key, (long long)m->channel);
	ou_put_lit(&key, " dimm ");
	ou_put_int(&key, (long long)m->dimm);
	return true;
}

static bool dimm_of_extlog(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct extlog_decoded *x = d;

	(void)ps;
	if (!KNOWN(x->card) && !KNOWN(x->module))
		return false;
	snprintf(s->key, sizeof(s->key), "node %lld card %lld module %lld",
		 KNOWN(x->node) ? (long long)x->node : -1LL, KNOWN(x->card) ? (long long)x->card : -1LL,
		 KNOWN(x->module) ? (long long)x->module : -1LL);
	snprintf(s->label, sizeof(s->label), "%s", x->fru_text);
	return true;
}

/* Core and cache banks count against the CPU; memory-controller and I/O banks do not. */
static bool cpu_of_mce(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct mce_decoded *m = d;
	const char *ec = m->error_class;
	struct ou_buf key;
	bool core;
	char name[24];

	(void)ps;
	/* strcmp's equality, NUL included, as compares of known size (inline, no call). */
	_Static_assert(sizeof(m->error_class) >= sizeof("internal"), "compared whole");
	core = !memcmp(ec, "cache", 6) || !memcmp(ec, "tlb", 4) || !memcmp(ec, "internal", 9) ||
	       !memcmp(ec, "bus", 4);
	if (!core || !KNOWN(m->cpu) || m->cpu < 0 || m->cpu > 65535)
		return false;
	s->cpu = (int)m->cpu;
	/*
	 * "cpu <n>" or "cpu <n> L<level>[i] cache", named by the decoder as every
	 * view names it (mce_cache_name): the level is already the sysfs one.
	 */
	key = ou_start(s->key, sizeof(s->key));
	ou_put_lit(&key, "cpu ");
	ou_put_int(&key, s->cpu);
	if (!memcmp(m->error_class, "cache", 6)) {
		size_t n = mce_cache_name(m, name, sizeof(name));

		if (n) {
			s->cache_level = (int)m->cache_level;
			s->instruction = name[2] == 'i';
			ou_put_lit(&key, " ");
			ou_put_n(&key, name, n);
		}
	}
	return true;
}

static bool device_of_aer(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct aer_decoded *a = d;
	struct ou_buf dev, key;

	(void)ps;
	if (!a->dev_name[0])
		return false;
	dev = ou_start(s->device, sizeof(s->device));
	ou_put(&dev, a->dev_name);
	key = ou_start(s->key, sizeof(s->key));
	ou_put(&key, a->dev_name);
	return true;
}

/* The raw fields of cxl_dram the decoding leaves out, by their place in its field list. */
enum { CXL_RAW_VALIDITY, CXL_RAW_NIBBLE, CXL_RAW_COR_MASK, CXL_RAW_SUB_CHANNEL, CXL_RAW_N };
static const char *const cxl_raw_names[CXL_RAW_N] = {
	"validity_flags", "nibble_mask", "cor_mask", "sub_channel",
};
static int cxl_raw[CXL_RAW_N];

static int64_t raw_int(const struct ras_value *v, int i)
{
	return v && i >= 0 && v[i].present ? v[i].i : RAS_DF_NONE;
}

/*
 * A CXL DRAM record's coordinates (diag/dram.h): the decoding's, gated by
 * the validity flags already, and the nibble and correction masks from the
 * raw fields when the caller has them.
 */
static void cxl_coordinates(const struct feed_in *in, const struct cxl_decoded *c,
			    struct diag_dram *out)
{
	const struct ras_value *v = strcmp(in->type->table, "cxl_dram") ? NULL : in->values;
	struct diag_cxl_dram r = {
		.validity = RAS_DF_NONE, .channel = c->channel, .rank = c->rank,
		.bank_group = c->bank_group, .bank = c->bank, .row = c->row, .column = c->column,
		.dpa = c->dpa, .sub_channel = raw_int(v, cxl_raw[CXL_RAW_SUB_CHANNEL]),
		.nibble_mask = raw_int(v, cxl_raw[CXL_RAW_NIBBLE]),
	};
	int64_t valid = raw_int(v, cxl_raw[CXL_RAW_VALIDITY]);

	/* The decoded fields are gated already; the masks and sub-channel by the flags here. */
	if (KNOWN(valid))
		r.validity = (valid & (DIAG_CXL_VALID_NIBBLE | DIAG_CXL_VALID_CORRECTION_MASK |
				       DIAG_CXL_VALID_SUB_CHANNEL)) | 0x7b;
	if (v && cxl_raw[CXL_RAW_COR_MASK] >= 0 && v[cxl_raw[CXL_RAW_COR_MASK]].present) {
		r.cor_mask = v[cxl_raw[CXL_RAW_COR_MASK]].p;
		r.cor_mask_len = v[cxl_raw[CXL_RAW_COR_MASK]].len;
	}
	diag_dram_from_cxl(&r, out);
}

static bool row_of_cxl(const struct feed_in *in, struct ras_subject *s)
{
	const struct cxl_decoded *c = in->decoded;

	if (!KNOWN(c->row) || !KNOWN(c->bank) || !c->memdev[0])
		return false;
	cxl_coordinates(in, c, &s->dram);
	snprintf(s->device, sizeof(s->device), "%s", c->memdev);
	if (KNOWN(c->hpa)) {
		s->have_addr = true;
		s->addr = (uint64_t)c->hpa;
	}
	snprintf(s->key, sizeof(s->key), "%s channel %lld rank %lld bank group %lld bank %lld row %lld",
		 c->memdev, (long long)c->channel, (long long)c->rank, (long long)c->bank_group,
		 (long long)c->bank, (long long)c->row);
	return true;
}

/*
 * The row an EDAC driver named in driver_detail, in any kernel's spelling
 * (skx, i10nm, ADXL, ghes_edac: diag/dram.h), read once here for the row
 * threshold and the diagnosis alike.
 */
static bool row_of_edac(const struct feed_in *in, struct ras_subject *s)
{
	const struct edac_decoded *e = in->decoded;
	/* Read straight into the subject's coordinates (no copy of 128 bytes). */
	struct diag_dram *c = &s->dram;
	struct ou_buf key;
	char tail[ROW_TAIL_MAX], *t = tail;
	enum diag_spelling sp;
	size_t n;

	if (!KNOWN(e->mc_index))
		return false;
	n = strnlen(e->driver_detail, sizeof(e->driver_detail));
	/* A NUL ends the text (nearly always): read in place; else the bounded way. */
	sp = n < sizeof(e->driver_detail) ? diag_dram_from_edac_string(e->driver_detail, n, c)
					  : diag_dram_from_edac_detail(e->driver_detail, n, c);
	if (sp == DIAG_SP_NONE || !KNOWN(c->row) || !KNOWN(c->bank)) {
		/* No row: the subject as subject_reset left it (nothing known). */
		diag_dram_clear(c);
		return false;
	}
	edac_label(in, e, s);
	if (KNOWN(e->address)) {
		s->have_addr = true;
		s->addr = (uint64_t)e->address;
	}
	/*
	 * The layers place the DIMM (as the DIMM subject does); the detail, the row
	 * within it: "mc0 1:0:-1 rank 2 bank group 1 bank 3 row 0x1a2b", without printf.
	 */
	key = edac_key(in, e, s);
	/* "mc<index>", the place's start (20 digits at most: it fits). */
	memcpy(s->device, in->memo->place->text, in->memo->place->mc_len);
	s->device[in->memo->place->mc_len] = '\0';
	/* Firmware first: ghes_edac's one controller; the CPER location places the DIMM. */
	if (sp == DIAG_SP_GHES) {
		t = put_lit(t, " node ");
		t = put_dec(t, or_minus1(c->socket));
		t = put_lit(t, " card ");
		t = put_dec(t, or_minus1(c->mc));
		t = put_lit(t, " module ");
		t = put_dec(t, or_minus1(c->dimm));
	}
	t = put_lit(t, " rank ");
	t = put_dec(t, or_minus1(c->rank));
	t = put_lit(t, " bank group ");
	t = put_dec(t, or_minus1(c->bank_group));
	t = put_lit(t, " bank ");
	t = put_dec(t, (long long)c->bank);
	t = put_lit(t, " row ");
	t = put_hex(t, (unsigned long long)c->row);
	ou_put_n(&key, tail, (size_t)(t - tail));
	return true;
}

static bool row_of_extlog(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	uint64_t ps = in->ps;
	const struct extlog_decoded *x = d;
	const struct diag_cper_mem m = {
		.node = x->node, .card = x->card, .module = x->module, .rank = x->rank, .bank = x->bank,
		.bank_group = x->bank_group, .bank_address = x->bank_address, .device = x->device,
		.row = x->row, .column = x->column, .bit_pos = x->bit_pos, .chip_id = x->chip_id,
	};

	(void)ps;
	diag_dram_from_cper(&m, &s->dram);
	if (!KNOWN(x->row) || !KNOWN(x->bank))
		return false;
	if (KNOWN(x->pa)) {
		s->have_addr = true;
		s->addr = (uint64_t)x->pa;
	}
	snprintf(s->key, sizeof(s->key), "node %lld card %lld module %lld rank %lld bank %lld row %lld",
		 (long long)x->node, (long long)x->card, (long long)x->module, (long long)x->rank,
		 (long long)x->bank, (long long)x->row);
	return true;
}

/*
 * A vendor section's failing part (decoders/cper_vendor.h), where the section
 * says which part it is: a memory controller or channel counts as the DIMM
 * subject (a DDRC, an Altra MCU, a Yitian DDR controller), a PCIe port or
 * function as the device subject. Other blocks (caches, links, firmware) are
 * no part an action or a verdict applies to.
 */
static bool vendor_part(const struct cper_vendor *v, const char *cls, struct ras_subject *s)
{
	struct ou_buf key;

	if (!v->part[0] || strcmp(v->part_class, cls))
		return false;
	key = ou_start(s->key, sizeof(s->key));
	ou_put(&key, v->part);
	if (!strcmp(cls, "memory"))
		set_label(s, v->part);
	else
		snprintf(s->device, sizeof(s->device), "%s", v->pci_dev[0] ? v->pci_dev : v->part);
	return true;
}

static bool dimm_of_nonstd(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	return vendor_part(&((const struct nonstd_decoded *)d)->v, "memory", s);
}

static bool device_of_nonstd(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	return vendor_part(&((const struct nonstd_decoded *)d)->v, "pcie", s);
}

static bool dimm_of_arm(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	return vendor_part(&((const struct arm_decoded *)d)->v, "memory", s);
}

/*
 * An ARM processor error names the CPU that saw it: the kernel's own MPIDR
 * map (arm_event's cpu), else this machine's (lib/cpu_map.h). It counts
 * against that CPU only for the errors of its entries that are the core's
 * own failures (decoders/cper_arm.c: flags first, last or overflow, not
 * propagated); a record without error information (older kernels' arm_event,
 * 6.1's, carries none) counts against no CPU.
 */
static bool cpu_of_arm(const struct feed_in *in, struct ras_subject *s)
{
	const void *d = in->decoded;
	const struct arm_decoded *a = d;
	int64_t cpu = arm_decoded_cpu(a);
	struct ou_buf key;

	if (cpu == RAS_DF_NONE || cpu > 65535 || !KNOWN(a->core_errors) || a->core_errors < 1)
		return false;
	s->cpu = (int)cpu;
	s->n = a->core_errors;
	key = ou_start(s->key, sizeof(s->key));
	ou_put_lit(&key, "cpu ");
	ou_put_int(&key, s->cpu);
	return true;
}

struct feed {
	const char *table;
	subject_fn fn;
};

/* One row per kind of subject: which event types feed it and how. */
static const struct {
	const char *name;
	struct feed feeds[5];
} kinds[RAS_SUBJ_KINDS] = {
	[RAS_SUBJ_PAGE] = { "page", { { "mc_event", page_of_edac }, { "mce_record", page_of_mce },
		{ "extlog_mem_event", page_of_extlog }, { "cxl_general_media", page_of_cxl },
		{ "cxl_dram", page_of_cxl } } },
	[RAS_SUBJ_DIMM] = { "dimm", { { "mc_event", dimm_of_edac }, { "mce_record", dimm_of_mce },
		{ "extlog_mem_event", dimm_of_extlog }, { "non_standard_event", dimm_of_nonstd },
		{ "arm_event", dimm_of_arm } } },
	[RAS_SUBJ_CPU] = { "cpu", { { "mce_record", cpu_of_mce }, { "arm_event", cpu_of_arm } } },
	[RAS_SUBJ_DEVICE] = { "device", { { "aer_event", device_of_aer },
		{ "non_standard_event", device_of_nonstd } } },
	[RAS_SUBJ_ROW] = { "row", { { "cxl_dram", row_of_cxl }, { "extlog_mem_event", row_of_extlog },
		{ "mc_event", row_of_edac } } },
};

bool ras_subject_fold_group(const struct ras_event_type *type, const void *decoded, char *key,
			    size_t len)
{
	const struct mce_decoded *m = decoded;
	struct ou_buf b;

	if (strcmp(type->table, "mce_record") || !KNOWN(m->bank) || m->bank < 0)
		return false;
	/* "bank socket 0 bank 7 channel 2", without printf: once per machine check of a storm. */
	b = ou_start(key, len);
	ou_put_lit(&b, "bank socket ");
	ou_put_int(&b, KNOWN(m->socket) ? (long long)m->socket : -1LL);
	ou_put_lit(&b, " bank ");
	ou_put_int(&b, (long long)m->bank);
	if (KNOWN(m->channel)) {
		ou_put_lit(&b, " channel ");
		ou_put_int(&b, (long long)m->channel);
	}
	return true;
}

const char *ras_subject_kind_name(enum ras_subject_kind kind)
{
	return kind < RAS_SUBJ_KINDS ? kinds[kind].name : "?";
}

/* How many errors the record stands for (an mc_event's error_count), at least one. */
static int64_t errors_in(const struct ras_event_type *type, const void *decoded)
{
	int64_t n = type->errors ? ras_dfield_int(decoded, type->errors) : 1;

	return KNOWN(n) && n > 1 ? n : 1;
}

/* Each event type's feed of each kind (NULL: none), found once from kinds[]. */
static subject_fn feed_of[RAS_MAX_EVENT_TYPES][RAS_SUBJ_KINDS];
_Static_assert(RAS_SUBJ_KINDS <= 32, "a kind is a bit of an unsigned");
/* Each event type's kinds with a feed, a bit each: a record visits those only. */
static unsigned feed_kinds[RAS_MAX_EVENT_TYPES];

/* A place in DRAM nothing is known of (diag_dram_clear), copied into each subject. */
static struct diag_dram dram_none;

static void find_feeds(void)
{
	const struct ras_event_type *dram = ras_event_type_find("cxl:cxl_dram");

	diag_dram_clear(&dram_none);
	for (int i = 0; i < CXL_RAW_N; i++)
		cxl_raw[i] = dram ? ras_event_field_index(dram, cxl_raw_names[i]) : -1;
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_MAX_EVENT_TYPES; t++)
		for (int k = 0; k < RAS_SUBJ_KINDS; k++)
			for (size_t f = 0; f < sizeof(kinds[k].feeds) / sizeof(kinds[k].feeds[0]); f++)
				if (kinds[k].feeds[f].table &&
				    !strcmp(kinds[k].feeds[f].table, ras_event_types[t].table)) {
					feed_of[t][k] = kinds[k].feeds[f].fn;
					feed_kinds[t] |= 1u << k;
					break;
				}
}

/* A subject as a feed finds it: its strings empty, nothing known yet (not all 400 bytes cleared). */
static void subject_reset(struct ras_subject *s, int kind)
{
	s->kind = (enum ras_subject_kind)kind;
	s->key[0] = s->device[0] = s->label[0] = '\0';
	s->n = 0;
	s->have_addr = false;
	s->addr = 0;
	s->cpu = -1;
	s->cache_level = 0;
	s->instruction = false;
	s->at_once = false;
	s->uncorrected = false;
	s->dram = dram_none;
	s->hbm = false;
}

static int subjects(const struct ras_event_type *type, const struct ras_value *values,
		    const void *decoded, uint64_t page_size, unsigned wanted,
		    struct ras_subject *out, bool corrected_only)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	const struct ras_decoded_head *h = decoded;
	unsigned t = (unsigned)(type - ras_event_types);
	struct record_memo memo = { .place = NULL, .label_len = SIZE_MAX };
	struct feed_in in = { type, values, decoded, page_size, &memo };
	int n = 0;

	if ((corrected_only && h->severity != RAS_SEV_CORRECTED) || !page_size ||
	    (page_size & (page_size - 1)) || t >= ras_n_event_types || t >= RAS_MAX_EVENT_TYPES)
		return 0;
	pthread_once(&once, find_feeds);
	/* The kinds wanted that have a feed, in order. */
	for (unsigned m = wanted & feed_kinds[t]; m && n < RAS_SUBJECTS_MAX; m &= m - 1) {
		int k = __builtin_ctz(m);
		struct ras_subject *s = &out[n];

		subject_reset(s, k);
		if (feed_of[t][k](&in, s)) {
			if (!s->n)
				s->n = errors_in(type, decoded);
			n++;
		}
	}
	return n;
}

int ras_subjects_of(const struct ras_event_type *type, const struct ras_value *values,
		    const void *decoded, uint64_t page_size, unsigned wanted,
		    struct ras_subject *out)
{
	return subjects(type, values, decoded, page_size, wanted, out, true);
}

int ras_subjects_any(const struct ras_event_type *type, const struct ras_value *values,
		     const void *decoded, uint64_t page_size, unsigned wanted,
		     struct ras_subject *out)
{
	return subjects(type, values, decoded, page_size, wanted, out, false);
}
