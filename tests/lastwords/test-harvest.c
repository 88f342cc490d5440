/* SPDX-License-Identifier: MIT */
/*
 * rasd's harvest of the last words, replayed without root: rasd --once on a
 * fake tracing tree, with a pstore directory holding every layout (ERST's real
 * 6.1 records, EFI's and ramoops' names, a record pstore left compressed, a
 * console record) and malformed and truncated files, and a systemd-pstore
 * archive holding copies. Then: stored as far as valid, counted, never twice,
 * attributed by time, removed only when asked and only once committed. Then
 * /dev/mcelog's record in every struct mce layout, truncated and invalid ones
 * among them. Then the fault test: the database fails while the firmware's
 * records are stored (tests/fault-shim.so), and nothing leaves pstore until
 * they are committed.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>
#include "db/db.h"
#include "lib/config.h"
#include "rasd/lastwords_internal.h"
#include "tests/fake_tree.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define DATA "tests/data/lastwords/linux-6.1-erst"
#define PART1 "dmesg-erst-7713266041001869314"
#define PART2 "dmesg-erst-7713266041001869315"
#define MCE "mce-erst-7713266041001869313"

static char tmp[256], tree[512], pstore[600], archive[600], dbpath[600], conf[600], logpath[600];
static int64_t T;    /* the crash's time: an hour ago */

