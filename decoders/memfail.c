/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memfail.h"
#include "other_util.h"

const struct ras_dfield memfail_dfields[] = {
	RAS_DF_X(struct memfail_decoded, pfn),
	RAS_DF_I(struct memfail_decoded, type),
	RAS_DF_S(struct memfail_decoded, type_name),
	RAS_DF_I(struct memfail_decoded, result),
	RAS_DF_S(struct memfail_decoded, result_name),
};
const size_t memfail_n_dfields = OU_ARRAY_SIZE(memfail_dfields);

/*
 * enum mf_result (Linux include/linux/mm.h, "MF_IGNORED" ...): unchanged
 * since it was introduced, so it is also the fallback when no print fmt is
 * given. Severity: the page was isolated (recovered/delayed) or poison may
 * still be reachable (ignored/failed).
 */
static const struct {
	const char *name;
	enum ras_severity severity;
	const char *meaning;
} mf_results[] = {
	{ "Ignored", RAS_SEV_UNCORRECTED, "the kernel could not handle this page type; the poison may still be reachable" },
	{ "Failed", RAS_SEV_UNCORRECTED, "recovery failed; processes using the page may have been killed" },
	{ "Delayed", RAS_SEV_SRAO, "the page will be isolated when it is freed" },
	{ "Recovered", RAS_SEV_SRAO, "the page was taken out of use" },
};

/* Skips blanks and commas. */
static const char *skip_sep(const char *s, const char *end)
{
	while (s < end && (*s == ' ' || *s == '\t' || *s == ',' || *s == '\n'))
		s++;
	return s;
}

/* Parses one `{ value, "name" }`; returns the position after it or NULL. */
static const char *parse_entry(const char *s, const char *end, struct memfail_sym *sym,
			       int *numeric)
{
	char num[32], *e;
	size_t n = 0, o = 0;

	s = skip_sep(s + 1, end);
	while (s < end && *s != ',' && *s != '}' && n + 1 < sizeof(num))
		num[n++] = *s++;
	num[n] = '\0';
	while (n && num[n - 1] == ' ')
		num[--n] = '\0';
	sym->value = strtoll(num, &e, 0);
	*numeric = n > 0 && *e == '\0';
	s = skip_sep(s, end);
	if (s >= end || *s != '"')
		return NULL;
	for (s++; s < end && *s != '"'; s++) {
		if (*s == '\\' && s + 1 < end)
			s++;
		if (o + 1 < sizeof(sym->name))
			sym->name[o++] = *s;
	}
	sym->name[o] = '\0';
	if (s >= end)
		return NULL;
	s = skip_sep(s + 1, end);
	return s < end && *s == '}' ? s + 1 : NULL;
}

static int parse_list(const char *fmt, size_t len, const char *field,
		      struct memfail_sym *out, size_t max, size_t *n)
{
	char needle[64];
	const char *s, *end = fmt + len;

	*n = 0;
	snprintf(needle, sizeof(needle), "__print_symbolic(REC->%s,", field);
	s = ou_find(fmt, len, needle);
	if (!s)
		return -ENOENT;
	s += strlen(needle);
	for (;;) {
		struct memfail_sym sym;
		int numeric;

		s = skip_sep(s, end);
		if (s >= end || *s != '{')
			break;
		s = parse_entry(s, end, &sym, &numeric);
		if (!s)
			return -EINVAL;
		if (numeric && *n < max)
			out[(*n)++] = sym;
	}
	return 0;
}

int memfail_symtab_parse(const char *print_fmt, size_t len, struct memfail_symtab *out)
{
	int rc;

	if (!print_fmt || !out)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	rc = parse_list(print_fmt, len, "type", out->types, MEMFAIL_SYM_MAX, &out->n_types);
	if (rc < 0)
		return rc;
	parse_list(print_fmt, len, "result", out->results,
		   OU_ARRAY_SIZE(out->results), &out->n_results);
	return 0;
}

static const char *sym_find(const struct memfail_sym *s, size_t n, int64_t v)
{
	for (size_t i = 0; i < n; i++)
		if (s[i].value == v)
			return s[i].name;
	return NULL;
}

int memfail_decode(const struct memfail_in *in, struct memfail_decoded *out)
{
	const char *tname = NULL, *rname = NULL;

	if (!out)
		return -EINVAL;
	ou_reset(out, sizeof(*out), memfail_dfields, memfail_n_dfields);
	if (!in)
		return -EINVAL;
	out->pfn = (int64_t)in->pfn;
	out->type = in->type;
	out->result = in->result;
	if (in->symtab) {
		tname = sym_find(in->symtab->types, in->symtab->n_types, in->type);
		rname = sym_find(in->symtab->results, in->symtab->n_results, in->result);
	}
	out->severity = RAS_SEV_UNCORRECTED;
	if (in->result >= 0 && (size_t)in->result < OU_ARRAY_SIZE(mf_results)) {
		if (!rname)
			rname = mf_results[in->result].name;
		out->severity = mf_results[in->result].severity;
	}
	if (tname)
		snprintf(out->type_name, sizeof(out->type_name), "%s", tname);
	else
		snprintf(out->type_name, sizeof(out->type_name), "type %d", in->type);
	if (rname)
		snprintf(out->result_name, sizeof(out->result_name), "%s", rname);
	else
		snprintf(out->result_name, sizeof(out->result_name), "result %d", in->result);
	snprintf(out->location, sizeof(out->location), "memory page pfn 0x%llx",
		 (unsigned long long)in->pfn);
	return 0;
}

void memfail_render(const struct memfail_decoded *d, char *buf, size_t len)
{
	if (!buf || !len)
		return;
	buf[0] = '\0';
	/*
	 * Nothing known (no record): the caller says it could not be decoded.
	 * Not judged by pfn, whose 64 bits may equal RAS_DF_NONE.
	 */
	if (!d || !d->type_name[0])
		return;
	snprintf(buf, len, "Hardware memory error on page pfn 0x%llx (%s): recovery %s",
		 (unsigned long long)d->pfn, d->type_name, d->result_name);
	if (d->result >= 0 && d->result < (int64_t)OU_ARRAY_SIZE(mf_results) &&
	    mf_results[d->result].meaning)
		ou_appendf(buf, len, ", %s", mf_results[d->result].meaning);
	ou_appendf(buf, len, "; check the memory error log for the DIMM behind this address");
}
