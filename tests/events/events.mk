# Issue 36's events: the process a memory failure killed (signal_generate),
# disk errors before 5.18 (block_rq_complete), NIC transmit timeouts and CXL
# memory sparing; their decoders, the kernel-side filters, the SIGBUS link,
# and their tests. Included by the top Makefile.am; only appends.

decoders_libdecoders_a_SOURCES += decoders/sigbus.c decoders/sigbus.h \
	decoders/netdev.c decoders/netdev.h
lib_libras_a_SOURCES += lib/keep.c lib/keep.h
db_libdb_a_SOURCES += db/db_link.c db/db_link.h

EXTRA_DIST += tests/events/events.mk tests/qemu/guest/sigbus.c

# Golden vectors of the decoders.
check_PROGRAMS += tests/decoders/test-host
TESTS += tests/decoders/test-host
tests_decoders_test_host_SOURCES = tests/decoders/test-host.c tests/tap.h
tests_decoders_test_host_LDADD = decoders/libdecoders.a

# The keep terms and stand-ins of the event table.
check_PROGRAMS += tests/events/test-keep
TESTS += tests/events/test-keep
tests_events_test_keep_CFLAGS = $(RAS_CFLAGS)
tests_events_test_keep_LDADD = $(TEST_LIBS)

# A memory-failure SIGBUS and its page, from records to errors, --json and export.
check_PROGRAMS += tests/events/test-sigbus-link
TESTS += tests/events/test-sigbus-link
tests_events_test_sigbus_link_CFLAGS = $(RAS_CFLAGS)
tests_events_test_sigbus_link_LDADD = $(TEST_LIBS)

# A CXL device's own threshold acts on its page at once.
check_PROGRAMS += tests/events/test-cxl-threshold
TESTS += tests/events/test-cxl-threshold
tests_events_test_cxl_threshold_SOURCES = tests/events/test-cxl-threshold.c $(ACTIONS_FIXTURE)
tests_events_test_cxl_threshold_CFLAGS = $(RAS_CFLAGS)
tests_events_test_cxl_threshold_LDADD = $(TEST_LIBS)

# The kernel's filters and the stand-in on this machine's tracefs (root), with
# a process that sends itself the memory-failure SIGBUS.
check_PROGRAMS += tests/events/selfbus
TESTS += tests/events/test-events-live.sh
EXTRA_DIST += tests/events/test-events-live.sh
