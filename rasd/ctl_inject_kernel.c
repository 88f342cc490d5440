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

#ifndef MADV_HWPOISON
#define MADV_HWPOISON 100
#endif

#define DEBUGFS "/sys/kernel/debug"
#define DEBUGFS_MAGIC_NR 0x64626720
#define MCE_INJ_DIR DEBUGFS "/mce-inject"
#define AER_INJ_DEV "/dev/aer_inject"
#define EDAC_SYSFS "/sys/devices/system/edac/mc"
#define EDAC_DEBUGFS DEBUGFS "/edac"
#define EXIT_USAGE 2
#define MCE_MAX_COUNT 1000000u

extern char **environ;

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

__attribute__((format(printf, 1, 2)))
static int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("ras-fdr-ctl inject: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\n(see ras-fdr-ctl inject --help)\n", stderr);
	return EXIT_USAGE;
}

/* ---- small helpers ------------------------------------------------------ */

static int parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!s || !*s || *s == '-')
		return -EINVAL;
	errno = 0;
	*out = strtoull(s, &end, 0);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

static int parse_uint(const char *s, unsigned max, unsigned *out)
{
	uint64_t v;

	if (parse_u64(s, &v) || v > max)
		return -EINVAL;
	*out = (unsigned)v;
	return 0;
}

/* Writes val; debugfs handlers such as mce-inject's flags_write overwrite the
 * last byte with NUL, so callers end values with a newline. */
static int write_file(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		err = -errno;
	else if ((size_t)n != len)
		err = -EIO;
	if (close(fd) && !err)
		err = -errno;
	return err;
}

static int write_u64_file(const char *dir, const char *name, uint64_t v)
{
	char path[256], val[32];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(val, sizeof(val), "0x%" PRIx64 "\n", v);
	return write_file(path, val);
}

static bool path_exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

static int run_modprobe(const char *module)
{
	static const char *const paths[] = { "/sbin/modprobe", "/usr/sbin/modprobe" };
	const char *prog = NULL;
	int status;
	pid_t pid;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		if (access(paths[i], X_OK) == 0)
			prog = paths[i];
	if (!prog)
		return -ENOENT;
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char *const args[] = { (char *)prog, "-q", (char *)module, NULL };

		execve(prog, args, environ);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -ENOENT;
}

static int need_root(void)
{
	if (geteuid() == 0)
		return 0;
	fputs("ras-fdr-ctl inject: must be run as root\n", stderr);
	return -EPERM;
}

static int need_debugfs(void)
{
	struct statfs sfs;

	if (statfs(DEBUGFS, &sfs) == 0 && (unsigned long)sfs.f_type == DEBUGFS_MAGIC_NR)
		return 0;
	fputs("ras-fdr-ctl inject: debugfs is not mounted at " DEBUGFS
	      " (mount -t debugfs debugfs " DEBUGFS ")\n", stderr);
	return -ENOENT;
}

/* Makes path appear by loading module if needed; explains what is missing. */
static int need_injector(const char *path, const char *module, const char *config)
{
	if (path_exists(path))
		return 0;
	run_modprobe(module);
	if (path_exists(path))
		return 0;
	fprintf(stderr, "ras-fdr-ctl inject: %s is missing: the kernel has no %s "
		"injector (module %s, %s)\n", path, module, module, config);
	return -ENOENT;
}

static int check_common(bool yes)
{
	if (!yes) {
		fputs("ras-fdr-ctl inject: refusing without --yes: this injects an error "
		      "into the running kernel, which handles it like a real one\n", stderr);
		return -ECANCELED;
	}
	return need_root();
}

/* ---- mce ---------------------------------------------------------------- */

struct mce_opts {
	uint64_t status, addr, misc, synd, ipid, mcgstatus;
	unsigned bank, cpu, count;
	bool have_bank, have_status, have_synd, have_ipid, have_mcgstatus, hw, yes;
};

