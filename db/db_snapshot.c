/* SPDX-License-Identifier: MIT */
/* Flight-recorder snapshots (placeholder until the flight-recorder work lands). */
#include "db_internal.h"

const char ras_db_schema_snapshot[] = "SELECT 1;";
