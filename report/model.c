/* SPDX-License-Identifier: MIT */
/*
 * The report's model: part kinds, timeline columns, the sentences both renderings
 * say, walking and freeing its strings.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include "report.h"

/* Which part an event table's records name (the prefixes are the table's families). */
static const struct { const char *prefix, *kind; } kinds[] = {
	{ "mc_event", "dimm" }, { "extlog_mem_event", "memory" }, { "mce_record", "cpu" },
	{ "arm_event", "cpu" }, { "aer_event", "pcie" }, { "cxl_", "cxl" },
	{ "memory_failure_event", "page" }, { "devlink_", "nic" }, { "block_", "disk" },
	{ "non_standard_event", "platform" },
};

const char *rpt_kind_of(const char *table)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strncmp(table, kinds[i].prefix, strlen(kinds[i].prefix)))
			return kinds[i].kind;
	return "other";
}

/*
 * The sentences the page and the bundle both say (one source): why the
 * machine was read, why records were lost, which decisions were taken.
 */
const struct rpt_machine_why *rpt_machine_why(const struct rpt_model *m)
{
	static const struct rpt_machine_why not_read = {
		"not_read", "The machine's identity was not read: the report was made away from the machine"
		" (the database records none of its boots as running) and without ", "--machine", ".",
	}, by_boot = {
		"running_boot", "Read from this machine: the database records its running boot"
		" (rasd recorded it here).", NULL, "",
	}, asked = { "asked", "Read from this machine: ", "--machine", " was given." };

	return !m->machine ? &not_read : m->machine_by_boot ? &by_boot : &asked;
}

const char *rpt_loss_why(const char *origin)
{
	static const struct { const char *origin, *why; } whys[] = {
		{ "stats", "the kernel's drop counters: its ring buffer was full" },
		{ "subbuffer", "a ring buffer page the kernel marked as following lost records" },
		{ "storage", "a stop of rasd could not store them" },
		{ "crash", "a killed rasd had read them and not stored them" },
		{ "malformed", "what followed a malformed page" },
	};

	for (size_t i = 0; i < sizeof(whys) / sizeof(whys[0]); i++)
		if (!strcmp(origin, whys[i].origin))
			return whys[i].why;
	return "an origin this version does not know";
}

static void free_paths(char **files, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

int rpt_serials_unread(struct rpt_model *m, char **files, size_t n, bool as_root)
{
	char *why;
	size_t len;
	FILE *f;

	if (!n) {
		free_paths(files, n);
		return 0;
	}
	if (!(f = open_memstream(&why, &len))) {
		free_paths(files, n);
		return -ENOMEM;
	}
	fputs("This machine's serial numbers could not be read, so they were not looked for in the"
	      " records' and crashes' text: ", f);
	fputs(as_root ? "reading " : "only root may read ", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " and ", files[i]);
	fputs(as_root ? ", and it was refused even to root." :
	      ", and this report was not made by root. Run it as root to take them out.", f);
	/* Read here though the database may be another machine's: its serials are not here to read. */
	if (!m->machine)
		fputs(" The database records none of this machine's boots as running: if it is another"
		      " machine's, that machine's serials cannot be read here, by root or not.", f);
	if (fclose(f)) {
		free(why);
		free_paths(files, n);
		return -ENOMEM;
	}
	m->serials_unread = files;
	m->nserials_unread = n;
	m->serials_unread_why = why;
	return 0;
}

/* An account decision leaves the machine as it was (actions(8)). */
bool rpt_action_taken(const struct rpt_action *a)
{
	return !strcmp(a->result, "done") && strcmp(a->action, "account") != 0;
}

int rpt_bin_of(const struct rpt_model *m, int64_t t_ns)
{
	if (t_ns < m->t0 || t_ns >= m->t1)
		return -1;
	/* (t - t0) * BINS / span without overflow: spans reach years of nanoseconds. */
	__int128 i = (__int128)(t_ns - m->t0) * RPT_BINS / (m->t1 - m->t0);
	return (int)i;
}

static bool hexdigit(char c)
{
	return isxdigit((unsigned char)c);
}

/* A word of its own at p..p+n of s: not the tail of a longer name, not followed by more of one. */
static bool lone_word(const char *s, const char *p, size_t n)
{
	return (p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]) && p[n] != '_';
}

/*
 * The kernel prints a machine check's address register bare ("ADDR %llx"):
 * at least 5 hex digits after the word ADDR (or addr), a blank, ':' or '='.
 * Two strstr passes, not strcasestr: a part's records are 120 MB to look through.
 */
