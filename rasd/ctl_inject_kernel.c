/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl inject {mce|aer|memory-failure|edac}: errors injected through
 * the kernel's own injectors, so that the whole path from the kernel's
 * handler through the tracepoint into the recorder is exercised.
 *
 *   mce             /sys/kernel/debug/mce-inject/ (mce-inject.ko). The files
 *                   are written, then "bank" last, which triggers it. The
 *                   kernel resets its record after each injection, so every
 *                   repetition (--count) writes all files again.
 *   aer             one struct aer_error_inj written to /dev/aer_inject
 *                   (aer_inject.ko), drivers/pci/pcie/aer_inject.c ABI.
 *   memory-failure  madvise(MADV_HWPOISON) on an anonymous page this process
 *                   maps and touches itself; never anyone else's page.
 *   edac            /sys/kernel/debug/edac/mcN/fake_inject* (CONFIG_EDAC_DEBUG).
 *
 * Every kind touches the real machine, so each needs --yes.
 */
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
#include "ctl_inject_kernel.h"

#include "ctl_inject_kernel.h"
#include "ctl_inject_util.h"

/* drivers/pci/pcie/aer_inject.c: the ABI of a write() to /dev/aer_inject. */
struct aer_error_inj {
	uint8_t bus;
	uint8_t dev;
	uint8_t fn;
	uint32_t uncor_status;
	uint32_t cor_status;
	uint32_t header_log0;
	uint32_t header_log1;
	uint32_t header_log2;
	uint32_t header_log3;
	uint32_t domain;
};

static const char usage_text[] =
	"usage: ras-fdr-ctl inject KIND [options] --yes\n"
	"Injects an error through the running kernel's injector. It touches the\n"
	"real machine (the kernel handles it like a real error), hence --yes.\n"
	"\n"
	"  inject mce --bank B --status 0xS [--addr 0xA] [--misc 0xM] [--synd 0xS]\n"
	"             [--ipid 0xI] [--cpu N] [--mcgstatus 0xG] [--sw|--hw]\n"
	"             [--count N] --yes\n"
	"      mce-inject (debugfs mce-inject/); --sw (default) logs the record as if\n"
	"      it had been read from the bank, --hw writes the MSRs and raises #MC.\n"
	"      --count repeats the injection N times as fast as possible.\n"
	"  inject aer BDF (--cor STATUS | --uncor STATUS) [--tlp h0,h1,h2,h3] --yes\n"
	"      aer_inject (/dev/aer_inject); BDF is [DDDD:]BB:DD.F; STATUS is the\n"
	"      AER correctable or uncorrectable error status value.\n"
	"  inject memory-failure --yes\n"
	"      poisons one page this command allocates (madvise MADV_HWPOISON) and\n"
	"      prints its pfn.\n"
	"  inject edac --mc N [--type ce|ue] [--count N] [--layers a,b,c] --yes\n"
	"      EDAC fake_inject (needs a kernel with CONFIG_EDAC_DEBUG).\n"
	"\n"
	"Exit status: 0 injected, 1 error, 2 usage.\n";

void ctl_inject_kernel_usage(void *f)
{
	fputs(usage_text, (FILE *)f);
}

/* ---- mce ---------------------------------------------------------------- */

struct mce_opts {
	uint64_t status, addr, misc, synd, ipid, mcgstatus;
	unsigned bank, cpu, count;
	bool have_bank, have_status, have_synd, have_ipid, have_mcgstatus, hw, yes;
};

