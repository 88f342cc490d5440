/* SPDX-License-Identifier: MIT */
/*
 * Flight recorder without a kernel: rate limiting, the snapshot container,
 * rendering of hand-built sub-buffers, the snapshot table, the boot command
 * line and the hidden-condition checks, all on fake trees.
 */
#include <stdint.h>
#include <stdlib.h>
#include "tests/tap.h"
#include "fdr_testutil.h"
#include "db/db_snapshot.h"
#include "lib/fdr.h"
#include "lib/fdr_blob.h"
#include "lib/fdr_boot.h"
#include "lib/fdr_render.h"
#include "lib/hidden.h"

#define PAGE 4096
#define EXIT_ID 369

static const char exit_format[] =
	"name: sched_process_exit\nID: 369\nformat:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
	"\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
	"\tfield:pid_t pid;\toffset:24;\tsize:4;\tsigned:1;\n"
	"\tfield:int prio;\toffset:28;\tsize:4;\tsigned:1;\n"
	"\tfield:bool group_dead;\toffset:32;\tsize:1;\tsigned:0;\n\n"
	"print fmt: \"comm=%s pid=%d prio=%d group_dead=%s\", REC->comm, REC->pid, REC->prio,"
	" REC->group_dead ? \"true\" : \"false\"\n";

static char tmp_root[PATH_MAX];

static void cleanup(void)
{
	test_rm_rf(tmp_root);
}

static void test_rate(void)
{
	struct fdr_rate r;
	int64_t t0 = 1700000000LL * 1000000000LL;
	int allowed = 0;

	fdr_rate_init(&r, RAS_SEV_UNCORRECTED, 60);
	for (int i = 0; i < 1000; i++)
		allowed += fdr_rate_allow(&r, RAS_SEV_FATAL, t0 + (int64_t)i * 1000000);
	tap_is_int(allowed, 1, "1,000 errors within the interval give one capture");
	tap_ok(!fdr_rate_allow(&r, RAS_SEV_CORRECTED, t0 + 120LL * 1000000000), "below the threshold: none");
	tap_ok(fdr_rate_allow(&r, RAS_SEV_UNCORRECTED, t0 + 60LL * 1000000000), "after the interval: again");
	tap_ok(fdr_rate_allow(&r, RAS_SEV_FATAL, t0 - 1000), "a clock stepped back does not block");
	fdr_rate_init(&r, RAS_SEV_CORRECTED, 0);
	allowed = 0;
	for (int i = 0; i < 10; i++)
		allowed += fdr_rate_allow(&r, RAS_SEV_CORRECTED, t0);
	tap_is_int(allowed, 10, "interval 0: every qualifying error");
	tap_ok(!fdr_should_capture(NULL, RAS_SEV_FATAL, t0), "no recorder: no capture");
}

static void test_open_refusals(void)
{
	struct rasd_config cfg;
	struct fdr *f = NULL;
	char err[256] = "", fake[PATH_MAX + 8];

	rasd_config_defaults(&cfg);
	snprintf(cfg.fdr_instance, sizeof(cfg.fdr_instance), "%s", cfg.instance);
	tap_is_int(fdr_open(&f, tmp_root, &cfg, err, sizeof(err)), -EINVAL,
		   "the recorder may not take rasd's own instance: %s", err);
	test_put(tmp_root, "fake/events/header_page", test_header_page);
	snprintf(fake, sizeof(fake), "%s/fake", tmp_root);
	tap_is_int(fdr_attach(&f, fake, "rasdt_none", err, sizeof(err)), -ENOENT,
		   "attaching to a missing instance: %s", err);
}

static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }
static void put64(uint8_t *p, uint64_t v) { memcpy(p, &v, 8); }

/* Appends one sched_process_exit record (36 bytes: type_len 9) to a sub-buffer. */
static size_t add_exit(uint8_t *page, size_t used, uint32_t delta, int pid, const char *comm)
{
	uint8_t *ev = page + 16 + used;

	put32(ev, 9u | delta << 5);
	memset(ev + 4, 0, 36);
	ev[4] = EXIT_ID & 0xff;
	ev[5] = EXIT_ID >> 8;
	put32(ev + 8, (uint32_t)pid);
	snprintf((char *)ev + 12, 16, "%s", comm);
	put32(ev + 28, (uint32_t)pid);
	put32(ev + 32, 120);
	ev[36] = 1;
	return used + 40;
}

static void finish_page(uint8_t *page, uint64_t ts, size_t used, uint64_t flags)
{
	put64(page, ts);
	put64(page + 8, used | flags);
}

