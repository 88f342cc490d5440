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

static const char *reporter_advice(const char *reporter, enum ras_severity *severity)
{
	for (size_t i = 0; i < OU_ARRAY_SIZE(reporters); i++) {
		if (strcmp(reporter, reporters[i].reporter) == 0) {
			if (severity)
				*severity = reporters[i].severity;
			return reporters[i].advice;
		}
	}
	return NULL;
}

/* "bus/device"; a place name too long for the location ends "..." there (the sentence has it whole). */
static void where(const char *bus, const char *dev, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s%s%s", bus, bus[0] ? "/" : "", dev[0] ? dev : "unknown device");

	if (n >= 0 && (size_t)n >= len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

int devlink_decode(const struct devlink_in *in, struct devlink_decoded *out)
{
	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), devlink_dfields, devlink_n_dfields);
	if (!in)
		return -EINVAL;
	ou_copy(out->bus_name, sizeof(out->bus_name), in->bus_name, in->bus_name_len);
	ou_copy(out->dev_name, sizeof(out->dev_name), in->dev_name, in->dev_name_len);
	ou_copy(out->driver_name, sizeof(out->driver_name), in->driver_name, in->driver_name_len);
	ou_copy(out->reporter_name, sizeof(out->reporter_name), in->reporter_name,
		in->reporter_name_len);
	ou_copy(out->msg, sizeof(out->msg), in->msg, in->msg_len);
	out->severity = RAS_SEV_UNKNOWN;
	reporter_advice(out->reporter_name, &out->severity);
	where(out->bus_name, out->dev_name, out->location, sizeof(out->location));
	return 0;
}

/*
 * Every member restates raw tracepoint text, so a struct rebuilt from a
 * database may hold it unfiltered: filtered again as decoding did.
 */
void devlink_render(const struct devlink_decoded *d, char *buf, size_t len)
{
	char driver[sizeof(d->driver_name)], reporter[sizeof(d->reporter_name)];
	char msg[sizeof(d->msg)], bus[sizeof(d->bus_name)], dev[sizeof(d->dev_name)];
	char on[sizeof(bus) + sizeof(dev) + 16];
	const char *advice;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || !d->location[0])
		return;
	ou_copy(driver, sizeof(driver), d->driver_name, sizeof(d->driver_name));
	ou_copy(reporter, sizeof(reporter), d->reporter_name, sizeof(d->reporter_name));
	ou_copy(msg, sizeof(msg), d->msg, sizeof(d->msg));
	ou_copy(bus, sizeof(bus), d->bus_name, sizeof(d->bus_name));
	ou_copy(dev, sizeof(dev), d->dev_name, sizeof(d->dev_name));
	/* The names whole, not the location (which may end "..."). */
	where(bus, dev, on, sizeof(on));
	advice = reporter_advice(reporter, NULL);
	snprintf(buf, len, "Driver %s reported a health problem on %s (reporter %s)",
		 driver[0] ? driver : "(unknown)", on, reporter[0] ? reporter : "(unnamed)");
	if (msg[0])
		ou_appendf(buf, len, ": %s", msg);
	if (advice)
		ou_appendf(buf, len, "; %s", advice);
}