enum { O_BANK = 256, O_STATUS, O_ADDR, O_MISC, O_SYND, O_IPID, O_CPU, O_MCGSTATUS,
       O_HW, O_SW, O_COUNT, O_YES, O_HELP, O_COR, O_UNCOR, O_TLP, O_MC, O_TYPE,
       O_LAYERS };

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
	case O_BANK: o->have_bank = true; return parse_uint(arg, 255, &o->bank);
	case O_STATUS: o->have_status = true; return parse_u64(arg, &o->status);
	case O_ADDR: return parse_u64(arg, &o->addr);
	case O_MISC: return parse_u64(arg, &o->misc);
	case O_SYND: o->have_synd = true; return parse_u64(arg, &o->synd);
	case O_IPID: o->have_ipid = true; return parse_u64(arg, &o->ipid);
	case O_CPU: return parse_uint(arg, 1u << 20, &o->cpu);
	case O_MCGSTATUS: o->have_mcgstatus = true; return parse_u64(arg, &o->mcgstatus);
	case O_HW: o->hw = true; return 0;
	case O_SW: o->hw = false; return 0;
	case O_COUNT: return parse_uint(arg, MCE_MAX_COUNT, &o->count) || !o->count ? -EINVAL : 0;
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
			return c == '?' ? usage_error("inject mce: bad option")
					: usage_error("inject mce: bad value '%s'", optarg ? optarg : "");
	}
	if (optind < argc)
		return usage_error("inject mce: unexpected argument '%s'", argv[optind]);
	if (!o->have_bank || !o->have_status)
		return usage_error("inject mce: --bank and --status are required");
	return -1;
}

/* Writes one optional register file; a missing file is an error only if asked for. */
static int mce_write_opt(const char *name, bool wanted, uint64_t v)
{
	char path[128];
	int r;

	snprintf(path, sizeof(path), MCE_INJ_DIR "/%s", name);
	if (!path_exists(path)) {
		if (!wanted)
			return 0;
		fprintf(stderr, "ras-fdr-ctl inject: this kernel's mce-inject has no '%s' file\n",
			name);
		return -EOPNOTSUPP;
	}
	r = write_u64_file(MCE_INJ_DIR, name, v);
	if (r)
		fprintf(stderr, "ras-fdr-ctl inject: writing %s: %s\n", path, strerror(-r));
	return r;
}

static int mce_inject_one(const struct mce_opts *o)
{
	int r;

	r = write_file(MCE_INJ_DIR "/flags", o->hw ? "hw\n" : "sw\n");
	if (r) {
		fprintf(stderr, "ras-fdr-ctl inject: the kernel refused injection type %s: %s\n",
			o->hw ? "hw" : "sw", strerror(-r));
		return r;
	}
	r = write_u64_file(MCE_INJ_DIR, "cpu", o->cpu);
	if (r == -EINVAL) {
		fprintf(stderr, "ras-fdr-ctl inject: CPU %u is not online\n", o->cpu);
		return r;
	}
	if (!r)
		r = write_u64_file(MCE_INJ_DIR, "status", o->status);
	if (!r)
		r = write_u64_file(MCE_INJ_DIR, "addr", o->addr);
	if (!r)
		r = write_u64_file(MCE_INJ_DIR, "misc", o->misc);
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
	r = write_u64_file(MCE_INJ_DIR, "bank", o->bank);
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
	if (check_common(o.yes))
		return o.yes ? 1 : EXIT_USAGE;
	if (need_debugfs() || need_injector(MCE_INJ_DIR, "mce-inject", "CONFIG_X86_MCE_INJECT"))
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
		if (n == 4 || parse_u64(tok, &v) || v > UINT32_MAX)
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
		if (parse_u64(arg, &v) || v > UINT32_MAX)
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
			return c == '?' ? usage_error("inject aer: bad option")
					: usage_error("inject aer: bad value '%s'", optarg ? optarg : "");
	}
	if (optind != argc - 1)
		return usage_error("inject aer: exactly one BDF is needed");
	o->bdf = argv[optind];
	if (parse_bdf(o->bdf, &o->e))
		return usage_error("inject aer: bad BDF '%s' (want [DDDD:]BB:DD.F)", o->bdf);
	if (!o->have_cor && !o->have_uncor)
		return usage_error("inject aer: --cor or --uncor is required");
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
	if (check_common(o.yes))
		return o.yes ? 1 : EXIT_USAGE;
	if (need_injector(AER_INJ_DEV, "aer_inject", "CONFIG_PCIEAER_INJECT"))
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

/* ---- memory-failure ----------------------------------------------------- */

