# EDAC tests. Appends only; included by Makefile.am.
check_PROGRAMS += tests/edac/test-edac-units tests/edac/test-edac-db
tests_edac_test_edac_units_SOURCES = tests/edac/test-edac-units.c tests/edac/edac_fixtures.c \
	tests/edac/edac_fixtures.h
tests_edac_test_edac_units_CFLAGS = $(RAS_CFLAGS)
tests_edac_test_edac_units_LDADD = $(TEST_LIBS)
tests_edac_test_edac_db_SOURCES = tests/edac/test-edac-db.c tests/edac/edac_fixtures.c \
	tests/edac/edac_fixtures.h
tests_edac_test_edac_db_CFLAGS = $(RAS_CFLAGS)
tests_edac_test_edac_db_LDADD = $(TEST_LIBS)
TESTS += tests/edac/test-edac-units tests/edac/test-edac-db
EXTRA_DIST += tests/edac/labels man/ras-fdr-labels.5

# The whole path: replayed mc_event records through rasd into ras-fdr-ctl edac.
check_PROGRAMS += tests/edac/test-edac-path
tests_edac_test_edac_path_SOURCES = tests/edac/test-edac-path.c tests/edac/edac_fixtures.c tests/edac/edac_fixtures.h
tests_edac_test_edac_path_CFLAGS = $(RAS_CFLAGS)
tests_edac_test_edac_path_LDADD = $(TEST_LIBS)
TESTS += tests/edac/test-edac-path

# The roll-ups answer every EDAC option as a full scan does (a schema-9 copy).
check_PROGRAMS += tests/edac/test-edac-rollup
tests_edac_test_edac_rollup_SOURCES = tests/edac/test-edac-rollup.c tests/edac/edac_fixtures.c \
	tests/edac/edac_fixtures.h
tests_edac_test_edac_rollup_CFLAGS = $(RAS_CFLAGS)
tests_edac_test_edac_rollup_LDADD = $(TEST_LIBS)
TESTS += tests/edac/test-edac-rollup
