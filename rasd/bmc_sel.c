/* SPDX-License-Identifier: MIT */
/* SEL entries for the BMC: which, how many, and what became of each (bmc_sel.h). */
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/epoll.h>
#include "bmc_ipmi.h"
#include "bmc_sel.h"
#include "log.h"
#include "decoders/dfield.h"
#include "lib/clock.h"
#include "lib/threshold.h"

/*
 * The longest rasd waits for the BMC's answer (the loop's timer, never a
 * blocking wait). The kernel's own retries end sooner with a completion code
 * of its own. A BMC that lets this pass is not asked again until the limit's
 * period ends (counted as rate-limited): a dead BMC costs one timeout per
 * period, never one per entry of a storm.
 */
#define BMC_RESPONSE_TIMEOUT_MS 5000
/* Requests the BMC holds at once (a KCS BMC takes one command at a time anyway), */
#define BMC_IN_FLIGHT 4
/* and entries waiting behind them; past that an entry is dropped (a row says so). */
#define BMC_WAITING 16

/* An entry sent to the BMC (msgid not 0) or waiting to be, with the row its outcome becomes. */
struct sel_request {
	long msgid;
	int64_t deadline_ns;          /* CLOCK_MONOTONIC (the test clock in tests) */
	int cancel;                   /* -errno: the device went before it answered */
	uint8_t entry[BMC_SEL_ENTRY_LEN];
	struct ras_db_action act;
};

struct rasd_bmc_sel {
	const struct rasd_config *cfg;
	struct bmc_transport dev;     /* the device's (ops NULL: none) */
	struct rasd_bmc_transport transport; /* a test's, answering at once */
	bool own_transport;           /* the device's; else a test's */
	int open_error;               /* why there is no device (-errno), 0 when there is */
	bool hidden;                  /* sysfs has one, /dev not: a sandbox's PrivateDevices= */
	char device[PATH_MAX];        /* the device used, or the one looked for */
	bool opened_for;              /* the configuration the device was looked for under */
	char opened_path[PATH_MAX];
	int64_t (*mono_ns)(void);
	int epfd;                     /* the event loop watching dev's fd, or -1 */
	uint64_t tag;
	long next_msgid;
	struct sel_request flight[BMC_IN_FLIGHT];
	struct sel_request waiting[BMC_WAITING];
	unsigned n_waiting;
	bool full_said;               /* the queue's overflow was logged since it last had room */
	/* The limit: a fixed window of bmc_sel_limit's period from its first entry. */
	int64_t window_start_ns;      /* 0: no window open */
	uint64_t in_window, over_in_window;
	bool silent_in_window;        /* the BMC let an entry time out in this window */
	uint64_t written, failed, limited, absent, dropped;
	char state[PATH_MAX + 200];
};

static int64_t default_mono_ns(void)
{
	return ras_clock_ns(CLOCK_MONOTONIC);
}

/* Closes the device; what it had not answered yet fails with why at the next expiry. */
static void close_device(struct rasd_bmc_sel *s, int why)
{
	if (!s->dev.ops)
		return;
	for (unsigned i = 0; i < BMC_IN_FLIGHT; i++)
		if (s->flight[i].msgid) {
			s->flight[i].cancel = why;
			s->flight[i].deadline_ns = 0;
		}
	s->dev.ops->close(s->dev.ctx);
	s->dev = (struct bmc_transport){ 0 };
}

/* The event loop learns of the device's responses by its fd becoming readable. */
static void watch_device(struct rasd_bmc_sel *s)
{
	struct epoll_event ee = { .events = EPOLLIN, .data.u64 = s->tag };

	if (s->epfd < 0 || !s->dev.ops)
		return;
	if (epoll_ctl(s->epfd, EPOLL_CTL_ADD, s->dev.ops->fd(s->dev.ctx), &ee) < 0) {
		int e = errno;

		ras_log(LOG_ERR, "bmc_sel: cannot watch %s: %s; SEL entries are recorded as "
			"unsupported", s->device, strerror(e));
		close_device(s, -e);
		s->open_error = -e;
	}
}