struct lines {
	char text[16][256];
	unsigned n;
};

static void collect(void *ctx, const char *line)
{
	struct lines *l = ctx;

	if (l->n < 16)
		snprintf(l->text[l->n], sizeof(l->text[0]), "%s", line);
	l->n++;
}

static void build_blob(struct fdr_blob *b, bool damage)
{
	static const char meta[] = "version=1\nclock=boot\noffset_ns=0\nlong_size=8\nbig_endian=0\n";
	uint8_t cpu0[2 * PAGE] = { 0 }, cpu1[2 * PAGE] = { 0 };
	size_t u;
	char fmt[2048];

	fdr_blob_init(b);
	fdr_blob_add(b, FDR_SEC_META, 0, meta, strlen(meta));
	fdr_blob_add(b, FDR_SEC_HEADER_PAGE, 0, test_header_page, strlen(test_header_page));
	memcpy(fmt, "sched", 6);
	memcpy(fmt + 6, exit_format, strlen(exit_format));
	fdr_blob_add(b, FDR_SEC_FORMAT, 0, fmt, 6 + strlen(exit_format));
	u = add_exit(cpu0, 0, 0, 101, "first");
	u = add_exit(cpu0, u, 2000000, 103, "third");
	finish_page(cpu0, 1000000000, u, 0);
	/* The second page is damaged: its commit claims more than a sub-buffer. */
	finish_page(cpu0 + PAGE, 1003000000, damage ? 5000 : 0, 0);
	u = add_exit(cpu1, 0, 0, 102, "second");
	finish_page(cpu1, 1001000000, u, 0);
	u = add_exit(cpu1 + PAGE, 0, 0, 104, "fourth");
	u = add_exit(cpu1 + PAGE, u, 20000000, 105, "after");
	finish_page(cpu1 + PAGE, 1006000000, u, 1ULL << 31);
	fdr_blob_add(b, FDR_SEC_PAGES, 0, cpu0, sizeof(cpu0));
	fdr_blob_add(b, FDR_SEC_PAGES, 1, cpu1, sizeof(cpu1));
}

static void test_render(void)
{
	struct fdr_trigger trig = { .label = "TRIGGER", .trace_ts = 1010000000 };
	struct fdr_render_stats st;
	struct lines l = { .n = 0 };
	struct fdr_blob b;
	int r;

	build_blob(&b, true);
	tap_is_int(b.err, 0, "container built");
	r = fdr_render(b.data, b.len, &trig, collect, &l, &st);
	tap_is_int(r, 0, "rendered");
	tap_is_int(st.records, 5, "five records");
	tap_is_int(st.cpus, 2, "two CPUs");
	tap_is_int(st.bad_pages, 1, "the damaged sub-buffer is skipped");
	tap_is_int(st.missed, -1, "the loss mark is counted");
	tap_is_int(l.n, 7, "five records, a loss line and the trigger");
	tap_is_str(l.text[0], "-0.010000 cpu0 sched_process_exit: comm=first pid=101 prio=120 group_dead=true",
		   "oldest first, relative to the trigger");
	tap_ok(strstr(l.text[1], "-0.009000 cpu1") && strstr(l.text[1], "comm=second"), "CPUs merged by time: %s", l.text[1]);
	tap_ok(strstr(l.text[2], "-0.008000 cpu0") && strstr(l.text[2], "comm=third"), "then cpu0 again: %s", l.text[2]);
	tap_ok(strstr(l.text[3], "-0.004000 cpu1 [the kernel lost records here]") != NULL, "loss line: %s", l.text[3]);
	tap_ok(strstr(l.text[4], "comm=fourth") != NULL, "record after the loss: %s", l.text[4]);
	tap_is_str(l.text[5], "+0.000000 TRIGGER", "trigger line at 0");
	tap_ok(strstr(l.text[6], "+0.016000 cpu1") && strstr(l.text[6], "comm=after"), "later records follow: %s", l.text[6]);

	/* Every truncation of the container is refused or rendered without crashing. */
	for (size_t cut = 0; cut < b.len; cut += 7)
		fdr_render(b.data, cut, &trig, NULL, NULL, NULL);
	tap_ok(1, "truncated containers do not crash");
	tap_is_int(fdr_render(b.data, 20, &trig, NULL, NULL, NULL), -EINVAL, "a cut section is refused");
	fdr_blob_free(&b);
}