static const struct option mce_longopts[] = {
	{ "bank", required_argument, NULL, O_BANK },
	{ "status", required_argument, NULL, O_STATUS },
	{ "addr", required_argument, NULL, O_ADDR },
	{ "misc", required_argument, NULL, O_MISC },
	{ "synd", required_argument, NULL, O_SYND },
	{ "ipid", required_argument, NULL, O_IPID },
	{ "cpu", required_argument, NULL, O_CPU },
	{ "mcgstatus", required_argument, NULL, O_MCGSTATUS },
	{ "hw", no_argument, NULL, O_HW },
	{ "sw", no_argument, NULL, O_SW },
	{ "count", required_argument, NULL, O_COUNT },
	{ "yes", no_argument, NULL, O_YES },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

/* Returns 0, -EINVAL for a bad value, 1 for --help. */
static int mce_opt(struct mce_opts *o, int c, const char *arg)
{
	switch (c) {
	case O_BANK: o->have_bank = true; return inj_parse_uint(arg, 255, &o->bank);
	case O_STATUS: o->have_status = true; return inj_parse_u64(arg, &o->status);
	case O_ADDR: return inj_parse_u64(arg, &o->addr);
	case O_MISC: return inj_parse_u64(arg, &o->misc);
	case O_SYND: o->have_synd = true; return inj_parse_u64(arg, &o->synd);
	case O_IPID: o->have_ipid = true; return inj_parse_u64(arg, &o->ipid);
	case O_CPU: return inj_parse_uint(arg, 1u << 20, &o->cpu);
	case O_MCGSTATUS: o->have_mcgstatus = true; return inj_parse_u64(arg, &o->mcgstatus);
	case O_HW: o->hw = true; return 0;
	case O_SW: o->hw = false; return 0;
	case O_COUNT: return inj_parse_uint(arg, MCE_MAX_COUNT, &o->count) || !o->count ? -EINVAL : 0;
	case O_YES: o->yes = true; return 0;
	case O_HELP: return 1;
	default: return -EINVAL;
	}
}

static int mce_parse(int argc, char **argv, struct mce_opts *o)
{
	int c, r;

	memset(o, 0, sizeof(*o));
	o->count = 1;
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "+", mce_longopts, NULL)) != -1) {
		r = mce_opt(o, c, optarg);
		if (r == 1) {
			ctl_inject_kernel_usage(stdout);
			return 0;
		}
		if (r)
			return c == '?' ? inj_usage_error("inject mce: bad option")
					: inj_usage_error("inject mce: bad value '%s'", optarg ? optarg : "");
	}
	if (optind < argc)
		return inj_usage_error("inject mce: unexpected argument '%s'", argv[optind]);
	if (!o->have_bank || !o->have_status)
		return inj_usage_error("inject mce: --bank and --status are required");
	return -1;
}

/* Writes one optional register file; a missing file is an error only if asked for. */
static int mce_write_opt(const char *name, bool wanted, uint64_t v)
{
	char path[128];
	int r;

	snprintf(path, sizeof(path), MCE_INJ_DIR "/%s", name);
	if (!inj_path_exists(path)) {
		if (!wanted)
			return 0;
		fprintf(stderr, "ras-fdr-ctl inject: this kernel's mce-inject has no '%s' file\n",
			name);
		return -EOPNOTSUPP;
	}
	r = inj_write_u64_file(MCE_INJ_DIR, name, v);
	if (r)
		fprintf(stderr, "ras-fdr-ctl inject: writing %s: %s\n", path, strerror(-r));
	return r;
}

