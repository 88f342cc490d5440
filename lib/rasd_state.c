/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rasd_state.h"
#include "fileio.h"
#include "safe_path.h"

int ras_rasd_lock_holder(const char *lock_dir, const char *instance)
{
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/rasd-%s.lock", lock_dir, instance);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return 0;
	/* F_GETLK needs a mode matching the lock type; retry read-write when allowed. */
	if (fcntl(fd, F_GETLK, &fl) < 0) {
		close(fd);
		fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd < 0 || fcntl(fd, F_GETLK, &fl) < 0)
			fl.l_type = F_UNLCK;
	}
	if (fd >= 0)
		close(fd);
	return fl.l_type == F_UNLCK ? 0 : fl.l_pid;
}

/* The value of "key=" in text (which starts with a newline), cut to len; "" when absent. */
static const char *value(const char *text, const char *key, char *out, size_t len)
{
	char k[48];
	const char *p;

	snprintf(k, sizeof(k), "\n%s=", key);
	out[0] = 0;
	if ((p = strstr(text, k))) {
		p += strlen(k);
		snprintf(out, len, "%.*s", (int)strcspn(p, "\n"), p);
	}
	return out;
}

static long long number(const char *text, const char *key)
{
	char v[32];

	return strtoll(value(text, key, v, sizeof(v)), NULL, 10);
}

/* Every "refused=" line's value, each ending in a newline, as many as fit whole. */
static void refusals(const char *text, char *out, size_t len)
{
	const char *p = text;
	size_t used = 0;

	out[0] = 0;
	while ((p = strstr(p, "\nrefused="))) {
		size_t n;

		p += strlen("\nrefused=");
		n = strcspn(p, "\n");
		if (used + n + 2 > len)
			break;
		memcpy(out + used, p, n);
		used += n;
		out[used++] = '\n';
		out[used] = 0;
	}
}

/* The file's text with a newline first, so that the first key too is found as "\nkey=". */
static char *read_keyed(const char *lock_dir, const char *instance, const char *suffix)
{
	char path[PATH_MAX + 160], *buf, *text;

	snprintf(path, sizeof(path), "%s/rasd-%s.%s", lock_dir, instance, suffix);
	if (ras_read_file(path, &buf, NULL) < 0)
		return NULL;
	text = malloc(strlen(buf) + 2);
	if (text)
		sprintf(text, "\n%s", buf);
	free(buf);
	return text;
}

void ras_rasd_state_read(const char *lock_dir, const char *instance, struct ras_rasd_state *st)
{
	ras_rasd_state_parse(lock_dir, instance, st);
	st->lock_pid = ras_rasd_lock_holder(lock_dir, instance);
	st->alive = st->present && st->lock_pid && st->lock_pid == st->pid;
	/* A file of an earlier rasd says neither: it is only not current. */
	st->killed = st->present && st->running && !st->alive;
}

void ras_rasd_state_parse(const char *lock_dir, const char *instance, struct ras_rasd_state *st)
{
	char *text, v[24], state[16];

	memset(st, 0, sizeof(*st));
	if (!(text = read_keyed(lock_dir, instance, "state")))
		return;
	st->present = true;
	st->pid = (long)number(text, "pid");
	value(text, "state", state, sizeof(state));
	st->stopped = !strcmp(state, "stopped");
	st->running = !strcmp(state, "running");
	/* As if its writer were dead: only ras_rasd_state_read can tell. */
	st->killed = st->running;
	st->failing = !strcmp(value(text, "storage", v, sizeof(v)), "failing");
	st->since_ns = number(text, "since_ns");
	st->start_ns = number(text, "start_ns");
	st->stop_ns = number(text, "stop_ns");
	st->replaced_ns = number(text, "replaced_ns");
	st->waiting = (uint64_t)number(text, "waiting");
	st->unstored = (uint64_t)number(text, "unstored");
	value(text, "reason", st->reason, sizeof(st->reason));
	value(text, "exit", st->exit_reason, sizeof(st->exit_reason));
	value(text, "database", st->database, sizeof(st->database));
	value(text, "database_id", st->database_id, sizeof(st->database_id));
	value(text, "replaced_from", st->replaced_from, sizeof(st->replaced_from));
	value(text, "moved_log", st->moved_log, sizeof(st->moved_log));
	st->durable_records = number(text, "durable_records");
	st->durable_p50_us = number(text, "durable_p50_us");
	st->durable_p99_us = number(text, "durable_p99_us");
	st->durable_max_us = number(text, "durable_max_us");
	refusals(text, st->refused, sizeof(st->refused));
	value(text, "bmc_sel", st->bmc_sel, sizeof(st->bmc_sel));
	st->instance_kept = !strcmp(value(text, "instance", v, sizeof(v)), "kept");
	st->instance_removed = !strcmp(v, "removed");
	value(text, "instance_boot", st->instance_boot, sizeof(st->instance_boot));
	st->instance_ident = strtoull(value(text, "instance_ident", v, sizeof(v)), NULL, 10);
	value(text, "instance_unread", v, sizeof(v));
	st->instance_unread = !strcmp(v, "unknown") ? RAS_UNREAD_UNKNOWN : strtoull(v, NULL, 10);
	free(text);
}

void ras_rasd_ack_read(const char *lock_dir, const char *instance, struct ras_rasd_ack *ack)
{
	char *text;

	memset(ack, 0, sizeof(*ack));
	if (!(text = read_keyed(lock_dir, instance, "ack")))
		return;
	ack->present = true;
	value(text, "database_id", ack->database_id, sizeof(ack->database_id));
	ack->lost_id = number(text, "lost_id");
	ack->replaced_ns = number(text, "replaced_ns");
	ack->at_ns = number(text, "at_ns");
	free(text);
}

int ras_rasd_ack_write(const char *lock_dir, const char *instance, const struct ras_rasd_ack *ack)
{
	char name[160], text[512];

	snprintf(name, sizeof(name), "rasd-%s.ack", instance);
	snprintf(text, sizeof(text), "database_id=%s\nlost_id=%lld\nreplaced_ns=%lld\nat_ns=%lld\n",
		 ack->database_id, (long long)ack->lost_id, (long long)ack->replaced_ns,
		 (long long)ack->at_ns);
	return ras_write_file_safe(lock_dir, name, text);
}
