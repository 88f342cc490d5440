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

struct rate_state {
	time_t window;      /* start of the current minute window */
	unsigned used;      /* lines logged in it */
	unsigned long suppressed;
};

static bool use_journal;
static int log_verbosity;
static unsigned rate_limit;
static struct rate_state rates[RAS_MAX_EVENT_TYPES];

void ras_log_init(bool journal, int verbosity, unsigned corrected_per_minute)
{
	use_journal = journal;
	log_verbosity = verbosity;
	rate_limit = corrected_per_minute;
}

void ras_log_set_rate(unsigned corrected_per_minute)
{
	rate_limit = corrected_per_minute;
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
		fprintf(stderr, "rasd: %s\n", msg);
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
		fprintf(stderr, "rasd: %s\n", msg + 8);
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

/* Returns true when the line may be printed; counts it otherwise. */
static bool rate_allows(unsigned type_idx, enum ras_severity sev, unsigned long *released)
{
	struct rate_state *st = &rates[type_idx];
	struct timespec now;

	*released = 0;
	if (sev > RAS_SEV_CORRECTED)
		return true;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &now);
	if (now.tv_sec - st->window >= 60) {
		st->window = now.tv_sec;
		st->used = 0;
	}
	if (st->used >= rate_limit) {
		st->suppressed++;
		return false;
	}
	st->used++;
	*released = st->suppressed;
	st->suppressed = 0;
	return true;
}

void ras_log_record(const struct ras_event_type *type, int cpu, const char *source,
		    const void *decoded, int64_t wall_ns)
{
	const struct ras_decoded_head *d = decoded;
	char when[40], sentence[RAS_SUMMARY_LEN];
	unsigned idx = (unsigned)(type - ras_event_types);
	unsigned long released;
	char line[RAS_SUMMARY_LEN + 256];

	if (!rate_allows(idx, d->severity, &released))
		return;
	if (released)
		ras_log(LOG_NOTICE, "%lu %s records with severity corrected or lower were not logged "
			"(all are stored)", released, type->table);
	ras_format_time(wall_ns, when, sizeof(when));
	ras_render(type, decoded, sentence, sizeof(sentence));
	snprintf(line, sizeof(line), "%s %s cpu %d%s%s: %s%s%s", when, ras_severity_name(d->severity),
		 cpu, strcmp(source, "live") ? " " : "", strcmp(source, "live") ? source : "",
		 sentence, d->location[0] ? " @ " : "", d->location);
	if (!use_journal) {
		fprintf(stderr, "%s\n", line);
		return;
	}
	sd_journal_send("MESSAGE=%s", line, "MESSAGE_ID=%s", type->message_id,
			"PRIORITY=%d", severity_priority(d->severity),
			"RAS_EVENT=%s:%s", type->system, type->event,
			"RAS_SEVERITY=%s", ras_severity_name(d->severity),
			"RAS_CPU=%d", cpu, "RAS_LOCATION=%s", d->location,
			"RAS_SOURCE=%s", source, NULL);
}
