/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <string.h>
#include "pstore_name.h"

#define ENC_Z ".enc.z"

static const struct { const char *type; enum lw_kind kind; } kinds[] = {
	{ "dmesg", LW_KIND_DMESG }, { "console", LW_KIND_CONSOLE }, { "mce", LW_KIND_MCE },
};

const char *lw_kind_name(enum lw_kind k)
{
	switch (k) {
	case LW_KIND_DMESG: return "dmesg";
	case LW_KIND_CONSOLE: return "console";
	case LW_KIND_MCE: return "mce";
	default: return "other";
	}
}

/* A backend or type name: letters, digits, '_' (and '-' in a type). */
static bool plain(const char *s, size_t n, bool dash)
{
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || (dash && c == '-')))
			return false;
	}
	return true;
}

/* The last '-' in s[0..n), or NULL. */
static const char *last_dash(const char *s, size_t n)
{
	while (n--)
		if (s[n] == '-')
			return s + n;
	return NULL;
}

/* The decimal id at s[0..n): at most 20 digits, no overflow. */
static int parse_id(const char *s, size_t n, uint64_t *id)
{
	uint64_t v = 0;

	if (!n || n > 20)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		unsigned d;

		if (s[i] < '0' || s[i] > '9')
			return -EINVAL;
		d = (unsigned)(s[i] - '0');
		if (v > (UINT64_MAX - d) / 10)
			return -EINVAL;
		v = v * 10 + d;
	}
	*id = v;
	return 0;
}

int lw_pstore_name_parse(const char *name, struct lw_pstore_name *out)
{
	size_t len = strnlen(name, 256), elen = strlen(ENC_Z);
	const char *last, *prev;

	memset(out, 0, sizeof(*out));
	if (len >= 256)
		return -EINVAL;
	if (len > elen && !memcmp(name + len - elen, ENC_Z, elen)) {
		out->compressed = true;
		len -= elen;
	}
	/* The id follows the last '-', the backend the one before it. */
	last = last_dash(name, len);
	if (!last || parse_id(last + 1, len - (size_t)(last - name) - 1, &out->id) < 0)
		return -EINVAL;
	prev = last_dash(name, (size_t)(last - name));
	if (!prev || !plain(prev + 1, (size_t)(last - prev - 1), false) ||
	    (size_t)(last - prev - 1) >= sizeof(out->backend) ||
	    !plain(name, (size_t)(prev - name), true) || (size_t)(prev - name) >= sizeof(out->type))
		return -EINVAL;
	memcpy(out->backend, prev + 1, (size_t)(last - prev - 1));
	memcpy(out->type, name, (size_t)(prev - name));
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(out->type, kinds[i].type))
			out->kind = kinds[i].kind;
	return 0;
}
