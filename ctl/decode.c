/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl decode: the daemon's own decoders applied to a record copied
 * from anywhere — raw register values on the command line, or the kernel's
 * dmesg machine-check and AER blocks and mcelog's ASCII records as text.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "decoders/aer.h"
#include "decoders/aer_text.h"
#include "ctl.h"
#include "lib/decode.h"
#include "lib/formats.h"
#include "decoders/mce.h"
#include "decoders/mce_text.h"

static void print_decoded(const char *kind, const void *d, ras_render_fn render,
			  const struct ras_dfield *df, size_t n, bool json, const char *where)
{
	const struct ras_decoded_head *h = d;
	char sentence[RAS_SUMMARY_LEN];

	render(d, sentence, sizeof(sentence));
	if (json) {
		printf("{\"version\":%d,\"type\":\"%s\",%s%s%s\"severity\":\"%s\",\"summary\":",
		       CTL_JSON_VERSION, kind,
		       where ? "\"input\":\"" : "", where ? where : "", where ? "\"," : "",
		       ras_severity_name(h->severity));
		ctl_print_json_string(sentence, strlen(sentence));
		printf(",\"location\":");
		ctl_print_json_string(h->location, strlen(h->location));
		printf(",\"decoded\":{");
		for (size_t i = 0; i < n; i++) {
			printf("%s\"%s\":", i ? "," : "", df[i].name);
			if (df[i].type == RAS_DF_STR)
				ctl_print_json_string(ras_dfield_str(d, &df[i]), strlen(ras_dfield_str(d, &df[i])));
			else if (ras_dfield_int(d, &df[i]) == RAS_DF_NONE)
				printf("null");
			else
				ctl_print_json_int(ras_dfield_int(d, &df[i]));
		}
		printf("}}\n");
		return;
	}
	if (where)
		printf("%s: ", where);
	printf("%s: %s\n", ras_severity_name(h->severity), sentence);
	if (h->location[0])
		printf("  %-20s %s\n", "location", h->location);
	for (size_t i = 0; i < n; i++) {
		if (df[i].type == RAS_DF_STR && *ras_dfield_str(d, &df[i]))
			printf("  %-20s %s\n", df[i].name, ras_dfield_str(d, &df[i]));
		else if (df[i].type == RAS_DF_INT && ras_dfield_int(d, &df[i]) != RAS_DF_NONE)
			printf("  %-20s %lld (0x%llx)\n", df[i].name, (long long)ras_dfield_int(d, &df[i]),
			       (unsigned long long)ras_dfield_int(d, &df[i]));
	}
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "ras-fdr-ctl decode: '%s' is not a number\n", s);
		return -EINVAL;
	}
	return 0;
}

static const struct { const char *name; uint8_t id; } vendors[] = {
	/* Kernel X86_VENDOR_* numbers, as the mce_record cpuvendor field carries them. */
	{ "intel", 0 }, { "amd", 2 }, { "centaur", 5 }, { "hygon", 9 }, { "zhaoxin", 10 },
};

static int parse_vendor(const char *s, uint8_t *out)
{
	for (size_t i = 0; i < sizeof(vendors) / sizeof(vendors[0]); i++) {
		if (!strcasecmp(s, vendors[i].name)) {
			*out = vendors[i].id;
			return 0;
		}
	}
	fprintf(stderr, "ras-fdr-ctl decode: unknown vendor '%s' (intel, amd, hygon, zhaoxin, centaur)\n", s);
	return -EINVAL;
}

enum { O_VENDOR = 256, O_FAMILY, O_MODEL, O_STEPPING, O_BANK, O_STATUS, O_ADDR, O_MISC, O_SYND,
       O_IPID, O_MCGSTATUS, O_MCGCAP, O_CPU, O_SOCKET, O_JSON, O_COR, O_UNCOR, O_FATAL, O_TLP,
       O_DEV, O_MASK };

