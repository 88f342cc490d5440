/* SPDX-License-Identifier: MIT */
/*
 * Printing the metrics. OpenMetrics 1.0 (the TYPE line names the family, a
 * counter's sample ends in _total, info families end in _info, "# EOF" ends
 * the exposition) and the Prometheus 0.0.4 text format that node_exporter's
 * textfile collector parses (TYPE names the sample, no info type, no EOF).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "metrics.h"
#include "event_table.h"
#include "safe_path.h"
#include "formats.h"
#include "json.h"
#include "text.h"
#include "tracing.h"

static const char *const source_names[RAS_MSRC_COUNT_] = {
	"live", "boot", "previous-boot", "synthetic", "imported", "erst", "other",
};

static const char *const dim_family[RAS_MDIM_COUNT_] = {
	"ras_fdr_dimm_errors", "ras_fdr_cpu_errors", "ras_fdr_pcie_errors",
};

static const char *const dim_help[RAS_MDIM_COUNT_] = {
	"Memory errors per DIMM label (mc_event; error_count errors per record); corrected ones of "
	"DIMMs past the first named in \"other\".",
	"Machine checks per CPU and socket (mce_record); corrected ones of CPUs past the first named "
	"in \"other\".",
	"PCIe AER errors per device (aer_event); corrected ones of devices past the first named in "
	"\"other\".",
};

void ras_metrics_init(struct ras_metrics *m)
{
	memset(m, 0, sizeof(*m));
}

void ras_metrics_free(struct ras_metrics *m)
{
	for (unsigned d = 0; d < RAS_MDIM_COUNT_; d++)
		free(m->subjects[d]);
	if (m->fresh_subjects) {
		ras_metrics_free(m->fresh_subjects);
		free(m->fresh_subjects);
	}
	free(m->parts);
	ras_metrics_init(m);
}

void ras_metrics_reset_counts(struct ras_metrics *m)
{
	char version[sizeof(m->version)], kernel[sizeof(m->kernel)];
	enum ras_metrics_event_state st[RAS_METRICS_TYPES];

	memcpy(version, m->version, sizeof(version));
	memcpy(kernel, m->kernel, sizeof(kernel));
	memcpy(st, m->event_state, sizeof(st));
	ras_metrics_free(m);
	memcpy(m->version, version, sizeof(version));
	memcpy(m->kernel, kernel, sizeof(kernel));
	memcpy(m->event_state, st, sizeof(st));
}

const char *ras_metrics_source_name(enum ras_metrics_source s)
{
	return s < RAS_MSRC_COUNT_ ? source_names[s] : "other";
}

enum ras_metrics_source ras_metrics_source_of(const char *source, bool synthetic)
{
	if (synthetic)
		return RAS_MSRC_SYNTHETIC;
	for (unsigned i = 0; source && i < RAS_MSRC_OTHER; i++)
		if (!strcmp(source, source_names[i]))
			return (enum ras_metrics_source)i;
	return RAS_MSRC_OTHER;
}

static struct ras_metrics_subject *find_subject(const struct ras_metrics *m,
						enum ras_metrics_dim dim, const char *key,
						const char *key2)
{
	for (unsigned i = 0; i < m->n_subjects[dim]; i++)
		if (!strcmp(m->subjects[dim][i].key, key) && !strcmp(m->subjects[dim][i].key2, key2))
			return &m->subjects[dim][i];
	return NULL;
}

int64_t ras_metrics_subject_count(const struct ras_metrics *m, enum ras_metrics_dim dim,
				  const char *key, const char *key2, enum ras_severity sev,
				  enum ras_metrics_source src)
{
	const struct ras_metrics_subject *s = find_subject(m, dim, key, key2);

	if ((unsigned)sev >= RAS_SEV_COUNT)
		sev = RAS_SEV_UNKNOWN;
	return s && (unsigned)src < RAS_MSRC_COUNT_ ? s->count[sev][src] : 0;
}

/* The subject's entry, added when new; NULL past RAS_METRICS_MAX_SUBJECTS (or out of memory: *err). */
static struct ras_metrics_subject *subject_entry(struct ras_metrics *m, enum ras_metrics_dim dim,
						 const char *key, const char *key2, int *err)
{
	struct ras_metrics_subject *s = find_subject(m, dim, key, key2);
	unsigned cnt = m->n_subjects[dim];

	*err = 0;
	if (s || cnt >= RAS_METRICS_MAX_SUBJECTS)
		return s;
	s = m->subjects[dim];
	if (!s || (cnt & (cnt - 1)) == 0) {
		/* Grows at powers of two: 1, 2, 4... */
		s = realloc(s, sizeof(*s) * (cnt ? cnt * 2 : 1));
		if (!s) {
			*err = -ENOMEM;
			return NULL;
		}
		m->subjects[dim] = s;
	}
	memset(&s[cnt], 0, sizeof(s[cnt]));
	snprintf(s[cnt].key, sizeof(s[cnt].key), "%s", key);
	snprintf(s[cnt].key2, sizeof(s[cnt].key2), "%s", key2);
	m->n_subjects[dim] = cnt + 1;
	return &s[cnt];
}

