/* SPDX-License-Identifier: MIT */
/*
 * ras-fdr-ctl report (issue 38): a machine's hardware story for a support
 * case, as one self-contained HTML page (-o FILE.html) or the same content
 * as a JSON bundle (--json), from the database and, with --machine, the
 * live machine's identity. The model is filled here (report_model.c,
 * report_lists.c, report_machine.c) and rendered by report/.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "out_file.h"
#include "report.h"
#include "lib/clock.h"

static const struct ctl_opt report_opts[] = {
	{ "output", 'o', "FILE", CTL_C_FILE, "write the report to FILE (default: standard output)" },
	CTL_OPT_JSON,
	{ "part", 'P', "PART", CTL_C_NONE,
	  "only the part named PART (a location of summary, or a piece of one), with its records" },
	{ "redact", 'r', NULL, CTL_C_NONE,
	  "take out the host name, the serials and the addresses but the part's, and say so" },
	{ "machine", 'm', NULL, CTL_C_NONE,
	  "add this machine's identity: DMI, BIOS, kernel, CPUs (microcode, PPIN), DIMM inventory"
	  " (added unasked when the database records this machine's running boot)" },
	CTL_OPT_SINCE, CTL_OPT_UNTIL, CTL_OPT_SYNTHETIC,
	{ NULL },
};

const struct ctl_spec ctl_report_spec = {
	.name = "report", .args = "", .opts = report_opts, .short_keys = "o",
	.summary = "the machine's hardware story for a support case: one HTML file, or a JSON bundle",
	.more = "The HTML is self-contained (inline CSS and SVG, no script, nothing fetched) and\n"
		"prints to PDF. --json writes the same content (doc/schema/report.schema.json).\n"
		"Counts are summary's. The machine's identity is read where the database records\n"
		"the running boot; --machine reads this machine anyway, so use it only where the\n"
		"database was recorded.\n",
};

static int report_opt(void *ctx, int key, const char *arg)
{
	struct report_args *a = ctx;

	switch (key) {
	case 'o': a->output = arg; break;
	case 'j': a->json = true; break;
	case 'P':
		if (!*arg)
			return ctl_usage_error("report", "--part takes a part's name, not ''");
		a->part = arg;
		break;
	case 'r': a->redact = true; break;
	case 'm': a->machine = true; break;
	default:
		if (ctl_filter_option(a->c, &a->f, key, arg) < 0)
			return CTL_EXIT_USAGE;
	}
	return CTL_GO_ON;
}

/* The secrets --redact looks for, gathered from the model. */
struct secrets {
	struct rpt_secret *v;
	size_t n;
	char **keep;                 /* addresses of the part (address_key's): kept; a set */
	size_t nkeep, keep_cap;
	int error;
};

/*
 * An address as the part's are kept: its hex digits lower case, without "0x" and
 * leading zeros, so "ADDR 7e5a1000" in a log is the record's "0x7e5a1000".
 * false: too long to be one (never kept, so taken out).
 */
#define KEY_MAX 40
static bool address_key(const char *addr, size_t len, char k[KEY_MAX])
{
	if (len >= 2 && addr[0] == '0' && (addr[1] == 'x' || addr[1] == 'X'))
		addr += 2, len -= 2;
	while (len > 1 && *addr == '0')
		addr++, len--;
	if (len >= KEY_MAX)
		return false;
	for (size_t i = 0; i < len; i++)
		k[i] = (char)tolower((unsigned char)addr[i]);
	k[len] = '\0';
	return true;
}

/* The part's addresses as a set (a part's 100,000 records hold a million, mostly repeats). */
static size_t key_slot(char *const *keep, size_t cap, const char *k)
{
	uint64_t h = 14695981039346656037ULL;         /* FNV-1a */

	for (const char *p = k; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!keep[i] || !strcmp(keep[i], k))
			return i;
}

static int keep_grow(struct secrets *s)
{
	size_t cap = s->keep_cap ? s->keep_cap * 2 : 1024;
	char **v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < s->keep_cap; i++)
		if (s->keep[i])
			v[key_slot(v, cap, s->keep[i])] = s->keep[i];
	free(s->keep);
	s->keep = v;
	s->keep_cap = cap;
	return 0;
}

