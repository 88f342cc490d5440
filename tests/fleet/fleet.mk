# The fleet: metrics, export with a cursor, import from rasdaemon (issue 12).
lib_libras_a_SOURCES += lib/metrics.c lib/metrics.h lib/rasd_state.c lib/rasd_state.h
db_libdb_a_SOURCES += db/db_metrics.c db/db_metrics.h db/db_metrics_collect.c db/db_export.c db/db_export.h \
	db/db_import.c db/db_import.h
rasd_librasd_a_SOURCES += rasd/metrics_file.c rasd/metrics_file.h
ctl_ras_fdr_ctl_SOURCES += ctl/metrics.c ctl/export.c ctl/export_cursor.c ctl/export_cursor.h ctl/import.c \
	ctl/losses.c ctl/ack.c

FLEET_TESTS = tests/fleet/test-import.sh tests/fleet/test-metrics.sh tests/fleet/test-export.sh \
	tests/fleet/test-metrics-live.sh tests/fleet/test-export-folds.sh tests/fleet/test-fleet-live.sh \
	tests/fleet/test-losses.sh tests/fleet/test-metrics-churn.sh
TESTS += $(FLEET_TESTS)
EXTRA_DIST += $(FLEET_TESTS) tests/fleet/fleet.mk tests/fleet/rasdaemon-0.6.sql \
	tests/fleet/rasdaemon-0.8.sql tests/fleet/parse-metrics.py tests/fleet/check-export.py \
	tests/fleet/check-storm.py tests/fleet/validate-export.py \
	doc/schema/export-record.schema.json doc/schema/export-fold.schema.json \
	doc/schema/export-lost.schema.json doc/schema/export-action.schema.json \
	doc/schema/export-action-repeat.schema.json doc/schema/status.schema.json \
	doc/schema/metrics.schema.json

# Stores a storm that folds, in commits of seeded sizes (export tests).
check_PROGRAMS += tests/fleet/storm-writer
tests_fleet_storm_writer_SOURCES = tests/fleet/storm-writer.c
tests_fleet_storm_writer_CFLAGS = $(RAS_CFLAGS)
tests_fleet_storm_writer_LDADD = $(TEST_LIBS)
