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
#include "export_cursor.h"
#include "db/db_export.h"
#include "lib/clock.h"
#include "lib/safe_path.h"
#include "lib/decode.h"
#include "json_line.h"

struct export {
	struct ctl *c;
	struct ras_db *db;     /* for the links between records (db/db_link.h) */
	const char *path;
	struct cursor cur;
	unsigned batch, pending;
	bool regular;          /* stdout is a regular file */
	long long lines;
	int cursor_fd;         /* the cursor file, rewritten in place between durable saves */
	int error;
	int64_t delivered[RAS_MAX_EVENT_TYPES];   /* row ids delivered before this run's snapshot */
	int64_t actions_before;                   /* decisions delivered before it */
	struct ctl_jbuf line;                     /* a record's line (json_line.h) */
};

/*
 * The cursor's files: FILE, FILE.tmp and FILE.lock, in a directory checked
 * by the rule of lib/safe_path.h (it and every directory above it root's or
 * ours, writable by no one else, no link), opened and replaced relative to
 * its descriptor, never through a link. A cursor kept in a directory another
 * user can write (a log shipper's) would let that user have root write the
 * cursor over any file: export refuses it; run it as that user instead.
 */
static struct {
	int dirfd;
	char dir[PATH_MAX], name[NAME_MAX + 1], why[PATH_MAX + 300];
} files = { .dirfd = -1 };

/* The cursor to read (NULL with errno ENOENT when there is none yet). */
static FILE *cursor_fopen(void)
{
	int fd = ras_safe_file_openat(files.dirfd, files.dir, files.name, O_RDONLY, files.why,
				      sizeof(files.why));
	FILE *f;

	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	if (!(f = fdopen(fd, "re")))
		close(fd);
	return f;
}

static int cursor_load(const char *path, struct cursor *c)
{
	char line[CURSOR_PAGE];
	FILE *f = cursor_fopen();

	(void)path;
	cursor_init(c);
	if (!f)
		return errno == ENOENT ? 0 : -errno;
	while (fgets(line, sizeof(line), f))
		cursor_parse_line(c, line);
	fclose(f);
	return 0;
}

/*
 * Durable: a temporary file next to the cursor (FILE.tmp, created anew:
 * O_EXCL|O_NOFOLLOW), fsync, rename, fsync of the directory. Otherwise one
 * page rewritten in place with a single pwrite(), which a killed process
 * cannot leave half done; it costs microseconds, so the cursor can follow
 * every line on a pipe. The file written in place is the one renamed, kept
 * open: the cursor's name is never opened again.
 */
static int cursor_save(struct export *e, bool durable)
{
	char buf[CURSOR_PAGE], tmp[NAME_MAX + 8];
	int fd, r = cursor_render(&e->cur, buf);

	if (r < 0)
		return r;
	if (!durable && e->cursor_fd >= 0)
		return pwrite(e->cursor_fd, buf, CURSOR_PAGE, 0) == CURSOR_PAGE ? 0 : -EIO;
	snprintf(tmp, sizeof(tmp), "%s.tmp", files.name);
	/* Left by a killed run, in a directory only root or we can write. */
	unlinkat(files.dirfd, tmp, 0);
	fd = ras_open_safe_at(files.dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL);
	if (fd < 0)
		return fd;
	if (write(fd, buf, CURSOR_PAGE) != CURSOR_PAGE || fsync(fd) != 0)
		r = -EIO;
	if (!r && renameat(files.dirfd, tmp, files.dirfd, files.name) != 0)
		r = -errno;
	if (r) {
		close(fd);
		unlinkat(files.dirfd, tmp, 0);
		return r;
	}
	ras_safe_sync_dir(files.dirfd);
	if (e->cursor_fd >= 0)
		close(e->cursor_fd);
	e->cursor_fd = fd;
	if (durable) {
		close(fd);
		e->cursor_fd = -1;
	}
	return 0;
}