/* PFN of the page at p from /proc/self/pagemap (0 when not visible). */
static uint64_t page_pfn(const void *p, long pagesz)
{
	uint64_t ent = 0;
	off_t off = (off_t)((uintptr_t)p / (uintptr_t)pagesz) * 8;
	int fd;

	fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (pread(fd, &ent, sizeof(ent), off) != (ssize_t)sizeof(ent))
		ent = 0;
	close(fd);
	if (!(ent >> 63))
		return 0;
	return ent & ((1ULL << 55) - 1);
}

static int hwpoison_own_page(void)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	uint64_t pfn;
	char *p;

	p = mmap(NULL, (size_t)pagesz, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, 0x5a, (size_t)pagesz);
	pfn = page_pfn(p, pagesz);
	if (madvise(p, (size_t)pagesz, MADV_HWPOISON)) {
		int err = -errno;

		munmap(p, (size_t)pagesz);
		return err;
	}
	/* The page is poisoned: it must not be touched again. */
	if (pfn)
		printf("poisoned pfn 0x%" PRIx64 " (page at %p)\n", pfn, (void *)p);
	else
		printf("poisoned one page (pfn not visible)\n");
	munmap(p, (size_t)pagesz);
	return 0;
}

static int inject_memory_failure(int argc, char **argv)
{
	bool yes = false;
	int r;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--yes"))
			yes = true;
		else if (!strcmp(argv[i], "--help")) {
			ctl_inject_kernel_usage(stdout);
			return 0;
		} else
			return usage_error("inject memory-failure: unexpected argument '%s'", argv[i]);
	}
	if (check_common(yes))
		return yes ? 1 : EXIT_USAGE;
	r = hwpoison_own_page();
	if (r == -EINVAL || r == -ENOSYS)
		fputs("ras-fdr-ctl inject: the kernel has no memory-failure support "
		      "(CONFIG_MEMORY_FAILURE)\n", stderr);
	else if (r)
		fprintf(stderr, "ras-fdr-ctl inject: madvise(MADV_HWPOISON): %s\n", strerror(-r));
	return r ? 1 : 0;
}

/* ---- edac --------------------------------------------------------------- */

struct edac_opts {
	unsigned mc, count, layer[3], n_layers;
	bool have_mc, ue, yes;
};

static const struct option edac_longopts[] = {
	{ "mc", required_argument, NULL, O_MC },
	{ "type", required_argument, NULL, O_TYPE },
	{ "count", required_argument, NULL, O_COUNT },
	{ "layers", required_argument, NULL, O_LAYERS },
	{ "yes", no_argument, NULL, O_YES },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

static int parse_layers(const char *s, struct edac_opts *o)
{
	char buf[64], *save = NULL, *tok;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	o->n_layers = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (o->n_layers == 3 || parse_uint(tok, 255, &o->layer[o->n_layers]))
			return -EINVAL;
		o->n_layers++;
	}
	return o->n_layers ? 0 : -EINVAL;
}

static int edac_opt(struct edac_opts *o, int c, const char *arg)
{
	switch (c) {
	case O_MC: o->have_mc = true; return parse_uint(arg, 255, &o->mc);
	case O_TYPE:
		if (strcmp(arg, "ce") && strcmp(arg, "ue"))
			return -EINVAL;
		o->ue = !strcmp(arg, "ue");
		return 0;
	case O_COUNT: return parse_uint(arg, 0xffff, &o->count) || !o->count ? -EINVAL : 0;
	case O_LAYERS: return parse_layers(arg, o);
	case O_YES: o->yes = true; return 0;
	case O_HELP: return 1;
	default: return -EINVAL;
	}
}

static int edac_parse(int argc, char **argv, struct edac_opts *o)
{
	int c, r;

	memset(o, 0, sizeof(*o));
	o->count = 1;
	optind = 0;
	opterr = 1;
	while ((c = getopt_long(argc, argv, "", edac_longopts, NULL)) != -1) {
		r = edac_opt(o, c, optarg);
		if (r == 1) {
			ctl_inject_kernel_usage(stdout);
			return 0;
		}
		if (r)
			return c == '?' ? usage_error("inject edac: bad option")
					: usage_error("inject edac: bad value '%s'", optarg ? optarg : "");
	}
	if (optind < argc)
		return usage_error("inject edac: unexpected argument '%s'", argv[optind]);
	if (!o->have_mc)
		return usage_error("inject edac: --mc is required");
	return -1;
}

