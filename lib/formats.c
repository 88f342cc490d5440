/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "formats.h"
#include "tracing.h"

/* Ids given to shipped formats, far above the kernel's dynamic event ids. */
#define SHIPPED_ID_BASE 60000

static char *format_with_id(const char *fmt, int id)
{
	const char *p = strstr(fmt, "\nID:");
	const char *eol;
	char *out;
	size_t n;

	if (!p)
		return NULL;
	p += 4;
	eol = strchr(p, '\n');
	if (!eol)
		return NULL;
	n = strlen(fmt) + 32;
	out = malloc(n);
	if (out)
		snprintf(out, n, "%.*s %d%s", (int)(p - fmt), fmt, id, eol);
	return out;
}

static struct tep_event *parse_format_file(struct tep_handle *tep, const char *path,
					   const char *system, int new_id)
{
	struct tep_event *ev = NULL;
	char *buf, *fmt;
	size_t len;

	if (ras_read_file(path, &buf, &len) < 0)
		return NULL;
	fmt = buf;
	if (new_id > 0) {
		fmt = format_with_id(buf, new_id);
		free(buf);
		if (!fmt)
			return NULL;
		len = strlen(fmt);
	}
	if (tep_parse_format(tep, &ev, fmt, len, system) != 0)
		ev = NULL;
	free(fmt);
	return ev;
}

static struct tep_event *load_from(struct tep_handle *tep, const char *dir,
				   const char *events_sub, const char *system,
				   const char *event, int new_id, char *found, size_t found_len)
{
	char path[4096];
	struct tep_event *ev;

	if (!dir)
		return NULL;
	snprintf(path, sizeof(path), "%s%s/%s/%s/format", dir, events_sub, system, event);
	if (access(path, R_OK) != 0)
		return NULL;
	ev = parse_format_file(tep, path, system, new_id);
	if (ev && found)
		snprintf(found, found_len, "%s", path);
	return ev;
}

/* Looks for an event in the instance, then the top level; returns it or NULL. */
static struct tep_event *load_kernel_event(struct tep_handle *tep, const char *tracing_dir,
					   const char *instance_dir, const char *system,
					   const char *event, char *found, size_t found_len)
{
	struct tep_event *ev = load_from(tep, instance_dir, "/events", system, event, 0,
					 found, found_len);

	if (!ev)
		ev = load_from(tep, tracing_dir, "/events", system, event, 0, found, found_len);
	return ev;
}

static enum ras_field_read int_read(int size, bool is_signed)
{
	switch (size) {
	case 1: return is_signed ? RAS_FR_S8 : RAS_FR_U8;
	case 2: return is_signed ? RAS_FR_S16 : RAS_FR_U16;
	case 4: return is_signed ? RAS_FR_S32 : RAS_FR_U32;
	case 8: return RAS_FR_U64;
	default: return size <= 0 || size > 8 ? RAS_FR_BAD : RAS_FR_INT_ODD;
	}
}

/* How ras_record_extract reads a field of type ftype described by f (NULL: absent). */
static struct ras_field_plan plan_field(const struct tep_format_field *f, enum ras_ftype ftype)
{
	struct ras_field_plan p = { .read = RAS_FR_ABSENT };

	if (!f)
		return p;
	p.text = ftype == RAS_FT_TEXT;
	/* A negative offset or size fails every record's bounds check, as the field's own would. */
	if (f->offset < 0 || f->size < 0) {
		p.read = RAS_FR_BAD;
		return p;
	}
	p.offset = (uint32_t)f->offset;
	p.size = (uint32_t)f->size;
	if (f->flags & TEP_FIELD_IS_DYNAMIC)
		p.read = f->size < 4 ? RAS_FR_BAD :
			 (f->flags & TEP_FIELD_IS_RELATIVE) ? RAS_FR_RELATIVE : RAS_FR_DYNAMIC;
	else if (ftype == RAS_FT_INT)
		p.read = int_read(f->size, (f->flags & TEP_FIELD_IS_SIGNED) != 0);
	else
		p.read = RAS_FR_FIXED;
	p.is_signed = (f->flags & TEP_FIELD_IS_SIGNED) != 0;
	return p;
}

static void resolve_fields(const struct ras_event_type *t, struct ras_type_format *tf)
{
	tf->plan_end = 0;
	for (unsigned i = 0; i < t->n_fields; i++) {
		tf->field[i] = tep_find_field(tf->event, t->fields[i].name);
		tf->plan[i] = plan_field(tf->field[i], t->fields[i].type);
		if (tf->plan[i].read == RAS_FR_BAD)
			tf->plan_end = UINT32_MAX;
		else if (tf->plan[i].read != RAS_FR_ABSENT &&
			 tf->plan[i].offset + tf->plan[i].size > tf->plan_end)
			tf->plan_end = tf->plan[i].offset + tf->plan[i].size;
		if (!tf->field[i] && !(t->fields[i].flags & RAS_F_OPTIONAL) &&
		    tf->state == RAS_FMT_KERNEL) {
			tf->state = RAS_FMT_MALFORMED;
			snprintf(tf->problem, sizeof(tf->problem),
				 "required field '%s' missing", t->fields[i].name);
		}
	}
	tf->planned = true;
}

