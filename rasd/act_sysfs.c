/* SPDX-License-Identifier: MIT */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "act_sysfs.h"
#include "decoders/dfield.h"
#include "lib/safe_path.h"

#define MAX_CPUS 4096

static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* One write of the whole value, as sysfs wants it; the kernel's answer is the result. */
int act_write_sysfs(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n, len = (ssize_t)strlen(value);

	if (fd < 0)
		return errno == ENOENT ? -EOPNOTSUPP : -errno;
	n = write(fd, value, (size_t)len);
	if (n < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	close(fd);
	return n == len ? 0 : -EIO;
}

int act_offline_page(const char *root, const char *how, uint64_t addr, bool dry_run,
		     char *target, size_t len)
{
	char path[4200], value[32];

	snprintf(path, sizeof(path), "%s/devices/system/memory/%s_offline_page", root, how);
	snprintf(value, sizeof(value), "0x%llx", (unsigned long long)addr);
	snprintf(target, len, "%s > %s", value, path);
	if (access(path, F_OK) != 0)
		return -EOPNOTSUPP;
	return dry_run ? 0 : act_write_sysfs(path, value);
}

#define KPF_HWPOISON 19

int act_page_hwpoison(const char *proc_root, uint64_t addr, uint64_t page_size)
{
	char path[4200];
	uint64_t flags;
	ssize_t n;
	int fd, e;

	if (!page_size || addr / page_size > (uint64_t)INT64_MAX / sizeof(flags))
		return -EINVAL;
	snprintf(path, sizeof(path), "%s/kpageflags", proc_root);
	/* Opened each time: asked only when a page would be offlined, and never held open. */
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	n = pread(fd, &flags, sizeof(flags), (off_t)(addr / page_size * sizeof(flags)));
	e = errno;
	close(fd);
	if (n < 0)
		return -e;
	if (n != (ssize_t)sizeof(flags))
		return -ENXIO;
	return (int)((flags >> KPF_HWPOISON) & 1);
}

int act_parse_cpu_list(const char *text, uint8_t *bits, unsigned max)
{
	const char *p = text;
	int count = 0;

	memset(bits, 0, (max + 7) / 8);
	while (*p && *p != '\n') {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;

		if (end == p)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			hi = strtoul(p, &end, 10);
			if (end == p || hi < lo)
				return -EINVAL;
		}
		for (unsigned long c = lo; c <= hi && c < max; c++) {
			count += !(bits[c / 8] & (1u << (c % 8)));
			bits[c / 8] |= (uint8_t)(1u << (c % 8));
		}
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',' && *end != '\n')
			return -EINVAL;
	}
	return count;
}

/* The CPUs sharing the cache of a cache error: the index with that level and side. */
static int cache_cpus(const char *root, const struct ras_subject *s, uint8_t *bits)
{
	char path[4200], buf[4096];

	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/level",
			 root, s->cpu, i);
		if (read_small(path, buf, sizeof(buf)) < 0)
			break;
		if (atoi(buf) != s->cache_level)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/type",
			 root, s->cpu, i);
		if (read_small(path, buf, sizeof(buf)) == 0 &&
		    (!strcmp(buf, "Instruction")) != s->instruction)
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/cache/index%d/shared_cpu_list",
			 root, s->cpu, i);
		if (read_small(path, buf, sizeof(buf)) == 0)
			return act_parse_cpu_list(buf, bits, MAX_CPUS);
	}
	return -ENOENT;
}

/* How many CPUs are online now (devices/system/cpu/online). */
static int online_count(const char *root)
{
	static uint8_t bits[MAX_CPUS / 8];
	char path[4200], buf[4096];

	snprintf(path, sizeof(path), "%s/devices/system/cpu/online", root);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return -ENOENT;
	return act_parse_cpu_list(buf, bits, MAX_CPUS);
}

int act_offline_cpu_count(const char *root)
{
	char path[4200], buf[16];
	struct dirent *de;
	int n = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/devices/system/cpu", root);
	if (!(dir = opendir(path)))
		return 0;
	while ((de = readdir(dir))) {
		const char *d = de->d_name;
		size_t digits = strspn(d + (strncmp(d, "cpu", 3) ? 0 : 3), "0123456789");

		/* cpuN only (not cpufreq, cpuidle): "cpu" then 1 to 5 digits, nothing after. */
		if (strncmp(d, "cpu", 3) || !digits || digits > 5 || d[3 + digits])
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/%s/online", root, d);
		n += read_small(path, buf, sizeof(buf)) == 0 && !strcmp(buf, "0");
	}
	closedir(dir);
	return n;
}

