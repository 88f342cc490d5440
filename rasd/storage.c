/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <systemd/sd-daemon.h>
#include "log.h"
#include "lib/clock.h"
#include "lib/safe_path.h"
#include "lib/formats.h"
#include "lib/rasd_state.h"
#include "db/db_export.h"
#include "storage.h"
#include "refusals.h"

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rasd_storage_init(struct rasd_storage *s, const char *state_dir, const char *instance)
{
	struct ras_rasd_state *prev = malloc(sizeof(*prev));

	memset(s, 0, sizeof(*s));
	snprintf(s->state_dir, sizeof(s->state_dir), "%s", state_dir);
	snprintf(s->state_name, sizeof(s->state_name), "rasd-%s.state", instance);
	s->start_ns = ras_clock_ns(CLOCK_REALTIME);
	if (!prev)
		return;
	/*
	 * Called with the lock held: the file is the last rasd's. Whether it
	 * stopped, the database it recorded into, a replacement not acknowledged.
	 */
	ras_rasd_state_parse(state_dir, instance, prev);
	s->previous_killed = prev->killed;
	s->previous_instance.fate = prev->instance_kept ? RASD_INSTANCE_KEPT :
				    prev->instance_removed ? RASD_INSTANCE_REMOVED : RASD_INSTANCE_UNSAID;
	snprintf(s->previous_instance.boot_id, sizeof(s->previous_instance.boot_id), "%s",
		 prev->instance_boot);
	s->previous_instance.ident = prev->instance_ident;
	s->previous_instance.unread = prev->instance_unread;
	/* A rasd that stops before it has an instance leaves the last one's as it was. */
	s->instance = s->previous_instance;
	snprintf(s->database_id, sizeof(s->database_id), "%s", prev->database_id);
	s->replaced_ns = prev->replaced_ns;
	snprintf(s->replaced_from, sizeof(s->replaced_from), "%s", prev->replaced_from);
	snprintf(s->moved_log, sizeof(s->moved_log), "%s", prev->moved_log);
	free(prev);
}

void rasd_storage_note_db(struct rasd_storage *s, struct ras_db *db)
{
	char id[48];

	if (!db)
		return;
	ras_db_identity(db, id, sizeof(id));
	if (s->database_id[0] && id[0] && strcmp(id, s->database_id)) {
		ras_log(LOG_CRIT, "%s is another database than rasd recorded into before (%s, was %s): "
			"what the other one holds is not in it", s->db_path, id, s->database_id);
		s->replaced_ns = ras_clock_ns(CLOCK_REALTIME);
		snprintf(s->replaced_from, sizeof(s->replaced_from), "%s", s->database_id);
		/* A log kept aside belongs to the replacement found with it, not to a later one. */
		if (!s->moved_log_now)
			s->moved_log[0] = '\0';
	}
	s->moved_log_now = false;
	if (id[0])
		snprintf(s->database_id, sizeof(s->database_id), "%s", id);
	rasd_storage_write(s);
}

