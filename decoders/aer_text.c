/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "aer_text.h"

#define AER_LINE_MAX 512

struct aer_parser {
	int (*on_record)(void *ctx, const struct aer_in *rec, unsigned first_line);
	void (*on_error)(void *ctx, unsigned line, const char *reason);
	void *ctx;
	struct aer_in rec;
	char dev[16];
	int open;         /* a "PCIe Bus Error" line started a report */
	int broken;       /* the open report had a malformed line: drop it */
	int have_status;  /* the status/mask line was seen */
	uint32_t bits;    /* status bits from "[ n] Name" lines */
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
		if (!p->have_status)
			p->rec.status = p->bits;
		p->rec.dev_name = p->dev;
		p->rec.dev_name_len = strlen(p->dev);
		rc = p->on_record(p->ctx, &p->rec, p->first_line);
	}
	p->open = 0;
	return rc < 0 ? rc : 0;
}

static int is_hex(char c)
{
	return isxdigit((unsigned char)c);
}

/* Finds "dddd:bb:dd.f:" in line; returns a pointer to it or NULL. */
static const char *find_bdf(const char *line)
{
	for (const char *s = line; *s; s++) {
		if (is_hex(s[0]) && is_hex(s[1]) && is_hex(s[2]) && is_hex(s[3]) &&
		    s[4] == ':' && is_hex(s[5]) && is_hex(s[6]) && s[7] == ':' &&
		    is_hex(s[8]) && is_hex(s[9]) && s[10] == '.' &&
		    s[11] >= '0' && s[11] <= '7' && s[12] == ':')
			return s;
	}
	return NULL;
}

static const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

static int parse_severity(const char *s, uint8_t *sev)
{
	if (strncmp(s, "Corrected", 9) == 0)
		*sev = AER_TP_CORRECTED;
	else if (strncmp(s, "Uncorrected (Non-Fatal)", 23) == 0)
		*sev = AER_TP_NONFATAL;
	else if (strncmp(s, "Uncorrected (Fatal)", 19) == 0 ||
		 strncmp(s, "Fatal", 5) == 0)
		*sev = AER_TP_FATAL;
	else
		return -EINVAL;
	return 0;
}

static int start_report(struct aer_parser *p, const char *bdf, const char *msg,
			unsigned line)
{
	int rc = flush(p);

	if (rc)
		return rc;
	memset(&p->rec, 0, sizeof(p->rec));
	memcpy(p->dev, bdf, 12);
	p->dev[12] = '\0';
	p->open = 1;
	p->broken = 0;
	p->have_status = 0;
	p->bits = 0;
	p->first_line = line;
	msg = strstr(msg, "severity=");
	if (!msg || parse_severity(msg + 9, &p->rec.severity) < 0) {
		p->broken = 1;
		report_error(p, line, "unknown or missing severity in PCIe Bus Error line");
	}
	return 0;
}

/* Reads exactly 8 hex digits. */
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

static int parse_status_line(struct aer_parser *p, const char *msg)
{
	unsigned vid, did;
	const char *s;

	if (sscanf(msg, "device [%4x:%4x]", &vid, &did) == 2) {
		p->rec.has_pci_id = 1;
		p->rec.vendor_id = (uint16_t)vid;
		p->rec.device_id = (uint16_t)did;
	}
	s = strstr(msg, "status/mask=");
	if (!s)
		return -EINVAL;
	s += 12;
	if (parse_hex32(s, &p->rec.status, &s) < 0 || *s != '/' ||
	    parse_hex32(s + 1, &p->rec.mask, &s) < 0)
		return -EINVAL;
	p->rec.has_mask = 1;
	p->have_status = 1;
	return 0;
}

static int parse_bit_line(struct aer_parser *p, const char *msg)
{
	char *e;
	long bit;

	msg = skip_spaces(msg + 1);
	bit = strtol(msg, &e, 10);
	if (e == msg || *e != ']' || bit < 0 || bit > 31)
		return -EINVAL;
	p->bits |= UINT32_C(1) << bit;
	if (strstr(e, "(First)")) {
		p->rec.has_first_error = 1;
		p->rec.first_error = (uint8_t)bit;
	}
	return 0;
}

static int parse_tlp_line(struct aer_parser *p, const char *msg)
{
	const char *s = msg + strlen("TLP Header:");

	for (int i = 0; i < 4; i++) {
		s = skip_spaces(s);
		if (parse_hex32(s, &p->rec.tlp_header[i], &s) < 0)
			return -EINVAL;
	}
	p->rec.tlp_header_valid = 1;
	return 0;
}

/* Handles a detail line of the open report; reason is set on failure. */
static void detail_line(struct aer_parser *p, const char *msg, unsigned line)
{
	int rc = 0;
	const char *what = NULL;

	if (strncmp(msg, "device [", 8) == 0 || strncmp(msg, "error status/mask=", 18) == 0) {
		rc = parse_status_line(p, msg);
		what = "malformed error status/mask line";
	} else if (msg[0] == '[') {
		rc = parse_bit_line(p, msg);
		what = "malformed error bit line";
	} else if (strncmp(msg, "TLP Header:", 11) == 0) {
		rc = parse_tlp_line(p, msg);
		what = "malformed TLP Header line";
	} else {
		return;
	}
	if (!p->open) {
		report_error(p, line, "AER detail line without a preceding PCIe Bus Error line");
		return;
	}
	if (rc < 0 && !p->broken) {
		p->broken = 1;
		report_error(p, line, what);
	}
}

static int handle_line(struct aer_parser *p, const char *text, unsigned line)
{
	const char *bdf = find_bdf(text), *msg;

	if (!bdf)
		return 0;
	msg = skip_spaces(bdf + 13);
	if (strncmp(msg, "AER:", 4) == 0)
		msg = skip_spaces(msg + 4);
	if (strncmp(msg, "PCIe Bus Error:", 15) == 0)
		return start_report(p, bdf, msg, line);
	if (strstr(msg, "error received") || strstr(msg, "error message received"))
		return flush(p);
	if (p->open && strncmp(bdf, p->dev, 12) != 0)
		return 0;   /* another device's line in between; not ours */
	detail_line(p, msg, line);
	return 0;
}

int aer_text_parse(const char *buf, size_t len,
		   int (*on_record)(void *ctx, const struct aer_in *rec, unsigned first_line),
		   void (*on_error)(void *ctx, unsigned line, const char *reason),
		   void *ctx)
{
	struct aer_parser p = { .on_record = on_record, .on_error = on_error, .ctx = ctx };
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
		/* Long lines are cut; AER lines are far shorter than the limit. */
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
