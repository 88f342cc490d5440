/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "devlink.h"
#include "other_util.h"

const struct ras_dfield devlink_dfields[] = {
	RAS_DF_S(struct devlink_decoded, bus_name),
	RAS_DF_S(struct devlink_decoded, dev_name),
	RAS_DF_S(struct devlink_decoded, driver_name),
	RAS_DF_S(struct devlink_decoded, reporter_name),
	RAS_DF_S(struct devlink_decoded, msg),
};
const size_t devlink_n_dfields = OU_ARRAY_SIZE(devlink_dfields);

/*
 * The event carries no severity. Reporter names are driver-defined; the
 * ones below are documented in the kernel's devlink-health and driver
 * documentation (Documentation/networking/devlink/). Others stay unknown.
 */
static const struct {
	const char *reporter;
	enum ras_severity severity;
	const char *advice;
} reporters[] = {
	{ "fw_fatal", RAS_SEV_FATAL, "device firmware hit a fatal error; the driver resets the device, update firmware or replace the card if it repeats" },
	{ "fw", RAS_SEV_UNKNOWN, "device firmware reported a problem; check firmware version" },
	{ "tx", RAS_SEV_UNKNOWN, "a transmit queue stalled or errored; the driver recovers the queue" },
	{ "rx", RAS_SEV_UNKNOWN, "a receive queue errored; the driver recovers the queue" },
};

int devlink_decode(const struct devlink_in *in, struct devlink_decoded *out)
{
	const char *advice = NULL;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), devlink_dfields, devlink_n_dfields);
	if (!in) {
		snprintf(out->summary, sizeof(out->summary), "Device health report with no data");
		return -EINVAL;
	}
	ou_copy(out->bus_name, sizeof(out->bus_name), in->bus_name, in->bus_name_len);
	ou_copy(out->dev_name, sizeof(out->dev_name), in->dev_name, in->dev_name_len);
	ou_copy(out->driver_name, sizeof(out->driver_name), in->driver_name, in->driver_name_len);
	ou_copy(out->reporter_name, sizeof(out->reporter_name), in->reporter_name,
		in->reporter_name_len);
	ou_copy(out->msg, sizeof(out->msg), in->msg, in->msg_len);
	out->severity = RAS_SEV_UNKNOWN;
	for (size_t i = 0; i < OU_ARRAY_SIZE(reporters); i++) {
		if (strcmp(out->reporter_name, reporters[i].reporter) == 0) {
			out->severity = reporters[i].severity;
			advice = reporters[i].advice;
			break;
		}
	}
	snprintf(out->location, sizeof(out->location), "%s%s%s",
		 out->bus_name, out->bus_name[0] ? "/" : "",
		 out->dev_name[0] ? out->dev_name : "unknown device");
	snprintf(out->summary, sizeof(out->summary),
		 "Driver %s reported a health problem on %s (reporter %s)",
		 out->driver_name[0] ? out->driver_name : "(unknown)", out->location,
		 out->reporter_name[0] ? out->reporter_name : "(unnamed)");
	if (out->msg[0])
		ou_appendf(out->summary, sizeof(out->summary), ": %s", out->msg);
	if (advice)
		ou_appendf(out->summary, sizeof(out->summary), "; %s", advice);
	return 0;
}
