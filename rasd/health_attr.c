/* SPDX-License-Identifier: MIT */
/*
 * Which parts a record names, and what it says of each: the DIMM, HBM
 * channel or CXL device and the DRAM cell of a memory error (the subjects'
 * DIMM key and the row subject's coordinates, lib/subject.c: driver_detail
 * is read once, there), the core, cache or socket of a machine check, the
 * PCIe device, the disk, the network device. A memory-controller machine
 * check names no DIMM here: EDAC reports the same error with its DIMM
 * (an HBM channel excepted, which EDAC does not name).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "health_internal.h"
#include "decoders/aer.h"
#include "decoders/blockerr.h"
#include "decoders/cper.h"
#include "decoders/cxl.h"
#include "decoders/devlink.h"
#include "decoders/edac.h"
#include "decoders/mce.h"
#include "lib/event_fields.h"
#include "lib/fileio.h"

enum attr_type { A_NONE, A_EDAC, A_MCE, A_EXTLOG, A_NONSTD, A_CXL, A_AER, A_BLOCK, A_DEVLINK };

static const struct { const char *table; enum attr_type a; } by_table[] = {
	{ "mc_event", A_EDAC }, { "mce_record", A_MCE }, { "extlog_mem_event", A_EXTLOG },
	{ "non_standard_event", A_NONSTD }, { "aer_event", A_AER }, { "block_rq_error", A_BLOCK },
	{ "devlink_health_report", A_DEVLINK },
};

static enum attr_type attr_of[RAS_MAX_EVENT_TYPES];
static bool types_found;          /* attr_of is filled (set last, read first) */

static void find_types(void)
{
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_MAX_EVENT_TYPES; t++) {
		attr_of[t] = strncmp(ras_event_types[t].table, "cxl_", 4) ? A_NONE : A_CXL;
		for (size_t i = 0; i < sizeof(by_table) / sizeof(by_table[0]); i++)
			if (!strcmp(by_table[i].table, ras_event_types[t].table))
				attr_of[t] = by_table[i].a;
	}
	__atomic_store_n(&types_found, true, __ATOMIC_RELEASE);
}

static const struct ras_subject *subject(const struct ras_subject *s, int n, enum ras_subject_kind k)
{
	for (int i = 0; i < n; i++)
		if (s[i].kind == k)
			return &s[i];
	return NULL;
}

static struct health_attr *add(struct health_attr *out, int *n, enum diag_kind kind, const char *key,
			       const char *label)
{
	struct health_attr *a;

	if (*n >= HEALTH_ATTR_MAX || !key[0])
		return NULL;
	a = &out[(*n)++];
	a->kind = kind;
	a->key = key;
	a->label = label;
	/* The caller sets the time, errors and severity every part of the record shares. */
	a->obs.flags = 0;
	diag_dram_clear(&a->obs.dram);
	return a;
}

/* A part whose key is made here, into the attribution's own buffer. */
static struct health_attr * __attribute__((format(printf, 5, 6)))
add_made(struct health_attr *out, int *n, enum diag_kind kind, const char *label, const char *fmt, ...)
{
	va_list ap;
	struct health_attr *a;

	if (*n >= HEALTH_ATTR_MAX)
		return NULL;
	a = &out[*n];
	va_start(ap, fmt);
	vsnprintf(a->own, sizeof(a->own), fmt, ap);
	va_end(ap);
	return add(out, n, kind, a->own, label);
}

static void with_cell(struct health_attr *a, const struct ras_subject *row)
{
	if (!a || !row || !diag_dram_known(&row->dram))
		return;
	a->obs.dram = row->dram;
	a->obs.flags |= DIAG_OBS_COORDS;
}

/*
 * A chip-select driver's rank. amd64_edac reports a DRAM ECC error with the
 * chip select in its top layer and the channel in the middle one
 * (edac_mc_handle_error(..., err->csrow, err->channel, -1, ...)), and no
 * bank, row or column unless its driver_detail carries the address
 * translation's DRAM address (diag/dram.h, read as the row subject). A chip
 * select selects one rank: that much is given, and the judge says the rest
 * was not reported. The layers are known to be chip select and channel only
 * by the EDAC core's own label for the DIMM, "mc#0csrow#2channel#1" (layer
 * names from the driver's layer types); a label set since says nothing of
 * its layers, and no rank is taken.
 */
