/* SPDX-License-Identifier: MIT */
/*
 * The support-case report (issue 38): a machine's hardware story as one
 * self-contained HTML file and as the same content in a JSON bundle
 * (doc/schema/report.schema.json). This folder is the rendering only: a
 * model in, text out, every string through lib/text.h's one rule (JSON by
 * lib/json.c's encoder, HTML by rpt_html_text). The
 * model is filled by ras-fdr-ctl report (ctl/report.c) from the database's
 * own queries (db/db_report.h and the ones summary, actions, crashes and
 * status use), so the report's counts are the other commands' counts.
 */
#ifndef RAS_REPORT_H
#define RAS_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The bundle's own format version (its schema's "const"). */
#define RPT_FORMAT_VERSION 1
/*
 * The whole machine's report attaches its window's newest records, at most
 * this many (errors --json --limit's); --part attaches every one of the part's.
 */
#define RPT_MACHINE_RECORDS 1000
/* Columns of every part's timeline: equal spans of [t0, t1). */
#define RPT_BINS 40

/* One name and value: an identity field, a configuration line. */
struct rpt_kv {
	char *key, *value;
};

/* The live machine's identity (ras-fdr-ctl report --machine). */
struct rpt_dimm {
	char *locator, *bank_locator, *manufacturer, *part_number, *serial;
	uint64_t size_mb;             /* 0: none installed, UINT64_MAX: unknown */
	unsigned speed_mts;
	char *memory_type;
};
struct rpt_cpu {
	unsigned socket;
	char *model, *stepping, *microcode, *ppin;   /* NULL: not known */
};
struct rpt_machine {
	char *hostname, *kernel;
	struct rpt_kv *dmi;          /* sys_vendor, product_name, product_serial, bios_*... */
	size_t ndmi;
	struct rpt_cpu *cpus;
	size_t ncpus;
	struct rpt_dimm *dimms;
	size_t ndimms;
	/*
	 * The files of its serials (a DMI serial, the SMBIOS table, a PPIN) that
	 * are there but were refused (EACCES, EPERM: only root may read them),
	 * as paths; none when every one there was read. Not rendered with it:
	 * --redact says them (rpt_serials_unread).
	 */
	char **unread;
	size_t nunread;
};

/* A part with errors: one summary location of one event type. */
struct rpt_part {
	char *kind;                  /* dimm, cpu, pcie, cxl, memory, page, nic, disk, platform */
	char *type;                  /* the event table */
	char *name;                  /* the summary location ("" when the record names none) */
	int64_t corrected, uncorrected, other, first_ns, last_ns;
	struct rpt_kv *by_severity;  /* severity name -> count, as text */
	size_t nsev;
	int64_t bins[3][RPT_BINS];   /* corrected, uncorrected, other per timeline column */
	int verdict;                 /* index into verdicts of the part health judged, -1 none */
};

/*
 * A part's verdict as the diagnosis (issue 34) stored it and ras-fdr-ctl
 * health shows it: read from the same tables by the same query.
 */
struct rpt_fault {
	char *mode, *description;
	bool permanent;
	int64_t errors, first_ns, last_ns;
};
struct rpt_change {
	int64_t at_ns;
	char *was, *verdict, *rule, *why;
};
/*
 * A DIMM's SMBIOS type 17 device, as health names it (lib/dimm_locator.h's
 * dimm_where_of_part on the live machine, --machine): the device, or why not known.
 */
struct rpt_locator {
	bool known;
	char *locator, *bank_locator, *manufacturer, *part_number, *serial;   /* known: "" empty */
	unsigned handle;
	char *how;                   /* known: how it matched; else why it is not known */
};
struct rpt_verdict {
	char *kind, *part, *label, *verdict, *rule, *why, *advice, *mode, *link;
	int permanent;               /* of the worst fault; -1 none */
	int64_t since_ns, first_ns, last_ns, records, corrected, uncorrected, fatal;
	bool synthetic;
	struct rpt_fault *faults;
	size_t nfaults;
	struct rpt_change *history;
	size_t nhistory;
	struct rpt_locator *smbios;  /* a DIMM's device; NULL: not a DIMM */
};

struct rpt_action {
	int64_t wall_ns, last_ns, count, repeats;
	char *kind, *subject, *action, *result, *threshold, *target, *event_table;
	int error;
	bool synthetic;
	int part;                    /* index into parts of the action's subject, -1 none */
};

struct rpt_crash {
	int64_t crash_ns, found_ns;
	int boot_number;
	char *boot_id, *backend, *kind, *cause, *reason, *detail, *hw_lines;
	char *summary;               /* the cause in one sentence, as crashes says it */
	bool explained;
};

struct rpt_loss {
	char *origin;
	int64_t records, gaps, rows;
	bool in_total;
};