static bool kept(const struct secrets *s, const char *addr, size_t len)
{
	char k[KEY_MAX];

	return s->keep_cap && address_key(addr, len, k) && s->keep[key_slot(s->keep, s->keep_cap, k)];
}

static void add_secret(struct secrets *s, const char *text, size_t len, const char *what)
{
	struct rpt_secret *x;
	char *t;

	for (size_t i = 0; i < s->n; i++)
		if (strlen(s->v[i].text) == len && !strncmp(s->v[i].text, text, len))
			return;
	if (!(t = strndup(text, len)) || !(x = report_grow(&s->v, &s->n, sizeof(*x)))) {
		free(t);
		s->error = -ENOMEM;
		return;
	}
	x->text = t;
	x->what = what;
}

/* A serial worth hiding: not empty, not a firmware placeholder, not all one digit. */
static bool real_serial(const char *s)
{
	static const char *const placeholders[] = {
		"Not Specified", "Unknown", "To Be Filled By O.E.M.", "Default string", "None",
		"Not Available", "N/A", "SerNum0", "System Serial Number",
	};
	size_t len = s ? strlen(s) : 0;

	if (len < 4 || strspn(s, "0 ") == len || strspn(s, "F") == len)
		return false;
	for (size_t i = 0; i < sizeof(placeholders) / sizeof(placeholders[0]); i++)
		if (!strcasecmp(s, placeholders[i]))
			return false;
	return true;
}

/*
 * A DIMM of the inventory is the failing part's when the part's name holds its
 * locator, or when it is the SMBIOS device health names for the part's verdict.
 */
static bool dimm_of_part(const struct rpt_model *m, const struct rpt_dimm *d)
{
	if (!m->part_filter)
		return false;
	for (size_t i = 0; i < m->nverdicts; i++)
		if (m->verdicts[i].smbios && m->verdicts[i].smbios->known && d->serial &&
		    real_serial(d->serial) && !strcmp(m->verdicts[i].smbios->serial, d->serial))
			return true;
	if (!d->locator || strlen(d->locator) < 2)
		return false;
	for (size_t i = 0; i < m->nparts; i++)
		if (!strcmp(m->parts[i].kind, "dimm") || !strcmp(m->parts[i].kind, "memory"))
			if (strstr(m->parts[i].name, d->locator))
				return true;
	return false;
}

/* A CPU's PPIN is the failing part's serial when the part is a CPU's on its socket ("socket 0, CPU 2, bank 7"). */
static bool socket_of_part(const struct rpt_model *m, unsigned socket)
{
	for (size_t i = 0; m->part_filter && i < m->nparts; i++) {
		unsigned n;
		int end = 0;

		if (!strcmp(m->parts[i].kind, "cpu") && sscanf(m->parts[i].name, "socket %u%n", &n, &end) == 1 &&
		    n == socket && (m->parts[i].name[end] == ',' || m->parts[i].name[end] == '\0'))
			return true;
	}
	return false;
}

/* mc: the model's machine, or this machine read only to know its serials. */
static void machine_secrets(struct secrets *s, const struct rpt_model *m, const struct rpt_machine *mc)
{

	for (size_t i = 0; mc && i < mc->ndmi; i++)
		if (strstr(mc->dmi[i].key, "serial") && real_serial(mc->dmi[i].value))
			add_secret(s, mc->dmi[i].value, strlen(mc->dmi[i].value), "serial");
	for (size_t i = 0; mc && i < mc->ndimms; i++)
		if (real_serial(mc->dimms[i].serial) && !dimm_of_part(m, &mc->dimms[i]))
			add_secret(s, mc->dimms[i].serial, strlen(mc->dimms[i].serial), "serial");
	/* A PPIN names one CPU as a serial does: kept only for a part of that CPU's. */
	for (size_t i = 0; mc && i < mc->ncpus; i++)
		if (real_serial(mc->cpus[i].ppin) && !socket_of_part(m, mc->cpus[i].socket))
			add_secret(s, mc->cpus[i].ppin, strlen(mc->cpus[i].ppin), "serial");
	/*
	 * The serials of the SMBIOS devices the verdicts name (read from
	 * firmware/dmi/entries, which a kernel may have without the table the
	 * inventory comes from). With --part the verdicts are the part's: kept.
	 */
	for (size_t i = 0; !m->part_filter && i < m->nverdicts; i++) {
		const struct rpt_locator *l = m->verdicts[i].smbios;

		if (l && l->known && real_serial(l->serial))
			add_secret(s, l->serial, strlen(l->serial), "serial");
	}
}

