/* SPDX-License-Identifier: MIT */
/*
 * The BMC answers late (rasd/bmc_sel.c over rasd/bmc_transport.h): a fake
 * IPMI device on a socketpair, whose BMC end is this test. Entries are sent
 * and the calls return at once, so rasd's loop goes on reading records while
 * the BMC thinks; an answer makes the fd readable in epoll and becomes its
 * row (done with the record ID, failed with the completion code), matched by
 * message id even out of order; a request past its deadline (a test clock:
 * nothing here depends on the machine's clock or speed) fails as timed out
 * and its late answer is ignored; past the in-flight requests and the queue
 * an entry is dropped with a row that says so; at the stop what is
 * unanswered fails as cancelled.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include "db/db.h"
#include "db/db_actions.h"
#include "decoders/dfield.h"
#include "lib/config.h"
#include "lib/event_table.h"
#include "rasd/bmc_sel.h"
#include "tests/tap.h"
#include "tests/test_util.h"

#define SEC 1000000000LL
#define TAG 7

/* On the wire between the fake device and the fake BMC. */
struct wire_req {
	long msgid;
	uint8_t entry[BMC_SEL_ENTRY_LEN];
};

struct wire_resp {
	long msgid;
	int code;
	uint16_t record_id;
};

static int sock[2];   /* [0] rasd's end (the device), [1] the BMC's */
static int64_t fake_now = 1000 * SEC;

static int64_t fake_clock(void)
{
	return fake_now;
}

static int fake_send(void *ctx, long msgid, const uint8_t entry[BMC_SEL_ENTRY_LEN])
{
	struct wire_req r = { .msgid = msgid };

	(void)ctx;
	memcpy(r.entry, entry, BMC_SEL_ENTRY_LEN);
	return send(sock[0], &r, sizeof(r), MSG_DONTWAIT) == (ssize_t)sizeof(r) ? 0 : -errno;
}

static int fake_receive(void *ctx, struct bmc_response *resp)
{
	struct wire_resp w;
	ssize_t n = recv(sock[0], &w, sizeof(w), MSG_DONTWAIT);

	(void)ctx;
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n != (ssize_t)sizeof(w))
		return -EPROTO;
	*resp = (struct bmc_response){ .msgid = w.msgid, .code = w.code, .record_id = w.record_id };
	return 1;
}

static int fake_fd(void *ctx)
{
	(void)ctx;
	return sock[0];
}

static void fake_close(void *ctx)
{
	(void)ctx;
	close(sock[0]);
	sock[0] = -1;
}

static const struct bmc_transport_ops fake_ops = {
	.send = fake_send, .receive = fake_receive, .fd = fake_fd, .close = fake_close,
};

/* The BMC reads the requests sent to it so far: how many, their ids in *ids. */
static unsigned bmc_take(long *ids, unsigned max)
{
	struct wire_req r;
	unsigned n = 0;

	while (recv(sock[1], &r, sizeof(r), MSG_DONTWAIT) == (ssize_t)sizeof(r))
		if (n < max)
			ids[n++] = r.msgid;
	return n;
}

static void bmc_answer(long msgid, int code, uint16_t id)
{
	struct wire_resp w = { .msgid = msgid, .code = code, .record_id = id };

	if (send(sock[1], &w, sizeof(w), 0) != (ssize_t)sizeof(w))
		tap_ok(0, "the fake BMC answers");
}

/* Whether the loop would wake for the device now (and with its tag). */
static int readable(int epfd)
{
	struct epoll_event ev;
	int n = epoll_wait(epfd, &ev, 1, 0);

	return n == 1 && ev.data.u64 == TAG;
}

struct rows {
	struct ras_db_action a[64];
	unsigned n;
};

static int keep_row(void *ctx, const struct ras_db_action *act)
{
	struct rows *r = ctx;

	if (r->n < 64)
		r->a[r->n++] = *act;
	return 0;
}

/* The row of the record row_id with result, or NULL. */
static const struct ras_db_action *row_of(struct ras_db *db, struct rows *r, int64_t row_id)
{
	r->n = 0;
	ras_db_action_list(db, 0, keep_row, r);
	for (unsigned i = 0; i < r->n; i++)
		if (r->a[i].event_id == row_id)
			return &r->a[i];
	return NULL;
}

