/* SPDX-License-Identifier: MIT */
/*
 * Extlog, devlink, disk and memory-failure records in rasdaemon's output
 * (see rasd_text.h). Formats (facts, no code): rasdaemon util/ras-mc-ctl.in
 * (the --errors rows: "<id> <time> error: " then "name=value, " pairs, the
 * extlog location as "node=N, ..." with requestor/responder/target ids as
 * bare hex, the GUID in the kernel's %pUl order), ras-extlog-handler.c and
 * ras-memory-failure-handler.c (the log lines), ras-diskerror-handler.c
 * (dev as "major:minor", the error named from the kernel's blk_errors with
 * " error" appended) and ras-devlink-handler.c (a transmit timeout is kept
 * as a devlink record whose message ends in a newline). Each record goes to
 * the decoder that reads the same event from its tracepoint.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "rasd_text_internal.h"
#include "text_num.h"

/* rasdaemon's words for the CPER memory error types and severities (UEFI N.2.5, N.2.1). */
static const char *const extlog_types[] = {
	"unknown", "no error", "single-bit ECC", "multi-bit ECC", "single-symbol chipkill ECC",
	"multi-symbol chipkill ECC", "master abort", "target abort", "parity error",
	"watchdog timeout", "invalid address", "mirror Broken", "memory sparing",
	"scrub corrected error", "scrub uncorrected error", "physical memory map-out event",
};
static const char *const extlog_sevs[] = { "recoverable", "fatal", "corrected", "informational" };

/* Index of s[0..n) in tab, -1 if none. */
static int word_index(const char *const *tab, size_t n_tab, const char *s, size_t n)
{
	for (size_t i = 0; i < n_tab; i++)
		if (rasd_name_is(tab[i], s, n))
			return (int)i;
	return -1;
}

/* "<id> <time> error: " then key: the text after "error: ", the time in *stamp (length *stamp_len). */
static const char *row_start(const char *line, const char *key, const char **stamp, size_t *stamp_len)
{
	const char *id = rasd_row_id(line), *e = id ? strstr(id - 1, " error: ") : NULL;

	if (!e || strncmp(e + 8, key, strlen(key)) != 0)
		return NULL;
	*stamp = id;
	*stamp_len = (size_t)(e - id + 1);
	return e + 8;
}

/* The value after "key=" in s up to the next ", " (or the end): its length in *n, NULL if absent. */
static const char *pair(const char *s, const char *key, size_t *n)
{
	size_t k = strlen(key);
	const char *v, *end;

	for (v = s; (v = strstr(v, key)); v++)
		if ((v == s || v[-1] == ' ') && v[k] == '=')
			break;
	if (!v)
		return NULL;
	v += k + 1;
	end = strstr(v, ", ");
	*n = end ? (size_t)(end - v) : strlen(v);
	return v;
}

/* A quoted value "key='...'" up to the last "', " of the line (or its end, if rasdaemon's text held a newline). */
static const char *quoted(const char *s, const char *key, size_t *n)
{
	char pat[32];
	const char *v, *end;

	snprintf(pat, sizeof(pat), "%s='", key);
	if (!(v = strstr(s, pat)))
		return NULL;
	v += strlen(pat);
	end = strstr(v, "', ");
	*n = end ? (size_t)(end - v) : strlen(v);
	/* The last value of a row: its "', " lost the space the line reader trims. */
	if (!end && *n >= 2 && strcmp(v + *n - 2, "',") == 0)
		*n -= 2;
	return v;
}

/* Past the "', " that closes a quoted value of length n at v. */
static const char *after_quoted(const char *v, size_t n)
{
	const char *s = v + n;

	s += *s == '\'';
	s += *s == ',';
	return s + (*s == ' ');
}

static bool pair_num(const char *s, const char *key, unsigned base, uint64_t *out)
{
	size_t n;
	const char *v = pair(s, key, &n);
	const char *end;

	return v && text_num_prefix(v, base, out, &end) && end == v + n;
}

/* ---- extlog ------------------------------------------------------------------ */

