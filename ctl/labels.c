/* SPDX-License-Identifier: MIT */
/* ras-fdr-ctl labels print | register | guess: DIMM label files against sysfs. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "edac_cmd.h"
#include "lib/dimm_labels.h"
#include "lib/smbios.h"

#define MAX_SMBIOS_DEVICES 512

static void print_label_error(void *ctx, const char *file, unsigned line, const char *reason)
{
	unsigned *errors = ctx;

	(*errors)++;
	if (line)
		fprintf(stderr, "%s:%u: %s\n", ctl_text(file), line, ctl_text(reason));
	else
		fprintf(stderr, "%s: %s\n", ctl_text(file), ctl_text(reason));
}

static struct dimm_labels *load_labels(struct ctl *c, unsigned *errors)
{
	struct dimm_labels *l = dimm_labels_new();
	struct dmi_ident id;

	if (!l)
		return NULL;
	dmi_ident_read(c->cfg.sysfs_root, &id);
	dimm_labels_set_machine(l, &id);
	dimm_labels_load_dirs(l, c->cfg.labels_dirs, print_label_error, errors);
	return l;
}

static void location_text(unsigned mc, const int pos[EDAC_MAX_LAYERS], char *out, size_t len)
{
	size_t n = (size_t)snprintf(out, len, "%u", mc);

	for (int l = 0; l < EDAC_MAX_LAYERS && pos[l] >= 0 && n < len; l++)
		n += (size_t)snprintf(out + n, len - n, ".%d", pos[l]);
}

/* One place a label can be read and written: a DIMM directory or a csrow channel. */
struct label_slot {
	unsigned mc;
	const int *pos;
	char node[48];      /* mc0/dimm3 or mc0/csrow1/ch0 */
	char file[80];      /* relative to the mc directory */
	const char *kernel_label;
};

typedef int (*slot_fn)(void *ctx, const struct label_slot *s);

static int each_slot(const struct edac_topology *t, slot_fn fn, void *ctx)
{
	int r = 0;

	for (unsigned m = 0; m < t->n_mcs && r == 0; m++) {
		const struct edac_mc *mc = &t->mcs[m];
		struct label_slot s = { .mc = mc->index };

		for (unsigned i = 0; i < mc->n_dimms && r == 0; i++) {
			const struct edac_dimm *d = &mc->dimms[i];

			s.pos = d->pos;
			s.kernel_label = d->label;
			snprintf(s.node, sizeof(s.node), "mc%u/%s%u", mc->index, d->is_rank ? "rank" : "dimm", d->index);
			snprintf(s.file, sizeof(s.file), "%s%u/dimm_label", d->is_rank ? "rank" : "dimm", d->index);
			r = fn(ctx, &s);
		}
		/* Without DIMM directories the labels live in the csrow channels. */
		for (unsigned i = 0; !mc->n_dimms && i < mc->n_csrows && r == 0; i++) {
			for (unsigned ch = 0; ch < mc->csrows[i].n_channels && r == 0; ch++) {
				s.pos = mc->csrows[i].ch[ch].pos;
				s.kernel_label = mc->csrows[i].ch[ch].dimm_label;
				snprintf(s.node, sizeof(s.node), "mc%u/csrow%u/ch%u", mc->index,
					 mc->csrows[i].index, ch);
				snprintf(s.file, sizeof(s.file), "csrow%u/ch%u_dimm_label", mc->csrows[i].index, ch);
				r = fn(ctx, &s);
			}
		}
	}
	return r;
}

struct labels_run {
	struct ctl *c;
	const struct dimm_labels *l;
	bool json;
	int width[4];		/* the text columns, widened to the longest value */
	unsigned configured, differing, written, failed, printed;
};

struct slot_text {
	char loc[32];
	const char *cells[5];	/* location, node, configured, sysfs, state */
};

