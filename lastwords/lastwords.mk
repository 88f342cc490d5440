# SPDX-License-Identifier: MIT
# The last words of a boot (issue 35): pure parsers of what the firmware and
# pstore keep across a crash (lastwords/), their SQL (db/db_crashes.c), the
# harvest at rasd's start (rasd/lastwords*.c), ras-fdr-ctl crashes, tests and
# the fuzz target. Included by the top Makefile.am; only appends.

noinst_LIBRARIES += lastwords/liblastwords.a
lastwords_liblastwords_a_SOURCES = \
	lastwords/pstore_name.c lastwords/pstore_name.h \
	lastwords/dmesg.c lastwords/dmesg.h \
	lastwords/cause.c lastwords/cause.h \
	lastwords/dump.c lastwords/dump.h \
	lastwords/mce_layout.c lastwords/mce_layout.h \
	lastwords/pstore_conf.c lastwords/pstore_conf.h
EXTRA_DIST += lastwords/lastwords.mk
# After the libraries that use it (db, lib, rasd): static libraries link in order.
CTL_LIBS += lastwords/liblastwords.a
db_libdb_a_SOURCES += db/db_crashes.c db/db_crashes_read.c db/db_crashes.h
rasd_librasd_a_SOURCES += rasd/lastwords.c rasd/lastwords_scan.c rasd/lastwords.h rasd/lastwords_internal.h
ctl_ras_fdr_ctl_SOURCES += ctl/crashes.c

# Golden vectors of the parsers (pure: lastwords/ and the test helpers only).
check_PROGRAMS += tests/lastwords/test-lastwords
TESTS += tests/lastwords/test-lastwords
tests_lastwords_test_lastwords_SOURCES = tests/lastwords/test-lastwords.c tests/tap.h
tests_lastwords_test_lastwords_CFLAGS = $(RAS_CFLAGS)
tests_lastwords_test_lastwords_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/data/lastwords
# The harvest replayed: every pstore layout, malformed files, /dev/mcelog's layouts, the fault test.
check_PROGRAMS += tests/lastwords/test-harvest
TESTS += tests/lastwords/test-harvest
tests_lastwords_test_harvest_SOURCES = tests/lastwords/test-harvest.c
tests_lastwords_test_harvest_CFLAGS = $(RAS_CFLAGS)
tests_lastwords_test_harvest_LDADD = $(TEST_LIBS)
FUZZ_TARGETS += fuzz/fuzz-lastwords.c
EXTRA_DIST += fuzz/fuzz-lastwords.c