static void load_type(struct ras_formats *f, unsigned idx, const char *tracing_dir,
		      const char *instance_dir, const char *shipped_dir)
{
	const struct ras_event_type *t = &ras_event_types[idx];
	struct ras_type_format *tf = &f->type[idx];
	const char *systems[2] = { t->system, t->alt_system };

	for (int s = 0; s < 2 && !tf->event && systems[s]; s++) {
		tf->event = load_kernel_event(f->tep, tracing_dir, instance_dir,
					      systems[s], t->event, tf->path, sizeof(tf->path));
		tf->system = systems[s];
	}
	if (tf->event) {
		tf->state = RAS_FMT_KERNEL;
	} else {
		tf->system = t->system;
		tf->event = load_from(f->tep, shipped_dir, "", t->system, t->event,
				      SHIPPED_ID_BASE + (int)idx, tf->path, sizeof(tf->path));
		tf->state = tf->event ? RAS_FMT_SHIPPED : RAS_FMT_ABSENT;
	}
	if (tf->event)
		resolve_fields(t, tf);
}

/* offset and size of one "field: <type> <name>;" line of header_page, or -1. */
static int header_field(const char *text, const char *name, unsigned *off, unsigned *size)
{
	char key[32];
	const char *p;

	snprintf(key, sizeof(key), " %s;", name);
	p = strstr(text, key);
	if (!p || sscanf(p + strlen(key), " offset:%u; size:%u;", off, size) != 2)
		return -1;
	return 0;
}

/*
 * The page reader (ras_page_check, kbuffer) assumes the layout of this
 * machine's kernel: u64 timestamp at 0, a long commit at 8, data right
 * after. A header_page saying otherwise is refused rather than misread.
 */
static int check_page_layout(const char *text, unsigned page_size)
{
	unsigned ts_off, ts_size, c_off, c_size, d_off, d_size;

	if (header_field(text, "timestamp", &ts_off, &ts_size) < 0 ||
	    header_field(text, "commit", &c_off, &c_size) < 0 ||
	    header_field(text, "data", &d_off, &d_size) < 0)
		return -EINVAL;
	if (ts_off != 0 || ts_size != 8 || c_off != 8 || c_size != sizeof(long) ||
	    d_off != 8 + sizeof(long) || d_off + d_size != page_size ||
	    page_size > RAS_MAX_PAGE_SIZE)
		return -EINVAL;
	return 0;
}

int ras_formats_load(struct ras_formats **out, const char *tracing_dir,
		     const char *instance_dir, const char *shipped_dir)
{
	struct ras_formats *f = calloc(1, sizeof(*f));
	char *header = NULL;
	size_t header_len;
	int r;

	if (!f)
		return -ENOMEM;
	f->tep = tep_alloc();
	if (!f->tep) {
		free(f);
		return -ENOMEM;
	}
	r = ras_tracing_header_page(f->tep, tracing_dir, shipped_dir, &header, &header_len,
				    &f->page_size);
	if (r == 0 && check_page_layout(header, f->page_size) < 0)
		r = -EINVAL;
	free(header);
	if (r < 0) {
		ras_formats_free(f);
		return r;
	}
	for (unsigned i = 0; i < ras_n_event_types; i++)
		load_type(f, i, tracing_dir, instance_dir, shipped_dir);
	f->raw_data = load_kernel_event(f->tep, tracing_dir, instance_dir, "ftrace", "raw_data",
					NULL, 0);
	if (!f->raw_data)
		f->raw_data = load_from(f->tep, shipped_dir, "", "ftrace", "raw_data", 0, NULL, 0);
	if (f->raw_data) {
		f->raw_id = tep_find_field(f->raw_data, "id");
		f->raw_buf = tep_find_field(f->raw_data, "buf");
		if (!f->raw_id || !f->raw_buf)
			f->raw_data = NULL;
	}
	*out = f;
	return 0;
}

void ras_formats_free(struct ras_formats *f)
{
	if (!f)
		return;
	tep_free(f->tep);
	free(f);
}

int ras_formats_type_of(const struct ras_formats *f, int event_id)
{
	/* Records of one type come in runs: try the last answer first. */
	static __thread int last = -1;

	if (last >= 0 && f->type[last].event && f->type[last].event->id == event_id)
		return last;
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (f->type[i].event && f->type[i].event->id == event_id)
			return last = (int)i;
	return -1;
}

void ras_formats_pretend_absent(struct ras_formats *f, const char *list)
{
	char buf[1024], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list ? list : "");
	for (char *tok = strtok_r(buf, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		const struct ras_event_type *t = ras_event_type_find(tok);
		struct ras_type_format *tf = t ? &f->type[t - ras_event_types] : NULL;

		if (!tf || tf->state != RAS_FMT_KERNEL)
			continue;
		/* The kernel's format stays loaded: only synthetic records may use it. */
		tf->state = RAS_FMT_SHIPPED;
		snprintf(tf->problem, sizeof(tf->problem), "pretend_absent");
	}
}

bool ras_formats_fallback_unneeded(const struct ras_formats *f, unsigned idx)
{
	const struct ras_event_type *for_type;

	if (idx >= ras_n_event_types || !ras_event_types[idx].fallback_for)
		return false;
	for_type = ras_event_type_find(ras_event_types[idx].fallback_for);
	return for_type && f->type[for_type - ras_event_types].state == RAS_FMT_KERNEL;
}
