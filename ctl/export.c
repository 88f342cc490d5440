/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl export --cursor-file FILE: the records after the cursor as
 * JSON Lines, then the cursor moves past what was written.
 *
 * The cursor holds, per table, the last id delivered (ids only grow within a
 * table, whatever the wall times say), the output file it was delivered to
 * (device, inode, size after the last committed batch) and whether the last
 * run finished. What a kill can leave:
 *  - output a regular file: lines after the recorded size were written but
 *    not committed; the next run reads them back, counts each complete line
 *    as delivered and cuts a trailing partial line. Nothing is delivered
 *    twice, nothing is skipped: exactly once.
 *  - output a pipe: the cursor moves after every line (write, then rename of
 *    the cursor), so a kill between the two re-delivers that one line on the
 *    next run; a line cut by the kill is closed with a newline by the next
 *    run (it does not parse as JSON; the record follows whole). Consumers
 *    drop repeats by ("type", "id"), which never change.
 * The cursor is fsynced at the end of a run; after a power loss an older
 * cursor re-delivers (at least once, deduplicated the same way).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "ctl.h"
#include "db/db_export.h"
#include "lib/decode.h"

/* Event tables, then "lost" and "action". */
#define CURSOR_KEYS 66

struct cursor {
	int64_t last[CURSOR_KEYS];
	unsigned long long dev, ino;
	long long offset;
	bool running;
};

struct export {
	struct ctl *c;
	const char *path;
	struct cursor cur;
	unsigned batch, pending;
	bool regular;          /* stdout is a regular file */
	long long lines;
	unsigned extra_key;    /* cursor key of the bookkeeping table being exported */
	int cursor_fd;         /* the cursor file, rewritten in place between durable saves */
	int error;
};

static const char *key_name(unsigned k)
{
	if (k >= CURSOR_KEYS)
		return NULL;
	if (k < ras_n_event_types)
		return ras_event_types[k].table;
	if (k - ras_n_event_types < RAS_DB_EXTRA_COUNT_)
		return ras_db_extra_name((enum ras_db_extra)(k - ras_n_event_types));
	return NULL;
}

static int key_index(const char *name)
{
	for (unsigned k = 0; key_name(k); k++)
		if (!strcmp(key_name(k), name))
			return (int)k;
	return -1;
}

static int cursor_load(const char *path, struct cursor *c)
{
	char line[256], name[128];
	long long v;
	FILE *f = fopen(path, "re");

	memset(c, 0, sizeof(*c));
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f)) {
		int k;

		if (sscanf(line, "output %llu %llu %lld", &c->dev, &c->ino, &c->offset) == 3)
			continue;
		if (!strncmp(line, "state running", 13))
			c->running = true;
		else if (sscanf(line, "%127s %lld", name, &v) == 2 && (k = key_index(name)) >= 0)
			c->last[k] = v;
	}
	fclose(f);
	return 0;
}

/* The cursor's text, padded to one page so that it can be rewritten in place. */
#define CURSOR_PAGE 4096

static int cursor_render(const struct cursor *c, char *buf)
{
	size_t n = (size_t)snprintf(buf, CURSOR_PAGE,
				    "# ras-fdr-ctl export cursor: last id delivered per table\n"
				    "state %s\noutput %llu %llu %lld\n", c->running ? "running" : "clean",
				    c->dev, c->ino, c->offset);

	for (unsigned k = 0; key_name(k) && n < CURSOR_PAGE; k++)
		n += (size_t)snprintf(buf + n, CURSOR_PAGE - n, "%s %lld\n", key_name(k),
				      (long long)c->last[k]);
	if (n >= CURSOR_PAGE - 1)
		return -ENOSPC;
	memset(buf + n, ' ', CURSOR_PAGE - 1 - n);
	buf[CURSOR_PAGE - 1] = '\n';
	return 0;
}

static void sync_dir_of(const char *path)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		fsync(fd);
		close(fd);
	}
}

/*
 * Durable: a temporary file next to the cursor, fsync, rename, fsync of the
 * directory. Otherwise one page rewritten in place with a single pwrite(),
 * which a killed process cannot leave half done; it costs microseconds, so the
 * cursor can follow every line on a pipe.
 */