/* rasdaemon's names for the location fields, in its row and in its log line. */
static const struct { const char *row, *log; enum cper_mem_field f; } extlog_fields[] = {
	{ "node", "node", CPER_MEM_F_NODE }, { "card", "card", CPER_MEM_F_CARD },
	{ "module", "module", CPER_MEM_F_MODULE }, { "bank", "bank", CPER_MEM_F_BANK },
	{ "device", "device", CPER_MEM_F_DEVICE }, { "row", "row", CPER_MEM_F_ROW },
	{ "column", "column", CPER_MEM_F_COLUMN }, { "bit_position", "bit_pos", CPER_MEM_F_BIT_POS },
	{ NULL, "req_id", CPER_MEM_F_REQUESTOR }, { NULL, "resp_id", CPER_MEM_F_RESPONDER },
	{ NULL, "tgt_id", CPER_MEM_F_TARGET }, { "rank", "rank", CPER_MEM_F_RANK },
	{ "mem_array_handle", "card_handle", CPER_MEM_F_CARD_HANDLE },
	{ "mem_dev_handle", "module_handle", CPER_MEM_F_MODULE_HANDLE },
};

/* One "name<sep>value" location pair; false if the name is not a field or the value is bad. */
static bool extlog_pair(struct rasd_parser *p, const char *name, size_t n, const char *v, bool log)
{
	uint64_t x;
	const char *end;

	for (size_t i = 0; i < sizeof(extlog_fields) / sizeof(extlog_fields[0]); i++) {
		if (!rasd_name_is(log ? extlog_fields[i].log : extlog_fields[i].row, name, n))
			continue;
		return text_num_prefix(v, 10, &x, &end) && (*end == '\0' || *end == ',' || *end == ' ' ||
							     *end == ')') &&
		       cper_mem_compact_set(p->rec.extlog_data, extlog_fields[i].f, x);
	}
	return false;
}

/*
 * The row's location: "node=0, card=1, ..., rank=0". The requestor,
 * responder and target ids come as bare hex values that do not say which
 * they are, so they are left out.
 */
static bool extlog_row_location(struct rasd_parser *p, const char *s)
{
	while (*s) {
		const char *eq = strchr(s, '='), *next = strstr(s, ", ");

		if (strncmp(s, "0x", 2) != 0 &&
		    (!eq || (next && eq > next) || !extlog_pair(p, s, (size_t)(eq - s), eq + 1, false)))
			return false;
		s = next ? next + 2 : s + strlen(s);
	}
	return true;
}

static void extlog_fill(struct rasd_parser *p, int type, int sev, uint64_t pa)
{
	struct extlog_in *x = &p->rec.in.extlog;

	x->etype = type < 0 ? 0xff : (uint8_t)type;
	x->sev = sev < 0 ? 0xff : (uint8_t)sev;
	x->pa = pa;
	x->data = p->rec.extlog_data;
	x->data_len = sizeof(p->rec.extlog_data);
}

/* "type=<t>, severity=<s>, address=0x.., fru_id=<guid>, fru_text='<text>', <location>" */
static bool extlog_row(struct rasd_parser *p, const char *line)
{
	size_t n, tn, stamp_len;
	const char *stamp, *s = row_start(line, "type=", &stamp, &stamp_len), *v, *t;
	uint64_t pa;
	int type, sev;

	if (!s)
		return false;
	t = pair(s, "type", &tn);
	v = pair(s, "severity", &n);
	type = word_index(extlog_types, sizeof(extlog_types) / sizeof(extlog_types[0]), t, tn);
	sev = v ? word_index(extlog_sevs, 4, v, n) : -1;
	if ((type < 0 && !rasd_name_is("unknown-type", t, tn)) || !v ||
	    (sev < 0 && !rasd_name_is("unknown-severity", v, n)) || !pair_num(s, "address", 16, &pa) ||
	    !(v = pair(s, "fru_id", &n)) || n != 36 || !cper_guid_parse(v, p->rec.in.extlog.fru_id) ||
	    !(t = quoted(s, "fru_text", &tn)) || !extlog_row_location(p, after_quoted(t, tn))) {
		rasd_refuse(p, "malformed rasdaemon extlog row");
		return true;
	}
	extlog_fill(p, type, sev, pa);
	p->rec.in.extlog.fru_text = t;
	p->rec.in.extlog.fru_text_len = tn;
	p->rec.in.extlog.pa_mask_lsb = 0xff;   /* the row does not keep the mask */
	rasd_note(p, 1, "timestamp", stamp, stamp_len);
	rasd_emit(p, RASD_TEXT_EXTLOG, "ras-mc-ctl --errors");
	return true;
}