int ras_metrics_add_subject(struct ras_metrics *m, enum ras_metrics_dim dim, const char *key,
			    const char *key2, enum ras_severity sev, enum ras_metrics_source src,
			    int64_t n)
{
	int err;
	struct ras_metrics_subject *s = subject_entry(m, dim, key, key2, &err);

	if ((unsigned)sev >= RAS_SEV_COUNT)
		sev = RAS_SEV_UNKNOWN;
	if ((unsigned)src >= RAS_MSRC_COUNT_)
		src = RAS_MSRC_OTHER;
	if (s)
		s->count[sev][src] += n;
	else if (!err)
		m->overflow[dim][sev][src] += n;
	return err;
}

int ras_metrics_rank_subject(struct ras_metrics *m, enum ras_metrics_dim dim, const char *key,
			     const char *key2, int64_t rank)
{
	int err;
	struct ras_metrics_subject *s = subject_entry(m, dim, key, key2, &err);

	if (s && !s->rank)
		s->rank = rank;
	return err;
}

static bool path_exists(const char *dir, const char *sys, const char *event)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/events/%s/%s", dir, sys, event);
	return access(path, F_OK) == 0;
}

static enum ras_metrics_event_state event_state(const char *root, const char *inst_dir,
						const struct ras_event_type *t)
{
	const char *sys = t->system;
	char path[PATH_MAX], *buf;
	enum ras_metrics_event_state st = RAS_MEV_DISABLED;

	if (!path_exists(root, sys, t->event)) {
		sys = t->alt_system;
		if (!sys || !path_exists(root, sys, t->event))
			return RAS_MEV_ABSENT;
	}
	snprintf(path, sizeof(path), "%s/events/%s/%s/enable", inst_dir, sys, t->event);
	if (ras_read_file(path, &buf, NULL) == 0) {
		if (buf[0] == '1')
			st = RAS_MEV_ENABLED;
		free(buf);
	}
	return st;
}

void ras_metrics_read_info(struct ras_metrics *m, const char *tracing_dir, const char *instance)
{
	char root[PATH_MAX], inst_dir[PATH_MAX + 80], err[256];
	struct utsname u;

	snprintf(m->version, sizeof(m->version), "%s", PACKAGE_VERSION);
	if (uname(&u) == 0)
		snprintf(m->kernel, sizeof(m->kernel), "%s", u.release);
	if (ras_tracing_find(tracing_dir, root, sizeof(root), err, sizeof(err)) < 0) {
		for (unsigned i = 0; i < ras_n_event_types && i < RAS_METRICS_TYPES; i++)
			m->event_state[i] = RAS_MEV_UNKNOWN;
		return;
	}
	snprintf(inst_dir, sizeof(inst_dir), "%s/instances/%s", root, instance);
	for (unsigned i = 0; i < ras_n_event_types && i < RAS_METRICS_TYPES; i++)
		m->event_state[i] = event_state(root, inst_dir, &ras_event_types[i]);
}

