/* SPDX-License-Identifier: MIT */
/* Add SEL Entry through /dev/ipmi0 (bmc_ipmi.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/ipmi.h>
#include "bmc_ipmi.h"

struct bmc_ipmi {
	int fd;
};

/* The names ipmi_devintf's node gets: plain /dev, devfs-style, udev's older rule. */
static const char *const device_names[] = { "/dev/ipmi0", "/dev/ipmi/0", "/dev/ipmidev/0" };

static int open_one(const char *path)
{
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode)) {
		close(fd);
		return -ENODEV;
	}
	return fd;
}

static const struct bmc_transport_ops ipmi_ops;

int bmc_ipmi_open(const char *path, struct bmc_transport *out, char *used, size_t used_len)
{
	struct bmc_ipmi *b;
	int fd = -ENOENT;

	*out = (struct bmc_transport){ 0 };
	if (path && *path) {
		snprintf(used, used_len, "%s", path);
		fd = open_one(path);
	} else {
		for (size_t i = 0; i < sizeof(device_names) / sizeof(device_names[0]); i++) {
			snprintf(used, used_len, "%s", device_names[i]);
			fd = open_one(device_names[i]);
			if (fd != -ENOENT)
				break;
		}
		if (fd == -ENOENT)
			snprintf(used, used_len, "/dev/ipmi0");
	}
	if (fd < 0)
		return fd;
	if (!(b = calloc(1, sizeof(*b)))) {
		close(fd);
		return -ENOMEM;
	}
	b->fd = fd;
	*out = (struct bmc_transport){ .ops = &ipmi_ops, .ctx = b };
	return 0;
}

static int ipmi_send(void *ctx, long msgid, const uint8_t entry[BMC_SEL_ENTRY_LEN])
{
	struct bmc_ipmi *b = ctx;
	struct ipmi_system_interface_addr addr = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE, .channel = IPMI_BMC_CHANNEL, .lun = 0,
	};
	uint8_t req[BMC_SEL_ENTRY_LEN];
	struct ipmi_req r = {
		.addr = (unsigned char *)&addr, .addr_len = sizeof(addr), .msgid = msgid,
		.msg = { .netfn = BMC_IPMI_NETFN_STORAGE, .cmd = BMC_IPMI_CMD_ADD_SEL_ENTRY,
			 .data_len = BMC_SEL_ENTRY_LEN, .data = req },
	};

	memcpy(req, entry, sizeof(req));
	return ioctl(b->fd, IPMICTL_SEND_COMMAND, &r) < 0 ? -errno : 0;
}

static int ipmi_receive(void *ctx, struct bmc_response *resp)
{
	struct bmc_ipmi *b = ctx;
	struct ipmi_system_interface_addr addr;
	uint8_t data[16];
	struct ipmi_recv recv = { .addr = (unsigned char *)&addr, .addr_len = sizeof(addr),
				  .msg = { .data = data, .data_len = sizeof(data) } };

	/* TRUNC: a longer response than ours is cut, not left in the queue. */
	if (ioctl(b->fd, IPMICTL_RECEIVE_MSG_TRUNC, &recv) < 0 && errno != EMSGSIZE)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	/* Events and commands addressed to us are not ours to answer: taken off, left. */
	if (recv.recv_type != IPMI_RESPONSE_RECV_TYPE)
		return 0;
	resp->msgid = recv.msgid;
	resp->record_id = 0;
	/* Byte 1 the completion code; on success bytes 2-3 the record ID, LS byte first. */
	if (recv.msg.data_len < 1)
		resp->code = -EPROTO;
	else if (data[0])
		resp->code = data[0];
	else if (recv.msg.data_len < 3)
		resp->code = -EPROTO;
	else {
		resp->code = 0;
		resp->record_id = (uint16_t)(data[1] | data[2] << 8);
	}
	return 1;
}

static int ipmi_fd(void *ctx)
{
	return ((struct bmc_ipmi *)ctx)->fd;
}

static void ipmi_close(void *ctx)
{
	struct bmc_ipmi *b = ctx;

	close(b->fd);
	free(b);
}

static const struct bmc_transport_ops ipmi_ops = {
	.send = ipmi_send, .receive = ipmi_receive, .fd = ipmi_fd, .close = ipmi_close,
};
