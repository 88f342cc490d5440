/* SPDX-License-Identifier: MIT */
/* EDAC topology snapshots (placeholder until the EDAC work lands). */
#include "db_internal.h"

const char ras_db_schema_edac[] = "SELECT 1;";