/* Whether ipmi_devintf made a device (its class in sysfs), whatever /dev shows us. */
static bool devintf_in_sysfs(const char *sysfs_root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/ipmi/ipmi0", sysfs_root);
	return access(path, F_OK) == 0;
}

/* Looks for the device when bmc_sel is on; an absent one is said once per look unless quiet. */
static void look_for_device(struct rasd_bmc_sel *s, bool quiet)
{
	close_device(s, -ENODEV);
	s->opened_for = s->cfg->bmc_sel;
	snprintf(s->opened_path, sizeof(s->opened_path), "%s", s->cfg->bmc_sel_device);
	s->open_error = 0;
	s->device[0] = 0;
	if (!s->cfg->bmc_sel || !s->own_transport)
		return;
	s->open_error = bmc_ipmi_open(s->cfg->bmc_sel_device, &s->dev, s->device, sizeof(s->device));
	s->hidden = s->open_error == -ENOENT && devintf_in_sysfs(s->cfg->sysfs_root);
	if (s->open_error == 0) {
		ras_log(LOG_INFO, "bmc_sel: adding SEL entries through %s", s->device);
		watch_device(s);
	} else if (quiet) {
		return;
	} else if (s->hidden) {
		ras_log(LOG_WARNING, "bmc_sel: the kernel has an IPMI device but %s is not there: "
			"PrivateDevices= hides it (rasd(8), \"The BMC's event log\")", s->device);
	} else if (s->open_error == -ENOENT) {
		ras_log(LOG_WARNING, "bmc_sel: no IPMI device (%s): SEL entries are recorded as "
			"unsupported; load ipmi_si and ipmi_devintf", s->device);
	} else {
		ras_log(LOG_WARNING, "bmc_sel: cannot open %s: %s; SEL entries are recorded as "
			"unsupported", s->device, strerror(-s->open_error));
	}
}

int rasd_bmc_sel_open(struct rasd_bmc_sel **out, const struct rasd_config *cfg)
{
	struct rasd_bmc_sel *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->cfg = cfg;
	s->own_transport = true;
	s->mono_ns = default_mono_ns;
	s->epfd = -1;
	s->next_msgid = 1;
	look_for_device(s, false);
	*out = s;
	return 0;
}

/* Says what the limit kept back in the window that ended (or at the stop). */
static void say_overflow(struct rasd_bmc_sel *s)
{
	char limit[32];

	if (!s->over_in_window)
		return;
	snprintf(limit, sizeof(limit), "%s", s->cfg->bmc_sel_limit);
	ras_log(LOG_WARNING, "bmc_sel: %llu SEL entries not written in the last period: "
		"bmc_sel_limit %s (each is in ras-fdr-ctl actions as rate-limited)",
		(unsigned long long)s->over_in_window, limit);
	s->over_in_window = 0;
}

void rasd_bmc_sel_reload(struct rasd_bmc_sel *s)
{
	if (!s)
		return;
	if (s->opened_for != s->cfg->bmc_sel || strcmp(s->opened_path, s->cfg->bmc_sel_device))
		look_for_device(s, false);
}

void rasd_bmc_sel_close(struct rasd_bmc_sel *s)
{
	if (!s)
		return;
	say_overflow(s);
	close_device(s, -ECANCELED);
	free(s);
}

void rasd_bmc_sel_set_transport(struct rasd_bmc_sel *s, const struct rasd_bmc_transport *t)
{
	close_device(s, -ENODEV);
	s->transport = *t;
	s->own_transport = false;
	s->open_error = 0;
	s->hidden = false;
	snprintf(s->device, sizeof(s->device), "test transport");
}

void rasd_bmc_sel_set_device(struct rasd_bmc_sel *s, const struct bmc_transport *t,
			     const char *name)
{
	close_device(s, -ENODEV);
	s->dev = *t;
	s->own_transport = true;
	s->open_error = 0;
	s->hidden = false;
	snprintf(s->device, sizeof(s->device), "%s", name);
	watch_device(s);
}

void rasd_bmc_sel_set_clock(struct rasd_bmc_sel *s, int64_t (*mono_ns)(void))
{
	s->mono_ns = mono_ns;
}

