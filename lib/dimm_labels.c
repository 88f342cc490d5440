/* SPDX-License-Identifier: MIT */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "config.h"
#include "dimm_labels.h"
#include "edac_sysfs.h"

#define LABELS_FILE_MAX (1u << 20)
#define MATCHERS_PER_BLOCK 16

enum matcher_kind { MATCH_BOARD, MATCH_PRODUCT };

struct label_block {
	char vendor[128];
	unsigned n_matchers;
	enum matcher_kind kind[MATCHERS_PER_BLOCK];
	char value[MATCHERS_PER_BLOCK][128];
};

struct label_entry {
	char label[EDAC_LABEL_LEN];
	int mc, pos[EDAC_MAX_LAYERS];
	unsigned block;
	unsigned line;
};

struct dimm_labels {
	struct label_block *blocks;
	unsigned n_blocks, cap_blocks;
	struct label_entry *entries;
	unsigned n_entries, cap_entries;
	struct dmi_ident machine;
	char key[520];
};

/* State of one file being parsed. */
struct parse {
	struct dimm_labels *l;
	const char *file;
	unsigned line;
	bool have_block;
	unsigned errors;
	dimm_labels_error_fn on_error;
	void *ctx;
};

struct dimm_labels *dimm_labels_new(void)
{
	return calloc(1, sizeof(struct dimm_labels));
}

void dimm_labels_free(struct dimm_labels *l)
{
	if (!l)
		return;
	free(l->blocks);
	free(l->entries);
	free(l);
}

