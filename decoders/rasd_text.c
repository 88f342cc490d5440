/* SPDX-License-Identifier: MIT */
/*
 * rasdaemon output parser (see rasd_text.h). Facts about the formats:
 *  - ras-mc-ctl prints its rows as "<id> <timestamp> ..." where the
 *    timestamp is "%Y-%m-%d %H:%M:%S %z" (or missing); the memory row's
 *    address is decimal, its grain is the kernel's grain_bits, and its
 *    location is mc:top:middle:lower with -1 for no layer;
 *  - mc_event error types are Corrected, Uncorrected, Deferred, Fatal,
 *    Info (enum hw_event_mc_err_type); AER types are Corrected,
 *    "Uncorrected (Non-Fatal)", "Uncorrected (Fatal)";
 *  - AER bits are named ", "-joined from rasdaemon's own tables below,
 *    "BIT<n>" for a bit without a name;
 *  - MCE rows print each register as ", name=0x%08x" and leave out those
 *    that are zero; ", CPU <n>" is the kernel's X86_VENDOR_* number.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "rasd_text_internal.h"
#include "text_num.h"

#define RASD_LINE_MAX 1024

void rasd_refuse(struct rasd_parser *p, const char *reason)
{
	if (p->on_error)
		p->on_error(p->ctx, p->line, reason);
}

void rasd_emit(struct rasd_parser *p, enum rasd_text_kind kind, const char *form)
{
	int rc;

	p->rec.kind = kind;
	p->rec.notes[0].key = "rasdaemon";
	p->rec.notes[0].value = form;
	p->rec.notes[0].value_len = strlen(form);
	rc = p->on_record(p->ctx, &p->rec, p->line);
	if (rc < 0)
		p->stop = rc;
	else
		p->count++;
}

void rasd_note(struct rasd_parser *p, unsigned i, const char *key, const char *s, size_t n)
{
	while (n && (s[n - 1] == ' ' || s[n - 1] == ','))
		n--;
	if (!n)
		return;
	p->rec.notes[i].key = key;
	p->rec.notes[i].value = s;
	p->rec.notes[i].value_len = n;
}

static const char *skip_sp(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A signed decimal number. */
static bool read_int(const char *s, int64_t *v, const char **end)
{
	uint64_t u;
	bool neg = *s == '-';

	if (!text_num_prefix(s + neg, 10, &u, end) || u > INT64_MAX)
		return false;
	*v = neg ? -(int64_t)u : (int64_t)u;
	return true;
}

/* "<id> " at the start of a ras-mc-ctl row: its end, or NULL. */
const char *rasd_row_id(const char *s)
{
	uint64_t id;
	const char *end;

	s = skip_sp(s);
	return text_num_prefix(s, 10, &id, &end) && *end == ' ' && s[0] != '0' ? end + 1 : NULL;
}

/* The last word of [start, end), "" if none. */
static const char *word_before(const char *start, const char *end, size_t *n)
{
	const char *w = end;

	while (w > start && w[-1] != ' ')
		w--;
	*n = (size_t)(end - w);
	return w;
}

/* ---- memory (mc_event) ---------------------------------------------------- */

static const char *const mc_types[] = { "Corrected", "Uncorrected", "Deferred", "Fatal", "Info" };

/* EDAC_ERR_* of rasdaemon's word s[0..n), -1 if none. */
static int mc_type(const char *s, size_t n)
{
	static const int values[] = { EDAC_ERR_CORRECTED, EDAC_ERR_UNCORRECTED, EDAC_ERR_DEFERRED,
				      EDAC_ERR_FATAL, EDAC_ERR_INFO };

	for (size_t i = 0; i < sizeof(mc_types) / sizeof(mc_types[0]); i++)
		if (strlen(mc_types[i]) == n && strncmp(s, mc_types[i], n) == 0)
			return values[i];
	return -1;
}

