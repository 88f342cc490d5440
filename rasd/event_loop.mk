# SPDX-License-Identifier: MIT
# Issue 39's event loop per record: the kernel's drop
# counters of a quiet CPU checked without the database, and their tests.
# Included by the top Makefile.am; only appends.

EXTRA_DIST += rasd/event_loop.mk

check_PROGRAMS += tests/test-stats-quiet
TESTS += tests/test-stats-quiet
tests_test_stats_quiet_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_quiet_LDADD = $(TEST_LIBS)