const char *rasd_bmc_sel_state(const struct rasd_bmc_sel *s)
{
	struct rasd_bmc_sel *m = (struct rasd_bmc_sel *)s;
	char counts[160];

	if (!s || !s->cfg->bmc_sel)
		return "off";
	snprintf(counts, sizeof(counts), "written %llu, failed %llu, rate-limited %llu",
		 (unsigned long long)s->written, (unsigned long long)s->failed,
		 (unsigned long long)s->limited);
	if (s->dropped)
		snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts), ", dropped %llu",
			 (unsigned long long)s->dropped);
	if (s->hidden)
		snprintf(m->state, sizeof(m->state), "no IPMI device (%s hidden from rasd: "
			 "PrivateDevices=)", s->device);
	else if (s->open_error == -ENOENT)
		snprintf(m->state, sizeof(m->state), "no IPMI device (%s absent): load ipmi_si and "
			 "ipmi_devintf", s->device);
	else if (s->open_error < 0)
		snprintf(m->state, sizeof(m->state), "cannot open %s: %s", s->device,
			 strerror(-s->open_error));
	else
		snprintf(m->state, sizeof(m->state), "%s: %s", s->device, counts);
	return m->state;
}

/* Whether the limit lets one more entry through now; the overflow counted when not. */
static bool limit_allows(struct rasd_bmc_sel *s)
{
	struct ras_threshold t = { 0 };
	int64_t now = s->mono_ns();

	if (ras_threshold_parse(s->cfg->bmc_sel_limit, &t) < 0)
		t.count = 0;
	if (!s->window_start_ns || now - s->window_start_ns >= t.period_ns) {
		say_overflow(s);
		s->window_start_ns = now ? now : 1;
		s->in_window = 0;
		s->silent_in_window = false;
	}
	if (s->silent_in_window) {
		s->over_in_window++;
		s->limited++;
		return false;
	}
	if (s->in_window < t.count) {
		s->in_window++;
		return true;
	}
	if (!s->over_in_window++)
		ras_log(LOG_WARNING, "bmc_sel: bmc_sel_limit %s reached: the next SEL entries of this "
			"period are counted, not written", s->cfg->bmc_sel_limit);
	s->limited++;
	return false;
}

static bool dry_run(const struct rasd_bmc_sel *s, bool synthetic)
{
	return s->cfg->dry_run || (synthetic && !s->cfg->synthetic_actions);
}

static void store(struct ras_db_actions *dba, const struct ras_db_action *act, bool fold)
{
	if (ras_db_action_insert(dba, act, fold) < 0)
		ras_log(LOG_ERR, "cannot store the SEL entry's outcome for %s %s", act->kind,
			act->subject);
}

/* The BMC's answer (r: 0 and id, a completion code > 0, or -errno) as act's row. */
static void complete(struct rasd_bmc_sel *s, struct ras_db_actions *dba, struct ras_db_action *act,
		     const uint8_t entry[BMC_SEL_ENTRY_LEN], int r, uint16_t id)
{
	char hex[64];

	bmc_sel_hex(entry, hex, sizeof(hex));
	if (r == 0) {
		s->written++;
		snprintf(act->result, sizeof(act->result), "done");
		snprintf(act->target, sizeof(act->target), "SEL record 0x%04x: %s (%s)", id, hex,
			 bmc_sel_words(entry));
		store(dba, act, false);
		return;
	}
	s->failed++;
	if (r == -ETIMEDOUT) {
		s->silent_in_window = true;
		ras_log(LOG_WARNING, "bmc_sel: the BMC did not answer within %d ms: no SEL "
			"entry is tried again until bmc_sel_limit's period (%s) ends",
			BMC_RESPONSE_TIMEOUT_MS, s->cfg->bmc_sel_limit);
	}
	snprintf(act->result, sizeof(act->result), "failed");
	act->error = r > 0 ? EIO : -r;
	if (r > 0)
		snprintf(act->target, sizeof(act->target), "completion code 0x%02x (%s): %s",
			 (unsigned)r, bmc_sel_completion_words((unsigned)r), hex);
	else
		snprintf(act->target, sizeof(act->target), "not added (%s): %s", strerror(-r), hex);
	/* Those cut short by the stop are said once, by rasd_bmc_sel_settle. */
	if (r != -ECANCELED)
		ras_log(LOG_ERR, "bmc_sel: %s %s: %s", act->kind, act->subject, act->target);
	store(dba, act, false);
}

