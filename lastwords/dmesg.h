/* SPDX-License-Identifier: MIT */
/*
 * A pstore dmesg record: pstore_dump() (fs/pstore/platform.c) writes the
 * header line "REASON#COUNT PartN" (REASON from kmsg_dump_reason_str():
 * Panic, Oops, Emergency, Shutdown, ...; older kernels: Restart, Halt,
 * Poweroff; COUNT the dumps since boot; Part1 the newest part of the log),
 * then whole kernel log lines as the syslog interface prints them:
 * "<LEVEL>[SECONDS.MICROS] text", the timestamp absent with printk.time=0,
 * and "[ T123]" or "[ C1]" after it with CONFIG_PRINTK_CALLER. A console
 * record (ramoops) holds the console's lines: no header, no "<LEVEL>".
 */
#ifndef LW_DMESG_H
#define LW_DMESG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct lw_dmesg_header {
	bool present;
	char reason[16];     /* "Panic", "Oops", ... as written */
	unsigned count;      /* #N: the Nth dump of that boot */
	unsigned part;       /* PartN: 1 is the newest part of the log */
};

/* One log line; text points into the record and is not terminated. */
struct lw_line {
	const char *text;
	size_t len;
	int level;           /* the syslog priority's level (0..7), -1 when absent */
	int64_t uptime_ns;   /* the printk timestamp, -1 when absent */
};

/*
 * Reads the header at the start of buf; *body is where the lines start (0
 * without a header, which is not an error: a console record has none).
 */
void lw_dmesg_header_parse(const char *buf, size_t len, struct lw_dmesg_header *h, size_t *body);
/*
 * The line at *pos of buf[0..len), and *pos past it: 1, or 0 at the end.
 * NUL bytes and a missing final newline are taken as they come.
 */
int lw_dmesg_next_line(const char *buf, size_t len, size_t *pos, struct lw_line *l);

#endif