static void keep_address(void *ctx, const char *addr, size_t len)
{
	struct secrets *s = ctx;
	char k[KEY_MAX];
	size_t i;

	if (!address_key(addr, len, k) || kept(s, addr, len))
		return;
	if ((s->nkeep + 1) * 2 > s->keep_cap && (s->error = keep_grow(s)) < 0)
		return;
	i = key_slot(s->keep, s->keep_cap, k);
	if (!(s->keep[i] = strdup(k))) {
		s->error = -ENOMEM;
		return;
	}
	s->nkeep++;
}

static void secret_address(void *ctx, const char *addr, size_t len)
{
	struct secrets *s = ctx;

	if (!kept(s, addr, len))
		add_secret(s, addr, len, "address");
}

static void addresses_of(void *ctx, char **str)
{
	if (*str)
		rpt_addresses_in(*str, secret_address, ctx);
}

static void host_secrets(struct secrets *s, const struct rpt_model *m)
{
	struct utsname u;
	const char *names[2] = { m->machine ? m->machine->hostname : NULL, NULL };

	if (uname(&u) == 0)
		names[1] = u.nodename;
	for (size_t i = 0; i < 2; i++) {
		/* The full name, then its first label ("db7" of "db7.example.com"), at least 2 bytes. */
		if (!names[i] || strlen(names[i]) < 2)
			continue;
		add_secret(s, names[i], strlen(names[i]), "host name");
		size_t short_len = strcspn(names[i], ".");

		if (short_len >= 2 && short_len < strlen(names[i]))
			add_secret(s, names[i], short_len, "host name");
	}
}

static int by_length(const void *a, const void *b)
{
	size_t la = strlen(((const struct rpt_secret *)a)->text), lb = strlen(((const struct rpt_secret *)b)->text);

	return la < lb ? 1 : la > lb ? -1 : 0;
}

static int redact(struct rpt_model *m, const char *sysfs_root)
{
	struct secrets s = { 0 };
	/*
	 * Without --machine the identity is not reported, but its serials are
	 * still looked for: a record's or a crash's text may name one.
	 */
	struct rpt_machine *here = m->machine ? NULL : report_machine(sysfs_root);
	int r;

	if (!m->machine && !here)
		return -ENOMEM;
	struct rpt_machine *mc = m->machine ? m->machine : here;
	/* The serial files refused (not root): said with what was taken out. */
	char **unread = mc->unread;
	size_t nunread = mc->nunread;

	mc->unread = NULL;
	mc->nunread = 0;
	host_secrets(&s, m);
	machine_secrets(&s, m, mc);
	rpt_machine_free(here);
	/*
	 * The microcode revisions are versions, not addresses, and a kept PPIN
	 * (the part's CPU's) a serial: neither is an address to take out.
	 */
	for (size_t i = 0; m->machine && i < m->machine->ncpus; i++) {
		const struct rpt_cpu *c = &m->machine->cpus[i];

		if (c->microcode)
			keep_address(&s, c->microcode, strlen(c->microcode));
		if (c->ppin && socket_of_part(m, c->socket))
			keep_address(&s, c->ppin, strlen(c->ppin));
	}
	/* The part's own addresses stay: its names and its records are the evidence. */
	for (size_t i = 0; m->part_filter && i < m->nparts; i++)
		rpt_addresses_in(m->parts[i].name, keep_address, &s);
	for (size_t i = 0; m->part_filter && m->records && i < m->nrecords; i++)
		rpt_addresses_in(m->records[i], keep_address, &s);
	/* And those of the decisions its records led to (the page offlined). */
	for (size_t i = 0; m->part_filter && i < m->nactions; i++)
		if (m->actions[i].part >= 0) {
			rpt_addresses_in(m->actions[i].subject, keep_address, &s);
			rpt_addresses_in(m->actions[i].target, keep_address, &s);
		}
	/*
	 * The part's records' addresses are all kept: the other strings are looked
	 * through, not them again. The whole machine's records keep none.
	 */
	char **records = m->records;

	if (m->part_filter)
		m->records = NULL;
	rpt_each_string(m, addresses_of, &s);
	m->records = records;
	/* Longest first: a short host name inside a longer one must not cut it. */
	if (s.n)
		qsort(s.v, s.n, sizeof(*s.v), by_length);
	r = s.error ? s.error : rpt_redact(m, s.v, s.n);
	/* unread is the model's now, whatever r (freed with it). */
	int said = rpt_serials_unread(m, unread, nunread, geteuid() == 0);

	if (r == 0)
		r = said;
	for (size_t i = 0; i < s.n; i++)
		free((char *)s.v[i].text);
	free(s.v);
	for (size_t i = 0; i < s.keep_cap; i++)
		free(s.keep[i]);
	free(s.keep);
	return r;
}

