/* SPDX-License-Identifier: MIT */
/*
 * The seam between the SEL policy (bmc_sel.c) and a BMC that answers later:
 * the kernel's IPMI device (bmc_ipmi.c) or a test's stand-in. A request is
 * sent and returns at once; its response is taken off fd when the event loop
 * sees it readable, matched to the request by its message id. Nothing here
 * waits.
 */
#ifndef RASD_BMC_TRANSPORT_H
#define RASD_BMC_TRANSPORT_H

#include <stdint.h>
#include "bmc/sel_entry.h"

/* One response to Add SEL Entry. */
struct bmc_response {
	long msgid;                   /* the request's */
	int code;                     /* IPMI's completion code (0: added), or -errno (-EPROTO: too short) */
	uint16_t record_id;           /* the BMC's, when code is 0 */
};

struct bmc_transport_ops {
	/* Sends Add SEL Entry with entry, tagged msgid: 0 or -errno. */
	int (*send)(void *ctx, long msgid, const uint8_t entry[BMC_SEL_ENTRY_LEN]);
	/* Takes one message off fd: 1 and *resp, 0 when none waits (or it was no response), or -errno. */
	int (*receive)(void *ctx, struct bmc_response *resp);
	/* What the event loop watches for responses. */
	int (*fd)(void *ctx);
	void (*close)(void *ctx);
};

struct bmc_transport {
	const struct bmc_transport_ops *ops;
	void *ctx;
};

#endif
