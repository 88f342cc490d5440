/* SPDX-License-Identifier: MIT */
/*
 * net:net_dev_xmit_timeout: the kernel's transmit watchdog found a queue of a
 * network device stopped for longer than the device's timeout
 * (net/sched/sch_generic.c dev_watchdog()), and asked its driver to recover
 * (ndo_tx_timeout, usually a reset of the NIC).
 */
#ifndef RAS_NETDEV_H
#define RAS_NETDEV_H

#include <stddef.h>
#include <stdint.h>
#include "severity.h"
#include "dfield.h"

struct netdev_in {
	const char *name;        /* strings: not necessarily NUL-terminated */
	size_t name_len;
	const char *driver;      /* the driver of the device's parent; "" for a device without one */
	size_t driver_len;
	int32_t queue_index;
};

struct netdev_decoded {
	RAS_DECODED_HEAD;
	char name[32];        /* IFNAMSIZ is 16 */
	/*
	 * A driver's name has no bound but its sysfs directory's
	 * (/sys/bus/BUS/drivers/NAME): NAME_MAX 255, and the NUL.
	 */
	char driver[256];
	int64_t queue_index;
};
RAS_DECODED_CHECK(struct netdev_decoded);

extern const struct ras_dfield netdev_dfields[];
extern const size_t netdev_n_dfields;

int netdev_decode(const struct netdev_in *in, struct netdev_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in netdev_dfields alone (pure). Always NUL-terminates buf.
 */
void netdev_render(const struct netdev_decoded *d, char *buf, size_t len);

#endif