struct rpt_boot {
	char *boot_id;
	int64_t first_seen_ns;       /* 0: not known */
};

/* What --redact took out, and how many times. */
struct rpt_redaction {
	char *what;
	int64_t count;
};

/*
 * The DIMM map (report/dimm_map.c): the controllers and slots of the EDAC
 * topology the database stored (ras-fdr-ctl layout's), or, when it has
 * none, only the slots the records name; the controllers grouped by socket
 * where the names say which (sockets x controllers x channels x slots).
 */
#define RPT_LAYERS 3
struct rpt_map_mc {
	int mc;
	int socket;                  /* as the controller's name or its slots' labels say; -1 not known */
	char *name;                  /* the controller's name, "" not known */
	unsigned n_layers;           /* 1 to RPT_LAYERS */
	char *layer_name[RPT_LAYERS];
	unsigned layer_size[RPT_LAYERS];
};
struct rpt_slot {
	int mc, pos[RPT_LAYERS];     /* -1 where a layer is absent */
	char *label;                 /* as layout shows it, "" none */
	int64_t records;             /* of the parts at this slot (summary's counts) */
	int part;                    /* index into parts of the first of them, -1 none */
};
struct rpt_dimm_map {
	bool from_edac;              /* false: no stored topology, the slots the records name */
	struct rpt_map_mc *mcs;
	size_t nmcs;
	struct rpt_slot *slots;
	size_t nslots;
};

struct rpt_model {
	char *version;               /* ras-fdr's */
	char *database;              /* the path read */
	int schema_version;
	int64_t generated_ns;        /* when the report was made; 0: not said */
	int64_t since_ns, until_ns;  /* the window asked for; 0: unbounded */
	char *part_filter;           /* --part, NULL: every part */
	bool synthetic_included;
	struct rpt_machine *machine; /* NULL: not asked or not this machine */
	bool machine_by_boot;        /* read unasked: the database records the running boot */
	struct rpt_boot *boots;
	size_t nboots;
	struct rpt_part *parts;
	size_t nparts;
	/* A hash of parts by table and name (ctl's report_find_part): parts[i] is index i + 1. */
	size_t *part_index, index_cap, index_n;
	int64_t total;               /* every record counted, as summary's total */
	int64_t t0, t1;              /* the timeline's span; t1 == t0: no records */
	bool whole_hours;            /* the columns are whole hours (too many records to place finer) */
	struct rpt_verdict *verdicts;
	size_t nverdicts;
	struct rpt_dimm_map map;
	bool verdicts_known;         /* false: the database has no diagnosis tables */
	struct rpt_action *actions;
	size_t nactions;
	struct rpt_crash *crashes;
	size_t ncrashes;
	bool crashes_known;          /* false: the database has no crashes table */
	struct rpt_loss *losses;
	size_t nlosses;
	int64_t lost_records, lost_gaps;
	char *config_path;
	struct rpt_kv *config;
	size_t nconfig;
	char **records;              /* each record as an errors --json line, newest first */
	size_t nrecords;
	size_t records_limit;        /* at most so many attached (the newest); 0: all (--part) */
	/*
	 * Or, when set, the nrecords records already written as the output
	 * writes them (rpt_write_record: without --redact, --part's 100,000
	 * lines are not kept in memory); records[] is then empty.
	 */
	FILE *records_file;
	bool records_html;           /* records_file holds them as HTML text, else as JSON */
	struct rpt_redaction *redactions;
	size_t nredactions;
	bool redacted;
	/*
	 * --redact could not read these files of this machine's serials
	 * (rpt_machine.unread), so those serials were not looked for; NULL: none
	 * missed. unread_why is the sentence the page and the bundle say of it.
	 */
	char **serials_unread;
	size_t nserials_unread;
	char *serials_unread_why;
};

/*
 * The SMBIOS device of a part's row: its verdict's; for a DIMM without one,
 * "not known" and why (a static answer); NULL for a part that is not a DIMM.
 */
const struct rpt_locator *rpt_part_locator(const struct rpt_model *m, const struct rpt_part *p);
/*
 * Why the machine's identity is in the report or not: the reason as a word
 * ("asked": --machine; "running_boot": the database records this machine's
 * running boot; "not_read") and the sentence the page says, one for each
 * reason, never NULL. The sentence is in pieces so the page can set the
 * option as code: text, then option (NULL: none), then rest; the bundle
 * writes them as one string. The program's own words, no markup.
 */
