/* SPDX-License-Identifier: MIT */
/* make bench-live's view of rasd's CPU: the process's and each thread's, from /proc. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "live_cpu.h"

const char *const live_thread_names[LIVE_THREADS] = { "rasd", "rasd-writer", "rasd-checkpoint" };
const char *const live_thread_words[LIVE_THREADS] = { "event loop", "writer", "checkpointer" };

/* CPU seconds (utime + stime) from a /proc stat file; its name in name when asked. */
static double stat_cpu(const char *path, char *name, size_t len)
{
	char buf[1024], *open_, *close_;
	unsigned long ut = 0, st = 0;
	FILE *f;
	size_t n;

	if (!(f = fopen(path, "re")))
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	/* The name is in parentheses and may hold spaces: after the last ')', state(3) ... utime(14) stime(15). */
	if (!(open_ = strchr(buf, '(')) || !(close_ = strrchr(buf, ')')) ||
	    sscanf(close_ + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
		return -1;
	if (name)
		snprintf(name, len, "%.*s", (int)(close_ - open_ - 1), open_ + 1);
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

double live_proc_cpu(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return stat_cpu(path, NULL, 0);
}

void live_threads_cpu(pid_t pid, double sign, double cpu[LIVE_THREADS])
{
	char path[128];
	struct dirent *de;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return;
	while ((de = readdir(d))) {
		char name[32];
		double c;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, de->d_name);
		if ((c = stat_cpu(path, name, sizeof(name))) < 0)
			continue;
		for (int i = 0; i < LIVE_THREADS; i++)
			if (!strcmp(name, live_thread_names[i]))
				cpu[i] += sign * c;
	}
	closedir(d);
}
