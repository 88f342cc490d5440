/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/epoll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <unistd.h>
#include "triggers.h"
#include "log.h"

#define MAX_CHILDREN 64

struct child {
	pid_t pid;                  /* 0: free slot */
	int pidfd, outfd;
	int64_t deadline_ns;
	bool killed;
	char name[32];
	char line[512];             /* a partial output line */
	size_t used;
};

struct ras_triggers {
	const struct rasd_config *cfg;
	int epfd, timerfd;
	uint64_t tag;
	unsigned long refused;      /* runs refused at the cap */
	struct child kids[MAX_CHILDREN];
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int ras_triggers_open(struct ras_triggers **out, const struct rasd_config *cfg, int epfd,
		      uint64_t tag_base)
{
	struct ras_triggers *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	t->cfg = cfg;
	t->epfd = epfd;
	t->tag = tag_base;
	t->timerfd = -1;
	if (epfd >= 0) {
		struct epoll_event ee = { .events = EPOLLIN, .data.u64 = tag_base | RAS_TRIGGER_TAG_MASK };

		t->timerfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC | TFD_NONBLOCK);
		if (t->timerfd < 0 || epoll_ctl(epfd, EPOLL_CTL_ADD, t->timerfd, &ee) < 0) {
			int e = errno;

			if (t->timerfd >= 0)
				close(t->timerfd);
			free(t);
			return -e;
		}
	}
	*out = t;
	return 0;
}

/* The earliest deadline of a running child arms the timer; none disarms it. */
static void arm_timer(struct ras_triggers *t)
{
	struct itimerspec its = { 0 };
	int64_t next = 0;

	if (t->timerfd < 0)
		return;
	for (int i = 0; i < MAX_CHILDREN; i++)
		if (t->kids[i].pid && !t->kids[i].killed && (!next || t->kids[i].deadline_ns < next))
			next = t->kids[i].deadline_ns;
	if (next) {
		its.it_value.tv_sec = (time_t)(next / 1000000000);
		its.it_value.tv_nsec = (long)(next % 1000000000);
	}
	timerfd_settime(t->timerfd, TFD_TIMER_ABSTIME, &its, NULL);
}

static void emit_line(struct child *c)
{
	c->line[c->used] = 0;
	if (c->used)
		ras_log(LOG_INFO, "trigger %s[%d]: %s", c->name, (int)c->pid, c->line);
	c->used = 0;
}

/* Reads what is there; returns true at end of output. */
static bool read_output(struct child *c)
{
	char buf[1024];
	ssize_t n;

	while ((n = read(c->outfd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n' || c->used == sizeof(c->line) - 1)
				emit_line(c);
			if (buf[i] != '\n')
				c->line[c->used++] = buf[i];
		}
	}
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		emit_line(c);
		return true;
	}
	return false;
}

static void forget(struct ras_triggers *t, struct child *c, bool wait_blocking)
{
	int status = 0;
	pid_t r = waitpid(c->pid, &status, wait_blocking ? 0 : WNOHANG);

	if (r == 0)
		return;   /* not yet: its pidfd will say */
	if (c->outfd >= 0) {
		read_output(c);
		close(c->outfd);
	}
	if (c->pidfd >= 0)
		close(c->pidfd);
	if (WIFEXITED(status))
		ras_log(WEXITSTATUS(status) ? LOG_WARNING : LOG_INFO, "trigger %s[%d] exited with %d",
			c->name, (int)c->pid, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		ras_log(LOG_WARNING, "trigger %s[%d] killed by signal %d%s", c->name, (int)c->pid,
			WTERMSIG(status), c->killed ? " (time limit)" : "");
	memset(c, 0, sizeof(*c));
	arm_timer(t);
}

static void watch(struct ras_triggers *t, int fd, uint64_t tag)
{
	struct epoll_event ee = { .events = EPOLLIN, .data.u64 = tag };

	if (t->epfd >= 0 && fd >= 0)
		epoll_ctl(t->epfd, EPOLL_CTL_ADD, fd, &ee);
}

static void exec_child(const char *path, int out, char *const env[])
{
	sigset_t none;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char *argv[] = { (char *)path, NULL };

	/* rasd blocks its signals for the signalfd: the child starts with none blocked. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(out, 2);
	execve(path, argv, env);
	_exit(127);
}

/* Children that have exited but were not reaped yet (no loop, or its event is pending). */
static void reap_finished(struct ras_triggers *t)
{
	for (int i = 0; i < MAX_CHILDREN; i++) {
		struct child *c = &t->kids[i];
		siginfo_t si = { 0 };

		if (!c->pid || waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
		    si.si_pid != c->pid)
			continue;
		if (c->outfd >= 0 && t->epfd >= 0)
			epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->outfd, NULL);
		if (c->pidfd >= 0 && t->epfd >= 0)
			epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->pidfd, NULL);
		forget(t, c, true);
	}
}

static struct child *free_slot(struct ras_triggers *t)
{
	unsigned running = 0;
	struct child *slot = NULL;

