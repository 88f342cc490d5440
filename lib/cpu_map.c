/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cpu_map.h"
#include "fileio.h"

struct cpu_entry {
	uint64_t mpidr;          /* affinity fields only */
	int cpu;
};

struct ras_cpu_map {
	struct cpu_entry *e;
	unsigned n, cap;
};

/* ACPI 6.5 5.2.6 (header: Length at 4) and 5.2.12 (MADT entries from byte 44). */
#define MADT_FIRST_ENTRY 44
#define GICC_TYPE 0x0b
#define GICC_UID_AT 8
#define GICC_MPIDR_AT 68

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)le32(p) | (uint64_t)le32(p + 4) << 32;
}

int ras_cpu_map_dt_reg(const uint8_t *reg, size_t len, uint64_t *mpidr)
{
	uint64_t v = 0;

	/* #address-cells of /cpus is 1 or 2 on arm64: one or two big-endian cells. */
	if (len != 4 && len != 8)
		return -EINVAL;
	for (size_t i = 0; i < len; i++)
		v = v << 8 | reg[i];
	*mpidr = v & RAS_MPIDR_AFFINITY_MASK;
	return 0;
}

int ras_cpu_map_madt_mpidr(const uint8_t *madt, size_t len, uint32_t uid, uint64_t *mpidr)
{
	size_t end, pos = MADT_FIRST_ENTRY;

	if (len < MADT_FIRST_ENTRY || memcmp(madt, "APIC", 4))
		return -EINVAL;
	end = le32(madt + 4);
	if (end > len)
		end = len;
	while (pos + 2 <= end) {
		uint8_t type = madt[pos], elen = madt[pos + 1];

		if (elen < 2 || elen > end - pos)
			return -EINVAL;
		if (type == GICC_TYPE && elen >= GICC_MPIDR_AT + 8 &&
		    le32(madt + pos + GICC_UID_AT) == uid) {
			*mpidr = le64(madt + pos + GICC_MPIDR_AT) & RAS_MPIDR_AFFINITY_MASK;
			return 0;
		}
		pos += elen;
	}
	return -ENOENT;
}

static int add(struct ras_cpu_map *m, uint64_t mpidr, int cpu)
{
	if (m->n == m->cap) {
		unsigned cap = m->cap ? m->cap * 2 : 64;
		struct cpu_entry *e = realloc(m->e, cap * sizeof(*e));

		if (!e)
			return -ENOMEM;
		m->e = e;
		m->cap = cap;
	}
	m->e[m->n++] = (struct cpu_entry){ mpidr, cpu };
	return 0;
}

/* This CPU's MPIDR from its devicetree node, else through its ACPI _UID and the MADT. */
static int mpidr_of(const char *root, int cpu, const uint8_t *madt, size_t madt_len,
		    uint64_t *mpidr)
{
	char path[4200], *buf = NULL, *end;
	size_t len = 0;
	unsigned long uid;
	int r;

	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/of_node/reg", root, cpu);
	if (ras_read_file(path, &buf, &len) == 0) {
		r = ras_cpu_map_dt_reg((const uint8_t *)buf, len, mpidr);
		free(buf);
		return r;
	}
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/firmware_node/uid", root, cpu);
	if (!madt || ras_read_file(path, &buf, &len) < 0)
		return -ENOENT;
	errno = 0;
	uid = strtoul(buf, &end, 10);
	r = errno || end == buf || uid > UINT32_MAX ? -EINVAL :
	    ras_cpu_map_madt_mpidr(madt, madt_len, (uint32_t)uid, mpidr);
	free(buf);
	return r;
}

/* cpuN directories, N a plain decimal number. */
static int cpu_number(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "cpu", 3) || !isdigit((unsigned char)name[3]))
		return -1;
	n = strtol(name + 3, &end, 10);
	return *end || n > 65535 ? -1 : (int)n;
}

int ras_cpu_map_load(struct ras_cpu_map **out, const char *sysfs_root)
{
	struct ras_cpu_map *m = calloc(1, sizeof(*m));
	char path[4200], *madt = NULL;
	size_t madt_len = 0;
	struct dirent *de;
	DIR *dir;
	int r = 0;

	if (!m)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/firmware/acpi/tables/APIC", sysfs_root);
	if (ras_read_file(path, &madt, &madt_len) < 0)
		madt = NULL;
	snprintf(path, sizeof(path), "%s/devices/system/cpu", sysfs_root);
	dir = opendir(path);
	while (dir && r == 0 && (de = readdir(dir))) {
		int cpu = cpu_number(de->d_name);
		uint64_t mpidr;

		if (cpu >= 0 && mpidr_of(sysfs_root, cpu, (const uint8_t *)madt, madt_len, &mpidr) == 0)
			r = add(m, mpidr, cpu);
	}
	if (dir)
		closedir(dir);
	free(madt);
	if (r < 0) {
		ras_cpu_map_free(m);
		return r;
	}
	*out = m;
	return 0;
}

void ras_cpu_map_free(struct ras_cpu_map *m)
{
	if (!m)
		return;
	free(m->e);
	free(m);
}

int ras_cpu_map_lookup(const struct ras_cpu_map *m, uint64_t mpidr)
{
	mpidr &= RAS_MPIDR_AFFINITY_MASK;
	for (unsigned i = 0; m && i < m->n; i++)
		if (m->e[i].mpidr == mpidr)
			return m->e[i].cpu;
	return -1;
}

unsigned ras_cpu_map_size(const struct ras_cpu_map *m)
{
	return m ? m->n : 0;
}
