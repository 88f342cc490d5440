/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blockerr.h"
#include "other_util.h"

const struct ras_dfield blockerr_dfields[] = {
	RAS_DF_I(struct blockerr_decoded, major),
	RAS_DF_I(struct blockerr_decoded, minor),
	RAS_DF_S(struct blockerr_decoded, disk_name),
	RAS_DF_U(struct blockerr_decoded, sector),
	RAS_DF_I(struct blockerr_decoded, nr_sector),
	RAS_DF_I(struct blockerr_decoded, error),
	RAS_DF_S(struct blockerr_decoded, status_name),
	RAS_DF_S(struct blockerr_decoded, rwbs),
	RAS_DF_S(struct blockerr_decoded, operation),
	RAS_DF_I(struct blockerr_decoded, ioprio),
	RAS_DF_S(struct blockerr_decoded, ioprio_class),
	RAS_DF_S(struct blockerr_decoded, cmd),
};
const size_t blockerr_n_dfields = OU_ARRAY_SIZE(blockerr_dfields);

/*
 * Linux block/blk-core.c blk_errors[]: the errno each blk_status_t maps to
 * and its name (include/linux/blk_types.h BLK_STS_*). -EBADE was "critical
 * nexus" (BLK_STS_NEXUS) before it became BLK_STS_RESV_CONFLICT in 6.5.
 * Severity and advice are ours: statuses about kernel resources or retries
 * are informational, the rest mean the request failed.
 */
static const struct {
	int error;
	const char *name;
	enum ras_severity severity;
	const char *advice;
} blk_statuses[] = {
	{ -EOPNOTSUPP, "operation not supported", RAS_SEV_INFO, NULL },
	{ -ETIMEDOUT, "timeout", RAS_SEV_UNCORRECTED, "the device did not answer; check the drive, cable and controller" },
	{ -ENOSPC, "critical space allocation", RAS_SEV_UNCORRECTED, "the thin-provisioned target ran out of space" },
	{ -ENOLINK, "recoverable transport", RAS_SEV_UNCORRECTED, "a path or link failed; check cabling and multipath" },
	{ -EREMOTEIO, "critical target", RAS_SEV_UNCORRECTED, "the target device reported a failure" },
	{ -EBADE, "reservation conflict", RAS_SEV_UNCORRECTED, "another host holds a reservation on the device" },
	{ -ENODATA, "critical medium", RAS_SEV_UNCORRECTED, "the medium has unreadable sectors; check SMART data and plan to replace the drive" },
	{ -EILSEQ, "protection", RAS_SEV_UNCORRECTED, "end-to-end data protection check failed" },
	{ -ENOMEM, "kernel resource", RAS_SEV_INFO, NULL },
	{ -EBUSY, "device resource", RAS_SEV_INFO, NULL },
	{ -EAGAIN, "nonblocking retry", RAS_SEV_INFO, NULL },
	{ -ENODEV, "device offline", RAS_SEV_UNCORRECTED, "the device went offline; check whether it is still present" },
	{ -EREMCHG, "dm internal retry", RAS_SEV_INFO, NULL },
	{ -ETOOMANYREFS, "open zones exceeded", RAS_SEV_INFO, NULL },
	{ -EOVERFLOW, "active zones exceeded", RAS_SEV_INFO, NULL },
	{ -ETIME, "duration limit exceeded", RAS_SEV_UNCORRECTED, "the device aborted a command over its duration limit" },
	{ -EINVAL, "invalid", RAS_SEV_INFO, NULL },
	{ -EIO, "I/O", RAS_SEV_UNCORRECTED, "the request failed; check the device's own error log" },
};

static int status_index(int error)
{
	if (error > 0)
		error = -error;   /* tolerate a positive errno */
	for (size_t i = 0; i < OU_ARRAY_SIZE(blk_statuses); i++)
		if (blk_statuses[i].error == error)
			return (int)i;
	return -1;
}

const char *blockerr_status_name(int error)
{
	int i = status_index(error);

	return i < 0 ? NULL : blk_statuses[i].name;
}

/* Leading rwbs letter after an optional 'F' (preflush); blktrace's fill_rwbs(). */
static const char *rwbs_operation(const char *rwbs)
{
	static const struct { char c; const char *op; } ops[] = {
		{ 'R', "read" }, { 'W', "write" }, { 'D', "discard" },
		{ 'E', "secure erase" }, { 'N', "no data" },
	};
	const char *p = rwbs;

	if (p[0] == 'F' && p[1])
		p++;
	for (size_t i = 0; i < OU_ARRAY_SIZE(ops); i++)
		if (*p == ops[i].c)
			return ops[i].op;
	return rwbs[0] == 'F' ? "flush" : "";
}

