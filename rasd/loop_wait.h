/* SPDX-License-Identifier: MIT */
/*
 * How long rasd's event loop sleeps (issue 39): the soonest of what is due.
 * Some work is done only by a quiet loop, one with no group open and no
 * commit behind (rasd/daemon.c): memory given back (rasd/give_back.h), the
 * subjects seen once trimmed, the diagnosis's commit of its own (never while
 * the database fails). While the loop is not quiet their timeouts do not
 * count: the group's commit or the commit behind (the writer thread's eventfd,
 * or without it a look every millisecond) wakes it first, and a
 * "now" that nothing meets made epoll_wait return at once, over and over
 * (under a live storm millions of empty turns a second, most of rasd's CPU).
 * The rule is pure: rasd/daemon.c gives it the figures, tests/test-loop-wait
 * its own.
 */
#ifndef RASD_LOOP_WAIT_H
#define RASD_LOOP_WAIT_H

#include <stdbool.h>

/* Each in milliseconds, 0: now, -1: nothing due. */
struct rasd_loop_waits {
	int check;       /* the instance's check */
	int group;       /* the open group's commit, or the commit behind's (made: now) */
	int burst;       /* the next read by the tick under a storm */
	int sel;         /* the BMC's answers expiring */
	int retry;       /* the failing database's next try */
	int give_back;   /* memory given back: quiet only */
	int trim;        /* the subjects seen once trimmed: quiet only */
	int health;      /* the diagnosis's commit of its own: quiet and not failing only */
	bool quiet;      /* no group open, no commit behind */
	bool failing;    /* the database refuses */
};

/* The sooner of two timeouts, -1 meaning none. */
int rasd_loop_sooner(int a, int b);
/* epoll_wait's timeout: the soonest that counts now, or -1 for none. */
int rasd_loop_timeout_ms(const struct rasd_loop_waits *w);

#endif