static void slot_text(struct labels_run *run, const struct label_slot *s, struct slot_text *t)
{
	const char *want = dimm_labels_lookup(run->l, NULL, (int)s->mc, s->pos[0], s->pos[1], s->pos[2]);

	location_text(s->mc, s->pos, t->loc, sizeof(t->loc));
	t->cells[0] = t->loc;
	t->cells[1] = s->node;
	t->cells[2] = want ? want : "-";
	t->cells[3] = s->kernel_label[0] ? s->kernel_label : "-";
	t->cells[4] = !want ? "not configured" : strcmp(want, s->kernel_label) ? "differs" : "ok";
}

static int measure_slot(void *ctx, const struct label_slot *s)
{
	struct labels_run *run = ctx;
	struct slot_text t;

	slot_text(run, s, &t);
	for (int i = 0; i < 4; i++)
		if ((int)strlen(ctl_text(t.cells[i])) > run->width[i])
			run->width[i] = (int)strlen(ctl_text(t.cells[i]));
	return 0;
}

static int print_slot(void *ctx, const struct label_slot *s)
{
	static const char *const keys[] = { "location", "node", "configured", "sysfs", "state" };
	struct labels_run *run = ctx;
	struct slot_text t;

	slot_text(run, s, &t);
	run->configured += strcmp(t.cells[4], "not configured") != 0;
	run->differing += !strcmp(t.cells[4], "differs");
	if (run->json) {
		printf("%s{", run->printed++ ? "," : "");
		for (int i = 0; i < 5; i++) {
			printf("%s\"%s\":", i ? "," : "", keys[i]);
			ctl_print_json_string(t.cells[i], strlen(t.cells[i]));
		}
		putchar('}');
		return 0;
	}
	printf("%-*s  %-*s  %-*s  %-*s  %s\n", run->width[0], ctl_text(t.cells[0]), run->width[1],
	       ctl_text(t.cells[1]), run->width[2], ctl_text(t.cells[2]), run->width[3],
	       ctl_text(t.cells[3]), t.cells[4]);
	return 0;
}

static void print_labels_header(struct labels_run *run, const struct edac_topology *t)
{
	const char *board = dimm_labels_board_key(run->l);

	if (run->json) {
		printf("{\"version\":%d,\"board\":", CTL_JSON_VERSION);
		ctl_print_json_string(board, strlen(board));
		printf(",\"entries\":%u,\"slots\":[", dimm_labels_count_matching(run->l));
		return;
	}
	/* The header's own words set the narrowest widths. */
	run->width[0] = 8, run->width[1] = 4, run->width[2] = 10, run->width[3] = 5;
	each_slot(t, measure_slot, run);
	printf("Board: %s (%u label entries apply)\n", ctl_text(board), dimm_labels_count_matching(run->l));
	printf("%-*s  %-*s  %-*s  %-*s  %s\n", run->width[0], "LOCATION", run->width[1], "NODE",
	       run->width[2], "CONFIGURED", run->width[3], "SYSFS", "STATE");
}

static int write_label(const char *path, const char *label)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	size_t n = strlen(label);
	ssize_t w;

	if (fd < 0)
		return -errno;
	w = write(fd, label, n);
	if (w < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)w == n ? 0 : -EIO;
}

static int register_slot(void *ctx, const struct label_slot *s)
{
	struct labels_run *run = ctx;
	const char *want = dimm_labels_lookup(run->l, NULL, (int)s->mc, s->pos[0], s->pos[1], s->pos[2]);
	char path[4096];
	int r;

	if (!want)
		return 0;
	run->configured++;
	if (!strcmp(want, s->kernel_label))
		return 0;
	snprintf(path, sizeof(path), "%s/devices/system/edac/mc/mc%u/%s", run->c->cfg.sysfs_root,
		 s->mc, s->file);
	r = write_label(path, want);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", ctl_text(path), strerror(-r));
		run->failed++;
		return 0;
	}
	printf("%s: %s\n", s->node, ctl_text(want));
	run->written++;
	return 0;
}