static const struct option mce_opts[] = {
	{ "vendor", 1, NULL, O_VENDOR }, { "family", 1, NULL, O_FAMILY }, { "model", 1, NULL, O_MODEL },
	{ "stepping", 1, NULL, O_STEPPING }, { "bank", 1, NULL, O_BANK }, { "status", 1, NULL, O_STATUS },
	{ "addr", 1, NULL, O_ADDR }, { "misc", 1, NULL, O_MISC }, { "synd", 1, NULL, O_SYND },
	{ "ipid", 1, NULL, O_IPID }, { "mcgstatus", 1, NULL, O_MCGSTATUS }, { "mcgcap", 1, NULL, O_MCGCAP },
	{ "cpu", 1, NULL, O_CPU }, { "socket", 1, NULL, O_SOCKET }, { "json", 0, NULL, O_JSON },
	{ NULL, 0, NULL, 0 },
};

static int set_mce_option(struct mce_in *in, uint64_t fms[3], int opt, const char *arg)
{
	uint64_t v = 0;

	if (opt == O_VENDOR)
		return parse_vendor(arg, &in->cpuvendor);
	if (parse_u64(arg, &v) < 0)
		return -EINVAL;
	switch (opt) {
	case O_FAMILY: fms[0] = v; break;
	case O_MODEL: fms[1] = v; break;
	case O_STEPPING: fms[2] = v; break;
	case O_BANK: in->bank = (uint8_t)v; break;
	case O_STATUS: in->status = v; break;
	case O_ADDR: in->addr = v; break;
	case O_MISC: in->misc = v; break;
	case O_SYND: in->synd = v; in->has_synd = 1; break;
	case O_IPID: in->ipid = v; in->has_ipid = 1; break;
	case O_MCGSTATUS: in->mcgstatus = v; break;
	case O_MCGCAP: in->mcgcap = v; break;
	case O_CPU: in->cpu = (uint32_t)v; break;
	case O_SOCKET: in->socketid = (uint32_t)v; break;
	default: return -EINVAL;
	}
	return 0;
}

static int decode_mce_args(int argc, char **argv)
{
	struct mce_in in = { .has_synd = 1, .has_ipid = 1 };
	struct mce_decoded *d = calloc(1, sizeof(*d));
	uint64_t fms[3] = { 0, 0, 0 };
	bool json = false, have_status = false, have_fm = false;
	int opt;

	while (d && (opt = getopt_long(argc, argv, "", mce_opts, NULL)) != -1) {
		if (opt == O_JSON) {
			json = true;
			continue;
		}
		if (opt == '?' || set_mce_option(&in, fms, opt, optarg) < 0) {
			free(d);
			return 2;
		}
		have_status |= opt == O_STATUS;
		have_fm |= opt == O_FAMILY || opt == O_MODEL;
	}
	if (!d || !have_status) {
		fprintf(stderr, "usage: ras-fdr-ctl decode mce --vendor V --family F --model M --bank B "
			"--status 0x... [--addr --misc --synd --ipid --mcgstatus --mcgcap --cpu --socket] [--json]\n");
		free(d);
		return 2;
	}
	in.cpuid = mce_cpuid_signature((unsigned)fms[0], (unsigned)fms[1], (unsigned)fms[2]);
	in.no_cpuid = !have_fm;
	mce_decode(&in, d);
	print_decoded("mce", d, render_mce, mce_dfields, mce_n_dfields, json, NULL);
	free(d);
	return 0;
}

static const struct option aer_opts[] = {
	{ "cor-status", 1, NULL, O_COR }, { "uncor-status", 1, NULL, O_UNCOR },
	{ "fatal", 0, NULL, O_FATAL }, { "tlp", 1, NULL, O_TLP }, { "dev", 1, NULL, O_DEV },
	{ "mask", 1, NULL, O_MASK }, { "json", 0, NULL, O_JSON }, { NULL, 0, NULL, 0 },
};

