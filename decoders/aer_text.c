/* SPDX-License-Identifier: MIT */
/*
 * Kernel AER report parser (see aer_text.h). Facts about the format, from
 * Linux drivers/pci/pcie/aer.c (aer_print_error, __aer_print_error,
 * aer_print_port_info) and pcie_print_tlp_log():
 *  - the severity word is "Corrected" / "Uncorrected (Non-Fatal)" /
 *    "Uncorrected (Fatal)" up to 6.x, "Correctable" / "Uncorrectable
 *    (Non-Fatal)" / "Uncorrectable (Fatal)" since;
 *  - messages carry an "AER: " prefix since 5.x (dev_fmt), none before;
 *  - "device [vvvv:dddd] error status/mask=%08x/%08x" holds the raw status
 *    and mask registers, then one "[%2d] Name (First)" line per unmasked
 *    bit, Name being the kernel's short name ("RxErr") or, before 4.x, the
 *    specification's words; then "TLP Header: %08x %08x %08x %08x", since
 *    6.x possibly "TLP Header (Flit):" with a different layout;
 *  - type=Inaccessible (earlier "Unaccessible") means no register was read.
 * The parser also takes what syslog readers make of it: a report's lines
 * joined into one, or a line continued on the next without device prefix.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "aer_text.h"

#define AER_LINE_MAX 1024

struct aer_parser {
	int (*on_record)(void *ctx, const struct aer_in *rec, unsigned first_line);
	void (*on_error)(void *ctx, unsigned line, const char *reason);
	void *ctx;
	struct aer_in rec;
	char dev[16];
	int open;         /* a "PCIe Bus Error" line started a report */
	int broken;       /* the open report had a malformed line: drop it */
	int have_status;  /* the status/mask line was seen */
	int have_bits;    /* at least one "[ n] Name" item was seen */
	int inaccessible; /* type=Inaccessible: the kernel read no register */
	uint32_t bits;    /* status bits from "[ n] Name" items */
	int ghes_sev;     /* AER_TP_* of the last firmware (GHES) record's severity, -1 if none */
	unsigned first_line;
};

static void report_error(struct aer_parser *p, unsigned line, const char *reason)
{
	if (p->on_error)
		p->on_error(p->ctx, line, reason);
}

/* Emits the open report, if any. Returns a negative on_record result. */
static int flush(struct aer_parser *p)
{
	int rc = 0;

	if (p->open && !p->broken) {
		if (p->inaccessible) {
			report_error(p, p->first_line,
				     "PCIe Bus Error on an inaccessible device: no error status was logged");
		} else if (!p->have_status && !p->have_bits) {
			/* Never decode a report whose status we did not see as "status 0". */
			report_error(p, p->first_line,
				     "PCIe Bus Error without error status/mask or error bits");
		} else {
			if (!p->have_status)
				p->rec.status = p->bits;
			p->rec.dev_name = p->dev;
			p->rec.dev_name_len = strlen(p->dev);
			rc = p->on_record(p->ctx, &p->rec, p->first_line);
		}
	}
	p->open = 0;
	return rc < 0 ? rc : 0;
}

static int is_hex(char c)
{
	return isxdigit((unsigned char)c);
}

static int is_bdf(const char *s)
{
	return is_hex(s[0]) && is_hex(s[1]) && is_hex(s[2]) && is_hex(s[3]) &&
	       s[4] == ':' && is_hex(s[5]) && is_hex(s[6]) && s[7] == ':' &&
	       is_hex(s[8]) && is_hex(s[9]) && s[10] == '.' &&
	       s[11] >= '0' && s[11] <= '7' && s[12] == ':';
}