/* Marks a line's record as delivered: every line begins {"version":N,"type":"T","id":N. */
static void note_delivered(struct cursor *c, const char *line)
{
	char type[128];
	long long id;
	int k;

	if (!strncmp(line, "{\"version\":", 11) && (line = strchr(line + 11, ',')))
		line++;
	else if (line[0] == '{')
		line++;
	if ((sscanf(line, "\"type\":\"%127[^\"]\",\"id\":%lld", type, &id) == 2 ||
	     sscanf(line, "\"type\":\"%127[^\"]\",\"id\":\"%lld\"", type, &id) == 2) &&
	    (k = cursor_key_index(type)) >= 0 && id > c->pos[0].last[k])
		c->pos[0].last[k] = id;
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
	e->cur.pos[0].last[key] = id;
	e->lines++;
	if (++e->pending < e->batch)
		return 0;
	e->error = commit(e, false);
	return e->error;
}

static void print_time(const char *key, int64_t ns)
{
	char when[40];

	ras_format_time(ns, when, sizeof(when));
	printf(",\"%s\":\"%s\"", key, when);
}

/* "key":"text" with the text escaped; NULL as null. */
static void print_str(const char *key, const char *v)
{
	printf(",\"%s\":", key);
	if (v)
		ctl_print_json_string(v, strlen(v));
	else
		printf("null");
}

static void print_head(const char *type, int64_t id, int64_t time_ns)
{
	printf("{\"version\":%d,\"type\":\"%s\",\"id\":%lld", CTL_JSON_VERSION, type,
	       (long long)id);
	print_time("time", time_ns);
}

static int export_event(void *ctx, const struct ras_db_row *row)
{
	struct export *e = ctx;
	struct ctl_link link;

	/* The decoding rasd stored, as errors --json prints it. */
	ctl_row_link(e->db, row, &link);
	if (ctl_fprint_json_row(stdout, &e->line, row, row->decoded, &link) == -ENOMEM)
		return e->error = -ENOMEM;
	return after_line(e, row->type_idx, row->id);
}

/* The records a write added to a folded storm period, less those delivered as rows. */
static int export_fold(void *ctx, const struct ras_db_fold_growth *g)
{
	struct export *e = ctx;

	if (!g->records) {
		/* Nothing left to deliver: the position moves, no line. */
		e->cur.pos[0].last[KEY_FOLD] = g->seq;
		return 0;
	}
	print_head("fold", g->seq, g->last_ns);
	print_str("event_type", ras_event_types[g->type_idx].table);
	printf(",\"fold_id\":%lld", (long long)g->fold_id);
	print_str("subject", g->subject);
	print_time("first", g->first_ns);
	print_time("last", g->last_ns);
	printf(",\"first_ns\":\"%lld\",\"last_ns\":\"%lld\"", (long long)g->first_ns,
	       (long long)g->last_ns);
	print_str("boot_id", g->boot_id);
	print_str("source", g->source);
	printf(",\"synthetic\":%s", g->synthetic ? "true" : "false");
	print_str("severity", g->severity);
	print_str("location", g->location);
	printf(",\"records\":%lld,\"errors\":%lld,\"delivered_as_records\":%lld,\"seconds\":[",
	       (long long)g->records, (long long)g->errors, (long long)g->as_rows);
	for (size_t i = 0; i < g->nseconds; i++)
		printf("%s%lld", i ? "," : "", (long long)g->seconds[i]);
	printf("]");
	if (g->have_addr)
		printf(",\"address_min\":\"0x%llx\",\"address_max\":\"0x%llx\"",
		       (unsigned long long)g->addr_lo, (unsigned long long)g->addr_hi);
	print_str("detail", g->detail_name);
	printf(",\"distinct\":[");
	for (unsigned i = 0; i < g->ndetails; i++)
		printf("%s\"0x%llx\"", i ? "," : "", (unsigned long long)g->details[i]);
	printf("],\"more_distinct\":%s}\n", g->details_more ? "true" : "false");
	return after_line(e, KEY_FOLD, g->seq);
}

/* Repeats of a decision already delivered; a newer one's come with its row. */
static int export_action_repeat(void *ctx, const struct ras_db_action_growth *g)
{
	struct export *e = ctx;

	if (g->action_id > e->actions_before) {
		e->cur.pos[0].last[KEY_ACTION_REPEAT] = g->seq;
		return 0;
	}
	print_head("action_repeat", g->seq, g->last_ns);
	printf(",\"action_id\":%lld,\"repeats\":%lld,\"last_ns\":\"%lld\",\"last_event_id\":",
	       (long long)g->action_id, (long long)g->repeats, (long long)g->last_ns);
	if (g->last_event_id)
		printf("%lld}\n", (long long)g->last_event_id);
	else
		printf("null}\n");
	return after_line(e, KEY_ACTION_REPEAT, g->seq);
}

