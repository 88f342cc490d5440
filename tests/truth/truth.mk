# One truth per record (issue 32): kernel text held whole, dry runs, views that agree.
# Schema step 17: machine-check cache levels as Linux numbers the caches.
db_libdb_a_SOURCES += db/db_migrate_levels.c
TRUTH_C_TESTS = tests/truth/test-reload tests/truth/test-actions-dry tests/truth/test-views-agree \
	tests/truth/test-text-limits tests/truth/test-adxl-row
check_PROGRAMS += $(TRUTH_C_TESTS)
TESTS += $(TRUTH_C_TESTS)
EXTRA_DIST += tests/truth/truth.mk
tests_truth_test_reload_SOURCES = tests/truth/test-reload.c rasd/reload.c
tests_truth_test_reload_CFLAGS = $(RAS_CFLAGS)
tests_truth_test_reload_LDADD = $(TEST_LIBS)
tests_truth_test_actions_dry_SOURCES = tests/truth/test-actions-dry.c $(ACTIONS_FIXTURE)
tests_truth_test_actions_dry_CFLAGS = $(RAS_CFLAGS)
tests_truth_test_actions_dry_LDADD = $(TEST_LIBS)
tests_truth_test_views_agree_SOURCES = tests/truth/test-views-agree.c $(ACTIONS_FIXTURE)
tests_truth_test_views_agree_CFLAGS = $(RAS_CFLAGS)
tests_truth_test_views_agree_LDADD = $(TEST_LIBS)
tests_truth_test_text_limits_CFLAGS = $(RAS_CFLAGS)
tests_truth_test_text_limits_LDADD = $(TEST_LIBS)
tests_truth_test_adxl_row_SOURCES = tests/truth/test-adxl-row.c $(ACTIONS_FIXTURE)
tests_truth_test_adxl_row_CFLAGS = $(RAS_CFLAGS)
tests_truth_test_adxl_row_LDADD = $(TEST_LIBS)