/* The last "dddd:bb:dd.f:" that starts before end (end NULL: the whole line), or NULL. */
static const char *find_bdf_before(const char *line, const char *end)
{
	const char *found = NULL;

	for (const char *s = line; *s && (!end || s < end); s++)
		if (is_bdf(s))
			found = s;
	return found;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static const struct {
	const char *word;
	uint8_t severity;
} severities[] = {
	/* Longest first: "Uncorrected" must not match "Uncorrected (Fatal)" as non-fatal. */
	{ "Uncorrectable (Non-Fatal)", AER_TP_NONFATAL },
	{ "Uncorrected (Non-Fatal)", AER_TP_NONFATAL },
	{ "Uncorrectable (Fatal)", AER_TP_FATAL },
	{ "Uncorrected (Fatal)", AER_TP_FATAL },
	{ "Correctable", AER_TP_CORRECTED },
	{ "Corrected", AER_TP_CORRECTED },
	{ "Fatal", AER_TP_FATAL },
};

static int parse_severity(const char *s, uint8_t *sev)
{
	for (size_t i = 0; i < sizeof(severities) / sizeof(severities[0]); i++) {
		size_t n = strlen(severities[i].word);

		if (strncmp(s, severities[i].word, n) == 0 && (s[n] == ',' || s[n] == '\0' || s[n] == ' ')) {
			*sev = severities[i].severity;
			return 0;
		}
	}
	return -EINVAL;
}

static void scan_details(struct aer_parser *p, const char *msg, unsigned line);

static int start_report(struct aer_parser *p, const char *bdf, const char *msg,
			unsigned line)
{
	const char *sev;
	int rc = flush(p);

	if (rc)
		return rc;
	memset(&p->rec, 0, sizeof(p->rec));
	memcpy(p->dev, bdf, 12);
	p->dev[12] = '\0';
	p->open = 1;
	p->broken = p->have_status = p->have_bits = p->inaccessible = 0;
	p->bits = 0;
	p->first_line = line;
	sev = strstr(msg, "severity=");
	if (!sev || parse_severity(sev + 9, &p->rec.severity) < 0) {
		p->broken = 1;
		report_error(p, line, "unknown or missing severity in PCIe Bus Error line");
		return 0;
	}
	if (strstr(msg, "type=Inaccessible") || strstr(msg, "type=Unaccessible"))
		p->inaccessible = 1;
	scan_details(p, msg, line);   /* a syslog reader may have joined the report into one line */
	return 0;
}

/* Reads at most 8 hex digits, with an optional 0x. */
static int parse_hex32(const char *s, uint32_t *v, const char **end)
{
	char *e;
	unsigned long x;

	if (strncmp(s, "0x", 2) == 0)
		s += 2;
	if (!is_hex(*s))
		return -EINVAL;
	errno = 0;
	x = strtoul(s, &e, 16);
	if (errno || e - s > 8)
		return -EINVAL;
	*v = (uint32_t)x;
	*end = e;
	return 0;
}

/* "device [vvvv:dddd]" */
static void parse_pci_id(struct aer_parser *p, const char *s)
{
	unsigned vid, did;

	if (sscanf(s, "device [%4x:%4x]", &vid, &did) == 2) {
		p->rec.has_pci_id = 1;
		p->rec.vendor_id = (uint16_t)vid;
		p->rec.device_id = (uint16_t)did;
	}
}

/* "error status/mask=ssssssss/mmmmmmmm" */
static int parse_status(struct aer_parser *p, const char *s)
{
	s += strlen("error status/mask=");
	if (parse_hex32(s, &p->rec.status, &s) < 0 || *s != '/' ||
	    parse_hex32(s + 1, &p->rec.mask, &s) < 0)
		return -EINVAL;
	p->rec.has_mask = 1;
	p->have_status = 1;
	return 0;
}

/* Is s "[nn] " (one or two digits, spaces allowed inside), the kernel's bit item? */
static int bit_item_number(const char *s, long *bit)
{
	char *e;
	const char *d;

	/* s may be the end of the line: look past it only after a '['. */
	if (*s != '[')
		return 0;
	d = skip_spaces(s + 1);
	if (!isdigit((unsigned char)*d))
		return 0;
	*bit = strtol(d, &e, 10);
	return *e == ']' && (e[1] == ' ' || e[1] == '\t') && e - d <= 2;
}

/* "[nn] Name [(First)]"; returns where scanning goes on. */
static const char *parse_bit(struct aer_parser *p, const char *s, long bit)
{
	const char *name = skip_spaces(strchr(s, ']') + 1), *after;

	after = name;
	while (*after && *after != '[' && strncmp(after, "TLP Header", 10) != 0 &&
	       strncmp(after, "(First)", 7) != 0)
		after++;
	if (bit < 0 || bit > 31)
		return NULL;
	p->bits |= UINT32_C(1) << bit;
	p->have_bits = 1;
	if (strncmp(after, "(First)", 7) == 0) {
		p->rec.has_first_error = 1;
		p->rec.first_error = (uint8_t)bit;
		after += 7;
	}
	return after;
}

/* "TLP Header: h0 h1 h2 h3"; the Flit-mode layout (since PCIe 6.0) is not decoded. */
static int parse_tlp(struct aer_parser *p, const char *s, const char **end)
{
	uint32_t h[4];

	s += strlen("TLP Header");
	if (strncmp(s, " (Flit):", 8) == 0) {
		*end = s + 8;
		return 0;
	}
	if (*s != ':')
		return -EINVAL;
	s++;
	for (int i = 0; i < 4; i++) {
		s = skip_spaces(s);
		if (parse_hex32(s, &h[i], &s) < 0)
			return -EINVAL;
	}
	memcpy(p->rec.tlp_header, h, sizeof(h));
	p->rec.tlp_header_valid = 1;
	*end = s;
	return 0;
}

static void mark_broken(struct aer_parser *p, unsigned line, const char *reason)
{
	if (!p->broken)
		report_error(p, line, reason);
	p->broken = 1;
}

/*
 * Reads every detail item in msg, in order: the device id, status/mask, bit
 * items and the TLP header, whether each has a line of its own or several
 * were joined into one.
 */
static void scan_details(struct aer_parser *p, const char *msg, unsigned line)
{
	const char *s = msg;
	long bit;

	while (*s) {
		if (strncmp(s, "device [", 8) == 0) {
			parse_pci_id(p, s);
			s += 8;
		} else if (strncmp(s, "error status/mask=", 18) == 0) {
			if (parse_status(p, s) < 0)
				mark_broken(p, line, "malformed error status/mask line");
			s += 18;
		} else if (strncmp(s, "TLP Header", 10) == 0) {
			if (parse_tlp(p, s, &s) < 0) {
				mark_broken(p, line, "malformed TLP Header line");
				s += 10;
			}
		} else if (bit_item_number(s, &bit)) {
			const char *next = parse_bit(p, s, bit);

			if (!next) {
				mark_broken(p, line, "malformed error bit line");
				next = s + 1;
			}
			s = next;
		} else {
			s++;
		}
	}
}

/*
 * Where a detail item starts in a line without device prefix, or NULL: only
 * items no other message has (status/mask, TLP Header, a bit item), with a
 * "device [" just before the status/mask.
 */
static const char *first_detail(const char *text)
{
	const char *status = strstr(text, "error status/mask="), *tlp = strstr(text, "TLP Header");
	const char *best = status && (!tlp || status < tlp) ? status : tlp, *dev;
	long bit;

	for (const char *s = text; *s && (!best || s < best); s++)
		if (bit_item_number(s, &bit))
			return s;
	if (best == status && status && (dev = strstr(text, "device [")) && dev < status)
		return dev;
	return best;
}

/* An orphan item counts as AER only if it is unmistakable (not "[8086:1234]" or "device [...]"). */
static int is_aer_item(const char *msg)
{
	long bit;

	if (strstr(msg, "error status/mask=") || strncmp(msg, "TLP Header:", 11) == 0)
		return 1;
	if (!bit_item_number(msg, &bit) || bit > 31)
		return 0;
	msg = skip_spaces(strchr(msg, ']') + 1);
	for (int cor = 0; cor <= 1; cor++) {
		const char *names[2] = { aer_status_bit_short((unsigned)bit, cor),
					 aer_status_bit_name((unsigned)bit, cor) };

		for (int i = 0; i < 2; i++)
			if (names[i] && strncmp(msg, names[i], strlen(names[i])) == 0)
				return 1;
	}
	return 0;
}

/*
 * Firmware-first reports: GHES prints the CPER severity ("{1}[Hardware
 * Error]: event severity: recoverable", drivers/acpi/apei/ghes.c and
 * drivers/firmware/efi/cper.c), then the AER recovery prints the device's
 * registers without a severity word (cper_print_aer in drivers/pci/pcie/
 * aer.c): "<dev> <bdf>: aer_status: 0x%08x, aer_mask: 0x%08x", the bit
 * items, "aer_layer=..., aer_agent=...", the TLP header. CPER severities
 * map as the kernel's cper_severity_to_aer(): recoverable is non-fatal,
 * fatal is fatal, anything else correctable.
 */
static void note_ghes_severity(struct aer_parser *p, const char *text)
{
	const char *s = strstr(text, "event severity: ");

	if (!strstr(text, "[Hardware Error]:") || !s)
		return;
	s += strlen("event severity: ");
	if (strncmp(s, "recoverable", 11) == 0)
		p->ghes_sev = AER_TP_NONFATAL;
	else if (strncmp(s, "fatal", 5) == 0)
		p->ghes_sev = AER_TP_FATAL;
	else
		p->ghes_sev = AER_TP_CORRECTED;
}

static int start_firmware_report(struct aer_parser *p, const char *bdf, const char *msg,
				 unsigned line)
{
	uint32_t status, mask;
	const char *s = msg + strlen("aer_status: ");
	int rc = flush(p);

	if (rc)
		return rc;
	memset(&p->rec, 0, sizeof(p->rec));
	memcpy(p->dev, bdf, 12);
	p->dev[12] = '\0';
	p->open = 1;
	p->broken = p->have_bits = p->inaccessible = 0;
	p->bits = 0;
	p->first_line = line;
	if (parse_hex32(s, &status, &s) < 0 || strncmp(s, ", aer_mask: ", 12) != 0 ||
	    parse_hex32(s + 12, &mask, &s) < 0) {
		mark_broken(p, line, "malformed aer_status/aer_mask line");
		return 0;
	}
	if (p->ghes_sev < 0) {
		mark_broken(p, line, "aer_status line without a firmware (GHES) event severity before it");
		return 0;
	}
	p->rec.severity = (uint8_t)p->ghes_sev;
	p->rec.status = status;
	p->rec.mask = mask;
	p->rec.has_mask = 1;
	p->have_status = 1;
	return 0;
}

static int handle_line(struct aer_parser *p, const char *text, unsigned line)
{
	const char *bus_error = strstr(text, "PCIe Bus Error:");
	const char *bdf = find_bdf_before(text, bus_error), *msg;

	note_ghes_severity(p, text);
	if (bus_error && bdf)
		return start_report(p, bdf, bus_error, line);
	if (!bdf) {
		/* A continuation without device prefix belongs to the open report, if any. */
		/* Not a firmware section's own "TLP Header:" line, though. */
		msg = p->open && !strstr(text, "[Hardware Error]:") ? first_detail(text) : NULL;
		if (msg)
			scan_details(p, msg, line);
		return 0;
	}
	msg = skip_spaces(bdf + 13);
	if (strncmp(msg, "AER:", 4) == 0)
		msg = skip_spaces(msg + 4);
	if (strncmp(msg, "aer_status: ", 12) == 0)
		return start_firmware_report(p, bdf, msg, line);
	if (strstr(msg, "error received") || strstr(msg, "error message received"))
		return flush(p);
	if (!p->open) {
		if (is_aer_item(msg))
			report_error(p, line, "AER detail line without a preceding PCIe Bus Error line");
		return 0;
	}
	if (strncmp(bdf, p->dev, 12) != 0)
		return 0;   /* another device's line in between; not ours */
	scan_details(p, msg, line);
	return 0;
}

int aer_text_parse(const char *buf, size_t len,
		   int (*on_record)(void *ctx, const struct aer_in *rec, unsigned first_line),
		   void (*on_error)(void *ctx, unsigned line, const char *reason),
		   void *ctx)
{
	struct aer_parser p = { .on_record = on_record, .on_error = on_error, .ctx = ctx,
				.ghes_sev = -1 };
	char text[AER_LINE_MAX];
	unsigned line = 0;
	size_t pos = 0;
	int rc;

	if (!buf || !on_record)
		return -EINVAL;
	while (pos < len) {
		size_t n = 0, start = pos;

		while (pos < len && buf[pos] != '\n')
			pos++;
		line++;
		/* Long lines are cut; even a joined AER report is far shorter than the limit. */
		for (size_t i = start; i < pos && n + 1 < sizeof(text); i++)
			text[n++] = buf[i] ? buf[i] : ' ';
		text[n] = '\0';
		pos++;   /* past the newline */
		rc = handle_line(&p, text, line);
		if (rc < 0)
			return rc;
	}
	return flush(&p);
}
