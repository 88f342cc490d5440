/* SPDX-License-Identifier: MIT */
/* devlink:devlink_health_report: a driver's health reporter fired. */
#ifndef RAS_DEVLINK_H
#define RAS_DEVLINK_H

#include <stddef.h>
#include "severity.h"
#include "dfield.h"

struct devlink_in {
	const char *bus_name;       /* strings: not necessarily NUL-terminated */
	size_t bus_name_len;
	const char *dev_name;
	size_t dev_name_len;
	const char *driver_name;
	size_t driver_name_len;
	const char *reporter_name;
	size_t reporter_name_len;
	const char *msg;
	size_t msg_len;
};

struct devlink_decoded {
	RAS_DECODED_HEAD;
	char bus_name[32];
	char dev_name[64];
	char driver_name[64];
	char reporter_name[64];
	char msg[192];
};
RAS_DECODED_CHECK(struct devlink_decoded);

extern const struct ras_dfield devlink_dfields[];
extern const size_t devlink_n_dfields;

int devlink_decode(const struct devlink_in *in, struct devlink_decoded *out);
/*
 * The one-sentence description of d, built from d->head and the members
 * listed in devlink_dfields alone (pure). Always NUL-terminates buf.
 */
void devlink_render(const struct devlink_decoded *d, char *buf, size_t len);

#endif
