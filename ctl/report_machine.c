/* SPDX-License-Identifier: MIT */
/*
 * The live machine's identity for the report (--machine): what a hardware
 * vendor asks for first. Read from sysfs (DMI, the SMBIOS table's type 17
 * memory devices, each socket's PPIN), /proc/cpuinfo and uname; dmidecode is
 * never run. Files only root may read (serials, the SMBIOS table, PPIN) are
 * left out when they cannot be read, and the report says what it has; those
 * of serials refused are noted (unread) for --redact to say.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "report.h"
#include "lib/fileio.h"
#include "lib/smbios.h"

/* The DMI identity files a support case quotes (/sys/class/dmi/id). */
static const char *const dmi_keys[] = {
	"sys_vendor", "product_name", "product_version", "product_serial", "product_sku",
	"board_vendor", "board_name", "board_version", "board_serial", "chassis_serial",
	"bios_vendor", "bios_version", "bios_date", "bios_release",
};

/*
 * A serial's file that is there but refused (only root may read it): its path
 * noted in mc->unread, so --redact can say those serials were not looked for.
 */
static void note_refused(struct rpt_machine *mc, const char *path, int err)
{
	char *p;

	if (err != -EACCES && err != -EPERM)
		return;
	if (!(p = strdup(path)))
		return;
	char **v = realloc(mc->unread, (mc->nunread + 1) * sizeof(*v));

	if (!v) {
		free(p);
		return;
	}
	mc->unread = v;
	v[mc->nunread++] = p;
}

/* A one-line file's text, trimmed; NULL when it cannot be read (a serial's refused: noted) or is empty. */
static char *read_line(struct rpt_machine *mc, const char *path, bool serial)
{
	char *buf;
	int r;

	if ((r = ras_read_file(path, &buf, NULL)) < 0) {
		if (serial)
			note_refused(mc, path, r);
		return NULL;
	}
	buf[strcspn(buf, "\n")] = 0;
	if (!buf[0]) {
		free(buf);
		return NULL;
	}
	return buf;
}

static int dmi(struct rpt_machine *mc, const char *root)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < sizeof(dmi_keys) / sizeof(dmi_keys[0]); i++) {
		char *v;
		struct rpt_kv *kv;

		snprintf(path, sizeof(path), "%s/class/dmi/id/%s", root, dmi_keys[i]);
		if (!(v = read_line(mc, path, strstr(dmi_keys[i], "serial") != NULL)))
			continue;
		if (!(kv = report_grow(&mc->dmi, &mc->ndmi, sizeof(*kv))) || !(kv->key = strdup(dmi_keys[i]))) {
			free(v);
			return -ENOMEM;
		}
		kv->value = v;
	}
	return 0;
}

#define DIMMS_MAX 256

static int dimms(struct rpt_machine *mc, const char *root)
{
	struct smbios_memory_device *dev;
	char path[PATH_MAX];
	uint8_t *blob;
	size_t len;
	int n;

	snprintf(path, sizeof(path), "%s/firmware/dmi/tables/DMI", root);
	if ((n = smbios_read_table(path, &blob, &len)) < 0) {
		note_refused(mc, path, n);     /* the DIMMs' serials are in it */
		return 0;
	}
	if (!(dev = calloc(DIMMS_MAX, sizeof(*dev)))) {
		free(blob);
		return -ENOMEM;
	}
	n = smbios_memory_devices(blob, len, dev, DIMMS_MAX);
	free(blob);
	for (int i = 0; i < n && i < DIMMS_MAX; i++) {
		struct rpt_dimm *d = report_grow(&mc->dimms, &mc->ndimms, sizeof(*d));

		if (!d)
			break;
		*d = (struct rpt_dimm){
			.locator = strdup(dev[i].locator), .bank_locator = strdup(dev[i].bank_locator),
			.manufacturer = strdup(dev[i].manufacturer), .serial = strdup(dev[i].serial),
			.part_number = strdup(dev[i].part_number), .size_mb = dev[i].size_mb,
			.speed_mts = dev[i].speed_mts,
			.memory_type = strdup(smbios_memory_type_name(dev[i].memory_type)),
		};
	}
	free(dev);
	return 0;
}

/* The value of a "key<TAB>: value" line of /proc/cpuinfo. */
static const char *cpuinfo_value(const char *line, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(line, key, n) || (line[n] != '\t' && line[n] != ' ' && line[n] != ':'))
		return NULL;
	line = strchr(line, ':');
	return line ? line + 1 + (line[1] == ' ') : NULL;
}

/* The first logical CPU seen of each socket: its model, stepping, microcode and PPIN. */
struct cpu_line {
	long processor, socket;
	const char *model, *stepping, *microcode;
};

static int add_socket(struct rpt_machine *mc, const char *root, const struct cpu_line *l)
{
	char path[PATH_MAX];
	struct rpt_cpu *c;

	for (size_t i = 0; i < mc->ncpus; i++)
		if (mc->cpus[i].socket == (unsigned)l->socket)
			return 0;
	if (!(c = report_grow(&mc->cpus, &mc->ncpus, sizeof(*c))))
		return -ENOMEM;
	c->socket = (unsigned)l->socket;
	c->model = l->model ? strdup(l->model) : NULL;
	c->stepping = l->stepping ? strdup(l->stepping) : NULL;
	c->microcode = l->microcode ? strdup(l->microcode) : NULL;
	snprintf(path, sizeof(path), "%s/devices/system/cpu/cpu%ld/topology/ppin", root, l->processor);
	c->ppin = read_line(mc, path, true);
	return 0;
}

static int cpus(struct rpt_machine *mc, const char *root)
{
	struct cpu_line l = { .processor = -1, .socket = 0 };
	char *buf, *line, *save = NULL;
	const char *v;
	int r = 0;

	if (ras_read_file("/proc/cpuinfo", &buf, NULL) < 0)
		return 0;
	for (line = strtok_r(buf, "\n", &save); line && r == 0; line = strtok_r(NULL, "\n", &save)) {
		if ((v = cpuinfo_value(line, "processor"))) {
			if (l.processor >= 0)
				r = add_socket(mc, root, &l);
			l = (struct cpu_line){ .processor = strtol(v, NULL, 10) };
		} else if ((v = cpuinfo_value(line, "physical id"))) {
			l.socket = strtol(v, NULL, 10);
		} else if ((v = cpuinfo_value(line, "model name"))) {
			l.model = v;
		} else if ((v = cpuinfo_value(line, "stepping"))) {
			l.stepping = v;
		} else if ((v = cpuinfo_value(line, "microcode"))) {
			l.microcode = v;
		}
	}
	if (r == 0 && l.processor >= 0)
		r = add_socket(mc, root, &l);
	free(buf);
	return r;
}

struct rpt_machine *report_machine(const char *sysfs_root)
{
	struct rpt_machine *mc = calloc(1, sizeof(*mc));
	struct utsname u;
	char kernel[sizeof(u.sysname) + sizeof(u.release) + sizeof(u.version) + sizeof(u.machine) + 4];

	if (!mc)
		return NULL;
	if (uname(&u) == 0) {
		snprintf(kernel, sizeof(kernel), "%s %s %s %s", u.sysname, u.release, u.version, u.machine);
		mc->hostname = strdup(u.nodename);
		mc->kernel = strdup(kernel);
	}
	/* Out of memory part-way leaves what was read: the identity is a help, not the report. */
	if (dmi(mc, sysfs_root) == 0 && dimms(mc, sysfs_root) == 0)
		cpus(mc, sysfs_root);
	return mc;
}