/* After the timestamp: rasdaemon's "[LEVEL] " (newer versions), then s. */
static const char *skip_level(const char *s)
{
	const char *close = *s == '[' ? strchr(s, ']') : NULL;

	return close && close[1] == ' ' ? close + 2 : s;
}

/* "(node: 0 card: 1 ... )" of the log line. */
static bool extlog_log_location(struct rasd_parser *p, const char *s, const char **end)
{
	const char *close = strchr(s, ')');

	if (!close)
		return false;
	for (s++; s < close;) {
		const char *colon = strstr(s, ": ");

		if (!colon || colon > close || !extlog_pair(p, s, (size_t)(colon - s), colon + 2, true))
			return false;
		s = strchr(colon + 2, ' ');
		if (!s || s > close)
			s = close;
		else
			s++;
	}
	*end = close + 1;
	return true;
}

static unsigned lowest_bit(uint64_t v)
{
	unsigned n = 0;

	while (!(v >> n & 1))
		n++;
	return n;
}

/* "extlog_mem_event <time> [LEVEL ]<seq> <sev> error: <type> physical addr: 0x.. mask: 0x..[ (...)] <fru_text> <guid>" */
static bool journal_extlog(struct rasd_parser *p, const char *line)
{
	const char *stamp, *s = rasd_journal_start(line, "extlog_mem_event", &stamp), *end = NULL;
	const char *e, *pa_at, *fru, *stamp_end = s, *guid;
	uint64_t seq, pa, mask;
	int sev, type;

	if (!s)
		return false;
	s = skip_level(s);
	e = strstr(s, " error: ");
	pa_at = e ? strstr(e, " physical addr: ") : NULL;
	if (!e || !pa_at || !text_num_prefix(s, 10, &seq, &end) || *end != ' ' || seq > UINT32_MAX)
		return false;
	/* Either word may be missing: e is then end itself, pa_at e + 7 (the spaces are shared). */
	sev = e > end ? word_index(extlog_sevs, 4, end + 1, (size_t)(e - end - 1)) : -1;
	type = pa_at <= e + 8 ? -1 :
	       word_index(extlog_types, sizeof(extlog_types) / sizeof(extlog_types[0]), e + 8,
			  (size_t)(pa_at - e - 8));
	if (!text_num_prefix(pa_at + 16, 16, &pa, &end) || strncmp(end, " mask: ", 7) != 0 ||
	    !text_num_prefix(end + 7, 16, &mask, &end) ||
	    (end[0] == ' ' && end[1] == '(' && !extlog_log_location(p, end + 1, &end)) ||
	    strlen(end) < 38 || !cper_guid_parse(end + strlen(end) - 36, p->rec.in.extlog.fru_id)) {
		rasd_refuse(p, "malformed rasdaemon extlog_mem_event line");
		return true;
	}
	extlog_fill(p, type, sev, pa);
	p->rec.in.extlog.err_seq = (uint32_t)seq;
	/* An all-ones mask is what rasdaemon prints for "no mask" (lsb 0xff). */
	p->rec.in.extlog.pa_mask_lsb = mask && ~mask ? (uint8_t)lowest_bit(mask) : 0xff;
	/* Between the location (or mask) and the GUID: the firmware's FRU text, may be empty. */
	fru = end + (*end == ' ');
	guid = end + strlen(end) - 36;
	p->rec.in.extlog.fru_text = fru;
	p->rec.in.extlog.fru_text_len = guid - 1 > fru ? (size_t)(guid - 1 - fru) : 0;
	rasd_note(p, 1, "timestamp", stamp, (size_t)(stamp_end - stamp));
	rasd_emit(p, RASD_TEXT_EXTLOG, "rasdaemon log (extlog_mem_event)");
	return true;
}

/* ---- devlink ------------------------------------------------------------------ */