static int export_lost(void *ctx, const struct ras_db_lost_row *l)
{
	struct export *e = ctx;

	print_head("lost", l->id, l->to_ns);
	print_str("boot_id", l->boot_id);
	print_str("instance", l->instance);
	printf(",\"cpu\":%d", l->cpu);
	print_str("origin", l->origin);
	if (l->count >= 0)
		printf(",\"count\":%lld", (long long)l->count);
	else
		printf(",\"count\":null");
	if (l->from_ns)
		print_time("from", l->from_ns);
	else
		printf(",\"from\":null");
	print_time("to", l->to_ns);
	printf(",\"from_ns\":\"%lld\",\"to_ns\":\"%lld\"}\n", (long long)l->from_ns,
	       (long long)l->to_ns);
	return after_line(e, KEY_LOST, l->id);
}

static void print_opt_int(const char *key, bool have, int64_t v)
{
	if (have)
		printf(",\"%s\":%lld", key, (long long)v);
	else
		printf(",\"%s\":null", key);
}

static int export_action(void *ctx, const struct ras_db_action_row *a)
{
	struct export *e = ctx;

	print_head("action", a->id, a->wall_ns);
	printf(",\"wall_ns\":\"%lld\"", (long long)a->wall_ns);
	print_str("boot_id", a->boot_id);
	print_str("kind", a->kind);
	print_str("subject", a->subject);
	print_opt_int("count", a->have_count, a->count);
	print_str("threshold", a->threshold);
	print_str("action", a->action);
	print_str("target", a->target);
	print_str("result", a->result);
	print_opt_int("errno", a->have_errno, a->err);
	printf(",\"synthetic\":%s", a->synthetic ? "true" : "false");
	print_str("event_type", a->event_table);
	print_opt_int("event_id", a->have_event_id, a->event_id);
	printf(",\"repeats\":%lld", (long long)a->repeats);
	print_time("last", a->last_ns);
	printf(",\"last_ns\":\"%lld\"", (long long)a->last_ns);
	print_opt_int("last_event_id", a->have_last_event_id, a->last_event_id);
	printf("}\n");
	return after_line(e, KEY_ACTION, a->id);
}

/*
 * One snapshot of the database, in an order that keeps every record once:
 * the growth logs first, judged by the positions of earlier runs (a record
 * folded after this run's snapshot is judged by the next run, which knows
 * whether this one delivered its row), then the rows.
 */
