/* SPDX-License-Identifier: MIT */
/* Daemon logging: stderr in the foreground, structured journal entries under systemd. */
#ifndef RAS_LOG_H
#define RAS_LOG_H

#include <syslog.h>
#include <time.h>
#include "lib/event_table.h"

/* Record lines allowed per minute and event type (log_*_per_minute in rasd.conf). */
struct ras_log_rates {
	unsigned corrected_per_minute;   /* corrected or lower */
	unsigned uncorrected_per_minute; /* every worse severity, fatal included */
};

void ras_log_init(bool journal, int verbosity, const struct ras_log_rates *rates);
void ras_log_set_rates(const struct ras_log_rates *rates);
void ras_log(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A line with its own MESSAGE_ID and extra journal fields ("RAS_X=value",
 * NULL-terminated); on stderr only the message.
 */
void ras_log_fields(int priority, const char *message_id, const char *const *fields,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * One line per stored record, within the rates: past a rate a notice says so
 * once, the lines not logged are counted, and the count is logged when the
 * minute is over and the type's next record comes, or at
 * ras_log_flush_suppressed(). Storage is unaffected.
 */
/*
 * decoded: the decoder's output struct for type (it starts with a
 * struct ras_decoded_head). Its sentence is rendered only when the line
 * is printed.
 */
void ras_log_record(const struct ras_event_type *type, int cpu, const char *source,
		    const void *decoded, int64_t wall_ns);
/* Logs how many record lines were not logged, where not said yet (at stop). */
void ras_log_flush_suppressed(void);

/* A kind of line limited to so many a minute. */
struct ras_log_limit {
	time_t window;            /* start of the current minute */
	unsigned used;            /* lines logged in it */
	unsigned long suppressed; /* lines not logged, not reported yet */
};

/*
 * Whether one more line of the kind "what which" ("aer_event records",
 * "worse than corrected") fits per_minute (0: no line, nothing counted).
 * The first line refused in a minute logs that the limit is reached; the
 * count of lines refused is logged with the next minute's first line, or
 * by ras_log_limit_report().
 */
bool ras_log_limit_allows(struct ras_log_limit *l, unsigned per_minute, const char *what,
			  const char *which);
void ras_log_limit_report(struct ras_log_limit *l, const char *what, const char *which);

#endif