static void bare_addresses_after(const char *s, const char *word,
				 void (*fn)(void *ctx, const char *addr, size_t len), void *ctx)
{
	for (const char *p = s; p && (p = strstr(p, word)); ) {
		const char *q = p + 4;
		size_t n = 0;

		if (p != s && isalnum((unsigned char)p[-1])) {
			p = q;
			continue;
		}
		q += strspn(q, " :=");
		while (hexdigit(q[n]))
			n++;
		if (q > p + 4 && n >= 5 && lone_word(s, q, n) && !(q[0] == '0' && (q[1] == 'x' || q[1] == 'X')))
			fn(ctx, q, n);
		p = q + n;
	}
}

static void bare_addresses_in(const char *s, void (*fn)(void *ctx, const char *addr, size_t len), void *ctx)
{
	bare_addresses_after(s, "ADDR", fn, ctx);
	bare_addresses_after(s, "addr", fn, ctx);
}

/*
 * A value named as a register, not an address: by the JSON key before it
 * ("status":"0x..") or the word ("STATUS 0x..", "syndrome:0x.."); raw_ as its
 * name without. A machine check's status, a syndrome or a PPIN is evidence
 * that names no place in memory.
 */
static bool register_named(const char *s, const char *p)
{
	static const char *const registers[] = {
		"status", "mcgstatus", "mcgcap", "misc", "synd", "syndrome", "ipid", "ip", "midr",
		"mpidr", "ppin", "microcode", "serial", "first_error", "cpuid", "tsc", "n",
	};
	const char *e = p, *b;
	size_t len;

	while (e > s && strchr("\": =", e[-1]))
		e--;
	for (b = e; b > s && (isalnum((unsigned char)b[-1]) || b[-1] == '_'); b--)
		;
	if (e - b > 4 && !strncasecmp(b, "raw_", 4))
		b += 4;
	len = (size_t)(e - b);
	if (len >= 6 && !strncasecmp(e - 6, "status", 6))
		return true;
	for (size_t i = 0; i < sizeof(registers) / sizeof(registers[0]); i++)
		if (strlen(registers[i]) == len && !strncasecmp(b, registers[i], len))
			return true;
	return false;
}

void rpt_addresses_in(const char *s, void (*fn)(void *ctx, const char *addr, size_t len), void *ctx)
{
	for (const char *p = s; p && (p = strstr(p, "0x")); ) {
		size_t n = 2;

		while (hexdigit(p[n]))
			n++;
		if (n >= 7 && lone_word(s, p, n) && !register_named(s, p))
			fn(ctx, p, n);
		p += n;
	}
	bare_addresses_in(s, fn, ctx);
}

static void each_kv(struct rpt_kv *kv, size_t n, rpt_text_fn fn, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		fn(ctx, &kv[i].key);
		fn(ctx, &kv[i].value);
	}
}

static void each_machine(struct rpt_machine *mc, rpt_text_fn fn, void *ctx)
{
	fn(ctx, &mc->hostname);
	fn(ctx, &mc->kernel);
	each_kv(mc->dmi, mc->ndmi, fn, ctx);
	for (size_t i = 0; i < mc->ncpus; i++) {
		fn(ctx, &mc->cpus[i].model);
		fn(ctx, &mc->cpus[i].stepping);
		fn(ctx, &mc->cpus[i].microcode);
		fn(ctx, &mc->cpus[i].ppin);
	}
	for (size_t i = 0; i < mc->ndimms; i++) {
		struct rpt_dimm *d = &mc->dimms[i];

		fn(ctx, &d->locator);
		fn(ctx, &d->bank_locator);
		fn(ctx, &d->manufacturer);
		fn(ctx, &d->part_number);
		fn(ctx, &d->serial);
		fn(ctx, &d->memory_type);
	}
}

static void each_verdict(struct rpt_verdict *v, rpt_text_fn fn, void *ctx)
{
	fn(ctx, &v->part);
	fn(ctx, &v->label);
	fn(ctx, &v->why);
	fn(ctx, &v->advice);
	fn(ctx, &v->link);
	for (size_t i = 0; i < v->nfaults; i++)
		fn(ctx, &v->faults[i].description);
	for (size_t i = 0; i < v->nhistory; i++)
		fn(ctx, &v->history[i].why);
	if (v->smbios) {
		fn(ctx, &v->smbios->locator);
		fn(ctx, &v->smbios->bank_locator);
		fn(ctx, &v->smbios->manufacturer);
		fn(ctx, &v->smbios->part_number);
		fn(ctx, &v->smbios->serial);
		fn(ctx, &v->smbios->how);
	}
}