static void fill_fields(const struct blockerr_in *in, struct blockerr_decoded *out)
{
	static const char *const classes[] = { "none", "rt", "be", "idle", "invalid" };
	unsigned cls;

	out->major = in->dev >> 20;
	out->minor = in->dev & 0xfffff;
	ou_copy(out->disk_name, sizeof(out->disk_name), in->disk_name, in->disk_name_len);
	out->sector = (int64_t)in->sector;
	out->nr_sector = in->nr_sector;
	out->error = in->error;
	ou_copy(out->rwbs, sizeof(out->rwbs), in->rwbs, in->rwbs_len);
	snprintf(out->operation, sizeof(out->operation), "%s", rwbs_operation(out->rwbs));
	ou_copy(out->cmd, sizeof(out->cmd), in->cmd, in->cmd_len);
	if (in->has_ioprio) {
		out->ioprio = in->ioprio;
		/* IOPRIO_PRIO_CLASS(): bits 15:13 (include/uapi/linux/ioprio.h). */
		cls = (in->ioprio >> 13) & 7;
		if (cls < OU_ARRAY_SIZE(classes))
			snprintf(out->ioprio_class, sizeof(out->ioprio_class), "%s", classes[cls]);
	}
}

static bool command_only(const struct blockerr_decoded *d)
{
	return !strcmp(d->operation, "no data") && d->nr_sector == 0;
}

int blockerr_decode(const struct blockerr_in *in, struct blockerr_decoded *out)
{
	int i;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), blockerr_dfields, blockerr_n_dfields);
	if (!in)
		return -EINVAL;
	fill_fields(in, out);
	i = status_index(in->error);
	if (i >= 0) {
		snprintf(out->status_name, sizeof(out->status_name), "%s error", blk_statuses[i].name);
		out->severity = blk_statuses[i].severity;
	} else {
		snprintf(out->status_name, sizeof(out->status_name), "error %d", in->error);
		out->severity = RAS_SEV_UNKNOWN;
	}
	/*
	 * No data and none of read, write, discard, secure erase or flush: a
	 * pass-through command (the SCSI or NVMe commands device probing sends)
	 * or a management one. block_rq_error leaves pass-through requests out
	 * (block/blk-mq.c blk_update_request(): !blk_rq_is_passthrough); its
	 * stand-in block_rq_complete cannot tell them apart (seen under QEMU:
	 * a scsi_debug disk's probe, op N, 0 sectors, -EIO), so such a failure
	 * is information, not a failed read or write.
	 */
	if (command_only(out) && out->severity > RAS_SEV_INFO)
		out->severity = RAS_SEV_INFO;
	snprintf(out->location, sizeof(out->location), "block %s%s%lld:%lld%s",
		 out->disk_name, out->disk_name[0] ? " (" : "", (long long)out->major,
		 (long long)out->minor, out->disk_name[0] ? ")" : "");
	return 0;
}

/* rwbs and cmd restate raw tracepoint text: filtered again as decoding did. */
void blockerr_render(const struct blockerr_decoded *d, char *buf, size_t len)
{
	static const char prefix[] = "block ";
	char rwbs[sizeof(d->rwbs)], cmd[sizeof(d->cmd)];
	const char *where;
	int i;

	if (!buf || !len)
		return;
	buf[0] = '\0';
	/* Nothing known (no record): the caller says it could not be decoded. */
	if (!d || !d->status_name[0] || d->error == RAS_DF_NONE)
		return;
	where = strncmp(d->location, prefix, sizeof(prefix) - 1) ? d->location
								 : d->location + sizeof(prefix) - 1;
	snprintf(buf, len, "%s on %s", d->status_name, where);
	buf[0] = (char)toupper((unsigned char)buf[0]);
	if (command_only(d))
		ou_append(buf, len, ", a command without data");
	else
		ou_appendf(buf, len, ", %s%s%u sectors at sector %llu",
			   d->operation, d->operation[0] ? " of " : "", (unsigned)d->nr_sector,
			   (unsigned long long)d->sector);
	ou_copy(rwbs, sizeof(rwbs), d->rwbs, sizeof(d->rwbs));
	if (rwbs[0])
		ou_appendf(buf, len, " (%s)", rwbs);
	/* Empty from every kernel so far (block_rq_error sets it to ""); named should one fill it. */
	ou_copy(cmd, sizeof(cmd), d->cmd, sizeof(d->cmd));
	if (cmd[0])
		ou_appendf(buf, len, ", command %s", cmd);
	i = status_index((int)d->error);
	if (command_only(d))
		ou_append(buf, len, "; a pass-through or management command failed (device probing "
			  "sends such commands), no read or write");
	else if (i >= 0 && blk_statuses[i].advice)
		ou_appendf(buf, len, "; %s", blk_statuses[i].advice);
}