static int export_all(struct export *e, struct ras_db *db)
{
	struct export_position *p = &e->cur.pos[0];
	int r = 0;

	e->db = db;
	for (unsigned k = 0; k < ras_n_event_types; k++)
		e->delivered[k] = p->last[k];
	e->actions_before = p->last[KEY_ACTION];
	r = ras_db_fold_growth_after(db, p->last[KEY_FOLD], e->delivered, export_fold, e);
	if (r >= 0)
		r = ras_db_action_growth_after(db, p->last[KEY_ACTION_REPEAT], export_action_repeat, e);
	/* The growth judged is on record before any row of this snapshot follows. */
	if (r >= 0 && !e->error)
		r = e->error = commit(e, false);
	for (unsigned k = 0; k < ras_n_event_types && r >= 0 && !e->error; k++)
		r = ras_db_rows_after(db, k, p->last[k], export_event, e);
	if (r >= 0 && !e->error)
		r = ras_db_lost_after(db, p->last[KEY_LOST], export_lost, e);
	if (r >= 0 && !e->error)
		r = ras_db_actions_after(db, p->last[KEY_ACTION], export_action, e);
	return e->error ? e->error : r < 0 ? r : 0;
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

/*
 * One export per cursor at a time: two would deliver the same records. The
 * cursor's directory is checked here, first (files.why says what it refused).
 */
static int lock_cursor(const char *path)
{
	char dir[PATH_MAX], lock[NAME_MAX + 8];
	int fd = ras_path_split(path, dir, sizeof(dir), files.name, sizeof(files.name));

	if (fd < 0) {
		snprintf(files.why, sizeof(files.why), "%s: %s", path, strerror(-fd));
		return fd;
	}
	snprintf(files.dir, sizeof(files.dir), "%s", dir);
	files.dirfd = ras_safe_dir_open(dir, 0, files.why, sizeof(files.why));
	if (files.dirfd < 0)
		return files.dirfd;
	snprintf(lock, sizeof(lock), "%s.lock", files.name);
	fd = ras_open_safe_at(files.dirfd, lock, O_RDWR | O_CREAT);
	if (fd < 0) {
		snprintf(files.why, sizeof(files.why), "%s.lock: %s", path,
			 fd == -ELOOP ? "is a symbolic link" : fd == -EPERM ?
			 "belongs to another user, is writable by others or is not a regular file" :
			 strerror(-fd));
		return fd;
	}
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

/*
 * The cursor follows the database it finds: one replaced (removed, moved
 * aside, a fresh one made) is exported from its start, one put back resumes
 * where its export stopped. A database older than the cursor (restored from
 * an earlier copy) resumes at its newest row. Each is said on stderr.
 */
static void follow_database(struct export *e, struct ras_db *db)
{
	struct export_position *p;
	char id[48], was[48];
	int r;

	ras_db_identity(db, id, sizeof(id));
	r = cursor_select_db(&e->cur, id, was, sizeof(was));
	if (r == 1)
		fprintf(stderr, "ras-fdr-ctl: export: %s is database %s again (it was %s): its export "
			"resumes where it stopped\n", e->c->cfg.database, id, was[0] ? was : "older");
	else if (r == 2)
		fprintf(stderr, "ras-fdr-ctl: export: %s is a different database (%s, the cursor was at "
			"%s): it is exported from its start\n", e->c->cfg.database, id[0] ? id : "older",
			was[0] ? was : "an older one");
	p = &e->cur.pos[0];
	for (unsigned k = 0; k < CURSOR_KEYS; k++) {
		int64_t high;

		if (!cursor_key_name(k) || !p->last[k])
			continue;
		high = ras_db_position_high(db, k < ras_n_event_types ? ras_event_types[k].table :
					    k == KEY_LOST ? "lost_events" : k == KEY_ACTION ? "actions" :
					    k == KEY_FOLD ? "fold_growth" : "action_growth");
		if (p->last[k] <= high)
			continue;
		fprintf(stderr, "ras-fdr-ctl: export: database %s holds %s up to %lld, the cursor was at "
			"%lld: an older copy put back? Its export resumes at %lld\n", id,
			cursor_key_name(k), (long long)high, (long long)p->last[k], (long long)high);
		p->last[k] = high;
	}
}

/* Ends a run: a durable cursor; after an error, the output stops at a line's end or is gone. */
static int finish(struct export *e, int r)
{
	if (r >= 0) {
		e->cur.running = false;
		return commit(e, true);
	}
	/*
	 * A closed pipe's reader is gone: the next run must not begin with an
	 * empty line. Only a kill (state running) may leave a line cut.
	 */
	if (fflush(stdout) == 0 || errno == EPIPE) {
		e->cur.running = false;
		cursor_save(e, true);
	}
	return r;
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
		fprintf(stderr, "ras-fdr-ctl: refusing cursor %s: %s\n", e->path, files.why);
	else if (r < 0)
		fprintf(stderr, "ras-fdr-ctl: refusing cursor %s: %s\n", e->path, files.why);
	if (r < 0 || ctl_open_db(c, &db) < 0) {
		free(e);
		return 1;
	}
	/* A closed pipe is an error to report (EPIPE), not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	/* What the last run wrote counts for the database it was exporting. */
	r = prepare_output(e);
	/* One snapshot: every position is judged against the same database state. */
	if (r == 0 && (r = ras_db_snapshot_begin(db)) == 0) {
		follow_database(e, db);
		r = export_all(e, db);
		ras_db_snapshot_end(db);
	}
	ras_db_close(db);
	r = finish(e, r);
	if (r < 0)
		fprintf(stderr, "ras-fdr-ctl: export: %s (the cursor keeps the last delivered record)\n",
			strerror(-r));
	if (e->cursor_fd >= 0)
		close(e->cursor_fd);
	ctl_jbuf_free(&e->line);
	free(e);
	return r < 0 ? 1 : 0;
}
