/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl inject through the running kernel's own error injectors:
 * mce-inject (debugfs), aer_inject (/dev/aer_inject), madvise(MADV_HWPOISON)
 * and the EDAC fake_inject debugfs files (CONFIG_EDAC_DEBUG).
 */
#ifndef RAS_CTL_INJECT_KERNEL_H
#define RAS_CTL_INJECT_KERNEL_H

/*
 * argv[0] is the kind: "mce", "aer", "memory-failure" or "edac"; the rest
 * are its options. Prints the usage with --help. Returns the process exit
 * code: 0 injected, 1 error (injector missing, not root, kernel refused),
 * 2 usage error (including a missing --yes).
 */
int ctl_inject_kernel(int argc, char **argv);

/* Prints the usage of all kinds to f (a FILE *, declared void * to keep
 * <stdio.h> out of this header). */
void ctl_inject_kernel_usage(void *f);

/* One function per injector, each in its own file; argv[0] is the kind. */
int inject_mce(int argc, char **argv);
int inject_aer(int argc, char **argv);
int inject_memory_failure(int argc, char **argv);
int inject_edac(int argc, char **argv);

#endif