/* "mc:top:mid:low" (ras-mc-ctl) into the EDAC input; *end past it. */
static bool read_location(const char *s, struct edac_in *e, const char **end)
{
	int64_t v[4];

	for (int i = 0; i < 4; i++) {
		if (!read_int(s, &v[i], &s) || v[i] < -1 || v[i] > 127 || (i < 3 && *s++ != ':'))
			return false;
	}
	if (v[0] < 0)
		return false;
	e->mc_index = (uint8_t)v[0];
	e->top_layer = (int8_t)v[1];
	e->middle_layer = (int8_t)v[2];
	e->lower_layer = (int8_t)v[3];
	*end = s;
	return true;
}

/* ", addr A, grain G, syndrome S" then the driver's detail. */
static bool read_addr_grain_syndrome(const char *s, struct edac_in *e)
{
	int64_t addr, grain, synd;

	if (strncmp(s, ", addr ", 7) != 0 || !read_int(s + 7, &addr, &s) ||
	    strncmp(s, ", grain ", 8) != 0 || !read_int(s + 8, &grain, &s) || grain < 0 || grain > 63 ||
	    strncmp(s, ", syndrome ", 11) != 0 || !read_int(s + 11, &synd, &s))
		return false;
	e->address = addr;
	e->grain_bits = (uint8_t)grain;
	e->syndrome = synd;
	s = skip_sp(s);
	e->driver_detail = s;
	e->driver_detail_len = strlen(s);
	return true;
}

/* "<id> <time> <count> <Type> error(s): <msg> at <label> location: ..." */
static bool memory_row(struct rasd_parser *p, const char *line)
{
	const char *id = rasd_row_id(line), *e = id ? strstr(id - 1, " error(s): ") : NULL;
	const char *type, *cnt, *loc, *at, *s;
	struct edac_in *in = &p->rec.in.edac;
	size_t tn, cn;
	int64_t count;
	int t;

	if (!e || !id)
		return false;
	type = word_before(id, e, &tn);
	cnt = word_before(id, type > id ? type - 1 : type, &cn);
	if ((t = mc_type(type, tn)) < 0 || !read_int(cnt, &count, &s) || s != type - 1)
		return false;
	loc = strstr(e, " location: ");
	for (at = NULL, s = e + 10; loc && (s = strstr(s, " at ")) && s < loc; s++)
		at = s;
	if (!loc || !at || at + 4 > loc) {
		rasd_refuse(p, "rasdaemon memory row without 'at <label> location:'");
		return true;
	}
	in->error_type = (uint32_t)t;
	in->error_count = count > 0 && count <= UINT16_MAX ? (uint16_t)count : 1;
	in->msg = skip_sp(e + 10);
	in->msg_len = (size_t)(at > in->msg ? at - in->msg : 0);
	in->label = at + 4;
	in->label_len = (size_t)(loc - in->label);
	if (!read_location(loc + 11, in, &s) || !read_addr_grain_syndrome(s, in)) {
		rasd_refuse(p, "malformed location, addr, grain or syndrome in a rasdaemon memory row");
		return true;
	}
	rasd_note(p, 1, "timestamp", id, (size_t)(cnt - id));
	rasd_emit(p, RASD_TEXT_EDAC, "ras-mc-ctl --errors");
	return true;
}

/* "<Type> on DIMM Label(s): '<label>' location: m:t:m:l errors: <n>" */
static bool memory_summary_row(struct rasd_parser *p, const char *line)
{
	const char *s = skip_sp(line), *on = strstr(s, " on DIMM Label(s): '"), *q, *loc;
	struct edac_in *in = &p->rec.in.edac;
	int64_t count;
	int t;

	if (!on || (t = mc_type(s, (size_t)(on - s))) < 0)
		return false;
	in->label = on + 20;
	q = strstr(in->label, "' location: ");
	if (!q || !read_location(q + 12, in, &loc) || strncmp(loc, " errors: ", 9) != 0 ||
	    !read_int(loc + 9, &count, &s) || *s || count < 1) {
		rasd_refuse(p, "malformed rasdaemon memory summary row");
		return true;
	}
	in->label_len = (size_t)(q - in->label);
	in->error_type = (uint32_t)t;
	in->error_count = count <= UINT16_MAX ? (uint16_t)count : UINT16_MAX;
	in->no_address = 1;
	rasd_emit(p, RASD_TEXT_EDAC, "ras-mc-ctl --summary");
	return true;
}