static uint8_t *slurp(const char *name, size_t *len)
{
	char path[1024];
	FILE *f;
	uint8_t *buf = malloc(1 << 20);

	snprintf(path, sizeof(path), "%s/" DATA "/%s", test_srcdir(), name);
	f = fopen(path, "rbe");
	*len = f && buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

static void put(const char *dir, const char *name, const void *data, size_t len, int64_t mtime)
{
	char path[1200];
	struct timespec ts[2] = { { mtime, 0 }, { mtime, 0 } };
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wbe");
	if (f) {
		fwrite(data, 1, len, f);
		fclose(f);
	}
	utimensat(AT_FDCWD, path, ts, 0);
}

/* The real machine check with its time moved to t (offset 48) and its address to addr. */
static void mce_at(uint8_t *rec, int64_t t, uint64_t addr)
{
	for (unsigned k = 0; k < 8; k++) {
		rec[48 + k] = (uint8_t)((uint64_t)t >> (8 * k));
		rec[16 + k] = (uint8_t)(addr >> (8 * k));
	}
}

/* Raw deflate, as pstore compresses (windowBits -15). */
static size_t deflate_raw(const char *in, uint8_t *out, size_t cap)
{
	z_stream z = { .next_in = (Bytef *)in, .avail_in = (uInt)strlen(in), .next_out = out,
		       .avail_out = (uInt)cap };

	deflateInit2(&z, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
	deflate(&z, Z_FINISH);
	deflateEnd(&z);
	return z.total_out;
}

static int64_t q(const char *sql)
{
	return test_sql_int(dbpath, sql);
}

static int run_rasd(const char *remove)
{
	char rasd[1024];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", tree, "--once", NULL };
	FILE *f = fopen(conf, "we");

	fprintf(f, "database = %s\nlock_dir = %s/lock\npstore_dir = %s\npstore_archive_dir = %s\n"
		"pstore_remove = %s\nmcelog_device =\n", dbpath, tmp, pstore, archive, remove);
	fclose(f);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	return test_run(argv, logpath);
}

static struct fake_tree ft;

static void make_tree(void)
{
	char formats[1024];

	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(&ft, formats, 1, "rasd", "boot") == 0) {
		fake_tree_finish(&ft);
		snprintf(tree, sizeof(tree), "%s", ft.root);
	}
}

static const char oops_log[] = "Oops#1 Part1\n<1>[    5.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
	"<4>[    5.000100] Oops: 0000 [#1] PREEMPT SMP NOPTI\n";
static const char hung_log[] = "Panic#1 Part1\n<3>[  245.100000] INFO: task kworker/0:1:42 blocked for more than 120 seconds.\n"
	"<0>[  245.200000] Kernel panic - not syncing: hung_task: blocked tasks\n";
static const char soft_log[] = "Panic#1 Part1\n<0>[   60.000000] watchdog: BUG: soft lockup - CPU#1 stuck for 22s! [x:1]\n"
	"<0>[   60.100000] Kernel panic - not syncing: softlockup: hung tasks\n";
static const char console_log[] = "[    1.000000] Run /init as init process\n"
	"[    2.000000] Kernel panic - not syncing: Attempted to kill init! exitcode=0x00000100\n";

/*
 * Every layout in one pstore directory, and systemd-pstore's copies of the
 * ERST ones (a dump's parts in a directory of their own, the machine check at
 * the top, as src/pstore/pstore.c moves them).
 */
static void fill_pstore(void)
{
	size_t l1, l2, lm;
	uint8_t *p1 = slurp(PART1, &l1), *p2 = slurp(PART2, &l2), *mce = slurp(MCE, &lm), z[4096];
	char path[1200];
	static const uint8_t garbage[] = { 0x00, 0xff, 0x13, 0x37, '\n', 0x80, 'P', 'a', 'n', 'i', 'c' };

	mce_at(mce, T, 0x12345000);
	put(pstore, PART1, p1, l1, T);
	put(pstore, PART2, p2, l2, T);
	put(pstore, MCE, mce, lm, time(NULL));               /* ERST gives the mce file no time */
	put(pstore, "dmesg-efi_pstore-1764345097101001", oops_log, strlen(oops_log), T + 1000);
	put(pstore, "dmesg-ramoops-0", hung_log, strlen(hung_log), T + 2000);
	put(pstore, "console-ramoops-0", console_log, strlen(console_log), T + 2000);
	put(pstore, "dmesg-ramoops-1.enc.z", z, deflate_raw(soft_log, z, sizeof(z)), T + 3000);
	put(pstore, "dmesg-ramoops-5.enc.z", garbage, sizeof(garbage), T + 3500);  /* will not inflate */
	put(pstore, "dmesg-erst-997", garbage, sizeof(garbage), T + 4000);        /* no header: its own dump */
	put(pstore, "mce-erst-999", mce, 60, T);                                  /* too short to be one */
	mce_at(mce, T + 5000, 0x77777000);
	put(pstore, "mce-erst-998", mce, 100, T);                                 /* between two layouts */
	put(pstore, "ftrace-ramoops-0", "x", 1, T);                               /* not read, left alone */
	snprintf(path, sizeof(path), "%s/dmesg-erst-996", pstore);
	symlink(PART1, path);                                                     /* never followed */
	snprintf(path, sizeof(path), "%s/dmesg-erst-995", pstore);
	mkdir(path, 0700);                                                        /* not a file */
	/* systemd-pstore's copies: times of the copy, not of the record. */
	mce_at(mce, T, 0x12345000);
	put(archive, MCE, mce, lm, time(NULL));
	snprintf(path, sizeof(path), "%s/7713266041001", archive);
	mkdir(path, 0755);
	put(path, PART1, p1, l1, time(NULL));
	put(path, PART2, p2, l2, time(NULL));
	put(path, "dmesg.txt", "whatever", 8, time(NULL));
	free(p1);
	free(p2);
	free(mce);
}

static int count_dir(const char *dir)
{
	char cmd[1300];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd), "ls -A '%s' | wc -l", dir);
	if ((p = popen(cmd, "re"))) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

