/* SPDX-License-Identifier: MIT */
/*
 * ras:memory_failure_event (memory_failure:memory_failure_event on newer
 * kernels): the kernel's recovery action for a hardware-poisoned page.
 */
#ifndef RAS_MEMFAIL_H
#define RAS_MEMFAIL_H

#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

#define MEMFAIL_SYM_MAX 48
/*
 * The names of the event's __print_symbolic tables (MF_MSG_* and MF_* in
 * include/ras/ras_event.h), read from the running kernel's format: the
 * longest, "different compound page after locking", is 37 bytes.
 */
#define MEMFAIL_SYM_LEN 48

struct memfail_sym {
	int64_t value;
	char name[MEMFAIL_SYM_LEN];
};

/*
 * The page-type and result names of one kernel, read from the event's
 * print fmt. The MF_MSG_* numbering changes between kernel versions, so the
 * names must come from the running kernel's format file.
 */
struct memfail_symtab {
	size_t n_types, n_results;
	struct memfail_sym types[MEMFAIL_SYM_MAX];
	struct memfail_sym results[8];
};

/*
 * Reads the two __print_symbolic() lists of the event's print fmt
 * ("REC->type" and "REC->result"). Entries whose value is still a symbol
 * rather than a number are skipped. Returns 0, or -ENOENT if the type list
 * is missing, -EINVAL on bad arguments.
 */
int memfail_symtab_parse(const char *print_fmt, size_t len, struct memfail_symtab *out);

struct memfail_in {
	uint64_t pfn;
	int32_t type;      /* enum mf_action_page_type (MF_MSG_*) */
	int32_t result;    /* enum mf_result (MF_IGNORED ...) */
	const struct memfail_symtab *symtab;   /* may be NULL: types stay numbers */
};

struct memfail_decoded {
	RAS_DECODED_HEAD;
	int64_t pfn;
	int64_t type;
	char type_name[MEMFAIL_SYM_LEN];
	int64_t result;
	char result_name[MEMFAIL_SYM_LEN];
};
RAS_DECODED_CHECK(struct memfail_decoded);

extern const struct ras_dfield memfail_dfields[];
extern const size_t memfail_n_dfields;

int memfail_decode(const struct memfail_in *in, struct memfail_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in memfail_dfields alone (pure). Always NUL-terminates buf.
 */
void memfail_render(const struct memfail_decoded *d, char *buf, size_t len);

#endif
