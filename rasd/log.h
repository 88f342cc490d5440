/* SPDX-License-Identifier: MIT */
/* Daemon logging: stderr in the foreground, structured journal entries under systemd. */
#ifndef RAS_LOG_H
#define RAS_LOG_H

#include <syslog.h>
#include "lib/event_table.h"

void ras_log_init(bool journal, int verbosity, unsigned corrected_per_minute);
void ras_log_set_rate(unsigned corrected_per_minute);
void ras_log(int priority, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * A line with its own MESSAGE_ID and extra journal fields ("RAS_X=value",
 * NULL-terminated); on stderr only the message.
 */
void ras_log_fields(int priority, const char *message_id, const char *const *fields,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * One line per stored record. Corrected and informational records of a
 * type are limited to corrected_per_minute lines; the rest are counted and
 * the count is logged with the next line that passes. Storage is unaffected.
 */
/*
 * decoded: the decoder's output struct for type (it starts with a
 * struct ras_decoded_head). Its sentence is rendered only when the line
 * is printed.
 */
void ras_log_record(const struct ras_event_type *type, int cpu, const char *source,
		    const void *decoded, int64_t wall_ns);

#endif