/*
 * Layer names in order, from the first DIMM's location ("channel 0 slot 1 ")
 * in sysfs; they name the fake_inject_<layer> debugfs files.
 */
static int edac_layer_names(unsigned mc, char names[3][16], unsigned *n)
{
	static const char *const dimms[] = { "dimm0", "rank0", "csrow0" };
	char path[128], loc[128], *save = NULL, *tok;
	ssize_t len = -1;
	int fd;

	for (size_t i = 0; i < 3 && len <= 0; i++) {
		snprintf(path, sizeof(path), EDAC_SYSFS "/mc%u/%s/dimm_location", mc, dimms[i]);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		len = read(fd, loc, sizeof(loc) - 1);
		close(fd);
	}
	if (len <= 0)
		return -ENOENT;
	loc[len] = 0;
	*n = 0;
	for (tok = strtok_r(loc, " \n", &save); tok && *n < 3;
	     tok = strtok_r(NULL, " \n", &save)) {
		snprintf(names[(*n)++], 16, "%s", tok);
		strtok_r(NULL, " \n", &save); /* skip the index */
	}
	return *n ? 0 : -ENOENT;
}

static int edac_need(unsigned mc, char *dir, size_t dirlen)
{
	char path[160];

	snprintf(path, sizeof(path), EDAC_SYSFS "/mc%u", mc);
	if (!path_exists(path)) {
		fprintf(stderr, "ras-fdr-ctl inject: no EDAC memory controller mc%u (%s)\n", mc, path);
		return -ENOENT;
	}
	if (need_debugfs())
		return -ENOENT;
	snprintf(dir, dirlen, EDAC_DEBUGFS "/mc%u", mc);
	snprintf(path, sizeof(path), "%s/fake_inject", dir);
	if (!path_exists(path)) {
		fprintf(stderr, "ras-fdr-ctl inject: %s is missing: EDAC error injection needs a "
			"kernel built with CONFIG_EDAC_DEBUG\n", path);
		return -ENOENT;
	}
	return 0;
}

static int edac_write_layers(const struct edac_opts *o, const char *dir)
{
	char names[3][16], file[32];
	unsigned n = 0;
	int r;

	if (!o->n_layers)
		return 0;
	r = edac_layer_names(o->mc, names, &n);
	if (r || o->n_layers > n) {
		fprintf(stderr, "ras-fdr-ctl inject: mc%u has %u layers, %u given\n",
			o->mc, n, o->n_layers);
		return -EINVAL;
	}
	for (unsigned i = 0; i < o->n_layers; i++) {
		snprintf(file, sizeof(file), "fake_inject_%s", names[i]);
		r = write_u64_file(dir, file, o->layer[i]);
		if (r) {
			fprintf(stderr, "ras-fdr-ctl inject: writing %s/%s: %s\n", dir, file,
				strerror(-r));
			return r;
		}
	}
	return 0;
}

static int inject_edac(int argc, char **argv)
{
	struct edac_opts o;
	char dir[128], path[160];
	int r;

	r = edac_parse(argc, argv, &o);
	if (r >= 0)
		return r;
	if (check_common(o.yes))
		return o.yes ? 1 : EXIT_USAGE;
	if (edac_need(o.mc, dir, sizeof(dir)) || edac_write_layers(&o, dir))
		return 1;
	r = write_u64_file(dir, "fake_inject_ue", o.ue);
	if (!r)
		r = write_u64_file(dir, "fake_inject_count", o.count);
	snprintf(path, sizeof(path), "%s/fake_inject", dir);
	if (!r)
		r = write_file(path, "1\n");
	if (r) {
		fprintf(stderr, "ras-fdr-ctl inject: EDAC fake_inject on mc%u: %s\n", o.mc,
			strerror(-r));
		return 1;
	}
	printf("injected %u EDAC %s error%s on mc%u\n", o.count, o.ue ? "uncorrected" :
	       "corrected", o.count == 1 ? "" : "s", o.mc);
	return 0;
}

/* ---- dispatch ----------------------------------------------------------- */

int ctl_inject_kernel(int argc, char **argv)
{
	if (argc < 1 || !argv[0])
		return usage_error("inject: which kind? (mce, aer, memory-failure, edac)");
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
	return usage_error("inject: unknown kind '%s' (mce, aer, memory-failure, edac)", argv[0]);
}
