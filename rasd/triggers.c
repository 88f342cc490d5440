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
#include "refusals.h"
#include "lib/nice.h"
#include "lib/safe_path.h"

#define MAX_CHILDREN 64
/*
 * Conditions whose answer ras_triggers_installed keeps: rasd_trigger_conditions,
 * then any other asked.
 */
#define MAX_CONDITIONS 32
#define CONDITION_NAME 40

/* REFUSED: the rule refused it; kept as "not installed" for one read only. */
enum known { UNKNOWN, ABSENT, INSTALLED, REFUSED };

/* What lstat says of a path: absent, or an inode with its owner, mode and ctime. */
struct ident {
	bool exists;
	dev_t dev;
	ino_t ino;
	mode_t mode;
	uid_t uid;
	gid_t gid;
	struct timespec ctime;
};

/*
 * A condition's answer and what it was found on: trigger_dir and
 * trigger_dir/condition as the full check saw them. read: the read of the
 * buffers in which it was last found still true.
 */
struct kept {
	unsigned char known;
	unsigned long read;
	struct ident dir, file;
};

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
	/*
	 * What the last full check of each condition found: a storm's records ask at
	 * every uncorrected record and crossing, and walking trigger_dir from / each
	 * time cost 9 % of ras_actions_record; the live path reads the buffers
	 * hundreds of times a second, so a walk per read is too much as well.
	 */
	struct kept kept[MAX_CONDITIONS];
	char names[MAX_CONDITIONS][CONDITION_NAME]; /* kept[i]'s condition; "" free */
	unsigned long read;         /* reads of the buffers (ras_triggers_new_read) */
	unsigned long checks;       /* full checks made (open_trigger) */
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
	/* Said at start, not first at the worst moment: what the rule refuses here. */
	ras_triggers_check_all(t);
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

