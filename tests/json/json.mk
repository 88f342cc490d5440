# Text from records and databases is data, never control (issue 31), and the
# JSON contract (issues 32, 33): one terminal-safe form and one JSON encoder
# in lib/, the schemas of every command's --json output, and their tests.
lib_libras_a_SOURCES += lib/text.c lib/text.h lib/json.c lib/json.h

check_PROGRAMS += tests/json/test-text
TESTS += tests/json/test-text
tests_json_test_text_CFLAGS = $(RAS_CFLAGS)
tests_json_test_text_LDADD = $(TEST_LIBS)

# Prints doc/schema/record-types.schema.json from the event and dfield tables.
check_PROGRAMS += tests/json/record-types
tests_json_record_types_CFLAGS = $(RAS_CFLAGS)
tests_json_record_types_LDADD = $(TEST_LIBS)
# Writes a database of hostile texts and extreme registers for test-json.
check_PROGRAMS += tests/json/hostile-db
tests_json_hostile_db_CFLAGS = $(RAS_CFLAGS)
tests_json_hostile_db_LDADD = $(TEST_LIBS)

JSON_TESTS = tests/json/test-json.sh tests/json/test-comm-live.sh
TESTS += $(JSON_TESTS)
EXTRA_DIST += $(JSON_TESTS) tests/json/json.mk tests/json/test_json.py tests/json/validate.py

# The JSON contract, installed beside the documentation (ras-fdr-ctl(8), JSON): every
# command's schema, fleet's (status, metrics, export's line kinds) included.
schemadir = $(docdir)/schema
dist_schema_DATA = doc/schema/common.schema.json doc/schema/error.schema.json \
	doc/schema/record-types.schema.json doc/schema/record.schema.json \
	doc/schema/errors.schema.json doc/schema/summary.schema.json doc/schema/edac.schema.json \
	doc/schema/layout.schema.json doc/schema/labels.schema.json doc/schema/decode.schema.json \
	doc/schema/actions.schema.json doc/schema/snapshot.schema.json \
	doc/schema/boot-cmdline.schema.json doc/schema/crashes.schema.json \
	doc/schema/status.schema.json doc/schema/metrics.schema.json \
	doc/schema/export-record.schema.json doc/schema/export-fold.schema.json \
	doc/schema/export-lost.schema.json doc/schema/export-action.schema.json \
	doc/schema/export-action-repeat.schema.json
