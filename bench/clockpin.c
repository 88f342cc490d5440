/*
 * clockpin.so: an LD_PRELOAD shim that pins the wall clocks, so that two runs of
 * rasd over the same replayed tree store the same times and can be compared row for
 * row (HACKING.md, "Profiling the storm path").
 *
 * CLOCK_REALTIME, CLOCK_TAI (37 s ahead) and CLOCK_BOOTTIME (the trace clock rasd
 * sets; with it pinned the records' wall times do not depend on when the run
 * started), and time() and gettimeofday(), answer one fixed instant, CLOCKPIN_NS
 * (default 1,700,000,000 s). The monotonic clocks run, so rasd's timeouts expire;
 * work that rasd times by them (the diagnosis's flushes, the record lines' rates)
 * still moves from run to run.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/time.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec *);

static int64_t pinned_ns(void)
{
	const char *s = getenv("CLOCKPIN_NS");

	return s ? strtoll(s, NULL, 10) : INT64_C(1700000000000000000);
}

static int pinned(clockid_t id)
{
	return id == CLOCK_REALTIME || id == CLOCK_TAI || id == CLOCK_BOOTTIME ||
	       id == CLOCK_REALTIME_COARSE;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
	static clock_gettime_fn real;

	if (!pinned(id)) {
		if (!real)
			real = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
		return real(id, ts);
	}
	int64_t ns = pinned_ns();
	if (id == CLOCK_TAI)
		ns += INT64_C(37000000000);
	ts->tv_sec = ns / 1000000000;
	ts->tv_nsec = ns % 1000000000;
	return 0;
}

int gettimeofday(struct timeval *tv, void *tz)
{
	(void)tz;
	if (tv) {
		int64_t ns = pinned_ns();
		tv->tv_sec = ns / 1000000000;
		tv->tv_usec = (ns % 1000000000) / 1000;
	}
	return 0;
}

time_t time(time_t *t)
{
	time_t now = (time_t)(pinned_ns() / 1000000000);

	if (t)
		*t = now;
	return now;
}
