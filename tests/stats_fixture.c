/* SPDX-License-Identifier: MIT */
/* The drop-counter tests' fixture: see stats_fixture.h. */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include "stats_fixture.h"
#include "test_util.h"

int stats_fixture_open(struct stats_fixture *t, const char *sub, const char *name)
{
	char per_cpu[sizeof(t->tr.instance_dir) + 16];

	memset(t, 0, sizeof(*t));
	if (test_tmpdir(t->dir, sizeof(t->dir)) < 0)
		return -1;
	snprintf(t->dbpath, sizeof(t->dbpath), "%s/ras.db", t->dir);
	if (sub)
		snprintf(t->tr.instance_dir, sizeof(t->tr.instance_dir), "%s/%s", t->dir, sub);
	else
		snprintf(t->tr.instance_dir, sizeof(t->tr.instance_dir), "%s", t->dir);
	snprintf(t->tr.name, sizeof(t->tr.name), "%s", name);
	mkdir(t->tr.instance_dir, 0755);
	snprintf(per_cpu, sizeof(per_cpu), "%s/per_cpu", t->tr.instance_dir);
	mkdir(per_cpu, 0755);
	t->db = test_db_open(t->dir, "ras.db");
	rasd_config_defaults(&t->cfg);
	return 0;
}

void stats_fixture_close(struct stats_fixture *t)
{
	if (t->db)
		ras_db_close(t->db);
	t->db = NULL;
	test_rmtree(t->dir);
}

void set_stats(const char *inst, int cpu, unsigned overrun, unsigned dropped)
{
	char path[600];
	FILE *f;

	snprintf(path, sizeof(path), "%s/per_cpu", inst);
	mkdir(inst, 0755);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%d", inst, cpu);
	mkdir(path, 0755);
	strcat(path, "/stats");
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "entries: 0\noverrun: %u\ncommit overrun: 0\nbytes: 0\n"
		"dropped events: %u\nread events: 0\n", overrun, dropped);
	fclose(f);
}
