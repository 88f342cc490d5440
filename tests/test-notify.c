/* SPDX-License-Identifier: MIT */
/*
 * rasd under a service manager, without one: a notify socket of our own
 * stands in for systemd. rasd must say READY=1 once set up, WATCHDOG=1 again
 * and again (its timer: half the watchdog interval), RELOADING=1 then READY=1 on SIGHUP, and
 * STOPPING=1 on SIGTERM, then exit 0. Needs root and tracefs (exit 77).
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "tap.h"
#include "test_util.h"

/* Waits up to ms for a datagram containing want; other messages are skipped. */
static bool expect(int fd, const char *want, int ms)
{
	struct timespec start, now;
	char buf[512];

	clock_gettime(CLOCK_MONOTONIC, &start);
	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int left;

		clock_gettime(CLOCK_MONOTONIC, &now);
		left = ms - (int)((now.tv_sec - start.tv_sec) * 1000 + (now.tv_nsec - start.tv_nsec) / 1000000);
		if (left <= 0 || poll(&p, 1, left) <= 0)
			return false;
		n = recv(fd, buf, sizeof(buf) - 1, 0);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (strstr(buf, want))
			return true;
	}
}

static pid_t start_rasd(const char *dir, const char *sock)
{
	char rasd[1024], conf[512], inst[64];
	FILE *f;
	pid_t pid;

	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(conf, sizeof(conf), "%s/rasd.conf", dir);
	snprintf(inst, sizeof(inst), "rasdt_notify_%d", (int)getpid());
	f = fopen(conf, "we");
	/* The machine's pstore and boot instances are its own rasd's to harvest. */
	fprintf(f, "database = %s/ras.db\ninstance = %s\nlock_dir = %s\ncrash_harvest = no\n"
		"boot_instance =\npersistent_instance =\n", dir, inst, dir);
	fclose(f);
	pid = fork();
	if (pid == 0) {
		char wd[] = "WATCHDOG_USEC=400000";

		setenv("NOTIFY_SOCKET", sock, 1);
		putenv(wd);
		freopen("/dev/null", "w", stderr);
		execl(rasd, rasd, "--config", conf, (char *)NULL);
		_exit(127);
	}
	return pid;
}

int main(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char dir[256];
	int fd, status = -1;
	pid_t pid;

	if (getuid() != 0 || access("/sys/kernel/tracing/instances", F_OK) != 0)
		tap_skip_all("needs root and tracefs");
	test_tmpdir(dir, sizeof(dir));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s/notify", dir);
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		tap_skip_all("cannot make a notify socket");
	pid = start_rasd(dir, sa.sun_path);
	/*
	 * Each message must come, and comes at once on an idle machine; the deadlines (30 s)
	 * only end a failing run. A loaded CI machine can hold rasd off the CPU past a
	 * watchdog interval of 400 ms (the timer fires every 200 ms: rasd/daemon_setup.c),
	 * so that the ping comes within the interval is not asserted: that it keeps coming is.
	 */
	tap_ok(expect(fd, "READY=1", 30000), "READY=1 once the instance and database are set up");
	tap_ok(expect(fd, "WATCHDOG=1", 30000), "WATCHDOG=1 under WATCHDOG_USEC");
	tap_ok(expect(fd, "WATCHDOG=1", 30000), "and again: the timer keeps going while idle");
	kill(pid, SIGHUP);
	tap_ok(expect(fd, "RELOADING=1", 30000), "RELOADING=1 on SIGHUP");
	tap_ok(expect(fd, "READY=1", 30000), "READY=1 after the reload");
	kill(pid, SIGTERM);
	tap_ok(expect(fd, "STOPPING=1", 30000), "STOPPING=1 on SIGTERM");
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rasd exits 0");
	close(fd);
	test_rmtree(dir);
	return tap_done();
}
