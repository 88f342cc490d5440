/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include "netdev.h"
#include "other_util.h"

const struct ras_dfield netdev_dfields[] = {
	RAS_DF_S(struct netdev_decoded, name),
	RAS_DF_S(struct netdev_decoded, driver),
	RAS_DF_I(struct netdev_decoded, queue_index),
};
const size_t netdev_n_dfields = OU_ARRAY_SIZE(netdev_dfields);

int netdev_decode(const struct netdev_in *in, struct netdev_decoded *out)
{
	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), netdev_dfields, netdev_n_dfields);
	if (!in)
		return -EINVAL;
	ou_copy(out->name, sizeof(out->name), in->name, in->name_len);
	ou_copy(out->driver, sizeof(out->driver), in->driver, in->driver_len);
	out->queue_index = in->queue_index;
	/* Not corrected by the hardware: the device stopped sending; its driver recovers it. */
	out->severity = RAS_SEV_UNCORRECTED;
	snprintf(out->location, sizeof(out->location), "net %s%s%s%s",
		 out->name[0] ? out->name : "(unnamed)", out->driver[0] ? " (" : "", out->driver,
		 out->driver[0] ? ")" : "");
	return 0;
}

/* The names restate raw tracepoint text: filtered again as decoding did. */
void netdev_render(const struct netdev_decoded *d, char *buf, size_t len)
{
	char name[sizeof(d->name)], driver[sizeof(d->driver)];

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || d->queue_index == RAS_DF_NONE)
		return;
	ou_copy(name, sizeof(name), d->name, sizeof(d->name));
	ou_copy(driver, sizeof(driver), d->driver, sizeof(d->driver));
	snprintf(buf, len, "Network device %s%s%s%s: transmit queue %lld timed out and the driver "
		 "was asked to recover it (usually a reset of the NIC); repeated timeouts point at the "
		 "NIC, its firmware or driver, or the link", name[0] ? name : "(unnamed)",
		 driver[0] ? " (driver " : "", driver, driver[0] ? ")" : "", (long long)d->queue_index);
}