static int cursor_save(struct export *e, bool durable)
{
	char buf[CURSOR_PAGE], tmp[PATH_MAX];
	int fd, r = cursor_render(&e->cur, buf);

	if (r < 0)
		return r;
	if (!durable && e->cursor_fd >= 0)
		return pwrite(e->cursor_fd, buf, CURSOR_PAGE, 0) == CURSOR_PAGE ? 0 : -EIO;
	snprintf(tmp, sizeof(tmp), "%s.tmp", e->path);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (write(fd, buf, CURSOR_PAGE) != CURSOR_PAGE || fsync(fd) != 0)
		r = -EIO;
	close(fd);
	if (!r && rename(tmp, e->path) != 0)
		r = -errno;
	if (r) {
		unlink(tmp);
		return r;
	}
	sync_dir_of(e->path);
	if (e->cursor_fd >= 0)
		close(e->cursor_fd);
	e->cursor_fd = durable ? -1 : open(e->path, O_WRONLY | O_CLOEXEC);
	return e->cursor_fd >= 0 || durable ? 0 : -errno;
}

/* Marks a line's record as delivered. */
static void note_delivered(struct cursor *c, const char *line)
{
	char type[128];
	long long id;
	int k;

	/* Record lines start with the JSON format's version (errors --json); the rest do not. */
	if (!strncmp(line, "{\"version\":", 11) && (line = strchr(line + 11, ',')))
		line++;
	else if (line[0] == '{')
		line++;
	if (sscanf(line, "\"type\":\"%127[^\"]\",\"id\":%lld", type, &id) == 2 &&
	    (k = key_index(type)) >= 0 && id > c->last[k])
		c->last[k] = id;
}

/*
 * The previous run was killed after writing lines it had not committed: the
 * complete ones count as delivered; a cut last line is removed.
 */
static int recover_file(struct export *e, const struct stat *st)
{
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	long long pos = e->cur.offset, good = e->cur.offset;
	int fd;

	if ((unsigned long long)st->st_dev != e->cur.dev || (unsigned long long)st->st_ino != e->cur.ino ||
	    st->st_size <= e->cur.offset)
		return 0;
	fd = open("/proc/self/fd/1", O_RDONLY | O_CLOEXEC);
	if (fd < 0 || !(f = fdopen(fd, "r"))) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	fseeko(f, e->cur.offset, SEEK_SET);
	while ((len = getline(&line, &cap, f)) > 0) {
		pos += len;
		if (line[len - 1] != '\n')
			break;
		note_delivered(&e->cur, line);
		good = pos;
	}
	free(line);
	fclose(f);
	if (good < st->st_size && ftruncate(STDOUT_FILENO, good) != 0)
		return -errno;
	return 0;
}

/* Output and cursor agree from here on: flush, sync a file, then move the cursor. */
static int commit(struct export *e, bool durable)
{
	struct stat st;

	if (fflush(stdout) != 0 || ferror(stdout))
		return -(errno ? errno : EIO);
	if (e->regular && fsync(STDOUT_FILENO) != 0)
		return -errno;
	if (e->regular && fstat(STDOUT_FILENO, &st) == 0)
		e->cur.offset = st.st_size;
	e->pending = 0;
	return cursor_save(e, durable);
}

static int after_line(struct export *e, unsigned key, int64_t id)
{
	e->cur.last[key] = id;
	e->lines++;
	if (++e->pending < e->batch)
		return 0;
	e->error = commit(e, false);
	return e->error;
}

static int export_event(void *ctx, const struct ras_db_row *row)
{
	struct export *e = ctx;

	/* The decoding rasd stored, as errors --json prints it. */
	ctl_print_json_row(row, row->decoded);
	return after_line(e, row->type_idx, row->id);
}

static void print_generic_value(const struct ras_db_generic_row *g, unsigned i)
{
	switch (g->kinds[i]) {
	case 'i': printf("%lld", (long long)g->ints[i]); break;
	case 'f': printf("%.17g", g->reals[i]); break;
	case 't': ctl_print_json_string(g->ptrs[i], (size_t)g->lens[i]); break;
	case 'b':
		putchar('"');
		for (int j = 0; j < g->lens[i]; j++)
			printf("%02x", ((const uint8_t *)g->ptrs[i])[j]);
		putchar('"');
		break;
	default: printf("null"); break;
	}
}

static int export_extra(void *ctx, const struct ras_db_generic_row *g)
{
	struct export *e = ctx;

	printf("{\"type\":\"%s\",\"id\":%lld", key_name(e->extra_key), (long long)g->id);
	for (unsigned i = 0; i < g->n; i++) {
		printf(",\"%s\":", g->names[i]);
		print_generic_value(g, i);
	}
	printf("}\n");
	return after_line(e, e->extra_key, g->id);
}

