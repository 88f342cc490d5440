/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "synthetic.h"

struct synth_buf {
	uint8_t *rec;
	size_t fixed;   /* end of the fixed part, where dynamic data starts */
	size_t used;
	size_t cap;
};

static size_t fixed_size(struct tep_event *ev)
{
	size_t end = 0;

	for (struct tep_format_field *f = ev->format.common_fields; f; f = f->next)
		if ((size_t)(f->offset + f->size) > end)
			end = (size_t)(f->offset + f->size);
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if ((size_t)(f->offset + f->size) > end)
			end = (size_t)(f->offset + f->size);
	return (end + 3) & ~(size_t)3;
}

static int parse_hex_bytes(const char *s, uint8_t *out, size_t cap, size_t *len)
{
	size_t n = 0;

	if (!strncmp(s, "0x", 2))
		s += 2;
	while (*s) {
		unsigned byte;

		if (*s == ':' || *s == ' ' || *s == '-') {
			s++;
			continue;
		}
		if (n >= cap || sscanf(s, "%2x", &byte) != 1 || !s[1])
			return -EINVAL;
		out[n++] = (uint8_t)byte;
		s += 2;
	}
	*len = n;
	return 0;
}

static bool is_char_field(const struct tep_format_field *f)
{
	/* libtraceevent flags every __data_loc array as a string; the type says which. */
	return strstr(f->type, "char") != NULL;
}

static int set_dynamic(struct synth_buf *b, struct tep_format_field *f, const char *value)
{
	size_t len;
	uint32_t word;

	if (is_char_field(f)) {
		len = strlen(value) + 1;
		if (b->used + len > b->cap)
			return -E2BIG;
		memcpy(b->rec + b->used, value, len);
	} else if (parse_hex_bytes(value, b->rec + b->used, b->cap - b->used, &len) < 0) {
		return -EINVAL;
	}
	if (len > 0xffff)
		return -E2BIG;
	word = (uint32_t)(len << 16) | (uint32_t)b->used;
	memcpy(b->rec + f->offset, &word, 4);
	b->used += (len + 3) & ~(size_t)3;
	if (b->used > b->cap)
		b->used = b->cap;
	return 0;
}

static int set_static(struct synth_buf *b, struct tep_format_field *f, const char *value)
{
	uint8_t *dst = b->rec + f->offset;
	size_t len;

	/* Arrays, GUIDs and embedded structs are given as bytes. */
	if (f->flags & TEP_FIELD_IS_ARRAY || f->size > 8) {
		memset(dst, 0, (size_t)f->size);
		if (is_char_field(f) && strncmp(value, "0x", 2)) {
			strncpy((char *)dst, value, (size_t)f->size);
			return 0;
		}
		return parse_hex_bytes(value, dst, (size_t)f->size, &len);
	}
	char *end;
	errno = 0;
	unsigned long long v = value[0] == '-' ? (unsigned long long)strtoll(value, &end, 0)
					       : strtoull(value, &end, 0);
	if (errno || end == value || *end || f->size > 8)
		return -EINVAL;
	/* Records are in host byte order. */
	memcpy(dst, &v, (size_t)f->size);
	return 0;
}

static int assign(struct synth_buf *b, struct tep_event *ev, const char *kv,
		  char *err, size_t errlen)
{
	const char *eq = strchr(kv, '=');
	char name[128];
	struct tep_format_field *f;
	int r;

	if (!eq || (size_t)(eq - kv) >= sizeof(name)) {
		snprintf(err, errlen, "'%s': expected field=value", kv);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(eq - kv), kv);
	f = tep_find_field(ev, name);
	if (!f) {
		snprintf(err, errlen, "%s has no field '%s'", ev->name, name);
		return -EINVAL;
	}
	r = f->flags & TEP_FIELD_IS_DYNAMIC ? set_dynamic(b, f, eq + 1) : set_static(b, f, eq + 1);
	if (r < 0)
		snprintf(err, errlen, "field '%s': cannot use value '%s' (type %s)", name, eq + 1, f->type);
	return r;
}

