# Text from records and databases is data, never control (issue 31), and the
# JSON contract (issues 32, 33): one terminal-safe form and one JSON encoder
# in lib/, the schemas of every command's --json output, and their tests.
lib_libras_a_SOURCES += lib/text.c lib/text.h lib/json.c lib/json.h

check_PROGRAMS += tests/json/test-text
TESTS += tests/json/test-text
tests_json_test_text_CFLAGS = $(RAS_CFLAGS)
tests_json_test_text_LDADD = $(TEST_LIBS)