static int export_all(struct export *e, struct ras_db *db)
{
	int r = 0;

	for (unsigned k = 0; k < ras_n_event_types && r >= 0; k++)
		r = ras_db_rows_after(db, k, e->cur.last[k], export_event, e);
	for (unsigned x = 0; x < RAS_DB_EXTRA_COUNT_ && r >= 0; x++) {
		e->extra_key = ras_n_event_types + x;
		r = ras_db_extra_rows_after(db, (enum ras_db_extra)x, e->cur.last[e->extra_key],
					    export_extra, e);
	}
	return e->error ? e->error : r;
}

static const struct ctl_opt export_opts[] = {
	{ "cursor-file", 'C', "FILE", CTL_C_FILE, "where the last id delivered per table is kept" },
	{ "json", 'j', NULL, CTL_C_NONE, "JSON Lines (the only format; accepted for clarity)" },
	{ "batch", 'b', "N", CTL_C_NONE, "lines between cursor updates (default 1 on a pipe, 1000 on a file)" },
	{ NULL },
};

const struct ctl_spec ctl_export_spec = {
	.name = "export", .args = "", .opts = export_opts, .required = "cursor-file",
	.summary = "records newer than the cursor as JSON Lines, each delivered once",
};

static int export_opt(void *ctx, int key, const char *arg)
{
	struct export *e = ctx;
	int64_t n;

	switch (key) {
	case 'C': e->path = arg; break;
	case 'j': break;   /* JSON Lines is the only format */
	case 'b':
		if (ctl_parse_i64(arg, 1, 1000000, false, &n) < 0)
			return ctl_usage_error("export", "--batch takes a number from 1 to 1000000, not '%s'",
					       arg);
		e->batch = (unsigned)n;
		break;
	}
	return CTL_GO_ON;
}

static int parse_export_args(struct export *e, int argc, char **argv)
{
	int first, r = ctl_parse(&ctl_export_spec, argc, argv, export_opt, e, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("export", "unexpected argument '%s'", argv[first]);
	return CTL_GO_ON;
}

/* One export per cursor at a time: two would deliver the same records. */
static int lock_cursor(const char *path)
{
	char lock[PATH_MAX];
	int fd;

	snprintf(lock, sizeof(lock), "%s.lock", path);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return -EBUSY;
	}
	return fd;   /* held until exit */
}

/* Looks at stdout and the last run: recovers a file, closes a pipe's cut line. */
static int prepare_output(struct export *e)
{
	struct stat st;
	int r = 0;

	if (fstat(STDOUT_FILENO, &st) != 0)
		return -errno;
	e->regular = S_ISREG(st.st_mode);
	if (e->regular) {
		r = recover_file(e, &st);
		if (r == 0 && fstat(STDOUT_FILENO, &st) == 0) {
			e->cur.dev = (unsigned long long)st.st_dev;
			e->cur.ino = (unsigned long long)st.st_ino;
			e->cur.offset = st.st_size;
		}
	} else if (e->cur.running) {
		putchar('\n');
	}
	if (!e->batch)
		e->batch = e->regular ? 1000 : 1;
	e->cur.running = true;
	/* The first save is durable and leaves the cursor file open for the in-place ones. */
	if (r == 0 && (fflush(stdout) != 0 || ferror(stdout)))
		r = -EIO;
	return r < 0 ? r : cursor_save(e, false);
}

int ctl_export(struct ctl *c, int argc, char **argv)
{
	struct export *e = calloc(1, sizeof(*e));
	struct ras_db *db;
	int r;

	if (!e)
		return 1;
	e->c = c;
	e->cursor_fd = -1;
	r = parse_export_args(e, argc, argv);
	if (r >= 0) {
		free(e);
		return r;
	}
	r = lock_cursor(e->path);   /* its fd stays open until exit */
	if (r == -EBUSY)
		fprintf(stderr, "ras-fdr-ctl: %s: another export is using this cursor\n", e->path);
	else if (r >= 0 && (r = cursor_load(e->path, &e->cur)) < 0)
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", e->path, strerror(-r));
	else if (r < 0)
		fprintf(stderr, "ras-fdr-ctl: %s.lock: %s\n", e->path, strerror(-r));
	if (r < 0 || ctl_open_db(c, &db) < 0) {
		free(e);
		return 1;
	}
	/* A closed pipe is an error to report (EPIPE), not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	r = prepare_output(e);
	if (r == 0)
		r = export_all(e, db);
	ras_db_close(db);
	if (r >= 0) {
		e->cur.running = false;
		r = commit(e, true);
	}
	if (r < 0)
		fprintf(stderr, "ras-fdr-ctl: export: %s (the cursor keeps the last delivered record)\n",
			strerror(-r));
	if (e->cursor_fd >= 0)
		close(e->cursor_fd);
	free(e);
	return r < 0 ? 1 : 0;
}
