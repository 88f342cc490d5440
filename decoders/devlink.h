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

/*
 * The longest text of devlink:devlink_health_report, NUL included
 * (include/trace/events/devlink.h, all __string). bus_name, dev_name and
 * driver_name are sysfs directory names (/sys/bus/NAME, /sys/devices/.../NAME,
 * /sys/bus/X/drivers/NAME), at most NAME_MAX 255 bytes
 * (include/uapi/linux/limits.h). reporter_name is a driver's literal ("fw",
 * "tx", "fw_fatal"), held as long as a name. msg: the longest a driver builds
 * is mlx5's, in MLX5E_REPORTER_PER_Q_MAX_LEN 256 bytes
 * (drivers/net/ethernet/mellanox/mlx5/core/en/health.h); the others pass literals.
 */
#define DEVLINK_NAME_MAX 256
#define DEVLINK_MSG_MAX 256

struct devlink_decoded {
	RAS_DECODED_HEAD;
	char bus_name[DEVLINK_NAME_MAX];
	char dev_name[DEVLINK_NAME_MAX];
	char driver_name[DEVLINK_NAME_MAX];
	char reporter_name[DEVLINK_NAME_MAX];
	char msg[DEVLINK_MSG_MAX];
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
