/* SPDX-License-Identifier: MIT */
/*
 * Reading what the previous boots left: the files of pstore_dir (removable:
 * unlinking one erases its record from the firmware), systemd-pstore's copies
 * in pstore_archive_dir (never removed here: they are the administrator's),
 * and /dev/mcelog. Every file is opened without following a link, only
 * regular files are read, at most LW_FILE_MAX bytes of each.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>
#include <zlib.h>
#include "lib/fileio.h"
#include "lastwords/pstore_conf.h"
#include "lastwords_internal.h"
#include "log.h"

/* /dev/mcelog's ioctls (arch/x86/include/uapi/asm/mce.h). */
#define MCE_GET_RECORD_LEN _IOR('M', 1, int)
#define PSTOREFS_MAGIC 0x6165676C

static void conf_file(const char *path, struct lw_pstore_conf *c)
{
	char *buf;
	size_t len;

	if (ras_read_file(path, &buf, &len) == 0) {
		lw_pstore_conf_parse(buf, len, c);
		free(buf);
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The drop-ins of dir (*.conf), read in name order over c. */
static void conf_dropins(const char *dir, struct lw_pstore_conf *c)
{
	DIR *d = opendir(dir);
	char *names[64], path[PATH_MAX + 300];
	unsigned n = 0;
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)) && n < 64) {
		size_t len = strlen(e->d_name);

		if (len > 5 && !strcmp(e->d_name + len - 5, ".conf") && (names[n] = strdup(e->d_name)))
			n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	for (unsigned i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		conf_file(path, c);
		free(names[i]);
	}
}

/*
 * pstore_remove = auto: what systemd-pstore does (pstore.conf(5)): the file,
 * then its drop-ins; for the system's file also those of /run and /usr/lib.
 */
static void decide_remove(struct rasd_lastwords *lw)
{
	const char *mode = lw->cfg->pstore_remove, *conf = lw->cfg->systemd_pstore_conf;
	struct lw_pstore_conf c;
	char dir[PATH_MAX + 8];

	if (strcmp(mode, "auto")) {
		lw->remove = !strcmp(mode, "yes");
		snprintf(lw->remove_why, sizeof(lw->remove_why), "pstore_remove = %s", mode);
		return;
	}
	lw_pstore_conf_init(&c);
	if (conf[0]) {
		conf_file(conf, &c);
		snprintf(dir, sizeof(dir), "%s.d", conf);
		conf_dropins(dir, &c);
		if (!strcmp(conf, "/etc/systemd/pstore.conf")) {
			conf_dropins("/run/systemd/pstore.conf.d", &c);
			conf_dropins("/usr/lib/systemd/pstore.conf.d", &c);
		}
	}
	lw->remove = lw_pstore_conf_removes(&c);
	snprintf(lw->remove_why, sizeof(lw->remove_why), "pstore_remove = auto: systemd-pstore %s "
		 "(Storage=%s, Unlink=%s in %s)", lw->remove ? "removes them" : "leaves them",
		 c.storage == LW_PSTORE_NONE ? "none" : c.storage == LW_PSTORE_JOURNAL ? "journal" : "external",
		 c.unlink == 0 ? "no" : "yes", conf[0] ? conf : "its defaults");
}

/* ".enc.z": pstore could not inflate it; zlib may (raw deflate, as pstore writes, or zlib/gzip). */
static void inflate_file(struct lw_file *f)
{
	static const int window[] = { -15, 47 };
	uint8_t *out = malloc(LW_FILE_MAX);

	f->undecompressed = true;
	for (unsigned i = 0; out && i < 2 && f->undecompressed; i++) {
		z_stream z = { .next_in = f->data, .avail_in = (uInt)f->len, .next_out = out,
			       .avail_out = (uInt)LW_FILE_MAX };

		if (inflateInit2(&z, window[i]) != Z_OK)
			continue;
		if (inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out) {
			uint8_t *fit = realloc(out, z.total_out);

			free(f->data);
			f->data = fit ? fit : out;
			out = NULL;
			f->len = z.total_out;
			f->undecompressed = false;
		}
		inflateEnd(&z);
	}
	free(out);
}

