/* SPDX-License-Identifier: MIT */
/*
 * No kernel string cut short (issue 32): every TEXT field of every event
 * type the 6.1 and 6.18 formats have is written at the longest the kernel
 * hands over (the sources are cited next to each decoder's buffer), through
 * a fake tracing tree and rasd --once, and must come back whole in
 * ras-fdr-ctl errors (the sentence) and errors --json; the text forms
 * decode reads (an EDAC line, an AER report, a GHES memory section) must
 * print theirs whole too.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "db/db.h"
#include "lib/formats.h"
#include "tests/fake_tree.h"
#include "tests/tap.h"
#include "tests/test_util.h"

/* The longest each TEXT field is, NUL excluded; an unlisted one is a test failure. */
static const struct {
	const char *table, *field;
	int len;            /* -1: the format's fixed array, less its NUL */
	const char *value;  /* NULL: made up to len; else exactly this (a name the kernel builds) */
} limits[] = {
	{ "mc_event", "msg", 255, NULL },             /* synopsys/npcm EDAC_MSG_SIZE 256 */
	{ "mc_event", "label", 295, NULL },           /* edac_raw_error_desc.label[296] */
	{ "mc_event", "driver_detail", 1023, NULL },  /* skx_common.h MSG_SIZE 1024 */
	{ "aer_event", "dev_name", 16, "ffffffff:ff:1f.7" },   /* pci_name(), 8-digit domain */
	{ "extlog_mem_event", "fru_text", 20, NULL },          /* CPER FRU Text, 20 bytes */
	{ "non_standard_event", "fru_text", 20, NULL },
	{ "devlink_health_report", "bus_name", 255, NULL },    /* sysfs names: NAME_MAX */
	{ "devlink_health_report", "dev_name", 255, NULL },
	{ "devlink_health_report", "driver_name", 255, NULL },
	{ "devlink_health_report", "reporter_name", 255, NULL },
	{ "devlink_health_report", "msg", 255, NULL },         /* mlx5 MLX5E_REPORTER_PER_Q_MAX_LEN */
	{ "block_rq_error", "rwbs", -1, NULL },                /* char rwbs[RWBS_LEN] */
	{ "block_rq_error", "cmd", 63, NULL },                 /* always "" from the kernel */
	{ "block_rq_complete", "rwbs", -1, NULL },             /* the same fields as block_rq_error */
	{ "block_rq_complete", "cmd", 63, NULL },
	{ "signal_generate", "comm", -1, NULL },               /* char comm[TASK_COMM_LEN] */
	{ "net_dev_xmit_timeout", "name", 15, NULL },          /* IFNAMSIZ 16 */
	{ "net_dev_xmit_timeout", "driver", 255, NULL },       /* a sysfs name (bus/drivers/NAME) */
	{ "*cxl", "memdev", 13, "mem2147483647" },             /* "mem%d" */
	{ "*cxl", "host", 16, "ffffffff:ff:1f.7" },            /* the memdev's PCI parent */
	{ "*cxl", "region", 16, "region2147483647" },          /* "region%d" */
	{ "*cxl", "region_name", 16, "region2147483646" },
};

#define MAX_TEXTS 64

struct text {
	const char *table, *field;
	char value[1100];
};

static struct text texts[MAX_TEXTS];
static unsigned n_texts;

/* A value of n printable bytes naming its field, the kernel's way for an ADXL detail. */
static void make_value(const char *table, const char *field, int n, char *out)
{
	static const char adxl[] = " err_code:0x0000:0x009f SystemAddress:0x12345678 ProcessorSocketId:0x0"
		" MemoryControllerId:0x1 ChannelAddress:0x91a2b3c ChannelId:0x0 RankAddress:0x4d15e0"
		" PhysicalRankId:0x1 DimmSlotId:0x0 DimmRankId:0x1 Row:0x2a5b Column:0x3f8 Bank:0x3"
		" BankGroup:0x2 ChipSelect:0x1 ChipId:0x0";
	int k;

	if (!strcmp(field, "driver_detail")) {
		/* The full ADXL form, then the retry_rd_err_log words i10nm appends, to the limit. */
		k = snprintf(out, (size_t)n + 1, "%s retry_rd_err_log[", adxl);
		while (k < n - 1)
			k += snprintf(out + k, (size_t)(n + 1 - k), "%08x ", 0x1a2b3c4d + k);
		out[n - 1] = ']';
		out[n] = 0;
		return;
	}
	k = snprintf(out, (size_t)n + 1, "%s.%s:", table, field);
	for (; k < n; k++)
		out[k] = (char)('A' + k % 26);
	out[n] = 0;
}