const struct rpt_locator *rpt_part_locator(const struct rpt_model *m, const struct rpt_part *p)
{
	static const struct rpt_locator unjudged = {
		.how = (char *)"no verdict names this part, so no DIMM label to look up",
	};

	if (p->verdict >= 0 && (size_t)p->verdict < m->nverdicts && m->verdicts[p->verdict].smbios)
		return m->verdicts[p->verdict].smbios;
	return !strcmp(p->kind, "dimm") ? &unjudged : NULL;
}

void rpt_each_string(struct rpt_model *m, rpt_text_fn fn, void *ctx)
{
	fn(ctx, &m->database);
	fn(ctx, &m->part_filter);
	fn(ctx, &m->config_path);
	if (m->machine)
		each_machine(m->machine, fn, ctx);
	for (size_t i = 0; i < m->nboots; i++)
		fn(ctx, &m->boots[i].boot_id);
	for (size_t i = 0; i < m->nparts; i++) {
		fn(ctx, &m->parts[i].name);
	}
	for (size_t i = 0; i < m->nverdicts; i++)
		each_verdict(&m->verdicts[i], fn, ctx);
	for (size_t i = 0; i < m->map.nmcs; i++)
		fn(ctx, &m->map.mcs[i].name);
	for (size_t i = 0; i < m->map.nslots; i++)
		fn(ctx, &m->map.slots[i].label);
	for (size_t i = 0; i < m->nactions; i++) {
		struct rpt_action *a = &m->actions[i];

		fn(ctx, &a->subject);
		fn(ctx, &a->target);
	}
	for (size_t i = 0; i < m->ncrashes; i++) {
		struct rpt_crash *c = &m->crashes[i];

		fn(ctx, &c->reason);
		fn(ctx, &c->detail);
		fn(ctx, &c->hw_lines);
		fn(ctx, &c->summary);
	}
	each_kv(m->config, m->nconfig, fn, ctx);
	/* A spooled attachment (records_file) is not walked: --redact keeps the records here. */
	for (size_t i = 0; m->records && i < m->nrecords; i++)
		fn(ctx, &m->records[i]);
}

static void free_kv(struct rpt_kv *kv, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kv[i].key);
		free(kv[i].value);
	}
	free(kv);
}

void rpt_machine_free(struct rpt_machine *mc)
{
	if (!mc)
		return;
	free(mc->hostname);
	free(mc->kernel);
	free_kv(mc->dmi, mc->ndmi);
	for (size_t i = 0; i < mc->ncpus; i++) {
		free(mc->cpus[i].model);
		free(mc->cpus[i].stepping);
		free(mc->cpus[i].microcode);
		free(mc->cpus[i].ppin);
	}
	free(mc->cpus);
	for (size_t i = 0; i < mc->ndimms; i++) {
		struct rpt_dimm *d = &mc->dimms[i];

		free(d->locator);
		free(d->bank_locator);
		free(d->manufacturer);
		free(d->part_number);
		free(d->serial);
		free(d->memory_type);
	}
	free(mc->dimms);
	free_paths(mc->unread, mc->nunread);
	free(mc);
}

static void free_verdict(struct rpt_verdict *v)
{
	free(v->kind);
	free(v->part);
	free(v->label);
	free(v->verdict);
	free(v->rule);
	free(v->why);
	free(v->advice);
	free(v->mode);
	free(v->link);
	for (size_t i = 0; i < v->nfaults; i++) {
		free(v->faults[i].mode);
		free(v->faults[i].description);
	}
	free(v->faults);
	for (size_t i = 0; i < v->nhistory; i++) {
		free(v->history[i].was);
		free(v->history[i].verdict);
		free(v->history[i].rule);
		free(v->history[i].why);
	}
	free(v->history);
	if (v->smbios) {
		free(v->smbios->locator);
		free(v->smbios->bank_locator);
		free(v->smbios->manufacturer);
		free(v->smbios->part_number);
		free(v->smbios->serial);
		free(v->smbios->how);
		free(v->smbios);
	}
}