/* Dynamic fields not assigned still need a valid empty location. */
static int fill_unset_dynamic(struct synth_buf *b, struct tep_event *ev)
{
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		uint32_t word;

		if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
			continue;
		memcpy(&word, b->rec + f->offset, 4);
		if (word == 0 && set_dynamic(b, f, "") < 0)
			return -E2BIG;
	}
	return 0;
}

static int wrap(const char *system, struct tep_event *ev, const struct synth_buf *b,
		uint8_t *out, size_t cap)
{
	char name[128];
	uint32_t id = RAS_SYNTH_ID, rec_len = (uint32_t)b->used;
	uint16_t version = RAS_SYNTH_VERSION, name_len;
	size_t total;

	snprintf(name, sizeof(name), "%s:%s", system, ev->name);
	name_len = (uint16_t)strlen(name);
	total = 12 + name_len + rec_len;
	if (total > cap)
		return -E2BIG;
	memcpy(out, &id, 4);
	memcpy(out + 4, &version, 2);
	memcpy(out + 6, &name_len, 2);
	memcpy(out + 8, &rec_len, 4);
	memcpy(out + 12, name, name_len);
	memcpy(out + 12 + name_len, b->rec, rec_len);
	return (int)total;
}

static int build_record(struct tep_event *ev, char **assignments, int n, struct synth_buf *b,
			char *err, size_t errlen)
{
	uint16_t type = (uint16_t)ev->id;
	int32_t pid = (int32_t)getpid();
	int r = 0;

	memset(b->rec, 0, b->cap);
	b->fixed = b->used = fixed_size(ev);
	if (b->fixed > b->cap) {
		snprintf(err, errlen, "%s: record too large", ev->name);
		return -E2BIG;
	}
	memcpy(b->rec, &type, 2);
	memcpy(b->rec + 4, &pid, 4);
	for (int i = 0; i < n && r == 0; i++)
		r = assign(b, ev, assignments[i], err, errlen);
	if (r == 0)
		r = fill_unset_dynamic(b, ev);
	return r;
}

int ras_synth_record(struct tep_event *ev, char **assignments, int n, uint8_t *out, size_t cap,
		     char *err, size_t errlen)
{
	struct synth_buf b = { .rec = out, .cap = cap };
	int r = build_record(ev, assignments, n, &b, err, errlen);

	return r < 0 ? r : (int)b.used;
}

int ras_synth_build(struct tep_event *ev, const char *system, char **assignments, int n,
		    uint8_t *out, size_t cap, char *err, size_t errlen)
{
	uint8_t rec[RAS_SYNTH_MAX];
	struct synth_buf b = { .rec = rec, .cap = sizeof(rec) };
	int r = build_record(ev, assignments, n, &b, err, errlen);

	if (r < 0)
		return r;
	r = wrap(system, ev, &b, out, cap);
	if (r < 0)
		snprintf(err, errlen, "%s: record too large for trace_marker_raw", ev->name);
	return r;
}
int ras_synth_unwrap(const uint8_t *buf, uint32_t len, const char **name, uint16_t *name_len,
		     const uint8_t **rec, uint32_t *rec_len)
{
	uint16_t version;

	/* buf starts after the raw_data id, which the caller has checked. */
	if (len < 8)
		return -EBADMSG;
	memcpy(&version, buf, 2);
	memcpy(name_len, buf + 2, 2);
	memcpy(rec_len, buf + 4, 4);
	if (version != RAS_SYNTH_VERSION || *name_len == 0 || *name_len > len - 8 ||
	    *rec_len > len - 8 - *name_len || *rec_len < 8)
		return -EBADMSG;
	*name = (const char *)buf + 8;
	*rec = buf + 8 + *name_len;
	return 0;
}