/*
 * One exposition in any of the three formats: families and their samples.
 * OpenMetrics names the family in HELP/TYPE, the 0.0.4 text format the
 * sample; JSON gives each family with its samples, every value a string.
 */
struct emit {
	FILE *out;
	enum ras_metrics_format fmt;
	unsigned families, samples;
};

/*
 * A label value or a help text between the quotes. JSON goes through the one
 * encoder (json.h: a label read from a database, C1, bidi overrides and
 * invalid UTF-8 included, cannot break the document or drive a terminal);
 * the exposition formats escape what they define (backslash, quote, newline).
 */
static void put_escaped(FILE *out, const char *value, bool json)
{
	char safe[1024];

	if (json) {
		ras_json_string(out, value, strlen(value));
		return;
	}
	/*
	 * The exposition formats define no escape for a control character: its
	 * safe form (text.h, ESC as the four characters \x1b) is the value, so
	 * a scrape or a terminal shows what the label said and is driven by none
	 * of it. A value longer than the buffer is cut before an escape.
	 */
	if (!ras_text_plain(value, strlen(value))) {
		ras_text_safe(safe, sizeof(safe), value, strlen(value));
		value = safe;
	}
	putc('"', out);
	for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			putc(*p, out);
	}
	putc('"', out);
}

/* HELP and TYPE of a family. type "info": a gauge of 1 named *_info (promtool knows no info type). */
static void family(struct emit *e, const char *name, const char *type, const char *help)
{
	char sample[128];

	if (!strcmp(type, "info"))
		type = "gauge";
	snprintf(sample, sizeof(sample), "%s%s", name, !strcmp(type, "counter") ? "_total" : "");
	if (e->fmt == RAS_MFMT_JSON) {
		fprintf(e->out, "%s{\"name\":\"%s\",\"type\":\"%s\",\"help\":", e->families ? "]}," : "",
			name, type);
		put_escaped(e->out, help, true);
		fputs(",\"samples\":[", e->out);
	} else {
		const char *n = e->fmt == RAS_MFMT_OPENMETRICS ? name : sample;

		fprintf(e->out, "# HELP %s %s\n# TYPE %s %s\n", n, help, n, type);
	}
	e->families++;
	e->samples = 0;
}

/* A sample of the family: labels as name, value pairs (n of them), and its value as text. */
static void sample(struct emit *e, const char *name, const char *const *labels, unsigned n,
		   const char *value)
{
	bool json = e->fmt == RAS_MFMT_JSON;

	if (json)
		fprintf(e->out, "%s{\"name\":\"%s\",\"labels\":{", e->samples ? "," : "", name);
	else
		fputs(name, e->out);
	for (unsigned i = 0; i < n; i++) {
		fprintf(e->out, json ? "%s\"%s\":" : "%s%s=", i ? "," : json ? "" : "{", labels[2 * i]);
		put_escaped(e->out, labels[2 * i + 1], json);
	}
	if (json)
		fprintf(e->out, "},\"value\":\"%s\"}", value);
	else
		fprintf(e->out, "%s %s\n", n ? "}" : "", value);
	e->samples++;
}

static void sample_int(struct emit *e, const char *name, const char *const *labels, unsigned n,
		       int64_t v)
{
	char text[32];

	snprintf(text, sizeof(text), "%lld", (long long)v);
	sample(e, name, labels, n, text);
}

/* Seconds since the epoch, to the nanosecond. */
static void sample_time(struct emit *e, const char *name, int64_t ns)
{
	char text[48];

	snprintf(text, sizeof(text), "%lld.%09lld", (long long)(ns / 1000000000),
		 (long long)(ns % 1000000000 < 0 ? -(ns % 1000000000) : ns % 1000000000));
	sample(e, name, NULL, 0, text);
}