static struct lw_file *new_file(struct rasd_lastwords *lw)
{
	if (lw->n_files == lw->cap_files) {
		unsigned cap = lw->cap_files ? lw->cap_files * 2 : 16;
		struct lw_file *f = realloc(lw->files, cap * sizeof(*f));

		if (!f)
			return NULL;
		lw->files = f;
		lw->cap_files = cap;
	}
	memset(&lw->files[lw->n_files], 0, sizeof(lw->files[0]));
	return &lw->files[lw->n_files++];
}

/* Reads dirfd/name into f; 0, or -errno (not a regular file, unreadable). */
static int read_record(int dirfd, const char *name, struct lw_file *f)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	ssize_t n = 0;
	int r = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	f->mtime_s = (int64_t)st.st_mtim.tv_sec;
	f->data = malloc(LW_FILE_MAX + 1);
	while (f->data && f->len < LW_FILE_MAX &&
	       (n = read(fd, f->data + f->len, LW_FILE_MAX - f->len)) > 0)
		f->len += (size_t)n;
	if (!f->data || n < 0)
		r = f->data ? -errno : -ENOMEM;
	else if (f->len == LW_FILE_MAX && read(fd, &(char){ 0 }, 1) == 1)
		f->truncated = true;
	close(fd);
	return r;
}

/* One directory's records: dmesg, console and mce files; everything else is left alone. */
static void scan_dir(struct rasd_lastwords *lw, int dirfd, unsigned dir, bool removable,
		     const char *where)
{
	DIR *d = ras_opendir_fd(dirfd);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		struct lw_pstore_name pn;
		struct lw_file *f;

		if (lw_pstore_name_parse(e->d_name, &pn) < 0 || pn.kind == LW_KIND_OTHER)
			continue;
		if (!(f = new_file(lw)))
			break;
		snprintf(f->name, sizeof(f->name), "%s", e->d_name);
		snprintf(f->where, sizeof(f->where), "%s", where);
		f->pn = pn;
		f->dir = dir;
		f->removable = removable;
		if (read_record(dirfd, e->d_name, f) < 0) {
			ras_log(LOG_WARNING, "cannot read %s record %s: left where it is", where, e->d_name);
			free(f->data);
			lw->n_files--;
			lw->unreadable++;
			continue;
		}
		if (pn.compressed)
			inflate_file(f);
	}
	if (d)
		closedir(d);
}

/* systemd-pstore's copies: mce and undecompressed files at the top, one directory per dump. */
static void scan_archive(struct rasd_lastwords *lw, const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *d;
	struct dirent *e;
	unsigned dir = 2;

	if (fd < 0)
		return;
	scan_dir(lw, fd, 1, false, "systemd-pstore");
	d = ras_opendir_fd(fd);
	while (d && (e = readdir(d))) {
		int sub;

		if (e->d_name[0] == '.' || e->d_type != DT_DIR)
			continue;
		sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0) {
			scan_dir(lw, sub, dir++, false, "systemd-pstore");
			close(sub);
		}
	}
	if (d)
		closedir(d);
	close(fd);
}

