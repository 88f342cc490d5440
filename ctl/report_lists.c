/* SPDX-License-Identifier: MIT */
/*
 * The report's lists: boots, actions (placed on their record's part),
 * crashes with the sentence crashes gives, losses by origin (status's and
 * summary's one definition), the configuration file, and --part's records
 * as errors --json writes them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "report.h"
#include "db/db_actions.h"
#include "db/db_crashes.h"
#include "db/db_report.h"
#include "lib/event_table.h"
#include "lib/fileio.h"
#include "lib/tracing.h"
#include "json_line.h"

static int add_boot(void *ctx, const char *boot_id, int64_t first_seen_ns)
{
	struct rpt_model *m = ctx;
	struct rpt_boot *b = report_grow(&m->boots, &m->nboots, sizeof(*b));

	if (!b || !(b->boot_id = report_dup(boot_id)))
		return -ENOMEM;
	b->first_seen_ns = first_seen_ns;
	return 0;
}

struct action_ctx {
	struct ras_db *db;
	struct rpt_model *m;
	const struct report_args *a;
	int error;
	struct ctl_jbuf line;         /* --part's records: one line at a time, the buffer reused */
};

/* The part of the record that crossed: its summary location, as its part is named. */
static int place_action(struct action_ctx *k, const struct ras_db_action *act)
{
	const struct ras_event_type *t = act->event_table[0] ? ras_event_type_find(act->event_table) : NULL;
	char loc[1024];
	struct rpt_part *p;
	int r;

	if (!t || act->event_id <= 0)
		return -1;
	r = ras_db_report_record_place(k->db, (unsigned)(t - ras_event_types), act->event_id, loc,
				       sizeof(loc));
	if (r <= 0 || !(p = report_find_part(k->m, (unsigned)(t - ras_event_types), loc)))
		return -1;
	return (int)(p - k->m->parts);
}

static int add_action(void *ctx, const struct ras_db_action *act)
{
	struct action_ctx *k = ctx;
	const struct ras_db_filter *f = &k->a->f;
	struct rpt_action *x;
	int part;

	if ((act->synthetic && !f->include_synthetic) || (f->until_ns && act->wall_ns >= f->until_ns))
		return 0;
	part = place_action(k, act);
	if (k->a->part && part < 0)
		return 0;                 /* --part: the part's decisions only */
	if (!(x = report_grow(&k->m->actions, &k->m->nactions, sizeof(*x)))) {
		k->error = -ENOMEM;
		return 1;
	}
	*x = (struct rpt_action){
		.wall_ns = act->wall_ns, .last_ns = act->last_ns, .count = act->count,
		.repeats = act->repeats, .error = act->error, .synthetic = act->synthetic,
		.part = part, .kind = report_dup(act->kind), .subject = report_dup(act->subject),
		.action = report_dup(act->action), .result = report_dup(act->result),
		.threshold = report_dup(act->threshold), .target = report_dup(act->target),
		.event_table = report_dup(act->event_table),
	};
	if (!x->kind || !x->subject || !x->action || !x->result || !x->threshold || !x->target ||
	    !x->event_table) {
		k->error = -ENOMEM;
		return 1;
	}
	return 0;
}

static int add_crash(void *ctx, const struct ras_db_crash *c)
{
	struct action_ctx *k = ctx;
	const struct ras_db_filter *f = &k->a->f;
	int64_t t = c->crash_ns ? c->crash_ns : c->found_ns;
	char line[RAS_SUMMARY_LEN + 1024];
	struct rpt_crash *x;

	if ((f->since_ns && t < f->since_ns) || (f->until_ns && t >= f->until_ns))
		return 0;
	if (!(x = report_grow(&k->m->crashes, &k->m->ncrashes, sizeof(*x))))
		return -ENOMEM;
	ctl_crash_sentence(k->db, c, line, sizeof(line));
	*x = (struct rpt_crash){
		.crash_ns = c->crash_ns, .found_ns = c->found_ns, .boot_number = c->boot_number,
		.explained = c->explained, .boot_id = report_dup(c->boot_id),
		.backend = report_dup(c->backend), .kind = report_dup(c->kind),
		.cause = report_dup(c->cause), .summary = report_dup(line),
		.reason = c->reason ? strdup(c->reason) : NULL,
		.detail = c->detail ? strdup(c->detail) : NULL,
		.hw_lines = c->hw_lines ? strdup(c->hw_lines) : NULL,
	};
	return x->boot_id && x->backend && x->kind && x->cause && x->summary ? 0 : -ENOMEM;
}