static void simple(struct emit *e, const char *name, const char *type, const char *help, int64_t v)
{
	char sample_name[128];

	family(e, name, type, help);
	snprintf(sample_name, sizeof(sample_name), "%s%s", name, !strcmp(type, "counter") ? "_total" : "");
	sample_int(e, sample_name, NULL, 0, v);
}

/* The severities every event type has a series for from the first scrape (0 until one comes). */
static bool always_shown(unsigned sev)
{
	return sev == RAS_SEV_CORRECTED || sev == RAS_SEV_UNCORRECTED || sev == RAS_SEV_FATAL;
}

static void print_records(const struct ras_metrics *m, struct emit *e)
{
	family(e, "ras_fdr_records", "counter",
	       "Records stored, per event type, severity and source (corrected, uncorrected and fatal "
	       "from live records always, 0 until one comes).");
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_METRICS_TYPES; t++) {
		for (unsigned s = 0; s < RAS_SEV_COUNT; s++) {
			for (unsigned src = 0; src < RAS_MSRC_COUNT_; src++) {
				const char *l[] = { "type", ras_event_types[t].table, "severity",
						    ras_severity_name(s), "source", source_names[src] };

				if (m->records[t][s][src] || (src == RAS_MSRC_LIVE && always_shown(s)))
					sample_int(e, "ras_fdr_records_total", l, 3, m->records[t][s][src]);
			}
		}
	}
}

/* Errors worse than corrected always have their subject's own series; the rest may go to "other". */
static bool bounded_severity(unsigned sev)
{
	return sev == RAS_SEV_UNKNOWN || sev == RAS_SEV_INFO || sev == RAS_SEV_CORRECTED;
}

static void put_subject(struct emit *e, enum ras_metrics_dim dim, const char *key, const char *key2,
			unsigned sev, unsigned src, int64_t n)
{
	static const char *const key_name[RAS_MDIM_COUNT_] = { "dimm", "cpu", "device" };
	char name[64];
	const char *l[8];
	unsigned k = 0;

	snprintf(name, sizeof(name), "%s_total", dim_family[dim]);
	l[k++] = key_name[dim];
	l[k++] = key;
	if (dim == RAS_MDIM_CPU) {
		l[k++] = "socket";
		l[k++] = key2;
	}
	l[k++] = "severity";
	l[k++] = ras_severity_name(sev);
	l[k++] = "source";
	l[k++] = source_names[src];
	sample_int(e, name, l, k / 2, n);
}

/* Subjects in the order they appeared in the database (rank; unknown last, by key). */
static int by_rank(const void *a, const void *b)
{
	const struct ras_metrics_subject *x = *(const struct ras_metrics_subject *const *)a;
	const struct ras_metrics_subject *y = *(const struct ras_metrics_subject *const *)b;
	uint64_t rx = (uint64_t)(x->rank ? x->rank : INT64_MAX), ry = (uint64_t)(y->rank ? y->rank : INT64_MAX);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x->key, y->key) ? strcmp(x->key, y->key) : strcmp(x->key2, y->key2);
}

/*
 * Each subject's series in the order subjects appeared: worse than corrected
 * always its own; corrected (and info, unknown) its own for the first named
 * subjects, summed in "other" for the later ones. Which subject goes where is
 * fixed when it first appears, so every series only ever grows.
 */
static int print_subjects(const struct ras_metrics *m, enum ras_metrics_dim dim, unsigned named,
			  struct emit *e)
{
	unsigned n = m->n_subjects[dim];
	const struct ras_metrics_subject **order = calloc(n ? n : 1, sizeof(*order));
	int64_t other[RAS_SEV_COUNT][RAS_MSRC_COUNT_];