static void problem(struct parse *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void problem(struct parse *p, const char *fmt, ...)
{
	char reason[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	p->errors++;
	if (p->on_error)
		p->on_error(p->ctx, p->file, p->line, reason);
}

static int add_block(struct parse *p, const char *vendor)
{
	struct dimm_labels *l = p->l;

	if (l->n_blocks == l->cap_blocks) {
		unsigned cap = l->cap_blocks ? l->cap_blocks * 2 : 8;
		void *nb = realloc(l->blocks, cap * sizeof(*l->blocks));

		if (!nb)
			return -ENOMEM;
		l->blocks = nb;
		l->cap_blocks = cap;
	}
	memset(&l->blocks[l->n_blocks], 0, sizeof(l->blocks[0]));
	snprintf(l->blocks[l->n_blocks].vendor, sizeof(l->blocks[0].vendor), "%s", vendor);
	l->n_blocks++;
	p->have_block = true;
	return 0;
}

static struct label_block *current_block(struct parse *p)
{
	return p->have_block ? &p->l->blocks[p->l->n_blocks - 1] : NULL;
}

static bool block_has_entries(const struct parse *p)
{
	const struct dimm_labels *l = p->l;

	return l->n_entries && l->entries[l->n_entries - 1].block == l->n_blocks - 1;
}

static int add_matcher(struct parse *p, enum matcher_kind kind, const char *value)
{
	struct label_block *b = current_block(p);

	if (!b) {
		problem(p, "%s line before any Vendor: line", kind == MATCH_PRODUCT ? "Product:" : "Model:");
		return 0;
	}
	/* A Model: after labels starts a new group under the same vendor. */
	if (block_has_entries(p) || b->n_matchers == MATCHERS_PER_BLOCK) {
		char vendor[sizeof(b->vendor)];

		snprintf(vendor, sizeof(vendor), "%s", b->vendor);
		if (add_block(p, vendor) < 0)
			return -ENOMEM;
		b = current_block(p);
	}
	if (!*value) {
		problem(p, "empty %s value", kind == MATCH_PRODUCT ? "Product:" : "Model:");
		return 0;
	}
	b->kind[b->n_matchers] = kind;
	snprintf(b->value[b->n_matchers], sizeof(b->value[0]), "%s", value);
	b->n_matchers++;
	return 0;
}

/* "0.1.2" -> mc 0, layers 1, 2, -1. */
static bool parse_location(const char *s, int *mc, int pos[EDAC_MAX_LAYERS])
{
	int v[1 + EDAC_MAX_LAYERS], n = 0;

	for (;;) {
		char *end;
		long x;

		if (!isdigit((unsigned char)*s) || n == 1 + EDAC_MAX_LAYERS)
			return false;
		x = strtol(s, &end, 10);
		if (x > 255)
			return false;
		v[n++] = (int)x;
		s = end;
		if (!*s)
			break;
		if (*s++ != '.')
			return false;
	}
	if (n < 2)
		return false;
	*mc = v[0];
	for (int i = 0; i < EDAC_MAX_LAYERS; i++)
		pos[i] = i + 1 < n ? v[i + 1] : -1;
	return true;
}

static const struct label_entry *find_in_block(const struct dimm_labels *l, unsigned block,
					       int mc, const int pos[EDAC_MAX_LAYERS])
{
	for (unsigned i = 0; i < l->n_entries; i++) {
		const struct label_entry *e = &l->entries[i];

		if (e->block == block && e->mc == mc && !memcmp(e->pos, pos, sizeof(e->pos)))
			return e;
	}
	return NULL;
}

static int add_entry(struct parse *p, const char *label, const char *loc)
{
	struct dimm_labels *l = p->l;
	struct label_entry e = { .block = l->n_blocks - 1, .line = p->line };
	const struct label_entry *dup;

	if (!parse_location(loc, &e.mc, e.pos)) {
		problem(p, "bad location '%s': expected mc.top[.mid[.low]] (numbers 0-255)", loc);
		return 0;
	}
	if (strlen(label) >= sizeof(e.label)) {
		problem(p, "label '%s' is too long", label);
		return 0;
	}
	dup = find_in_block(l, e.block, e.mc, e.pos);
	if (dup && strcasecmp(dup->label, label)) {
		problem(p, "location '%s' is already given another label in this block", loc);
		return 0;
	}
	if (l->n_entries == l->cap_entries) {
		unsigned cap = l->cap_entries ? l->cap_entries * 2 : 32;
		void *ne = realloc(l->entries, cap * sizeof(*l->entries));

		if (!ne)
			return -ENOMEM;
		l->entries = ne;
		l->cap_entries = cap;
	}
	snprintf(e.label, sizeof(e.label), "%s", label);
	l->entries[l->n_entries++] = e;
	return 0;
}

static int label_item(struct parse *p, const char *label, char *value)
{
	char *save = NULL, *loc;
	int r = 0;

	if (!current_block(p)) {
		problem(p, "label '%s' before any Vendor: line", label);
		return 0;
	}
	if (!current_block(p)->n_matchers) {
		problem(p, "label '%s' before any Model:, Board: or Product: line", label);
		return 0;
	}
	if (!*label) {
		problem(p, "%s", "empty label name");
		return 0;
	}
	loc = strtok_r(value, ", \t", &save);
	if (!loc)
		problem(p, "label '%s' has no location", label);
	for (; loc && r == 0; loc = strtok_r(NULL, ", \t", &save))
		r = add_entry(p, label, loc);
	return r;
}

static int parse_item(struct parse *p, char *item)
{
	char *colon = strchr(item, ':'), *key, *value;

	if (!colon) {
		problem(p, "expected 'NAME: value', got '%s'", item);
		return 0;
	}
	*colon = 0;
	key = rasd_trim(item);
	value = rasd_trim(colon + 1);
	if (!strcasecmp(key, "vendor")) {
		if (!*value) {
			problem(p, "%s", "empty Vendor: value");
			return 0;
		}
		return add_block(p, value);
	}
	if (!strcasecmp(key, "model") || !strcasecmp(key, "board"))
		return add_matcher(p, MATCH_BOARD, value);
	if (!strcasecmp(key, "product"))
		return add_matcher(p, MATCH_PRODUCT, value);
	return label_item(p, key, value);
}

static int parse_line(struct parse *p, char *line)
{
	char *hash = strchr(line, '#'), *save = NULL, *item;
	int r = 0;

	if (hash)
		*hash = 0;
	for (item = strtok_r(line, ";", &save); item && r == 0; item = strtok_r(NULL, ";", &save)) {
		item = rasd_trim(item);
		if (*item)
			r = parse_item(p, item);
	}
	return r;
}

int dimm_labels_load_text(struct dimm_labels *l, const char *name, const char *text,
			  dimm_labels_error_fn on_error, void *ctx)
{
	struct parse p = { .l = l, .file = name, .on_error = on_error, .ctx = ctx };
	unsigned blocks_before = l->n_blocks, entries_before = l->n_entries;
	char *copy = strdup(text), *save = NULL, *line, *cursor;
	int r = 0;

	if (!copy)
		return -ENOMEM;
	/* strtok would merge empty lines and lose the count; walk by hand. */
	for (cursor = copy; r == 0 && cursor; cursor = save) {
		line = cursor;
		save = strchr(cursor, '\n');
		if (save)
			*save++ = 0;
		p.line++;
		r = parse_line(&p, line);
	}
	free(copy);
	if (r < 0 || p.errors) {
		/* A file with problems contributes nothing; the others still apply. */
		l->n_blocks = blocks_before;
		l->n_entries = entries_before;
	}
	return r < 0 ? r : (int)p.errors;
}

static int read_whole(const char *path, char **out)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf;
	ssize_t n;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_size < 0 || (uint64_t)st.st_size > LABELS_FILE_MAX) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	n = read(fd, buf, (size_t)st.st_size);
	close(fd);
	if (n < 0) {
		free(buf);
		return -EIO;
	}
	buf[n] = 0;
	*out = buf;
	return 0;
}

