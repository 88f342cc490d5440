/* SPDX-License-Identifier: MIT */
/* SEL entries for the BMC: which, how many, and what became of each (bmc_sel.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include "bmc_ipmi.h"
#include "bmc_sel.h"
#include "log.h"
#include "decoders/dfield.h"
#include "lib/clock.h"
#include "lib/threshold.h"

/*
 * The longest rasd waits for the BMC's answer. The kernel's own retries end
 * sooner with a completion code of its own. A BMC that lets this pass is not
 * asked again until the limit's period ends (counted as rate-limited): a dead
 * BMC costs the event loop one timeout per period, never one per entry of a storm.
 */
#define BMC_RESPONSE_TIMEOUT_MS 5000

struct rasd_bmc_sel {
	const struct rasd_config *cfg;
	struct bmc_ipmi *dev;
	struct rasd_bmc_transport transport;
	bool own_transport;           /* the device's; else a test's */
	int open_error;               /* why there is no device (-errno), 0 when there is */
	bool hidden;                  /* sysfs has one, /dev not: a sandbox's PrivateDevices= */
	char device[PATH_MAX];        /* the device used, or the one looked for */
	bool opened_for;              /* the configuration the device was looked for under */
	char opened_path[PATH_MAX];
	int64_t (*mono_ns)(void);
	/* The limit: a fixed window of bmc_sel_limit's period from its first entry. */
	int64_t window_start_ns;      /* 0: no window open */
	uint64_t in_window, over_in_window;
	bool silent_in_window;        /* the BMC let an entry time out in this window */
	uint64_t written, failed, limited, absent;
	char state[PATH_MAX + 160];
};

static int64_t default_mono_ns(void)
{
	return ras_clock_ns(CLOCK_MONOTONIC);
}

static int device_add(void *ctx, const uint8_t entry[BMC_SEL_ENTRY_LEN], uint16_t *record_id)
{
	struct rasd_bmc_sel *s = ctx;

	if (!s->dev)
		return -ENODEV;
	return bmc_ipmi_add_sel(s->dev, entry, record_id, BMC_RESPONSE_TIMEOUT_MS);
}

/* Whether ipmi_devintf made a device (its class in sysfs), whatever /dev shows us. */
static bool devintf_in_sysfs(const char *sysfs_root)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/class/ipmi/ipmi0", sysfs_root);
	return access(path, F_OK) == 0;
}

/* Looks for the device when bmc_sel is on; an absent one is said once per look. */
static void look_for_device(struct rasd_bmc_sel *s)
{
	bmc_ipmi_close(s->dev);
	s->dev = NULL;
	s->opened_for = s->cfg->bmc_sel;
	snprintf(s->opened_path, sizeof(s->opened_path), "%s", s->cfg->bmc_sel_device);
	s->open_error = 0;
	s->device[0] = 0;
	if (!s->cfg->bmc_sel || !s->own_transport)
		return;
	s->open_error = bmc_ipmi_open(s->cfg->bmc_sel_device, &s->dev, s->device, sizeof(s->device));
	s->hidden = s->open_error == -ENOENT && devintf_in_sysfs(s->cfg->sysfs_root);
	if (s->hidden)
		ras_log(LOG_WARNING, "bmc_sel: the kernel has an IPMI device but %s is not there: "
			"PrivateDevices= hides it (rasd(8), \"The BMC's event log\")", s->device);
	else if (s->open_error == -ENOENT)
		ras_log(LOG_WARNING, "bmc_sel: no IPMI device (%s): SEL entries are recorded as "
			"unsupported; load ipmi_si and ipmi_devintf", s->device);
	else if (s->open_error < 0)
		ras_log(LOG_WARNING, "bmc_sel: cannot open %s: %s; SEL entries are recorded as "
			"unsupported", s->device, strerror(-s->open_error));
	else
		ras_log(LOG_INFO, "bmc_sel: adding SEL entries through %s", s->device);
}

int rasd_bmc_sel_open(struct rasd_bmc_sel **out, const struct rasd_config *cfg)
{
	struct rasd_bmc_sel *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s)
		return -ENOMEM;
	s->cfg = cfg;
	s->own_transport = true;
	s->transport = (struct rasd_bmc_transport){ .ctx = s, .add = device_add };
	s->mono_ns = default_mono_ns;
	look_for_device(s);
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
		look_for_device(s);
}

void rasd_bmc_sel_close(struct rasd_bmc_sel *s)
{
	if (!s)
		return;
	say_overflow(s);
	bmc_ipmi_close(s->dev);
	free(s);
}

void rasd_bmc_sel_set_transport(struct rasd_bmc_sel *s, const struct rasd_bmc_transport *t)
{
	bmc_ipmi_close(s->dev);
	s->dev = NULL;
	s->transport = *t;
	s->own_transport = false;
	s->open_error = 0;
	s->hidden = false;
	snprintf(s->device, sizeof(s->device), "test transport");
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

/* Sends the entry (or says why not) and stores the attempt in act. */
static void attempt(struct rasd_bmc_sel *s, struct ras_db_actions *dba,
		    const struct bmc_sel_event *e, struct ras_db_action *act)
{
	uint8_t entry[BMC_SEL_ENTRY_LEN];
	char hex[64];
	uint16_t id = 0;
	bool fold = true;
	int r;

	snprintf(act->action, sizeof(act->action), "bmc-sel");
	if (bmc_sel_encode(e, entry) < 0)
		return;
	bmc_sel_hex(entry, hex, sizeof(hex));
	if (!limit_allows(s)) {
		snprintf(act->result, sizeof(act->result), "rate-limited");
	} else if (dry_run(s, act->synthetic)) {
		snprintf(act->result, sizeof(act->result), "dry-run");
		snprintf(act->target, sizeof(act->target), "would add %s (%s)", hex,
			 bmc_sel_words(entry));
		fold = false;
	} else if (s->own_transport && !s->dev) {
		s->absent++;
		snprintf(act->result, sizeof(act->result), "unsupported");
		act->error = ENODEV;
		snprintf(act->target, sizeof(act->target), "no IPMI device (%s)", s->device);
	} else if ((r = s->transport.add(s->transport.ctx, entry, &id)) == 0) {
		s->written++;
		fold = false;
		snprintf(act->result, sizeof(act->result), "done");
		snprintf(act->target, sizeof(act->target), "SEL record 0x%04x: %s (%s)", id, hex,
			 bmc_sel_words(entry));
	} else {
		s->failed++;
		fold = false;
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
			snprintf(act->target, sizeof(act->target), "not added (%s): %s",
				 strerror(-r), hex);
		ras_log(LOG_ERR, "bmc_sel: %s %s: %s", act->kind, act->subject, act->target);
	}
	if (ras_db_action_insert(dba, act, fold) < 0)
		ras_log(LOG_ERR, "cannot store the SEL entry's outcome for %s %s", act->kind,
			act->subject);
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
