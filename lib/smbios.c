/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "smbios.h"

#define SMBIOS_HEADER_LEN 4
#define SMBIOS_TYPE_MEMORY_DEVICE 17
#define SMBIOS_TYPE_END 127
#define SMBIOS_TABLE_MAX (16u << 20)

/* Type 17 field offsets, DSP0134 7.18. */
enum {
	T17_SIZE = 0x0c,          /* WORD, since 2.1 */
	T17_FORM_FACTOR = 0x0e,
	T17_LOCATOR = 0x10,       /* string numbers */
	T17_BANK_LOCATOR = 0x11,
	T17_MEMORY_TYPE = 0x12,
	T17_SPEED = 0x15,         /* WORD, since 2.3 */
	T17_MANUFACTURER = 0x17,
	T17_SERIAL = 0x18,
	T17_PART_NUMBER = 0x1a,
	T17_ATTRIBUTES = 0x1b,    /* since 2.6: rank in bits 3:0 */
	T17_EXTENDED_SIZE = 0x1c, /* DWORD, since 2.7 */
};

static unsigned get16(const uint8_t *p) { return (unsigned)p[0] | (unsigned)p[1] << 8; }
static uint32_t get32(const uint8_t *p) { return (uint32_t)get16(p) | (uint32_t)get16(p + 2) << 16; }

/* Copies string number n (1-based) of the set [s, end) into out; "" if absent. */
static void copy_string(const uint8_t *s, const uint8_t *end, unsigned n, char *out, size_t len)
{
	size_t k = 0;

	out[0] = 0;
	if (n == 0)
		return;
	while (s < end && *s && --n > 0) {
		const uint8_t *nul = memchr(s, 0, (size_t)(end - s));

		if (!nul)
			return;
		s = nul + 1;
	}
	if (n != 0 || s >= end)
		return;
	for (; s < end && *s && k + 1 < len; s++)
		out[k++] = *s >= 0x20 && *s < 0x7f ? (char)*s : '?';
	out[k] = 0;
	/* Firmware pads with spaces; trim them. */
	while (k > 0 && out[k - 1] == ' ')
		out[--k] = 0;
}

static uint64_t decode_size(const uint8_t *f, unsigned flen)
{
	unsigned size;

	if (flen < T17_SIZE + 2)
		return UINT64_MAX;
	size = get16(f + T17_SIZE);
	if (size == 0xffff)
		return UINT64_MAX;
	if (size == 0x7fff && flen >= T17_EXTENDED_SIZE + 4)
		return get32(f + T17_EXTENDED_SIZE) & 0x7fffffffu;
	if (size & 0x8000)
		return (size & 0x7fffu) / 1024;  /* kilobytes */
	return size;
}

static void parse_device(const uint8_t *f, unsigned flen, const uint8_t *strings,
			 const uint8_t *end, struct smbios_memory_device *d)
{
	memset(d, 0, sizeof(*d));
	d->handle = (uint16_t)get16(f + 2);
	d->size_mb = decode_size(f, flen);
	if (flen > T17_FORM_FACTOR)
		d->form_factor = f[T17_FORM_FACTOR];
	if (flen > T17_LOCATOR)
		copy_string(strings, end, f[T17_LOCATOR], d->locator, sizeof(d->locator));
	if (flen > T17_BANK_LOCATOR)
		copy_string(strings, end, f[T17_BANK_LOCATOR], d->bank_locator, sizeof(d->bank_locator));
	if (flen > T17_MEMORY_TYPE)
		d->memory_type = f[T17_MEMORY_TYPE];
	if (flen >= T17_SPEED + 2)
		d->speed_mts = (uint16_t)get16(f + T17_SPEED);
	if (flen > T17_MANUFACTURER)
		copy_string(strings, end, f[T17_MANUFACTURER], d->manufacturer, sizeof(d->manufacturer));
	if (flen > T17_SERIAL)
		copy_string(strings, end, f[T17_SERIAL], d->serial, sizeof(d->serial));
	if (flen > T17_PART_NUMBER)
		copy_string(strings, end, f[T17_PART_NUMBER], d->part_number, sizeof(d->part_number));
	if (flen > T17_ATTRIBUTES)
		d->rank = f[T17_ATTRIBUTES] & 0x0f;
}

/* End of the string set that starts at s: just past its double NUL, or NULL. */
static const uint8_t *strings_end(const uint8_t *s, const uint8_t *end)
{
	for (; s + 1 < end; s++)
		if (s[0] == 0 && s[1] == 0)
			return s + 2;
	return NULL;
}

int smbios_memory_devices(const uint8_t *blob, size_t len, struct smbios_memory_device *out,
			  unsigned max)
{
	const uint8_t *p = blob, *end = blob + len;
	int found = 0;

	while ((size_t)(end - p) >= SMBIOS_HEADER_LEN) {
		unsigned type = p[0], flen = p[1];
		const uint8_t *next;

		if (flen < SMBIOS_HEADER_LEN || flen > (size_t)(end - p))
			return p == blob ? -EINVAL : found;
		next = strings_end(p + flen, end);
		if (!next)
			return p == blob ? -EINVAL : found;
		if (type == SMBIOS_TYPE_MEMORY_DEVICE) {
			if ((unsigned)found < max)
				parse_device(p, flen, p + flen, next, &out[found]);
			found++;
		}
		if (type == SMBIOS_TYPE_END)
			break;
		p = next;
	}
	return found;
}

int smbios_read_table(const char *path, uint8_t **blob, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t cap = 65536, n = 0;
	uint8_t *buf;
	ssize_t got;

	if (fd < 0)
		return -errno;
	buf = malloc(cap);
	while (buf && (got = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n == cap && cap < SMBIOS_TABLE_MAX) {
			uint8_t *bigger = realloc(buf, cap * 2);

			if (!bigger) {
				free(buf);
				buf = NULL;
				break;
			}
			buf = bigger;
			cap *= 2;
		} else if (n == cap) {
			break;  /* larger than any real table: keep what fits */
		}
	}
	close(fd);
	if (!buf)
		return -ENOMEM;
	*blob = buf;
	*len = n;
	return 0;
}

const char *smbios_memory_type_name(uint8_t type)
{
	static const char *const names[] = {
		[0x01] = "Other", [0x02] = "Unknown", [0x03] = "DRAM", [0x04] = "EDRAM",
		[0x05] = "VRAM", [0x06] = "SRAM", [0x07] = "RAM", [0x08] = "ROM",
		[0x09] = "Flash", [0x0a] = "EEPROM", [0x0b] = "FEPROM", [0x0c] = "EPROM",
		[0x0d] = "CDRAM", [0x0e] = "3DRAM", [0x0f] = "SDRAM", [0x10] = "SGRAM",
		[0x11] = "RDRAM", [0x12] = "DDR", [0x13] = "DDR2", [0x14] = "DDR2 FB-DIMM",
		[0x18] = "DDR3", [0x19] = "FBD2", [0x1a] = "DDR4", [0x1b] = "LPDDR",
		[0x1c] = "LPDDR2", [0x1d] = "LPDDR3", [0x1e] = "LPDDR4",
		[0x1f] = "Logical non-volatile device", [0x20] = "HBM", [0x21] = "HBM2",
		[0x22] = "DDR5", [0x23] = "LPDDR5", [0x24] = "HBM3",
	};

	if (type < sizeof(names) / sizeof(names[0]) && names[type])
		return names[type];
	return "Unknown";
}