int act_offline_cpus(const char *root, const struct ras_subject *s, bool dry_run,
		     char *target, size_t len)
{
	uint8_t bits[MAX_CPUS / 8];
	char path[4200], buf[16], list[512] = "";
	int online = online_count(root), r = 0, done = 0;
	size_t n = 0;

	memset(bits, 0, sizeof(bits));
	if (s->cpu < 0 || s->cpu >= MAX_CPUS)
		return -EINVAL;
	if (!s->cache_level || cache_cpus(root, s, bits) <= 0)
		bits[s->cpu / 8] |= (uint8_t)(1u << (s->cpu % 8));
	for (int c = 0; c < MAX_CPUS; c++) {
		if (!(bits[c / 8] & (1u << (c % 8))))
			continue;
		snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%d/online", root, c);
		/* No online file: the kernel does not let this CPU go offline. */
		if (read_small(path, buf, sizeof(buf)) < 0) {
			r = r ? r : -EOPNOTSUPP;
			continue;
		}
		if (!strcmp(buf, "0"))
			continue;
		if (online >= 0 && online <= 1) {
			r = -EBUSY;   /* never the last online CPU */
			continue;
		}
		if (n < sizeof(list))
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%d", done ? "," : "", c);
		done++;
		online--;
		if (!dry_run) {
			int w = act_write_sysfs(path, "0");

			if (w < 0) {
				r = w;
				online++;
			}
		}
	}
	snprintf(target, len, "0 > %s/devices/system/cpu/cpu%s%s%s/online", root,
		 done > 1 ? "{" : "", done ? list : "?", done > 1 ? "}" : "");
	/* CPUs without an online file are left alone; the others count. */
	return done && r == -EOPNOTSUPP ? 0 : r;
}

/* Coordinates a repair may ask for, named as the ABI's attribute files. */
static int64_t coord(const struct ras_subject *s, const char *name)
{
	static const struct { const char *name; size_t off; } map[] = {
		{ "dpa", offsetof(struct diag_dram, dpa) },
		{ "channel", offsetof(struct diag_dram, channel) },
		{ "sub_channel", offsetof(struct diag_dram, sub_channel) },
		{ "rank", offsetof(struct diag_dram, rank) },
		{ "bank_group", offsetof(struct diag_dram, bank_group) },
		{ "bank", offsetof(struct diag_dram, bank) },
		{ "row", offsetof(struct diag_dram, row) },
		{ "column", offsetof(struct diag_dram, column) },
		{ "nibble_mask", offsetof(struct diag_dram, nibble_mask) },
	};
	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (!strcmp(map[i].name, name))
			return *(const int64_t *)((const char *)&s->dram + map[i].off);
	if (!strcmp(name, "hpa") && s->have_addr)
		return (int64_t)s->addr;
	return RAS_DF_NONE;
}

static const char *const repair_attrs[] = {
	"hpa", "dpa", "nibble_mask", "bank_group", "bank", "rank", "row", "column",
	"channel", "sub_channel",
};

/* Writes every attribute this repair function has and the record knows, then "1" to repair. */
static int repair_with(const char *dir, const struct ras_subject *s, bool dry_run,
		       char *target, size_t len)
{
	char path[4400], value[32];
	size_t n;

	snprintf(target, len, "%s:", dir);
	for (size_t i = 0; i < sizeof(repair_attrs) / sizeof(repair_attrs[0]); i++) {
		int64_t v = coord(s, repair_attrs[i]);

		snprintf(path, sizeof(path), "%s/%s", dir, repair_attrs[i]);
		if (access(path, F_OK) != 0 || v == RAS_DF_NONE)
			continue;
		snprintf(value, sizeof(value), strcmp(repair_attrs[i], "hpa") &&
			 strcmp(repair_attrs[i], "dpa") ? "%lld" : "0x%llx", (long long)v);
		n = strlen(target);
		if (n < len)
			snprintf(target + n, len - n, " %s=%s", repair_attrs[i], value);
		if (!dry_run) {
			int r = act_write_sysfs(path, value);

			if (r < 0)
				return r;
		}
	}
	n = strlen(target);
	if (n < len)
		snprintf(target + n, len - n, " repair=1");
	snprintf(path, sizeof(path), "%s/repair", dir);
	return dry_run ? 0 : act_write_sysfs(path, "1");
}

int act_repair_row(const char *root, const struct ras_subject *s, bool dry_run,
		   char *target, size_t len)
{
	static const char *const prefixes[] = { "", "cxl_" };
	char dir[4200], path[4300], type[64], shown[sizeof(s->device)];

	/* The device name comes from a record: one plain component or nothing is written. */
	if (!ras_path_component_ok(s->device)) {
		size_t i;

		for (i = 0; s->device[i] && i + 1 < sizeof(shown); i++)
			shown[i] = (unsigned char)s->device[i] < 0x20 || s->device[i] == 0x7f ?
				   '?' : s->device[i];
		shown[i] = '\0';
		snprintf(target, len, "refused: device name \"%s\" from the record is not a plain "
			 "file name", shown);
		return -EINVAL;
	}
	for (size_t p = 0; p < 2; p++) {
		for (int i = 0; i < 16; i++) {
			snprintf(dir, sizeof(dir), "%s/bus/edac/devices/%s%s/mem_repair%d", root,
				 prefixes[p], s->device, i);
			snprintf(path, sizeof(path), "%s/repair_type", dir);
			if (read_small(path, type, sizeof(type)) < 0)
				continue;
			/* A failing row: post-package repair or row sparing replace it. */
			if (strcmp(type, "ppr") && strcmp(type, "row-sparing"))
				continue;
			return repair_with(dir, s, dry_run, target, len);
		}
	}
	snprintf(target, len, "no ppr or row-sparing mem_repair for %s under %s/bus/edac/devices",
		 s->device, root);
	return -EOPNOTSUPP;
}
