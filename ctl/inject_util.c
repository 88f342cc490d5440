/* SPDX-License-Identifier: MIT */
/* Helpers of the kernel injectors: parsing, writing injector files, the checks each makes. */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/wait.h>
#include <unistd.h>
#include "inject_kernel.h"

#include "inject_util.h"
#include "lib/fileio.h"
#include "lib/text.h"

extern char **environ;

int inj_usage_error(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* The message quotes the arguments: shown as a terminal may print them. */
	fputs("ras-fdr-ctl inject: ", stderr);
	ras_text_write(stderr, msg, strlen(msg));
	fputs("\n(see ras-fdr-ctl inject --help)\n", stderr);
	return EXIT_USAGE;
}

/* ---- small helpers ------------------------------------------------------ */

int inj_parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int inj_parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;

	if (inj_parse_u64(s, &v) || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

int inj_write_u64_file(const char *dir, const char *name, uint64_t v)
{
	char path[256], val[32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(val, sizeof(val), "0x%" PRIx64 "\n", v);
	return ras_write_file(path, val);
}

bool inj_path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

int inj_run_modprobe(const char *module)
{
	static const char *const paths[] = { "/sbin/modprobe", "/usr/sbin/modprobe" };
	const char *prog = NULL;
	int status;
	pid_t pid;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			prog = paths[i];
	if (!prog)
		return -ENOENT;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char *const args[] = { (char *)prog, "-q", (char *)module, NULL };

		execve(prog, args, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ENOENT;
}

int inj_need_root(void)
{
	if (geteuid() == 0)
		return 0;
	fputs("ras-fdr-ctl inject: must be run as root\n", stderr);
	return -EPERM;
}

int inj_need_debugfs(void)
{
	struct statfs sfs;

	if (statfs(DEBUGFS, &sfs) == 0 && (unsigned long)sfs.f_type == DEBUGFS_MAGIC_NR)
		return 0;
	fputs("ras-fdr-ctl inject: debugfs is not mounted at " DEBUGFS
	      " (mount -t debugfs debugfs " DEBUGFS ")\n", stderr);
	return -ENOENT;
}

/* Makes path appear by loading module if needed; explains what is missing. */
int inj_need_injector(const char *path, const char *module, const char *config)
{
	if (inj_path_exists(path))
		return 0;
	inj_run_modprobe(module);
	if (inj_path_exists(path))
		return 0;
	fprintf(stderr, "ras-fdr-ctl inject: %s is missing: the kernel has no %s "
		"injector (module %s, %s)\n", path, module, module, config);
	return -ENOENT;
}

int inj_check_common(bool yes)
{
	if (!yes) {
		fputs("ras-fdr-ctl inject: refusing without --yes: this injects an error "
		      "into the running kernel, which handles it like a real one\n", stderr);
		return -ECANCELED;
	}
	return inj_need_root();
}

