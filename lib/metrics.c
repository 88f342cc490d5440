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
#include <unistd.h>
#include "metrics.h"
#include "event_table.h"
#include "formats.h"
#include "tracing.h"

static const char *const source_names[RAS_MSRC_COUNT_] = {
	"live", "boot", "previous-boot", "synthetic", "imported", "erst", "other",
};

static const char *const dim_family[RAS_MDIM_COUNT_] = {
	"ras_fdr_dimm_errors", "ras_fdr_cpu_errors", "ras_fdr_pcie_errors",
};

static const char *const dim_help[RAS_MDIM_COUNT_] = {
	"Memory errors per DIMM label (mc_event; error_count errors per record), top subjects and other.",
	"Machine checks per CPU and socket (mce_record), top subjects and other.",
	"PCIe AER errors per device (aer_event), top subjects and other.",
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

int64_t ras_metrics_subject_count(const struct ras_metrics *m, enum ras_metrics_dim dim,
				  const char *key, const char *key2, enum ras_severity sev)
{
	for (unsigned i = 0; i < m->n_subjects[dim]; i++)
		if (!strcmp(m->subjects[dim][i].key, key) && !strcmp(m->subjects[dim][i].key2, key2))
			return m->subjects[dim][i].count[(unsigned)sev < RAS_SEV_COUNT ? sev : RAS_SEV_UNKNOWN];
	return 0;
}

int ras_metrics_add_subject(struct ras_metrics *m, enum ras_metrics_dim dim, const char *key,
			    const char *key2, enum ras_severity sev, int64_t n)
{
	struct ras_metrics_subject *s = m->subjects[dim];
	unsigned cnt = m->n_subjects[dim];

	if ((unsigned)sev >= RAS_SEV_COUNT)
		sev = RAS_SEV_UNKNOWN;
	for (unsigned i = 0; i < cnt; i++) {
		if (!strcmp(s[i].key, key) && !strcmp(s[i].key2, key2)) {
			s[i].count[sev] += n;
			return 0;
		}
	}
	if (cnt >= RAS_METRICS_MAX_SUBJECTS) {
		m->overflow[dim][sev] += n;
		return 0;
	}
	if (!s || (cnt & (cnt - 1)) == 0) {
		/* Grows at powers of two: 1, 2, 4... */
		s = realloc(s, sizeof(*s) * (cnt ? cnt * 2 : 1));
		if (!s)
			return -ENOMEM;
		m->subjects[dim] = s;
	}
	memset(&s[cnt], 0, sizeof(s[cnt]));
	snprintf(s[cnt].key, sizeof(s[cnt].key), "%s", key);
	snprintf(s[cnt].key2, sizeof(s[cnt].key2), "%s", key2);
	s[cnt].count[sev] = n;
	m->n_subjects[dim] = cnt + 1;
	return 0;
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

/* Label values escape backslash, double quote and newline (both formats). */
static void put_label(FILE *out, const char *name, const char *value, bool first)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	for (const char *p = value; *p; p++) {
		if (*p == '\\' || *p == '"')
			fprintf(out, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", out);
		else
			putc(*p, out);
	}
	putc('"', out);
}

/*
 * HELP and TYPE of a family. OpenMetrics names the family; the 0.0.4 text
 * format names the sample, and knows no "info" type (a gauge of 1 instead).
 */
static void put_family(FILE *out, enum ras_metrics_format fmt, const char *family,
		       const char *type, const char *help)
{
	char name[128];
	bool om = fmt == RAS_MFMT_OPENMETRICS;

	if (om)
		snprintf(name, sizeof(name), "%s", family);
	else
		snprintf(name, sizeof(name), "%s%s", family, !strcmp(type, "counter") ? "_total" :
			 !strcmp(type, "info") ? "_info" : "");
	if (!om && !strcmp(type, "info"))
		type = "gauge";
	fprintf(out, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void print_records(const struct ras_metrics *m, enum ras_metrics_format fmt, FILE *out)
{
	put_family(out, fmt, "ras_fdr_records", "counter",
		   "Records stored, per event type, severity and source.");
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_METRICS_TYPES; t++) {
		for (unsigned s = 0; s < RAS_SEV_COUNT; s++) {
			for (unsigned src = 0; src < RAS_MSRC_COUNT_; src++) {
				if (!m->records[t][s][src])
					continue;
				fputs("ras_fdr_records_total{", out);
				put_label(out, "type", ras_event_types[t].table, true);
				put_label(out, "severity", ras_severity_name(s), false);
				put_label(out, "source", source_names[src], false);
				fprintf(out, "} %lld\n", (long long)m->records[t][s][src]);
			}
		}
	}
}

static int64_t subject_total(const struct ras_metrics_subject *s)
{
	int64_t n = 0;

	for (unsigned i = 0; i < RAS_SEV_COUNT; i++)
		n += s->count[i];
	return n;
}

static int by_total_desc(const void *a, const void *b)
{
	const struct ras_metrics_subject *x = *(const struct ras_metrics_subject *const *)a;
	const struct ras_metrics_subject *y = *(const struct ras_metrics_subject *const *)b;
	int64_t tx = subject_total(x), ty = subject_total(y);

	if (tx != ty)
		return tx > ty ? -1 : 1;
	return strcmp(x->key, y->key) ? strcmp(x->key, y->key) : strcmp(x->key2, y->key2);
}

static void put_subject(FILE *out, enum ras_metrics_dim dim, const char *key, const char *key2,
			const int64_t *count)
{
	static const char *const key_name[RAS_MDIM_COUNT_] = { "dimm", "cpu", "device" };

	for (unsigned s = 0; s < RAS_SEV_COUNT; s++) {
		if (!count[s])
			continue;
		fprintf(out, "%s_total{", dim_family[dim]);
		put_label(out, key_name[dim], key, true);
		if (dim == RAS_MDIM_CPU)
			put_label(out, "socket", key2, false);
		put_label(out, "severity", ras_severity_name(s), false);
		fprintf(out, "} %lld\n", (long long)count[s]);
	}
}

/* The top subjects by total count, then one "other" series per severity for the rest. */
static int print_subjects(const struct ras_metrics *m, enum ras_metrics_dim dim, unsigned top,
			  enum ras_metrics_format fmt, FILE *out)
{
	unsigned n = m->n_subjects[dim];
	const struct ras_metrics_subject **order = calloc(n ? n : 1, sizeof(*order));
	int64_t other[RAS_SEV_COUNT];
	bool any_other = false;

	if (!order)
		return -ENOMEM;
	put_family(out, fmt, dim_family[dim], "counter", dim_help[dim]);
	memcpy(other, m->overflow[dim], sizeof(other));
	for (unsigned i = 0; i < n; i++)
		order[i] = &m->subjects[dim][i];
	qsort(order, n, sizeof(*order), by_total_desc);
	for (unsigned i = 0; i < n; i++) {
		if (i < top) {
			put_subject(out, dim, order[i]->key, order[i]->key2, order[i]->count);
			continue;
		}
		for (unsigned s = 0; s < RAS_SEV_COUNT; s++)
			other[s] += order[i]->count[s];
	}
	for (unsigned s = 0; s < RAS_SEV_COUNT; s++)
		any_other |= other[s] != 0;
	if (any_other)
		put_subject(out, dim, "other", "other", other);
	free(order);
	return 0;
}

static void print_info(const struct ras_metrics *m, enum ras_metrics_format fmt, FILE *out)
{
	static const char *const state_name[] = { "unknown", "enabled", "disabled", "absent" };

	put_family(out, fmt, "ras_fdr_build", "info", "Version of ras-fdr and the running kernel.");
	fputs("ras_fdr_build_info{", out);
	put_label(out, "version", m->version, true);
	put_label(out, "kernel", m->kernel, false);
	fputs("} 1\n", out);
	put_family(out, fmt, "ras_fdr_event", "info",
		   "Each RAS event: enabled in rasd's instance, disabled, or absent from this kernel.");
	for (unsigned t = 0; t < ras_n_event_types && t < RAS_METRICS_TYPES; t++) {
		char name[128];

		snprintf(name, sizeof(name), "%s:%s", ras_event_types[t].system, ras_event_types[t].event);
		fputs("ras_fdr_event_info{", out);
		put_label(out, "event", name, true);
		put_label(out, "type", ras_event_types[t].table, false);
		put_label(out, "state", state_name[m->event_state[t]], false);
		fputs("} 1\n", out);
	}
}

static void put_simple(FILE *out, enum ras_metrics_format fmt, const char *family,
		       const char *type, const char *help, int64_t v)
{
	put_family(out, fmt, family, type, help);
	fprintf(out, "%s%s %lld\n", family, !strcmp(type, "counter") ? "_total" : "", (long long)v);
}

static void print_actions(const struct ras_metrics *m, enum ras_metrics_format fmt, FILE *out)
{
	if (!m->have_actions)
		return;
	put_family(out, fmt, "ras_fdr_actions", "counter",
		   "Actions decided by rasd (the actions table), per action and result.");
	for (unsigned i = 0; i < m->n_actions; i++) {
		fputs("ras_fdr_actions_total{", out);
		put_label(out, "action", m->actions[i].action, true);
		put_label(out, "result", m->actions[i].result, false);
		fprintf(out, "} %lld\n", (long long)m->actions[i].count);
	}
}

/* Crashes of previous boots by cause (issue 35): every cause, so a rate is 0 before the first. */
static void print_crashes(const struct ras_metrics *m, enum ras_metrics_format fmt, FILE *out)
{
	if (!m->have_crashes)
		return;
	put_family(out, fmt, "ras_fdr_crashes", "counter",
		   "Previous boots that ended in a crash, per cause (ras-fdr-ctl crashes).");
	for (unsigned c = 0; c < LW_CAUSE_COUNT; c++) {
		fputs("ras_fdr_crashes_total{", out);
		put_label(out, "cause", lw_cause_name((enum lw_cause)c), true);
		fprintf(out, "} %lld\n", (long long)m->crashes[c]);
	}
}

int ras_metrics_print(const struct ras_metrics *m, unsigned top, enum ras_metrics_format fmt,
		      FILE *out)
{
	print_records(m, fmt, out);
	for (unsigned d = 0; d < RAS_MDIM_COUNT_; d++)
		if (print_subjects(m, (enum ras_metrics_dim)d, top, fmt, out) < 0)
			return -ENOMEM;
	put_simple(out, fmt, "ras_fdr_lost_records", "counter",
		   "Records the kernel dropped before rasd read them (counted by the kernel).", m->lost_records);
	put_simple(out, fmt, "ras_fdr_lost_gaps", "counter",
		   "Losses of unknown size (ring-buffer sub-buffers marked as having dropped events).",
		   m->lost_gaps);
	put_simple(out, fmt, "ras_fdr_malformed_records", "counter",
		   "Records rasd could not parse (kept out of the database).", m->malformed);
	put_simple(out, fmt, "ras_fdr_synthetic_refused", "counter",
		   "Synthetic records refused because allow_synthetic is off.", m->synthetic_refused);
	print_actions(m, fmt, out);
	print_crashes(m, fmt, out);
	put_family(out, fmt, "ras_fdr_last_error_timestamp_seconds", "gauge",
		   "Time of the newest stored record that is not synthetic (0: none).");
	fprintf(out, "ras_fdr_last_error_timestamp_seconds %lld.%09lld\n",
		(long long)(m->last_error_ns / 1000000000), (long long)(m->last_error_ns % 1000000000));
	print_info(m, fmt, out);
	if (fmt == RAS_MFMT_OPENMETRICS)
		fputs("# EOF\n", out);
	return ferror(out) ? -EIO : 0;
}

/* Writes the exposition to fd and syncs it; 0 or -errno. */
static int write_synced(const struct ras_metrics *m, unsigned top, enum ras_metrics_format fmt,
			int fd)
{
	FILE *f = fdopen(fd, "w");
	int r;

	if (!f) {
		r = -errno;
		close(fd);
		return r;
	}
	r = ras_metrics_print(m, top, fmt, f);
	if (fflush(f) != 0 && r == 0)
		r = -errno;
	if (r == 0 && fsync(fileno(f)) != 0)
		r = -errno;
	if (fclose(f) != 0 && r == 0)
		r = -errno;
	return r;
}

int ras_metrics_write_file(const struct ras_metrics *m, unsigned top, enum ras_metrics_format fmt,
			   const char *path)
{
	char tmp[PATH_MAX];
	int fd, r;

	/* node_exporter reads only *.prom: the temporary name ends otherwise. */
	if (snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	/* node_exporter runs as its own user: rasd.service's UMask=0027 would
	 * leave the file unreadable to it. */
	if (fchmod(fd, 0644) != 0) {
		r = -errno;
		close(fd);
		unlink(tmp);
		return r;
	}
	r = write_synced(m, top, fmt, fd);
	if (r == 0 && rename(tmp, path) != 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}
