/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl inject aer: one struct aer_error_inj written to /dev/aer_inject. */
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

int inject_aer(int argc, char **argv)
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