static int mce_inject_one(const struct mce_opts *o)
{
	int r;

	r = inj_write_file(MCE_INJ_DIR "/flags", o->hw ? "hw\n" : "sw\n");
	if (r) {
		fprintf(stderr, "ras-fdr-ctl inject: the kernel refused injection type %s: %s\n",
			o->hw ? "hw" : "sw", strerror(-r));
		return r;
	}
	r = inj_write_u64_file(MCE_INJ_DIR, "cpu", o->cpu);
	if (r == -EINVAL) {
		fprintf(stderr, "ras-fdr-ctl inject: CPU %u is not online\n", o->cpu);
		return r;
	}
	if (!r)
		r = inj_write_u64_file(MCE_INJ_DIR, "status", o->status);
	if (!r)
		r = inj_write_u64_file(MCE_INJ_DIR, "addr", o->addr);
	if (!r)
		r = inj_write_u64_file(MCE_INJ_DIR, "misc", o->misc);
	if (r) {
		fprintf(stderr, "ras-fdr-ctl inject: writing " MCE_INJ_DIR ": %s\n", strerror(-r));
		return r;
	}
	r = mce_write_opt("synd", o->have_synd, o->synd);
	if (!r)
		r = mce_write_opt("ipid", o->have_ipid, o->ipid);
	if (!r)
		r = mce_write_opt("mcgstatus", o->have_mcgstatus, o->mcgstatus);
	if (r)
		return r;
	r = inj_write_u64_file(MCE_INJ_DIR, "bank", o->bank);
	if (r == -EINVAL)
		fprintf(stderr, "ras-fdr-ctl inject: the kernel refused bank %u on CPU %u "
			"(no such bank, or the injection type is not supported)\n", o->bank, o->cpu);
	else if (r)
		fprintf(stderr, "ras-fdr-ctl inject: writing bank: %s\n", strerror(-r));
	return r;
}

static int inject_mce(int argc, char **argv)
{
	struct mce_opts o;
	unsigned i;
	int r;

	r = mce_parse(argc, argv, &o);
	if (r >= 0)
		return r;
	if (inj_check_common(o.yes))
		return o.yes ? 1 : EXIT_USAGE;
	if (inj_need_debugfs() || inj_need_injector(MCE_INJ_DIR, "mce-inject", "CONFIG_X86_MCE_INJECT"))
		return 1;
	for (i = 0; i < o.count; i++) {
		if (mce_inject_one(&o)) {
			if (i)
				fprintf(stderr, "ras-fdr-ctl inject: stopped after %u injections\n", i);
			return 1;
		}
	}
	printf("injected %u machine check%s (%s) bank %u cpu %u status 0x%" PRIx64 "\n",
	       o.count, o.count == 1 ? "" : "s", o.hw ? "hw" : "sw", o.bank, o.cpu, o.status);
	return 0;
}

/* ---- aer ---------------------------------------------------------------- */

struct aer_opts {
	struct aer_error_inj e;
	bool have_cor, have_uncor, yes;
	const char *bdf;
};

static const struct option aer_longopts[] = {
	{ "cor", required_argument, NULL, O_COR },
	{ "uncor", required_argument, NULL, O_UNCOR },
	{ "tlp", required_argument, NULL, O_TLP },
	{ "yes", no_argument, NULL, O_YES },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

/* [DDDD:]BB:DD.F */
static int parse_bdf(const char *s, struct aer_error_inj *e)
{
	unsigned dom = 0, bus, dev, fn;
	char tail;

	if (sscanf(s, "%x:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) != 4) {
		dom = 0;
		if (sscanf(s, "%x:%x.%x%c", &bus, &dev, &fn, &tail) != 3)
			return -EINVAL;
	}
	if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
		return -EINVAL;
	e->domain = dom;
	e->bus = (uint8_t)bus;
	e->dev = (uint8_t)dev;
	e->fn = (uint8_t)fn;
	return 0;
}

static int parse_tlp(const char *s, struct aer_error_inj *e)
{
	uint32_t *h[4] = { &e->header_log0, &e->header_log1, &e->header_log2, &e->header_log3 };
	char buf[128], *save = NULL, *tok;
	unsigned n = 0;
	uint64_t v;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (n == 4 || inj_parse_u64(tok, &v) || v > UINT32_MAX)
			return -EINVAL;
		*h[n++] = (uint32_t)v;
	}
	return n == 4 ? 0 : -EINVAL;
}

static int aer_opt(struct aer_opts *o, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case O_COR:
	case O_UNCOR:
		if (inj_parse_u64(arg, &v) || v > UINT32_MAX)
			return -EINVAL;
		if (c == O_COR) {
			o->have_cor = true;
			o->e.cor_status = (uint32_t)v;
		} else {
			o->have_uncor = true;
			o->e.uncor_status = (uint32_t)v;
		}
		return 0;
	case O_TLP: return parse_tlp(arg, &o->e);
	case O_YES: o->yes = true; return 0;
	case O_HELP: return 1;
	default: return -EINVAL;
	}
}

