/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "mce_layout.h"

#define MCI_STATUS_VAL (1ULL << 63)

/* Offset and width of each field in the kernel's struct mce. */
static const struct { uint8_t off, size; } fields[LW_MCE_NFIELDS] = {
	[LW_MCE_STATUS] = { 0, 8 }, [LW_MCE_MISC] = { 8, 8 }, [LW_MCE_ADDR] = { 16, 8 },
	[LW_MCE_MCGSTATUS] = { 24, 8 }, [LW_MCE_IP] = { 32, 8 }, [LW_MCE_TSC] = { 40, 8 },
	[LW_MCE_TIME] = { 48, 8 }, [LW_MCE_CPUVENDOR] = { 56, 1 }, [LW_MCE_INJECT_FLAGS] = { 57, 1 },
	[LW_MCE_SEVERITY] = { 58, 1 }, [LW_MCE_CPUID] = { 60, 4 }, [LW_MCE_CS] = { 64, 1 },
	[LW_MCE_BANK] = { 65, 1 }, [LW_MCE_CPU] = { 66, 1 }, [LW_MCE_FINISHED] = { 67, 1 },
	[LW_MCE_EXTCPU] = { 68, 4 }, [LW_MCE_SOCKETID] = { 72, 4 }, [LW_MCE_APICID] = { 76, 4 },
	[LW_MCE_MCGCAP] = { 80, 8 }, [LW_MCE_SYND] = { 88, 8 }, [LW_MCE_IPID] = { 96, 8 },
	[LW_MCE_PPIN] = { 104, 8 }, [LW_MCE_MICROCODE] = { 112, 4 }, [LW_MCE_KFLAGS] = { 120, 8 },
};

static const struct { size_t size; const char *kernels; } layouts[] = {
	{ 88, "2.6.31-4.8" }, { 112, "4.10-4.14" }, { 120, "4.15-5.7" }, { 128, "5.8+" },
};

#define NEWEST 128

/* Little-endian, whatever the host: a database or a file may come from another machine. */
static uint64_t le(const uint8_t *p, unsigned size)
{
	uint64_t v = 0;

	for (unsigned i = size; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void *field_ptr(struct lw_mce *m, enum lw_mce_field f)
{
	switch (f) {
	case LW_MCE_STATUS: return &m->status;
	case LW_MCE_MISC: return &m->misc;
	case LW_MCE_ADDR: return &m->addr;
	case LW_MCE_MCGSTATUS: return &m->mcgstatus;
	case LW_MCE_IP: return &m->ip;
	case LW_MCE_TSC: return &m->tsc;
	case LW_MCE_TIME: return &m->time;
	case LW_MCE_CPUVENDOR: return &m->cpuvendor;
	case LW_MCE_INJECT_FLAGS: return &m->inject_flags;
	case LW_MCE_SEVERITY: return &m->severity;
	case LW_MCE_CPUID: return &m->cpuid;
	case LW_MCE_CS: return &m->cs;
	case LW_MCE_BANK: return &m->bank;
	case LW_MCE_CPU: return &m->cpu;
	case LW_MCE_FINISHED: return &m->finished;
	case LW_MCE_EXTCPU: return &m->extcpu;
	case LW_MCE_SOCKETID: return &m->socketid;
	case LW_MCE_APICID: return &m->apicid;
	case LW_MCE_MCGCAP: return &m->mcgcap;
	case LW_MCE_SYND: return &m->synd;
	case LW_MCE_IPID: return &m->ipid;
	case LW_MCE_PPIN: return &m->ppin;
	case LW_MCE_MICROCODE: return &m->microcode;
	default: return &m->kflags;
	}
}

static void store(void *dst, unsigned size, uint64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)dst = (uint8_t)v; break;
	case 4: *(uint32_t *)dst = (uint32_t)v; break;
	default: *(uint64_t *)dst = v; break;
	}
}

static unsigned size_problems(size_t len)
{
	if (len < layouts[0].size)
		return LW_MCE_SHORT;
	if (len > NEWEST)
		return LW_MCE_LONGER;
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++)
		if (len == layouts[i].size)
			return 0;
	return LW_MCE_ODD_SIZE;
}

int lw_mce_parse(const void *buf, size_t len, struct lw_mce *out)
{
	const uint8_t *p = buf;

	memset(out, 0, sizeof(*out));
	out->size = len;
	out->problems = size_problems(len);
	for (unsigned f = 0; f < LW_MCE_NFIELDS; f++) {
		if ((size_t)fields[f].off + fields[f].size > len)
			continue;
		store(field_ptr(out, (enum lw_mce_field)f), fields[f].size,
		      le(p + fields[f].off, fields[f].size));
		out->present |= 1u << f;
	}
	if (len < LW_MCE_MIN_USABLE || !(out->status & MCI_STATUS_VAL))
		return -EINVAL;
	return 0;
}

void lw_mce_layout_name(const struct lw_mce *m, char *out, size_t len)
{
	for (size_t i = 0; i < sizeof(layouts) / sizeof(layouts[0]); i++) {
		if (m->size == layouts[i].size) {
			snprintf(out, len, "%s (%zu bytes)", layouts[i].kernels, m->size);
			return;
		}
	}
	snprintf(out, len, "%s (%zu bytes)", m->size > NEWEST ? "newer than 5.8+" : "unknown", m->size);
}

uint64_t lw_hash(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t lw_mce_identity(const struct lw_mce *m)
{
	/* The fields every layout has and the kernel set when it logged: not finished, kflags. */
	const uint64_t v[] = {
		m->status, m->misc, m->addr, m->mcgstatus, m->ip, m->tsc, m->time, m->bank,
		m->extcpu, m->apicid, m->socketid, m->cpuid, m->mcgcap,
	};
	uint64_t h = LW_HASH_INIT;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t b[8];

		for (unsigned k = 0; k < 8; k++)
			b[k] = (uint8_t)(v[i] >> (8 * k));
		h = lw_hash(h, b, 8);
	}
	/* 0 is never an identity: it reads as "none" to the database. */
	return h ? h : 1;
}
