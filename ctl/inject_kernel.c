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
#include <stdio.h>
#include <string.h>
#include "inject_kernel.h"
#include "inject_util.h"

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
