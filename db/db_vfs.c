/* SPDX-License-Identifier: MIT */
/*
 * The writer's log written in large pieces. SQLite writes each frame of the
 * log (the -wal file) with two calls, its 24-byte header and its page: with
 * 1 KiB pages a storm's batch of 10 MB is some 20,000 pwrite calls, a tenth
 * of the writer thread's time. This VFS, the system's own but for the log of
 * the writer's connection, gathers writes that follow one another in a
 * buffer and writes them with one call: at the log's sync, before any read
 * of the log, and when a write does not follow the buffered ones.
 *
 * Nothing is durable later than before: a commit syncs the log (the writer
 * runs with synchronous=FULL, set_up_writer in db.c, which syncs it at every
 * commit), and the sync writes the buffer first. Other
 * connections (the checkpointer, readers) read only frames a commit made
 * visible, after that sync. A write error met when the buffer is written is
 * returned by the call that wrote it (the sync, a read), as SQLite's own
 * write would have returned it: a full disk is still SQLITE_FULL.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "db_internal.h"

/*
 * The system VFS writes at most 128 KiB - 1 in one call (it masks the length
 * with 0x1ffff: SQLite's own writes are a page at most), so a piece is 64 KiB:
 * 60 frames of 1 KiB pages, one call instead of 120.
 */
#define LOG_BUFFER_BYTES (64 * 1024)

struct log_file {
	sqlite3_file base;             /* our methods */
	sqlite3_file *real;            /* the system VFS's file, in the bytes after this struct */
	uint8_t *buf;
	size_t len;
	sqlite3_int64 start;           /* the file offset of buf[0] */
};

static sqlite3_vfs log_vfs;
static const sqlite3_vfs *system_vfs;
static sqlite3_io_methods log_methods;

/* Writes the buffered bytes: SQLITE_OK, or what the system VFS's write returned. */
static int flush(struct log_file *f)
{
	int r = SQLITE_OK;

	if (f->len)
		r = f->real->pMethods->xWrite(f->real, f->buf, (int)f->len, f->start);
	f->len = 0;
	return r;
}

static int log_close(sqlite3_file *file)
{
	struct log_file *f = (struct log_file *)file;
	int r = flush(f), c = f->real->pMethods->xClose(f->real);

	free(f->buf);
	f->buf = NULL;
	return r != SQLITE_OK ? r : c;
}

static int log_read(sqlite3_file *file, void *out, int n, sqlite3_int64 off)
{
	struct log_file *f = (struct log_file *)file;
	int r = flush(f);

	return r != SQLITE_OK ? r : f->real->pMethods->xRead(f->real, out, n, off);
}

static int log_write(sqlite3_file *file, const void *data, int n, sqlite3_int64 off)
{
	struct log_file *f = (struct log_file *)file;
	int r;

	/* Within what is buffered (a frame written again in the transaction): changed there. */
	if (f->len && off >= f->start && off + n <= f->start + (sqlite3_int64)f->len) {
		memcpy(f->buf + (off - f->start), data, (size_t)n);
		return SQLITE_OK;
	}
	if (f->len && (off != f->start + (sqlite3_int64)f->len || f->len + (size_t)n > LOG_BUFFER_BYTES) &&
	    (r = flush(f)) != SQLITE_OK)
		return r;
	if ((size_t)n > LOG_BUFFER_BYTES || !f->buf)
		return f->real->pMethods->xWrite(f->real, data, n, off);
	if (!f->len)
		f->start = off;
	memcpy(f->buf + f->len, data, (size_t)n);
	f->len += (size_t)n;
	return SQLITE_OK;
}

static int log_truncate(sqlite3_file *file, sqlite3_int64 size)
{
	struct log_file *f = (struct log_file *)file;
	int r = flush(f);

	return r != SQLITE_OK ? r : f->real->pMethods->xTruncate(f->real, size);
}

static int log_sync(sqlite3_file *file, int flags)
{
	struct log_file *f = (struct log_file *)file;
	int r = flush(f);

	return r != SQLITE_OK ? r : f->real->pMethods->xSync(f->real, flags);
}

static int log_file_size(sqlite3_file *file, sqlite3_int64 *size)
{
	struct log_file *f = (struct log_file *)file;
	int r = flush(f);

	return r != SQLITE_OK ? r : f->real->pMethods->xFileSize(f->real, size);
}

/* The rest as the system's: locks, file controls, sizes (and the shared memory, which a log has not). */
static int log_lock(sqlite3_file *file, int lock)
{
	return ((struct log_file *)file)->real->pMethods->xLock(((struct log_file *)file)->real, lock);
}

static int log_unlock(sqlite3_file *file, int lock)
{
	return ((struct log_file *)file)->real->pMethods->xUnlock(((struct log_file *)file)->real, lock);
}

static int log_check_reserved(sqlite3_file *file, int *out)
{
	struct log_file *f = (struct log_file *)file;

	return f->real->pMethods->xCheckReservedLock(f->real, out);
}

static int log_file_control(sqlite3_file *file, int op, void *arg)
{
	struct log_file *f = (struct log_file *)file;
	int r = flush(f);

	return r != SQLITE_OK ? r : f->real->pMethods->xFileControl(f->real, op, arg);
}

static int log_sector_size(sqlite3_file *file)
{
	return ((struct log_file *)file)->real->pMethods->xSectorSize(((struct log_file *)file)->real);
}

static int log_device(sqlite3_file *file)
{
	struct log_file *f = (struct log_file *)file;

	return f->real->pMethods->xDeviceCharacteristics(f->real);
}

static int log_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *file, int flags, int *out_flags)
{
	struct log_file *f = (struct log_file *)file;
	int r;

	(void)vfs;
	/* Every other file is the system VFS's own, in place: only its methods answer. */
	if (!(flags & SQLITE_OPEN_WAL))
		return system_vfs->xOpen((sqlite3_vfs *)system_vfs, name, file, flags, out_flags);
	memset(f, 0, sizeof(*f));
	f->real = (sqlite3_file *)(f + 1);
	r = system_vfs->xOpen((sqlite3_vfs *)system_vfs, name, f->real, flags, out_flags);
	if (r != SQLITE_OK)
		return r;
	/* No buffer: every write goes straight through, as the system's would. */
	f->buf = malloc(LOG_BUFFER_BYTES);
	f->base.pMethods = &log_methods;
	return SQLITE_OK;
}

static void make_vfs(void)
{
	ras_db_sqlite_setup();
	system_vfs = sqlite3_vfs_find(NULL);
	if (!system_vfs)
		return;
	log_vfs = *system_vfs;
	log_vfs.zName = RAS_DB_LOG_VFS;
	log_vfs.pNext = NULL;
	log_vfs.szOsFile = (int)sizeof(struct log_file) + system_vfs->szOsFile;
	log_vfs.xOpen = log_open;
	log_methods = (sqlite3_io_methods){
		.iVersion = 1, .xClose = log_close, .xRead = log_read, .xWrite = log_write,
		.xTruncate = log_truncate, .xSync = log_sync, .xFileSize = log_file_size,
		.xLock = log_lock, .xUnlock = log_unlock, .xCheckReservedLock = log_check_reserved,
		.xFileControl = log_file_control, .xSectorSize = log_sector_size,
		.xDeviceCharacteristics = log_device,
	};
	if (sqlite3_vfs_register(&log_vfs, 0) != SQLITE_OK)
		system_vfs = NULL;
}

const char *ras_db_log_vfs(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;

	pthread_once(&once, make_vfs);
	return system_vfs ? RAS_DB_LOG_VFS : NULL;
}
