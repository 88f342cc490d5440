/* SPDX-License-Identifier: MIT */
/* Add SEL Entry through /dev/ipmi0 (bmc_ipmi.h). */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <linux/ipmi.h>
#include "bmc_ipmi.h"

struct bmc_ipmi {
	int fd;
	long next_msgid;
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

int bmc_ipmi_open(const char *path, struct bmc_ipmi **out, char *used, size_t used_len)
{
	int fd = -ENOENT;

	*out = NULL;
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
	if (!(*out = calloc(1, sizeof(**out)))) {
		close(fd);
		return -ENOMEM;
	}
	(*out)->fd = fd;
	(*out)->next_msgid = 1;
	return 0;
}

static int64_t mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Waits for the response to msgid; responses to earlier, timed-out requests are dropped. */
static int receive(struct bmc_ipmi *b, long msgid, uint8_t *data, unsigned *len, int timeout_ms)
{
	int64_t deadline = mono_ms() + timeout_ms;

	for (;;) {
		struct pollfd p = { .fd = b->fd, .events = POLLIN };
		struct ipmi_system_interface_addr addr;
		struct ipmi_recv recv = { .addr = (unsigned char *)&addr, .addr_len = sizeof(addr),
					  .msg = { .data = data, .data_len = (unsigned short)*len } };
		int64_t left = deadline - mono_ms();
		int r;

		if (left <= 0)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -ETIMEDOUT;
		/* TRUNC: a longer response than ours is cut, not left in the queue. */
		if (ioctl(b->fd, IPMICTL_RECEIVE_MSG_TRUNC, &recv) < 0 && errno != EMSGSIZE) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return -errno;
		}
		if (recv.recv_type != IPMI_RESPONSE_RECV_TYPE || recv.msgid != msgid)
			continue;
		*len = recv.msg.data_len;
		return 0;
	}
}

int bmc_ipmi_add_sel(struct bmc_ipmi *b, const uint8_t entry[BMC_SEL_ENTRY_LEN],
		     uint16_t *record_id, int timeout_ms)
{
	struct ipmi_system_interface_addr addr = {
		.addr_type = IPMI_SYSTEM_INTERFACE_ADDR_TYPE, .channel = IPMI_BMC_CHANNEL, .lun = 0,
	};
	uint8_t req[BMC_SEL_ENTRY_LEN], resp[16];
	unsigned len = sizeof(resp);
	long msgid = b->next_msgid++;
	struct ipmi_req r = {
		.addr = (unsigned char *)&addr, .addr_len = sizeof(addr), .msgid = msgid,
		.msg = { .netfn = BMC_IPMI_NETFN_STORAGE, .cmd = BMC_IPMI_CMD_ADD_SEL_ENTRY,
			 .data_len = BMC_SEL_ENTRY_LEN, .data = req },
	};
	int rc;

	memcpy(req, entry, sizeof(req));
	if (ioctl(b->fd, IPMICTL_SEND_COMMAND, &r) < 0)
		return -errno;
	if ((rc = receive(b, msgid, resp, &len, timeout_ms)) < 0)
		return rc;
	/* Byte 1 the completion code; on success bytes 2-3 the record ID, LS byte first. */
	if (len < 1)
		return -EPROTO;
	if (resp[0])
		return resp[0];
	if (len < 3)
		return -EPROTO;
	*record_id = (uint16_t)(resp[1] | resp[2] << 8);
	return 0;
}

void bmc_ipmi_close(struct bmc_ipmi *b)
{
	if (!b)
		return;
	close(b->fd);
	free(b);
}
