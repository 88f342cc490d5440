/* SPDX-License-Identifier: MIT */
/*
 * The path rule of lib/safe_path.c (issue 31): directories others can write
 * (world, a non-root group, sticky or not), directories of another user, a
 * symbolic link anywhere on the path, a sticky directory above a root-owned
 * one, RAS_SAFE_OTHERS_ABOVE; files of another user or writable by others;
 * temporary files never through a planted link; path components from
 * records. Giving files to another user needs root: without it, exit 77.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tap.h"
#include "test_util.h"
#include "lib/safe_path.h"

#define NOBODY 65534

static char root[256];

static const char *at(const char *rel)
{
	static char bufs[4][PATH_MAX];
	static int i;
	char *b = bufs[i++ % 4];

	snprintf(b, PATH_MAX, "%s/%s", root, rel);
	return b;
}

static void dir(const char *rel, mode_t mode, uid_t uid, gid_t gid)
{
	mkdir(at(rel), 0700);
	if (chown(at(rel), uid, gid) != 0 || chmod(at(rel), mode) != 0)
		tap_diag("cannot set up %s: %s", rel, strerror(errno));
}

static void file(const char *rel, const char *text, mode_t mode, uid_t uid)
{
	FILE *f = fopen(at(rel), "we");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
	if (chown(at(rel), uid, 0) != 0 || chmod(at(rel), mode) != 0)
		tap_diag("cannot set up %s: %s", rel, strerror(errno));
}

/* ras_safe_dir_open's answer for rel; why has to say what was refused. */
static void dir_is(const char *rel, unsigned flags, int want, const char *because, const char *what)
{
	char why[PATH_MAX + 300] = "";
	int fd = ras_safe_dir_open(at(rel), flags, why, sizeof(why));

	if (fd >= 0)
		close(fd);
	tap_ok(want == 0 ? fd >= 0 : fd == want, "%s: %s", what, fd >= 0 ? "accepted" : why);
	if (because)
		tap_ok(strstr(why, because) != NULL, "  and says \"%s\"", because);
}

static void directories(void)
{
	dir("ok", 0755, 0, 0);
	dir("ok/sub", 0755, 0, 0);
	dir_is("ok/sub", 0, 0, NULL, "a root directory under root directories");
	dir("world", 0777, 0, 0);
	dir_is("world", 0, -EPERM, "writable by other users (mode 0777)", "a world-writable directory");
	dir("sticky", 01777, 0, 0);
	dir_is("sticky", 0, -EPERM, "writable by other users", "a sticky world-writable one (as /tmp)");
	dir("sticky/mine", 0755, 0, 0);
	dir_is("sticky/mine", 0, 0, NULL, "a root directory under a sticky one (as /tmp/x)");
	dir("world/under", 0755, 0, 0);
	dir_is("world/under", 0, -EPERM, "directory " , "a root directory under a world-writable one");
	dir("group", 0775, 0, NOBODY);
	dir_is("group", 0, -EPERM, "writable by other users (mode 0775)",
	       "a directory writable by a group other than root's");
	dir("rootgroup", 0775, 0, 0);
	dir_is("rootgroup", 0, 0, NULL, "group-writable by root's group");
	dir("theirs", 0755, NOBODY, NOBODY);
	dir_is("theirs", 0, -EPERM, "belongs to another user (uid 65534)", "a directory of another user");
	dir("theirs/root", 0755, 0, 0);
	dir_is("theirs/root", 0, -EPERM, "belongs to another user",
	       "a root directory in another user's");
	dir_is("theirs/root", RAS_SAFE_OTHERS_ABOVE, 0, NULL,
	       "the same, when only the last directory must be root's");
	dir_is("theirs", RAS_SAFE_OTHERS_ABOVE, -EPERM, "belongs to another user",
	       "but never the last one itself");
	symlink(at("ok"), at("ok/link"));
	dir_is("ok/link", 0, -ELOOP, "is a symbolic link", "a directory that is a link");
	dir_is("ok/link", RAS_SAFE_OTHERS_ABOVE, -ELOOP, "symbolic link", "links even so");
	/* Above it, a link of root's in a directory that passes is followed (as /var/run -> /run). */
	dir_is("ok/link/sub", 0, 0, NULL, "a root link above the directory, to a good one");
	symlink("../ok", at("ok/up"));
	dir_is("ok/up/sub", 0, 0, NULL, "a relative one (../ok)");
	symlink(at("world"), at("ok/toworld"));
	dir_is("ok/toworld/under", 0, -EPERM, "writable by other users",
	       "where it points is checked: a link to a world-writable directory");
	symlink(at("ok"), at("sticky/nlink"));
	if (lchown(at("sticky/nlink"), NOBODY, NOBODY) != 0)
		tap_diag("lchown: %s", strerror(errno));
	dir_is("sticky/nlink/sub", 0, -EPERM, "symbolic link of another user (uid 65534)",
	       "a link of another user (in a sticky directory) is not followed");
	symlink("loop", at("ok/loop"));
	dir_is("ok/loop/x", 0, -ELOOP, "too many symbolic links", "a link to itself");
	dir_is("ok/../ok", 0, 0, NULL, "\"..\" goes to the directory above");
	dir_is("missing", 0, -ENOENT, "No such file", "a directory that is not there");
	tap_ok(ras_dir_is_safe(at("ok/./sub"), (char[300]){ 0 }, 300) == 0, "\".\" changes nothing");
}