	for (int i = 0; i < MAX_CHILDREN; i++) {
		if (t->kids[i].pid)
			running++;
		else if (!slot)
			slot = &t->kids[i];
	}
	return running < t->cfg->trigger_max_children ? slot : NULL;
}

bool ras_triggers_installed(struct ras_triggers *t, const char *condition)
{
	char path[PATH_MAX + 64];
	struct stat st;

	if (!t || !t->cfg->trigger_dir[0])
		return false;
	snprintf(path, sizeof(path), "%s/%s", t->cfg->trigger_dir, condition);
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

int ras_triggers_run(struct ras_triggers *t, const char *condition, char *const env[])
{
	char path[PATH_MAX + 64];
	struct stat st;
	struct child *c;
	int pipefd[2];
	pid_t pid;

	if (!t || !t->cfg->trigger_dir[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/%s", t->cfg->trigger_dir, condition);
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode) || access(path, X_OK) < 0)
		return -ENOENT;
	c = free_slot(t);
	if (!c) {
		reap_finished(t);
		c = free_slot(t);
	}
	if (!c) {
		/* A storm of uncorrected records would repeat this: log the 1st, 2nd, 4th, 8th... */
		t->refused++;
		if (!(t->refused & (t->refused - 1)))
			ras_log(LOG_WARNING, "trigger %s not run: %u triggers already running "
				"(%lu refused so far)", condition, t->cfg->trigger_max_children,
				t->refused);
		return -EBUSY;
	}
	if (pipe2(pipefd, O_CLOEXEC | O_NONBLOCK) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(pipefd[0]);
		close(pipefd[1]);
		return -e;
	}
	if (pid == 0)
		exec_child(path, pipefd[1], env);
	close(pipefd[1]);
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->outfd = pipefd[0];
	c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	c->deadline_ns = now_ns() + (int64_t)t->cfg->trigger_timeout_s * 1000000000;
	snprintf(c->name, sizeof(c->name), "%s", condition);
	watch(t, c->pidfd, t->tag | (uint64_t)(c - t->kids) << 1);
	watch(t, c->outfd, t->tag | (uint64_t)(c - t->kids) << 1 | 1);
	ras_log(LOG_INFO, "running trigger %s[%d]", path, (int)pid);
	arm_timer(t);
	return 0;
}

static void kill_overdue(struct ras_triggers *t)
{
	int64_t now = now_ns();

	for (int i = 0; i < MAX_CHILDREN; i++) {
		struct child *c = &t->kids[i];

		if (c->pid && !c->killed && c->deadline_ns <= now) {
			kill(c->pid, SIGKILL);
			c->killed = true;
		}
	}
	arm_timer(t);
}

void ras_triggers_handle(struct ras_triggers *t, uint64_t tag)
{
	uint64_t low = tag & RAS_TRIGGER_TAG_MASK, ticks;
	struct child *c;

	if (!t)
		return;
	if (low == RAS_TRIGGER_TAG_MASK) {
		if (read(t->timerfd, &ticks, sizeof(ticks)) > 0)
			kill_overdue(t);
		return;
	}
	if ((low >> 1) >= MAX_CHILDREN)
		return;
	c = &t->kids[low >> 1];
	if (!c->pid)
		return;
	if (low & 1) {
		/* End of output: without a pidfd, the exit follows; wait for it. */
		if (read_output(c)) {
			epoll_ctl(t->epfd, EPOLL_CTL_DEL, c->outfd, NULL);
			close(c->outfd);
			c->outfd = -1;
			if (c->pidfd < 0)
				forget(t, c, true);
		}
		return;
	}
	forget(t, c, false);
}

/* Without a loop: poll each child's output until it ends or its time is up. */
static void wait_child(struct child *c)
{
	while (c->outfd >= 0) {
		int64_t left = (c->deadline_ns - now_ns()) / 1000000;
		struct pollfd pfd = { .fd = c->outfd, .events = POLLIN };

		if (left <= 0 && !c->killed) {
			kill(c->pid, SIGKILL);
			c->killed = true;
		}
		if (poll(&pfd, 1, left > 0 ? (int)left : 100) < 0 && errno != EINTR)
			break;
		if (read_output(c)) {
			close(c->outfd);
			c->outfd = -1;
		}
	}
}

void ras_triggers_close(struct ras_triggers *t)
{
	if (!t)
		return;
	for (int i = 0; i < MAX_CHILDREN; i++) {
		struct child *c = &t->kids[i];

		if (!c->pid)
			continue;
		wait_child(c);
		/* Output closed but still running: wait out its time, no longer. */
		for (;;) {
			siginfo_t si = { 0 };

			if (waitid(P_PID, (id_t)c->pid, &si, WEXITED | WNOHANG | WNOWAIT) < 0 ||
			    si.si_pid == c->pid)
				break;
			if (!c->killed && c->deadline_ns <= now_ns()) {
				kill(c->pid, SIGKILL);
				c->killed = true;
			}
			usleep(10000);
		}
		forget(t, c, true);
	}
	if (t->timerfd >= 0)
		close(t->timerfd);
	free(t);
}
