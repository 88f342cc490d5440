/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl inject mce: mce-inject's debugfs files (see inject_kernel.c). */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "inject_kernel.h"
#include "inject_util.h"
#include "lib/fileio.h"

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

	r = ras_write_file(MCE_INJ_DIR "/flags", o->hw ? "hw\n" : "sw\n");
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

int inject_mce(int argc, char **argv)
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