/* Random damage to the sub-buffers must never make rendering read out of bounds. */
static void test_damaged_pages(void)
{
	struct fdr_blob b;
	struct lines l;
	size_t pages_at;
	unsigned seed = 12345;
	int ok = 0;

	build_blob(&b, false);
	pages_at = b.len - 4 * PAGE - 16;   /* the two PAGES sections close the container */
	for (int i = 0; i < 3000; i++) {
		uint8_t *copy = malloc(b.len);

		memcpy(copy, b.data, b.len);
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245 + 12345;
			copy[pages_at + (seed >> 8) % (b.len - pages_at)] ^= (uint8_t)(1u << (seed % 8));
		}
		l.n = 0;
		ok += fdr_render(copy, b.len, NULL, collect, &l, NULL) == 0;
		free(copy);
	}
	tap_ok(ok > 0, "damaged sub-buffers render without crashing (%d of 3000 parsed)", ok);
	fdr_blob_free(&b);
}

static void test_compress(void)
{
	uint8_t *z = NULL, *raw = NULL;
	struct fdr_blob b;
	size_t zlen = 0;

	build_blob(&b, false);
	tap_is_int(fdr_blob_compress(&b, &z, &zlen), 0, "compressed");
	tap_ok(zlen < b.len, "smaller: %zu < %zu", zlen, b.len);
	tap_is_int(fdr_blob_decompress(z, zlen, b.len, &raw), 0, "decompressed");
	tap_ok(raw && !memcmp(raw, b.data, b.len), "identical");
	free(raw);
	raw = NULL;
	tap_is_int(fdr_blob_decompress(z, zlen, b.len + 1, &raw), -EINVAL, "a wrong size is refused");
	tap_is_int(fdr_blob_decompress(z, zlen / 2, b.len, &raw), -EINVAL, "a cut stream is refused");
	tap_is_int(fdr_blob_decompress(z, zlen, FDR_BLOB_MAX_RAW + 1, &raw), -EINVAL, "a huge size is refused");
	free(z);
	fdr_blob_free(&b);
}

static void test_db(void)
{
	char path[PATH_MAX + 16], err[256];
	struct ras_snapshot s = { .wall_ns = 5, .trigger_row_id = 42, .trigger_trace_ts = 1010000000,
				     .raw_size = 0, .record_count = 5 }, got;
	struct lines l = { .n = 0 };
	struct ras_db *db;
	struct fdr_blob b;
	uint8_t *z;
	size_t zlen;
	int64_t id = 0;

	snprintf(path, sizeof(path), "%s/db.sqlite", tmp_root);
	if (!tap_ok(ras_db_open_writer(&db, path, "boot-1", err, sizeof(err)) == 0, "database: %s", err))
		return;
	build_blob(&b, false);
	fdr_blob_compress(&b, &z, &zlen);
	snprintf(s.reason, sizeof(s.reason), "uncorrected machine check");
	snprintf(s.trigger_table, sizeof(s.trigger_table), "mce_record");
	snprintf(s.instance, sizeof(s.instance), "rasd_fdr");
	s.data = z;
	s.data_len = zlen;
	s.raw_size = b.len;
	tap_is_int(ras_db_snapshot_insert(db, &s, &id), 0, "snapshot stored");
	tap_is_int(ras_db_snapshot_get(db, id, &got), 0, "and read back");
	tap_is_str(got.trigger_table, "mce_record", "trigger table");
	tap_is_int(got.trigger_row_id, 42, "trigger row");
	tap_is_str(got.boot_id, "boot-1", "boot");
	tap_is_int(got.data_len, zlen, "data length");
	tap_is_int(fdr_render_snapshot(&got, collect, &l, NULL), 0, "stored snapshot renders");
	tap_ok(l.n == 7 && strstr(l.text[5], "trigger: mce_record #42"), "with the trigger line: %s", l.text[5]);
	ras_snapshot_free(&got);
	tap_is_int(ras_db_snapshot_get(db, id + 1, &got), -ENOENT, "an unknown id");
	free(z);
	fdr_blob_free(&b);
	ras_db_close(db);
}

