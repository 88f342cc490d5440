/* SPDX-License-Identifier: MIT */
/*
 * rasd/log.c: record lines are limited per event type and class (corrected
 * or lower; worse, fatal included), a notice says when a limit is reached,
 * and every line not logged is counted and reported, at the latest at stop.
 */
#include <stdalign.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "lib/event_table.h"
#include "rasd/log.h"
#include "tap.h"

static FILE *captured;

/* Everything logged since the last call, from the file stderr points at. */
static char *take_stderr(void)
{
	static char buf[1 << 20];
	size_t n;

	fflush(stderr);
	rewind(captured);
	n = fread(buf, 1, sizeof(buf) - 1, captured);
	buf[n] = '\0';
	if (ftruncate(fileno(captured), 0) < 0)
		buf[0] = '\0';
	rewind(captured);
	return buf;
}

static unsigned count(const char *text, const char *needle)
{
	unsigned n = 0;

	for (const char *p = text; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void log_n(const char *type, enum ras_severity sev, int cpu, unsigned n)
{
	alignas(16) uint8_t decoded[RAS_DECODED_MAX] = { 0 };
	struct ras_decoded_head *h = (struct ras_decoded_head *)decoded;

	h->severity = sev;
	for (unsigned i = 0; i < n; i++)
		ras_log_record(ras_event_type_find(type), cpu, "live", decoded, 1700000000000000000LL);
}

/* Record text on stderr is shown, never obeyed: no escape sequence, no forged line (issue 31). */
static void check_record_text(void)
{
	alignas(16) uint8_t decoded[RAS_DECODED_MAX] = { 0 };
	struct ras_decoded_head *h = (struct ras_decoded_head *)decoded;
	char *out;

	h->severity = RAS_SEV_CORRECTED;
	snprintf(h->location, sizeof(h->location), "DIMM \x1b]0;owned\x07\x1b[2J\nrasd: forged line");
	ras_log_record(ras_event_type_find("devlink_health_report"), 3, "live\x1b[31m", decoded,
		       1700000000000000000LL);
	ras_log(LOG_WARNING, "a path %s", "/tmp/\x9b" "6n");
	out = take_stderr();
	tap_ok(!strchr(out, '\x1b') && !strstr(out, "\x9b"), "no ESC and no C1 byte reach stderr");
	tap_is_int(count(out, "\n"), 2, "two lines, no forged third");
	tap_ok(strstr(out, "DIMM \\x1b]0;owned\\x07\\x1b[2J\\x0arasd: forged line") != NULL,
	       "the location is shown with its escapes visible");
	tap_ok(strstr(out, "/tmp/\\x9b6n") != NULL, "a raw C1 byte in a message is shown as \\x9b");
}

int main(void)
{
	char *out;

	captured = tmpfile();
	if (!captured || dup2(fileno(captured), STDERR_FILENO) < 0)
		return 99;
	setvbuf(stderr, NULL, _IONBF, 0);
	ras_log_init(false, 0, &(struct ras_log_rates){ .corrected_per_minute = 2,
							.uncorrected_per_minute = 3 });

	log_n("aer_event", RAS_SEV_UNCORRECTED, 7, 6);
	log_n("aer_event", RAS_SEV_FATAL, 7, 4);
	log_n("aer_event", RAS_SEV_CORRECTED, 8, 5);
	log_n("mce_record", RAS_SEV_UNCORRECTED, 9, 4);
	out = take_stderr();
	tap_is_int(count(out, " cpu 7"), 3, "uncorrected and fatal share one limit: 3 lines of 10");
	tap_is_int(count(out, " cpu 8"), 2, "corrected lines have their own limit: 2 of 5");
	tap_is_int(count(out, " cpu 9"), 3, "each event type has its own limit: 3 of 4");
	tap_is_int(count(out, "more than 3 aer_event records worse than corrected this minute"), 1,
		   "the limit reached is said once, at once");
	tap_is_int(count(out, "more than 2 aer_event records corrected or lower this minute"), 1,
		   "and for the corrected lines");
	tap_is_int(count(out, "more than 3 mce_record records worse"), 1, "and for the other type");
	tap_is_int(count(out, "were not logged"), 0, "counts wait for the minute's end or the stop");

	ras_log_flush_suppressed();
	out = take_stderr();
	tap_ok(strstr(out, "7 aer_event records worse than corrected were not logged (all are stored)")
	       != NULL, "at stop: the 7 uncorrected and fatal lines not logged are counted");
	tap_ok(strstr(out, "3 aer_event records corrected or lower were not logged") != NULL,
	       "the 3 corrected ones");
	tap_ok(strstr(out, "1 mce_record records worse than corrected were not logged") != NULL,
	       "the other type's one");
	tap_is_int(count(out, "\n"), 3, "nothing else");
	ras_log_flush_suppressed();
	tap_is_int((long long)strlen(take_stderr()), 0, "a count is reported once");

	log_n("aer_event", RAS_SEV_FATAL, 7, 1);
	out = take_stderr();
	tap_is_int(count(out, " cpu 7"), 0, "within the same minute the limit still holds");
	ras_log_flush_suppressed();
	tap_ok(strstr(take_stderr(), "1 aer_event records worse") != NULL, "and counts it");

	ras_log_set_rates(&(struct ras_log_rates){ 0, 0 });
	log_n("extlog_mem_event", RAS_SEV_UNCORRECTED, 7, 5);
	log_n("extlog_mem_event", RAS_SEV_CORRECTED, 7, 5);
	ras_log_flush_suppressed();
	tap_is_int((long long)strlen(take_stderr()), 0, "a rate of 0 logs no line, notice or count");

	ras_log_set_rates(&(struct ras_log_rates){ 2, 1000 });
	log_n("memory_failure_event", RAS_SEV_UNCORRECTED, 7, 1000);
	out = take_stderr();
	tap_is_int(count(out, " cpu 7"), 1000, "a reload's higher rate applies at once");
	tap_is_int(count(out, "rasd:"), 0, "without a notice");
	check_record_text();
	return tap_done();
}