static int limit_of(const struct ras_event_type *t, const char *field, const char **value, int fixed)
{
	for (size_t i = 0; i < sizeof(limits) / sizeof(limits[0]); i++) {
		bool cxl = !strcmp(limits[i].table, "*cxl") && !strcmp(t->system, "cxl");

		if ((cxl || !strcmp(limits[i].table, t->table)) && !strcmp(limits[i].field, field)) {
			*value = limits[i].value;
			return limits[i].len < 0 ? fixed - 1 : limits[i].len;
		}
	}
	return -1;
}

/* A record of type idx with every TEXT field at its longest; other fields as the kernel's small values. */
static int add_record(struct fake_tree *t, unsigned idx, uint64_t ts)
{
	const struct ras_event_type *type = &ras_event_types[idx];
	const struct ras_type_format *tf = &t->fmt->type[idx];
	char assign[RAS_MAX_FIELDS][1200], *argv[RAS_MAX_FIELDS];
	uint8_t rec[4096];
	int n = 0, len;

	for (unsigned i = 0; i < type->n_fields; i++) {
		const struct tep_format_field *f = tf->field[i];
		const char *value = NULL;
		int max;

		if (!f || type->fields[i].type != RAS_FT_TEXT)
			continue;
		max = limit_of(type, type->fields[i].name, &value, f->size);
		if (!tap_ok(max >= 0, "%s.%s has a kernel maximum in this test", type->table, type->fields[i].name))
			continue;
		if (n_texts == MAX_TEXTS)
			break;
		texts[n_texts].table = type->table;
		texts[n_texts].field = type->fields[i].name;
		if (value)
			snprintf(texts[n_texts].value, sizeof(texts[0].value), "%s", value);
		else
			make_value(type->table, type->fields[i].name, max, texts[n_texts].value);
		snprintf(assign[n], sizeof(assign[0]), "%s=%s", type->fields[i].name, texts[n_texts].value);
		argv[n] = assign[n];
		n++;
		n_texts++;
	}
	/* Only the memory-failure SIGBUS is kept (the type's keep terms). */
	if (!strcmp(type->table, "signal_generate")) {
		snprintf(assign[n++], sizeof(assign[0]), "sig=%d", SIGBUS);
		snprintf(assign[n++], sizeof(assign[0]), "code=%d", 4);   /* BUS_MCEERR_AR */
		for (int k = n - 2; k < n; k++)
			argv[k] = assign[k];
	}
	if (!strcmp(type->table, "mc_event")) {
		snprintf(assign[n++], sizeof(assign[0]), "error_type=0");
		snprintf(assign[n++], sizeof(assign[0]), "mc_index=0");
		snprintf(assign[n++], sizeof(assign[0]), "top_layer=1");
		snprintf(assign[n++], sizeof(assign[0]), "middle_layer=0");
		snprintf(assign[n++], sizeof(assign[0]), "lower_layer=-1");
		for (int k = n - 5; k < n; k++)
			argv[k] = assign[k];
	}
	if (!n)
		return 0;
	{
		char name[128];

		snprintf(name, sizeof(name), "%s:%s", type->system, type->event);
		len = fake_record(t, name, argv, n, rec, sizeof(rec));
	}
	if (len < 0)
		return len;
	return fake_add(t, 0, ts, rec, (uint32_t)len);
}

static char *read_all(const char *path)
{
	char *buf = NULL;

	ras_read_file(path, &buf, NULL);
	return buf ? buf : strdup("");
}

static char *ctl(const char *dbpath, const char *tmp, const char *const *args)
{
	char bin[1024], log[600];
	char *argv[16] = { bin, "--config", "/dev/null", "--db", (char *)dbpath };
	int n = 5;

	for (int i = 0; args[i] && n < 15; i++)
		argv[n++] = (char *)args[i];
	argv[n] = NULL;
	snprintf(bin, sizeof(bin), "%s/ctl/ras-fdr-ctl", test_builddir());
	snprintf(log, sizeof(log), "%s/ctl.out", tmp);
	unlink(log);
	test_run(argv, log);
	return read_all(log);
}