static void check_layouts(void)
{
	tap_is_int(q("SELECT count(*) FROM crashes"), 9, "9 crashes: 7 dumps, a short file kept, a machine check alone");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE backend = 'erst' AND kind = 'dmesg' AND cause = 'mce'"
		     " AND parts = 2 AND explained = 1 AND boot = (SELECT id FROM boots WHERE boot_id = 'crashed')"
		     " AND crash_ns = " "(SELECT first_seen_ns FROM boots WHERE boot_id = 'crashed') + 40000000000"
		     " AND uptime_ns = 66230471000"), 1,
		   "ERST's dump: a fatal machine check of the boot rasd saw start before it");
	tap_is_int(q("SELECT count(*) FROM crash_links l JOIN mce_record m ON m.id = l.row_id WHERE l.role = 'erst'"
		     " AND m.source = 'erst' AND m.addr = 0x12345000 AND l.crash = (SELECT id FROM crashes"
		     " WHERE backend = 'erst' AND kind = 'dmesg' AND cause = 'mce')"), 1,
		   "linked to its machine check from ERST");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE backend = 'efi_pstore' AND cause = 'oops' AND dump_reason = 'Oops'"
		     " AND reason LIKE '%BUG: kernel NULL pointer dereference%' AND explained = 0"
		     " AND boot = (SELECT id FROM boots WHERE boot_id LIKE 'before:%')"), 1,
		   "EFI's oops: a boot rasd never saw (started after the last one it saw)");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE backend = 'ramoops' AND kind = 'dmesg' AND cause = 'hung_task'"), 1,
		   "ramoops' dump: a hung task");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE kind = 'console' AND cause = 'panic'"
		     " AND reason LIKE '%Attempted to kill init%'"), 1, "ramoops' console record: a panic");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE files = 'dmesg-ramoops-1.enc.z' AND cause = 'soft_lockup'"
		     " AND problems = 0"), 1, "a record pstore left compressed is inflated: a soft lockup");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE files = 'dmesg-ramoops-5.enc.z' AND cause = 'unknown'"
		     " AND problems = 1 AND raw_size > 11"), 1, "one that will not inflate: kept as it is, counted");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE files = 'dmesg-erst-997' AND cause = 'unknown'"), 1,
		   "binary bytes without a header: a record of unknown cause");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE files = 'mce-erst-999' AND kind = 'mce' AND problems = 1"
		     " AND raw_size = 60"), 1, "a 60-byte mce file: no machine check, its bytes kept and counted");
	tap_is_int(q("SELECT value FROM counters WHERE name = 'crash_records_malformed'"), 1, "  counted once");
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE source = 'erst' AND addr = 0x77777000 AND microcode IS NULL"
		     " AND synd IS NOT NULL"), 1, "a 100-byte mce file: stored as far as it goes");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE kind = 'mce' AND cause = 'mce' AND files = 'mce-erst-998'"), 1,
		   "  its own crash: no log near it");
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE source = 'erst'"), 2, "2 machine checks from ERST");
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE source = 'erst' AND addr = 0x12345000 AND bank = 7"
		     " AND severity = 'fatal' AND wall_ns = walltime * 1000000000"), 1,
		   "ERST's fatal machine check decoded, at its own time");
}

static void run_layouts(void)
{
	char db_boot[700];
	int files;

	T = (int64_t)time(NULL) - 3600;
	tap_is_int(run_rasd("no"), 0, "rasd --once on an empty pstore: a new database");
	tap_is_int(q("SELECT count(*) FROM crashes"), 0, "  no crash");
	fill_pstore();
	files = count_dir(pstore);
	/* A boot rasd saw start 40 s before the crash (its machine check is 66 s into it). */
	snprintf(db_boot, sizeof(db_boot), "INSERT INTO boots (boot_id, first_seen_ns) VALUES ('crashed', %lld)",
		 (long long)(T - 40) * 1000000000);
	{
		sqlite3 *h;

		sqlite3_open(dbpath, &h);
		sqlite3_exec(h, db_boot, NULL, NULL, NULL);
		sqlite3_close(h);
	}
	tap_is_int(run_rasd("no"), 0, "rasd --once harvests pstore and systemd-pstore's copies");
	check_layouts();
	tap_is_int(count_dir(pstore), files, "pstore_remove = no: pstore left as it was");
	tap_is_int(run_rasd("no"), 0, "a second start");
	tap_is_int(q("SELECT count(*) FROM crashes") * 10 + q("SELECT count(*) FROM mce_record WHERE source = 'erst'"),
		   92, "stores nothing twice");
	tap_is_int(run_rasd("yes"), 0, "a start with pstore_remove = yes");
	tap_is_int(q("SELECT count(*) FROM crashes"), 9, "  stores nothing new");
	tap_is_int(count_dir(pstore), 3, "  removes what is stored: left the link, the directory, the ftrace record");
	tap_is_int(count_dir(archive), 2, "  leaves systemd-pstore's copies alone");
}

/*
 * /dev/mcelog returns the running kernel's struct mce, one a read, while ERST
 * has any: each layout's records read from a file of them, stored. A short
 * last read (a record cut) and a record without MCi_STATUS.VAL are kept as
 * crash rows of their bytes, counted.
 */