static int aer_parse(int argc, char **argv, struct aer_opts *o)
{
	int c, r;

	memset(o, 0, sizeof(*o));
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "", aer_longopts, NULL)) != -1) {
		r = aer_opt(o, c, optarg);
		if (r == 1) {
			ctl_inject_kernel_usage(stdout);
			return 0;
		}
		if (r)
			return c == '?' ? inj_usage_error("inject aer: bad option")
					: inj_usage_error("inject aer: bad value '%s'", optarg ? optarg : "");
	}
	if (optind != argc - 1)
		return inj_usage_error("inject aer: exactly one BDF is needed");
	o->bdf = argv[optind];
	if (parse_bdf(o->bdf, &o->e))
		return inj_usage_error("inject aer: bad BDF '%s' (want [DDDD:]BB:DD.F)", o->bdf);
	if (!o->have_cor && !o->have_uncor)
		return inj_usage_error("inject aer: --cor or --uncor is required");
	return -1;
}

static void aer_explain(int err, const char *bdf)
{
	const char *why;

	switch (err) {
	case -ENODEV: why = "no such device, or no AER-capable root port above it"; break;
	case -EPROTONOSUPPORT: why = "AER is not enabled on that device or its root port"; break;
	case -EINVAL: why = "the kernel rejected the request"; break;
	case -EPERM: why = "not permitted"; break;
	default: why = strerror(-err); break;
	}
	fprintf(stderr, "ras-fdr-ctl inject: aer_inject on %s failed: %s\n", bdf, why);
}

static int aer_write(const struct aer_error_inj *e)
{
	ssize_t n;
	int fd, err = 0;

	fd = open(AER_INJ_DEV, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, e, sizeof(*e));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != sizeof(*e))
		err = -EIO;
	close(fd);
	return err;
}

static int inject_aer(int argc, char **argv)
{
	struct aer_opts o;
	int r;

	r = aer_parse(argc, argv, &o);
	if (r >= 0)
		return r;
	if (inj_check_common(o.yes))
		return o.yes ? 1 : EXIT_USAGE;
	if (inj_need_injector(AER_INJ_DEV, "aer_inject", "CONFIG_PCIEAER_INJECT"))
		return 1;
	r = aer_write(&o.e);
	if (r) {
		aer_explain(r, o.bdf);
		return 1;
	}
	printf("injected AER error on %04x:%02x:%02x.%x cor 0x%08x uncor 0x%08x\n",
	       o.e.domain, o.e.bus, o.e.dev, o.e.fn, o.e.cor_status, o.e.uncor_status);
	return 0;
}

/* ---- dispatch ----------------------------------------------------------- */

int ctl_inject_kernel(int argc, char **argv)
{
	if (argc < 1 || !argv[0])
		return inj_usage_error("inject: which kind? (mce, aer, memory-failure, edac)");
	if (!strcmp(argv[0], "--help") || !strcmp(argv[0], "-h") || !strcmp(argv[0], "help")) {
		ctl_inject_kernel_usage(stdout);
		return 0;
	}
	if (!strcmp(argv[0], "mce"))
		return inject_mce(argc, argv);
	if (!strcmp(argv[0], "aer"))
		return inject_aer(argc, argv);
	if (!strcmp(argv[0], "memory-failure"))
		return inject_memory_failure(argc, argv);
	if (!strcmp(argv[0], "edac"))
		return inject_edac(argc, argv);
	return inj_usage_error("inject: unknown kind '%s' (mce, aer, memory-failure, edac)", argv[0]);
}