static unsigned count_result(struct ras_db *db, struct rows *r, const char *result, int err)
{
	unsigned n = 0;

	r->n = 0;
	ras_db_action_list(db, 0, keep_row, r);
	for (unsigned i = 0; i < r->n; i++)
		if (!strcmp(r->a[i].result, result) && r->a[i].error == err)
			n += (unsigned)r->a[i].repeats;
	return n;
}

static void record(struct rasd_bmc_sel *s, struct ras_db_actions *dba, int64_t row_id)
{
	struct ras_decoded_head h = { .severity = RAS_SEV_UNCORRECTED };
	struct ras_db_event ev = { .wall_ns = (1700000000 + row_id) * SEC };

	snprintf(h.location, sizeof(h.location), "mc0 DIMM_A1");
	rasd_bmc_sel_record(s, dba, ras_event_type_find("mc_event"), &h, &ev, row_id);
}

static void expect_row(struct ras_db *db, int64_t row_id, const char *result, int err,
		       const char *target_part, const char *what)
{
	struct rows r;
	const struct ras_db_action *a = row_of(db, &r, row_id);

	tap_ok(a && !strcmp(a->result, result) && a->error == err &&
	       strstr(a->target, target_part), "%s: %s %d %s", what, a ? a->result : "no row",
	       a ? a->error : 0, a ? a->target : "");
}

static struct rasd_bmc_sel *open_sel(struct rasd_config *cfg, int epfd, const char *limit)
{
	struct bmc_transport t = { .ops = &fake_ops };
	struct rasd_bmc_sel *s;

	cfg->bmc_sel = true;
	snprintf(cfg->bmc_sel_device, sizeof(cfg->bmc_sel_device), "/nonexistent/ipmi0");
	snprintf(cfg->bmc_sel_limit, sizeof(cfg->bmc_sel_limit), "%s", limit);
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sock) < 0 ||
	    rasd_bmc_sel_open(&s, cfg) < 0)
		return NULL;
	rasd_bmc_sel_set_clock(s, fake_clock);
	rasd_bmc_sel_watch(s, epfd, TAG);
	rasd_bmc_sel_set_device(s, &t, "fake ipmi");
	return s;
}

/* Answered late, out of order, with an error code, and not at all. */
static void test_late(struct rasd_config *cfg, struct ras_db *db, struct ras_db_actions *dba,
		      int epfd)
{
	struct rasd_bmc_sel *s = open_sel(cfg, epfd, "100/1h");
	long ids[8];
	struct rows r;

	if (!s) {
		tap_ok(0, "open");
		return;
	}
	record(s, dba, 101);
	record(s, dba, 102);
	record(s, dba, 103);
	tap_is_int(bmc_take(ids, 8), 3, "three records, three requests out: none waited for an answer");
	tap_ok(!row_of(db, &r, 101) && !row_of(db, &r, 103), "no outcome row before the answers");
	tap_ok(!readable(epfd), "nothing for the loop to read yet");
	tap_is_int(rasd_bmc_sel_timeout_ms(s), 5000, "the loop's timer is set to the deadline");

	bmc_answer(ids[1], 0xc4, 0);
	bmc_answer(ids[0], 0, 0x77);
	tap_ok(readable(epfd), "the answers make the device readable in the loop's epoll");
	tap_is_int(rasd_bmc_sel_handle(s, dba), 2, "two answers, two rows");
	tap_ok(!readable(epfd), "all taken off");
	expect_row(db, 101, "done", 0, "SEL record 0x0077: ", "answered second, matched by msgid");
	expect_row(db, 102, "failed", EIO, "completion code 0xc4 (out of space)",
		   "an error completion code");
	tap_ok(!row_of(db, &r, 103), "the third still waits for its answer");

	fake_now += 4999 * 1000000LL;
	tap_is_int(rasd_bmc_sel_expire(s, dba), 0, "before its deadline nothing expires");
	tap_is_int(rasd_bmc_sel_timeout_ms(s), 1, "one ms left");
	fake_now += 1000000LL;
	tap_is_int(rasd_bmc_sel_timeout_ms(s), 0, "the deadline passed");
	tap_is_int(rasd_bmc_sel_expire(s, dba), 1, "at its deadline it fails");
	expect_row(db, 103, "failed", ETIMEDOUT, "not added (", "timed out");
	tap_is_int(rasd_bmc_sel_timeout_ms(s), -1, "nothing out: no timer");
	bmc_answer(ids[2], 0, 0x78);
	tap_is_int(rasd_bmc_sel_handle(s, dba), 0, "its late answer makes no second row");
	expect_row(db, 103, "failed", ETIMEDOUT, "not added (", "the row stays timed out");

	record(s, dba, 104);
	tap_is_int(bmc_take(ids, 8), 0, "after a timeout the BMC is not asked again in the period");
	expect_row(db, 104, "rate-limited", 0, "", "the entry is rate-limited");
	tap_is_str(rasd_bmc_sel_state(s), "fake ipmi: written 1, failed 2, rate-limited 1",
		   "the state file's line");
	rasd_bmc_sel_close(s);
	close(sock[1]);
	fake_now += 3600 * SEC;
}