int dimm_labels_load_file(struct dimm_labels *l, const char *path,
			  dimm_labels_error_fn on_error, void *ctx)
{
	char *text = NULL;
	int r = read_whole(path, &text);

	if (r < 0)
		return r;
	if (memchr(text, 0, strlen(text) + 1) != text + strlen(text))
		r = -EINVAL;
	else
		r = dimm_labels_load_text(l, path, text, on_error, ctx);
	free(text);
	return r;
}

static bool wanted_name(const char *name)
{
	size_t n = strlen(name);

	/* Hidden files and editor or package-manager leftovers are not label files. */
	return name[0] != '.' && name[n - 1] != '~' && !strstr(name, ".rpmsave") &&
	       !strstr(name, ".rpmnew") && !strstr(name, ".dpkg-");
}

static int load_dir(struct dimm_labels *l, const char *dir, dimm_labels_error_fn on_error, void *ctx)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), problems = 0;

	if (n < 0)
		return 0;  /* a missing directory simply has no labels */
	for (int i = 0; i < n; i++) {
		char path[4096];
		struct stat st;
		int r;

		snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
		if (wanted_name(names[i]->d_name) && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
			r = dimm_labels_load_file(l, path, on_error, ctx);
			if (r < 0 && on_error) {
				on_error(ctx, path, 0, strerror(-r));
				problems++;
			} else if (r > 0) {
				problems += r;
			}
		}
		free(names[i]);
	}
	free(names);
	return problems;
}

int dimm_labels_load_dirs(struct dimm_labels *l, const char *dirs,
			  dimm_labels_error_fn on_error, void *ctx)
{
	char *copy = strdup(dirs), *save = NULL, *dir;
	int problems = 0;

	if (!copy)
		return -ENOMEM;
	for (dir = strtok_r(copy, " \t", &save); dir; dir = strtok_r(NULL, " \t", &save))
		problems += load_dir(l, dir, on_error, ctx);
	free(copy);
	return problems;
}

static void read_dmi_file(const char *root, const char *name, char *out, size_t len)
{
	char path[4096];
	int fd;
	ssize_t n;

	out[0] = 0;
	snprintf(path, sizeof(path), "%s/class/dmi/id/%s", root, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, out, len - 1);
	close(fd);
	out[n > 0 ? n : 0] = 0;
	char *t = rasd_trim(out);

	memmove(out, t, strlen(t) + 1);
}