static void test_boot(void)
{
	char dir[PATH_MAX + 16], builtin[PATH_MAX + 32], param[1024];
	struct fdr_boot_event ev[64];
	struct fdr_boot_paths p = { dir, dir, builtin };
	unsigned n;

	snprintf(dir, sizeof(dir), "%s/boot", tmp_root);
	snprintf(builtin, sizeof(builtin), "%s/modules.builtin", dir);
	test_put(dir, "events/ras/mc_event", NULL);
	test_put(dir, "events/block/block_rq_error", NULL);
	test_put(dir, "events/cxl/cxl_poison", NULL);
	test_put(dir, "events/memory_failure/memory_failure_event", NULL);
	test_put(dir, "modules.builtin", "kernel/drivers/ras/amd/atl/amd_atl.ko\n");
	n = fdr_boot_events(&p, ev, 64);
	fdr_boot_param(param, sizeof(param), "rasd_boot", NULL, NULL, ev, n);
	tap_is_str(param, "trace_instance=rasd_boot,ras:mc_event,memory_failure:memory_failure_event,"
		   "block:block_rq_error", "only present, built-in events (module cxl left out)");
	test_put(dir, "modules.builtin", "kernel/drivers/cxl/core/cxl_core.ko\n");
	n = fdr_boot_events(&p, ev, 64);
	fdr_boot_param(param, sizeof(param), "p", "traceoff", "p", ev, n);
	tap_is_str(param, "trace_instance=p^traceoff@p,ras:mc_event,memory_failure:memory_failure_event,"
		   "block:block_rq_error,cxl:cxl_poison", "a built-in cxl_core is usable; persistent form");
	tap_is_int(fdr_boot_param(param, 20, "rasd_boot", NULL, NULL, ev, n), -E2BIG, "too long is refused");
	tap_ok(fdr_kernel_at_least("6.18.44-fc", 6, 12), "6.18 >= 6.12");
	tap_ok(!fdr_kernel_at_least("6.1.0-56-amd64", 6, 3), "6.1 < 6.3");
	tap_ok(fdr_kernel_at_least("7.0", 6, 12), "7.0 >= 6.12");
	tap_is_int(fdr_persistent_mib(256, 6), 2, "256 KiB x 6 CPUs: 2 MiB");
}

static void count_hidden(void *ctx, const char *condition, const char *advice)
{
	(*(int *)ctx)++;
	tap_diag("hidden: %s", condition);
	(void)advice;
}

static void test_hidden(void)
{
	char root[PATH_MAX + 16], sys[PATH_MAX + 32], dbg[PATH_MAX + 32], tr[PATH_MAX + 32];
	char cmd[PATH_MAX + 32], dev[PATH_MAX + 32];
	struct hidden_paths p = { sys, dbg, tr, cmd, dev, "x86_64" };
	int n = 0;

	snprintf(root, sizeof(root), "%s/hidden", tmp_root);
	snprintf(sys, sizeof(sys), "%s/sys", root);
	snprintf(dbg, sizeof(dbg), "%s/debug", root);
	snprintf(tr, sizeof(tr), "%s/tracing", root);
	snprintf(cmd, sizeof(cmd), "%s/cmdline", root);
	snprintf(dev, sizeof(dev), "%s/dev", root);
	test_put(root, "debug/ras/cec/pfns", "0\n");
	test_put(root, "dev/mcelog", "");
	test_put(root, "sys/devices/system/machinecheck/machinecheck0/dont_log_ce", "1\n");
	test_put(root, "sys/devices/system/machinecheck/machinecheck0/ignore_ce", "0\n");
	test_put(root, "sys/devices/system/machinecheck/machinecheck0/check_interval", "0\n");
	test_put(root, "cmdline", "ro quiet mce=nobootlog root=/dev/sda1\n");
	test_put(root, "tracing/events/ras/mc_event", NULL);
	test_put(root, "tracing/events/ras/aer_event", NULL);
	tap_is_int(hidden_conditions_at(&p, count_hidden, &n), 7, "seven conditions reported");
	tap_is_int(n, 7, "each through the callback");
	/* A healthy machine reports nothing. */
	test_rm_rf(root);
	test_put(root, "debug/tracing", NULL);
	test_put(root, "sys/devices/system/machinecheck/machinecheck0/dont_log_ce", "0\n");
	test_put(root, "sys/devices/system/machinecheck/machinecheck0/check_interval", "300\n");
	test_put(root, "cmdline", "ro quiet mce=bootlog\n");
	test_put(root, "tracing/events/mce/mce_record", NULL);
	test_put(root, "tracing/events/ras/mc_event", NULL);
	test_put(root, "tracing/events/ras/memory_failure_event", NULL);
	test_put(root, "dev", NULL);
	n = 0;
	tap_is_int(hidden_conditions_at(&p, count_hidden, &n), 0, "a healthy machine: nothing");
}

int main(void)
{
	snprintf(tmp_root, sizeof(tmp_root), "/tmp/rasdt_fdr_offline_XXXXXX");
	if (!mkdtemp(tmp_root)) {
		perror("mkdtemp");
		return 99;
	}
	atexit(cleanup);
	test_rate();
	test_open_refusals();
	test_render();
	test_damaged_pages();
	test_compress();
	test_db();
	test_boot();
	test_hidden();
	return tap_done();
}
