/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl trigger-relay: a trigger's sanctioned way out of rasd's sandbox.
 *
 * Under rasd.service a trigger runs inside rasd's sandbox: read-only file
 * system, no network, no devices, rasd's few capabilities (rasd(8)). A
 * trigger that needs more is a two-line script that execs
 * "ras-fdr-ctl trigger-relay": it sends its RAS_* environment, one NAME=value
 * line each, to rasd-trigger.socket. systemd starts an instance of
 * rasd-trigger@.service for the connection, outside the sandbox, running
 * "ras-fdr-ctl trigger-relay --serve" on it: that keeps only RAS_* names with
 * printable values, takes RAS_CONDITION from the known conditions, and runs
 * relayed-triggers/<condition> in rasd's configuration directory when its
 * path passes the rule of lib/safe_path.h, its output and exit status sent
 * back over the connection, so they land in rasd's log like any trigger's.
 *
 * What crosses is data: a compromised rasd can only have the administrator's
 * own programs run, with values it chose in RAS_* variables. rasd cannot
 * reach systemd's own sockets (the unit makes them inaccessible), so this is
 * the one way out.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ctl.h"
#include "lib/safe_path.h"

/* systemd's socket: under /run wherever runstatedir points. */
#define RELAY_SOCKET "/run/ras-fdr-trigger.sock"
#define RELAY_DIR SYSCONFDIR "/ras-fdr/relayed-triggers"
#define REQUEST_MAX 65536
#define VARS_MAX 64
#define STATUS_PREFIX "relayed trigger "

extern char **environ;

struct relay_args {
	bool serve;
	const char *socket, *dir;
};

static const struct ctl_opt relay_opts[] = {
	{ "serve", 's', NULL, CTL_C_NONE, "run the relayed trigger a connection asks for "
	  "(rasd-trigger@.service, the connection on stdin and stdout)" },
	{ "socket", 'S', "PATH", CTL_C_FILE, "the relay's socket (default " RELAY_SOCKET ")" },
	{ "dir", 'D', "DIR", CTL_C_FILE, "with --serve: the relayed triggers (default " RELAY_DIR ")" },
	{ NULL },
};

const struct ctl_spec ctl_trigger_relay_spec = {
	.name = "trigger-relay", .args = "", .opts = relay_opts,
	.summary = "a trigger's way out of rasd's sandbox, through rasd-trigger.socket",
	.more = "As a trigger (trigger_dir/CONDITION: #!/bin/sh then exec ras-fdr-ctl trigger-relay)\n"
		"it sends its RAS_* variables to rasd-trigger.socket; rasd-trigger@.service runs\n"
		RELAY_DIR "/CONDITION outside the sandbox with them\n"
		"and its output comes back. Exit 0 when that program exited 0. See rasd(8).\n",
};

static int relay_opt(void *ctx, int key, const char *arg)
{
	struct relay_args *a = ctx;

	if (key == 's')
		a->serve = true;
	else if (key == 'S')
		a->socket = arg;
	else if (key == 'D')
		a->dir = arg;
	return CTL_GO_ON;
}

static bool known_condition(const char *c)
{
	for (size_t i = 0; i < rasd_n_trigger_conditions; i++)
		if (!strcmp(c, rasd_trigger_conditions[i]))
			return true;
	return false;
}

