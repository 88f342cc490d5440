/* SPDX-License-Identifier: MIT */
/*
 * The kernel's struct mce (arch/x86/include/uapi/asm/mce.h), as
 * apei_write_mce() puts it in ACPI ERST after the CPER record and section
 * headers (arch/x86/kernel/cpu/mce/apei.c), as pstore shows it in mce-erst-ID
 * (drivers/acpi/apei/erst.c erst_reader: the bytes after those headers) and
 * as read(2) of /dev/mcelog returns it (arch/x86/kernel/cpu/mce/dev-mcelog.c).
 * Little-endian, naturally aligned, fields only ever added at the end, so a
 * record's size says which kernel wrote it:
 *
 *    88 bytes  up to mcgcap             2.6.31 .. 4.8  (ERST support: 2.6.35)
 *   112 bytes  + synd, ipid, ppin       4.10 .. 4.14
 *   120 bytes  + microcode (padded)     4.15 .. 5.7
 *   128 bytes  + kflags                 5.8 and later (6.1, 6.12: 128, checked under QEMU)
 *
 * (Layouts from the kernels' BTF, Ubuntu builds 4.4 .. 6.8; 4.9 is not
 * listed there.) The pstore file holds what the crashed kernel wrote, so
 * after a kernel update it may be another layout than the running kernel's;
 * /dev/mcelog only ever returns the running kernel's (a record of another
 * size is skipped by apei_read_mce(), and left in ERST). A record is taken as
 * far as it goes: a field is present when the bytes reach its end.
 */
#ifndef LW_MCE_LAYOUT_H
#define LW_MCE_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum lw_mce_field {
	LW_MCE_STATUS, LW_MCE_MISC, LW_MCE_ADDR, LW_MCE_MCGSTATUS, LW_MCE_IP, LW_MCE_TSC,
	LW_MCE_TIME, LW_MCE_CPUVENDOR, LW_MCE_INJECT_FLAGS, LW_MCE_SEVERITY, LW_MCE_CPUID,
	LW_MCE_CS, LW_MCE_BANK, LW_MCE_CPU, LW_MCE_FINISHED, LW_MCE_EXTCPU, LW_MCE_SOCKETID,
	LW_MCE_APICID, LW_MCE_MCGCAP, LW_MCE_SYND, LW_MCE_IPID, LW_MCE_PPIN, LW_MCE_MICROCODE,
	LW_MCE_KFLAGS, LW_MCE_NFIELDS
};

/* What did not fit a known layout: counted, never fatal while status and bank are there. */
#define LW_MCE_SHORT     1u   /* fewer bytes than the oldest layout: fields are missing */
#define LW_MCE_ODD_SIZE  2u   /* between two known layouts */
#define LW_MCE_LONGER    4u   /* more than the newest layout known here: the rest is not read */

#define LW_MCE_MIN_USABLE 66  /* through bank: less cannot be a machine check worth storing */

struct lw_mce {
	uint64_t status, misc, addr, mcgstatus, ip, tsc, time;
	uint8_t cpuvendor, inject_flags, severity, cs, bank, cpu, finished;
	uint32_t cpuid, extcpu, socketid, apicid, microcode;
	uint64_t mcgcap, synd, ipid, ppin, kflags;
	uint32_t present;          /* bit per enum lw_mce_field */
	size_t size;               /* bytes given */
	unsigned problems;         /* LW_MCE_* */
};

/*
 * Reads a struct mce of len bytes. 0 when it is a machine check to store
 * (at least LW_MCE_MIN_USABLE bytes, MCi_STATUS.VAL set), -EINVAL when not;
 * out is filled as far as the bytes go either way.
 */
int lw_mce_parse(const void *buf, size_t len, struct lw_mce *out);
static inline bool lw_mce_has(const struct lw_mce *m, enum lw_mce_field f)
{
	return m->present & (1u << f);
}
/* "5.8+ (128 bytes)", "4.15-5.7 (120 bytes)", ..., "unknown (N bytes)". */
void lw_mce_layout_name(const struct lw_mce *m, char *out, size_t len);
/*
 * The record's identity, whoever read it (pstore or /dev/mcelog, either
 * layout): a hash of the registers and of where and when it happened.
 */
uint64_t lw_mce_identity(const struct lw_mce *m);
/* FNV-1a over bytes, from h (start with LW_HASH_INIT). */
#define LW_HASH_INIT 0xcbf29ce484222325ULL
uint64_t lw_hash(uint64_t h, const void *p, size_t n);

#endif