/* A reason is one line of the state file: a newline in it would start another key. */
static void one_line(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

void rasd_storage_stop(struct rasd_storage *s, const char *reason)
{
	s->stopped = true;
	if (reason[0] && !s->exit_reason[0]) {
		snprintf(s->exit_reason, sizeof(s->exit_reason), "%s", reason);
		one_line(s->exit_reason);
	}
	rasd_storage_write(s);
}

uint64_t rasd_storage_previous_unstored(const struct rasd_storage *s)
{
	char path[PATH_MAX + 160], *buf, *p;
	unsigned long long n = 0;

	snprintf(path, sizeof(path), "%s/%s", s->state_dir, s->state_name);
	if (ras_read_file(path, &buf, NULL) < 0)
		return 0;
	p = strstr(buf, "\nunstored=");
	if (p)
		n = strtoull(p + 10, NULL, 10);
	free(buf);
	return n;
}

/* instance= lines: what the next rasd of this boot needs to tell a kept instance removed. */
static void instance_lines(const struct rasd_instance_stop *in, char *out, size_t len)
{
	char unread[24] = "unknown";

	out[0] = 0;
	if (in->unread != RAS_UNREAD_UNKNOWN)
		snprintf(unread, sizeof(unread), "%llu", (unsigned long long)in->unread);
	if (in->fate == RASD_INSTANCE_KEPT)
		snprintf(out, len, "instance=kept\ninstance_boot=%s\ninstance_ident=%llu\n"
			 "instance_unread=%s\n", in->boot_id, (unsigned long long)in->ident, unread);
	else if (in->fate == RASD_INSTANCE_REMOVED)
		snprintf(out, len, "instance=removed\n");
}

void rasd_storage_write(struct rasd_storage *s)
{
	char text[12288 + 2 * PATH_MAX], dur[160] = "", refused[8192], sel[PATH_MAX + 200] = "";
	char inst[160];
	const struct rasd_durability *h = s->durability;
	int r;

	if (h && h->count)
		snprintf(dur, sizeof(dur), "durable_records=%llu\ndurable_p50_us=%lld\n"
			 "durable_p99_us=%lld\ndurable_max_us=%lld\n", (unsigned long long)h->count,
			 (long long)rasd_durability_quantile_us(h, 0.5),
			 (long long)rasd_durability_quantile_us(h, 0.99), (long long)h->max_us);
	/* What the path rule refused (rasd/refusals.h): one refused= line each. */
	rasd_refusals_text(refused, sizeof(refused));
	/* Whether the BMC hears of errors, and how that goes: one bmc_sel= line. */
	if (s->bmc_sel)
		snprintf(sel, sizeof(sel), "bmc_sel=%s\n", s->bmc_sel(s->bmc_sel_ctx));
	instance_lines(&s->instance, inst, sizeof(inst));
	/*
	 * Key = value lines, read by ras-fdr-ctl status and metrics
	 * (lib/rasd_state.c), believed only while this pid holds the lock; the
	 * reasons are last, they may hold anything but a newline.
	 */
	snprintf(text, sizeof(text), "pid=%ld\nstate=%s\nstart_ns=%lld\nstop_ns=%lld\nunstored=%llu\n"
		 "database=%s\ndatabase_id=%s\nreplaced_ns=%lld\nreplaced_from=%s\nmoved_log=%s\n"
		 "storage=%s\nsince_ns=%lld\nwaiting=%llu\n%s%s%s%sexit=%s\nreason=%s\n", (long)getpid(),
		 s->stopped ? "stopped" : "running", (long long)s->start_ns,
		 (long long)(s->stopped ? ras_clock_ns(CLOCK_REALTIME) : 0),
		 (unsigned long long)s->unstored, s->db_path, s->database_id,
		 (long long)s->replaced_ns, s->replaced_from, s->moved_log, s->failing ? "failing" : "ok",
		 (long long)s->since_ns, (unsigned long long)s->waiting, dur, sel, inst, refused,
		 s->exit_reason, s->failing ? s->reason : "");

	s->written_ms = mono_ms();
	s->durability_written = h ? h->count : 0;
	r = ras_write_file_safe(s->state_dir, s->state_name, text);
	if (r < 0)
		ras_log(LOG_WARNING, "cannot write state file %s/%s: %s", s->state_dir, s->state_name,
			strerror(-r));
}

void rasd_storage_set(struct rasd_storage *s, bool failing, int64_t since_ns, const char *reason,
		      uint64_t waiting)
{
	char when[40];

	s->waiting = waiting;
	if (failing == s->failing)
		return;
	s->failing = failing;
	if (failing) {
		s->since_ns = since_ns;
		snprintf(s->reason, sizeof(s->reason), "%s", reason);
		one_line(s->reason);
		s->backoff_ms = RASD_RETRY_FIRST_MS;
		s->retry_at_ms = mono_ms() + s->backoff_ms;
		ras_format_time(since_ns, when, sizeof(when));
		ras_log(LOG_ERR, "storage failing since %s: %s; records are held (in memory up to "
			"hold_max_kb, then in the kernel buffer) and stored when it clears", when, reason);
		sd_notifyf(0, "STATUS=storage failing since %s: %s", when, reason);
	} else {
		ras_log(LOG_NOTICE, "storage works again: every record held since the failure is stored");
		sd_notify(0, "STATUS=recording");
		s->since_ns = 0;
		s->reason[0] = 0;
	}
	rasd_storage_write(s);
}

void rasd_storage_tick(struct rasd_storage *s)
{
	/* A refusal reaches ras-fdr-ctl status at once. */
	if (rasd_refusals_changed() ||
	    (s->durability && s->durability->count != s->durability_written &&
	     mono_ms() - s->written_ms >= RASD_STATE_INTERVAL_MS))
		rasd_storage_write(s);
}

int rasd_storage_timeout_ms(const struct rasd_storage *s)
{
	int64_t left;

	if (!s->failing)
		return -1;
	left = s->retry_at_ms - mono_ms();
	return left < 0 ? 0 : (int)left;
}

void rasd_storage_backoff(struct rasd_storage *s)
{
	s->backoff_ms = s->backoff_ms * 2 > RASD_RETRY_MAX_MS ? RASD_RETRY_MAX_MS : s->backoff_ms * 2;
	s->retry_at_ms = mono_ms() + s->backoff_ms;
}

/* <path>.corrupt-<UTC time>, and its -wal and -shm beside it under the same new name. */
static int move_aside(const char *path, char *aside, size_t len)
{
	static const char *const sfx[] = { "-wal", "-shm" };
	char stamp[32], from[PATH_MAX + 8], to[PATH_MAX + 64];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(aside, len, "%s.corrupt-%s", path, stamp);
	if (rename(path, aside) != 0)
		return -errno;
	for (int i = 0; i < 2; i++) {
		snprintf(from, sizeof(from), "%s%s", path, sfx[i]);
		snprintf(to, sizeof(to), "%s%s", aside, sfx[i]);
		if (rename(from, to) != 0 && errno != ENOENT)
			ras_log(LOG_WARNING, "cannot move %s aside: %s", from, strerror(errno));
	}
	return 0;
}

static void note(struct ras_db *db, const char *what, const char *detail)
{
	if (ras_db_storage_event(db, what, detail) < 0)
		ras_log(LOG_WARNING, "cannot record '%s' in the database: %s", what, ras_db_errmsg(db));
}

/* One attempt at path; a corrupt file is moved aside and a fresh one made in its place. */
static int open_once(struct rasd_storage *s, const char *path, const char *boot_id,
		     struct ras_db **db, enum ras_db_state *st, char *err, size_t errlen)
{
	char aside[PATH_MAX + 64], detail[PATH_MAX * 2 + 600];
	int r = ras_db_open_writer_state(db, path, boot_id, st, err, errlen);

	if (r == 0 || *st != RAS_DB_CORRUPT)
		return r;
	if (move_aside(path, aside, sizeof(aside)) < 0) {
		ras_log(LOG_ERR, "%s; cannot move it aside: %s", err, strerror(errno));
		return r;
	}
	snprintf(detail, sizeof(detail), "%s moved to %s: %s", path, aside, err);
	ras_log(LOG_CRIT, "%s; moved to %s, recording into a fresh database", err, aside);
	r = ras_db_open_writer_state(db, path, boot_id, st, err, errlen);
	if (r == 0)
		note(*db, "corrupt-moved-aside", detail);
	(void)s;
	return r;
}

int rasd_storage_replace_corrupt(struct rasd_storage *s, const char *boot_id, struct ras_db **db,
				 const char *reason)
{
	char aside[PATH_MAX + 64], err[PATH_MAX + 600], detail[PATH_MAX * 2 + 600];
	enum ras_db_state st;
	int r;

	/*
	 * Only the file found corrupt is moved aside: when the path names another
	 * one now (a restored backup renamed over it), that one is opened instead.
	 */
	if (ras_db_moved(*db)) {
		snprintf(err, sizeof(err), "%s", ras_db_errmsg(*db));
		return rasd_storage_reopen_moved(s, boot_id, db, err);
	}
	ras_db_close(*db);
	*db = NULL;
	if (move_aside(s->db_path, aside, sizeof(aside)) < 0) {
		ras_log(LOG_ERR, "database %s is corrupt (%s); cannot move it aside: %s", s->db_path,
			reason, strerror(errno));
		return -errno;
	}
	snprintf(detail, sizeof(detail), "%s moved to %s: corrupt while in use: %s", s->db_path,
		 aside, reason);
	ras_log(LOG_CRIT, "database %s turned out corrupt (%s); moved to %s, recording into a "
		"fresh database", s->db_path, reason, aside);
	r = ras_db_open_writer_state(db, s->db_path, boot_id, &st, err, sizeof(err));
	if (r < 0) {
		ras_log(LOG_ERR, "%s", err);
		*db = NULL;
		return r;
	}
	note(*db, "corrupt-moved-aside", detail);
	return 0;
}

int rasd_storage_reopen_moved(struct rasd_storage *s, const char *boot_id, struct ras_db **db,
			      const char *reason)
{
	char err[PATH_MAX + 600], kept[PATH_MAX + 64], detail[PATH_MAX + 200];
	enum ras_db_state st;
	int r;

	ras_db_close_keep(*db, kept, sizeof(kept));
	*db = NULL;
	if (kept[0]) {
		snprintf(s->moved_log, sizeof(s->moved_log), "%s", kept);
		s->moved_log_now = true;
	}
	/* Its log's frames that did not reach the moved file: where they went, told at once. */
	if (kept[0]) {
		snprintf(detail, sizeof(detail), "%s: the moved database's log, frames not copied"
			 " into it; put it back beside that file as its -wal", kept);
		ras_log(LOG_CRIT, "%s", detail);
	}
	r = open_once(s, s->db_path, boot_id, db, &st, err, sizeof(err));
	if (r < 0) {
		ras_log(LOG_ERR, "%s (%s); the records stay held", err, reason);
		*db = NULL;
		return r;
	}
	ras_log(LOG_CRIT, "%s; recording into %s again, %s", reason, s->db_path,
		st == RAS_DB_EMPTY ? "a fresh database" : "the file now there");
	note(*db, "moved-reopened", reason);
	if (kept[0])
		note(*db, "moved-log-kept", detail);
	return 0;
}

int rasd_storage_open(struct rasd_storage *s, const char *path, const char *boot_id,
		      struct ras_db **db, bool (*give_up)(void *), void *ctx)
{
	char err[PATH_MAX + 600], alt[PATH_MAX + 16], detail[PATH_MAX * 2 + 700];
	enum ras_db_state st;
	int r;

	snprintf(s->db_path, sizeof(s->db_path), "%s", path);
	s->backoff_ms = RASD_RETRY_FIRST_MS;
	for (;;) {
		r = open_once(s, s->db_path, boot_id, db, &st, err, sizeof(err));
		if (r == 0)
			return 0;
		if ((st == RAS_DB_FOREIGN || st == RAS_DB_NEWER) && !strcmp(s->db_path, path)) {
			/* Not ours to change: record beside it, named by the schema we write. */
			snprintf(alt, sizeof(alt), "%s.v%d", path, RAS_DB_SCHEMA_VERSION);
			snprintf(detail, sizeof(detail), "%s; left untouched, recording into %s", err, alt);
			ras_log(LOG_CRIT, "%s", detail);
			snprintf(s->db_path, sizeof(s->db_path), "%s", alt);
			r = open_once(s, s->db_path, boot_id, db, &st, err, sizeof(err));
			if (r == 0) {
				note(*db, st == RAS_DB_NEWER ? "newer-kept" : "foreign-kept", detail);
				return 0;
			}
		}
		/* A file rasd may not or cannot use is for a person to sort out. */
		if (st != RAS_DB_GOOD && st != RAS_DB_EMPTY) {
			ras_log(LOG_ERR, "%s", err);
			rasd_storage_stop(s, err);
			return r;
		}
		/* Said once, as any storage failure: log, STATUS= and the state file. */
		rasd_storage_set(s, true, ras_clock_ns(CLOCK_REALTIME), err, 0);
		if (give_up(ctx))
			return r;
		usleep(s->backoff_ms * 1000u);
		rasd_storage_backoff(s);
	}
}