/* "bus_name=<b>, dev_name=<d>, driver_name=<r>, reporter_name=<n>, message='<m>', " */
static bool devlink_row(struct rasd_parser *p, const char *line)
{
	struct devlink_in *d = &p->rec.in.devlink;
	size_t stamp_len;
	const char *stamp, *s = row_start(line, "bus_name=", &stamp, &stamp_len);

	if (!s)
		return false;
	d->bus_name = pair(s, "bus_name", &d->bus_name_len);
	d->dev_name = pair(s, "dev_name", &d->dev_name_len);
	d->driver_name = pair(s, "driver_name", &d->driver_name_len);
	d->reporter_name = pair(s, "reporter_name", &d->reporter_name_len);
	d->msg = quoted(s, "message", &d->msg_len);
	if (!d->dev_name || !d->driver_name || !d->reporter_name || !d->msg) {
		rasd_refuse(p, "malformed rasdaemon devlink row");
		return true;
	}
	rasd_note(p, 1, "timestamp", stamp, stamp_len);
	rasd_emit(p, RASD_TEXT_DEVLINK, "ras-mc-ctl --errors");
	return true;
}

/* ---- disk errors ----------------------------------------------------------------- */

/* The errno rasdaemon named "<kernel blk_errors name> error"; 0 if it could not name it. */
static int disk_errno(const char *s, size_t n)
{
	/* BLK_STS_NEXUS: rasdaemon keeps the name it had before Linux 6.5. */
	if (rasd_name_is("critical nexus error", s, n))
		return -EBADE;
	for (int e = 1; e < 256; e++) {
		const char *name = blockerr_status_name(-e);
		size_t k = name ? strlen(name) : 0;

		if (name && n == k + 6 && strncmp(s, name, k) == 0 && strncmp(s + k, " error", 6) == 0)
			return -e;
	}
	return 0;
}

/* "dev=<major>:<minor>, sector=<n>, nr_sector=<n>, error='<name>', rwbs='<r>', cmd='<c>', " */
static bool disk_row(struct rasd_parser *p, const char *line)
{
	struct blockerr_in *b = &p->rec.in.disk;
	size_t n, stamp_len;
	const char *stamp, *s = row_start(line, "dev=", &stamp, &stamp_len), *v, *end;
	uint64_t major, minor, sector, nr;

	if (!s)
		return false;
	v = pair(s, "dev", &n);
	if (!text_num_prefix(v, 10, &major, &end) || *end != ':' || major > 0xfff ||
	    !text_num_prefix(end + 1, 10, &minor, &end) || end != v + n || minor > 0xfffff ||
	    !pair_num(s, "sector", 10, &sector) || !pair_num(s, "nr_sector", 10, &nr) || nr > UINT32_MAX ||
	    !(v = quoted(s, "error", &n)) || !(b->rwbs = quoted(s, "rwbs", &b->rwbs_len)) ||
	    !(b->cmd = quoted(s, "cmd", &b->cmd_len))) {
		rasd_refuse(p, "malformed rasdaemon disk error row");
		return true;
	}
	if (!(b->error = disk_errno(v, n))) {
		rasd_refuse(p, "rasdaemon disk error row whose error rasdaemon could not name: its errno is lost");
		return true;
	}
	rasd_note(p, 2, "rasdaemon_message", v, n);   /* rasdaemon's name for the error */
	b->dev = (uint32_t)(major << 20 | minor);
	b->sector = sector;
	b->nr_sector = (uint32_t)nr;
	rasd_note(p, 1, "timestamp", stamp, stamp_len);
	rasd_emit(p, RASD_TEXT_DISK, "ras-mc-ctl --errors");
	return true;
}

/* ---- memory failure ------------------------------------------------------------- */

/*
 * rasdaemon stores the page type and result as its own names (the kernel's
 * MF_MSG_* and MF_* strings); the numbers here index this table only, and
 * the decoder is handed the table so that it names them back.
 */
