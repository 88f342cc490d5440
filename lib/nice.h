/* SPDX-License-Identifier: MIT */
/*
 * The reader comes first. In a storm rasd's event loop must be back at the
 * kernel's buffers within the time one of them holds (36 ms at 100,000
 * records/s with the default buffer), and on a busy machine what takes its
 * core decides that: too often its own writer thread. So what rasd does
 * besides reading runs RAS_NICE_BELOW_READER nice levels below the thread
 * that started it: the writer thread, and a trigger's child. rasd.service
 * starts rasd at Nice=-5, so those run at the machine's usual 0 and only
 * the reading (a few µs a record) is ahead of the workload.
 */
#ifndef RAS_NICE_H
#define RAS_NICE_H

#include <errno.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#define RAS_NICE_BELOW_READER 5

/* Lowers the calling thread's priority by levels (at most to 19): 0 or -errno. Needs no privilege. */
static inline int ras_nice_lower(int levels)
{
	id_t tid = (id_t)syscall(SYS_gettid);
	int nice;

	errno = 0;
	nice = getpriority(PRIO_PROCESS, tid);
	if (nice == -1 && errno)
		return -errno;
	nice = nice + levels > 19 ? 19 : nice + levels;
	return setpriority(PRIO_PROCESS, tid, nice) < 0 ? -errno : 0;
}

#endif
