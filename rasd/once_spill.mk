# SPDX-License-Identifier: MIT
# Issue 39: subjects seen once spilled past rasd's memory without making the
# event loop wait. The spill (db/db_once_spill.c): its table on the writer's
# connection, its adds and takes handed to the writer thread, and its rows
# copied in memory (lib/spill_rows.c, 24 bytes a row) so that a take is
# answered without the writer; and their tests. Included by the top
# Makefile.am; only appends.

lib_libras_a_SOURCES += lib/spill_rows.c lib/spill_rows.h
db_libdb_a_SOURCES += db/db_once_spill.c db/db_once_spill.h
EXTRA_DIST += rasd/once_spill.mk

# The copy: what a put, a take and a removal leave, its bound, and overflow.
check_PROGRAMS += tests/test-spill-rows
TESTS += tests/test-spill-rows
tests_test_spill_rows_CFLAGS = $(RAS_CFLAGS)
tests_test_spill_rows_LDADD = $(TEST_LIBS)

# A storm spilled behind the writer thread: no wait per subject, same counts, failures.
check_PROGRAMS += tests/test-once-spill-behind
TESTS += tests/test-once-spill-behind
tests_test_once_spill_behind_SOURCES = tests/test-once-spill-behind.c $(SPILL_FIXTURE) $(WRITER_FIXTURE)
tests_test_once_spill_behind_CFLAGS = $(RAS_CFLAGS)
tests_test_once_spill_behind_LDADD = $(TEST_LIBS)

# A spilled subject taken back while the writer thread is held (no sync), and rollbacks of unconfirmed spills.
check_PROGRAMS += tests/test-once-spill-unconfirmed
TESTS += tests/test-once-spill-unconfirmed
tests_test_once_spill_unconfirmed_SOURCES = tests/test-once-spill-unconfirmed.c $(SPILL_FIXTURE) $(WRITER_FIXTURE)
tests_test_once_spill_unconfirmed_CFLAGS = $(RAS_CFLAGS)
tests_test_once_spill_unconfirmed_LDADD = $(TEST_LIBS)