static int parse_tlp(const char *s, uint32_t tlp[4])
{
	char buf[128], *save = NULL, *tok;
	int n = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ", ", &save); tok && n < 4; tok = strtok_r(NULL, ", ", &save)) {
		char *end;

		tlp[n++] = (uint32_t)strtoul(tok, &end, 16);
		if (*end)
			return -EINVAL;
	}
	return n == 4 ? 0 : -EINVAL;
}

/* Tracepoint severities: 0 non-fatal uncorrected, 1 fatal, 2 corrected. */
static int decode_aer_args(int argc, char **argv)
{
	struct aer_in in = { .dev_name = "", .severity = 2 };
	struct aer_decoded *d = calloc(1, sizeof(*d));
	bool json = false, have = false, fatal = false;
	uint64_t v;
	int opt, bad = !d;

	while (!bad && (opt = getopt_long(argc, argv, "", aer_opts, NULL)) != -1) {
		switch (opt) {
		case O_COR: case O_UNCOR:
			bad = parse_u64(optarg, &v) < 0;
			in.status = (uint32_t)v;
			in.severity = opt == O_COR ? 2 : 0;
			have = true;
			break;
		case O_MASK: bad = parse_u64(optarg, &v) < 0; in.mask = (uint32_t)v; in.has_mask = 1; break;
		case O_FATAL: fatal = true; break;
		case O_TLP: bad = parse_tlp(optarg, in.tlp_header) < 0; in.tlp_header_valid = 1; break;
		case O_DEV: in.dev_name = optarg; in.dev_name_len = strlen(optarg); break;
		case O_JSON: json = true; break;
		default: bad = 1;
		}
	}
	if (bad || !have) {
		fprintf(stderr, "usage: ras-fdr-ctl decode aer --cor-status 0x... | --uncor-status 0x... "
			"[--fatal] [--mask 0x...] [--tlp h0,h1,h2,h3] [--dev BDF] [--json]\n");
		free(d);
		return 2;
	}
	if (fatal && in.severity == 0)
		in.severity = 1;
	aer_decode(&in, d);
	print_decoded("aer", d, render_aer, aer_dfields, aer_n_dfields, json, NULL);
	free(d);
	return 0;
}

/* Records from text, kept in input order across the two parsers. */
struct text_item {
	unsigned line;
	bool is_mce;
	struct mce_in mce;
	struct aer_in aer;
	char dev[64];
};

struct text_ctx {
	const char *name;
	struct text_item *items;
	size_t n, cap;
	unsigned errors;
};

static struct text_item *text_add(struct text_ctx *t, unsigned line)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 16;
		struct text_item *p = realloc(t->items, cap * sizeof(*p));

		if (!p)
			return NULL;
		t->items = p;
		t->cap = cap;
	}
	memset(&t->items[t->n], 0, sizeof(t->items[0]));
	t->items[t->n].line = line;
	return &t->items[t->n++];
}

static int on_mce(void *ctx, const struct mce_in *rec, unsigned line)
{
	struct text_item *it = text_add(ctx, line);

	if (!it)
		return -ENOMEM;
	it->is_mce = true;
	it->mce = *rec;
	return 0;
}

static int on_aer(void *ctx, const struct aer_in *rec, unsigned line)
{
	struct text_item *it = text_add(ctx, line);
	size_t n;

	if (!it)
		return -ENOMEM;
	it->aer = *rec;
	/* The parser's strings point into the input, which outlives the list; the name is copied anyway. */
	n = rec->dev_name_len < sizeof(it->dev) - 1 ? rec->dev_name_len : sizeof(it->dev) - 1;
	if (rec->dev_name)
		memcpy(it->dev, rec->dev_name, n);
	it->aer.dev_name = it->dev;
	it->aer.dev_name_len = n;
	it->aer.dev_desc = NULL;
	it->aer.dev_desc_len = 0;
	return 0;
}

static void on_error(void *ctx, unsigned line, const char *reason)
{
	struct text_ctx *t = ctx;

	fprintf(stderr, "%s:%u: %s\n", t->name, line, reason);
	t->errors++;
}