static int losses(struct ras_db *db, const struct ras_db_filter *f, struct rpt_model *m)
{
	struct ras_db_losses l;
	int r = ras_db_losses(db, f, 0, &l);

	if (r < 0)
		return r;
	m->lost_records = l.records;
	m->lost_gaps = l.gaps;
	for (unsigned i = 0; i < l.n; i++) {
		struct rpt_loss *x = report_grow(&m->losses, &m->nlosses, sizeof(*x));

		if (!x || !(x->origin = report_dup(l.o[i].origin)))
			return -ENOMEM;
		x->records = l.o[i].records;
		x->gaps = l.o[i].gaps;
		x->rows = l.o[i].rows;
		x->in_total = l.o[i].in_total;
	}
	return 0;
}

/* The configuration file's settings as written ("key = value"; comments and blanks left out). */
static int config(const char *path, struct rpt_model *m)
{
	char *buf, *line, *save = NULL;

	if (!(m->config_path = report_dup(path)))
		return -ENOMEM;
	if (!path || ras_read_file(path, &buf, NULL) < 0)
		return 0;                 /* no file: every setting is its default */
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '='), *k = line, *v;
		struct rpt_kv *kv;

		while (*k == ' ' || *k == '\t')
			k++;
		if (!eq || *k == '#' || *k == ';' || *k == '[')
			continue;
		*eq = 0;
		v = eq + 1;
		k = rasd_trim(k);
		v = rasd_trim(v);
		if (!(kv = report_grow(&m->config, &m->nconfig, sizeof(*kv))) ||
		    !(kv->key = strdup(k)) || !(kv->value = strdup(v))) {
			free(buf);
			return -ENOMEM;
		}
	}
	free(buf);
	return 0;
}

/* --part's records: each row (or folded period) of a kept part, as an errors --json line. */
static int add_record(void *ctx, const struct ras_db_row *row)
{
	struct action_ctx *k = ctx;
	const struct ras_event_type *t = &ras_event_types[row->type_idx];
	char buf[RAS_SUMLOC_LEN], *line, **slot;
	/*
	 * A folded period's too: its location is its first record's, and a memory
	 * failure's names the page its part does not (the roll-ups count it by
	 * ras_db_sumloc_sql over its location and decoding, as this does).
	 */
	const char *loc = ras_summary_location(t, row->decoded, buf, sizeof(buf));
	struct ctl_link link;
	int r;

	if (!report_find_part(k->m, row->type_idx, loc))
		return 0;
	if (row->fold) {
		r = ctl_fprint_json_fold(NULL, &k->line, row);
	} else {
		ctl_row_link(k->db, row, &link);
		r = ctl_fprint_json_row(NULL, &k->line, row, row->decoded, &link);
	}
	if (r < 0)
		return r;
	if (k->line.html) {
		/* Already as rpt_write_record would write it: the line's HTML text. */
		fwrite(k->line.p, 1, k->line.len, k->m->records_file);
		k->m->nrecords++;
		return ferror(k->m->records_file) ? -EIO : 0;
	}
	if (k->m->records_file) {
		rpt_write_record(k->m->records_file, k->m->records_html, k->m->nrecords++, k->line.p,
				 k->line.len);
		return ferror(k->m->records_file) ? -EIO : 0;
	}
	if (!(line = strndup(k->line.p, k->line.len)))
		return -ENOMEM;
	if (!(slot = report_grow(&k->m->records, &k->m->nrecords, sizeof(*slot)))) {
		free(line);
		return -ENOMEM;
	}
	*slot = line;
	return 0;
}

/*
 * The kept parts' locations, for the database to read only their rows (by
 * their decodings: 30 s for one DIMM of 10 million records when every row
 * was decoded and tested here). add_record still tests each row it gets, so
 * the records are the same either way; RAS_FDR_REPORT_SCAN=1 reads every row,
 * as before, the reference tests/report/test-report-part.sh compares with.
 */
static int part_locations(const struct rpt_model *m, struct ras_db_filter *f)
{
	const char **locs;
	const char *scan = getenv("RAS_FDR_REPORT_SCAN");

	if ((scan && !strcmp(scan, "1")) || m->nparts > RAS_DB_LOCATIONS_MAX)
		return 0;
	if (!(locs = calloc(m->nparts ? m->nparts : 1, sizeof(*locs))))
		return -ENOMEM;
	for (size_t i = 0; i < m->nparts; i++)
		locs[i] = m->parts[i].name;
	f->locations = locs;
	f->nlocations = (unsigned)m->nparts;
	return 0;
}