static void run_case(const char *kernel)
{
	char formats[1024], tmp[256], dbpath[512], rasd[1024], log[600], lock[600];
	char *argv[] = { rasd, "--config", "/dev/null", "--tracing-dir", NULL, "--db", dbpath,
			 "--lock-dir", lock, "--once", NULL };
	char *errors, *json;
	struct fake_tree t;
	uint64_t ts = 1000000000ULL;

	n_texts = 0;
	snprintf(formats, sizeof(formats), "%s/tests/formats/%s", test_srcdir(), kernel);
	if (!tap_ok(fake_tree_create(&t, formats, 1, "rasd", "boot") == 0, "%s: tree built", kernel))
		return;
	/*
	 * A stand-in is not recorded where what it stands in for is there
	 * (block_rq_complete beside block_rq_error, whose fields and decoder it
	 * shares): no record of it is written.
	 */
	for (unsigned i = 0; i < ras_n_event_types; i++)
		if (t.fmt->type[i].state == RAS_FMT_KERNEL && !ras_formats_fallback_unneeded(t.fmt, i))
			tap_is_int(add_record(&t, i, ts += 1000), 0, "%s: %s record written", kernel,
				   ras_event_types[i].table);
	fake_tree_finish(&t);
	test_tmpdir(tmp, sizeof(tmp));
	snprintf(dbpath, sizeof(dbpath), "%s/ras.db", tmp);
	snprintf(rasd, sizeof(rasd), "%s/rasd/rasd", test_builddir());
	snprintf(log, sizeof(log), "%s/rasd.log", tmp);
	snprintf(lock, sizeof(lock), "%s/lock", tmp);
	argv[4] = t.root;
	tap_is_int(test_run(argv, log), 0, "%s: rasd --once", kernel);
	errors = ctl(dbpath, tmp, (const char *const[]){ "errors", "--limit", "0", NULL });
	json = ctl(dbpath, tmp, (const char *const[]){ "errors", "--json", "--limit", "0", NULL });
	for (unsigned i = 0; i < n_texts; i++) {
		tap_ok(strstr(errors, texts[i].value) != NULL, "%s: errors shows %s.%s whole (%zu bytes)",
		       kernel, texts[i].table, texts[i].field, strlen(texts[i].value));
		tap_ok(strstr(json, texts[i].value) != NULL, "%s: errors --json shows %s.%s whole", kernel,
		       texts[i].table, texts[i].field);
	}
	free(errors);
	free(json);
	if (getenv("RAS_TEST_KEEP")) {
		tap_diag("kept %s and %s", t.root, tmp);
		return;
	}
	fake_tree_destroy(&t);
	test_rmtree(tmp);
}

/* decode, on the text forms the kernel prints: each string whole. */
static void run_decode(void)
{
	char tmp[256], path[600], label[300], msg[300], detail[1100];
	char *out;
	FILE *f;

	test_tmpdir(tmp, sizeof(tmp));
	make_value("mc_event", "label", 295, label);
	make_value("mc_event", "msg", 64, msg);
	/* printk keeps a record to 1 KiB (PRINTKRB_RECORD_MAX): the detail as long as fits with the rest. */
	make_value("mc_event", "driver_detail", 540, detail);
	snprintf(path, sizeof(path), "%s/dmesg.txt", tmp);
	f = fopen(path, "we");
	fprintf(f, "[  12.345678] EDAC MC0: 1 CE %s on %s (channel:0 slot:1 page:0x12345 offset:0x678"
		" grain:32 syndrome:0x0 - %s)\n", msg, label, detail);
	fprintf(f, "[  13.000000] {1}[Hardware Error]:  fru_text: %s\n", "FRU-TEXT-20-BYTES-ZZ");
	fclose(f);
	out = ctl("/nonexistent.db", tmp, (const char *const[]){ "decode", path, NULL });
	tap_ok(strstr(out, label) != NULL, "decode: the EDAC line's label whole (295 bytes)");
	tap_ok(strstr(out, msg) != NULL, "decode: its message whole");
	/* The line's " - " and the detail's own leading space are one separator to the reader. */
	tap_ok(strstr(out, detail + 1) != NULL, "decode: its driver detail whole (540 bytes)");
	tap_ok(strstr(out, "replace the DIMM if its corrected count keeps rising") != NULL,
	       "decode: the advice after them whole");
	free(out);
	out = ctl("/nonexistent.db", tmp, (const char *const[]){ "decode", path, "--json", NULL });
	tap_ok(strstr(out, label) != NULL, "decode --json: the label whole");
	tap_ok(strstr(out, detail + 1) != NULL, "decode --json: the detail whole");
	free(out);
	out = ctl("/nonexistent.db", tmp, (const char *const[]){ "decode", "aer", "--cor-status", "0x1",
								 "--dev", "ffffffff:ff:1f.7", NULL });
	tap_ok(strstr(out, "ffffffff:ff:1f.7") != NULL, "decode aer: the longest PCI name whole");
	free(out);
	test_rmtree(tmp);
}

int main(void)
{
	run_case("linux-6.1");
	run_case("linux-6.18");
	run_decode();
	return tap_done();
}
