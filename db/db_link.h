/* SPDX-License-Identifier: MIT */
/*
 * Links between records of different tables, found when they are read. A
 * memory-failure SIGBUS (signal_generate) names the process, not the page;
 * the kernel's memory_failure_event names the page, not the process.
 */
#ifndef RAS_DB_LINK_H
#define RAS_DB_LINK_H

#include "db.h"

/*
 * How far after a SIGBUS its memory failure may be recorded: the kernel
 * sends an action-optional SIGBUS (and, since 6.11, MADV_HWPOISON's
 * action-required one) from inside memory_failure(), microseconds before
 * that call records the page.
 */
#define RAS_DB_LINK_AFTER_NS 1000000000LL

struct ras_db_memfail_link {
	int64_t id, wall_ns;
	int64_t pfn;
	char page_type[48], recovery[48];
};

/*
 * The memory_failure_event a signal_generate row (by its id) is linked to:
 * of the same boot and kind (live or synthetic), the closest in time to the
 * signal, at most RAS_DB_LINK_AFTER_NS after it. Before it there is no
 * bound within the boot: a process that touches a poisoned page late is
 * sent its SIGBUS when it does, with no new memory failure recorded. 1
 * found, 0 none (or no such tables), -EIO.
 */
int ras_db_memfail_link(struct ras_db *db, int64_t signal_id, struct ras_db_memfail_link *out);

#endif