/* exe: the O_PATH descriptor open_trigger() checked; the file run is that file. */
static void exec_child(int exe, const char *path, int out, char *const env[])
{
	sigset_t none;
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char *argv[] = { (char *)path, NULL };

	/* Below the reader, as rasd's writer thread is (lib/nice.h): at the machine's 0 under rasd.service. */
	ras_nice_lower(RAS_NICE_BELOW_READER);
	/* rasd blocks its signals for the signalfd: the child starts with none blocked. */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (null >= 0)
		dup2(null, 0);
	dup2(out, 1);
	dup2(out, 2);
	if (ras_safe_execve(exe, path, argv, env) == -ESTALE)
		dprintf(1, "%s changed between its check and its start: not run\n", path);
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

static void ident_of(struct ident *id, const struct stat *st)
{
	*id = (struct ident){ .exists = true, .dev = st->st_dev, .ino = st->st_ino,
			      .mode = st->st_mode, .uid = st->st_uid, .gid = st->st_gid,
			      .ctime = st->st_ctim };
}

/* What the checked descriptor is; an fstat that fails leaves an identity no lstat matches. */
static void ident_of_fd(struct ident *id, int fd)
{
	struct stat st;

	if (fstat(fd, &st) == 0)
		ident_of(id, &st);
	else
		*id = (struct ident){ .exists = true, .mode = (mode_t)-1 };
}

/*
 * trigger_dir/condition by the rule of lib/safe_path.h: an O_PATH descriptor
 * of the executable file to run, or -ENOENT when there is none (no directory,
 * no file, a file without an execute bit). What the rule refuses is recorded
 * (rasd/refusals.h) and returned as -EPERM or -ELOOP; what passes clears it.
 * dir and file: trigger_dir and the file as this check found them (through
 * the descriptors it checked), absent where there was none.
 */
static int open_trigger(struct ras_triggers *t, const char *condition, struct ident *dir,
			struct ident *file)
{
	char why[PATH_MAX + 300], what[64];
	struct stat st;
	int dirfd, fd;

	snprintf(what, sizeof(what), "trigger %s", condition);
	t->checks++;
	*dir = (struct ident){ .exists = false };
	*file = (struct ident){ .exists = false };
	dirfd = ras_safe_dir_open(t->cfg->trigger_dir, 0, why, sizeof(why));
	if (dirfd == -ENOENT) {
		rasd_refusal_clear("trigger_dir");
		rasd_refusal_clear(what);
		return -ENOENT;
	}
	if (dirfd < 0) {
		rasd_refuse("trigger_dir", why);
		return dirfd;
	}
	rasd_refusal_clear("trigger_dir");
	ident_of_fd(dir, dirfd);
	fd = ras_safe_file_openat(dirfd, t->cfg->trigger_dir, condition, O_PATH, why, sizeof(why));
	close(dirfd);
	/* A file fstat cannot read is not run, and kept as absent, which no lstat matches. */
	if (fd >= 0 && fstat(fd, &st) == 0)
		ident_of(file, &st);
	if (fd == -ENOENT || (fd >= 0 && (!file->exists || !(st.st_mode & S_IXUSR)))) {
		if (fd >= 0)
			close(fd);
		rasd_refusal_clear(what);
		return -ENOENT;
	}
	if (fd < 0) {
		rasd_refuse(what, why);
		return fd;
	}
	rasd_refusal_clear(what);
	return fd;
}

/* condition's slot of kept answers (a free one taken for a new name), or -1. */
static int condition_index(struct ras_triggers *t, const char *condition)
{
	int i;

	for (i = 0; i < MAX_CONDITIONS && t->names[i][0]; i++)
		if (!strcmp(condition, t->names[i]))
			return i;
	if (i == MAX_CONDITIONS || strlen(condition) >= CONDITION_NAME)
		return -1;
	strcpy(t->names[i], condition);
	return i;
}

/* What a full check found (r: its descriptor or -errno): kept for the conditions we know. */
static void remember(struct ras_triggers *t, const char *condition, int r, const struct ident *dir,
		     const struct ident *file)
{
	int i = condition_index(t, condition);

	if (i < 0)
		return;
	t->kept[i] = (struct kept){ .known = r >= 0 ? INSTALLED : r == -ENOENT ? ABSENT : REFUSED,
				    .read = t->read, .dir = *dir, .file = *file };
}

void ras_triggers_check_all(struct ras_triggers *t)
{
	struct ident dir, file;
	char what[64];

	/* A reload may name another trigger_dir: nothing kept from before is kept. */
	for (int i = 0; t && i < MAX_CONDITIONS; i++)
		t->kept[i].known = UNKNOWN;
	for (size_t i = 0; t && i < rasd_n_trigger_conditions; i++) {
		int fd;

		snprintf(what, sizeof(what), "trigger %s", rasd_trigger_conditions[i]);
		if (!t->cfg->trigger_dir[0]) {
			rasd_refusal_clear(what);
			continue;
		}
		fd = open_trigger(t, rasd_trigger_conditions[i], &dir, &file);
		remember(t, rasd_trigger_conditions[i], fd, &dir, &file);
		if (fd >= 0)
			close(fd);
	}
	if (t && !t->cfg->trigger_dir[0])
		rasd_refusal_clear("trigger_dir");
}

void ras_triggers_new_read(struct ras_triggers *t)
{
	if (t)
		t->read++;
}

/*
 * path is what id says: absent both, or the same inode with the same owner,
 * group, mode and ctime (which chmod, chown, a new name in a directory, a
 * new link to a file change). One lstat, not a walk from /.
 */
static bool still(const struct ident *id, const char *path)
{
	struct stat st;

	if (lstat(path, &st) != 0)
		return errno == ENOENT && !id->exists;
	return id->exists && st.st_dev == id->dev && st.st_ino == id->ino &&
	       st.st_mode == id->mode && st.st_uid == id->uid && st.st_gid == id->gid &&
	       st.st_ctim.tv_sec == id->ctime.tv_sec && st.st_ctim.tv_nsec == id->ctime.tv_nsec;
}

/*
 * A kept answer of an earlier read still holds: trigger_dir and its file are
 * what the full check found (two lstats). A REFUSED one is never carried to
 * another read: the rule also reads the directories above trigger_dir, and
 * one of them made safe again changes neither lstat here.
 */
static bool still_holds(const struct ras_triggers *t, const struct kept *k, const char *condition)
{
	char path[PATH_MAX + 64];

	if (k->known != ABSENT && k->known != INSTALLED)
		return false;
	if (!still(&k->dir, t->cfg->trigger_dir))
		return false;
	snprintf(path, sizeof(path), "%s/%s", t->cfg->trigger_dir, condition);
	return still(&k->file, path);
}

/*
 * Why a kept answer cannot run an unsafe trigger: "installed" only makes the
 * caller build the environment and call ras_triggers_run, which walks
 * trigger_dir from / again (open_trigger) and runs the very file it checked
 * (ras_safe_execve); a kept "not installed" can only skip a run. The lstats
 * keep the answer true otherwise: a trigger added, removed, replaced, chmod or
 * chown'd, or trigger_dir replaced, chmod or chown'd, changes one of them.
 * What they do not see, a directory above trigger_dir made unsafe, is refused
 * by that full check before anything runs (and a refusal is kept one read).
 * The identities are those of the descriptors the check passed, read just
 * after it: in between only root (or rasd's user), who owns what passed, can
 * chmod or chown it, and another file or directory put in its place is
 * another inode.
 */
bool ras_triggers_installed(struct ras_triggers *t, const char *condition)
{
	struct ident dir, file;
	struct kept *k;
	int i, fd;

	if (!t || !t->cfg->trigger_dir[0])
		return false;
	i = condition_index(t, condition);
	k = i >= 0 ? &t->kept[i] : NULL;
	if (k && k->known != UNKNOWN && k->read == t->read) {
		/* Found in this read: never a kept "installed" for a directory that changed. */
		if (k->known != INSTALLED)
			return false;
		if (still(&k->dir, t->cfg->trigger_dir))
			return true;
	} else if (k && still_holds(t, k, condition)) {
		k->read = t->read;
		return k->known == INSTALLED;
	}
	fd = open_trigger(t, condition, &dir, &file);
	remember(t, condition, fd, &dir, &file);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

unsigned long ras_triggers_checks(const struct ras_triggers *t)
{
	return t ? t->checks : 0;
}

/*
 * A slot for condition's child, reaping the finished ones when none is free;
 * NULL when trigger_max_children still run (the refusal counted and logged).
 */
static struct child *child_slot(struct ras_triggers *t, const char *condition)
{
	struct child *c = free_slot(t);

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
	}
	return c;
}

int ras_triggers_run(struct ras_triggers *t, const char *condition, char *const env[])
{
	char path[PATH_MAX + 64];
	struct ident dir, file;
	struct child *c;
	int pipefd[2], exe;
	pid_t pid;

	if (!t || !t->cfg->trigger_dir[0])
		return -ENOENT;
	/* Always the full check, whatever is kept: the file checked is the file run. */
	exe = open_trigger(t, condition, &dir, &file);
	remember(t, condition, exe, &dir, &file);
	if (exe < 0)
		return exe;
	snprintf(path, sizeof(path), "%s/%s", t->cfg->trigger_dir, condition);
	c = child_slot(t, condition);
	if (!c) {
		close(exe);
		return -EBUSY;
	}
	if (pipe2(pipefd, O_CLOEXEC | O_NONBLOCK) < 0) {
		int e = errno;

		close(exe);
		return -e;
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;

		close(exe);
		close(pipefd[0]);
		close(pipefd[1]);
		return -e;
	}
	if (pid == 0)
		exec_child(exe, path, pipefd[1], env);
	close(exe);
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