static struct sel_request *free_slot(struct rasd_bmc_sel *s)
{
	for (unsigned i = 0; i < BMC_IN_FLIGHT; i++)
		if (!s->flight[i].msgid)
			return &s->flight[i];
	return NULL;
}

/* Sends q's entry from slot; a refused send is its outcome at once. 1 when a row was written. */
static int send_request(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
			struct sel_request *slot, const struct sel_request *q)
{
	int r;

	*slot = *q;
	slot->msgid = s->next_msgid++;
	if (s->next_msgid <= 0)
		s->next_msgid = 1;
	slot->cancel = 0;
	slot->deadline_ns = s->mono_ns() + BMC_RESPONSE_TIMEOUT_MS * 1000000LL;
	r = s->dev.ops ? s->dev.ops->send(s->dev.ctx, slot->msgid, slot->entry) : -ENODEV;
	if (r == 0)
		return 0;
	slot->msgid = 0;
	complete(s, dba, &slot->act, slot->entry, r, 0);
	return 1;
}

/* Past the queue's end: dropped, and said (identical ones fold into one row). */
static void drop(struct rasd_bmc_sel *s, struct ras_db_actions *dba, struct sel_request *q)
{
	char hex[64];

	s->dropped++;
	bmc_sel_hex(q->entry, hex, sizeof(hex));
	snprintf(q->act.result, sizeof(q->act.result), "dropped");
	q->act.error = ENOBUFS;
	snprintf(q->act.target, sizeof(q->act.target), "not sent: %d entries wait for the BMC "
		 "already (%d sent): %s", BMC_WAITING, BMC_IN_FLIGHT, hex);
	if (!s->full_said)
		ras_log(LOG_WARNING, "bmc_sel: the BMC answers slower than entries come: %d sent and "
			"%d waiting; the next ones are dropped (each is in ras-fdr-ctl actions)",
			BMC_IN_FLIGHT, BMC_WAITING);
	s->full_said = true;
	store(dba, &q->act, true);
}

/* To the BMC now, behind the ones it has, or dropped when too many wait. */
static void submit(struct rasd_bmc_sel *s, struct ras_db_actions *dba, struct sel_request *q)
{
	struct sel_request *slot = s->n_waiting ? NULL : free_slot(s);

	if (slot)
		send_request(s, dba, slot, q);
	else if (s->n_waiting < BMC_WAITING)
		s->waiting[s->n_waiting++] = *q;
	else
		drop(s, dba, q);
}

/* Sends what waits while there is room; rows written for refused sends. */
static int send_waiting(struct rasd_bmc_sel *s, struct ras_db_actions *dba)
{
	struct sel_request *slot;
	int rows = 0;

	while (s->n_waiting && !s->silent_in_window && (slot = free_slot(s))) {
		struct sel_request q = s->waiting[0];

		memmove(s->waiting, s->waiting + 1, --s->n_waiting * sizeof(s->waiting[0]));
		rows += send_request(s, dba, slot, &q);
		s->full_said = false;
	}
	return rows;
}