/* "Label<TAB>CE<TAB>UE" then "<label><TAB><ce><TAB><ue>" rows. */
static bool error_count_row(struct rasd_parser *p, const char *line)
{
	const char *t2 = strrchr(line, '\t'), *t1, *s;
	int64_t ce, ue;

	if (strncmp(line, "Label", 5) == 0 && strcmp(skip_sp(line + 5), "CE\tUE") == 0) {
		p->in_error_count = true;
		return true;
	}
	if (!p->in_error_count)
		return false;
	for (t1 = t2; t1 && t1 > line && t1[-1] != '\t'; t1--)
		;
	if (!t2 || !t1 || t1 == line || !read_int(t1, &ce, &s) || s != t2 ||
	    !read_int(t2 + 1, &ue, &s) || *s || ce < 0 || ue < 0) {
		p->in_error_count = false;
		return false;
	}
	for (int k = 0; k < 2; k++) {
		int64_t n = k ? ue : ce;
		struct edac_in *in = &p->rec.in.edac;

		if (!n)
			continue;
		memset(&p->rec, 0, sizeof(p->rec));
		in->error_type = k ? EDAC_ERR_UNCORRECTED : EDAC_ERR_CORRECTED;
		in->error_count = n <= UINT16_MAX ? (uint16_t)n : UINT16_MAX;
		in->label = line;
		in->label_len = (size_t)(t1 - 1 - line);
		while (in->label_len && line[in->label_len - 1] == ' ')
			in->label_len--;   /* ras-mc-ctl pads the label column */
		in->top_layer = in->middle_layer = in->lower_layer = -1;
		in->no_address = in->no_mc = 1;
		rasd_emit(p, RASD_TEXT_EDAC, "ras-mc-ctl --error-count");
	}
	return true;
}

/* After "<event>[:] [LEVEL] ": the "YYYY-MM-DD HH:MM:SS +zzzz " timestamp's end, or NULL. */
const char *rasd_journal_start(const char *line, const char *event, const char **stamp)
{
	const char *s = strstr(line, event);
	size_t n = strlen(event);

	if (!s || (s > line && s[-1] != ' ') || (s[n] != ' ' && s[n] != ':'))
		return NULL;
	s = skip_sp(s + n + (s[n] == ':'));
	if (*s == '[') {   /* the event level of newer rasdaemon, "[CRIT]" */
		const char *close = strchr(s, ']');

		if (!close)
			return NULL;
		s = skip_sp(close + 1);
	}
	*stamp = s;
	/* Date, time and zone: three words, the first "dddd-dd-dd". Digits checked one by
	 * one, so a shorter line ends the check at its NUL before s[4] is read. */
	for (int i = 0; i < 4; i++)
		if (!(s[i] >= '0' && s[i] <= '9'))
			return NULL;
	if (s[4] != '-')
		return NULL;
	for (int i = 0; i < 3 && s; i++) {
		s = strchr(s, ' ');
		s = s ? s + 1 : NULL;
	}
	return s;
}

/* Inside "(mc: N[ location: a[:b[:c]]][ address: 0x..] grain: G[ syndrome: 0x..][ detail])". */
static bool journal_mc_details(const char *s, struct edac_in *in)
{
	int64_t v, layer[3] = { -1, -1, -1 };
	uint64_t u;
	size_t n;

	if (strncmp(s, "mc: ", 4) != 0 || !read_int(s + 4, &v, &s) || v < 0 || v > 255)
		return false;
	in->mc_index = (uint8_t)v;
	if (strncmp(s, " location: ", 11) == 0) {
		s += 11;
		for (int i = 0; i < 3 && (i == 0 || *s == ':'); i++)
			if (!read_int(s + (i > 0), &layer[i], &s) || layer[i] < 0 || layer[i] > 127)
				return false;
	}
	in->top_layer = (int8_t)layer[0];
	in->middle_layer = (int8_t)layer[1];
	in->lower_layer = (int8_t)layer[2];
	if (strncmp(s, " address: ", 10) == 0) {
		if (!text_num_prefix(s + 10, 16, &u, &s))
			return false;
		in->address = (int64_t)u;
	}
	if (strncmp(s, " grain: ", 8) != 0 || !read_int(s + 8, &v, &s) || v < 0 || v > 63)
		return false;
	in->grain_bits = (uint8_t)v;
	if (strncmp(s, " syndrome: ", 11) == 0) {
		if (!text_num_prefix(s + 11, 16, &u, &s))
			return false;
		in->syndrome = (int64_t)u;
	}
	s = skip_sp(s);
	n = strlen(s);
	if (!n || s[n - 1] != ')')
		return false;
	in->driver_detail = s;
	in->driver_detail_len = n - 1;   /* without the closing parenthesis */
	return true;
}