static void chip_select_cell(struct health_attr *a, const struct edac_decoded *e)
{
	unsigned mc, cs, ch;
	int end = 0;

	if (!a || (a->obs.flags & DIAG_OBS_COORDS) || e->top_layer == RAS_DF_NONE ||
	    e->middle_layer == RAS_DF_NONE ||
	    sscanf(e->label, "mc#%ucsrow#%uchannel#%u%n", &mc, &cs, &ch, &end) != 3 || e->label[end] ||
	    (int64_t)cs != e->top_layer || (int64_t)ch != e->middle_layer)
		return;
	a->obs.dram.rank = e->top_layer;
	a->obs.dram.channel = e->middle_layer;
	a->obs.flags |= DIAG_OBS_COORDS;
}

/* A machine check: its core or cache, an HBM channel, or the socket's uncore. */
static void attr_mce(const struct mce_decoded *m, const struct ras_subject *s, int ns,
		     struct health_attr *out, int *n)
{
	const struct ras_subject *cpu = subject(s, ns, RAS_SUBJ_CPU);
	const struct ras_subject *dimm = subject(s, ns, RAS_SUBJ_DIMM);
	struct health_attr *a;

	if (dimm && dimm->hbm)
		add(out, n, DIAG_K_HBM, dimm->key, dimm->label);
	if (cpu) {
		a = add(out, n, cpu->cache_level ? DIAG_K_CACHE : DIAG_K_CPU, cpu->key, "");
		if (a && cpu->cache_level)
			a->obs.flags |= DIAG_OBS_CACHE;
		return;
	}
	/* No core named: a simple or core-class error still belongs to its socket. */
	if (m->socket == RAS_DF_NONE || (strcmp(m->error_class, "simple") &&
					 strcmp(m->error_class, "internal") && strcmp(m->error_class, "bus")))
		return;
	add_made(out, n, DIAG_K_SOCKET, "", "socket %lld", (long long)m->socket);
}

/* A CPER Platform Memory section: its DIMM (as extlog names one) and cell. */
static void attr_nonstd(const struct nonstd_decoded *d, const struct ras_value *values,
			struct health_attr *out, int *n)
{
	const struct ras_value *buf = values ? &values[NONSTD_F_BUF] : NULL;
	struct cper_mem_section m;
	struct health_attr *a;
	struct diag_cper_mem c;

	if (strcmp(d->sec_type_name, "Platform Memory") || !buf || !buf->present ||
	    cper_mem_section_parse(buf->p, buf->len, &m) < 0 ||
	    (m.loc.card == RAS_DF_NONE && m.loc.module == RAS_DF_NONE))
		return;
	a = add_made(out, n, DIAG_K_DIMM, d->fru_text, "node %lld card %lld module %lld",
		     m.loc.node != RAS_DF_NONE ? (long long)m.loc.node : -1LL,
		     m.loc.card != RAS_DF_NONE ? (long long)m.loc.card : -1LL,
		     m.loc.module != RAS_DF_NONE ? (long long)m.loc.module : -1LL);
	if (!a)
		return;
	c = (struct diag_cper_mem){
		.node = m.loc.node, .card = m.loc.card, .module = m.loc.module, .rank = m.loc.rank,
		.bank = m.loc.bank, .bank_group = m.loc.bank_group, .bank_address = m.loc.bank_address,
		.device = m.loc.device, .row = m.loc.row, .column = m.loc.column,
		.bit_pos = m.loc.bit_pos, .chip_id = m.loc.chip_id,
	};
	diag_dram_from_cper(&c, &a->obs.dram);
	if (diag_dram_known(&a->obs.dram))
		a->obs.flags |= DIAG_OBS_COORDS;
}

static void attr_cxl(const struct cxl_decoded *c, const struct ras_subject *row,
		     struct health_attr *out, int *n)
{
	struct health_attr *a = add(out, n, DIAG_K_CXL, c->memdev, c->host);

	with_cell(a, row);
	if (a && strstr(c->health_status_names, "replacement needed"))
		a->obs.flags |= DIAG_OBS_REPLACE;
}