static void free_lists(struct rpt_model *m)
{
	for (size_t i = 0; i < m->nverdicts; i++)
		free_verdict(&m->verdicts[i]);
	free(m->verdicts);
	for (size_t i = 0; i < m->nboots; i++)
		free(m->boots[i].boot_id);
	free(m->boots);
	for (size_t i = 0; i < m->nparts; i++) {
		struct rpt_part *p = &m->parts[i];

		free(p->kind);
		free(p->type);
		free(p->name);
		free_kv(p->by_severity, p->nsev);
	}
	free(m->parts);
	for (size_t i = 0; i < m->nactions; i++) {
		struct rpt_action *a = &m->actions[i];

		free(a->kind);
		free(a->subject);
		free(a->action);
		free(a->result);
		free(a->threshold);
		free(a->target);
		free(a->event_table);
	}
	free(m->actions);
	for (size_t i = 0; i < m->ncrashes; i++) {
		struct rpt_crash *c = &m->crashes[i];

		free(c->boot_id);
		free(c->backend);
		free(c->kind);
		free(c->cause);
		free(c->reason);
		free(c->detail);
		free(c->hw_lines);
		free(c->summary);
	}
	free(m->crashes);
}

static void free_map(struct rpt_dimm_map *d)
{
	for (size_t i = 0; i < d->nmcs; i++) {
		free(d->mcs[i].name);
		for (unsigned l = 0; l < RPT_LAYERS; l++)
			free(d->mcs[i].layer_name[l]);
	}
	free(d->mcs);
	for (size_t i = 0; i < d->nslots; i++)
		free(d->slots[i].label);
	free(d->slots);
}

void rpt_model_free(struct rpt_model *m)
{
	free_lists(m);
	free_map(&m->map);
	for (size_t i = 0; i < m->nlosses; i++)
		free(m->losses[i].origin);
	free(m->losses);
	free_kv(m->config, m->nconfig);
	for (size_t i = 0; m->records && i < m->nrecords; i++)
		free(m->records[i]);
	free(m->records);
	if (m->records_file)
		fclose(m->records_file);
	for (size_t i = 0; i < m->nredactions; i++)
		free(m->redactions[i].what);
	free(m->redactions);
	free_paths(m->serials_unread, m->nserials_unread);
	free(m->serials_unread_why);
	rpt_machine_free(m->machine);
	free(m->version);
	free(m->database);
	free(m->part_filter);
	free(m->config_path);
	free(m->part_index);
	memset(m, 0, sizeof(*m));
}

void rpt_write_record(FILE *f, bool html, size_t i, const char *line, size_t len)
{
	const char *nl;

	if (html) {
		rpt_html_text(f, line, len);
		return;
	}
	/* An errors --json line is JSON already: the bundle holds it as an object. */
	if (i)
		fputc(',', f);
	len = strnlen(line, len);
	fwrite(line, 1, (nl = memchr(line, '\n', len)) ? (size_t)(nl - line) : len, f);
}

/*
 * from's bytes (a regular file, n of them) after to's: by the kernel when both
 * have a descriptor (copy_file_range, else sendfile: 129 MB for one DIMM's
 * records, 500 reads and as many writes through a buffer), else or where
 * neither takes them (another file system, a pipe on an old kernel) through
 * a buffer. 0 or -EIO.
 */
static int copy_spool(FILE *from, FILE *to, off_t n)
{
	int in = fileno(from), out = fileno(to);
	off_t off = 0;
	bool cfr = true;
	char buf[65536];
	size_t got;

	if (fflush(to))
		return -EIO;
	while (in >= 0 && out >= 0 && off < n) {
		ssize_t w = cfr ? copy_file_range(in, &off, out, NULL, (size_t)(n - off), 0)
				: sendfile(out, in, &off, (size_t)(n - off));

		if (w > 0)
			continue;
		if (w < 0 && errno == EINTR)
			continue;
		if (w == 0 || !cfr)
			break;
		cfr = false;          /* EXDEV, EINVAL, ENOSYS...: sendfile takes any pair */
	}
	if (off == n)
		return 0;
	/* What is left through a buffer, from where the kernel stopped. */
	if (fseeko(from, off, SEEK_SET))
		return -EIO;
	while ((got = fread(buf, 1, sizeof(buf), from)) > 0)
		if (fwrite(buf, 1, got, to) != got)
			return -EIO;
	return ferror(from) ? -EIO : 0;
}

int rpt_write_records(FILE *f, const struct rpt_model *m, bool html)
{
	struct stat st;

	if (!m->records_file) {
		for (size_t i = 0; i < m->nrecords; i++)
			rpt_write_record(f, html, i, m->records[i], strlen(m->records[i]));
		return 0;
	}
	/* Written in this output's format when they were read (report_build knows which). */
	if (m->records_html != html || fflush(m->records_file) ||
	    fstat(fileno(m->records_file), &st) < 0)
		return -EIO;
	return copy_spool(m->records_file, f, st.st_size);
}