/* RAS_ and then capitals, digits and '_' only; a value of printable bytes. */
static bool good_variable(const char *line)
{
	const char *eq = strchr(line, '=');

	if (!eq || eq - line < 5 || eq - line > 64 || strncmp(line, "RAS_", 4))
		return false;
	for (const char *p = line + 4; p < eq; p++)
		if (!((*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
			return false;
	for (const char *p = eq + 1; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* The trigger's side: its RAS_* variables out, the relayed program's output back. */
static int relay_send(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char buf[4096], line[256] = "", last[256] = "";
	size_t used = 0;
	ssize_t n;
	int fd;

	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path) >= (int)sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		int e = errno;

		fprintf(stderr, "ras-fdr-ctl: trigger-relay: cannot connect to %s: %s "
			"(is rasd-trigger.socket enabled?)\n", path, strerror(e));
		if (fd >= 0)
			close(fd);
		return -e;
	}
	for (char **e = environ; *e; e++)
		if (good_variable(*e))
			dprintf(fd, "%s\n", *e);
	shutdown(fd, SHUT_WR);
	/* Everything the relayed program said, to rasd's log; its status is the last line. */
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		fwrite(buf, 1, (size_t)n, stdout);
		for (ssize_t i = 0; i < n; i++) {
			if (buf[i] == '\n') {
				line[used] = '\0';
				memcpy(last, line, used + 1);
				used = 0;
			} else if (used < sizeof(line) - 1) {
				line[used++] = buf[i];
			}
		}
	}
	close(fd);
	fflush(stdout);
	n = (ssize_t)strlen(last);
	return !strncmp(last, STATUS_PREFIX, strlen(STATUS_PREFIX)) && n > 13 &&
	       !strcmp(last + n - 13, "exited with 0") ? 0 : 1;
}

/* Whether line's name is among vars already: the first one counts, as for getenv(). */
static bool seen(char *const *vars, unsigned n, const char *line)
{
	size_t len = strcspn(line, "=") + 1;

	for (unsigned i = 0; i < n; i++)
		if (!strncmp(vars[i], line, len))
			return true;
	return false;
}

/* Reads the whole request: NAME=value lines; the good ones point into it from vars. */
static int read_request(char **vars, unsigned *n, const char **condition)
{
	static char req[REQUEST_MAX + 1];
	size_t len = 0;
	ssize_t r;
	char *save = NULL;

	while (len < REQUEST_MAX && (r = read(STDIN_FILENO, req + len, REQUEST_MAX - len)) > 0)
		len += (size_t)r;
	req[len] = '\0';
	*n = 0;
	*condition = NULL;
	for (char *line = strtok_r(req, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (!good_variable(line) || *n == VARS_MAX || seen(vars, *n, line))
			continue;
		vars[(*n)++] = line;
		if (!strncmp(line, "RAS_CONDITION=", 14))
			*condition = line + 14;
	}
	return *condition && known_condition(*condition) ? 0 : -EINVAL;
}

/* rasd-trigger@.service's side: the connection is stdin and stdout. */
static int relay_serve(const char *dir)
{
	char *env[VARS_MAX + 2], path[PATH_MAX + 64], why[PATH_MAX + 300];
	const char *condition;
	unsigned n;
	int dirfd, exe, status = 0;
	struct stat st;
	pid_t pid;

	if (read_request(env, &n, &condition) < 0) {
		printf("trigger-relay: refused: no RAS_CONDITION naming a known condition\n");
		return 1;
	}
	env[n++] = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
	env[n] = NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, condition);
	dirfd = ras_safe_dir_open(dir, 0, why, sizeof(why));
	exe = dirfd < 0 ? dirfd : ras_safe_file_openat(dirfd, dir, condition, O_PATH, why, sizeof(why));
	if (dirfd >= 0)
		close(dirfd);
	if (exe >= 0 && (fstat(exe, &st) != 0 || !(st.st_mode & S_IXUSR))) {
		snprintf(why, sizeof(why), "%s is not executable", path);
		close(exe);
		exe = -EACCES;
	}
	if (exe < 0) {
		printf("trigger-relay: refusing %s: %s\n", condition, why);
		return 1;
	}
	fflush(stdout);
	/* The trigger's side may be killed at trigger_timeout_s: the relayed program goes on. */
	signal(SIGPIPE, SIG_IGN);
	pid = fork();
	if (pid == 0) {
		char *argv[] = { path, NULL };
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		if (null >= 0)
			dup2(null, STDIN_FILENO);
		dup2(STDOUT_FILENO, STDERR_FILENO);
		if (ras_safe_execve(exe, path, argv, env) == -ESTALE)
			printf("%s changed between its check and its start: not run\n", path);
		_exit(127);
	}
	close(exe);
	if (pid < 0 || waitpid(pid, &status, 0) < 0) {
		printf("trigger-relay: cannot run %s: %s\n", path, strerror(errno));
		return 1;
	}
	if (WIFEXITED(status))
		printf(STATUS_PREFIX "%s exited with %d\n", path, WEXITSTATUS(status));
	else
		printf(STATUS_PREFIX "%s killed by signal %d\n", path, WTERMSIG(status));
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

int ctl_trigger_relay(struct ctl *c, int argc, char **argv)
{
	struct relay_args a = { .socket = RELAY_SOCKET, .dir = RELAY_DIR };
	int first, r = ctl_parse(&ctl_trigger_relay_spec, argc, argv, relay_opt, &a, &first);

	(void)c;
	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("trigger-relay", "unexpected argument '%s'", argv[first]);
	if (a.serve)
		return relay_serve(a.dir);
	return relay_send(a.socket) ? 1 : 0;
}