/* Decides what becomes of the entry: refused here (a row now), sent, or queued. */
static void attempt(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
		    const struct bmc_sel_event *e, struct ras_db_action *act)
{
	struct sel_request q = { .act = *act };
	char hex[64];
	uint16_t id = 0;

	snprintf(q.act.action, sizeof(q.act.action), "bmc-sel");
	if (bmc_sel_encode(e, q.entry) < 0)
		return;
	bmc_sel_hex(q.entry, hex, sizeof(hex));
	/* A device that appeared since (modules loaded after rasd started) is used. */
	if (s->own_transport && !s->dev.ops && s->cfg->bmc_sel && s->open_error == -ENOENT)
		look_for_device(s, true);
	if (!limit_allows(s)) {
		snprintf(q.act.result, sizeof(q.act.result), "rate-limited");
	} else if (dry_run(s, q.act.synthetic)) {
		snprintf(q.act.result, sizeof(q.act.result), "dry-run");
		snprintf(q.act.target, sizeof(q.act.target), "would add %s (%s)", hex,
			 bmc_sel_words(q.entry));
		store(dba, &q.act, false);
		return;
	} else if (s->own_transport && !s->dev.ops) {
		s->absent++;
		snprintf(q.act.result, sizeof(q.act.result), "unsupported");
		q.act.error = s->open_error < 0 && s->open_error != -ENOENT ? -s->open_error : ENODEV;
		if (s->hidden)
			snprintf(q.act.target, sizeof(q.act.target), "cannot open %s: hidden from "
				 "rasd by PrivateDevices= (rasd(8), the unit's bmc-sel drop-in)",
				 s->device);
		else if (s->open_error < 0 && s->open_error != -ENOENT)
			snprintf(q.act.target, sizeof(q.act.target), "cannot open %s: %s", s->device,
				 strerror(-s->open_error));
		else
			snprintf(q.act.target, sizeof(q.act.target), "no IPMI device (%s)", s->device);
	} else if (!s->own_transport) {
		int r = s->transport.add(s->transport.ctx, q.entry, &id);

		complete(s, dba, &q.act, q.entry, r, id);
		return;
	} else {
		submit(s, dba, &q);
		return;
	}
	store(dba, &q.act, true);
}

void rasd_bmc_sel_watch(struct rasd_bmc_sel *s, int epfd, uint64_t tag)
{
	s->epfd = epfd;
	s->tag = tag;
	watch_device(s);
}

int rasd_bmc_sel_handle(struct rasd_bmc_sel *s, struct ras_db_actions *dba)
{
	struct bmc_response resp;
	int rows = 0, r;

	while (s->dev.ops && (r = s->dev.ops->receive(s->dev.ctx, &resp)) != 0) {
		if (r < 0) {
			ras_log(LOG_ERR, "bmc_sel: reading %s failed: %s; SEL entries are recorded as "
				"unsupported until the configuration is reloaded", s->device,
				strerror(-r));
			close_device(s, r);
			s->open_error = r;
			break;
		}
		for (unsigned i = 0; i < BMC_IN_FLIGHT; i++) {
			struct sel_request *q = &s->flight[i];

			/* An answer after its deadline finds no request: its row says timed out. */
			if (q->msgid != resp.msgid)
				continue;
			q->msgid = 0;
			complete(s, dba, &q->act, q->entry, resp.code, resp.record_id);
			rows++;
			break;
		}
	}
	return rows + rasd_bmc_sel_expire(s, dba);
}

int rasd_bmc_sel_expire(struct rasd_bmc_sel *s, struct ras_db_actions *dba)
{
	int64_t now;
	int rows = 0;

	if (!s)
		return 0;
	now = s->mono_ns();
	for (unsigned i = 0; i < BMC_IN_FLIGHT; i++) {
		struct sel_request *q = &s->flight[i];

		if (!q->msgid || q->deadline_ns > now)
			continue;
		q->msgid = 0;
		complete(s, dba, &q->act, q->entry, q->cancel ? q->cancel : -ETIMEDOUT, 0);
		rows++;
	}
	/* A silent BMC is not asked again this period: what waits for it is rate-limited. */
	while (s->silent_in_window && s->n_waiting) {
		struct sel_request *q = &s->waiting[--s->n_waiting];

		s->limited++;
		s->over_in_window++;
		snprintf(q->act.result, sizeof(q->act.result), "rate-limited");
		store(dba, &q->act, true);
		rows++;
	}
	return rows + send_waiting(s, dba);
}

int rasd_bmc_sel_timeout_ms(const struct rasd_bmc_sel *s)
{
	int64_t first = INT64_MAX, left;

	for (unsigned i = 0; s && i < BMC_IN_FLIGHT; i++)
		if (s->flight[i].msgid && s->flight[i].deadline_ns < first)
			first = s->flight[i].deadline_ns;
	if (first == INT64_MAX)
		return -1;
	left = first - s->mono_ns();
	return left <= 0 ? 0 : (int)((left + 999999) / 1000000);
}