static void run_mcelog_layouts(void)
{
	static const size_t sizes[] = { 88, 112, 120, 128 };
	struct rasd_config cfg;
	struct ras_db *db;
	char err[256], path[700];
	size_t lm;
	uint8_t *mce = slurp(MCE, &lm);
	int stored = 0;

	rasd_config_defaults(&cfg);
	snprintf(path, sizeof(path), "%s/mcelog.db", tmp);
	if (!tap_ok(ras_db_open_writer(&db, path, "mcelog-test-boot", err, sizeof(err)) == 0, "a database"))
		return;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct rasd_lastwords *lw = calloc(1, sizeof(*lw));
		char file[700];
		int fd, n;

		lw->cfg = &cfg;
		lw->pstore_fd = -1;
		snprintf(file, sizeof(file), "%s/mcelog-%zu", tmp, sizes[i]);
		fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		mce_at(mce, T, 0x100000 * (i + 1));
		n = (int)write(fd, mce, sizes[i]);
		mce_at(mce, T + 1, 0x100000 * (i + 1) + 0x1000);
		n += (int)write(fd, mce, sizes[i]);
		mce[7] &= 0x7f;                                   /* not valid */
		n += (int)write(fd, mce, sizes[i]);
		mce[7] |= 0x80;
		n += (int)write(fd, mce, sizes[i] / 2);           /* cut */
		lseek(fd, 0, SEEK_SET);
		tap_is_int(lw_read_mcelog_fd(lw, fd, sizes[i]), 4, "%zu-byte layout: 4 reads (%d bytes)", sizes[i], n);
		close(fd);
		tap_is_int(rasd_lastwords_store(lw, db, NULL, NULL), 0, "  stored and committed");
		stored += 2;
		tap_ok(lw->n_mces == 4 && lw->mces[0].stored && lw->mces[2].stored && lw->mces[3].stored,
		       "  every read held until stored, the malformed ones too");
		rasd_lastwords_free(lw);
	}
	/* One the boot's own buffer recorded already (the persistent one): not stored again. */
	{
		struct rasd_lastwords *lw = calloc(1, sizeof(*lw));
		char sql[512];
		sqlite3 *h;

		lw->cfg = &cfg;
		lw->pstore_fd = -1;
		mce_at(mce, T + 100, 0xabc000);
		lw_add_mce(lw, mce, 128, NULL);
		sqlite3_open(path, &h);
		snprintf(sql, sizeof(sql), "INSERT INTO boots (boot_id, first_seen_ns) SELECT 'before:' || boot_id,"
			 " first_seen_ns - 1 FROM boots WHERE boot_id = 'mcelog-test-boot' AND NOT EXISTS (SELECT 1"
			 " FROM boots WHERE boot_id = 'before:mcelog-test-boot'); INSERT INTO mce_record (wall_ns,"
			 " source, synthetic, boot, status, bank, cpu, tsc, walltime, addr) SELECT %lld, 'previous-boot',"
			 " 0, id, 0xbe00000000000093, 7, 0, 0x46e57857f7, %lld, 0xabc000 FROM boots"
			 " WHERE boot_id = 'before:mcelog-test-boot'", (long long)(T + 100) * 1000000000, (long long)(T + 100));
		tap_is_int(sqlite3_exec(h, sql, NULL, NULL, NULL), SQLITE_OK, "a machine check the previous-boot buffer stored");
		sqlite3_close(h);
		tap_is_int(rasd_lastwords_store(lw, db, NULL, NULL), 0, "  read back from ERST");
		tap_ok(lw->mces[0].stored && lw->mces[0].row_id > 0, "  found stored (row %lld)", (long long)lw->mces[0].row_id);
		rasd_lastwords_free(lw);
	}
	ras_db_close(db);
	snprintf(dbpath, sizeof(dbpath), "%s", path);
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE addr = 0xabc000"), 1, "  and stored once, as it was");
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE source = 'erst' AND bank = 7 AND severity = 'fatal'"),
		   stored, "every valid record of every layout stored, decoded");
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE source = 'erst' AND microcode IS NULL"), 4,
		   "88 and 112 bytes have no microcode field");
	tap_is_int(q("SELECT count(*) FROM mce_record WHERE source = 'erst' AND microcode = 1"), 4, "120 and 128 have");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE kind = 'mce' AND backend = 'mcelog' AND problems = 1"), 8,
		   "the invalid and the cut records: kept as bytes, counted");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE kind = 'mce' AND cause = 'mce'"), 1,
		   "one crash for the machine checks of one boot");
	free(mce);
}

