/* SPDX-License-Identifier: MIT */
#include <string.h>
#include "part.h"

static const char *const kind_names[DIAG_K_N] = {
	"dimm", "hbm", "cxl", "cpu", "cache", "socket", "pcie", "disk", "nic",
};
static const char *const verdict_names[DIAG_V_N] = { "ok", "watch", "replace" };
static const char *const mode_names[DIAG_M_N] = {
	"none", "single-bit", "single-word", "single-column", "single-row", "single-bank",
	"multi-bank", "multi-rank", "single-lane",
};

static int find(const char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

const char *diag_kind_name(enum diag_kind k)
{
	return (unsigned)k < DIAG_K_N ? kind_names[k] : "?";
}

int diag_kind_parse(const char *name)
{
	return find(kind_names, DIAG_K_N, name);
}

bool diag_kind_dram(enum diag_kind k)
{
	return k == DIAG_K_DIMM || k == DIAG_K_HBM || k == DIAG_K_CXL;
}

const char *diag_verdict_name(enum diag_verdict v)
{
	return (unsigned)v < DIAG_V_N ? verdict_names[v] : "?";
}

int diag_verdict_parse(const char *name)
{
	return find(verdict_names, DIAG_V_N, name);
}

const char *diag_mode_name(enum diag_mode m)
{
	return (unsigned)m < DIAG_M_N ? mode_names[m] : "?";
}

int diag_mode_parse(const char *name)
{
	return find(mode_names, DIAG_M_N, name);
}

void diag_part_init(struct diag_part *p, enum diag_kind kind)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->verdict = DIAG_OK;
}

void diag_part_count(struct diag_part *p, const struct diag_obs *o)
{
	int64_t n = o->n > 0 ? o->n : 1;

	if (!p->records || o->wall_ns < p->first_ns)
		p->first_ns = o->wall_ns;
	if (!p->records || o->wall_ns > p->last_ns)
		p->last_ns = o->wall_ns;
	p->records++;
	if (o->sev == RAS_SEV_CORRECTED)
		p->corrected += n;
	else if (o->sev >= RAS_SEV_DEFERRED)
		p->uncorrected += n;
	if (o->sev == RAS_SEV_FATAL)
		p->fatal += n;
	if (o->flags & DIAG_OBS_COORDS)
		p->coord_records++;
	if (o->flags & DIAG_OBS_MEDIUM)
		p->medium += n;
	if (o->flags & DIAG_OBS_REPLACE)
		p->replace_events++;
}

int32_t diag_link_speed(const char *text)
{
	int32_t whole = 0, tenths = 0;
	const char *p = text;

	if (*p < '0' || *p > '9')
		return 0;
	for (; *p >= '0' && *p <= '9' && whole < 100000; p++)
		whole = whole * 10 + (*p - '0');
	/* "2.5", "8.0", "16.0", "64.0": one decimal is all PCIe speeds need. */
	if (*p == '.' && p[1] >= '0' && p[1] <= '9')
		tenths = p[1] - '0';
	return whole * 10 + tenths;
}
