/* SPDX-License-Identifier: MIT */
/*
 * Text machine-check record parsers (see mce_text.h). Line based, no
 * allocation: each line is copied into a bounded buffer and tokenised.
 *
 * Field bases follow what the producers print: the kernel's __print_mce()
 * (arch/x86/kernel/cpu/mce/core.c) and mcelog's ASCII record format print
 * registers in hex (a "0x" prefix is optional) and CPU, bank, TIME and
 * socket numbers in decimal.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include "mce_internal.h"
#include "mce_text.h"
#include "text_num.h"

struct parse_state {
	mce_text_record_fn on_record;
	mce_text_error_fn on_error;
	void *ctx;
	struct mce_in rec;
	bool open;        /* a record is being collected */
	bool bad;         /* the open record had a malformed line: drop it */
	bool have_status; /* the open record has its MCi_STATUS */
	unsigned first_line;
	unsigned line;
	int count;
	int stop;         /* negative callback result */
	long xen_cpu;     /* CPU named by the last Xen "MCE:" line, -1 if none */
};

enum num_base { DEC = 10, HEX = 16 };

/* A whole token as an unsigned number; "0x" always selects hex. */
static bool parse_u64(const char *s, enum num_base base, uint64_t *out)
{
	return text_num_whole(s, base, out);
}