	if (!order)
		return -ENOMEM;
	family(e, dim_family[dim], "counter", dim_help[dim]);
	memcpy(other, m->overflow[dim], sizeof(other));
	for (unsigned i = 0; i < n; i++)
		order[i] = &m->subjects[dim][i];
	qsort(order, n, sizeof(*order), by_rank);
	for (unsigned i = 0; i < n; i++)
		for (unsigned s = 0; s < RAS_SEV_COUNT; s++)
			for (unsigned src = 0; src < RAS_MSRC_COUNT_; src++) {
				int64_t c = order[i]->count[s][src];

				if (!c)
					continue;
				if (i >= named && bounded_severity(s))
					other[s][src] += c;
				else
					put_subject(e, dim, order[i]->key, order[i]->key2, s, src, c);
			}
	for (unsigned s = 0; s < RAS_SEV_COUNT; s++)
		for (unsigned src = 0; src < RAS_MSRC_COUNT_; src++)
			if (other[s][src])
				put_subject(e, dim, "other", "other", s, src, other[s][src]);
	free(order);
	return 0;
}

static void print_info(const struct ras_metrics *m, struct emit *e)
{
	static const char *const state_name[] = { "unknown", "enabled", "disabled", "absent" };
	const char *build[] = { "version", m->version, "kernel", m->kernel };

	family(e, "ras_fdr_build_info", "info", "Version of ras-fdr and the running kernel.");
	sample(e, "ras_fdr_build_info", build, 2, "1");
	family(e, "ras_fdr_event_info", "info",
	       "Each RAS event: enabled in rasd's instance, disabled, or absent from this kernel.");
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_METRICS_TYPES; t++) {
		char name[128];
		const char *l[] = { "event", name, "type", ras_event_types[t].table, "state",
				    state_name[m->event_state[t]] };

		snprintf(name, sizeof(name), "%s:%s", ras_event_types[t].system, ras_event_types[t].event);
		sample(e, "ras_fdr_event_info", l, 3, "1");
	}
}

static void print_actions(const struct ras_metrics *m, struct emit *e)
{
	if (!m->have_actions)
		return;
	family(e, "ras_fdr_actions", "counter",
	       "Actions decided by rasd (the actions table), per action and result.");
	for (unsigned i = 0; i < m->n_actions; i++) {
		const char *l[] = { "action", m->actions[i].action, "result", m->actions[i].result };

		sample_int(e, "ras_fdr_actions_total", l, 2, m->actions[i].count);
	}
}

/* Crashes of previous boots by cause (issue 35): every cause, so a rate is 0 before the first. */
static void print_crashes(const struct ras_metrics *m, struct emit *e)
{
	if (!m->have_crashes)
		return;
	family(e, "ras_fdr_crashes", "counter",
	       "Previous boots that ended in a crash, per cause (ras-fdr-ctl crashes).");
	for (unsigned c = 0; c < LW_CAUSE_COUNT; c++) {
		const char *l[] = { "cause", lw_cause_name((enum lw_cause)c) };

		sample_int(e, "ras_fdr_crashes_total", l, 1, m->crashes[c]);
	}
}

/*
 * The diagnosis's series (db/db_parts.h): one verdict and one fault mode per
 * part, gauges whose value is the verdict's or mode's number, so a part keeps
 * one series whatever it becomes. Parts are never dropped and rasd keeps at
 * most 4096 of them: the series are bounded, never evicted.
 */
static void print_parts(const struct ras_metrics *m, struct emit *e)
{
	static const char *const family_name[2] = { "ras_fdr_part_verdict", "ras_fdr_part_fault_mode" };
	static const char *const help[2] = {
		"Each part's verdict: 0 ok, 1 watch, 2 replace (ras-fdr-ctl health).",
		"Each memory part's widest DRAM fault: 0 none, 1 single-bit, 2 single-word, 3 "
		"single-column, 4 single-row, 5 single-bank, 6 multi-bank, 7 multi-rank, 8 single-lane.",
	};

	if (!m->parts)
		return;
	for (unsigned f = 0; f < 2; f++) {
		family(e, family_name[f], "gauge", help[f]);
		for (unsigned i = 0; i < m->n_parts; i++) {
			const struct ras_metrics_part *p = &m->parts[i];
			const char *l[] = { "kind", p->kind, "part", p->part, "label", p->label,
					    "synthetic", p->synthetic ? "true" : "false" };

			sample_int(e, family_name[f], l, 4, f ? p->mode : p->verdict);
		}
	}
}