/*
 * The model is whole before the file is opened, so a database that cannot be
 * read leaves no file; the report is then written straight to the output
 * (--part's records copied from their spool), never built in memory first.
 * -o's file appears whole or not at all (out_file.h).
 */
static int write_out(const struct report_args *a, const struct rpt_model *m)
{
	struct ctl_out o;
	int r = ctl_out_open(&o, a->output, 0644);

	if (r < 0)
		return r;
	/* 256 KiB writes (glibc sizes a NULL buffer by st_blksize, 4 KiB); o.f is closed here. */
	static char buf[1 << 18];

	setvbuf(o.f, buf, _IOFBF, sizeof(buf));
	errno = 0;
	r = a->json ? rpt_write_json(o.f, m) : rpt_write_html(o.f, m);
	if (r < 0)
		r = errno ? -errno : -EIO;
	return ctl_out_close(&o, r);
}

static int make(struct report_args *a, struct ras_db *db, struct rpt_model *m)
{
	int r;

	if (!(m->version = strdup(PACKAGE_VERSION)))
		return -ENOMEM;
	m->generated_ns = ras_clock_ns(CLOCK_REALTIME);
	if ((r = report_build(db, a, m)) < 0)
		return r;
	if ((a->machine || m->machine_by_boot) && !(m->machine = report_machine(a->c->cfg.sysfs_root)))
		return -ENOMEM;
	return a->redact ? redact(m, a->c->cfg.sysfs_root) : 0;
}

int ctl_report(struct ctl *c, int argc, char **argv)
{
	struct report_args a = { .c = c, .f = { .type_idx = -1 } };
	struct rpt_model m = { 0 };
	struct ras_db *db;
	int first, r = ctl_parse(&ctl_report_spec, argc, argv, report_opt, &a, &first);

	if (r != CTL_GO_ON)
		return r;
	if (first < argc)
		return ctl_usage_error("report", "unexpected argument '%s'", argv[first]);
	if (ctl_open_db(c, &db) < 0)
		return 1;
	r = make(&a, db, &m);
	if (r == -ENOENT && a.part) {     /* no such part: said on stderr */
		ras_db_close(db);
		rpt_model_free(&m);
		return 1;
	}
	if (r < 0) {
		ctl_db_error(c, r == -ENOMEM ? "out of memory" : ras_db_errmsg(db));
		ras_db_close(db);
		rpt_model_free(&m);
		return 1;
	}
	ras_db_close(db);
	if ((r = write_out(&a, &m)) < 0)
		fprintf(stderr, "ras-fdr-ctl report: %s: %s\n", a.output ? a.output : "standard output",
			strerror(-r));
	rpt_model_free(&m);
	return r < 0 ? 1 : 0;
}
