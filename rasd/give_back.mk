# SPDX-License-Identifier: MIT
# Issue 39's live path: memory given back after a real idle, never between a
# storm's groups (rasd/give_back.c), and its rule's test. Included by the top
# Makefile.am; only appends.

rasd_librasd_a_SOURCES += rasd/give_back.c rasd/give_back.h
EXTRA_DIST += rasd/give_back.mk

check_PROGRAMS += tests/test-give-back
TESTS += tests/test-give-back
tests_test_give_back_CFLAGS = $(RAS_CFLAGS)
tests_test_give_back_LDADD = $(TEST_LIBS)