/* Every origin of lost_events, the known ones from the first scrape (db_query.h ras_db_losses). */
static void print_losses(const struct ras_metrics *m, struct emit *e)
{
	family(e, "ras_fdr_lost_records", "counter",
	       "Records lost before they were stored, per origin: stats (the kernel's drop counters), "
	       "storage (a stop could not store them), crash (a killed rasd had read them), malformed, "
	       "subbuffer (the same drops the kernel's counters count: not to be added to stats).");
	for (unsigned i = 0; i < m->n_losses; i++) {
		const char *l[] = { "origin", m->losses[i].origin };

		sample_int(e, "ras_fdr_lost_records_total", l, 1, m->losses[i].records);
	}
	family(e, "ras_fdr_lost_gaps", "counter",
	       "Losses of unknown size per origin (a sub-buffer marked as having dropped records, a "
	       "malformed page whose cut could not be counted).");
	for (unsigned i = 0; i < m->n_losses; i++) {
		const char *l[] = { "origin", m->losses[i].origin };

		sample_int(e, "ras_fdr_lost_gaps_total", l, 1, m->losses[i].gaps);
	}
}

/* Whether rasd runs and stores: says so while it does, and goes stale or says not when it does not. */
static void print_liveness(const struct ras_metrics *m, struct emit *e)
{
	static const char *const storage_name[RAS_MSTORE_COUNT_] = {
		"working", "failing", "stopped", "killed", "unknown",
	};

	simple(e, "ras_fdr_up", "gauge", "1 while rasd runs (holds its lock), else 0.", m->up);
	family(e, "ras_fdr_storage_state", "gauge",
	       "rasd's storage: 1 for the state it is in (working, failing, stopped, killed: ended "
	       "without stopping, unknown), 0 for the others.");
	for (unsigned i = 0; i < RAS_MSTORE_COUNT_; i++) {
		const char *l[] = { "state", storage_name[i] };

		sample_int(e, "ras_fdr_storage_state", l, 1, m->storage == i);
	}
	family(e, "ras_fdr_metrics_timestamp_seconds", "gauge",
	       "When these metrics were written: rasd rewrites its metrics_textfile at least every "
	       "minute, so an older value says rasd is gone.");
	sample_time(e, "ras_fdr_metrics_timestamp_seconds", m->written_ns);
	family(e, "ras_fdr_last_commit_timestamp_seconds", "gauge",
	       "The database's last write (its file or write-ahead log; 0: none).");
	sample_time(e, "ras_fdr_last_commit_timestamp_seconds", m->last_commit_ns);
	family(e, "ras_fdr_start_timestamp_seconds", "gauge", "When the running rasd started (0: none runs).");
	sample_time(e, "ras_fdr_start_timestamp_seconds", m->up ? m->start_ns : 0);
	family(e, "ras_fdr_database_replaced_timestamp_seconds", "gauge",
	       "When rasd found its database replaced by another one (0: never).");
	sample_time(e, "ras_fdr_database_replaced_timestamp_seconds", m->replaced_ns);
}

