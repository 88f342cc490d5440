/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "meminfo.h"
#include "fileio.h"

/* "   123 kB" after the colon: the number; the unit is kB on every kernel that has the line. */
static int parse_value(const char *p, uint64_t *kb)
{
	unsigned long long v;
	char *end;

	while (*p == ' ' || *p == '\t')
		p++;
	if (!isdigit((unsigned char)*p))
		return -EINVAL;
	errno = 0;
	v = strtoull(p, &end, 10);
	if (errno)
		return -EINVAL;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end && *end != '\n' && strncmp(end, "kB", 2))
		return -EINVAL;
	*kb = v;
	return 0;
}

int ras_meminfo_parse(const char *text, const char *key, uint64_t *kb)
{
	size_t klen = strlen(key);

	for (const char *line = text; line && *line; ) {
		const char *nl = strchr(line, '\n');

		if (!strncmp(line, key, klen) && line[klen] == ':')
			return parse_value(line + klen + 1, kb);
		line = nl ? nl + 1 : NULL;
	}
	return -ENOENT;
}

int ras_meminfo_read(const char *proc_root, const char *key, uint64_t *kb)
{
	char path[4096], *buf = NULL;
	size_t len;
	int r;

	if ((size_t)snprintf(path, sizeof(path), "%s/meminfo", proc_root) >= sizeof(path))
		return -ENAMETOOLONG;
	r = ras_read_file(path, &buf, &len);
	if (r < 0)
		return r;
	r = ras_meminfo_parse(buf, key, kb);
	free(buf);
	return r;
}
