/* SPDX-License-Identifier: MIT */
#include <stdarg.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#define SD_JOURNAL_SUPPRESS_LOCATION 1
#include <systemd/sd-journal.h>
#include "log.h"
#include "lib/clock.h"
#include "lib/decode.h"
#include "lib/text.h"
#include "decoders/other_util.h"

/*
 * Record lines are limited per event type and per class: corrected or lower,
 * and worse. A storm of uncorrected records (a flapping PCIe link, a
 * previous boot's buffer) would otherwise write a line per record, and
 * journald, past its own limit (10,000 lines in 30 s by default), drops
 * lines without saying which, rasd's own warnings among them.
 */
enum { CLASS_CORRECTED, CLASS_WORSE, N_CLASSES };

static bool use_journal;
static int log_verbosity;
static unsigned rate_limit[N_CLASSES];
static struct ras_log_limit rates[RAS_MAX_EVENT_TYPES][N_CLASSES];
static const char *const class_words[N_CLASSES] = { "corrected or lower", "worse than corrected" };

void ras_log_init(bool journal, int verbosity, const struct ras_log_rates *r)
{
	use_journal = journal;
	log_verbosity = verbosity;
	ras_log_set_rates(r);
}

void ras_log_set_rates(const struct ras_log_rates *r)
{
	rate_limit[CLASS_CORRECTED] = r->corrected_per_minute;
	rate_limit[CLASS_WORSE] = r->uncorrected_per_minute;
}

/*
 * A line on stderr, which is line-based wherever it goes (a terminal, a file,
 * a pipe into a collector): record text in it (a DIMM label, a kernel
 * message, a process name) is written in its safe form (lib/text.h), so it
 * can neither drive the terminal nor start a forged line. The journal gets
 * its fields as they are: it is binary-safe, and journalctl shows them so.
 */
static void stderr_line(const char *prefix, const char *msg)
{
	fputs(prefix, stderr);
	ras_text_write(stderr, msg, strlen(msg));
	fputc('\n', stderr);
}

void ras_log(int priority, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	if (priority == LOG_DEBUG && log_verbosity < 1)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (use_journal)
		sd_journal_send("MESSAGE=%s", msg, "PRIORITY=%d", priority, NULL);
	else
		stderr_line("rasd: ", msg);
}

void ras_log_fields(int priority, const char *message_id, const char *const *fields,
		    const char *fmt, ...)
{
	struct iovec iov[40];
	char msg[1200], prio[32], id[64];
	unsigned n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg + 8, sizeof(msg) - 8, fmt, ap);
	va_end(ap);
	if (!use_journal) {
		stderr_line("rasd: ", msg + 8);
		return;
	}
	memcpy(msg, "MESSAGE=", 8);
	snprintf(prio, sizeof(prio), "PRIORITY=%d", priority);
	snprintf(id, sizeof(id), "MESSAGE_ID=%s", message_id);
	iov[n++] = (struct iovec){ msg, strlen(msg) };
	iov[n++] = (struct iovec){ prio, strlen(prio) };
	iov[n++] = (struct iovec){ id, strlen(id) };
	for (unsigned i = 0; fields && fields[i] && n < 40; i++)
		iov[n++] = (struct iovec){ (void *)fields[i], strlen(fields[i]) };
	sd_journal_sendv(iov, (int)n);
}

static int severity_priority(enum ras_severity sev)
{
	switch (sev) {
	case RAS_SEV_FATAL: return LOG_CRIT;
	case RAS_SEV_UNCORRECTED: case RAS_SEV_SRAR: case RAS_SEV_SRAO: case RAS_SEV_UCNA:
		return LOG_ERR;
	case RAS_SEV_DEFERRED: return LOG_WARNING;
	case RAS_SEV_CORRECTED: return LOG_NOTICE;
	default: return LOG_INFO;
	}
}

void ras_log_limit_report(struct ras_log_limit *l, const char *what, const char *which)
{
	if (!l->suppressed)
		return;
	ras_log(LOG_NOTICE, "%lu %s%s%s were not logged (all are stored)", l->suppressed, what,
		*which ? " " : "", which);
	l->suppressed = 0;
}