/* A BMC slower than the entries: four out, sixteen queued, the rest dropped, none silent. */
static void test_overflow(struct rasd_config *cfg, struct ras_db *db, struct ras_db_actions *dba,
			  int epfd)
{
	struct rasd_bmc_sel *s = open_sel(cfg, epfd, "100/1h");
	long ids[32];
	struct rows r;
	unsigned n;

	if (!s) {
		tap_ok(0, "open");
		return;
	}
	for (int64_t i = 0; i < 22; i++)
		record(s, dba, 200 + i);
	tap_is_int(bmc_take(ids, 32), 4, "four requests out at once");
	tap_is_int(count_result(db, &r, "dropped", ENOBUFS), 2, "past the sixteen queued, two dropped");
	expect_row(db, 220, "dropped", ENOBUFS, "not sent: 16 entries wait", "a dropped entry's row");
	for (unsigned i = 0; i < 4; i++)
		bmc_answer(ids[i], 0, (uint16_t)(0x100 + i));
	tap_is_int(rasd_bmc_sel_handle(s, dba), 4, "four answers");
	n = bmc_take(ids, 32);
	tap_is_int(n, 4, "and the next four queued are sent");
	tap_ok(!row_of(db, &r, 204), "no row yet for a sent one");
	bmc_answer(ids[0], 0xff, 0);
	tap_is_int(rasd_bmc_sel_handle(s, dba), 1, "one more answer");
	expect_row(db, 204, "failed", EIO, "completion code 0xff", "unspecified error code");
	tap_is_int(rasd_bmc_sel_settle(s, dba), 3 + 12, "at the stop the three out and twelve queued");
	tap_is_int(count_result(db, &r, "failed", ECANCELED), 15, "fail as cancelled, each a row");
	tap_is_str(rasd_bmc_sel_state(s), "fake ipmi: written 4, failed 16, rate-limited 0, dropped 2",
		   "the state file's line counts the dropped");
	tap_is_int(count_result(db, &r, "done", 0), 5, "every entry has its row: 5 done in all");
	rasd_bmc_sel_close(s);
	close(sock[1]);
}

int main(void)
{
	struct rasd_config cfg;
	struct ras_db *db = NULL;
	struct ras_db_actions *dba = NULL;
	char dir[256], path[512], err[256];
	int epfd = epoll_create1(EPOLL_CLOEXEC);

	rasd_config_defaults(&cfg);
	if (epfd < 0 || test_tmpdir(dir, sizeof(dir)) < 0)
		return 99;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	if (ras_db_open_writer(&db, path, "boot-1", err, sizeof(err)) < 0 ||
	    ras_db_actions_open(db, &dba) < 0) {
		printf("Bail out! %s\n", err);
		return 99;
	}
	test_late(&cfg, db, dba, epfd);
	test_overflow(&cfg, db, dba, epfd);
	ras_db_actions_close(dba);
	ras_db_close(db);
	close(epfd);
	test_rmtree(dir);
	return tap_done();
}
