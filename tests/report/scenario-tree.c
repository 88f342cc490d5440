/* SPDX-License-Identifier: MIT */
/*
 * Test helper: a tracing tree from a scenario's record text, for rasd --once
 * to replay (tests/report/scenarios/NAME.records, reviewable as text):
 *   # a comment
 *   +SECONDS[*COUNT[/STEP]] system:event; field=value; field=value ...
 * one record SECONDS after the scenario's start (eight days back on the boot
 * clock, so the wall times are recent and none is in the future), or COUNT of them STEP seconds apart
 * (default 1) where "{i}" in a value is the record's number from 0. Fields
 * not given are zero. Prints the tree's root.
 *   scenario-tree FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "tests/fake_tree.h"
#include "tests/test_util.h"

#define NS 1000000000ULL
#define MAX_FIELDS 32

/* Every record first, then written in time order (a CPU's buffer never goes back). */
struct held {
	uint64_t ts;
	unsigned seq;
	uint32_t len;
	uint8_t rec[2048];
};
static struct held *held;
static size_t nheld;

static int by_time(const void *a, const void *b)
{
	const struct held *x = a, *y = b;

	return x->ts != y->ts ? (x->ts < y->ts ? -1 : 1) : (x->seq < y->seq ? -1 : x->seq > y->seq);
}

/* value with each "{i}" made the number i, into out. */
static void expand(const char *value, unsigned i, char *out, size_t len)
{
	size_t n = 0;

	for (const char *p = value; *p && n + 12 < len; ) {
		if (!strncmp(p, "{i}", 3)) {
			n += (size_t)snprintf(out + n, len - n, "%u", i);
			p += 3;
		} else {
			out[n++] = *p++;
		}
	}
	out[n] = 0;
}

static int line(struct fake_tree *t, char *l, uint64_t base)
{
	static char buf[MAX_FIELDS][1024];
	char *assign[MAX_FIELDS], *field[MAX_FIELDS], *event, *save = NULL;
	unsigned long sec, count = 1, step = 1;
	int n = 0, len;

	if (sscanf(l, "+%lu*%lu/%lu", &sec, &count, &step) < 1 || !(event = strchr(l, ' ')))
		return -1;
	event = strtok_r(event + 1, ";\n", &save);
	for (char *f; n < MAX_FIELDS && (f = strtok_r(NULL, ";\n", &save)); )
		field[n++] = f + strspn(f, " ");
	for (unsigned long i = 0; i < count; i++) {
		for (int k = 0; k < n; k++) {
			expand(field[k], (unsigned)i, buf[k], sizeof(buf[k]));
			assign[k] = buf[k];
		}
		struct held *h = realloc(held, (nheld + 1) * sizeof(*held));

		if (!h)
			return -1;
		held = h;
		h = &held[nheld];
		len = fake_record(t, event, assign, n, h->rec, sizeof(h->rec));
		if (len < 0) {
			fprintf(stderr, "scenario-tree: cannot make '%s'\n", l);
			return -1;
		}
		h->ts = base + (sec + i * step) * NS;
		h->seq = (unsigned)nheld++;
		h->len = (uint32_t)len;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct fake_tree t;
	struct timespec now;
	char formats[1024], l[8192];
	FILE *f;
	int r = 0;

	if (argc != 2 || !(f = fopen(argv[1], "re")))
		return 2;
	clock_gettime(CLOCK_BOOTTIME, &now);
	snprintf(formats, sizeof(formats), "%s/tests/formats/linux-6.1", test_srcdir());
	if (fake_tree_create(&t, formats, 1, "rasd", "boot") < 0)
		return 1;
	/* Eight days back: the scenarios span less than a week. */
	while (r == 0 && fgets(l, sizeof(l), f))
		if (l[0] == '+')
			r = line(&t, l, ((uint64_t)now.tv_sec > 8 * 86400 ? (uint64_t)now.tv_sec - 8 * 86400 : 1) * NS);
	fclose(f);
	if (nheld)
		qsort(held, nheld, sizeof(*held), by_time);
	for (size_t i = 0; r == 0 && i < nheld; i++)
		r = fake_add(&t, 0, held[i].ts, held[i].rec, held[i].len);
	free(held);
	if (r < 0 || fake_tree_finish(&t) < 0)
		return 1;
	ras_formats_free(t.fmt);
	printf("%s\n", t.root);
	return 0;
}