void dmi_ident_read(const char *sysfs_root, struct dmi_ident *id)
{
	read_dmi_file(sysfs_root, "board_vendor", id->board_vendor, sizeof(id->board_vendor));
	read_dmi_file(sysfs_root, "board_name", id->board_name, sizeof(id->board_name));
	read_dmi_file(sysfs_root, "product_name", id->product_name, sizeof(id->product_name));
	read_dmi_file(sysfs_root, "sys_vendor", id->sys_vendor, sizeof(id->sys_vendor));
}

void dimm_labels_set_machine(struct dimm_labels *l, const struct dmi_ident *id)
{
	l->machine = *id;
	snprintf(l->key, sizeof(l->key), "%s|%s|%s",
		 id->board_vendor[0] ? id->board_vendor : id->sys_vendor, id->board_name,
		 id->product_name);
}

const char *dimm_labels_board_key(const struct dimm_labels *l)
{
	return l->key;
}

static void ident_from_key(const char *key, struct dmi_ident *id)
{
	const char *a = strchr(key, '|'), *b = a ? strchr(a + 1, '|') : NULL;

	memset(id, 0, sizeof(*id));
	snprintf(id->board_vendor, sizeof(id->board_vendor), "%.*s",
		 (int)(a ? (size_t)(a - key) : strlen(key)), key);
	if (a)
		snprintf(id->board_name, sizeof(id->board_name), "%.*s",
			 (int)(b ? (size_t)(b - a - 1) : strlen(a + 1)), a + 1);
	if (b)
		snprintf(id->product_name, sizeof(id->product_name), "%s", b + 1);
}

static bool block_matches(const struct label_block *b, const struct dmi_ident *id)
{
	if (strcasecmp(b->vendor, id->board_vendor) && strcasecmp(b->vendor, id->sys_vendor))
		return false;
	for (unsigned i = 0; i < b->n_matchers; i++) {
		const char *have = b->kind[i] == MATCH_PRODUCT ? id->product_name : id->board_name;

		if (*have && !strcasecmp(b->value[i], have))
			return true;
	}
	return false;
}

static const struct dmi_ident *ident_for(const struct dimm_labels *l, const char *key,
					 struct dmi_ident *tmp)
{
	if (!key)
		return &l->machine;
	ident_from_key(key, tmp);
	return tmp;
}

unsigned dimm_labels_count_matching(const struct dimm_labels *l)
{
	unsigned n = 0;

	for (unsigned i = 0; i < l->n_entries; i++)
		n += block_matches(&l->blocks[l->entries[i].block], &l->machine);
	return n;
}

const char *dimm_labels_lookup(const struct dimm_labels *l, const char *board_key_or_NULL,
			       int mc, int top, int mid, int low)
{
	struct dmi_ident tmp;
	const struct dmi_ident *id;
	int pos[EDAC_MAX_LAYERS] = { top, mid, low };

	if (!l)
		return NULL;
	id = ident_for(l, board_key_or_NULL, &tmp);
	/* Later files win: the project's own directory comes after /etc/ras. */
	for (unsigned i = l->n_entries; i-- > 0;) {
		const struct label_entry *e = &l->entries[i];

		if (e->mc == mc && !memcmp(e->pos, pos, sizeof(pos)) &&
		    block_matches(&l->blocks[e->block], id))
			return e->label;
	}
	return NULL;
}

bool dimm_label_is_placeholder(const char *label)
{
	if (!label || !*label)
		return true;
	if (!strcasecmp(label, "any memory") || !strcasecmp(label, "unknown memory"))
		return true;
	/* The kernel's defaults: "mc#0csrow#1channel#0", "CPU_SrcID#0_MC#0_Chan#0_DIMM#0". */
	return (!strncmp(label, "mc#", 3) && isdigit((unsigned char)label[3])) ||
	       !strncmp(label, "CPU_SrcID#", 10);
}