static int labels_print_or_register(struct ctl *c, bool do_register, bool json)
{
	struct labels_run run = { .c = c, .json = json };
	struct edac_topology t;
	unsigned errors = 0;
	struct dimm_labels *l = load_labels(c, &errors);
	int r;

	if (!l)
		return 1;
	run.l = l;
	r = edac_sysfs_read(c->cfg.sysfs_root, &t);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: cannot read %s/devices/system/edac/mc: %s\n",
			ctl_text(c->cfg.sysfs_root), strerror(-r));
		dimm_labels_free(l);
		return 1;
	}
	if (!do_register)
		print_labels_header(&run, &t);
	each_slot(&t, do_register ? register_slot : print_slot, &run);
	if (json)
		printf("]}\n");
	if (do_register && !run.configured)
		fprintf(stderr, "ras-fdr-ctl: no label file describes this board (%s)\n",
			ctl_text(dimm_labels_board_key(l)));
	else if (do_register)
		printf("%u labels written, %u already right, %u failed.\n", run.written,
		       run.configured - run.written - run.failed, run.failed);
	edac_topology_free(&t);
	dimm_labels_free(l);
	if (errors || run.failed || (do_register && !run.configured))
		return 1;
	return 0;
}

/* Label names may not contain the file format's separators. */
static void sanitize_label(const char *in, unsigned n, char *out, size_t len)
{
	size_t k = 0;

	for (; *in && k + 1 < len; in++)
		out[k++] = strchr(":;#, \t", *in) ? '_' : *in;
	out[k] = 0;
	if (!k)
		snprintf(out, len, "DIMM%u", n);
}

struct guess {
	const struct edac_dimm *dimm[MAX_SMBIOS_DEVICES];
	unsigned mc[MAX_SMBIOS_DEVICES];
	unsigned n;
};

static void print_guess_entry(const struct smbios_memory_device *d, unsigned n,
			      const struct guess *g, bool paired)
{
	char label[SMBIOS_STR_LEN], loc[32];

	sanitize_label(d->locator, n, label, sizeof(label));
	printf("# SMBIOS handle 0x%04x: locator \"%s\", bank \"%s\", ", d->handle, ctl_text(d->locator),
	       ctl_text(d->bank_locator));
	if (d->size_mb == UINT64_MAX)
		printf("size unknown");
	else
		printf("%llu MB", (unsigned long long)d->size_mb);
	printf(" %s %s %s\n", smbios_memory_type_name(d->memory_type), ctl_text(d->manufacturer),
	       ctl_text(d->part_number));
	if (!paired) {
		printf("#\t%s: ?\n", ctl_text(label));
		return;
	}
	location_text(g->mc[n], g->dimm[n]->pos, loc, sizeof(loc));
	if (d->size_mb != UINT64_MAX && d->size_mb != g->dimm[n]->size_mb)
		printf("# note: EDAC reports %llu MB at this location\n",
		       (unsigned long long)g->dimm[n]->size_mb);
	printf("\t%s: %s\n", ctl_text(label), loc);
}

static void print_guess(const struct dmi_ident *id, const struct smbios_memory_device *dev,
			unsigned ndev, const struct guess *g)
{
	unsigned populated = 0, k = 0;
	bool paired;

	for (unsigned i = 0; i < ndev; i++)
		populated += dev[i].size_mb != 0;
	paired = populated == g->n && populated > 0;
	printf("# DIMM labels proposed by \"ras-fdr-ctl labels guess\" from SMBIOS type 17.\n"
	       "# Check every entry against the board before installing this file.\n");
	if (!paired)
		printf("# EDAC shows %u DIMMs but SMBIOS lists %u populated sockets: fill in the\n"
		       "# locations (mc.top.mid.low, see 'ras-fdr-ctl labels print') by hand.\n",
		       g->n, populated);
	printf("Vendor: %s\n", ctl_text(id->board_vendor[0] ? id->board_vendor : id->sys_vendor));
	if (id->board_name[0])
		printf("  Board: %s\n", ctl_text(id->board_name));
	if (id->product_name[0])
		printf("  Product: %s\n", ctl_text(id->product_name));
	for (unsigned i = 0; i < ndev; i++) {
		if (!dev[i].size_mb)
			continue;  /* empty socket */
		print_guess_entry(&dev[i], k++, g, paired);
	}
}