/* "mc_event <time> <count> <Type> error[s]:[ msg][ on label] (mc: ...)" */
static bool journal_mc(struct rasd_parser *p, const char *line)
{
	const char *stamp, *s = rasd_journal_start(line, "mc_event", &stamp), *colon, *paren, *on;
	const char *stamp_end = s;
	struct edac_in *in = &p->rec.in.edac;
	int64_t count;
	int t;

	if (!s || !read_int(s, &count, &s) || *s++ != ' ')
		return false;
	colon = strstr(s, " error");
	if (!colon || (t = mc_type(s, (size_t)(colon - s))) < 0)
		return false;
	/* " error:" or " errors:"; a line that ends at " error" has nothing after it to read. */
	colon += 6;
	colon += *colon == 's';
	paren = *colon == ':' ? strstr(++colon, " (mc: ") : NULL;
	for (const char *q = paren; q && (q = strstr(q + 1, " (mc: "));)
		paren = q;   /* the last one: a message may hold parentheses */
	if (!paren) {
		rasd_refuse(p, "rasdaemon mc_event line without '(mc: ...)'");
		return true;
	}
	in->error_type = (uint32_t)t;
	in->error_count = count > 0 && count <= UINT16_MAX ? (uint16_t)count : 1;
	in->msg = skip_sp(colon);
	if (in->msg > paren)
		in->msg = paren;   /* no message: the spaces were the parenthesis' own */
	on = strstr(in->msg, " on ");
	if (on && on + 4 > paren)
		on = NULL;
	in->msg_len = (size_t)((on ? on : paren) - in->msg);
	in->label = on ? on + 4 : "";
	in->label_len = on ? (size_t)(paren - on - 4) : 0;
	if (!journal_mc_details(paren + 2, in)) {
		rasd_refuse(p, "malformed '(mc: ...)' part of a rasdaemon mc_event line");
		return true;
	}
	rasd_note(p, 1, "timestamp", stamp, (size_t)(stamp_end - stamp));
	rasd_emit(p, RASD_TEXT_EDAC, "rasdaemon log (mc_event)");
	return true;
}

/* ---- PCIe AER (aer_event) -------------------------------------------------- */

/* rasdaemon's names for the AER status bits (ras-aer-handler.c tables). */
static const char *const rasd_cor_names[32] = {
	[0] = "Receiver Error", [6] = "Bad TLP", [7] = "Bad DLLP", [8] = "RELAY_NUM Rollover",
	[12] = "Replay Timer Timeout", [13] = "Advisory Non-Fatal",
	[14] = "Corrected Internal Error", [15] = "Header Log Overflow",
};
static const char *const rasd_uncor_names[32] = {
	[4] = "Data Link Protocol", [5] = "Surprise Link Down", [12] = "Poisoned TLP",
	[13] = "Flow Control Protocol", [14] = "Completion Timeout", [15] = "Completer Abort",
	[16] = "Unexpected Completion", [17] = "Receiver Overflow", [18] = "Malformed TLP",
	[19] = "ECRC", [20] = "Unsupported Request", [21] = "ACS Violation",
	[22] = "Uncorrected Internal", [23] = "MC Blocked TLP", [24] = "AtomicOp Egress Blocked",
	[25] = "TLP Prefix Blocked", [26] = "Poisoned TLP Egrees Blocked",
};

bool rasd_name_is(const char *name, const char *s, size_t n)
{
	return name && strlen(name) == n && strncmp(name, s, n) == 0;
}

