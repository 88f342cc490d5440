/* SPDX-License-Identifier: MIT */
/*
 * The kernel's IPMI device (ipmi_devintf: /dev/ipmi0) as a bmc_transport
 * (bmc_transport.h) for one command, Add SEL Entry (NetFn Storage 0Ah,
 * command 44h), sent to the BMC at the system interface address:
 * IPMICTL_SEND_COMMAND, and IPMICTL_RECEIVE_MSG_TRUNC once the fd is
 * readable (the ioctl never blocks: an empty queue is EAGAIN).
 */
#ifndef RASD_BMC_IPMI_H
#define RASD_BMC_IPMI_H

#include <stddef.h>
#include "bmc_transport.h"

#define BMC_IPMI_NETFN_STORAGE 0x0a
#define BMC_IPMI_CMD_ADD_SEL_ENTRY 0x44

/*
 * Opens path, or with an empty path the first of the names the kernel's
 * devintf gets (/dev/ipmi0, /dev/ipmi/0, /dev/ipmidev/0); O_CLOEXEC, a
 * character device only. 0 and *out, or -ENOENT when there is none, or
 * -errno. *used names the file tried last. out->ops->close frees it.
 */
int bmc_ipmi_open(const char *path, struct bmc_transport *out, char *used, size_t used_len);

#endif
