# Flight recorder, snapshot rendering, boot command line, hidden-error checks (issue 5).
# Included from Makefile.am; only appends.
rasd_libras_a_SOURCES += \
	rasd/fdr.c rasd/fdr.h rasd/fdr_blob.c rasd/fdr_blob.h \
	rasd/fdr_render.c rasd/fdr_render.h rasd/fdr_boot.c rasd/fdr_boot.h \
	rasd/hidden.c rasd/hidden.h db/db_snapshot.h

check_PROGRAMS += tests/fdr/test-fdr-offline tests/fdr/test-fdr-live
TESTS += tests/fdr/test-fdr-offline tests/fdr/test-fdr-live

tests_fdr_test_fdr_offline_SOURCES = tests/fdr/test-fdr-offline.c tests/fdr/fdr_testutil.h tests/tap.h
tests_fdr_test_fdr_offline_CFLAGS = $(RAS_CFLAGS)
tests_fdr_test_fdr_offline_LDADD = $(RAS_LIBS)

tests_fdr_test_fdr_live_SOURCES = tests/fdr/test-fdr-live.c tests/fdr/fdr_testutil.h tests/tap.h
tests_fdr_test_fdr_live_CFLAGS = $(RAS_CFLAGS)
tests_fdr_test_fdr_live_LDADD = $(RAS_LIBS)