int lw_add_mce(struct rasd_lastwords *lw, const void *data, size_t len, struct lw_file *file)
{
	struct lw_mce_item *m;

	if (lw->n_mces == lw->cap_mces) {
		unsigned cap = lw->cap_mces ? lw->cap_mces * 2 : 8;
		struct lw_mce_item *p = realloc(lw->mces, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		lw->mces = p;
		lw->cap_mces = cap;
	}
	m = &lw->mces[lw->n_mces++];
	memset(m, 0, sizeof(*m));
	m->len = len < sizeof(m->data) ? len : sizeof(m->data);
	memcpy(m->data, data, m->len);
	m->file = file;
	return 0;
}

/* Whether pstore shows ERST's records itself (then /dev/mcelog, which empties ERST, is not read). */
static bool pstore_shows_erst(const struct rasd_config *cfg)
{
	char path[PATH_MAX + 64], *buf;
	struct statfs sf;
	bool erst;

	snprintf(path, sizeof(path), "%s/module/pstore/parameters/backend", cfg->sysfs_root);
	if (ras_read_file(path, &buf, NULL) < 0)
		return false;
	erst = !strncmp(buf, "erst", 4);
	free(buf);
	return erst && cfg->pstore_dir[0] && statfs(cfg->pstore_dir, &sf) == 0 &&
	       sf.f_type == PSTOREFS_MAGIC;
}

int lw_read_mcelog_fd(struct rasd_lastwords *lw, int fd, size_t reclen)
{
	uint8_t buf[LW_MCE_RECORD_MAX];
	unsigned n = 0;
	ssize_t got;

	if (!reclen || reclen > sizeof(buf))
		return -EINVAL;
	/*
	 * One record per read while ERST has any (dev-mcelog.c __mce_read_apei:
	 * copied out, then cleared); then EINVAL, the buffer being smaller than
	 * the live log's, which is so left to its reader.
	 */
	while ((got = read(fd, buf, reclen)) > 0) {
		if (lw_add_mce(lw, buf, (size_t)got, NULL) < 0) {
			ras_log(LOG_CRIT, "no memory for a machine check read from %s: lost",
				lw->cfg->mcelog_device);
			break;
		}
		n++;
		if ((size_t)got < reclen)
			break;
	}
	return (int)n;
}

static void read_mcelog(struct rasd_lastwords *lw)
{
	const char *dev = lw->cfg->mcelog_device;
	struct stat st;
	int fd, len = 0, n;

	if (!dev[0] || stat(dev, &st) < 0 || !S_ISCHR(st.st_mode))
		return;
	if (!lw->remove) {
		ras_log(LOG_INFO, "%s not read: reading it erases ERST's records, and removal is off (%s)",
			dev, lw->remove_why);
		return;
	}
	if (pstore_shows_erst(lw->cfg)) {
		ras_log(LOG_INFO, "%s not read: pstore shows ERST's records in %s", dev, lw->cfg->pstore_dir);
		return;
	}
	fd = open(dev, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || ioctl(fd, MCE_GET_RECORD_LEN, &len) < 0) {
		ras_log(LOG_WARNING, "cannot read %s: %s", dev, strerror(errno));
		if (fd >= 0)
			close(fd);
		return;
	}
	n = lw_read_mcelog_fd(lw, fd, (size_t)len);
	close(fd);
	if (n > 0)
		ras_log(LOG_NOTICE, "%d machine checks of a previous boot read from ERST through %s "
			"(erased from ERST by the read: held until stored)", n, dev);
}

void lw_remove_stored(struct rasd_lastwords *lw)
{
	unsigned removed = 0;

	if (!lw->remove || lw->pstore_fd < 0)
		return;
	for (unsigned i = 0; i < lw->n_files; i++) {
		struct lw_file *f = &lw->files[i];

		if (!f->stored || !f->removable)
			continue;
		if (unlinkat(lw->pstore_fd, f->name, 0) == 0) {
			f->removable = false;
			removed++;
		} else if (errno != ENOENT) {
			ras_log(LOG_WARNING, "cannot remove pstore record %s: %s", f->name, strerror(errno));
		}
	}
	if (removed)
		ras_log(LOG_INFO, "removed %u stored records from pstore (%s)", removed, lw->remove_why);
}

int lw_scan(struct rasd_lastwords *lw)
{
	const struct rasd_config *cfg = lw->cfg;

	decide_remove(lw);
	lw->pstore_fd = cfg->pstore_dir[0] ?
		open(cfg->pstore_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	if (lw->pstore_fd >= 0)
		scan_dir(lw, lw->pstore_fd, 0, true, "pstore");
	if (cfg->pstore_archive_dir[0])
		scan_archive(lw, cfg->pstore_archive_dir);
	for (unsigned i = 0; i < lw->n_files; i++)
		if (lw->files[i].pn.kind == LW_KIND_MCE &&
		    lw_add_mce(lw, lw->files[i].data, lw->files[i].len, &lw->files[i]) < 0)
			return -ENOMEM;
	read_mcelog(lw);
	return 0;
}