static int labels_guess(struct ctl *c)
{
	struct smbios_memory_device *dev = calloc(MAX_SMBIOS_DEVICES, sizeof(*dev));
	struct guess g = { .n = 0 };
	struct edac_topology t = { 0 };
	struct dmi_ident id;
	char path[4096];
	uint8_t *blob;
	size_t len;
	int n, r;

	if (!dev)
		return 1;
	snprintf(path, sizeof(path), "%s/firmware/dmi/tables/DMI", c->cfg.sysfs_root);
	r = smbios_read_table(path, &blob, &len);
	if (r < 0) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s%s\n", ctl_text(path), strerror(-r),
			r == -EACCES ? " (reading the SMBIOS table needs root)" : "");
		free(dev);
		return 1;
	}
	n = smbios_memory_devices(blob, len, dev, MAX_SMBIOS_DEVICES);
	free(blob);
	if (n <= 0) {
		fprintf(stderr, "ras-fdr-ctl: %s: %s\n", ctl_text(path),
			n < 0 ? "malformed SMBIOS table" : "no memory devices (type 17) listed");
		free(dev);
		return 1;
	}
	if (edac_sysfs_read(c->cfg.sysfs_root, &t) == 0)
		for (unsigned m = 0; m < t.n_mcs; m++)
			for (unsigned i = 0; i < t.mcs[m].n_dimms && g.n < MAX_SMBIOS_DEVICES; i++) {
				g.mc[g.n] = t.mcs[m].index;
				g.dimm[g.n++] = &t.mcs[m].dimms[i];
			}
	dmi_ident_read(c->cfg.sysfs_root, &id);
	print_guess(&id, dev, n < MAX_SMBIOS_DEVICES ? (unsigned)n : MAX_SMBIOS_DEVICES, &g);
	edac_topology_free(&t);
	free(dev);
	return 0;
}

static const struct ctl_opt labels_opts[] = {
	{ "json", 'j', NULL, CTL_C_NONE, "labels print as JSON (formats in ras-fdr-ctl(8))" },
	{ NULL },
};

const struct ctl_spec ctl_labels_spec = {
	.name = "labels", .args = "[print|register|guess]", .opts = labels_opts,
	.positional = CTL_C_WORDS, .words = "print register guess",
	.summary = "DIMM label files against sysfs: print (default), register into sysfs, guess from SMBIOS",
};

static int labels_opt(void *ctx, int key, const char *arg)
{
	(void)key, (void)arg;
	*(bool *)ctx = true;
	return CTL_GO_ON;
}

int ctl_labels(struct ctl *c, int argc, char **argv)
{
	bool json = false;
	int first, r = ctl_parse(&ctl_labels_spec, argc, argv, labels_opt, &json, &first);
	const char *sub;

	if (r != CTL_GO_ON)
		return r;
	sub = first < argc ? argv[first] : "print";
	if (first + 1 < argc)
		return ctl_usage_error("labels", "unexpected argument '%s'", argv[first + 1]);
	if (json && strcmp(sub, "print"))
		return ctl_usage_error("labels", "--json goes with print");
	if (!strcmp(sub, "print"))
		return labels_print_or_register(c, false, json);
	if (!strcmp(sub, "register"))
		return labels_print_or_register(c, true, false);
	if (!strcmp(sub, "guess"))
		return labels_guess(c);
	return ctl_usage_error("labels", "unknown action '%s' (print, register, guess)", sub);
}