static int by_line(const void *a, const void *b)
{
	const struct text_item *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

static void print_items(struct text_ctx *t, bool json)
{
	union { struct mce_decoded m; struct aer_decoded a; } *d = calloc(1, sizeof(*d));
	char where[300];

	qsort(t->items, t->n, sizeof(t->items[0]), by_line);
	for (size_t i = 0; d && i < t->n; i++) {
		snprintf(where, sizeof(where), "%s:%u", t->name, t->items[i].line);
		if (t->items[i].is_mce) {
			mce_decode(&t->items[i].mce, &d->m);
			print_decoded("mce", &d->m, render_mce, mce_dfields, mce_n_dfields, json, where);
		} else {
			aer_decode(&t->items[i].aer, &d->a);
			print_decoded("aer", &d->a, render_aer, aer_dfields, aer_n_dfields, json, where);
		}
	}
	free(d);
}

static int decode_text(const char *name, const char *path, bool json)
{
	struct text_ctx t = { .name = name };
	char *buf = NULL;
	size_t len = 0, cap = 0;
	FILE *f = path ? fopen(path, "re") : stdin;

	if (!f) {
		fprintf(stderr, "ras-fdr-ctl decode: %s: %s\n", path, strerror(errno));
		return 1;
	}
	for (;;) {
		if (len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb)
				break;
			buf = nb;
		}
		size_t got = fread(buf + len, 1, 4096, f);

		if (!got)
			break;
		len += got;
	}
	if (path)
		fclose(f);
	if (!buf)
		return 1;
	buf[len] = 0;
	mce_text_parse(buf, len, on_mce, on_error, &t);
	aer_text_parse(buf, len, on_aer, on_error, &t);
	print_items(&t, json);
	if (!t.n && !t.errors)
		fprintf(stderr, "%s: no machine-check or AER record found\n", name);
	free(t.items);
	free(buf);
	/* Lines it could not read were reported; the status says whether anything was decoded. */
	return t.n ? 0 : 1;
}

static const struct ctl_opt decode_opts[] = {
	CTL_OPT_JSON,
	{ NULL },
};

const struct ctl_spec ctl_decode_spec = {
	.name = "decode", .args = "mce|aer OPTIONS | [FILE ...]", .opts = decode_opts,
	.positional = CTL_C_FILE, .words = "mce aer",
	.summary = "decode registers given by hand, or RAS records in any text (dmesg, mcelog)",
	.more = "  decode mce --vendor V --family F --model M --bank B --status 0x...\n"
		"      [--stepping S --addr A --misc M --synd S --ipid I --mcgstatus G --mcgcap C\n"
		"       --cpu N --socket N] [--json]\n"
		"  decode aer --cor-status 0x... | --uncor-status 0x... [--fatal]\n"
		"      [--mask 0x...] [--tlp h0,h1,h2,h3] [--dev BDF] [--json]\n"
		"  decode [--json] [FILE ...]   text: dmesg machine-check and AER blocks, mcelog\n"
		"      ASCII records; standard input without FILE. Other lines are skipped.\n"
		"      Exit 0 when at least one record was decoded, 1 when none was found.\n",
};

static int decode_opt(void *ctx, int key, const char *arg)
{
	(void)key, (void)arg;
	*(bool *)ctx = true;
	return CTL_GO_ON;
}

static int decode_files(int argc, char **argv)
{
	bool json = false;
	int first, found = 0, r = ctl_parse(&ctl_decode_spec, argc, argv, decode_opt, &json, &first);

	if (r != CTL_GO_ON)
		return r;
	for (int i = first; i < argc; i++)
		found |= decode_text(argv[i], argv[i], json) == 0;
	if (first >= argc)
		found = decode_text("<stdin>", NULL, json) == 0;
	return found ? CTL_EXIT_OK : CTL_EXIT_ERROR;
}

int ctl_decode(struct ctl *c, int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "mce"))
		return decode_mce_args(argc - 1, argv + 1);
	if (argc >= 2 && !strcmp(argv[1], "aer"))
		return decode_aer_args(argc - 1, argv + 1);
	return decode_files(argc, argv);
}
