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
#include "ctl.h"
#include "decoders/mce.h"
#include "decode_text.h"

static void print_one(const struct decoded_view *v, bool json)
{
	struct decode_out o = { stdout, stderr, json };

	decode_print(&o, v, NULL);
}

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || end == s || *end) {
		fprintf(stderr, "ras-fdr-ctl decode: '%s' is not a number\n", ctl_text(s));
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
	fprintf(stderr, "ras-fdr-ctl decode: unknown vendor '%s' (intel, amd, hygon, zhaoxin, centaur)\n",
		ctl_text(s));
	return -EINVAL;
}

enum { O_VENDOR = 256, O_FAMILY, O_MODEL, O_STEPPING, O_BANK, O_STATUS, O_ADDR, O_MISC, O_SYND,
       O_IPID, O_MCGSTATUS, O_MCGCAP, O_CPU, O_SOCKET, O_JSON, O_COR, O_UNCOR, O_FATAL, O_TLP,
       O_DEV, O_MASK, O_SYND1, O_SYND2, O_MCA_CONFIG };

static const struct option mce_opts[] = {
	{ "vendor", 1, NULL, O_VENDOR }, { "family", 1, NULL, O_FAMILY }, { "model", 1, NULL, O_MODEL },
	{ "stepping", 1, NULL, O_STEPPING }, { "bank", 1, NULL, O_BANK }, { "status", 1, NULL, O_STATUS },
	{ "addr", 1, NULL, O_ADDR }, { "misc", 1, NULL, O_MISC }, { "synd", 1, NULL, O_SYND },
	{ "ipid", 1, NULL, O_IPID }, { "mcgstatus", 1, NULL, O_MCGSTATUS }, { "mcgcap", 1, NULL, O_MCGCAP },
	{ "cpu", 1, NULL, O_CPU }, { "socket", 1, NULL, O_SOCKET }, { "json", 0, NULL, O_JSON },
	{ "synd1", 1, NULL, O_SYND1 }, { "synd2", 1, NULL, O_SYND2 }, { "mca-config", 1, NULL, O_MCA_CONFIG },
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
	/* SMCA vendor data, in the slots the mce_record tracepoint uses. */
	case O_SYND1: mce_vendor_word_set(in, 0, v); break;
	case O_SYND2: mce_vendor_word_set(in, 1, v); break;
	case O_MCA_CONFIG: mce_vendor_word_set(in, 2, v); break;
	default: return -EINVAL;
	}
	return 0;
}

static int decode_mce_args(int argc, char **argv)
{
	struct mce_in in = { .has_synd = 1 };   /* has_ipid only with --ipid: SMCA needs it */
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
			"--status 0x... [--addr --misc --synd --ipid --synd1 --synd2 --mca-config\n"
			"       --mcgstatus --mcgcap --cpu --socket] [--json]\n");
		free(d);
		return 2;
	}
	in.cpuid = mce_cpuid_signature((unsigned)fms[0], (unsigned)fms[1], (unsigned)fms[2]);
	in.no_cpuid = !have_fm;
	mce_decode(&in, d);
	struct decoded_view v = view_mce(d);

	print_one(&v, json);
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
	struct decoded_view view = view_aer(d);

	print_one(&view, json);
	free(d);
	return 0;
}

/* Reads all of f; returns a NUL-terminated buffer (free it) or NULL. */
static char *read_all(FILE *f, size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	for (;;) {
		if (*len + 4096 + 1 > cap) {
			char *nb = realloc(buf, cap = cap * 2 + 8192);

			if (!nb) {
				free(buf);
				return NULL;
			}
			buf = nb;
		}
		size_t got = fread(buf + *len, 1, 4096, f);

		if (!got)
			break;
		*len += got;
	}
	buf[*len] = 0;
	return buf;
}

static int decode_text(const char *name, const char *path, bool json)
{
	struct decode_out o = { stdout, stderr, json };
	FILE *f = path ? fopen(path, "re") : stdin;
	size_t len;
	char *buf;
	int status;

	if (!f) {
		fprintf(stderr, "ras-fdr-ctl decode: %s: %s\n", ctl_text(path), strerror(errno));
		return 1;
	}
	buf = read_all(f, &len);
	if (path)
		fclose(f);
	if (!buf) {
		fprintf(stderr, "ras-fdr-ctl decode: %s: out of memory\n", ctl_text(name));
		return 1;
	}
	status = decode_text_buffer(name, buf, len, &o);
	free(buf);
	return status;
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
		"       --synd1 X --synd2 Y --mca-config C --cpu N --socket N] [--json]\n"
		"  decode aer --cor-status 0x... | --uncor-status 0x... [--fatal]\n"
		"      [--mask 0x...] [--tlp h0,h1,h2,h3] [--dev BDF] [--json]\n"
		"  decode [--json] [FILE ...]   text (standard input without FILE): kernel and\n"
		"      AMD machine-check blocks, mcelog records, AER reports in every spelling,\n"
		"      GHES aer_status blocks, EDAC MCn error lines, firmware-first (GHES/BERT)\n"
		"      memory, ARM and other sections, rasdaemon's ras-mc-ctl rows and log\n"
		"      lines. Other lines are skipped.\n"
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
