# SPDX-License-Identifier: MIT
# rasd's daemon (rasd/daemon.c and the files split from it) and its storage
# tests. Included by the top Makefile.am; only appends.
EXTRA_DIST += rasd/daemon.mk

# The database replaced behind the writer while a reader holds the old file's
# log: "moved", never corrupt, and the new file never opened through that log.
check_PROGRAMS += tests/test-storage-moved-wal
TESTS += tests/test-storage-moved-wal
tests_test_storage_moved_wal_CFLAGS = $(RAS_CFLAGS)
tests_test_storage_moved_wal_LDADD = $(TEST_LIBS)
tests_test_storage_moved_wal_SOURCES = tests/test-storage-moved-wal.c rasd/storage.c rasd/storage.h

# The daemon by job: the loop (daemon.c), start-up, storage failures, the instances from before it.
rasd_rasd_SOURCES += rasd/daemon_internal.h rasd/daemon_setup.c rasd/daemon_storage.c rasd/daemon_boot.c
