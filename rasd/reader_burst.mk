# SPDX-License-Identifier: MIT
# Issue 39's live path: reading in bursts under a storm (the watermark and
# the tick, rasd/reader_burst.c) and its rule's test. Included by the top
# Makefile.am; only appends.

rasd_librasd_a_SOURCES += rasd/reader_burst.c rasd/reader_burst.h
EXTRA_DIST += rasd/reader_burst.mk

# The burst rule: when reading goes by the tick and when it goes back to every record.
check_PROGRAMS += tests/test-reader-burst
TESTS += tests/test-reader-burst
tests_test_reader_burst_CFLAGS = $(RAS_CFLAGS)
tests_test_reader_burst_LDADD = $(TEST_LIBS)
