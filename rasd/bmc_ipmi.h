/* SPDX-License-Identifier: MIT */
/*
 * The kernel's IPMI device (ipmi_devintf: /dev/ipmi0) as a transport for one
 * command, Add SEL Entry (NetFn Storage 0Ah, command 44h), sent to the BMC
 * at the system interface address: IPMICTL_SEND_COMMAND, then poll and
 * IPMICTL_RECEIVE_MSG_TRUNC for the response with our message id.
 */
#ifndef RASD_BMC_IPMI_H
#define RASD_BMC_IPMI_H

#include <stdint.h>
#include "bmc/sel_entry.h"

#define BMC_IPMI_NETFN_STORAGE 0x0a
#define BMC_IPMI_CMD_ADD_SEL_ENTRY 0x44

struct bmc_ipmi;

/*
 * Opens path, or with an empty path the first of the names the kernel's
 * devintf gets (/dev/ipmi0, /dev/ipmi/0, /dev/ipmidev/0); O_CLOEXEC, a
 * character device only. 0, or -ENOENT when there is none, or -errno.
 * *used names the file tried last.
 */
int bmc_ipmi_open(const char *path, struct bmc_ipmi **out, char *used, size_t used_len);
/*
 * Adds one entry. 0 and *record_id; a completion code (> 0) the BMC
 * answered; -ETIMEDOUT when no response came within timeout_ms; or -errno.
 */
int bmc_ipmi_add_sel(struct bmc_ipmi *b, const uint8_t entry[BMC_SEL_ENTRY_LEN],
		     uint16_t *record_id, int timeout_ms);
void bmc_ipmi_close(struct bmc_ipmi *b);

#endif
