# SPDX-License-Identifier: MIT
# Issue 39's event loop per record: the kernel's drop
# counters of a quiet CPU checked without the database, and their tests.
# Included by the top Makefile.am; only appends.

EXTRA_DIST += rasd/event_loop.mk

check_PROGRAMS += tests/test-stats-quiet
TESTS += tests/test-stats-quiet
tests_test_stats_quiet_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_quiet_LDADD = $(TEST_LIBS)

# An instance made again (or cleared) within one boot: its drop counters are new.
check_PROGRAMS += tests/test-stats-recreated
TESTS += tests/test-stats-recreated
tests_test_stats_recreated_CFLAGS = $(RAS_CFLAGS) -I$(srcdir)/tests
tests_test_stats_recreated_LDADD = $(TEST_LIBS)