/*
 * An unnamed file for the records, written in the output's own format as
 * they are read and copied into the report (O_TMPFILE: no name anyone could
 * take first, gone at exit). NULL where the file system has no O_TMPFILE:
 * then they are kept in memory.
 */
static FILE *spool_open(void)
{
	int fd = open(P_tmpdir, O_TMPFILE | O_RDWR | O_EXCL | O_CLOEXEC, 0600);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;

	if (!f && fd >= 0)
		close(fd);
	/*
	 * Written in 256 KiB, not stdio's 4 KiB: 35,000 writes for one DIMM's
	 * 130 MB. A buffer of its own (glibc sizes a NULL one by st_blksize); one
	 * spool a run, closed with the model before the program ends.
	 */
	static char buf[1 << 18];

	if (f)
		setvbuf(f, buf, _IOFBF, sizeof(buf));
	return f;
}

static int records(struct action_ctx *k)
{
	struct ras_db_filter f = k->a->f;

	f.with_folds = true;
	f.limit = k->m->records_limit;
	/* One type when every kept part is of it: the other tables are not read. */
	f.type_idx = -1;
	for (size_t i = 0; i < k->m->nparts; i++) {
		int idx = (int)(ras_event_type_find(k->m->parts[i].type) - ras_event_types);

		f.type_idx = i == 0 || f.type_idx == idx ? idx : -2;
	}
	if (f.type_idx == -2)
		f.type_idx = -1;
	/* The whole machine's: its newest records, of every part, as errors lists them. */
	int r = k->a->part ? part_locations(k->m, &f) : 0;

	/* Redacted, the records stay in memory: the secrets are known only once all are read. */
	if (r == 0 && !k->a->redact) {
		k->m->records_file = spool_open();
		k->m->records_html = !k->a->json;
		/* The HTML's lines written as its text at once (json_line.h), not escaped after. */
		ctl_jbuf_html(&k->line, k->m->records_file && k->m->records_html);
	}

	if (r == 0)
		r = ras_db_report_for_rows(k->db);
	if (r == 0)
		r = ras_db_errors(k->db, &f, add_record, k);
	ctl_jbuf_free(&k->line);
	free((void *)f.locations);
	return r < 0 ? r : 0;
}

/*
 * Made where the database was recorded: it holds the running kernel's boot
 * (rasd records each boot it runs in). A copy read on another machine does
 * not, and gets no identity but with --machine.
 */
static bool recorded_here(const struct rpt_model *m)
{
	char id[64];

	if (ras_boot_id(id, sizeof(id)) < 0 || !id[0])
		return false;
	for (size_t i = 0; i < m->nboots; i++)
		if (m->boots[i].boot_id && !strcmp(m->boots[i].boot_id, id))
			return true;
	return false;
}

int report_build(struct ras_db *db, const struct report_args *a, struct rpt_model *m)
{
	struct action_ctx k = { .db = db, .m = m, .a = a };
	int r;

	m->since_ns = a->f.since_ns;
	m->until_ns = a->f.until_ns;
	m->synthetic_included = a->f.include_synthetic;
	if ((a->part && !(m->part_filter = strdup(a->part))) || !(m->database = report_dup(a->c->cfg.database)))
		return -ENOMEM;
	if ((r = ras_db_report_schema(db)) < 0)
		return r;
	m->schema_version = r;
	if ((r = ras_db_report_boots(db, add_boot, m)) < 0 || (r = report_parts(db, a, m)) < 0)
		return r;
	/* Before the verdicts: their DIMMs' SMBIOS devices are looked up where the machine is read. */
	m->machine_by_boot = !a->machine && recorded_here(m);
	if ((r = report_verdicts(db, a, m)) < 0)
		return r;
	if ((r = report_join(m)) < 0 || (r = report_map(db, m)) < 0)
		return r;
	r = ras_db_action_list(db, a->f.since_ns, add_action, &k);
	if (r < 0 && r != -ENOENT)
		return r;
	if (k.error)
		return k.error;
	r = ras_db_crashes(db, NULL, 0, add_crash, &k);
	if (r < 0 && r != -ENOENT)
		return r;
	m->crashes_known = r != -ENOENT;
	if ((r = losses(db, &a->f, m)) < 0 || (r = config(a->c->config_path, m)) < 0)
		return r;
	m->records_limit = a->part ? 0 : RPT_MACHINE_RECORDS;
	return records(&k);
}
