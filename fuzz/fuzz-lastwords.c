/* SPDX-License-Identifier: MIT */
/*
 * Fuzzes lastwords/: the first byte picks the parser, the rest is its input:
 * a pstore file name, a dmesg record (header, lines, the cause), a struct mce
 * of any length, systemd-pstore's pstore.conf, or several parts grouped into
 * dumps and analysed. Whatever the bytes, no crash, every string terminated,
 * every count within its bound.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "lastwords/dump.h"
#include "lastwords/mce_layout.h"
#include "lastwords/pstore_conf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_analysis(const struct lw_analysis *a)
{
	if (!memchr(a->reason, 0, sizeof(a->reason)) || !memchr(a->detail, 0, sizeof(a->detail)) ||
	    a->hw_len >= sizeof(a->hw) || a->hw[a->hw_len] || a->hw_lines > LW_HW_LINES_MAX ||
	    a->cause >= LW_CAUSE_COUNT || !lw_cause_name(a->cause) || !lw_cause_words(a->cause))
		abort();
}

static void fuzz_name(const uint8_t *d, size_t n)
{
	char name[300];
	struct lw_pstore_name pn;

	n = n < sizeof(name) - 1 ? n : sizeof(name) - 1;
	memcpy(name, d, n);
	name[n] = 0;
	if (lw_pstore_name_parse(name, &pn) == 0 &&
	    (!memchr(pn.type, 0, sizeof(pn.type)) || !memchr(pn.backend, 0, sizeof(pn.backend))))
		abort();
}

/* Up to four parts, split where the input says. */
static void fuzz_dumps(const uint8_t *d, size_t n, struct lw_analysis *a)
{
	static const char *const names[] = { "dmesg-erst-3", "dmesg-erst-2", "console-ramoops-0", "dmesg-efi-1" };
	struct lw_part parts[4];
	unsigned np = 0, first, count, groups;
	size_t at = 0;

	while (np < 4 && at < n) {
		size_t len = d[at] * 16u, start = at + 1;

		if (len > n - start)
			len = n - start;
		parts[np] = (struct lw_part){ .name = names[np], .data = d + start, .len = len,
					      .mtime_s = (int64_t)d[at] * 7, .dir = d[at] & 1 };
		lw_pstore_name_parse(names[np], &parts[np].pn);
		np++;
		at = start + len;
	}
	groups = lw_dump_group(parts, np);
	for (unsigned g = 0; g < groups; g++) {
		count = lw_dump_parts(parts, np, g, &first);
		if (!count || first + count > np)
			abort();
		lw_dump_analyze(&parts[first], count, a);
		check_analysis(a);
		lw_dump_missing(&parts[first], count);
		lw_dump_identity(&parts[first], count);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lw_analysis *a;
	struct lw_pstore_conf conf;
	struct lw_mce m;
	char layout[64];

	if (size < 1)
		return 0;
	a = malloc(sizeof(*a));
	switch (data[0] % 4) {
	case 0:
		fuzz_name(data + 1, size - 1);
		break;
	case 1:
		lw_mce_parse(data + 1, size - 1, &m);
		lw_mce_layout_name(&m, layout, sizeof(layout));
		if (m.size != size - 1 || !memchr(layout, 0, sizeof(layout)) || !lw_mce_identity(&m))
			abort();
		break;
	case 2:
		lw_pstore_conf_init(&conf);
		lw_pstore_conf_parse((const char *)data + 1, size - 1, &conf);
		lw_pstore_conf_removes(&conf);
		break;
	default:
		fuzz_dumps(data + 1, size - 1, a);
		break;
	}
	free(a);
	return 0;
}
