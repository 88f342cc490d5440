/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sqlite3.h>
#include <stdalign.h>
#include "lib/decode.h"
#include "lib/event_fields.h"
#include "lib/event_table.h"
#include "db/db.h"
#include "tap.h"
#include "test_util.h"

const char *test_srcdir(void)
{
	const char *d = getenv("top_srcdir");

	return d && *d ? d : ".";
}

const char *test_builddir(void)
{
	const char *d = getenv("top_builddir");

	return d && *d ? d : ".";
}

int test_tmpdir(char *out, size_t len)
{
	char tmpl[] = "/tmp/ras-fdr-test-XXXXXX";

	if (!mkdtemp(tmpl))
		return -errno;
	snprintf(out, len, "%s", tmpl);
	return 0;
}

void test_rmtree(const char *dir)
{
	char *argv[] = { "rm", "-rf", (char *)dir, NULL };

	if (strncmp(dir, "/tmp/ras-fdr-", 13))
		return;
	test_run(argv, NULL);
}

void test_remove_db(const char *path)
{
	static const char *const suffixes[] = { "", "-wal", "-shm" };
	char file[1100];

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		snprintf(file, sizeof(file), "%s%s", path, suffixes[i]);
		unlink(file);
	}
}

int test_run(char *const argv[], const char *log_path)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (log_path) {
			int fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
			}
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int64_t test_boot_offset(void)
{
	struct timespec rt, bt;

	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_BOOTTIME, &bt);
	return ((int64_t)rt.tv_sec - bt.tv_sec) * 1000000000 + (rt.tv_nsec - bt.tv_nsec);
}

int64_t test_sql_int(const char *path, const char *sql)
{
	return test_sql_int_with(path, NULL, sql);
}

int64_t test_sql_int_with(const char *path, const char *other, const char *sql)
{
	char attach[4200];
	sqlite3 *h;
	sqlite3_stmt *st;
	int64_t v = -1;

	snprintf(attach, sizeof(attach), "ATTACH '%s' AS p", other ? other : "");
	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    (!other || sqlite3_exec(h, attach, NULL, NULL, NULL) == SQLITE_OK) &&
	    sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			v = sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	} else {
		fprintf(stderr, "# %s: %s\n", path, h ? sqlite3_errmsg(h) : "no memory");
	}
	sqlite3_close(h);
	return v;
}

void test_set_field(const struct ras_event_type *t, struct ras_value *v, const char *name, int64_t i,
		    const char *text)
{
	int k = ras_event_field_index(t, name);

	if (k >= 0)
		v[k] = text ? (struct ras_value){ .present = true, .p = text,
						  .len = (uint32_t)strlen(text) }
			    : (struct ras_value){ .present = true, .i = i };
}

const char *test_line_with(const char *text, const char *needle)
{
	static char line[4096];
	const char *p = strstr(text, needle), *b, *e;

	line[0] = 0;
	if (!p)
		return line;
	for (b = p; b > text && b[-1] != '\n'; b--)
		;
	e = strchr(p, '\n');
	snprintf(line, sizeof(line), "%.*s", (int)(e ? e - b : (long)strlen(b)), b);
	return line;
}

struct ras_db *test_db_open(const char *dir, const char *name)
{
	char path[512], err[512];
	struct ras_db *db = NULL;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (ras_db_open_writer(&db, path, "test-boot", err, sizeof(err)) < 0)
		tap_diag("open %s: %s", path, err);
	return db;
}

int test_mc_insert(struct ras_db *db, struct ras_decode_ctx *ctx, const struct test_mc_rec *r,
		   struct ras_db_event ev)
{
	const struct ras_event_type *type = ras_event_type_find("mc_event");
	alignas(16) uint8_t decoded[RAS_DECODED_MAX];
	struct ras_value v[RAS_MAX_FIELDS] = { 0 };
	const char *label = r->label ? r->label : "";
	int64_t ints[][2] = {
		{ MC_F_ERROR_TYPE, r->error_type }, { MC_F_ERROR_COUNT, r->error_count },
		{ MC_F_MC_INDEX, r->mc_index }, { MC_F_TOP_LAYER, r->top_layer },
		{ MC_F_MIDDLE_LAYER, 0 }, { MC_F_LOWER_LAYER, -1 }, { MC_F_ADDRESS, r->address },
		{ MC_F_GRAIN_BITS, 6 }, { MC_F_SYNDROME, r->syndrome },
	};

	for (size_t k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
		v[ints[k][0]] = (struct ras_value){ .present = true, .i = ints[k][1] };
	v[MC_F_MSG] = (struct ras_value){ .present = true, .p = "memory read error", .len = 17 };
	v[MC_F_LABEL] = (struct ras_value){ .present = true, .p = label, .len = (uint32_t)strlen(label) };
	v[MC_F_DRIVER_DETAIL] = (struct ras_value){ .present = true, .p = "", .len = 0 };
	ras_decode_values(type, v, ctx, decoded);
	ev.type_idx = (unsigned)(type - ras_event_types);
	ev.values = v;
	ev.decoded = decoded;
	return ras_db_insert_event(db, &ev);
}
