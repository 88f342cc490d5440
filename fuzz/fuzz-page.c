/* SPDX-License-Identifier: MIT */
/*
 * Fuzzes the page reader end to end: the input is written as the raw
 * per-CPU buffer of a replayed tracing tree (a few sub-buffers), read by
 * ras_reader (page checks, libtraceevent's kbuffer), and every record is
 * taken through field extraction, the record hash and, for ftrace:raw_data
 * records, the synthetic-record unwrapping, as rasd's pipeline does.
 * The formats are Linux 6.18's (tests/formats/linux-6.18, or
 * $RAS_FUZZ_FORMATS).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "lib/formats.h"
#include "lib/reader.h"
#include "lib/record.h"
#include "lib/synthetic.h"

#ifndef RAS_FUZZ_FORMATS
#define RAS_FUZZ_FORMATS "tests/formats/linux-6.18"
#endif
#define MAX_PAGES 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct ras_formats *fmt;
static char tree[64], raw_path[128];
static volatile uint64_t sink;

/* The tree, removed when the fuzzer exits (each run left one in /tmp). */
static void remove_tree(void)
{
	static const char *const parts[] = { "instances/fz/per_cpu/cpu0", "instances/fz/per_cpu",
					     "instances/fz", "instances" };
	char path[256];

	unlink(raw_path);
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tree, parts[i]);
		rmdir(path);
	}
	snprintf(path, sizeof(path), "%s/events", tree);
	unlink(path);
	rmdir(tree);
}

/* A tree whose events/ is the format set and whose instance has one CPU. */
static void setup(void)
{
	const char *formats = getenv("RAS_FUZZ_FORMATS");
	char path[256], abs_formats[4096];

	if (!formats)
		formats = RAS_FUZZ_FORMATS;
	snprintf(tree, sizeof(tree), "/tmp/ras-fdr-fuzz-page-XXXXXX");
	if (!mkdtemp(tree) || !realpath(formats, abs_formats))
		abort();
	atexit(remove_tree);
	snprintf(path, sizeof(path), "%s/events", tree);
	if (symlink(abs_formats, path) < 0)
		abort();
	snprintf(path, sizeof(path), "%s/instances", tree);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/instances/fz", tree);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/instances/fz/per_cpu", tree);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/instances/fz/per_cpu/cpu0", tree);
	mkdir(path, 0700);
	snprintf(raw_path, sizeof(raw_path), "%s/trace_pipe_raw", path);
	if (ras_formats_load(&fmt, tree, NULL, NULL) < 0)
		abort();
}

/* Reads every byte a value points at, so a bad pointer shows under ASan. */
static void touch(const struct ras_value *v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (v[i].present && v[i].p)
			sink += ras_hash_bytes(v[i].p, v[i].len);
}

static void extract(int idx, const uint8_t *rec, uint32_t size)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	struct ras_value values[RAS_MAX_FIELDS];

	if (ras_record_extract(fmt->tep, type, &fmt->type[idx], rec, size, values) == 0)
		touch(values, type->n_fields);
}

static void unwrap(const uint8_t *d, uint32_t size)
{
	const struct tep_format_field *buf = fmt->raw_buf;
	const uint8_t *rec;
	const char *name;
	uint16_t name_len;
	uint32_t rec_len;
	char tp[128];
	const struct ras_event_type *type;

	if ((uint32_t)buf->offset > size ||
	    ras_synth_unwrap(d + buf->offset, size - (uint32_t)buf->offset, &name, &name_len,
			     &rec, &rec_len) < 0 || name_len >= sizeof(tp))
		return;
	snprintf(tp, sizeof(tp), "%.*s", (int)name_len, name);
	type = ras_event_type_find(tp);
	if (type && fmt->type[type - ras_event_types].event && rec_len >= 8)
		extract((int)(type - ras_event_types), rec, rec_len);
}

static void on_record(void *ctx, int cpu, uint64_t ts, const void *data, uint32_t size)
{
	uint16_t id;
	int idx;

	(void)ctx; (void)cpu; (void)ts;
	sink += ras_hash_bytes(data, size);
	if (size < 8)
		return;
	memcpy(&id, data, 2);
	if (fmt->raw_data && id == fmt->raw_data->id) {
		unwrap(data, size);
		return;
	}
	idx = ras_formats_type_of(fmt, id);
	if (idx >= 0)
		extract(idx, data, size);
}

static void on_missed(void *ctx, int cpu, long long count, uint64_t prev_ts, uint64_t ts)
{
	(void)ctx; (void)cpu;
	sink += (uint64_t)count + prev_ts + ts;
}

static void on_malformed(void *ctx, int cpu, enum ras_page_problem problem, long long skipped,
			 uint64_t ts)
{
	(void)ctx; (void)cpu; (void)ts;
	/* skipped 1 is the reader's last guard: a checked page must never reach it. */
	if (!ras_page_problem_name(problem) || skipped == 1)
		abort();
}

static const struct ras_reader_ops ops = {
	.record = on_record, .missed = on_missed, .malformed = on_malformed,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char inst[128];
	struct ras_reader *r;
	bool more = true;
	int fd;

	if (!fmt)
		setup();
	if (size > (size_t)MAX_PAGES * fmt->page_size)
		size = (size_t)MAX_PAGES * fmt->page_size;
	fd = open(raw_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	close(fd);
	snprintf(inst, sizeof(inst), "%s/instances/fz", tree);
	if (ras_reader_open(&r, fmt->tep, inst, fmt->page_size, true) < 0)
		abort();
	while (more || !ras_reader_replay_done(r))
		if (ras_reader_drain(r, 2, &ops, NULL, &more) < 0)
			abort();
	/* Everything read was delivered or reported. */
	if (ras_reader_pending(r, 0))
		abort();
	ras_reader_close(r);
	return 0;
}