int rasd_bmc_sel_finish(struct rasd_bmc_sel *s, struct ras_db_actions *dba)
{
	int rows = 0, t;

	while (s && s->dev.ops && (t = rasd_bmc_sel_timeout_ms(s)) >= 0) {
		struct pollfd p = { .fd = s->dev.ops->fd(s->dev.ctx), .events = POLLIN };

		if (poll(&p, 1, t) < 0 && errno != EINTR)
			break;
		rows += rasd_bmc_sel_handle(s, dba);
	}
	return rows + rasd_bmc_sel_settle(s, dba);
}

int rasd_bmc_sel_settle(struct rasd_bmc_sel *s, struct ras_db_actions *dba)
{
	int rows = 0;

	if (!s)
		return 0;
	for (unsigned i = 0; i < BMC_IN_FLIGHT; i++) {
		struct sel_request *q = &s->flight[i];

		if (!q->msgid)
			continue;
		q->msgid = 0;
		/* Sent: the BMC may well have added it; its answer is not waited for. */
		complete(s, dba, &q->act, q->entry, -ECANCELED, 0);
		rows++;
	}
	for (unsigned i = 0; i < s->n_waiting; i++, rows++)
		complete(s, dba, &s->waiting[i].act, s->waiting[i].entry, -ECANCELED, 0);
	s->n_waiting = 0;
	if (rows)
		ras_log(LOG_WARNING, "bmc_sel: stopping with %d SEL entries the BMC had not answered "
			"(each is in ras-fdr-ctl actions as failed, ECANCELED; a sent one may be in "
			"the SEL)", rows);
	return rows;
}

static bool wants(const struct rasd_bmc_sel *s, const char *what)
{
	return s && s->cfg->bmc_sel &&
	       (!strcmp(s->cfg->bmc_sel_events, "all") || !strcmp(s->cfg->bmc_sel_events, what));
}

void rasd_bmc_sel_record(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
			 const struct ras_event_type *type, const void *decoded,
			 const struct ras_db_event *ev, int64_t row_id)
{
	const struct ras_decoded_head *h = decoded;
	struct bmc_sel_event e = { .time_s = (uint32_t)(ev->wall_ns / 1000000000),
				   .ref = (uint16_t)row_id };
	struct ras_db_action act = { .count = 1, .synthetic = ev->synthetic, .event_id = row_id,
				     .wall_ns = ras_clock_ns(CLOCK_REALTIME) };

	if (!wants(s, "uncorrected") || h->severity < RAS_SEV_DEFERRED)
		return;
	if ((e.part = bmc_sel_part_of_table(type->table)) == BMC_SEL_NONE)
		return;
	e.what = h->severity == RAS_SEV_FATAL ? BMC_SEL_FATAL : BMC_SEL_UNCORRECTED;
	snprintf(act.kind, sizeof(act.kind), "record");
	snprintf(act.subject, sizeof(act.subject), "%s", h->location[0] ? h->location : type->title);
	snprintf(act.threshold, sizeof(act.threshold), "%s", ras_severity_name(h->severity));
	snprintf(act.event_table, sizeof(act.event_table), "%s", type->table);
	attempt(s, dba, &e, &act);
}

void rasd_bmc_sel_crossing(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
			   const struct ras_db_action *decision)
{
	struct bmc_sel_event e = { .what = BMC_SEL_THRESHOLD,
				   .time_s = (uint32_t)(decision->wall_ns / 1000000000),
				   .ref = (uint16_t)decision->event_id };
	struct ras_db_action act = *decision;

	if (!wants(s, "thresholds"))
		return;
	if ((e.part = bmc_sel_part_of_kind(decision->kind)) == BMC_SEL_NONE)
		return;
	act.id = 0;
	act.error = 0;
	act.target[0] = 0;
	act.repeats = 1;
	attempt(s, dba, &e, &act);
}