/* The bit rasdaemon (or, in some versions, the kernel or lspci) names s[0..n); -1 if none. */
static int aer_bit_named(const char *s, size_t n, bool cor)
{
	uint64_t bit;
	const char *end;

	if (n > 3 && strncmp(s, "BIT", 3) == 0 && text_num_prefix(s + 3, 10, &bit, &end) &&
	    end == s + n && bit < 32)
		return (int)bit;
	for (unsigned b = 0; b < 32; b++)
		if (rasd_name_is((cor ? rasd_cor_names : rasd_uncor_names)[b], s, n) ||
		    rasd_name_is(aer_status_bit_short(b, cor), s, n) || rasd_name_is(aer_status_bit_name(b, cor), s, n))
			return (int)b;
	return -1;
}

/* ", "-joined bit names up to end (a TLP header after them is read too). */
static bool aer_names(struct rasd_parser *p, const char *s, const char *end)
{
	struct aer_in *a = &p->rec.in.aer;
	const char *tlp = strstr(s, " TLP Header: ");
	bool cor = a->severity == AER_TP_CORRECTED;

	if (end < s)
		end = s;
	if (tlp && tlp < end) {
		char tail;

		if (sscanf(tlp + 13, "%8x %8x %8x %8x%c", &a->tlp_header[0], &a->tlp_header[1],
			   &a->tlp_header[2], &a->tlp_header[3], &tail) < 4)
			return false;
		a->tlp_header_valid = 1;
		end = tlp;
	}
	rasd_note(p, 2, "rasdaemon_message", s, (size_t)(end - s));
	while (s < end) {
		const char *comma = strstr(s, ", ");
		const char *stop = comma && comma < end ? comma : end;
		int bit = aer_bit_named(s, (size_t)(stop - s), cor);

		if (bit < 0)
			return false;
		a->status |= 1u << bit;
		s = stop < end ? stop + 2 : end;
	}
	return a->status != 0;
}

static const struct { const char *word; uint8_t sev; } aer_types[] = {
	{ "Uncorrected (Non-Fatal)", AER_TP_NONFATAL },
	{ "Uncorrected (Fatal)", AER_TP_FATAL },
	{ "Corrected", AER_TP_CORRECTED },
};

/* The AER type that ends at end (exclusive), its start in *start; -1 if none. */
static int aer_type_before(const char *line, const char *end, const char **start)
{
	if (end < line)
		return -1;
	for (size_t i = 0; i < sizeof(aer_types) / sizeof(aer_types[0]); i++) {
		size_t n = strlen(aer_types[i].word);

		if ((size_t)(end - line) >= n && strncmp(end - n, aer_types[i].word, n) == 0) {
			*start = end - n;
			return aer_types[i].sev;
		}
	}
	return -1;
}

static bool is_bdf_at(const char *s)
{
	unsigned seg, bus, dev, fn;
	int n = 0;

	return sscanf(s, "%4x:%2x:%2x.%1x%n", &seg, &bus, &dev, &fn, &n) == 4 && n == 12 &&
	       (s[12] == ' ' || s[12] == '\0');
}

static void aer_refuse_or_emit(struct rasd_parser *p, bool ok, const char *form)
{
	if (!ok)
		rasd_refuse(p, p->rec.in.aer.status ? "malformed TLP header in a rasdaemon AER record"
			  : "rasdaemon AER record naming no error bit decode knows: nothing to decode");
	else
		rasd_emit(p, RASD_TEXT_AER, form);
}

/* "<id> <time> [<bdf> ]<Type> error: <names>[ TLP Header: ...]" */
static bool aer_row(struct rasd_parser *p, const char *line)
{
	const char *id = rasd_row_id(line), *e = id ? strstr(id - 1, " error: ") : NULL, *type, *bdf;
	int sev;

	if (!e || !id || (sev = aer_type_before(id, e, &type)) < 0)
		return false;
	bdf = type - 13;
	p->rec.in.aer.severity = (uint8_t)sev;
	if (bdf >= id && is_bdf_at(bdf)) {
		p->rec.in.aer.dev_name = bdf;
		p->rec.in.aer.dev_name_len = 12;
	}
	rasd_note(p, 1, "timestamp", id, (size_t)((bdf >= id && is_bdf_at(bdf) ? bdf : type) - id));
	aer_refuse_or_emit(p, aer_names(p, e + 8, e + strlen(e)), "ras-mc-ctl --errors");
	return true;
}