/* A failed block request, past the informational ones (no room, try again). */
static void attr_block(const struct blockerr_decoded *b, struct health_attr *out, int *n)
{
	struct health_attr *a;

	if (b->severity <= RAS_SEV_INFO)
		return;
	if (b->disk_name[0])
		a = add(out, n, DIAG_K_DISK, b->disk_name, "");
	else
		a = add_made(out, n, DIAG_K_DISK, "", "%lld:%lld", (long long)b->major,
			     (long long)b->minor);
	/* The medium or the target failed (not the path, not the host). */
	if (a && (b->error == -61 /* ENODATA */ || b->error == -121 /* EREMOTEIO */ ||
		  b->error == -84 /* EILSEQ */))
		a->obs.flags |= DIAG_OBS_MEDIUM;
}

int health_attribute(const struct rasd_health *h, const struct ras_event_type *type,
		     const struct ras_value *values, const void *decoded,
		     const struct ras_subject *s, int ns, struct health_attr *out)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	unsigned t = (unsigned)(type - ras_event_types);
	/* Looked up only by the types that read them (three scans of every record before). */
	const struct ras_subject *dimm, *row, *dev;
	int n = 0;

	(void)h;
	/* pthread_once's call at every record only once the table is surely read. */
	if (!__atomic_load_n(&types_found, __ATOMIC_ACQUIRE))
		pthread_once(&once, find_types);
	if (t >= ras_n_event_types || t >= RAS_MAX_EVENT_TYPES)
		return 0;
	switch (attr_of[t]) {
	case A_EDAC:
		dimm = subject(s, ns, RAS_SUBJ_DIMM);
		row = subject(s, ns, RAS_SUBJ_ROW);
		if (dimm) {
			struct health_attr *a = add(out, &n, DIAG_K_DIMM, dimm->key, dimm->label);

			with_cell(a, row);
			chip_select_cell(a, decoded);
		}
		break;
	case A_EXTLOG:
		dimm = subject(s, ns, RAS_SUBJ_DIMM);
		row = subject(s, ns, RAS_SUBJ_ROW);
		if (dimm)
			with_cell(add(out, &n, DIAG_K_DIMM, dimm->key, dimm->label), row);
		break;
	case A_MCE:
		attr_mce(decoded, s, ns, out, &n);
		break;
	case A_NONSTD:
		attr_nonstd(decoded, values, out, &n);
		break;
	case A_CXL:
		attr_cxl(decoded, subject(s, ns, RAS_SUBJ_ROW), out, &n);
		break;
	case A_AER:
		dev = subject(s, ns, RAS_SUBJ_DEVICE);
		if (dev)
			add(out, &n, DIAG_K_PCIE, dev->key, ((const struct aer_decoded *)decoded)->dev_desc);
		break;
	case A_BLOCK:
		attr_block(decoded, out, &n);
		break;
	case A_DEVLINK: {
		const struct devlink_decoded *d = decoded;

		if (d->dev_name[0])
			add_made(out, &n, DIAG_K_NIC, d->driver_name, "%s/%s", d->bus_name, d->dev_name);
		break;
	}
	default:
		break;
	}
	return n;
}

/* One sysfs attribute of the device: its first line into out ("" when unreadable). */
static void read_attr(const char *root, const char *dev, const char *name, char *out, size_t len)
{
	char path[PATH_MAX], *buf;

	out[0] = '\0';
	if (strchr(dev, '/') || dev[0] == '.')
		return;
	snprintf(path, sizeof(path), "%s/bus/pci/devices/%s/%s", root, dev, name);
	if (ras_read_file(path, &buf, NULL) < 0)
		return;
	snprintf(out, len, "%.*s", (int)strcspn(buf, "\n"), buf);
	free(buf);
}

void health_read_link(const char *sysfs_root, const char *dev, struct diag_link *out, int64_t now_ns)
{
	char v[4][64];
	static const char *const names[4] = {
		"current_link_speed", "current_link_width", "max_link_speed", "max_link_width",
	};

	for (int i = 0; i < 4; i++)
		read_attr(sysfs_root, dev, names[i], v[i], sizeof(v[i]));
	out->speed = diag_link_speed(v[0]);
	out->width = (int32_t)strtol(v[1], NULL, 10);
	out->max_speed = diag_link_speed(v[2]);
	out->max_width = (int32_t)strtol(v[3], NULL, 10);
	out->read_ns = now_ns;
}