static bool parse_u32(const char *s, enum num_base base, uint32_t *out)
{
	uint64_t v;

	if (!s || !parse_u64(s, base, &v) || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

static void report(struct parse_state *st, const char *reason)
{
	if (st->on_error)
		st->on_error(st->ctx, st->line, reason);
	st->bad = true;
}

static void flush_record(struct parse_state *st)
{
	if (st->open && !st->bad && !st->have_status) {
		/* Without STATUS there is nothing to decode: not "VAL=0", just missing. */
		if (st->on_error)
			st->on_error(st->ctx, st->first_line, "machine-check record without STATUS");
		st->bad = true;
	}
	if (st->open && !st->bad && !st->stop) {
		int rc = st->on_record(st->ctx, &st->rec, st->first_line);

		if (rc < 0)
			st->stop = rc;
		else
			st->count++;
	}
	st->open = false;
	st->bad = false;
}

static void start_record(struct parse_state *st)
{
	flush_record(st);
	memset(&st->rec, 0, sizeof(st->rec));
	st->rec.no_cpuid = 1;
	st->rec.no_socketid = 1;
	st->open = true;
	st->have_status = false;
	st->first_line = st->line;
}

/* Token cursor over one line. */
struct tokens {
	char *save;
	char *cur;
};

static char *next_token(struct tokens *t)
{
	t->cur = strtok_r(NULL, " \t", &t->save);
	return t->cur;
}

typedef bool (*field_fn)(struct parse_state *st, struct tokens *t);

static bool hex_field(struct tokens *t, uint64_t *dst)
{
	const char *v = next_token(t);

	return v && parse_u64(v, HEX, dst);
}

static bool f_status(struct parse_state *st, struct tokens *t)
{
	st->have_status = true;
	return hex_field(t, &st->rec.status);
}
static bool f_addr(struct parse_state *st, struct tokens *t) { return hex_field(t, &st->rec.addr); }
static bool f_misc(struct parse_state *st, struct tokens *t) { return hex_field(t, &st->rec.misc); }
static bool f_mcgstatus(struct parse_state *st, struct tokens *t) { return hex_field(t, &st->rec.mcgstatus); }
static bool f_mcgcap(struct parse_state *st, struct tokens *t) { return hex_field(t, &st->rec.mcgcap); }
static bool f_tsc(struct parse_state *st, struct tokens *t) { return hex_field(t, &st->rec.tsc); }

static bool f_synd(struct parse_state *st, struct tokens *t)
{
	st->rec.has_synd = 1;
	return hex_field(t, &st->rec.synd);
}

static bool f_ipid(struct parse_state *st, struct tokens *t)
{
	st->rec.has_ipid = 1;
	return hex_field(t, &st->rec.ipid);
}

static bool f_ppin(struct parse_state *st, struct tokens *t)
{
	st->rec.has_ppin = 1;
	return hex_field(t, &st->rec.ppin);
}

/* SMCA vendor data as printed by newer kernels: SYND1/SYND2 fill v_data[0..15]. */
static bool vendor_data(struct parse_state *st, struct tokens *t, unsigned slot)
{
	uint64_t v;

	if (!hex_field(t, &v))
		return false;
	mce_vendor_word_set(&st->rec, slot, v);
	return true;
}

static bool f_synd1(struct parse_state *st, struct tokens *t) { return vendor_data(st, t, 0); }
static bool f_synd2(struct parse_state *st, struct tokens *t) { return vendor_data(st, t, 1); }

static bool f_microcode(struct parse_state *st, struct tokens *t)
{
	st->rec.has_microcode = 1;
	return parse_u32(next_token(t), HEX, &st->rec.microcode);
}

static bool f_apicid(struct parse_state *st, struct tokens *t)
{
	return parse_u32(next_token(t), HEX, &st->rec.apicid);
}

static bool f_socket(struct parse_state *st, struct tokens *t)
{
	st->rec.no_socketid = 0;
	return parse_u32(next_token(t), DEC, &st->rec.socketid);
}

static bool f_time(struct parse_state *st, struct tokens *t)
{
	const char *v = next_token(t);

	return v && parse_u64(v, DEC, &st->rec.walltime);
}

static bool f_bank(struct parse_state *st, struct tokens *t)
{
	uint32_t bank;

	if (!parse_u32(next_token(t), DEC, &bank) || bank > UINT8_MAX)
		return false;
	st->rec.bank = (uint8_t)bank;
	return true;
}

/* "PROCESSOR <vendor>:<cpuid>", vendor decimal, CPUID.1.EAX hex. */
static bool f_processor(struct parse_state *st, struct tokens *t)
{
	char *v = next_token(t), *colon;
	uint32_t vendor;

	if (!v || !(colon = strchr(v, ':')))
		return false;
	*colon = '\0';
	if (!parse_u32(v, DEC, &vendor) || vendor > UINT8_MAX ||
	    !parse_u32(colon + 1, HEX, &st->rec.cpuid))
		return false;
	st->rec.cpuvendor = (uint8_t)vendor;
	st->rec.no_cpuid = 0;
	return true;
}

/* "RIP [!INEXACT!] <cs>:<ip>" where ip may be wrapped in <>. */
static bool f_rip(struct parse_state *st, struct tokens *t)
{
	char *v = next_token(t), *colon, *ip, *end;
	uint32_t cs;

	if (v && strcmp(v, "!INEXACT!") == 0)
		v = next_token(t);
	if (!v || !(colon = strchr(v, ':')))
		return false;
	*colon = '\0';
	ip = colon + 1;
	if (*ip == '<')
		ip++;
	end = strchr(ip, '>');
	if (end)
		*end = '\0';
	if (!parse_u32(v, HEX, &cs) || cs > UINT8_MAX || !parse_u64(ip, HEX, &st->rec.ip))
		return false;
	st->rec.cs = (uint8_t)cs;
	return true;
}

/* mcelog's decoded output: "CPUID Vendor Intel Family 6 Model 85 [Step 4]". */
static const struct mce_code_text cpuid_vendor_words[] = {
	{ MCE_VENDOR_INTEL, "Intel" }, { MCE_VENDOR_AMD, "AMD" }, { MCE_VENDOR_HYGON, "Hygon" },
	{ MCE_VENDOR_ZHAOXIN, "Zhaoxin" }, { MCE_VENDOR_CENTAUR, "Centaur" }, { 0, NULL },
};

static bool f_cpuid_words(struct parse_state *st, struct tokens *t)
{
	uint32_t num[3] = { 0, 0, 0 };
	static const char *const keys[3] = { "Family", "Model", "Step" };
	const struct mce_code_text *v;
	char *w = next_token(t);

	if (!w || strcmp(w, "Vendor") != 0 || !(w = next_token(t)))
		return false;
	for (v = cpuid_vendor_words; v->text && strcmp(v->text, w) != 0; v++)
		;
	if (!v->text)
		return false;
	for (unsigned i = 0; i < 3 && (w = next_token(t)) && strcmp(w, keys[i]) == 0; i++)
		if (!parse_u32(next_token(t), DEC, &num[i]) || num[i] > 0xff)
			return false;
	st->rec.cpuvendor = (uint8_t)v->code;
	st->rec.cpuid = mce_cpuid_signature(num[0], num[1], num[2]);
	st->rec.no_cpuid = 0;
	return true;
}

static const struct {
	const char *keyword;
	field_fn parse;
	const char *error;
	/* A word that must follow for the line to be this field, else the line is not ours:
	 * "CPUID Info:" heads the CPUID dump of a GHES IA32/X64 section, not mcelog's line. */
	const char *then;
} fields[] = {
	{ "CPUID", f_cpuid_words, "bad CPUID line (want Vendor <name> Family <n> Model <n>)", "Vendor" },
	{ "STATUS", f_status, "bad STATUS value", NULL },
	{ "ADDR", f_addr, "bad ADDR value", NULL },
	{ "MISC", f_misc, "bad MISC value", NULL },
	{ "SYND", f_synd, "bad SYND value", NULL },
	{ "SYND1", f_synd1, "bad SYND1 value", NULL },
	{ "SYND2", f_synd2, "bad SYND2 value", NULL },
	{ "IPID", f_ipid, "bad IPID value", NULL },
	{ "PPIN", f_ppin, "bad PPIN value", NULL },
	{ "MCGSTATUS", f_mcgstatus, "bad MCGSTATUS value", NULL },
	{ "MCGCAP", f_mcgcap, "bad MCGCAP value", NULL },
	{ "TSC", f_tsc, "bad TSC value", NULL },
	{ "RIP", f_rip, "bad RIP value (want cs:ip)", NULL },
	{ "TIME", f_time, "bad TIME value", NULL },
	{ "SOCKETID", f_socket, "bad SOCKETID value", NULL },
	{ "SOCKET", f_socket, "bad SOCKET value", NULL },
	{ "APICID", f_apicid, "bad APICID value", NULL },
	{ "APIC", f_apicid, "bad APIC value", NULL },
	{ "PROCESSOR", f_processor, "bad PROCESSOR value (want vendor:cpuid)", NULL },
	{ "MICROCODE", f_microcode, "bad MICROCODE value", NULL },
	{ "microcode", f_microcode, "bad microcode value", NULL },
	{ "BANK", f_bank, "bad BANK value", NULL },
};

static int find_field(const char *word)
{
	for (size_t i = 0; i < MCE_ARRAY_SIZE(fields); i++)
		if (strcmp(word, fields[i].keyword) == 0)
			return (int)i;
	return -1;
}

/* Whether the untokenised rest of the line starts with word (a peek, nothing consumed). */
static bool rest_starts_with(const struct tokens *t, const char *word)
{
	const char *p = t->save;
	size_t n = strlen(word);

	if (!p)
		return false;
	p += strspn(p, " \t");
	return strncmp(p, word, n) == 0 && (p[n] == '\0' || p[n] == ' ' || p[n] == '\t');
}

/*
 * Parses "KEY value [KEY value ...]" from the current token on. Stops
 * quietly at the first word that is not a keyword (trailing prose such as
 * a symbolised RIP or a human-readable TIME). Returns false after reporting.
 */
static bool parse_fields(struct parse_state *st, struct tokens *t)
{
	for (char *w = t->cur; w; w = next_token(t)) {
		int i = find_field(w);

		if (i < 0 || (fields[i].then && !rest_starts_with(t, fields[i].then)))
			return true;
		if (!st->open) {
			report(st, "field outside a record (no CPU line before it)");
			return false;
		}
		if (!fields[i].parse(st, t)) {
			report(st, fields[i].error);
			return false;
		}
	}
	return true;
}

/* mcelog "CPU <cpu> <bank>" or "CPU <cpu> BANK <bank>", possibly followed by more fields. */
static void parse_mcelog_cpu(struct parse_state *st, struct tokens *t)
{
	char *w;

	start_record(st);
	if (!parse_u32(next_token(t), DEC, &st->rec.cpu)) {
		report(st, "bad CPU number");
		return;
	}
	w = next_token(t);
	if (w && find_field(w) < 0) {
		uint32_t bank;

		if (!parse_u32(w, DEC, &bank) || bank > UINT8_MAX) {
			report(st, "bad bank number on CPU line");
			return;
		}
		st->rec.bank = (uint8_t)bank;
		next_token(t);
	}
	parse_fields(st, t);
}

static void parse_mcelog_line(struct parse_state *st, char *line)
{
	struct tokens t = { NULL, NULL };

	t.cur = strtok_r(line, " \t", &t.save);
	if (!t.cur || t.cur[0] == '#')
		return;
	if (strcmp(t.cur, "CPU") == 0) {
		parse_mcelog_cpu(st, &t);
		return;
	}
	if (find_field(t.cur) < 0)
		return; /* prose, e.g. mcelog's "Hardware event" banner */
	if (st->bad)
		return; /* rest of a dropped record */
	parse_fields(st, &t);
}

/* Kernel: "CPU <n>: Machine Check[ Exception]: <mcgstatus> Bank <b>: <status>". */
static void parse_kernel_header(struct parse_state *st, char *text)
{
	char *bank = strstr(text, " Bank "), *colon, *mcg;
	uint32_t b;

	start_record(st);
	if (!bank) {
		report(st, "machine check header without Bank");
		return;
	}
	*bank = '\0';
	bank += 6;
	mcg = strrchr(text, ':');
	colon = strchr(bank, ':');
	if (!mcg || !colon) {
		report(st, "malformed machine check header");
		return;
	}
	*colon = '\0';
	*strchr(text, ':') = '\0';
	while (*++mcg == ' ')
		;
	while (*++colon == ' ')
		;
	if (!parse_u32(text + 4, DEC, &st->rec.cpu) || !parse_u64(mcg, HEX, &st->rec.mcgstatus) ||
	    !parse_u32(bank, DEC, &b) || b > UINT8_MAX || !parse_u64(colon, HEX, &st->rec.status)) {
		report(st, "bad number in machine check header");
		return;
	}
	st->rec.bank = (uint8_t)b;
	st->have_status = true;
}

static void parse_kernel_line(struct parse_state *st, char *text)
{
	while (*text == ' ')
		text++;
	if (strncmp(text, "CPU ", 4) == 0 && strstr(text, "Machine Check")) {
		parse_kernel_header(st, text);
		return;
	}
	parse_mcelog_line(st, text);
}

/* Xen: "(XEN) MCE: ... on CPU <n>." then "(XEN) Bank <b>: <status> [at <addr>]". */
static void parse_xen_line(struct parse_state *st, char *text)
{
	struct tokens t = { NULL, NULL };
	char *on_cpu = strstr(text, " on CPU "), *colon;
	uint32_t bank;

	if (strncmp(text, " MCE:", 5) == 0 && on_cpu) {
		uint64_t cpu;

		on_cpu[8 + strspn(on_cpu + 8, "0123456789")] = '\0';
		st->xen_cpu = parse_u64(on_cpu + 8, DEC, &cpu) && cpu <= UINT32_MAX ? (long)cpu : -1;
		return;
	}
	t.cur = strtok_r(text, " \t", &t.save);
	if (!t.cur || strcmp(t.cur, "Bank") != 0)
		return;
	start_record(st);
	st->rec.cpu = st->xen_cpu >= 0 ? (uint32_t)st->xen_cpu : 0;
	colon = next_token(&t) ? strchr(t.cur, ':') : NULL;
	if (colon)
		*colon = '\0';
	if (!colon || !parse_u32(t.cur, DEC, &bank) || bank > UINT8_MAX ||
	    !hex_field(&t, &st->rec.status)) {
		report(st, "bad Xen Bank line");
		return;
	}
	st->rec.bank = (uint8_t)bank;
	st->have_status = true;
	if (next_token(&t) && strcmp(t.cur, "at") == 0 && !hex_field(&t, &st->rec.addr))
		report(st, "bad address on Xen Bank line");
	if (st->xen_cpu < 0)
		report(st, "Xen Bank line without a preceding MCE line naming the CPU");
	flush_record(st);
}

/*
 * sb_edac, skx/i10nm and pnd2 print the machine check they handle
 * ("HANDLING MCE MEMORY ERROR", drivers/edac/sb_edac.c, skx_common.c) with
 * __print_mce()'s fields, each message behind "EDAC <driver> MC<n>: "; a
 * message printed without newline shares the line with the next one
 * ("ADDR 12345000 EDAC sbridge MC3: MISC 144780c86"). The EDAC core's own
 * error lines ("EDAC MC0: 1 CE ...") start with no field and are skipped.
 */
static bool parse_edac_line(struct parse_state *st, char *line)
{
	char *e = strstr(line, "EDAC ");

	if (!e)
		return false;
	while (e) {
		char *next = strstr(e + 5, "EDAC "), *colon, saved = 0;

		if (next) {
			saved = *next;
			*next = '\0';
		}
		colon = strstr(e, ": ");
		if (colon)
			parse_kernel_line(st, colon + 2);
		if (next)
			*next = saved;
		e = next;
	}
	return true;
}

static void parse_line(struct parse_state *st, char *line)
{
	static const char kernel_tag[] = "[Hardware Error]:";
	char *tag = strstr(line, kernel_tag);
	char *start = line + strspn(line, " \t");

	if (!tag && parse_edac_line(st, line))
		return;
	if (tag)
		parse_kernel_line(st, tag + sizeof(kernel_tag) - 1);
	else if (strncmp(start, "(XEN)", 5) == 0)
		parse_xen_line(st, start + 5);
	else
		parse_mcelog_line(st, start);
}

int mce_text_parse(const char *buf, size_t len, mce_text_record_fn on_record,
		   mce_text_error_fn on_error, void *ctx)
{
	struct parse_state st = { .on_record = on_record, .on_error = on_error, .ctx = ctx,
				  .xen_cpu = -1 };
	char line[MCE_TEXT_MAX_LINE];
	size_t pos = 0;

	if ((!buf && len) || !on_record)
		return -EINVAL;
	while (pos < len && !st.stop) {
		const char *nl = memchr(buf + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (buf + pos)) : len - pos;

		st.line++;
		if (n && buf[pos + n - 1] == '\r')
			n--;
		if (n >= sizeof(line)) {
			report(&st, "line too long");
		} else {
			memcpy(line, buf + pos, n);
			line[n] = '\0';
			parse_line(&st, line);
		}
		pos += (nl ? (size_t)(nl - (buf + pos)) + 1 : len - pos);
	}
	flush_record(&st);
	return st.stop ? st.stop : st.count;
}