int ras_metrics_print(const struct ras_metrics *m, unsigned named, enum ras_metrics_format fmt,
		      FILE *out)
{
	struct emit e = { .out = out, .fmt = fmt };

	if (fmt == RAS_MFMT_JSON)
		fprintf(out, "{\"version\":2,\"families\":[");
	print_records(m, &e);
	for (unsigned d = 0; d < RAS_MDIM_COUNT_; d++)
		if (print_subjects(m, (enum ras_metrics_dim)d, named, &e) < 0)
			return -ENOMEM;
	print_losses(m, &e);
	simple(&e, "ras_fdr_malformed_records", "counter",
	       "Records rasd could not parse (kept out of the database).", m->malformed);
	simple(&e, "ras_fdr_synthetic_refused", "counter",
	       "Synthetic records refused because allow_synthetic is off.", m->synthetic_refused);
	print_actions(m, &e);
	print_crashes(m, &e);
	print_parts(m, &e);
	family(&e, "ras_fdr_last_error_timestamp_seconds", "gauge",
	       "Time of the newest stored record of each source (0: none).");
	for (unsigned src = 0; src < RAS_MSRC_COUNT_; src++) {
		const char *l[] = { "source", source_names[src] };
		char v[48];

		snprintf(v, sizeof(v), "%lld.%09lld", (long long)(m->last_ns[src] / 1000000000),
			 (long long)(m->last_ns[src] % 1000000000));
		sample(&e, "ras_fdr_last_error_timestamp_seconds", l, 1, v);
	}
	print_liveness(m, &e);
	print_info(m, &e);
	if (fmt == RAS_MFMT_OPENMETRICS)
		fputs("# EOF\n", out);
	else if (fmt == RAS_MFMT_JSON)
		fputs("]}]}\n", out);
	return ferror(out) ? -EIO : 0;
}

void ras_metrics_set_liveness(struct ras_metrics *m, bool up, enum ras_metrics_storage storage,
			      int64_t start_ns, int64_t replaced_ns, const char *database_path)
{
	char wal[PATH_MAX + 8];
	struct stat sb;
	struct timespec now;

	m->up = up;
	m->storage = storage;
	m->start_ns = start_ns;
	m->replaced_ns = replaced_ns;
	m->last_commit_ns = 0;
	snprintf(wal, sizeof(wal), "%s-wal", database_path);
	if (stat(database_path, &sb) == 0)
		m->last_commit_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	if (stat(wal, &sb) == 0 &&
	    (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec > m->last_commit_ns)
		m->last_commit_ns = (int64_t)sb.st_mtim.tv_sec * 1000000000 + sb.st_mtim.tv_nsec;
	clock_gettime(CLOCK_REALTIME, &now);
	m->written_ns = (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

/* Writes the exposition to fd and syncs it; 0 or -errno. */
static int write_synced(const struct ras_metrics *m, unsigned named, enum ras_metrics_format fmt,
			int fd)
{
	FILE *f = fdopen(fd, "w");
	int r;

	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	r = ras_metrics_print(m, named, fmt, f);
	if (fflush(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && fsync(fileno(f)) != 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

/*
 * The textfile is node_exporter's to read and root's to write: written in
 * its directory checked by the rule of lib/safe_path.h (the directories above
 * it may be another user's, as Debian's /var/lib/prometheus is, but none may
 * be a link and the directory itself only root's to write), through a new
 * file under a name no one can guess (O_EXCL|O_NOFOLLOW), renamed over the
 * old one relative to the directory's descriptor: never through a link,
 * never over another file. The temporary name does not end in .prom, which
 * is all node_exporter reads.
 */
int ras_metrics_write_file(const struct ras_metrics *m, unsigned named, enum ras_metrics_format fmt,
			   const char *path, char *why, size_t whylen)
{
	char dir[PATH_MAX], base[NAME_MAX + 1], tmp[NAME_MAX + 1];
	int dirfd, fd, r = ras_path_split(path, dir, sizeof(dir), base, sizeof(base));

	if (r < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(-r));
		return r;
	}
	dirfd = ras_safe_dir_open(dir, RAS_SAFE_OTHERS_ABOVE, why, whylen);
	if (dirfd < 0)
		return dirfd;
	/* node_exporter runs as its own user: rasd.service's UMask would leave the file unreadable. */
	fd = ras_safe_tmp_create(dirfd, base, 0644, tmp, sizeof(tmp));
	if (fd < 0) {
		snprintf(why, whylen, "cannot create a file in %s: %s", dir, strerror(-fd));
		close(dirfd);
		return fd;
	}
	r = write_synced(m, named, fmt, fd);
	if (r == 0 && renameat(dirfd, tmp, dirfd, base) != 0)
		r = -errno;
	if (r < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(-r));
		unlinkat(dirfd, tmp, 0);
	}
	close(dirfd);
	return r;
}
