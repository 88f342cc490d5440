# SPDX-License-Identifier: MIT
# Issue 39: subjects seen once spilled past rasd's memory without making the
# event loop wait. The spilled keys' index (lib/key_set.c, 4 bytes a key) and
# the spill's adds handed to the writer thread (db/db_actions.c), and their
# tests. Included by the top Makefile.am; only appends.

lib_libras_a_SOURCES += lib/key_set.c lib/key_set.h
EXTRA_DIST += rasd/once_spill.mk

# The index: never "surely not" for a key held, its bound, and overflow.
check_PROGRAMS += tests/test-key-set
TESTS += tests/test-key-set
tests_test_key_set_CFLAGS = $(RAS_CFLAGS)
tests_test_key_set_LDADD = $(TEST_LIBS)

# A storm spilled behind the writer thread: no wait per subject, same counts, failures.
check_PROGRAMS += tests/test-once-spill-behind
TESTS += tests/test-once-spill-behind
tests_test_once_spill_behind_SOURCES = tests/test-once-spill-behind.c $(SPILL_FIXTURE) $(WRITER_FIXTURE)
tests_test_once_spill_behind_CFLAGS = $(RAS_CFLAGS)
tests_test_once_spill_behind_LDADD = $(TEST_LIBS)