static bool wait_log(const char *text, int times, int seconds)
{
	for (int i = 0; i < seconds * 10; i++) {
		char cmd[900];
		FILE *p;
		int n = 0;

		snprintf(cmd, sizeof(cmd), "grep -c '%s' '%s'", text, logpath);
		if ((p = popen(cmd, "re"))) {
			if (fscanf(p, "%d", &n) != 1)
				n = 0;
			pclose(p);
		}
		if (n >= times)
			return true;
		usleep(100000);
	}
	return false;
}

/*
 * The database fails (EIO on every write of its log) from the moment rasd has
 * read the machine check from pstore: the harvest is rolled back, retried with
 * back-off, and pstore keeps every record; once writes work again, they are
 * stored, then removed.
 */
static void run_fault(void)
{
	char rasd[1024], shim[1024], ctl[700], env_pre[1100], env_ctl[800];
	char *argv[] = { rasd, "--config", conf, "--tracing-dir", tree, "--once", NULL };
	size_t l1, l2, lm;
	uint8_t *p1 = slurp(PART1, &l1), *p2 = slurp(PART2, &l2), *mce = slurp(MCE, &lm);
	int status = -1;
	pid_t pid;
	FILE *f;

	snprintf(shim, sizeof(shim), "%s/tests/fault-shim.so", test_builddir());
	if (access(shim, R_OK) != 0) {
		tap_ok(1, "# SKIP no %s", shim);
		return;
	}
	snprintf(dbpath, sizeof(dbpath), "%s/fault.db", tmp);
	snprintf(pstore, sizeof(pstore), "%s/pstore-fault", tmp);
	snprintf(archive, sizeof(archive), "%s/archive-fault", tmp);
	mkdir(pstore, 0700);
	mkdir(archive, 0700);
	tap_is_int(run_rasd("yes"), 0, "a database made before the fault");
	mce_at(mce, T, 0x12345000);
	put(pstore, PART1, p1, l1, T);
	put(pstore, PART2, p2, l2, T);
	put(pstore, MCE, mce, lm, T);
	snprintf(ctl, sizeof(ctl), "%s/fault.ctl", tmp);
	f = fopen(ctl, "we");
	fprintf(f, "pwrite -wal 5 %s\n", MCE);
	fclose(f);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(env_pre, sizeof(env_pre), "LD_PRELOAD=%s", shim);
	snprintf(env_ctl, sizeof(env_ctl), "RAS_FAULT_CTL=%s", ctl);
	unlink(logpath);
	pid = fork();
	if (pid == 0) {
		int fd = open(logpath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
		/* Under AddressSanitizer the preloaded shim comes before its runtime: allowed. */
		char *envp[] = { env_pre, env_ctl, "ASAN_OPTIONS=verify_asan_link_order=0", NULL };

		dup2(fd, 1);
		dup2(fd, 2);
		execve(rasd, argv, envp);
		_exit(127);
	}
	tap_ok(wait_log("are not stored yet", 2, 60), "the failing database: the harvest retried, not stored");
	tap_is_int(count_dir(pstore), 3, "  nothing left pstore");
	tap_is_int(q("SELECT count(*) FROM crashes") + q("SELECT count(*) FROM mce_record WHERE source = 'erst'"), 0,
		   "  nothing committed");
	f = fopen(ctl, "we");
	fclose(f);
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "writes work again: rasd stores and exits 0");
	tap_is_int(q("SELECT count(*) FROM crashes WHERE cause = 'mce'") * 10 +
		   q("SELECT count(*) FROM mce_record WHERE source = 'erst'"), 11, "  the crash and its machine check, once");
	tap_is_int(count_dir(pstore), 0, "  then pstore is emptied");
	free(p1);
	free(p2);
	free(mce);
}

int main(void)
{
	if (test_tmpdir(tmp, sizeof(tmp)) < 0)
		tap_skip_all("no temporary directory");
	snprintf(pstore, sizeof(pstore), "%s/pstore", tmp);
	snprintf(archive, sizeof(archive), "%s/archive", tmp);
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(conf, sizeof(conf), "%s/rasd.conf", tmp);
	snprintf(logpath, sizeof(logpath), "%s/rasd.log", tmp);
	mkdir(pstore, 0700);
	mkdir(archive, 0700);
	make_tree();
	run_layouts();
	run_mcelog_layouts();
	run_fault();
	fake_tree_destroy(&ft);
	if (!getenv("KEEP_TMP"))
		test_rmtree(tmp);
	else
		tap_diag("kept %s", tmp);
	return tap_done();
}
