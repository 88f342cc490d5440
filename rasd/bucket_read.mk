# SPDX-License-Identifier: MIT
# Issue 39: a threshold bucket read back without waiting for the writer
# thread (rasd/bucket_unconfirmed.c, rasd/actions_bucket.c,
# db/db_bucket_read.c; in the libraries' lists of Makefile.am), and its test.
# Included by the top Makefile.am; only appends.
EXTRA_DIST += rasd/bucket_read.mk

check_PROGRAMS += tests/test-bucket-unconfirmed
TESTS += tests/test-bucket-unconfirmed
tests_test_bucket_unconfirmed_SOURCES = tests/test-bucket-unconfirmed.c $(SPILL_FIXTURE) $(WRITER_FIXTURE)
tests_test_bucket_unconfirmed_CFLAGS = $(RAS_CFLAGS)
tests_test_bucket_unconfirmed_LDADD = $(TEST_LIBS)