static void file_is(const char *rel, int want, const char *because, const char *what)
{
	char why[PATH_MAX + 300] = "";
	int dfd = ras_safe_dir_open(at("ok"), 0, why, sizeof(why));
	int fd = ras_safe_file_openat(dfd, at("ok"), rel, O_PATH, why, sizeof(why));

	if (fd >= 0)
		close(fd);
	close(dfd);
	tap_ok(want == 0 ? fd >= 0 : fd == want, "%s: %s", what, fd >= 0 ? "accepted" : why);
	if (because)
		tap_ok(strstr(why, because) != NULL, "  and says \"%s\"", because);
}

static void files(void)
{
	file("ok/run", "#!/bin/sh\n", 0755, 0);
	file_is("run", 0, NULL, "a root file, 0755");
	file("ok/theirs", "#!/bin/sh\n", 0755, NOBODY);
	file_is("theirs", -EPERM, "belongs to another user (uid 65534)", "a file of another user");
	file("ok/gw", "#!/bin/sh\n", 0775, 0);
	chown(at("ok/gw"), 0, NOBODY);
	file_is("gw", -EPERM, "writable by other users (mode 0775)", "a file another group can write");
	file("ok/ww", "#!/bin/sh\n", 0757, 0);
	file_is("ww", -EPERM, "writable by other users", "a world-writable file");
	file("world/evil", "#!/bin/sh\n", 0755, NOBODY);
	symlink(at("world/evil"), at("ok/link-out"));
	file_is("link-out", -ELOOP, "is a symbolic link", "a link out to a file of another user");
	symlink(at("ok/run"), at("ok/link-in"));
	file_is("link-in", -ELOOP, "is a symbolic link", "a link to a good file, all the same");
	mkfifo(at("ok/fifo"), 0600);
	file_is("fifo", -EPERM, "not a regular file", "a FIFO");
	file_is("none", -ENOENT, NULL, "no file");
	file_is("../run", -EINVAL, "not a plain file name", "a name with ../");
}

static void temporaries(void)
{
	char why[300], tmp[NAME_MAX + 1], text[64] = "";
	struct stat st;
	int dfd = ras_safe_dir_open(at("ok"), 0, why, sizeof(why));
	int fd, fd2;
	FILE *f;

	file("victim", "precious\n", 0600, 0);
	fd = ras_safe_tmp_create(dfd, "ras.prom", 0644, tmp, sizeof(tmp));
	tap_ok(fd >= 0 && !strncmp(tmp, ".ras.prom.", 10) && strlen(tmp) == 22,
	       "a temporary file .NAME.<12 random characters>: %s", tmp);
	tap_ok(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0644, "with the mode asked, umask aside");
	fd2 = ras_safe_tmp_create(dfd, "ras.prom", 0644, (char[NAME_MAX + 1]){ 0 }, NAME_MAX + 1);
	tap_ok(fd2 >= 0 && fd2 != fd, "a second one gets another name");
	close(fd);
	close(fd2);
	/* O_EXCL|O_NOFOLLOW: a link where the name falls is never written through. */
	symlink(at("victim"), at("ok/planted"));
	fd = ras_open_safe_at(dfd, "planted", O_WRONLY | O_CREAT | O_EXCL);
	tap_is_int(fd, -EEXIST, "O_EXCL refuses a link planted at the name");
	fd = ras_open_safe_at(dfd, "planted", O_WRONLY | O_CREAT | O_TRUNC);
	tap_is_int(fd, -ELOOP, "and O_NOFOLLOW without O_EXCL");
	f = fopen(at("victim"), "re");
	if (f && fgets(text, sizeof(text), f) && stat(at("victim"), &st) == 0)
		tap_ok(!strcmp(text, "precious\n") && (st.st_mode & 07777) == 0600,
		       "the link's target is untouched (content and mode)");
	else
		tap_ok(0, "the link's target is readable");
	if (f)
		fclose(f);
	tap_is_int(ras_write_file_safe(at("ok"), "state", "a=1\n"), 0, "ras_write_file_safe writes");
	tap_ok(stat(at("ok/state"), &st) == 0 && (st.st_mode & 07777) == RAS_FILE_MODE, "0640");
	tap_ok(ras_write_file_safe(at("world"), "state", "a=1\n") == -EPERM,
	       "and refuses a directory others can write");
	close(dfd);
}

static void components(void)
{
	static const char *const bad[] = { "", ".", "..", "../../etc", "mem0/../x", "a\nb", "a\033[2J" };

	tap_ok(ras_path_component_ok("mem0") && ras_path_component_ok("0000:0d:00.0") &&
	       ras_path_component_ok("..mem"), "mem0, 0000:0d:00.0, ..mem are plain names");
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		tap_ok(!ras_path_component_ok(bad[i]), "refused as a path component: %zu", i);
}

int main(void)
{
	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root (files given to another user)\n");
		return 77;
	}
	if (test_tmpdir(root, sizeof(root)) < 0)
		return 1;
	chmod(root, 0755);
	directories();
	files();
	temporaries();
	components();
	test_rmtree(root);
	tap_plan(tap_count);
	return tap_failed ? 1 : 0;
}