/* "<count> <Type> errors: <names>" */
static bool aer_summary_row(struct rasd_parser *p, const char *line)
{
	const char *s = skip_sp(line), *e = strstr(s, " errors:"), *type;
	int64_t count;
	int sev;

	if (e && e[8] != ' ' && e[8] != '\0')
		e = NULL;
	if (!e || (sev = aer_type_before(s, e, &type)) < 0 || !read_int(s, &count, &s) || s + 1 != type)
		return false;
	p->rec.in.aer.severity = (uint8_t)sev;
	rasd_note(p, 1, "count", line + (skip_sp(line) - line), (size_t)(s - skip_sp(line)));
	aer_refuse_or_emit(p, aer_names(p, skip_sp(e + 8), e + strlen(e)), "ras-mc-ctl --summary");
	return true;
}

/* "aer_event <time> <bdf> [(<name> - vendor_id: 0x.. device_id: 0x..) ]<names> <Type>" */
static bool journal_aer(struct rasd_parser *p, const char *line)
{
	const char *stamp, *s = rasd_journal_start(line, "aer_event", &stamp), *end = s ? s + strlen(s) : NULL;
	struct aer_in *a = &p->rec.in.aer;
	const char *type, *ids;
	unsigned vid, did;
	int sev;

	if (!s || !is_bdf_at(s) || (sev = aer_type_before(s, end, &type)) < 0 || type == s)
		return false;
	a->severity = (uint8_t)sev;
	a->dev_name = s;
	a->dev_name_len = 12;
	rasd_note(p, 1, "timestamp", stamp, (size_t)(s - stamp));
	s = skip_sp(s + 12);
	if (*s == '(' && (ids = strstr(s, " - vendor_id: ")) && ids < type &&
	    sscanf(ids, " - vendor_id: %x device_id: %x", &vid, &did) == 2 && strstr(ids, ") ")) {
		a->dev_desc = s + 1;
		a->dev_desc_len = (size_t)(ids - s - 1);
		a->has_pci_id = vid || did;
		a->vendor_id = (uint16_t)vid;
		a->device_id = (uint16_t)did;
		s = strstr(ids, ") ") + 2;
	}
	aer_refuse_or_emit(p, aer_names(p, s, type - 1), "rasdaemon log (aer_event)");
	return true;
}

/* ---- lines ------------------------------------------------------------------ */

static bool (*const readers[])(struct rasd_parser *p, const char *line) = {
	error_count_row, memory_row, memory_summary_row, journal_mc,
	aer_row, aer_summary_row, journal_aer, rasd_other_line, rasd_mce_row, rasd_journal_mce,
};

static void handle_line(struct rasd_parser *p, const char *line)
{
	for (size_t i = 0; i < sizeof(readers) / sizeof(readers[0]) && !p->stop; i++) {
		memset(&p->rec, 0, sizeof(p->rec));
		if (readers[i](p, line))
			return;
	}
}

int rasd_text_parse(const char *buf, size_t len,
		    int (*on_record)(void *ctx, const struct rasd_text_rec *rec, unsigned line),
		    void (*on_error)(void *ctx, unsigned line, const char *reason),
		    void *ctx)
{
	struct rasd_parser p = { .on_record = on_record, .on_error = on_error, .ctx = ctx };
	char text[RASD_LINE_MAX];
	size_t pos = 0;

	if (!buf || !on_record)
		return -EINVAL;
	while (pos < len && !p.stop) {
		size_t n = 0, start = pos;

		while (pos < len && buf[pos] != '\n')
			pos++;
		p.line++;
		for (size_t i = start; i < pos && n + 1 < sizeof(text); i++)
			text[n++] = buf[i] ? buf[i] : ' ';
		while (n && (text[n - 1] == '\r' || text[n - 1] == ' '))
			n--;
		text[n] = '\0';
		pos++;
		handle_line(&p, text);
	}
	return p.stop ? p.stop : p.count;
}