struct rpt_machine_why {
	const char *reason, *text, *option, *rest;
};
const struct rpt_machine_why *rpt_machine_why(const struct rpt_model *m);
/* Why records of a loss origin were lost, as ras-fdr-ctl(8)'s summary says. */
const char *rpt_loss_why(const char *origin);
/*
 * --redact: this machine's serial files files[0..n) (paths) were there but
 * refused, so its serials were not looked for. Takes files (and each path)
 * into m, and sets the sentence the page and the bundle both say: which
 * files, why (as_root false: only root may read them and the report was not
 * made as root), that the serials were not looked for, and to run the report
 * as root; when the identity was not read for the report (!m->machine: the
 * database records none of this machine's boots as running), also that
 * another machine's serials are not known here. n 0: nothing. 0 or -ENOMEM
 * (files then freed).
 */
int rpt_serials_unread(struct rpt_model *m, char **files, size_t n, bool as_root);
/* Done, and not only counted: a decision that changed the machine (an account one did not). */
bool rpt_action_taken(const struct rpt_action *a);
/* The kind of part an event table's records name: "dimm", "cpu", "pcie"... */
const char *rpt_kind_of(const char *table);
/* The timeline column a time falls in, or -1 outside [t0, t1). */
int rpt_bin_of(const struct rpt_model *m, int64_t t_ns);
/*
 * s (up to len bytes or its NUL) as HTML text or a quoted attribute's value,
 * by lib/text.h's rule (report/html_text.c): markup as entities, a control
 * character or a byte that is not UTF-8 as a visible numeric reference.
 */
void rpt_html_text(FILE *f, const char *s, size_t len);
/* Frees a machine's identity and mc itself (NULL: nothing). */
void rpt_machine_free(struct rpt_machine *mc);
/* Frees everything the model holds (not m itself). */
void rpt_model_free(struct rpt_model *m);

/*
 * Record i (an errors --json line of len bytes) as the attachment holds it: in the JSON
 * bundle as an object of its array, in the HTML as text of its <pre>.
 */
void rpt_write_record(FILE *f, bool html, size_t i, const char *line, size_t len);
/* The attachment's records, from records_file or records[], as rpt_write_record writes them. 0 or -EIO. */
int rpt_write_records(FILE *f, const struct rpt_model *m, bool html);
/* The whole bundle (doc/schema/report.schema.json), and the whole HTML page. 0 or -EIO. */
int rpt_write_json(FILE *f, const struct rpt_model *m);
int rpt_write_html(FILE *f, const struct rpt_model *m);
/* The DIMM map as an inline <svg> with its legend (report/dimm_map.c). */
void rpt_write_dimm_map(FILE *f, const struct rpt_model *m);
/* The slot's verdict ("replace", "watch", "ok"), "errors" when not judged, "" without errors. */
const char *rpt_slot_state(const struct rpt_model *m, const struct rpt_slot *s);
/*
 * The window's times as text, the same in every part's timeline (its ends and
 * its columns' starts): formatted once a report by rpt_timeline_texts, not at
 * every part (a machine's report draws thousands of timelines).
 */
struct rpt_timeline_texts {
	char from[40], until[40], start[RPT_BINS][40];
};
void rpt_timeline_texts(const struct rpt_model *m, struct rpt_timeline_texts *t);
/*
 * Printed, no tooltip shows a count: the part's tallest column's counts, to
 * stand beside its name, and the columns' span and scale, said once.
 */
void rpt_write_timeline_peak(FILE *f, const struct rpt_part *p);
void rpt_write_timeline_scale(FILE *f, const struct rpt_model *m);
/* One part's timeline as an inline <svg> (report/timeline.c). */
void rpt_write_timeline(FILE *f, const struct rpt_model *m, const struct rpt_timeline_texts *t,
			size_t part);

/*
 * --redact (report/redact.c): every string of the model loses each secret
 * (a host name, a serial, an address), replaced by "[redacted <what>]", and
 * m->redactions counts what went by kind. A serial is taken out wherever it
 * occurs, a host name or an address where it stands as a word of its own
 * (letters, digits, '_' and '-' make words).
 * The caller leaves the failing part's serials and addresses out of secrets.
 * 0 or -ENOMEM.
 */
struct rpt_secret {
	const char *text;
	const char *what;            /* "host name", "serial", "address" */
};
int rpt_redact(struct rpt_model *m, const struct rpt_secret *secrets, size_t n);
/*
 * Addresses as --redact sees them: "0x" and at least 5 hex digits, not part of
 * a longer word, nor named as a register (a JSON key or a word before it:
 * status, misc, syndrome, PPIN...); or 5 hex digits after the word ADDR. fn once per one found in s; rpt_each_string calls fn on every
 * string the model holds (the caller finds the addresses to take out).
 */
typedef void (*rpt_text_fn)(void *ctx, char **s);   /* *s may be NULL */
void rpt_addresses_in(const char *s, void (*fn)(void *ctx, const char *addr, size_t len), void *ctx);
void rpt_each_string(struct rpt_model *m, rpt_text_fn fn, void *ctx);

#endif
