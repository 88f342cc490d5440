# Flight recorder, snapshot rendering, boot command line, hidden-error tests.
# Included from Makefile.am; only appends.
check_PROGRAMS += tests/fdr/test-fdr-offline tests/fdr/test-fdr-live
TESTS += tests/fdr/test-fdr-offline tests/fdr/test-fdr-live

tests_fdr_test_fdr_offline_SOURCES = tests/fdr/test-fdr-offline.c tests/fdr/fdr_testutil.h tests/tap.h
tests_fdr_test_fdr_offline_CFLAGS = $(RAS_CFLAGS)
tests_fdr_test_fdr_offline_LDADD = rasd/librasd.a $(RAS_LIBS)

tests_fdr_test_fdr_live_SOURCES = tests/fdr/test-fdr-live.c tests/fdr/fdr_testutil.h tests/tap.h
tests_fdr_test_fdr_live_CFLAGS = $(RAS_CFLAGS)
tests_fdr_test_fdr_live_LDADD = rasd/librasd.a $(RAS_LIBS)
