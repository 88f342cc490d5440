/* SPDX-License-Identifier: MIT */
/*
 * signal:signal_generate as rasd records it: a SIGBUS with BUS_MCEERR_AR
 * (the process consumed poisoned memory) or BUS_MCEERR_AO (poisoned memory
 * was taken out of its address space), sent by the kernel's memory-failure
 * handling. Records of other signals (rasdaemon's imported rows) decode as
 * information.
 */
#ifndef RAS_SIGBUS_H
#define RAS_SIGBUS_H

#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

/* si_code of a memory-failure SIGBUS: include/uapi/asm-generic/siginfo.h. */
#define SIGBUS_MCEERR_AR 4
#define SIGBUS_MCEERR_AO 5

struct sigbus_in {
	int32_t sig;             /* the signal number of this machine's architecture */
	int32_t err;             /* the tracepoint's errno: info->si_errno */
	int32_t code;            /* info->si_code */
	const char *comm;        /* char[16] of the target task, not necessarily NUL-terminated */
	size_t comm_len;
	int32_t pid;             /* the target task */
	int32_t group;           /* 1: sent to the whole thread group */
	int32_t result;          /* enum trace_signal_result */
};

struct sigbus_decoded {
	RAS_DECODED_HEAD;
	int64_t sig;
	char sig_name[12];       /* "SIGBUS", or "signal 42" */
	int64_t code;
	char code_name[24];      /* "BUS_MCEERR_AR", or "code 3" */
	char comm[20];
	int64_t pid;
	int64_t result;
	char result_name[24];    /* "delivered", "ignored", ... */
};
RAS_DECODED_CHECK(struct sigbus_decoded);

extern const struct ras_dfield sigbus_dfields[];
extern const size_t sigbus_n_dfields;

int sigbus_decode(const struct sigbus_in *in, struct sigbus_decoded *out);

/*
 * The memory failure a SIGBUS is linked to (the one of the same boot closest
 * in time, db/db_link.c), for the sentence: pfn RAS_DF_NONE when there is
 * none. The strings are the stored decoding's page type and recovery result.
 */
struct sigbus_link {
	int64_t pfn;
	const char *page_type;
	const char *recovery;
	int64_t delta_ns;        /* the memory failure's time less the signal's */
};

/*
 * The one-sentence description of d, built from d->head and the members
 * listed in sigbus_dfields alone (pure). Always NUL-terminates buf.
 */
void sigbus_render(const struct sigbus_decoded *d, char *buf, size_t len);
/* The same with the linked memory failure's page (link may be NULL: none known). */
void sigbus_render_linked(const struct sigbus_decoded *d, const struct sigbus_link *link,
			  char *buf, size_t len);

#endif
