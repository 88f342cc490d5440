/* SPDX-License-Identifier: MIT */
/* Test helper: creates (or migrates) a ras-fdr database at PATH with the current schema. */
#include <stdio.h>
#include "db/db.h"

int main(int argc, char **argv)
{
	struct ras_db *db;
	char err[1024];

	if (argc != 2)
		return 2;
	if (ras_db_open_writer(&db, argv[1], "test-boot", err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	ras_db_close(db);
	return 0;
}