/* Inlined into ras_log_record: it asks once a record, and most records are not logged in a storm. */
static inline __attribute__((always_inline)) bool
limit_allows(struct ras_log_limit *l, unsigned per_minute, const char *what, const char *which)
{
	struct timespec now;

	/* 0: these lines are not wanted at all, so nothing is counted. */
	if (!per_minute)
		return false;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (now.tv_sec - l->window >= 60) {
		ras_log_limit_report(l, what, which);
		l->window = now.tv_sec;
		l->used = 0;
	}
	if (l->used < per_minute) {
		l->used++;
		return true;
	}
	/* Said once per minute, when the limit is reached: the storm shows at once, not later. */
	if (l->suppressed++ == 0)
		ras_log(LOG_NOTICE, "more than %u %s%s%s this minute: no more are logged for up to "
			"60 s (all are stored)", per_minute, what, *which ? " " : "", which);
	return false;
}

bool ras_log_limit_allows(struct ras_log_limit *l, unsigned per_minute, const char *what,
			  const char *which)
{
	return limit_allows(l, per_minute, what, which);
}

static const char *record_words(unsigned type_idx)
{
	static char words[RAS_MAX_EVENT_TYPES][64];

	if (!words[type_idx][0])
		snprintf(words[type_idx], sizeof(words[type_idx]), "%s records",
			 ras_event_types[type_idx].table);
	return words[type_idx];
}

void ras_log_flush_suppressed(void)
{
	for (unsigned i = 0; i < RAS_MAX_EVENT_TYPES && i < ras_n_event_types; i++)
		for (unsigned c = 0; c < N_CLASSES; c++)
			ras_log_limit_report(&rates[i][c], record_words(i), class_words[c]);
}

/* The line of a record the rate allows; apart, so that the records not logged skip its frame. */
static __attribute__((noinline)) void record_line(const struct ras_event_type *type, int cpu,
						  const char *source, const void *decoded,
						  int64_t wall_ns)
{
	const struct ras_decoded_head *d = decoded;
	char when[40], sentence[RAS_SUMMARY_LEN];
	char line[RAS_SUMMARY_LEN + 256];
	struct ou_buf b;

	ras_format_time(wall_ns, when, sizeof(when));
	ras_render(type, decoded, sentence, sizeof(sentence));
	/* "%s %s cpu %d%s%s: %s%s%s" without printf, cut where snprintf would cut it. */
	b = ou_start(line, sizeof(line));
	ou_put(&b, when);
	ou_put_lit(&b, " ");
	ou_put(&b, ras_severity_name(d->severity));
	ou_put_lit(&b, " cpu ");
	ou_put_int(&b, cpu);
	if (strcmp(source, "live")) {
		ou_put_lit(&b, " ");
		ou_put(&b, source);
	}
	ou_put_lit(&b, ": ");
	ou_put(&b, sentence);
	if (d->location[0]) {
		ou_put_lit(&b, " @ ");
		ou_put(&b, d->location);
	}
	if (!use_journal) {
		stderr_line("", line);
		return;
	}
	sd_journal_send("MESSAGE=%s", line, "MESSAGE_ID=%s", type->message_id,
			"PRIORITY=%d", severity_priority(d->severity),
			"RAS_EVENT=%s:%s", type->system, type->event,
			"RAS_SEVERITY=%s", ras_severity_name(d->severity),
			"RAS_CPU=%d", cpu, "RAS_LOCATION=%s", d->location,
			"RAS_SOURCE=%s", source, NULL);
}

void ras_log_record(const struct ras_event_type *type, int cpu, const char *source,
		    const void *decoded, int64_t wall_ns)
{
	const struct ras_decoded_head *d = decoded;
	unsigned idx = (unsigned)(type - ras_event_types);
	unsigned cls = d->severity > RAS_SEV_CORRECTED ? CLASS_WORSE : CLASS_CORRECTED;

	if (limit_allows(&rates[idx][cls], rate_limit[cls], record_words(idx), class_words[cls]))
		record_line(type, cpu, source, decoded, wall_ns);
}