#define MF_SYM(n, s) { n, s }
static const struct memfail_symtab rasd_mf_names = {
	.n_types = 20,
	.types = {
		MF_SYM(0, "reserved kernel page"), MF_SYM(1, "high-order kernel page"),
		MF_SYM(2, "kernel slab page"), MF_SYM(3, "different compound page after locking"),
		MF_SYM(4, "huge page"), MF_SYM(5, "free huge page"), MF_SYM(6, "unmapping failed page"),
		MF_SYM(7, "dirty swapcache page"), MF_SYM(8, "clean swapcache page"),
		MF_SYM(9, "dirty mlocked LRU page"), MF_SYM(10, "clean mlocked LRU page"),
		MF_SYM(11, "dirty unevictable LRU page"), MF_SYM(12, "clean unevictable LRU page"),
		MF_SYM(13, "dirty LRU page"), MF_SYM(14, "clean LRU page"),
		MF_SYM(15, "already truncated LRU page"), MF_SYM(16, "free buddy page"),
		MF_SYM(17, "dax page"), MF_SYM(18, "unsplit thp"), MF_SYM(19, "unknown page"),
	},
	.n_results = 4,
	.results = { MF_SYM(0, "Ignored"), MF_SYM(1, "Failed"), MF_SYM(2, "Delayed"), MF_SYM(3, "Recovered") },
};
#undef MF_SYM

static int mf_name(const struct memfail_sym *tab, size_t n_tab, const char *s, size_t n)
{
	for (size_t i = 0; i < n_tab; i++)
		if (rasd_name_is(tab[i].name, s, n))
			return (int)tab[i].value;
	return -1;
}

/* "pfn=0x<pfn>, page_type=<name>, action_result=<name>" (the log line: spaces, not ", "). */
static bool memfail_fields(struct rasd_parser *p, const char *s, const char *sep)
{
	struct memfail_in *m = &p->rec.in.memfail;
	const char *t = strstr(s, "page_type="), *r = strstr(s, "action_result="), *end;
	size_t tn, rn;

	if (strncmp(s, "pfn=", 4) != 0 || !text_num_prefix(s + 4, 16, &m->pfn, &end) ||
	    strncmp(end, sep, strlen(sep)) != 0 || !t || !r || r < t)
		return false;
	t += 10;
	tn = (size_t)(r - t);
	if (tn < strlen(sep) || strncmp(t + tn - strlen(sep), sep, strlen(sep)) != 0)
		return false;
	tn -= strlen(sep);
	r += 14;
	rn = strlen(r);
	while (rn && r[rn - 1] == ' ')
		rn--;
	m->type = mf_name(rasd_mf_names.types, rasd_mf_names.n_types, t, tn);
	m->result = mf_name(rasd_mf_names.results, rasd_mf_names.n_results, r, rn);
	m->symtab = &rasd_mf_names;
	return m->type >= 0 && m->result >= 0;
}

static bool memfail_row(struct rasd_parser *p, const char *line)
{
	size_t stamp_len;
	const char *stamp, *s = row_start(line, "pfn=", &stamp, &stamp_len);

	if (!s)
		return false;
	if (!memfail_fields(p, s, ", ")) {
		rasd_refuse(p, "malformed rasdaemon memory failure row");
		return true;
	}
	rasd_note(p, 1, "timestamp", stamp, stamp_len);
	rasd_emit(p, RASD_TEXT_MEMFAIL, "ras-mc-ctl --errors");
	return true;
}

/* "memory_failure_event [ALERT] <time> pfn=0x.. page_type=.. action_result=.." */
static bool journal_memfail(struct rasd_parser *p, const char *line)
{
	const char *stamp, *s = rasd_journal_start(line, "memory_failure_event", &stamp);

	if (!s || strncmp(s, "pfn=", 4) != 0)
		return false;
	if (!memfail_fields(p, s, " ")) {
		rasd_refuse(p, "malformed rasdaemon memory_failure_event line");
		return true;
	}
	rasd_note(p, 1, "timestamp", stamp, (size_t)(s - stamp));
	rasd_emit(p, RASD_TEXT_MEMFAIL, "rasdaemon log (memory_failure_event)");
	return true;
}

bool rasd_other_line(struct rasd_parser *p, const char *line)
{
	static bool (*const readers[])(struct rasd_parser *p, const char *line) = {
		extlog_row, devlink_row, disk_row, memfail_row, journal_extlog, journal_memfail,
	};

	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]); i++) {
		memset(&p->rec, 0, sizeof(p->rec));
		if (readers[i](p, line))
			return true;
	}
	return false;
}
